"""The fixed tables of the Manipulation sweep, shared by its two paths.

The pure-Python sweep in ``solver`` and the numba kernel in ``_kernel`` read the
same tables from here, so neither imports the other's internals: ``solver``
imports ``_kernel`` (when numba is there), and both import this module.

>>> SIGMAS[1]
[(), (1,), (2,), (3,)]
>>> dominates((3,), (2,)), dominates((2,), (3,)), dominates((3, 2), (1,))
(True, False, False)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

# a sweep drops dominated states after each rank, and after a suit once it
# holds more than this many (the kernel does the same: the same plays)
MID_RANK_PARETO = 16

# the open sequences of one suit: sorted lengths, 3 meaning "3 or more"
SIGMAS: dict[int, list[tuple[int, ...]]] = {
    d: [s for n in range(d + 1) for s in combinations_with_replacement((1, 2, 3), n)]
    for d in (1, 2)
}
SIG_INDEX = {d: {s: i for i, s in enumerate(sigs)} for d, sigs in SIGMAS.items()}

# group digits: 5 * cards in groups so far + number of suits giving two
GROUP_OK = [False] * 45
for _g in range(9):
    for _twos in range(5):
        GROUP_OK[_g * 5 + _twos] = _g == 0 or (_g in (3, 4) and not _twos) or _g >= 6


def dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Open sequences ``a`` can do whatever ``b`` can: each of ``b``'s
    matched to one of ``a``'s at least as long, ``a``'s others complete (3+,
    free to end). Longest first is the best matching."""
    a2, b2 = sorted(a, reverse=True), sorted(b, reverse=True)
    return (len(a2) >= len(b2) and all(x >= y for x, y in zip(a2, b2, strict=False))
            and all(x == 3 for x in a2[len(b2):]))


@cache
def pareto_info(decks: int) -> list[tuple[int, int, int]]:
    """Per four-suit sig code: (own bits, dominator bits, strength), 10 bits a suit."""
    sigs = SIGMAS[decks]
    n = len(sigs)
    by = [sum(1 << a for a in range(n) if dominates(sigs[a], sigs[b])) for b in range(n)]
    strength = [sum(1 for b in range(n) if dominates(sigs[a], sigs[b])) for a in range(n)]
    out = []
    for code in range(n**4):
        d = [code // n**t % n for t in range(4)]
        out.append((
            sum(1 << (d[t] + 10 * t) for t in range(4)),
            sum(by[d[t]] << (10 * t) for t in range(4)),
            sum(strength[d[t]] for t in range(4)),
        ))
    return out
