"""Adapters from rummylab card masks to the peers' Python APIs (benchmarks only).

OpenSpiel (``pyspiel.gin_rummy``) numbers a card ``suit * 13 + rank`` with
suits ``s c d h``; RLCard numbers it ``rank + 13 * suit`` with suits
``S H D C`` and passes ``Card`` objects. Ours is ``suit * 13 + rank`` with
suits ``c d h s``. :func:`check_card_maps` proves the maps on all 52 cards
through each peer's own card-to-text function, so a wrong map fails loudly
instead of skewing a comparison.

Neither peer is a runtime dependency: import failures leave the handles
``None`` and callers skip that peer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummylab.cards import CardSet, card_str, cards_of

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

try:
    from rlcard.games.gin_rummy.utils import melding as rl_melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils
except ImportError:  # pragma: no cover - depends on the environment
    rl_melding = None
    rl_utils = None

HAVE_OPENSPIEL = pyspiel is not None
HAVE_RLCARD = rl_melding is not None

# ours c d h s -> OpenSpiel s c d h
_OS_CARD = [((c // 13 + 1) % 4) * 13 + c % 13 for c in range(52)]
_OS_TO_OURS = {os_card: c for c, os_card in enumerate(_OS_CARD)}


def openspiel_cards(mask: CardSet) -> list[int]:
    """A hand as OpenSpiel card ints."""
    return [_OS_CARD[c] for c in cards_of(mask)]


def openspiel_best_meld_group(mask: CardSet) -> list[CardSet]:
    """OpenSpiel's ``best_meld_group`` (the arrangement its ``min_deadwood``
    scores) as our card masks."""
    u = openspiel_utils()
    return [sum(1 << _OS_TO_OURS[c] for c in meld)
            for meld in u.best_meld_group(openspiel_cards(mask))]


def openspiel_utils() -> Any:
    """OpenSpiel's standard-deck Gin utilities (13 ranks, 4 suits, 10-card hands)."""
    assert pyspiel is not None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def _rlcard_deck() -> list[Any]:
    assert rl_utils is not None
    # by text, so the map does not rest on RLCard's id order
    return [rl_utils.card_from_text(card_str(c).upper()) for c in range(52)]


_RL_CARD: list[Any] = _rlcard_deck() if HAVE_RLCARD else []


def rlcard_cards(mask: CardSet) -> list[Any]:
    """A hand as RLCard ``Card`` objects."""
    return [_RL_CARD[c] for c in cards_of(mask)]


def rlcard_deadwood_10(hand: Sequence[Any]) -> int:
    """Least deadwood of a 10-card hand the way RLCard's round scores a
    knock: ``get_best_meld_clusters`` then ``get_deadwood_count``."""
    assert rl_melding is not None and rl_utils is not None
    best = rl_melding.get_best_meld_clusters(hand=hand)
    return int(rl_utils.get_deadwood_count(hand=hand, meld_cluster=best[0] if best else []))


def rlcard_deadwood_11(hand: Sequence[Any]) -> int:
    """Least deadwood after the best discard of an 11-card hand in one pass
    over ``get_meld_clusters`` of all 11 cards, less the highest unmatched
    card: how RLCard's judge finds the knock and gin cards. RLCard has no
    11-card deadwood call; this is its fastest exact route."""
    assert rl_melding is not None and rl_utils is not None
    value = rl_utils.get_deadwood_value
    best = sum(value(c) for c in hand) - max(value(c) for c in hand)
    for cluster in rl_melding.get_meld_clusters(hand=hand):
        melded = {c for pile in cluster for c in pile}
        dead = [value(c) for c in hand if c not in melded]
        v = sum(dead) - max(dead, default=0)
        if v < best:
            best = v
    return int(best)


def rlcard_deadwood_11_per_discard(hand: Sequence[Any]) -> int:
    """Least deadwood after the best discard, one 10-card solve per discard:
    the route of RLCard's ``GinRummyNoviceRuleAgent._get_best_discards``."""
    return min(rlcard_deadwood_10([c for c in hand if c is not d]) for d in hand)


def check_card_maps() -> None:
    """Raise ``AssertionError`` unless every card maps to the same card in each peer."""
    if HAVE_OPENSPIEL:
        u = openspiel_utils()
        for c in range(52):
            assert u.card_string(_OS_CARD[c]) == card_str(c), (c, u.card_string(_OS_CARD[c]))
        # a known hand: Ac 2c 3c is a meld, so 4 cards leave the Kd
        hand = [_OS_CARD[c] for c in (0, 1, 2, 25)]
        assert u.min_deadwood(hand) == 10
    if HAVE_RLCARD:
        for c in range(52):
            assert str(_RL_CARD[c]) == card_str(c).upper(), (c, str(_RL_CARD[c]))

