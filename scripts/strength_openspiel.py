"""Strength of one of our Gin bots on OpenSpiel's engine, against its simple bot.

Plays ``--hands`` single hands of OpenSpiel's ``gin_rummy`` (its rules:
knock card 10, gin bonus 25, undercut bonus 25) between our bot and
``pyspiel.make_simple_gin_rummy_bot``, our bot on player 0 in even hands and
player 1 in odd ones, and prints our points per hand (95% CI), hand win
rate (95% Wilson interval), drawn hands, knocks, gins and undercuts, and the
time taken. Needs OpenSpiel (``pip install -e '.[rl]'``).

Against a gin, OpenSpiel's simple bot ends the hand before it lays its melds
(its pass for "no lay-offs" lands where the game has skipped the lay-offs),
so its whole hand counts. The points are OpenSpiel's; the line below them,
"its gin defence corrected", counts its deadwood in those hands as its best
melds leave it (``SpielHand.corrected``, :func:`play_hand`).

    python scripts/strength_openspiel.py --bot simple --hands 10000 --seed 1
    python scripts/strength_openspiel.py --bot random --hands 500 --json out.json
    python scripts/strength_openspiel.py --bot strong --hands 10000 --workers 2

With ``--workers K`` the hands are split into K slices played in parallel
processes; every hand is the same as in one process, and so are the figures
(but the time, which is the wall time of the whole run).

Two bots (or two settings of one) on the same hands are compared hand by
hand, which is far less noisy than comparing their totals: save one run's
hands, then give them to the other run, which prints the paired differences
(mean and standard error) of hands won and of points per hand, and how many
hands changed result:

    python scripts/strength_openspiel.py --bot strong:gin=0 --hands 2000 --seed 11 --save base.jsonl
    python scripts/strength_openspiel.py --bot strong --hands 2000 --seed 11 --against base.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not
sys.path[:0] = [str(ROOT / "src")]

from rich.console import Console  # noqa: E402
from rich.progress import (  # noqa: E402
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table  # noqa: E402

from rummylab.bots import make_bot  # noqa: E402
from rummylab.errors import RummyError  # noqa: E402
from rummylab.records import unwritable  # noqa: E402
from rummylab.rl.openspiel_gin import SpielHand, SpielResult, play_hands  # noqa: E402
from rummylab.stats import paired_difference, saved_run  # noqa: E402


def _slice(bot: str, hands: int, seed: int, first: int, last: int) -> SpielResult:
    return play_hands(bot, hands, seed, first=first, last=last)


def play_parallel(bot: str, hands: int, seed: int, workers: int,
                  advance: Any) -> SpielResult:
    """The hands of ``play_hands`` in ``workers`` processes, in small slices
    (so the progress bar moves), merged back in hand order."""
    start = time.perf_counter()
    step = max(1, min(100, hands // (4 * workers) or 1))
    bounds = [(i, min(i + step, hands)) for i in range(0, hands, step)]
    merged = SpielResult(bot, seed, {})
    with ProcessPoolExecutor(workers) as pool:
        jobs = [pool.submit(_slice, bot, hands, seed, a, b) for a, b in bounds]
        for job in jobs:
            part = job.result()
            merged.params = part.params
            merged.hands.extend(part.hands)
            merged.fallbacks += part.fallbacks
            advance(len(part.hands))
    merged.seconds = time.perf_counter() - start
    return merged


def fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit code 2, nothing played."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def hand_rows(result: SpielResult) -> list[dict[str, Any]]:
    """One row per hand, in hand order: what ``--save`` writes."""
    return [{"seed": result.seed, "hand": i, "player": h.player, "points": h.ours,
             "corrected": h.fair, "outcome": h.outcome, "knocker": h.knocker}
            for i, h in enumerate(result.hands)]


def load_hands(path: str, seed: int) -> dict[int, float]:
    """A saved run of ``seed``: hand -> our points."""
    try:
        rows = saved_run(path, seed, "hands", ("hand", "points"))
    except ValueError as e:
        fail(str(e))
    return {int(hand): points for hand, points in rows}


def paired(mine: dict[int, float], theirs: dict[int, float]) -> str:
    """Paired differences over the hands both runs played: hands won and
    points per hand (mean and standard error), and hands whose result
    changed (won, lost or level).

    >>> paired({0: 25.0, 1: -10.0, 2: 0.0}, {0: 12.0, 1: 8.0, 2: 0.0})
    'paired over 3 hands: won -0.333 (se 0.333), points -1.67 (se 8.99), 1 changed result'
    """
    keys = sorted(set(mine) & set(theirs))
    if len(keys) < 2:
        fail("fewer than two hands in common with --against")

    def won(x: float) -> float:
        return 1.0 if x > 0 else 0.0

    w, w_se = paired_difference([won(mine[k]) for k in keys], [won(theirs[k]) for k in keys])
    p, p_se = paired_difference([mine[k] for k in keys], [theirs[k] for k in keys])

    def sign(x: float) -> int:
        return (x > 0) - (x < 0)

    changed = sum(sign(mine[k]) != sign(theirs[k]) for k in keys)
    return (f"paired over {len(keys)} hands: won {w:+.3f} (se {w_se:.3f}), "
            f"points {p:+.2f} (se {p_se:.2f}), {changed} changed result")


def table(s: dict[str, Any]) -> Table:
    t = Table(title=f"{s['bot']} (ours) vs OpenSpiel simple bot, OpenSpiel gin_rummy, "
                    f"{s['hands']} hands, seed {s['seed']}")
    t.add_column("figure")
    t.add_column("value", justify="right")
    n = s["hands"]
    t.add_row("points per hand (ours)",
              f"{s['points_per_hand']:+.2f}  [{s['points_ci_low']:+.2f}, "
              f"{s['points_ci_high']:+.2f}]")
    t.add_row("  its gin defence corrected (see docs)",
              f"{s['points_per_hand_corrected']:+.2f}  [{s['points_corrected_ci_low']:+.2f}, "
              f"{s['points_corrected_ci_high']:+.2f}]  ({s['gins_corrected']} gins)")
    t.add_row("  as player 0 / player 1",
              f"{s['as_player_0']['points_per_hand']:+.2f} / "
              f"{s['as_player_1']['points_per_hand']:+.2f}")
    t.add_row("hands won (return > 0)",
              f"{s['wins']}  {s['win_rate']:.1%}  [{s['win_ci_low']:.1%}, {s['win_ci_high']:.1%}]")
    t.add_row("hands lost", f"{s['losses']}  {s['losses'] / n:.1%}" if n else "0")
    t.add_row("drawn (no knock)", f"{s['drawn']}  {s['drawn'] / n:.1%}" if n else "0")
    t.add_row("ties (knock, equal deadwood: 0)", str(s["ties"]))
    for side in ("ours", "theirs"):
        who = "ours" if side == "ours" else "OpenSpiel"
        c = s[side]
        t.add_row(f"{who}: knocks won / gins / undercuts made",
                  f"{c['knocks']} / {c['gins']} / {c['undercuts']}")
    t.add_row("moves per hand", f"{s['moves_per_hand']:.1f}")
    t.add_row("lay-down fallbacks (should be 0)", str(s["layout_fallbacks"]))
    t.add_row("time", f"{s['seconds']:.1f} s  ({1000 * s['seconds'] / max(n, 1):.1f} ms/hand)")
    return t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="simple", help="our bot spec (simple, random, ...)")
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", nargs="?", const="-", metavar="FILE",
                    help="also write the summary as JSON (to FILE, or stdout)")
    ap.add_argument("--workers", type=int, default=1,
                    help="processes to play the hands in (default 1)")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--save", metavar="FILE", help="write each hand as a JSON line")
    ap.add_argument("--against", metavar="FILE",
                    help="a saved run of the same seed to compare hand by hand")
    args = ap.parse_args(argv)
    if args.hands < 1:
        fail("--hands must be at least 1")
    if args.workers < 1:
        fail("--workers must be at least 1")
    try:
        make_bot(args.bot, "gin", 0)  # a bad spec fails before anything runs
    except RummyError as e:
        fail(str(e))
    for path in (args.save, None if args.json == "-" else args.json):
        if path and (reason := unwritable(Path(path))):
            fail(reason)
    base = load_hands(args.against, args.seed) if args.against else None
    if base is not None and len(set(base) & set(range(args.hands))) < 2:
        fail(f"{args.against} holds fewer than two of these {args.hands} hands")
    console = Console(stderr=args.json == "-")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  disable=args.no_progress) as progress:
        task = progress.add_task(f"{args.bot} vs OpenSpiel simple", total=args.hands)

        def advance(i: int, hand: SpielHand) -> None:
            progress.advance(task)

        if args.workers > 1:
            result = play_parallel(args.bot, args.hands, args.seed, args.workers,
                                   lambda n: progress.advance(task, n))
        else:
            result = play_hands(args.bot, args.hands, args.seed, on_hand=advance)
    summary = result.summary()
    console.print(table(summary))
    if args.save:
        Path(args.save).write_text("".join(json.dumps(r) + "\n" for r in hand_rows(result)))
    if base is not None:
        ours = {i: h.ours for i, h in enumerate(result.hands)}
        console.print(paired(ours, base), highlight=False, soft_wrap=True)
    if args.json == "-":
        print(json.dumps(summary, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
