"""Analysis of a Manipulation play (``rummylab analyze manipulation``)."""

from __future__ import annotations

from typing import Any

from rummylab.cards import cards_str, parse_cards
from rummylab.errors import CardError


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


def arrangement(hand: list[int]) -> dict[str, Any]:
    """A hand as the browser's table shows it: sorted, with its ``points``
    (what it would count against the player now, §4.9)."""
    from rummylab.manipulation.table import hand_points

    cards = sorted(hand)
    return {"melds": [], "unmatched": cards_str(cards).split() if cards else [],
            "points": hand_points(cards), "word": "points in hand"}
