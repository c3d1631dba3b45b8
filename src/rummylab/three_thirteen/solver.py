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

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from rummylab.cards import CARD_POINTS, FULL_DECK, Card, card_str, make_card, mask_points

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
#
# A run never needs a gap of four or more wilds: cut there, its two parts
# need at most two wilds each to reach three cards, no more than the gap.
# So a chain of naturals in a run steps up at most four ranks at a time, and
# a natural with no other natural of its suit within four ranks (or within
# the wilds held plus one) never shares a run.

_K = 8  # most wilds a hand can hold (two decks)
_W = _K + 1  # table length: budgets 0.._K
_STEP = 4  # the longest step between neighbouring naturals of a run
_SPAN = 5  # the longest run a table needs to try (see ``_table``)
_RANK_PTS = tuple(min(r + 1, 10) for r in range(_R))

Table = tuple[tuple[int, ...], tuple[int, ...], int]
_EMPTY: Table = ((0,) * _W, (INF,) * _W, 0)
_TABLES: dict[int, Table] = {0: _EMPTY}  # the empty pattern always there
_TABLES_MAX = 1 << 17
_SWEEP_FROM = 10  # cards in a pattern from which ``_sweep`` builds its table


def clear_caches() -> None:
    """Empty the solver's caches (per-suit tables, set choices, combinations)."""
    _TABLES.clear()
    _TABLES[0] = _EMPTY
    _RANK_SETS.clear()
    _COMBINED.clear()


def cache_size() -> int:
    """How many per-suit tables are cached."""
    return len(_TABLES)


def _table(p: int) -> Table:
    """One suit's naturals (26-bit rank pattern: bit r one copy, bit 13 + r a
    second) on their own: per wild budget 0.._K, the least points left over,
    and the least with one card of the suit going free (``INF`` if none);
    then the budget from which both stay the same. Every sub-pattern met on
    the way is cached too."""
    got = _TABLES.get(p)
    if got is not None:
        return got
    if not p:
        return _EMPTY
    low = p & 0x1FFF
    cut = _cut(low)
    if cut:  # naturals four ranks apart or more share no run: two tables
        below = (1 << cut) - 1
        below |= below << 13
        got = _convolve(_table(p & below), _table(p & ~below))
    elif p.bit_count() >= _SWEEP_FROM:
        got = _sweep(p)
    else:
        got = None
    if got is not None:
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
            _TABLES[0] = _EMPTY
        _TABLES[p] = got
        return got
    r = (low & -low).bit_length() - 1
    hb = 1 << (13 + r)
    p1 = p & ~hb if p & hb else p & ~(1 << r)
    v1, d1, _ = _table(p1)
    pts = _RANK_PTS[r]
    # r left over, or (drop) r going free
    v = [pts + x for x in v1]
    d = [a if a < pts + b else pts + b for a, b in zip(v1, d1, strict=True)]
    # runs led by r: chains of naturals upwards, wilds in the gaps. A run
    # six ranks long or more is never needed: cut between the last natural
    # within its first three ranks and the next one, the two parts take no
    # more wilds than the gap held (each needs 3 - its span, and the spans
    # and the gap add up to six or more), so chains end by rank r + 4.
    stack = [(r, 0, p1)]
    end = min(r + _SPAN, _R)
    while stack:
        top, gaps, q = stack.pop()
        span = top - r + 1
        n = gaps + 3 - span if span < 3 else gaps
        if n <= _K:
            vq, dq, _ = _TABLES.get(q) or _table(q)
            if n:
                v[n:] = map(min, v[n:], vq)
                d[n:] = map(min, d[n:], dq)
            else:
                v = list(map(min, v, vq))
                d = list(map(min, d, dq))
        for nxt in range(top + 1, min(top + _STEP + 1, end)):
            g = gaps + nxt - top - 1
            if g > _K:
                break
            if q >> nxt & 1:
                hb = 1 << (13 + nxt)
                stack.append((nxt, g, q & ~hb if q & hb else q & ~(1 << nxt)))
    top = _K
    while top and v[top - 1] == v[_K] and d[top - 1] == d[_K]:
        top -= 1
    got = (tuple(v), tuple(d), top)
    if len(_TABLES) >= _TABLES_MAX:
        _TABLES.clear()
        _TABLES[0] = _EMPTY
    _TABLES[p] = got
    return got


def _cut(ranks: int) -> int:
    """The lowest held rank with no held rank in the four below it, but the
    lowest of all (0 if none): no run reaches across below it."""
    near = (ranks << 1) | (ranks << 2) | (ranks << 3) | (ranks << 4)
    x = ranks & ~near & ~(ranks & -ranks)
    return (x & -x).bit_length() - 1 if x else 0


def _convolve(a: Table, b: Table) -> Table:
    """The table of two parts of a suit that share no run."""
    va, da, ta = a
    vb, db, tb = b
    v = []
    d = []
    for k in range(_W):
        bv = bd = INF
        hi = min(k, ta)
        for i in range(min(max(0, k - tb), hi), hi + 1):
            x = va[i]
            y = vb[k - i]
            if x + y < bv:
                bv = x + y
            if da[i] + y < bd:
                bd = da[i] + y
            if x + db[k - i] < bd:
                bd = x + db[k - i]
        v.append(bv)
        d.append(bd)
    top = _K
    while top and v[top - 1] == v[_K] and d[top - 1] == d[_K]:
        top -= 1
    return (tuple(v), tuple(d), top)


def _sweep(p: int) -> Table:
    """``_table`` by a sweep over the ranks, for big patterns (the chains of
    ``_table`` multiply there). A run is a span of three ranks or more, each
    rank of it filled by a natural or a wild; the sweep carries how many runs
    are open and how long they are so far (1, 2, 3 or more): a rank covered
    ``cov`` times with ``c`` naturals held takes ``max(0, cov - c)`` wilds and
    leaves ``max(0, c - cov)`` naturals over. A run never starts on a wild
    but at the jack (J-Q-K): shifted up a rank, or cut short, it needs no
    more wilds. Per state: (wilds used, least points left) pairs, each with
    more wilds and fewer points than the last, without and with a card free.
    """
    lo_bits, hi_bits = p & 0x1FFF, p >> 13
    first = (lo_bits & -lo_bits).bit_length() - 1
    last = lo_bits.bit_length() - 1
    start = min(first, _R - 3)
    fronts: dict[tuple[int, int, int, int], list[tuple[int, int]]] = {(0, 0, 0, 0): [(0, 0)]}
    for x in range(start, last + 1):
        c = (lo_bits >> x & 1) + (hi_bits >> x & 1)
        pts = _RANK_PTS[x]
        new: dict[tuple[int, int, int, int], dict[int, int]] = {}
        for (n1, n2, n3, f), front in fronts.items():
            # the naturals here, or (a card going free) one fewer
            for cc, ff in ((c, f), (c - 1, 1)) if c and not f else ((c, f),):
                amax = cc + 2 if x == _R - 3 else cc
                for e in range(n3 + 1):
                    kept = n1 + n2 + n3 - e
                    for a in range(amax + 1):
                        cov = kept + a
                        if cov > cc:
                            wc, lp = cov - cc, 0
                        else:
                            wc, lp = 0, (cc - cov) * pts
                        if front[0][0] + wc > _K:
                            break
                        key = (a, n1, n2 + n3 - e, ff)
                        got = new.get(key)
                        if got is None:
                            got = new[key] = {}
                        for j, val in front:
                            jj = j + wc
                            if jj > _K:
                                break
                            val += lp
                            if val < got.get(jj, INF):
                                got[jj] = val
        fronts = {}
        for key, got in new.items():
            pareto = []
            bestv = INF
            for j in sorted(got):
                val = got[j]
                if val < bestv:
                    pareto.append((j, val))
                    bestv = val
            fronts[key] = pareto
    # close every run: the short ones take wilds above the last natural
    v = [INF] * _W
    d = [INF] * _W
    for (n1, n2, _, f), front in fronts.items():
        if (n1 and last + 2 >= _R) or (n2 and last + 1 >= _R):
            continue
        extra = 2 * n1 + n2
        out = d if f else v
        for j, val in front:
            jj = j + extra
            if jj > _K:
                break
            if val < out[jj]:
                out[jj] = val
    for j in range(1, _W):
        if v[j - 1] < v[j]:
            v[j] = v[j - 1]
        if d[j - 1] < d[j]:
            d[j] = d[j - 1]
    top = _K
    while top and v[top - 1] == v[_K] and d[top - 1] == d[_K]:
        top -= 1
    return (tuple(v), tuple(d), top)


def _patterns(rem: int) -> list[int]:
    """The four suits' rank patterns of a natural multiset."""
    lo, hi = rem & FULL_DECK, rem >> 52
    return [((lo >> (13 * s)) & 0x1FFF) | (((hi >> (13 * s)) & 0x1FFF) << 13) for s in range(4)]


# a set option: what it takes from each suit's pattern, the wilds it needs,
# its cards as a multiset
SetOption = tuple[int, int, int, int, int, int]
_RANK_SETS: dict[tuple[int, int, int, bool], list[SetOption]] = {}


def _rank_sets(rank: int, sig: int, lone: int, drop: bool) -> list[SetOption]:
    """Sets of one rank from the copies held (``sig``: 2 bits per suit), two
    copies or more, fewest wilds first; the first option is no set.

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
            takes = [0, 0, 0, 0]
            for suit, k in enumerate(pick):
                c = 13 * suit + rank
                if k >= 1:
                    m |= 1 << c
                if k == 2:
                    m |= 1 << (52 + c)
                    takes[suit] = (1 << rank) | (1 << (13 + rank))
                elif k == 1:
                    takes[suit] = 1 << (13 + rank) if counts[suit] == 2 else 1 << rank
            got.append((*takes, 3 - size if size < 3 else 0, m))  # type: ignore[arg-type]
        got.sort(key=lambda o: (o[4], -o[5].bit_count()))
        got.insert(0, (0, 0, 0, 0, 0, 0))
        _RANK_SETS[key] = got
    return got


def _reach(bits: int, w: int) -> int:
    """Ranks that have another rank of ``bits`` close enough to share a run
    with at most ``w`` wilds (and no gap of four)."""
    near = 0
    for d in range(1, min(w + 1, _STEP) + 1):
        near |= (bits << d) | (bits >> d)
    return near & bits & 0x1FFF


_COMBINED: dict[tuple[int, ...], int] = {}
_COMBINED_MAX = 1 << 16


def _combine(tabs: list[Table], k: int, drop: bool) -> int:
    """Least total over the suits with at most ``k`` wilds; with ``drop``,
    one natural or one spare wild goes free."""
    base = 0
    fixed_gain = INF  # drop in a suit whose table no longer moves
    var: list[Table] = []
    for tab in tabs:
        v, d, top = tab
        if top == 0 or k == 0:
            base += v[k]
            if drop:
                g = d[k] - v[k]
                if g < fixed_gain:
                    fixed_gain = g
        else:
            var.append(tab)
    if not var:
        if not drop:
            return base
        return min(base + fixed_gain, base if k else INF)
    v0, d0, _ = var[0]
    cur_v: Sequence[int] = v0
    cur_d: Sequence[int] = d0
    last = var.pop()
    for v_s, d_s, top in var[1:]:
        top = min(top, k)
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
    if var:  # the last suit: the totals at k (and k - 1 for a spare wild) only
        v_s, d_s, top = last
        top = min(top, k)
        bv = INF
        for t in range(top + 1):
            x = cur_v[k - t] + v_s[t]
            if x < bv:
                bv = x
        if not drop:
            return base + bv
        bd = INF
        for t in range(top + 1):
            x = cur_v[k - t] + d_s[t]
            if x < bd:
                bd = x
            x = cur_d[k - t] + v_s[t]
            if x < bd:
                bd = x
        spare = INF
        for t in range(min(top, k - 1) + 1):
            x = cur_v[k - 1 - t] + v_s[t]
            if x < spare:
                spare = x
        best = min(bd, bv + fixed_gain, spare)
        return base + best
    if not drop:
        return base + cur_v[k]
    best = min(cur_d[k], cur_v[k] + fixed_gain)
    if cur_v[k - 1] < best:  # a spare wild may be the drop
        best = cur_v[k - 1]
    return base + best


def _fast(rem: int, w: int, drop: bool) -> tuple[int, int]:
    """Relaxed optimum (spare wilds join for free): value and the set cards.

    Tries one set option per rank held at least twice (a lone card with two
    wilds is left to the runs: it is the same as a run of one), depth first
    over the ranks; at each choice every suit's table gives a lower bound
    (each suit with all the wilds), and a solution with nothing left over
    ends the search.
    """
    lo, hi = rem & FULL_DECK, rem >> 52
    a0, a1, a2, a3 = lo & 0x1FFF, (lo >> 13) & 0x1FFF, (lo >> 26) & 0x1FFF, lo >> 39
    b0, b1, b2, b3 = hi & 0x1FFF, (hi >> 13) & 0x1FFF, (hi >> 26) & 0x1FFF, hi >> 39
    pats = (a0 | b0 << 13, a1 | b1 << 13, a2 | b2 << 13, a3 | b3 << 13)
    twos = (b0 | b1 | b2 | b3 | (a0 & (a1 | a2 | a3)) | (a1 & (a2 | a3)) | (a2 & a3))
    if not twos:
        return _combine([_table(p) for p in pats], w, drop), 0
    social = (_reach(a0, w), _reach(a1, w), _reach(a2, w), _reach(a3, w))
    levels: list[list[SetOption]] = []
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
        levels.append(_rank_sets(r, sig, lone, drop))
    depth = len(levels)
    tables = _TABLES
    best = INF
    best_sets = 0
    # depth-first over the levels: stack of (level, patterns, wilds needed, set cards)
    stack = [(0, pats[0], pats[1], pats[2], pats[3], 0, 0)]
    last = depth - 1
    while stack:
        i, p0, p1, p2, p3, need, sets = stack.pop()
        opts = levels[i]
        if i < last:
            # no set explored last: a set of the rank first, fewest wilds first
            for j in (0, *range(len(opts) - 1, 0, -1)):
                t0, t1, t2, t3, n, m = opts[j]
                if need + n <= w:
                    stack.append((i + 1, p0 & ~t0, p1 & ~t1, p2 & ~t2, p3 & ~t3, need + n,
                                  sets | m))
            continue
        # the last level: its options lead to leaves, taken in the same order
        for j in (*range(1, len(opts)), 0):
            t0, t1, t2, t3, n, m = opts[j]
            k = w - need - n
            if k < 0:
                continue
            c0, c1, c2, c3 = p0 & ~t0, p1 & ~t1, p2 & ~t2, p3 & ~t3
            q0 = tables.get(c0)
            q1 = tables.get(c1)
            q2 = tables.get(c2)
            q3 = tables.get(c3)
            if q0 is None or q1 is None or q2 is None or q3 is None:
                # a bound from the tables at hand first (the others add 0 or
                # more, also with a card free): build the rest only if needed
                lb = 0
                gain = 0
                for q in (q0, q1, q2, q3):
                    if q is not None:
                        x = q[0][k]
                        lb += x
                        if drop and q[1][k] - x < gain:
                            gain = q[1][k] - x
                if lb + gain >= best:
                    continue
                q0 = q0 or _table(c0)
                q1 = q1 or _table(c1)
                q2 = q2 or _table(c2)
                q3 = q3 or _table(c3)
            x0, x1, x2, x3 = q0[0][k], q1[0][k], q2[0][k], q3[0][k]
            lb = x0 + x1 + x2 + x3
            if drop:
                g = min(q0[1][k] - x0, q1[1][k] - x1, q2[1][k] - x2, q3[1][k] - x3)
                if k:
                    if g < 0:
                        lb += g
                else:  # no wild to share out, none spare: the value itself
                    lb += g
            if lb >= best:
                continue
            v = _combine([q0, q1, q2, q3], k, drop) if k else lb
            if v < best:
                best, best_sets = v, sets | m
                if not v:
                    return best, best_sets
    return best, best_sets


def _sub(a: int, b: int) -> int:
    """Multiset difference (b within a)."""
    a1, a2, b1, b2 = a & FULL_DECK, a >> 52, b & FULL_DECK, b >> 52
    return (a1 & ~b1) | (a2 & b1 & ~b2) | ((a2 & ~b1) << 52)


def _natural_points(rem: int) -> tuple[int, int]:
    """Total and highest points of a natural multiset."""
    lo = rem & FULL_DECK
    ranks = (lo | lo >> 13 | lo >> 26 | lo >> 39) & 0x1FFF
    return (mask_points(lo) + mask_points(rem >> 52),
            _RANK_PTS[ranks.bit_length() - 1] if ranks else 0)


def _cards(multi: int) -> list[Card]:
    out = []
    lo, hi = multi & FULL_DECK, multi >> 52
    for m in (lo, hi):
        while m:
            b = m & -m
            out.append(b.bit_length() - 1)
            m ^= b
    return sorted(out)


def _exact(rem: int, w: int, drop: bool) -> tuple[int, int] | None:
    """The relaxed optimum and its set cards when it is exact, else None
    (then a spare wild might have nowhere to go: at most one wild, or no
    natural)."""
    got = _fast(rem, w, drop)
    if w == 0:
        return got
    total, top = _natural_points(rem)
    no_group = total - (top if drop else 0)
    return got if got[0] < no_group else None


def penalty(hand: int, wild_rank: int, *, natural_wild_sets: bool = False) -> int:
    """Least penalty of a hand (every card counts)."""
    rem, wilds = _split(hand, wild_rank)
    got = _exact(rem, len(wilds), False)
    if got is None:
        return _Search(wild_rank, natural_wild_sets).f(rem, len(wilds), False, False)
    return got[0]


def penalty_after_discard(hand: int, wild_rank: int, *, natural_wild_sets: bool = False) -> int:
    """Least penalty after the best discard (any card), in one search."""
    rem, wilds = _split(hand, wild_rank)
    if not rem and not wilds:
        raise ValueError("no card to discard")
    got = _exact(rem, len(wilds), True)
    if got is None:
        return _Search(wild_rank, natural_wild_sets).f(rem, len(wilds), True, False)
    return got[0]


def solve(hand: int, wild_rank: int, *, natural_wild_sets: bool = False,
          discard: bool = False) -> Solution:
    """Least penalty with the combinations that reach it; with ``discard``,
    after the best discard (the solution names it)."""
    rem, wilds = _split(hand, wild_rank)
    if discard and not rem and not wilds:
        raise ValueError("no card to discard")
    got = _exact(rem, len(wilds), discard)
    if got is not None:
        return _solve_fast(rem, wilds, discard, *got)
    return _solve_search(rem, wilds, wild_rank, natural_wild_sets, discard)


def _allocate(tabs: list[Table], k: int, drop: bool) -> tuple[int, list[int], int]:
    """The wilds each suit takes and where the free drop goes (a suit, or -2
    for a spare wild, -1 for none) at the least total of ``_combine``."""
    memo: dict[tuple[int, int, bool], int] = {}

    def best(i: int, j: int, f: bool) -> int:
        if i == 4:
            return INF if f and not j else 0  # a spare wild may be the drop
        key = (i, j, f)
        got = memo.get(key)
        if got is None:
            v, d, _ = tabs[i]
            got = INF
            for t in range(j + 1):
                got = min(got, v[t] + best(i + 1, j - t, f))
                if f:
                    got = min(got, d[t] + best(i + 1, j - t, False))
            memo[key] = got
        return got

    total = best(0, k, drop)
    alloc: list[int] = []
    drop_suit = -1
    j, f = k, drop
    for i in range(4):
        v, d, _ = tabs[i]
        target = best(i, j, f)
        for t in range(j + 1):
            if v[t] + best(i + 1, j - t, f) == target:
                break
            if f and d[t] + best(i + 1, j - t, False) == target:
                drop_suit, f = i, False
                break
        alloc.append(t)
        j -= t
    if f:
        drop_suit = -2
    return total, alloc, drop_suit


def _walk(p: int, k: int, f: bool, suit: int,
          groups: list[tuple[str, tuple[Card, ...], int]], unmatched: list[Card]) -> Card | None:
    """One suit's runs, cards left over and (``f``) free card at its table's
    value with ``k`` wilds; returns the free card."""
    dropped: Card | None = None
    base = 13 * suit
    while p:
        v, d, _ = _table(p)
        target = (d if f else v)[k]
        low = p & 0x1FFF
        r = (low & -low).bit_length() - 1
        hb = 1 << (13 + r)
        p1 = p & ~hb if p & hb else p & ~(1 << r)
        v1, d1, _ = _table(p1)
        if _RANK_PTS[r] + (d1 if f else v1)[k] == target:
            unmatched.append(base + r)
            p = p1
            continue
        if f and v1[k] == target:
            dropped, f, p = base + r, False, p1
            continue
        stack: list[tuple[int, int, int, tuple[int, ...]]] = [(r, 0, p1, (r,))]
        end = min(r + _SPAN, _R)  # the chains ``_table`` tried
        while stack:
            top, gaps, q, chain = stack.pop()
            span = top - r + 1
            n = gaps + 3 - span if span < 3 else gaps
            if n <= k:
                vq, dq, _ = _table(q)
                if (dq if f else vq)[k - n] == target:
                    break
            for nxt in range(top + 1, min(top + _STEP + 1, end)):
                g = gaps + nxt - top - 1
                if g > _K:
                    break
                if q >> nxt & 1:
                    hb = 1 << (13 + nxt)
                    stack.append((nxt, g, q & ~hb if q & hb else q & ~(1 << nxt),
                                  (*chain, nxt)))
        else:  # pragma: no cover - the table was built from these very options
            raise AssertionError("no option reaches the table's value")
        groups.append(("run", tuple(base + x for x in chain), n))
        k -= n
        p = q
    return dropped


def _solve_fast(rem: int, wilds: list[Card], drop: bool, value: int, sets: int) -> Solution:
    w = len(wilds)
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
    tabs = [_table(p) for p in pats]
    total, alloc, drop_suit = _allocate(tabs, w - need_sets, drop)
    assert total == value
    unmatched: list[Card] = []
    dropped: Card | None = None
    for s in range(4):
        got = _walk(pats[s], alloc[s], drop_suit == s, s, groups, unmatched)
        if got is not None:
            dropped = got
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
