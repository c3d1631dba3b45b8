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

(``--save FILE`` writes each round to ``FILE.part`` as it goes and renames it
onto ``FILE`` at the end, so a run that fails or is stopped leaves an older
``FILE`` whole; a device or a link, such as /dev/stdout, is written in place.)

A match is won by the points of its rounds, not by their count (§4.11: once
a round brings a player to 150, each player there adds a 100-point bonus,
every other player 25 for each round won, and the most points win), so the
script also estimates the bot's share of *matches*: matches whose rounds are
drawn at random from the rounds played. That needs the bots' play not to
depend on the scores (the rounds of a match are then independent: not so
for ``strong:race=N``); the three seatings of a deal cover the seats' places
after the dealer. Its standard error comes from resampling the deals;
against a saved run the two estimates are paired (the same resampled deals,
the same draws for each match).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, NoReturn

ROOT = Path(__file__).resolve().parent.parent
# measure the working tree, installed or not
sys.path[:0] = [str(ROOT / "src")]

from rummylab.bots import make_bot  # noqa: E402
from rummylab.errors import RummyError  # noqa: E402
from rummylab.game import Event  # noqa: E402
from rummylab.manipulation.game import ManipulationState  # noqa: E402
from rummylab.match import apply_move  # noqa: E402
from rummylab.records import staged_path, unwritable  # noqa: E402
from rummylab.stats import paired_difference, saved_run, wilson  # noqa: E402


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


# one round as the bot saw it: the points and the round-won shares of the
# bot, the next seat and the last, in seat order from the bot
Round = tuple[tuple[float, float, float], tuple[float, float, float]]
TARGET, GAME_BONUS, ROUND_BONUS = 150, 100, 25  # §4.11, the game's defaults


def final_share(scores: Sequence[float], won: Sequence[int]) -> float:
    """The bot's (seat 0's) share of the match win once a round has brought
    a seat to the target (§4.11): each seat there adds the game bonus to its
    points, every other seat the round bonus for each round it won; the most
    points win, and a tie shares the win.

    >>> final_share([145.0, 150.0, 0.0], [5, 1, 0])  # 145 + 5 x 25 beats 150 + 100
    1.0
    >>> final_share([150.0, 150.0, 20.0], [2, 3, 1])  # both reached it: 250 each
    0.5
    """
    final = [p + (GAME_BONUS if p >= TARGET else ROUND_BONUS * w)
             for p, w in zip(scores, won, strict=True)]
    best = max(final)
    return 1 / final.count(best) if final[0] == best else 0.0


def match_share(rounds: Sequence[Round], matches: int, seed: int) -> float:
    """The bot's share of ``matches`` matches whose rounds are drawn at
    random from ``rounds`` until one brings a seat to the target. Match
    ``m`` draws from its own stream of ``seed``, so two lists of rounds
    paired position by position are drawn alike match by match.

    >>> won = ((60.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    >>> lost = ((0.0, 60.0, 0.0), (0.0, 1.0, 0.0))
    >>> match_share([won], 10, 1), match_share([lost], 10, 1)
    (1.0, 0.0)
    >>> round(match_share([won, lost, lost], 20000, 1), 2)  # exactly 17/81
    0.21
    """
    if not any(sum(points) for points, _ in rounds):
        raise ValueError("no round scored a point: a match would never end")
    total = 0.0
    n = len(rounds)
    for m in range(matches):
        rng = random.Random(seed * 1_000_003 + m)
        scores = [0.0, 0.0, 0.0]
        won = [0, 0, 0]
        while max(scores) < TARGET:
            points, shares = rounds[rng.randrange(n)]
            for s in range(3):
                scores[s] += points[s]
                won[s] += shares[s] > 0
        total += final_share(scores, won)
    return total / matches


def match_estimates(runs: Sequence[dict[int, list[Round]]], resamples: int = 30,
                    matches: int = 4000, seed: int = 1) -> list[tuple[float, float]]:
    """Per run (deal -> its three rounds, in seat order): the match share and
    its standard error over ``resamples`` resamplings of the deals every run
    played in full, every run drawing from the same resampled deals with the
    same random numbers (so the runs' estimates are paired round by round).
    The last pair is the difference of the first two runs when there are two.

    >>> w, l = ((60.0, 0.0, 0.0), (1.0, 0.0, 0.0)), ((0.0, 60.0, 0.0), (0.0, 1.0, 0.0))
    >>> r = {0: [w, w, w], 1: [l, l, l], 2: [w, l]}  # deal 2 unfinished: left out
    >>> [(round(m, 1), round(se, 1)) for m, se in match_estimates([r, r], 20, 200)]
    [(0.5, 0.3), (0.5, 0.3), (0.0, 0.0)]
    """
    deals = sorted(d for d in set.intersection(*(set(r) for r in runs))
                   if all(len(r[d]) == 3 for r in runs))
    if not deals:
        raise ValueError("no deal played in full")
    rng = random.Random(seed)
    ests: list[list[float]] = [[] for _ in runs]
    for _ in range(resamples):
        pick = [deals[rng.randrange(len(deals))] for _ in deals]
        draws = rng.randrange(1 << 30)
        for i, run in enumerate(runs):
            rounds = [r for d in pick for r in run[d]]
            ests[i].append(match_share(rounds, matches, draws))
    if len(runs) == 2:
        ests.append([a - b for a, b in zip(ests[0], ests[1], strict=True)])
    return [(statistics.fmean(e), statistics.stdev(e)) for e in ests]


def load_matches(path: str, seed: int) -> dict[int, list[Round]] | None:
    """A saved run's rounds by deal, for the match estimate; None for a run
    saved without the other seats' figures."""
    fields = ("deal", "points", "next_points", "last_points", "won", "next_won", "last_won")
    try:
        rows = saved_run(path, seed, "rounds", fields)
    except ValueError:
        return None
    out: dict[int, list[Round]] = {}
    for deal, *figures in rows:
        out.setdefault(int(deal), []).append((tuple(figures[:3]), tuple(figures[3:])))  # type: ignore[arg-type]
    return out


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
    ap.add_argument("--matches", type=int, default=4000, metavar="N",
                    help="matches per resample for the match estimate (0: none)")
    args = ap.parse_args()
    if args.deals < 1:
        fail("--deals must be at least 1")
    if args.matches < 0:
        fail("--matches must be at least 0")
    try:
        make_bot(args.bot, "manipulation", 0)  # a bad spec fails before anything runs
    except RummyError as e:
        fail(str(e))
    if args.save and (reason := unwritable(Path(args.save))):
        fail(reason)
    base = load_rounds(args.against, args.seed) if args.against else None
    # read once, before the run: the saved rounds by deal, for the paired match estimate
    theirs = load_matches(args.against, args.seed) if args.against and args.matches else None
    if base is not None and sum(d < args.deals for d, _ in base) < 2:
        fail(f"{args.against} holds fewer than two rounds of these {args.deals} deals")
    rounds: dict[tuple[int, int], list[float]] = {}
    by_deal: dict[int, list[Round]] = {}
    # written as it goes to FILE.part, renamed at the end, so a run that fails
    # or is stopped leaves an older FILE whole (a device or a link in place)
    with staged_path(Path(args.save) if args.save else None) as part:
        try:
            save = part.open("w", encoding="utf-8") if part else None
        except OSError as e:
            fail(f"cannot write {part}: {e.strerror}")
        try:
            play(args, rounds, by_deal, save)
        finally:
            if save is not None:
                save.close()
    if base is not None:
        print(paired(rounds, base))
    if args.matches:
        runs = [by_deal] if theirs is None else [by_deal, theirs]
        try:
            est = match_estimates(runs, matches=args.matches)
        except ValueError as e:
            print(f"match share: none ({e})")
            return
        print(f"match share, rounds drawn at random: {est[0][0]:.3f} (se {est[0][1]:.3f})"
              + ("" if theirs is None else f"; the saved run {est[1][0]:.3f}, paired "
                 f"{est[2][0]:+.3f} (se {est[2][1]:.3f})"))


def play(args: argparse.Namespace, rounds: dict[tuple[int, int], list[float]],
         by_deal: dict[int, list[Round]], save: IO[str] | None) -> None:
    """Play the first round of every deal with the bot in each seat, fill
    ``rounds`` and ``by_deal``, write each round to ``save`` and print the
    bot's figures."""
    start = time.perf_counter()
    won = points = others = value = lost_value = 0.0
    out = n = lost = 0
    for d in range(args.deals):
        for seat in range(3):
            e = first_round(args.bot, seat, args.seed * 100000 + d)
            n += 1
            order = [seat, (seat + 1) % 3, (seat + 2) % 3]
            shares = [1 / len(e["winners"]) if s in e["winners"] else 0.0 for s in order]
            pts = [float(e["points"][s]) for s in order]
            won += shares[0]
            rounds[d, seat] = [shares[0], pts[0]]
            by_deal.setdefault(d, []).append(((pts[0], pts[1], pts[2]),
                                              (shares[0], shares[1], shares[2])))
            if save is not None:
                save.write(json.dumps({
                    "seed": args.seed, "deal": d, "seat": seat, "won": shares[0],
                    "points": e["points"][seat], "went_out": e["went_out"] == seat,
                    "hand": e["values"][seat], "next_points": pts[1], "last_points": pts[2],
                    "next_won": shares[1], "last_won": shares[2]}) + "\n")
                save.flush()
            points += e["points"][seat]
            others += (sum(e["points"]) - e["points"][seat]) / 2
            value += e["values"][seat]
            if not shares[0]:
                lost += 1
                lost_value += e["values"][seat]
            out += e["went_out"] == seat
    lo, hi = wilson(won, n)
    print(f"{args.bot}: {n} rounds, won {won / n:.3f} [{lo:.3f}, {hi:.3f}], "
          f"points/round {points / n:.2f} (simple {others / n:.2f}), "
          f"hand at the end {value / n:.1f} ({lost_value / max(lost, 1):.1f} in rounds lost), "
          f"went out {out}, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
