"""The HTTP and WebSocket routes: they translate requests into table actor
calls and answers into JSON; every rule of the game is the engine's.

Every error is JSON ``{"error": "one line"}`` with a 4xx status (503 when the
database cannot take a move); no route answers with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummylab.bots import make_bot
from rummylab.errors import OptionError
from rummylab.server.hub import Hub, Settings, token_hash
from rummylab.server.store import Store, default_url
from rummylab.server.tables import Rejected, Subscriber, TableActor, think
from rummylab.server.views import encode

log = logging.getLogger("rummylab.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

Token = Annotated[str, Field(min_length=1, max_length=100)]
MsgId = Annotated[str, Field(max_length=64)] | int | None


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game: Annotated[str, Field(min_length=1, max_length=40)]
    seats: Annotated[list[Annotated[str, Field(max_length=200)]],
                     Field(min_length=1, max_length=8)]
    options: Annotated[dict[Annotated[str, Field(max_length=64)], str | int | bool],
                       Field(max_length=32)] = {}
    seed: int | None = None
    grace: float | None = None  # seconds a player may be away before a bot takes the seat
    zombie: Annotated[str, Field(min_length=1, max_length=200)] = "simple"
    # a moment to start from (docs/positions.md), in place of a fresh deal
    position: Annotated[str | None, Field(min_length=1, max_length=4000)] = None
    public: bool = False  # listed with its spectators' link; its "open" seats can be joined


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: Token
    action: Annotated[str, Field(min_length=1, max_length=4000)]
    id: MsgId = None


class Bucket:
    """A token bucket: ``rate`` moves a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.level, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class BodyLimit:
    """Refuse a request body over ``limit`` bytes (413) before any route reads it."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app, self.limit = app, limit
        self.larger = larger or {}  # paths that take more: a record file to replay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = b""
        limit = self.larger.get(scope.get("path", ""), self.limit)
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                return  # the client went away
            body += msg.get("body", b"")
            if len(body) > limit:
                await _send_json(send, 413, f"the request is larger than {limit} bytes")
                return
            if not msg.get("more_body"):
                break
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _send_json(send: Send, status: int, reason: str) -> None:
    data = json.dumps({"error": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(reason).split())[:500]}, status_code=status)


def _validation_reason(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    where = ".".join(loc)
    msg = str(first.get("msg", "invalid"))
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    if not where and first.get("type") in ("model_attributes_type", "dict_type",
                                           "model_type"):
        return "the body must be a JSON object (Content-Type: application/json)"
    if first.get("type") == "extra_forbidden":
        return f"unknown field {where!r}"
    return f"{where}: {msg}" if where else msg


def create_app(settings: Settings) -> FastAPI:
    hub = Hub(settings)
    buckets: dict[str, Bucket] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # a thread running Python (a bot, the journal) hands the interpreter back to the
        # event loop within 0.5 ms rather than 5: acknowledgements stay prompt under load
        sys.setswitchinterval(0.0005)
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="rummylab table server", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub
    app.add_middleware(BodyLimit, limit=settings.max_body,
                       larger={"/api/replay": settings.max_record})

    @app.exception_handler(Rejected)
    async def rejected(request: Request, exc: Rejected) -> JSONResponse:
        return _error(exc.status, exc.reason)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_reason(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def fault(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return _error(500, f"internal error ({type(exc).__name__})")

    def moves_allowed(token: str) -> None:
        key = token_hash(token)
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) > 100_000:
                buckets.clear()
            bucket = buckets[key] = Bucket(settings.moves_per_second, settings.move_burst)
        if not bucket.take():
            raise Rejected(429, f"too many moves: at most {settings.moves_per_second:g} a second")

    heavy: dict[str, Bucket] = {}

    def heavy_allowed(address: str) -> None:
        """A bound per client address on the routes that cost far more than a
        move (a replay, an arrangement, a position, a socket's hello)."""
        bucket = heavy.get(address)
        if bucket is None:
            if len(heavy) > 100_000:
                heavy.clear()
            bucket = heavy[address] = Bucket(settings.heavy_per_second, settings.heavy_burst)
        if not bucket.take():
            raise Rejected(429, f"too many requests: at most {settings.heavy_per_second:g} "
                                "a second")

    app.state.heavy_allowed = heavy_allowed  # the browser client's routes (rummylab.web)
    authorized = hub.authorized

    # -- routes ----------------------------------------------------------------
    @app.get("/api/tables")
    async def lobby() -> dict[str, Any]:
        return {"tables": hub.lobby()}

    @app.post("/api/tables", status_code=201)
    async def create(body: NewTable, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else "unknown"
        return await hub.create(body.game, body.seats, body.options, body.seed, body.grace,
                                body.zombie, client, position=body.position,
                               public=body.public)

    @app.post("/api/tables/{table_id}/join", status_code=201)
    async def join(table_id: str) -> dict[str, Any]:
        return await hub.join(table_id[:64])

    @app.get("/api/tables/{table_id}")
    async def view(table_id: str, token: Annotated[str, Query(max_length=100)]
                   ) -> dict[str, Any]:
        actor, seat = await authorized(table_id, token)
        return actor.view(seat)

    async def move(kind: str, table_id: str, body: Move) -> dict[str, Any]:
        actor, seat = await authorized(table_id, body.token)
        if seat is None:
            raise Rejected(403, "a spectator cannot move")
        moves_allowed(body.token)
        ack = await actor.submit(kind, seat, body.action, body.id)
        return ack.to_dict()

    @app.post("/api/tables/{table_id}/act")
    async def act(table_id: str, body: Move) -> dict[str, Any]:
        return await move("act", table_id, body)

    @app.post("/api/tables/{table_id}/advise")
    async def advise(table_id: str, body: Move) -> dict[str, Any]:
        return await move("advise", table_id, body)

    @app.get("/api/tables/{table_id}/hint")
    async def hint(table_id: str, token: Annotated[str, Query(max_length=100)]
                   ) -> dict[str, Any]:
        actor, seat = await authorized(table_id, token)
        if seat is None or actor.terminal or actor.state.current_player() != seat:
            raise Rejected(409, "a hint is for the seat to act")
        moves_allowed(token)
        obs = actor.state.observation(seat)
        bot = make_bot("simple", actor.state.game_name)
        choice, reason = await think(bot.move_hint, obs)
        text = choice if isinstance(choice, str) else actor.state.action_to_string(choice)
        return {"version": actor.version, "action": text, "reason": reason}

    @app.get("/api/tables/{table_id}/record", response_class=PlainTextResponse)
    async def record(table_id: str, token: Annotated[str, Query(max_length=100)]
                     ) -> PlainTextResponse:
        actor, _ = await authorized(table_id, token)
        return PlainTextResponse(actor.record_text(), media_type="application/x-ndjson")

    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        token = websocket.query_params.get("token", "")
        try:
            actor, seat = await authorized(table_id, token)
            since = int(websocket.query_params.get("since", "-1"))
        except (Rejected, ValueError):
            await websocket.close()  # before accepting: the client gets a 403
            return
        await websocket.accept()
        await _session(websocket, actor, seat, since, settings, moves_allowed, heavy_allowed)

    from rummylab.web import mount  # the browser client (static files, lobby and table pages)

    mount(app)
    return app


async def _session(ws: WebSocket, actor: TableActor, seat: int | None, since: int,
                   settings: Settings, moves_allowed: Callable[[str], None],
                   heavy_allowed: Callable[[str], None]) -> None:
    """One WebSocket: the view the client missed, then every new version, and
    the moves it sends, each acknowledged once committed."""
    sub = Subscriber(seat)
    actor.subscribers.add(sub)
    if seat is not None:
        actor.connected[seat] += 1
    token = ws.query_params.get("token", "")

    def catch_up(version: int) -> None:
        if version != actor.version:
            sub.push({"type": "view", "version": actor.version, "view": actor.view(seat)})
        else:
            sub.push({"type": "hello", "version": actor.version})

    async def sender() -> None:
        while True:
            msg = await sub.outbox.get()
            await ws.send_text(msg if isinstance(msg, str) else encode(msg))
            if sub.overflowed and sub.outbox.empty():
                await ws.close(code=1013)  # too far behind: reconnect with `since`
                return

    async def receiver() -> None:
        while True:
            text = await ws.receive_text()
            sub.push(await _answer(text))

    async def _answer(text: str) -> dict[str, Any]:
        if len(text) > settings.max_body:
            return {"type": "error", "error": f"a message is at most {settings.max_body} bytes"}
        try:
            msg = json.loads(text)
        except ValueError:
            return {"type": "error", "error": "the message is not valid JSON"}
        if not isinstance(msg, dict):
            return {"type": "error", "error": "a message is a JSON object with a 'type'"}
        kind = msg.get("type")
        msg_id = msg.get("id")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "hello":
            version = msg.get("version", -1)
            if type(version) is not int:
                return {"type": "error", "error": "'version' must be an integer"}
            try:
                heavy_allowed(ws.client.host if ws.client else "unknown")
            except Rejected as e:
                return {"type": "error", "status": e.status, "error": e.reason}
            catch_up(version)
            return {"type": "pong"}
        if kind not in ("act", "advise"):
            return {"type": "error", "id": _safe_id(msg_id),
                    "error": "'type' must be act, advise, hello or ping"}
        try:
            checked = Move.model_validate({"token": token or "-", "action": msg.get("action"),
                                           "id": msg_id})
        except ValueError:
            return {"type": "error", "id": _safe_id(msg_id), "status": 422,
                    "error": "an act is {\"type\": \"act\", \"action\": text, \"id\": "
                             "string or integer}"}
        if seat is None:
            return {"type": "error", "id": checked.id, "status": 403,
                    "error": "a spectator cannot move"}
        try:
            moves_allowed(token)
            actor.seen(seat)
            ack = await actor.submit(kind, seat, checked.action, checked.id)
        except Rejected as e:
            return {"type": "error", "id": checked.id, "status": e.status, "error": e.reason}
        return {"type": "ack", **ack.to_dict()}

    catch_up(since)
    tasks = [asyncio.create_task(sender()), asyncio.create_task(receiver())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    except WebSocketDisconnect:
        pass
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError,
                                     Exception):
                await t
        actor.subscribers.discard(sub)
        if seat is not None:
            actor.connected[seat] -= 1
            actor.seen(seat)


def _safe_id(msg_id: Any) -> Any:
    """A client's id echoed back only if it is one (a string or an integer)."""
    if isinstance(msg_id, bool) or not isinstance(msg_id, str | int):
        return None
    return msg_id if not isinstance(msg_id, str) or len(msg_id) <= 64 else None


def serve(host: str, port: int, db: str | None, max_open_tables: int) -> None:
    """Run the server until interrupted (``rummylab serve``)."""
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    url = db or default_url()
    try:
        shown = make_url(url).render_as_string(hide_password=True)
        store = Store(url)
        store.migrate()  # here, so a database that cannot be opened is one line, not a trace
        store.close()
    except (SQLAlchemyError, ValueError, OSError, ImportError) as e:
        raise OptionError(f"cannot open the database {url!r}: "
                          f"{' '.join(str(e).split())[:300]}") from None
    if max_open_tables < 1:
        raise OptionError("--max-open-tables must be at least 1")
    settings = Settings(db=url, max_open_tables=max_open_tables)
    print(f"rummylab table server on http://{host}:{port} (database {shown})", flush=True)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning",
                ws_max_size=settings.max_body, ws_per_message_deflate=False,
                timeout_graceful_shutdown=5)
