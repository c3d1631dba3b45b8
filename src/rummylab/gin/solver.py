"""Exact meld solver for Gin (one deck, ace low): deadwood, discards, knocks, lay-offs.

Sets take cards across suits and runs within a suit, so the solver enumerates
only the set choices (ranks held three or four times: at most three in an
11-card hand) and reads each suit's best runs from a precomputed table over
its 13-bit mask. Every entry point is exact; ``rummylab.reference`` holds the
brute-force solver the tests compare it with.

>>> from rummylab.cards import parse_mask, mask_str
>>> hand = parse_mask("7c 8c 9c 4d 4h 4s 2c Kd Qs 3h")
>>> deadwood(hand)
25
>>> arr = best_arrangement(hand)
>>> [mask_str(m) for m in arr.melds], mask_str(arr.deadwood_mask)
(['4d 4h 4s', '7c 8c 9c'], '2c Kd 3h Qs')
>>> deadwood_after_discard(parse_mask("7c 8c 9c 4d 4h 4s 2c 3c Ah 2h Kd"))
8
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, product

from rummylab.cards import (
    CARD_POINTS,
    SUIT_MASK,
    Card,
    CardSet,
    card_str,
    cards_of,
    mask_points,
    rank_of,
    suit_of,
)

_RANK_POINTS = tuple(min(r + 1, 10) for r in range(13))


def _build_tables() -> tuple[list[int], list[int], list[int]]:
    """Per 13-bit suit mask: best run points, the first run of one best
    arrangement (0 = lowest card left out), and best run points plus the
    highest card left out (for the best discard)."""
    n = 1 << 13
    best = [0] * n
    first = [0] * n
    best_disc = [0] * n
    # an empty suit has no card to discard: every one-pass discard must
    # leave some card out (a fully melded hand breaks or trims a meld)
    best_disc[0] = -(1 << 20)
    for m in range(1, n):
        low = (m & -m).bit_length() - 1
        rest = m & (m - 1)
        # lowest card left out; it is the suit's lowest, so the highest
        # left-out card is either it or one left out of the rest
        b, f = best[rest], 0
        d = max(best[rest] + _RANK_POINTS[low], best_disc[rest])
        run, pts, top = 0, 0, low
        while top < 13 and m >> top & 1:
            run |= 1 << top
            pts += _RANK_POINTS[top]
            if top - low >= 2:
                rem = m & ~run
                if pts + best[rem] > b:
                    b, f = pts + best[rem], run
                if pts + best_disc[rem] > d:
                    d = pts + best_disc[rem]
            top += 1
        best[m], first[m], best_disc[m] = b, f, d
    return best, first, best_disc


_RUN_BEST, _RUN_FIRST, _RUN_DISC = _build_tables()
_RANK_BITS = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
_POPCOUNT4 = tuple(bin(i).count("1") for i in range(16))


def _triples(hand: CardSet) -> int:
    """13-bit mask of the ranks held three or four times."""
    a = hand & SUIT_MASK
    b = (hand >> 13) & SUIT_MASK
    c = (hand >> 26) & SUIT_MASK
    d = hand >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


_SET_CHOICES: list[list[list[CardSet]]] = []
for _r in range(13):
    _per_rank: list[list[CardSet]] = []
    for _present in range(16):  # which suits of rank _r are held
        _cards = [13 * s + _r for s in range(4) if _present >> s & 1]
        _ch: list[CardSet] = [0]
        if len(_cards) >= 3:
            _ch += [sum(1 << x for x in combo) for combo in combinations(_cards, 3)]
        if len(_cards) == 4:
            _ch.append(sum(1 << x for x in _cards))
        _per_rank.append(_ch)
    _SET_CHOICES.append(_per_rank)


def _set_options(hand: CardSet, triples: int) -> list[tuple[CardSet, int]]:
    """``(cards put in sets, their points)`` for every choice of sets."""
    opts: list[tuple[CardSet, int]] = [(0, 0)]
    while triples:
        low = triples & -triples
        r = low.bit_length() - 1
        triples ^= low
        present = (hand >> r & 1) | (hand >> (r + 12) & 2) | (hand >> (r + 24) & 4)
        present |= hand >> (r + 36) & 8
        choices = _SET_CHOICES[r][present]
        pts = _RANK_POINTS[r]
        opts = [
            (used | ch, p + pts * ch.bit_count()) for used, p in opts for ch in choices
        ]
    return opts


def _set_choices(hand: CardSet) -> Iterator[tuple[CardSet, ...]]:
    """Every choice of sets, as a tuple of set masks (0 = no set for that rank)."""
    triples = _triples(hand)
    groups = []
    while triples:
        low = triples & -triples
        r = low.bit_length() - 1
        triples ^= low
        present = sum(1 << s for s in range(4) if hand >> (13 * s + r) & 1)
        groups.append(_SET_CHOICES[r][present])
    yield from product(*groups)


def _runs_points(rest: CardSet) -> int:
    return (
        _RUN_BEST[rest & SUIT_MASK]
        + _RUN_BEST[(rest >> 13) & SUIT_MASK]
        + _RUN_BEST[(rest >> 26) & SUIT_MASK]
        + _RUN_BEST[rest >> 39]
    )


def melded_points(hand: CardSet) -> int:
    """Most points that can be covered by disjoint melds."""
    triples = _triples(hand)
    if not triples:
        return (
            _RUN_BEST[hand & SUIT_MASK]
            + _RUN_BEST[(hand >> 13) & SUIT_MASK]
            + _RUN_BEST[(hand >> 26) & SUIT_MASK]
            + _RUN_BEST[hand >> 39]
        )
    best = 0
    for used, pts in _set_options(hand, triples):
        rest = hand & ~used
        v = (
            pts
            + _RUN_BEST[rest & SUIT_MASK]
            + _RUN_BEST[(rest >> 13) & SUIT_MASK]
            + _RUN_BEST[(rest >> 26) & SUIT_MASK]
            + _RUN_BEST[rest >> 39]
        )
        if v > best:
            best = v
    return best


def deadwood(hand: CardSet) -> int:
    """Least deadwood of a hand of any size (all its cards count).

    >>> from rummylab.cards import parse_mask
    >>> deadwood(parse_mask("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"))
    0
    """
    return mask_points(hand) - melded_points(hand)


def deadwood_after_discard(hand: CardSet) -> int:
    """Least deadwood after the best discard (any card) of a hand.

    Equal to ``min(deadwood(hand & ~(1 << c)) for c in hand)`` but computed
    in one pass: the best arrangement of all the cards with one card left
    out, less its highest unmatched card.
    """
    triples = _triples(hand)
    opts = _set_options(hand, triples) if triples else ((0, 0),)
    best = 0
    for used, pts in opts:
        rest = hand & ~used
        s0 = rest & SUIT_MASK
        s1 = (rest >> 13) & SUIT_MASK
        s2 = (rest >> 26) & SUIT_MASK
        s3 = rest >> 39
        r0, r1, r2, r3 = _RUN_BEST[s0], _RUN_BEST[s1], _RUN_BEST[s2], _RUN_BEST[s3]
        v = pts + r0 + r1 + r2 + r3 + max(
            _RUN_DISC[s0] - r0, _RUN_DISC[s1] - r1, _RUN_DISC[s2] - r2, _RUN_DISC[s3] - r3
        )
        if v > best:
            best = v
    return mask_points(hand) - best


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds (each a card mask) and the cards left unmatched."""

    melds: tuple[CardSet, ...]
    deadwood_mask: CardSet

    @property
    def deadwood(self) -> int:
        return mask_points(self.deadwood_mask)

    @property
    def melded(self) -> CardSet:
        m = 0
        for meld in self.melds:
            m |= meld
        return m


def _suit_runs(bits: int, suit: int) -> list[CardSet]:
    """Runs of one best arrangement of a 13-bit suit mask, as card masks."""
    runs = []
    while bits:
        f = _RUN_FIRST[bits]
        if f:
            runs.append(f << (13 * suit))
            bits &= ~f
        else:
            bits &= bits - 1
    return runs


def _meld_order(meld: CardSet) -> tuple[int, int, int]:
    cards = cards_of(meld)
    is_set = rank_of(cards[0]) == rank_of(cards[-1])
    return (rank_of(cards[0]), 0 if is_set else 1, suit_of(cards[0]))


def best_arrangement(hand: CardSet) -> Arrangement:
    """One least-deadwood arrangement (deterministic)."""
    best_v: int = -1
    best_sets: tuple[CardSet, ...] = ()
    for choice in _set_choices(hand):
        used = 0
        for m in choice:
            used |= m
        v = mask_points(used) + _runs_points(hand & ~used)
        if v > best_v:
            best_v, best_sets = v, choice
    melds = [m for m in best_sets if m]
    used = 0
    for m in melds:
        used |= m
    rest = hand & ~used
    for s in range(4):
        melds.extend(_suit_runs((rest >> (13 * s)) & SUIT_MASK, s))
    melded = 0
    for m in melds:
        melded |= m
    return Arrangement(tuple(sorted(melds, key=_meld_order)), hand & ~melded)


def _covered_options(bits: int) -> Iterator[int]:
    """Every sub-mask of a suit mask that is a union of runs (blocks of 3+)."""
    if not bits:
        yield 0
        return
    low = (bits & -bits).bit_length() - 1
    rest = bits & (bits - 1)
    yield from _covered_options(rest)
    run, top = 0, low
    while top < 13 and bits >> top & 1:
        run |= 1 << top
        if top - low >= 2:
            # the block must not touch the next covered card, or it would
            # merge with it: leave the card above the block uncovered
            above = bits & ~run
            nxt = top + 1
            tail = above & ~(1 << nxt) if nxt < 13 else above
            for sub in _covered_options(tail):
                yield run | sub
        top += 1


def _split_blocks(covered: int, suit: int) -> list[CardSet]:
    """Maximal contiguous blocks of a covered suit mask, as run masks."""
    out = []
    while covered:
        low = covered & -covered
        block, top = low, low
        while covered & (top << 1):
            top <<= 1
            block |= top
        out.append(block << (13 * suit))
        covered &= ~block
    return out


def least_deadwood_arrangements(hand: CardSet) -> list[Arrangement]:
    """Every least-deadwood arrangement, runs merged into maximal blocks.

    Splitting a long run in two changes nothing a player can lay off, so
    arrangements differ here only in which cards are melded, and how sets
    are chosen.
    """
    target = melded_points(hand)
    found: dict[tuple[CardSet, ...], Arrangement] = {}
    for choice in _set_choices(hand):
        used = 0
        for m in choice:
            used |= m
        rest = hand & ~used
        need = target - mask_points(used)
        if _runs_points(rest) != need:
            continue
        per_suit = []
        for s in range(4):
            bits = (rest >> (13 * s)) & SUIT_MASK
            best = _RUN_BEST[bits]
            opts = [c for c in set(_covered_options(bits)) if _suit_points(c) == best]
            per_suit.append([_split_blocks(c, s) for c in opts])
        for runs in product(*per_suit):
            melds = [m for m in choice if m] + [r for rs in runs for r in rs]
            key = tuple(sorted(melds, key=_meld_order))
            melded = 0
            for m in melds:
                melded |= m
            found.setdefault(key, Arrangement(key, hand & ~melded))
    return [found[k] for k in sorted(found)]


def _suit_points(bits: int) -> int:
    return sum(_RANK_POINTS[r] for r in range(13) if bits >> r & 1)


def discard_deadwoods(hand: CardSet) -> dict[Card, int]:
    """Deadwood left after each possible discard."""
    return {c: deadwood(hand & ~(1 << c)) for c in cards_of(hand)}


def best_discards(hand: CardSet, forbidden: CardSet = 0) -> tuple[int, list[Card]]:
    """Least deadwood after a discard, and every discard reaching it
    (highest card first); ``forbidden`` cards may not be discarded (D-3)."""
    best, cards = 1 << 30, []
    for c in cards_of(hand & ~forbidden):
        d = deadwood(hand & ~(1 << c))
        if d < best:
            best, cards = d, [c]
        elif d == best:
            cards.append(c)
    cards.sort(key=lambda c: (-CARD_POINTS[c], c))
    return best, cards


def is_meld(cards: CardSet) -> bool:
    """A set (3-4 of a rank) or a run (3+ consecutive of a suit, ace low)."""
    n = cards.bit_count()
    if n < 3:
        return False
    for r in range(13):
        if cards & ~_RANK_BITS[r] == 0:
            return True
    for s in range(4):
        bits = (cards >> (13 * s)) & SUIT_MASK
        if bits << (13 * s) == cards:
            low = bits & -bits
            return bits + low & bits == 0  # one contiguous block
    return False


def meld_str(meld: CardSet) -> str:
    """A meld in notation: a set by suit, a run by rank.

    >>> from rummylab.cards import parse_mask
    >>> meld_str(parse_mask("9c 7c 8c"))
    '7c 8c 9c'
    """
    cards = cards_of(meld)
    if rank_of(cards[0]) == rank_of(cards[-1]):
        cards.sort(key=suit_of)
    return " ".join(card_str(c) for c in cards)


# --- lay-offs (§1.7, D-5) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's own melds, lay-offs ``(card, knocker meld index)`` and deadwood."""

    melds: tuple[CardSet, ...]
    layoffs: tuple[tuple[Card, int], ...]
    deadwood_mask: CardSet

    @property
    def deadwood(self) -> int:
        return mask_points(self.deadwood_mask)

    @property
    def laid_off(self) -> CardSet:
        m = 0
        for c, _ in self.layoffs:
            m |= 1 << c
        return m


def layoff_options(hand: CardSet, meld: CardSet) -> list[list[Card]]:
    """Ways to lay cards of ``hand`` off onto one knocker meld, chains included.

    Each option is a list of cards in the order they can be laid off.
    """
    cards = cards_of(meld)
    lo, hi = cards[0], cards[-1]
    if rank_of(lo) == rank_of(hi):  # a set
        if len(cards) >= 4:
            return [[]]
        missing = _RANK_BITS[rank_of(lo)] & ~meld & hand
        return [[]] + ([[cards_of(missing)[0]]] if missing else [])
    suit_base = 13 * suit_of(lo)
    below: list[Card] = []
    c = lo - 1
    while c >= suit_base and hand >> c & 1:
        below.append(c)
        c -= 1
    above: list[Card] = []
    c = hi + 1
    while c < suit_base + 13 and hand >> c & 1:
        above.append(c)
        c += 1
    return [below[:i] + above[:j] for i in range(len(below) + 1) for j in range(len(above) + 1)]


def best_defence(hand: CardSet, knocker_melds: tuple[CardSet, ...] | list[CardSet]) -> Defence:
    """The defender's least deadwood over own melds plus lay-offs (D-5)."""
    per_meld = [layoff_options(hand, m) for m in knocker_melds]
    best: Defence | None = None
    best_dw = 1 << 30
    for combo in product(*per_meld):
        laid = 0
        ok = True
        for opt in combo:
            for c in opt:
                if laid >> c & 1:
                    ok = False
                    break
                laid |= 1 << c
            if not ok:
                break
        if not ok:
            continue
        rest = hand & ~laid
        dw = deadwood(rest)
        if dw < best_dw:
            arr = best_arrangement(rest)
            layoffs = tuple((c, i) for i, opt in enumerate(combo) for c in opt)
            best = Defence(arr.melds, layoffs, arr.deadwood_mask)
            best_dw = dw
    assert best is not None
    return best


def layoff_surface(melds: tuple[CardSet, ...], live: CardSet) -> int:
    """Points of the ``live`` cards that fit directly onto ``melds``
    (the fourth card of a set, the card beyond either end of a run)."""
    fits = 0
    for meld in melds:
        cards = cards_of(meld)
        lo, hi = cards[0], cards[-1]
        if rank_of(lo) == rank_of(hi):
            if len(cards) == 3:
                fits |= _RANK_BITS[rank_of(lo)] & ~meld
        else:
            if rank_of(lo) > 0:
                fits |= 1 << (lo - 1)
            if rank_of(hi) < 12:
                fits |= 1 << (hi + 1)
    return mask_points(fits & live)


def knock_arrangement(hand: CardSet, live: CardSet,
                      defender: CardSet | None = None) -> Arrangement:
    """The knocker's arrangement when the engine lays down (D-4): least
    deadwood; then, given the ``defender``'s hand (the engine knows it), the
    one that leaves that hand the least to lay off (its deadwood after its
    best defence the highest); then the least that the ``live`` cards (the
    ones the knocker cannot see) could lay off, which is all a player can
    judge; then the first in canonical order.

    >>> from rummylab.cards import mask_of, mask_str, parse_cards
    >>> hand = mask_of(parse_cards("2c 3c 4c 3d 3h 9s Ts Js Qs Ks"))
    >>> live = ((1 << 52) - 1) & ~hand
    >>> [mask_str(m) for m in knock_arrangement(hand, live).melds]
    ['3c 3d 3h', '9s Ts Js Qs Ks']
    >>> holds_3s = mask_of(parse_cards("3s 8d 8h 8s Jc Jd Jh 2s 6d Kd"))
    >>> [mask_str(m) for m in knock_arrangement(hand, live, holds_3s).melds]
    ['2c 3c 4c', '9s Ts Js Qs Ks']
    """
    arrs = least_deadwood_arrangements(hand)
    if len(arrs) == 1:
        return arrs[0]
    if defender is None:
        return min(arrs, key=lambda a: layoff_surface(a.melds, live))
    return min(arrs, key=lambda a: (-best_defence(defender, a.melds).deadwood,
                                    layoff_surface(a.melds, live)))
