"""A short, plain PPO loop on a rummylab Gymnasium environment, numpy only
(needs ``pip install -e '.[rl]'``; no torch).

    python examples/ppo_numpy.py                    # Three Thirteen vs the simple bot, ~1 min
    python examples/ppo_numpy.py --updates 5        # a smoke run
    python examples/ppo_numpy.py --env rummylab/Gin-v0 --opponent simple

One tanh hidden layer feeds a masked softmax policy and a value head;
clipped PPO with GAE, Adam, gradients written out by hand. The illegal
actions are masked (``action_masks()``), so the illegal-action penalty
never fires. Rewards are per round (``reward="hand"``), divided by 10.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np

import rummylab.rl  # noqa: F401  (registers the environment ids)


class Net:
    """x -> tanh(W1 x + b1) -> (policy logits, value)."""

    def __init__(self, n_in: int, n_act: int, hidden: int, rng: np.random.Generator) -> None:
        s = 1.0 / np.sqrt(n_in)
        self.p = {
            "W1": rng.normal(0, s, (n_in, hidden)), "b1": np.zeros(hidden),
            "W2": rng.normal(0, 0.01, (hidden, n_act)), "b2": np.zeros(n_act),
            "w3": rng.normal(0, 0.01, hidden), "b3": np.zeros(1),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[Any, Any, Any]:
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        logits = h @ self.p["W2"] + self.p["b2"]
        logits = np.where(mask, logits, -1e9)
        logits = logits - logits.max(axis=-1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=-1, keepdims=True)
        value = h @ self.p["w3"] + self.p["b3"][0]
        return h, probs, value

    def adam(self, grads: dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)


def ppo_update(net: Net, batch: dict[str, np.ndarray], epochs: int, minibatch: int,
               clip: float, lr: float, rng: np.random.Generator) -> float:
    n = len(batch["act"])
    c_v, c_e = 0.5, 0.01
    loss_sum = 0.0
    for _ in range(epochs):
        for idx in np.array_split(rng.permutation(n), max(1, n // minibatch)):
            x, mask, a = batch["obs"][idx], batch["mask"][idx], batch["act"][idx]
            adv, ret, old = batch["adv"][idx], batch["ret"][idx], batch["logp"][idx]
            h, probs, value = net.forward(x, mask)
            m = len(idx)
            logp = np.log(probs[np.arange(m), a] + 1e-12)
            ratio = np.exp(logp - old)
            active = ((adv > 0) & (ratio < 1 + clip)) | ((adv < 0) & (ratio > 1 - clip))
            loss_sum += float(-np.minimum(ratio * adv,
                                          np.clip(ratio, 1 - clip, 1 + clip) * adv).mean())
            onehot = np.zeros_like(probs)
            onehot[np.arange(m), a] = 1.0
            # d(-min(r A, clip(r) A))/dlogits = -A r [active] (onehot - pi)
            g_logits = (-(adv * ratio * active))[:, None] * (onehot - probs)
            # entropy bonus: d(-c_e H)/dlogits = c_e pi (log pi + H)
            logpi = np.log(np.where(mask, probs, 1.0) + 1e-12)
            ent = -(probs * logpi).sum(axis=1)
            g_logits += c_e * probs * (logpi + ent[:, None])
            g_value = 2 * c_v * (value - ret)
            g_logits /= m
            g_value /= m
            dh = g_logits @ net.p["W2"].T + np.outer(g_value, net.p["w3"])
            dpre = dh * (1 - h * h)
            grads = {
                "W2": h.T @ g_logits, "b2": g_logits.sum(0),
                "w3": h.T @ g_value, "b3": np.array([g_value.sum()]),
                "W1": x.T @ dpre, "b1": dpre.sum(0),
            }
            net.adam(grads, lr)
    return loss_sum


def collect(env: Any, net: Net, steps: int, rng: np.random.Generator, scale: float,
            state: dict[str, Any]) -> tuple[dict[str, np.ndarray], list[float]]:
    obs_l, mask_l, act_l, logp_l, val_l, rew_l, done_l = [], [], [], [], [], [], []
    finished: list[float] = []
    obs = state["obs"]
    for _ in range(steps):
        mask = env.unwrapped.action_masks()
        _, probs, value = net.forward(obs["observation"][None].astype(np.float64), mask[None])
        a = int(rng.choice(len(probs[0]), p=probs[0]))
        obs_l.append(obs["observation"])
        mask_l.append(mask)
        act_l.append(a)
        logp_l.append(np.log(probs[0, a] + 1e-12))
        val_l.append(value[0])
        obs, reward, term, trunc, _ = env.step(a)
        state["ret"] += reward
        rew_l.append(reward / scale)
        done = term or trunc
        done_l.append(done)
        if done:
            finished.append(state["ret"])
            state["ret"] = 0.0
            obs, _ = env.reset(seed=int(rng.integers(2**31)))
    state["obs"] = obs
    _, _, last_v = net.forward(obs["observation"][None].astype(np.float64),
                               env.unwrapped.action_masks()[None])
    # GAE(lambda)
    gamma, lam = 0.99, 0.95
    adv = np.zeros(steps)
    nxt_v, gae = last_v[0], 0.0
    for t in reversed(range(steps)):
        nonterminal = 0.0 if done_l[t] else 1.0
        delta = rew_l[t] + gamma * nxt_v * nonterminal - val_l[t]
        gae = delta + gamma * lam * nonterminal * gae
        adv[t] = gae
        nxt_v = val_l[t]
    ret = adv + np.array(val_l)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    batch = {"obs": np.array(obs_l, dtype=np.float64), "mask": np.array(mask_l),
             "act": np.array(act_l), "logp": np.array(logp_l), "adv": adv, "ret": ret}
    return batch, finished


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", default="rummylab/ThreeThirteen-v0")
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--updates", type=int, default=25)
    ap.add_argument("--steps", type=int, default=1024, help="learner steps per update")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = gym.make(args.env, opponent=args.opponent, reward="hand")
    obs, _ = env.reset(seed=args.seed)
    net = Net(obs["observation"].shape[0], int(env.action_space.n), 64, rng)
    state: dict[str, Any] = {"obs": obs, "ret": 0.0}
    start = time.perf_counter()
    for update in range(1, args.updates + 1):
        batch, finished = collect(env, net, args.steps, rng, 10.0, state)
        ppo_update(net, batch, epochs=4, minibatch=256, clip=0.2, lr=3e-3, rng=rng)
        mean = f"{np.mean(finished):8.1f}" if finished else "     n/a"
        print(f"update {update:3d}  episodes {len(finished):3d}  mean return {mean}  "
              f"({time.perf_counter() - start:5.1f} s)")
    env.close()


if __name__ == "__main__":
    main()
