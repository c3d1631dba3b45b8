"""Manipulation (§4): a shared table of melds that every turn may rearrange.

Each turn starts with a draw (done for the player: it is never a choice).
Then the player chooses among:

====================  ===================================================
``meld CARDS``        play these hand cards; the engine finds a legal
                      arrangement of the whole table (§4.6)
``meld CARDS => T``   play these cards and lay the table out as ``T``
                      (melds separated by ``|``, jokers as ``Jk=7h``)
``meld best``         [3] the play that sheds the most points
``draw``              [0] meld nothing now and draw again (at most three
                      cards a turn; after the third no melding, §4.4)
``knock``             [1] with 5 points or fewer in hand (§4.8, D-17)
``pass``              [2] end the turn (after a meld, the third draw or a
                      meld-only turn; the only move when no knock is allowed)
====================  ===================================================

A meld ends the turn (D-14), except that a player left with 5 points or
fewer may still knock. Every turn that no knock or going out ends is
closed by the player's own ``pass``, even where ``pass`` is the only move
(after a meld, a third draw, or a meld-only turn): the other seats see the
same moves, and the same seat to act, whether or not that hand could have
knocked. Records write every meld in the explicit form, so a replay never
depends on how the engine arranges a table.

>>> state = ManipulationState({"players": 3}, seed=2)
>>> [state.action_to_string(a) for a in state.legal_actions()][:1]
['draw']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Self

from rummylab.cards import JOKER, Card, card_str, cards_str, check_deck_order, parse_cards
from rummylab.errors import CardError, IllegalActionError, OptionError, UnknownActionError
from rummylab.game import (
    TERMINAL,
    Counts,
    Event,
    Figure,
    Observation,
    State,
    as_action,
    as_text,
    card_lists,
    quick_init,
    shown,
    thawed,
)
from rummylab.manipulation.solver import (
    Play,
    arrange_with,
    best_play,
    may_play,
    quick_play,
)
from rummylab.manipulation.table import (
    Table,
    TableError,
    check_move,
    hand_points,
    parse_table,
    table_str,
)
from rummylab.options import BONUS_MAX, Option, OptionValue

DRAW = 0
KNOCK = 1
PASS = 2
MELD_BEST = 3
NUM_ACTIONS = 4
MELD_TEXT = -1  # what apply() returns for a meld given in text: it has no id
_NAMES = {DRAW: "draw", KNOCK: "knock", PASS: "pass", MELD_BEST: "meld best"}

TURN, AFTER_MELD, FINAL, OVER = "turn", "after_meld", "final", "over"

MANIPULATION_OPTIONS: dict[str, Option] = {
    "players": Option("players", 3, "number of players (one deck and a joker for two, two "
                      "decks and two jokers for three to five)", minimum=2, maximum=5,
                      rule="§4.1"),
    "target": Option("target", 150, "a round that brings a player to this ends the game",
                     minimum=1, maximum=100_000, rule="§4.11"),  # a finite run
    "knock_limit": Option("knock_limit", 5, "most points in hand a player may knock with",
                          minimum=0, maximum=99, rule="§4.8"),
    "undercut_bonus": Option("undercut_bonus", 10, "bonus of a round winner who did not knock",
                             minimum=0, maximum=BONUS_MAX, rule="§4.9"),
    "out_bonus": Option("out_bonus", 25, "bonus for going out", minimum=0, maximum=BONUS_MAX,
                        rule="§4.9"),
    "game_bonus": Option("game_bonus", 100, "bonus of each player who reached the target",
                         minimum=0, maximum=BONUS_MAX, rule="§4.11"),
    "round_bonus": Option("round_bonus", 25, "per round won, for the players who did not "
                          "reach the target", minimum=0, maximum=BONUS_MAX,
                          rule="§4.11"),
    "initial_meld_from_hand": Option(
        "initial_meld_from_hand", False,
        "each player's first meld of a round is a new meld of their own cards", rule="D-25",
    ),
}


@quick_init
@dataclass(frozen=True)
class ManipulationObservation(Observation):
    """What one seat may know: its own hand and everything public.

    In ``action_ids`` every meld is ``MELD_TEXT`` (-1), however it was
    given (``meld best`` or its cards): its cards and the table it left are
    in its text in ``actions``, always the explicit ``meld CARDS => TABLE``,
    as records write it."""

    num_players: int
    round: int
    hand: tuple[Card, ...]
    table: Table
    pile_size: int
    hand_sizes: tuple[int, ...]
    draws_this_turn: int
    can_meld: bool
    first_meld_from_hand_only: bool
    exhausted: bool
    rounds_won: tuple[int, ...]
    decks: int
    # the card this seat drew last in its turn in progress (its own view only)
    drawn: Card | None = None
    # the turn in progress is the round's last: the meld-only turn of the seat
    # that drew the pile's last card (§4.10, D-23); public
    last_turn: bool = False

    def cards_in_hand(self) -> list[Card]:
        return sorted(self.hand)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "seat": self.seat, "num_players": self.num_players,
            "phase": self.phase, "to_act": self.to_act, "round": self.round,
            "hand": cards_str(self.hand), "table": table_str(self.table),
            "pile_size": self.pile_size, "hand_sizes": list(self.hand_sizes),
            "draws_this_turn": self.draws_this_turn, "can_meld": self.can_meld,
            "exhausted": self.exhausted, "last_turn": self.last_turn,
            "legal_actions": [_NAMES[a] for a in self.legal_actions],
            "dealer": self.dealer, "scores": list(self.scores),
            "rounds_won": list(self.rounds_won),
            "actions": [[s, t] for s, t in self.actions],
            "last_result": None if self.last_result is None else thawed(self.last_result),
            "drawn": None if self.drawn is None else card_str(self.drawn),
        }


class ManipulationState(State):
    """A game of Manipulation for 2-5 players, rounds until someone reaches 150."""

    game_name: ClassVar[str] = "manipulation"
    title: ClassVar[str] = "Manipulation"
    option_spec: ClassVar[Mapping[str, Option]] = MANIPULATION_OPTIONS
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    default_players: ClassVar[int] = 3
    deal_word: ClassVar[str] = "round"
    drawn_key: ClassVar[str] = "rounds_with_pile_exhausted"
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("mean_total", "total", "match"),
        Figure("points_per_round", "points", "deal", short="pts/round"),
        Figure("rounds_won", "hands_won"), Figure("knocks", "knocks"),
        Figure("went_out", "went_out"),
    )
    deal_figure: ClassVar[str] = "points_per_round"
    observation_type: ClassVar[type[Observation]] = ManipulationObservation
    move_forms: ClassVar[tuple[str, ...]] = ("draw", "knock", "pass", "meld best", "meld CARDS",
                                             "meld CARDS => TABLE")
    analysis_inputs: ClassVar[frozenset[str]] = frozenset({"table", "hand", "decks"})

    def __init__(
        self,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        *,
        decks: Sequence[Sequence[Card]] | None = None,
        first_dealer: int | None = None,
        auto_pass: bool = False,
    ) -> None:
        """``auto_pass`` ends a turn by itself where ``pass`` is the only move,
        unrecorded, as version 1 of the records did; it is kept to replay
        those records (it shows the other seats when a hand could knock)."""
        self._setup(options, seed)
        if not isinstance(auto_pass, bool):
            raise OptionError(f"auto_pass must be True or False, not {shown(auto_pass)}")
        self._auto_pass = auto_pass
        self.num_players = int(self.options["players"])
        self.num_decks = self.decks_for(self.num_players)
        self._decks = card_lists(decks, "decks")
        # dealt as given, not from the seed alone (records say so)
        self.decks_given = bool(decks) or first_dealer is not None
        for d in self._decks:
            check_deck_order(d, self.num_decks, self.num_decks)
        n = self.num_players
        self.dealer = self._first_dealer(first_dealer, n)
        self._scores = [0] * n
        self._won = [0] * n
        self._results: list[Event] = []
        self._winners: list[int] = []
        self._final: list[int] = []
        self.round = 0
        self._legal: list[int] | None = None
        self._best: Play | bool | None = False  # False: not computed at this point
        self._deal()

    @classmethod
    def decks_for(cls, players: int) -> int:
        return 1 if players == 2 else 2

    @classmethod
    def pack(cls, players: int) -> list[Card]:
        """The decks and a joker for each (§4.1)."""
        return [*super().pack(players), *[JOKER] * cls.decks_for(players)]

    @classmethod
    def count_event(cls, counts: Counts, event: Event, memo: dict[str, Any]) -> bool:
        """A round's result: points and the round to its winners, a knock to
        the knocker, going out to who went out; drawn when the pile ran out."""
        if event["type"] != "result":
            return False
        for seat, pts in enumerate(event["points"]):
            counts["points"][seat] += pts
        for w in event["winners"]:
            counts["hands_won"][w] += 1
        if event["knocker"] is not None:
            counts["knocks"][event["knocker"]] += 1
        if event["went_out"] is not None:
            counts["went_out"][event["went_out"]] += 1
        return bool(event["ended"] == "exhausted")

    @classmethod
    def move_limit(cls, players: int) -> int:
        # it ends by itself: a turn draws at least one card and has at most
        # three decisions; then one meld-only turn (two decisions) each
        pile = len(cls.pack(players)) - 10 * players
        return 3 * pile + 2 * players + 3

    @classmethod
    def utility_bound(cls, options: Mapping[str, OptionValue], players: int,
                      deals: int) -> tuple[float, float]:
        per = sum(min(c % 13 + 1, 10) if c < 52 else 25 for c in cls.pack(players))
        per += int(options["undercut_bonus"]) + int(options["out_bonus"])
        return (-float(per * deals), float(per * deals))

    @classmethod
    def shown_cards(cls, text: str) -> list[Card]:
        if not text.startswith("meld "):
            return []
        return parse_cards(text[5:].split("=>")[0], jokers=True)

    def dealt_to(self) -> list[int]:
        # §4.3: ten each from the dealer's left; then the first turn's draw
        n, first = self.num_players, (self.dealer + 1) % self.num_players
        return [(self.dealer + 1 + i) % n for i in range(10 * n)] + [first]

    def deal_line(self) -> str:
        return f" | round {self.round}"

    def text_lines(self, seat: int | None = None) -> list[str]:
        return [*super().text_lines(seat), f"table: {table_str(self._table) or '(empty)'}"]

    @classmethod
    def arrange(cls, obs: Observation) -> dict[str, Any] | None:
        from rummylab.manipulation.analysis import arrangement

        assert isinstance(obs, ManipulationObservation)
        return arrangement(list(obs.hand)) if obs.hand else None

    @classmethod
    def analyze(cls, cards: str, **given: Any) -> dict[str, Any]:
        from rummylab.errors import OptionError
        from rummylab.manipulation.analysis import analyze_manipulation

        hand, table, decks = given.get("hand"), given.get("table"), given.get("decks")
        if hand is not None and cards:
            raise OptionError("give the manipulation hand once: with --hand or as cards, "
                              "not both")
        if hand is None and not cards:
            raise OptionError('manipulation needs --hand "CARDS" (and --table "MELD | MELD")')
        return analyze_manipulation(table or "", hand if hand is not None else cards,
                                    2 if decks is None else decks)

    @classmethod
    def record_version_setup(cls, version: int) -> dict[str, Any]:
        # version 1 ended a turn with no move but pass by itself, unrecorded
        return {"auto_pass": True} if version == 1 else {}

    # -- rounds and turns -----------------------------------------------
    def _deal(self) -> None:
        self.round += 1
        n = self.num_players
        if self._decks:
            deck = self._decks.pop(0)
        else:
            deck = [c for _ in range(self.num_decks) for c in range(52)]
            deck += [JOKER] * self.num_decks
            self._rng(f"deal {self.round}").shuffle(deck)
        self.events.append({"type": "deal", "round": self.round, "dealer": self.dealer,
                            "deck": cards_str(deck)})
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(10 * n):  # §4.3: ten cards each, from the dealer's left
            self._hands[(self.dealer + 1 + i) % n].append(deck[i])
        for h in self._hands:
            h.sort()
        self._pile = list(reversed(deck[10 * n:]))  # pop() draws the top
        self._table: Table = ()
        self._melded_round = [False] * n
        self._round_actions: list[tuple[int, str]] = []
        self._round_action_ids: list[int] = []
        self._exhausted = False
        self._final_queue: list[int] = []
        self._knocker: int | None = None
        self._start_turn((self.dealer + 1) % n)

    def _start_turn(self, seat: int) -> None:
        self._to_act = seat
        self._draws = 0
        self._drawn: Card | None = None
        self._invalidate()
        self._final_turn = self._exhausted
        if self._exhausted:
            self._phase = FINAL
        else:
            self._phase = TURN
            self._draw()
        self._settle_forced()

    def _draw(self) -> None:
        seat = self._to_act
        card = self._pile.pop()
        self._drawn = card
        self._hands[seat].append(card)
        self._hands[seat].sort()
        self._draws += 1
        self._invalidate()
        if not self._pile and not self._exhausted:
            # §4.10, D-23: this turn goes on without draws, then everyone,
            # ending with this player, has one meld-only turn
            self._exhausted = True
            n = self.num_players
            self._final_queue = [(seat + i) % n for i in range(1, n + 1)]

    def _invalidate(self) -> None:
        self._legal = None
        self._best = False

    def _settle_forced(self) -> None:
        """Only with ``auto_pass`` (version-1 records): end the turns whose
        only move is ``pass``, unrecorded."""
        while self._auto_pass and self._phase != OVER and self.legal_actions() == [PASS]:
            self._end_turn()

    def _end_turn(self) -> None:
        seat = self._to_act
        if self._exhausted:
            if self._final_turn and self._final_queue and self._final_queue[0] == seat:
                self._final_queue.pop(0)
            if not self._final_queue:
                self._end_round("exhausted")
                return
            self._start_turn(self._final_queue[0])
            return
        self._start_turn((seat + 1) % self.num_players)

    def current_player(self) -> int:
        return TERMINAL if self._phase == OVER else self._to_act

    @classmethod
    def num_distinct_actions(cls) -> int:
        return NUM_ACTIONS

    def _can_meld(self) -> bool:
        if self._phase == FINAL:
            return True
        return self._phase == TURN and self._draws < 3

    def best(self) -> Play | None:
        """The engine's best play for the seat to act (cached at this point)."""
        if self._best is False:
            if self._phase == OVER or not self._can_meld():
                self._best = None
            else:
                seat = self._to_act
                self._best = best_play(
                    self._table, self._hands[seat], self.num_decks,
                    first_meld_from_hand_only=self._first_only(seat),
                )
        return self._best if isinstance(self._best, Play) else None

    def _first_only(self, seat: int) -> bool:
        return bool(self.options["initial_meld_from_hand"]) and not self._melded_round[seat]

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        if self._phase == OVER:
            return []
        seat = self._to_act
        can_knock = hand_points(self._hands[seat]) <= int(self.options["knock_limit"])
        out: list[int] = []
        if self._phase == TURN and self._draws < 3 and self._pile:
            out.append(DRAW)
        if can_knock:
            out.append(KNOCK)
        if self._phase in (AFTER_MELD, FINAL) or self._draws >= 3 or not self._pile:
            out.append(PASS)
        if self._can_meld() and self._some_play():
            out.append(MELD_BEST)
        return out

    def _some_play(self) -> bool:
        """Is there a play at all? A necessary condition (``may_play``) and a
        simple play (a lay-off or a new meld of three, ``quick_play``) answer
        most turns without solving; otherwise the best play is computed
        (and cached for ``meld best``). Exact either way."""
        seat = self._to_act
        if self._best is False:
            first_only = self._first_only(seat)
            hand = self._hands[seat]
            if not may_play(self._table, hand, first_meld_from_hand_only=first_only):
                self._best = None
                return False
            if quick_play(self._table, hand, self.num_decks,
                          first_meld_from_hand_only=first_only) is not None:
                return True
        return self.best() is not None

    def action_to_string(self, action: int) -> str:
        # 2.0 or True is no action id here either, as in apply_action
        if type(action) is not int:
            action = as_action(action)
        if action not in _NAMES:
            raise IllegalActionError(f"no Manipulation action has id {action}")
        return _NAMES[action]

    def string_to_action(self, text: str) -> int:
        words = as_text(text).strip().lower().split()
        for a, name in _NAMES.items():
            if words == name.split():
                return a
        raise UnknownActionError(
            f"unknown action {text.strip()!r}: use 'draw', 'knock', 'pass', 'meld best', "
            "'meld CARDS' or 'meld CARDS => TABLE'"
        )

    def apply(self, text: str) -> int:
        """Apply an action in text form; ``meld ...`` forms are accepted here."""
        words = as_text(text).strip().split(None, 1)
        if words and words[0].lower() == "meld" and not (
            len(words) == 2 and words[1].strip().lower() == "best"
        ):
            self.meld(words[1] if len(words) == 2 else "")
            return MELD_TEXT
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def apply_action(self, action: int) -> None:
        action = self._require_legal(action)
        seat = self._to_act
        if action == MELD_BEST:
            play = self.best()
            assert play is not None
            self._do_meld(seat, list(play.play), play.table)
            return
        self._log(seat, _NAMES[action], action)
        if action == DRAW:
            self._draw()
            self._settle_forced()
        elif action == KNOCK:
            self._knocker = seat
            self._end_round("knock")
        else:
            self._end_turn()

    def meld(self, text: str) -> None:
        """``CARDS`` (the engine arranges) or ``CARDS => TABLE`` (explicit)."""
        if self._phase == OVER or not self._can_meld():
            raise IllegalActionError("no melding now: after a third draw, or a meld this turn, "
                                     "the turn has no meld (§4.4, D-14)")
        seat = self._to_act
        cards_text, arrow, table_text = as_text(text).partition("=>")
        try:
            cards = parse_cards(cards_text, jokers=True)
        except CardError as e:
            raise IllegalActionError(str(e)) from None
        if not cards:
            raise IllegalActionError("name the cards to meld from your hand (§4.6)")
        hand = list(self._hands[seat])
        for c in cards:
            if c not in hand:
                held = self._hands[seat].count(c)
                if held:  # two decks: name the copies, not just the card
                    raise IllegalActionError(
                        f"{card_str(c)} is named {cards.count(c)} times; your hand holds "
                        f"{'one' if held == 1 else held}")
                raise IllegalActionError(f"{card_str(c)} is not in your hand")
            hand.remove(c)
        first_only = self._first_only(seat)
        if arrow:
            try:
                new = parse_table(table_text, self.num_decks)
                check_move(self._table, new, cards, self.num_decks,
                           first_meld_from_hand_only=first_only)
            except (TableError, CardError) as e:
                raise IllegalActionError(str(e)) from None
        else:
            found = arrange_with(self._table, cards, self.num_decks,
                                 first_meld_from_hand_only=first_only)
            if found is None:
                raise IllegalActionError(
                    f"no legal table holds {cards_str(cards)} with the cards on the table")
            new = found
        self._do_meld(seat, cards, new)

    def _do_meld(self, seat: int, cards: list[Card], table: Table) -> None:
        # logged as its cards and table, with no id: a replay never depends on
        # how the engine would arrange the table
        self._log(seat, f"meld {cards_str(sorted(cards))} => {table_str(table)}", MELD_TEXT)
        hand = self._hands[seat]
        for c in cards:
            hand.remove(c)
        self._table = table
        self._melded_round[seat] = True
        self._invalidate()
        if not hand:  # D-18: gone out, the round ends at once
            self._end_round("out")
            return
        self._phase = AFTER_MELD
        self._settle_forced()

    def _log(self, seat: int, text: str, action: int) -> None:
        self.events.append({"type": "action", "seat": seat, "action": text})
        self._round_actions.append((seat, text))
        self._round_action_ids.append(action)

    # -- refusals (State.refusal): why a move is not legal now --------------
    def refusal(self, move: int | str, seat: int | None = None) -> str | None:
        """As :meth:`State.refusal`; a meld typed out (``meld 7h 8h 9h``, with
        or without ``=> TABLE``) is tried on a copy of the match."""
        if isinstance(move, str):
            words = move.strip().split(None, 1)
            if words and words[0].lower() == "meld" and not (
                    len(words) == 2 and words[1].strip().lower() == "best"):
                turn = self._turn_refusal(seat)
                if turn is not None:
                    return turn
                if not self._can_meld():
                    return self._refusal(MELD_BEST)  # no meld at all now, typed or not
                try:
                    self.clone().meld(words[1] if len(words) == 2 else "")
                except IllegalActionError as e:
                    return str(e)
                return None
        return super().refusal(move, seat)

    def _refusal(self, action: int) -> str:
        """The reason in the words of §4, for the seat to act."""
        if action not in _NAMES:
            return f"no Manipulation action has id {action}"
        phase, seat = self._phase, self._to_act
        if action == KNOCK:
            return (f"a knock needs {self.options['knock_limit']} points in hand or fewer; "
                    f"you hold {hand_points(self._hands[seat])} (§4.8)")
        if action == DRAW:
            if phase == AFTER_MELD:
                return "melding ends the turn: no draw after a meld (D-14)"
            if self._draws >= 3:
                return "three cards are the most a turn draws (§4.4)"
            return "the draw pile is used up: no more draws this round (§4.10, D-23)"
        if action == PASS:
            drawn = "one card" if self._draws == 1 else f"{self._draws} cards"
            return (f"the turn goes on: with {drawn} drawn and nothing melded, meld or draw "
                    "again (§4.4)")
        if phase == AFTER_MELD:
            return "melding ends the turn: one meld a turn (D-14)"
        if not self._can_meld():
            return "a player who draws a third card may not meld that turn (§4.4)"
        if self._first_only(seat):
            return ("your first meld this round is a new meld from your own hand (D-25), "
                    "and no three cards of it make one")
        return "no card of your hand fits a meld or the table now (§4.6)"

    # -- scoring (§4.9, D-19, D-20) ------------------------------------------
    def _end_round(self, ended: str) -> None:
        n = self.num_players
        values = [hand_points(h) for h in self._hands]
        low = min(values)
        tied = [s for s in range(n) if values[s] == low]
        knocker = self._knocker if ended == "knock" else None
        out = self._to_act if ended == "out" else None
        if knocker is not None and knocker in tied and len(tied) > 1:
            winners = [s for s in tied if s != knocker]  # the knocker tied: the others win
        else:
            winners = tied
        points = [0] * n
        for w in winners:
            points[w] = sum(values[j] - values[w] for j in range(n) if j not in winners)
            if knocker is not None and w != knocker:
                points[w] += int(self.options["undercut_bonus"])
            if w == out:
                points[w] += int(self.options["out_bonus"])
        for s in range(n):
            self._scores[s] += points[s]
        for w in winners:
            self._won[w] += 1
        result: Event = {
            "type": "result", "round": self.round, "ended": ended, "knocker": knocker,
            "went_out": out, "hands": [cards_str(h) for h in self._hands], "values": values,
            "winners": winners, "points": points, "scores": list(self._scores),
            "table": table_str(self._table),
        }
        self.events.append(result)
        self._results.append(result)
        target = int(self.options["target"])
        reached = [s for s in range(n) if self._scores[s] >= target]
        if reached:
            final = list(self._scores)
            for s in range(n):  # §4.11
                final[s] += (int(self.options["game_bonus"]) if s in reached
                             else int(self.options["round_bonus"]) * self._won[s])
            best = max(final)
            self._winners = [s for s in range(n) if final[s] == best]  # D-21
            self._final = final
            self._phase = OVER
            self._legal = []
            self.events.append({"type": "end", "winners": list(self._winners),
                                "totals": list(self._scores), "rounds_won": list(self._won),
                                "final_scores": final})
            return
        self.dealer = (self.dealer + 1) % n  # D-13
        self._deal()

    # -- views -----------------------------------------------------------------
    def observation(self, seat: int) -> ManipulationObservation:
        seat = self._seat(seat)
        over = self._phase == OVER
        acting = self._to_act == seat and not over
        return ManipulationObservation(
            game=self.game_name, seat=seat, num_players=self.num_players, phase=self._phase,
            to_act=self.current_player(), round=self.round,
            # a new table, new pairs, a new options dict: a view holds no
            # object the state holds
            hand=() if over else tuple(self._hands[seat]),
            table=tuple([tuple([(c, s) for c, s in meld]) for meld in self._table]),
            pile_size=len(self._pile), hand_sizes=tuple(len(h) for h in self._hands),
            draws_this_turn=self._draws if acting else 0,
            can_meld=acting and self._can_meld(),
            first_meld_from_hand_only=self._first_only(seat),
            exhausted=self._exhausted,
            legal_actions=tuple(self.legal_actions()) if acting else (),
            dealer=self.dealer, scores=tuple(self._scores), rounds_won=tuple(self._won),
            actions=tuple([(s, t) for s, t in self._round_actions]),
            action_ids=tuple(self._round_action_ids),
            last_result=self._result_view(self._results),
            decks=self.num_decks, options=MappingProxyType(dict(self.options)),
            drawn=self._drawn if acting else None,
            last_turn=not over and self._final_turn and self._final_queue == [self._to_act],
        )

    @property
    def table(self) -> Table:
        return self._table

    @property
    def round_results(self) -> list[Event]:
        """Every round's result so far: :attr:`results` by Manipulation's word."""
        return self.results

    @property
    def phase(self) -> str:
        return self._phase

    def hand_of(self, seat: int) -> list[Card]:
        """A seat's cards, sorted (full information)."""
        return list(self._hands[seat])

    def cards_in_hand(self, seat: int) -> list[Card]:
        return list(self._hands[seat])

    @property
    def pile(self) -> list[Card]:
        """The draw pile, top first (full information)."""
        return list(reversed(self._pile))

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._decks = self._decks[:]
        new.options = dict(self.options)  # a clone's options are its own
        new._scores = self._scores[:]
        new._won = self._won[:]
        new._results = self._results[:]
        new._winners = self._winners[:]
        new._final = self._final[:]
        new._hands = [h[:] for h in self._hands]
        new._pile = self._pile[:]
        new._melded_round = self._melded_round[:]
        new._round_actions = self._round_actions[:]
        new._round_action_ids = self._round_action_ids[:]
        new._final_queue = self._final_queue[:]
        new.events = []
        return new

    def __repr__(self) -> str:
        return (f"<ManipulationState round {self.round} {self._phase} "
                f"to_act={self.current_player()} scores={self._scores}>")
