"""Three Thirteen (§3): eleven rounds, a rotating wild rank, lowest total wins.

Action notation (ids in brackets):

==================  ================================================
``draw stock``      [0] take the top card of the stock
``take discard``    [1] take the top of the discard pile
``discard 7h``      [2 + card] discard
``go out 7h``       [54 + card] lay everything down but 7h, discard it
                    (§3.5); the others then have one turn each
==================  ================================================

The deal (§3.3): from a deck order written top card first, ``r + 2`` cards
each, one at a time, starting left of the dealer; the next card is the first
discard, the rest the stock.

>>> state = ThirteenState({"players": 3}, seed=4)
>>> state.round, state.wild_rank_name, len(state.legal_actions())
(1, '3', 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Self

from rummylab.cards import (
    CARD_POINTS,
    RANKS,
    Card,
    card_str,
    cards_str,
    check_deck_order,
    multi_add,
    multi_cards,
    multi_count,
    multi_has,
    multi_remove,
    multi_str,
    parse_card,
    parse_cards,
)
from rummylab.errors import CardError, IllegalActionError, UnknownActionError
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
    thawed,
)
from rummylab.options import Option, OptionValue
from rummylab.three_thirteen.solver import combo_str, penalty, penalty_after_discard, solve

DRAW_STOCK = 0
TAKE_DISCARD = 1
DISCARD_BASE = 2
GO_OUT_BASE = 54
NUM_ACTIONS = 106
ROUNDS = 11

DRAW, DISCARD, OVER = "draw", "discard", "over"

THIRTEEN_OPTIONS: dict[str, Option] = {
    "players": Option("players", 2, "number of players (one deck for two, two decks for "
                      "three or four)", minimum=2, maximum=4, rule="§3.1"),
    "natural_wild_sets": Option(
        "natural_wild_sets", False,
        "a combination may consist of wild cards only (e.g. three 3s in round 1)", rule="D-8",
    ),
    "allow_discard_of_taken_card": Option(
        "allow_discard_of_taken_card", False,
        "a card taken from the discard pile may be discarded the same turn", rule="D-3, §3.11",
    ),
}


def known_after_discard(known: int, card: Card, keeps_taken: bool) -> int:
    """What the table knows a seat holds (``known``: cards seen taken from the
    pile) after it discards ``card``. ``keeps_taken``: the card was taken
    this turn and D-3 forbids discarding it, so the copy thrown is another
    one and the taken copy is still held.

    >>> from rummylab.cards import multi_str, parse_card
    >>> h7 = parse_card("7h")
    >>> multi_str(known_after_discard(multi_add(0, h7), h7, True))
    '7h'
    >>> multi_str(known_after_discard(multi_add(0, h7), h7, False))
    ''
    >>> multi_str(known_after_discard(multi_add(multi_add(0, h7), h7), h7, True))
    '7h'
    """
    if not multi_has(known, card):
        return known
    if keeps_taken and multi_count(known & (1 << card | 1 << (52 + card))) == 1:
        return known
    return multi_remove(known, card)


def action_text(action: int) -> str:
    """The text form of an action id.

    >>> action_text(2 + 35), action_text(54)
    ('discard Th', 'go out Ac')
    """
    if action == DRAW_STOCK:
        return "draw stock"
    if action == TAKE_DISCARD:
        return "take discard"
    if DISCARD_BASE <= action < GO_OUT_BASE:
        return "discard " + card_str(action - DISCARD_BASE)
    if GO_OUT_BASE <= action < NUM_ACTIONS:
        return "go out " + card_str(action - GO_OUT_BASE)
    raise IllegalActionError(f"no Three Thirteen action has id {action}")


def parse_action(text: str) -> int:
    words = text.strip().lower().split()
    if words in (["draw", "stock"], ["draw"], ["stock"]):
        return DRAW_STOCK
    if words in (["take", "discard"], ["take"]):
        return TAKE_DISCARD
    try:
        if len(words) == 2 and words[0] == "discard":
            return DISCARD_BASE + parse_card(words[1])
        if len(words) == 3 and words[:2] == ["go", "out"]:
            return GO_OUT_BASE + parse_card(words[2])
    except CardError as e:
        raise IllegalActionError(str(e)) from None
    raise UnknownActionError(
        f"unknown action {text.strip()!r}: use 'draw stock', 'take discard', 'discard 7h' "
        "or 'go out 7h'"
    )


@quick_init
@dataclass(frozen=True)
class ThirteenObservation(Observation):
    """What one seat may know. Hands are two-deck multisets (``cards.multi_*``)."""

    num_players: int
    round: int
    wild_rank: int
    hand: int
    discard_pile: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    known: tuple[int, ...]  # per seat: cards seen taken from the discard pile, still held
    taken_card: Card | None
    went_out: int | None
    laid_down: int  # §3.5: the hand the seat that went out laid face up (0 before)
    final_turn: bool

    def cards_in_hand(self) -> list[Card]:
        return multi_cards(self.hand)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "seat": self.seat, "num_players": self.num_players,
            "phase": self.phase, "to_act": self.to_act, "round": self.round,
            "wild_rank": RANKS[self.wild_rank], "hand": multi_str(self.hand),
            "discard_pile": cards_str(self.discard_pile), "stock_size": self.stock_size,
            "hand_sizes": list(self.hand_sizes), "known": [multi_str(k) for k in self.known],
            "taken_card": None if self.taken_card is None else card_str(self.taken_card),
            "went_out": self.went_out,
            "laid_down": multi_str(self.laid_down) if self.laid_down else None,
            "final_turn": self.final_turn,
            "legal_actions": [action_text(a) for a in self.legal_actions],
            "dealer": self.dealer, "scores": list(self.scores),
            "actions": [[s, t] for s, t in self.actions],
            "last_result": None if self.last_result is None else thawed(self.last_result),
        }


class ThirteenState(State):
    """A game of Three Thirteen for 2-4 players."""

    game_name: ClassVar[str] = "three-thirteen"
    aliases: ClassVar[tuple[str, ...]] = ("thirteen", "313", "3-13")
    title: ClassVar[str] = "Three Thirteen"
    option_spec: ClassVar[Mapping[str, Option]] = THIRTEEN_OPTIONS
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    lower_is_better: ClassVar[bool] = True
    deal_word: ClassVar[str] = "round"
    drawn_key: ClassVar[str] = "rounds_without_going_out"
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("mean_total", "total", "match"),
        Figure("penalty_per_round", "penalty", "deal", short="penalty/rd"),
        Figure("went_out", "went_out"),
    )
    deal_figure: ClassVar[str] = "penalty_per_round"
    observation_type: ClassVar[type[Observation]] = ThirteenObservation
    move_forms: ClassVar[tuple[str, ...]] = ("draw stock", "take discard", "discard 7h",
                                             "go out 7h")
    analysis_inputs: ClassVar[frozenset[str]] = frozenset({"round", "decks"})
    max_deals: ClassVar[int | None] = ROUNDS
    reshuffles_stock: ClassVar[bool] = True  # D-12

    def __init__(
        self,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        *,
        decks: Sequence[Sequence[Card]] | None = None,
        first_dealer: int | None = None,
        reshuffles: Sequence[Sequence[Card]] | None = None,
    ) -> None:
        """``decks``: deck orders (top first) of the first rounds; ``reshuffles``:
        the stocks that D-12 reshuffles form, in order (records give both)."""
        self._setup(options, seed)
        self.num_players = int(self.options["players"])
        self.num_decks = self.decks_for(self.num_players)
        self._decks = card_lists(decks, "decks")
        # dealt as given, not from the seed alone (records say so)
        self.decks_given = bool(decks) or bool(reshuffles) or first_dealer is not None
        for d in self._decks:
            check_deck_order(d, self.num_decks)
        self._reshuffles = card_lists(reshuffles, "reshuffles")
        n = self.num_players
        self.dealer = self._first_dealer(first_dealer, n)
        self._scores = [0] * n
        self._results: list[Event] = []
        self._winners: list[int] = []
        self._final: list[int] = []
        self.round = 0
        self._legal: list[int] | None = None
        self._all_wild = bool(self.options["natural_wild_sets"])
        self._deal()

    @classmethod
    def decks_for(cls, players: int) -> int:
        return 1 if players == 2 else 2

    @classmethod
    def count_event(cls, counts: Counts, event: Event, memo: dict[str, Any]) -> bool:
        """A round's result: each seat's penalty, and who went out (none: the
        stock ran out first)."""
        if event["type"] != "result":
            return False
        for seat, pen in enumerate(event["penalties"]):
            counts["penalty"][seat] += pen
        if event["went_out"] is None:
            return True
        counts["went_out"][event["went_out"]] += 1
        return False

    @classmethod
    def arrange(cls, obs: Observation) -> dict[str, Any] | None:
        from rummylab.three_thirteen.analysis import arrangement

        assert isinstance(obs, ThirteenObservation)
        if not obs.hand:
            return None
        return arrangement(obs.hand, obs.wild_rank, obs.round,
                           natural_wild_sets=bool(obs.options.get("natural_wild_sets", False)))

    @classmethod
    def analyze(cls, cards: str, **given: Any) -> dict[str, Any]:
        from rummylab.errors import OptionError
        from rummylab.three_thirteen.analysis import analyze_thirteen

        if given.get("round") is None:
            raise OptionError("three-thirteen needs --round R (1-11)")
        decks = given.get("decks")
        return analyze_thirteen(cards, given["round"], decks=2 if decks is None else decks,
                                natural_wild_sets=bool(given.get("natural_wild_sets", False)))

    @classmethod
    def move_limit(cls, players: int) -> int:
        return 400  # the stock is reshuffled for ever: a round need not end

    @classmethod
    def utility_bound(cls, options: Mapping[str, OptionValue], players: int,
                      deals: int) -> tuple[float, float]:
        top = float(sum(10 * (r + 2) for r in range(1, deals + 1)))
        return (-top, top)

    @classmethod
    def takes_discard(cls, action: int) -> bool:
        return action == TAKE_DISCARD

    @classmethod
    def shown_cards(cls, text: str) -> list[Card]:
        action = parse_action(text)
        return [(action - DISCARD_BASE) % 52] if action >= DISCARD_BASE else []

    @classmethod
    def lays_hand_down(cls, action: int) -> bool:
        return action >= GO_OUT_BASE

    def dealt_to(self) -> list[int]:
        # §3.3: one at a time from the dealer's left; then the first discard
        n = self.num_players
        return [(self.dealer + 1 + i) % n for i in range((self.round + 2) * n)] + [-1]

    def deal_line(self) -> str:
        return f" | round {self.round} | up {card_str(self._discard[-1])}"

    def text_lines(self, seat: int | None = None) -> list[str]:
        lines = super().text_lines(seat)
        if not self.is_terminal():
            lines.append(f"discard pile: {cards_str(self._discard)}  (top last)")
        return lines

    @classmethod
    def replay_setup(cls, events: Sequence[Event]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for e in events:
            if e.get("type") == "deal" and "first_dealer" not in out:
                out["first_dealer"] = int(e["dealer"])
        out["reshuffles"] = [parse_cards(e["stock"]) for e in events
                             if e.get("type") == "reshuffle"]
        return out

    # -- rounds --------------------------------------------------------
    @property
    def wild_rank(self) -> int:
        """Rank index of the round's wild cards (§3.2: round r, rank r + 2)."""
        return self.round + 1

    @property
    def wild_rank_name(self) -> str:
        return "10" if self.wild_rank == 9 else RANKS[self.wild_rank]

    def _deal(self) -> None:
        self.round += 1
        n = self.num_players
        if self._decks:
            deck = self._decks.pop(0)
        else:
            deck = [c for _ in range(self.num_decks) for c in range(52)]
            self._rng(f"deal {self.round}").shuffle(deck)
        self.events.append({"type": "deal", "round": self.round, "dealer": self.dealer,
                            "deck": cards_str(deck)})
        size = self.round + 2
        self._hands = [0] * n
        self._known = [0] * n
        for i in range(size * n):
            seat = (self.dealer + 1 + i) % n
            self._hands[seat] = multi_add(self._hands[seat], deck[i])
        self._discard = [deck[size * n]]
        self._stock = list(reversed(deck[size * n + 1:]))
        self._to_act = (self.dealer + 1) % n
        self._phase = DRAW
        self._taken: Card = -1
        self._went_out: int | None = None
        self._final_left = 0
        self._round_actions: list[tuple[int, str]] = []
        self._round_action_ids: list[int] = []
        self._legal = None
        self._reshuffle_id = 0
        self._begin_turn()

    def _begin_turn(self) -> None:
        """D-12: an empty stock is rebuilt from the discard pile less its top;
        with nothing to rebuild it from, the round ends as it stands."""
        if self._stock:
            return
        if len(self._discard) <= 1:
            self._end_round("stock")
            return
        top = self._discard.pop()
        if self._reshuffles:
            new = self._reshuffles.pop(0)
            if sorted(new) != sorted(self._discard):
                raise CardError("a recorded reshuffle must hold exactly the discard pile "
                                "less its top card")
        else:
            new = list(self._discard)
            self._reshuffle_id += 1
            self._rng(f"reshuffle {self.round}.{self._reshuffle_id}").shuffle(new)
        self._stock = list(reversed(new))
        self._discard = [top]
        self.events.append({"type": "reshuffle", "round": self.round, "stock": cards_str(new)})

    def current_player(self) -> int:
        return TERMINAL if self._phase == OVER else self._to_act

    @classmethod
    def num_distinct_actions(cls) -> int:
        return NUM_ACTIONS

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        if self._phase == OVER:
            return []
        if self._phase == DRAW:
            return [DRAW_STOCK, TAKE_DISCARD] if self._discard else [DRAW_STOCK]
        hand = self._hands[self._to_act]
        forbidden = -1
        # D-3; with two identical copies in hand, the other copy may go
        if (self._taken >= 0 and not self.options["allow_discard_of_taken_card"]
                and not hand >> (52 + self._taken) & 1):
            forbidden = self._taken
        distinct = [c for c in range(52) if hand >> c & 1 and c != forbidden]
        actions = [DISCARD_BASE + c for c in distinct]
        if self._went_out is None and penalty_after_discard(
            hand, self.wild_rank, natural_wild_sets=self._all_wild
        ) == 0:
            wr, aw = self.wild_rank, self._all_wild
            actions += [GO_OUT_BASE + c for c in distinct
                        if penalty(multi_remove(hand, c), wr, natural_wild_sets=aw) == 0]
        return actions

    def action_to_string(self, action: int) -> str:
        # 2.0 or True is no action id here either, as in apply_action
        return action_text(action if type(action) is int else as_action(action))

    def string_to_action(self, text: str) -> int:
        return parse_action(as_text(text))

    def apply_action(self, action: int) -> None:
        action = self._require_legal(action)
        seat = self._to_act
        text = action_text(action)
        self.events.append({"type": "action", "seat": seat, "action": text})
        self._round_actions.append((seat, text))
        self._round_action_ids.append(action)
        self._legal = None
        if action == DRAW_STOCK:
            self._hands[seat] = multi_add(self._hands[seat], self._stock.pop())
            self._taken = -1
            self._phase = DISCARD
            return
        if action == TAKE_DISCARD:
            card = self._discard.pop()
            self._hands[seat] = multi_add(self._hands[seat], card)
            self._known[seat] = multi_add(self._known[seat], card)
            self._taken = card
            self._phase = DISCARD
            return
        card = action - (GO_OUT_BASE if action >= GO_OUT_BASE else DISCARD_BASE)
        self._hands[seat] = multi_remove(self._hands[seat], card)
        self._known[seat] = known_after_discard(
            self._known[seat], card,
            card == self._taken and not self.options["allow_discard_of_taken_card"])
        self._discard.append(card)
        self._taken = -1
        if action >= GO_OUT_BASE:
            self._went_out = seat
            self._final_left = self.num_players - 1  # §3.5
        elif self._went_out is not None:
            self._final_left -= 1
        if self._went_out is not None and self._final_left == 0:
            self._end_round("out")
            return
        self._to_act = (seat + 1) % self.num_players
        self._phase = DRAW
        self._begin_turn()

    # -- refusals (State.refusal): why a move is not legal now --------------
    def _refusal(self, action: int) -> str:
        """The reason in the words of §3, for the seat to act."""
        try:
            action_text(action)
        except IllegalActionError as e:
            return str(e)
        after = "discard a card" if self._went_out is not None else "discard a card or go out"
        if self._phase == DRAW:
            if action == TAKE_DISCARD:
                return "the discard pile is empty: draw from the stock (§3.4)"
            return "draw first: from the stock or the discard pile (§3.4)"
        if action in (DRAW_STOCK, TAKE_DISCARD):
            return f"you have drawn this turn: {after} (§3.4)"
        out = action >= GO_OUT_BASE
        card = action - (GO_OUT_BASE if out else DISCARD_BASE)
        hand = self._hands[self._to_act]
        if not multi_has(hand, card):
            return f"you do not hold {card_str(card)}"
        if card == self._taken and not self.options["allow_discard_of_taken_card"]:
            return (f"{card_str(card)} was taken from the discard pile: it cannot be "
                    "discarded this turn (D-3, §3.11)")
        if self._went_out is not None:
            return (f"seat {self._went_out} has gone out: this last turn is a draw and a "
                    "discard (§3.5)")
        left = penalty(multi_remove(hand, card), self.wild_rank, natural_wild_sets=self._all_wild)
        return (f"going out needs every card but the discard in combinations: without "
                f"{card_str(card)} the rest leaves {left} penalty points (§3.5)")

    # -- scoring -------------------------------------------------------
    def _end_round(self, ended: str) -> None:
        """§3.9: every hand is laid down in its best arrangement."""
        hands = []
        penalties = []
        for seat in range(self.num_players):
            sol = solve(self._hands[seat], self.wild_rank, natural_wild_sets=self._all_wild)
            pen = 0 if seat == self._went_out else sol.penalty
            penalties.append(pen)
            hands.append({"melds": [combo_str(c) for c in sol.combos],
                          "unmatched": cards_str(sol.unmatched), "penalty": pen})
            self._scores[seat] += pen
        result: Event = {
            "type": "result", "round": self.round, "ended": ended, "went_out": self._went_out,
            "hands": hands, "penalties": penalties, "scores": list(self._scores),
        }
        self.events.append(result)
        self._results.append(result)
        if self.round >= ROUNDS:
            low = min(self._scores)
            self._winners = [s for s in range(self.num_players) if self._scores[s] == low]
            self._final = list(self._scores)  # no end-of-game bonuses here
            self._phase = OVER
            self._legal = []
            self.events.append({"type": "end", "winners": list(self._winners),
                                "totals": list(self._scores),
                                "final_scores": list(self._scores)})
            return
        self.dealer = (self.dealer + 1) % self.num_players  # §3.3: the deal passes left
        self._deal()

    # -- views -----------------------------------------------------------
    def observation(self, seat: int) -> ThirteenObservation:
        seat = self._seat(seat)
        over = self._phase == OVER
        acting = self._to_act == seat and not over
        return ThirteenObservation(
            game=self.game_name, seat=seat, num_players=self.num_players, phase=self._phase,
            to_act=self.current_player(), round=self.round, wild_rank=self.wild_rank,
            hand=0 if over else self._hands[seat],
            discard_pile=() if over else tuple(self._discard),
            stock_size=0 if over else len(self._stock),
            hand_sizes=tuple(0 if over else multi_count(h) for h in self._hands),
            known=tuple(0 if over else k for k in self._known),
            taken_card=self._taken if acting and self._taken >= 0 else None,
            went_out=self._went_out,
            laid_down=(self._hands[self._went_out]
                       if self._went_out is not None and not over else 0),
            final_turn=self._went_out is not None and not over,
            legal_actions=tuple(self.legal_actions()) if acting else (),
            dealer=self.dealer, scores=tuple(self._scores),
            # new pairs, a new options dict: a view holds no object the state holds
            actions=() if over else tuple([(s, t) for s, t in self._round_actions]),
            action_ids=() if over else tuple(self._round_action_ids),
            last_result=self._result_view(self._results),
            options=MappingProxyType(dict(self.options)),
        )

    @property
    def round_results(self) -> list[Event]:
        """Every round's result so far: :attr:`results` by Three Thirteen's word."""
        return self.results

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def went_out(self) -> int | None:
        return self._went_out

    def hand_of(self, seat: int) -> int:
        """A seat's cards as a multiset (full information)."""
        return self._hands[seat]

    def cards_in_hand(self, seat: int) -> list[Card]:
        return multi_cards(self._hands[seat])

    hand_cards = cards_in_hand  # its earlier name

    @property
    def stock(self) -> list[Card]:
        return list(reversed(self._stock))

    @property
    def discard_pile(self) -> list[Card]:
        return list(self._discard)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._decks = self._decks[:]
        new.options = dict(self.options)  # a clone's options are its own
        new._reshuffles = self._reshuffles[:]
        new._scores = self._scores[:]
        new._hands = self._hands[:]
        new._known = self._known[:]
        new._results = self._results[:]
        new._discard = self._discard[:]
        new._stock = self._stock[:]
        new._round_actions = self._round_actions[:]
        new._round_action_ids = self._round_action_ids[:]
        new._winners = self._winners[:]
        new._final = self._final[:]
        new.events = []
        return new

    def __repr__(self) -> str:
        return (f"<ThirteenState round {self.round} {self._phase} to_act={self.current_player()} "
                f"scores={self._scores}>")


def hand_points(cards: Sequence[Card]) -> int:
    return sum(CARD_POINTS[c] for c in cards)
