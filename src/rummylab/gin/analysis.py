"""Analysis of a Gin hand (``rummylab analyze gin``).

>>> analyze_gin("7c 8c 9c 4d 4h 4s 2c 3c Ah 2h Kd")["discard"]
'Kd'
"""

from __future__ import annotations

from typing import Any

from rummylab.cards import card_str, mask_str, parse_mask
from rummylab.errors import CardError
from rummylab.gin.solver import best_arrangement, best_discards, meld_str


def analyze_gin(cards: str, knock_limit: int = 10) -> dict[str, Any]:
    """For 10 cards: ``deadwood``, ``melds``, ``deadwood_cards``. For 11 cards
    also ``discard`` (a best discard), ``can_knock`` and ``gin``, the rest
    counted after that discard."""
    hand = parse_mask(cards)
    n = hand.bit_count()
    if n not in (10, 11):
        raise CardError(f"a gin hand has 10 cards (11 after the draw), got {n}")
    out: dict[str, Any] = {}
    if n == 11:
        dw, discards = best_discards(hand)
        out["discard"] = card_str(discards[0])
        out["can_knock"] = dw <= knock_limit
        out["gin"] = dw == 0
        hand &= ~(1 << discards[0])
    arr = best_arrangement(hand)
    out["deadwood"] = arr.deadwood
    out["melds"] = [meld_str(m) for m in arr.melds]
    out["deadwood_cards"] = mask_str(arr.deadwood_mask)
    return out


def arrangement(hand: int) -> dict[str, Any]:
    """A hand as a player lays it out (the browser's table): its best
    ``melds``, the ``unmatched`` cards, their ``points`` (deadwood) and, after
    the draw, what each discard would leave (``after_discard``)."""
    from rummylab.gin.solver import discard_deadwoods

    arr = best_arrangement(hand)
    out: dict[str, Any] = {"melds": [mask_str(m).split() for m in arr.melds],
                           "unmatched": mask_str(arr.deadwood_mask).split(),
                           "points": arr.deadwood, "word": "deadwood"}
    if hand.bit_count() == 11:
        out["after_discard"] = {card_str(c): d for c, d in discard_deadwoods(hand).items()}
    return out
