"""Every table of the server: creating one, finding one, knowing its tokens,
and rebuilding the unfinished ones from their logs on start.

A table's seed is drawn here (``secrets``) unless the creator gives one (for
tests and replays); its SHA-256 (:func:`rummylab.verify.seed_hash`) is
published at creation, and the seed itself only in the finished record.
Tokens are stored as their SHA-256, never as themselves.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rummylab.bots import make_bot
from rummylab.errors import RummyError
from rummylab.registry import game_class, new_state
from rummylab.server.journal import Journal, JournalError
from rummylab.server.store import Store, TableRow, Write
from rummylab.server.tables import Rejected, TableActor, bot_spec
from rummylab.verify import seed_hash

log = logging.getLogger("rummylab.server")

SEED_LIMIT = 2**63  # seeds are stored as signed 64-bit integers

# the garbage collector's thresholds while the server runs. A move's garbage is freed by
# reference counting; at Python's default (700) a young collection ran every few moves
# and a full one, over every table held, stalled all of them (100 ms with 200 tables)
GC_THRESHOLDS = (50_000, 20, 20)


@dataclass
class Settings:
    """The server's bounds (the command line sets the database and open tables)."""

    db: str
    max_body: int = 16 * 1024  # bytes of one request or WebSocket message
    moves_per_second: float = 10.0  # per token, with bursts of ``move_burst``
    move_burst: int = 30
    max_open_tables: int = 20  # unfinished tables one client address may have created
    max_tables: int = 10_000  # tables held in memory at once
    max_grace: float = 24 * 3600.0


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db)
        self.journal = Journal(self.store)
        self.actors: dict[str, TableActor] = {}
        self.broken: dict[str, str] = {}  # tables whose log did not replay: why
        self._gc_thresholds: tuple[int, int, int] | None = None

    async def start(self) -> None:
        await asyncio.to_thread(self.store.migrate)
        self.journal.start()
        for row in await asyncio.to_thread(self.store.unfinished):
            await self._restore(row)
        # what is held from now on (modules, restored tables) is not scanned again
        gc.collect()
        gc.freeze()
        self._gc_thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)

    async def stop(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
        await self.journal.stop()
        self.store.close()
        if self._gc_thresholds is not None:
            gc.set_threshold(*self._gc_thresholds)
            gc.unfreeze()

    async def _restore(self, row: TableRow) -> TableActor | None:
        """Rebuild a table from its seed and its log, checking the state hash."""
        try:
            events = await asyncio.to_thread(self.store.events_of, row.id)
            actor = await asyncio.to_thread(self._rebuild, row, events)
        except (RummyError, ValueError, KeyError) as e:
            log.error("table %s cannot be restored: %s", row.id, e)
            self.broken[row.id] = str(e)
            return None
        self.actors[row.id] = actor
        actor.start()
        return actor

    def _rebuild(self, row: TableRow, events: list[Any]) -> TableActor:
        state = new_state(row.game, row.options, row.seed)
        actor = TableActor(row, state, self.journal)
        actor.replay(events)
        return actor

    # -- creating -------------------------------------------------------------
    async def create(self, game: str, seats: list[str], options: Mapping[str, Any],
                     seed: int | None, grace: float | None, zombie: str,
                     client: str) -> dict[str, Any]:
        if len(self.actors) >= self.settings.max_tables:
            self._evict()
        if len(self.actors) >= self.settings.max_tables:
            raise Rejected(503, "the server holds as many tables as it may; try again later")
        open_here = sum(1 for a in self.actors.values()
                        if a.row.client == client and not a.terminal)
        if open_here >= self.settings.max_open_tables:
            raise Rejected(429, f"this address already has {open_here} unfinished tables "
                                f"(at most {self.settings.max_open_tables})")
        try:
            row, state = self._new_table(game, seats, dict(options), seed, grace, zombie, client)
        except RummyError as e:
            raise Rejected(400, str(e)) from None
        tokens = [None if bot_spec(s) else secrets.token_urlsafe(24) for s in row.seats]
        spectator = secrets.token_urlsafe(24)
        row.tokens = [None if t is None else token_hash(t) for t in tokens]
        row.spectator = token_hash(spectator)
        actor = TableActor(row, state, self.journal)
        row.opening_hash = actor.hash
        try:
            await self.journal.write(Write(table=row))
        except JournalError as e:
            raise Rejected(503, str(e)) from None
        self.actors[row.id] = actor
        actor.start()
        out_seats: list[dict[str, Any]] = []
        for s, token in enumerate(tokens):
            if token is None:
                out_seats.append({"seat": s, "player": row.seats[s]})
            else:
                out_seats.append({"seat": s, "player": "human", "token": token,
                                  "url": f"/t/{row.id}?token={token}"})
        return {"table": row.id, "game": row.game, "seed_hash": row.seed_hash,
                "seats": out_seats, "spectator": spectator,
                "spectator_url": f"/t/{row.id}?token={spectator}"}

    def _new_table(self, game: str, seats: list[str], options: dict[str, Any],
                   seed: int | None, grace: float | None, zombie: str,
                   client: str) -> tuple[TableRow, Any]:
        cls = game_class(game)
        for s in seats:
            if s != "human" and bot_spec(s) is None:
                raise RummyError(f"a seat is \"human\" or \"bot:LEVEL[:options]\", not {s!r}")
        if "players" in cls.option_spec and "players" not in options:
            options["players"] = len(seats)  # the seats say how many play
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        elif not 0 <= seed < SEED_LIMIT:
            raise RummyError(f"the seed must be from 0 to {SEED_LIMIT - 1}")
        state = new_state(cls.game_name, options, seed)
        if len(seats) != state.num_players:
            raise RummyError(f"{cls.game_name} with these options is played by "
                             f"{state.num_players} players, not {len(seats)} seats")
        for s in seats:  # every bot must exist and play this game
            spec = bot_spec(s)
            if spec is not None:
                make_bot(spec, cls.game_name)
        if grace is not None and not 0 < grace <= self.settings.max_grace:
            raise RummyError(f"grace must be from 0 to {self.settings.max_grace:g} seconds")
        make_bot(zombie, cls.game_name)
        row = TableRow(
            id=secrets.token_urlsafe(9), game=cls.game_name, options=dict(state.options),
            seats=list(seats), seed=seed, seed_hash=seed_hash(seed), tokens=[],
            spectator="", client=client[:64], settings={"grace": grace, "zombie": zombie},
            opening_hash="", created=time.time(),
        )
        return row, state

    def _evict(self) -> None:
        """Let go of finished tables nobody is watching: they are in the database,
        and are rebuilt from it if asked for again."""
        for table_id, actor in list(self.actors.items()):
            if actor.terminal and not actor.subscribers:
                del self.actors[table_id]

    # -- finding --------------------------------------------------------------
    async def get(self, table_id: str) -> TableActor:
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        if table_id in self.broken:
            raise Rejected(503, f"this table could not be restored: {self.broken[table_id]}")
        if len(table_id) > 32:
            raise Rejected(404, "no such table")
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            raise Rejected(404, "no such table")
        # a finished table, evicted or from before a restart: rebuilt to be shown
        restored = await self._restore(row)
        if restored is None:
            raise Rejected(503, f"this table could not be restored: {self.broken[table_id]}")
        return restored

    @staticmethod
    def seat_of(actor: TableActor, token: str) -> int | None:
        """The seat ``token`` speaks for (None: a spectator); a wrong token is a
        403 that says nothing about the table."""
        h = token_hash(token)
        found: int | None = -1
        for s, t in enumerate(actor.row.tokens):
            if t is not None and hmac.compare_digest(t, h):
                found = s
        if hmac.compare_digest(actor.row.spectator, h):
            found = None
        if found == -1:
            raise Rejected(403, "wrong token")
        return found

    def lobby(self) -> list[dict[str, Any]]:
        """The unfinished tables, newest first."""
        out = []
        for a in sorted(self.actors.values(), key=lambda a: -a.row.created):
            if a.terminal:
                continue
            free = sum(1 for s, spec in enumerate(a.seats)
                       if spec == "human" and not a.claimed[s])
            out.append({"table": a.id, "game": a.row.game, "seats": list(a.seats),
                        "seats_free": free, "version": a.version,
                        "created": datetime.fromtimestamp(a.row.created, UTC).isoformat()})
            if len(out) >= 100:
                break
        return out
