"""``scripts/thirteen_matches.py``: the match estimate from arena records."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

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
    path = tmp_path_factory.mktemp("t13") / "simple.jsonl"
    _arena(path, "simple,random,random,random")
    return path


def test_estimate_from_a_record_and_paired_with_itself(record: Path) -> None:
    """Two deals in four seatings: the record's own count, an estimate
    between 0 and 1, and the same record as the base pairs to zero."""
    out = _run(str(record), "--bot", "simple", "--matches", "2000", "--resamples", "4")
    assert out.returncode == 0, out.stderr
    first, last = out.stdout.splitlines()
    assert first.startswith(f"{record}: 8 matches, won ")
    share = float(last.split("(8 matches): ")[1].split(" ")[0])
    assert 0.0 <= share <= 1.0
    wins = sum(json.loads(line)["winners"].count(seat) / len(json.loads(line)["winners"])
               for line, seat in zip(
                   [x for x in record.read_text().splitlines() if '"type":"end"' in x],
                   [json.loads(x)["seats"].index("simple") for x in record.read_text().splitlines()
                    if '"type":"header"' in x], strict=True))
    assert f"won {wins:g} = {wins / 8:.3f}" in first
    same = _run(str(record), "--against", str(record), "--bot", "simple",
                "--matches", "2000", "--resamples", "4")
    assert same.returncode == 0, same.stderr
    assert same.stdout.rstrip().endswith("paired +0.0000 (se 0.0000)")


def test_the_estimate_follows_the_rounds(record: Path) -> None:
    """The built matches read the record's rounds: a record whose followed
    seat scores nothing in every round wins every built match."""
    module = script_module("thirteen_matches.py")
    run = module.read_record(str(record), "simple")
    assert len(run) == 8 and all(len(m.rounds) == 11 for m in run.values())
    zero = {k: module.Played(m.place, tuple((0, *r[1:]) for r in m.rounds), m.win)
            for k, m in run.items()}
    (est, se), *_ = module.resampled([zero], 4, 400)
    assert est == 1.0 and se == 0.0


def test_bad_input_is_one_line(record: Path, tmp_path: Path) -> None:
    missing = _run(str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert missing.stderr.startswith("error: cannot read ") and missing.stderr.count("\n") == 1
    nobody = _run(str(record), "--bot", "strong")
    assert nobody.returncode == 2
    assert nobody.stderr.strip().endswith("0 seats play 'strong', not one")
    gin = tmp_path / "gin.jsonl"
    _arena(gin, "simple,random", game="gin", games=1)
    other = _run(str(gin), "--bot", "simple")
    assert other.returncode == 2 and "a gin match, not three-thirteen" in other.stderr
    staked = tmp_path / "stakes.jsonl"
    staked.write_text(record.read_text().replace('"simple"', '"simple:stakes=1"'))
    refused = _run(str(staked), "--bot", "simple")
    assert refused.returncode == 2 and "plays by the scores" in refused.stderr
    one = tmp_path / "one.jsonl"
    lines = record.read_text().splitlines(keepends=True)
    heads = [i for i, x in enumerate(lines) if '"type":"header"' in x]
    one.write_text("".join(lines[:heads[4]]))  # the first deal's four seatings
    single = _run(str(one), "--bot", "simple")
    assert single.returncode == 2 and "one deal only" in single.stderr
    few = _run(str(record), "--bot", "simple", "--resamples", "1")
    assert few.returncode == 2 and "at least 2" in few.stderr


def test_doctests() -> None:
    tested = doctest.testmod(script_module("thirteen_matches.py"))
    assert tested.attempted > 0 and tested.failed == 0
