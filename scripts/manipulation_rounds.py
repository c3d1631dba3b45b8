"""One Manipulation bot against simple bots over single rounds: a cheap,
low-variance look at a change before a full arena run.

Plays the first round of ``--deals`` three-player deals, each once with the
bot in every seat (the two other seats ``simple``; the engine shuffles from
the seed only, so each seating sees the same deck), and prints the bot's
share of rounds won (a tie counts as a fraction; a bot as good as simple gets
1/3), its round points and the simple bots' (mean per seat), its hand value
at the end of the round, and how often it went out. Deal ``d`` uses engine
seed ``seed * 100000 + d``.

    python scripts/manipulation_rounds.py --bot strong --deals 200 --seed 2
    python scripts/manipulation_rounds.py --bot strong:budget=0 --deals 200 --seed 2

Two specs on the same deals are compared round by round, which is far less
noisy than comparing their totals: save one run's rounds, then give them to
the other run, which prints the paired differences (mean and standard error)
of rounds won and of points per round, and how many rounds changed result:

    python scripts/manipulation_rounds.py --bot strong:guard=0 --seed 2 --save base.jsonl
    python scripts/manipulation_rounds.py --bot strong --seed 2 --against base.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not
sys.path[:0] = [str(ROOT / "src")]

from rummylab.bots import make_bot  # noqa: E402
from rummylab.game import Event  # noqa: E402
from rummylab.manipulation.game import ManipulationState  # noqa: E402
from rummylab.match import apply_move, paired_difference, saved_run, wilson  # noqa: E402


def first_round(spec: str, seat: int, seed: int) -> Event:
    """The result of the first round of a deal, ``spec`` in ``seat``."""
    state = ManipulationState({"players": 3}, seed=seed)
    bots = [make_bot(spec if s == seat else "simple", "manipulation", s) for s in range(3)]
    state.take_events()
    while True:
        s = state.current_player()
        apply_move(state, bots[s].move(state.observation(s)))
        for e in state.take_events():
            if e["type"] == "result":
                return e


def fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit code 2, nothing else done."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def paired(mine: dict[tuple[int, int], list[float]],
           theirs: dict[tuple[int, int], list[float]]) -> str:
    """Paired differences over the rounds both runs played: rounds won and
    points per round (mean and standard error), and rounds whose result
    changed.

    >>> a = {(0, 0): [1.0, 30.0], (0, 1): [0.0, 0.0], (1, 0): [1.0, 20.0]}
    >>> b = {(0, 0): [0.0, 0.0], (0, 1): [0.0, 0.0], (1, 0): [1.0, 10.0]}
    >>> paired(a, b)
    'paired over 3 rounds: won +0.333 (se 0.333), points +13.33 (se 8.82), 1 changed result'
    """
    keys = sorted(set(mine) & set(theirs))
    n = len(keys)
    if n < 2:
        fail("fewer than two rounds in common with --against")
    parts = []
    for name, i, fmt in (("won", 0, "+.3f"), ("points", 1, "+.2f")):
        m, se = paired_difference([mine[k][i] for k in keys], [theirs[k][i] for k in keys])
        parts.append(f"{name} {m:{fmt}} (se {se:{fmt[1:]}})")
    changed = sum(mine[k][0] != theirs[k][0] for k in keys)
    return f"paired over {n} rounds: {', '.join(parts)}, {changed} changed result"


def load_rounds(path: str, seed: int) -> dict[tuple[int, int], list[float]]:
    """A saved run of ``seed``: (deal, seat) -> [share of the round won, points]."""
    try:
        rows = saved_run(path, seed, "rounds", ("deal", "seat", "won", "points"))
    except ValueError as e:
        fail(str(e))
    return {(int(deal), int(seat)): [won, points] for deal, seat, won, points in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", metavar="FILE", help="write each round as a JSON line")
    ap.add_argument("--against", metavar="FILE",
                    help="a saved run of the same seed to compare round by round")
    args = ap.parse_args()
    base = load_rounds(args.against, args.seed) if args.against else None
    if base is not None and sum(d < args.deals for d, _ in base) < 2:
        fail(f"{args.against} holds fewer than two rounds of these {args.deals} deals")
    rounds: dict[tuple[int, int], list[float]] = {}
    try:
        save = open(args.save, "w") if args.save else None  # noqa: SIM115 (written as it goes)
    except OSError as e:
        fail(f"cannot write {args.save}: {e}")
    start = time.perf_counter()
    won = points = others = value = 0.0
    out = n = 0
    for d in range(args.deals):
        for seat in range(3):
            e = first_round(args.bot, seat, args.seed * 100000 + d)
            n += 1
            share = 1 / len(e["winners"]) if seat in e["winners"] else 0.0
            won += share
            rounds[d, seat] = [share, e["points"][seat]]
            if save is not None:
                save.write(json.dumps({"seed": args.seed, "deal": d, "seat": seat, "won": share,
                                       "points": e["points"][seat],
                                       "went_out": e["went_out"] == seat}) + "\n")
                save.flush()
            points += e["points"][seat]
            others += (sum(e["points"]) - e["points"][seat]) / 2
            value += e["values"][seat]
            out += e["went_out"] == seat
    lo, hi = wilson(won, n)
    print(f"{args.bot}: {n} rounds, won {won / n:.3f} [{lo:.3f}, {hi:.3f}], "
          f"points/round {points / n:.2f} (simple {others / n:.2f}), "
          f"hand at the end {value / n:.1f}, went out {out}, "
          f"{time.perf_counter() - start:.0f} s")
    if save is not None:
        save.close()
    if base is not None:
        print(paired(rounds, base))


if __name__ == "__main__":
    main()
