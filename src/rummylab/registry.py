"""Games by name."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from importlib import import_module
from typing import Any

from rummylab.errors import OptionError
from rummylab.game import State

# name -> "module:class"; imported on first use, so a game costs nothing until played
GAMES: dict[str, str] = {
    "gin": "rummylab.gin.game:GinState",
    "gin3": "rummylab.gin.three_player:Gin3State",
    "three-thirteen": "rummylab.three_thirteen.game:ThirteenState",
    "manipulation": "rummylab.manipulation.game:ManipulationState",
}


def game_class(name: str) -> type[State]:
    key = name.strip().lower().replace("_", "-")
    aliases = {"gin-rummy": "gin", "three-player-gin": "gin3", "3-13": "three-thirteen",
               "thirteen": "three-thirteen", "313": "three-thirteen"}
    key = aliases.get(key, key)
    if key not in GAMES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    module, _, cls = GAMES[key].partition(":")
    found: type[State] = getattr(import_module(module), cls)
    return found


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
