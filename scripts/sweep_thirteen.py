"""Exactness sweep: the Three Thirteen solver against brute force.

On ``--n`` seeded hands, spread evenly over all eleven rounds (the round's
wild rank; hands of r + 2 cards and, after the draw, r + 3: 3 to 14 cards),
one and two decks, and four kinds of hand (random, wild-heavy, duplicate-heavy
(two decks), meld-dense; see ``tests/helpers.thirteen_hand``), it checks with
``natural_wild_sets`` off and on that

- ``penalty(hand)`` (every card counts) and ``penalty_after_discard(hand)``
  equal the reference;
- ``solve(hand)`` and ``solve(hand, discard=True)`` reach that penalty with
  legal combinations (``reference.thirteen_is_combo``) that use exactly the
  hand's cards less the discard, each wild standing for a card that fits its
  combination, the unmatched cards worth the penalty.

The reference is ``reference.thirteen_penalty`` (every partition of the hand)
for hands of up to ``--brute-max`` cards; above that it is exponential, so
bigger hands use ``tests/helpers.thirteen_reference``, the same exhaustive
search with interchangeable wilds counted rather than picked (it shares no
code with the solver). On hands both can do, the two references are compared
too. Exits 1 on any disagreement or crash.

    python scripts/sweep_thirteen.py --n 50000
    python scripts/sweep_thirteen.py --n 2000 --seed 3 --brute-max 10
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# check the working tree, installed or not; tests/ holds the generators and the reference
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from helpers import (  # noqa: E402
    HAND_KINDS13,
    thirteen_hand,
    thirteen_reference,
    thirteen_solution_problems,
)
from rummylab.cards import cards_str, multi_of  # noqa: E402
from rummylab.reference import thirteen_penalty  # noqa: E402
from rummylab.three_thirteen.solver import penalty, penalty_after_discard, solve  # noqa: E402

Group = tuple[int, int, str]  # round, decks, kind


def groups() -> list[Group]:
    """Every round, one and two decks, every kind of hand (duplicate-heavy
    hands need two decks)."""
    return [(r, d, k) for r in range(1, 12) for d in (1, 2) for k in HAND_KINDS13
            if not (k == "dup" and d == 1)]


def check(cards: list[int], wild_rank: int, brute_max: int) -> tuple[list[str], str]:
    """Problems with the solver on one hand, in all four modes; and which
    reference decided."""
    hand = multi_of(cards)
    problems: list[str] = []
    small = len(cards) <= brute_max
    for all_wild in (False, True):
        for discard in (False, True):
            mode = f"natural_wild_sets={all_wild} discard={discard}"
            ref = thirteen_reference(cards, wild_rank, all_wild, discard)
            if small:
                want = thirteen_penalty(cards, wild_rank, all_wild, discard)
                if ref != want:
                    problems.append(f"reference ({mode}): {ref}, brute force {want}")
            else:
                want = ref
            fn: Callable[..., int] = penalty_after_discard if discard else penalty
            got = fn(hand, wild_rank, natural_wild_sets=all_wild)
            if got != want:
                problems.append(f"{fn.__name__} ({mode}): got {got}, want {want}")
            sol = solve(hand, wild_rank, natural_wild_sets=all_wild, discard=discard)
            problems += [f"solve ({mode}): {p}" for p in
                         thirteen_solution_problems(cards, wild_rank, all_wild, discard, sol,
                                                    want)]
    return problems, "brute force" if small else "reference"


def sweep(n: int, seed: int, brute_max: int) -> int:
    gs = groups()
    per = [n // len(gs) + (1 if i < n % len(gs) else 0) for i in range(len(gs))]
    hands: Counter[str] = Counter()
    by_ref: Counter[str] = Counter()
    sizes: Counter[int] = Counter()
    failures: Counter[str] = Counter()
    examples: list[str] = []
    done, mark, t0 = 0, 1, perf_counter()
    for (round_, decks, kind), count in zip(gs, per, strict=True):
        rng = random.Random(f"sweep-thirteen/{round_}/{decks}/{kind}/{seed}")
        wild_rank = round_ + 1  # §3.2: round r's wild rank is r + 2
        for i in range(count):
            size = round_ + 2 + i % 2  # before and after the draw
            cards = thirteen_hand(rng, kind, size, wild_rank, decks)
            try:
                problems, ref = check(cards, wild_rank, brute_max)
            except Exception as e:  # a crash is a failure, with the hand shown
                problems, ref = [f"raised {type(e).__name__}: {e}"], "-"
            group = f"round {round_:2d} {decks} deck{'s' if decks > 1 else ' '} {kind}"
            hands[group] += 1
            by_ref[ref] += 1
            sizes[size] += 1
            for p in problems:
                failures[f"{group}: {p.split(':')[0]}"] += 1
            if problems and len(examples) < 20:
                examples.append(f"[{group}] {cards_str(sorted(cards))}: " + "; ".join(problems))
            done += 1
            while mark <= 20 and done * 20 >= mark * n:
                print(f"  {mark * 5:3d}%  {done}/{n} hands  {perf_counter() - t0:.0f}s  "
                      f"failures so far: {sum(failures.values())}", flush=True)
                mark += 1
    total = sum(hands.values())
    print(f"\nhands checked: {total}, each in 4 modes (natural_wild_sets off/on x "
          f"discard off/on): {8 * total} solver calls")
    print("by hand size: " + ", ".join(f"{s}: {c}" for s, c in sorted(sizes.items())))
    print("decided by: " + ", ".join(f"{k}: {c}" for k, c in sorted(by_ref.items()))
          + f" (brute force up to {brute_max} cards, also checking the reference)")
    per_round = Counter()
    for g, c in hands.items():
        per_round[g[:8]] += c
    print("by round: " + ", ".join(f"{g.strip()}: {c}" for g, c in sorted(per_round.items())))
    if failures:
        print(f"SOLVER DISAGREES: {sum(failures.values())} failed checks")
        for key, c in sorted(failures.items()):
            print(f"  {key}: {c}")
        for line in examples:
            print("  " + line)
        return 1
    print("0 disagreements: penalty, penalty_after_discard and solve (with and without "
          "discard) equal the reference; every combination legal, wilds consistent, "
          "cards exactly the hand's")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--n", type=int, default=50_000, help="hands in all (default 50000)")
    ap.add_argument("--seed", type=int, default=0, help="hand generator seed (default 0)")
    ap.add_argument("--brute-max", type=int, default=9,
                    help="largest hand checked by the full brute force (default 9)")
    args: Any = ap.parse_args(argv)
    if args.n < 1:
        ap.error("--n must be positive")
    print(f"sweep: {args.n} Three Thirteen hands, rounds 1-11, 1 and 2 decks, kinds "
          f"{', '.join(HAND_KINDS13)}, seed {args.seed}", flush=True)
    return sweep(args.n, args.seed, args.brute_max)


if __name__ == "__main__":
    sys.exit(main())
