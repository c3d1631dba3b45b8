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

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummylab.bots.base import Bot
from rummylab.errors import BotError, RummyError
from rummylab.game import Event, State
from rummylab.records import RecordWriter
from rummylab.registry import new_state
from rummylab.stats import wilson

# per game: the figures counted per seat from the result events, in table order
FIGURES: dict[str, tuple[str, ...]] = {
    "gin": ("points_per_hand", "hands_won", "knocks", "gins", "undercuts"),
    "gin3": ("points_per_hand", "hands_won", "knocks", "gins", "undercuts",
             "box_hands", "box_win_rate", "box_points_per_hand",
             "captain_hands", "captain_win_rate", "captain_points_per_hand"),
    "three-thirteen": ("mean_total", "penalty_per_round", "went_out"),
    "manipulation": ("mean_total", "points_per_round", "rounds_won", "knocks", "went_out"),
}


@dataclass
class MatchStats:
    """Figures per seat over many matches, counted from the events."""

    game: str
    seats: list[str]
    matches: int = 0
    hands: int = 0
    drawn: int = 0
    match_wins: list[float] = field(default_factory=list)
    counts: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not self.match_wins:
            self.match_wins = [0.0] * n
        for name in ("points", "hands_won", "knocks", "gins", "undercuts", "went_out",
                     "penalty", "total"):
            self.counts.setdefault(name, [0.0] * n)
        if self.game == "gin3":
            for role in ("box", "captain"):
                for name in ("hands", "won", "points"):
                    self.counts.setdefault(f"{role}_{name}", [0.0] * n)
        self._roles: tuple[int, int] | None = None  # three-player Gin: (box, captain)

    def add_events(self, events: Sequence[Event]) -> None:
        c = self.counts
        for e in events:
            kind = e["type"]
            if kind == "deal" and "captain" in e:
                self._roles = (e["dealer"], e["captain"])
            if kind == "result":
                self.hands += 1
                if self._roles is not None:
                    self._add_roles(e)
                if "values" in e:  # Manipulation: a round
                    for seat, pts in enumerate(e["points"]):
                        c["points"][seat] += pts
                    for w in e["winners"]:
                        c["hands_won"][w] += 1
                    if e["knocker"] is not None:
                        c["knocks"][e["knocker"]] += 1
                    if e["went_out"] is not None:
                        c["went_out"][e["went_out"]] += 1
                    if e["ended"] == "exhausted":
                        self.drawn += 1
                    continue
                if "penalties" in e:  # Three Thirteen: a round
                    for seat, pen in enumerate(e["penalties"]):
                        c["penalty"][seat] += pen
                    if e["went_out"] is not None:
                        c["went_out"][e["went_out"]] += 1
                    else:
                        self.drawn += 1
                    continue
                outcome = e["outcome"]
                if outcome == "drawn":
                    self.drawn += 1
                    continue
                winner = e["winner"]
                c["points"][winner] += e["points"]
                c["hands_won"][winner] += 1
                knocker: int = e["knocker"]
                if outcome in ("gin", "big_gin"):
                    c["gins"][knocker] += 1
                else:
                    c["knocks"][knocker] += 1
                if outcome == "undercut":
                    c["undercuts"][winner] += 1
            elif kind == "end":
                self.matches += 1
                winners = e["winners"]
                for w in winners:  # a shared win counts as a fraction
                    self.match_wins[w] += 1 / len(winners)
                for seat, v in enumerate(e["final_scores"]):
                    c["total"][seat] += v

    def _add_roles(self, e: Event) -> None:
        """Three-player Gin: each hand counted for the box and the captain
        (hands, hands won, points won less points lost)."""
        assert self._roles is not None
        c = self.counts
        winner, points = e["winner"], e["points"]
        for role, seat in zip(("box", "captain"), self._roles, strict=True):
            c[f"{role}_hands"][seat] += 1
            if winner is None:
                continue
            if winner == seat:
                c[f"{role}_won"][seat] += 1
                c[f"{role}_points"][seat] += points
            else:
                c[f"{role}_points"][seat] -= points

    def figure(self, name: str, seat: int) -> float:
        c = self.counts
        for role in ("box", "captain"):
            if name == f"{role}_win_rate":
                n = c[f"{role}_hands"][seat]
                return c[f"{role}_won"][seat] / n if n else 0.0
            if name == f"{role}_points_per_hand":
                n = c[f"{role}_hands"][seat]
                return c[f"{role}_points"][seat] / n if n else 0.0
        if name == "points_per_hand":
            return c["points"][seat] / self.hands if self.hands else 0.0
        if name == "mean_total":
            return c["total"][seat] / self.matches if self.matches else 0.0
        if name == "points_per_round":
            return c["points"][seat] / self.hands if self.hands else 0.0
        if name == "rounds_won":
            return whole(c["hands_won"][seat])
        if name == "penalty_per_round":
            return c["penalty"][seat] / self.hands if self.hands else 0.0
        return whole(c[name][seat])  # a count

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for i, name in enumerate(self.seats):
            lo, hi = wilson(self.match_wins[i], self.matches)
            row: dict[str, Any] = {
                "seat": i, "name": name,
                "match_wins": whole(self.match_wins[i]), "matches": self.matches,
                "win_rate": self.match_wins[i] / self.matches if self.matches else 0.0,
                "ci_low": lo, "ci_high": hi,
            }
            for fig in FIGURES.get(self.game, ()):
                row[fig] = self.figure(fig, i)
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        hands = "hands" if self.game in ("gin", "gin3") else "rounds"
        drawn = {"gin": "drawn_hands", "gin3": "drawn_hands",
                 "three-thirteen": "rounds_without_going_out",
                 "manipulation": "rounds_with_pile_exhausted"}.get(self.game, "drawn")
        return {"game": self.game, "matches": self.matches, hands: self.hands,
                drawn: self.drawn, "seats": self.rows()}


def whole(count: float) -> float:
    """A count as it is reported: 20, not 20.0 (JSON keeps the difference);
    a win shared between players stays a fraction.

    >>> whole(20.0), whole(2.5)
    (20, 2.5)
    """
    return int(count) if float(count).is_integer() else count


def match_seeds(seed: int, n: int) -> list[int]:
    """Independent per-match seeds derived from one seed."""
    rng = random.Random(f"rummylab matches {seed}")
    return [rng.randrange(2**62) for _ in range(n)]


def bot_seed(match_seed: int, index: int) -> int:
    """A bot's seed for a match: keyed by the match's seed through a hash, so
    that no bot can work back to the seed that dealt the cards (a bot seeded
    with ``match_seed + index`` could, and so rebuild every hand).

    >>> bot_seed(7, 0) == bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    return random.Random(f"rummylab bot {match_seed} {index}").randrange(2**62)


def apply_move(state: State, move: int | str) -> None:
    """Apply a bot's move: an action id, or a text move (``state.apply``)."""
    if isinstance(move, str):
        state.apply(move)
    else:
        state.apply_action(move)


def _bot_move(bot: Bot, state: State, seat: int, seed: int | None) -> None:
    """Apply the bot's move; a bot that raises, or answers with a move that
    is not legal, is named with its seat and the match's seed."""
    try:
        move = bot.move(state.observation(seat))
    except Exception as e:
        raise BotError(f"bot {bot.spec()} in seat {seat} (match seed {seed}) failed: "
                       f"{type(e).__name__}: {e}") from e
    try:
        apply_move(state, move)
    except RummyError as e:  # not legal, or a text move that does not parse: nothing changed
        raise BotError(f"bot {bot.spec()} in seat {seat} (match seed {seed}): {e}") from None


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
        opening = list(state.events)  # the cut and first deal: the stats need them too
        writer.begin(state, [b.spec() for b in bots])
        if stats is not None:
            stats.add_events(opening)
    elif stats is None:
        state.take_events()
    while not state.is_terminal():
        seat = state.current_player()
        _bot_move(bots[seat], state, seat, seed)
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
