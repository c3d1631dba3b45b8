"""``rummylab play`` in the browser: a table server on this machine, and the
browser opened at its lobby or at a new table against bots."""

from __future__ import annotations

import threading
import time
import webbrowser
from typing import Any

from rummylab.server.app import serve  # fails without the web extra: said by the CLI


def free_port(host: str, port: int) -> int:
    """``port`` if it can be listened on at ``host``, else one the system gives."""
    import socket

    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            s.bind((host, 0))
        found: int = s.getsockname()[1]
        return found


def table_url(base: str, game: str, *, bot: str = "simple", players: int | None = None,
              options: dict[str, Any] | None = None, seed: int | None = None) -> str:
    """Create a table of ``game`` at the server ``base``: the player in seat 1,
    ``bot`` in every other seat; return the player's page. A refusal (an
    unknown option, a bot that does not play the game) is a
    :class:`~rummylab.errors.OptionError` with the server's reason."""
    import json
    import urllib.error
    import urllib.request

    from rummylab.errors import OptionError
    from rummylab.registry import game_class
    from rummylab.web.catalogue import games

    name = game_class(game).game_name  # an alias ("313") names its game
    if players is None:
        found = next((g for g in games() if g["game"] == name), None)
        players = found["players"]["default"] if found else 2
    body: dict[str, Any] = {"game": name, "options": options or {},
                            "seats": ["human"] + [f"bot:{bot}"] * (players - 1)}
    if seed is not None:
        body["seed"] = seed
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return base + str(json.loads(answer.read())["seats"][0]["url"])
    except urllib.error.HTTPError as e:
        try:
            reason = json.loads(e.read())["error"]
        except (ValueError, KeyError, TypeError):
            reason = f"the server answered {e.code}"
        raise OptionError(f"cannot create the table: {reason}") from None


def launch(game: str | None = None, *, host: str = "127.0.0.1", port: int = 8000,
           db: str | None = None, bot: str = "simple", open_browser: bool = True,
           options: dict[str, Any] | None = None, players: int | None = None,
           seed: int | None = None) -> None:
    """Start a local server and open the browser at the lobby, or, with
    ``game``, at a new table of that game against ``bot`` (``rummylab play``).
    The address is printed too (a machine without a browser: open it by hand;
    ``open_browser=False`` never opens one). Runs until interrupted."""
    import urllib.request


    base = f"http://{host}:{port}"

    def open_when_ready() -> None:
        for _ in range(300):
            try:
                with urllib.request.urlopen(base + "/api/games", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            return
        url = base + "/"
        if game is not None:
            try:
                url = table_url(base, game, bot=bot, players=players, options=options,
                                seed=seed)
            except Exception as e:  # the lobby still works: say why and open it
                print(f"{e}; opening the lobby", flush=True)
        print(f"Playing at {url} (Ctrl-C stops the server)", flush=True)
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=open_when_ready, daemon=True).start()
    serve(host, port, db, 20)
