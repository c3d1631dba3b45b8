"""Agreement sweep: the Manipulation solver against independent references.

On ``--n`` seeded positions (a mix from tiny to full tables, one and two
decks, with and without jokers, sometimes with ``initial_meld_from_hand`` or
aces low only or the "most cards" objective) it checks that

- ``best_play`` sheds exactly what the reference finds best: brute force
  (every sub-multiset of the hand, every split into melds) for tiny
  positions, an integer programme over all melds (HiGHS, ``highspy``) for
  the rest; both live in ``tests/test_manipulation_solver.py`` and share no
  code with the solver;
- every play passes ``check_move`` (conservation, legal melds, D-16, D-24,
  D-25) and uses cards the hand holds;
- ``arrange_with`` finds an arrangement exactly when the integer programme
  can place every added card;
- a play reported inexact (a state or node cap hit) is legal and sheds no
  more than the best; the sweep counts them.

Exits 1 on any disagreement.

    python scripts/sweep_manipulation.py --n 20000
    python scripts/sweep_manipulation.py --n 500 --seed 3
    python scripts/sweep_manipulation.py --n 2000 --accel off   # pure Python (on: numba)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# check the working tree, installed or not; the references live with the tests
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from rummylab.cards import cards_str  # noqa: E402
from rummylab.manipulation import solver  # noqa: E402
from rummylab.manipulation.solver import arrange_with, best_play  # noqa: E402
from rummylab.manipulation.table import check_move, table_str  # noqa: E402
from test_manipulation_solver import (  # noqa: E402
    brute_best,
    ilp_best,
    random_position,
)

# (name, share, decks choices, table sizes, hand sizes, reference)
GROUPS = [
    ("tiny", 0.35, (1, 2), (0, 3, 4, 5, 6, 7, 8, 9), (1, 5), "brute"),
    ("small", 0.25, (1, 2), (10, 15, 20, 30), (3, 12), "ilp"),
    ("full", 0.25, (2,), (40, 60, 75, 90), (5, 20), "ilp"),
    ("arrange_with", 0.15, (1, 2), (6, 12, 20, 40), (1, 4), "ilp"),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="positions to check")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--accel", choices=("auto", "on", "off"), default="auto",
                    help="the solver's numba kernel: auto (when installed), on (required), off")
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error("--n must be positive")
    accel = solver.use_accelerator(None if args.accel == "auto" else args.accel == "on")
    if args.accel == "on" and not accel:
        print("numba is not installed: pip install numba (or pip install -e '.[fast]')")
        return 2
    try:
        import highspy  # noqa: F401
    except ImportError:
        print("highspy is needed for the integer-programme reference: pip install highspy")
        return 2
    rng = random.Random(args.seed)
    checked: Counter[str] = Counter()
    failures: list[str] = []
    inexact = 0
    inexact_below = 0
    solver_time = 0.0
    worst = (0.0, "")
    start = time.perf_counter()
    step = max(1, args.n // 20)
    print(f"sweep: {args.n} positions, seed {args.seed}, solver path: "
          f"{'numba kernel' if accel else 'pure Python'}", flush=True)
    for i in range(args.n):
        r = rng.random()
        group = GROUPS[-1]
        for group in GROUPS:
            if r < group[1]:
                break
            r -= group[1]
        name, _, decks_choices, sizes, hand_sizes, ref = group
        decks = rng.choice(decks_choices)
        size = rng.choice(sizes)
        hand_size = rng.randint(*hand_sizes)
        jokers = rng.random() < 0.5
        try:
            table, hand = random_position(
                rng, decks, size, hand_size,
                table_jokers=rng.choice((1, 2)) if jokers else 0,
                hand_jokers=rng.choice((0, 0, 1)) if jokers else 0,
                near=rng.choice((0.0, 0.5, 0.9)),
            )
        except RuntimeError:
            continue
        label = (f"[{name} {decks}d {size}+{len(hand)}] {table_str(table) or '(empty)'}"
                 f" / {cards_str(hand)}")
        try:
            if name == "arrange_with":
                t0 = time.perf_counter()
                got = arrange_with(table, hand, decks)
                dt = time.perf_counter() - t0
                want = ilp_best(table, hand, decks, require_all=True)
                if (got is not None) != (want is not None):
                    failures.append(
                        f"{label}: arrange_with {got is not None}, ILP {want is not None}")
                elif got is not None:
                    check_move(table, got, hand, decks)
            else:
                first_only = rng.random() < 0.1
                aces_high = rng.random() < 0.9
                objective = "cards" if rng.random() < 0.1 else "points"
                kw = dict(first_meld_from_hand_only=first_only, aces_high=aces_high,
                          objective=objective)
                t0 = time.perf_counter()
                play = best_play(table, hand, decks, **kw)  # type: ignore[arg-type]
                dt = time.perf_counter() - t0
                want = (brute_best if ref == "brute" else ilp_best)(table, hand, decks, **kw)  # type: ignore[operator]
                got_v = None
                if play is not None:
                    got_v = ((play.points_shed, play.cards_shed) if objective == "points"
                             else (play.cards_shed, play.points_shed))
                    check_move(table, play.table, play.play, decks,
                               first_meld_from_hand_only=first_only)
                    if Counter(play.play) - Counter(hand):
                        raise AssertionError("plays cards the hand does not hold")
                    if not play.exact:
                        inexact += 1
                if play is not None and not play.exact:
                    # a cap cut in: the play must still be legal and no better
                    # than the best (checked above and here)
                    if want is None or got_v is None or got_v > want:
                        failures.append(f"{label} {kw}: inexact solver {got_v}, {ref} {want}")
                    else:
                        inexact_below += got_v < want
                elif got_v != want:
                    failures.append(f"{label} {kw}: solver {got_v}, {ref} {want}")
        except Exception as exc:  # a check_move refusal or a crash is a failure too
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
            dt = 0.0
        solver_time += dt
        if dt > worst[0]:
            worst = (dt, label)
        checked[name] += 1
        if (i + 1) % step == 0 or i + 1 == args.n:
            print(f"  {100 * (i + 1) // args.n:3d}%  {i + 1}/{args.n}  "
                  f"{time.perf_counter() - start:.0f}s  failures so far: {len(failures)}",
                  flush=True)
    total = sum(checked.values())
    print()
    groups = ", ".join(f"{k}: {v}" for k, v in checked.items())
    print(f"positions checked: {total} ({groups})")
    print(f"solver time: {solver_time:.1f}s in all, worst {worst[0] * 1000:.0f} ms")
    print(f"plays reported inexact (a state or node cap hit): {inexact}, of which "
          f"{inexact_below} shed less than the best")
    if failures:
        print(f"DISAGREEMENTS: {len(failures)}")
        for f in failures[:20]:
            print("  " + f)
        return 1
    print("no disagreement")
    return 0


if __name__ == "__main__":
    sys.exit(main())
