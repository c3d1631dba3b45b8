"""A Gymnasium single-agent view of a game: one learning seat, bots in the
other seats.

    import gymnasium as gym
    import rummylab.rl  # registers the ids
    env = gym.make("rummylab/Gin-v0", opponent="simple")
    obs, info = env.reset(seed=0)
    action = policy(obs["observation"], env.unwrapped.action_masks())
    obs, reward, terminated, truncated, info = env.step(action)

The observation is the PettingZoo one, ``{"observation": float32 array,
"action_mask": int8 array}``; ``action_masks()`` returns the mask as a
bool array (the MaskablePPO convention). The bots and the deal are seeded
from the environment's own generator (``self.np_random``), so
``reset(seed=s)`` fixes the whole episode given the learner's actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym  # type: ignore[import-not-found, import-untyped, unused-ignore]
import numpy as np  # type: ignore[import-not-found, import-untyped, unused-ignore]
from gymnasium import spaces  # type: ignore[import-not-found, import-untyped, unused-ignore]

from rummylab.bots import make_bot
from rummylab.errors import IllegalActionError, OptionError
from rummylab.registry import DEFAULT_GAME
from rummylab.rl.aec import observation_space
from rummylab.rl.common import EnvConfig, Match, action_id, render_text, steps_limit
from rummylab.rl.encoders import make_encoder
from rummylab.rl.specs import SPECS


class RummyGymEnv(gym.Env):  # type: ignore[misc, unused-ignore]
    """One learning seat against bots.

    - ``seat``: the learner's seat (int) or ``"random"`` (drawn at each reset).
    - ``opponent``: a bot spec for every other seat (``"simple"``, the default,
      or ``"random"``), or a list with one spec per other seat in seat order.
    - ``illegal_action``: ``"penalty"`` (the default: the action is ignored,
      the reward is ``-illegal_penalty``, the state does not change and
      ``info["illegal_action"]`` is True; the step counts towards
      ``max_steps``) or ``"raise"`` (IllegalActionError). The default lets
      unmasked learners and Gymnasium's ``check_env`` (which samples
      unmasked actions) run; masked learners never trigger it. A float or a
      bool is no action: it raises IllegalActionError in either mode, as
      does a step before ``reset()`` or after the episode ended or was
      truncated.
    - ``reward``, ``players``, ``max_steps`` (learner steps), ``render_mode``
      (``"ansi"``: the learner's own view) and rule options as for
      :func:`rummylab.rl.aec_env`.

    In three-player Gin the learner's seat sits out some hands: the bots
    play those through and the learner is asked again at its next turn; what
    those hands gave or cost comes with that step's reward (after a reset,
    with the first step's). A match that ends before the learner's first
    turn is no episode: ``reset`` deals another.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        seat: int | str = 0,
        opponent: str | Sequence[str] = "simple",
        reward: str = "match",
        max_steps: int | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
        **rule_options: Any,
    ) -> None:
        opts = dict(options or {})
        opts.update(rule_options)
        # max_steps is counted here in learner steps, not by the match
        self.config = EnvConfig(game, players, reward, None, illegal_action,
                                illegal_penalty, opts)
        self.max_steps = steps_limit(max_steps)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        n = self.config.players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise OptionError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        self.seat_option = seat
        if isinstance(opponent, str):
            self.opponents = [opponent] * (n - 1)
        else:
            self.opponents = list(opponent)
            if len(self.opponents) != n - 1:
                raise OptionError(f"give {n - 1} opponent specs, one per other seat")
        for spec in self.opponents:  # fail early on a bad spec
            make_bot(spec, self.config.spec.engine, seed=0)
        self.encoder = make_encoder(self.config.spec.name, n, self.config.resolved)
        self.observation_space = observation_space(self.encoder.size, self.config.num_actions)
        self.action_space = spaces.Discrete(self.config.num_actions)
        self.match: Match | None = None
        self.seat = 0 if seat == "random" else int(seat)
        self.bots: dict[int, Any] = {}
        self.episode_return = 0.0
        self._pending = 0.0
        self._steps = 0
        self._truncated = False  # the last step truncated the episode

    # -- gymnasium API ---------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        # ``options`` is accepted and unused, as the checkers of Gymnasium and
        # PettingZoo expect; rule options are the environment's own
        super().reset(seed=seed)
        rng = self.np_random
        n = self.config.players
        if self.seat_option == "random":
            self.seat = int(rng.integers(n))
        others = [s for s in range(n) if s != self.seat]
        while True:
            self.match = Match(self.config, int(rng.integers(0, 2**62)))
            self.bots = {s: make_bot(spec, self.config.spec.engine,
                                     seed=int(rng.integers(0, 2**62)))
                         for s, spec in zip(others, self.opponents, strict=True)}
            # what the learner gains or loses while the bots play to its first turn
            # (three-player Gin: hands it sits out) comes with its first step
            self._pending = self._advance()
            if not self.match.state.is_terminal():
                break
            # the match ended before the learner's first turn: an episode has one
        self.episode_return = 0.0
        self._steps = 0
        self._truncated = False
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.match is None:
            raise IllegalActionError("no episode yet: call reset() first")
        m = self.match
        if m.state.is_terminal():
            raise IllegalActionError("the episode is over: call reset()")
        if self._truncated:
            raise IllegalActionError(f"the episode was truncated after {self.max_steps} steps: "
                                     "call reset()")
        action = action_id(action)
        self._steps += 1
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        try:
            m.check(action)
        except IllegalActionError:
            if self.config.illegal_action == "raise":
                raise
            reward = -self.config.illegal_penalty + self._take_pending()
            self.episode_return += reward
            info = self._info()
            info["illegal_action"] = True
            self._truncated = truncated
            return self._obs(), reward, False, truncated, info
        reward = self._take_pending() + m.step(action)[self.seat]
        reward += self._advance()
        self.episode_return += reward
        terminated = m.state.is_terminal()
        self._truncated = truncated and not terminated
        return self._obs(), float(reward), terminated, self._truncated, self._info()

    def _take_pending(self) -> float:
        pending, self._pending = self._pending, 0.0
        return pending

    def _advance(self) -> float:
        """Let the bots play until the learner is to act or the match ends."""
        assert self.match is not None
        m, st, gained = self.match, self.match.state, 0.0
        while not st.is_terminal():
            cur = st.current_player()
            if cur == self.seat:
                break
            # ``move``: a bot may make a meld no action id names (Manipulation)
            gained += m.step(self.bots[cur].move(st.observation(cur)))[self.seat]
        return gained

    def _obs(self) -> dict[str, Any]:
        assert self.match is not None
        st = self.match.state
        return {"observation": self.encoder.encode(st.observation(self.seat)),
                "action_mask": self.action_masks().astype(np.int8)}

    def _info(self) -> dict[str, Any]:
        assert self.match is not None
        return {"seat": self.seat, "hands_finished": self.match.hands_finished}

    def action_masks(self) -> Any:
        """Legal actions of the learner now, as a bool array."""
        assert self.match is not None, "call reset() first"
        mask = np.zeros(self.config.num_actions, dtype=bool)
        st = self.match.state
        if st.current_player() == self.seat:
            mask[st.legal_actions()] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.match is not None, "call reset() first"
        return render_text(self.match.state, self.seat)

    def close(self) -> None:
        pass


def gym_env(game: str = DEFAULT_GAME, **kwargs: Any) -> RummyGymEnv:
    """A Gymnasium environment for ``game`` (see :class:`RummyGymEnv`)."""
    return RummyGymEnv(game, **kwargs)


#: Gymnasium ids by adapter name (``rummylab/Gin-v0``, ``rummylab/ThreeThirteen-v0``, ...)
GYM_IDS = {name: f"rummylab/{spec.title}-v0" for name, spec in SPECS.items()}


def register_gym_envs() -> None:
    """Register the four ids with Gymnasium (idempotent)."""
    for game, env_id in GYM_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="rummylab.rl.gym_env:RummyGymEnv",
                         kwargs={"game": game})
