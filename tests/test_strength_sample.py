"""CI's sample of the strength runs (the full runs are by hand: benchmarks/README.md,
"Strength"). Deals, seats and bot seeds are fixed, so the figures are exact
regression checks: a change that weakens the strong Gin bot shows here."""

from __future__ import annotations

import pytest

pytest.importorskip("openskill")

from rummylab.arena import run_arena


@pytest.mark.slow  # about 12 s; the default run keeps the match against random below
def test_strong_gin_beats_simple_on_a_fixed_sample() -> None:
    # 20 deals x 2 seatings of 100-point matches (the full 2,000-match run: benchmarks/README.md)
    result = run_arena("gin", ["strong", "simple"], deals=20, seed=11, ratings=False)
    strong, simple = result.rows()[:2]
    assert strong["matches"] == simple["matches"] == 40
    assert strong["match_wins"] >= 22, strong  # more than half, with room (it wins 24 now)
    assert strong["points_per_hand"] > simple["points_per_hand"]


def test_strong_gin_beats_random_every_match() -> None:
    result = run_arena("gin", ["strong", "random"], deals=3, seed=2,
                       options={"target": 50}, ratings=False)
    strong = result.rows()[0]
    assert strong["match_wins"] == strong["matches"] == 6
