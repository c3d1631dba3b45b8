"""The ``strong`` level for Three Thirteen and Manipulation, merged into
``BOT_LEVELS`` by ``rummylab.bots``."""

from __future__ import annotations

from collections.abc import Callable

from rummylab.bots.base import Bot


def _strong13(options: dict[str, str], seed: int | None) -> Bot:
    from rummylab.bots.strong13 import StrongThirteenBot

    return StrongThirteenBot(options, seed)


def _strong_manipulation(options: dict[str, str], seed: int | None) -> Bot:
    from rummylab.bots.strong_manipulation import StrongManipulationBot

    return StrongManipulationBot(options, seed)


STRONG_OTHERS: dict[str, Callable[[dict[str, str], int | None], Bot]] = {
    "three-thirteen": _strong13,
    "manipulation": _strong_manipulation,
}


def merge_levels(levels: dict[str, dict[str, Callable[[dict[str, str], int | None], Bot]]]) -> None:
    """Add the ``strong`` Three Thirteen and Manipulation bots to ``levels``."""
    levels.setdefault("strong", {}).update(STRONG_OTHERS)
