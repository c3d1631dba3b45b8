"""What goes on the wire: each seat's view, built from that seat's
observation only, and the spectators' view, built from what every seat's
observation shows alike.

Nothing else of the game state reaches a client: the server adds only facts
about the table itself (its id, version, seats and, once the match is over,
the seed). The engine decides what a seat may know; these functions only
reshape it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from rummylab.game import TERMINAL, State

_MISSING = object()


def _encoder() -> Callable[[Any], str]:
    """orjson where installed (the web extra brings it: a view is encoded seven
    times faster), else the standard library's encoder, made once."""
    try:
        import orjson  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return json.JSONEncoder(separators=(",", ":")).encode
    dumps, option = orjson.dumps, orjson.OPT_NON_STR_KEYS

    def encode(message: Any) -> str:
        text: str = dumps(message, option=option).decode()
        return text

    return encode


#: a message as the compact JSON text sent to a WebSocket
encode = _encoder()


def observed(state: State, seat: int) -> dict[str, Any]:
    """The seat's observation as plain JSON-able data, with ``results``: every
    hand's (round's) result so far, which each seat was shown alike as its
    ``last_result`` when that hand ended, so that a page opened late or
    reloaded has the whole score sheet."""
    data: dict[str, Any] = state.observation(seat).to_dict()
    data["results"] = state.results
    return data


def common(values: Sequence[Any]) -> Any:
    """What all of ``values`` show alike: mappings key by key (a key missing
    from one is left out), anything else whole if every value is equal, else
    left out (``_MISSING``).

    >>> common([{"pile": "7h", "hand": "As", "scores": [1, 2]},
    ...         {"pile": "7h", "hand": "Kd", "scores": [1, 2]}])
    {'pile': '7h', 'scores': [1, 2]}
    """
    first = values[0]
    if all(isinstance(v, dict) for v in values):
        out = {}
        for key in first:
            if all(key in v for v in values):
                found = common([v[key] for v in values])
                if found is not _MISSING:
                    out[key] = found
        return out
    return first if all(v == first for v in values[1:]) else _MISSING


def _shaped(obs: dict[str, Any]) -> dict[str, Any]:
    """The observation's fields as the API names them: ``hand`` as a list of
    cards, ``legal`` the text moves."""
    out = dict(obs)
    hand = out.get("hand")
    if isinstance(hand, str):
        out["hand"] = hand.split()
    out["legal"] = list(out.pop("legal_actions", []))
    out["to_act"] = out.get("to_act", TERMINAL)
    out["terminal"] = out["to_act"] == TERMINAL
    return out


def seat_view(obs: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """A seat's view: its observation ``obs`` and the table's public facts."""
    return {**table, **_shaped(obs)}


def public_view(observations: Sequence[dict[str, Any]], table: dict[str, Any]) -> dict[str, Any]:
    """The spectators' view: only what every seat's observation shows alike
    (a card one seat knows and another does not is left out)."""
    shared = common(observations)
    assert isinstance(shared, dict)
    shared.pop("seat", None)
    shared.pop("legal_actions", None)
    view = {**table, **_shaped(shared)}
    view["seat"] = None
    view["legal"] = []
    return view
