"""A finished match, step by step, for the replay page: the record is
replayed by the engine (every line checked, as ``rummylab replay`` does),
then dealt again from its seed and played move by move; each step is the
view one seat had then (or the spectators'), in the shape the table page
draws, with that seat's hand arranged.

A finished match hides nothing any more (the record holds every deck), so
any seat's view may be asked for; the views are still each seat's own, so
the replay shows what that seat knew at each move.
"""

from __future__ import annotations

import io
import json
from typing import Any

from rummylab.errors import RecordError, RummyError
from rummylab.game import State
from rummylab.records import replay, start_state
from rummylab.server.views import observed, public_view, seat_view

MAX_STEPS = 5000  # moves of one match the page is given at once


def _start(head: dict[str, Any]) -> State:
    """The match of ``head`` dealt again from its seed (or from its position)."""
    if type(head.get("seed")) is not int or head.get("dealt") == "given":
        raise RecordError("this record was dealt from given decks, not a seed: "
                          "the replay page deals from a seed")
    return start_state(head)


def _parsed(line: str) -> dict[str, Any]:
    """A record line's object ({} for one that is not: the replay names it)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return {}
    return obj if isinstance(obj, dict) else {}


def _view(state: State, seat: int | None, facts: dict[str, Any]) -> dict[str, Any]:
    if seat is None:
        return public_view([observed(state, s) for s in range(state.num_players)], facts)
    view = seat_view(observed(state, seat), facts)
    view["legal"] = []  # a replay is watched: its moves are the record's
    return view


def steps(text: str, seat: int | None, table: str | None = None) -> dict[str, Any]:
    """The first match of the record ``text`` (the lines before its next
    header) as steps seen by ``seat`` (None:
    the spectators): step 0 the deal, then one per action or advice line.
    A record that does not replay is a :class:`RecordError` naming its line."""
    raw = text.lstrip("\ufeff").splitlines()
    parsed = [_parsed(x) for x in raw]
    # the first match alone: a record file (simulate, arena) may hold many, one
    # after another, each from its header line on
    end = next((i for i, x in enumerate(parsed) if i and x.get("type") == "header"),
               len(raw))
    lines = [x for x, line in zip(parsed[:end], raw, strict=False) if line.strip()]
    moves = [x for x in lines[1:] if x.get("type") in ("action", "advice")]
    if len(moves) > MAX_STEPS:  # before the whole match is replayed
        raise RummyError(f"the match has {len(moves)} moves: the replay page shows at most "
                         f"{MAX_STEPS}")
    try:
        first = next(replay(io.StringIO("\n".join(raw[:end]) + "\n")))
    except StopIteration:
        raise RecordError("the file holds no match") from None
    head = lines[0]
    state = _start(head)
    seats = [str(s) for s in head.get("seats", [])]
    if seat is not None and not 0 <= seat < state.num_players:
        raise RummyError(f"seat {seat + 1} does not play this match "
                         f"({state.num_players} seats)")
    facts: dict[str, Any] = {
        "table": table, "game": state.game_name, "options": head.get("options", {}),
        "seed": str(head["seed"]), "replay": True,
        "players": [{"seat": s, "player": name, "connected": False}
                    for s, name in enumerate(seats)],
    }
    arrange = type(state).arrange
    out: list[dict[str, Any]] = []

    def add(move: dict[str, Any] | None) -> None:
        view = _view(state, seat, {**facts, "version": len(out)})
        step: dict[str, Any] = {"view": view, "arrangement": None}
        if move is not None:
            step.update(seat=move["seat"], action=move["action"], kind=move["type"])
        if seat is not None and view.get("hand"):
            step["arrangement"] = arrange(state.observation(seat))
        out.append(step)

    add(None)
    for move in moves:
        if move["type"] == "action":
            state.apply(str(move["action"]))
        else:
            advise: Any = getattr(state, "advise")  # noqa: B009  (three-player Gin's alone)
            advise(str(move["action"]))
        add(move)
    return {"game": first.game, "seats": seats, "seat": seat, "steps": out,
            "final_scores": first.final_scores}
