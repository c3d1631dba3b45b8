"""PettingZoo AEC environments for the four games.

    from rummylab.rl import aec_env
    env = aec_env("gin")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs)
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (engine seat i is ``player_i``).
Only the seat to act is ever ``agent_selection``: in three-player Gin the
sitter never acts, so it is selected only once the match is over, to
collect its reward and be removed like every agent. Observations are
``{"observation": float32 array, "action_mask": int8 array}``; the mask is
all zeros for a seat that is not to act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np  # type: ignore[import-not-found, import-untyped, unused-ignore]
from gymnasium import spaces  # type: ignore[import-not-found, import-untyped, unused-ignore]
from gymnasium.utils import seeding  # type: ignore[import-not-found, import-untyped, unused-ignore]
from pettingzoo import AECEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-not-found, import-untyped, unused-ignore]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-not-found, import-untyped, unused-ignore]

from rummylab.errors import IllegalActionError
from rummylab.registry import DEFAULT_GAME
from rummylab.rl.common import EnvConfig, Match, action_id, render_text
from rummylab.rl.encoders import make_encoder


def observation_space(encoder_size: int, num_actions: int) -> Any:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (encoder_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
    })


class RummyAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """One match of a rummylab game as a PettingZoo AEC environment.

    Arguments beyond these are the game's rule options (``target=50``...).

    - ``players``: player count (Three Thirteen 2-4, Manipulation 2-5).
    - ``reward``: ``"match"`` (zero-sum match return at the end, 0 before)
      or ``"hand"`` (each hand's score change, zero-sum, when the hand
      ends; both modes sum to the match return).
    - ``max_steps``: truncate after this many actions played (all seats; an
      illegal action ignored in penalty mode is none), None = never.
    - ``illegal_action``: ``"raise"`` (IllegalActionError, the default) or
      ``"penalty"`` (the action is ignored, the agent is charged
      ``illegal_penalty`` and stays selected).
    - ``render_mode``: None or ``"ansi"`` (``render()`` returns the referee's
      text view, every hand shown).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "rummylab_v0",
                                          "is_parallelizable": False}

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        reward: str = "match",
        max_steps: int | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
        **rule_options: Any,
    ) -> None:
        super().__init__()
        opts = dict(options or {})
        opts.update(rule_options)
        self.config = EnvConfig(game, players, reward, max_steps, illegal_action,
                                illegal_penalty, opts)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        spec = self.config.spec
        self.metadata = dict(self.metadata, name=f"rummylab_{spec.name}_v0")  # type: ignore[misc]
        n = self.config.players
        self.encoder = make_encoder(spec.name, n, self.config.resolved)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        space = observation_space(self.encoder.size, self.config.num_actions)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.config.num_actions)
                              for a in self.possible_agents}
        self._np_random: Any = None
        self.match: Match | None = None
        self._cache: dict[str, Any] = {}

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def np_random(self) -> Any:
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return self._np_random

    @property
    def state_(self) -> Any:
        """The engine state (full information: for referees and tests)."""
        assert self.match is not None, "call reset() first"
        return self.match.state

    # -- the AEC protocol ------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        engine_seed = int(self._np_random.integers(0, 2**62))
        self.match = Match(self.config, engine_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        self._select()

    def _select(self) -> None:
        assert self.match is not None
        cur = self.match.state.current_player()
        if cur >= 0:
            self.agent_selection = self.possible_agents[cur]

    def observe(self, agent: str) -> Any:
        out = self._cache.get(agent)
        if out is None:
            assert self.match is not None, "call reset() first"
            seat = self._index[agent]
            view = self.match.state.observation(seat)
            mask = np.zeros(self.config.num_actions, np.int8)
            # only the seat to act has a move (the sitter's view lists the captain's moves)
            if seat == self.match.state.current_player() and view.legal_actions:
                mask[list(view.legal_actions)] = 1
            out = self._cache[agent] = {"observation": self.encoder.encode(view),
                                        "action_mask": mask}
        # copies: a caller that writes into its arrays must not change the next look
        return {k: v.copy() for k, v in out.items()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent is done: the episode is over
            raise IllegalActionError("the episode is over: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None
        if action is None:
            raise IllegalActionError(f"{agent} is to act: None is no action")
        action = action_id(action)  # 1.9 or True is a mistake, not an illegal move
        try:
            gains = match.step(action)  # an illegal action changes nothing
        except IllegalActionError:
            if self.config.illegal_action == "raise":
                raise  # nothing changed, not even the reward the agent has still to see
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            self.rewards[agent] = -self.config.illegal_penalty
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}
        self._cache = {}
        rewards = self.rewards
        for a, g in zip(self.possible_agents, gains, strict=True):
            rewards[a] = g
        st = match.state
        if st.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
        elif match.truncated:
            for a in self.agents:
                self.truncations[a] = True
        cur = st.current_player()
        if cur >= 0:
            self.agent_selection = self.possible_agents[cur]
        if any(gains):
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            import warnings

            warnings.warn("render() needs render_mode='ansi'", stacklevel=2)
            return None
        assert self.match is not None, "call reset() first"
        return render_text(self.match.state)

    def close(self) -> None:
        pass


def raw_env(game: str = DEFAULT_GAME, **kwargs: Any) -> RummyAECEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return RummyAECEnv(game, **kwargs)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc, unused-ignore]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, but
    ``last()`` and ``step()`` reach the environment directly instead of
    through one ``__getattr__`` per attribute (a third of a step's cost)."""

    def last(self, observe: bool = True) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        env = self.env
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            env.step(action)


def aec_env(game: str = DEFAULT_GAME, *, wrap: bool = True, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment for ``game`` (``gin``, ``gin3``,
    ``three_thirteen``, ``manipulation``), by default inside an
    order-enforcing wrapper like PettingZoo's own environments
    (``wrap=False``: the bare :class:`RummyAECEnv`)."""
    env = RummyAECEnv(game, **kwargs)
    return OrderEnforcing(env) if wrap else env
