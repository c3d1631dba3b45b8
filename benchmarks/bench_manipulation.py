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
up to 40), and, ours only, positions with jokers and full random 4-player
games per second.

Ours is timed twice on every position: the pure-Python sweep and, when numba
is installed (extra ``fast``), its compiled kernel (the same plays; see
``solver.use_accelerator``). The kernel's one-off cost is reported apart:
compiling it into an empty cache (a fresh process) and loading it from the
cache; the timings are the steady state.

    python benchmarks/bench_manipulation.py           # full run, a few minutes
    python benchmarks/bench_manipulation.py --quick   # seconds
    python benchmarks/bench_manipulation.py --json out.json
    python benchmarks/bench_manipulation.py --rows 60x2,90x2 --only-rows   # two rows alone
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
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT)]

from benchmarks.machine import refuse_unwritable  # noqa: E402
from rummylab.cards import Card  # noqa: E402
from rummylab.manipulation import solver  # noqa: E402
from rummylab.manipulation.game import ManipulationState  # noqa: E402
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


_PATHS: list[str] = []


def paths() -> list[str]:
    """The solver paths to time: pure Python, and numba when installed."""
    if not _PATHS:
        _PATHS[:] = ["pure", "accel"] if solver.use_accelerator(True) else ["pure"]
        # the first play per deck count builds the solver's tables, the first
        # accelerated one loads (or compiles) the kernel: not timed here
        for path in _PATHS:
            use(path)
            for decks in (1, 2):
                best_play((((0, 0), (1, 1), (2, 2)),), [3, 4], decks)
    return _PATHS


def use(path: str) -> None:
    solver.use_accelerator(path == "accel")


def compile_times() -> dict[str, float] | None:
    """Seconds to the first accelerated play in a fresh process: into an
    empty numba cache (compiling), then again from that cache (loading)."""
    if "accel" not in paths():
        return None
    import subprocess
    import tempfile

    code = ("import sys, time; t0 = time.perf_counter(); sys.path.insert(0, sys.argv[1]);"
            "from rummylab.manipulation import solver; from rummylab.cards import parse_cards;"
            "from rummylab.manipulation.table import parse_table;"
            "assert solver.use_accelerator(True);"
            "solver.best_play(parse_table('7h 8h 9h', 1), parse_cards('Th 2c'), 1);"
            "print(time.perf_counter() - t0)")
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for name in ("compile", "load"):
            got = subprocess.run([sys.executable, "-c", code, str(ROOT / "src")], env=env,
                                 capture_output=True, text=True, check=True)
            out[name] = float(got.stdout.split()[-1])
    return out


def bench_rows(n: int, seed: int, theirs: Theirs | None,
               which: list[tuple[int, int]] = ROWS) -> list[dict[str, Any]]:
    rows = []
    for size, decks in which:
        pos = positions(size, decks, n, seed)
        ours: dict[str, list[float]] = {p: [] for p in paths()}
        ours_rk: list[float] = []
        their_t: list[float] = []
        mismatches: list[str] = []
        inexact = 0
        more_with_aces_high = 0
        start = perf_counter()
        for table, hand in pos:
            plays = []
            for path in ours:  # the game's question, on each path
                use(path)
                t0 = perf_counter()
                plays.append(best_play(table, hand, decks))
                ours[path].append(perf_counter() - t0)
            if len(set(plays)) != 1:
                mismatches.append("the two paths differ")
            t1 = perf_counter()  # Rummikub's question, on the fastest path
            rk_play = best_play(table, hand, decks, objective="cards", aces_high=False)
            ours_rk.append(perf_counter() - t1)
            ours_cards = rk_play.cards_shed if rk_play else 0
            inexact += sum(1 for p in (plays[0], rk_play) if p is not None and not p.exact)
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
            "ours_rk_median": statistics.median(ours_rk), "ours_rk_p99": pct(ours_rk, 0.99),
            "inexact": inexact,
            "card_mismatches": len(mismatches), "mismatch_examples": mismatches[:3],
            "more_cards_with_aces_high": more_with_aces_high,
        }
        for path, times in ours.items():
            row[f"{path}_median"] = statistics.median(times)
            row[f"{path}_p99"] = pct(times, 0.99)
            row[f"{path}_max"] = max(times)
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
        pos = []
        while len(pos) < n:
            try:
                pos.append(random_position(
                    rng, 2, size, rng.randint(5, 20), table_jokers=rng.choice((1, 2)),
                    hand_jokers=rng.choice((0, 1))))
            except RuntimeError:
                continue
        row: dict[str, Any] = {"size": size, "n": n}
        for path in paths():
            use(path)
            times: list[float] = []
            inexact = 0
            for table, hand in pos:
                t0 = perf_counter()
                play = best_play(table, hand, 2)
                times.append(perf_counter() - t0)
                inexact += play is not None and not play.exact
            row[path] = {"median": statistics.median(times), "p99": pct(times, 0.99),
                         "max": max(times), "inexact": inexact}
        out.append(row)
    return out


def bench_games(n: int, seed: int) -> dict[str, dict[str, float]]:
    """Full games of four random players (uniform over the legal actions)."""
    out = {}
    for path in paths():
        use(path)
        decisions = 0
        t0 = perf_counter()
        for g in range(n):
            state = ManipulationState({"players": 4}, seed=seed * 1000 + g)
            rng = random.Random(f"bench/games/{seed}/{g}")
            while state.current_player() >= 0:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        dt = perf_counter() - t0
        out[path] = {"games": n, "seconds": dt, "games_per_s": n / dt,
                     "decisions_per_s": decisions / dt}
    return out


def peak_memory(n: int, seed: int) -> dict[str, float]:
    """Peak traced memory of one best_play, the largest over 90-card
    positions, per path (the kernel's own arrays are numba's, not traced:
    the process's max RSS bounds them)."""
    pos = positions(90, 2, n, seed + 1)
    out: dict[str, float] = {}
    for path in paths():
        use(path)
        worst = 0
        for table, hand in pos:
            tracemalloc.start()
            best_play(table, hand, 2)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            worst = max(worst, peak)
        out[f"{path}_peak_mib"] = worst / 2**20
    out["process_maxrss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def print_rows(rows: list[dict[str, Any]], names: dict[str, str]) -> bool:
    """The table per path, the targets and the notes; True if the last path passes."""
    ok = True
    for path in paths():
        head = (f"{names[path]:<13}  n   ours med  ours p99  theirs med  theirs p99"
                "   med ratio  p99 ratio  cards equal  result")
        print(head)
        print("-" * len(head))
        for r in rows:
            med, p99 = r[f"{path}_median"], r[f"{path}_p99"]
            if "theirs_median" in r:
                med_ratio = r["theirs_median"] / med
                p99_ratio = r["theirs_p99"] / p99
                passed = med_ratio >= MEDIAN_TARGET and p99_ratio >= P99_TARGET
                verdict = "PASS" if passed else "FAIL"
                if path == paths()[-1]:
                    ok &= passed and r["card_mismatches"] == 0
                theirs_cols = (f"{fmt_ms(r['theirs_median']):>10}  {fmt_ms(r['theirs_p99']):>10}"
                               f"   {med_ratio:8.2f}x  {p99_ratio:8.2f}x")
            else:
                theirs_cols = f"{'n/a':>10}  {'n/a':>10}   {'n/a':>9}  {'n/a':>9}"
                verdict = "SKIP"
            equal = f"{r['n'] - r['card_mismatches']}/{r['n']}"
            print(f"{r['size']:3d} cards {r['decks']}d {r['n']:4d}  {fmt_ms(med):>9}"
                  f"  {fmt_ms(p99):>8}  {theirs_cols}  {equal:>11}  {verdict}")
        print()
    print("times in ms; ratio = theirs / ours (game rules: most points, aces high or low); "
          "cards equal: ours with Rummikub's objective (most cards, aces low) sheds as many "
          "as theirs, and both our paths give the same play")
    print(f"targets: median ratio >= {MEDIAN_TARGET:g}x, p99 ratio >= {P99_TARGET:g}x "
          f"(the exit status follows the {names[paths()[-1]]})")
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
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 positions per row")
    ap.add_argument("--n", type=int, help="positions per row (default 200, quick 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, help="full games per path (default 10, quick 3)")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--rows", help="table sizes to time, e.g. 60x2,90x2 (cards x decks; "
                    "default: all of " + ",".join(f"{c}x{d}" for c, d in ROWS) + ")")
    ap.add_argument("--only-rows", action="store_true",
                    help="time the rows beside rummikub-solver and nothing else")
    args = ap.parse_args(argv)
    which = ROWS
    if args.rows:
        try:
            which = [(int(c), int(d)) for c, d in (r.split("x") for r in args.rows.split(","))]
        except ValueError:
            ap.error(f"--rows: sizes as CARDSxDECKS, e.g. 60x2,90x2, not {args.rows!r}")
        if any(c < 1 or d not in (1, 2) for c, d in which):
            ap.error("--rows: at least one card a row, and 1 or 2 decks")
    for name in ("n", "games"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")
    refuse_unwritable(ap, args.json)
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
    compiled = None if args.only_rows else compile_times()
    rows = bench_rows(n, args.seed, theirs, which)
    names = {"pure": "pure Python", "accel": "numba kernel"}
    if args.only_rows:
        print()
        ok = print_rows(rows, names)
        print(f"\ntotal {perf_counter() - start:.0f}s; load average at end: "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if args.json:
            Path(args.json).write_text(json.dumps({"rows": rows}, indent=2))
        return 0 if ok else 1
    use(paths()[-1])
    typical = bench_typical(max(50, n), args.seed)
    jokers = bench_jokers(max(10, n // 5), args.seed)
    games = bench_games(args.games or (3 if args.quick else 10), args.seed)
    memory = peak_memory(10 if args.quick else 30, args.seed)
    print()
    if compiled is None:
        print("numba not installed (pip install -e '.[fast]'): pure Python only\n")
    else:
        print(f"numba kernel: first play in a fresh process {compiled['compile']:.1f}s with an "
              f"empty cache (compiling), {compiled['load']:.1f}s from the cache (cache=True); "
              "excluded below (steady state)\n")
    ok = print_rows(rows, names)
    print(f"\ntypical turn, arrange_with of 1-4 cards on tables of up to 40 ({typical['n']}, "
          f"{names[paths()[-1]]}): median {fmt_ms(typical['median'])} ms, "
          f"p99 {fmt_ms(typical['p99'])} ms "
          f"(target: median < 2 ms) {'PASS' if typical['median'] < 0.002 else 'FAIL'}")
    print("\njokers (ours only; 2 decks, 1-2 table jokers, 0-1 in hand):")
    for j in jokers:
        print(f"  {j['size']} cards ({j['n']}): " + "; ".join(
            f"{names[path]} median {fmt_ms(j[path]['median'])} ms, "
            f"p99 {fmt_ms(j[path]['p99'])} ms, max {fmt_ms(j[path]['max'])} ms, "
            f"inexact {j[path]['inexact']}" for path in paths()))
    print("\nfull games, 4 random players (uniform over the legal actions): " + "; ".join(
        f"{names[path]} {g['games_per_s']:.2f} games/s ({g['decisions_per_s']:.0f} "
        f"decisions/s, {g['games']} games)" for path, g in games.items()))
    worst_peak = max(v for k, v in memory.items() if k.endswith("_peak_mib"))
    print(f"\npeak memory of one 90-card solve (tracemalloc, worst of {10 if args.quick else 30}): "
          + ", ".join(f"{names[p]} {memory[f'{p}_peak_mib']:.1f} MiB" for p in paths())
          + f" (target < 200 MiB) {'PASS' if worst_peak < 200 else 'FAIL'}; "
          f"process max RSS {memory['process_maxrss_mib']:.0f} MiB")
    print(f"\ntotal {perf_counter() - start:.0f}s; load average at end: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"rows": rows, "typical": typical, "jokers": jokers, "games": games,
             "memory": memory, "compile": compiled}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
