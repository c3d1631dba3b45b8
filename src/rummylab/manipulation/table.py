"""Manipulation's table: table cards, melds, their notation and the move check (§4.5-4.7).

A *table card* is a pair ``(card, stands_for)``: a natural stands for itself
(``stands_for == card``); a joker is ``(JOKER, X)`` with its declared card X,
written ``Jk=X``. A *meld* is a tuple of table cards (a group ordered by
suit, a sequence by position) and a *table* a tuple of melds. Melds are
written cards separated by spaces, a table melds separated by `` | ``.

A meld is legal on the identities its cards stand for (the order it is
written in does not matter):

- a *group* is 3 or 4 cards of one rank, never two identical cards, so its
  suits are distinct (§4.5);
- a *sequence* is 3 or more cards of one suit in consecutive ranks, the ace
  low (A-2-3) or high (Q-K-A), never turning the corner (K-A-2). It holds
  each rank once, so it has at most 13 cards: A-2-...-K-A, possible with two
  decks, is refused (see the note in :func:`check_meld`); it always splits
  into two legal sequences.

>>> t = parse_table("7h 8h Jk=9h | Qs Qd Qc", decks=1)
>>> t[0]
((32, 32), (33, 33), (52, 34))
>>> table_str(t)
'7h 8h Jk=9h | Qs Qd Qc'
>>> check_meld(parse_meld("Kh Ah 2h"))
Traceback (most recent call last):
...
rummylab.manipulation.table.TableError: Kh Ah 2h turns the corner (K-A-2): the ace is low (A-2-3) or high (Q-K-A), never both (§4.5)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

from rummylab.cards import CARD_POINTS, JOKER, RANKS, Card, card_str, parse_card
from rummylab.errors import CardError, RummyError

TableCard = tuple[Card, Card]
Meld = tuple[TableCard, ...]
Table = tuple[Meld, ...]


class TableError(RummyError, ValueError):
    """An illegal meld, table or move; the message says exactly why."""


def hand_points(cards: Iterable[Card]) -> int:
    """Points of a hand (§4.9): A = 1, 2-10 face value, J/Q/K = 10, joker = 25.

    A player may knock with 5 points or fewer in hand (§4.8).

    >>> from rummylab.cards import parse_cards
    >>> hand_points(parse_cards("As 4d Jk", jokers=True))
    30
    """
    return sum(CARD_POINTS[c] for c in cards)


# --- notation -------------------------------------------------------------------


def table_card_str(tc: TableCard) -> str:
    """``7h`` for a natural, ``Jk=9h`` for a joker."""
    card, stands_for = tc
    if card == JOKER:
        return f"Jk={card_str(stands_for)}"
    return card_str(card)


def meld_str(meld: Meld) -> str:
    """The cards of a meld in the order given, separated by spaces."""
    return " ".join(table_card_str(tc) for tc in meld)


def table_str(table: Table) -> str:
    """Melds separated by `` | ``; the empty table is the empty string."""
    return " | ".join(meld_str(m) for m in table)


def parse_table_card(text: str) -> TableCard:
    """``7h`` or ``Jk=9h`` (case-insensitive, ``10`` accepted for ``T``).

    >>> parse_table_card("jk=10h"), parse_table_card("Td")
    ((52, 35), (22, 22))
    """
    token = text.strip()
    if "=" in token:
        left, _, right = token.partition("=")
        if parse_card(left, jokers=True) != JOKER:
            raise TableError(f"{token!r}: only a joker declares a card (write Jk=9h)")
        stands_for = parse_card(right, jokers=True)
        if stands_for == JOKER:
            raise TableError(f"{token!r}: a joker stands for a card, not for a joker")
        return (JOKER, stands_for)
    card = parse_card(token, jokers=True)
    if card == JOKER:
        raise TableError(
            f"{token!r}: a joker on the table declares the card it stands for "
            "(write Jk=9h, §4.7)"
        )
    return (card, card)


def parse_meld(text: str) -> Meld:
    """Cards separated by spaces (or commas); legality is not checked here."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise TableError("an empty meld: write its cards, e.g. 7h 8h 9h")
    return tuple(parse_table_card(t) for t in tokens)


def parse_table(text: str, decks: int) -> Table:
    """Melds separated by ``|``; the empty string is the empty table.

    Checks the notation and that the pack holds the cards (at most ``decks``
    copies of a card and ``decks`` jokers); :func:`check_table` checks the
    melds themselves.

    >>> parse_table("", decks=2)
    ()
    >>> parse_table("7h 8h 9h | 7h 8h 9h", decks=1)
    Traceback (most recent call last):
    ...
    rummylab.manipulation.table.TableError: 2 copies of 7h on the table: one deck holds 1
    """
    if not text.strip():
        return ()
    table = tuple(parse_meld(part) for part in text.split("|"))
    check_pack(table, decks)
    return table


def _check_decks(decks: int) -> None:
    if decks not in (1, 2):
        raise TableError(f"decks must be 1 or 2 (§4.1), not {decks}")


def _deck_word(decks: int) -> str:
    return "one deck holds" if decks == 1 else "two decks hold"


def check_pack(table: Table, decks: int, extra: Iterable[Card] = ()) -> None:
    """Raise unless the pack holds the table's cards (plus ``extra`` cards,
    e.g. a hand): at most ``decks`` copies of each card and ``decks`` jokers."""
    _check_decks(decks)
    count: Counter[Card] = Counter()
    for meld in table:
        for card, stands_for in meld:
            if card != stands_for or not 0 <= card < 52:  # a joker, or a bad card
                _check_table_card(card, stands_for)
            count[card] += 1
    where = "on the table"
    for card in extra:
        if not 0 <= card <= JOKER:
            raise CardError(f"not a card index: {card}")
        count[card] += 1
        where = "on the table and in the hand"
    for card, n in sorted(count.items()):
        if n > decks:
            name = "jokers" if card == JOKER else f"copies of {card_str(card)}"
            raise TableError(f"{n} {name} {where}: {_deck_word(decks)} {decks}")


def _check_table_card(card: Card, stands_for: Card) -> None:
    if card == JOKER:
        if not 0 <= stands_for < 52:
            raise TableError(f"a joker must declare a card, not {stands_for!r}")
    elif not 0 <= card < 52:
        raise CardError(f"not a card index: {card}")
    elif stands_for != card:
        raise TableError(
            f"{card_str(card)} is a natural card: it stands for itself, "
            f"not for {stands_for!r}"
        )


# --- legality ---------------------------------------------------------------------


def _gap_text(suit_char: str, ranks: list[int]) -> str:
    """Describe the first gap of sorted positions (1 = low ace .. 14 = high ace)."""
    def name(pos: int) -> str:
        return RANKS[(pos - 1) % 13] + suit_char

    for a, b in itertools.pairwise(ranks):
        if b - a > 1:
            missing = " ".join(name(p) for p in range(a + 1, b))
            return f"gap: {missing} missing between {name(a)} and {name(b)}"
    return "gap"  # pragma: no cover - callers pass positions with a gap


def check_meld(meld: Meld) -> None:
    """Raise :class:`TableError` unless ``meld`` is a legal group or sequence.

    The message names the rule: too short, a group with two identical cards,
    mixed suits, a gap, turning the corner. A sequence holds each rank once,
    so A-2-...-K-A (14 cards, two decks) is refused as a repeated rank; it
    always splits into two legal sequences, so refusing it never prevents a
    play (§4.5: the ace is low or high, not both).

    >>> check_meld(parse_meld("Qs Ks As")), check_meld(parse_meld("8s 8h Jk=8d"))
    (None, None)
    >>> check_meld(parse_meld("8s 8h Jk=8s"))
    Traceback (most recent call last):
    ...
    rummylab.manipulation.table.TableError: 8s 8h Jk=8s: two 8s in a group; a group never holds two identical cards, so its suits are distinct (§4.5, D-15)
    >>> check_meld(parse_meld("4h 5h 7h"))
    Traceback (most recent call last):
    ...
    rummylab.manipulation.table.TableError: 4h 5h 7h: gap: 6h missing between 5h and 7h (a sequence is consecutive, §4.5)
    """
    for card, stands_for in meld:
        if card != stands_for or not 0 <= card < 52:  # a joker, or a bad card
            _check_table_card(card, stands_for)
    if len(meld) >= 3 and _plainly_legal(meld):
        return
    text = meld_str(meld)
    if len(meld) < 3:
        raise TableError(f"{text}: too short: a meld has at least 3 cards (§4.5)")
    ids = [f for _, f in meld]
    ranks = {f % 13 for f in ids}
    suits = {f // 13 for f in ids}
    if len(ranks) == 1:
        dup = _first_duplicate(ids)
        if dup is not None:
            raise TableError(
                f"{text}: two {card_str(dup)} in a group; a group never holds two identical "
                "cards, so its suits are distinct (§4.5, D-15)"
            )
        return  # distinct suits: 3 or 4 cards
    if len(suits) != 1:
        if len(ranks) == len(ids):
            raise TableError(
                f"{text}: mixed suits: a sequence is one suit (§4.5, D-15), a group one rank"
            )
        raise TableError(
            f"{text}: neither a group (one rank, distinct suits) nor a sequence "
            "(one suit, consecutive ranks) (§4.5)"
        )
    dup = _first_duplicate(ids)
    if dup is not None:
        raise TableError(
            f"{text}: {card_str(dup)} twice in a sequence: a sequence holds each rank once "
            "(at most 13 cards; A-...-K-A splits into two sequences) (§4.5)"
        )
    suit_char = "cdhs"[next(iter(suits))]
    low = sorted(r + 1 for r in ranks)  # ace at position 1
    if low[-1] - low[0] == len(low) - 1:
        return
    if 0 in ranks:
        high = sorted(r + 1 if r else 14 for r in ranks)  # ace at position 14
        if high[-1] - high[0] == len(high) - 1:
            return
        if 12 in ranks and 1 in ranks and _cyclic_run(ranks):
            raise TableError(
                f"{text} turns the corner (K-A-2): the ace is low (A-2-3) or high (Q-K-A), "
                "never both (§4.5)"
            )
        # describe the gap on the side the ace is nearer to
        if max(r for r in ranks if r) >= 7:
            low = high
    raise TableError(f"{text}: {_gap_text(suit_char, low)} (a sequence is consecutive, §4.5)")


def _plainly_legal(meld: Meld) -> bool:
    """The quick yes of ``check_meld`` (which explains every no): a group of
    distinct suits, or a sequence of one suit and distinct consecutive ranks
    with the ace low or high."""
    ids = [f for _, f in meld]
    ranks = {f % 13 for f in ids}
    if len(set(ids)) != len(ids):
        return False
    if len(ranks) == 1:
        return True
    if len({f // 13 for f in ids}) != 1 or len(ranks) != len(ids):
        return False
    if max(ranks) - min(ranks) == len(ranks) - 1:
        return True
    high = [r if r else 13 for r in ranks]  # the ace at 13, after the king
    return 1 not in ranks and max(high) - min(high) == len(high) - 1


def _cyclic_run(ranks: set[int]) -> bool:
    """True if the ranks are consecutive going round K-A (mod 13)."""
    for start in ranks:
        if (start - 1) % 13 not in ranks:
            return all((start + i) % 13 in ranks for i in range(len(ranks)))
    return False


def _first_duplicate(ids: list[Card]) -> Card | None:
    seen: set[Card] = set()
    for f in ids:
        if f in seen:
            return f
        seen.add(f)
    return None


def meld_kind(meld: Meld) -> str:
    """``"group"`` or ``"sequence"`` for a legal meld (checked)."""
    check_meld(meld)
    return "group" if len({f % 13 for _, f in meld}) == 1 else "sequence"


def sort_meld(meld: Meld) -> Meld:
    """A legal meld in canonical order: a group by suit, a sequence by
    position (a high ace last).

    >>> meld_str(sort_meld(parse_meld("As Qs Jk=Ks")))
    'Qs Jk=Ks As'
    """
    if len({f % 13 for _, f in meld}) == 1:
        return tuple(sorted(meld, key=lambda tc: (tc[1], tc[0])))
    ranks = {f % 13 for _, f in meld}
    ace_high = 0 in ranks and 12 in ranks

    def pos(tc: TableCard) -> int:
        r = tc[1] % 13
        return 13 if r == 0 and ace_high else r

    return tuple(sorted(meld, key=pos))


def identity_counts(table: Table) -> Counter[Card]:
    """How many times each card is represented: real cards and jokers declared as it."""
    return Counter(f for meld in table for _, f in meld)


def _check_represented(table: Table, decks: int) -> None:
    for card, n in sorted(identity_counts(table).items()):
        if n > decks:
            raise TableError(
                f"{card_str(card)} is represented {n} times on the table (real cards and jokers "
                f"together), more than the {decks} the pack holds (D-24)"
            )


def check_table(table: Table, decks: int) -> None:
    """Raise unless every meld is legal, the pack holds the cards and no card
    is represented more often than there are decks (D-24)."""
    check_pack(table, decks)
    for i, meld in enumerate(table, 1):
        try:
            check_meld(meld)
        except TableError as exc:
            raise TableError(f"meld {i}: {exc}") from None
    _check_represented(table, decks)


def table_ok(table: Table, decks: int, extra: Iterable[Card] = ()) -> bool:
    """The quick yes of ``check_table(table, decks)`` followed by
    ``check_pack(table, decks, extra)``: True if neither would raise. On
    False, call them for the reason. (One pass over the cards; the solver
    checks its input with it.)"""
    if decks not in (1, 2):
        return False
    count = [0] * (JOKER + 1)
    ids = [0] * 52
    for meld in table:
        n = len(meld)
        if n < 3:
            return False
        ranks = suits = 0  # bit masks
        for card, stands_for in meld:
            if (card != stands_for and card != JOKER) or not 0 <= stands_for < 52:
                return False
            count[card] += 1
            ids[stands_for] += 1
            ranks |= 1 << stands_for % 13
            suits |= 1 << stands_for // 13
        if ranks & (ranks - 1) == 0:  # a group: distinct suits
            if suits.bit_count() != n:
                return False
            continue
        # a sequence: one suit, distinct consecutive ranks, the ace low or high
        if suits & (suits - 1) or ranks.bit_count() != n:
            return False
        run = (1 << n) - 1
        if ranks // (ranks & -ranks) != run:
            if not ranks & 1 or ranks & 2:
                return False
            high = ranks ^ 1 | 1 << 13  # the ace after the king
            if high // (high & -high) != run:
                return False
    for card in extra:
        if not 0 <= card <= JOKER:
            return False
        count[card] += 1
    return max(count) <= decks and max(ids) <= decks


# --- a move ---------------------------------------------------------------------


def check_move(
    old_table: Table,
    new_table: Table,
    added_from_hand: Iterable[Card],
    decks: int,
    *,
    first_meld_from_hand_only: bool = False,
) -> None:
    """Raise :class:`TableError` unless ``new_table`` is a legal result of
    playing ``added_from_hand`` (cards, jokers as ``JOKER``) onto ``old_table``.

    Checks, in this order: at least one card comes from the hand (§4.6); no
    card leaves the table and none appears from nowhere (§4.6); every meld is
    legal (§4.5, §4.6); no card is represented more often than there are
    decks (D-24); every joker that changed identity away from X is matched by
    a real X on the table (D-16: jokers that keep their identity may move
    freely); with ``first_meld_from_hand_only`` (option
    ``initial_meld_from_hand``, D-25) the old melds stand untouched. Jokers
    are matched so that as many as possible keep their identity. Linear in
    the size of the tables.

    >>> old = parse_table("5h 6h Jk=7h", decks=1)
    >>> check_move(old, parse_table("5h 6h 7h | Jk=7c 7d 7s", 1), [32, 19, 45], 1)
    >>> check_move(old, parse_table("5h 6h 7h 8h", 1), [32, 33], 1)
    Traceback (most recent call last):
    ...
    rummylab.manipulation.table.TableError: card Jk left the table: no card leaves the table (§4.6)
    """
    added = list(added_from_hand)
    _check_decks(decks)
    if not added:
        raise TableError(
            "no card added from hand: a meld plays at least one card from the hand (§4.6)"
        )
    check_pack(old_table, decks, added)
    check_pack(new_table, decks)
    before: Counter[Card] = Counter(card for meld in old_table for card, _ in meld)
    from_hand = Counter(added)
    after: Counter[Card] = Counter(card for meld in new_table for card, _ in meld)
    for card in sorted(set(before) | set(from_hand)):
        if after[card] < before[card] + from_hand[card]:
            name = card_str(card)
            if after[card] < before[card]:
                raise TableError(f"card {name} left the table: no card leaves the table (§4.6)")
            raise TableError(
                f"card {name} was added from the hand but is not on the table: "
                "every card played goes into a meld (§4.6)"
            )
    for card in sorted(after):
        if after[card] > before[card] + from_hand[card]:
            raise TableError(
                f"card {card_str(card)} appeared from nowhere: it was neither on the table "
                "nor added from the hand"
            )
    for i, meld in enumerate(new_table, 1):
        try:
            check_meld(meld)
        except TableError as exc:
            raise TableError(f"meld {i} is illegal: {exc}") from None
    _check_represented(new_table, decks)
    old_jokers = Counter(f for meld in old_table for card, f in meld if card == JOKER)
    new_jokers = Counter(f for meld in new_table for card, f in meld if card == JOKER)
    real = Counter(card for meld in new_table for card, _ in meld if card != JOKER)
    # jokers matched to a new joker of the same identity kept it; the rest changed
    changed = old_jokers - new_jokers
    for card, n in sorted(changed.items()):
        if n > real[card]:
            name = card_str(card)
            have = f"only {real[card]} real {name}" if real[card] else f"no real {name}"
            raise TableError(
                f"a joker changed identity from {name} with {have} on the table to replace it: "
                f"a joker keeps its identity unless the real card replaces it (§4.7, D-16)"
            )
    if first_meld_from_hand_only:
        kept = Counter(sort_meld(m) for m in new_table)
        for meld in old_table:
            key = sort_meld(meld)
            if kept[key] <= 0:
                raise TableError(
                    f"the first meld of the round comes from the hand only (option "
                    f"initial_meld_from_hand, D-25): the table's meld {meld_str(meld)} was changed"
                )
            kept[key] -= 1
