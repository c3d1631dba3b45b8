"""Analysis of a Three Thirteen hand (``rummylab analyze three-thirteen``)."""

from __future__ import annotations

from typing import Any

from rummylab.cards import card_str, cards_str, multi_count, multi_of, parse_cards
from rummylab.errors import CardError
from rummylab.three_thirteen.solver import combo_str, solve


def analyze_thirteen(cards: str, round_: int, *, natural_wild_sets: bool = False,
                     decks: int = 2) -> dict[str, Any]:
    """For ``r + 2`` cards: ``penalty``, ``melds``, ``unmatched``. For ``r + 3``
    (after the draw) also ``discard`` and ``can_go_out``, the rest counted after
    that discard. Wilds are written with the card they stand for (``3h=7s``).
    ``decks``: 1 for two players (no card twice), 2 for three or four (§3.1).

    >>> analyze_thirteen("5h 6h 9c 8d 8s 8c 2d 3d 4d Kd", 7)["discard"]
    'Kd'
    >>> analyze_thirteen("5h 5h 9c", 1, decks=1)
    Traceback (most recent call last):
    rummylab.errors.CardError: 5h twice: one deck (two players) holds one of each card
    """
    if not 1 <= round_ <= 11:
        raise CardError(f"a Three Thirteen round is 1 to 11, got {round_}")
    if decks not in (1, 2):
        raise CardError(f"Three Thirteen uses 1 deck (two players) or 2 (three or four), "
                        f"not {decks}")
    listed = parse_cards(cards)
    if decks == 1:
        twice = sorted({c for c in listed if listed.count(c) > 1})
        if twice:
            raise CardError(f"{card_str(twice[0])} twice: one deck (two players) holds one "
                            "of each card")
    multi = multi_of(listed)
    n = multi_count(multi)
    if n not in (round_ + 2, round_ + 3):
        raise CardError(f"round {round_} hands hold {round_ + 2} cards "
                        f"({round_ + 3} after the draw), got {n}")
    wild = round_ + 1
    out: dict[str, Any] = {}
    after = n == round_ + 3
    sol = solve(multi, wild, natural_wild_sets=natural_wild_sets, discard=after)
    if after:
        assert sol.discard is not None
        out["discard"] = card_str(sol.discard)
        out["can_go_out"] = sol.penalty == 0
    out["penalty"] = sol.penalty
    out["melds"] = [combo_str(c) for c in sol.combos]
    out["unmatched"] = cards_str(sol.unmatched)
    return out


def arrangement(hand: int, wild_rank: int, round_: int, *,
                natural_wild_sets: bool = False) -> dict[str, Any]:
    """A hand as a player lays it out (the browser's table): its best
    ``melds`` (a wild as ``3h=7s``, the card it stands for), the ``unmatched``
    cards, their ``points`` (the penalty) and, after the draw, what each
    discard would leave (``after_discard``)."""
    from rummylab.cards import multi_cards, multi_remove
    from rummylab.three_thirteen.solver import penalty

    sol = solve(hand, wild_rank, natural_wild_sets=natural_wild_sets)
    melds = [[card_str(c) if c == f else f"{card_str(c)}={card_str(f)}" for c, f in combo.cards]
             for combo in sol.combos]
    out: dict[str, Any] = {"melds": melds, "unmatched": [card_str(c) for c in sol.unmatched],
                           "points": sol.penalty, "word": "penalty"}
    held = multi_cards(hand)
    if len(held) == round_ + 3:
        out["after_discard"] = {
            card_str(c): penalty(multi_remove(hand, c), wild_rank,
                                 natural_wild_sets=natural_wild_sets)
            for c in dict.fromkeys(held)}
    return out
