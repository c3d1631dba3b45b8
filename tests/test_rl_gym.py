"""The Gymnasium single-agent wrapper: Gymnasium's env checker, seeding from
the environment's own generator, masks, illegal actions, the sitter."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import rummylab.rl  # noqa: E402, F401  (registers the ids)
from rummylab.errors import IllegalActionError, OptionError  # noqa: E402
from rummylab.rl import GYM_IDS, aec_env, gym_env  # noqa: E402

IDS = [
    ("rummylab/Gin-v0", {}),
    ("rummylab/Gin3-v0", {}),
    ("rummylab/ThreeThirteen-v0", {"players": 2}),
    ("rummylab/ThreeThirteen-v0", {"players": 4}),
    ("rummylab/Manipulation-v0", {"players": 2}),
    ("rummylab/Manipulation-v0", {"players": 3}),
]


@pytest.mark.parametrize(("env_id", "kw"), IDS, ids=[f"{i}-{k}" for i, k in IDS])
def test_check_env(env_id, kw):
    env = gym.make(env_id, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no render_fps" for a text-only env
        check_env(env.unwrapped)
    assert set(GYM_IDS.values()) <= set(gym.registry)


def _episode(env, seed, rng, cap=400):
    obs, _ = env.reset(seed=seed)
    trace = [obs["observation"].copy()]
    total = 0.0
    for _ in range(cap):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        assert (mask == obs["action_mask"].astype(bool)).all()
        legal = np.flatnonzero(mask)
        obs, reward, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
        total += reward
        trace.append(obs["observation"].copy())
        if term or trunc:
            return trace, total, term
    return trace, total, False


@pytest.mark.parametrize("game", ["gin", "gin3", "three_thirteen", "manipulation"])
def test_seeded_episodes_repeat(game):
    kw = {"players": 2} if game == "manipulation" else {}
    a = gym_env(game, **kw)
    b = gym_env(game, **kw)
    ta, ra, _ = _episode(a, 7, np.random.default_rng(0), cap=60)
    tb, rb, _ = _episode(b, 7, np.random.default_rng(0), cap=60)
    assert ra == rb and len(ta) == len(tb)
    assert all((x == y).all() for x, y in zip(ta, tb, strict=True))
    tc, _, _ = _episode(b, 8, np.random.default_rng(0), cap=60)
    assert any((x != y).any() for x, y in zip(ta, tc, strict=False))


@pytest.mark.parametrize("reward", ["match", "hand"])
def test_full_episode_return_is_the_match_return(reward):
    env = gym_env("gin", opponent="simple", reward=reward, target=40)
    for seed in range(3):
        _, total, terminated = _episode(env, seed, np.random.default_rng(seed), cap=5000)
        assert terminated
        assert total == pytest.approx(env.unwrapped.match.state.returns()[env.unwrapped.seat])


def test_gin3_learner_sits_out_some_hands():
    env = gym_env("gin3", seat="random", opponent=["simple", "random"], target=50)
    seats, roles = set(), set()
    for seed in range(6):
        env.reset(seed=seed)
        seats.add(env.seat)
        st = env.match.state
        while not st.is_terminal():
            view = st.observation(env.seat)
            assert st.current_player() == env.seat  # never asked while sitting out
            roles.add(view.role)
            legal = np.flatnonzero(env.action_masks())
            env.step(int(legal[0]))
    assert len(seats) > 1
    assert roles <= {"box", "captain"}


def test_illegal_action_modes():
    env = gym_env("gin")  # default: penalty
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.match.state.observation(env.seat)
    obs2, reward, term, trunc, info = env.step(illegal)
    assert reward == -1.0 and info["illegal_action"] and not term and not trunc
    assert (obs2["observation"] == obs["observation"]).all()
    assert env.match.state.observation(env.seat) == before
    strict = gym_env("gin", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_options_and_render():
    env = gym_env("three_thirteen", players=3, seat=2, render_mode="ansi")
    env.reset(seed=3)
    assert env.seat == 2
    assert "seat 2" in env.render()
    assert env.observation_space["observation"].shape == (env.encoder.size,)
    with pytest.raises(OptionError):
        gym_env("gin", seat=2)
    with pytest.raises(OptionError):
        gym_env("gin", opponent="nobody")
    with pytest.raises(OptionError):
        gym_env("three_thirteen", players=3, opponent=["simple"])


def test_max_steps_truncates():
    env = gym_env("gin", opponent="random", max_steps=5)
    env.reset(seed=1)
    for i in range(5):
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[0]))
        if term:
            break
        assert trunc == (i == 4)


@pytest.mark.parametrize("steps", [0, -3])
def test_max_steps_below_one_is_refused_as_in_the_aec_env(steps):
    """``max_steps`` means the same in both adapters: at least one step."""
    with pytest.raises(OptionError, match="at least 1"):
        gym_env("gin", max_steps=steps)
    with pytest.raises(OptionError, match="at least 1"):
        aec_env("gin", max_steps=steps)


def test_no_step_outside_an_episode():
    """A step before ``reset()``, or after the episode was truncated, is an
    IllegalActionError that changes nothing; ``reset`` starts another."""
    env = gym_env("gin", opponent="random", max_steps=2)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    for _ in range(2):
        _, _, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert trunc and not term
    state = env.unwrapped.match.state
    before = [state.observation(s).to_dict() for s in range(2)]
    with pytest.raises(IllegalActionError, match="truncated"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert [state.observation(s).to_dict() for s in range(2)] == before
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_opponents_play_their_text_moves():
    """The opponents' moves come from ``Bot.move``, so a bot's text move
    (Manipulation: any legal meld) is applied as the bot made it."""
    from rummylab.bots import make_bot
    from rummylab.bots.base import Bot

    env = gym_env("manipulation", players=2, opponent="simple", target=40)
    made: list[str] = []

    class Texting(Bot):  # simple's moves, as text
        name = "texting"

        def __init__(self) -> None:
            super().__init__()
            self.inner = make_bot("simple", "manipulation")

        def act(self, observation):
            return self.inner.act(observation)

        def move(self, observation):
            text = env.unwrapped.match.state.action_to_string(self.act(observation))
            made.append(text)
            return text

    env.reset(seed=3)
    env.unwrapped.bots = {s: Texting() for s in env.unwrapped.bots}
    rng = np.random.default_rng(3)
    for _ in range(60):
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc:
            break
    assert made and any(t.startswith("meld") for t in made)
    assert all(isinstance(t, str) for t in made)


@pytest.mark.parametrize("reward", ["match", "hand"])
def test_gin3_rewards_before_the_first_turn_come_with_the_first_step(reward):
    """Three-player Gin: a learner that starts as sitter sees hands played
    before its first turn; what they gave or cost comes with its first step,
    so the step rewards still sum to the match return, and a match that ends
    before its first turn is no episode (reset deals another)."""
    for target in (25, 100):
        env = gym_env("gin3", seat="random", opponent="random", reward=reward, target=target)
        sat_out = 0
        for seed in range(8):
            _, info = env.reset(seed=seed)
            st = env.unwrapped.match.state
            assert not st.is_terminal() and st.current_player() == env.unwrapped.seat
            sat_out += info["hands_finished"] > 0
            total, rng = 0.0, np.random.default_rng(seed)
            while True:
                legal = np.flatnonzero(env.unwrapped.action_masks())
                _, r, term, _, _ = env.step(int(legal[rng.integers(len(legal))]))
                total += r
                if term:
                    break
            assert total == pytest.approx(st.returns()[env.unwrapped.seat])
            assert total == pytest.approx(env.unwrapped.episode_return)
        assert sat_out  # some episode began after hands the learner sat out


def test_an_action_is_a_whole_number():
    """A float or a bool is refused, not truncated into another action, and
    changes nothing; numpy's integers are actions."""
    from rummylab.rl import aec_env

    env = gym_env("gin")
    obs, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    before = env.match.state.observation(env.seat)
    for bad in (legal + 0.9, float(legal), True):
        with pytest.raises(IllegalActionError, match="whole number"):
            env.step(bad)
    assert env.match.state.observation(env.seat) == before
    env.step(np.int64(legal))
    aec = aec_env("gin")
    aec.reset(seed=0)
    agent = aec.agent_selection
    legal = int(np.flatnonzero(aec.observe(agent)["action_mask"])[0])
    with pytest.raises(IllegalActionError, match="whole number"):
        aec.step(legal + 0.5)
    assert aec.agent_selection == agent
    aec.step(np.array([legal], dtype=np.int32))  # as a vectorised policy gives it
