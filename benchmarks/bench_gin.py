"""Gin engine benchmarks, rummylab side by side with OpenSpiel and RLCard.

Every metric is measured for all engines in the same run, on the same hands,
so the ratios hold for the machine at hand even when the absolute numbers
drift with load. Each number is the best of a few repeats (the least
disturbed run on a noisy machine), and the engines take turns repeat by
repeat so a burst of load hits them alike.

    python benchmarks/bench_gin.py            # full run, 1-3 minutes
    python benchmarks/bench_gin.py --quick    # seconds, for CI
    python benchmarks/bench_gin.py --json out.json

Ratios are ours' speed-up over the peer: peer time / our time for per-call
costs, our rate / peer rate for throughput (above 1x: ours is faster).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from benchmarks import handgen, peers  # noqa: E402
from benchmarks.machine import cpu_model, refuse_unwritable  # noqa: E402
from rummylab import new_state  # noqa: E402
from rummylab.gin import solver as melds  # noqa: E402

PEERS = ("openspiel", "rlcard")


@dataclass
class Result:
    """One row of the table."""

    metric: str
    unit: str
    higher_is_better: bool
    ours: float | None
    openspiel: float | None = None
    rlcard: float | None = None
    # least speed-up of ours over each peer that the metric targets
    targets: dict[str, float] = field(default_factory=dict)
    target_text: str = ""
    # a metric with no peer (memory) decides its own verdict
    passed: bool | None = None
    notes: list[str] = field(default_factory=list)

    def speedup(self, peer: str) -> float | None:
        theirs = getattr(self, peer)
        if self.ours is None or theirs is None or self.ours == 0 or theirs == 0:
            return None
        return self.ours / theirs if self.higher_is_better else theirs / self.ours

    def verdict(self) -> str:
        if self.passed is not None:
            return "PASS" if self.passed else "FAIL"
        checks = [(self.speedup(p), t) for p, t in self.targets.items()]
        if not checks or any(s is None for s, _ in checks):
            return "SKIP"
        return "PASS" if all(s is not None and s >= t for s, t in checks) else "FAIL"

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["speedup"] = {p: self.speedup(p) for p in PEERS}
        out["verdict"] = self.verdict()
        return out


@dataclass(frozen=True)
class Plan:
    """How much work each metric does."""

    hands: int  # hands per deadwood list
    repeats: int
    rl_repeats: int  # RLCard is 10-50x slower: fewer repeats keep the run short
    seconds: float  # per throughput repeat
    rate_repeats: int
    clone_states: int
    clone_reps: int
    memory_games: int  # the large simulate run; the small one plays a tenth


FULL = Plan(hands=4000, repeats=5, rl_repeats=3, seconds=6.0, rate_repeats=3,
            clone_states=200, clone_reps=100, memory_games=1000)
QUICK = Plan(hands=300, repeats=2, rl_repeats=1, seconds=1.0, rate_repeats=1,
             clone_states=40, clone_reps=20, memory_games=200)


Engine = str  # "ours", "openspiel" or "rlcard"


def interleaved_best(runs: dict[Engine, tuple[Callable[[], float], int]]) -> dict[Engine, float]:
    """Best (least) result of each engine's ``(run, repeats)``, the engines
    taking turns repeat by repeat: a burst of load on the machine then hits
    all of them alike instead of skewing one engine's whole measurement."""
    best = dict.fromkeys(runs, float("inf"))
    for rep in range(max(n for _, n in runs.values())):
        for name, (run, n) in runs.items():
            if rep < n:
                best[name] = min(best[name], run())
    return best


def timed(fn: Callable[[], object]) -> Callable[[], float]:
    """``fn`` as a run that returns its wall time in seconds."""

    def run() -> float:
        t0 = perf_counter()
        fn()
        return perf_counter() - t0

    return run


def over_list(fn: Callable[[Any], object], inputs: Sequence[Any]) -> Callable[[], float]:
    """A run calling ``fn`` on every input; returns microseconds per call."""

    def loop() -> None:
        for x in inputs:
            fn(x)

    run = timed(loop)
    return lambda: run() / len(inputs) * 1e6


# --- a. least deadwood per call ---------------------------------------------


def bench_deadwood(size: int, kind: handgen.Kind, plan: Plan) -> Result:
    hands = handgen.hand_list(kind, size, plan.hands, seed=1)
    ours_fn = melds.deadwood if size == 10 else melds.deadwood_after_discard
    what = "deadwood" if size == 10 else "deadwood after best discard"
    res = Result(f"{what}, {size} cards, {kind}", "us/call", False, None,
                 targets={"openspiel": 1 / 3, "rlcard": 5.0},
                 target_text="os >=0.33x, rl >=5x")
    expected = [ours_fn(m) for m in hands]
    runs = {"ours": (over_list(ours_fn, hands), plan.repeats)}
    if peers.HAVE_OPENSPIEL:
        inputs = [peers.openspiel_cards(m) for m in hands]
        fn = peers.openspiel_utils().min_deadwood
        runs["openspiel"] = (over_list(fn, inputs), plan.repeats)
        res.notes.append(_disagreements("openspiel min_deadwood", fn, inputs, expected))
    if peers.HAVE_RLCARD:
        rl_inputs = [peers.rlcard_cards(m) for m in hands]
        rl_fn = peers.rlcard_deadwood_10 if size == 10 else peers.rlcard_deadwood_11
        runs["rlcard"] = (over_list(rl_fn, rl_inputs), plan.rl_repeats)
        res.notes.append(_disagreements("rlcard", rl_fn, rl_inputs, expected))
    best = interleaved_best(runs)
    res.ours, res.openspiel, res.rlcard = best["ours"], best.get("openspiel"), best.get("rlcard")
    if peers.HAVE_RLCARD and size == 11:
        # RLCard's own rule agent solves each discard separately: slower still
        slow = over_list(peers.rlcard_deadwood_11_per_discard, rl_inputs)()
        res.notes.append(f"rlcard one solve per discard (its rule agent's route): "
                         f"{slow:.1f} us/call")
    return res


def _disagreements(name: str, fn: Callable[[Any], int], inputs: Sequence[Any],
                   expected: Sequence[int]) -> str:
    bad = sum(fn(x) != e for x, e in zip(inputs, expected, strict=True))
    return f"{name} differs from ours on {bad}/{len(inputs)} hands"


# --- b. random hands per second ----------------------------------------------


def ours_hands_per_second(seconds: float, seed: int) -> float:
    """Whole random matches (to 100 points) until ``seconds`` pass; a match
    plays many hands, so count hands, not matches."""
    rng = random.Random(seed)
    hands = matches = 0
    t0 = perf_counter()
    while True:
        state = new_state("gin", seed=seed * 1_000_003 + matches)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        hands += state.hand_number  # hands dealt = hands played at the end
        matches += 1
        elapsed = perf_counter() - t0
        if elapsed >= seconds:
            return hands / elapsed


def openspiel_hands_per_second(seconds: float, seed: int) -> float:
    """OpenSpiel's game is one hand; chance nodes sampled from their outcomes."""
    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("gin_rummy")
    hands = 0
    t0 = perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        hands += 1
        elapsed = perf_counter() - t0
        if elapsed >= seconds:
            return hands / elapsed


def rlcard_hands_per_second(seconds: float, seed: int) -> float:
    """RLCard's env plays one hand per ``run``."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    hands = 0
    t0 = perf_counter()
    while True:
        env.run(is_training=False)
        hands += 1
        elapsed = perf_counter() - t0
        if elapsed >= seconds:
            return hands / elapsed


def bench_hands(plan: Plan) -> Result:
    def rate_run(fn: Callable[[float, int], float]) -> Callable[[], float]:
        seeds = iter(range(1, 1_000_000))
        # negated: interleaved_best keeps the least, the best rate is the most
        return lambda: -fn(plan.seconds, next(seeds))

    runs = {"ours": (rate_run(ours_hands_per_second), plan.rate_repeats)}
    if peers.HAVE_OPENSPIEL:
        runs["openspiel"] = (rate_run(openspiel_hands_per_second), plan.rate_repeats)
    if peers.HAVE_RLCARD:
        runs["rlcard"] = (rate_run(rlcard_hands_per_second), plan.rate_repeats)
    best = {k: -v for k, v in interleaved_best(runs).items()}
    res = Result("random hands per second", "hands/s", True, best["ours"],
                 best.get("openspiel"), best.get("rlcard"),
                 targets={"openspiel": 2.0, "rlcard": 8.0}, target_text="os >=2x, rl >=8x")
    res.notes.append("ours: random legal actions over whole matches to 100, counting hands; "
                     "openspiel: one game = one hand, chance sampled; rlcard: env.run per hand")
    return res


# --- c. clone cost ---------------------------------------------------------


def ours_midhand_states(n: int, seed: int) -> list[Any]:
    """States 10-50 actions into one of the first four hands of a random match."""
    rng = random.Random(seed)
    out: list[Any] = []
    match = 0
    while len(out) < n:
        state = new_state("gin", seed=seed * 1000 + match)
        match += 1
        target_hand, k = rng.randint(1, 4), rng.randint(10, 50)
        hand_no, in_hand = state.hand_number, 0
        while not state.is_terminal():
            if state.hand_number != hand_no:
                hand_no, in_hand = state.hand_number, 0
            if hand_no >= target_hand and in_hand == k:
                out.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
            in_hand += 1
    return out


def openspiel_midhand_states(n: int, seed: int) -> list[Any]:
    """States 10-50 decisions after the deal."""
    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("gin_rummy")
    out: list[Any] = []
    while len(out) < n:
        state = game.new_initial_state()
        k, decisions = rng.randint(10, 50), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if decisions == k:
                out.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return out


def clone_run(states: Sequence[Any], reps: int) -> Callable[[], float]:
    """A run cloning each state ``reps`` times; returns microseconds per clone."""

    def loop() -> None:
        for s in states:
            clone = s.clone
            for _ in range(reps):
                clone()

    run = timed(loop)
    return lambda: run() / (len(states) * reps) * 1e6


def bench_clone(plan: Plan) -> Result:
    runs = {"ours": (clone_run(ours_midhand_states(plan.clone_states, 5), plan.clone_reps),
                     plan.repeats)}
    if peers.HAVE_OPENSPIEL:
        runs["openspiel"] = (clone_run(openspiel_midhand_states(plan.clone_states, 5),
                                       plan.clone_reps), plan.repeats)
    best = interleaved_best(runs)
    res = Result("clone() of a mid-hand state", "us/clone", False, best["ours"],
                 best.get("openspiel"), targets={"openspiel": 4.0}, target_text="os >=4x")
    res.notes.append("rlcard has no state clone (only env step_back)")
    return res


# --- d. PLACEHOLDER: memory of a long recorded simulation ---------------------

# Runs the command, then prints the peak RSS (KiB on Linux) of its children,
# so each measurement is isolated from the benchmark process and from each other.
_RSS_WRAPPER = (
    "import resource, subprocess, sys\n"
    "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _peak_rss_kib(cmd: list[str]) -> tuple[int, int]:
    """``(exit code, peak RSS in KiB)`` of ``cmd`` run as a subprocess."""
    # the working tree's rummylab, whatever is installed
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", _RSS_WRAPPER, *cmd],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": path})
    rc, kib = out.stdout.split()
    return int(rc), int(kib)


def bench_record_memory(plan: Plan) -> Result:
    """"Simulating 10,000 matches with --record keeps peak memory flat".

    Runs ``python -m rummylab simulate gin --bots simple,simple --games N
    --seed 1 --record FILE`` (the working tree's) for N a tenth of
    ``plan.memory_games`` and then all of it, and compares the peak RSS of
    the two child processes (``getrusage(RUSAGE_CHILDREN).ru_maxrss``). Flat
    means the large run peaks at most 25% + 8 MiB above the small one, i.e.
    the record is streamed, not held. 10,000 matches
    take ~4 minutes of simple bots, so the default full run plays 1,000;
    ``--memory-games 10000`` runs the full claim.
    """
    large = plan.memory_games
    small = max(1, large // 10)
    res = Result(f"peak RSS, simulate {large} matches --record", "MiB", False, None,
                 target_text=f"flat vs {small} matches")
    peaks: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        for games in (small, large):
            record = str(Path(tmp) / f"gin-{games}.jsonl")
            cmd = [sys.executable, "-m", "rummylab", "simulate", "gin", "--bots",
                   "simple,simple", "--games", str(games), "--seed", "1", "--record", record]
            rc, kib = _peak_rss_kib(cmd)
            if rc != 0:
                res.passed = False
                res.notes.append(f"`{' '.join(cmd)}` exited {rc}")
                return res
            peaks.append(kib)
    res.ours = peaks[1] / 1024
    res.passed = peaks[1] <= 1.25 * peaks[0] + 8 * 1024
    res.notes.append(f"peak RSS {peaks[0] / 1024:.1f} MiB at {small} matches, "
                     f"{peaks[1] / 1024:.1f} MiB at {large}")
    return res


# --- report --------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = cpu_model()
    versions = {}
    for dist in ("open_spiel", "rlcard", "numpy"):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "peers": versions,
        "rummylab_commit": commit,
        # other work on the machine skews absolute times more than ratios
        "loadavg_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def _fmt(x: float | None) -> str:
    if x is None:
        return "n/a"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def table(results: Sequence[Result]) -> str:
    head = ["metric", "unit", "ours", "openspiel", "rlcard", "vs os", "vs rl", "target",
            "result"]
    rows = [head]
    for r in results:
        ratios = [r.speedup(p) for p in PEERS]
        rows.append([r.metric, r.unit, _fmt(r.ours), _fmt(r.openspiel), _fmt(r.rlcard),
                     *("n/a" if s is None else f"{s:.2f}x" for s in ratios),
                     r.target_text, r.verdict()])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for i, row in enumerate(rows):
        cells = [c.ljust(w) if j in (0, 1, 7) else c.rjust(w)
                 for j, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, for CI")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a target fails")
    ap.add_argument("--memory-games", type=int, metavar="N",
                    help="matches in the large recorded simulation (full: 1000, quick: 200)")
    args = ap.parse_args(argv)
    refuse_unwritable(ap, args.json)
    plan = QUICK if args.quick else FULL
    if args.memory_games is not None:
        if args.memory_games < 10:
            ap.error("--memory-games must be at least 10")
        plan = replace(plan, memory_games=args.memory_games)
    peers.check_card_maps()

    info = machine()
    print(f"machine: nproc={info['nproc']} cpu={info['cpu'] or '?'}")
    print(f"python {info['python']} ({info['implementation']}) on {info['platform']}")
    print("peers: " + ", ".join(f"{k} {v or 'not installed'}" for k, v in info["peers"].items()))
    if info["loadavg_start"]:
        print("load average at start: " + " ".join(f"{x:.2f}" for x in info["loadavg_start"]))
    print(f"mode: {'quick' if args.quick else 'full'}; times are best of "
          f"{plan.repeats} repeats (rlcard {plan.rl_repeats}), {plan.hands} hands per list\n")

    t0 = perf_counter()
    results: list[Result] = []
    steps: list[Callable[[], Result]] = [
        lambda: bench_deadwood(10, "random", plan),
        lambda: bench_deadwood(10, "dense", plan),
        lambda: bench_deadwood(11, "random", plan),
        lambda: bench_deadwood(11, "dense", plan),
        lambda: bench_hands(plan),
        lambda: bench_clone(plan),
        lambda: bench_record_memory(plan),
    ]
    for step in steps:
        res = step()
        results.append(res)
        print(f"  done: {res.metric} ({perf_counter() - t0:.0f}s)", flush=True)
    elapsed = perf_counter() - t0

    print()
    print(table(results))
    print()
    for r in results:
        for note in r.notes:
            print(f"- {r.metric}: {note}")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"\ntotal {elapsed:.0f}s; load average at end: {load}")

    if args.json:
        payload = {"machine": info, "mode": "quick" if args.quick else "full",
                   "plan": asdict(plan), "seconds": elapsed,
                   "results": [r.to_json() for r in results]}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
    failed = [r.metric for r in results if r.verdict() == "FAIL"]
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
