"""Environment steps per second of the research adapters, beside PettingZoo's
last gin_rummy (``pettingzoo.classic.gin_rummy_v4``, PettingZoo 1.26.1, on
RLCard) in the same run.

    python benchmarks/bench_rl.py             # about 2 minutes on 2 cores
    python benchmarks/bench_rl.py --quick     # about 20 s
    python benchmarks/bench_rl.py --json out.json --strict

Every adapter plays uniformly random legal actions with the same agent code
(``legal = flatnonzero(mask); legal[rng.integers(len(legal))]``), so the
rate includes building each observation and mask, as a learner would pay.
A *step* is one ``env.step`` of an acting agent (AEC: dead-agent steps at
the end of an episode are not counted; Gymnasium: one learner step, the
bots' moves in between included in its cost; OpenSpiel: one player move,
the card-by-card chance nodes of the deal included in its cost). Each
number is the best of a few timed repeats, the adapters taking turns repeat
by repeat so a burst of load on a shared machine hits them alike.

Needs the ``rl`` extra, and the ``benchmark`` extra for the PettingZoo
gin_rummy column (``pettingzoo==1.26.1``, ``rlcard``, ``pygame-ce``); a
missing peer is reported as ``n/a``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]  # measure the working tree

import numpy as np  # noqa: E402

import rummylab.rl  # noqa: E402
from benchmarks.machine import refuse_unwritable  # noqa: E402
from rummylab.rl import aec_env, gym_env  # noqa: E402

TARGET = 5.0  # rummylab Gin AEC steps/s over gin_rummy_v4's


@dataclass
class Row:
    adapter: str
    game: str
    rate: float | None  # steps per second
    note: str = ""


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


# -- the loops ----------------------------------------------------------------


def aec_rate(make: Callable[[], Any], seconds: float, episode_cap: int, seed: int) -> float:
    """Acting-agent steps per second of an AEC env under random legal play."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = 0
    episode = 0
    start = perf_counter()
    while perf_counter() - start < seconds:
        env.reset(seed=seed + episode)
        episode += 1
        n = 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if n >= episode_cap:
                break
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
        steps += n
    return steps / (perf_counter() - start)


def gym_rate(make: Callable[[], Any], seconds: float, episode_cap: int, seed: int) -> float:
    """Learner steps per second of the Gymnasium wrapper (random legal)."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = 0
    episode = 0
    start = perf_counter()
    while perf_counter() - start < seconds:
        obs, _ = env.reset(seed=seed + episode)
        episode += 1
        for _ in range(episode_cap):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if term or trunc:
                break
    return steps / (perf_counter() - start)


def spiel_rate(game: Any, seconds: float, seed: int) -> float:
    """Player moves per second of an OpenSpiel game, chance nodes sampled."""
    rng = np.random.default_rng(seed)
    steps = 0
    start = perf_counter()
    while perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
    return steps / (perf_counter() - start)


# -- the table -------------------------------------------------------------------


def measure(seconds: float, repeats: int, manip_seconds: float) -> list[Row]:
    runs: list[tuple[str, str, Callable[[], float], str]] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import gin_rummy_v4  # type: ignore[import-not-found]
        gin_rummy_v4.env()
    except Exception as e:
        runs.append(("PettingZoo gin_rummy_v4 (RLCard)", "gin", lambda: float("nan"),
                     f"n/a: {type(e).__name__}: {e}"))
    else:
        runs.append(("PettingZoo gin_rummy_v4 (RLCard)", "gin",
                     lambda: aec_rate(gin_rummy_v4.env, seconds, 10_000, 1), "peer"))
    for game, kw, secs, cap in [
        ("gin", {}, seconds, 2000),
        ("gin3", {}, seconds, 2000),
        ("three_thirteen", {"players": 2}, seconds, 2000),
        ("three_thirteen", {"players": 4}, seconds, 2000),
        ("manipulation", {"players": 3}, manip_seconds, 2000),
    ]:
        label = game + "".join(f" {k}={v}" for k, v in kw.items())
        runs.append(("rummylab AEC", label,
                     lambda g=game, k=kw, s=secs, c=cap: aec_rate(lambda: aec_env(g, **k), s, c, 1),
                     ""))
    runs.append(("rummylab AEC, unwrapped", "gin",
                 lambda: aec_rate(lambda: aec_env("gin", wrap=False), seconds, 2000, 1),
                 "no OrderEnforcingWrapper"))
    for opp in ("random", "simple"):
        runs.append(("rummylab Gymnasium", f"gin vs {opp}",
                     lambda o=opp: gym_rate(lambda: gym_env("gin", opponent=o), seconds, 2000, 1),
                     "learner steps"))
    if rummylab.rl.HAVE_OPENSPIEL:
        import pyspiel  # type: ignore[import-not-found]

        ours = pyspiel.load_game("python_rummylab_gin")
        runs.append(("rummylab OpenSpiel (Python game)", "gin, 1 hand",
                     lambda: spiel_rate(ours, seconds, 1), "player moves"))
        runs.append(("rummylab OpenSpiel (Python game)", "three_thirteen, 1 round",
                     lambda: spiel_rate(pyspiel.load_game("python_rummylab_three_thirteen"),
                                        seconds, 1), "player moves"))
        cc = pyspiel.load_game("gin_rummy")
        runs.append(("OpenSpiel gin_rummy (C++)", "gin, 1 hand",
                     lambda: spiel_rate(cc, seconds, 1), "reference, player moves"))
    # Manipulation's numba kernel loads (or compiles, with an empty cache) on
    # its first solve: solved once here, untimed, as bench_manipulation.py does
    from rummylab.manipulation.solver import best_play

    for decks in (1, 2):
        best_play((((0, 0), (1, 1), (2, 2)),), [3, 4], decks)
    best: dict[int, float] = {}
    for _rep in range(repeats):
        for i, (_a, _g, run, _n) in enumerate(runs):
            rate = run()
            if rate == rate:  # not NaN
                best[i] = max(best.get(i, 0.0), rate)
    return [Row(a, g, best.get(i), note) for i, (a, g, _r, note) in enumerate(runs)]


def table(rows: list[Row]) -> tuple[str, bool | None]:
    peer = rows[0].rate if rows and rows[0].note == "peer" else None
    lines = ["| adapter | game | steps/s | vs gin_rummy_v4 | note |",
             "|---|---|---:|---:|---|"]
    verdict: bool | None = None
    for r in rows:
        rate = "n/a" if r.rate is None else f"{r.rate:,.0f}"
        ratio = "" if peer is None or r.rate is None else f"{r.rate / peer:.1f}x"
        note = "" if r.note == "peer" else r.note
        if r.adapter == "rummylab AEC" and r.game == "gin" and peer and r.rate:
            verdict = r.rate / peer >= TARGET
            note = f"target >= {TARGET:.0f}x: {'PASS' if verdict else 'FAIL'}"
        lines.append(f"| {r.adapter} | {r.game} | {rate} | {ratio} | {note} |")
    return "\n".join(lines), verdict


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="short runs (about 20 s)")
    ap.add_argument("--seconds", type=float, default=None, help="per timed repeat")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--json", type=Path, help="also write the rows as JSON")
    ap.add_argument("--strict", action="store_true", help="exit 1 if the Gin target fails")
    args = ap.parse_args(argv)
    if args.seconds is not None and not args.seconds > 0:
        ap.error("--seconds must be above 0")
    if args.repeats is not None and args.repeats < 1:
        ap.error("--repeats must be at least 1")
    refuse_unwritable(ap, args.json)
    seconds = args.seconds or (0.5 if args.quick else 3.0)
    repeats = args.repeats or (1 if args.quick else 3)
    print(f"python {platform.python_version()}, numpy {version('numpy')}, "
          f"pettingzoo {version('pettingzoo')}, gymnasium {version('gymnasium')}, "
          f"open_spiel {version('open_spiel')}, rlcard {version('rlcard')}; "
          f"{seconds:g} s x {repeats} repeats")
    rows = measure(seconds, repeats, manip_seconds=max(seconds, 2.0))
    text, verdict = table(rows)
    print(text)
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=2) + "\n")
    return 1 if args.strict and verdict is False else 0


if __name__ == "__main__":
    sys.exit(main())
