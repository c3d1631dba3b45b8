"""The strong Three Thirteen and Manipulation bots: legal over whole games,
blind to hidden cards, deterministic under a seed, with hints that explain."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummylab.bots import BOT_LEVELS, make_bot
from rummylab.bots.strong13 import StrongThirteenBot
from rummylab.bots.strong_manipulation import StrongManipulationBot
from rummylab.cards import multi_add, multi_cards, multi_count, multi_remove
from rummylab.errors import OptionError
from rummylab.manipulation.game import ManipulationState
from rummylab.registry import new_state
from rummylab.thirteen.game import ThirteenState


def _play(game: str, specs: list[str], seed: int, options: dict[str, object]) -> Any:
    state = new_state(game, options, seed)
    bots = [make_bot(s, game, seed=seed + i) for i, s in enumerate(specs)]
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].act(state.observation(seat))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def test_registered_as_strong() -> None:
    assert {"three-thirteen", "manipulation"} <= BOT_LEVELS["strong"].keys()
    assert isinstance(make_bot("strong:budget=3", "three-thirteen"), StrongThirteenBot)
    assert isinstance(make_bot("strong:budget=0", "manipulation"), StrongManipulationBot)
    with pytest.raises(OptionError):
        make_bot("strong:budget=x", "three-thirteen")
    with pytest.raises(OptionError):
        make_bot("strong:depth=2", "manipulation")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thirteen_whole_games_legal(players: int) -> None:
    strong = "strong:budget=4" if players % 2 == 0 else "strong:budget=4,deep=2"
    specs = [strong] + ["simple"] * (players - 1)
    state = _play("three-thirteen", specs, 10 + players, {"players": players})
    assert state.round == 11 and state.is_terminal()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_manipulation_whole_games_legal(players: int) -> None:
    specs = ["strong:budget=2"] + ["simple"] * (players - 1)
    state = _play("manipulation", specs, 20 + players, {"players": players, "target": 40})
    assert state.is_terminal()


# --- hidden information: re-deal what the seat cannot see ------------------------


def _thirteen_midgame(seed: int, players: int, steps: int) -> ThirteenState:
    state = ThirteenState({"players": players}, seed=seed)
    bots = [make_bot("simple", "three-thirteen") for _ in range(players)]
    for _ in range(steps):
        seat = state.current_player()
        state.apply_action(bots[seat].act(state.observation(seat)))
    return state


def _redeal_thirteen(state: ThirteenState, seat: int, rng: random.Random) -> ThirteenState:
    """The same position for ``seat``: the other hands (less the cards seen
    taken from the pile) and the stock hold the same cards, shuffled."""
    other = state.clone()
    others = [s for s in range(state.num_players) if s != seat]
    hidden = list(other._stock)
    for s in others:
        free = other._hands[s]
        for c in multi_cards(other._known[s]):
            free = multi_remove(free, c)
        hidden += multi_cards(free)
    rng.shuffle(hidden)
    for s in others:
        n = multi_count(other._hands[s]) - multi_count(other._known[s])
        hand = other._known[s]
        for c in hidden[:n]:
            hand = multi_add(hand, c)
        other._hands[s] = hand
        hidden = hidden[n:]
    other._stock = hidden
    other._legal = None
    return other


def test_thirteen_decisions_ignore_hidden_cards() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        for steps in (0, 7, 30):
            state = _thirteen_midgame(seed, 2 + seed % 3, steps)
            seat = state.current_player()
            other = _redeal_thirteen(state, seat, rng)
            assert other._hands != state._hands or other._stock != state._stock
            a, b = state.observation(seat), other.observation(seat)
            assert a.to_dict() == b.to_dict()
            for opts in ({"budget": "6"}, {"budget": "6", "deep": "3"}):
                bot_a = StrongThirteenBot(opts, seed=9)
                bot_b = StrongThirteenBot(opts, seed=9)
                assert bot_a.hint(a) == bot_b.hint(b)
            checked += 1
    assert checked == 18


def _manipulation_midgame(seed: int, players: int, steps: int) -> ManipulationState:
    state = ManipulationState({"players": players}, seed=seed)
    bots = [make_bot("simple", "manipulation") for _ in range(players)]
    for _ in range(steps):
        seat = state.current_player()
        state.apply_action(bots[seat].act(state.observation(seat)))
    return state


def _redeal_manipulation(state: ManipulationState, seat: int,
                         rng: random.Random) -> ManipulationState:
    other = state.clone()
    others = [s for s in range(state.num_players) if s != seat]
    hidden = list(other._pile) + [c for s in others for c in other._hands[s]]
    rng.shuffle(hidden)
    for s in others:
        n = len(other._hands[s])
        other._hands[s] = sorted(hidden[:n])
        hidden = hidden[n:]
    other._pile = hidden
    return other


def test_manipulation_decisions_ignore_hidden_cards() -> None:
    rng = random.Random(6)
    for seed, steps in ((1, 0), (2, 6), (3, 14)):
        state = _manipulation_midgame(seed, 3, steps)
        seat = state.current_player()
        other = _redeal_manipulation(state, seat, rng)
        assert other._pile != state._pile
        a, b = state.observation(seat), other.observation(seat)
        assert a.to_dict() == b.to_dict()
        bot_a = StrongManipulationBot({"budget": "2"}, seed=4)
        bot_b = StrongManipulationBot({"budget": "2"}, seed=4)
        assert bot_a.hint(a) == bot_b.hint(b)


# --- hints --------------------------------------------------------------------


def test_hints_are_legal_with_a_one_line_reason() -> None:
    for game, spec, options, steps in (
        ("three-thirteen", "strong:budget=4", {"players": 3}, 40),
        ("manipulation", "strong:budget=2", {"players": 3, "target": 40}, 12),
    ):
        state = new_state(game, options, 3)
        bot = make_bot(spec, game, seed=1)
        for _ in range(steps):
            if state.is_terminal():
                break
            seat = state.current_player()
            action, reason = bot.hint(state.observation(seat))
            assert action in state.legal_actions()
            assert reason and "\n" not in reason
            state.apply_action(action)
