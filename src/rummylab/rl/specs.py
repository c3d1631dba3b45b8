"""The games as the research adapters see them: adapter name, engine class,
player counts, how many decks, which way the score points, each read from
the game class (``rummylab.game.State``).

Nothing here needs numpy: the adapters and their tests share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummylab.errors import OptionError
from rummylab.game import State
from rummylab.registry import game_class, game_classes


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
        return self.cls.decks_for(players)

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


def _spec(cls: type[State]) -> GameSpec:
    name = cls.game_name.replace("-", "_")  # an adapter name is an identifier
    return GameSpec(name, cls.game_name, "".join(w.capitalize() for w in name.split("_")),
                    tuple(range(cls.min_players, cls.max_players + 1)), cls.default_players,
                    "players" in cls.option_spec, cls.lower_is_better)


SPECS: dict[str, GameSpec] = {spec.name: spec for spec in map(_spec, game_classes())}

#: adapter names (``gin``, ``gin3``, ``three_thirteen``, ``manipulation``)
GAMES = tuple(SPECS)

#: OpenSpiel short names, registered on ``import rummylab.rl``
SPIEL_NAMES = {name: f"python_rummylab_{name}" for name in GAMES}


def spec_of(game: str) -> GameSpec:
    """The spec of ``game`` (adapter name or any registry alias).

    >>> spec_of("three-thirteen").name, spec_of("Gin_Rummy").title
    ('three_thirteen', 'Gin')
    """
    try:
        cls = game_class(game)
    except OptionError:
        raise OptionError(f"unknown game {game!r} (games: {', '.join(GAMES)})") from None
    return SPECS[_spec(cls).name]


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
