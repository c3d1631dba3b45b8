"""One table: an asyncio actor, the only writer of its match.

Moves reach the actor through its mailbox and are handled one at a time:
checked by the engine on a copy of the state, written to the event log (the
:class:`~rummylab.server.journal.Journal` returns once the row is committed),
and only then made the table's state, pushed to the seats' connections and
acknowledged. A move the engine refuses, or one the log could not keep,
changes nothing. Bots move in the same loop, thinking in a worker thread so
that the event loop keeps serving every other table, however long a bot
thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rummylab.bots import make_bot
from rummylab.bots.base import Bot
from rummylab.errors import RummyError, TurnError
from rummylab.game import State
from rummylab.match import bot_seed
from rummylab.records import dumps, header
from rummylab.server.journal import Journal, JournalError
from rummylab.server.store import EventRow, TableRow, Write
from rummylab.server.views import encode, observed, public_view, seat_view

log = logging.getLogger("rummylab.server")
T = TypeVar("T")

# a bot's move that keeps failing to be saved is retried after this long (seconds)
RETRY = 1.0

# bots think here, off the event loop; few threads, because every thread that runs
# Python competes with the loop for the interpreter lock
THINKING = ThreadPoolExecutor(2, thread_name_prefix="bots")


async def think(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a bots' thread."""
    return await asyncio.get_running_loop().run_in_executor(THINKING, fn, *args)


class Rejected(Exception):
    """A request refused with an HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = " ".join(reason.split())[:500]


@dataclass(frozen=True)
class Ack:
    """The answer to a committed move (a resend of its id gets the same)."""

    version: int
    seat: int
    action: str
    id: Any

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "seat": self.seat, "action": self.action,
                "id": self.id}


def chain(previous: str, lines: Iterable[str]) -> str:
    """The state hash: SHA-256 over the previous hash and the record lines an
    event produced, so the hash after event n vouches for all of 1..n."""
    h = hashlib.sha256(previous.encode("ascii"))
    for line in lines:
        h.update(b"\n" + line.encode("utf-8"))
    return h.hexdigest()


def bot_spec(seat: str) -> str | None:
    """The bot's spec of a seat ``bot:SPEC``; None for a human seat."""
    return seat[4:] if seat.startswith("bot:") else None


@dataclass(eq=False)  # each connection is its own, hashed by identity
class Subscriber:
    """One open WebSocket: the seat it speaks for (None: a spectator) and its
    outgoing messages. A connection too slow to keep up is dropped; it
    reconnects with the last version it saw."""

    seat: int | None
    # a message, or its JSON text (a view encoded once for every connection of its seat)
    outbox: asyncio.Queue[dict[str, Any] | str] = field(
        default_factory=lambda: asyncio.Queue(maxsize=256))
    overflowed: bool = False

    def push(self, message: dict[str, Any] | str) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True


@dataclass
class _Command:
    kind: str  # act | advise
    seat: int
    text: str
    msg_id: Any
    reply: asyncio.Future[Ack]


class TableActor:
    def __init__(self, row: TableRow, state: State, journal: Journal) -> None:
        self.row = row
        self.id = row.id
        self.state = state
        self.journal = journal
        self.version = 0
        self.lines = [dumps(e) for e in state.take_events()]  # the record after the header
        self.hash = chain("", self.lines)
        self.seats = list(row.seats)  # "human" or "bot:SPEC"; a takeover changes one
        self.labels = list(row.seats)  # the record's names for the seats
        self.bots: dict[int, Bot] = {}
        self.done: dict[tuple[int, str], Ack] = {}
        self.subscribers: set[Subscriber] = set()
        # each seat's (and the spectators') latest view, with the version and the
        # connections it was made for: built once however many connections and reads ask
        self._views: dict[int | None, tuple[tuple[Any, ...], dict[str, Any]]] = {}
        self.connected: Counter[int] = Counter()
        now = time.time()
        self.last_seen = dict.fromkeys(range(len(self.seats)), now)
        self.claimed = [False] * len(self.seats)
        self.mailbox: asyncio.Queue[_Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.record: str | None = row.record
        for seat, spec in enumerate(self.seats):
            self._seat_bot(seat, spec)

    def _seat_bot(self, seat: int, spec: str) -> None:
        found = bot_spec(spec)
        if found is not None:
            # keyed by the seed through a hash: the bot cannot work back to the deal
            self.bots[seat] = make_bot(found, self.state.game_name,
                                       bot_seed(self.row.seed, seat))

    # -- rebuilding from the log ----------------------------------------------
    def replay(self, rows: list[EventRow]) -> None:
        """Re-apply the logged events (on start), checking each one's version
        and state hash; a mismatch is a :class:`RummyError`."""
        if self.hash != self.row.opening_hash:
            raise RummyError(f"table {self.id}: the seed does not deal the stored opening")
        for r in rows:
            if r.version != self.version + 1:
                raise RummyError(f"table {self.id}: event {r.version} follows {self.version}")
            if r.kind == "takeover":
                self._take_over(r.seat, r.text)
            else:
                self._apply(self.state, r.kind, r.text, r.seat)
                lines = [dumps(e) for e in self.state.take_events()]
                self.lines += lines
                self.hash = chain(self.hash, lines)
            if r.state_hash != self.hash:
                raise RummyError(f"table {self.id}: the state after event {r.version} "
                                 "differs from the stored state hash")
            self.version = r.version
            if r.msg_id is not None:
                self.done[(r.seat, r.msg_id)] = Ack(r.version, r.seat, r.text, _id(r.msg_id))
            self.claimed[r.seat] = True

    # -- reading ---------------------------------------------------------------
    @property
    def terminal(self) -> bool:
        return self.state.is_terminal()

    def facts(self) -> dict[str, Any]:
        """The table's public facts, which every view carries."""
        out: dict[str, Any] = {
            "table": self.id, "version": self.version, "game": self.state.game_name,
            "options": self.row.options, "seed_hash": self.row.seed_hash,
            # the first hand was given (the creator knew it), not dealt by the seed
            "from_position": self.row.settings.get("position") is not None,
            "players": [{"seat": s, "player": spec, "connected": self.connected[s] > 0}
                        for s, spec in enumerate(self.seats)],
        }
        if self.terminal:
            # the deal is over: the commitment is opened. As the decimal text that is
            # hashed, which no JSON reader rounds (seeds go up to 2**63)
            out["seed"] = str(self.row.seed)
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        """A seat's view (None: the spectators'); shared by its callers, who must
        not change it."""
        key = (self.version, *self.connected.items())  # any change of a count: a new view
        cached = self._views.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        facts = self.facts()
        if seat is None:
            view = public_view([observed(self.state, s) for s in range(len(self.seats))], facts)
        else:
            view = seat_view(observed(self.state, seat), facts)
        self._views[seat] = (key, view)
        return view

    def seen(self, seat: int) -> None:
        self.last_seen[seat] = time.time()
        self.claimed[seat] = True

    def record_text(self) -> str:
        """The finished match's record (with the seed)."""
        if self.record is None:
            raise Rejected(409, "the match is not over: its record (which reveals the seed and "
                                "the deals) is given once it ends")
        return self.record

    # -- acting ------------------------------------------------------------------
    def start(self) -> None:
        if self.task is None and not self.terminal:
            self.task = asyncio.create_task(self._run(), name=f"table {self.id}")
            self.task.add_done_callback(self._stopped)

    def _stopped(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            # moves to it are refused with 503 from now on; its log is intact
            log.error("table %s stopped: %r", self.id, task.exception())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def submit(self, kind: str, seat: int, text: str, msg_id: Any) -> Ack:
        """Ask the actor to make a move (or, ``advise``, to give advice) for
        ``seat``; returns once it is committed. A resent id is answered as
        the first time."""
        key = _key(msg_id)
        if key is not None and (seat, key) in self.done:
            return self.done[(seat, key)]
        if self.terminal:
            raise Rejected(409, "the match is over")
        if self.task is None or self.task.done():
            raise Rejected(503, "the table is not running")
        reply: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
        self.mailbox.put_nowait(_Command(kind, seat, text, msg_id, reply))
        # the move goes on even if this caller goes away: shield the actor's work
        return await asyncio.shield(reply)

    async def _run(self) -> None:
        while not self.terminal:
            seat = self.state.current_player()
            if seat in self.bots:
                while not self.mailbox.empty():
                    await self._handle(self.mailbox.get_nowait())
                await self._bot_move(seat)
                continue
            try:
                cmd = await asyncio.wait_for(self.mailbox.get(), self._grace_left(seat))
            except TimeoutError:
                await self._maybe_take_over(seat)
                continue
            await self._handle(cmd)
        # the match is over: answer what is still waiting
        while not self.mailbox.empty():
            cmd = self.mailbox.get_nowait()
            if not cmd.reply.done():
                cmd.reply.set_exception(Rejected(409, "the match is over"))

    async def _handle(self, cmd: _Command) -> None:
        try:
            ack = await self._move(cmd.kind, cmd.seat, cmd.text, cmd.msg_id)
        except Rejected as e:
            if not cmd.reply.done():
                cmd.reply.set_exception(e)
            return
        except Exception as e:  # a fault of ours: the move is refused, the table goes on
            log.exception("table %s: move %r failed", self.id, cmd.text)
            if not cmd.reply.done():
                cmd.reply.set_exception(Rejected(503, f"the move could not be made "
                                                      f"({type(e).__name__})"))
            return
        if not cmd.reply.done():
            cmd.reply.set_result(ack)

    async def _move(self, kind: str, seat: int, text: str, msg_id: Any) -> Ack:
        key = _key(msg_id)
        if key is not None and (seat, key) in self.done:  # a resend that was queued twice
            return self.done[(seat, key)]
        if self.terminal:
            raise Rejected(409, "the match is over")
        to_act = self.state.current_player()
        if kind == "act" and seat != to_act:
            # said before the engine sees it: its error would list the other seat's moves
            raise Rejected(409, f"not your turn: seat {to_act} is to act")
        candidate = self.state.clone()
        candidate.events = []
        try:
            # on the loop: a move is checked in microseconds, a thread hop costs more
            self._apply(candidate, kind, text, seat)
        except TurnError as e:  # not this seat's move (advice is the sitter's alone)
            raise Rejected(409, str(e)) from None
        except RummyError as e:
            raise Rejected(400, str(e)) from None
        lines = [dumps(e) for e in candidate.take_events()]
        new_hash = chain(self.hash, lines)
        version = self.version + 1
        now = time.time()
        row = EventRow(self.id, version, kind, seat, text, key, new_hash, now)
        write = Write(events=[row])
        record = None
        if candidate.is_terminal():
            record = self._record(candidate, self.lines + lines)
            write.finish = (self.id, now, record)
        try:
            await self.journal.write(write)
        except JournalError as e:
            raise Rejected(503, str(e)) from None
        # committed: now it happened
        self.state, self.hash, self.version = candidate, new_hash, version
        self.lines += lines
        if record is not None:
            self.record = record
            self.row.finished = now
        ack = Ack(version, seat, text, msg_id)
        if key is not None:
            self.done[(seat, key)] = ack
        self.publish()
        return ack

    @staticmethod
    def _apply(state: State, kind: str, text: str, seat: int) -> None:
        if kind == "advise":
            advise = getattr(state, "advise", None)
            if advise is None:
                raise TurnError(f"{state.game_name} has no advice: no seat may advise")
            advise(text, seat)
        else:
            state.apply(text)

    def _record(self, state: State, lines: list[str]) -> str:
        head = dumps(header(state, self.labels))
        return "".join(line + "\n" for line in [head, *lines])

    async def _bot_move(self, seat: int) -> None:
        bot = self.bots[seat]
        obs = self.state.observation(seat)
        try:
            move = await think(bot.move, obs)
            text = move if isinstance(move, str) else self.state.action_to_string(move)
        except Exception as e:  # a bot that fails must not stop the table
            log.warning("table %s: bot %s in seat %s failed (%s): playing its first legal move",
                        self.id, bot.spec(), seat, e)
            text = self.state.action_to_string(self.state.legal_actions()[0])
        try:
            await self._move("act", seat, text, None)
        except Rejected as e:
            log.warning("table %s: bot move %r in seat %s not made: %s", self.id, text, seat,
                        e.reason)
            if e.status == 503:
                await asyncio.sleep(RETRY)
            else:  # an illegal bot move: play the first legal one instead
                first = self.state.action_to_string(self.state.legal_actions()[0])
                with contextlib.suppress(Rejected):
                    await self._move("act", seat, first, None)

    # -- an absent player's seat (Board Game Arena's "zombie" mode) ---------------
    def _grace_left(self, seat: int) -> float | None:
        grace = self.row.settings.get("grace")
        if grace is None or self.connected[seat] > 0:
            return None if grace is None else float(grace)
        return max(0.0, self.last_seen[seat] + float(grace) - time.time())

    async def _maybe_take_over(self, seat: int) -> None:
        grace = self.row.settings.get("grace")
        if (grace is None or self.terminal or self.state.current_player() != seat
                or seat in self.bots or self.connected[seat] > 0
                or time.time() - self.last_seen[seat] < float(grace)):
            return
        spec = str(self.row.settings.get("zombie", "simple"))
        row = EventRow(self.id, self.version + 1, "takeover", seat, spec, None, self.hash,
                       time.time())
        try:
            await self.journal.write(Write(events=[row]))
        except JournalError:
            await asyncio.sleep(RETRY)
            return
        self.version += 1
        self._take_over(seat, spec)
        self.publish()

    def _take_over(self, seat: int, spec: str) -> None:
        self.seats[seat] = f"bot:{spec}"
        self.labels[seat] = f"{self.labels[seat]}, then bot:{spec} (away)"
        self._seat_bot(seat, self.seats[seat])

    # -- pushing ---------------------------------------------------------------------
    def publish(self) -> None:
        """Push the new version to every connection, each its own view."""
        texts: dict[int | None, str] = {}
        for sub in list(self.subscribers):
            text = texts.get(sub.seat)
            if text is None:
                text = texts[sub.seat] = encode({"type": "event", "version": self.version,
                                                 "view": self.view(sub.seat)})
            sub.push(text)


def _key(msg_id: Any) -> str | None:
    """A client's message id as stored (JSON, so 1 and "1" differ)."""
    return None if msg_id is None else json.dumps(msg_id)


def _id(key: str) -> Any:
    return json.loads(key)
