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
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not
sys.path[:0] = [str(ROOT / "src")]

from rummylab.bots import make_bot  # noqa: E402
from rummylab.game import Event  # noqa: E402
from rummylab.manipulation.game import ManipulationState  # noqa: E402
from rummylab.match import apply_move, wilson  # noqa: E402


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    start = time.perf_counter()
    won = points = others = value = 0.0
    out = n = 0
    for d in range(args.deals):
        for seat in range(3):
            e = first_round(args.bot, seat, args.seed * 100000 + d)
            n += 1
            if seat in e["winners"]:
                won += 1 / len(e["winners"])
            points += e["points"][seat]
            others += (sum(e["points"]) - e["points"][seat]) / 2
            value += e["values"][seat]
            out += e["went_out"] == seat
    lo, hi = wilson(won, n)
    print(f"{args.bot}: {n} rounds, won {won / n:.3f} [{lo:.3f}, {hi:.3f}], "
          f"points/round {points / n:.2f} (simple {others / n:.2f}), "
          f"hand at the end {value / n:.1f}, went out {out}, "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
