"""Seeded Gin hand generators shared by the benchmarks, the sweep and the tests.

Hands are :data:`rummylab.cards.CardSet` masks (one deck, ``suit * 13 + rank``,
suits ``c d h s``). Random hands rarely hold more than one meld, so the
solvers' hard cases (overlapping sets and runs, long runs, four of a kind)
come from :func:`meld_dense_hand`, which unions random melds and then fills
the hand with cards that touch it.

>>> import random
>>> rng = random.Random(7)
>>> random_hand(rng, 10).bit_count(), meld_dense_hand(rng, 11).bit_count()
(10, 11)
>>> len(hand_list("dense", 11, 5, seed=3)) == 5
True
"""

from __future__ import annotations

import random
from typing import Literal

from rummylab.cards import CardSet

Kind = Literal["random", "dense"]
KINDS: tuple[Kind, ...] = ("random", "dense")

_SUIT_BITS = 0x1FFF


def random_hand(rng: random.Random, size: int) -> CardSet:
    """``size`` distinct cards drawn uniformly from the 52."""
    mask = 0
    for c in rng.sample(range(52), size):
        mask |= 1 << c
    return mask


def random_meld(rng: random.Random) -> CardSet:
    """A random set (3 or 4 of a rank) or run (3 to 5 of a suit, ace low)."""
    if rng.random() < 0.5:
        rank = rng.randrange(13)
        suits = rng.sample(range(4), rng.choice((3, 3, 4)))
        return sum(1 << (13 * s + rank) for s in suits)
    length = rng.choice((3, 3, 4, 5))
    suit = rng.randrange(4)
    start = rng.randrange(14 - length)
    return ((1 << length) - 1) << (13 * suit + start)


def _touching(hand: CardSet) -> CardSet:
    """Cards not in ``hand`` that share a rank with a held card or sit next
    to one in its suit: each of them adds a meld option to the hand."""
    same_rank = 0
    for s in range(4):
        same_rank |= (hand >> (13 * s)) & _SUIT_BITS
    near = 0
    for s in range(4):
        bits = (hand >> (13 * s)) & _SUIT_BITS
        near |= (((bits << 1) | (bits >> 1)) & _SUIT_BITS) << (13 * s)
        near |= same_rank << (13 * s)
    return near & ~hand & ((1 << 52) - 1)


def meld_dense_hand(rng: random.Random, size: int, fill_touching: float = 0.85) -> CardSet:
    """A hand made by unioning random melds (overlaps allowed, so sets and
    runs compete for cards), topped up with cards that touch the hand."""
    hand = 0
    for _ in range(40):
        if hand.bit_count() >= size - 3:
            break
        union = hand | random_meld(rng)
        if union.bit_count() <= size:
            hand = union
    while hand.bit_count() < size:
        pool = _touching(hand) if rng.random() < fill_touching else 0
        if not pool:
            pool = ((1 << 52) - 1) & ~hand
        cards = [c for c in range(52) if pool >> c & 1]
        hand |= 1 << rng.choice(cards)
    return hand


def hand_list(kind: Kind, size: int, count: int, seed: int = 0) -> list[CardSet]:
    """``count`` hands of ``size`` cards, the same list for the same arguments."""
    # the seed string keeps the four (kind, size) streams independent
    rng = random.Random(f"handgen/{kind}/{size}/{seed}")
    make = random_hand if kind == "random" else meld_dense_hand
    return [make(rng, size) for _ in range(count)]
