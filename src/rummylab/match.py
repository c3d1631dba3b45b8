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
from rummylab.game import Counts, Event, Figure, State
from rummylab.records import RecordWriter
from rummylab.registry import game_class, new_state
from rummylab.stats import wilson


@dataclass
class MatchStats:
    """Figures per seat over many matches, counted from the events: the
    matches, their winners and final totals here, the rest by the game
    (``State.count_event``, ``State.figures``)."""

    game: str
    seats: list[str]
    matches: int = 0
    hands: int = 0
    drawn: int = 0
    match_wins: list[float] = field(default_factory=list)
    counts: Counts = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not self.match_wins:
            self.match_wins = [0.0] * n
        self._game = game_class(self.game)
        for name in ("total", *self._game.counters()):
            self.counts.setdefault(name, [0.0] * n)
        self._memo: dict[str, Any] = {}  # what the game keeps between events

    def add_events(self, events: Sequence[Event]) -> None:
        c = self.counts
        count = self._game.count_event
        for e in events:
            kind = e["type"]
            if kind == "result":
                self.hands += 1
            if count(c, e, self._memo):
                self.drawn += 1
            if kind == "end":
                self.matches += 1
                winners = e["winners"]
                for w in winners:  # a shared win counts as a fraction
                    self.match_wins[w] += 1 / len(winners)
                for seat, v in enumerate(e["final_scores"]):
                    c["total"][seat] += v

    @property
    def figures(self) -> tuple[Figure, ...]:
        """The game's figures, in table order."""
        return self._game.figures

    def figure(self, name: str, seat: int) -> float:
        for fig in self._game.figures:
            if fig.name == name:
                value = fig.value(self.counts, seat, self.hands, self.matches)
                return whole(value) if fig.per is None else value  # a count stays a count
        return whole(self.counts[name][seat])

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
            for fig in self._game.figures:
                row[fig.name] = self.figure(fig.name, i)
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "matches": self.matches, f"{self._game.deal_word}s": self.hands,
                self._game.drawn_key: self.drawn, "seats": self.rows()}


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
    position: str | None = None,
) -> State:
    """Play one match between bots; stream its record and figures. From
    ``position`` (its options are the position's) the match starts at that
    moment, a seat's unknown cards dealt from ``seed``."""
    if position is not None:
        from rummylab.position import from_position

        state = from_position(position, seed)
    else:
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
