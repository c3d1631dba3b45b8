"""``rummylab analyze``: an option the game does not read is refused, not dropped;
so is an empty Manipulation hand."""

from __future__ import annotations

import json

import pytest

from rummylab.cli import main

HAND = ["7c", "8c", "9c", "4d", "4h", "4s", "2c", "3c", "Ah", "2h"]


@pytest.mark.parametrize(("argv", "needle"), [
    (["gin", *HAND, "--round", "3"], "gin does not take --round"),
    (["gin", "--hand", "7h"], "gin does not take --hand"),
    (["three-thirteen", "7h", "7h", "9h", "--round", "1", "--decks", "1"], "7h twice"),
    (["three-thirteen", "7h", "8h", "9h", "--round", "1", "--decks", "3"], "not 3"),
    (["three-thirteen", "7h", "8h", "9h", "--round", "1", "--table", "5h 6h 7h"], "--table"),
    (["manipulation", "--hand", "7h", "--round", "2"], "--round"),
    (["manipulation", "7h", "--hand", "8h"], "not both"),
    (["manipulation", "--hand", ""], "the hand is empty"),
    (["manipulation", "--hand", "  ", "--table", "5h 6h 4h"], "the hand is empty"),
])
def test_options_it_does_not_read_and_empty_hands_are_refused(capsys: pytest.CaptureFixture[str],
                                                     argv: list[str], needle: str) -> None:
    assert main(["analyze", *argv]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == "" and "\n" not in err and needle in err


def test_options_the_game_reads_are_used(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "gin", *HAND, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deadwood"] == 8
    for cards in (["--hand", "7h 8h"], ["7h", "8h"]):
        assert main(["analyze", "manipulation", *cards, "--table", "5h 6h 4h", "--decks", "1",
                     "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["can_knock"] is True
    # Three Thirteen: two decks by default (three or four players), one on request
    for decks in ([], ["--decks", "2"], ["--decks", "1"]):
        assert main(["analyze", "three-thirteen", "5h", "6h", "7h", "7h", "--round", "2",
                     *decks, "--json"]) == (2 if decks == ["--decks", "1"] else 0)
        capsys.readouterr()


def test_manipulation_analysis_says_whether_the_play_is_proven_best(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from rummylab.analysis import analyze_manipulation
    from rummylab.manipulation import solver

    assert main(["analyze", "manipulation", "--table", "7h 8h 9h | Qs Qd Qc",
                 "--hand", "Th Jk 5c Qh", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] is True
    assert analyze_manipulation("", "5c")["exact"] is True  # no play at all
    # a play the solver marks inexact (a cap cut its search short) is said to be
    real = solver.best_play
    monkeypatch.setattr(solver, "best_play",
                        lambda *a, **k: dataclasses.replace(real(*a, **k), exact=False))
    out = analyze_manipulation("7h 8h 9h | Qs Qd Qc", "Th Jk 5c Qh")
    assert out["exact"] is False and out["play"] == "Th Qh Jk"
