"""Three Thirteen: a bot's share of match wins, estimated from the rounds of
arena records with far less noise than the count of matches won.

A match is eleven rounds, and the lowest total wins it. When no bot's play
depends on the scores (none does by default; ``strong:stakes=X`` above 0
does, and is refused), the rounds of a match are independent, so matches
can be built from rounds played in different matches: each round drawn at
random from the rounds of the same number in which the bot sat in the same
place after the dealer (the place moves one seat each round, as in a real
match). Over many such matches the bot's share of wins (a shared win
counting as a fraction) estimates its match win rate; its standard error
comes from resampling the deals (the seatings of a deal share its cards).

    rummylab arena three-thirteen --bots strong,simple,simple,simple \\
        --games 75 --seed 3 --record strong.jsonl
    python scripts/thirteen_matches.py strong.jsonl

Two records of the same deals (the same ``--games`` and ``--seed``, another
spec for the bot) are compared match by match, the second as the base: the
same resampled deals and the same random draws for both, so the difference
has a far smaller error than either estimate:

    python scripts/thirteen_matches.py trial.jsonl --against strong.jsonl --bot strong
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, NoReturn

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not
sys.path[:0] = [str(ROOT / "src")]

from rummylab.bots import LEVEL_NAMES, parse_bot_spec  # noqa: E402
from rummylab.errors import OptionError, RecordError  # noqa: E402
from rummylab.records import read_matches  # noqa: E402
from rummylab.stats import wilson  # noqa: E402


def fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit code 2, nothing else done."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


class Played(NamedTuple):
    """One match as the bot saw it: its place after the first dealer (1:
    the first to play), each round's penalties in seat order from the bot,
    and its share of the win."""

    place: int
    rounds: tuple[tuple[int, ...], ...]
    win: float


def read_record(path: str, bot: str) -> tuple[str, dict[tuple[int, int], Played]]:
    """The game's setup (players and options) and the matches of an arena
    record by (deal seed, the bot's seat)."""
    bot = LEVEL_NAMES.get(bot, bot)
    out: dict[tuple[int, int], Played] = {}
    setup = None
    n = 0
    try:
        with open(path) as f:
            for lines in read_matches(f):
                n, head = lines[0]
                if head.get("game") != "three-thirteen":
                    fail(f"{path}, line {n}: a {head.get('game')} match, not three-thirteen")
                seats = [str(s) for s in head["seats"]]
                specs = [parse_bot_spec(s) for s in seats]
                mine = [i for i, (name, _) in enumerate(specs)
                        if LEVEL_NAMES.get(name, name) == bot]
                if len(mine) != 1:
                    fail(f"{path}, line {n}: {len(mine)} seats play {bot!r}, not one")
                for spec, (_, options) in zip(seats, specs, strict=True):
                    if float(options.get("stakes", 0)):
                        fail(f"{path}, line {n}: {spec} plays by the scores, so the rounds "
                             f"of a match are not independent")
                this = json.dumps([len(seats), head.get("options")], sort_keys=True)
                if setup not in (None, this):
                    fail(f"{path}, line {n}: a match of another setup (players, options) "
                         f"than the first")
                setup = this
                seat = mine[0]
                deals = [e for _, e in lines if e["type"] == "deal"]
                results = [e["penalties"] for _, e in lines if e["type"] == "result"]
                end = lines[-1][1]
                rounds = tuple(tuple(int(p[(seat + k) % len(seats)]) for k in range(len(seats)))
                               for p in results)
                win = 1 / len(end["winners"]) if seat in end["winners"] else 0.0
                key = (int(head["seed"]), seat)
                if key in out:
                    fail(f"{path}, line {n}: the deal and seating of an earlier match again")
                out[key] = Played((seat - int(deals[0]["dealer"])) % len(seats), rounds, win)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"cannot read {path}: not text")
    except RecordError as e:
        fail(f"{path}, {e}")
    except (KeyError, TypeError, ValueError, IndexError, OptionError) as e:
        fail(f"{path}, line {n}: not an arena record of Three Thirteen "
             f"({type(e).__name__}: {e})")
    if setup is None:
        fail(f"{path} holds no match")
    return setup, out


def estimate(runs: Sequence[Sequence[Played]], matches: int, seed: int) -> list[float]:
    """Each run's share of ``matches`` matches built from its rounds; the
    runs are paired (index ``i`` of each run is the same deal and seating)
    and draw alike. Every round of a built match comes from a played match
    that began with the bot in the same place, so in each round the bot
    sits where the built match has it.

    >>> a = Played(1, ((0, 5, 5), (0, 5, 5)), 1.0)  # the bot wins both rounds
    >>> b = Played(1, ((9, 5, 5), (9, 5, 5)), 0.0)
    >>> estimate([[a, b], [a, a]], 4000, 1)[1]
    1.0
    >>> round(estimate([[a, b]], 20000, 1)[0], 2)  # 0+0, 0+9, 9+0 win; 9+9 loses
    0.75
    """
    n = len(runs[0][0].rounds[0])
    count = len(runs[0][0].rounds)
    by_place: dict[int, list[int]] = {}
    for i, m in enumerate(runs[0]):
        if len(m.rounds) != count:
            raise ValueError("matches of different lengths")
        by_place.setdefault(m.place, []).append(i)
    rng = random.Random(seed)
    places = sorted(by_place)
    shares = [0.0] * len(runs)
    for _ in range(matches):
        pool = by_place[places[rng.randrange(len(places))]]
        picks = [pool[rng.randrange(len(pool))] for _ in range(count)]
        for j, run in enumerate(runs):
            totals = [0] * n
            for r, i in enumerate(picks):
                for s, p in enumerate(run[i].rounds[r]):
                    totals[s] += p
            low = min(totals)
            if totals[0] == low:
                shares[j] += 1 / totals.count(low)
    return [s / matches for s in shares]


def resampled(runs: Sequence[dict[tuple[int, int], Played]], resamples: int, matches: int,
              seed: int = 1) -> list[tuple[float, float]]:
    """Per run: the estimate over every match the runs share, and its
    standard error over ``resamples`` resamplings of the deals; with two runs
    a last pair, the paired difference of the first less the second."""
    keys = sorted(set.intersection(*(set(r) for r in runs)))
    if not keys:
        raise ValueError("the records share no match (other deals, or other seatings)")
    deals: dict[int, list[tuple[int, int]]] = {}
    for k in keys:
        deals.setdefault(k[0], []).append(k)
    seeds = sorted(deals)
    if len(seeds) < 2:
        raise ValueError("the records share matches of one deal only: no error to resample")
    full = estimate([[r[k] for k in keys] for r in runs], matches, seed)
    rng = random.Random(seed)
    boots: list[list[float]] = []
    for _ in range(resamples):
        picked = [k for _ in seeds for k in deals[seeds[rng.randrange(len(seeds))]]]
        boots.append(estimate([[r[k] for k in picked] for r in runs], matches // 4,
                              rng.randrange(1 << 30)))
    out = [(full[j], statistics.stdev(b[j] for b in boots)) for j in range(len(runs))]
    if len(runs) == 2:
        out.append((full[0] - full[1], statistics.stdev(b[0] - b[1] for b in boots)))
    return out


def describe(path: str, run: dict[tuple[int, int], Played]) -> str:
    n = len(run)
    won = sum(m.win for m in run.values())
    lo, hi = wilson(won, n)
    mine = sum(sum(r[0] for r in m.rounds) for m in run.values())
    theirs = sum(sum(sum(r[1:]) / (len(r) - 1) for r in m.rounds) for m in run.values())
    return (f"{path}: {n} matches, won {won:g} = {won / n:.3f} [{lo:.3f}, {hi:.3f}], "
            f"mean total {mine / n:.1f} against {theirs / n:.1f} ({mine / theirs:.3f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("record", help="an arena record (--record FILE) of three-thirteen")
    ap.add_argument("--bot", default="strong",
                    help="the bot followed, by name (default strong; hard, its player "
                         "name, too); one seat of each match must play it")
    ap.add_argument("--against", metavar="RECORD", help="a record of the same deals to compare")
    ap.add_argument("--matches", type=int, default=100000, metavar="N",
                    help="built matches for the estimate (a quarter of them per resample)")
    ap.add_argument("--resamples", type=int, default=40, metavar="K")
    args = ap.parse_args()
    if args.matches < 4 or args.resamples < 2:
        fail("--matches must be at least 4 and --resamples at least 2")
    setup, run = read_record(args.record, args.bot)
    runs = [run]
    if args.against:
        other, run = read_record(args.against, args.bot)
        if other != setup:
            fail(f"{args.against} plays another setup (players, options) than {args.record}")
        runs.append(run)
    shared = len(set.intersection(*(set(r) for r in runs)))
    try:
        est = resampled(runs, args.resamples, args.matches)
    except ValueError as e:
        fail(str(e))
    for path, run in zip([args.record, args.against], runs, strict=False):
        print(describe(path, run))
    print(f"estimate from rounds drawn at random ({shared} matches): {est[0][0]:.4f} "
          f"(se {est[0][1]:.4f})" + ("" if len(runs) == 1 else
          f"; {args.against} {est[1][0]:.4f} (se {est[1][1]:.4f}); "
          f"paired {est[2][0]:+.4f} (se {est[2][1]:.4f})"))


if __name__ == "__main__":
    main()
