"""Statistics for runs of matches: intervals of win rates and paired comparisons.

Plain Python (no numpy), so that every run reports the same figures anywhere.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]

    The interval always holds the rate itself (rounding could put the
    bound a hair inside it at 0 or 1 wins in n):

    >>> all(lo <= w / n <= hi for n in range(1, 200) for w in (0, n)
    ...     for lo, hi in [wilson(w, n)])
    True
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def paired_difference(mine: Sequence[float], theirs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``mine[i] - theirs[i]``: two runs of the
    same deals compared deal by deal, far less noisy than their totals.

    >>> [round(x, 4) for x in paired_difference([1.0, 0.0, 1.0], [0.0, 0.0, 1.0])]
    [0.3333, 0.3333]
    """
    if len(mine) != len(theirs):
        raise ValueError(f"paired runs differ in length: {len(mine)} and {len(theirs)}")
    n = len(mine)
    if n < 2:
        raise ValueError("a paired difference needs at least two pairs")
    d = [a - b for a, b in zip(mine, theirs, strict=True)]
    m = sum(d) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n)


def saved_run(path: str, seed: int, what: str,
              fields: Sequence[str]) -> list[tuple[float, ...]]:
    """The rows of a run a paired script saved as JSON lines (each with its
    ``seed``), as tuples of ``fields``. A file that cannot be read, a line
    without a field, or a run of another seed is a ``ValueError`` with a
    one-line message naming ``what`` the rows are ("hands", "rounds")."""
    try:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        seeds = {int(r["seed"]) for r in rows}
        out = [tuple(float(r[k]) for k in fields) for r in rows]
    except KeyError as e:
        raise ValueError(f"cannot read {what} from {path}: a line has no {e} field") from None
    except (OSError, ValueError, TypeError, OverflowError) as e:
        raise ValueError(f"cannot read {what} from {path}: {e}") from None
    if not all(math.isfinite(v) for row in out for v in row):
        raise ValueError(f"cannot read {what} from {path}: a value is not a finite number")
    if seeds - {seed}:
        raise ValueError(f"{path} holds {what} of seed {min(seeds - {seed})}, not of seed {seed}")
    return out
