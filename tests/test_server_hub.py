"""The hub under concurrent requests: joins of one table, and loads of one
table not in memory, interleave at their database writes and reads."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from rummylab.server.hub import Hub, Settings
from rummylab.server.journal import JournalError
from rummylab.server.store import Write
from rummylab.server.tables import Rejected


def run(tmp_path: Path, body: Callable[[Hub], Awaitable[None]]) -> None:
    async def main() -> None:
        hub = Hub(Settings(db=f"sqlite:///{tmp_path / 't.db'}"))
        await hub.start()
        try:
            await body(hub)
        finally:
            await hub.stop()

    asyncio.run(main())


def test_a_failed_join_gives_back_its_own_seat_only(tmp_path: Path) -> None:
    """Review 4: the first joiner's write fails while a second joins; the
    second keeps its seat, and the failed one's seat is open again."""
    async def body(hub: Hub) -> None:
        t = await hub.create("gin", ["open", "open"], {"target": 10}, None, None,
                             "simple", "test", public=True)
        writes = 0
        write = hub.journal.write

        async def flaky(w: Write) -> None:
            nonlocal writes
            writes += 1
            if writes == 1:
                await asyncio.sleep(0.05)  # the second join arrives meanwhile
                raise JournalError("the database is down")
            await write(w)

        hub.journal.write = flaky  # type: ignore[method-assign]
        first, second = await asyncio.gather(hub.join(t["table"]), hub.join(t["table"]),
                                             return_exceptions=True)
        assert isinstance(first, Rejected) and first.status == 503
        assert isinstance(second, dict)
        actor = hub.actors[t["table"]]
        assert hub.seat_of(actor, second["token"]) == second["seat"]
        assert hub.open_seats(actor) == [1 - second["seat"]]

    run(tmp_path, body)


def test_two_loads_of_a_table_build_one_actor(tmp_path: Path) -> None:
    """Review 5: a table not in memory asked for twice at once is rebuilt
    once (two actors of one table would be two writers of its log)."""
    async def body(hub: Hub) -> None:
        t = await hub.create("gin", ["bot:simple", "bot:simple"], {"target": 10}, 3, None,
                             "simple", "test")
        for _ in range(600):
            if hub.actors[t["table"]].terminal:
                break
            await asyncio.sleep(0.05)
        await hub.actors.pop(t["table"]).stop()  # let go of, as _evict does
        got: list[Any] = await asyncio.gather(*(hub.get(t["table"]) for _ in range(3)))
        assert got[0] is got[1] is got[2] is hub.actors[t["table"]]

    run(tmp_path, body)


def test_a_write_committed_but_unacknowledged_counts_as_committed(tmp_path: Path) -> None:
    """Review 7: a COMMIT that succeeded but raised (the connection lost
    during it) leaves the write in the database; sent again, it meets its own
    primary key, and is taken as committed, while another move of the same
    version is still refused."""
    from rummylab.server.store import EventRow, Store, TableRow

    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    store.migrate()
    table = TableRow(id="t1", game="gin", options={}, seats=["human", "human"], seed=1,
                     seed_hash="h", tokens=[None, None], spectator="s", client="test",
                     settings={}, opening_hash="o", created=0.0)

    def move(version: int, state_hash: str) -> Write:
        return Write(events=[EventRow("t1", version, "act", 0, "pass", None, state_hash, 0.0)])

    try:
        assert store.write([Write(table=table), move(1, "a")]) == [None, None]
        # sent again: alone, and in a batch with a write that is new
        assert store.write([Write(table=table)]) == [None]
        assert store.write([move(1, "a")]) == [None]
        assert store.write([move(1, "a"), move(2, "b")]) == [None, None]
        refused = store.write([move(2, "other")])
        assert len(refused) == 1 and refused[0] is not None
        assert [e.state_hash for e in store.events_of("t1")] == ["a", "b"]
    finally:
        store.close()
