"""The terminal game from the command line: typed input it cannot read is
told and asked again; a record it cannot write is one line, exit code 2."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rummylab.cli import main


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_unreadable_input_is_told_and_asked_again(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  game: str) -> None:
    # '²' is a digit to str.isdigit() but no number to int(); '99' is no listed move
    monkeypatch.setattr("sys.stdin", io.StringIO("²\n99\nnonsense\nquit\n"))
    assert main(["play", game, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "You left the match." in out
    assert "choose a move from 1 to" in out


def test_record_that_cannot_be_written(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    target = tmp_path / "missing" / "match.jsonl"
    assert main(["play", "gin", "--record", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing played, not even the greeting
    err = captured.err.strip()
    assert err.startswith("rummylab: error: cannot write") and "\n" not in err
    assert not target.parent.exists()
