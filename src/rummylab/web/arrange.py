"""A seat's hand arranged as a player lays it out: its best melds grouped,
the rest unmatched, and the points those count (Gin's deadwood, Three
Thirteen's penalty, Manipulation's points in hand), by the engine's own
solvers, from that seat's observation only.

Each game's arranger is found through the game's class (the nearest class
in its ancestry that has one), as the terminal views are.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from rummylab.cards import card_str, cards_of, multi_cards, multi_remove

Arranged = dict[str, Any]


def _module(*names: str) -> Any:
    """The first of ``names`` that imports (the solvers' modules are being
    renamed; either name works)."""
    for name in names:
        try:
            return import_module(name)
        except ImportError:
            continue
    raise ImportError(f"none of {names} imports")


def _strs(cards: list[int]) -> list[str]:
    return [card_str(c) for c in cards]


def _gin(obs: Any) -> Arranged:
    solver = _module("rummylab.gin.solver", "rummylab.gin.melds")
    hand: int = obs.hand
    arr = solver.best_arrangement(hand)
    out: Arranged = {"melds": [_strs(cards_of(m)) for m in arr.melds],
                     "unmatched": _strs(cards_of(arr.deadwood_mask)),
                     "points": arr.deadwood, "word": "deadwood"}
    if hand.bit_count() == 11:  # after the draw: what each discard would leave
        out["after_discard"] = {card_str(c): d for c, d in
                                solver.discard_deadwoods(hand).items()}
    return out


def _thirteen(obs: Any) -> Arranged:
    solver = _module("rummylab.three_thirteen.solver", "rummylab.thirteen.solver")
    hand: int = obs.hand
    natural = bool(obs.options.get("natural_wild_sets", False))
    sol = solver.solve(hand, obs.wild_rank, natural_wild_sets=natural)
    melds = [[card_str(c) if c == f else f"{card_str(c)}={card_str(f)}" for c, f in combo.cards]
             for combo in sol.combos]
    out: Arranged = {"melds": melds, "unmatched": _strs(list(sol.unmatched)),
                     "points": sol.penalty, "word": "penalty"}
    held = multi_cards(hand)
    if len(held) == obs.round + 3:  # after the draw: what each discard would leave
        after: dict[str, int] = {}
        for c in dict.fromkeys(held):
            after[card_str(c)] = solver.penalty(multi_remove(hand, c), obs.wild_rank,
                                                natural_wild_sets=natural)
        out["after_discard"] = after
    return out


def _manipulation(obs: Any) -> Arranged:
    table = _module("rummylab.manipulation.table")
    cards = list(obs.hand)
    return {"melds": [], "unmatched": _strs(sorted(cards)),
            "points": table.hand_points(cards), "word": "points in hand"}


# by the game class's name (the nearest in its ancestry wins)
_ARRANGERS: dict[str, Callable[[Any], Arranged]] = {
    "GinState": _gin, "ThirteenState": _thirteen, "ManipulationState": _manipulation}


def arranger(game: type) -> Callable[[Any], Arranged] | None:
    for cls in game.__mro__:
        found = _ARRANGERS.get(cls.__name__)
        if found is not None:
            return found
    return None


def arrangement(state: Any, seat: int) -> Arranged | None:
    """The hand ``seat`` sees (a three-player Gin sitter: the captain's),
    arranged; None if the game has no arranger or the seat holds no hand."""
    found = arranger(type(state))
    if found is None:
        return None
    obs = state.observation(seat)
    if not obs.hand:
        return None
    return found(obs)


__all__ = ["arrangement", "arranger"]
