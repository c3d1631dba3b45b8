"""Uniform over the legal actions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rummylab.bots.base import Bot


class RandomBot(Bot):
    name = "random"
    accepted_options = ("seed",)

    def __init__(self, options: Mapping[str, str] | None = None, seed: int | None = None):
        super().__init__(options, seed)
        self._rng = random.Random(self.seed_option())

    def act(self, observation: Any) -> int:
        legal = observation.legal_actions
        return int(legal[self._rng.randrange(len(legal))])

    def hint(self, observation: Any) -> tuple[int, str]:
        """The move ``act`` would make next: asking leaves the stream where it was."""
        state = self._rng.getstate()
        action = self.act(observation)
        self._rng.setstate(state)
        return action, "a legal move picked at random"
