"""Playing matches between bots, and the figures a simulation reports.

>>> from rummylab.bots import make_bot
>>> stats = MatchStats("gin", ["simple", "random"])
>>> for i in range(3):
...     state = play_match("gin", [make_bot("simple", "gin"), make_bot("random", "gin", i)],
...                        seed=i, stats=stats)
>>> stats.matches, int(sum(stats.match_wins))
(3, 3)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummylab.bots.base import Bot
from rummylab.game import Event, State
from rummylab.records import RecordWriter
from rummylab.registry import new_state


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class MatchStats:
    """Figures per seat over many matches, counted from the events."""

    game: str
    seats: list[str]
    matches: int = 0
    hands: int = 0
    drawn: int = 0
    match_wins: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    knocks: list[int] = field(default_factory=list)
    gins: list[int] = field(default_factory=list)
    undercuts: list[int] = field(default_factory=list)
    hands_won: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.seats)
        for name in ("match_wins", "points", "knocks", "gins", "undercuts", "hands_won"):
            if not getattr(self, name):
                setattr(self, name, [0] * n)

    def add_events(self, events: Sequence[Event]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "result":
                self.hands += 1
                outcome = e["outcome"]
                if outcome == "drawn":
                    self.drawn += 1
                    continue
                winner = e["winner"]
                self.points[winner] += e["points"]
                self.hands_won[winner] += 1
                knocker: int = e["knocker"]
                if outcome in ("gin", "big_gin"):
                    self.gins[knocker] += 1
                else:
                    self.knocks[knocker] += 1
                if outcome == "undercut":
                    self.undercuts[winner] += 1
            elif kind == "end":
                self.matches += 1
                winners = e["winners"]
                for w in winners:  # a shared win counts as a fraction
                    self.match_wins[w] += 1 / len(winners)

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for i, name in enumerate(self.seats):
            lo, hi = wilson(self.match_wins[i], self.matches)
            out.append({
                "seat": i, "name": name,
                "match_wins": self.match_wins[i], "matches": self.matches,
                "win_rate": self.match_wins[i] / self.matches if self.matches else 0.0,
                "ci_low": lo, "ci_high": hi,
                "points_per_hand": self.points[i] / self.hands if self.hands else 0.0,
                "hands_won": self.hands_won[i], "knocks": self.knocks[i], "gins": self.gins[i],
                "undercuts": self.undercuts[i],
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "matches": self.matches, "hands": self.hands,
                "drawn_hands": self.drawn, "seats": self.rows()}


def match_seeds(seed: int, n: int) -> list[int]:
    """Independent per-match seeds derived from one seed."""
    rng = random.Random(f"rummylab matches {seed}")
    return [rng.randrange(2**62) for _ in range(n)]


def play_match(
    game: str,
    bots: Sequence[Bot],
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
    *,
    writer: RecordWriter | None = None,
    stats: MatchStats | None = None,
) -> State:
    """Play one match between bots; stream its record and figures."""
    state = new_state(game, options, seed)
    if len(bots) != state.num_players:
        raise ValueError(f"{game} needs {state.num_players} bots, got {len(bots)}")
    if writer is not None:
        writer.begin(state, [b.spec() for b in bots])
    elif stats is None:
        state.take_events()
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].act(state.observation(seat)))
        if writer is not None or stats is not None:
            events = state.take_events()
            if writer is not None:
                writer.write_events(events)
            if stats is not None:
                stats.add_events(events)
        elif len(state.events) > 64:
            state.events.clear()
    if stats is not None:
        stats.add_events(state.take_events())
    return state
