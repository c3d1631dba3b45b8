"""Positions at the command line (issue 44): ``analyze --position`` names the
seat's best move with the strong bot's reason and its hand's figures;
``simulate`` and ``play`` start from a position; a record started from a
position carries it in its header and replays from it byte for byte."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummylab import from_position, new_state
from rummylab.cli import main
from rummylab.errors import RecordError
from rummylab.records import replay
from rummylab.verify import verify

# the README's example: seat 1 (the non-dealer) is offered the upcard Qh
OFFER = ("gin/1 seat=1 hand=1 dealer=0 scores=0,0 turn=1:offer "
         "hands=?10/7h,8h,9h,Ks,Kd,Kc,2s,3s,4s,5d stock=?31 pile=Qh")


def moment(game: str, options: dict[str, Any], seed: int, moves: int) -> Any:
    state = new_state(game, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- analyze ---------------------------------------------------------------------


def test_analyze_a_seat_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyze", "gin", "--position", OFFER, "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["seat"] == 1 and result["step"] == "offer"
    assert result["move"] in ("pass", "take discard") and result["reason"]
    # the solver's figures for the seat's ten cards
    assert result["deadwood"] == 5 and result["deadwood_cards"] == "5d"
    code, out, _ = run(capsys, "analyze", "gin", "--position", OFFER)
    assert code == 0 and "deadwood_cards" in out and result["move"] in out


@pytest.mark.parametrize(("game", "options"), [
    ("gin", {"oklahoma": True}), ("gin3", {}), ("three-thirteen", {"players": 3}),
    ("manipulation", {"players": 3})])
def test_the_seat_to_act_gets_the_same_advice_from_its_position_and_the_whole(
        capsys: pytest.CaptureFixture[str], game: str, options: dict[str, Any]) -> None:
    """The bot sees only the seat's view: the whole position, the seat's own
    and the seat's own with any seed for its unknown cards agree."""
    state = moment(game, options, 5, 9)
    seat = state.current_player()
    answers = []
    for text, seed in ((state.position(), []), (state.position(seat), []),
                       (state.position(seat), ["--seed", "99"])):
        code, out, err = run(capsys, "analyze", game, "--position", text, "--json", *seed)
        assert code == 0, err
        answers.append(json.loads(out))
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["seat"] == seat
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert answers[0]["move"] in legal or answers[0]["move"].startswith("meld ")


def test_analyze_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    state = moment("gin", {}, 3, 6)
    to_act = state.current_player()
    over = "gin/1 hand=2 dealer=0 scores=120,0 won=4,0 turn=over"
    cases = [
        (["gin", "--position", over], "the match is over"),
        (["gin", "--position", state.position(1 - to_act)], f"seat {1 - to_act} is not to act"),
        (["gin", "--position", "gin/1 hand=1 dealer=0"], "field scores= is missing"),
        (["gin", "--position", OFFER[:-8]], "field pile= is missing"),
        (["gin", "--position", "chess/1 board=e4"], "unknown game"),
        (["gin", "--position", "nonsense"], "a position starts with the game's name"),
        (["three-thirteen", "--position", OFFER], "the position is of gin, not three-thirteen"),
        (["gin", "7h", "--position", OFFER], "takes no cards"),
        (["three-thirteen", "--round", "3", "--position", state.position()], "takes no --round"),
        (["gin", "--seed", "3"], "--seed goes with --position"),
    ]
    for argv, words in cases:
        code, out, err = run(capsys, "analyze", *argv)
        assert code == 2 and out == "", argv
        assert err.startswith("rummylab: error: ") and words in err, (argv, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# -- simulate and records --------------------------------------------------------------


def test_simulate_from_a_position_records_and_replays_byte_for_byte(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "run.jsonl"
    code, _, err = run(capsys, "simulate", "gin", "--position", OFFER, "--games", "4",
                       "--seed", "7", "--record", str(target), "--no-progress", "--json")
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    heads = [json.loads(line) for line in text.splitlines() if '"type":"header"' in line]
    assert len(heads) == 4 and all(h["position"] == OFFER for h in heads)
    assert all(h["version"] == 2 for h in heads)
    # no deal line before the first move: the hand in progress is the position's
    assert json.loads(text.splitlines()[1])["type"] == "action"
    # each match's seed deals the seat's unknown cards: they differ from match to match
    fills = {from_position(OFFER, h["seed"]).position() for h in heads}
    assert len(fills) == 4
    matches = list(replay(io.StringIO(text)))  # every line regenerated, byte for byte
    assert [m.match for m in matches] == [1, 2, 3, 4]
    code, out, _ = run(capsys, "replay", str(target))
    assert code == 0 and "replayed to the same bytes" in out
    # the position's known cards were given, not dealt: no seed vouches for them
    with pytest.raises(RecordError, match="started from a position"):
        verify(io.StringIO(text))
    code, _, err = run(capsys, "verify", str(target))
    assert code == 1 and "its first hand was given" in err


def test_a_record_started_from_a_position_that_was_changed_does_not_replay(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "run.jsonl"
    assert main(["simulate", "gin", "--position", OFFER, "--games", "1", "--record",
                 str(target), "--no-progress", "--json"]) == 0
    capsys.readouterr()
    lines = target.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    for change, words in [({"position": OFFER.replace("pile=Qh", "pile=Qs")}, "mismatch"),
                          ({"position": "gin/1 garbage"}, "cannot set up the match"),
                          ({"position": 7}, "'position' must be a position's text"),
                          ({"seed": None}, "needs its seed")]:
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join([json.dumps({**head, **change}, separators=(",", ":")),
                                  *lines[1:]]) + "\n", encoding="utf-8")
        with pytest.raises(RecordError, match=words):
            list(replay(io.StringIO(bad.read_text(encoding="utf-8"))))
        code, _, err = run(capsys, "replay", str(bad))
        assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_simulate_refuses_a_position_it_cannot_start_from(
        capsys: pytest.CaptureFixture[str]) -> None:
    over = "gin/1 hand=2 dealer=0 scores=120,0 won=4,0 turn=over"
    for argv, words in [(["gin", "--position", over], "the match is over"),
                        (["gin", "--position", OFFER, "--option", "target=50"],
                         "takes no --option"),
                        (["gin3", "--position", OFFER], "the position is of gin, not gin3"),
                        (["gin", "--position", OFFER, "--bots", "simple,simple,simple"],
                         "gin needs 2 bots")]:
        code, _, err = run(capsys, "simulate", *argv, "--games", "1", "--no-progress")
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err


# -- play -------------------------------------------------------------------------


def test_play_from_a_seat_position_sits_in_that_seat(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    from rummylab.bots import make_bot
    from rummylab.tui import TerminalGame

    def as_simple(self: Any) -> int:
        return int(make_bot("simple", "gin").act(self.state.observation(self.human)))

    monkeypatch.setattr(TerminalGame, "human_turn", as_simple)
    target = tmp_path / "mine.jsonl"
    code, out, err = run(capsys, "play", "gin", "--terminal", "--position", OFFER, "--seed", "5",
                         "--record", str(target))
    assert code == 0, err
    assert "Record written" in out
    head = json.loads(target.read_text(encoding="utf-8").splitlines()[0])
    assert head["position"] == OFFER and head["seed"] == 5
    assert head["seats"][1] == "human"  # the position's seat
    assert main(["replay", str(target)]) == 0
    code, _, err = run(capsys, "play", "gin", "--terminal", "--position", OFFER, "--players", "2")
    assert code == 2 and "takes no --players" in err
    # the browser does not start from a position yet: said in one line
    code, _, err = run(capsys, "play", "gin", "--position", OFFER)
    assert code == 2 and "add --terminal" in err
