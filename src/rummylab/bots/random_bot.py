"""Uniform over the legal actions."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rummylab.bots.base import Bot, to_act


class RandomBot(Bot):
    name = "random"
    quick = True
    accepted_options = ("seed",)

    def __init__(self, options: Mapping[str, str] | None = None, seed: int | None = None):
        super().__init__(options, seed)
        seed = self.seed_option()
        self._rng = random.Random(0 if seed is None else seed)  # never unseeded

    def act(self, observation: Any) -> int:
        legal = to_act(observation)
        return int(legal[self._rng.randrange(len(legal))])

    def hint(self, observation: Any) -> tuple[int, str]:
        """The move ``act`` would make next: asking leaves the stream where it was."""
        state = self._rng.getstate()
        action = self.act(observation)
        self._rng.setstate(state)
        return action, "a legal move picked at random"
