"""Games by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummylab.errors import OptionError
from rummylab.game import State
from rummylab.gin.game import GinState
from rummylab.gin.three import Gin3State
from rummylab.thirteen.game import ThirteenState

GAMES: dict[str, type[State]] = {
    "gin": GinState,
    "gin3": Gin3State,
    "three-thirteen": ThirteenState,
}


def game_class(name: str) -> type[State]:
    key = name.strip().lower().replace("_", "-")
    aliases = {"gin-rummy": "gin", "three-player-gin": "gin3", "3-13": "three-thirteen",
               "thirteen": "three-thirteen", "313": "three-thirteen"}
    key = aliases.get(key, key)
    if key not in GAMES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return GAMES[key]


def new_state(
    game: str, options: Mapping[str, object] | None = None, seed: int | None = None, **kw: Any
) -> State:
    """A new match of ``game`` with ``options`` from ``seed``.

    >>> state = new_state("gin", {"target": 50}, seed=1)
    >>> state.options["target"]
    50
    """
    cls: Any = game_class(game)
    state: State = cls(options, seed, **kw)
    return state
