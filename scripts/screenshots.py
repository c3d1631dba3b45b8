"""Regenerate the browser client's screenshots in docs/screenshots/: the lobby
and each game's table at 1280 and 360 px wide, from a fresh local server
(a temporary SQLite database, fixed seeds).

    python scripts/screenshots.py [--chromium /usr/bin/chromium]

Needs the web and test extras (FastAPI, uvicorn, Playwright) and Debian's
chromium; never ``playwright install``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SERVE = """
import sys, uvicorn
from rummylab.server.app import create_app
from rummylab.server.hub import Settings
uvicorn.run(create_app(Settings(db=sys.argv[2], max_open_tables=500)), host="127.0.0.1",
            port=int(sys.argv[1]), log_level="warning")
"""
# game, seats, options, seed, keys pressed once it is the seat's turn (to show a drawn hand)
TABLES: list[tuple[str, list[str], dict[str, Any], int, str]] = [
    ("gin", ["human", "bot:simple"], {}, 21, "s"),
    ("gin3", ["human", "bot:simple", "bot:simple"], {}, 4, ""),
    ("three-thirteen", ["human", "bot:simple", "bot:simple"], {}, 5, "s"),
    ("manipulation", ["human", "bot:simple", "bot:simple"], {}, 3, ""),
]
READY = """() => { const c = window.rummylab; if (!c || !c.view || c.busy) return false;
                   return c.shown === c.version && (c.view.terminal || c.view.legal.length > 0
                          || c.view.seat !== c.view.to_act); }"""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _post(base: str, path: str, body: Any) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    port = _port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep
                   + os.environ.get("PYTHONPATH", ""))
        server = subprocess.Popen([sys.executable, "-c", SERVE, str(port),
                                   f"sqlite:///{tmp}/tables.sqlite3"], env=env)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/games", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            urls = {}
            for game, seats, options, seed, _keys in TABLES:
                t = _post(base, "/api/tables", {"game": game, "seats": seats,
                                                "options": options, "seed": seed})
                urls[game] = base + t["seats"][0]["url"]
            # the lobby's list: a public table with a seat open to whoever joins
            _post(base, "/api/tables", {"game": "gin", "seats": ["human", "open"],
                                        "public": True, "seed": 1})
            # a finished match between bots, for the replay page
            done = _post(base, "/api/tables", {"game": "gin", "seats": ["bot:simple"] * 2,
                                               "options": {"target": 10}, "seed": 6})
            replay = (f"{base}/replay/{done['table']}?token={done['spectator']}&seat=0")
            for _ in range(600):
                try:
                    urllib.request.urlopen(f"{base}/api/tables/{done['table']}/record?"
                                           f"token={done['spectator']}", timeout=5).close()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                for width in (1280, 360):
                    ctx = browser.new_context(viewport={"width": width, "height": 800},
                                              reduced_motion="reduce")
                    page = ctx.new_page()
                    page.goto(base + "/")
                    page.wait_for_selector("#open-tables li")
                    page.screenshot(path=str(OUT / f"lobby-{width}.png"), full_page=True)
                    for game, _seats, _options, _seed, keys in TABLES:
                        page.goto(urls[game])
                        page.wait_for_function(READY, timeout=30_000)
                        for key in keys if width == 1280 else "":
                            if "draw stock" not in page.evaluate("window.rummylab.view.legal"):
                                continue
                            version = page.evaluate("window.rummylab.version")
                            page.keyboard.press(key)
                            page.wait_for_function("v => window.rummylab.version > v",
                                                   arg=version)
                            page.wait_for_function(READY, timeout=30_000)
                        page.wait_for_timeout(300)
                        page.screenshot(path=str(OUT / f"{game}-{width}.png"), full_page=True)
                        print(f"docs/screenshots/{game}-{width}.png")
                    page.goto(replay)
                    page.wait_for_selector("#replay-pos")
                    for _ in range(12):
                        page.keyboard.press("ArrowRight")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(OUT / f"replay-{width}.png"), full_page=True)
                    print(f"docs/screenshots/replay-{width}.png")
                    ctx.close()
                browser.close()
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
