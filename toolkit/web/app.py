"""The viewer's Starlette app: the page, its assets and the JSON API of ``docs/web.md``.

Each endpoint parses its query (:mod:`.queries`), finds the source by id (:mod:`.sources`) and returns what the
shared answer builders (:mod:`toolkit.answers`) give the command line for the same input.  Refused input is a 4xx
``{"error": ...}``; anything else (a bug) is logged and answered 500 ``{"error": ...}`` without a traceback.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from functools import wraps
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..answers import (REFUSALS, SightLine, check_answer, command_answer, error_text, hex_json, moves_json,
                       reach_answer, search_moves, supply_answer, victory_answer, zoc_answer)
from .describe import source_json
from .pictures import geometry_json, map_png, map_svg, with_board_image
from .queries import (BadQuery, CheckQuery, HexQuery, LosQuery, MovesQuery, NoQuery, SideQuery, SourceQuery,
                      SupplyQuery, VictoryQuery, WebError, parse_query)
from .sources import MAX_UPLOAD_BYTES, Source, SourceBook, too_large

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("toolkit.web")


def api(handler: Callable[[SourceBook, Request], Any]) -> Callable[[Request], Response]:
    """An endpoint from ``handler(book, request)``: run under the book's lock, a dict answered as JSON."""
    @wraps(handler)
    def endpoint(request: Request) -> Response:
        book: SourceBook = request.app.state.book
        with book.lock:
            out = handler(book, request)
        return out if isinstance(out, Response) else JSONResponse(out)
    return endpoint


def _query(model, request: Request):
    return parse_query(model, request.query_params.multi_items())


def _source(book: SourceBook, request: Request, model=SourceQuery):
    q = _query(model, request)
    return q, book.get(q.source)


@api
def sources(book: SourceBook, request: Request) -> dict:
    """``GET /api/sources``."""
    _query(NoQuery, request)
    return book.listing()


@api
def source(book: SourceBook, request: Request) -> dict:
    """``GET /api/source?source=ID``."""
    _, src = _source(book, request)
    return source_json(src)


@api
def map_picture(book: SourceBook, request: Request) -> Response:
    """``GET /api/map.svg?source=ID``: the map alone, drawn once per map (over the published board image of a
    game imported from a VASSAL module)."""
    _, src = _source(book, request)
    cmap = src.map
    folder = Path(book.game) if book.game is not None else None
    return Response(book.per_map(cmap, "map.svg", lambda: with_board_image(map_svg(cmap), cmap, folder)),
                    media_type="image/svg+xml")


@api
def geometry(book: SourceBook, request: Request) -> dict:
    """``GET /api/geometry?source=ID``."""
    _, src = _source(book, request)
    cmap = src.map
    return book.per_map(cmap, "geometry", lambda: geometry_json(cmap))


@api
def hex_info(book: SourceBook, request: Request) -> dict:
    """``GET /api/hex?source=ID&hex=H`` = ``toolkit hex MAP H --json``."""
    q, src = _source(book, request, HexQuery)
    return hex_json(src.map, q.hex)


@api
def moves(book: SourceBook, request: Request) -> dict:
    """``GET /api/moves`` = ``toolkit moves POSITION UNIT ... --json`` (``phase`` overrides the position's, and
    its phasing side too when the phase names a side: No Prisoners' ``west_cp_movement``)."""
    q, src = _source(book, request, MovesQuery)
    position = src.position
    if q.phase is not None:
        phases = position.game.spec.phases
        if q.phase not in phases:
            raise BadQuery(f"phase {q.phase[:80]!r} is not a phase of {position.game.spec.id}; give one of: "
                           f"{', '.join(phases)}")
        side = position.game.spec.phase_side(q.phase) or position.phasing_side
        position = replace(position, phase=q.phase, phasing_side=side)
    ids = [q.unit, *q.with_units]
    result = search_moves(position, f"source {src.id}", ids, q.pickup, q.terrorist, q.enter, q.kind)
    return moves_json(position, ids, result)


def _sight_line(book: SourceBook, request: Request) -> SightLine:
    """The line of sight a ``/api/los`` query asks for: ``map=`` (the map's obstacles) or ``source=``."""
    q = _query(LosQuery, request)
    if (q.map is None) == (q.source is None):
        raise BadQuery("give map=MAP (a bundled map: its obstacles) or source=ID (a position: its game's own rule), "
                       "one of the two")
    convention = None if q.convention is None else q.convention.value
    src = book.map_source(q.map) if q.map is not None else book.get(q.source)
    if src.kind == "map":
        return SightLine.on_map(src.map, q.from_hex, q.to, convention)
    if convention is not None:
        raise BadQuery("convention: a position's line of sight follows its game's own rule; drop convention "
                       "(or ask map= for the map's)")
    return SightLine.in_position(src.position, q.from_hex, q.to)


@api
def los(book: SourceBook, request: Request) -> dict:
    """``GET /api/los`` = ``toolkit los MAP A B --json`` or ``toolkit los A B --position POSITION --json``."""
    return _sight_line(book, request).json()


@api
def los_svg(book: SourceBook, request: Request) -> Response:
    """``GET /api/los.svg``: the line drawn on the map."""
    sight = _sight_line(book, request)
    return Response(map_svg(sight.cmap, [sight.overlay()]), media_type="image/svg+xml",
                    headers={"Content-Disposition": 'inline; filename="los.svg"'})


@api
def los_png(book: SourceBook, request: Request) -> Response:
    """``GET /api/los.png``: the line drawn on the map, as a PNG."""
    sight = _sight_line(book, request)
    return Response(map_png(sight.cmap, [sight.overlay()]), media_type="image/png",
                    headers={"Content-Disposition": 'inline; filename="los.png"'})


def position_answer(name: str, model: type[SourceQuery], answer: Callable[..., dict], *keys: str):
    """The endpoint ``GET /api/<name>``: ``answer(position, *parameters)``, the parameters ``keys`` of ``model``,
    computed in a worker process (:mod:`.workers`, no lock held meanwhile) and kept per source and parameters
    (the position never changes)."""
    def endpoint(request: Request) -> Response:
        book: SourceBook = request.app.state.book
        with book.lock:
            q, src = _source(book, request, model)
            position = src.position
        args = tuple(getattr(q, key) for key in keys)
        return JSONResponse(src.remember((name, *args), lambda: book.workers.run(
            f"/api/{name} of {src.id}", answer, position, *args)))
    endpoint.__name__ = endpoint.__qualname__ = name
    return endpoint


async def open_file(request: Request) -> Response:
    """``POST /api/open``: the file's bytes (at most 5 MB), its name in ``X-Filename`` -> the new source."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        raise too_large(int(declared))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_UPLOAD_BYTES:
            raise too_large()
    book: SourceBook = request.app.state.book
    return JSONResponse(await run_in_threadpool(_opened, book, bytes(body), request.headers.get("x-filename")))


def _opened(book: SourceBook, raw: bytes, filename: str | None) -> dict:
    src: Source = book.upload(raw, filename)   # read without the lock: other requests go on meanwhile
    with book.lock:
        return source_json(src)


async def page(request: Request) -> Response:
    """``GET /`` and the permalink ``GET /los?...``: the page (its script reads the query)."""
    index = STATIC / "index.html"
    if not index.is_file():
        raise WebError("the page is not installed (toolkit/web/static/index.html is missing); reinstall the toolkit")
    return FileResponse(index)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def refused(request: Request, err: Exception) -> Response:
    """A refused input: 4xx with the toolkit's message (naming the parameter or file and the fix)."""
    return _error(err.status if isinstance(err, WebError) else 400, error_text(err))


async def too_deep(request: Request, err: Exception) -> Response:
    """Input nested too deeply for the parsers."""
    return _error(400, "the input is nested too deeply")


async def http_error(request: Request, err: HTTPException) -> Response:
    """No such route, or the wrong method: JSON like every other answer."""
    if err.status_code == 404:
        return _error(404, f"{request.url.path[:100]}: no such page or endpoint; the API is listed in docs/web.md")
    return _error(err.status_code, f"{request.method} {request.url.path[:100]}: {err.detail}")


async def server_error(request: Request, err: Exception) -> Response:
    """A bug: logged with its traceback on the server, answered without one."""
    log.error("internal error answering %s", request.url.path, exc_info=err)
    return _error(500, f"internal error answering {request.url.path[:100]} (a bug: the server log has the details)")


def create_app(book: SourceBook | None = None) -> Starlette:
    """The viewer's app over ``book`` (by default the bundled sources only)."""
    routes = [
        Route("/", page), Route("/los", page),
        Route("/api/sources", sources), Route("/api/source", source), Route("/api/open", open_file, methods=["POST"]),
        Route("/api/map.svg", map_picture), Route("/api/geometry", geometry), Route("/api/hex", hex_info),
        Route("/api/moves", moves), Route("/api/los", los), Route("/api/los.svg", los_svg),
        Route("/api/los.png", los_png),
        # = toolkit supply / command / check / victory --json; the zoc and reach layers
        *(Route(f"/api/{name}", position_answer(name, model, answer, *keys)) for name, model, answer, *keys in (
            ("supply", SupplyQuery, supply_answer, "side", "unit"), ("command", SourceQuery, command_answer),
            ("check", CheckQuery, check_answer, "turn_end"), ("victory", VictoryQuery, victory_answer, "road_cut_by"),
            ("zoc", SideQuery, zoc_answer, "side"), ("reach", SideQuery, reach_answer, "side"))),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False)),
    ]
    handlers: dict[Any, Callable] = {cls: refused for cls in (*REFUSALS, WebError)}
    handlers |= {RecursionError: too_deep, HTTPException: http_error, Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.book = book or SourceBook()
    return app
