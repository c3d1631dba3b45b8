"""The sweep of the Manipulation solver compiled with numba (optional).

``solver._sweep`` hands its layer table here when numba is importable and
the accelerator is on (see ``solver.use_accelerator``). The kernel is the
pure-Python sweep step for step: the same states in the same order, the
same options in the same order (``suit_options`` is ``solver._suit_options``),
the same dominance (``_pareto``) and the same state cap, so that both find
the same play, tie for tie (records and replays do not depend on whether
numba is installed). The parity test is ``tests/test_manipulation_kernel.py``.
Both read their fixed tables from ``sweep_tables``; the kernel never imports the
solver (no import circle).

Not imported by the package unless numba is installed: this module imports
numba and numpy at its top.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from rummylab.manipulation.sweep_tables import GROUP_OK, MID_RANK_PARETO, SIGMAS, pareto_info

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(f: _F) -> _F:
    """Compiled on first call, and cached on disk (``__pycache__``) for the next process."""
    return cast(_F, njit(cache=True)(f))

_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed 64-bit int


@_jit
def suit_options(out: np.ndarray, keypos: np.ndarray, sig_lens: np.ndarray,
                 sig_len: np.ndarray, sig_index: np.ndarray, sig: int, req: int, opt: int,
                 cap: int, zf: int, vcap: int, wmin: int, wmax: int, high: bool) -> int:
    """``solver._suit_options`` into ``out`` (rows: sig2, g, valued, kw,
    kopt, detail), in its order; returns the count. ``keypos`` is scratch
    (sig2, g, kw) -> row + 1, zero on entry and on return."""
    nl = sig_len[sig]
    count = 0
    for kopt in range(opt + 1):
        for kw in range(wmin, wmax + 1):
            n = req + kopt + kw
            if n > cap:
                break
            valued = min(max(0, kopt - zf), vcap)
            g = 0 if high else n
            while g >= 0:
                m = n - g
                for mask in range(1 << nl):
                    ne = 0
                    ok = True
                    for i in range(nl):
                        if mask >> i & 1:
                            ne += 1
                        elif sig_lens[sig, i] != 3:
                            ok = False
                    if not ok or ne > m:
                        continue
                    new = m - ne
                    if high:
                        if new:
                            continue
                        for i in range(nl):
                            if mask >> i & 1 and sig_lens[sig, i] < 2:
                                ok = False
                        if not ok:
                            continue
                        sig2 = 0
                    else:
                        # the extended lengths (+1, at most 3) and ``new`` ones, sorted
                        a = 0
                        b = 0
                        for i in range(nl):
                            if mask >> i & 1:
                                x = min(sig_lens[sig, i] + 1, 3)
                                if a == 0:
                                    a = x
                                else:
                                    b = x
                        for _ in range(new):
                            if a == 0:
                                a = 1
                            else:
                                b = 1
                        if b and b < a:
                            a, b = b, a
                        sig2 = sig_index[a, b]
                    got = keypos[sig2, g, kw]
                    if got == 0:
                        out[count, 0] = sig2
                        out[count, 1] = g
                        out[count, 2] = valued
                        out[count, 3] = kw
                        out[count, 4] = kopt
                        out[count, 5] = mask * 4 + new
                        count += 1
                        keypos[sig2, g, kw] = count
                    elif out[got - 1, 2] < valued:
                        r = got - 1
                        out[r, 2] = valued
                        out[r, 4] = kopt
                        out[r, 5] = mask * 4 + new
                g -= 1
    for r in range(count):
        keypos[out[r, 0], out[r, 1], out[r, 3]] = 0
    return count


@_jit
def _pareto(keys: np.ndarray, vals: np.ndarray, links: np.ndarray, n: int, record: bool,
            sm: int, wb: int, info_ind: np.ndarray, info_mask: np.ndarray,
            info_strength: np.ndarray, wby: np.ndarray, head: np.ndarray,
            scratch: np.ndarray, ntags: int, ace_unit: int) -> int:
    """``solver._pareto`` in place: the undominated states first, in its
    order; returns their count. ``head`` is scratch (group digits -> last
    kept index + 1), zero on entry and on return; so is ``scratch`` (11
    rows of at least ``n``)."""
    order_key = scratch[0]
    inds = scratch[1]
    masks = scratch[2]
    rests = scratch[3]
    tags = scratch[9]  # the tag digits, base 9
    tm = 45 * wb
    for i in range(n):
        key = keys[i]
        code = key // sm
        rest = key % sm
        w = rest % wb
        inds[i] = info_ind[code] | (np.int64(1) << (40 + w))
        masks[i] = info_mask[code] | wby[w]
        rests[i] = rest // wb % 45
        tie = w - info_strength[code] * 8
        if ntags:
            t = rest // tm
            tags[i] = t
            for _ in range(ntags):
                tie += t % 9
                t //= 9
        order_key[i] = -vals[i] * 2048 + (tie + 1024)
    order = np.argsort(order_key[:n], kind="mergesort")
    kept_ind = scratch[4]
    kept_next = scratch[5]
    kept_at = scratch[10]  # the state behind a kept entry
    nk = 0
    okeys = scratch[6]
    ovals = scratch[7]
    olinks = scratch[8]
    count = 0
    for j in range(n):
        i = order[j]
        rest = rests[i]
        ind = inds[i]
        first = head[rest]
        keep = True
        if first:
            mask = masks[i]
            k = first
            while k:
                if kept_ind[k - 1] & mask == kept_ind[k - 1]:
                    if not ntags:
                        keep = False
                        break
                    # the kept state's excess tag digits, paid for in value
                    a = kept_at[k - 1]
                    ta = tags[a]
                    tb = tags[i]
                    excess = 0
                    for _ in range(ntags):
                        da = ta % 9
                        db = tb % 9
                        if da > db:
                            excess += da - db
                        ta //= 9
                        tb //= 9
                    if vals[a] - vals[i] >= ace_unit * excess:
                        keep = False
                        break
                k = kept_next[k - 1]
        if keep:
            kept_ind[nk] = ind
            kept_next[nk] = first
            kept_at[nk] = i
            nk += 1
            head[rest] = nk
            okeys[count] = keys[i]
            ovals[count] = vals[i]
            if record:
                olinks[count] = links[i]
            count += 1
    for j in range(n):
        head[rests[j]] = 0
    keys[:count] = okeys[:count]
    vals[:count] = ovals[:count]
    if record:
        links[:count] = olinks[:count]
    return count


@_jit
def sweep(layers: np.ndarray, ub: np.ndarray, decks: int, nsig: int, ntags: int, wtot: int,
          forced: int, jv: int, base: int, bound: int, record: bool, state_cap: int,
          sig_lens: np.ndarray, sig_len: np.ndarray, sig_index: np.ndarray,
          closable: np.ndarray, group_ok: np.ndarray, info_ind: np.ndarray,
          info_mask: np.ndarray, info_strength: np.ndarray,
          wby: np.ndarray, mid_pareto: int) -> tuple[int, int, int, bool, np.ndarray]:
    """``solver._sweep``: (found, value, end key, capped, per layer the
    option that led to the best final state, if ``record``: its jokers,
    optional copies and detail, as ``solver._Result.steps``)."""
    wb = wtot + 1
    gm = wb
    tm = 45 * wb
    sm = tm * 9**ntags
    keys = np.zeros(1, np.int64)
    vals = np.full(1, base, np.int64)
    n = 1
    capped = False
    pkeys = np.empty(1024 if record else 0, np.int64)
    plinks = np.empty(1024 if record else 0, np.int64)
    poff = np.zeros(57, np.int64)
    npar = 0
    opts = np.empty((512, 6), np.int64)
    keypos = np.zeros((16, 8, 16), np.int64)
    head = np.zeros(45, np.int64)
    scratch = np.empty((11, 256), np.int64)
    ace_unit = layers[0, 0, 8]
    ncache = nsig * wb * 9
    cache_start = np.empty(ncache, np.int64)
    cache_len = np.empty(ncache, np.int64)
    cdelta = np.empty(256, np.int64)
    cgain = np.empty(256, np.int64)
    coi = np.empty(256, np.int64)
    # the states of the layer being built: an insertion-ordered hash map
    size = 1024
    nkeys = np.empty(size, np.int64)
    nvals = np.empty(size, np.int64)
    nlinks = np.empty(size, np.int64)
    nslot = np.empty(size, np.int64)
    hbits = 11
    hslots = np.full(1 << hbits, -1, np.int64)
    empty = np.empty((0, 3), np.int64)
    for p in range(14):
        lim = bound - ub[p]
        m = 0
        for i in range(n):
            if vals[i] > lim:
                keys[m] = keys[i]
                vals[m] = vals[i]
                m += 1
        n = m
        if n == 0:
            return 0, 0, 0, capped, empty
        for s in range(4):
            req = layers[p, s, 0]
            opt = layers[p, s, 1]
            cap = layers[p, s, 2]
            zf = layers[p, s, 3]
            vcap = layers[p, s, 4]
            wmin = layers[p, s, 5]
            wmax = layers[p, s, 6]
            high = layers[p, s, 7] != 0
            unit = layers[p, s, 8]
            tag = layers[p, s, 9]
            mult = sm * nsig**s
            tmult = tm * 9**tag if tag >= 0 else 0
            last = s == 3
            trivial = not req and not opt and not wmin and not (wmax and wtot)
            cache_len[:] = -1
            ncached = 0
            count = 0
            for i in range(n):
                key = keys[i]
                v = vals[i]
                sig = key // mult % nsig
                w = key % wb
                digit = 0
                if tag >= 0 and high:
                    digit = key // tmult % 9
                ck = (sig * wb + w) * 9 + digit
                if cache_len[ck] < 0:
                    start = ncached
                    room = min(wmax, wtot - w)
                    if room >= wmin:
                        vc = max(0, vcap - digit) if tag >= 0 and high else vcap
                        cnt = suit_options(opts, keypos, sig_lens, sig_len, sig_index, sig,
                                           req, opt, cap, zf, vc, wmin, room, high)
                        if ncached + cnt > cdelta.shape[0]:
                            grow = 2 * (ncached + cnt)
                            d2 = np.empty(grow, np.int64)
                            g2 = np.empty(grow, np.int64)
                            o2 = np.empty(grow, np.int64)
                            d2[:ncached] = cdelta[:ncached]
                            g2[:ncached] = cgain[:ncached]
                            o2[:ncached] = coi[:ncached]
                            cdelta, cgain, coi = d2, g2, o2
                        for oi in range(cnt):
                            sig2 = opts[oi, 0]
                            g = opts[oi, 1]
                            valued = opts[oi, 2]
                            kw = opts[oi, 3]
                            delta = (sig2 - sig) * mult + kw + (g * 5 + (1 if g == 2 else 0)) * gm
                            if tag >= 0 and not high:
                                delta += valued * tmult
                            gain = valued * unit + jv * (
                                max(0, w + kw - forced) - max(0, w - forced))
                            cdelta[ncached] = delta
                            cgain[ncached] = gain
                            coi[ncached] = oi
                            ncached += 1
                    cache_start[ck] = start
                    cache_len[ck] = ncached - start
                st = cache_start[ck]
                for j in range(st, st + cache_len[ck]):
                    nk = key + cdelta[j]
                    if last:
                        grp = nk // gm % 45
                        if grp:
                            if not group_ok[grp]:
                                continue
                            nk -= grp * gm
                    nv = v + cgain[j]
                    # new[nk] = max(new.get(nk), nv), the first best kept (and its link)
                    hmask = (1 << hbits) - 1
                    h = ((nk * _HASH) >> (64 - hbits)) & hmask
                    while True:
                        slot = hslots[h]
                        if slot < 0:
                            break
                        if nkeys[slot] == nk:
                            break
                        h = (h + 1) & hmask
                    if slot >= 0:
                        if nv > nvals[slot]:
                            nvals[slot] = nv
                            nlinks[slot] = key * 1024 + coi[j]
                        continue
                    if count == nkeys.shape[0]:
                        grow = 2 * count
                        k2 = np.empty(grow, np.int64)
                        v2 = np.empty(grow, np.int64)
                        l2 = np.empty(grow, np.int64)
                        s2 = np.empty(grow, np.int64)
                        k2[:count] = nkeys[:count]
                        v2[:count] = nvals[:count]
                        l2[:count] = nlinks[:count]
                        nkeys, nvals, nlinks, nslot = k2, v2, l2, s2
                    if 2 * (count + 1) > (1 << hbits):  # rehash, twice the size
                        hbits += 1
                        hslots = np.full(1 << hbits, -1, np.int64)
                        hmask = (1 << hbits) - 1
                        for r in range(count):
                            h2 = ((nkeys[r] * _HASH) >> (64 - hbits)) & hmask
                            while hslots[h2] >= 0:
                                h2 = (h2 + 1) & hmask
                            hslots[h2] = r
                            nslot[r] = h2
                        h = ((nk * _HASH) >> (64 - hbits)) & hmask
                        while hslots[h] >= 0:
                            h = (h + 1) & hmask
                    hslots[h] = count
                    nslot[count] = h
                    nkeys[count] = nk
                    nvals[count] = nv
                    nlinks[count] = key * 1024 + coi[j]
                    count += 1
            for j in range(count):
                hslots[nslot[j]] = -1
            if not trivial:
                if count > (2 if last else mid_pareto):
                    if scratch.shape[1] < count:
                        scratch = np.empty((11, 2 * count), np.int64)
                    count = _pareto(nkeys, nvals, nlinks, count, record, sm, wb, info_ind,
                                    info_mask, info_strength, wby, head, scratch, ntags,
                                    ace_unit)
                if count > state_cap:
                    capped = True
                    order = np.argsort(-nvals[:count], kind="mergesort")[:state_cap]
                    nkeys[:state_cap] = nkeys[order]
                    nvals[:state_cap] = nvals[order]
                    nlinks[:state_cap] = nlinks[order]
                    count = state_cap
            # the new states become the states (the buffers swap)
            keys, nkeys = nkeys, keys
            vals, nvals = nvals, vals
            n = count
            if nkeys.shape[0] < nlinks.shape[0]:  # the buffers of the next layer
                nkeys = np.empty(nlinks.shape[0], np.int64)
                nvals = np.empty(nlinks.shape[0], np.int64)
            links = nlinks
            layer = p * 4 + s
            if record:
                if npar + n > pkeys.shape[0]:
                    size = 2 * (npar + n)
                    k2 = np.empty(size, np.int64)
                    l2 = np.empty(size, np.int64)
                    k2[:npar] = pkeys[:npar]
                    l2[:npar] = plinks[:npar]
                    pkeys, plinks = k2, l2
                pkeys[npar:npar + n] = keys[:n]
                plinks[npar:npar + n] = links[:n]
                npar += n
            poff[layer + 1] = npar
            if n == 0:
                return 0, 0, 0, capped, empty
    best_key = -1
    best = bound
    for i in range(n):
        if keys[i] % wb < forced:
            continue
        if vals[i] > best:
            best_key = keys[i]
            best = vals[i]
    if best_key < 0:
        return 0, 0, 0, capped, empty
    # the parent links of the best state only, back from the last layer,
    # and the option each layer took: (jokers, optional copies, detail)
    steps = np.empty((56 if record else 0, 3), np.int64)
    if record:
        key = best_key
        for layer in range(55, -1, -1):
            for j in range(poff[layer], poff[layer + 1]):
                if pkeys[j] == key:
                    link = plinks[j]
                    key = link // 1024
                    p = layer // 4
                    s = layer % 4
                    mult = sm * nsig**s
                    tag = layers[p, s, 9]
                    high = layers[p, s, 7] != 0
                    vcap = layers[p, s, 4]
                    if tag >= 0 and high:
                        vcap = max(0, vcap - key // (tm * 9**tag) % 9)
                    suit_options(opts, keypos, sig_lens, sig_len, sig_index, key // mult % nsig,
                                 layers[p, s, 0], layers[p, s, 1], layers[p, s, 2],
                                 layers[p, s, 3], vcap, layers[p, s, 5],
                                 min(layers[p, s, 6], wtot - key % wb), high)
                    oi = link % 1024
                    steps[layer, 0] = opts[oi, 3]
                    steps[layer, 1] = opts[oi, 4]
                    steps[layer, 2] = opts[oi, 5]
                    break
    return 1, best, best_key, capped, steps


# --- the Python side ---------------------------------------------------------------


_TABLES: dict[int, tuple[np.ndarray, ...]] = {}


def _tables(decks: int) -> tuple[np.ndarray, ...]:
    """The solver's fixed tables for ``decks`` as arrays."""
    got = _TABLES.get(decks)
    if got is None:
        sigs = SIGMAS[decks]
        nsig = len(sigs)
        sig_lens = np.zeros((nsig, 2), np.int64)
        sig_len = np.zeros(nsig, np.int64)
        sig_index = np.zeros((4, 4), np.int64)
        for i, sg in enumerate(sigs):
            sig_len[i] = len(sg)
            sig_lens[i, :len(sg)] = sg
            sig_index[(*sg, 0, 0)[:2]] = i
        closable = np.array([all(x == 3 for x in sg) for sg in sigs], np.bool_)
        group_ok = np.array(GROUP_OK, np.bool_)
        info = pareto_info(decks)
        got = (sig_lens, sig_len, sig_index, closable, group_ok,
               np.array([t[0] for t in info], np.int64), np.array([t[1] for t in info], np.int64),
               np.array([t[2] for t in info], np.int64))
        _TABLES[decks] = got
    return got


def run_sweep(layers: list[list[tuple[int, int, int, int, int, int, int, bool, int, int]]],
              ub: list[int], decks: int, ntags: int, wtot: int, forced: int, jv: int, base: int,
              bound: int, record: bool, state_cap: int, wby: list[int]
              ) -> tuple[int, int, bool, list[tuple[int, int, int]] | None] | None:
    """One sweep: (value, end key, capped, the option of each layer on the
    best state's path if ``record``) or None, as ``solver._sweep``."""
    sig_lens, sig_len, sig_index, closable, group_ok, ind, mask, strength = _tables(decks)
    flat = np.fromiter(chain.from_iterable(chain.from_iterable(layers)), np.int64, 560)
    found, value, end, capped, path = sweep(
        flat.reshape(14, 4, 10), np.array(ub, np.int64), decks, len(sig_len), ntags, wtot,
        forced, jv, base, bound, record, state_cap, sig_lens, sig_len, sig_index, closable,
        group_ok, ind, mask, strength, np.array(wby, np.int64), MID_RANK_PARETO)
    if not found:
        return None
    steps = [tuple(row) for row in path.tolist()] if record else None
    return int(value), int(end), bool(capped), steps
