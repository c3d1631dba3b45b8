"""Brute-force reference solvers: slow, short and obviously right.

The tests and the sweep scripts compare the fast solvers with these. They
share nothing with the fast code but the card numbering.
"""

from __future__ import annotations

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
