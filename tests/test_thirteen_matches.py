"""``scripts/thirteen_matches.py``: the match estimate from arena records."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import SCRIPTS, script_module

SCRIPT = SCRIPTS / "thirteen_matches.py"


def _arena(path: Path, bots: str, game: str = "three-thirteen", games: int = 2) -> None:
    subprocess.run([sys.executable, "-m", "rummylab", "arena", game, "--bots", bots,
                    "--games", str(games), "--seed", "5", "--record", str(path),
                    "--no-progress", "--json"], check=True, capture_output=True)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("t13") / "strong.jsonl"
    _arena(path, "strong:budget=1,simple,simple,simple")
    return path


@pytest.fixture(scope="module")
def module() -> Any:
    return script_module("thirteen_matches.py")


def test_estimate_from_a_record_and_paired_with_itself(record: Path, module: Any) -> None:
    """Two deals in four seatings: the record's own count of wins, and the
    same record as the base pairs to zero."""
    _, run = module.read_record(str(record), "strong")
    wins = sum(m.win for m in run.values())
    out = _run(str(record), "--bot", "hard", "--matches", "2000", "--resamples", "4")
    assert out.returncode == 0, out.stderr
    first, last = out.stdout.splitlines()
    assert first.startswith(f"{record}: 8 matches, won {wins:g} = {wins / 8:.3f} [")
    assert last.startswith("estimate from rounds drawn at random (8 matches): ")
    same = _run(str(record), "--against", str(record), "--matches", "2000", "--resamples", "4")
    assert same.returncode == 0, same.stderr
    assert same.stdout.rstrip().endswith("paired +0.0000 (se 0.0000)")


def test_rounds_come_from_the_place_the_seat_holds(module: Any) -> None:
    """Three players, three rounds, one match from each place after the
    dealer: in the match from place ``p`` the seat scores 20 in round ``p``
    and nothing in the others, where the other seats score 5, so it loses.
    A built match that starts in place ``p`` takes every round from that
    match and loses too; a round from another place would mostly win."""
    played = module.Played
    matches = [played(p, tuple((20, 0, 0) if r == p else (0, 5, 5) for r in range(3)), 0.0)
               for p in range(3)]
    assert module.estimate([matches], 3000, 1) == [0.0]
    mixed = [played(0, m.rounds, 0.0) for m in matches]  # all from one place: mixed
    assert module.estimate([mixed], 3000, 1)[0] > 0.2
    # shared wins count as fractions: a three-way tie is a third
    tied = played(1, ((4, 4, 4),), 1 / 3)
    assert module.estimate([[tied]], 100, 1) == [pytest.approx(1 / 3)]


def test_the_estimate_follows_the_rounds(record: Path, module: Any) -> None:
    """A record whose followed seat scores nothing in every round wins
    every built match; one that scores 200 a round loses them all."""
    _, run = module.read_record(str(record), "strong")
    assert len(run) == 8 and all(len(m.rounds) == 11 for m in run.values())
    for points, share in ((0, 1.0), (200, 0.0)):
        changed = {k: module.Played(m.place, tuple((points, *r[1:]) for r in m.rounds), m.win)
                   for k, m in run.items()}
        (est, se), *_ = module.resampled([changed], 4, 400)
        assert est == share and se == 0.0


def test_bad_input_is_one_line(record: Path, tmp_path: Path) -> None:
    def refused(path: Path, *args: str) -> str:
        out = _run(str(path), *args)
        assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
        assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
        return out.stderr

    text = record.read_text()
    lines = text.splitlines(keepends=True)
    heads = [i for i, x in enumerate(lines) if '"type":"header"' in x]

    def write(name: str, content: str) -> Path:
        path = tmp_path / name
        path.write_text(content)
        return path

    assert "cannot read" in refused(tmp_path / "none.jsonl")
    assert "holds no match" in refused(write("empty.jsonl", ""))
    assert "not JSON" in refused(write("bad.jsonl", text + "{\n"))
    assert "JSON object" in refused(write("list.jsonl", "[1, 2]\n"))
    assert "ends in the middle of a match" in refused(write("cut.jsonl", "".join(lines[:-1])))
    assert "0 seats play 'random', not one" in refused(record, "--bot", "random")
    gin = tmp_path / "gin.jsonl"
    _arena(gin, "simple,random", game="gin", games=1)
    assert "a gin match, not three-thirteen" in refused(gin)
    assert "plays by the scores" in refused(
        write("stakes.jsonl", text.replace('"simple"', '"simple:budget=1:stakes=1"', 1)))
    assert "earlier match again" in refused(write("twice.jsonl", text + "".join(lines[:heads[1]])))
    three = tmp_path / "three.jsonl"
    _arena(three, "strong:budget=1,simple,simple", games=2)
    assert "another setup" in refused(write("mixed.jsonl", text + three.read_text()))
    assert "another setup" in refused(record, "--against", str(three))
    assert "one deal only" in refused(write("one.jsonl", "".join(lines[:heads[4]])))
    assert "at least 2" in refused(record, "--resamples", "1")


def test_doctests(module: Any) -> None:
    tested = doctest.testmod(module)
    assert tested.attempted > 0 and tested.failed == 0
