"""``rummylab play`` in the browser (issue 43): a local server on 127.0.0.1
and the address printed (the browser is never opened here: ``--no-browser``);
``--terminal`` keeps the terminal game; without the web extra, one line."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rummylab.cli import main

pytest.importorskip("fastapi", reason="the table server needs the web extra")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def playing(tmp_path: Path, *args: str) -> Iterator[tuple[str, str]]:
    """``rummylab play ARGS --no-browser`` as a process: (the address it
    prints, everything it printed up to it)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src") + os.pathsep + \
        env.get("PYTHONPATH", "")
    db = f"sqlite:///{tmp_path / 'play.sqlite3'}"
    proc = subprocess.Popen([sys.executable, "-m", "rummylab", "play", *args, "--no-browser",
                             "--db", db], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        seen = ""
        end = time.monotonic() + 60
        while time.monotonic() < end:
            line = proc.stdout.readline()
            if not line:
                raise AssertionError(f"play exited: {seen}")
            seen += line
            if line.startswith("Playing at "):
                yield line.split()[2], seen
                return
        raise AssertionError(f"no address printed: {seen}")
    finally:
        proc.kill()
        proc.wait()


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_play_a_game_opens_a_table_against_the_bot(tmp_path: Path) -> None:
    port = _port()
    with playing(tmp_path, "gin", "--bot", "hard", "--port", str(port),
                 "--option", "target=50", "--seed", "9") as (url, _):
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname == "127.0.0.1" and parts.port == port
        assert parts.path.startswith("/t/")
        token = urllib.parse.parse_qs(parts.query)["token"][0]
        view = _get(f"http://127.0.0.1:{port}/api/tables/{parts.path[3:]}?token={token}")
        assert view["seat"] == 0 and view["game"] == "gin" and view["options"]["target"] == 50
        assert [p["player"] for p in view["players"]] == ["human", "bot:hard"]
        with urllib.request.urlopen(url, timeout=10) as page:  # the table's page itself
            assert '<main id="main"' in page.read().decode()


def test_play_without_a_game_is_the_lobby_and_a_taken_port_is_replaced(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        with playing(tmp_path, "--port", str(busy)) as (url, said):
            assert f"Port {busy} is taken" in said
            assert url.endswith("/") and f":{busy}/" not in url
            assert _get(url + "api/tables") == {"tables": []}


def test_play_three_thirteen_with_players(tmp_path: Path) -> None:
    with playing(tmp_path, "313", "--players", "3", "--port", str(_port())) as (url, _):
        parts = urllib.parse.urlsplit(url)
        token = urllib.parse.parse_qs(parts.query)["token"][0]
        view = _get(f"{parts.scheme}://{parts.netloc}/api/tables/{parts.path[3:]}?token={token}")
        assert view["game"] == "three-thirteen" and len(view["players"]) == 3


@pytest.mark.parametrize("argv, said", [
    (["play", "gin", "--record", "x.jsonl"], "--record is for --terminal"),
    (["play", "gin", "--option", "target=0"], "target"),
    (["play", "gin", "--bot", "nosuch"], "unknown bot"),
])
def test_bad_browser_play_is_one_line(argv: list[str], said: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1


def test_without_the_web_extra_play_says_so_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("rummylab.server.local", "rummylab.server.app"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if it were not installed
    assert main(["play", "gin"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'rummylab[web]'" in err and "rummylab play --terminal" in err
    assert len(err.strip().splitlines()) == 1
