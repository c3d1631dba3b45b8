"""A random agent in each research interface (needs ``pip install -e '.[rl]'``).

    python examples/random_agent.py
"""

from __future__ import annotations

import numpy as np

import rummylab.rl  # registers the Gymnasium ids and the OpenSpiel games
from rummylab.rl import aec_env


def pettingzoo_loop(game: str = "gin", seed: int = 0, **options: object) -> dict[str, float]:
    """Every seat plays a random legal action; returns the total reward per agent."""
    env = aec_env(game, reward="hand", max_steps=2000, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None  # a finished agent steps out with None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
        env.step(action)
    env.close()
    return totals


def gymnasium_loop(env_id: str = "rummylab/Gin-v0", seed: int = 0, **kw: object) -> float:
    """The learning seat plays at random against the simple bot; returns its return."""
    import gymnasium as gym

    env = gym.make(env_id, **kw)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _obs, reward, terminated, truncated, _info = env.step(int(rng.choice(legal)))
        total += float(reward)
        done = terminated or truncated
    env.close()
    return total


def openspiel_loop(name: str = "python_rummylab_three_thirteen(players=3)",
                   seed: int = 0) -> list[float]:
    """One random game through OpenSpiel's API, chance nodes included."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


if __name__ == "__main__":
    print("PettingZoo, Gin (hand rewards, 2000 steps at most):", pettingzoo_loop("gin"))
    print("PettingZoo, Three Thirteen for 3:",
          pettingzoo_loop("three_thirteen", players=3))
    print("Gymnasium, random learner vs simple bot, Gin to 50:",
          gymnasium_loop("rummylab/Gin-v0", target=50))
    if rummylab.rl.HAVE_OPENSPIEL:
        print("OpenSpiel, one round of Three Thirteen for 3:", openspiel_loop())
