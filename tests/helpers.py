"""Shared test helpers: scripted deals, snapshots, hand generators and the
brute-force lay-off reference.

A scripted deal is written from the two hands, the upcard and the first stock
cards; the rest of the deck is filled in a fixed order. The deck order it
builds is the engine's (§1.2): top card first, dealt alternately to the
non-dealer then the dealer, card 21 the upcard, card 22 the top of the stock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from rummylab.cards import Card, CardSet, cards_of, parse_card, parse_cards, parse_mask
from rummylab.gin.game import DISCARD_BASE, DRAW_STOCK, GinState
from rummylab.gin.three import Gin3State

# a fixed, well-mixed order for the cards a script does not name
_FILL = list(range(52))
random.Random("rummylab-tests-fill").shuffle(_FILL)


def deck_order(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[Card]:
    """A 52-card deck order (top first) that deals these hands.

    >>> order = deck_order("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td",
    ...                    "Kh", "Qs Js")
    >>> from rummylab.cards import cards_str
    >>> len(order), cards_str(order[:4]), cards_str(order[20:23])
    (52, 'Ac Ad 2c 2d', 'Kh Qs Js')
    """
    nd, dl = parse_cards(non_dealer), parse_cards(dealer)
    if len(nd) != 10 or len(dl) != 10:
        raise ValueError("each hand is ten cards")
    top = [parse_card(upcard), *parse_cards(stock)]
    named = [c for pair in zip(nd, dl, strict=True) for c in pair] + top
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    rest = [c for c in _FILL if c not in set(named)]
    return named + rest


def gin(
    non_dealer: str,
    dealer: str,
    upcard: str,
    stock: str = "",
    options: dict[str, object] | None = None,
    *,
    more: Sequence[Sequence[Card]] = (),
    seed: int = 0,
) -> GinState:
    """A Gin match whose first hand is scripted; seat 0 deals first, so the
    non-dealer is seat 1."""
    decks = [deck_order(non_dealer, dealer, upcard, stock), *more]
    return GinState(options, seed, decks=decks, first_dealer=0)


def gin3(
    captain: str,
    box: str,
    upcard: str,
    stock: str = "",
    options: dict[str, object] | None = None,
    *,
    cut: Sequence[dict[int, str]] | None = None,
    more: Sequence[Sequence[Card]] = (),
    seed: int = 0,
) -> Gin3State:
    """A three-player match: by default the cut makes seat 0 the box, seat 1
    the captain, seat 2 the sitter (D-6); the first hand is scripted."""
    cut = cut or [{0: "Kc", 1: "Qc", 2: "Jc"}]
    decks = [deck_order(captain, box, upcard, stock), *more]
    return Gin3State(options, seed, decks=decks, cut=cut)


def play(state: GinState, *actions: str) -> None:
    """Apply actions given as text, in order."""
    for text in actions:
        state.apply(text)


def mask(text: str) -> CardSet:
    return parse_mask(text)


def draw_and_throw(state: GinState) -> None:
    """One turn that never knocks: draw from the stock (taking the
    upcard is never needed), discard the card just drawn."""
    seat = state.current_player()
    before = state.hand_of(seat)
    state.apply_action(DRAW_STOCK)
    (drawn,) = cards_of(state.hand_of(seat) & ~before)
    state.apply_action(DISCARD_BASE + drawn)


def play_to_drawn_hand(state: GinState) -> None:
    """From the opening, both pass, then nobody knocks until the hand is
    drawn (§1.9)."""
    hand = state.hand_number
    play(state, "pass", "pass")
    while state.hand_number == hand and not state.is_terminal():
        draw_and_throw(state)


def snapshot(state: GinState) -> dict[str, Any]:
    """Everything observable about a state, for "nothing changed" checks."""
    snap: dict[str, Any] = {
        "phase": state.phase,
        "to_act": state.current_player(),
        "legal": state.legal_actions(),
        "hands": [state.hand_of(s) for s in range(state.num_players)],
        "stock": state.stock,
        "discard": state.discard_pile,
        "scores": state.scores,
        "hand_number": state.hand_number,
        "results": [dict(r) for r in state.hand_results],
        "winners": state.winners,
        "final": state.final_scores,
        "dealer": state.dealer,
        "non_dealer": state.non_dealer,
        "events": len(state.events),
        "obs": [state.observation(s).to_dict() for s in range(state.num_players)],
    }
    if isinstance(state, Gin3State):
        snap["sitter"] = state.sitter_seat
        snap["advice"] = state.advice
    return snap


# --- hand generators --------------------------------------------------------


def random_hand(rng: random.Random, size: int) -> CardSet:
    """``size`` distinct cards drawn uniformly."""
    return sum(1 << c for c in rng.sample(range(52), size))


def random_meld(rng: random.Random) -> CardSet:
    """A random set (3 or 4 of a rank) or run (3 to 6 of a suit, ace low)."""
    if rng.random() < 0.5:
        rank = rng.randrange(13)
        return sum(1 << (13 * s + rank) for s in rng.sample(range(4), rng.choice((3, 3, 4))))
    length = rng.choice((3, 3, 4, 5, 6))
    suit = rng.randrange(4)
    start = rng.randrange(14 - length)
    return ((1 << length) - 1) << (13 * suit + start)


def touching(hand: CardSet) -> CardSet:
    """Cards not in ``hand`` of a held rank or next to a held card in its suit."""
    ranks = 0
    for s in range(4):
        ranks |= (hand >> (13 * s)) & 0x1FFF
    near = 0
    for s in range(4):
        bits = (hand >> (13 * s)) & 0x1FFF
        near |= ((((bits << 1) | (bits >> 1)) & 0x1FFF) | ranks) << (13 * s)
    return near & ~hand & ((1 << 52) - 1)


def meld_dense_hand(rng: random.Random, size: int, avoid: CardSet = 0) -> CardSet:
    """Overlapping random melds (sets and runs compete for cards), topped
    up with cards that touch the hand; never a card of ``avoid``."""
    hand = 0
    for _ in range(40):
        if hand.bit_count() >= size - 3:
            break
        meld = random_meld(rng)
        if meld & avoid:
            continue
        if (hand | meld).bit_count() <= size:
            hand |= meld
    while hand.bit_count() < size:
        pool = touching(hand) & ~avoid if rng.random() < 0.85 else 0
        if not pool:
            pool = ((1 << 52) - 1) & ~hand & ~avoid
        hand |= 1 << rng.choice(cards_of(pool))
    return hand


# --- brute-force lay-offs (§1.7, D-5) -------------------------------------------


def fits(card: Card, meld: frozenset[Card]) -> bool:
    """Whether ``card`` can be laid off onto ``meld`` as it stands: the
    missing card of a set, or the card beyond either end of a run."""
    ranks = {c % 13 for c in meld}
    if len(ranks) == 1:
        return card % 13 in ranks and card not in meld
    suit = min(meld) // 13
    lo, hi = min(meld) % 13, max(meld) % 13
    return card // 13 == suit and card % 13 in (lo - 1, hi + 1)


def layable_subsets(hand: Iterable[Card], melds: Iterable[Iterable[Card]]) -> set[frozenset[Card]]:
    """Every subset of ``hand`` that can be laid off onto ``melds`` in some
    order, one card at a time, each onto a meld as already extended."""
    cards = frozenset(hand)
    start = tuple(frozenset(m) for m in melds)
    seen: set[tuple[frozenset[Card], ...]] = set()
    out: set[frozenset[Card]] = set()

    def go(current: tuple[frozenset[Card], ...], laid: frozenset[Card]) -> None:
        if current in seen:
            return
        seen.add(current)
        out.add(laid)
        for c in cards - laid:
            for i, m in enumerate(current):
                if fits(c, m):
                    go((*current[:i], m | {c}, *current[i + 1:]), laid | {c})

    go(start, frozenset())
    return out
