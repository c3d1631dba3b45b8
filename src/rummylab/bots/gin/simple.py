"""The well-known simple Gin strategy: keep melds, take the upcard only
when it lowers the deadwood, discard the highest deadwood card, knock as soon
as the rules allow (gin when possible)."""

from __future__ import annotations

from typing import Any

from rummylab.bots.base import Bot, to_act
from rummylab.cards import CARD_POINTS, card_str
from rummylab.gin.game import (
    BIG_GIN,
    DISCARD_BASE,
    DRAW_STOCK,
    KNOCK_BASE,
    PASS,
    TAKE_DISCARD,
    GinObservation,
)
from rummylab.gin.solver import deadwood


class SimpleGinBot(Bot):
    name = "simple"
    quick = True

    def act(self, observation: Any) -> int:
        return self.hint(observation)[0]

    def hint(self, observation: Any) -> tuple[int, str]:
        obs: GinObservation = observation
        legal = to_act(obs)
        hand = obs.hand
        if TAKE_DISCARD in legal:
            top = obs.discard_pile[-1]
            now = deadwood(hand)
            with_top = hand | 1 << top
            after = min(deadwood(with_top & ~(1 << c)) for c in range(52)
                        if with_top >> c & 1 and c != top)
            if after < now:
                return TAKE_DISCARD, f"{card_str(top)} lowers the deadwood from {now} to {after}"
            fallback = PASS if PASS in legal else DRAW_STOCK
            return fallback, f"{card_str(top)} does not lower the deadwood ({now})"
        if legal == (PASS,) or legal == (DRAW_STOCK,):
            return legal[0], "the only legal move"
        if BIG_GIN in legal:
            return BIG_GIN, "all eleven cards are melded"
        knocks = [a for a in legal if KNOCK_BASE <= a < BIG_GIN]
        if knocks:
            scored = [(deadwood(hand & ~(1 << (a - KNOCK_BASE))),
                       -CARD_POINTS[a - KNOCK_BASE], a) for a in knocks]
            dw, _, a = min(scored)
            what = "gin" if dw == 0 else f"knock with {dw} deadwood"
            return a, f"{what} as soon as the rules allow"
        discards = [a for a in legal if DISCARD_BASE <= a < KNOCK_BASE]
        scored = [(deadwood(hand & ~(1 << (a - DISCARD_BASE))),
                   -CARD_POINTS[a - DISCARD_BASE], a) for a in discards]
        dw, _, a = min(scored)
        return a, f"keeps the melds and leaves the least deadwood ({dw})"
