"""An observation is built from copies only: nothing reachable from it,
walking ``gc.get_referents`` transitively, is an object the state holds, so a
bot cannot walk (or ``gc.get_referrers``) from its view to the state and read
the other hands or rewrite the rules. Two views share nothing either, so a
bot cannot walk from its own view to another seat's.

Strings, numbers, None and bytes are immutable and hold nothing, and so are
classes, modules and functions as far as a view is concerned: they are not
counted (interning makes ``"draw stock"`` or ``3`` the same object everywhere).
"""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Iterator
from typing import Any

import pytest

from rummylab import new_state
from rummylab.errors import IllegalActionError
from rummylab.game import State

_LEAVES = (str, int, float, bool, type(None), bytes, complex)
_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.MethodDescriptorType, types.WrapperDescriptorType,
           types.MethodWrapperType, types.GetSetDescriptorType, types.MemberDescriptorType,
           types.CodeType)


def _exempt(obj: object) -> bool:
    if isinstance(obj, (*_LEAVES, *_OPAQUE)):
        return True
    return type(obj) is tuple and not obj  # the empty tuple is a singleton


def reachable(*roots: object) -> dict[int, object]:
    """Every object reachable from ``roots`` by ``gc.get_referents``, by id
    (the objects are kept, so the ids stay theirs while the dict lives)."""
    seen: dict[int, object] = {}
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or _exempt(obj):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return seen


def shared(a: dict[int, object], b: dict[int, object]) -> list[str]:
    return [f"{type(a[i]).__name__} {a[i]!r:.80}" for i in a.keys() & b.keys()]


def view_parts(state: State, seat: int) -> tuple[Any, ...]:
    obs = state.observation(seat)
    return obs, obs.to_dict(), obs.last_result


def assert_isolated(state: State, where: str) -> None:
    views = [reachable(*view_parts(state, seat)) for seat in range(state.num_players)]
    held = reachable(state)  # after the views: a cache they filled is the state's too
    for seat, view in enumerate(views):
        found = shared(view, held)
        assert not found, f"{where}: seat {seat}'s view holds the state's {found[:3]}"
    # two views of one seat at once (a cache would be shared) and of two seats
    again = reachable(*view_parts(state, 0))
    assert not shared(views[0], again), f"{where}: two views of seat 0 share objects"
    for seat in range(1, state.num_players):
        found = shared(views[0], views[seat])
        assert not found, f"{where}: seats 0 and {seat} share {found[:3]}"


CASES = [
    ("gin", {"target": 40}, 2),
    ("gin", {"target": 30, "hollywood": True}, 1),
    ("gin3", {"target": 30}, 2),
    ("three-thirteen", {"players": 3}, 1),
    ("manipulation", {"players": 3, "target": 40}, 2),
    ("manipulation", {"players": 2, "target": 60, "initial_meld_from_hand": True}, 1),
]


def moments(game: str, options: dict[str, Any], seed: int) -> Iterator[tuple[State, str]]:
    """A seeded random match (a bot that often takes the highest legal id:
    knock, go out, meld best, so hands end), stopped every few moves (the
    first 25 times), after each of the first hands or rounds and at its end;
    in three-player Gin the sitter advises now and then."""
    rng = random.Random(seed)
    state = new_state(game, options, seed=seed)
    results = "round_results" if hasattr(state, "round_results") else "hand_results"
    done = stops = move = 0
    while not state.is_terminal():
        if move % 7 == 0 and stops < 25:
            stops += 1
            yield state, f"{game} seed {seed} move {move}"
        advise = getattr(state, "advise", None)
        if advise is not None and rng.random() < 0.3:
            try:
                advise(rng.choice(state.legal_actions()))
            except IllegalActionError:  # only while the captain is to act
                pass
            else:
                if stops < 25:
                    yield state, f"{game} seed {seed} move {move} after advice"
        legal = state.legal_actions()
        state.apply_action(max(legal) if rng.random() < 0.4 else rng.choice(legal))
        move += 1
        ended = len(getattr(state, results))
        if ended > done:
            done = ended
            if ended <= 6:
                yield state, f"{game} seed {seed} after hand {ended}"
    yield state, f"{game} seed {seed} at the end"


@pytest.mark.parametrize(("game", "options", "matches"), CASES)
def test_no_view_reaches_the_state(game: str, options: dict[str, Any], matches: int) -> None:
    ends = 0
    for seed in range(matches):
        for state, where in moments(game, options, seed):
            assert_isolated(state, where)
            ends += "after hand" in where
        assert state.is_terminal()
    assert ends >= 2  # the views after a hand ended were walked, last_result with them


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_the_options_in_a_view_are_a_copy(game: str) -> None:
    """The way in that was found first: ``obs.options`` was a proxy of the
    state's own dict, whose referrer is the state."""
    state = new_state(game, seed=3)
    obs = state.observation(0)
    (inner,) = gc.get_referents(obs.options)
    assert inner is not state.options and inner == state.options
    assert all(r is not state.__dict__ and r is not state for r in gc.get_referrers(inner))
