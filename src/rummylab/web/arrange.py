"""A seat's hand arranged as a player lays it out: its best melds grouped,
the rest unmatched, and the points those count (Gin's deadwood, Three
Thirteen's penalty, Manipulation's points in hand). Each game says how
(:meth:`rummylab.game.State.arrange`), from that seat's observation only.
"""

from __future__ import annotations

from typing import Any

from rummylab.game import State

Arranged = dict[str, Any]


def arrangement(state: State, seat: int) -> Arranged | None:
    """The hand ``seat`` sees (a three-player Gin sitter: the captain's),
    arranged; None if the game has no arrangement or the seat holds no hand."""
    return type(state).arrange(state.observation(seat))


__all__ = ["arrangement"]
