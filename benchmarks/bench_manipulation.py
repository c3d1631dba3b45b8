"""Manipulation best-play benchmark: rummylab's exact solver beside rummikub-solver.

rummikub-solver (``pip install rummikub-solver``, benchmark only) finds the
most tiles a Rummikub rack can add to a table with an integer programme
(cvxpy over HiGHS). Its tile set is Manipulation's pack without aces high:
four colours (our suits c d h s, in that order) of numbers 1-13 (our ranks
A-K), ``repeats`` copies (our decks). So both engines get the same
positions: legal tables of 10, 30, 60 and 90 cards built from groups and
sequences without high aces or jokers, and hands of 5-20 cards from the rest
of the pack. For each position, in one run, taking turns:

- ours: ``best_play(table, hand, decks)`` as the game calls it (most points,
  aces may play high), and ``best_play(..., objective="cards",
  aces_high=False)``, Rummikub's question;
- theirs: ``RuleSet(repeats=decks, jokers=0).solve(state, SolverMode.TILE_COUNT)``
  with ``state.initial = False`` (its model built once per deck count and
  warmed up before timing).

It checks that our Rummikub-rules play sheds exactly as many cards as
theirs, reports per size the median and 99th percentile and their ratios
(theirs / ours: above 1x ours is faster), the peak memory of one solve
(``tracemalloc``), typical turns (``arrange_with`` of 1-4 cards on tables of
up to 40), and, ours only, positions with jokers.

    python benchmarks/bench_manipulation.py           # full run, a few minutes
    python benchmarks/bench_manipulation.py --quick   # seconds
    python benchmarks/bench_manipulation.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import sys
import tracemalloc
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not; the generators live with the tests
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from rummylab.cards import Card  # noqa: E402
from rummylab.manipulation.solver import arrange_with, best_play  # noqa: E402
from rummylab.manipulation.table import Table  # noqa: E402
from test_manipulation_solver import random_hand, random_position, random_table  # noqa: E402

ROWS = [(10, 1), (30, 1), (10, 2), (30, 2), (60, 2), (90, 2)]
MEDIAN_TARGET = 10.0  # ours at least 10x faster at the median
P99_TARGET = 1.0  # and faster at the 99th percentile


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


class Theirs:
    """rummikub-solver, one warmed-up RuleSet per deck count."""

    def __init__(self) -> None:
        import rummikub_solver as rk

        self.rk = rk
        self.version = rk.__version__
        self.rules = {d: rk.RuleSet(numbers=13, repeats=d, colours=4, jokers=0, min_len=3)
                      for d in (1, 2)}
        self.backend = str(self.rules[1].backend)
        for d in self.rules:  # build and warm up each model
            self.solve((((0, 0), (1, 1), (2, 2)),), [3, 4], d)

    def solve(self, table: Table, hand: list[Card], decks: int) -> int:
        """Tiles placed by its best (most tiles) move."""
        rs = self.rules[decks]
        tiles = rs.tiles  # colour-major, numbers 1-13: the same index as our cards
        state = rs.new_game()
        state.initial = False
        state.add_table(*[tiles[c] for meld in table for c, _ in meld])
        state.add_rack(*[tiles[c] for c in hand])
        sol = rs.solve(state, self.rk.SolverMode.TILE_COUNT)
        return len(sol.tiles) if sol is not None else 0


def positions(size: int, decks: int, n: int, seed: int) -> list[tuple[Table, list[Card]]]:
    rng = random.Random(f"bench/{seed}/{size}/{decks}")
    out = []
    while len(out) < n:
        table, pack = random_table(rng, decks, size, 0, aces_high=False)
        out.append((table, random_hand(rng, table, pack, rng.randint(5, 20))))
    return out


def fmt_ms(x: float) -> str:
    return f"{x * 1000:.2f}" if x < 0.1 else f"{x * 1000:.0f}"


def bench_rows(n: int, seed: int, theirs: Theirs | None) -> list[dict[str, Any]]:
    rows = []
    for size, decks in ROWS:
        pos = positions(size, decks, n, seed)
        ours_game: list[float] = []
        ours_rk: list[float] = []
        their_t: list[float] = []
        mismatches: list[str] = []
        inexact = 0
        more_with_aces_high = 0
        start = perf_counter()
        for table, hand in pos:
            t0 = perf_counter()
            play = best_play(table, hand, decks)
            t1 = perf_counter()
            rk_play = best_play(table, hand, decks, objective="cards", aces_high=False)
            t2 = perf_counter()
            ours_game.append(t1 - t0)
            ours_rk.append(t2 - t1)
            ours_cards = rk_play.cards_shed if rk_play else 0
            inexact += sum(1 for p in (play, rk_play) if p is not None and not p.exact)
            if theirs is not None:
                t3 = perf_counter()
                n_theirs = theirs.solve(table, hand, decks)
                their_t.append(perf_counter() - t3)
                if n_theirs != ours_cards:
                    mismatches.append(f"ours {ours_cards}, theirs {n_theirs}")
            best_cards = best_play(table, hand, decks, objective="cards")
            if best_cards and best_cards.cards_shed > ours_cards:
                more_with_aces_high += 1
        row: dict[str, Any] = {
            "size": size, "decks": decks, "n": len(pos),
            "ours_median": statistics.median(ours_game), "ours_p99": pct(ours_game, 0.99),
            "ours_rk_median": statistics.median(ours_rk), "ours_rk_p99": pct(ours_rk, 0.99),
            "ours_max": max(ours_game), "inexact": inexact,
            "card_mismatches": len(mismatches), "mismatch_examples": mismatches[:3],
            "more_cards_with_aces_high": more_with_aces_high,
        }
        if their_t:
            row.update(theirs_median=statistics.median(their_t), theirs_p99=pct(their_t, 0.99),
                       theirs_max=max(their_t))
        rows.append(row)
        print(f"  done: {size} cards, {decks} deck(s), {len(pos)} positions "
              f"({perf_counter() - start:.0f}s)", flush=True)
    return rows


def bench_typical(n: int, seed: int) -> dict[str, Any]:
    """arrange_with of 1-4 hand cards that fit, on tables of up to 40 cards."""
    rng = random.Random(f"bench/typical/{seed}")
    times: list[float] = []
    while len(times) < n:
        decks = rng.choice((1, 2))
        size = rng.choice((6, 10, 20, 30, 40))
        table, hand = random_position(rng, decks, size, rng.randint(3, 10), near=0.8)
        play = best_play(table, hand, decks)
        if play is None:
            continue
        # the play itself when it is short (it fits), else a few of its cards
        cards = list(play.play)
        add = cards if len(cards) <= 4 else rng.sample(cards, rng.randint(1, 4))
        t0 = perf_counter()
        arrange_with(table, add, decks)
        times.append(perf_counter() - t0)
    return {"n": len(times), "median": statistics.median(times), "p99": pct(times, 0.99)}


def bench_jokers(n: int, seed: int) -> list[dict[str, Any]]:
    """Ours only (rummikub-solver's jokers are free wildcards, not D-16's)."""
    out = []
    for size in (30, 60, 90):
        rng = random.Random(f"bench/jokers/{seed}/{size}")
        times: list[float] = []
        inexact = 0
        while len(times) < n:
            try:
                table, hand = random_position(
                    rng, 2, size, rng.randint(5, 20), table_jokers=rng.choice((1, 2)),
                    hand_jokers=rng.choice((0, 1)))
            except RuntimeError:
                continue
            t0 = perf_counter()
            play = best_play(table, hand, 2)
            times.append(perf_counter() - t0)
            inexact += play is not None and not play.exact
        out.append({"size": size, "n": n, "median": statistics.median(times),
                    "p99": pct(times, 0.99), "max": max(times), "inexact": inexact})
    return out


def peak_memory(n: int, seed: int) -> dict[str, float]:
    """Peak traced memory of one best_play, the largest over 90-card positions."""
    pos = positions(90, 2, n, seed + 1)
    worst = 0
    for table, hand in pos:
        tracemalloc.start()
        best_play(table, hand, 2)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        worst = max(worst, peak)
    return {"one_solve_peak_mib": worst / 2**20,
            "process_maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 positions per row")
    ap.add_argument("--n", type=int, help="positions per row (default 200, quick 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the numbers here")
    args = ap.parse_args(argv)
    n = args.n or (20 if args.quick else 200)
    print(f"machine: nproc={os.cpu_count()} {platform.processor() or platform.machine()}")
    print(f"python {platform.python_version()} ({platform.python_implementation()}) on "
          f"{platform.platform()}")
    try:
        theirs: Theirs | None = Theirs()
    except ImportError:
        theirs = None
        print("rummikub-solver not installed: pip install rummikub-solver (ours only)")
    if theirs is not None:
        print(f"peer: rummikub-solver {theirs.version}, backend {theirs.backend}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"mode: {'quick' if args.quick else 'full'}; {n} positions per row, no jokers, "
          "no high aces on the table\n")
    start = perf_counter()
    rows = bench_rows(n, args.seed, theirs)
    typical = bench_typical(max(50, n), args.seed)
    jokers = bench_jokers(max(10, n // 5), args.seed)
    memory = peak_memory(10 if args.quick else 30, args.seed)
    print()
    head = ("cards  decks     n   ours med  ours p99   ours-rk med  theirs med  theirs p99"
            "   med ratio  p99 ratio  cards equal  result")
    print(head)
    print("-" * len(head))
    ok = True
    for r in rows:
        if "theirs_median" in r:
            med_ratio = r["theirs_median"] / r["ours_median"]
            p99_ratio = r["theirs_p99"] / r["ours_p99"]
            passed = med_ratio >= MEDIAN_TARGET and p99_ratio >= P99_TARGET
            verdict = "PASS" if passed else "FAIL"
            ok &= passed and r["card_mismatches"] == 0
            theirs_cols = (f"{fmt_ms(r['theirs_median']):>10}  {fmt_ms(r['theirs_p99']):>10}"
                           f"   {med_ratio:8.2f}x  {p99_ratio:8.2f}x")
        else:
            theirs_cols = f"{'n/a':>10}  {'n/a':>10}   {'n/a':>9}  {'n/a':>9}"
            verdict = "SKIP"
        equal = f"{r['n'] - r['card_mismatches']}/{r['n']}"
        print(f"{r['size']:5d}  {r['decks']:5d}  {r['n']:4d}  {fmt_ms(r['ours_median']):>9}"
              f"  {fmt_ms(r['ours_p99']):>8}   {fmt_ms(r['ours_rk_median']):>11}  "
              f"{theirs_cols}  {equal:>11}  {verdict}")
    print("\ntimes in ms; ratio = theirs / ours (game rules); ours-rk = ours with Rummikub's "
          "objective (most cards, aces low)")
    print(f"targets: median ratio >= {MEDIAN_TARGET:g}x, p99 ratio >= {P99_TARGET:g}x")
    for r in rows:
        notes = []
        if r["card_mismatches"]:
            notes.append(f"card counts differ on {r['card_mismatches']}: {r['mismatch_examples']}")
        if r["inexact"]:
            notes.append(f"{r['inexact']} plays inexact (a cap was hit)")
        if r["more_cards_with_aces_high"]:
            notes.append(f"{r['more_cards_with_aces_high']} positions shed more cards when aces "
                         "may play high (Q-K-A), which Rummikub cannot express")
        if notes:
            print(f"- {r['size']} cards, {r['decks']} deck(s): " + "; ".join(notes))
    print(f"\ntypical turn, arrange_with of 1-4 cards on tables of up to 40 ({typical['n']}): "
          f"median {fmt_ms(typical['median'])} ms, p99 {fmt_ms(typical['p99'])} ms "
          f"(target: median < 2 ms) {'PASS' if typical['median'] < 0.002 else 'FAIL'}")
    print("\njokers (ours only; 2 decks, 1-2 table jokers, 0-1 in hand):")
    for j in jokers:
        print(f"  {j['size']} cards ({j['n']}): median {fmt_ms(j['median'])} ms, "
              f"p99 {fmt_ms(j['p99'])} ms, max {fmt_ms(j['max'])} ms, inexact {j['inexact']}")
    print(f"\npeak memory of one 90-card solve (tracemalloc, worst of {10 if args.quick else 30}): "
          f"{memory['one_solve_peak_mib']:.1f} MiB (target < 200 MiB) "
          f"{'PASS' if memory['one_solve_peak_mib'] < 200 else 'FAIL'}; "
          f"process max RSS {memory['process_maxrss_mib']:.0f} MiB")
    print(f"\ntotal {perf_counter() - start:.0f}s; load average at end: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"rows": rows, "typical": typical, "jokers": jokers, "memory": memory}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
