"""``rummylab verify``: a record replays, its seed deals every hand as
recorded and hashes to the committed seed_hash (issue 42); and ``rummylab
serve`` without the web extra is one line, exit 2."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from rummylab.bots import make_bot
from rummylab.cli import main
from rummylab.match import play_match
from rummylab.records import RecordWriter
from rummylab.verify import seed_hash


def record(path: Path, seed: int = 7) -> list[str]:
    with path.open("w") as f:
        play_match("gin", [make_bot("simple", "gin")] * 2, seed=seed, options={"target": 10},
                   writer=RecordWriter(f))
    return path.read_text().splitlines()


def test_a_fair_record_verifies_against_its_commitment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.jsonl"
    record(rec)
    assert main(["verify", str(rec)]) == 0
    assert main(["verify", str(rec), "--seed-hash", seed_hash(7).upper()]) == 0
    assert "ok: 1 match replayed, dealt by their seeds and hash to the committed seed_hash" in (
        capsys.readouterr().out)


def test_another_seed_or_a_changed_deal_is_named_by_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.jsonl"
    lines = record(rec)
    assert main(["verify", str(rec), "--seed-hash", seed_hash(8)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("rummylab: error: line 1, column 1: the header's seed hashes to")
    assert "\n" not in err
    # a seed swapped in the header no longer deals the recorded hands
    head = json.loads(lines[0])
    head["seed"] = 8
    lines[0] = json.dumps(head, separators=(",", ":"))
    rec.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(rec), "--seed-hash", seed_hash(8)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"line 2, column \d+: seed 8 does not deal this match", err)


def test_a_match_started_from_a_position_cannot_be_verified(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Whoever wrote a position chose its hands: the seed does not deal the
    first hand, so a commitment to the seed proves nothing about it."""
    from rummylab import new_state

    rec = tmp_path / "m.jsonl"
    text = new_state("gin", {"target": 10}, seed=4).position()
    with rec.open("w") as f:
        play_match("gin", [make_bot("simple", "gin")] * 2, seed=7, writer=RecordWriter(f),
                   position=text)
    assert main(["replay", str(rec), "--quiet"]) == 0  # it replays, it is just not fair
    assert main(["verify", str(rec), "--seed-hash", seed_hash(7)]) == 1
    err = capsys.readouterr().err.strip()
    assert "started from a position: its first hand was given" in err and "\n" not in err


def test_a_record_without_a_seed_cannot_be_verified(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.jsonl"
    lines = record(rec)
    head = json.loads(lines[0])
    head["seed"] = None
    head["dealt"] = "given"
    lines[0] = json.dumps(head, separators=(",", ":"))
    rec.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(rec)]) == 1
    err = capsys.readouterr().err
    assert "line 1, column 1: the header has no seed that deals this match" in err


def test_bad_arguments_are_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.jsonl"
    record(rec)
    assert main(["verify", str(rec), "--seed-hash", "abc"]) == 2
    assert "a seed hash is 64 hex digits" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "none.jsonl")]) == 2
    (tmp_path / "junk").write_text("not json\n")
    assert main(["verify", str(tmp_path / "junk")]) == 2


def test_serve_without_the_web_extra_says_so_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "rummylab.server.app", None)  # as if not installed
    assert main(["serve", "--port", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rummylab: error: the table server needs the web extra")
    assert "\n" not in err
