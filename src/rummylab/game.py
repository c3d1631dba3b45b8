"""The vocabulary every game shares, in the OpenSpiel manner.

A :class:`State` is a whole match at a decision point. Chance (shuffles) is
resolved inside from the seed or from explicit deck orders, so a state always
waits for a seat to act, or is terminal::

    state = new_state("gin", seed=7)
    while not state.is_terminal():
        seat = state.current_player()
        action = bot_for[seat].act(state.observation(seat))
        state.apply_action(action)

Actions are ints in a fixed space of ``num_distinct_actions()`` with a
stable text form (``action_to_string`` / ``string_to_action``). Everything
that happens is appended to ``state.events`` as plain JSON-able dicts; the
record writer streams them (``rummylab.records``).
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from importlib import import_module
from types import MappingProxyType
from typing import Any, ClassVar, Self

from rummylab.errors import IllegalActionError, OptionError
from rummylab.options import Option, OptionValue, resolve_options

TERMINAL = -1


def whole_number(value: object) -> int | None:
    """``value`` as an int if it is a whole number (numpy's integers too),
    else None: never a bool, a float or a string, which ``int()`` would turn
    into another number.

    >>> whole_number(7), whole_number(7.0), whole_number(True), whole_number("7")
    (7, None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # a float, a string, an array of several
        return None


def as_text(text: object) -> str:
    """``text`` if it is a string: an action given as text must be one (an id
    goes to ``apply_action``); anything else is an :class:`IllegalActionError`.

    >>> as_text(5)
    Traceback (most recent call last):
    rummylab.errors.IllegalActionError: an action as text must be a string, not int
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"an action as text must be a string, not {type(text).__name__}")
    return text


def as_action(action: object) -> int:
    """An action id as a plain ``int``: any integer type passes (numpy's
    too, through ``__index__``); anything else is an
    :class:`IllegalActionError`, so a state never stores a foreign number.

    >>> as_action(True)
    Traceback (most recent call last):
    rummylab.errors.IllegalActionError: True is not an action id (an int)
    >>> as_action(3.0)
    Traceback (most recent call last):
    rummylab.errors.IllegalActionError: 3.0 is not an action id (an int)
    """
    whole = whole_number(action)
    if whole is None:
        raise IllegalActionError(f"{action!r} is not an action id (an int)")
    return whole


Event = dict[str, Any]


def frozen(value: Any) -> Any:
    """A read-only deep copy: mappings become mapping proxies, lists tuples.

    >>> r = frozen({"melds": ["As 2s 3s"], "hands": [{"points": 4}]})
    >>> r["melds"], r["hands"][0]["points"]
    (('As 2s 3s',), 4)
    """
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    return value


def thawed(value: Any) -> Any:
    """Plain dicts and lists again (for JSON), from :func:`frozen`'s form.

    >>> thawed(frozen({"melds": ["As 2s 3s"]}))
    {'melds': ['As 2s 3s']}
    """
    if isinstance(value, Mapping):
        return {k: thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thawed(v) for v in value]
    return value


class State(ABC):
    """A match in progress. Subclasses are the games."""

    game_name: ClassVar[str]
    option_spec: ClassVar[Mapping[str, Option]]

    options: dict[str, OptionValue]
    num_players: int
    _legal: list[int] | None
    _scores: list[int]
    _winners: list[int]
    _final: list[int]
    seed: int | None
    events: list[Event]
    #: dealt from deck orders given to the constructor, not from the seed
    decks_given: bool = False
    #: the module that writes and reads this game's positions (rummylab.position)
    position_module: ClassVar[str]

    # -- whose turn, what is legal ------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal action ids for the seat to act, ascending."""

    @classmethod
    @abstractmethod
    def num_distinct_actions(cls) -> int:
        """Size of the fixed action space."""

    def legal_action_mask(self) -> list[bool]:
        mask = [False] * self.num_distinct_actions()
        for a in self.legal_actions():
            mask[a] = True
        return mask

    # -- acting --------------------------------------------------------
    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises
        :class:`IllegalActionError` and changes nothing."""

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse an action's text form (any case); raise
        :class:`IllegalActionError` for text that names no action."""

    def apply(self, text: str) -> int:
        """Parse and apply an action given as text; returns its id."""
        action = self.string_to_action(as_text(text))
        self.apply_action(action)
        return action

    def _require_legal(self, action: int) -> int:
        """``action`` as a plain int; raise unless it is legal now (the
        cached list first: hot path)."""
        if type(action) is not int:
            action = as_action(action)
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            self.check_legal(action)
        return action

    def check_legal(self, action: int) -> int:
        """``action`` as a plain int; raise :class:`IllegalActionError`
        unless it is legal now."""
        action = as_action(action)
        if self.is_terminal():
            raise IllegalActionError("the match is over")
        if action not in self.legal_actions():
            try:
                text = self.action_to_string(action)
            except (IllegalActionError, ValueError, IndexError):
                text = str(action)
            legal = ", ".join(self.action_to_string(a) for a in self.legal_actions())
            raise IllegalActionError(f"{text!r} is not legal now (legal: {legal})")
        return action

    def __getstate__(self) -> dict[str, Any]:
        # the view cache holds mapping proxies, which cannot be pickled
        state = dict(self.__dict__)
        state.pop("_result_cache", None)
        return state

    # -- views and results -------------------------------------------
    def _result_view(self, results: Sequence[Event]) -> Mapping[str, Any] | None:
        """The latest of ``results`` for an observation: a read-only deep
        copy, made once per result, so no view reaches the state."""
        if not results:
            return None
        cache = self.__dict__.get("_result_cache")
        if cache is None or cache[0] is not results[-1]:
            cache = self.__dict__["_result_cache"] = (results[-1], frozen(results[-1]))
        view: Mapping[str, Any] = cache[1]
        return view

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may know, and nothing more."""

    @property
    def scores(self) -> list[int]:
        """Running totals."""
        return list(self._scores)

    @property
    def winners(self) -> list[int]:
        """The seats that won the match (empty until it is over)."""
        return list(self._winners)

    @property
    def final_scores(self) -> list[int]:
        """Totals with the end-of-match bonuses (empty until it is over)."""
        return list(self._final)

    def returns(self) -> list[float]:
        """Per seat, zero-sum: own final score less the others' mean."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        return self._zero_sum(self._final)

    @abstractmethod
    def clone(self) -> Self: ...

    # -- positions (docs/positions.md) ---------------------------------------
    def position(self, seat: int | None = None) -> str:
        """This moment as one line: the whole state, or with ``seat`` only
        what that seat may know (written from its observation alone)."""
        text: str = self.position_codec().write(self, None if seat is None else self._seat(seat))
        return text

    @classmethod
    def position_codec(cls) -> Any:
        """The game's position module (``write`` and ``read``)."""
        return import_module(cls.position_module)

    @classmethod
    def record_version_setup(cls, version: int) -> dict[str, Any]:
        """Constructor keywords that replay a record of an older format
        ``version`` as it was played (none: every version plays alike)."""
        return {}

    # -- helpers the games share ------------------------------------------
    def _setup(self, options: Mapping[str, object] | None, seed: int | None) -> None:
        """Validate the options and key every shuffle to the seed."""
        self.options = resolve_options(self.option_spec, options)
        # 7.0, True or "7" would deal another game than 7 (the shuffles key on its text)
        if seed is not None:
            whole = whole_number(seed)
            if whole is None:
                raise OptionError(f"the seed must be a whole number, not {seed!r}")
            seed = whole
        self.seed = seed
        self.events = []
        # each shuffle draws from its own generator keyed by the seed, so a
        # clone copies no generator state
        self._base_seed = seed if seed is not None else random.SystemRandom().randrange(2**63)

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.game_name}/{self._base_seed}/{purpose}")

    def _first_dealer(self, first_dealer: int | None, players: int) -> int:
        """The given first dealer, or one drawn at random from the seed."""
        if first_dealer is None:
            return self._rng("dealer").randrange(players)
        seat = whole_number(first_dealer)
        if seat is None or not 0 <= seat < players:
            raise IllegalActionError(f"first_dealer must be a seat from 0 to {players - 1}, "
                                     f"not {first_dealer!r}")
        return seat

    def _seat(self, seat: object) -> int:
        """``seat`` as a plain int if it is one of the seats (never a bool)."""
        n = whole_number(seat)
        if n is None or not 0 <= n < self.num_players:
            raise IllegalActionError(f"no seat {seat!r}")
        return n

    @staticmethod
    def _zero_sum(final: Sequence[float]) -> list[float]:
        """Each seat's final score less the mean of the others'."""
        n, total = len(final), sum(final)
        return [f - (total - f) / (n - 1) for f in final]

    def take_events(self) -> list[Event]:
        """Events since the last call (for streaming records)."""
        out, self.events = self.events, []
        return out
