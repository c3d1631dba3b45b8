"""Action ids from other libraries: any integer type is an action id (numpy's
too, as RL code picks them from masks); anything else is refused with
IllegalActionError and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummylab import new_state
from rummylab.errors import IllegalActionError

GAMES = [("gin", None), ("gin3", None), ("three-thirteen", {"players": 3}),
         ("manipulation", {"players": 3})]


class Index:
    """An integer type that is not ``int`` (as numpy's are): only ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def view(state: Any) -> tuple[Any, ...]:
    """What every seat may see, and whose turn it is."""
    return (state.current_player(), tuple(state.legal_actions()),
            tuple(repr(state.observation(s)) for s in range(state.num_players)))


def play(game: str, options: Any, wrap: Any, steps: int = 400) -> Any:
    """``steps`` random legal actions (or to the end), each passed through ``wrap``."""
    state = new_state(game, options, seed=5)
    rng = random.Random(9)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(wrap(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_integer_types_play_as_ints(game: str, options: Any) -> None:
    plain = play(game, options, int)
    assert view(play(game, options, Index)) == view(plain)
    np = pytest.importorskip("numpy")
    assert view(play(game, options, np.int64)) == view(plain)


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_other_types_are_refused(game: str, options: Any, bad: Any) -> None:
    state = play(game, options, int, steps=7)
    before = view(state)
    with pytest.raises(IllegalActionError, match="is not an action id"):
        state.apply_action(bad)
    assert view(state) == before
