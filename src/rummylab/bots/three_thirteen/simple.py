"""A simple Three Thirteen strategy: take the discard only when it lowers the
penalty, discard to keep the least penalty (the highest card on ties), go out
as soon as possible."""

from __future__ import annotations

from typing import Any

from rummylab.bots.base import Bot, to_act
from rummylab.cards import CARD_POINTS, card_str, multi_add, multi_cards, multi_remove
from rummylab.three_thirteen.game import (
    DISCARD_BASE,
    DRAW_STOCK,
    GO_OUT_BASE,
    TAKE_DISCARD,
    ThirteenObservation,
)
from rummylab.three_thirteen.solver import penalty


class SimpleThirteenBot(Bot):
    name = "simple"
    quick = True

    def act(self, observation: Any) -> int:
        return self.hint(observation)[0]

    def hint(self, observation: Any) -> tuple[int, str]:
        obs: ThirteenObservation = observation
        legal = to_act(obs)
        wr = obs.wild_rank
        aw = bool(obs.options["natural_wild_sets"])
        if TAKE_DISCARD in legal:
            top = obs.discard_pile[-1]
            now = penalty(obs.hand, wr, natural_wild_sets=aw)
            taken = multi_add(obs.hand, top)
            # D-3: the taken card stays; try every other discard
            after = min(penalty(multi_remove(taken, c), wr, natural_wild_sets=aw)
                        for c in set(multi_cards(obs.hand)))
            if after < now:
                return TAKE_DISCARD, f"{card_str(top)} lowers the penalty from {now} to {after}"
            return DRAW_STOCK, f"{card_str(top)} does not lower the penalty ({now})"
        if legal == (DRAW_STOCK,):
            return DRAW_STOCK, "the only legal move"
        outs = [a for a in legal if a >= GO_OUT_BASE]
        if outs:
            return max(outs, key=lambda a: (CARD_POINTS[a - GO_OUT_BASE], -a)), "go out"
        scored = [(penalty(multi_remove(obs.hand, a - DISCARD_BASE), wr, natural_wild_sets=aw),
                   -CARD_POINTS[a - DISCARD_BASE], a) for a in legal if a < GO_OUT_BASE]
        pen, _, a = min(scored)
        return a, f"leaves the least penalty ({pen})"
