"""PettingZoo AEC adapters: PettingZoo's own API and seed tests for every game
and player count, plus the reward, truncation and sitter behaviour."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from rummylab.bots import make_bot
from rummylab.errors import IllegalActionError, OptionError
from rummylab.rl import aec_env

# (game, options, api cycles): Manipulation's engine solves a table at
# every decision (tens of ms), so it gets fewer cycles
CASES = [
    ("gin", {}, 1000),
    ("gin3", {}, 1000),
    ("three_thirteen", {"players": 2}, 500),
    ("three_thirteen", {"players": 3}, 300),
    ("three_thirteen", {"players": 4}, 200),
    ("manipulation", {"players": 2}, 40),
    ("manipulation", {"players": 3}, 25),
    ("manipulation", {"players": 4}, 20),
    ("manipulation", {"players": 5}, 15),
]


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation is not an ndarray for any
        # environment outside its own list; the dict is the documented format
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize(("game", "options", "cycles"), CASES,
                         ids=[f"{g}-{o.get('players', '')}" for g, o, _ in CASES])
def test_api_and_seed(game, options, cycles):
    _quiet(api_test, aec_env(game, **options), num_cycles=cycles)
    _quiet(seed_test, lambda: aec_env(game, **options), num_cycles=max(cycles // 2, 3))


@pytest.mark.parametrize("game", ["gin", "gin3", "three_thirteen"])
def test_api_through_truncation(game):
    """A short ``max_steps`` ends every episode inside api_test's loop, so the
    end-of-episode path (every agent, the sitter too, stepped out) runs."""
    _quiet(api_test, aec_env(game, max_steps=40), num_cycles=200)


def _play_with_bots(env, seed):
    raw = env.unwrapped
    bots = {a: make_bot("simple", raw.config.spec.engine, seed=i)
            for i, a in enumerate(raw.possible_agents)}
    env.reset(seed=seed)
    total = dict.fromkeys(raw.possible_agents, 0.0)
    roles = set()
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = raw.possible_agents.index(agent)
        view = raw.state_.observation(seat)
        roles.add(getattr(view, "role", "player"))
        assert obs["action_mask"].sum() == len(view.legal_actions) > 0
        env.step(bots[agent].act(view))
    return raw, total, roles


@pytest.mark.parametrize("reward", ["hand", "match"])
@pytest.mark.parametrize(("game", "options"), [
    ("gin", {"target": 50, "game_bonus": 100}),
    ("gin3", {"target": 50}),
    ("three_thirteen", {"players": 3}),
])
def test_full_match_rewards_sum_to_returns(game, options, reward):
    env = aec_env(game, reward=reward, **options)
    raw, total, roles = _play_with_bots(env, seed=5)
    assert raw.state_.is_terminal()
    assert env.agents == []
    returns = raw.state_.returns()
    assert [pytest.approx(total[a]) for a in raw.possible_agents] == returns
    if game == "gin3":
        assert "sitter" not in roles  # only the seat to act is ever selected


def test_hand_rewards_arrive_per_hand():
    env = aec_env("gin", reward="hand", target=60)
    raw = env.unwrapped
    bots = [make_bot("simple", "gin", seed=i) for i in range(2)]
    env.reset(seed=2)
    paid = 0
    for agent in env.agent_iter():
        _obs, _r, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = raw.possible_agents.index(agent)
        env.step(bots[seat].act(raw.state_.observation(seat)))
        if any(raw.rewards.values()):
            paid += 1
            assert sum(raw.rewards.values()) == pytest.approx(0.0)
    assert paid >= 2  # more than one hand was scored as it ended


def test_illegal_actions():
    env = aec_env("gin")
    env.reset(seed=0)
    obs, *_ = env.last()
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    env = aec_env("gin", illegal_action="penalty", illegal_penalty=2.0)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(illegal)
    assert env.agent_selection == agent
    _obs, reward, *_rest, info = env.last()
    assert reward == -2.0 and info["illegal_action"]
    # an ignored action is no action played: it does not count towards max_steps
    env = aec_env("gin", illegal_action="penalty", max_steps=1)
    env.reset(seed=0)
    env.step(illegal)
    assert not any(env.truncations.values())
    obs, *_ = env.last()
    env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert all(env.truncations.values())


def test_render_and_options():
    env = aec_env("three_thirteen", players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "seat 2" in text and "discard pile" in text
    assert len(env.possible_agents) == 3
    with pytest.raises(OptionError):
        aec_env("gin", players=3)
    with pytest.raises(OptionError):
        aec_env("three_thirteen", players=5)
    with pytest.raises(OptionError):
        aec_env("gin", bogus=1)
    with pytest.raises(OptionError):
        aec_env("gin", reward="points")


def test_reset_seed_reproduces_episode():
    a, b = aec_env("gin"), aec_env("gin")
    a.reset(seed=11)
    b.reset(seed=11)
    assert (a.last()[0]["observation"] == b.last()[0]["observation"]).all()
    assert a.unwrapped.state_.hand_of(0) == b.unwrapped.state_.hand_of(0)
    b.reset(seed=12)
    assert a.unwrapped.state_.hand_of(0) != b.unwrapped.state_.hand_of(0)


def _simple_gin_turns(env, max_iter=100_000):
    """Gin: each live turn's (observation, reward) from ``last()``; then the
    simple bot moves for that agent (agents that are done take their dead step)."""
    raw = env.unwrapped
    bot = make_bot("simple", "gin")
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield obs, reward
        seat = raw.possible_agents.index(agent)
        env.step(bot.act(raw.state_.observation(seat)))


def test_only_the_seat_to_act_has_a_mask():
    """Three-player Gin: the sitter's view lists the captain's legal moves
    (it may advise), but its action mask is all zeros: it has no move."""
    env = aec_env("gin3")
    env.reset(seed=0)
    raw = env.unwrapped
    for _ in range(30):
        cur = env.agent_selection
        masks = {a: env.observe(a)["action_mask"] for a in env.agents}
        assert masks[cur].sum() > 0
        assert all(m.sum() == 0 for a, m in masks.items() if a != cur)
        seat = raw.possible_agents.index(cur)
        env.step(make_bot("simple", "gin3").act(raw.state_.observation(seat)))


def test_refused_action_keeps_the_reward_still_to_be_seen():
    """An illegal action that raises changes nothing, not even the reward the
    agent has not yet seen with last()."""
    env = aec_env("gin", reward="hand", target=200)
    env.reset(seed=2)
    checked = 0
    for obs, reward in _simple_gin_turns(env, max_iter=2000):
        if reward:
            illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
            with pytest.raises(IllegalActionError):
                env.step(illegal)
            assert env.last()[1] == reward
            checked += 1
    assert checked >= 2


def test_observations_are_the_callers_and_the_end_is_told():
    """A caller may write into the arrays it is given without changing the
    next observation; stepping once every agent is done (unwrapped) is an
    IllegalActionError, not a KeyError."""
    env = aec_env("gin", wrap=False, target=10)
    env.reset(seed=1)
    first = env.observe(env.agent_selection)
    keep = {k: v.copy() for k, v in first.items()}
    for v in first.values():
        v[...] = 0
    again = env.observe(env.agent_selection)
    assert all((again[k] == keep[k]).all() for k in keep)
    for _ in _simple_gin_turns(env):
        pass
    assert not env.agents
    with pytest.raises(IllegalActionError, match="over"):
        env.step(0)


@pytest.mark.parametrize(("game", "players"), [("gin", 2), ("gin3", 3), ("three-thirteen", 3),
                                               ("manipulation", 4)])
def test_make_encoder_fills_in_the_rule_options(game: str, players: int) -> None:
    """The public encoder takes no options or some (it raised KeyError on a
    missing one) and is the adapters' own."""
    from rummylab.errors import OptionError
    from rummylab.rl import aec_env, make_encoder

    env = aec_env(game, players=players)
    assert make_encoder(game, players).describe() == env.encoder.describe()
    with pytest.raises(OptionError):
        make_encoder(game, players, {"no_such_option": 1})
