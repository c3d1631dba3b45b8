"""The bot interface."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from rummylab.errors import IllegalActionError, OptionError


class Bot(ABC):
    """Decides from an observation alone: it never sees the state."""

    name = "bot"
    accepted_options: tuple[str, ...] = ()
    # a move takes microseconds (at most a millisecond or so): the table server runs it on
    # its event loop, where a hop to a thread and back would cost more than the move
    quick = False

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
        """The recommended action and a one-line reason: the action ``act``
        would return. By default ``act`` itself, so a bot whose ``act`` draws
        from a running random stream should override ``hint`` to leave the
        stream where it was (as the random bot does)."""
        return self.act(observation), f"{self.name} would play this"


    # -- options, checked with one-line errors ------------------------------
    def int_option(self, key: str, default: int, low: int | None = None,
                   high: int | None = None) -> int:
        """The integer option ``key``, from ``low`` to ``high``."""
        if key not in self.options:
            return default
        raw = self.options[key]
        try:
            if isinstance(raw, bool) or not isinstance(raw, (str, int)):
                raise ValueError
            value = int(raw)
        except ValueError:
            raise OptionError(f"bot option {key} must be an integer, got {raw!r}") from None
        self._check_range(key, value, low, high)
        return value

    def float_option(self, key: str, default: float, low: float | None = None,
                     high: float | None = None) -> float:
        """The numeric option ``key``, a finite number from ``low`` to ``high``."""
        if key not in self.options:
            return default
        raw = self.options[key]
        try:
            if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
                raise ValueError
            value = float(raw)
        except ValueError:
            raise OptionError(f"bot option {key} must be a number, got {raw!r}") from None
        if not math.isfinite(value):
            raise OptionError(f"bot option {key} must be a finite number")
        self._check_range(key, value, low, high)
        return value

    @staticmethod
    def _check_range(key: str, value: float, low: float | None, high: float | None) -> None:
        def num(x: float) -> str:  # an integer bound exactly, not rounded by :g
            return str(x) if isinstance(x, int) else f"{x:g}"

        if low is not None and high is not None and not low <= value <= high:
            raise OptionError(f"bot option {key} must be from {num(low)} to {num(high)}")
        if low is not None and value < low:
            raise OptionError(f"bot option {key} must be at least {num(low)}")
        if high is not None and value > high:
            raise OptionError(f"bot option {key} must be at most {num(high)}")

    def requires(self, key: str, needs: str, on: bool) -> None:
        """Refuse option ``key`` when the option it works through is off
        (``on`` false): it would be accepted and do nothing."""
        if key in self.options and not on:
            raise OptionError(f"bot option {key} has no effect unless {needs}")

    def seed_option(self, low: int | None = None) -> int | None:
        """The ``seed`` option if given, else the seed the bot was made with."""
        if "seed" in self.options:
            return self.int_option("seed", 0, low)
        return self.seed

    def spec(self) -> str:
        opts = "".join(f":{k}={v}" for k, v in self.options.items())
        return self.name + opts


def to_act(observation: Any) -> Any:
    """The observation's legal actions; an observation of a seat that has no
    move (not its turn, or the game over) is refused in one line."""
    legal = observation.legal_actions
    if not legal:
        raise IllegalActionError(f"seat {observation.seat} has no move to make now: "
                                 "a bot decides for the seat that is to act")
    return legal
