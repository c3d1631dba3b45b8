"""Exact table solver for Manipulation: arrange a table, find the best play (§4.5-4.8).

The table is a multiset of *identities* (the cards that naturals and jokers
stand for). Once every joker's identity is chosen, legality no longer cares
which physical card carries an identity, and D-24 caps each identity at one
copy per deck. So the solver sweeps the positions A(low), 2, ..., K, A(high)
in the style of van Rijn, Takes & Vis (2015, "The complexity of Rummikub
problems"): at each position and suit it chooses how many copies to place
(the table's are required, the hand's optional and worth their points),
which open sequences of the suit each copy extends or starts, and which go
into groups of the position's rank. A state is, per suit, the lengths
(1, 2 or 3+) of the sequences still open, plus the jokers placed so far;
each state keeps its best value.

After each suit of each position, a state that another beats in every
respect (open sequences that can do at least as much, same jokers or fewer
once the forced ones are down, a value at least as high, higher by enough
to make up for hand aces it already valued low) is dropped: the survivors
are few, often a single state per rank on a table rich in long sequences,
which is what makes the sweep fast in pure Python.

Two choices are made outside the sweep, because carrying them through it
multiplies the states:

- *Aces high.* A high ace is just position 14, but the two ace positions
  share the copies and the cap (D-24). A node of the search either fixes a
  suit's aces (how many play high, and whether they are the table's, the
  hand's or jokers) or relaxes them: both positions then draw on the whole
  supply, valued so that no legal play is worth more (``_Spec.splits``).
- *Jokers.* A table joker either keeps its identity (it is then a required
  copy of that card) or changes it (it becomes a free joker and a real card
  of its old identity must be on the table, D-16); hand jokers are optional
  free jokers worth 25. A node either fixes which table jokers change or
  relaxes D-16 (every table joker free).

The root relaxes everything. Its best play is usually legal as it stands,
and is then optimal: one sweep. Otherwise a warm start (table jokers kept,
the aces as the table plays them) gives a legal play, and a best-first
search splits on what the relaxed play got wrong (a suit's aces, or the
jokers), each node one sweep bounded by the best play so far. Every answer
is exact unless a cap cut in: ``state_cap`` bounds the states of a sweep
layer, ``node_cap`` the sweeps of a search (positions with jokers on large
two-deck tables can need many); the play is then legal but reported with
``exact=False``.

>>> from rummylab.cards import parse_cards
>>> from rummylab.manipulation.table import parse_table, table_str
>>> t = parse_table("7h 8h 9h | Qs Qd Qc", decks=1)
>>> p = best_play(t, parse_cards("Th Qh 2c"), decks=1)
>>> (p.points_shed, p.cards_shed, table_str(p.table))
(20, 2, 'Qc Qd Qh Qs | 7h 8h 9h Th')
>>> table_str(arrange(parse_cards("Qs Ks As 2c 3c Ac"), 0, [], decks=1))
'Ac 2c 3c | Qs Ks As'
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from operator import itemgetter
from types import ModuleType
from typing import Literal

from rummylab.cards import CARD_POINTS, JOKER, Card, card_str
from rummylab.errors import CardError
from rummylab.manipulation.sweep_tables import (
    GROUP_OK,
    MID_RANK_PARETO,
    SIG_INDEX,
    SIGMAS,
    pareto_info,
)
from rummylab.manipulation.table import (
    Meld,
    Table,
    TableCard,
    TableError,
    check_meld,
    check_pack,
    check_table,
    table_ok,
)

Objective = Literal["points", "cards"]

DEFAULT_STATE_CAP = 200_000
DEFAULT_NODE_CAP = 64  # sweeps per best_play; see _Search.run
_POINT_WEIGHT = 256  # value = points * 256 + cards: most points, then most cards
_CARD_WEIGHT = 4096  # value = cards * 4096 + points (objective "cards")
_ACE, _KING, _QUEEN = 0, 12, 11
_HIGH = 13  # the position of a high ace
_NO_CAP = 1 << 30


@dataclass(frozen=True, slots=True)
class Play:
    """A play: the hand cards laid (jokers as ``JOKER``) and the new table.

    ``exact`` is False only if a cap cut in (``state_cap`` in a sweep,
    ``node_cap`` in the search): the play is legal but another might shed
    more.
    """

    play: tuple[Card, ...]
    table: Table
    points_shed: int
    cards_shed: int
    exact: bool = True


# --- per-suit transitions ----------------------------------------------------------

# (sig after, cards to groups, valued copies, jokers, optional copies, detail)
_Option = tuple[int, int, int, int, int, int]


@cache
def _suit_options(
    decks: int, sig: int, req: int, opt: int, cap: int, zf: int, vcap: int, wmin: int,
    wmax: int, high: bool,
) -> tuple[_Option, ...]:
    """Every way one suit can place its copies at one position.

    ``req`` copies must be placed, up to ``opt`` optional ones (the first
    ``zf`` of them worth nothing and at most ``vcap`` worth something: a
    relaxation's), ``wmin``-``wmax`` jokers,
    ``cap`` copies at most. Each copy extends an open sequence, starts one,
    or goes into a group; a sequence not extended ends and must be 3 long.
    At the high-ace position (``high``) copies only end sequences of 2 or
    more and nothing goes into groups (an ace group is formed low). For the
    same outcome only the option with the most valued copies is kept.
    ``detail`` encodes which sequences were extended (bit mask) and how many
    started, for the rebuild.
    """
    lens = SIGMAS[decks][sig]
    index = SIG_INDEX[decks]
    best: dict[tuple[int, int, int], _Option] = {}
    for kopt in range(opt + 1):
        for kw in range(wmin, wmax + 1):
            n = req + kopt + kw
            if n > cap:
                break
            valued = min(max(0, kopt - zf), vcap)
            for g in range(0 if high else n, -1, -1) if not high else (0,):
                m = n - g
                for mask in range(1 << len(lens)):
                    ext = [i for i in range(len(lens)) if mask >> i & 1]
                    if len(ext) > m or any(lens[i] != 3 for i in range(len(lens)) if i not in ext):
                        continue
                    new = m - len(ext)
                    if high:
                        if new or any(lens[i] < 2 for i in ext):
                            continue
                        sig2 = 0
                    else:
                        sig2 = index[tuple(sorted([min(lens[i] + 1, 3) for i in ext] + [1] * new))]
                    key = (sig2, g, kw)
                    got = best.get(key)
                    if got is None or got[2] < valued:
                        best[key] = (sig2, g, valued, kw, kopt, mask * 4 + new)
    return tuple(best.values())


# --- one sweep -------------------------------------------------------------------

# per position and suit: req, opt, cap, zf, vcap, wmin, wmax, high, unit value,
# tag digit (-1: none; see _Spec.layers)
_Layer = tuple[int, int, int, int, int, int, int, bool, int, int]
# per suit: (high, from required, from optional, jokers) fixed, or relaxed:
# None, or _VALUED when the hand holds aces of the suit (see _Spec.layers)
_AceSpec = tuple[int, int, int, int] | None | Literal["valued"]
_VALUED: Literal["valued"] = "valued"
_RELAXED = (None, _VALUED)


@dataclass(slots=True)
class _Spec:
    """One sweep: copies per identity and how the aces and jokers are fixed."""

    decks: int
    req: list[int]  # required copies per identity (naturals, kept jokers, forced hand cards)
    opt: list[int]  # optional copies (hand naturals)
    cap: list[int]  # most copies of each identity (D-24)
    unit: list[int]  # value of one optional copy, per rank
    jokers: int  # free jokers available
    forced: int  # free jokers that must be placed (changed table jokers)
    joker_value: int  # value of each free joker beyond ``forced`` (a hand joker)
    base: int  # value fixed outside the sweep
    aces: tuple[_AceSpec, ...]  # per suit
    kept: list[int]  # of ``req``: jokers keeping this identity
    forced_hand: list[int]  # of ``req``: hand naturals that must be played (D-16)
    # per relaxed suit: t of its r required aces are assumed low. Low, copies
    # beyond t count, high copies beyond r - t, each side at most the
    # optional count o. For a true play with a copies low and b high this is
    # at least a + b - r (a - t and b - (r - t) cannot both fall short, and
    # a + b - r <= o), and exactly that when the play has t required low:
    # the table's own split makes the bound tight for most plays.
    splits: tuple[int, ...] = (0, 0, 0, 0)
    cached: tuple[list[list[_Layer]], list[int]] | None = None  # layers()

    def tagged(self) -> list[int]:
        """The suits with a tag digit, in digit order."""
        return [s for s in range(4) if self.aces[s] == _VALUED]

    def layers(self) -> tuple[list[list[_Layer]], list[int]]:
        if self.cached is None:
            self.cached = self._layers()
        return self.cached

    def _layers(self) -> tuple[list[list[_Layer]], list[int]]:
        """The layer table and, per position, the most value still to come.

        A relaxed suit's two ace positions each draw on the whole supply
        and are valued as _Spec.splits says; a _VALUED suit's low position
        records in a tag digit how many of the hand's aces it valued, and
        the high position values at most the rest, so no hand ace is worth
        points twice. (That double count was the usual way a relaxed play
        went wrong: a hand ace laid both low and high.)
        """
        w = self.jokers
        tags = {s: i for i, s in enumerate(self.tagged())}
        out: list[list[_Layer]] = []
        for p in range(14):
            rank = _ACE if p == _HIGH else p
            unit = self.unit[rank]
            row: list[_Layer] = []
            for s in range(4):
                x = s * 13 + rank
                req, opt, cap = self.req[x], self.opt[x], self.cap[x]
                ace = self.aces[s]
                if p == 0:
                    if ace in _RELAXED:
                        t = self.splits[s]
                        # jokers as this ace: at most what the required leave (D-24)
                        wa = min(w, max(0, cap - req))
                        row.append((0, req + opt, cap, t, opt, 0, wa, False, unit,
                                    tags.get(s, -1)))
                    else:
                        assert isinstance(ace, tuple)
                        h, rq, op, _ = ace
                        row.append((req - rq, opt - op, cap - h, 0, _NO_CAP, 0, w, False, unit,
                                    -1))
                elif p == _HIGH:
                    if ace in _RELAXED:
                        t = self.splits[s]
                        wa = min(w, max(0, cap - req))
                        row.append((0, req + opt, cap, req - t, opt, 0, wa, True, unit,
                                    tags.get(s, -1)))
                    else:
                        assert isinstance(ace, tuple)
                        h, rq, op, wf = ace
                        row.append((rq + op, 0, h, 0, _NO_CAP, wf, wf, True, unit, -1))
                else:
                    row.append((req, opt, cap, 0, _NO_CAP, 0, w, False, unit, -1))
            out.append(row)
        ub = [0] * 15
        hand_jokers = max(0, self.jokers - self.forced) * self.joker_value
        ub[14] = hand_jokers
        for p in range(13, -1, -1):
            total = ub[p + 1]
            for req, opt, cap, zf, vcap, _, _, _, unit, _ in out[p]:
                # the most optional copies valued: min(opt, cap - req) - zf, at most vcap
                k = (opt if opt < cap - req else cap - req) - zf
                if k > 0:
                    total += unit * (k if k < vcap else vcap)
            ub[p] = total
        return out, ub


# --- the optional accelerator ---------------------------------------------------------

_accel: ModuleType | Literal[False] | None = None  # None: not decided yet; False: off


def use_accelerator(on: bool | None = None) -> bool:
    """Switch the numba kernel of the sweep on or off, and say whether it is on.

    The default (``on=None``): on if numba is importable (``pip install -e
    '.[fast]'`` from the checkout) and the environment variable ``RUMMYLAB_ACCEL`` is
    not ``0``. Both paths find the same play, tie for tie; only the speed
    differs. Asking for it when numba is missing leaves it off.
    """
    global _accel
    if on is None:
        on = os.environ.get("RUMMYLAB_ACCEL", "1").strip() not in ("0", "false", "no", "off")
    _accel = False
    if on:
        try:
            from rummylab.manipulation import _kernel
        except ImportError:
            return False
        _accel = _kernel
    return _accel is not False


def _kernel() -> ModuleType | None:
    if _accel is None:
        use_accelerator()
    return _accel or None


@dataclass(slots=True)
class _Result:
    value: int
    end_key: int
    parents: list[dict[int, int]] | None  # per layer: state -> parent * 1024 + option
    capped: bool
    # per layer, the option on the best state's path: (jokers, optional
    # copies, detail); the kernel gives these instead of ``parents``
    steps: list[tuple[int, int, int]] | None = None


def _sweep(spec: _Spec, bound: int, record: bool, state_cap: int) -> _Result | None:
    """The best final value above ``bound`` (None if none), optionally with
    the parent links to rebuild it.

    A state is an int: ``((sigs * 9**tags + tag digits) * 45 + group digits)
    * wb + jokers used``, the sigs one base-``nsig`` digit per suit, the tag
    digits those of the _VALUED suits, the group digits (5 * cards in groups +
    suits giving two) those of the rank being placed. Its value includes the
    hand jokers placed so far.
    """
    decks = spec.decks
    layers, ub = spec.layers()
    kernel = _kernel()
    if kernel is not None and spec.jokers < 15:
        got = kernel.run_sweep(
            layers, ub, decks, len(spec.tagged()), spec.jokers, spec.forced, spec.joker_value,
            spec.base, bound, record, state_cap, _joker_dominators(spec.jokers + 1, spec.forced))
        if got is None:
            return None
        value, end_key, was_capped, steps = got
        return _Result(value, end_key, None, was_capped, steps)
    nsig = len(SIGMAS[decks])
    wb = spec.jokers + 1
    gm = wb
    tm = 45 * wb  # tag digits
    sm = tm * 9 ** len(spec.tagged())  # sigs
    states: dict[int, int] = {0: spec.base}
    parents: list[dict[int, int]] | None = [] if record else None
    capped = False
    wtot = spec.jokers
    info = pareto_info(decks)
    ntags = len(spec.tagged())
    ace_unit = spec.unit[_ACE]
    closable = [all(x == 3 for x in sig) for sig in SIGMAS[decks]]
    jv = spec.joker_value
    forced = spec.forced
    for p in range(14):
        lim = bound - ub[p]  # a state worth lim or less cannot beat the bound
        states = {k: v for k, v in states.items() if v > lim}
        if not states:
            return None
        row = layers[p]
        for s in range(4):
            lay = row[s]
            req, opt, cap, zf, vcap, wmin, wmax, high, unit, tag = lay
            mult = sm * nsig**s
            tmult = tm * 9**tag
            last = s == 3
            new: dict[int, int] = {}
            par: dict[int, int] = {}
            if not req and not opt and not wmin and not (wmax and wtot):
                # nothing to place here (most cells of a small table): open
                # sequences of 3+ end, shorter ones die
                for key, v in states.items():
                    sig = key // mult % nsig
                    if sig:
                        if not closable[sig]:
                            continue
                        nk = key - sig * mult
                    else:
                        nk = key
                    if last:
                        grp = nk // gm % 45
                        if grp:
                            if not GROUP_OK[grp]:
                                continue
                            nk -= grp * gm
                    old = new.get(nk)
                    if old is None or v > old:
                        new[nk] = v
                        if record:
                            par[nk] = key * 1024  # option 0: place nothing
                states = new
                if parents is not None:
                    parents.append(par)
                if not states:
                    return None
                continue
            cache: dict[int, list[tuple[int, int, int]]] = {}
            for key, v in states.items():
                sig = key // mult % nsig
                w = key % wb
                ck = sig * wb + w
                if tag >= 0 and high:
                    digit = key // tmult % 9
                    ck = ck * 9 + digit
                lst = cache.get(ck)
                if lst is None:
                    lst = []
                    room = min(wmax, wtot - w)
                    if room >= wmin:
                        if tag >= 0 and high:  # what the low position left to value
                            opts = _suit_options(decks, sig, req, opt, cap, zf,
                                                 max(0, vcap - digit), wmin, room, high)
                        else:
                            opts = _suit_options(
                                decks, sig, req, opt, cap, zf, vcap, wmin, room, high
                            )
                        for oi, (sig2, g, valued, kw, _kopt, _) in enumerate(opts):
                            delta = (sig2 - sig) * mult + kw + (g * 5 + (g == 2)) * gm
                            if tag >= 0 and not high:  # the hand's aces valued low
                                delta += valued * tmult
                            # a joker placed once the forced ones are down is a hand joker
                            gain = valued * unit + jv * (
                                max(0, w + kw - forced) - max(0, w - forced))
                            lst.append((delta, gain, oi))
                    cache[ck] = lst
                for delta, gain, oi in lst:
                    nk = key + delta
                    if last:
                        grp = nk // gm % 45
                        if grp:
                            if not GROUP_OK[grp]:
                                continue
                            nk -= grp * gm
                    nv = v + gain
                    old = new.get(nk)
                    if old is None or nv > old:
                        new[nk] = nv
                        if record:
                            par[nk] = key * 1024 + oi
            # dominance pays at the end of a rank; mid-rank once states pile up
            if len(new) > (2 if last else MID_RANK_PARETO):
                new = _pareto(new, sm, wb, forced, info, ntags, ace_unit)
            if len(new) > state_cap:
                capped = True
                keep = heapq.nlargest(state_cap, new.items(), key=lambda kv: kv[1])
                new = dict(keep)
            states = new
            if parents is not None:
                parents.append(par)
            if not states:
                return None
    best_key, best = -1, bound
    for key, v in states.items():  # every sequence has ended
        w = key % wb
        if w < spec.forced:
            continue
        total = v
        if total > best:
            best_key, best = key, total
    if best_key < 0:
        return None
    return _Result(best, best_key, parents, capped)


def _pareto(states: dict[int, int], sm: int, wb: int, forced: int,
            info: list[tuple[int, int, int]], ntags: int = 0, ace_unit: int = 0
            ) -> dict[int, int]:
    """Keep the states no other state dominates: same group digits, in
    every suit open sequences that can do at least as much
    (``dominates``), no more jokers used unless all the forced ones are
    down (the rest are optional), and a value at least as high, by enough to
    make up for the tag digits (below). Whatever a dropped state could still
    do, its dominator can too, for as much (so this is exact), and the
    survivors are few: a table rich in long sequences is often down to one
    state per rank.

    A tag digit counts the hand's aces of a suit valued low; the high ace
    position values at most the rest (``_Spec._layers``). So a state whose
    digit is higher by ``d`` can gain at most ``d`` aces' worth less there,
    and dominates only if its value is higher by that much: ``ace_unit``
    times the sum over the tags of the digits it has in excess.

    ``info[code]`` gives a bit per suit of the state's sigs, the bits of
    every sig dominating them, and a strength that orders dominators first
    among equal values; the jokers' bits are added from bit 40."""
    kept_by_rest: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
    out: dict[int, int] = {}
    wby = _joker_dominators(wb, forced)
    tm = 45 * wb
    # the order: higher values first, then (among equal values) the stronger
    # sigs, fewer jokers and lower tag digits, so that a dominator comes
    # before what it drops (and the order of the states otherwise)
    rows = []
    for i, (key, v) in enumerate(states.items()):
        code, rest = divmod(key, sm)
        ind, mask, strength = info[code]
        w = rest % wb
        if ntags:
            t = rest // tm
            digits = tuple(t // 9**k % 9 for k in range(ntags))
            tie = w + sum(digits) - strength * 8
        else:
            digits = ()
            tie = w - strength * 8
        rows.append((-v, tie, i, key, v, ind | 1 << (40 + w), mask | wby[w],
                     rest // wb % 45, digits))
    rows.sort()
    for _, _, _, key, v, ind, mask, rest, digits in rows:
        kept = kept_by_rest.get(rest)
        if kept is None:
            kept_by_rest[rest] = [(ind, v, digits)]
        else:
            for k, kv, kd in kept:
                if k & mask == k and (not ntags or kv - v >= ace_unit * sum(
                        a - b for a, b in zip(kd, digits, strict=True) if a > b)):
                    break
            else:
                kept.append((ind, v, digits))
                out[key] = v
            continue
        out[key] = v
    return out


@cache
def _joker_dominators(wb: int, forced: int) -> list[int]:
    """Per jokers used: the bits (from bit 40) of the counts that dominate
    it: itself, and fewer once the forced jokers are down (the rest are
    optional, and a state that placed fewer can still place them)."""
    return [sum(1 << (40 + a) for a in range(wb) if a == b or forced <= a <= b)
            for b in range(wb)]


# --- rebuilding the table ------------------------------------------------------------


def _path_steps(spec: _Spec, res: _Result) -> list[tuple[int, int, int]]:
    """Per layer, the option the best state's path took: (jokers, optional
    copies, detail), read back from the parent links."""
    if res.steps is not None:
        return res.steps
    assert res.parents is not None
    decks = spec.decks
    nsig = len(SIGMAS[decks])
    wb = spec.jokers + 1
    tm = 45 * wb
    sm = tm * 9 ** len(spec.tagged())
    layers, _ = spec.layers()
    steps: list[tuple[int, int, int]] = []
    key = res.end_key
    for idx in range(55, -1, -1):
        old, oi = divmod(res.parents[idx][key], 1024)
        key = old
        req, opt, cap, zf, vcap, wmin, wmax, high, _, tag = layers[idx // 4][idx % 4]
        room = min(wmax, spec.jokers - old % wb)
        if not req and not opt and not room:  # nothing placed: the open sequences end
            steps.append((0, 0, 0))
            continue
        if tag >= 0 and high:
            vcap = max(0, vcap - old // (tm * 9**tag) % 9)
        sig = old // (sm * nsig ** (idx % 4)) % nsig
        _sig2, _g, _, kw, kopt, detail = _suit_options(
            decks, sig, req, opt, cap, zf, vcap, wmin, room, high)[oi]
        steps.append((kw, kopt, detail))
    steps.reverse()
    return steps


def _rebuild(spec: _Spec, res: _Result) -> list[Meld]:
    """The melds of a recorded sweep. Of the required copies of a card
    (``spec.req``), the forced hand naturals are placed first, then the
    jokers keeping the identity, then naturals; further copies are hand
    naturals (the two ace positions share them)."""
    steps = _path_steps(spec, res)
    forced = list(spec.forced_hand)
    kept = list(spec.kept)
    layers, _ = spec.layers()
    melds: list[Meld] = []
    open_seqs: list[list[list[TableCard]]] = [[], [], [], []]
    for p in range(14):
        rank = _ACE if p == _HIGH else p
        row = layers[p]
        groups: list[list[TableCard]] | None = None
        for s in range(4):
            kw, kopt, detail = steps[p * 4 + s]
            lay = row[s]
            n = lay[0] + kopt
            seqs = open_seqs[s]
            if not n and not kw:  # nothing placed: the open sequences end
                if seqs:
                    melds.extend(tuple(seq) for seq in seqs)
                    open_seqs[s] = []
                continue
            x = s * 13 + rank
            tc = (x, x)
            f = forced[x]
            k = kept[x]
            if f or k:
                f = min(f, n)
                k = min(k, n - f)
                forced[x] -= f
                kept[x] -= k
                items = [tc] * f + [(JOKER, x)] * k + [tc] * (n - f - k)
            else:
                items = [tc] * n
            if kw:
                items += [(JOKER, x)] * kw
            mask, new = divmod(detail, 4)
            nxt: list[list[TableCard]] = []
            pos = 0
            for i, seq in enumerate(seqs):
                if mask >> i & 1:
                    seq.append(items[pos])
                    pos += 1
                    nxt.append(seq)
                else:
                    melds.append(tuple(seq))
            for _ in range(new):
                nxt.append([items[pos]])
                pos += 1
            if pos < len(items):
                if groups is None:
                    groups = [[], [], [], []]
                groups[s] = items[pos:]
            if lay[7]:  # the high ace ends every sequence
                melds.extend(tuple(seq) for seq in nxt)
                nxt = []
            elif len(nxt) == 2:
                if min(len(nxt[0]), 3) > min(len(nxt[1]), 3):
                    nxt.reverse()  # shorter first, as the sigs sort their lengths
            elif len(nxt) > 2:  # pragma: no cover - two decks open at most two
                nxt.sort(key=lambda q: min(len(q), 3))
            open_seqs[s] = nxt
        if groups is not None:
            melds.extend(_split_groups(groups))
    out: list[Meld] = []
    for meld in melds:
        if len(meld) == 14:  # A-...-K-A: two sequences (a sequence holds each rank once)
            out += [meld[:7], meld[7:]]
        else:
            out.append(meld)
    return out


def _split_groups(by_suit: list[list[TableCard]]) -> list[Meld]:
    """Deal one rank's group cards into groups of distinct suits, 3-4 each."""
    total = sum(len(c) for c in by_suit)
    if not total:
        return []
    groups: list[list[TableCard]] = [[] for _ in range(1 if total <= 4 else 2)]
    for cards in sorted(by_suit, key=len, reverse=True):
        for i, tc in enumerate(cards):
            # a suit's two copies go to different groups, others to the smaller group
            target = groups[i] if len(cards) == 2 else min(groups, key=len)
            target.append(tc)
    return [tuple(sorted(g, key=_BY_IDENTITY)) for g in groups]


_BY_IDENTITY = itemgetter(1, 0)


# --- the problem and the search -------------------------------------------------------


@dataclass(slots=True)
class _Problem:
    """Everything fixed for one solve (copies per card, 52 entries each)."""

    decks: int
    table_real: list[int]  # required naturals (the table's; for arrange_with also the added)
    table_jokers: list[Card]  # identities of the table jokers that may change (D-16)
    fixed_jokers: list[Card]  # identities of jokers that never change (arrange)
    hand_real: list[int]  # optional naturals
    hand_jokers: int  # optional jokers, worth ``joker_value`` each
    forced_jokers: int  # free jokers that must be placed
    cap: list[int]  # most copies of each identity (D-24)
    unit: list[int]  # value of an optional natural, per rank
    joker_value: int
    natural_high: list[int]  # per suit: aces playing high on the current table
    aces_high: bool
    state_cap: int
    node_cap: int = 10**9


# which table jokers change identity (None: all free, D-16 relaxed), hand
# naturals that D-16 forces into play
_JokerChoice = tuple[tuple[int, ...] | None, tuple[int, ...]]
_NO_FORCED = (0,) * 52


def _joker_choices(pr: _Problem) -> list[_JokerChoice]:
    """Every set of table jokers that may change identity under D-16: a real
    card of each old identity must be on the table (from the hand if need be)."""
    out: list[_JokerChoice] = []
    n = len(pr.table_jokers)
    for k in range(n + 1):
        for changed in combinations(range(n), k):
            need = [0] * 52
            for j in changed:
                need[pr.table_jokers[j]] += 1
            forced = [max(0, need[x] - pr.table_real[x]) for x in range(52)]
            if all(forced[x] <= pr.hand_real[x] for x in range(52)):
                out.append((changed, tuple(forced)))
    return out


def _make_spec(pr: _Problem, jc: _JokerChoice, hand_jokers: int,
               aces: Sequence[_AceSpec | Literal["auto"]]) -> _Spec:
    """The sweep for a joker choice and per-suit ace choices (a fixed
    choice or relaxed; "auto": the suit's only choice if it has one, else
    relaxed, _VALUED if the hand holds aces of the suit)."""
    changed, forced_hand = jc
    req = list(pr.table_real)
    opt = list(pr.hand_real)
    kept = [0] * 52
    for x in pr.fixed_jokers:
        kept[x] += 1
    if changed is None:  # relaxed: every table joker is free, D-16 not enforced
        free = len(pr.table_jokers)
    else:
        free = len(changed)
        for j, x in enumerate(pr.table_jokers):
            if j not in changed:
                kept[x] += 1
    base = 0
    for x in range(52):
        req[x] += kept[x] + forced_hand[x]
        opt[x] -= forced_hand[x]
        base += forced_hand[x] * pr.unit[x % 13]
    forced = free + pr.forced_jokers
    spec = _Spec(
        decks=pr.decks, req=req, opt=opt, cap=pr.cap, unit=pr.unit,
        jokers=forced + hand_jokers, forced=forced, joker_value=pr.joker_value,
        base=base, aces=(None,) * 4, kept=kept, forced_hand=list(forced_hand),
    )
    fixed: list[_AceSpec] = []
    for s, a in enumerate(aces):
        if a == "auto":
            choices = _suit_ace_choices(pr, spec, s)
            a = choices[0] if len(choices) == 1 else _VALUED if spec.opt[s * 13 + _ACE] else None
        fixed.append(a)
        if isinstance(a, tuple):  # the hand's aces fixed high are valued here
            spec.base += pr.unit[_ACE] * a[2]
    spec.aces = tuple(fixed)
    spec.splits = tuple(
        max(0, spec.req[s * 13 + _ACE] - pr.natural_high[s]) for s in range(4)
    )
    return spec


def _suit_ace_choices(pr: _Problem, spec: _Spec, s: int) -> list[tuple[int, int, int, int]]:
    """Ways to fix the aces of suit ``s`` playing high: (copies, from the
    required, from the optional, jokers); the table's current count first.
    Required copies go high first and optional ones before jokers when the
    counts allow: the copies of one identity are interchangeable."""
    x = s * 13 + _ACE
    req, opt, cap = spec.req[x], spec.opt[x], spec.cap[x]
    out: list[tuple[int, int, int, int]] = []
    top = min(cap, pr.decks) if pr.aces_high else 0
    for h in range(top + 1):
        if h and not _can_end_high(spec, s, h):
            break
        rq = min(h, req)
        rest = h - rq
        for op in range(min(rest, opt), -1, -1):
            if rest - op <= spec.jokers:
                out.append((h, rq, op, rest - op))
    nat = pr.natural_high[s]
    out.sort(key=lambda a: (a[0] != nat, a[0]))
    return out


def _can_end_high(spec: _Spec, s: int, h: int) -> bool:
    """Could ``h`` sequences of suit ``s`` end Q-K-A at all?"""
    for rank in (_QUEEN, _KING, _ACE):
        x = s * 13 + rank
        if min(spec.cap[x], spec.req[x] + spec.opt[x] + spec.jokers) < h:
            return False
    return True


@dataclass(slots=True)
class _Found:
    value: int
    spec: _Spec
    result: _Result | None  # with parents, if the sweep recorded them
    melds: list[Meld] | None = None  # rebuilt already


@dataclass(slots=True)
class _Inspection:
    """A node's best play read as a real play (see ``_Search._inspect``)."""

    value: int | None  # its value if it is a legal play
    bad_suits: list[int]  # suits whose aces are used beyond the supply or the cap
    d16_ok: bool
    high: list[int]  # per suit: aces played high
    changed: list[int]  # per card: table jokers that left it


# a node of the search: joker choice (changed None: relaxed), per suit aces fixed or None
_Node = tuple[_JokerChoice, tuple[_AceSpec, ...]]


class _Search:
    """Best-first search over joker and ace choices, one sweep per node.

    A node's sweep relaxes what it has not fixed, so its value bounds all
    the nodes below it; a node with nothing relaxed is exact.
    """

    def __init__(self, pr: _Problem) -> None:
        self.pr = pr
        self.capped = False
        self.sweeps = 0

    def sweep(self, spec: _Spec, bound: int, record: bool = False) -> _Result | None:
        self.sweeps += 1
        res = _sweep(spec, bound, record, self.pr.state_cap)
        if res is not None and res.capped:
            self.capped = True
        return res

    def _spec(self, node: _Node) -> tuple[_Spec, bool]:
        jc, aces = node
        spec = _make_spec(self.pr, jc, self.pr.hand_jokers,
                          [a if a is not None else "auto" for a in aces])
        return spec, jc[0] is not None and all(a not in _RELAXED for a in spec.aces)

    def _children(self, node: _Node, seen: _Inspection) -> list[_Node]:
        """Split a node on what its relaxed play got wrong: the table jokers
        if D-16 failed (one child per joker choice, the nearest first), else
        carry exactly the aces of a suit it used beyond the supply, the cap or
        their worth (one child)."""
        jc, aces = node
        if jc[0] is None and not seen.d16_ok:
            def joker_distance(c: _JokerChoice) -> int:
                changed = c[0] or ()
                return sum(abs(sum(1 for j in changed if self.pr.table_jokers[j] == x)
                               - seen.changed[x]) for x in set(self.pr.table_jokers))
            return [(c, aces) for c in sorted(_joker_choices(self.pr), key=joker_distance)]
        bad = [s for s in dict.fromkeys(seen.bad_suits) if aces[s] is None]
        if not bad:  # pragma: no cover - a safety net
            bad = [s for s in range(4) if aces[s] is None]
        if bad:
            s = bad[0]
            spec = _make_spec(self.pr, jc, self.pr.hand_jokers, [None] * 4)
            high = seen.high[s]
            choices = sorted(_suit_ace_choices(self.pr, spec, s), key=lambda a: abs(a[0] - high))
            return [(jc, tuple(a if i == s else aces[i] for i in range(4))) for a in choices]
        if jc[0] is None:  # pragma: no cover
            return [(c, aces) for c in _joker_choices(self.pr)]
        raise AssertionError("a relaxed play that is wrong nowhere")  # pragma: no cover

    def run(self, bound: int) -> _Found | None:
        """The best exact value above ``bound``, with its sweep.

        Best-first over nodes, each a sweep that relaxes the choices not yet
        fixed. A node whose best play happens to be legal (no ace used
        beyond the supply, D-16 kept) is solved exactly; otherwise it splits
        on what went wrong, and its children wait in the queue with its
        bound until they are popped. When the root's play is not legal, a
        warm start (every table joker kept, the aces as the table plays them)
        gives a legal play and a bound to prune with. After ``node_cap``
        sweeps the best play found so far is returned and marked inexact.
        """
        best: _Found | None = None
        root: _Node = ((None if self.pr.table_jokers else ()), _NO_FORCED), (None,) * 4
        tie = 0
        heap: list[tuple[int, int, _Node, _Inspection | None]] = [(0, 0, root, None)]
        first = True
        # With table jokers the relaxed root (every table joker free) is the
        # costliest sweep: the warm start comes first, and the root need only
        # find plays at least as good (ties kept: the root's play wins them).
        warm = self._warm(bound) if self.pr.table_jokers else None
        while heap:
            neg, _, node, seen = heapq.heappop(heap)
            if not first and -neg <= bound:
                break
            if seen is None:
                if self.sweeps >= self.pr.node_cap:
                    self.capped = True
                    break
                spec, complete = self._spec(node)
                res = self.sweep(spec, warm.value - 1 if first and warm else bound, record=True)
                if res is None:
                    if first and warm is not None:
                        best, bound = warm, warm.value
                    first = False
                    continue
                melds = self._melds(spec, res)
                seen = self._inspect(spec, melds)
                if complete or seen.value == res.value:
                    best, bound = _Found(res.value, spec, res, melds), res.value
                    first = False
                    continue
                if first:
                    if warm is None and not self.pr.table_jokers:
                        warm = self._warm(bound)
                    if warm is not None:
                        best, bound = warm, warm.value
                tie += 1
                heapq.heappush(heap, (-res.value, tie, node, seen))
            else:
                for child in self._children(node, seen):
                    tie += 1
                    heapq.heappush(heap, (neg, tie, child, None))
            first = False
        return best

    def _warm(self, bound: int) -> _Found | None:
        """A legal play: every table joker keeps its identity, hand jokers
        free, the aces as the table plays them."""
        pr = self.pr
        plain = _make_spec(pr, ((), _NO_FORCED), pr.hand_jokers, [None] * 4)
        spec = _make_spec(pr, ((), _NO_FORCED), pr.hand_jokers, [
            (_suit_ace_choices(pr, plain, s) or [(0, 0, 0, 0)])[0] for s in range(4)
        ])
        res = self.sweep(spec, bound, record=True)
        return None if res is None else _Found(res.value, spec, res)

    def _melds(self, spec: _Spec, res: _Result) -> list[Meld]:
        return _rebuild(spec, res)

    def _inspect(self, spec: _Spec, melds: list[Meld]) -> _Inspection:
        """How a node's best play fares as a real play: its value if legal;
        the relaxed suits whose aces are used beyond the supply or the cap
        (D-24) or valued above what they shed; whether D-16 holds; per suit
        the aces played high; per card how many table jokers left it."""
        pr = self.pr
        real = [0] * 52
        ids = [0] * 52
        real_high = [0] * 4
        joker_high = [0] * 4
        new_jokers: list[Card] = []
        for meld in melds:
            ranks = {f % 13 for _, f in meld}
            is_high = len(ranks) > 1 and _KING in ranks and 1 not in ranks
            for card, f in meld:
                ids[f] += 1
                if card == JOKER:
                    new_jokers.append(f)
                    if is_high and f % 13 == _ACE:
                        joker_high[f // 13] += 1
                else:
                    real[f] += 1
                    if is_high and f % 13 == _ACE:
                        real_high[f // 13] += 1
        value = 0
        bad: list[int] = []
        for x in range(52):
            extra = real[x] - pr.table_real[x]
            if ids[x] > pr.cap[x] or extra < 0 or extra > pr.hand_real[x]:
                bad.append(x // 13)
            value += extra * pr.unit[x % 13]
        for s in range(4):
            x = s * 13 + _ACE
            if spec.aces[s] in _RELAXED and s not in bad:
                # the relaxation's value for the suit's aces (_Spec.splits): more
                # than they shed if the play's split is not the assumed one
                low, hi = real[x] - real_high[s], real_high[s]
                r, o, t = spec.req[x], spec.opt[x], spec.splits[s]
                valued_low = min(max(0, low - t), o)
                rest = o - valued_low if spec.aces[s] == _VALUED else o
                relaxed = valued_low + min(max(0, hi - r + t), rest)
                if relaxed != low + hi - r:
                    bad.append(s)
        hand_jokers = (len(new_jokers) - len(pr.table_jokers) - len(pr.fixed_jokers)
                       - pr.forced_jokers)
        value += hand_jokers * pr.joker_value
        left = _counts(new_jokers)
        for x in pr.fixed_jokers:
            left[x] -= 1
        changed = [0] * 52
        for x in pr.table_jokers:  # a joker keeps its identity where it can
            if left[x] > 0:
                left[x] -= 1
            else:
                changed[x] += 1
        d16_ok = all(changed[x] <= real[x] for x in range(52))
        high = [real_high[s] + joker_high[s] for s in range(4)]
        ok = not bad and d16_ok
        return _Inspection(value if ok else None, bad, d16_ok, high, changed)

    def finish(self, found: _Found) -> tuple[list[Meld], list[Card]]:
        """Rebuild the winning sweep: its melds and the hand cards played."""
        melds = found.melds
        if melds is None:
            res = found.result
            if res is None:
                res = self.sweep(found.spec, found.value - 1, record=True)
                assert res is not None and res.value == found.value
            melds = self._melds(found.spec, res)
        pr = self.pr
        real = [0] * 52
        jokers = 0
        for meld in melds:
            for card, _ in meld:
                if card == JOKER:
                    jokers += 1
                else:
                    real[card] += 1
        played = [x for x in range(52) for _ in range(real[x] - pr.table_real[x])]
        played += [JOKER] * (jokers - len(pr.table_jokers) - len(pr.fixed_jokers)
                             - pr.forced_jokers)
        return melds, played


# --- public API -----------------------------------------------------------------


def _counts(cards: Iterable[Card]) -> list[int]:
    out = [0] * 52
    for c in cards:
        out[c] += 1
    return out


def _units(objective: Objective) -> tuple[list[int], int]:
    pts = [CARD_POINTS[r] for r in range(13)]
    if objective == "points":
        return [p * _POINT_WEIGHT + 1 for p in pts], 25 * _POINT_WEIGHT + 1
    if objective == "cards":
        return [_CARD_WEIGHT + p for p in pts], _CARD_WEIGHT + 25
    raise ValueError(f"objective must be 'points' or 'cards', not {objective!r}")


def _ace_high(meld: Meld) -> bool:
    """Does this meld play an ace high? (A sequence with a king and no 2.)"""
    ranks = {f % 13 for _, f in meld}
    return len(ranks) > 1 and _ACE in ranks and _KING in ranks and 1 not in ranks


def _natural_high(table: Table) -> list[int]:
    """Aces playing high in the table's sequences, per suit."""
    out = [0] * 4
    for meld in table:
        if _ace_high(meld):
            out[meld[0][1] // 13] += 1
    return out


def _identity_caps(table: Table, decks: int) -> list[int]:
    """Copies of each card still free beside an untouched table (D-24)."""
    counts = [0] * 52
    for meld in table:
        for _, f in meld:
            counts[f] += 1
    return [max(0, decks - n) for n in counts]


def _order_table(melds: Iterable[Meld]) -> Table:
    """A deterministic order: groups by rank, then sequences by suit and start."""
    def key(m: Meld) -> tuple[int, int, int, Meld]:
        first = m[0][1]
        if len({f % 13 for _, f in m}) == 1:
            return (0, first % 13, 0, m)
        return (1, first // 13, first % 13, m)

    return tuple(sorted(melds, key=key))


def _split_hand(hand: Iterable[Card], table: Table, decks: int) -> tuple[list[Card], int]:
    """The hand's naturals and jokers, once ``table`` (checked) and the hand
    fit the pack (raises as ``check_table`` then ``check_pack`` would)."""
    cards = list(hand)
    if table_ok(table, decks, cards):
        naturals = [c for c in cards if c != JOKER]
        return naturals, len(cards) - len(naturals)
    check_table(table, decks)
    for c in cards:
        if not 0 <= c <= JOKER:
            raise CardError(f"not a card index: {c}")
    naturals = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    check_pack(table, decks, [*naturals, *[JOKER] * jokers])
    return naturals, jokers


def best_play(
    table: Table,
    hand: Iterable[Card],
    decks: int,
    *,
    first_meld_from_hand_only: bool = False,
    objective: Objective = "points",
    aces_high: bool = True,
    state_cap: int = DEFAULT_STATE_CAP,
    node_cap: int = DEFAULT_NODE_CAP,
) -> Play | None:
    """The play that sheds the most points (§4.9; ties: the most cards), or
    None if no card of ``hand`` can be played.

    Every table card stays on the table in a legal meld (§4.6); table jokers
    keep their identity or change it under D-16; hand jokers take any
    identity; no card is represented more often than there are decks
    (D-24). With ``first_meld_from_hand_only`` (option
    ``initial_meld_from_hand``, D-25) the table is left as it is and the
    play is new melds of hand cards only. ``objective="cards"`` maximises
    the cards shed instead (ties: the most points); ``aces_high=False``
    forbids Q-K-A (for comparisons with Rummikub, whose 1 never follows 13).
    ``state_cap`` bounds the states of a sweep layer, ``node_cap`` the
    sweeps of the search; a play found after either cut in is legal but
    reported with ``exact=False``. (The defaults leave every position we
    have measured exact except some with jokers on large two-deck tables,
    which hit ``node_cap``; a far smaller ``state_cap`` can miss every play
    and return None.)

    >>> from rummylab.cards import parse_cards, cards_str
    >>> from rummylab.manipulation.table import parse_table, table_str
    >>> t = parse_table("4c 5c 6c 7c | 7d 7h 7s", decks=1)
    >>> p = best_play(t, parse_cards("8c 9d Kd"), decks=1)
    >>> cards_str(p.play), table_str(p.table)
    ('8c', '7d 7h 7s | 4c 5c 6c 7c 8c')
    """
    naturals, hand_jokers = _split_hand(hand, table, decks)
    unit, joker_value = _units(objective)
    if first_meld_from_hand_only:
        pr = _Problem(
            decks, [0] * 52, [], [], _counts(naturals), hand_jokers, 0,
            _identity_caps(table, decks), unit, joker_value, [0] * 4, aces_high, state_cap,
        )
    else:
        pr = _Problem(
            decks, _counts(c for meld in table for c, _ in meld if c != JOKER),
            [f for meld in table for c, f in meld if c == JOKER], [], _counts(naturals),
            hand_jokers, 0, [decks] * 52, unit, joker_value, _natural_high(table),
            aces_high, state_cap,
        )
    pr.node_cap = node_cap
    search = _Search(pr)
    found = search.run(0)  # a play sheds at least one card
    if found is None:
        return None
    melds, played = search.finish(found)
    new_table = _order_table(melds)
    if first_meld_from_hand_only:
        new_table = tuple(table) + new_table
    played.sort()
    points = sum(CARD_POINTS[c] for c in played)
    return Play(tuple(played), new_table, points, len(played), not search.capped)


def may_play(
    table: Table,
    hand: Iterable[Card],
    *,
    first_meld_from_hand_only: bool = False,
) -> bool:
    """False only if no play exists: no hand card could be in any meld.

    A played card ends in a meld of at least three cards of the table and
    the hand: a group (two more suits of its rank) or a sequence (three
    consecutive cards of its suit around it), jokers filling any gap. This
    asks that much of each hand card, and nothing else (the representation
    cap, D-16 and the rest of the table are ignored), so it is a necessary
    condition; with ``quick_play`` (a sufficient one) the engine settles
    most turns without solving.

    >>> from rummylab.cards import parse_cards
    >>> from rummylab.manipulation.table import parse_table
    >>> may_play(parse_table("7h 8h 9h", 1), parse_cards("2c Jh"))
    False
    >>> may_play(parse_table("7h 8h 9h", 1), parse_cards("2c Jh Jk", jokers=True))
    True
    """
    cards = list(hand)
    naturals = [c for c in cards if 0 <= c < 52]
    jokers = len(cards) - len(naturals)
    if jokers:
        return True  # a hand joker joins almost anything: the solver decides
    present = [False] * 52
    for c in naturals:
        present[c] = True
    if not first_meld_from_hand_only:
        for meld in table:
            for card, _ in meld:
                if card == JOKER:
                    jokers += 1
                else:
                    present[card] = True
    for c in naturals:
        r, s = c % 13, c // 13
        others = sum(1 for t in range(4) if t != s and present[t * 13 + r])
        if others + jokers >= 2:
            return True
        p = r + 1  # positions 1 (low ace) .. 14 (high ace)
        for q in range(p - 2, p + 1):  # windows q, q+1, q+2 holding p
            if q < 1 or q + 2 > 14:
                continue
            missing = sum(1 for x in range(q, q + 3)
                          if x != p and not present[s * 13 + (x - 1) % 13])
            if missing <= jokers:
                return True
        if r == _ACE and (present[s * 13 + _QUEEN] + present[s * 13 + _KING]) + jokers >= 2:
            return True  # the ace high: Q-K-A
    return False


def quick_play(
    table: Table,
    hand: Iterable[Card],
    decks: int,
    *,
    first_meld_from_hand_only: bool = False,
) -> tuple[tuple[Card, ...], Table] | None:
    """A simple legal play if there is one: a hand card laid off on a meld
    (a group's missing suit, a sequence's next card at either end; a hand
    joker declared as such a card) or a new meld of three hand naturals;
    else None (which does not mean that no play exists: ``best_play`` may
    still rearrange the table).

    Cheap (no search), and exact when it answers: every other meld stands
    as it is, no joker moves, and the changed meld and the representation
    cap (D-24) are checked. The engine uses it to show ``meld best`` without
    solving. Returns the cards played and the new table.

    >>> from rummylab.cards import parse_cards, cards_str
    >>> from rummylab.manipulation.table import parse_table, table_str
    >>> played, new = quick_play(parse_table("7h 8h 9h", 1), parse_cards("2c Th"), 1)
    >>> cards_str(played), table_str(new)
    ('Th', '7h 8h 9h Th')
    >>> quick_play(parse_table("7h 8h 9h", 1), parse_cards("2c Jh"), 1) is None
    True
    """
    cards = list(hand)
    naturals = sorted({c for c in cards if 0 <= c < 52})
    joker = JOKER in cards
    have = set(naturals)
    count = [0] * 52
    for meld in table:
        for _, f in meld:
            count[f] += 1

    def legal(meld: Meld) -> bool:
        try:
            check_meld(meld)
        except TableError:
            return False
        return True

    if not first_meld_from_hand_only:
        for i, meld in enumerate(table):
            ids = {f for _, f in meld}
            ranks = {f % 13 for f in ids}
            wanted: list[Card] = []
            if len(ranks) == 1:  # a group: the suits it lacks
                r = next(iter(ranks))
                wanted = [s * 13 + r for s in range(4) if s * 13 + r not in ids]
            else:  # a sequence: the card before and after (1 = low ace .. 14 = high ace)
                s = next(iter(ids)) // 13
                high = _ACE in ranks and _KING in ranks and 1 not in ranks
                pos = [14 if high and f % 13 == _ACE else f % 13 + 1 for f in ids]
                wanted = [s * 13 + (q - 1) % 13 for q in (min(pos) - 1, max(pos) + 1)
                          if 1 <= q <= 14]
            for c in wanted:
                if count[c] < decks and (c in have or joker):
                    card = c if c in have else JOKER  # a hand joker declared as c
                    new_meld = (*meld, (card, c))
                    if legal(new_meld):
                        return (card,), (*table[:i], new_meld, *table[i + 1:])
    for c in naturals:  # a new meld of three: a group of c's rank or a sequence from c
        if count[c] >= decks:
            continue
        r, s = c % 13, c // 13
        group = [t * 13 + r for t in range(4)
                 if t * 13 + r in have and count[t * 13 + r] < decks]
        candidates = [group[:3]] if len(group) >= 3 else []
        candidates.append([s * 13 + (r + k) % 13 for k in range(3)] if r <= 11 else [])
        for cards in candidates:
            if len(cards) == 3 and all(x in have and count[x] < decks for x in cards):
                new_meld = tuple((x, x) for x in cards)
                if legal(new_meld):
                    return tuple(sorted(cards)), (*table, new_meld)
    return None


def arrange(
    cards: Iterable[Card],
    jokers_free: int,
    fixed_jokers: Sequence[Card],
    decks: int,
    *,
    aces_high: bool = True,
    state_cap: int = DEFAULT_STATE_CAP,
) -> Table | None:
    """Arrange all of ``cards`` (naturals), ``jokers_free`` jokers of free
    identity and jokers declared as ``fixed_jokers`` into legal melds, or
    None if they cannot be. No card is represented more than ``decks`` times
    (D-24).

    >>> from rummylab.cards import parse_cards
    >>> from rummylab.manipulation.table import table_str
    >>> table_str(arrange(parse_cards("5h 7h 8h 8c 8d"), 1, [], decks=1))
    '8c 8d 8h | 5h Jk=6h 7h'
    >>> arrange(parse_cards("5h 7h 8h 8c 8d"), 0, [], decks=1) is None
    True
    """
    naturals = list(cards)
    for c in naturals:
        if not 0 <= c < 52:
            raise CardError(f"not a natural card: {c!r}")
    for x in fixed_jokers:
        if not 0 <= x < 52:
            raise TableError(f"a joker must declare a card, not {x!r}")
    if jokers_free < 0:
        raise TableError("jokers_free cannot be negative")
    check_pack((), decks, [*naturals, *[JOKER] * (jokers_free + len(fixed_jokers))])
    unit, joker_value = _units("points")
    pr = _Problem(
        decks, _counts(naturals), [], list(fixed_jokers), [0] * 52, 0, jokers_free,
        [decks] * 52, unit, joker_value, [0] * 4, aces_high, state_cap,
    )
    search = _Search(pr)
    found = search.run(-1)
    if found is None:
        return None
    return _order_table(search.finish(found)[0])


def arrange_with(
    table: Table,
    add: Iterable[Card],
    decks: int,
    *,
    first_meld_from_hand_only: bool = False,
    aces_high: bool = True,
    state_cap: int = DEFAULT_STATE_CAP,
) -> Table | None:
    """A legal arrangement of ``table`` plus all of ``add`` (hand cards,
    jokers as ``JOKER``), or None: the engine's "add these cards" action.
    Table jokers keep their identity or change it under D-16; with
    ``first_meld_from_hand_only`` (D-25) the added cards form new melds of
    their own beside the untouched table.

    >>> from rummylab.cards import parse_cards
    >>> from rummylab.manipulation.table import parse_table, table_str
    >>> t = parse_table("5h 6h Jk=7h", decks=1)
    >>> table_str(arrange_with(t, parse_cards("7h 7c 7d"), decks=1))
    '7c 7d Jk=7s | 5h 6h 7h'
    """
    naturals, jokers = _split_hand(add, table, decks)
    if not naturals and not jokers:
        raise TableError(
            "no card added from hand: a meld plays at least one card from the hand (§4.6)"
        )
    unit, joker_value = _units("points")
    if first_meld_from_hand_only:
        pr = _Problem(
            decks, _counts(naturals), [], [], [0] * 52, 0, jokers,
            _identity_caps(table, decks), unit, joker_value, [0] * 4, aces_high, state_cap,
        )
    else:
        real = _counts([*(c for meld in table for c, _ in meld if c != JOKER), *naturals])
        pr = _Problem(
            decks, real, [f for meld in table for c, f in meld if c == JOKER], [],
            [0] * 52, 0, jokers, [decks] * 52, unit, joker_value, _natural_high(table),
            aces_high, state_cap,
        )
    search = _Search(pr)
    found = search.run(-1)
    if found is None:
        return None
    melds = _order_table(search.finish(found)[0])
    return tuple(table) + melds if first_meld_from_hand_only else melds


def play_str(play: Play) -> str:
    """The cards played, the new table and what they shed."""
    from rummylab.manipulation.table import table_str

    cards = " ".join(card_str(c) for c in play.play)
    note = "" if play.exact else "; a state cap was hit: a better play may exist"
    return (f"{cards} -> {table_str(play.table)} ({play.points_shed} points, "
            f"{play.cards_shed} cards{note})")
