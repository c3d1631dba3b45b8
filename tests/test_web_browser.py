"""The browser client in Debian's Chromium, driven by Playwright for Python
(issue 43): a real server (uvicorn, a temporary SQLite database) and real
pages, one per seat. Every test also asserts that the page logged no console
error, and axe-core (vendored, tests/vendor/) finds no serious or critical
accessibility violation on the lobby and on each game's table.

Never ``playwright install``: the browser is ``/usr/bin/chromium`` (.ci/run
installs it with apt).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the table server needs the web extra")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the browser tests need playwright (the test extra)")

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium "
                "(apt-get install chromium)", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
AXE = Path(__file__).parent / "vendor" / "axe.min.js"

SERVE = """
import sys, uvicorn
from rummylab.server.app import create_app
from rummylab.server.hub import Settings
uvicorn.run(create_app(Settings(db=sys.argv[2], max_open_tables=500)), host="127.0.0.1",
            port=int(sys.argv[1]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, db: str, cli: bool = False) -> None:
        self.db = db
        self.cli = cli  # run as `python -m rummylab serve`, as a player does
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parents[1] / "src")
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        argv = (["-m", "rummylab", "serve", "--port", str(self.port), "--db", self.db]
                if self.cli else ["-c", SERVE, str(self.port), self.db])
        self.proc = subprocess.Popen([sys.executable, *argv], env=env,
                                     stdout=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/api/games", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def api(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def table(self, game: str, seats: list[str], options: dict[str, Any] | None = None,
              seed: int = 1) -> Any:
        return self.api("POST", "/api/tables", {"game": game, "seats": seats,
                                                "options": options or {}, "seed": seed})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("web") / "tables.sqlite3"
    s = Server(f"sqlite:///{db}")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A page with its console errors collected."""

    def __init__(self, browser: Any, width: int = 1280, context: Any = None) -> None:
        self.context = context or browser.new_context(viewport={"width": width, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, url: str) -> None:
        self.page.goto(url)

    def ready(self, timeout: float = 30_000) -> dict[str, Any]:
        """Wait until the page shows the newest view and the seat may act (or
        the match is over, or nobody here acts); return that view."""
        self.page.wait_for_function(
            """() => { const c = window.rummylab; if (!c || !c.view || c.busy) return false;
                       return c.shown === c.version; }""", timeout=timeout)
        view: dict[str, Any] = self.page.evaluate("window.rummylab.view")
        return view

    def my_turn(self, timeout: float = 30_000, next_hand: str | None = "click") -> dict[str, Any]:
        """Wait until the seat may act (or the match is over); a hand's end on
        show is put away by ``next_hand`` (a click, a key), or (None) returned."""
        while True:
            self.page.wait_for_function(
                """() => { const c = window.rummylab; if (!c || !c.view || c.busy) return false;
                           const v = c.view;
                           return c.shown === c.version && (v.terminal || v.legal.length > 0
                                  || document.querySelector("#next-hand") !== null); }""",
                timeout=timeout)
            view: dict[str, Any] = self.page.evaluate("window.rummylab.view")
            if next_hand is None or not self.page.locator("#next-hand").count():
                return view
            if next_hand == "click":
                self.page.click("#next-hand")
            else:
                self.page.keyboard.press(next_hand)
            assert not self.page.locator("#next-hand").count()

    def after(self, version: int) -> None:
        self.page.wait_for_function("v => window.rummylab.version > v", arg=version)

    def arrangement(self) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.page.evaluate("window.rummylab.arrangement")
        return found

    def axe(self) -> list[str]:
        """Serious or critical axe-core violations on the page."""
        self.page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        result = self.page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
        return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes: "
                f"{v['nodes'][0]['target'] if v['nodes'] else ''})"
                for v in result if v.get("impact") in ("serious", "critical")]

    def close(self) -> None:
        self.context.close()


def _best_discard(p: Page, moves: list[str], word: str) -> str | None:
    """The legal ``word CARD`` move leaving the fewest points (the page's arrangement)."""
    arr = p.arrangement() or {}
    after = arr.get("after_discard") or {}
    found = [m for m in moves if m.startswith(word + " ")]
    if not found:
        return None
    return min(found, key=lambda m: after.get(m.split()[-1], 99))


def _hand_order(p: Page) -> list[str]:
    codes: list[str] = p.page.eval_on_selector_all(".hand button.card",
                                                   "els => els.map(e => e.dataset.card)")
    return codes


def _check_buttons(p: Page, view: dict[str, Any], word: str) -> None:
    """Knocking (going out) is offered only when it is legal."""
    legal_out = any(m.startswith(word + " ") for m in view["legal"])
    shown = p.page.locator(f'.actions [data-move^="{word} "]').count()
    assert (shown > 0) == legal_out, (view["legal"], shown)


def _play_gin_by_clicks(p: Page, limit: int = 600) -> dict[str, Any]:
    for _ in range(limit):
        view = p.my_turn()
        if view["terminal"]:
            return view
        legal = view["legal"]
        _check_buttons(p, view, "knock")
        version = view["version"]
        knock = _best_discard(p, legal, "knock")
        if knock is not None:
            p.page.click(f'.actions [data-move="{knock}"]')
        elif "pass" in legal:
            p.page.click("#move-pass")
        elif "draw stock" in legal:
            p.page.click("#stock")
        else:
            card = (_best_discard(p, legal, "discard") or legal[0]).split()[-1]
            p.page.click(f'.hand [data-card="{card}"]')  # choose it
            p.page.click(f'.hand [data-card="{card}"]')  # and again: discard it
        p.after(version)
    raise AssertionError("the match did not end")


def _play_gin_by_keys(p: Page, limit: int = 600) -> dict[str, Any]:
    keys = p.page.keyboard
    for _ in range(limit):
        view = p.my_turn(next_hand="Enter")
        if view["terminal"]:
            return view
        legal = view["legal"]
        version = view["version"]
        if _best_discard(p, legal, "knock") is not None:
            keys.press("k")  # the knock leaving the least deadwood
        elif "pass" in legal:
            keys.press("p")
        elif "draw stock" in legal:
            keys.press("s")
        else:
            card = (_best_discard(p, legal, "discard") or legal[0]).split()[-1]
            order = _hand_order(p)
            keys.press("Home")
            for _ in range(order.index(card)):
                keys.press("ArrowRight")
            assert p.page.evaluate("window.rummylab.selected") == card
            keys.press("Enter")  # the chosen card, again: discarded
            p.after(version)
            p.ready()
            # the focus stays in the hand (on the next card), not dropped to the page
            assert p.page.evaluate("document.activeElement.closest('.hand') !== null")
            continue
        p.after(version)
    raise AssertionError("the match did not end")


def test_lobby_creates_a_table_and_passes_axe(server: Server, browser: Any) -> None:
    p = Page(browser)
    p.open(server.base + "/")
    p.page.wait_for_selector("#create-form")
    assert p.axe() == []
    games = p.page.eval_on_selector_all("#game option", "els => els.map(e => e.value)")
    assert games == [g["game"] for g in server.api("GET", "/api/games")["games"]]
    p.page.select_option("#game", "gin")
    p.page.click("summary")
    p.page.fill("#opt-target", "10")
    p.page.select_option("#seat-1", "human")  # a friend: an invite link
    p.page.click("#create")
    p.page.wait_for_selector("#play-link")
    invite = p.page.input_value("#invite-1")
    assert "/t/" in invite and "token=" in invite
    p.page.click("#play-link")
    view = p.ready()
    assert view["options"]["target"] == 10 and view["seat"] == 0
    assert p.errors == []
    p.close()


def test_gin_match_against_a_bot_by_clicks(server: Server, browser: Any) -> None:
    t = server.table("gin", ["human", "bot:simple"], {"target": 10}, seed=5)
    p = Page(browser)
    p.open(server.base + t["seats"][0]["url"])
    p.my_turn()
    assert p.axe() == []
    # the bot by the name the lobby gives its level, not the server's spec
    text = p.page.inner_text("#main")
    assert "Seat 2 (medium bot)" in text and "simple" not in text
    status = p.page.inner_text("#status")
    assert " or " in status and ", pass." not in status and ", knock." not in status
    view = _play_gin_by_clicks(p)
    assert view["terminal"] and max(view["scores"]) >= 10
    assert p.page.locator("#result h2").inner_text() == "The match is over"
    assert p.errors == []
    p.close()


def test_gin_match_against_a_bot_by_keyboard_alone(server: Server, browser: Any) -> None:
    t = server.table("gin", ["human", "bot:simple"], {"target": 10}, seed=8)
    p = Page(browser)
    p.open(server.base + t["seats"][0]["url"])
    view = p.my_turn()
    # the page's keys work with the focus on a header checkbox; the Keys panel stays open
    p.page.keyboard.press("?")
    p.page.focus("#four-colour")
    p.page.keyboard.press("p" if "pass" in view["legal"] else "s")
    p.after(view["version"])
    p.ready()
    assert p.page.evaluate("document.querySelector('#keys').open")
    view = _play_gin_by_keys(p)
    assert view["terminal"] and max(view["scores"]) >= 10
    assert p.errors == []
    p.close()


def test_two_friends_at_a_gin_table(server: Server, browser: Any) -> None:
    t = server.table("gin", ["human", "human"], seed=3)
    pages = [Page(browser), Page(browser)]  # two contexts: two people
    for s, p in enumerate(pages):
        p.open(server.base + t["seats"][s]["url"])
        p.ready()
    for _ in range(6):
        views = [p.ready() for p in pages]
        actor = views[0]["to_act"]
        p = pages[actor]
        view = p.my_turn()
        legal = view["legal"]
        if "pass" in legal:
            p.page.click("#move-pass")
        elif "draw stock" in legal:
            p.page.click("#stock")
        else:
            card = (_best_discard(p, legal, "discard") or legal[0]).split()[-1]
            p.page.click(f'.hand [data-card="{card}"]')
            p.page.click(f'#move-discard-{card}')
        for q in pages:
            q.after(view["version"])
    # each sees the other's moves in the log, and never the other's hand
    for s, p in enumerate(pages):
        p.ready()
        log = p.page.inner_text("#log")
        assert f"Seat {2 - s} (friend)" in log
        other = server.api("GET", f"/api/tables/{t['table']}?token={t['seats'][1 - s]['token']}")
        mine = set(p.page.evaluate("window.rummylab.view.hand"))
        shown = set(p.page.eval_on_selector_all("[data-card]",
                                                "els => els.map(e => e.dataset.card)"))
        known = set(p.page.evaluate("window.rummylab.view.opponent_known").split())
        pile = set(p.page.evaluate("window.rummylab.view.discard_pile").split())
        assert not (set(other["hand"]) - known) & shown - mine - pile
        assert p.errors == []
        p.close()


def test_three_player_gin_advice_reaches_only_the_captain(server: Server, browser: Any) -> None:
    t = server.table("gin3", ["human", "human", "human"], seed=4)
    views = [server.api("GET", f"/api/tables/{t['table']}?token={s['token']}") for s in t["seats"]]
    role = {v["role"]: v["seat"] for v in views}
    pages = {r: Page(browser) for r in role}
    for r, p in pages.items():
        p.open(server.base + t["seats"][role[r]]["url"])
        p.ready()
    sitter, captain, box = pages["sitter"], pages["captain"], pages["box"]
    assert "sitter" in sitter.page.inner_text("#role")
    assert sitter.axe() == []
    v = sitter.ready()
    assert v["to_act"] == role["captain"]
    # the sitter sees the captain's hand and advises one of its moves
    first = sitter.page.locator('.actions button[data-move]').first
    advised = first.get_attribute("data-move")
    first.click()
    captain.after(v["version"])
    captain.page.wait_for_selector("#advice")
    assert advised in captain.page.inner_text("#advice")
    box.after(v["version"])
    box.ready()
    assert box.page.locator("#advice").count() == 0
    for p in pages.values():
        assert p.errors == []
        p.close()


def test_a_three_thirteen_round(server: Server, browser: Any) -> None:
    t = server.table("three-thirteen", ["human", "bot:simple"], seed=2)
    p = Page(browser)
    p.open(server.base + t["seats"][0]["url"])
    view = p.my_turn()
    assert "Round 1 of 11" in p.page.inner_text("#round")
    assert p.page.locator("#points").inner_text().strip().startswith("Penalty")
    assert p.axe() == []
    for _ in range(100):
        view = p.my_turn(next_hand=None)
        if view["round"] > 1:
            break
        legal = view["legal"]
        _check_buttons(p, view, "go out")
        out = _best_discard(p, legal, "go out")
        if out is not None:
            p.page.click(f'.actions [data-move="{out}"]')
        elif "draw stock" in legal:
            p.page.click("#stock")
        else:
            card = (_best_discard(p, legal, "discard") or legal[0]).split()[-1]
            p.page.click(f'.hand [data-card="{card}"]')
            p.page.click(f'.hand [data-card="{card}"]')
        p.after(view["version"])
    assert view["round"] == 2 and view["last_result"]["round"] == 1
    # the round's end stays on show, the next round's table hidden, until put away
    assert "Round 1 is over" in p.page.inner_text("#result")
    assert not p.page.locator("#round").count()
    assert p.page.evaluate("document.activeElement.id") == "next-hand"
    p.page.keyboard.press("Enter")
    assert "Round 2 of 11" in p.page.inner_text("#round")
    assert not p.page.locator("#result").count()
    # a card chosen is let go at a new round, even one dealt again
    card = p.page.evaluate("window.rummylab.view.hand[0]")
    p.page.evaluate("""async (card) => { const c = window.rummylab; c.select(card);
        await c.setView({...c.view, version: c.version + 1, round: c.view.round + 1}); }""", card)
    assert p.page.evaluate("window.rummylab.selected") is None
    assert not p.page.locator('.hand [aria-pressed="true"]').count()
    assert p.errors == []
    p.close()


def _manipulation_seed() -> tuple[int, list[list[str]]]:
    """A seed whose first turn (seat 0, two players) can lay down new melds
    from the hand: the melds the engine's best play lays."""
    from rummylab.cards import card_str
    from rummylab.registry import new_state

    for seed in range(1, 200):
        state: Any = new_state("manipulation", {"players": 2}, seed)
        if state.current_player() != 0:
            continue
        play = state.best()
        if play is not None and play.table and len(play.table) == 1:
            return seed, [[card_str(c) for c, _ in meld] for meld in play.table]
    raise AssertionError("no seed found")


def test_a_manipulation_turn_in_the_sandbox(server: Server, browser: Any) -> None:
    seed, melds = _manipulation_seed()
    t = server.table("manipulation", ["human", "bot:simple"], {"players": 2}, seed=seed)
    p = Page(browser)
    p.open(server.base + t["seats"][0]["url"])
    view = p.my_turn()
    assert view["table"] == ""
    assert p.axe() == []
    meld = melds[0]
    # a wrong table first: two cards are no meld, and the server says why
    p.page.click(f'.hand [data-card="{meld[0]}"]')
    p.page.click("#put-new")
    p.page.click(f'.hand [data-card="{meld[1]}"]')
    p.page.click("#put-0")
    p.page.click("#commit")
    p.page.wait_for_selector("#error")
    assert "too short" in p.page.inner_text("#error")
    # undo one step, reset, then build the meld by keyboard: choose, put, commit
    p.page.click("#undo")
    assert len(p.page.evaluate("window.rummylab.sandbox.melds[0]")) == 1
    p.page.click("#reset")
    assert p.page.evaluate("window.rummylab.sandbox.melds") == []
    keys = p.page.keyboard
    for i, card in enumerate(meld):
        p.page.locator(f'.hand [data-card="{card}"]').first.focus()
        keys.press("Enter")
        keys.press("n" if i == 0 else "1")
    assert p.page.evaluate("window.rummylab.sandbox.fromHand") == meld
    keys.press("c")
    p.after(view["version"])
    view = p.ready()
    table = [m.split() for m in view["table"].split(" | ")] if view["table"] else []
    assert any(sorted(m) == sorted(meld) for m in table), view["table"]
    # the refused commit came back over the WebSocket: no failed request, no console error
    assert p.errors == []
    p.close()


# Seat 0 to act, having drawn: 7c 7d in hand, the run 4h-7h on the table. The
# hand melds nothing alone and nothing adds to the run; 7h taken off the run
# makes a set with the two sevens (the engine's best play, checked below).
REARRANGE = ("manipulation/1 players=2 round=1 dealer=1 scores=0,0 won=0,0 turn=0:play draws=1 "
             "drawn=2s hands=7c,9c,Tc,Qc,3d,9d,7d,Kh,As,Js,2s/Ad,2d,4d,8d,Td,Jh,Qh,5s,7s,Ks "
             "stock=Jd,3s,Th,6c,Ah,6d,Qd,2c,Kd,Qs,Jk,2h,Ts,9s,8s,8c,4s,4c,5c,9h,Jc,3c,6s,3h,5d,"
             "Kc,Ac,8h table=4h,5h,6h,7h")


def _melds(text: str) -> list[list[str]]:
    return sorted(sorted(m.split()) for m in text.split(" | ")) if text.strip() else []


def test_a_manipulation_turn_that_rearranges_the_table(server: Server, browser: Any) -> None:
    """§4.5: a card already on the table moves into another meld in the
    sandbox; the committed table is the one the sandbox built."""
    from rummylab import from_position

    best = from_position(REARRANGE, seed=1).best()
    assert best is not None and len(best.table) == 2  # the run kept, a new set of sevens
    # both seats people: nobody moves after the commit, so the table stays to be checked
    t = server.api("POST", "/api/tables", {"game": "manipulation", "seats": ["human", "human"],
                                            "position": REARRANGE, "seed": 1})
    p = Page(browser)
    p.open(server.base + t["seats"][0]["url"])
    view = p.my_turn()
    assert _melds(view["table"]) == [["4h", "5h", "6h", "7h"]]
    # a seven from the hand starts a new meld, then 7h leaves the run for it
    p.page.click('.hand [data-card="7c"]')
    p.page.click("#put-new")
    p.page.click('[data-pick="0-3"]')  # 7h, the run's last card
    assert p.page.evaluate("window.rummylab.sandbox.sel.code") == "7h"
    p.page.click("#put-1")
    p.page.click('.hand [data-card="7d"]')
    p.page.click("#put-1")
    built = p.page.evaluate("window.rummylab.sandbox.melds")
    assert sorted(sorted(m) for m in built) == [["4h", "5h", "6h"], ["7c", "7d", "7h"]]
    assert p.page.evaluate("window.rummylab.sandbox.fromHand") == ["7c", "7d"]
    p.page.click("#commit")
    p.after(view["version"])
    view = p.ready()
    token = t["seats"][0]["url"].split("token=")[1]
    served = server.api("GET", f"/api/tables/{t['table']}?token={token}")
    assert _melds(served["table"]) == sorted(sorted(m) for m in built)
    assert _melds(view["table"]) == _melds(served["table"])
    assert len(served["hand"]) == 9 and not {"7c", "7d"} & set(served["hand"]), served["hand"]
    assert p.errors == []
    p.close()


def test_a_reload_mid_hand_returns_to_the_same_hand(server: Server, browser: Any) -> None:
    t = server.table("gin", ["human", "bot:simple"], seed=11)
    p = Page(browser)
    url = server.base + t["seats"][0]["url"]
    p.open(url)
    view = p.my_turn()
    p.page.click("#move-pass" if "pass" in view["legal"] else "#stock")
    p.after(view["version"])
    view = p.my_turn()
    log = p.page.inner_text("#log")
    p.page.reload()
    again = p.my_turn()
    assert again["version"] == view["version"] and again["hand"] == view["hand"]
    assert p.page.inner_text("#log") == log
    # the token is kept in local storage: the table's address alone finds the seat
    p.open(server.base + f"/t/{t['table']}")
    assert p.my_turn()["hand"] == view["hand"]
    assert p.errors == []
    p.close()


def test_small_screen_and_four_colour_deck(server: Server, browser: Any) -> None:
    t = server.table("gin", ["human", "bot:simple"], seed=12)
    p = Page(browser, width=360)
    p.open(server.base + t["seats"][0]["url"])
    p.my_turn()
    width = p.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px screen"
    assert p.page.locator(".hand .card .idx").first.is_visible()  # large indices
    p.page.check("#four-colour")
    p.my_turn()
    srcs = p.page.eval_on_selector_all(".hand img", "els => els.map(e => e.getAttribute('src'))")
    assert srcs and all(s.startswith("/cards4/") for s in srcs)
    assert p.errors == []
    p.close()


# what Chromium logs by itself when a server it was talking to is gone: the
# network's errors, not the page's
NETWORK = ("net::ERR_CONNECTION_REFUSED", "WebSocket connection to", "net::ERR_EMPTY_RESPONSE",
           "net::ERR_CONNECTION_RESET")


def _move_on(p: Page, view: dict[str, Any]) -> None:
    """One move of the seat to act: pass, draw, or the best discard."""
    legal = view["legal"]
    if "pass" in legal:
        p.page.click("#move-pass")
    elif "draw stock" in legal:
        p.page.click("#stock")
    else:
        card = (_best_discard(p, legal, "discard") or legal[0]).split()[-1]
        p.page.click(f'.hand [data-card="{card}"]')
        p.page.click(f'.hand [data-card="{card}"]')
    p.after(view["version"])


def test_the_server_killed_and_restarted_mid_hand(browser: Any,
                                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    """Issue 43: ``rummylab serve`` killed (SIGKILL) and started again on the same
    database and port: the page says it is reconnecting, then shows the same hand
    and plays on."""
    db = tmp_path_factory.mktemp("kill") / "tables.sqlite3"
    srv = Server(f"sqlite:///{db}", cli=True)
    srv.start()
    try:
        t = srv.table("gin", ["human", "bot:simple"], seed=13)
        p = Page(browser)
        p.open(srv.base + t["seats"][0]["url"])
        _move_on(p, p.my_turn())
        view = p.my_turn()
        assert srv.proc is not None
        srv.proc.kill()  # no shutdown: as a crash or a power cut
        srv.proc.wait()
        p.page.wait_for_function("() => !window.rummylab.connected")
        assert p.page.inner_text("#conn") == "reconnecting…"
        srv.start()
        p.page.wait_for_function("() => window.rummylab.connected", timeout=30_000)
        again = p.my_turn()
        assert again["version"] == view["version"] and again["hand"] == view["hand"]
        assert p.page.inner_text("#conn") == "connected"
        _move_on(p, again)  # and the match goes on
        now = p.my_turn()
        assert now["version"] > again["version"]
        # the moment as one line, as this seat knows it, to copy
        p.page.click("#position summary")
        p.page.wait_for_function("() => document.querySelector('#position-text').value")
        token = t["seats"][0]["token"]
        with urllib.request.urlopen(f"{srv.base}/api/tables/{t['table']}/position?"
                                    f"token={token}", timeout=10) as r:
            assert p.page.input_value("#position-text") == json.loads(r.read())["position"]
        assert [e for e in p.errors if not any(n in e for n in NETWORK)] == []
        p.close()
    finally:
        srv.stop()


def _finished_table(server: Server, target: int = 10) -> tuple[dict[str, Any], str]:
    t = server.table("gin", ["bot:random", "bot:simple"], {"target": target}, seed=6)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{server.base}/api/tables/{t['table']}/record?"
                                        f"token={t['spectator']}", timeout=10) as r:
                return t, r.read().decode()
        except urllib.error.HTTPError:
            time.sleep(0.1)
    raise AssertionError("the bots did not finish")


def _shown_hand(p: Page) -> list[str]:
    codes: list[str] = p.page.eval_on_selector_all(".hand [data-card]",
                                                   "els => els.map(e => e.dataset.card)")
    return sorted(codes)


def test_a_table_opened_after_its_end_shows_every_hand(server: Server, browser: Any) -> None:
    """Every hand's row on the score sheet, each what that hand scored, the Total
    row their sum; every hand's result in the moves (the view carries them all)."""
    t, record = _finished_table(server, target=150)
    results = [json.loads(x) for x in record.splitlines() if '"type":"result"' in x]
    assert len(results) > 1
    p = Page(browser)
    p.open(server.base + t["spectator_url"])
    p.ready()
    rows = p.page.eval_on_selector_all(
        "table.scores tbody tr",
        "trs => trs.map(r => [...r.cells].slice(1).map(c => +c.innerText))")
    assert len(rows) == len(results) + 1  # and Total
    before = [0, 0]
    for row, r in zip(rows, results, strict=False):
        assert row == [a - b for a, b in zip(r["scores"], before, strict=True)]
        before = r["scores"]
    assert rows[-1] == results[-1]["scores"]
    log = p.page.inner_text("#log")
    assert all(f"Hand {r['hand']}" in log for r in results)
    assert p.errors == []
    p.close()


def test_a_replay_steps_through_every_move(server: Server, browser: Any,
                                           tmp_path: Path) -> None:
    """Issue 43: a finished match's page links to its replay, which steps through
    every move of its record, from a seat's view (that seat's hand at each move)
    or the spectators'; a record file opens there too."""
    t, record = _finished_table(server)
    moves = [json.loads(x) for x in record.splitlines() if '"type":"action"' in x]
    p = Page(browser)
    p.open(server.base + t["spectator_url"])
    p.ready()
    p.page.click("#replay-link")
    p.page.wait_for_selector("#replay-pos")
    assert p.axe() == []
    steps = p.page.evaluate("window.rummylab.steps.length")
    assert steps == len(moves) + 1
    assert p.page.evaluate("window.rummylab.view.seat") is None  # the spectators' view
    # seen by seat 1: its own hand at each move, every move in the log
    p.page.select_option("#replay-seat", "0")
    p.page.wait_for_function("() => window.rummylab.view.seat === 0")
    p.page.locator("#replay-next").focus()
    for i, move in enumerate(moves, start=1):
        p.page.keyboard.press("ArrowRight")
        assert p.page.evaluate("window.rummylab.at") == i
        step = p.page.evaluate("window.rummylab.steps[window.rummylab.at]")
        assert (step["seat"], step["action"]) == (move["seat"], move["action"])
        if step["view"].get("hand"):
            assert _shown_hand(p) == sorted(step["view"]["hand"])
        if i % 10 == 0:
            assert f"Move {i} of {len(moves)}" == p.page.inner_text("#replay-pos")
    assert p.page.locator("#replay-next").is_disabled()
    assert len(p.page.locator("#log li").all()) >= min(40, len(moves))
    p.page.click("#replay-first")
    assert p.page.inner_text("#replay-pos").startswith("The deal")
    # a record file, opened on the replay page
    path = tmp_path / "match.jsonl"
    path.write_text(record, encoding="utf-8")
    p.open(server.base + "/replay")
    p.page.set_input_files("#replay-file", str(path))
    p.page.wait_for_selector("#replay-pos")
    assert p.page.evaluate("window.rummylab.steps.length") == len(moves) + 1
    p.page.click("#replay-last")
    assert p.page.inner_text("#replay-pos") == f"Move {len(moves)} of {len(moves)}"
    assert p.errors == []
    p.close()


def test_joining_and_watching_a_table_from_another_browser(server: Server, browser: Any) -> None:
    """Issue 43: a public table created in one browser is joined (its open seat)
    and watched from the lobby in others; the joined seat plays."""
    host = Page(browser)
    host.open(server.base + "/")
    host.page.wait_for_selector("#create-form")
    host.page.select_option("#game", "gin")
    host.page.select_option("#seat-1", "open")
    host.page.click("#create")
    host.page.wait_for_selector("#play-link")
    assert "open to whoever joins" in host.page.inner_text("#created")
    table = host.page.evaluate("JSON.parse(localStorage.getItem('rummylab.tables'))[0].table")
    guest = Page(browser)  # another browser: no link, only the lobby
    guest.open(server.base + "/")
    guest.page.wait_for_selector(f'[data-join="{table}"]')
    assert guest.axe() == []
    guest.page.click(f'[data-join="{table}"]')
    view = guest.ready()
    assert view["seat"] == 1 and view["table"] == table
    watcher = Page(browser)
    watcher.open(server.base + "/")
    watcher.page.wait_for_selector(f'[data-watch="{table}"]')
    assert watcher.page.locator(f'[data-join="{table}"]').count() == 0  # no seat is open now
    watcher.page.click(f'[data-watch="{table}"]')
    assert watcher.ready()["seat"] is None
    # the host plays seat 1, the guest seat 2, the watcher sees their moves
    host.page.click("#play-link")
    for _ in range(3):
        v = host.ready()
        p = host if v["to_act"] == 0 else guest
        _move_on(p, p.my_turn())
    watcher.after(v["version"])
    assert "Seat 2 (friend)" in watcher.page.inner_text("#log")
    for q in (host, guest, watcher):
        assert q.errors == []
        q.close()
