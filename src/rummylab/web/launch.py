"""Playing in the browser on this machine (``rummylab play``): a local table
server, and the browser opened at the lobby or at a new table.

The server serves the client (:func:`rummylab.web.mount`); this module starts
the server, so it lives apart from the client's package front door.
"""

from __future__ import annotations

import threading
import time
import webbrowser
from typing import Any


def launch(game: str | None = None, *, host: str = "127.0.0.1", port: int = 8000,
           db: str | None = None, bot: str = "simple", open_browser: bool = True,
           options: dict[str, Any] | None = None) -> None:
    """Start a local server and open the browser at the lobby, or, with
    ``game``, at a new table of that game against ``bot`` (``rummylab play``).
    Runs until interrupted."""
    import json
    import urllib.request

    from rummylab.server.app import serve

    base = f"http://{host}:{port}"

    def open_when_ready() -> None:
        for _ in range(100):
            try:
                with urllib.request.urlopen(base + "/api/games", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            return
        url = base + "/"
        if game is not None:
            from rummylab.registry import game_class
            from rummylab.web.catalogue import games

            name = game_class(game).game_name  # an alias ("313") names its game
            found = next((g for g in games() if g["game"] == name), None)
            players = found["players"]["default"] if found else 2
            body = json.dumps({"game": name, "options": options or {},
                               "seats": ["human"] + [f"bot:{bot}"] * (players - 1)}).encode()
            req = urllib.request.Request(base + "/api/tables", data=body,
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=10) as answer:
                    url = base + json.loads(answer.read())["seats"][0]["url"]
            except OSError as e:
                print(f"could not create the table: {e}", flush=True)
        print(f"playing at {url}", flush=True)
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=open_when_ready, daemon=True).start()
    serve(host, port, db, 20)
