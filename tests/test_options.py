"""Rule options (§1 options, D-3, D-7): explicit defaults, validation, recording."""

from __future__ import annotations

import io

import pytest

from rummylab import new_state
from rummylab.errors import OptionError
from rummylab.gin.game import GinState
from rummylab.gin.three_player import Gin3State
from rummylab.options import parse_option_args
from rummylab.records import RecordWriter

GIN_DEFAULTS = {
    "target": 100,  # §1.1
    "knock_limit": 10,  # §1.5
    "gin_bonus": 25,  # §1.8
    "undercut_bonus": 10,  # §1.8
    "allow_discard_of_taken_card": False,  # D-3
    "first_draw_after_both_pass": "non_dealer",  # §1.3, D-7
    "big_gin": False,
    "big_gin_bonus": 31,
    "oklahoma": False,
    "game_bonus": 0,
    "line_bonus": 0,
    "hollywood": False,
    "shutout_double": False,
}


def test_options_gin_defaults_follow_the_seeds():
    """§1.1, §1.5, §1.8, D-3, D-7 and the §1 options: every option and its default."""
    assert GinState(seed=1).options == GIN_DEFAULTS


def test_D7_gin3_defaults_first_draw_to_dealer():
    """D-7 / §2.4: three-player Gin defaults `first_draw_after_both_pass` to dealer;
    every other default is §1's."""
    assert Gin3State(seed=1).options == {**GIN_DEFAULTS, "first_draw_after_both_pass": "dealer"}


@pytest.mark.parametrize("cls", [GinState, Gin3State])
def test_options_unknown_option_raises_option_error(cls):
    """Options are validated: an unknown name is an OptionError naming the options."""
    with pytest.raises(OptionError, match=r"unknown option 'targt'.*target"):
        cls({"targt": 50}, seed=1)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("target", 0),
        ("target", -5),
        ("target", "lots"),
        ("target", 1.5),
        ("target", True),  # a bool is not a number
        ("target", None),
        ("knock_limit", -1),
        ("knock_limit", 100),
        ("gin_bonus", -1),
        ("undercut_bonus", "ten"),
        ("big_gin_bonus", -3),
        ("game_bonus", -100),
        ("game_bonus", 10**400),  # overflowed the match's float totals
        ("gin_bonus", 100_001),
        ("line_bonus", "x"),
        ("oklahoma", "maybe"),
        ("oklahoma", 2),
        ("big_gin", None),
        ("shutout_double", "sometimes"),
        ("allow_discard_of_taken_card", 3),
        ("first_draw_after_both_pass", "nobody"),
        ("first_draw_after_both_pass", "Dealer"),
        ("first_draw_after_both_pass", 1),
    ],
)
@pytest.mark.parametrize("cls", [GinState, Gin3State])
def test_options_bad_values_raise_option_error(cls, name, value):
    """Options are validated: a value the option does not take is an OptionError."""
    with pytest.raises(OptionError, match=f"option {name}"):
        cls({name: value}, seed=1)


def test_options_that_another_option_overrides_are_refused():
    """§1 options: Oklahoma's upcard sets the knock limit, and the big gin
    bonus counts only with big gin, so a value that would do nothing there is
    refused in one line; the default is taken (records hold every option)."""
    with pytest.raises(OptionError, match=r"^option knock_limit=5 does nothing with "
                       r"oklahoma=true, which overrides it$"):
        GinState({"knock_limit": 5, "oklahoma": True}, seed=1)
    with pytest.raises(OptionError, match=r"^option big_gin_bonus=40 does nothing without "
                       r"big_gin=true$"):
        Gin3State({"big_gin_bonus": "40"}, seed=1)
    assert GinState({"knock_limit": 10, "oklahoma": True}, seed=1).options["oklahoma"]
    assert GinState({"big_gin_bonus": 40, "big_gin": True}, seed=1).options["big_gin_bonus"] == 40


@pytest.mark.parametrize(
    ("name", "given", "value"),
    [
        ("target", "150", 150),
        ("target", 1, 1),
        ("knock_limit", "0", 0),
        ("knock_limit", 99, 99),
        ("oklahoma", "true", True),
        ("oklahoma", "Yes", True),
        ("big_gin", "off", False),
        ("shutout_double", "1", True),
        ("allow_discard_of_taken_card", True, True),
        ("first_draw_after_both_pass", "dealer", "dealer"),
        ("game_bonus", "100000", 100_000),
    ],
)
def test_options_text_values_are_converted(name, given, value):
    """Options given as text (the CLI's key=value) are converted and checked."""
    assert GinState({name: given}, seed=1).options[name] == value


def test_options_through_new_state_and_command_line_form():
    """Options reach the game by name from `key=value` arguments."""
    opts = parse_option_args(["target=50", "oklahoma=true"])
    state = new_state("gin", opts, seed=3)
    assert state.options["target"] == 50 and state.options["oklahoma"] is True
    with pytest.raises(OptionError):
        parse_option_args(["target"])
    with pytest.raises(OptionError):
        new_state("gin", {"nope": 1}, seed=3)
    with pytest.raises(OptionError, match="unknown game"):
        new_state("canasta", seed=3)


@pytest.mark.parametrize("game", ["gin", "gin3"])
def test_options_recorded_in_every_record(game):
    """Options are recorded in every game record's header, resolved."""
    state = new_state(game, {"target": "20", "oklahoma": "yes"}, seed=9)
    buf = io.StringIO()
    RecordWriter(buf).begin(state, ["a", "b", "c"][: state.num_players])
    first = buf.getvalue().splitlines()[0]
    assert '"options":{"target":20,"knock_limit":10' in first
    assert '"oklahoma":true' in first


class _Index:
    """A whole number that is not an int (as numpy's integers are)."""

    def __index__(self) -> int:
        return 7


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_seed_must_be_a_whole_number(game: str) -> None:
    """A seed of another type (7.0, True, "7") would deal another game than
    the number it shows: refused with OptionError. A whole number of another
    type deals as the int and is recorded as one."""
    np = pytest.importorskip("numpy")
    for seed in (7.0, True, "7", [7], 1.5, np.array([7, 8])):
        with pytest.raises(OptionError, match="seed"):
            new_state(game, seed=seed)  # type: ignore[arg-type]
    state = new_state(game, seed=_Index())  # type: ignore[arg-type]
    assert type(state.seed) is int and state.seed == 7
    assert state.observation(0) == new_state(game, seed=7).observation(0)
