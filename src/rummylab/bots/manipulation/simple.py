"""A simple Manipulation strategy: make the play that sheds the most points
each turn, knock as soon as the rules allow, otherwise draw."""

from __future__ import annotations

from typing import Any

from rummylab.bots.base import Bot, to_act
from rummylab.manipulation.game import DRAW, KNOCK, MELD_BEST, PASS, ManipulationObservation
from rummylab.manipulation.solver import best_play
from rummylab.manipulation.table import hand_points


class SimpleManipulationBot(Bot):
    name = "simple"

    def act(self, observation: Any) -> int:
        return self.hint(observation)[0]

    def hint(self, observation: Any) -> tuple[int, str]:
        obs: ManipulationObservation = observation
        legal = to_act(obs)
        if MELD_BEST in legal:
            play = best_play(obs.table, list(obs.hand), obs.decks,
                             first_meld_from_hand_only=obs.first_meld_from_hand_only)
            shed = play.points_shed if play is not None else 0
            return MELD_BEST, f"the best play sheds {shed} points"
        if KNOCK in legal:
            return KNOCK, f"{hand_points(obs.hand)} points in hand: knock while allowed"
        if DRAW in legal:
            return DRAW, "nothing to meld: draw again"
        return PASS, "nothing to meld and no draw left"
