"""What the lobby offers: every game the registry has, its players, rule
options (with their defaults and allowed values) and the bot levels that
play it. Read from the game classes, never by testing a game's name."""

from __future__ import annotations

from typing import Any

from rummylab.bots import BOT_LEVELS, LEVEL_NAMES
from rummylab.registry import GAMES, game_class, new_state


def _players(name: str) -> tuple[int, int, int]:
    """(fewest, most, default) players of a game: its ``players`` option if it
    has one, else the number its default match seats."""
    cls: Any = game_class(name)
    for attr in ("min_players", "max_players", "default_players"):
        if not hasattr(cls, attr):
            break
    else:
        return int(cls.min_players), int(cls.max_players), int(cls.default_players)
    opt = cls.option_spec.get("players")
    if opt is not None:
        lo = opt.minimum if opt.minimum is not None else int(opt.default)
        hi = opt.maximum if opt.maximum is not None else int(opt.default)
        return int(lo), int(hi), int(opt.default)
    n = new_state(name, seed=0).num_players
    return n, n, n


def _levels(name: str) -> list[dict[str, str]]:
    """The bot levels that play the game, the player-facing names first."""
    out = []
    shown = {level: word for word, level in LEVEL_NAMES.items()}
    for level, games in BOT_LEVELS.items():
        if name in games:
            out.append({"level": level, "label": shown.get(level, level)})
    order = list(LEVEL_NAMES.values())
    out.sort(key=lambda b: order.index(b["level"]) if b["level"] in order else len(order))
    return out


def games() -> list[dict[str, Any]]:
    """Every game for the lobby's form (``GET /api/games``)."""
    out = []
    for name in GAMES:
        cls: Any = game_class(name)
        lo, hi, default = _players(name)
        options = []
        for opt in cls.option_spec.values():
            if opt.name == "players":
                continue  # the seats say how many play
            options.append({
                "name": opt.name, "kind": opt.kind(), "default": opt.default,
                "help": opt.help, "min": opt.minimum, "max": opt.maximum,
                "choices": list(opt.choices), "rule": opt.rule, "needs": opt.needs,
                "void_if": opt.void_if,
            })
        out.append({"game": name, "title": getattr(cls, "title", name.replace("-", " ").title()),
                    "players": {"min": lo, "max": hi, "default": default},
                    "options": options, "bots": _levels(name)})
    return out
