"""The browser client's routes on the table server (issue 43): the page
shell, the static files and card art, the games list the lobby builds its
form from, and the arrangement of a seat's own hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the table server needs the web extra")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")

from fastapi.testclient import TestClient

from rummylab.registry import GAMES, game_class
from rummylab.server.app import create_app
from rummylab.server.hub import Settings
from rummylab.web import CARDS, four_colour_svg


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(Settings(db=f"sqlite:///{tmp_path / 't.db'}"))) as c:
        yield c


def test_pages_and_static_files(client: Any) -> None:
    for path in ("/", "/t/abc", "/replay", "/replay/abc"):
        r = client.get(path)
        assert r.status_code == 200 and '<main id="main"' in r.text
        # a table page's address holds a seat's token: no link may pass it on
        assert r.headers["referrer-policy"] == "no-referrer"
        assert 'src="/static/js/app.js"' in r.text
    assert client.get("/static/js/app.js").status_code == 200
    assert client.get("/static/cards/7H.svg").headers["content-type"].startswith("image/svg")
    assert client.get("/cards4/../app.py").status_code == 404


def test_every_card_face_a_joker_and_a_back_are_vendored_with_their_licence() -> None:
    names = {p.name for p in CARDS.glob("*.svg")}
    faces = {r + s + ".svg" for r in "A23456789TJQK" for s in "CDHS"}
    assert faces | {"2J.svg", "back.svg"} <= names
    readme = (CARDS / "README.md").read_text(encoding="utf-8")
    assert "CC0" in readme and "Adrian Kennard" in readme and "0.5.0" in readme


def test_four_colour_deck_recolours_only_diamonds_and_clubs_signs() -> None:
    two = (CARDS / "KD.svg").read_text(encoding="utf-8")
    four = four_colour_svg("KD.svg")
    assert '"blue"' in four and '"blue"' not in two
    assert four.count('"red"') == two.count('"red"') - 2  # the court figure keeps its red
    assert '"green"' in four_colour_svg("7C.svg")
    assert four_colour_svg("7H.svg") == (CARDS / "7H.svg").read_text(encoding="utf-8")


def test_games_list_every_game_with_its_options_and_bots(client: Any) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["game"] for g in games] == list(GAMES)
    for g in games:
        spec = game_class(g["game"]).option_spec
        assert [o["name"] for o in g["options"]] == [n for n in spec if n != "players"]
        for o in g["options"]:
            assert o["default"] == spec[o["name"]].default
        assert 1 < g["players"]["min"] <= g["players"]["default"] <= g["players"]["max"]
        assert any(b["level"] == "simple" for b in g["bots"])


def _table(client: Any, game: str, seats: list[str], seed: int = 3) -> Any:
    r = client.post("/api/tables", json={"game": game, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("game", list(GAMES))
def test_arrangement_is_of_the_seats_own_hand(client: Any, game: str) -> None:
    n = 3 if game == "gin3" else 2
    t = _table(client, game, ["human"] * n)
    for s in t["seats"]:
        view = client.get(f"/api/tables/{t['table']}?token={s['token']}").json()
        got = client.get(f"/api/tables/{t['table']}/arrangement?token={s['token']}").json()
        arr = got["arrangement"]
        if not view["hand"]:
            assert arr is None
            continue
        laid = [c.split("=")[0] for m in arr["melds"] for c in m] + arr["unmatched"]
        assert sorted(laid) == sorted(view["hand"])  # every card of its hand, no other
        assert isinstance(arr["points"], int) and arr["points"] >= 0


def test_gin_arrangement_is_the_engines_least_deadwood(client: Any) -> None:
    from importlib import import_module

    from rummylab.cards import parse_mask
    from rummylab.registry import new_state

    try:  # the solver's module, under its new name or its old one
        solver: Any = import_module("rummylab.gin.solver")
    except ImportError:
        solver = import_module("rummylab.gin.melds")
    t = _table(client, "gin", ["human", "human"], seed=7)
    arr = client.get(f"/api/tables/{t['table']}/arrangement?"
                     f"token={t['seats'][0]['token']}").json()["arrangement"]
    hand = new_state("gin", {}, 7).observation(0).hand
    assert arr["word"] == "deadwood"
    assert arr["points"] == solver.deadwood(hand)
    for meld in arr["melds"]:
        assert solver.is_meld(parse_mask(meld))


def test_a_seat_asking_for_its_arrangement_or_position_is_seen(client: Any) -> None:
    """Review 9: every route of a seat's token marks the seat as there (the
    server's one check), as the table's view does."""
    t = _table(client, "gin", ["human", "human"])
    actor = client.app.state.hub.actors[t["table"]]
    for seat, path in enumerate(("arrangement", "position")):
        assert not actor.claimed[seat]
        r = client.get(f"/api/tables/{t['table']}/{path}?token={t['seats'][seat]['token']}")
        assert r.status_code == 200 and actor.claimed[seat], path


def test_arrangement_needs_the_seats_token(client: Any) -> None:
    t = _table(client, "gin", ["human", "bot:simple"])
    r = client.get(f"/api/tables/{t['table']}/arrangement?token=wrong")
    assert r.status_code == 403 and r.json() == {"error": "wrong token"}
    spectator = client.get(f"/api/tables/{t['table']}/arrangement?token={t['spectator']}")
    assert spectator.json()["arrangement"] is None


DATA = Path(__file__).parent / "data"


def _finished(client: Any, game: str = "gin") -> Any:
    """A match between two bots, played to its end by the server."""
    import time

    r = client.post("/api/tables", json={"game": game, "seats": ["bot:random", "bot:random"],
                                         "options": {"target": 10}, "seed": 4})
    t = r.json()
    end = time.monotonic() + 60
    while time.monotonic() < end:
        got = client.get(f"/api/tables/{t['table']}/record?token={t['spectator']}")
        if got.status_code == 200:
            return t, got.text
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


def test_a_finished_tables_replay_steps_through_every_move(client: Any) -> None:
    """Issue 43: the replay page's steps are the record's moves, each seen by
    the seat asked for (its own hand) or by the spectators (no hand)."""
    t, record = _finished(client)
    moves = [json.loads(x) for x in record.splitlines() if '"type":"action"' in x]
    base = f"/api/tables/{t['table']}/replay?token={t['spectator']}"
    for seat in (0, 1):
        got = client.get(f"{base}&seat={seat}").json()
        steps = got["steps"]
        assert len(steps) == len(moves) + 1 and "action" not in steps[0]
        assert [(s["seat"], s["action"]) for s in steps[1:]] == \
            [(m["seat"], m["action"]) for m in moves]
        assert all(s["view"]["seat"] == seat and s["view"]["legal"] == [] for s in steps)
        first = steps[0]
        assert first["view"]["hand"] and first["arrangement"]["word"] == "deadwood"
        assert steps[-1]["view"]["terminal"]
    spectator = client.get(base).json()["steps"]
    assert spectator[0]["view"]["seat"] is None and "hand" not in spectator[0]["view"]
    assert client.get(f"/api/tables/{t['table']}/replay?token=wrong").status_code == 403


def test_a_table_started_from_a_position_replays_from_it(client: Any) -> None:
    """Review 1: the replay starts where the table did, at its position, not
    at a fresh deal from the seed."""
    import time

    from rummylab import new_state

    text = new_state("gin", {"target": 10}, seed=4).position()
    r = client.post("/api/tables", json={"game": "gin", "seats": ["bot:random", "bot:random"],
                                         "seed": 9, "position": text})
    assert r.status_code == 201, r.text
    t = r.json()
    base = f"/api/tables/{t['table']}"
    end = time.monotonic() + 60
    while client.get(f"{base}/record?token={t['spectator']}").status_code != 200:
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.05)
    got = client.get(f"{base}/replay?token={t['spectator']}&seat=0")
    assert got.status_code == 200, got.text
    hand = text.split("hands=")[1].split("/")[0].split(",")
    assert sorted(got.json()["steps"][0]["view"]["hand"]) == sorted(hand)


def test_heavy_routes_are_bounded_per_address(tmp_path: Path) -> None:
    """Review 8: replays, arrangements, positions and a socket's hellos share
    one bound per client address; a finished table's replay is kept, not
    replayed again."""
    settings = Settings(db=f"sqlite:///{tmp_path / 't.db'}", heavy_per_second=0.001,
                        heavy_burst=3)
    with TestClient(create_app(settings)) as c:
        t = _table(c, "gin", ["human", "human"])
        token = t["seats"][0]["token"]
        for path in ("arrangement", "position"):
            assert c.get(f"/api/tables/{t['table']}/{path}?token={token}").status_code == 200
        with c.websocket_connect(f"/ws/tables/{t['table']}?token={token}") as ws:
            ws.receive_json()  # the catch-up view
            ws.send_json({"type": "hello", "version": 0})
            assert [ws.receive_json()["type"] for _ in range(2)] == ["hello", "pong"]
            ws.send_json({"type": "hello", "version": 0})
            got = ws.receive_json()
            assert got.get("status") == 429 and "too many requests" in got["error"], got
        r = c.post("/api/replay", content=b"{}")
        assert r.status_code == 429 and "too many requests" in r.json()["error"]


def test_a_finished_tables_replay_is_kept(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummylab.web import replay

    t, _ = _finished(client)
    calls = []
    steps = replay.steps
    monkeypatch.setattr(replay, "steps", lambda *a: calls.append(a) or steps(*a))
    base = f"/api/tables/{t['table']}/replay?token={t['spectator']}"
    first, again = client.get(f"{base}&seat=1").json(), client.get(f"{base}&seat=1").json()
    assert first == again and len(calls) == 1
    assert client.get(base).json()["steps"][0]["view"]["seat"] is None and len(calls) == 2


def test_an_unfinished_match_has_no_replay_yet(client: Any) -> None:
    t = _table(client, "gin", ["human", "bot:simple"])
    r = client.get(f"/api/tables/{t['table']}/replay?token={t['seats'][0]['token']}")
    assert r.status_code == 409 and "not over" in r.json()["error"]


def test_a_record_file_replays_and_a_broken_one_is_one_line(client: Any) -> None:
    text = (DATA / "gin-v1.jsonl").read_text(encoding="utf-8")
    got = client.post("/api/replay?seat=1", content=text.encode()).json()
    n = sum(1 for x in text.splitlines() if '"type":"action"' in x)
    assert got["game"] == "gin" and len(got["steps"]) == n + 1
    assert got["steps"][0]["view"]["seat"] == 1
    broken = text.replace('"discard Qd"', '"discard 2c"', 1)
    r = client.post("/api/replay", content=broken.encode())
    assert r.status_code == 400
    assert r.json()["error"].startswith("line 5, column 27: illegal action")
    big = client.post("/api/replay", content=b"x" * (3 * 1024 * 1024))
    assert big.status_code == 413


def test_a_file_of_many_matches_replays_its_first(client: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Review 2: simulate and arena write many matches to one file; the page
    shows the first, whose moves are counted before it is replayed."""
    import io

    from rummylab.bots import make_bot
    from rummylab.match import play_match
    from rummylab.records import RecordWriter
    from rummylab.web import replay

    stream = io.StringIO()
    writer = RecordWriter(stream)
    for seed in (1, 2):
        play_match("gin", [make_bot("simple", "gin")] * 2, seed=seed, options={"target": 10},
                   writer=writer)
    text = stream.getvalue()
    lines = text.splitlines()
    second = next(i for i, x in enumerate(lines) if i and '"type":"header"' in x)
    n = sum(1 for x in lines[:second] if '"type":"action"' in x)
    got = client.post("/api/replay", content=text.encode())
    assert got.status_code == 200, got.text
    assert len(got.json()["steps"]) == n + 1
    monkeypatch.setattr(replay, "MAX_STEPS", 3)
    broken = "\n".join([*lines[:second - 1], "{}", *lines[second - 1:]]) + "\n"
    r = client.post("/api/replay", content=broken.encode())
    assert r.status_code == 400 and "shows at most 3" in r.json()["error"], r.text


def test_a_public_tables_open_seat_is_joined_once(client: Any) -> None:
    """Issue 43: the lobby lists a public table with its spectators' link and
    its open seats; joining gives an open seat's token once; a table that is
    not public takes no one from the lobby."""
    r = client.post("/api/tables", json={"game": "gin3", "seats": ["human", "open", "open"],
                                         "public": True, "seed": 2})
    assert r.status_code == 201, r.text
    t = r.json()
    assert [s.get("open", False) for s in t["seats"]] == [False, True, True]
    assert "token" not in t["seats"][1]
    listed = next(x for x in client.get("/api/tables").json()["tables"] if x["table"] == t["table"])
    assert listed["open_seats"] == 2
    assert listed["spectator_url"].startswith(f"/t/{t['table']}?token=")
    watch = client.get("/api/tables/" + listed["spectator_url"][3:]).json()
    assert watch["seat"] is None and "hand" not in watch
    got = [client.post(f"/api/tables/{t['table']}/join").json() for _ in range(2)]
    assert [g["seat"] for g in got] == [1, 2]
    for g in got:
        view = client.get(f"/api/tables/{t['table']}?token={g['token']}").json()
        assert view["seat"] == g["seat"] and view["hand_seat"] is not None
    third = client.post(f"/api/tables/{t['table']}/join")
    assert third.status_code == 409 and "no seat" in third.json()["error"]
    listed = next(x for x in client.get("/api/tables").json()["tables"] if x["table"] == t["table"])
    assert listed["open_seats"] == 0
    private = _table(client, "gin", ["human", "human"])
    r = client.post(f"/api/tables/{private['table']}/join")
    assert r.status_code == 403 and "invite link" in r.json()["error"]
    # a table not made public is not listed at all
    assert private["table"] not in [x["table"] for x in client.get("/api/tables").json()["tables"]]
    r = client.post("/api/tables", json={"game": "gin", "seats": ["human", "open"]})
    assert r.status_code == 400 and "public" in r.json()["error"]


def test_a_joined_seat_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'j.db'}"
    with TestClient(create_app(Settings(db=db))) as c:
        t = c.post("/api/tables", json={"game": "gin", "seats": ["human", "open"],
                                        "public": True}).json()
        joined = c.post(f"/api/tables/{t['table']}/join").json()
    with TestClient(create_app(Settings(db=db))) as c:
        view = c.get(f"/api/tables/{t['table']}?token={joined['token']}").json()
        assert view["seat"] == 1
        assert c.post(f"/api/tables/{t['table']}/join").status_code == 409


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seats_position_is_written_from_its_own_view(client: Any, game: str) -> None:
    """Issue 43: the page offers the moment as one line; it is the seat's
    position (State.position(seat): its observation only), and reads back."""
    from rummylab import from_position
    from rummylab.registry import new_state

    n = 3 if game == "gin3" else 2
    t = _table(client, game, ["human"] * n, seed=5)
    state = new_state(game, {"players": n} if "players" in game_class(game).option_spec
                      else {}, 5)
    for s in t["seats"]:
        got = client.get(f"/api/tables/{t['table']}/position?token={s['token']}").json()
        assert got["position"] == state.position(s["seat"])
        assert from_position(got["position"]).game_name == game_class(game).game_name
    r = client.get(f"/api/tables/{t['table']}/position?token={t['spectator']}")
    assert r.status_code == 409
