"""A view never reaches the state: the latest result in an observation is
read-only, and the results a state lists are copies."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummylab import new_state
from rummylab.bots import make_bot
from rummylab.match import apply_move

GAMES = [("gin", None), ("gin3", None), ("three-thirteen", {"players": 3}),
         ("manipulation", {"players": 3})]


def after_first_result(game: str, options: Any) -> Any:
    state = new_state(game, options, seed=4)
    bots = [make_bot("simple", game, s) for s in range(state.num_players)]
    results = "round_results" if hasattr(state, "round_results") else "hand_results"
    while not getattr(state, results) and not state.is_terminal():
        s = state.current_player()
        apply_move(state, bots[s].move(state.observation(s)))
    return state, results


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_latest_result_in_a_view_is_read_only(game: str, options: Any) -> None:
    state, results = after_first_result(game, options)
    before = json.dumps(getattr(state, results), sort_keys=True)
    obs = state.observation(state.current_player())
    last = obs.last_result
    assert last is not None
    lists = [k for k, v in last.items() if isinstance(v, tuple)]
    assert lists  # every result holds some list (scores at least)
    with pytest.raises(TypeError):
        last["points"] = 1  # type: ignore[index]
    for k in lists:
        with pytest.raises(AttributeError):
            last[k].append("X")
    # the JSON form is plain lists again, equal to the state's own record
    assert obs.to_dict()["last_result"] == getattr(state, results)[-1]
    assert json.dumps(getattr(state, results), sort_keys=True) == before


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_listed_results_are_copies(game: str, options: Any) -> None:
    state, results = after_first_result(game, options)
    listed = getattr(state, results)
    before = json.dumps(listed, sort_keys=True)
    listed[-1]["scores"].append(999)
    listed[-1]["extra"] = True
    assert json.dumps(getattr(state, results), sort_keys=True) == before


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_state_pickles_after_a_view(game: str, options: Any) -> None:
    import pickle

    state, _ = after_first_result(game, options)
    view = state.observation(0)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.observation(0).to_dict() == view.to_dict()


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_bad_arguments_are_the_engines_own_errors_and_change_nothing(game: str) -> None:
    """Text that is no string, a seat that is no seat number (a float, a
    bool), a first dealer of the wrong type: each an IllegalActionError, as
    an illegal action is; a clone's options are its own."""
    from rummylab.errors import IllegalActionError

    state = new_state(game, seed=1)
    before = json.dumps([e for e in state.events], sort_keys=True)
    for bad in (5, None, b"draw stock"):
        with pytest.raises(IllegalActionError, match="must be a string"):
            state.apply(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="must be a string"):
            state.string_to_action(bad)  # type: ignore[arg-type]
    for seat in (1.0, True, "0"):
        with pytest.raises(IllegalActionError, match="no seat"):
            state.observation(seat)  # type: ignore[arg-type]
    assert json.dumps([e for e in state.events], sort_keys=True) == before
    if game != "gin3":  # three-player Gin cuts for its roles instead
        for dealer in (0.5, "1", True):
            with pytest.raises(IllegalActionError, match="first_dealer"):
                type(state)(None, 1, first_dealer=dealer)  # type: ignore[call-arg]
        assert type(state)(None, 1, first_dealer=1).dealer == 1  # type: ignore[call-arg]
    clone = state.clone()
    clone.options["target"] = 1  # type: ignore[index]
    assert "target" not in state.options or state.options["target"] != 1
