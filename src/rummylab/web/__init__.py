"""The browser client: plain ES modules, HTML, CSS and SVG cards served by
the table server as static files (no build step, no Node at install or run
time). :func:`mount` adds them, the table pages and the read-only routes
to the server's app (``rummylab play`` starts a local server and opens the
browser: :func:`rummylab.server.local.launch`).

Everything a seat sees comes from the server's per-seat view and events;
the routes added here read only the registry (``/api/games``) and the
seat's own observation (``/api/tables/ID/arrangement``).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import Request  # at the top: a route's annotations are read from here

if TYPE_CHECKING:
    from fastapi import FastAPI

STATIC = Path(__file__).parent / "static"
CARDS = STATIC / "cards"

# a card's file name: rank and suit (the art's own naming), a joker or the back
REPLAYS_KEPT = 64  # finished tables' replays kept, each a few hundred kB at most
_CARD_FILE = re.compile(r"^(?:[2-9TJQKA][CDHS]|2J|back)\.svg$")
# the four-colour deck: diamonds blue, clubs green (only the suit signs and
# indices, the symbols S<suit>… and V<suit>… of the art; the court figures keep theirs)
_FOUR_COLOURS = {"D": ('"red"', '"blue"'), "C": ('"black"', '"green"')}


@cache
def four_colour_svg(name: str) -> str:
    """The card ``name`` (e.g. ``7D.svg``) of the four-colour deck, recoloured
    from the two-colour art."""
    text = (CARDS / name).read_text(encoding="utf-8")
    suit = name[1] if len(name) == 6 else ""
    if suit not in _FOUR_COLOURS:
        return text
    old, new = _FOUR_COLOURS[suit]
    symbol = re.compile(r'<symbol id="[SV]' + suit + r'[^"]*".*?</symbol>', re.S)
    return symbol.sub(lambda m: m.group(0).replace(old, new), text)


def mount(app: FastAPI) -> None:
    """Serve the client from ``app``: ``/`` the lobby, ``/t/ID`` a table,
    ``/static/…`` its files, ``/api/games`` the games and their options."""
    from fastapi import Query
    from fastapi.responses import FileResponse, Response
    from fastapi.staticfiles import StaticFiles

    from rummylab.server.tables import Rejected
    from rummylab.web.arrange import arrangement
    from rummylab.web.catalogue import games

    shell = STATIC / "index.html"
    # finished tables' replays, the most recently asked for: (table, seat) -> steps
    replays: OrderedDict[tuple[str, int | None], dict[str, Any]] = OrderedDict()
    # a table page's address holds its seat's token: no Referer carries it away
    no_cache = {"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"}

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(shell, headers=no_cache)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(shell, headers=no_cache)

    @app.get("/api/games")
    async def game_list() -> dict[str, Any]:
        return {"games": _games_cached(games)}

    @app.get("/cards4/{name}", include_in_schema=False)
    async def four_colour(name: str) -> Response:
        if not _CARD_FILE.match(name):
            return Response('{"error": "no such card"}', status_code=404,
                            media_type="application/json")
        return Response(four_colour_svg(name), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})

    @app.get("/api/tables/{table_id}/arrangement")
    async def arranged(table_id: str, request: Request,
                       token: str = Query(max_length=100)) -> dict[str, Any]:
        app.state.heavy_allowed(_address(request))
        actor, seat = await app.state.hub.authorized(table_id, token)
        if seat is None:
            return {"version": actor.version, "arrangement": None}
        return {"version": actor.version, "arrangement": arrangement(actor.state, seat)}

    @app.get("/api/tables/{table_id}/position")
    async def position(table_id: str, request: Request,
                       token: str = Query(max_length=100)) -> dict[str, Any]:
        """This moment as one line, as the seat may know it (State.position(seat)
        writes it from that seat's observation only); asked for, not sent with
        every move."""
        app.state.heavy_allowed(_address(request))
        actor, seat = await app.state.hub.authorized(table_id, token)
        if seat is None:
            raise Rejected(409, "a position is written for a seat: a spectator has none")
        return {"version": actor.version, "position": actor.state.position(seat)}

    @app.get("/replay", include_in_schema=False)
    async def replay_file_page() -> FileResponse:
        return FileResponse(shell, headers=no_cache)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(shell, headers=no_cache)

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request,
                           token: str = Query(max_length=100),
                           seat: int | None = None) -> dict[str, Any]:
        """A finished match of this server, step by step (any token of the table)."""
        app.state.heavy_allowed(_address(request))
        actor, _ = await app.state.hub.authorized(table_id, token)  # a wrong token: 403
        key = (actor.id, seat)
        if key not in replays:  # a finished match never changes
            replays[key] = await _replayed(actor.record_text(), seat, actor.id)
            while len(replays) > REPLAYS_KEPT:
                replays.popitem(last=False)
        replays.move_to_end(key)
        return replays[key]

    @app.post("/api/replay")
    async def file_replay(request: Request, seat: int | None = None) -> dict[str, Any]:
        """A record file's first match, step by step (the body: the record)."""
        app.state.heavy_allowed(_address(request))
        try:
            text = (await request.body()).decode("utf-8")
        except UnicodeDecodeError:
            raise Rejected(400, "the file is not a text file") from None
        return await _replayed(text, seat, None)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _replayed(text: str, seat: int | None, table: str | None) -> dict[str, Any]:
    import asyncio

    from rummylab.errors import RummyError
    from rummylab.server.tables import Rejected
    from rummylab.web.replay import steps

    try:
        return await asyncio.to_thread(steps, text, seat, table)
    except RummyError as e:  # a record that does not replay: its line and why
        raise Rejected(400, str(e)) from None


_GAMES: list[Any] = []


def _games_cached(build: Any) -> list[Any]:
    if not _GAMES:
        _GAMES.extend(build())
    return _GAMES
