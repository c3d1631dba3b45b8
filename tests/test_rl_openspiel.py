"""OpenSpiel registration: OpenSpiel's own random-simulation test for every
game and player count, ISMCTS games, the resampler, GameInfo."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import rummylab.rl  # noqa: E402, F401  (registers the games)
from rummylab.rl.openspiel import SHORT_NAMES  # noqa: E402

SIMS = [
    ("python_rummylab_gin", 4),
    ("python_rummylab_gin(hands=2)", 2),
    ("python_rummylab_gin3", 4),
    ("python_rummylab_three_thirteen(players=2)", 4),
    ("python_rummylab_three_thirteen(players=3)", 3),
    ("python_rummylab_three_thirteen(players=4)", 3),
    ("python_rummylab_three_thirteen(players=2,rounds=3)", 1),
    ("python_rummylab_manipulation(players=2)", 2),
    ("python_rummylab_manipulation(players=3)", 1),
    ("python_rummylab_manipulation(players=4)", 1),
    ("python_rummylab_manipulation(players=5)", 1),
]


def test_registered():
    names = set(pyspiel.registered_names())
    assert set(SHORT_NAMES.values()) <= names


@pytest.mark.parametrize(("name", "sims"), SIMS, ids=[n for n, _ in SIMS])
def test_random_sim(name, sims):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "players", "chance"), [
    ("python_rummylab_gin", 2, 52),
    ("python_rummylab_gin3", 3, 52),
    ("python_rummylab_three_thirteen(players=3)", 3, 52),
    ("python_rummylab_manipulation(players=4)", 4, 53),
])
def test_game_info(name, players, chance):
    game = pyspiel.load_game(name)
    gt = game.get_type()
    assert game.num_players() == players
    assert game.max_chance_outcomes() == chance
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.min_utility() < 0 < game.max_utility()
    state = game.new_initial_state()
    assert state.is_chance_node()


def _random_play(game, rng, until=None):
    state = game.new_initial_state()
    while not state.is_terminal():
        if until is not None and until(state):
            return state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("name", [
    "python_rummylab_gin", "python_rummylab_gin3",
    "python_rummylab_three_thirteen(players=3)", "python_rummylab_manipulation(players=2)",
])
def test_utilities_are_zero_sum_and_bounded(name):
    game = pyspiel.load_game(name)
    rng = random.Random(3)
    for _ in range(3):
        state = _random_play(game, rng)
        r = state.returns()
        assert sum(r) == pytest.approx(0.0, abs=1e-9)
        assert all(game.min_utility() <= x <= game.max_utility() for x in r)


def _mid_game(game, rng, moves):
    """A state ``moves`` player moves into the game (or the last player node)."""
    count = [0]

    def until(state):
        if state.is_player_node():
            count[0] += 1
            return count[0] > moves
        return False

    return _random_play(game, rng, until)


@pytest.mark.parametrize(("name", "moves"), [
    ("python_rummylab_gin", 30),
    ("python_rummylab_gin3", 25),
    ("python_rummylab_three_thirteen(players=3)", 12),
    ("python_rummylab_three_thirteen(players=2,rounds=2)", 40),
    ("python_rummylab_manipulation(players=2)", 8),
])
def test_resample_keeps_the_information_state(name, moves):
    game = pyspiel.load_game(name)
    rng = random.Random(11)
    changed = 0
    tried = 0
    for _ in range(4):
        state = _mid_game(game, rng, moves)
        if state.is_terminal():
            continue
        p = state.current_player()
        hidden_before = [state.engine.hand_of(s) for s in range(game.num_players())]
        for k in range(4):
            tried += 1
            new = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert "fell back" not in new.resample_note
            assert new.information_state_string(p) == state.information_state_string(p)
            assert new.observation_string(p) == state.observation_string(p)
            assert new.information_state_tensor(p) == state.information_state_tensor(p)
            assert new.legal_actions() == state.legal_actions()
            assert new.current_player() == p
            assert len(new.history()) == len(state.history())
            view = new.engine.observation(p)
            assert view == state.engine.observation(p)
            hands = [new.engine.hand_of(s) for s in range(game.num_players())]
            changed += hands != hidden_before
            # the resampled state plays on
            legal = new.legal_actions()
            new.apply_action(legal[k % len(legal)])
    assert tried and changed >= tried // 2  # hidden cards really are dealt anew


def test_resample_after_going_out():
    """Three Thirteen: a seat that went out laid its hand face up (§3.5):
    every resampled world keeps that hand and deals the other hidden cards
    anew."""
    game = pyspiel.load_game("python_rummylab_three_thirteen(players=3)")
    rng = random.Random(5)
    found = tried = changed = 0
    for _ in range(60):
        state = _random_play(game, rng, until=lambda s: s.is_player_node()
                             and s.engine.went_out is not None)
        if state.is_terminal():
            continue
        p = state.current_player()
        out = state.engine.went_out
        assert " laid " in state.information_state_string(p)  # §3.5: face up
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for _ in range(4):
            new = state.resample_from_infostate(p, sampler)
            assert new.information_state_string(p) == state.information_state_string(p)
            assert new.engine.went_out == out
            # the laid-down hand is public; the other hidden hands are dealt anew
            assert new.engine.hand_of(out) == state.engine.hand_of(out)
            assert new.resample_note.startswith("resampled")
            others = [s for s in range(3) if s not in (p, out)]
            changed += any(new.engine.hand_of(s) != state.engine.hand_of(s) for s in others)
            tried += 1
        found += 1
        if found >= 3:
            break
    assert found and changed >= tried // 2


ISMCTS_GAMES = [
    ("python_rummylab_gin", 8),
    ("python_rummylab_gin3", 8),
    ("python_rummylab_three_thirteen(players=3)", 8),
    ("python_rummylab_manipulation(players=2)", 3),
]


@pytest.mark.parametrize(("name", "sims"), ISMCTS_GAMES, ids=[n for n, _ in ISMCTS_GAMES])
def test_ismcts_completes_a_game(name, sims):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims,
                           random_state=rs)
    state = game.new_initial_state()
    # the bot plays the captain's or the box's seat in gin3 (never the sitter)
    seat = 0
    bot_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rs.randint(len(outcomes))][0])
            if name.endswith("gin3") and state.engine is not None and not bot_moves:
                seat = state.engine.non_dealer
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
            bot_moves += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rs.randint(len(legal))])
    assert bot_moves > 0
    assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("name", ["python_rummylab_gin(max_moves=6)",
                                  "python_rummylab_gin(hands=1)"])
def test_terminal_state_refuses_actions(name):
    """A game that ended on its move cap or hand count refuses another action
    (the engine behind it has dealt on) and its returns stay as they were."""
    game = pyspiel.load_game(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns, history = state.returns(), state.history()
    for action in range(game.num_distinct_actions()):
        with pytest.raises(Exception, match="over"):
            state.apply_action(action)
    assert state.returns() == returns and state.history() == history


@pytest.mark.parametrize("params, message", [
    ("max_moves=0", "max_moves must be at least 1"), ("max_moves=-2", "max_moves must be"),
    ("hands=0", "hands must be at least 1")])
def test_bad_parameters_are_refused(params, message):
    """A game's parameters are checked when it loads: 0 moves is no default."""
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(f"python_rummylab_gin({params})")
    assert pyspiel.load_game("python_rummylab_gin(max_moves=-1)").max_game_length() > 0


def test_resampling_never_returns_the_true_state(monkeypatch):
    """When no world fits, the resampler raises: the state itself would show
    the player every hidden card."""
    from rummylab.rl import openspiel as rs

    game = pyspiel.load_game("python_rummylab_manipulation(players=3)")
    state = _mid_game(game, random.Random(3), 12)
    assert not state.is_terminal()
    monkeypatch.setattr(rs.RummySpielState, "_replay", lambda self, history, segs: None)
    monkeypatch.setattr(rs, "RESAMPLE_TRIES", 5)
    with pytest.raises(rs.ResampleError, match="no world"):
        state.resample_from_infostate(state.current_player(),
                                      pyspiel.UniformProbabilitySampler(0.0, 1.0))


@pytest.mark.parametrize("moves", [6, 30])
def test_manipulation_resampled_worlds_say_whether_each_meld_was_the_best(moves):
    """A world where every recorded ``meld best`` was the hand's best play
    replays from its history; one where some was not (relaxed) says so."""
    game = pyspiel.load_game("python_rummylab_manipulation(players=3)")
    rng = random.Random(7)
    strict = relaxed = 0
    for _ in range(4):
        state = _mid_game(game, rng, moves)
        if state.is_terminal():
            continue
        p = state.current_player()
        for k in range(3):
            new = state.resample_from_infostate(p, lambda k=k: 0.1 + 0.3 * k)
            assert new.information_state_string(p) == state.information_state_string(p)
            assert ("relaxed" in new.resample_note) == new._core.relaxed
            if new._core.relaxed:
                relaxed += 1
                continue
            strict += 1
            again = game.new_initial_state()
            for a in new.history():
                again.apply_action(a)
            assert str(again) == str(new)
            assert [again.engine.hand_of(s) for s in range(3)] == \
                [new.engine.hand_of(s) for s in range(3)]
    assert strict + relaxed >= 6
    assert (relaxed if moves == 30 else strict) > 0
