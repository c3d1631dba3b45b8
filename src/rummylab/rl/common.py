"""What the PettingZoo and Gymnasium adapters share: one engine match,
stepped one action at a time, with hand rewards, truncation and a text view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummylab.errors import IllegalActionError, OptionError
from rummylab.game import State, whole_number
from rummylab.match import apply_move
from rummylab.rl.specs import GameSpec, spec_of, zero_sum

REWARDS = ("match", "hand")
ILLEGAL = ("raise", "penalty")


def steps_limit(max_steps: int | None) -> int | None:
    """A truncation limit of at least one step, or None for no limit."""
    if max_steps is not None and int(max_steps) < 1:
        raise OptionError("max_steps must be at least 1 (or None for no limit)")
    return None if max_steps is None else int(max_steps)


class EnvConfig:
    """Validated adapter settings and the engine's rule options."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        reward: str = "match",
        max_steps: int | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = 1.0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.spec: GameSpec = spec_of(game)
        self.players = self.spec.check_players(players)
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal_action not in ILLEGAL:
            raise OptionError(
                f"illegal_action must be one of {', '.join(ILLEGAL)}, not {illegal_action!r}")
        self.reward = reward
        self.max_steps = steps_limit(max_steps)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.options = dict(options or {})
        # resolve once, so a bad option fails at construction
        probe = self.spec.new_state(self.players, self.options, seed=0)
        self.resolved: dict[str, Any] = dict(probe.options)
        self.num_actions = self.spec.num_actions

    def new_state(self, seed: int) -> State:
        return self.spec.new_state(self.players, self.options, seed)


class Match:
    """An engine match plus the bookkeeping the adapters need.

    ``step(action)`` applies one action and returns the per-seat rewards
    under the configured reward mode (``hand``: each finished hand's score
    change, zero-sum; at the end whatever the match return adds, e.g. end
    bonuses, so that both modes sum to the match return).
    """

    def __init__(self, config: EnvConfig, seed: int) -> None:
        self.config = config
        self.state = config.new_state(seed)
        self.state.take_events()
        n = config.players
        self.given = [0.0] * n  # reward handed out so far, per seat
        self.scores = self._scores()
        self.steps = 0
        self.hands_finished = 0

    def _scores(self) -> list[int]:
        s: Any = self.state
        return list(s.scores)

    def step(self, action: int | str) -> list[float]:
        """Apply ``action`` (IllegalActionError, and no change, if it is not
        legal), an action id or a bot's text move, and return each seat's
        reward for it."""
        st = self.state
        apply_move(st, action)
        self.steps += 1
        events = st.take_events()
        n = self.config.players
        if len(events) == 1 and not st.is_terminal():
            return [0.0] * n  # a plain move: nothing scored
        rewards = [0.0] * n
        results = sum(1 for e in events if e["type"] == "result")
        if results:
            self.hands_finished += results
            scores = self._scores()
            if self.config.reward == "hand":
                delta = [a - b for a, b in zip(scores, self.scores, strict=True)]
                rewards = zero_sum(delta, self.config.spec.lower_is_better)
            self.scores = scores
        if st.is_terminal():
            # the match return less what was handed out already: in "hand"
            # mode that is the last hand's change plus any end bonus
            rewards = [r - g for r, g in zip(st.returns(), self.given, strict=True)]
        for i in range(n):
            self.given[i] += rewards[i]
        return rewards

    @property
    def truncated(self) -> bool:
        m = self.config.max_steps
        return m is not None and self.steps >= m and not self.state.is_terminal()

    def legal(self) -> list[int]:
        return self.state.legal_actions()

    def check(self, action: int) -> None:
        if self.state.is_terminal():
            raise IllegalActionError("the match is over")
        self.state.check_legal(action)


def action_id(action: Any) -> int:
    """An action id as an int: a whole number (numpy's too, and a
    one-element integer array), never a float or a bool, which ``int()``
    would quietly turn into another action.

    >>> action_id(3)
    3
    >>> action_id(1.9)
    Traceback (most recent call last):
    ...
    rummylab.errors.IllegalActionError: an action is a whole number, not 1.9
    """
    whole = whole_number(action)
    # a one-element integer array, as a vectorised policy returns it
    if whole is None and getattr(action, "size", None) == 1 and hasattr(action, "item"):
        whole = whole_number(action.item())
    if whole is None:
        raise IllegalActionError(f"an action is a whole number, not {action!r}")
    return whole


def render_text(state: State, seat: int | None = None) -> str:
    """A plain-text view: ``seat``'s own view, or the referee's (every hand)
    when ``seat`` is None."""
    lines = [f"{state.game_name}  {state!r}"]
    cur = state.current_player()
    if cur >= 0:
        legal = ", ".join(state.action_to_string(a) for a in state.legal_actions())
        lines.append(f"to act: seat {cur}  legal: {legal}")
    if state.is_terminal():
        lines.append(f"returns: {state.returns()}")
    lines += state.text_lines(seat)  # the hands and the table, as the game writes them
    return "\n".join(lines) + "\n"
