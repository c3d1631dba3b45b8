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
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rummylab.bots import make_bot
from rummylab.errors import PositionError, RummyError
from rummylab.position import from_position, split
from rummylab.registry import game_class, new_state
from rummylab.server.journal import Journal, JournalError
from rummylab.server.store import Store, TableRow, Write
from rummylab.server.tables import Rejected, TableActor, bot_spec
from rummylab.verify import seed_hash

log = logging.getLogger("rummylab.server")

SEED_LIMIT = 2**63  # seeds are stored as signed 64-bit integers
OPEN = "open"  # a seat a person takes from the lobby (a public table's)

# the garbage collector's thresholds while the server runs. A move's garbage is freed by
# reference counting; at Python's default (700) a young collection ran every few moves
# and a full one, over every table held, stalled all of them (100 ms with 200 tables)
GC_THRESHOLDS = (50_000, 20, 20)


@dataclass
class Settings:
    """The server's bounds (the command line sets the database and open tables)."""

    db: str
    max_body: int = 16 * 1024  # bytes of one request or WebSocket message
    max_record: int = 2 * 1024 * 1024  # bytes of a record file sent to the replay page
    moves_per_second: float = 10.0  # per token, with bursts of ``move_burst``
    move_burst: int = 30
    # per client address: replays, arrangements, positions and a socket's hellos,
    # each far more work than a move
    heavy_per_second: float = 10.0
    heavy_burst: int = 60
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
        self._loading: dict[str, asyncio.Future[TableActor]] = {}  # tables being rebuilt
        # one join at a time per table: a failed write undoes its seat alone
        self._joining: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
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
        position = row.settings.get("position")
        state = (new_state(row.game, row.options, row.seed) if position is None
                 else from_position(str(position), row.seed))
        actor = TableActor(row, state, self.journal)
        actor.replay(events)
        return actor

    # -- creating -------------------------------------------------------------
    async def create(self, game: str, seats: list[str], options: Mapping[str, Any],
                     seed: int | None, grace: float | None, zombie: str,
                     client: str, position: str | None = None,
                     public: bool = False) -> dict[str, Any]:
        if len(self.actors) >= self.settings.max_tables:
            self._evict()
        if len(self.actors) >= self.settings.max_tables:
            raise Rejected(503, "the server holds as many tables as it may; try again later")
        open_here = sum(1 for a in self.actors.values()
                        if a.row.client == client and not a.terminal)
        if open_here >= self.settings.max_open_tables:
            raise Rejected(429, f"this address already has {open_here} unfinished tables "
                                f"(at most {self.settings.max_open_tables})")
        # an "open" seat is a person's, given to whoever joins from the lobby (join)
        opened = [s == OPEN for s in seats]
        if any(opened) and not public:
            raise Rejected(400, 'an "open" seat is taken from the lobby: the table must be '
                                'public')
        if public and position is not None:
            # a position's creator knows every hand in it: no fair table for strangers
            raise Rejected(400, "a table started from a position cannot be public: "
                                "its creator knows the hands")
        seats = ["human" if s == OPEN else s for s in seats]
        try:
            row, state = self._new_table(game, seats, dict(options), seed, grace, zombie, client,
                                         position)
        except RummyError as e:
            raise Rejected(400, str(e)) from None
        tokens = [None if bot_spec(s) or opened[i] else secrets.token_urlsafe(24)
                  for i, s in enumerate(row.seats)]
        spectator = secrets.token_urlsafe(24)
        if public:  # anyone may watch it: its spectator token is shown in the lobby
            row.settings["public"] = spectator
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
            if opened[s]:
                out_seats.append({"seat": s, "player": "human", "open": True})
            elif token is None:
                out_seats.append({"seat": s, "player": row.seats[s]})
            else:
                out_seats.append({"seat": s, "player": "human", "token": token,
                                  "url": f"/t/{row.id}?token={token}"})
        return {"table": row.id, "game": row.game, "seed_hash": row.seed_hash,
                "seats": out_seats, "spectator": spectator,
                "spectator_url": f"/t/{row.id}?token={spectator}"}

    def _new_table(self, game: str, seats: list[str], options: dict[str, Any],
                   seed: int | None, grace: float | None, zombie: str,
                   client: str, position: str | None = None) -> tuple[TableRow, Any]:
        cls = game_class(game)
        for s in seats:
            if s != "human" and bot_spec(s) is None:
                raise RummyError(f"a seat is \"human\" or \"bot:LEVEL[:options]\", not {s!r}")
        if position is not None and options:
            raise RummyError("a position holds its options: give no options with it")
        if "players" in cls.option_spec and "players" not in options and position is None:
            options["players"] = len(seats)  # the seats say how many play
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        elif not 0 <= seed < SEED_LIMIT:
            raise RummyError(f"the seed must be from 0 to {SEED_LIMIT - 1}")
        if position is None:
            state = new_state(cls.game_name, options, seed)
        else:
            state = self._from_position(cls, position, seed)
        if len(seats) != state.num_players:
            raise RummyError(f"{cls.game_name} with these options is played by "
                             f"{state.num_players} players, not {len(seats)}")
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
            spectator="", client=client[:64], settings={"grace": grace, "zombie": zombie,
                                                        **({"position": position} if position
                                                           else {})},
            opening_hash="", created=time.time(),
        )
        return row, state

    @staticmethod
    def _from_position(cls: Any, text: str, seed: int) -> Any:
        """The table's state at ``text``: the position deals the hand in
        progress (a seat's position's unknown cards from ``seed``), the seed
        the later hands, so the published seed_hash covers those."""
        game = split(text).game
        if game_class(game).game_name != cls.game_name:
            raise PositionError(f"the position is of {game}, not {cls.game_name}")
        state = from_position(text, seed)
        if state.is_terminal():
            raise PositionError("the match is over at this position: there is nothing to play")
        return state

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
        # one load of a table at a time: two would build two actors, two writers of its log
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)  # a caller that gives up stops no other's load

    async def _load(self, table_id: str) -> TableActor:
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            raise Rejected(404, "no such table")
        # a finished table, evicted or from before a restart: rebuilt to be shown
        restored = await self._restore(row)
        if restored is None:
            raise Rejected(503, f"this table could not be restored: {self.broken[table_id]}")
        return restored

    @staticmethod
    def open_seats(actor: TableActor) -> list[int]:
        """A public table's seats still waiting for whoever joins from the lobby."""
        return [s for s, t in enumerate(actor.row.tokens)
                if t is None and actor.seats[s] == "human"]

    async def join(self, table_id: str) -> dict[str, Any]:
        """Give the first open seat of a public table to the caller: its token,
        once (the seat is then no longer open)."""
        actor = await self.get(table_id)
        if not actor.row.settings.get("public"):
            raise Rejected(403, "this table takes no one from the lobby: ask its creator "
                                "for an invite link")
        lock = self._joining.get(actor.id)
        if lock is None:
            lock = self._joining[actor.id] = asyncio.Lock()
        async with lock:  # the token list written is the one kept, or undone, whole
            if actor.terminal:
                raise Rejected(409, "the match is over")
            free = self.open_seats(actor)
            if not free:
                raise Rejected(409, "no seat of this table is open any more")
            seat, token = free[0], secrets.token_urlsafe(24)
            actor.row.tokens[seat] = token_hash(token)
            try:
                await self.journal.write(Write(tokens=(actor.id, list(actor.row.tokens))))
            except JournalError as e:
                actor.row.tokens[seat] = None
                raise Rejected(503, str(e)) from None
        return {"table": actor.id, "seat": seat, "token": token,
                "url": f"/t/{actor.id}?token={token}"}

    async def authorized(self, table_id: str, token: str) -> tuple[TableActor, int | None]:
        """The table and the seat ``token`` speaks for (None: a spectator); a
        seat that asks is seen (it is there: no bot takes it over)."""
        actor = await self.get(table_id[:64])
        seat = self.seat_of(actor, token)
        if seat is not None:
            actor.seen(seat)
        return actor, seat

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
        """The unfinished public tables (only those their creators chose to
        list), newest first, with their spectators' link and open seats
        (``POST /api/tables/ID/join`` takes one)."""
        out = []
        for a in sorted(self.actors.values(), key=lambda a: -a.row.created):
            if a.terminal or not a.row.settings.get("public"):
                continue
            free = sum(1 for s, spec in enumerate(a.seats)
                       if spec == "human" and not a.claimed[s])
            entry = {"table": a.id, "game": a.row.game, "seats": list(a.seats),
                     "seats_free": free, "version": a.version,
                     "created": datetime.fromtimestamp(a.row.created, UTC).isoformat(),
                     # its first hand was given, not dealt by the seed
                     "from_position": a.row.settings.get("position") is not None}
            watch = a.row.settings.get("public")
            if watch:
                entry["open_seats"] = len(self.open_seats(a))
                entry["spectator_url"] = f"/t/{a.id}?token={watch}"
            out.append(entry)
            if len(out) >= 100:
                break
        return out
