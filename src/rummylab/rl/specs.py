"""The four games as the research adapters see them: name, engine class,
player counts, how many decks, which way the score points.

Nothing here needs numpy: the adapters and their tests share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummylab.errors import OptionError
from rummylab.game import State
from rummylab.registry import game_class

#: adapter names (``gin``, ``gin3``, ``three_thirteen``, ``manipulation``)
GAMES = ("gin", "gin3", "three_thirteen", "manipulation")

#: OpenSpiel short names, registered on ``import rummylab.rl``
SPIEL_NAMES = {
    "gin": "python_rummylab_gin",
    "gin3": "python_rummylab_gin3",
    "three_thirteen": "python_rummylab_three_thirteen",
    "manipulation": "python_rummylab_manipulation",
}

_ALIASES = {
    "gin": "gin", "gin_rummy": "gin", "gin-rummy": "gin",
    "gin3": "gin3", "three-player-gin": "gin3", "three_player_gin": "gin3",
    "three_thirteen": "three_thirteen", "three-thirteen": "three_thirteen",
    "thirteen": "three_thirteen", "313": "three_thirteen", "3-13": "three_thirteen",
    "manipulation": "manipulation",
}


@dataclass(frozen=True)
class GameSpec:
    """What an adapter needs to know about one game."""

    name: str  # adapter name, e.g. "three_thirteen"
    engine: str  # registry name, e.g. "three-thirteen"
    title: str  # e.g. "ThreeThirteen" (Gymnasium id stem)
    players: tuple[int, ...]  # allowed player counts
    default_players: int
    players_option: bool  # the engine takes a ``players`` option
    lower_is_better: bool  # Three Thirteen scores penalties

    @property
    def cls(self) -> type[State]:
        return game_class(self.engine)

    @property
    def num_actions(self) -> int:
        return self.cls.num_distinct_actions()

    def decks(self, players: int) -> int:
        if self.name in ("gin", "gin3"):
            return 1
        return 1 if players == 2 else 2

    def check_players(self, players: int | None) -> int:
        n = self.default_players if players is None else int(players)
        if n not in self.players:
            allowed = ", ".join(str(p) for p in self.players)
            raise OptionError(f"{self.name} is played by {allowed} players, not {n}")
        return n

    def engine_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The engine's options with the player count folded in."""
        out = dict(options or {})
        if "players" in out:
            if int(out["players"]) != players:
                raise OptionError("give the player count once (players=...)")
            del out["players"]
        if self.players_option:
            out["players"] = players
        return out

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: int | None,
                  **kw: Any) -> State:
        cls: Any = self.cls
        state: State = cls(self.engine_options(players, options), seed, **kw)
        return state


SPECS: dict[str, GameSpec] = {
    "gin": GameSpec("gin", "gin", "Gin", (2,), 2, False, False),
    "gin3": GameSpec("gin3", "gin3", "Gin3", (3,), 3, False, False),
    "three_thirteen": GameSpec("three_thirteen", "three-thirteen", "ThreeThirteen",
                               (2, 3, 4), 2, True, True),
    "manipulation": GameSpec("manipulation", "manipulation", "Manipulation",
                             (2, 3, 4, 5), 3, True, False),
}


def spec_of(game: str) -> GameSpec:
    """The spec of ``game`` (adapter name or any registry alias).

    >>> spec_of("three-thirteen").name
    'three_thirteen'
    """
    key = _ALIASES.get(game.strip().lower())
    if key is None:
        raise OptionError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    return SPECS[key]


def zero_sum(deltas: list[int] | list[float], lower_is_better: bool) -> list[float]:
    """Each seat's points less the others' mean (the engines' ``returns`` rule).

    >>> zero_sum([10, 0], False), zero_sum([6, 0, 0], False), zero_sum([4, 10], True)
    ([10.0, -10.0], [6.0, -3.0, -3.0], [6.0, -6.0])
    """
    n = len(deltas)
    total = float(sum(deltas))
    if lower_is_better:
        return [(total - d) / (n - 1) - d for d in deltas]
    return [d - (total - d) / (n - 1) for d in deltas]
