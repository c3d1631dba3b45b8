"""Hand analysis for the CLI (``rummylab analyze``) and the docs: each game's
lives in its package and is reached through ``State.analyze``; the functions
stay importable from here.

>>> analyze_gin("7c 8c 9c 4d 4h 4s 2c 3c Ah 2h Kd")["discard"]
'Kd'
"""

from __future__ import annotations

from typing import Any

from rummylab.cards import JOKER, card_str
from rummylab.errors import PositionError
from rummylab.game import State
from rummylab.gin.analysis import analyze_gin
from rummylab.manipulation.analysis import analyze_manipulation
from rummylab.three_thirteen.analysis import analyze_thirteen

__all__ = ["analyze_gin", "analyze_manipulation", "analyze_position", "analyze_thirteen"]


def analyze_position(text: str, seed: int | None = None) -> dict[str, Any]:
    """The best move at a position (``rummylab analyze GAME --position P``):
    for a seat's position that seat's, for the whole position the seat to
    act's; the strong bot's move and reason, then the solver's figures for
    the seat's hand. ``seed`` fills a seat's position's unknown cards (the
    bot sees only what the seat knows, so they do not change its move).

    >>> from rummylab import new_state
    >>> out = analyze_position(new_state("gin", seed=1).position(0))
    >>> out["seat"], out["step"], out["move"], out["deadwood"]
    (0, 'offer', 'pass', 53)
    """
    from rummylab.bots import make_bot
    from rummylab.position import from_position, split

    fields = split(text)
    state = from_position(text, seed)
    if state.is_terminal():
        raise PositionError("the match is over at this position: nobody is to act")
    to_act = state.current_player()
    seat = fields.values.get("seat")  # read and checked by from_position
    if seat is not None and int(seat) != to_act:
        raise PositionError(f"seat {seat} is not to act at this position (seat {to_act} is)")
    obs = state.observation(to_act)
    bot = make_bot("strong", state.game_name, seed=0)  # its move depends on the view only
    move, reason = bot.move_hint(obs)
    out: dict[str, Any] = {
        "seat": to_act, "step": fields.values["turn"].partition(":")[2],
        "move": move if isinstance(move, str) else state.action_to_string(move),
        "reason": reason,
    }
    out.update(_hand_figures(state, obs))
    return out


def _hand_figures(state: State, obs: Any) -> dict[str, Any]:
    """The game's own hand analysis (``State.analyze``) of the seat's cards,
    with what the position tells it: the round, the decks, the table, the
    hand's knock limit."""
    cls = type(state)
    hand = " ".join(card_str(c) for c in obs.cards_in_hand())
    inputs = cls.analysis_inputs
    given: dict[str, Any] = {}
    if "round" in inputs:
        given["round"] = obs.round
    if "decks" in inputs:
        given["decks"] = getattr(state, "num_decks", None)
    if "table" in inputs:
        given["table"] = " | ".join(
            " ".join(f"Jk={card_str(t)}" if c == JOKER else card_str(c) for c, t in meld)
            for meld in obs.table)
    if "hand" in inputs:
        given["hand"], hand = hand, ""
    if hasattr(obs, "knock_limit"):
        given["knock_limit"] = obs.knock_limit
    if "natural_wild_sets" in state.options:
        given["natural_wild_sets"] = state.options["natural_wild_sets"]
    figures: dict[str, Any] = cls.analyze(hand, **given)
    return figures
