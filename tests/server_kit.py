"""Shared by the table server's tests: an in-process server (FastAPI's
TestClient), a real ``rummylab serve`` process on 127.0.0.1, and the cards a
message names."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # Starlette's note on its test client's HTTP library
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from rummylab.bots import make_bot
from rummylab.server.app import create_app
from rummylab.server.hub import Settings

# a card in the project's notation, standing alone (not inside a longer word)
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][cdhs]|Jk)(?![A-Za-z0-9])")

SHORT = {  # options that keep a match short
    "gin": {"target": 10},
    "gin3": {"target": 10},
    "three-thirteen": {},
    "manipulation": {"target": 30},
}


def cards_in(data: Any) -> set[str]:
    """Every card named anywhere in ``data`` (a message or an observation)."""
    text = data if isinstance(data, str) else json.dumps(data)
    return set(CARD.findall(text))


@contextmanager
def client(db: Path, **bounds: Any) -> Iterator[TestClient]:
    # the tests move far faster than a person: the per-token bound is tested on its own
    bounds.setdefault("moves_per_second", 1e6)
    bounds.setdefault("move_burst", 1_000_000)
    with TestClient(create_app(Settings(db=f"sqlite:///{db}", **bounds))) as c:
        yield c


def actor(c: TestClient, table: str) -> Any:
    """The table's actor inside the in-process server (to choose moves with a bot)."""
    return c.app.state.hub.actors[table]  # type: ignore[attr-defined]


def bot_move(state: Any, seat: int, bot: str = "simple") -> str:
    """What the simple bot would play for ``seat`` (the tests' stand-in for a person)."""
    move = make_bot(bot, state.game_name, 1).move(state.observation(seat))
    return move if isinstance(move, str) else str(state.action_to_string(move))


def wait_until(predicate: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.005)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``rummylab serve`` as a process; returns once it answers."""
    import httpx

    env = dict(os.environ)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummylab", "serve", "--port", str(port), "--db", db, *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.stderr.read().decode()[-2000:]}"
                                 if proc.stderr else "the server exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start within 60 s")
