"""Positions of three-player Gin (docs/positions.md): Gin's, with the three
roles (``box= captain= sitter=``) in place of ``dealer=``, and the sitter's
advice on the captain's move to make (``advice=``, in the captain's and the
sitter's positions only: it tells of the captain's cards).

>>> from rummylab import from_position, new_state
>>> state = new_state("gin3", seed=3)
>>> _ = state.advise("pass")
>>> text = state.position()
>>> [t for t in text.split() if t.startswith(("box", "captain", "sitter", "advice"))]
['box=1', 'captain=2', 'sitter=0', 'advice=pass']
>>> from_position(text).position() == text
True
>>> "advice=" in state.position(state.dealer)
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummylab.errors import IllegalActionError, PositionError
from rummylab.game import register_position_codec
from rummylab.gin.game import GinState
from rummylab.gin.position import GinCodec
from rummylab.gin.three_player import GIN3_OPTIONS, Gin3State
from rummylab.options import OptionValue
from rummylab.position import Fields, seat


class Gin3Codec(GinCodec):
    spec = GIN3_OPTIONS
    players = 3

    def roles_tokens(self, dealer: int, roles: tuple[str, ...]) -> list[str]:
        return [f"{role}={roles.index(role)}" for role in ("box", "captain", "sitter")]

    def read_roles(self, f: Fields) -> tuple[int, int, int | None]:
        box, captain, sitter = (seat(f.need(r), 3, f"{r}=") for r in ("box", "captain", "sitter"))
        if len({box, captain, sitter}) != 3:
            raise PositionError("box=, captain= and sitter= must be three different seats")
        return box, captain, sitter

    def extra_tokens(self, advice: tuple[str, ...]) -> list[str]:
        return ["advice=" + ",".join(t.replace(" ", "-") for t in advice)] if advice else []

    def build(self, cls: type[Any], options: Mapping[str, OptionValue],
              seed: int | None, dealer: int) -> GinState:
        state: Gin3State = cls(options, seed)
        return state

    def read_extra(self, f: Fields, state: GinState) -> None:
        text = f.take("advice")
        state._pending_advice = [] if text is None else text.split(",")  # type: ignore[attr-defined]

    def after_read(self, state: GinState, moves: list[tuple[int, str]],
                   viewer: int | None) -> None:
        assert isinstance(state, Gin3State)
        pending: list[str] = state.__dict__.pop("_pending_advice")
        state._advice = []
        if not pending:
            return
        if viewer is not None and viewer == state.dealer:
            raise PositionError("advice=: the box does not see the sitter's advice")
        if state.current_player() != state.non_dealer:
            raise PositionError("advice=: the sitter advises only while the captain is to act")
        for item in pending:
            text = item.replace("-", " ")
            try:
                action = state.check_legal(state.string_to_action(text))
            except IllegalActionError:
                raise PositionError(f"advice=: {item!r} is not a legal move of the captain "
                                    "now") from None
            state._advice.append((state.sitter_seat, state.action_to_string(action),
                                  len(moves)))


CODEC = Gin3Codec()
write = CODEC.write
read = CODEC.read
register_position_codec(Gin3State, CODEC)
