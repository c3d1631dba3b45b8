"""The table server's HTTP and WebSocket API, every game (issue 42)."""

from __future__ import annotations

import io
import json
import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from rummylab.errors import RecordError
from rummylab.records import replay
from rummylab.verify import seed_hash, verify
from server_kit import SHORT, actor, bot_move, client, wait_until

GAMES = {  # a human and bots, the number of players each game allows
    "gin": ["human", "bot:simple"],
    "gin3": ["human", "bot:simple", "bot:random"],
    "three-thirteen": ["bot:simple", "human", "bot:simple"],
    "manipulation": ["human", "bot:simple"],
}


def create(c, game, seats, seed=None, **more):
    body = {"game": game, "seats": seats, "options": SHORT[game], **more}
    if seed is not None:
        body["seed"] = seed
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play_out(c, t, seat_tokens, msg_ids=None):
    """Play every human seat with the simple bot's choice until the match ends."""
    table = t["table"]
    n = 0
    while True:
        a = actor(c, table)
        if a.terminal:
            return n
        seat = a.state.current_player()
        if seat not in seat_tokens:
            time.sleep(0.002)  # a bot is thinking
            continue
        version = a.version
        move = bot_move(a.state, seat)
        r = c.post(f"/api/tables/{table}/act",
                   json={"token": seat_tokens[seat], "action": move, "id": f"m{n}"})
        if r.status_code == 409 and "not your turn" in r.json()["error"]:
            continue  # raced a bot's move
        assert r.status_code == 200, r.text
        assert r.json()["version"] > version
        if msg_ids is not None:
            msg_ids.append((seat, f"m{n}", r.json()))
        n += 1


@pytest.mark.parametrize("game", list(GAMES))
def test_a_match_of_every_game_is_played_to_its_record(tmp_path: Path, game: str) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, game, GAMES[game], seed=11, public=True)  # listed in the lobby
        assert t["seed_hash"] == seed_hash(11)
        humans = {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
        assert set(humans) == {i for i, s in enumerate(GAMES[game]) if s == "human"}
        seat = next(iter(humans))
        view = c.get(f"/api/tables/{t['table']}", params={"token": humans[seat]}).json()
        for key in ("seat", "version", "to_act", "terminal", "hand", "legal", "scores"):
            assert key in view
        assert view["seat"] == seat and "seed" not in view
        # the record (which reveals the seed) is not given before the end
        r = c.get(f"/api/tables/{t['table']}/record", params={"token": humans[seat]})
        assert r.status_code == 409 and "not over" in r.json()["error"]
        lobby = c.get("/api/tables").json()["tables"]
        assert [x["table"] for x in lobby] == [t["table"]] and lobby[0]["game"] == game
        acked: list = []
        play_out(c, t, humans, acked)
        end = c.get(f"/api/tables/{t['table']}", params={"token": humans[seat]}).json()
        assert end["terminal"] and end["seed"] == "11" and end["legal"] == []
        assert seed_hash(int(end["seed"])) == t["seed_hash"]
        text = c.get(f"/api/tables/{t['table']}/record", params={"token": t["spectator"]}).text
        assert [m.game for m in replay(io.StringIO(text))] == [end["game"]]
        assert len(verify(io.StringIO(text), t["seed_hash"])) == 1
        # every acknowledged move is in the record (the engine writes a meld in its own
        # words, so they are counted per seat), and the versions only went up
        moves = [json.loads(line) for line in text.splitlines() if '"type":"action"' in line]
        for s in humans:
            assert sum(m["seat"] == s for m in moves) == sum(x[0] == s for x in acked)
        versions = [x[2]["version"] for x in acked]
        assert versions == sorted(set(versions)) and versions[-1] <= end["version"]
        # every hand's result, as the record has it, for the score sheet of a page
        # opened late; the spectators see the same
        results = [json.loads(line) for line in text.splitlines() if '"type":"result"' in line]
        assert results and end["results"] == results
        watch = c.get(f"/api/tables/{t['table']}", params={"token": t["spectator"]}).json()
        assert watch["results"] == results
        assert c.get("/api/tables").json()["tables"] == []  # no longer open


def test_a_resent_id_is_answered_as_the_first_time_and_applied_once(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, "gin", ["human", "human"], seed=3)
        a = actor(c, t["table"])
        tokens = [s["token"] for s in t["seats"]]
        seat = a.state.current_player()
        move = bot_move(a.state, seat)
        body = {"token": tokens[seat], "action": move, "id": "abc"}
        first = c.post(f"/api/tables/{t['table']}/act", json=body)
        again = c.post(f"/api/tables/{t['table']}/act", json=body)
        assert first.status_code == again.status_code == 200
        assert first.json() == again.json() == {"version": 1, "seat": seat, "action": move,
                                                "id": "abc"}
        assert a.version == 1
        # an integer id 1 and a string id "1" are different ids
        other = a.state.current_player()
        r = c.post(f"/api/tables/{t['table']}/act",
                   json={"token": tokens[other], "action": bot_move(a.state, other), "id": 1})
        assert r.json()["version"] == 2


def test_illegal_and_out_of_turn_moves_change_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, "gin", ["human", "human"], seed=3)
        a = actor(c, t["table"])
        tokens = [s["token"] for s in t["seats"]]
        seat = a.state.current_player()
        before = c.get(f"/api/tables/{t['table']}", params={"token": tokens[seat]}).json()
        r = c.post(f"/api/tables/{t['table']}/act",
                   json={"token": tokens[1 - seat], "action": "pass", "id": 1})
        assert r.status_code == 409 and r.json() == {"error": f"not your turn: seat {seat} "
                                                              "is to act"}
        r = c.post(f"/api/tables/{t['table']}/act",
                   json={"token": tokens[seat], "action": "discard Zz", "id": 2})
        assert r.status_code == 400 and "\n" not in r.json()["error"]
        r = c.post(f"/api/tables/{t['table']}/act",
                   json={"token": t["spectator"], "action": "pass", "id": 3})
        assert r.status_code == 403
        after = c.get(f"/api/tables/{t['table']}", params={"token": tokens[seat]}).json()
        assert after == before and a.version == 0


def test_seats_and_options_are_checked_as_the_engine_does(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        def status(body):
            r = c.post("/api/tables", json=body)
            return r.status_code, r.json().get("error", "")

        assert status({"game": "gin", "seats": ["human"]})[0] == 400
        assert status({"game": "chess", "seats": ["human", "human"]}) == (
            400, "unknown game 'chess' (games: gin, gin3, three-thirteen, manipulation)")
        assert status({"game": "gin", "seats": ["human", "bot:nobody"]})[0] == 400
        assert status({"game": "gin", "seats": ["human", "robot"]})[0] == 400
        assert status({"game": "gin", "seats": ["human", "human"],
                       "options": {"target": 0}})[0] == 400
        assert status({"game": "gin", "seats": ["human", "human"],
                       "options": {"colour": "red"}})[0] == 400
        assert status({"game": "gin", "seats": ["human", "human"], "seed": -1})[0] == 400
        # Three Thirteen seats 2-4 players, Manipulation 2-5: the seats say how many
        for game, counts in (("three-thirteen", (2, 3, 4)), ("manipulation", (2, 3, 4, 5))):
            for n in counts:
                assert status({"game": game, "seats": ["human"] * n})[0] == 201
            assert status({"game": game, "seats": ["human"] * (counts[-1] + 1)})[0] == 400
            assert status({"game": game, "seats": ["human"] * 2,
                           "options": {"players": 3}})[0] == 400


def test_three_player_gin_advice_is_seen_by_sitter_and_captain_only(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, "gin3", ["human", "human", "human"], seed=3)
        a = actor(c, t["table"])
        tokens = [s["token"] for s in t["seats"]]
        roles = {c.get(f"/api/tables/{t['table']}", params={"token": tok}).json()["role"]: s
                 for s, tok in enumerate(tokens)}
        captain, sitter, box = roles["captain"], roles["sitter"], roles["box"]
        assert a.state.current_player() == captain
        advice = a.state.action_to_string(a.state.legal_actions()[0])
        url = f"/api/tables/{t['table']}/advise"
        for seat in (box, captain):  # refused before the move is read
            for move in (advice, "fly away"):
                r = c.post(url, json={"token": tokens[seat], "action": move})
                assert r.status_code == 409 and "only the sitter" in r.json()["error"], r.text
        r = c.post(url, json={"token": tokens[sitter], "action": advice, "id": 1})
        assert r.status_code == 200 and r.json()["version"] == 1

        def seen(token):
            return c.get(f"/api/tables/{t['table']}", params={"token": token}).json()

        assert seen(tokens[captain])["advice"] == [advice]
        assert seen(tokens[sitter])["advice"] == [advice]
        assert seen(tokens[box])["advice"] == []
        assert "advice" not in seen(t["spectator"])
        # the sitter's view holds the captain's hand, never the box's
        assert seen(tokens[sitter])["hand"] == seen(tokens[captain])["hand"]


def test_the_websocket_sends_what_was_missed_and_acknowledges_moves(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, "gin", ["human", "human"], seed=3)
        a = actor(c, t["table"])
        tokens = [s["token"] for s in t["seats"]]
        seat = a.state.current_player()
        url = f"/ws/tables/{t['table']}?token={tokens[seat]}"
        with c.websocket_connect(url + "&since=0") as ws:
            assert ws.receive_json() == {"type": "hello", "version": 0}
            move = bot_move(a.state, seat)
            ws.send_json({"type": "act", "action": move, "id": "w1"})
            event = ws.receive_json()
            assert event["type"] == "event" and event["version"] == 1
            assert event["view"]["seat"] == seat
            assert ws.receive_json() == {"type": "ack", "version": 1, "seat": seat,
                                         "action": move, "id": "w1"}
            ws.send_json({"type": "act", "action": move, "id": "w1"})  # a resend
            assert ws.receive_json()["version"] == 1
            ws.send_text("{not json")
            assert ws.receive_json() == {"type": "error",
                                         "error": "the message is not valid JSON"}
        other = 1 - seat
        with c.websocket_connect(f"/ws/tables/{t['table']}?token={tokens[other]}&since=0") as ws:
            first = ws.receive_json()  # it missed version 1: a full view
            assert first["type"] == "view" and first["version"] == 1
            assert first["view"]["seat"] == other
        with pytest.raises(Exception), c.websocket_connect(  # noqa: B017
                f"/ws/tables/{t['table']}?token=wrong"):
            pass


def test_an_absent_player_is_taken_over_by_a_bot_and_the_record_says_so(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, "gin", ["human", "bot:simple"], seed=5, grace=0.3)
        wait_until(lambda: actor(c, t["table"]).terminal, timeout=30)
        view = c.get(f"/api/tables/{t['table']}", params={"token": t["spectator"]}).json()
        assert view["players"][0]["player"] == "bot:simple"
        text = c.get(f"/api/tables/{t['table']}/record", params={"token": t["spectator"]}).text
        assert '"seats":["human, then bot:simple (away)","bot:simple"]' in text.splitlines()[0]
        assert len(verify(io.StringIO(text), seed_hash(5))) == 1


def test_tables_are_rebuilt_from_the_log_on_start(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        t = create(c, "three-thirteen", ["human", "bot:simple"], seed=8)
        token = t["seats"][0]["token"]
        a = actor(c, t["table"])
        for i in range(6):
            wait_until(lambda: a.state.current_player() == 0)
            r = c.post(f"/api/tables/{t['table']}/act",
                       json={"token": token, "action": bot_move(a.state, 0), "id": i})
            assert r.status_code == 200
        wait_until(lambda: actor(c, t["table"]).state.current_player() == 0)
        before = c.get(f"/api/tables/{t['table']}", params={"token": token}).json()
    with client(db) as c:
        after = c.get(f"/api/tables/{t['table']}", params={"token": token}).json()
        assert after == before
        # an old id resent after the restart is still answered, not applied again
        r = c.post(f"/api/tables/{t['table']}/act", json={"token": token, "action": "x",
                                                           "id": 0})
        assert r.status_code == 200 and r.json()["id"] == 0
        play_out(c, t, {0: token})
    # a log changed behind the server's back does not replay: the table is refused
    con = sqlite3.connect(db)
    table = t["table"]
    con.execute("update tables set finished = null where id = ?", (table,))
    con.execute("update events set state_hash = 'x' where table_id = ? and version = 3",
                (table,))
    con.commit()
    con.close()
    with client(db) as c:
        r = c.get(f"/api/tables/{table}", params={"token": token})
        assert r.status_code == 503 and "could not be restored" in r.json()["error"]


def test_a_wrong_token_learns_nothing_about_the_table(tmp_path: Path) -> None:
    with client(tmp_path / "t.db") as c:
        t = create(c, "gin", ["human", "bot:simple"])
        for path in ("", "/record", "/hint"):
            r = c.get(f"/api/tables/{t['table']}{path}", params={"token": "nope"})
            assert (r.status_code, r.json()) == (403, {"error": "wrong token"})
        for path in ("/act", "/advise"):
            r = c.post(f"/api/tables/{t['table']}{path}",
                       json={"token": "nope", "action": "pass"})
            assert (r.status_code, r.json()) == (403, {"error": "wrong token"})


def test_open_tables_and_moves_per_second_are_bounded(tmp_path: Path) -> None:
    with client(tmp_path / "t.db", max_open_tables=2, moves_per_second=1.0,
                move_burst=2) as c:
        t = create(c, "gin", ["human", "human"])
        create(c, "gin", ["human", "human"])
        r = c.post("/api/tables", json={"game": "gin", "seats": ["human", "human"]})
        assert r.status_code == 429 and "unfinished tables" in r.json()["error"]
        tokens = [s["token"] for s in t["seats"]]
        codes = [c.post(f"/api/tables/{t['table']}/act",
                        json={"token": tokens[0], "action": "nonsense"}).status_code
                 for _ in range(4)]
        assert codes[-1] == 429 and codes[0] in (400, 409)


def test_finished_tables_make_room_and_come_back_from_the_database(tmp_path: Path) -> None:
    with client(tmp_path / "t.db", max_tables=1) as c:
        t = create(c, "gin", ["bot:simple", "bot:simple"], seed=2)
        wait_until(lambda: actor(c, t["table"]).terminal)
        before = c.get(f"/api/tables/{t['table']}", params={"token": t["spectator"]}).json()
        create(c, "gin", ["human", "bot:simple"])  # the finished table is let go
        assert t["table"] not in c.app.state.hub.actors  # type: ignore[attr-defined]
        after = c.get(f"/api/tables/{t['table']}", params={"token": t["spectator"]}).json()
        assert after == before


def test_a_table_starts_from_a_position_and_is_rebuilt_from_it(tmp_path: Path) -> None:
    """Issue 44: ``"position"`` in place of a fresh deal. The position deals
    the hand in progress, the table's seed the later hands (its seed_hash
    covers those); the record starts from the position and verifies; a
    restarted server rebuilds the table from the position and its log."""
    import random

    from rummylab import new_state

    moment = new_state("gin", {"target": 10}, seed=2)
    rng = random.Random(2)
    for _ in range(5):
        moment.apply_action(rng.choice(moment.legal_actions()))
    text = moment.position()
    db = tmp_path / "t.db"
    with client(db) as c:
        body = {"game": "gin", "seats": ["human", "bot:simple"], "seed": 11, "position": text}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        t = r.json()
        assert t["seed_hash"] == seed_hash(11)
        token = t["seats"][0]["token"]
        a = actor(c, t["table"])
        assert a.state.position() == text
        view = c.get(f"/api/tables/{t['table']}", params={"token": token}).json()
        assert sorted(view["hand"]) == sorted(
            text.split("hands=")[1].split("/")[0].split(","))
    with client(db) as c:  # rebuilt from the position and the log
        assert actor(c, t["table"]).state.position() == text
        play_out(c, t, {0: token})
        record = c.get(f"/api/tables/{t['table']}/record", params={"token": token}).text
    head = json.loads(record.splitlines()[0])
    assert head["position"] == text and head["seed"] == 11
    assert len(list(replay(io.StringIO(record)))) == 1
    # the creator chose the first hand: the seed's commitment does not cover it
    with pytest.raises(RecordError, match="started from a position"):
        verify(io.StringIO(record), t["seed_hash"])


def test_a_table_from_a_position_says_so_and_is_never_public(tmp_path: Path) -> None:
    """Review 3: a position lets its creator know every hand, so such a table
    is not offered to strangers, and its facts (and a lobby entry) say so."""
    text = new_position()
    with client(tmp_path / "t.db") as c:
        for seats in (["human", "human"], ["human", "open"]):
            body = {"game": "gin", "seats": seats, "position": text, "public": True}
            r = c.post("/api/tables", json=body)
            assert r.status_code == 400 and "cannot be public" in r.json()["error"], r.text
        r = c.post("/api/tables", json={"game": "gin", "seats": ["human", "bot:simple"],
                                        "position": text})
        assert r.status_code == 201, r.text
        t = r.json()
        plain = create(c, "gin", ["human", "bot:simple"], public=True)
        facts = c.get(f"/api/tables/{t['table']}",
                      params={"token": t["spectator"]}).json()
        assert facts["from_position"] is True
        # the lobby lists public tables only, and a table from a position is never one
        lobby = {e["table"]: e for e in c.get("/api/tables").json()["tables"]}
        assert t["table"] not in lobby
        assert lobby[plain["table"]]["from_position"] is False


@pytest.mark.parametrize(("more", "words"), [
    ({"position": "gin/1 hand=1"}, "field dealer= is missing"),
    ({"position": "three-thirteen/1 round=1"}, "the position is of three-thirteen, not gin"),
    ({"position": "gin/1 seat=0 hand=1 dealer=0 scores=100,0 won=1,0 turn=over"},
     "nothing to play"),
    ({"options": {"target": 10}}, "give no options"),
])
def test_a_bad_position_is_refused_in_one_line(tmp_path: Path, more: dict, words: str) -> None:
    text = new_position()
    with client(tmp_path / "t.db") as c:
        body = {"game": "gin", "seats": ["human", "human"], "position": text, **more}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.text
        assert "\n" not in r.json()["error"]


def new_position() -> str:
    from rummylab import new_state

    return new_state("gin", seed=4).position(0)
