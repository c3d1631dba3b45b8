"""Cards, their notation (D-1) and card sets as int bitmasks.

A card is an ``int``: ``suit * 13 + rank`` with suits ``c d h s`` (0-3) and
ranks ``A 2 ... K`` (0-12); the joker is ``JOKER`` (52). The suit-major order
puts each suit's ranks in 13 consecutive bits, so a run is a contiguous bit
field of a :data:`CardSet` mask.

>>> card = parse_card("10h")
>>> card, card_str(card), points(card)
(35, 'Th', 10)
>>> mask = parse_mask("as 2s 3S")
>>> mask_str(mask)
'As 2s 3s'
>>> parse_card("1x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rummylab.errors.CardError: unknown card '1x': write rank then suit, ...
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from rummylab.errors import CardError

Card = int
CardSet = int  # bit c set <=> card c present (single deck only)

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
JOKER: Card = 52
NUM_CARDS = 52
FULL_DECK: CardSet = (1 << 52) - 1
SUIT_MASK = 0x1FFF  # 13 bits

_POINTS = tuple(min(r + 1, 10) for r in range(13))
# points per card index; the joker is worth 25 (§0, §4.9)
CARD_POINTS: tuple[int, ...] = (*(_POINTS[c % 13] for c in range(52)), 25)


def rank_of(card: Card) -> int:
    """Rank 0 (ace) to 12 (king)."""
    return card % 13


def suit_of(card: Card) -> int:
    """Suit 0-3 for c d h s."""
    return card // 13


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0-12) and ``suit`` (0-3)."""
    return suit * 13 + rank


def points(card: Card) -> int:
    """A = 1, 2-10 face value, J/Q/K = 10, joker = 25."""
    return CARD_POINTS[card]


def card_str(card: Card) -> str:
    """Canonical notation: ``As``, ``Td``, ``Jk``."""
    if card == JOKER:
        return "Jk"
    if not 0 <= card < 52:
        raise CardError(f"not a card index: {card}")
    return RANKS[card % 13] + SUITS[card // 13]


_PARSE: dict[str, Card] = {}
for _c in range(52):
    _r, _s = RANKS[_c % 13], SUITS[_c // 13]
    _PARSE[(_r + _s).lower()] = _c
    if _r == "T":
        _PARSE["10" + _s] = _c
_PARSE["jk"] = JOKER


def parse_card(text: str, *, jokers: bool = False) -> Card:
    """Parse one card, case-insensitive; ``10`` is accepted for ``T``."""
    if not isinstance(text, str):
        raise CardError(f"a card is written as text (7h, Td, As), not {text!r}")
    card = _PARSE.get(text.strip().lower())
    if card is None or (card == JOKER and not jokers):
        if card == JOKER:
            raise CardError("jokers are not used in this game")
        raise CardError(
            f"unknown card {text.strip()!r}: write rank then suit, e.g. 7h, Td, As "
            "(ranks A2-9TJQK, suits cdhs)"
        )
    return card


def parse_cards(text: str | Iterable[str], *, jokers: bool = False) -> list[Card]:
    """Parse cards separated by spaces or commas (duplicates kept)."""
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [parse_card(t, jokers=jokers) for t in text]


def parse_mask(text: str | Iterable[str]) -> CardSet:
    """Parse distinct cards from one deck into a mask; a duplicate is an error."""
    mask = 0
    for card in parse_cards(text):
        bit = 1 << card
        if mask & bit:
            raise CardError(f"duplicate card {card_str(card)}: one deck holds one of each card")
        mask |= bit
    return mask


def cards_of(mask: CardSet) -> list[Card]:
    """The cards of a mask in index order (suit, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: CardSet) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def mask_points(mask: CardSet) -> int:
    """Sum of the points of the cards in a mask (one deck, no joker)."""
    return (
        _SUIT_POINTS[mask & SUIT_MASK]
        + _SUIT_POINTS[(mask >> 13) & SUIT_MASK]
        + _SUIT_POINTS[(mask >> 26) & SUIT_MASK]
        + _SUIT_POINTS[(mask >> 39) & SUIT_MASK]
    )


def _suit_points_table() -> list[int]:
    table = [0] * (1 << 13)
    for m in range(1, 1 << 13):
        low = (m & -m).bit_length() - 1
        table[m] = table[m & (m - 1)] + _POINTS[low]
    return table


_SUIT_POINTS = _suit_points_table()


def sort_key(card: Card) -> tuple[int, int]:
    """Sort by suit then rank, the way a player fans a hand."""
    return (card // 13, card % 13) if card != JOKER else (4, 0)


def cards_str(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, in the given order."""
    return " ".join(card_str(c) for c in cards)


def mask_str(mask: CardSet) -> str:
    """A mask in canonical notation, sorted by suit then rank."""
    return cards_str(cards_of(mask))


def deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """An unshuffled pack: ``decks`` copies of the 52 cards plus ``jokers`` jokers."""
    return [c for _ in range(decks) for c in range(52)] + [JOKER] * jokers


def shuffled_deck(rng: random.Random, decks: int = 1, jokers: int = 0) -> list[Card]:
    cards = deck(decks, jokers)
    rng.shuffle(cards)
    return cards


def check_deck_order(cards: Sequence[Card], decks: int = 1, jokers: int = 0) -> None:
    """Raise :class:`CardError` unless ``cards`` is exactly one full pack."""
    expected = sorted(deck(decks, jokers))
    if sorted(cards) != expected:
        raise CardError(
            f"a deck order must hold each of the {len(expected)} cards of the pack exactly once"
        )


# --- multisets of cards (two decks): bit c = one copy, bit 52 + c = two copies


def multi_add(multi: int, card: Card) -> int:
    """Add one copy of ``card`` (up to two) to a two-deck multiset.

    >>> two = multi_add(multi_add(0, 5), 5)
    >>> multi_str(two), multi_count(two)
    ('6c 6c', 2)
    """
    bit = 1 << card
    if multi & bit:
        if multi >> (52 + card) & 1:
            raise CardError(f"a third {card_str(card)}: two decks hold two of each card")
        return multi | (bit << 52)
    return multi | bit


def multi_remove(multi: int, card: Card) -> int:
    """Remove one copy of ``card``; it must be there."""
    high = 1 << (52 + card)
    if multi & high:
        return multi & ~high
    bit = 1 << card
    if not multi & bit:
        raise CardError(f"{card_str(card)} is not there")
    return multi & ~bit


def multi_has(multi: int, card: Card) -> bool:
    return bool(multi >> card & 1)


def multi_count(multi: int) -> int:
    return multi.bit_count()


def multi_cards(multi: int) -> list[Card]:
    """The cards of a multiset in index order, duplicates repeated."""
    low = cards_of(multi & FULL_DECK)
    high = cards_of(multi >> 52)
    return sorted(low + high)


def multi_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m = multi_add(m, c)
    return m


def multi_str(multi: int) -> str:
    return cards_str(multi_cards(multi))
