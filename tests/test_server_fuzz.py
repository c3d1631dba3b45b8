"""Bad input to every endpoint (issue 42): malformed JSON, wrong types,
unknown fields, oversized bodies, wrong tokens and moves out of turn each get
a 4xx with a one-line reason; the table is unchanged and the server goes on
serving."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from server_kit import actor, client

JUNK: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, [], [1, 2], {}, {"a": 1},
                   "\u0000", "💥", float("inf")]


def bodies(rng: random.Random, good: dict[str, Any]) -> list[bytes]:
    """Broken variants of a good body."""
    out = [b"", b"{", b"[]", b"null", b"{\"a\":", b"\xff\xfe", b"{}" * 1000,
           json.dumps(good)[:-1].encode(), b"[" * 5000, json.dumps([good]).encode()]
    for key in good:
        for junk in JUNK:
            body = dict(good)
            body[key] = junk
            out.append(json.dumps(body, allow_nan=True).encode())
        body = dict(good)
        del body[key]
        out.append(json.dumps(body).encode())
    for _ in range(20):
        body = dict(good)
        body[rng.choice(["extra", "Token", "seat", "__proto__"])] = rng.choice(JUNK[:12])
        out.append(json.dumps(body).encode())
    return out


def one_line_4xx(r: Any) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    reason = r.json()["error"]
    assert isinstance(reason, str) and reason and "\n" not in reason and len(reason) <= 500


def test_every_endpoint_answers_bad_input_with_a_one_line_4xx(tmp_path: Path) -> None:
    rng = random.Random(7)
    with client(tmp_path / "t.db", max_open_tables=1000) as c:
        t = c.post("/api/tables", json={"game": "gin3", "seats": ["human"] * 3,
                                        "seed": 1}).json()
        table, tokens = t["table"], [s["token"] for s in t["seats"]]
        a = actor(c, table)
        to_act = a.state.current_player()
        views_before = [c.get(f"/api/tables/{table}", params={"token": tok}).json()
                        for tok in tokens]

        def unchanged() -> None:
            assert a.version == 0
            assert [c.get(f"/api/tables/{table}", params={"token": tok}).json()
                    for tok in tokens] == views_before

        good_table = {"game": "gin", "seats": ["human", "bot:simple"], "options": {},
                      "seed": 3, "grace": 10.0, "zombie": "simple"}
        for body in bodies(rng, good_table):
            r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
            if r.status_code == 201:  # a variant that is still a good table (e.g. no seed)
                continue
            one_line_4xx(r)
        # the box: out of turn, and not the sitter (who may advise)
        other = next(s for s in range(3) if a.state.role_of(s) == "box")
        assert other != to_act
        good_move = {"token": tokens[other], "action": "pass", "id": "x"}
        for path in ("act", "advise"):
            for body in bodies(rng, good_move):
                r = c.post(f"/api/tables/{table}/{path}", content=body,
                           headers={"content-type": "application/json"})
                one_line_4xx(r)
        for path in ("", "/record", "/hint"):
            for token in ["", "x" * 101, "wrong", tokens[0] + "x", "%00", " "]:
                one_line_4xx(c.get(f"/api/tables/{table}{path}", params={"token": token}))
            one_line_4xx(c.get(f"/api/tables/{table}{path}"))  # no token at all
            one_line_4xx(c.get(f"/api/tables/nosuchtable{path}", params={"token": tokens[0]}))
        one_line_4xx(c.get(f"/api/tables/{'x' * 5000}", params={"token": tokens[0]}))
        # oversized bodies, with and without a Content-Length
        big = json.dumps({"token": tokens[to_act], "action": "x" * 20_000}).encode()
        r = c.post(f"/api/tables/{table}/act", content=big,
                   headers={"content-type": "application/json"})
        assert r.status_code == 413
        r = c.post(f"/api/tables/{table}/act", content=iter([big[:9000], big[9000:]]),
                   headers={"content-type": "application/json"})
        assert r.status_code == 413
        # wrong methods and unknown paths
        one_line_4xx(c.delete(f"/api/tables/{table}"))
        one_line_4xx(c.put("/api/tables", json={}))
        one_line_4xx(c.get("/api/nothing"))
        # websocket: junk messages are answered, the connection and the table stay
        with c.websocket_connect(f"/ws/tables/{table}?token={tokens[other]}&since=0") as ws:
            assert ws.receive_json()["type"] == "hello"
            for junk in ["{", "[]", "null", json.dumps({"type": "act"}),
                         json.dumps({"type": "act", "action": 5, "id": []}),
                         json.dumps({"type": "act", "action": "pass", "id": "o"}),
                         json.dumps({"type": "hello", "version": "x"}),
                         json.dumps({"type": "dance"}), "x" * 17_000]:
                ws.send_text(junk)
                reply = ws.receive_json()
                assert reply["type"] == "error" and "\n" not in reply["error"], reply
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}
        unchanged()
        # and it still serves: the seat to act moves
        r = c.post(f"/api/tables/{table}/act",
                   json={"token": tokens[to_act], "action": "pass", "id": 1})
        assert r.status_code == 200 and r.json()["version"] == 1
