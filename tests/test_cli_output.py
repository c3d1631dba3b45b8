"""What the CLI prints: counts as JSON integers, yes/no in tables, no lines
padded with spaces in a pipe (issue 45)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rummylab.cli import main

FAST = ["--option", "target=10", "--no-progress", "--json"]

# per game: the figures that are counts (JSON integers); the rest are rates and means
COUNTS = {"match_wins", "matches", "seat", "hands_won", "knocks", "gins", "undercuts",
          "box_hands", "captain_hands", "rounds_won", "went_out"}
MEANS = {"win_rate", "ci_low", "ci_high", "points_per_hand", "points_per_round",
         "penalty_per_round", "mean_total", "box_win_rate", "box_points_per_hand",
         "captain_win_rate", "captain_points_per_hand"}


def _check_numbers(rows: list[dict[str, object]]) -> None:
    for row in rows:
        for key, value in row.items():
            if key in COUNTS:
                assert type(value) is int, (key, value)
            elif key in MEANS:
                assert type(value) is float, (key, value)
            else:
                assert key in ("name", "spec", "rating"), key


@pytest.mark.parametrize("game, bots", [
    ("gin", "simple,random"), ("gin3", "simple,random,simple"),
    ("manipulation", "simple,random")])
def test_simulate_json_counts_are_integers(game: str, bots: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", game, "--bots", bots, "--games", "2", *FAST]) == 0
    d = json.loads(capsys.readouterr().out)
    assert all(type(d[k]) is int for k in d if k not in ("game", "seats"))
    _check_numbers(d["seats"])


def test_simulate_json_three_thirteen_counts_are_integers(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "three-thirteen", "--bots", "simple,random", "--games", "1",
                 "--no-progress", "--json"]) == 0
    _check_numbers(json.loads(capsys.readouterr().out)["seats"])


def test_arena_json_counts_are_integers(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openskill")
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "2", *FAST]) == 0
    d = json.loads(capsys.readouterr().out)
    assert all(type(d[k]) is int for k in ("seed", "deals", "rotations", "matches", "hands"))
    _check_numbers(d["bots"])
    assert d["bots"][0]["match_wins"] + d["bots"][1]["match_wins"] == 4


def test_analyze_table_says_yes_and_no(capsys: pytest.CaptureFixture[str]) -> None:
    """A table says yes/no; the JSON keeps true/false."""
    hand = ["7h", "8h", "9h", "Ks", "Kd", "Kc", "2s", "3s", "4s", "5d", "Qh"]
    assert main(["analyze", "gin", *hand]) == 0
    out = capsys.readouterr().out
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in out.splitlines() if line.count("│") == 3}
    assert rows["can_knock"] == "yes" and rows["gin"] == "no"
    assert "True" not in out and "False" not in out
    assert main(["analyze", "gin", *hand, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["can_knock"] is True and d["gin"] is False


@pytest.mark.parametrize("argv", [["rules", "gin"], ["rules", "all"],
                                  ["simulate", "gin", "--games", "1", "--no-progress"]])
def test_piped_output_has_no_trailing_spaces(argv: list[str]) -> None:
    """Rich pads every line to the console's width; a pipe gets none of it."""
    out = subprocess.run([sys.executable, "-m", "rummylab", *argv], capture_output=True,
                         text=True, encoding="utf-8", check=True).stdout
    assert out.strip()
    padded = [line for line in out.splitlines() if line != line.rstrip()]
    assert padded == []
