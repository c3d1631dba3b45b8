"""Gin Rummy (§1) as a match of hands, and the hand engine three-player Gin reuses.

Action notation (ids in brackets, fixed for every gin game):

=================  =====================================================
``draw stock``     [0] take the top card of the stock
``take discard``   [1] take the top of the discard pile (the upcard too)
``pass``           [2] decline the upcard in the opening (§1.3)
``discard 7h``     [3 + card] discard without knocking
``knock 7h``       [55 + card] discard 7h face down and lay down (§1.5);
                   with no deadwood left it is gin (§1.6); ``gin 7h`` is
                   accepted as input
``big gin``        [107] all eleven cards melded after the draw (option)
=================  =====================================================

The deal (§1.2): from a deck order written top card first, ten cards each,
dealt alternately starting with the non-dealer; the 21st card is the upcard,
the rest is the stock with the 22nd card on top.

>>> state = GinState(seed=1)
>>> state.current_player() == 1 - state.dealer
True
>>> [state.action_to_string(a) for a in state.legal_actions()]
['take discard', 'pass']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Self

from rummylab.cards import (
    CARD_POINTS,
    Card,
    CardSet,
    card_str,
    cards_of,
    cards_str,
    check_deck_order,
    mask_str,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
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
from rummylab.gin.solver import (
    best_arrangement,
    best_defence,
    deadwood,
    deadwood_after_discard,
    knock_arrangement,
    meld_str,
)
from rummylab.options import BONUS_MAX, Option, OptionValue

DRAW_STOCK = 0
TAKE_DISCARD = 1
PASS = 2
DISCARD_BASE = 3
KNOCK_BASE = 55
BIG_GIN = 107
NUM_ACTIONS = 108

OFFER, DRAW, DISCARD, OVER = "offer", "draw", "discard", "over"

GIN_OPTIONS: dict[str, Option] = {
    # the maximum keeps a run finite: a match to 100,000 is about 4,000 hands
    "target": Option("target", 100, "points that win the match", minimum=1, maximum=100_000,
                     rule="§1.1"),
    "knock_limit": Option(
        "knock_limit", 10, "most deadwood a player may knock with", minimum=0, maximum=99,
        rule="§1.5", void_if="oklahoma",
    ),
    "gin_bonus": Option("gin_bonus", 25, "bonus for going gin", minimum=0, maximum=BONUS_MAX,
                        rule="§1.8"),
    "undercut_bonus": Option(
        "undercut_bonus", 10, "bonus for undercutting the knocker", minimum=0,
        maximum=BONUS_MAX, rule="§1.8"
    ),
    "allow_discard_of_taken_card": Option(
        "allow_discard_of_taken_card", False,
        "a card taken from the discard pile may be discarded the same turn", rule="D-3",
    ),
    "first_draw_after_both_pass": Option(
        "first_draw_after_both_pass", "non_dealer",
        "who draws first from the stock when both decline the upcard",
        choices=("non_dealer", "dealer"), rule="§1.3, D-7",
    ),
    "big_gin": Option(
        "big_gin", False, "all eleven cards melded after the draw ends the hand as big gin",
        rule="§1 options",
    ),
    "big_gin_bonus": Option("big_gin_bonus", 31, "bonus for big gin", minimum=0,
                            maximum=BONUS_MAX, rule="§1 options", needs="big_gin"),
    "oklahoma": Option(
        "oklahoma", False,
        "Oklahoma Gin: the upcard's points set the knock limit (an ace: gin only); "
        "a spade upcard doubles the hand", rule="§1 options",
    ),
    "game_bonus": Option("game_bonus", 0, "bonus for winning the match (classic: 100)",
                         minimum=0, maximum=BONUS_MAX, rule="§1 options"),
    "line_bonus": Option("line_bonus", 0, "bonus per hand won, added at the end "
                         "(classic: 20 or 25)", minimum=0, maximum=BONUS_MAX,
                         rule="§1 options"),
    "hollywood": Option(
        "hollywood", False,
        "Hollywood: three games scored at once (a player's first win counts in game 1, the "
        "second in games 1-2, later ones in all open games); the match ends with all three",
        rule="§1 options",
    ),
    "shutout_double": Option(
        "shutout_double", False, "the winner's score doubles when the loser won no hand",
        rule="§1 options",
    ),
}


def _meld_strs(melds: Sequence[CardSet]) -> list[str]:
    return [meld_str(m) for m in melds]


@quick_init
@dataclass(frozen=True)
class GinObservation(Observation):
    """What one seat may know. Cards are ints (masks for hands)."""

    role: str
    hand_seat: int
    hand: CardSet
    discard_pile: tuple[Card, ...]
    stock_size: int
    opponent_known: CardSet
    opponent_hand_size: int
    taken_card: Card | None
    knock_limit: int
    hand_number: int
    roles: tuple[str, ...] = ()
    # three-player Gin: the sitter's advice on the captain's move to make
    # (in the captain's and the sitter's views only: it tells of the captain's cards)
    advice: tuple[str, ...] = ()
    # public at the table, and so in a seat's position: the hands won (line
    # bonus, shutout), Hollywood's three games as (points, hands won) per seat,
    # and whether Oklahoma's spade upcard doubles this hand. Not in to_dict():
    # its keys are what the RL adapters and the server's views were built on
    hands_won: tuple[int, ...] = ()
    games: tuple[tuple[tuple[int, int], ...], ...] = ()
    doubled: bool = False

    def cards_in_hand(self) -> list[Card]:
        """The hand seat's cards (none for a seat that holds no hand)."""
        return cards_of(self.hand)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "role": self.role,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand_seat": self.hand_seat,
            "hand": mask_str(self.hand),
            "discard_pile": cards_str(self.discard_pile),
            "stock_size": self.stock_size,
            "opponent_known": mask_str(self.opponent_known),
            "opponent_hand_size": self.opponent_hand_size,
            "taken_card": None if self.taken_card is None else card_str(self.taken_card),
            "knock_limit": self.knock_limit,
            "legal_actions": [action_text(a) for a in self.legal_actions],
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "scores": list(self.scores),
            "actions": [[s, t] for s, t in self.actions],
            "last_result": None if self.last_result is None else thawed(self.last_result),
            "roles": list(self.roles),
            "advice": list(self.advice),
        }


def action_text(action: int) -> str:
    """Text form of a gin action id.

    >>> action_text(3 + 35), action_text(55 + 0)
    ('discard Th', 'knock Ac')
    """
    if action == DRAW_STOCK:
        return "draw stock"
    if action == TAKE_DISCARD:
        return "take discard"
    if action == PASS:
        return "pass"
    if DISCARD_BASE <= action < KNOCK_BASE:
        return "discard " + card_str(action - DISCARD_BASE)
    if KNOCK_BASE <= action < BIG_GIN:
        return "knock " + card_str(action - KNOCK_BASE)
    if action == BIG_GIN:
        return "big gin"
    raise IllegalActionError(f"no gin action has id {action}")


def parse_action(text: str) -> int:
    """Parse an action's text form, case-insensitive.

    >>> parse_action("Discard 10h") == 3 + 35
    True
    """
    words = text.strip().lower().split()
    if words in (["draw", "stock"], ["draw"], ["stock"]):
        return DRAW_STOCK
    if words in (["take", "discard"], ["take"]):
        return TAKE_DISCARD
    if words == ["pass"]:
        return PASS
    if words == ["big", "gin"]:
        return BIG_GIN
    if len(words) == 2 and words[0] in ("discard", "knock", "gin"):
        try:
            card = parse_card(words[1])
        except CardError as e:
            raise IllegalActionError(str(e)) from None
        return (DISCARD_BASE if words[0] == "discard" else KNOCK_BASE) + card
    raise UnknownActionError(
        f"unknown action {text.strip()!r}: use 'draw stock', 'take discard', 'pass', "
        "'discard 7h', 'knock 7h' or 'big gin'"
    )


class GinState(State):
    """A two-player Gin Rummy match (§1), hand after hand to the target."""

    game_name: ClassVar[str] = "gin"
    aliases: ClassVar[tuple[str, ...]] = ("gin-rummy",)
    title: ClassVar[str] = "Gin Rummy"
    option_spec: ClassVar[Mapping[str, Option]] = GIN_OPTIONS
    num_seats: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    figures: ClassVar[tuple[Figure, ...]] = (
        Figure("points_per_hand", "points", "deal", short="pts/hand"),
        Figure("hands_won", "hands_won"), Figure("knocks", "knocks"), Figure("gins", "gins"),
        Figure("undercuts", "undercuts"),
    )
    deal_figure: ClassVar[str] = "points_per_hand"
    observation_type: ClassVar[type[Observation]] = GinObservation
    move_forms: ClassVar[tuple[str, ...]] = (
        "draw stock", "take discard", "pass", "discard 7h", "knock 7h", "big gin")

    def __init__(
        self,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        *,
        decks: Sequence[Sequence[Card]] | None = None,
        first_dealer: int | None = None,
    ) -> None:
        """A new match. ``decks`` gives the deck order (top first) of the
        first hands; later hands are shuffled from ``seed``."""
        self._setup(options, seed)
        self.num_players = self.num_seats
        self._decks = card_lists(decks, "decks")  # popped, never mutated
        # dealt as given, not from the seed alone (records say so)
        self.decks_given = bool(decks) or first_dealer is not None
        for d in self._decks:
            check_deck_order(d)
        self._scores = [0] * self.num_players
        self._wins = [0] * self.num_players
        self._hands = [0] * self.num_players
        self._known = [0] * self.num_players
        self._results: list[Event] = []
        self._hand_no = 0
        self._winners: list[int] = []
        self._final: list[int] = []
        self._legal: list[int] | None = None
        n = self.num_players
        self._hw_cols = [[0] * n for _ in range(3)]  # Hollywood's three games
        self._hw_wins = [[0] * n for _ in range(3)]
        self._hw_open = [True] * 3
        self._hw_entered = [[False] * 3 for _ in range(n)]
        self._hw_results: list[tuple[list[int], list[int]]] = [([], [])] * 3
        self._setup_match(first_dealer)
        self._deal()

    @classmethod
    def count_event(cls, counts: Counts, event: Event, memo: dict[str, Any]) -> bool:
        """A hand's result: points and hands to the winner, a knock or a gin
        to the knocker, an undercut to the defender who made it."""
        if event["type"] != "result":
            return False
        outcome = event["outcome"]
        if outcome == "drawn":
            return True
        winner = event["winner"]
        counts["points"][winner] += event["points"]
        counts["hands_won"][winner] += 1
        knocker: int = event["knocker"]
        if outcome in ("gin", "big_gin"):
            counts["gins"][knocker] += 1
        else:
            counts["knocks"][knocker] += 1
        if outcome == "undercut":
            counts["undercuts"][winner] += 1
        return False

    @classmethod
    def arrange(cls, obs: Observation) -> dict[str, Any] | None:
        from rummylab.gin.analysis import arrangement

        assert isinstance(obs, GinObservation)
        return arrangement(obs.hand) if obs.hand else None  # a sitter's: the captain's

    @classmethod
    def analyze(cls, cards: str, **given: Any) -> dict[str, Any]:
        from rummylab.gin.analysis import analyze_gin

        # a position's hand has its own knock limit (Oklahoma's upcard)
        limit = given.get("knock_limit", cls.option_spec["knock_limit"].default)
        return analyze_gin(cards, knock_limit=int(limit))

    @classmethod
    def utility_bound(cls, options: Mapping[str, OptionValue], players: int,
                      deals: int) -> tuple[float, float]:
        o = options
        bonus = max(int(o["gin_bonus"]), int(o["big_gin_bonus"]) if o["big_gin"] else 0,
                    int(o["undercut_bonus"]) + 10)
        per = (bonus + 100) * (2 if o["oklahoma"] else 1)  # 10 cards at most 10 each
        top = float(per * deals)
        return (-top / (players - 1), top)

    @classmethod
    def takes_discard(cls, action: int) -> bool:
        return action == TAKE_DISCARD

    @classmethod
    def shown_cards(cls, text: str) -> list[Card]:
        action = parse_action(text)
        return [(action - DISCARD_BASE) % 52] if DISCARD_BASE <= action < BIG_GIN else []

    def dealt_to(self) -> list[int]:
        # §1.2: ten each, alternately from the non-dealer; then the upcard
        return [self.non_dealer if i % 2 == 0 else self.dealer for i in range(20)] + [-1]

    def deal_line(self) -> str:
        return f" | up {card_str(self._discard[-1])}"

    def text_lines(self, seat: int | None = None) -> list[str]:
        lines = []
        for p in range(self.num_players) if seat is None else [seat]:
            if seat is None:
                lines.append(f"seat {p} ({self.role_of(p)}): {mask_str(self._hands[p])}")
            else:
                obs = self.observation(p)
                lines.append(f"seat {p} ({obs.role}) sees: {mask_str(obs.hand)}")
        if not self.is_terminal():
            lines.append(f"discard pile: {cards_str(self._discard)}  (top last)")
        return lines

    # -- match structure hooks (three-player Gin overrides these) -----
    def _setup_match(self, first_dealer: int | None) -> None:
        self.dealer = self._first_dealer(first_dealer, 2)
        self.non_dealer = 1 - self.dealer

    def _next_roles(self, winner: int | None) -> None:
        """D-2: the deal alternates; after a drawn hand the same dealer deals."""
        if winner is not None:
            self.dealer, self.non_dealer = self.non_dealer, self.dealer

    def _deal_event(self, deck: Sequence[Card]) -> Event:
        return {"type": "deal", "hand": self._hand_no, "dealer": self.dealer,
                "deck": cards_str(deck)}

    def role_of(self, seat: int) -> str:
        return "player"

    # -- the hand ------------------------------------------------------
    def _deal(self) -> None:
        self._hand_no += 1
        deck = self._decks.pop(0) if self._decks else self._shuffled()
        self.events.append(self._deal_event(deck))
        nd, dl = self.non_dealer, self.dealer
        self._hands = [0] * self.num_players
        self._known = [0] * self.num_players
        for i in range(20):
            seat = nd if i % 2 == 0 else dl
            self._hands[seat] |= 1 << deck[i]
        upcard = deck[20]
        self._discard = [upcard]
        self._stock = list(reversed(deck[21:]))  # pop() takes the top
        self._limit = int(self.options["knock_limit"])
        self._multiplier = 1
        if self.options["oklahoma"]:
            self._limit = 0 if rank_of(upcard) == 0 else CARD_POINTS[upcard]
            self._multiplier = 2 if suit_of(upcard) == 3 else 1
        self._phase = OFFER
        self._to_act = nd
        self._passes = 0
        self._forced_stock = False
        self._taken: Card = -1
        self._hand_actions: list[tuple[int, str]] = []
        self._hand_action_ids: list[int] = []
        self._legal = None

    def _shuffled(self) -> list[Card]:
        deck = list(range(52))
        self._rng(f"deal {self._hand_no}").shuffle(deck)
        return deck

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
        phase = self._phase
        if phase == OFFER:
            return [TAKE_DISCARD, PASS]
        if phase == DRAW:
            return [DRAW_STOCK] if self._forced_stock else [DRAW_STOCK, TAKE_DISCARD]
        if phase == OVER:
            return []
        hand = self._hands[self._to_act]
        forbidden = 0
        if self._taken >= 0 and not self.options["allow_discard_of_taken_card"]:
            forbidden = 1 << self._taken
        playable = cards_of(hand & ~forbidden)
        actions = [DISCARD_BASE + c for c in playable]
        if deadwood_after_discard(hand) <= self._limit:
            limit = self._limit
            actions += [KNOCK_BASE + c for c in playable if deadwood(hand & ~(1 << c)) <= limit]
        if self.options["big_gin"] and deadwood(hand) == 0:
            actions.append(BIG_GIN)
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
        self._hand_actions.append((seat, text))
        self._hand_action_ids.append(action)
        self._legal = None
        phase = self._phase
        if action == TAKE_DISCARD:
            card = self._discard.pop()
            self._hands[seat] |= 1 << card
            self._known[seat] |= 1 << card
            self._taken = card
            self._phase = DISCARD
        elif action == DRAW_STOCK:
            self._hands[seat] |= 1 << self._stock.pop()
            self._taken = -1
            self._forced_stock = False
            self._phase = DISCARD
        elif action == PASS:
            self._passes += 1
            if self._passes == 1:
                self._to_act = self.dealer
            else:
                first = self.options["first_draw_after_both_pass"]
                self._to_act = self.dealer if first == "dealer" else self.non_dealer
                self._phase = DRAW
                self._forced_stock = True
        elif action < KNOCK_BASE:
            card = action - DISCARD_BASE
            bit = 1 << card
            self._hands[seat] &= ~bit
            self._known[seat] &= ~bit
            self._discard.append(card)
            if len(self._stock) <= 2:  # §1.9
                self._end_hand(self._drawn_result())
            else:
                self._to_act = self._opponent(seat)
                self._phase = DRAW
                self._taken = -1
        elif action < BIG_GIN:
            card = action - KNOCK_BASE
            self._hands[seat] &= ~(1 << card)
            self._known[seat] &= ~(1 << card)
            self._discard.append(card)
            self._end_hand(self._knock_result(seat, big=False))
        else:
            self._end_hand(self._knock_result(seat, big=True))
        assert phase != OVER

    def _opponent(self, seat: int) -> int:
        return self.non_dealer if seat == self.dealer else self.dealer

    # -- refusals (State.refusal): why a move is not legal now --------------
    def _refusal(self, action: int) -> str:
        """The reason in the words of §1 (and the options'), for the seat to act."""
        try:
            action_text(action)
        except IllegalActionError as e:
            return str(e)
        phase, drawing = self._phase, action in (DRAW_STOCK, TAKE_DISCARD, PASS)
        if phase == OFFER:
            if action == DRAW_STOCK:
                return "the upcard is offered first: take it or pass (§1.3)"
            return "draw first: take the upcard or pass (§1.3)"
        if phase == DRAW:
            rule = self.option_spec["first_draw_after_both_pass"].rule
            if action == PASS:
                return ("a pass declines the upcard at the opening only (§1.3): draw from the "
                        + ("stock" if self._forced_stock else "stock or the discard pile"))
            if self._forced_stock:
                if action == TAKE_DISCARD:
                    return f"both declined the upcard: the first draw is from the stock ({rule})"
                return f"draw first: both declined the upcard, so from the stock ({rule})"
            return "draw first: from the stock or the discard pile (§1.4)"
        if drawing:
            return "you have drawn this turn: discard a card, or knock (§1.4)"
        if action == BIG_GIN:
            if not self.options["big_gin"]:
                return "big gin is not in these rules (option big_gin, §1 options)"
            return "big gin needs all eleven cards melded after the draw (§1 options)"
        knock = action >= KNOCK_BASE
        card = action - (KNOCK_BASE if knock else DISCARD_BASE)
        hand = self._hands[self._to_act]
        if not hand >> card & 1:
            return f"you do not hold {card_str(card)}"
        if card == self._taken and not self.options["allow_discard_of_taken_card"]:
            return (f"{card_str(card)} was taken from the discard pile: it cannot be "
                    "discarded this turn (D-3)")
        left = deadwood(hand & ~(1 << card))
        rule = "§1 options" if self.options["oklahoma"] else "§1.5"
        only = ": gin only" if self._limit == 0 else ""
        return (f"discarding {card_str(card)} leaves {left} deadwood, over the knock limit "
                f"of {self._limit}{only} ({rule})")

    # -- scoring -------------------------------------------------------
    def _drawn_result(self) -> Event:
        return {"type": "result", "hand": self._hand_no, "outcome": "drawn",
                "knocker": None, "winner": None, "points": 0}

    def _knock_result(self, knocker: int, big: bool) -> Event:
        """Score a knock, gin or big gin (§1.5-1.8, D-4, D-5)."""
        defender = self._opponent(knocker)
        khand, dhand = self._hands[knocker], self._hands[defender]
        kdw = deadwood(khand)
        if kdw == 0:
            arr = best_arrangement(khand)
        else:
            live = ((1 << 52) - 1) & ~khand
            for c in self._discard:
                live &= ~(1 << c)
            arr = knock_arrangement(khand, live, dhand)
        layoffs: tuple[tuple[Card, int], ...] = ()
        if kdw == 0:
            darr = best_arrangement(dhand)
            dmelds, ddw_mask = darr.melds, darr.deadwood_mask
        else:
            defence = best_defence(dhand, arr.melds)
            dmelds, layoffs, ddw_mask = defence.melds, defence.layoffs, defence.deadwood_mask
        ddw = sum(CARD_POINTS[c] for c in cards_of(ddw_mask))
        if big:
            outcome, winner = "big_gin", knocker
            points = int(self.options["big_gin_bonus"]) + ddw
        elif kdw == 0:
            outcome, winner = "gin", knocker
            points = int(self.options["gin_bonus"]) + ddw
        elif kdw < ddw:
            outcome, winner = "knock", knocker
            points = ddw - kdw
        else:
            outcome, winner = "undercut", defender
            points = kdw - ddw + int(self.options["undercut_bonus"])
        points *= self._multiplier
        return {
            "type": "result", "hand": self._hand_no, "outcome": outcome,
            "knocker": knocker, "winner": winner, "points": points,
            "knocker_melds": _meld_strs(arr.melds),
            "knocker_deadwood_cards": mask_str(arr.deadwood_mask),
            "knocker_deadwood": kdw,
            "defender": defender,
            "defender_melds": _meld_strs(dmelds),
            "layoffs": [[card_str(c), i] for c, i in layoffs],
            "defender_deadwood_cards": mask_str(ddw_mask),
            "defender_deadwood": ddw,
        }

    def _end_hand(self, result: Event) -> None:
        winner = result["winner"]
        if winner is not None:
            self._scores[winner] += result["points"]
            self._wins[winner] += 1
        result["scores"] = list(self._scores)
        target = int(self.options["target"])
        if self.options["hollywood"]:
            self._hollywood_entry(winner, result["points"], target)
            result["games"] = [list(col) for col in self._hw_cols]
            self.events.append(result)
            self._results.append(result)
            if not any(self._hw_open):
                self._finish_hollywood()
                return
        else:
            self.events.append(result)
            self._results.append(result)
            reached = [s for s in range(self.num_players) if self._scores[s] >= target]
            if reached:
                self._finish(reached)
                return
        self._next_roles(winner)
        self._deal()

    def _settle(self, scores: list[int], wins: list[int],
                reached: list[int]) -> tuple[list[int], list[int]]:
        """Winners of one game and its scores with the classic bonuses."""
        best = max(scores[s] for s in reached)
        winners = [s for s in reached if scores[s] == best]
        final = list(scores)
        line = int(self.options["line_bonus"])
        for s in range(self.num_players):
            final[s] += line * wins[s]
        for s in winners:
            final[s] += int(self.options["game_bonus"])
            others = [o for o in range(self.num_players) if o != s]
            if self.options["shutout_double"] and all(wins[o] == 0 for o in others):
                final[s] *= 2
        return winners, final

    def _finish(self, reached: list[int]) -> None:
        """§1.10: the player whose total reaches the target wins; the
        classic bonuses, when set, are added to the totals."""
        self._winners, self._final = self._settle(self._scores, self._wins, reached)
        self._phase = OVER
        self._legal = []
        self.events.append({
            "type": "end", "winners": list(self._winners), "totals": list(self._scores),
            "hands_won": list(self._wins), "final_scores": list(self._final),
        })

    # -- Hollywood: three games scored at once --------------------------
    def _hollywood_entry(self, winner: int | None, points: int, target: int) -> None:
        """A hand's points go into every open game the winner has entered,
        and into the next open game not yet entered (a player's first win
        enters game 1, the second game 2, the third game 3)."""
        if winner is None:
            return
        entered = self._hw_entered[winner]
        new_entry = next((g for g in range(3) if self._hw_open[g] and not entered[g]), None)
        for g in range(3):
            if self._hw_open[g] and (entered[g] or g == new_entry):
                entered[g] = True
                self._hw_cols[g][winner] += points
                self._hw_wins[g][winner] += 1
                if self._hw_cols[g][winner] >= target:
                    self._hw_open[g] = False
                    self._hw_results[g] = self._settle(self._hw_cols[g], self._hw_wins[g],
                                                       [winner])

    def _finish_hollywood(self) -> None:
        """The match ends when all three games have; its final score is the sum
        of the three games' scores with their bonuses, and the most wins."""
        n = self.num_players
        final = [sum(self._hw_results[g][1][s] for g in range(3)) for s in range(n)]
        best = max(final)
        self._winners = [s for s in range(n) if final[s] == best]
        self._final = final
        self._phase = OVER
        self._legal = []
        self.events.append({
            "type": "end", "winners": list(self._winners), "totals": list(self._scores),
            "hands_won": list(self._wins), "final_scores": list(final),
            "games": [{"winners": w, "scores": f} for w, f in self._hw_results],
        })

    # -- views -----------------------------------------------------------
    def observation(self, seat: int) -> GinObservation:
        seat = self._seat(seat)
        hand_seat = self._hand_seat_for(seat)
        holds = hand_seat in (self.dealer, self.non_dealer) and self._phase != OVER
        opp = self._opponent(hand_seat) if holds else hand_seat
        acting = self._to_act == hand_seat and self._phase != OVER
        return GinObservation(
            game=self.game_name,
            seat=seat,
            role=self.role_of(seat),
            phase=self._phase,
            to_act=self.current_player(),
            hand_seat=hand_seat,
            hand=self._hands[hand_seat] if holds else 0,
            discard_pile=tuple(self._discard) if self._phase != OVER else (),
            stock_size=len(self._stock) if self._phase != OVER else 0,
            opponent_known=self._known[opp] if holds else 0,
            opponent_hand_size=self._hands[opp].bit_count() if holds else 0,
            taken_card=self._taken if acting and self._taken >= 0 else None,
            knock_limit=self._limit,
            legal_actions=tuple(self.legal_actions()) if acting else (),
            dealer=self.dealer,
            hand_number=self._hand_no,
            scores=tuple(self._scores),
            # new pairs, a new options dict: a view holds no object the state holds
            actions=(tuple([(s, t) for s, t in self._hand_actions])
                     if self._phase != OVER else ()),
            action_ids=tuple(self._hand_action_ids) if self._phase != OVER else (),
            last_result=self._result_view(self._results),
            options=MappingProxyType(dict(self.options)),
            roles=tuple(self.role_of(s) for s in range(self.num_players)),
            hands_won=tuple(self._wins),
            games=(tuple(tuple(zip(self._hw_cols[g], self._hw_wins[g], strict=True))
                         for g in range(3)) if self.options["hollywood"] else ()),
            doubled=self._multiplier == 2 and self._phase != OVER,
        )

    def _hand_seat_for(self, seat: int) -> int:
        return seat

    # -- results -------------------------------------------------------
    @property
    def hand_results(self) -> list[Event]:
        """Every hand's result so far: :attr:`results` by Gin's word."""
        return self.results

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def hand_number(self) -> int:
        return self._hand_no

    def hand_of(self, seat: int) -> CardSet:
        """A seat's cards as a bit mask (full information: for referees and tests)."""
        return self._hands[seat]

    def cards_in_hand(self, seat: int) -> list[Card]:
        return cards_of(self._hands[seat])

    @property
    def stock(self) -> list[Card]:
        """Stock, top card first (full information)."""
        return list(reversed(self._stock))

    @property
    def discard_pile(self) -> list[Card]:
        return list(self._discard)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._decks = self._decks[:]  # deck orders are never mutated
        new.options = dict(self.options)  # a clone's options are its own
        new._scores = self._scores[:]
        new._wins = self._wins[:]
        new._hands = self._hands[:]
        new._known = self._known[:]
        new._results = self._results[:]
        new._discard = self._discard[:]
        new._stock = self._stock[:]
        new._hand_actions = self._hand_actions[:]
        new._hand_action_ids = self._hand_action_ids[:]
        new._winners = self._winners[:]
        new._final = self._final[:]
        if self.options["hollywood"]:
            new._hw_cols = [c[:] for c in self._hw_cols]
            new._hw_wins = [c[:] for c in self._hw_wins]
            new._hw_open = self._hw_open[:]
            new._hw_entered = [e[:] for e in self._hw_entered]
            new._hw_results = self._hw_results[:]
        new.events = []  # a clone records only what happens to it
        return new

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} hand {self._hand_no} {self._phase} "
                f"to_act={self.current_player()} scores={self._scores}>")


def deal_from_text(text: str) -> list[Card]:
    cards = parse_cards(text)
    check_deck_order(cards)
    return cards
