"""Hand analysis for the CLI (``rummylab analyze``) and the docs.

>>> analyze_gin("7c 8c 9c 4d 4h 4s 2c 3c Ah 2h Kd")["discard"]
'Kd'
"""

from __future__ import annotations

from typing import Any

from rummylab.cards import (
    card_str,
    cards_str,
    mask_str,
    multi_count,
    multi_of,
    parse_cards,
    parse_mask,
)
from rummylab.errors import CardError
from rummylab.gin.game import GIN_OPTIONS
from rummylab.gin.solver import best_arrangement, best_discards, meld_str
from rummylab.three_thirteen.solver import combo_str, solve


def analyze_gin(cards: str, knock_limit: int | None = None) -> dict[str, Any]:
    """For 10 cards: ``deadwood``, ``melds``, ``deadwood_cards``. For 11 cards
    also ``discard`` (a best discard), ``can_knock`` and ``gin``, the rest
    counted after that discard."""
    hand = parse_mask(cards)
    n = hand.bit_count()
    if n not in (10, 11):
        raise CardError(f"a gin hand has 10 cards (11 after the draw), got {n}")
    limit = int(GIN_OPTIONS["knock_limit"].default) if knock_limit is None else knock_limit
    out: dict[str, Any] = {}
    if n == 11:
        dw, discards = best_discards(hand)
        out["discard"] = card_str(discards[0])
        out["can_knock"] = dw <= limit
        out["gin"] = dw == 0
        hand &= ~(1 << discards[0])
    arr = best_arrangement(hand)
    out["deadwood"] = arr.deadwood
    out["melds"] = [meld_str(m) for m in arr.melds]
    out["deadwood_cards"] = mask_str(arr.deadwood_mask)
    return out


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


def analyze_manipulation(table: str, hand: str, decks: int = 2) -> dict[str, Any]:
    """The best play from ``hand`` onto ``table`` (§4.6): ``play`` (cards from the
    hand), ``table`` (the new arrangement, a list of melds), ``points_shed``,
    ``hand_points_after``, ``can_knock`` (5 points or fewer, §4.8) and ``exact``
    (False only if one of the solver's caps cut the search short). A table
    that is not legal to begin with is refused, saying which meld and why."""
    from rummylab.manipulation.solver import best_play
    from rummylab.manipulation.table import (
        check_pack,
        check_table,
        hand_points,
        meld_str,
        parse_table,
    )

    if decks not in (1, 2):
        raise CardError("Manipulation uses one deck (two players) or two (three to five), "
                        f"not {decks!r}")
    start = parse_table(table, decks) if table.strip() else ()
    check_table(start, decks)
    cards = parse_cards(hand, jokers=True)
    if not cards:
        raise CardError("the hand is empty: a player with no cards has gone out (§4.8)")
    check_pack(start, decks, cards)
    play = best_play(start, cards, decks)
    if play is None:
        return {"play": "", "table": [meld_str(m) for m in start], "points_shed": 0,
                "hand_points_after": hand_points(cards),
                "can_knock": hand_points(cards) <= 5, "exact": True}
    left = list(cards)
    for c in play.play:
        left.remove(c)
    return {
        "play": cards_str(sorted(play.play)),
        "table": [meld_str(m) for m in play.table],
        "points_shed": play.points_shed,
        "hand_points_after": hand_points(left),
        "can_knock": hand_points(left) <= 5,
        "exact": play.exact,
    }
