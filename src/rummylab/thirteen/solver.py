"""Exact least penalty for Three Thirteen hands: wild cards, two decks (§3.6-3.9).

A hand is a multiset of cards (``rummylab.cards.multi_*``: bit ``c`` is one
copy, bit ``52 + c`` a second). Cards of the round's wild rank are wild
(D-8); the others are *naturals*. The search takes the lowest natural left
and tries every combination it can lead: left over, a set with other cards
of its rank (identical cards allowed, D-9), or a run upwards in its suit
with wilds filling gaps and short ends (ace low, at most A-K, D-22); wilds a
combination does not need join any combination at no cost. Memoized on the
naturals left, wilds left and two flags, it is exact; ``rummylab.reference``
holds the brute force it is tested against.

>>> from rummylab.cards import multi_of, parse_cards
>>> hand = multi_of(parse_cards("5h 6h 8h 3c 9d 9s Kc"))   # round 1: threes wild
>>> solve(hand, wild_rank=2).penalty                          # 5h 6h 3c=7h 8h; 9d 9s Kc left
28
>>> a = solve(multi_of(parse_cards("5h 6h 8h 3c 9d 9s 9c")), wild_rank=2)
>>> a.penalty, [combo_str(c) for c in a.combos]
(0, ['9c 9d 9s', '5h 6h 3c=7h 8h'])
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from rummylab.cards import CARD_POINTS, FULL_DECK, Card, card_str, make_card

INF = 1 << 20
_R = 13


@dataclass(frozen=True, slots=True)
class Combo:
    """A combination as laid down: ``(card, stands_for)`` pairs in order;
    ``stands_for`` equals ``card`` for a natural."""

    kind: str  # "set" or "run"
    cards: tuple[tuple[Card, Card], ...]


@dataclass(frozen=True, slots=True)
class Solution:
    penalty: int
    combos: tuple[Combo, ...]
    unmatched: tuple[Card, ...]
    discard: Card | None = None


def combo_str(combo: Combo) -> str:
    """``5h 6h 3c=7h 8h``: a wild is written with the card it stands for."""
    return " ".join(card_str(c) if c == f else f"{card_str(c)}={card_str(f)}"
                    for c, f in combo.cards)


class _Search:
    """One solve: memo tables for one wild rank, option and drop rule."""

    __slots__ = ("all_wild", "choice", "memo", "wild_pts")

    def __init__(self, wild_rank: int, all_wild: bool) -> None:
        self.wild_pts = min(wild_rank + 1, 10)
        self.all_wild = all_wild
        self.memo: dict[tuple[int, int, bool, bool], int] = {}
        self.choice: dict[tuple[int, int, bool, bool], tuple[str, tuple[Card, ...], int]] = {}

    def f(self, rem: int, w: int, drop: bool, hg: bool) -> int:
        key = (rem, w, drop, hg)
        got = self.memo.get(key)
        if got is not None:
            return got
        if not rem:
            ww = w
            if drop:
                if not ww:
                    self.memo[key] = INF
                    return INF
                ww -= 1
            v = 0 if hg or (self.all_wild and ww >= 3) else ww * self.wild_pts
            self.memo[key] = v
            return v
        low = rem & FULL_DECK
        c = (low & -low).bit_length() - 1
        one = _remove(rem, c)
        pts = CARD_POINTS[c]
        best = pts + self.f(one, w, drop, hg)
        choice: tuple[str, tuple[Card, ...], int] = ("left", (c,), 0)
        if drop:
            v = self.f(one, w, False, hg)
            if v < best:
                best, choice = v, ("drop", (c,), 0)
        rank, suit = c % _R, c // _R
        # sets led by c: any further cards of its rank (identical ones too)
        options: list[list[tuple[Card, ...]]] = []
        if one >> c & 1:
            options.append([(), (c,)])
        for s in range(suit + 1, 4):
            o = s * _R + rank
            if one >> o & 1:
                if one >> (52 + o) & 1:
                    options.append([(), (o,), (o, o)])
                else:
                    options.append([(), (o,)])
        for parts in product(*options) if options else [()]:
            others = tuple(x for part in parts for x in part)
            need = max(0, 2 - len(others))
            if need > w:
                continue
            r2 = one
            for x in others:
                r2 = _remove(r2, x)
            v = self.f(r2, w - need, drop, True)
            if v < best:
                best, choice = v, ("set", (c, *others), need)
        # runs led by c: higher ranks of its suit, wilds in the gaps
        base = suit * _R
        stack: list[tuple[int, int, int, tuple[Card, ...]]] = [(rank, 0, one, (c,))]
        while stack:
            top, gaps, r2, chain = stack.pop()
            span = top - rank + 1
            need = gaps + (3 - span if span < 3 else 0)
            if need <= w and len(chain) + need >= 3:
                v = self.f(r2, w - need, drop, True)
                if v < best:
                    best, choice = v, ("run", chain, need)
            for n in range(top + 1, _R):
                g = gaps + n - top - 1
                if g > w:
                    break
                card = base + n
                if r2 >> card & 1:
                    stack.append((n, g, _remove(r2, card), (*chain, card)))
        self.memo[key] = best
        self.choice[key] = choice
        return best


def _remove(multi: int, card: Card) -> int:
    high = 1 << (52 + card)
    if multi & high:
        return multi & ~high
    return multi & ~(1 << card)


def _split(hand: int, wild_rank: int) -> tuple[int, list[Card]]:
    """Naturals (as a multiset) and the wild cards of a hand."""
    wilds: list[Card] = []
    rem = hand
    for s in range(4):
        c = s * _R + wild_rank
        while rem >> c & 1:
            wilds.append(c)
            rem = _remove(rem, c)
    return rem, wilds




# --- the fast path: sets across suits, runs per suit from a cached table ---

_K = 8  # most wilds a hand can hold (two decks)
_RANK_PTS = tuple(min(r + 1, 10) for r in range(_R))
_SUIT_CACHE: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
_SUIT_CACHE_MAX = 1 << 18


def _suit_g(p: int, k: int, d: bool, memo: dict[tuple[int, int, bool], int],
            choice: dict[tuple[int, int, bool], tuple[str, int, int]] | None) -> int:
    """Least leftover points of one suit's naturals (26-bit rank pattern:
    bit r one copy, bit 13 + r a second) with at most ``k`` wilds for runs
    (a lone card with two wilds counts as a run), ``d``: one card may go free."""
    key = (p, k, d)
    got = memo.get(key)
    if got is not None:
        return got
    if not p:
        v = INF if d else 0
        memo[key] = v
        return v
    low = p & 0x1FFF
    r = (low & -low).bit_length() - 1
    p1 = p & ~(1 << (13 + r)) if p >> (13 + r) & 1 else p & ~(1 << r)
    best = _RANK_PTS[r] + _suit_g(p1, k, d, memo, choice)
    how = ("left", 0, 0)
    if d:
        v = _suit_g(p1, k, False, memo, choice)
        if v < best:
            best, how = v, ("drop", 0, 0)
    # runs led by r: (top, gaps, pattern left, ranks used as a bitmask)
    stack = [(r, 0, p1, 1 << r)]
    while stack:
        top, gaps, p2, used = stack.pop()
        span = top - r + 1
        need = gaps + (3 - span if span < 3 else 0)
        if need <= k:
            v = _suit_g(p2, k - need, d, memo, choice)
            if v < best:
                best, how = v, ("run", used, need)
        for n in range(top + 1, _R):
            g = gaps + n - top - 1
            if g > k:
                break
            if p2 >> n & 1:
                p3 = p2 & ~(1 << (13 + n)) if p2 >> (13 + n) & 1 else p2 & ~(1 << n)
                stack.append((n, g, p3, used | 1 << n))
    memo[key] = best
    if choice is not None:
        choice[key] = how
    return best


def _suit_table(p: int, k: int = _K) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per wild budget 0..k (at least): least leftover points, without and with a
    free drop. Budgets are filled in only as far as a hand needs them: most
    hands hold few wilds, and the big budgets cost the most to explore."""
    got = _SUIT_CACHE.get(p)
    if got is None or len(got[0]) <= k:
        memo: dict[tuple[int, int, bool], int] = {}
        v: list[int] = []
        d: list[int] = []
        for budget in range(k + 1):
            if v and v[-1] == 0 and d[-1] in (0, INF):
                v.append(0)  # nothing left over: more wilds change nothing
                d.append(d[-1])
                continue
            v.append(_suit_g(p, budget, False, memo, None))
            d.append(_suit_g(p, budget, True, memo, None))
        if v[-1] == 0 and d[-1] in (0, INF):  # settled: the table holds for any budget
            v += [0] * (_K - k)
            d += [d[-1]] * (_K - k)
        got = (tuple(v), tuple(d))
        if len(_SUIT_CACHE) >= _SUIT_CACHE_MAX:
            _SUIT_CACHE.clear()
        _SUIT_CACHE[p] = got
    return got


def _patterns(rem: int) -> list[int]:
    """The four suits' rank patterns of a natural multiset."""
    lo, hi = rem & FULL_DECK, rem >> 52
    return [((lo >> (13 * s)) & 0x1FFF) | (((hi >> (13 * s)) & 0x1FFF) << 13) for s in range(4)]


_RANK_SETS: dict[tuple[int, int, int, bool], list[tuple[int, int]]] = {}


def _rank_sets(rank: int, sig: int, lone: int, drop: bool) -> list[tuple[int, int]]:
    """Sets of one rank from the copies held (``sig``: 2 bits per suit):
    ``(cards as a multiset, wilds needed)`` for every choice of two or more.

    ``lone`` marks the suits whose copies can share a run with no other
    natural: once a set of the rank is made they belong in it (there they
    cost nothing and need no wild), so only sets holding them all are
    tried; with a free drop, one copy may stay out (it may be the discard).
    """
    key = (rank, sig, lone, drop)
    got = _RANK_SETS.get(key)
    if got is None:
        counts = [(sig >> (2 * s)) & 3 for s in range(4)]
        got = []
        for pick in product(*(range(n + 1) for n in counts)):
            size = sum(pick)
            if size < 2:
                continue
            short = sum(counts[s] - pick[s] for s in range(4) if lone >> s & 1)
            if short > (1 if drop else 0):
                continue
            m = 0
            for suit, k in enumerate(pick):
                c = 13 * suit + rank
                if k >= 1:
                    m |= 1 << c
                if k == 2:
                    m |= 1 << (52 + c)
            got.append((m, 3 - size if size < 3 else 0))
        _RANK_SETS[key] = got
    return got


def _reach(bits: int, w: int) -> int:
    """Ranks that have another rank of ``bits`` within ``w + 1`` (so the two
    can share a run with at most ``w`` wilds between them)."""
    near = 0
    for d in range(1, w + 2):
        near |= (bits << d) | (bits >> d)
    return near & bits & 0x1FFF


def _set_choices(rem: int, w: int = _K, drop: bool = True) -> list[tuple[int, int]]:
    """``(cards put in sets as a multiset, wilds they need)`` for every
    choice of one set per rank held at least twice (a lone card with two
    wilds is left to the runs: it is the same as a run of one)."""
    a0, a1, a2, a3 = (rem & 0x1FFF, (rem >> 13) & 0x1FFF, (rem >> 26) & 0x1FFF,
                      (rem >> 39) & 0x1FFF)
    hi = rem >> 52
    b0, b1, b2, b3 = hi & 0x1FFF, (hi >> 13) & 0x1FFF, (hi >> 26) & 0x1FFF, hi >> 39
    twos = (b0 | b1 | b2 | b3 | (a0 & (a1 | a2 | a3)) | (a1 & (a2 | a3)) | (a2 & a3))
    social = (_reach(a0, w), _reach(a1, w), _reach(a2, w), _reach(a3, w))
    out = [(0, 0)]
    while twos:
        low = twos & -twos
        r = low.bit_length() - 1
        twos ^= low
        sig = ((a0 >> r & 1) + (b0 >> r & 1) | ((a1 >> r & 1) + (b1 >> r & 1)) << 2
               | ((a2 >> r & 1) + (b2 >> r & 1)) << 4 | ((a3 >> r & 1) + (b3 >> r & 1)) << 6)
        lone = 0
        for s in range(4):
            if (sig >> (2 * s)) & 3 and not social[s] >> r & 1:
                lone |= 1 << s
        subsets = _rank_sets(r, sig, lone, drop)
        out = out + [(m0 | m, n0 + n) for m0, n0 in out for m, n in subsets]
    return out


def _combine(tables: list[tuple[tuple[int, ...], tuple[int, ...]]], k: int, drop: bool) -> int:
    """Least total over the suits with at most ``k`` wilds; with ``drop``,
    one natural or one spare wild goes free."""
    if k == 0:
        total = sum(v[0] for v, _ in tables)
        if not drop:
            return total
        return min(total + d[0] - v[0] for v, d in tables)
    cur_v = [0] * (k + 1)
    cur_d = [INF] * (k + 1)
    for v_s, d_s in tables:
        if v_s[0] == 0 and d_s[0] >= INF:  # an empty suit changes nothing
            continue
        # past the plateau more wilds change nothing for this suit
        top = k
        while top and v_s[top - 1] == v_s[k] and d_s[top - 1] == d_s[k]:
            top -= 1
        nv = []
        nd = []
        for j in range(k + 1):
            bv = bd = INF
            for t in range(min(j, top) + 1):
                cv = cur_v[j - t]
                x = cv + v_s[t]
                if x < bv:
                    bv = x
                if drop:
                    y = cv + d_s[t]
                    if y < bd:
                        bd = y
                    y = cur_d[j - t] + v_s[t]
                    if y < bd:
                        bd = y
            nv.append(bv)
            nd.append(bd)
        cur_v, cur_d = nv, nd
    if not drop:
        return cur_v[k]
    return min(cur_d[k], cur_v[k - 1])  # k >= 1: a spare wild may be the drop


def _sub(a: int, b: int) -> int:
    """Multiset difference (b within a)."""
    a1, a2, b1, b2 = a & FULL_DECK, a >> 52, b & FULL_DECK, b >> 52
    return (a1 & ~b1) | (a2 & b1 & ~b2) | ((a2 & ~b1) << 52)


def _fast(rem: int, w: int, drop: bool) -> tuple[int, int]:
    """Relaxed optimum (spare wilds join for free): value and the set cards."""
    best, best_sets = INF, 0
    choices = _set_choices(rem, w, drop)
    choices.reverse()  # most cards in sets first: a good bound early
    for sets, need in choices:
        if need > w:
            continue
        k = w - need
        left = _sub(rem, sets) if sets else rem
        tables = [_suit_table(p, k) for p in _patterns(left)]
        # lower bound: every suit may use all k wilds
        lb = 0
        gain = 0
        for v_s, d_s in tables:
            lb += v_s[k]
            if drop and d_s[k] - v_s[k] < gain:
                gain = d_s[k] - v_s[k]
        if lb + gain >= best:
            continue
        v = _combine(tables, k, drop)
        if v < best:
            best, best_sets = v, sets
    return best, best_sets


def _natural_points(rem: int) -> tuple[int, int]:
    """Total and highest points of a natural multiset."""
    cards = _cards(rem)
    return sum(CARD_POINTS[c] for c in cards), max((CARD_POINTS[c] for c in cards), default=0)


def _cards(multi: int) -> list[Card]:
    out = []
    lo, hi = multi & FULL_DECK, multi >> 52
    for m in (lo, hi):
        while m:
            b = m & -m
            out.append(b.bit_length() - 1)
            m ^= b
    return sorted(out)


def _exact(rem: int, w: int, wild_rank: int, all_wild: bool, drop: bool) -> int | None:
    """The relaxed optimum when it is exact, else None (then a spare wild
    might have nowhere to go: at most one wild, or no natural)."""
    if w == 0:
        return _fast(rem, 0, drop)[0]
    value = _fast(rem, w, drop)[0]
    total, top = _natural_points(rem)
    no_group = total - (top if drop else 0)
    return value if value < no_group else None


def penalty(hand: int, wild_rank: int, *, natural_wild_sets: bool = False) -> int:
    """Least penalty of a hand (every card counts)."""
    rem, wilds = _split(hand, wild_rank)
    v = _exact(rem, len(wilds), wild_rank, natural_wild_sets, False)
    if v is None:
        v = _Search(wild_rank, natural_wild_sets).f(rem, len(wilds), False, False)
    return v


def penalty_after_discard(hand: int, wild_rank: int, *, natural_wild_sets: bool = False) -> int:
    """Least penalty after the best discard (any card), in one search."""
    rem, wilds = _split(hand, wild_rank)
    if not rem and not wilds:
        raise ValueError("no card to discard")
    v = _exact(rem, len(wilds), wild_rank, natural_wild_sets, True)
    if v is None:
        v = _Search(wild_rank, natural_wild_sets).f(rem, len(wilds), True, False)
    return v


def solve(hand: int, wild_rank: int, *, natural_wild_sets: bool = False,
          discard: bool = False) -> Solution:
    """Least penalty with the combinations that reach it; with ``discard``,
    after the best discard (the solution names it)."""
    rem, wilds = _split(hand, wild_rank)
    if discard and not rem and not wilds:
        raise ValueError("no card to discard")
    w = len(wilds)
    if _exact(rem, w, wild_rank, natural_wild_sets, discard) is not None:
        return _solve_fast(rem, wilds, wild_rank, discard)
    return _solve_search(rem, wilds, wild_rank, natural_wild_sets, discard)


def _solve_fast(rem: int, wilds: list[Card], wild_rank: int, drop: bool) -> Solution:
    w = len(wilds)
    value, sets = _fast(rem, w, drop)
    groups: list[tuple[str, tuple[Card, ...], int]] = []
    need_sets = 0
    by_rank: dict[int, list[Card]] = {}
    for c in _cards(sets):
        by_rank.setdefault(c % _R, []).append(c)
    for cards in by_rank.values():
        need = max(0, 3 - len(cards))
        need_sets += need
        groups.append(("set", tuple(cards), need))
    left = _sub(rem, sets) if sets else rem
    pats = _patterns(left)
    k = w - need_sets
    tables = [_suit_table(p, k) for p in pats]
    # the wilds each suit takes, and where the free drop goes
    found = None
    for alloc in product(*(range(k + 1) for _ in range(4))):
        used = sum(alloc)
        if used > k:
            continue
        base = sum(tables[s][0][alloc[s]] for s in range(4))
        if not drop:
            if base == value:
                found = (alloc, -1)
                break
            continue
        if used < k and base == value:
            found = (alloc, -2)
            break
        for s in range(4):
            if base - tables[s][0][alloc[s]] + tables[s][1][alloc[s]] == value:
                found = (alloc, s)
                break
        if found:
            break
    assert found is not None
    alloc, drop_suit = found
    unmatched: list[Card] = []
    dropped: Card | None = None
    for s in range(4):
        memo: dict[tuple[int, int, bool], int] = {}
        choice: dict[tuple[int, int, bool], tuple[str, int, int]] = {}
        key = (pats[s], alloc[s], drop_suit == s)
        _suit_g(*key, memo, choice)
        while key[0]:
            how, ranks, need = choice[key]
            p, kk, d = key
            low = p & 0x1FFF
            r = (low & -low).bit_length() - 1
            if how == "run":
                for n in range(13):
                    if ranks >> n & 1:
                        p = p & ~(1 << (13 + n)) if p >> (13 + n) & 1 else p & ~(1 << n)
                groups.append(("run", tuple(13 * s + n for n in range(13) if ranks >> n & 1),
                               need))
                kk -= need
            else:
                p = p & ~(1 << (13 + r)) if p >> (13 + r) & 1 else p & ~(1 << r)
                if how == "drop":
                    dropped, d = 13 * s + r, False
                else:
                    unmatched.append(13 * s + r)
            key = (p, kk, d)
    wild_iter = iter(wilds)
    combos = [_place(kind, cards, [next(wild_iter) for _ in range(need)])
              for kind, cards, need in groups]
    rest = list(wild_iter)
    if drop_suit == -2:
        dropped = rest.pop()
    if rest:
        combos = _attach(combos, rest)
    return Solution(value, tuple(combos), tuple(sorted(unmatched)), dropped)


def _solve_search(rem: int, wilds: list[Card], wild_rank: int, natural_wild_sets: bool,
                  discard: bool) -> Solution:
    search = _Search(wild_rank, natural_wild_sets)
    w = len(wilds)
    total = search.f(rem, w, discard, False)
    if total >= INF:
        raise ValueError("no card to discard")
    groups: list[tuple[str, tuple[Card, ...], int]] = []
    unmatched: list[Card] = []
    dropped: Card | None = None
    key = (rem, w, discard, False)
    while key[0]:
        kind, cards, need = search.choice[key]
        r, ww, drop, hg = key
        for x in cards:
            r = _remove(r, x)
        if kind == "left":
            unmatched.append(cards[0])
        elif kind == "drop":
            dropped, drop = cards[0], False
        else:
            groups.append((kind, cards, need))
            ww -= need
            hg = True
        key = (r, ww, drop, hg)
    drop = key[2]
    wild_iter = iter(wilds)
    combos = [_place(kind, cards, [next(wild_iter) for _ in range(need)])
              for kind, cards, need in groups]
    rest = list(wild_iter)
    if drop:
        dropped = rest.pop()
    if rest:
        if combos:
            combos = _attach(combos, rest)
        elif natural_wild_sets and len(rest) >= 3:
            combos = [Combo("set", tuple((x, x) for x in rest))]
        else:
            unmatched.extend(rest)
    return Solution(total, tuple(combos), tuple(sorted(unmatched)), dropped)


def _place(kind: str, naturals: tuple[Card, ...], wilds: list[Card]) -> Combo:
    if kind == "set":
        rank = naturals[0] % _R
        held = {x // _R for x in naturals}
        free = [s for s in range(4) if s not in held] or list(range(4))
        out = [(x, x) for x in naturals]
        for i, wcard in enumerate(wilds):
            out.append((wcard, make_card(rank, free[i % len(free)])))
        return Combo("set", tuple(out))
    suit = naturals[0] // _R
    ranks = {x % _R: x for x in naturals}
    lo, hi = min(ranks), max(ranks)
    wl = list(wilds)
    pairs: list[tuple[Card, Card]] = []
    for r in range(lo, hi + 1):
        if r in ranks:
            pairs.append((ranks[r], ranks[r]))
        else:
            pairs.append((wl.pop(), make_card(r, suit)))
    while wl:  # short run: extend upwards, or downwards at the king
        if hi < _R - 1:
            hi += 1
            pairs.append((wl.pop(), make_card(hi, suit)))
        else:
            lo -= 1
            pairs.insert(0, (wl.pop(), make_card(lo, suit)))
    return Combo("run", tuple(pairs))


def _attach(combos: list[Combo], wilds: list[Card]) -> list[Combo]:
    """Spare wilds join a set, or lengthen a run while it stays within A-K."""
    out = list(combos)
    for wcard in wilds:
        for i, combo in enumerate(out):
            if combo.kind == "set":
                rank = combo.cards[0][1] % _R
                out[i] = Combo("set", (*combo.cards, (wcard, make_card(rank, 0))))
                break
            lo, hi = combo.cards[0][1], combo.cards[-1][1]
            if hi % _R < _R - 1:
                out[i] = Combo("run", (*combo.cards, (wcard, hi + 1)))
                break
            if lo % _R > 0:
                out[i] = Combo("run", ((wcard, lo - 1), *combo.cards))
                break
        else:  # pragma: no cover - only a 13-card run could refuse, and then it is the discard
            raise AssertionError("no combination takes a spare wild")
    return out
