"""The bot interface."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from rummylab.errors import OptionError


class Bot(ABC):
    """Decides from an observation alone: it never sees the state."""

    name = "bot"
    accepted_options: tuple[str, ...] = ()

    def __init__(self, options: Mapping[str, str] | None = None, seed: int | None = None):
        options = dict(options or {})
        for key in options:
            if key not in self.accepted_options:
                allowed = ", ".join(self.accepted_options) or "none"
                raise OptionError(f"bot {self.name!r} has no option {key!r} (options: {allowed})")
        self.options = options
        self.seed = seed

    @abstractmethod
    def act(self, observation: Any) -> int:
        """A legal action for the seat the observation belongs to."""

    def move(self, observation: Any) -> int | str:
        """The move to make: an action id, or where the game has text moves
        that no id names (Manipulation's ``meld CARDS => TABLE``), that text,
        applied with ``state.apply``. By default the action ``act`` chooses."""
        return self.act(observation)

    def move_hint(self, observation: Any) -> tuple[int | str, str]:
        """The move ``move`` makes and a one-line reason (by default ``hint``)."""
        return self.hint(observation)

    def hint(self, observation: Any) -> tuple[int, str]:
        """The recommended action and a one-line reason."""
        return self.act(observation), f"{self.name} would play this"

    # -- options, checked with one-line errors ------------------------------
    def int_option(self, key: str, default: int, low: int | None = None,
                   high: int | None = None) -> int:
        """The integer option ``key``, from ``low`` to ``high``."""
        if key not in self.options:
            return default
        try:
            value = int(self.options[key])
        except ValueError:
            raise OptionError(f"bot option {key} must be an integer") from None
        self._check_range(key, value, low, high)
        return value

    def float_option(self, key: str, default: float, low: float | None = None,
                     high: float | None = None) -> float:
        """The numeric option ``key``, a finite number from ``low`` to ``high``."""
        if key not in self.options:
            return default
        try:
            value = float(self.options[key])
        except ValueError:
            raise OptionError(f"bot option {key} must be a number") from None
        if not math.isfinite(value):
            raise OptionError(f"bot option {key} must be a finite number")
        self._check_range(key, value, low, high)
        return value

    @staticmethod
    def _check_range(key: str, value: float, low: float | None, high: float | None) -> None:
        if low is not None and high is not None and not low <= value <= high:
            raise OptionError(f"bot option {key} must be from {low:g} to {high:g}")
        if low is not None and value < low:
            raise OptionError(f"bot option {key} must be at least {low:g}")
        if high is not None and value > high:
            raise OptionError(f"bot option {key} must be at most {high:g}")

    def seed_option(self, low: int | None = None) -> int | None:
        """The ``seed`` option if given, else the seed the bot was made with."""
        if "seed" in self.options:
            return self.int_option("seed", 0, low)
        return self.seed

    def spec(self) -> str:
        opts = "".join(f":{k}={v}" for k, v in self.options.items())
        return self.name + opts
