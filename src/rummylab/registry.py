"""Games by name: every game class names itself (``State.game_name`` and
``State.aliases``); this module lists the classes and finds one by any name.

>>> list(GAMES)
['gin', 'gin3', 'three-thirteen', 'manipulation']
>>> game_class("313").title, game_class("Three_Thirteen").game_name
('Three Thirteen', 'three-thirteen')
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import Any

from rummylab.errors import OptionError
from rummylab.game import State

# where each game class lives, under the name it gives itself (``game_name``;
# tests/test_game_names.py checks they agree): a class is imported when its
# game is first asked for, so a game costs nothing until played
_WHERE: dict[str, str] = {
    "gin": "rummylab.gin.game:GinState",
    "gin3": "rummylab.gin.three_player:Gin3State",
    "three-thirteen": "rummylab.three_thirteen.game:ThirteenState",
    "manipulation": "rummylab.manipulation.game:ManipulationState",
}

#: the game played when none is named
DEFAULT_GAME = "gin"


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


class _Games(Mapping[str, type[State]]):
    """Game name -> game class, in listing order: a read-only mapping whose
    names are known at once and whose classes are imported when first used."""

    def __getitem__(self, name: str) -> type[State]:
        module, _, cls = _WHERE[name].partition(":")
        found: type[State] = getattr(import_module(module), cls)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)

    def __contains__(self, name: object) -> bool:
        return name in _WHERE

    def __repr__(self) -> str:
        return f"GAMES({', '.join(_WHERE)})"


#: every game by its name (``list(GAMES)``: the names, ``GAMES[name]``: the class)
GAMES: Mapping[str, type[State]] = _Games()


def game_classes() -> list[type[State]]:
    """Every game class, in listing order (imports them all)."""
    return [GAMES[name] for name in GAMES]


def game_class(name: str) -> type[State]:
    """The class of the game called ``name``: its ``game_name`` or one of its
    ``aliases``, in any case, with ``_`` or ``-``."""
    key = _key(name)
    if key in GAMES:
        return GAMES[key]
    for cls in game_classes():  # an alias: each class names its own
        if key in {_key(a) for a in cls.aliases}:
            return cls
    raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")


def new_state(
    game: str, options: Mapping[str, object] | None = None, seed: int | None = None, **kw: Any
) -> State:
    """A new match of ``game`` with ``options`` from ``seed``.

    >>> state = new_state("gin", {"target": 50}, seed=1)
    >>> state.options["target"]
    50
    """
    if not isinstance(game, str):
        raise OptionError(f"a game is named by a string (games: {', '.join(GAMES)}), "
                          f"not {type(game).__name__}")
    cls: Any = game_class(game)
    takes = [p.name for p in inspect.signature(cls).parameters.values()
             if p.kind is p.KEYWORD_ONLY]
    for key in kw:
        if key not in takes:  # else a TypeError from the constructor
            raise OptionError(f"{cls.game_name} takes no argument {key!r} "
                              f"(it takes {', '.join(['options', 'seed', *takes])})")
    state: State = cls(options, seed, **kw)
    return state
