"""Hidden cards never reach the wire (issue 42): over many random games of
every game, no view, event, acknowledgement or error sent to a seat names a
card that seat's observation does not show at that version, and nothing sent
to a spectator names a card that some seat does not see.

The oracle is independent of the server: the finished record is replayed
through the engine, and each seat's observation at each version is what that
seat may know.
"""

from __future__ import annotations

import io
import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from rummylab.records import read_matches
from rummylab.registry import new_state
from server_kit import SHORT, actor, bot_move, cards_in, client

PLAYERS = {"gin": (2,), "gin3": (3,), "three-thirteen": (2, 3, 4), "manipulation": (2, 3, 4, 5)}


def known_by_version(record: str) -> list[list[set[str]]]:
    """Per version, per seat: the cards the seat's observation shows, and those
    of every earlier hand's result (each was shown to every seat as its
    ``last_result``, and the score sheet keeps them all)."""
    [lines] = list(read_matches(io.StringIO(record)))
    head = lines[0][1]
    state = new_state(head["game"], head["options"], head["seed"])
    shown: set[str] = set()

    def seen(s: int) -> set[str]:
        obs = state.observation(s).to_dict()
        shown.update(cards_in(obs.get("last_result") or {}))
        return cards_in(obs) | shown

    out = [[seen(s) for s in range(state.num_players)]]
    for _, e in lines[1:]:
        if e["type"] == "action":
            state.apply(e["action"])
        elif e["type"] == "advice":
            state.advise(e["action"])  # type: ignore[attr-defined]
        else:
            continue
        out.append([seen(s) for s in range(state.num_players)])
    return out


def play_and_listen(c: Any, game: str, seed: int, players: int,
                    rng: random.Random) -> tuple[list[tuple[int | None, int, Any]], str]:
    """One match, every seat a person (played by the simple bot or at random),
    each seat and a spectator listening on a WebSocket; returns every message
    sent, with the seat it went to and its version, and the record."""
    options = dict(SHORT[game])
    body = {"game": game, "seats": ["human"] * players, "options": options, "seed": seed}
    t = c.post("/api/tables", json=body).json()
    table, tokens = t["table"], [s["token"] for s in t["seats"]]
    a = actor(c, table)
    sent: list[tuple[int | None, int, Any]] = []
    with ExitStack() as stack:
        sockets = {who: stack.enter_context(c.websocket_connect(
            f"/ws/tables/{table}?token={tok}&since=-1"))
            for who, tok in [*enumerate(tokens), (None, t["spectator"])]}

        def get(who: int | None) -> None:
            tok = t["spectator"] if who is None else tokens[who]
            view = c.get(f"/api/tables/{table}", params={"token": tok}).json()
            sent.append((who, view["version"], view))

        seen = dict.fromkeys(sockets, -1)
        n = 0
        while not a.terminal:
            seat = a.state.current_player()
            version = a.version
            roll = rng.random()
            if roll < 0.1:
                get(rng.choice([None, *range(players)]))
            elif roll < 0.15:  # out of turn
                other = rng.choice([s for s in range(players) if s != seat])
                r = c.post(f"/api/tables/{table}/act",
                           json={"token": tokens[other], "action": "draw stock"})
                assert r.status_code == 409
                sent.append((other, version, r.json()))
            elif roll < 0.2:  # illegal: the error may list the seat's own moves
                r = c.post(f"/api/tables/{table}/act",
                           json={"token": tokens[seat], "action": "discard Kh Kh"})
                assert r.status_code == 400
                # the error echoes the move sent and may show the game's own examples
                sent.append((seat, version, {**r.json(), "echo": "discard Kh Kh",
                                             "examples": examples(a.state)}))
            elif roll < 0.3 and hasattr(a.state, "advise"):  # the sitter advises
                sitter = next(s for s in range(players)
                              if a.state.role_of(s) == "sitter")
                move = a.state.action_to_string(rng.choice(a.state.legal_actions()))
                r = c.post(f"/api/tables/{table}/advise",
                           json={"token": tokens[sitter], "action": move, "id": f"a{n}"})
                assert r.status_code in (200, 400)  # 400: the box is to act
                sent.append((sitter, version, r.json()))
            if rng.random() < 0.05:  # a hint names cards of the seat's own hand
                r = c.get(f"/api/tables/{table}/hint", params={"token": tokens[seat]})
                assert r.status_code == 200, r.text
                sent.append((seat, version, r.json()))
            legal = a.state.legal_actions()
            move = (a.state.action_to_string(rng.choice(legal)) if rng.random() < 0.15
                    else bot_move(a.state, seat))
            if rng.random() < 0.5:
                r = c.post(f"/api/tables/{table}/act",
                           json={"token": tokens[seat], "action": move, "id": n})
                assert r.status_code == 200, r.text
                sent.append((seat, r.json()["version"], r.json()))
            else:  # over the seat's socket: its events, then the acknowledgement
                sockets[seat].send_json({"type": "act", "action": move, "id": n})
                while True:
                    msg = sockets[seat].receive_json()
                    sent.append((seat, msg["version"], msg))
                    if msg["type"] == "ack":
                        break
                    seen[seat] = msg["version"]
            n += 1
            for who, ws in sockets.items():  # what each socket was sent up to now
                while seen[who] < a.version:
                    msg = ws.receive_json()
                    sent.append((who, msg["version"], msg))
                    seen[who] = msg["version"]
        get(None)
        get(0)
    record = c.get(f"/api/tables/{table}/record", params={"token": t["spectator"]}).text
    return sent, record


def examples(state: Any) -> str:
    """The engine's help for a move it cannot read (its examples name cards)."""
    try:
        state.clone().apply("no such move")
    except Exception as e:
        return str(e)
    raise AssertionError("a move that is no move was accepted")


def check(sent: list[tuple[int | None, int, Any]], record: str) -> int:
    known = known_by_version(record)
    for who, version, msg in sent:
        # the table's id is random text that may look like a card
        msg = {k: v for k, v in msg.items() if k != "table"}
        if "view" in msg:
            msg["view"] = {k: v for k, v in msg["view"].items() if k != "table"}
        if version >= len(known):  # the last view, once the match is over
            version = len(known) - 1
        may = (set.intersection(*known[version]) if who is None else known[version][who])
        # what the client itself sent, and the engine's fixed examples, are no secret
        may = may | cards_in(msg.pop("echo", "")) | cards_in(msg.pop("examples", ""))
        if who is not None and msg.get("seat") == who and "view" not in msg:
            may |= cards_in(msg.get("action", ""))  # an acknowledgement of its own move
        named = cards_in(msg)
        assert named <= may, (f"{'the spectator' if who is None else f'seat {who}'} was sent "
                              f"{sorted(named - may)} at version {version}: {json.dumps(msg)}")
    return len(sent)


def sweep(tmp_path: Path, seeds: range) -> None:
    rng = random.Random(42)
    with client(tmp_path / "t.db", max_open_tables=1000) as c:
        for game, counts in PLAYERS.items():
            for seed in seeds:
                players = counts[seed % len(counts)]
                sent, record = play_and_listen(c, game, seed, players, rng)
                assert check(sent, record) > 10


def test_no_message_names_a_card_its_seat_may_not_know(tmp_path: Path) -> None:
    sweep(tmp_path, range(2))


@pytest.mark.slow
def test_no_message_names_a_card_its_seat_may_not_know_many_games(tmp_path: Path) -> None:
    sweep(tmp_path, range(2, 22))


def test_the_check_would_catch_a_leak(tmp_path: Path) -> None:
    """The oracle is not vacuous: another seat's hand, sent to a seat, is caught."""
    with client(tmp_path / "t.db") as c:
        _, record = play_and_listen(c, "gin", 1, 2, random.Random(1))
    known = known_by_version(record)
    other_hand = sorted(known[0][1] - known[0][0])
    assert other_hand
    with pytest.raises(AssertionError, match="seat 0 was sent"):
        check([(0, 0, {"hand": other_hand})], record)
