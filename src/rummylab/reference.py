"""Brute-force reference solvers: slow, short and obviously right.

The tests and the sweep scripts compare the fast solvers with these. They
share nothing with the fast code but the card numbering.
"""

from __future__ import annotations

import functools
from itertools import combinations

from rummylab.cards import CARD_POINTS, Card


def gin_melds(cards: list[Card]) -> list[frozenset[Card]]:
    """Every meld that can be formed from distinct one-deck cards."""
    melds: list[frozenset[Card]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c % 13, []).append(c)
    for group in by_rank.values():
        for k in (3, 4):
            melds.extend(frozenset(x) for x in combinations(group, k))
    held = set(cards)
    for suit in range(4):
        for start in range(13):
            for end in range(start + 2, 13):
                run = [suit * 13 + r for r in range(start, end + 1)]
                if all(c in held for c in run):
                    melds.append(frozenset(run))
                else:
                    break
    return melds


def gin_deadwood(cards: list[Card]) -> int:
    """Least deadwood by trying every combination of disjoint melds."""
    melds = gin_melds(cards)
    total = sum(CARD_POINTS[c] for c in cards)
    best = 0

    def search(i: int, used: frozenset[Card], covered: int) -> None:
        nonlocal best
        best = max(best, covered)
        for j in range(i, len(melds)):
            m = melds[j]
            if not (m & used):
                search(j + 1, used | m, covered + sum(CARD_POINTS[c] for c in m))

    search(0, frozenset(), 0)
    return total - best


def gin_deadwood_after_discard(cards: list[Card]) -> int:
    return min(gin_deadwood([x for x in cards if x != c]) for c in cards)


def thirteen_is_combo(cards: list[Card], wild_rank: int, all_wild: bool = False) -> bool:
    """A legal Three Thirteen combination (§3.6-3.8, D-8, D-9, D-22)?"""
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if c % 13 != wild_rank]
    wilds = len(cards) - len(naturals)
    if not naturals:
        return all_wild
    if len({c % 13 for c in naturals}) == 1:
        return True  # a set: any number of cards, identical ones allowed
    if len({c // 13 for c in naturals}) != 1:
        return False
    ranks = [c % 13 for c in naturals]
    if len(set(ranks)) != len(ranks) or len(cards) > 13:
        return False
    return max(ranks) - min(ranks) + 1 <= len(naturals) + wilds


def thirteen_penalty(cards: list[Card], wild_rank: int, all_wild: bool = False,
                     discard: bool = False) -> int:
    """Least penalty by trying every partition of the hand into combinations
    and unmatched cards; with ``discard``, the least after the best discard."""

    n = len(cards)

    @functools.cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        v = CARD_POINTS[cards[i]] + best(rest)
        # every combination containing card i and others from rest
        others = [j for j in range(n) if rest >> j & 1]
        for k in range(2, len(others) + 1):
            for combo in combinations(others, k):
                if thirteen_is_combo([cards[i]] + [cards[j] for j in combo], wild_rank, all_wild):
                    m = rest
                    for j in combo:
                        m &= ~(1 << j)
                    v = min(v, best(m))
        return v

    full = (1 << n) - 1
    if discard:
        return min(best(full & ~(1 << i)) for i in range(n))
    return best(full)
