"""Exactness sweep: the fast Gin meld solver against brute force.

Checks, on ``--n`` seeded hands (split evenly: random and meld-dense, 10
and 11 cards, or the ``--sizes`` given), that

- ``deadwood(hand)`` (every card counts) equals ``reference.gin_deadwood``;
- for 11 cards (and any other size but 10), ``deadwood_after_discard(hand)``
  equals ``reference.gin_deadwood_after_discard``;
- ``best_arrangement(hand)`` reaches that deadwood with legal
  (``is_meld`` and brute-force listed), disjoint melds that cover exactly
  the hand less its deadwood cards.

Exits 1 if any check fails. With ``--peers`` it also counts how often
OpenSpiel's ``min_deadwood`` and RLCard's least-deadwood routes differ from
brute force on the same hands, and prints examples.

    python scripts/sweep_gin.py --n 100000
    python scripts/sweep_gin.py --n 100000 --peers   # needs the benchmark extra
    python scripts/sweep_gin.py --n 20000 --sizes 3,6,9,12,13
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# check the working tree, installed or not; benchmarks/ holds the generators
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from benchmarks import handgen  # noqa: E402

from rummylab import reference  # noqa: E402
from rummylab.cards import CARD_POINTS, CardSet, cards_of, mask_str  # noqa: E402
from rummylab.gin import solver as melds  # noqa: E402

Group = tuple[handgen.Kind, int]
DEFAULT_SIZES = (10, 11)
# the peers answer Gin's two hand sizes only
PEER_SIZES = (10, 11)


def groups_for(sizes: Sequence[int]) -> list[Group]:
    """Random hands first, then meld-dense ones, each in every size."""
    return [(kind, size) for kind in handgen.KINDS for size in sizes]


def group_name(group: Group) -> str:
    return f"{group[0]} {group[1]}"


@dataclass
class Tally:
    """Failures of our solver and disagreements of each peer, per group."""

    hands: Counter[str] = field(default_factory=Counter)
    ours: Counter[tuple[str, str]] = field(default_factory=Counter)
    ours_examples: dict[str, list[str]] = field(default_factory=dict)
    peer_checked: Counter[tuple[str, str]] = field(default_factory=Counter)
    peer_wrong: Counter[tuple[str, str]] = field(default_factory=Counter)
    peer_examples: dict[str, list[str]] = field(default_factory=dict)
    os_kinds: Counter[str] = field(default_factory=Counter)


def check_ours(hand: CardSet, size: int) -> tuple[list[str], int, int | None]:
    """Problems found with our solver on ``hand``, and the brute-force
    deadwood (all cards) and, for 11 cards, after the best discard."""
    cards = cards_of(hand)
    problems: list[str] = []
    want = reference.gin_deadwood(cards)
    got = melds.deadwood(hand)
    if got != want:
        problems.append(f"deadwood: got {got}, brute force {want}")
    arr = melds.best_arrangement(hand)
    if arr.deadwood != want:
        problems.append(f"best_arrangement deadwood: got {arr.deadwood}, brute force {want}")
    legal = set(reference.gin_melds(cards))
    union = 0
    for m in arr.melds:
        if not melds.is_meld(m):
            problems.append(f"best_arrangement: is_meld rejects {mask_str(m)}")
        if frozenset(cards_of(m)) not in legal:
            problems.append(f"best_arrangement: {mask_str(m)} is not a meld of the hand")
        if union & m:
            problems.append(f"best_arrangement: {mask_str(m)} overlaps another meld")
        union |= m
    if arr.deadwood_mask & ~hand or union != hand & ~arr.deadwood_mask:
        problems.append(f"best_arrangement: melds {mask_str(union)} + deadwood "
                        f"{mask_str(arr.deadwood_mask)} do not partition the hand")
    want_ad: int | None = None
    # a Gin player discards from 11 cards, never from 10; other sizes check
    # the function's any-size contract (Three Thirteen hands run 3 to 13)
    if size != 10:
        want_ad = reference.gin_deadwood_after_discard(cards)
        got_ad = melds.deadwood_after_discard(hand)
        if got_ad != want_ad:
            problems.append(f"deadwood_after_discard: got {got_ad}, brute force {want_ad}")
    return problems, want, want_ad


# --- peers ----------------------------------------------------------------

PeerFn = Callable[[CardSet], int]


def load_peers() -> dict[tuple[str, int], tuple[str, PeerFn]]:
    """``(peer, hand size) -> (label, fn)``; the 11-card entries answer the
    deadwood after the best discard, as their games use them."""
    from benchmarks import peers

    peers.check_card_maps()
    out: dict[tuple[str, int], tuple[str, PeerFn]] = {}
    if peers.HAVE_OPENSPIEL:
        md = peers.openspiel_utils().min_deadwood
        for size in (10, 11):
            out[("openspiel", size)] = ("openspiel min_deadwood",
                                        lambda h: int(md(peers.openspiel_cards(h))))
    if peers.HAVE_RLCARD:
        out[("rlcard", 10)] = ("rlcard get_best_meld_clusters + get_deadwood_count",
                               lambda h: peers.rlcard_deadwood_10(peers.rlcard_cards(h)))
        out[("rlcard", 11)] = ("rlcard get_meld_clusters(11 cards), less the top unmatched card",
                               lambda h: peers.rlcard_deadwood_11(peers.rlcard_cards(h)))
        out[("rlcard-per-discard", 11)] = (
            "rlcard best 10-card deadwood over each discard (its rule agent's route)",
            lambda h: peers.rlcard_deadwood_11_per_discard(peers.rlcard_cards(h)))
    if not out:
        sys.exit("--peers: neither open_spiel nor rlcard is installed "
                 "(pip install -e '.[benchmark]')")
    return out


def openspiel_miss_kind(hand: CardSet) -> str:
    """Why OpenSpiel's 11-card answer misses: it keeps one arrangement with the
    most melded points, then drops its highest unmatched card. Either another
    most-melded arrangement had a higher card to drop (a tie it broke the
    wrong way), or the best discard needs an arrangement that melds fewer
    points but leaves a higher card to throw away."""
    best = melds.deadwood_after_discard(hand)
    at_most_melded = min(
        a.deadwood - max((CARD_POINTS[c] for c in cards_of(a.deadwood_mask)), default=0)
        for a in melds.least_deadwood_arrangements(hand)
    )
    return "tie among most-melded arrangements" if at_most_melded == best else \
        "best discard needs fewer melded points"


def _shown(melds_: Sequence[CardSet], unmatched: CardSet) -> str:
    return " | ".join(mask_str(m) for m in melds_) + f"  unmatched {mask_str(unmatched) or '-'}"


def describe(hand: CardSet, want: int, got: int, peer: str) -> str:
    """A peer miss: the hand, both answers and, for 11 cards, the best
    discard's arrangement next to the one OpenSpiel keeps."""
    line = f"{mask_str(hand)}  brute force {want}, peer {got}"
    if hand.bit_count() != 11:
        arr = melds.best_arrangement(hand)
        return line + f"\n      best: {_shown(arr.melds, arr.deadwood_mask)}"
    _, discards = melds.best_discards(hand)
    d = discards[0]
    arr = melds.best_arrangement(hand & ~(1 << d))
    line += f"\n      best: discard {mask_str(1 << d)}, then {_shown(arr.melds, arr.deadwood_mask)}"
    if peer == "openspiel":
        from benchmarks import peers

        group = peers.openspiel_best_meld_group(hand)
        melded = 0
        for m in group:
            melded |= m
        line += (f"\n      openspiel best_meld_group of all 11: {_shown(group, hand & ~melded)}"
                 ", then drops the highest unmatched card")
    return line


# --- the sweep ------------------------------------------------------------


def sweep(n: int, seed: int, sizes: Sequence[int], with_peers: bool, examples: int) -> Tally:
    peer_fns = load_peers() if with_peers else {}
    tally = Tally()
    groups = groups_for(sizes)
    k = len(groups)
    per_group = [n // k + (1 if i < n % k else 0) for i in range(k)]
    done, next_mark, t0 = 0, 1, perf_counter()
    for (kind, size), count in zip(groups, per_group, strict=True):
        group = group_name((kind, size))
        for hand in handgen.hand_list(kind, size, count, seed=seed):
            tally.hands[group] += 1
            try:
                problems, want, want_ad = check_ours(hand, size)
            except Exception as e:  # a crash is a failure too, with the hand shown
                problems, want, want_ad = [f"raised {type(e).__name__}: {e}"], -1, None
            for p in problems:
                tally.ours[(group, p.split(":")[0])] += 1
            shown = tally.ours_examples.setdefault(group, [])
            if problems and len(shown) < 5:
                shown.append(f"[{group}] {mask_str(hand)}: " + "; ".join(problems))
            if want >= 0 and size in PEER_SIZES:
                _check_peers(tally, peer_fns, group, hand, size,
                             want if size == 10 else want_ad, examples)
            done += 1
            while next_mark <= 10 and done * 10 >= next_mark * n:
                print(f"  {next_mark * 10:3d}%  {done}/{n} hands  "
                      f"{perf_counter() - t0:.0f}s  failures so far: {sum(tally.ours.values())}",
                      flush=True)
                next_mark += 1
    return tally


def _check_peers(tally: Tally, peer_fns: dict[tuple[str, int], tuple[str, PeerFn]],
                 group: str, hand: CardSet, size: int, want: int | None,
                 examples: int) -> None:
    assert want is not None
    for (peer, psize), (label, fn) in peer_fns.items():
        if psize != size:
            continue
        key = (peer, group)
        tally.peer_checked[key] += 1
        got = fn(hand)
        if got == want:
            continue
        tally.peer_wrong[key] += 1
        shown = tally.peer_examples.setdefault(f"{label} [{group}]", [])
        if len(shown) < examples:
            shown.append(describe(hand, want, got, peer))
        if peer == "openspiel" and size == 11:
            tally.os_kinds[f"{group}: {openspiel_miss_kind(hand)}"] += 1


def report(tally: Tally, sizes: Sequence[int], with_peers: bool) -> int:
    total = sum(tally.hands.values())
    failures = sum(tally.ours.values())
    print(f"\nhands checked: {total} ("
          + ", ".join(f"{g}: {c}" for g, c in tally.hands.items()) + ")")
    if failures:
        print(f"OURS DISAGREES WITH BRUTE FORCE: {failures} failed checks")
        for (group, check), c in sorted(tally.ours.items()):
            print(f"  [{group}] {check}: {c}")
        for lines in tally.ours_examples.values():
            for line in lines:
                print("  " + line)
    else:
        print("ours: 0 disagreements with brute force (deadwood, deadwood_after_discard, "
              "best_arrangement deadwood, melds legal, disjoint and covering)")
    if with_peers:
        print("\npeer disagreements with brute force (11 cards: deadwood after the best discard)")
        order = [group_name(g) for g in groups_for(sizes)]
        for key in sorted(tally.peer_checked, key=lambda k: (k[0], order.index(k[1]))):
            peer, group = key
            print(f"  {peer:<19} {group:<10} {tally.peer_wrong[key]:>6} / "
                  f"{tally.peer_checked[key]}")
        if tally.os_kinds:
            print("\nopenspiel 11-card misses by cause:")
            for kind, c in sorted(tally.os_kinds.items()):
                print(f"  {kind}: {c}")
        for label, lines in tally.peer_examples.items():
            print(f"\nexamples, {label}:")
            for line in lines:
                print("  " + line)
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000, help="hands in all (default 100000)")
    ap.add_argument("--seed", type=int, default=0, help="hand generator seed (default 0)")
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                    help="hand sizes, comma-separated, e.g. 3,6,9,10,11,12 (default 10,11)")
    ap.add_argument("--peers", action="store_true",
                    help="also count OpenSpiel's and RLCard's disagreements with brute force")
    ap.add_argument("--examples", type=int, default=5,
                    help="peer disagreement examples to print per peer and group")
    args: Any = ap.parse_args(argv)
    if args.n < 1:
        ap.error("--n must be positive")
    try:
        sizes = sorted({int(x) for x in args.sizes.split(",") if x.strip()})
    except ValueError:
        ap.error(f"--sizes: not a list of numbers: {args.sizes!r}")
    if not sizes or not all(1 <= x <= 13 for x in sizes):
        ap.error("--sizes: each size must be 1 to 13")
    print(f"sweep: {args.n} hands of {', '.join(map(str, sizes))} cards, seed {args.seed}"
          + (", with peers" if args.peers else ""), flush=True)
    tally = sweep(args.n, args.seed, sizes, args.peers, args.examples)
    return report(tally, sizes, args.peers)


if __name__ == "__main__":
    sys.exit(main())
