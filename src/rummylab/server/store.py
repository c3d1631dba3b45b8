"""The database: one row per table, and each table's append-only event log.

Every move a table accepts is one ``events`` row, numbered by the table's
version (1, 2, ...; the primary key is (table, version), so two writers can
never both write version n). A move is acknowledged only after the
transaction holding its row has committed; SQLite runs in WAL mode with
``synchronous=FULL``, so a committed move is on disk before anyone hears of it.
Rows are never updated or deleted; the table's own row is written when it is
created and once more when its match ends (the record, which reveals the seed).

The schema is created and upgraded by the Alembic migrations in
``rummylab/server/migrations``, run on start (:meth:`Store.migrate`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the options as the engine resolved them
    Column("seats", Text, nullable=False),  # JSON: "human" or "bot:..." per seat, as created
    Column("seed", BigInteger, nullable=False),  # secret until the match is over
    Column("seed_hash", String(64), nullable=False),
    Column("tokens", Text, nullable=False),  # JSON: SHA-256 of each seat's token (None: a bot)
    Column("spectator", String(64), nullable=False),  # SHA-256 of the spectator token
    Column("client", String(64), nullable=False),  # the address that created it
    Column("settings", Text, nullable=False),  # JSON: grace period, zombie bot
    Column("opening_hash", String(64), nullable=False),  # the record lines of the first deal
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("record", Text, nullable=True),  # the finished match's record (JSON Lines)
)

events = Table(
    "events", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),  # act | advise | takeover
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),  # the move as sent, or the bot taking over
    Column("msg_id", String(100), nullable=True),  # the client's id (JSON), for resends
    Column("state_hash", String(64), nullable=False),  # the record lines so far, chained
    Column("at", Float, nullable=False),
)


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int
    seed_hash: str
    tokens: list[str | None]
    spectator: str
    client: str
    settings: dict[str, Any]
    opening_hash: str
    created: float
    finished: float | None = None
    record: str | None = None

    def to_db(self) -> dict[str, Any]:
        return {
            "id": self.id, "game": self.game, "options": json.dumps(self.options),
            "seats": json.dumps(self.seats), "seed": self.seed, "seed_hash": self.seed_hash,
            "tokens": json.dumps(self.tokens), "spectator": self.spectator,
            "client": self.client, "settings": json.dumps(self.settings),
            "opening_hash": self.opening_hash, "created": self.created,
            "finished": self.finished, "record": self.record,
        }

    @classmethod
    def from_db(cls, row: Any) -> TableRow:
        m = row._mapping
        return cls(
            id=m["id"], game=m["game"], options=json.loads(m["options"]),
            seats=json.loads(m["seats"]), seed=int(m["seed"]), seed_hash=m["seed_hash"],
            tokens=json.loads(m["tokens"]), spectator=m["spectator"], client=m["client"],
            settings=json.loads(m["settings"]), opening_hash=m["opening_hash"],
            created=float(m["created"]), finished=m["finished"], record=m["record"],
        )


@dataclass(frozen=True)
class EventRow:
    table_id: str
    version: int
    kind: str
    seat: int
    text: str
    msg_id: str | None
    state_hash: str
    at: float

    def to_db(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version, "kind": self.kind,
                "seat": self.seat, "text": self.text, "msg_id": self.msg_id,
                "state_hash": self.state_hash, "at": self.at}


@dataclass
class Write:
    """What one transaction of the journal writes for one table."""

    table: TableRow | None = None  # a new table
    events: list[EventRow] = field(default_factory=list)
    finish: tuple[str, float, str] | None = None  # (table id, when, record)
    tokens: tuple[str, list[str | None]] | None = None  # (table id, seats' token hashes)


def default_url() -> str:
    """A SQLite file in the user's data directory."""
    import platformdirs

    path = Path(platformdirs.user_data_dir("rummylab")) / "tables.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


class Store:
    """The database behind the tables; every method blocks (run it in a thread)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._write_lock = threading.Lock()  # one writing transaction at a time

    def migrate(self) -> None:
        """Create or upgrade the schema (Alembic, to the newest revision)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    # -- writing -----------------------------------------------------------
    def write(self, batch: Sequence[Write]) -> list[BaseException | None]:
        """Commit a batch in one transaction (group commit: one fsync for all
        of them, and one statement per kind of row). If it fails, each write
        is tried alone, so one bad write fails only itself. Returns, per
        write, None or its error."""
        with self._write_lock:
            try:
                with self.engine.begin() as conn:
                    _apply(conn, batch)
                return [None] * len(batch)
            except Exception as e:
                if len(batch) == 1:
                    return [self._settled(batch[0], e)]
            out: list[BaseException | None] = []
            for w in batch:
                try:
                    with self.engine.begin() as conn:
                        _apply(conn, [w])
                    out.append(None)
                except Exception as e:
                    out.append(self._settled(w, e))
            return out

    def _settled(self, w: Write, error: BaseException) -> BaseException | None:
        """``error``, or None if ``w`` is in the database already, as written: a
        COMMIT can succeed and still raise (a connection lost during it), and
        the same write, sent again, then meets its own primary keys."""
        if not isinstance(error, IntegrityError) or not (w.events or w.table):
            return error
        try:
            with self.engine.connect() as conn:
                for e in w.events:
                    got = conn.execute(select(events.c.state_hash).where(
                        events.c.table_id == e.table_id, events.c.version == e.version)).scalar()
                    if got != e.state_hash:  # another move holds this version
                        return error
                if w.table is not None:
                    got = conn.execute(select(tables.c.opening_hash)
                                       .where(tables.c.id == w.table.id)).scalar()
                    if got != w.table.opening_hash:
                        return error
        except Exception:  # the database is still away: the write stays failed
            return error
        return None

    # -- reading -----------------------------------------------------------
    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else TableRow.from_db(row)

    def unfinished(self) -> list[TableRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables).where(tables.c.finished.is_(None))
                                .order_by(tables.c.created)).all()
        return [TableRow.from_db(r) for r in rows]

    def events_of(self, table_id: str) -> list[EventRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(events).where(events.c.table_id == table_id)
                                .order_by(events.c.version)).all()
        return [EventRow(**dict(r._mapping)) for r in rows]

    def iter_table_ids(self) -> Iterator[str]:
        with self.engine.connect() as conn:
            yield from conn.execute(select(tables.c.id)).scalars()


def _apply(conn: Connection, batch: Sequence[Write]) -> None:
    new = [w.table.to_db() for w in batch if w.table is not None]
    if new:  # before the events: a table's first events may come in the same batch
        conn.execute(insert(tables), new)
    rows = [e.to_db() for w in batch for e in w.events]
    if rows:
        conn.execute(insert(events), rows)
    for w in batch:
        if w.tokens is not None:  # an open seat taken from the lobby
            conn.execute(update(tables).where(tables.c.id == w.tokens[0])
                         .values(tokens=json.dumps(w.tokens[1])))
        if w.finish is not None:
            table_id, at, record = w.finish
            conn.execute(update(tables).where(tables.c.id == table_id)
                         .values(finished=at, record=record))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL: readers never block the writer; FULL: a commit is on disk when it returns
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
