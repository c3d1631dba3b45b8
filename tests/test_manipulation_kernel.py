"""The engine's shortcuts and the optional accelerator find what the solver finds.

- ``quick_play`` (a simple play, no search) is legal whenever it answers,
  and ``may_play`` (a necessary condition) is never False when a play exists;
- the numba kernel of the sweep (extra ``fast``) and the pure-Python sweep
  give the same play, tie for tie, so records do not depend on numba.
"""

from __future__ import annotations

import random

import pytest

from rummylab.manipulation import solver
from rummylab.manipulation.solver import arrange_with, best_play, may_play, quick_play
from rummylab.manipulation.table import check_move
from sampling import sampled_counts
from test_manipulation_solver import random_position


def _positions(seed: str, n: int) -> list[tuple[int, object, list[int], bool]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        decks = rng.choice((1, 2))
        size = rng.choice((0, 3, 6, 10, 20, 30, 45, 60, 90 if decks == 2 else 40))
        jokers = rng.random() < 0.3
        try:
            table, hand = random_position(
                rng, decks, size, rng.randint(1, 14),
                table_jokers=rng.choice((1, 2)) if jokers else 0,
                hand_jokers=rng.choice((0, 1)) if jokers else 0,
                near=rng.choice((0.0, 0.5, 0.9)),
            )
        except RuntimeError:
            continue
        out.append((decks, table, hand, rng.random() < 0.15))
    return out


@pytest.mark.parametrize("seed", ["a", "b"])
def test_rule_4_6_quick_play_legal_and_may_play_necessary(seed: str) -> None:
    for decks, table, hand, first_only in _positions(f"quick/{seed}", 150):
        play = best_play(table, hand, decks, first_meld_from_hand_only=first_only)  # type: ignore[arg-type]
        quick = quick_play(table, hand, decks, first_meld_from_hand_only=first_only)  # type: ignore[arg-type]
        if quick is not None:
            played, new = quick
            check_move(table, new, played, decks, first_meld_from_hand_only=first_only)  # type: ignore[arg-type]
            assert play is not None
        if play is not None:
            assert may_play(table, hand, first_meld_from_hand_only=first_only)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", sampled_counts(300, 60))
def test_rule_4_6_accelerated_sweep_agrees_with_pure_python(n: int) -> None:
    pytest.importorskip("numba")
    positions = _positions("kernel", n)
    got = {}
    try:
        for accel in (False, True):
            assert solver.use_accelerator(accel) is accel
            got[accel] = [
                (best_play(t, h, d, first_meld_from_hand_only=f),  # type: ignore[arg-type]
                 best_play(t, h, d, objective="cards", aces_high=False),  # type: ignore[arg-type]
                 arrange_with(t, h[:3], d) if h else None)  # type: ignore[arg-type]
                for d, t, h, f in positions
            ]
    finally:
        solver.use_accelerator()
    for i, (a, b) in enumerate(zip(got[False], got[True], strict=True)):
        assert a == b, positions[i]
