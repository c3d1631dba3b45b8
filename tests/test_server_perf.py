"""The table server's shortcuts on the per-move path keep its guarantees: a
quick bot thinks on the event loop until one of its moves proves slow, and a
seat's view is built once per version and connection state, never stale."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from rummylab.server import tables
from server_kit import actor, bot_move, client, wait_until


def create(c: Any, seats: list[str], seed: int) -> dict[str, Any]:
    # a long match: the bot has moves enough to prove slow
    r = c.post("/api/tables", json={"game": "gin", "seats": seats, "options": {"target": 500},
                                    "seed": seed})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_quick_bot_that_proves_slow_thinks_in_the_pool(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, ["human", "bot:simple"], seed=4)
        a = actor(c, t["table"])
        bot = a.bots[1]
        assert bot.quick
        threads: list[str] = []
        real = bot.move

        def slow_move(obs: Any) -> Any:
            threads.append(threading.current_thread().name)
            if 2 <= len(threads) <= 1 + tables.SLOW_MOVES:  # moves 2-4 burn CPU past the limit
                end = time.thread_time() + 2 * tables.QUICK_LIMIT
                while time.thread_time() < end:
                    pass
            return real(obs)

        bot.move = slow_move
        token = t["seats"][0]["token"]
        n = 0
        want = 3 + tables.SLOW_MOVES
        while len(threads) < want and not a.terminal:
            if a.state.current_player() != 0:
                time.sleep(0.002)
                continue
            r = c.post(f"/api/tables/{t['table']}/act",
                       json={"token": token, "action": bot_move(a.state, 0), "id": n})
            assert r.status_code in (200, 409), r.text
            n += 1
        wait_until(lambda: len(threads) >= want or a.terminal)
        assert len(threads) >= want
        loop = threads[0]
        assert not loop.startswith("bots")  # quick: on the loop's own thread
        # a slow move or two may be chance (a garbage collection): it stays on the loop
        assert threads[1:1 + tables.SLOW_MOVES] == [loop] * tables.SLOW_MOVES
        assert all(name.startswith("bots") for name in threads[1 + tables.SLOW_MOVES:])
        assert a.slow[1] == tables.SLOW_MOVES


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
