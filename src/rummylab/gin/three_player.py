"""Three-player Gin, "in the box" (§2): the box plays every hand against the
captain, the sitter watches the captain's cards and may advise.

The hand is :class:`~rummylab.gin.game.GinState`'s; this subclass changes who
deals (the box, §2.3), the rotation (§2.6), the opening default (D-7), the
sitter's view and the advice the sitter may give.

>>> state = Gin3State(seed=3)
>>> roles = [state.role_of(s) for s in range(3)]
>>> sorted(roles)
['box', 'captain', 'sitter']
>>> state.current_player() == roles.index("captain")
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import permutations
from typing import Any, ClassVar

from rummylab.cards import Card, card_str, parse_card, rank_of
from rummylab.errors import CardError, IllegalActionError, TurnError
from rummylab.game import Counts, Event, Figure, shown, whole_number
from rummylab.gin.game import GIN_OPTIONS, GinObservation, GinState
from rummylab.options import Option

GIN3_OPTIONS: dict[str, Option] = dict(GIN_OPTIONS)
GIN3_OPTIONS["first_draw_after_both_pass"] = Option(
    "first_draw_after_both_pass", "dealer",
    "who draws first from the stock when both decline the upcard",
    choices=("non_dealer", "dealer"), rule="§2.4, D-7",
)

CutRound = dict[int, Card]


def _cut_rounds(cut: object) -> list[CutRound]:
    """The cut's rounds given to the constructor, ``[{seat: card}, ...]``
    (a card as an int or as text, a seat as an int or as digits)."""
    if cut is None:
        return []
    bad = CardError(f"cut must be a list of {{seat: card}} rounds, not {shown(cut)}")
    if not isinstance(cut, Sequence) or isinstance(cut, str | bytes):
        raise bad
    rounds: list[CutRound] = []
    for given in cut:
        if not isinstance(given, Mapping):
            raise bad
        draw: CutRound = {}
        for s, c in given.items():
            digits = isinstance(s, str) and s.isascii() and s.isdigit()
            seat = int(s) if digits else whole_number(s)
            card = parse_card(c) if isinstance(c, str) else whole_number(c)
            if seat is None or card is None or not 0 <= card < 52:
                raise bad
            draw[seat] = card
        rounds.append(draw)
    return rounds


class Gin3State(GinState):
    """A three-player Gin match. Seats 0-2; roles move after every hand."""

    game_name: ClassVar[str] = "gin3"
    aliases: ClassVar[tuple[str, ...]] = ("three-player-gin",)
    title: ClassVar[str] = "three-player Gin"
    option_spec: ClassVar[Mapping[str, Option]] = GIN3_OPTIONS
    num_seats: ClassVar[int] = 3
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 3
    default_players: ClassVar[int] = 3
    # Gin's figures, and each seat's hands as the box and as the captain
    figures: ClassVar[tuple[Figure, ...]] = (*GinState.figures, *(
        f for role in ("box", "captain") for f in (
            Figure(f"{role}_hands", f"{role}_hands"),
            Figure(f"{role}_win_rate", f"{role}_won", f"{role}_hands"),
            Figure(f"{role}_points_per_hand", f"{role}_points", f"{role}_hands"))))

    def __init__(
        self,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        *,
        decks: Sequence[Sequence[Card]] | None = None,
        cut: Sequence[Mapping[int, str | Card]] | None = None,
    ) -> None:
        """``cut`` gives the role cut's draws, round by round (D-6)."""
        self._cut_given = _cut_rounds(cut)
        super().__init__(options, seed, decks=decks)
        self.decks_given = self.decks_given or bool(self._cut_given)

    @classmethod
    def count_event(cls, counts: Counts, event: Event, memo: dict[str, Any]) -> bool:
        """As in Gin, and each hand for the box and the captain (hands, hands
        won, points won less points lost)."""
        if event["type"] == "deal":
            memo["roles"] = (event["dealer"], event["captain"])
        elif event["type"] == "result" and "roles" in memo:
            winner, points = event["winner"], event["points"]
            for role, seat in zip(("box", "captain"), memo["roles"], strict=True):
                counts[f"{role}_hands"][seat] += 1
                if winner is None:
                    continue
                if winner == seat:
                    counts[f"{role}_won"][seat] += 1
                    counts[f"{role}_points"][seat] += points
                else:
                    counts[f"{role}_points"][seat] -= points
        return super().count_event(counts, event, memo)

    @classmethod
    def starts(cls, players: int) -> list[tuple[str, dict[str, Any]]]:
        """The six ways to cut the roles (D-6): Kc, Qc, Jc drawn by the box,
        the captain and the sitter."""
        return [(f"roles box={box} captain={captain} sitter={sitter}",
                 {"cut": [{box: 12, captain: 11, sitter: 10}]})
                for box, captain, sitter in permutations(range(3))]

    @classmethod
    def replay_setup(cls, events: Sequence[Event]) -> dict[str, Any]:
        for e in events:
            if e.get("type") == "cut":
                rounds = e.get("rounds")
                if not isinstance(rounds, list) or not all(
                        isinstance(r, dict) and all(isinstance(c, str) for c in r.values())
                        and all(k.isascii() and k.isdigit() for k in r)
                        for r in rounds):
                    raise ValueError("a cut's 'rounds' must be a list of {seat: card} objects")
                return {"cut": [{int(k): v for k, v in r.items()} for r in rounds]}
        return {}

    # -- D-6: the cut for roles -----------------------------------------
    def _setup_match(self, first_dealer: int | None) -> None:
        rounds: list[CutRound] = []
        order = self._order_by_cut([0, 1, 2], rounds)
        self.sitter_seat = order[2]
        self.dealer, self.non_dealer = order[0], order[1]
        self.events.append({
            "type": "cut",
            "rounds": [{str(s): card_str(c) for s, c in sorted(r.items())} for r in rounds],
            "box": self.dealer, "captain": self.non_dealer, "sitter": self.sitter_seat,
        })

    def _order_by_cut(self, seats: list[int], rounds: list[CutRound]) -> list[int]:
        """Seats from highest to lowest card (K high, A low); ties redrawn."""
        if len(seats) == 1:
            return seats
        draw = self._cut_draw(seats, len(rounds))
        rounds.append(draw)
        ranks = sorted({rank_of(c) for c in draw.values()}, reverse=True)
        out: list[int] = []
        for r in ranks:
            tied = [s for s in seats if rank_of(draw[s]) == r]
            out.extend(self._order_by_cut(tied, rounds) if len(tied) > 1 else tied)
        return out

    def _cut_draw(self, seats: list[int], index: int) -> CutRound:
        if self._cut_given:
            draw = self._cut_given.pop(0)
            if sorted(draw) != sorted(seats) or len(set(draw.values())) != len(draw):
                raise CardError(f"cut round {index + 1} must draw one distinct card for "
                                f"each of seats {seats}")
            return draw
        deck = list(range(52))
        self._rng(f"cut {index}").shuffle(deck)
        return {s: deck[i] for i, s in enumerate(seats)}

    # -- §2.6 rotation -----------------------------------------------------
    def _next_roles(self, winner: int | None) -> None:
        if winner is None:
            return  # drawn hand: nobody moves, the box deals again
        box, captain, sitter = self.dealer, self.non_dealer, self.sitter_seat
        if winner == box:
            self.non_dealer, self.sitter_seat = sitter, captain
        else:
            self.dealer, self.non_dealer, self.sitter_seat = captain, sitter, box

    def _deal_event(self, deck: Sequence[Card]) -> Event:
        event = super()._deal_event(deck)
        event["captain"] = self.non_dealer
        event["sitter"] = self.sitter_seat
        return event

    def role_of(self, seat: int) -> str:
        if seat == self.dealer:
            return "box"
        if seat == self.non_dealer:
            return "captain"
        return "sitter"

    def deal_line(self) -> str:
        roles = " ".join(f"{self.role_of(s)}={s}" for s in range(3))
        return f" | {roles}{super().deal_line()}"

    def _hand_seat_for(self, seat: int) -> int:
        # §2.2: the sitter sees the captain's cards, never the box's
        return self.non_dealer if seat == self.sitter_seat else seat

    # -- the sitter's advice -----------------------------------------------
    def advise(self, action: int | str, seat: int | None = None) -> int:
        """The sitter advises the captain. Recorded; changes nothing else.

        Only while the captain is to act, and only a legal action. With
        ``seat``, advice from any seat but the sitter's is a :class:`TurnError`
        (before the action is read: its error would tell of the captain's cards).
        """
        if seat is not None and seat != self.sitter_seat:
            raise TurnError("only the sitter may advise (§2.2)")
        if self.current_player() != self.non_dealer:
            raise IllegalActionError("the sitter may advise only while the captain is to act")
        if isinstance(action, str):
            action = self.string_to_action(action)
        action = self.check_legal(action)
        text = self.action_to_string(action)
        self.events.append({"type": "advice", "seat": self.sitter_seat, "action": text})
        self._advice.append((self.sitter_seat, text, len(self._hand_actions)))
        return action

    def _deal(self) -> None:
        super()._deal()
        # (seat, move, the number of the hand's moves made when it was given)
        self._advice: list[tuple[int, str, int]] = []

    @property
    def advice(self) -> list[tuple[int, str]]:
        """The sitter's advice this hand, ``(seat, action text)``."""
        return [(s, t) for s, t, _ in self._advice]

    def observation(self, seat: int) -> GinObservation:
        """As in Gin, and the captain and the sitter also see the advice on
        the captain's move to make (the box does not: it tells of the
        captain's cards).

        >>> state = Gin3State(seed=3)
        >>> _ = state.advise("pass")
        >>> state.observation(state.non_dealer).advice, state.observation(state.dealer).advice
        (('pass',), ())
        """
        obs = super().observation(seat)
        if seat in (self.non_dealer, self.sitter_seat) and not self.is_terminal():
            moves = len(self._hand_actions)
            given = tuple(t for _, t, at in self._advice if at == moves)
            if given:
                obs = replace(obs, advice=given)
        return obs

    def clone(self) -> Gin3State:
        new = super().clone()
        new._cut_given = []
        new._advice = self._advice[:]
        return new
