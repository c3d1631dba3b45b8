"""The table server's shortcuts on the per-move path keep its guarantees: a
seat's view is built once per version and connection state, never stale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from server_kit import actor, bot_move, client, wait_until


def create(c: Any, seats: list[str], seed: int) -> dict[str, Any]:
    # a long match: the bot has moves enough to prove slow
    r = c.post("/api/tables", json={"game": "gin", "seats": seats, "options": {"target": 500},
                                    "seed": seed})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_view_is_built_once_per_version_and_follows_connections(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, ["human", "human"], seed=3)
        a = actor(c, t["table"])
        tokens = [s["token"] for s in t["seats"]]
        first = a.view(0)
        assert a.view(0) is first  # the same version: the same view
        assert a.view(1) is not first and a.view(1)["seat"] == 1
        assert a.view(None)["seat"] is None and "hand" not in a.view(None)
        with c.websocket_connect(f"/ws/tables/{t['table']}?token={tokens[0]}&since=0") as ws:
            assert ws.receive_json()["type"] == "hello"
            connected = a.view(0)
            assert connected is not first  # who is connected is part of the view
            assert connected["players"][0]["connected"] is True
            seat = a.state.current_player()
            r = c.post(f"/api/tables/{t['table']}/act",
                       json={"token": tokens[seat], "action": bot_move(a.state, seat)})
            assert r.status_code == 200, r.text
            event = ws.receive_json()  # pushed as text encoded once for the seat
            assert event["type"] == "event" and event["version"] == 1
            assert event["view"] == a.view(0) and a.view(0)["version"] == 1
            assert event["view"]["hand"] == a.state.observation(0).to_dict()["hand"].split()
        wait_until(lambda: a.connected[0] == 0)
        assert a.view(0)["players"][0]["connected"] is False
