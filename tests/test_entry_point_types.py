"""Every public entry point of every game refuses a value of the wrong type
with the engine's own error (never a bare TypeError, AttributeError or
ValueError from deep inside), in one line, and leaves the state as it was.
Where an int is expected 2.0 is refused as 3.5 is: ``action_to_string`` reads
ids exactly as ``apply_action`` does."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rummylab import new_state
from rummylab.errors import CardError, IllegalActionError, OptionError, RecordError, RummyError
from rummylab.game import State
from rummylab.records import replay

DATA = Path(__file__).resolve().parent / "data" / "records"

GAMES = ["gin", "gin3", "three-thirteen", "manipulation"]



class Tall:
    """A value whose repr takes two lines (as an array's may)."""

    def __repr__(self) -> str:
        return "a tall\nvalue"


# the wrong values, by what they are not
NOT_INT: list[Any] = [None, 2.0, 3.5, float("nan"), "x", "2", [], [1], {}, {"a": 1}, True,
                      False, b"2", object(), (1,), Tall(), list(range(1000))]
NOT_STR: list[Any] = [None, 5, 0, 2.0, [], ["pass"], {}, {"pass": 1}, True, False, b"pass",
                      object(), ("pass",), Tall()]
NOT_SEAT: list[Any] = [*NOT_INT, -1, 99, 10**30]
NOT_MAPPING: list[Any] = [5, 2.0, "target=5", "x", [], [1], [("target", 5)], True, False,
                          b"target=5", object(), ("target", 5), Tall()]
NOT_CARD_LISTS: list[Any] = [5, 2.0, "x", [1], [None], [[0.5]], [["Ac"]], {}, {0: [1]},
                             True, b"x", object(), ["Ac 2c"], Tall(), [Tall()]]

#: an option of each game that takes a whole number
INT_OPTION = {"gin": "target", "gin3": "target", "three-thirteen": "players",
              "manipulation": "target"}


def snapshot(state: State) -> Any:
    """Everything a refusal must leave as it was."""
    return ([state.observation(s).to_dict() for s in range(state.num_players)],
            state.current_player(), state.legal_actions(), len(state.events),
            getattr(state, "advice", None))


def moments(game: str) -> list[State]:
    """A new match, one a few moves in, and one played to its end."""
    out = []
    for moves in (0, 9, None):
        rng = random.Random(moves)
        options = {"players": 2} if game == "three-thirteen" else {INT_OPTION[game]: 10}
        state = new_state(game, options, seed=5)
        n = 0
        while not state.is_terminal() and (moves is None or n < moves):
            legal = state.legal_actions()
            state.apply_action(max(legal) if rng.random() < 0.5 else rng.choice(legal))
            n += 1
        out.append(state)
    assert out[-1].is_terminal()
    return out


def refused(call: Callable[[], Any], error: type[RummyError], what: str) -> None:
    with pytest.raises(RummyError) as info:
        call()
    assert isinstance(info.value, error), f"{what}: {type(info.value).__name__}: {info.value}"
    message = str(info.value)
    assert message and "\n" not in message, f"{what}: {message!r}"


@pytest.mark.parametrize("game", GAMES)
def test_a_state_refuses_wrong_types_and_is_unchanged(game: str) -> None:
    for state in moments(game):
        before = snapshot(state)
        entry: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
            "action_to_string": (state.action_to_string, [*NOT_INT, -1, 10**6]),
            "string_to_action": (state.string_to_action, NOT_STR),
            "apply_action": (state.apply_action, NOT_INT),
            "check_legal": (state.check_legal, NOT_INT),
            "apply": (state.apply, NOT_STR),
            "observation": (state.observation, NOT_SEAT),
        }
        meld = getattr(state, "meld", None)
        if meld is not None:
            entry["meld"] = (meld, NOT_STR)
        advise = getattr(state, "advise", None)
        if advise is not None:  # a number or the text of a move; never bytes or a list
            entry["advise"] = (advise, [v for v in NOT_INT if not isinstance(v, str)])
        for name, (call, values) in entry.items():
            for value in values:
                what = f"{game} {state!r} {name}({value!r})"
                refused(lambda c=call, v=value: c(v), IllegalActionError, what)
                assert snapshot(state) == before, f"{what} changed the state"


def test_the_sitter_advises_with_a_move_or_not_at_all() -> None:
    """Three-player Gin's ``advise`` while the captain is to act (the moment
    it could record something): each wrong type refused, nothing recorded."""
    state: Any = new_state("gin3", seed=5)
    assert state.current_player() == state.non_dealer
    before = snapshot(state)
    for value in [v for v in NOT_INT if not isinstance(v, str)] + ["x", "2", "discard Zz"]:
        refused(lambda v=value: state.advise(v), IllegalActionError, f"advise({value!r})")
        assert snapshot(state) == before and state.advice == []


@pytest.mark.parametrize("game", GAMES)
def test_new_state_refuses_wrong_types(game: str) -> None:
    cases: list[tuple[Callable[[], Any], type[RummyError], str]] = []
    for value in [None, 5, 2.0, [], ["gin"], {}, True, b"gin", object()]:
        cases.append((lambda v=value: new_state(v), OptionError, f"new_state({value!r})"))
    for value in NOT_MAPPING:
        cases.append((lambda v=value: new_state(game, v), OptionError, f"options {value!r}"))
    for value in [None, 2.5, [], {}, object(), b"5", [5]]:
        cases.append((lambda v=value: new_state(game, {INT_OPTION[game]: v}), OptionError,
                      f"option {INT_OPTION[game]}={value!r}"))
    for value in [2.0, "5", [], {}, True, b"5", object(), Tall()]:
        cases.append((lambda v=value: new_state(game, seed=v), OptionError, f"seed {value!r}"))
    for value in NOT_CARD_LISTS:
        cases.append((lambda v=value: new_state(game, decks=v), CardError, f"decks {value!r}"))
    for value in [None, 1, "x"]:
        cases.append((lambda v=value: new_state(game, no_such=v), OptionError, "no_such="))
    if game != "gin3":
        for value in [2.0, "0", [], {}, True, b"0", object(), -1, 99, Tall()]:
            cases.append((lambda v=value: new_state(game, first_dealer=v), IllegalActionError,
                          f"first_dealer {value!r}"))
    if game == "gin3":
        for value in [5, 2.0, "x", [1], [None], [[1, 2]], [{"x": "Ac"}], [{0: 2.0}],
                      [{0: None}], [{0: 99}], True, b"x", object(), {0: "Ac"}, Tall()]:
            cases.append((lambda v=value: new_state(game, cut=v), CardError, f"cut {value!r}"))
    if game == "three-thirteen":
        for value in NOT_CARD_LISTS:
            cases.append((lambda v=value: new_state(game, reshuffles=v), CardError,
                          f"reshuffles {value!r}"))
    if game == "manipulation":
        for value in [None, 1, 0, 2.0, "yes", [], {}, b"", object(), Tall()]:
            cases.append((lambda v=value: new_state(game, auto_pass=v), OptionError,
                          f"auto_pass {value!r}"))
    for call, error, what in cases:
        refused(call, error, f"{game} {what}")


def test_action_to_string_reads_ids_as_apply_action_does() -> None:
    """2.0 was 'pass' to one and refused by the other; a numpy integer is
    an id to both."""
    np = pytest.importorskip("numpy")
    state = new_state("gin", seed=1)
    for value in (2.0, True, "2"):
        with pytest.raises(IllegalActionError, match="not an action id"):
            state.action_to_string(value)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="not an action id"):
            state.apply_action(value)  # type: ignore[arg-type]
    assert state.action_to_string(np.int64(2)) == state.action_to_string(2) == "pass"
    manipulation = new_state("manipulation", seed=1)
    assert manipulation.action_to_string(np.int8(1)) == "knock"
    with pytest.raises(IllegalActionError, match="not an action id"):
        manipulation.action_to_string(True)  # type: ignore[arg-type]


def test_a_record_that_is_not_utf8_is_refused_at_its_line(tmp_path: Path) -> None:
    """The text layer decodes a block of lines at once; the refusal still
    names the line and column of the first byte that is not UTF-8, also past
    the first block and in a file with Windows line ends."""
    record = (DATA / "gin-hollywood.jsonl").read_bytes()
    lines = record.split(b"\n")
    lines[200] = lines[200][:10] + b"\xe9" + lines[200][10:]
    cases = [(b"\n".join(lines), 201, 11),
             (record.replace(b"\n", b"\r\n")[:-2] + b"\xe2\x82", record.count(b"\n"), None),
             (b"\xef\xbb\xbf" + record[:40] + b"\xff" + record[40:], 1, 41)]
    for data, line, column in cases:
        path = tmp_path / "bad.jsonl"
        path.write_bytes(data)
        with path.open(encoding="utf-8-sig") as stream, pytest.raises(RecordError) as info:
            list(replay(stream))
        assert info.value.line == line and info.value.unreadable, str(info.value)
        assert "not UTF-8 text (byte 0x" in str(info.value)
        if column is not None:
            assert info.value.column == column
            assert str(info.value).startswith(f"line {line}, column {column}: not UTF-8")
    done = subprocess.run([sys.executable, "-m", "rummylab", "replay", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().endswith("line 1, column 41: not UTF-8 text (byte 0xff)")
    assert len(done.stderr.strip().splitlines()) == 1
