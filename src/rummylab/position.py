"""Positions: one line that names a moment of a game, to share it and start from it.

The grammar every game shares (docs/positions.md): the game's name and the
notation's version, then ``key=value`` fields separated by single spaces::

    gin/1 hand=1 dealer=0 scores=0,0 won=0,0 turn=1:offer hands=... stock=... pile=Qh

A value holds no space: cards are written in the project's notation (D-1)
separated by commas, ``-`` is an empty list, ``?10`` ten cards the writer
does not know, ``/`` separates the seats' parts of a field. Each game's
codec (``<game>/position.py``, registered with its State class when the
package is imported) says which fields it has; this module reads the
line into :class:`Fields`, converts values and dispatches
:func:`from_position` to the game.

>>> f = split("gin/1 hand=2 scores=0,25")
>>> f.game, f.version, f.need("hand")
('gin', 1, '2')
>>> split("gin/1 hand=2 hand=3")
Traceback (most recent call last):
...
rummylab.errors.PositionError: field hand= is written twice
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rummylab.cards import JOKER, Card, card_str, parse_card
from rummylab.errors import CardError, OptionError, PositionError
from rummylab.options import Option, OptionValue, resolve_options

if TYPE_CHECKING:
    from rummylab.game import State

#: the notation's version; a reader refuses versions it does not know
VERSION = 1
VERSIONS = (1,)

_KEY = re.compile(r"[a-z][a-z0-9_]*\Z")
_UNKNOWN = re.compile(r"\?(\d+)\Z")


class Codec(Protocol):
    """What a game's position module provides."""

    def write(self, state: Any, seat: int | None) -> str: ...

    def read(self, cls: type[Any], fields: Fields, seed: int | None) -> Any: ...


@dataclass
class Fields:
    """A position's fields as text, read once each: :meth:`done` refuses
    any field that the game did not read."""

    game: str
    version: int
    values: dict[str, str]
    used: set[str] = field(default_factory=set)

    def take(self, key: str) -> str | None:
        self.used.add(key)
        return self.values.get(key)

    def need(self, key: str) -> str:
        value = self.take(key)
        if value is None:
            raise PositionError(f"field {key}= is missing")
        return value

    def done(self) -> None:
        extra = [k for k in self.values if k not in self.used]
        if extra:
            raise PositionError(f"unknown field or option {extra[0]!r} in a {self.game} position")


def split(text: object) -> Fields:
    """The header and the fields of a position; no value is checked here."""
    if not isinstance(text, str):
        raise PositionError(f"a position is a line of text, not {type(text).__name__}")
    if "\n" in text.strip() or "\r" in text.strip():
        raise PositionError("a position is one line")
    tokens = text.split()
    if not tokens:
        raise PositionError("empty position: it starts with the game's name, e.g. gin/1")
    game, slash, version = tokens[0].partition("/")
    if not slash or not game:
        raise PositionError(f"a position starts with the game's name and the notation's "
                            f"version, e.g. gin/1, not {tokens[0]!r}")
    if not version.isdigit() or int(version) not in VERSIONS:
        raise PositionError(f"unknown position version {version!r} (this reader knows "
                            f"{', '.join(map(str, VERSIONS))})")
    values: dict[str, str] = {}
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if not eq or not _KEY.match(key):
            raise PositionError(f"{token!r} is not a field: write key=value")
        if not value:
            raise PositionError(f"field {key}= has no value")
        if key in values:
            raise PositionError(f"field {key}= is written twice")
        values[key] = value
    return Fields(game.lower(), int(version), values)


# -- values -----------------------------------------------------------------------


def integer(value: str, what: str, lo: int = 0, hi: int | None = None) -> int:
    """A whole number from ``lo`` to ``hi``."""
    if not re.fullmatch(r"-?\d+", value):
        raise PositionError(f"{what} must be a whole number, not {value!r}")
    n = int(value)
    if n < lo or (hi is not None and n > hi):
        bound = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise PositionError(f"{what} must be {bound}, not {n}")
    return n


def integers(value: str, count: int, what: str, lo: int = 0) -> list[int]:
    """``count`` whole numbers separated by commas, one per seat."""
    parts = value.split(",")
    if len(parts) != count:
        raise PositionError(f"{what} has {len(parts)} values for {count} seats")
    return [integer(p, what, lo) for p in parts]


def seat(value: str, players: int, what: str) -> int:
    return integer(value, what, 0, players - 1)


def per_seat(value: str, count: int, what: str) -> list[str]:
    """The seats' parts of a field, separated by ``/``."""
    parts = value.split("/")
    if len(parts) != count:
        raise PositionError(f"{what} has {len(parts)} parts for {count} seats "
                            "(separate the seats with /)")
    return parts


def flag(value: str, what: str) -> bool:
    if value in ("true", "false"):
        return value == "true"
    raise PositionError(f"{what} must be true or false, not {value!r}")


def card(text: str, *, jokers: bool = False) -> Card:
    try:
        return parse_card(text, jokers=jokers)
    except CardError as e:
        raise PositionError(str(e)) from None


def cards(value: str, what: str, *, jokers: bool = False) -> list[Card]:
    """Cards separated by commas; ``-`` is none. No unknown cards here."""
    known, unknown = some_cards(value, what, jokers=jokers)
    if unknown:
        raise PositionError(f"{what} cannot hold unknown cards ({value!r})")
    return known


def some_cards(value: str, what: str, *, jokers: bool = False) -> tuple[list[Card], int]:
    """Cards separated by commas, the last item possibly ``?N`` (N cards not
    known to the writer); ``-`` is none. Returns the cards and N."""
    if value == "-":
        return [], 0
    parts = value.split(",")
    unknown = 0
    m = _UNKNOWN.match(parts[-1])
    if m:
        unknown = int(m.group(1))
        parts.pop()
    out = []
    for p in parts:
        if p.startswith("?"):
            raise PositionError(f"{what}: unknown cards are written once, last (e.g. Qh,?9), "
                                f"not {value!r}")
        if not p:
            raise PositionError(f"{what}: an empty card in {value!r}")
        out.append(card(p, jokers=jokers))
    return out, unknown


def cards_text(cs: Iterable[Card], unknown: int | None = None) -> str:
    """Cards separated by commas, then ``?N`` if ``unknown`` is given (``?0``
    too: a hidden hand whose every card was seen taken is still hidden)."""
    items = [card_str(c) for c in cs]
    if unknown is not None:
        items.append(f"?{unknown}")
    return ",".join(items) or "-"


def ints_text(ns: Iterable[int]) -> str:
    return ",".join(str(n) for n in ns)


def turn(value: str, players: int, steps: Sequence[str]) -> tuple[int, str] | None:
    """``SEAT:STEP`` (one of ``steps``), or ``over``: None."""
    if value == "over":
        return None
    who, colon, step = value.partition(":")
    if not colon:
        raise PositionError(f"turn= is SEAT:STEP or over, not {value!r}")
    if step not in steps:
        raise PositionError(f"turn= step {step!r} is not one of {', '.join(steps)}")
    return seat(who, players, "turn= seat"), step


def count_pack(held: Iterable[Card], pack: Mapping[Card, int], what: str = "") -> dict[Card, int]:
    """What is left of ``pack`` (card -> copies) once ``held`` is taken out;
    a card written more often than the pack holds it is an error."""
    left = dict(pack)
    for c in held:
        if left.get(c, 0) <= 0:
            copies = pack.get(c, 0)
            if c == JOKER and not copies:
                raise PositionError("jokers are not used in this game")
            raise PositionError(f"{card_str(c)} is written more often than the pack holds it "
                                f"({copies}){what}")
        left[c] -= 1
    return left


# -- options ---------------------------------------------------------------------


def option_tokens(options: Mapping[str, OptionValue], spec: Mapping[str, Option]) -> list[str]:
    """``name=value`` for each option that is not its default, in the spec's order."""
    out = []
    for name, opt in spec.items():
        value = options[name]
        if value != opt.default:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            out.append(f"{name}={text}")
    return out


def read_options(f: Fields, spec: Mapping[str, Option]) -> dict[str, OptionValue]:
    given = {name: f.take(name) for name in spec}
    try:
        return resolve_options(spec, {k: v for k, v in given.items() if v is not None})
    except OptionError as e:
        raise PositionError(str(e)) from None


# -- moves -------------------------------------------------------------------------


def moves_text(actions: Iterable[tuple[int, str]], code: Any) -> str:
    """The hand's moves: ``SEAT`` then the move's short code, comma-separated."""
    return ",".join(f"{s}{code(t)}" for s, t in actions)


def read_moves(value: str | None, players: int, decode: Any) -> list[tuple[int, str]]:
    if value is None:
        return []
    out = []
    for item in value.split(","):
        if len(item) < 2 or not item[0].isdigit():
            raise PositionError(f"moves=: {item!r} is not SEAT then a move (e.g. 0s, 1d7h)")
        s = int(item[0])
        if s >= players:
            raise PositionError(f"moves=: {item!r} names seat {s} of {players}")
        text = decode(item[1:])
        if text is None:
            raise PositionError(f"moves=: {item!r} is not a move of this game")
        out.append((s, text))
    return out


# -- the dispatch ------------------------------------------------------------------


def codec_of(cls: type[State]) -> Codec:
    codec: Codec = cls.position_codec()
    return codec


def from_position(text: str, seed: int | None = None) -> State:
    """A state at the moment ``text`` names, that plays on as the original.

    ``seed`` deals the later hands (with the seed of the original match,
    exactly the original's) and, for a seat's position, the cards that seat
    does not know. A position the rules do not allow is a
    :class:`~rummylab.errors.PositionError` naming what is wrong.
    """
    from rummylab.registry import GAMES, game_class

    fields = split(text)
    if fields.game not in GAMES:
        raise PositionError(f"unknown game {fields.game!r} (games: {', '.join(GAMES)})")
    cls = game_class(fields.game)
    state: State = codec_of(cls).read(cls, fields, seed)
    state.start_position = " ".join(text.split())
    return state
