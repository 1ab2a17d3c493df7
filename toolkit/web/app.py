"""The viewer's Starlette app: the page, its assets and the JSON API of ``docs/web.md``.

Each endpoint parses its query (:mod:`.queries`), finds the source by id (:mod:`.sources`) and returns what the
shared answer builders (:mod:`toolkit.answers`) give the command line for the same input.  Refused input is a 4xx
``{"error": ...}``; anything else (a bug) is logged and answered 500 ``{"error": ...}`` without a traceback.
"""
from __future__ import annotations

import gzip
import logging
import re
import threading
import time
from dataclasses import replace
from functools import wraps
from pathlib import Path
from typing import Any, Callable

import orjson
import yaml
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..answers import (REFUSALS, SightLine, check_answer, command_answer, error_text, hex_json, moves_json,
                       odds_answer, reach_answer, search_moves, supply_answer, victory_answer, zoc_answer)
from ..game import Position, modules_dir
from ..games import has_rules, rules_for
from ..games.plugin import is_own
from ..vassal.saves.positions import position_save
from .describe import source_json
from .pictures import excerpt_png, excerpt_svg, geometry_json, map_svg, with_board_image
from .queries import (BadQuery, CheckQuery, HexQuery, LosQuery, MovesQuery, NoQuery, OddsQuery,
                      SideQuery, SourceQuery, SupplyQuery, VictoryQuery, WebError, parse_query)
from .play import moves_among, phase_label, played_states
from .seats import (GameQuery, HistoryQuery, SeatedPlayQuery, SeatsQuery, events, listing, may_change, open_seats,
                    position_game, saved_json)
from .sources import MAX_UPLOAD_BYTES, Source, SourceBook, too_large

STATIC = Path(__file__).resolve().parent / "static"
MAX_PREPARED_UNITS = 200   # a position with more units of the phasing side gets no clicks answered ahead
GZIP_LEVEL = 1   # answers over a kilobyte are sent compressed, fast (j-ac-1's 177 KB of moves: 18 KB in 0.5 ms)
MAP_GZIP_LEVEL = 9   # the map picture, compressed once (the Jerusalem! SVG: 2.1 MB, about 95 KB)
log = logging.getLogger("toolkit.web")


class AnswerJSON(JSONResponse):
    """An answer as JSON, compact and in UTF-8 as Starlette's ``JSONResponse`` writes it, encoded by orjson
    (j-ac-1's 177 KB of moves in a quarter of a millisecond instead of three)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


def api(handler: Callable[[SourceBook, Request], Any]) -> Callable[[Request], Response]:
    """An endpoint from ``handler(book, request)``: run under the book's lock, a dict answered as JSON; the
    time taken (answer and encoding) in a ``Server-Timing`` header."""
    @wraps(handler)
    def endpoint(request: Request) -> Response:
        started = time.perf_counter()
        book: SourceBook = request.app.state.book
        with book.lock:
            out = handler(book, request)
        return timed(out if isinstance(out, Response) else AnswerJSON(out), started)
    return endpoint


def timed(response: Response, started: float) -> Response:
    """``response`` with the server's time since ``started`` (``time.perf_counter``) in a ``Server-Timing``
    header, as a browser's developer tools show it."""
    response.headers["Server-Timing"] = f"answer;dur={(time.perf_counter() - started) * 1e3:.2f}"
    return response


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
    answer = shown(book, src)
    prepare_clicks(book, src)
    return answer


def shown(book: SourceBook, src: Source, seat: str | None = None) -> dict:
    """The ``/api/source`` answer of ``src``, with ``saved``: its game in the store (:func:`.seats.saved_json`)."""
    return {**source_json(src), "saved": saved_json(book, src, seat)}


@api
def map_picture(book: SourceBook, request: Request) -> Response:
    """``GET /api/map.svg?source=ID``: the map alone, drawn and compressed once per map (over the published board
    image of a game imported from a VASSAL module; sent compressed to a browser that takes gzip, as every answer
    is)."""
    _, src = _source(book, request)
    cmap = src.map
    folder = Path(book.game) if book.game is not None else None
    svg = book.per_map(cmap, "map.svg", lambda: with_board_image(map_svg(cmap), cmap, folder))
    if "gzip" not in request.headers.get("accept-encoding", ""):
        return Response(svg, media_type="image/svg+xml")
    return Response(book.per_map(cmap, "map.svg.gz", lambda: gzip.compress(svg, MAP_GZIP_LEVEL)),
                    media_type="image/svg+xml", headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})


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


def moves(request: Request) -> Response:
    """``GET /api/moves`` = ``toolkit moves POSITION UNIT ... --json`` (``phase`` overrides the position's, and
    its phasing side too when the phase names a side: No Prisoners' ``west_cp_movement``): computed in a worker
    process (:mod:`.workers`: no lock held meanwhile, the answer's time limit) and kept per source and query."""
    started = time.perf_counter()
    book: SourceBook = request.app.state.book
    with book.lock:
        q, src = _source(book, request, MovesQuery)
        position = src.position
        if q.phase is not None:
            phases = position.game.spec.phases
            if q.phase not in phases:
                raise BadQuery(f"phase {q.phase[:80]!r} is not a phase of {position.game.spec.id}; give one of: "
                               f"{', '.join(phases)}")
            side = position.game.spec.phase_side(q.phase) or position.phasing_side
            position = replace(position, phase=q.phase, phasing_side=side)
        key = (src.id, "moves", q.model_dump_json())
        body = book.kept.find(key)
        warm_up(book, src)
    if body is None:
        body = book.workers.run(f"/api/moves of {src.id}", moves_body, position, f"source {src.id}", q)
        with book.lock:
            book.kept.put(key, body)
    return timed(Response(body, media_type="application/json"), started)


def moves_body(position: Position, label: str, q: MovesQuery) -> bytes:
    """The answer of ``/api/moves`` for ``q`` in ``position`` (its source named ``label`` in refusals), encoded."""
    ids = [q.unit, *q.with_units]
    result = search_moves(position, label, ids, q.pickup, q.terrorist, q.enter, q.kind)
    return AnswerJSON(moves_json(position, ids, result)).body


def prepare_clicks(book: SourceBook, src: Source) -> None:
    """Answer ahead, in worker processes (:mod:`.workers`), the clicks a player makes next on a position the page
    shows, and keep the answers: a click on each unit of the phasing side on the map (at most
    :data:`MAX_PREPARED_UNITS`), then each side's enemy-reach layer.  Best effort: what is asked meanwhile is
    answered as usual."""
    warm_up(book, src)
    if src.kind != "position" or src.id in book.prepared or not book.kept.limit:
        return
    book.prepared.add(src.id)
    position = src.position
    units = [u.id for u in position.units if u.side == position.phasing_side and u.hex is not None]
    if 0 < len(units) <= MAX_PREPARED_UNITS:
        threading.Thread(target=_prepare, args=(book, src, position, units), daemon=True,
                         name=f"prepare {src.id}").start()


def warm_up(book: SourceBook, src: Source) -> None:
    """Once per game and map, work out in the server process what the toolkit's own rules read from the map (a
    game's movement facts, hex names: a few hundred ms, that every worker forked without them would spend again):
    one unit's moves, searched in a thread of its own with no lock held.  A plugin's rules never run in the
    server (:func:`toolkit.games.plugin.is_own`)."""
    if src.kind != "position":
        return
    position = src.position
    key = (position.game.spec.id, position.game.map.id, position.game.map.source_hash)
    units = [u.id for u in position.units if u.side == position.phasing_side and u.hex is not None]
    if key in book.warmed or not units or not has_rules(position.game) \
            or not is_own(getattr(rules_for(position.game), "moves", None)):
        return
    book.warmed.add(key)
    threading.Thread(target=_warm, args=(position, units[0], src.id), daemon=True, name=f"warm {src.id}").start()


def _warm(position: Position, unit: str, source_id: str) -> None:
    try:
        search_moves(position, f"source {source_id}", [unit], (), False, None, None)
    except Exception as err:  # noqa: BLE001 -- only a warm-up: the unit's own click says what is wrong
        log.info("%s: no warm-up: %s", source_id, err)


def _prepare(book: SourceBook, src: Source, position: Position, units: list[str]) -> None:
    queries = [MovesQuery.model_validate({"source": src.id, "unit": uid}) for uid in units]
    try:
        answers = book.workers.run(f"the unit clicks of {src.id}", _click_answers, position, f"source {src.id}",
                                   queries)
        with book.lock:
            for dumped, body in answers.items():
                book.kept.put((src.id, "moves", dumped), body)
        for side in (s.id for s in position.game.spec.sides):
            reach = book.workers.run(f"/api/reach of {src.id}", reach_answer, position, side)
            with book.lock:
                src.remember(("reach", side), lambda: reach)
    except (WebError, RuntimeError) as err:
        log.info("%s: not answered ahead: %s", src.id, err)


def _click_answers(position: Position, label: str, queries: list[MovesQuery]) -> dict[str, bytes]:
    """Each query's encoded ``/api/moves`` answer by its parameters (in a worker)."""
    return {q.model_dump_json(): moves_body(position, label, q) for q in queries}


def play(request: Request) -> Response:
    """``GET /api/play?source=ID&step=S[&step=S2...][&seat=TOKEN]``: the position after the steps, written to the
    source's game in the store (a new game when the source is none's) as a new source; the steps are made in a
    worker process (no lock held meanwhile), each move within the answer's time limit.  A step the game already
    has next is not made again (a double click: the same position)."""
    started = time.perf_counter()
    book: SourceBook = request.app.state.book
    with book.lock:
        q, src = _source(book, request, SeatedPlayQuery)
        position = src.position
        row = position_game(book, src)
        may_change(book, row, q.seat, [position.phasing_side], f"{_when(position)} (step {len(src.steps) + 1})")
        made = book.replayed(src, q.step)
        if made is not None:
            return timed(AnswerJSON(shown(book, made, q.seat)), started)
    steps = book.workers.run(f"/api/play of {src.id}", played_states, position, q.step, len(src.steps),
                             answers=moves_among(q.step))

    def allowed(game, rows) -> None:
        for r in rows:
            may_change(book, game, q.seat, [r.side], f"step {r.n} ({r.step[:60]})")

    with book.lock:
        made = book.keep_played(src, position, steps, allowed)
        prepare_clicks(book, made)
        return timed(AnswerJSON(shown(book, made, q.seat)), started)


def _when(position: Position) -> str:
    """Where a position stands, as a refusal names it: "turn May IV, Overland Movement Phase"."""
    return f"turn {position.turn}, {phase_label(position.game.spec, position.phase)}"


@api
def games(book: SourceBook, request: Request) -> dict:
    """``GET /api/games``: the saved games (:func:`.seats.listing`)."""
    _query(NoQuery, request)
    return listing(book)


@api
def game(book: SourceBook, request: Request) -> dict:
    """``GET /api/game?game=ID[&seat=TOKEN]``: the game's current position (its ``/api/source`` answer)."""
    q = _query(GameQuery, request)
    row = book.game_row(q.game)
    src = book.game_position(row, row.at)
    prepare_clicks(book, src)
    return shown(book, src, q.seat)


@api
def history(book: SourceBook, request: Request) -> dict:
    """``POST /api/history?game=ID&at=N[&seat=TOKEN]``: undo or redo: the game's current position is step ``N``
    now (between 0 and its last step, the redo branch included) -> that position's ``/api/source`` answer."""
    q = _query(HistoryQuery, request)
    row = book.game_row(q.game)
    if q.at > row.length:
        raise BadQuery(f"at {q.at}: game {row.id} has {row.length} steps; give 0 to {row.length}")
    steps = book.store.steps(row.id)
    low, high = sorted((q.at, row.at))
    may_change(book, row, q.seat, {s.side for s in steps[low:high]},
               f"{'undoing' if q.at < row.at else 'redoing'} steps {low + 1}-{high}")
    book.store.set_at(row.id, q.at)
    src = book.game_position(row, q.at, steps)
    prepare_clicks(book, src)
    return shown(book, src, q.seat)


@api
def seats(book: SourceBook, request: Request) -> dict:
    """``POST /api/seats?source=ID[&seat=TOKEN]``: the position's game opened for two players
    (:func:`.seats.open_seats`)."""
    q, src = _source(book, request, SeatsQuery)
    return open_seats(book, src, q.seat)


async def game_events(request: Request) -> Response:
    """``GET /api/events?game=ID``: the game's changes as server-sent events (:func:`.seats.events`)."""
    book: SourceBook = request.app.state.book
    q = _query(GameQuery, request)
    await run_in_threadpool(book.game_row, q.game)   # no such game: 404 at once
    return StreamingResponse(events(book, q.game, request.is_disconnected), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@api
def position_yaml(book: SourceBook, request: Request) -> Response:
    """``GET /api/position.yaml?source=ID``: the position as a position file."""
    _, src = _source(book, request)
    text = yaml.safe_dump(src.position.to_file().model_dump(exclude_defaults=True), sort_keys=False,
                          allow_unicode=True)
    return _download(text.encode("utf-8"), "application/yaml", src, "yaml")


@api
def position_vsav(book: SourceBook, request: Request) -> Response:
    """``GET /api/position.vsav?source=ID``: the position as a VASSAL save for the game's module (= ``toolkit
    vsav write``); what it leaves out is named in header ``X-Omitted``."""
    _, src = _source(book, request)
    data, omitted = position_save(src.position)
    response = _download(data, "application/zip", src, "vsav")
    if omitted:
        response.headers["X-Omitted"] = ",".join(omitted)[:2000]
    return response


def _download(data: bytes, media_type: str, src: Source, ext: str) -> Response:
    """A file to save: named after the source (its last steps counted), ``attachment``."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", src.title).strip("-")[:60] or "position"
    name = f"{stem}-{len(src.steps)}-steps.{ext}" if src.steps else f"{stem}.{ext}"
    return Response(data, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@api
def odds(book: SourceBook, request: Request) -> dict:
    """``GET /api/odds?source=ID&attack=U&defend=V[&target=HEX][&kind=K]`` = ``toolkit odds POSITION --attack ...
    --defend ... [--target HEX] --json``: ``target`` names the attacked hex, so that a Siege of Jerusalem Breach
    attack on a wall hex no unit defends needs no defender (10.1); a game whose combat takes no hex refuses it
    (:func:`~toolkit.answers.odds_answer`)."""
    q, src = _source(book, request, OddsQuery)
    if not q.defend and q.target is None:
        raise BadQuery("missing parameter 'defend'; give the defending unit ids (or, for an attack on a hex no unit "
                       "defends, a Siege of Jerusalem Breach, target=HEX: 10.1)")
    return odds_answer(src.position, f"source {src.id}", q.attack, q.defend, q.kind or "attack", target=q.target)


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
    """``GET /api/los.png``: the line drawn on the map's excerpt around it, as a PNG."""
    sight = _sight_line(book, request)
    return Response(excerpt_png(sight.cmap, [sight.overlay()], _ends(sight)), media_type="image/png",
                    headers={"Content-Disposition": 'inline; filename="los.png"'})


@api
def ruling_svg(book: SourceBook, request: Request) -> Response:
    """``GET /api/ruling.svg?…`` (the ``/api/los`` query): one SVG file that stands alone, to post or keep: the
    map's excerpt around the line, the verdict, its rule and what it was asked of."""
    q = _query(LosQuery, request)
    sight = _sight_line(book, request)
    src = book.get(q.source) if q.source else book.map_source(q.map)
    return Response(excerpt_svg(sight.cmap, [sight.overlay()], _ends(sight), _ruling_lines(sight, src)),
                    media_type="image/svg+xml", headers={"Content-Disposition": 'attachment; filename="ruling.svg"'})


def _ends(sight: SightLine) -> list[tuple[float, float]]:
    layout = sight.cmap.grid.layout
    return [layout.centre(sight.a), layout.centre(sight.b)]


def _ruling_lines(sight: SightLine, src: Source) -> list[str]:
    """The verdict in words, as the page's panel writes it (the rule with its topic), and what it was asked of."""
    a = sight.json()
    place = {h: sight.cmap.hexes[sight.cmap.resolve(h)].place for h in (a["from"], a["to"])}
    ends = [f"{h} ({place[h]})" if place[h] else h for h in (a["from"], a["to"])]
    topic = src.position.game.rule_topics.get(a["rule"]) if src.kind == "position" else None
    lines = [f"Line of sight {ends[0]} → {ends[1]}: {'VISIBLE' if a['visible'] else 'BLOCKED'}",
             f"rule {a['rule']}" + (f" — {topic}" if topic else "")
             + (f", {a['convention']} convention" if a.get("convention") else "")
             + f", range {a['range']}"]
    if a.get("blocked_by"):
        lines.append(f"blocked by {', '.join(a['blocked_by'])}")
    if src.kind == "position":
        position = src.position
        lines += [f"{src.title}: turn {position.turn}, {phase_label(position.game.spec, position.phase)}"
                  + (f", after {len(src.steps)} steps" if src.steps else ""),
                  "the game's own rule, with the units in the position"]
    else:
        lines.append(f"map {sight.cmap.id}: the map's obstacles")
    if a.get("note"):
        lines.append(a["note"][:160])
    return lines + ["drawn by toolkit serve (the toolkit's LOS engine)"]


def position_answer(name: str, model: type[SourceQuery], answer: Callable[..., dict], *keys: str):
    """The endpoint ``GET /api/<name>``: ``answer(position, *parameters)``, the parameters ``keys`` of ``model``,
    computed in a worker process (:mod:`.workers`, no lock held meanwhile) and kept per source and parameters
    (the position never changes)."""
    def endpoint(request: Request) -> Response:
        started = time.perf_counter()
        book: SourceBook = request.app.state.book
        with book.lock:
            q, src = _source(book, request, model)
            position = src.position
        args = tuple(getattr(q, key) for key in keys)
        return timed(AnswerJSON(src.remember((name, *args), lambda: book.workers.run(
            f"/api/{name} of {src.id}", answer, position, *args))), started)
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
    return AnswerJSON(await run_in_threadpool(_opened, book, bytes(body), request.headers.get("x-filename")))


def _opened(book: SourceBook, raw: bytes, filename: str | None) -> dict:
    src: Source = book.upload(raw, filename)   # read without the lock: other requests go on meanwhile
    with book.lock:
        prepare_clicks(book, src)
        return source_json(src)


async def page(request: Request) -> Response:
    """``GET /`` and the permalink ``GET /los?...``: the page (its script reads the query)."""
    index = STATIC / "index.html"
    if not index.is_file():
        raise WebError("the page is not installed (toolkit/web/static/index.html is missing); reinstall the toolkit")
    return FileResponse(index)


def _error(status: int, message: str, request: Request, extra: dict | None = None) -> JSONResponse:
    """The error answer: ``{"error": message}`` (and the ``extra`` keys of a refusal), no folder of the server named
    by its absolute path in it (:func:`private`)."""
    book = getattr(request.app.state, "book", None)
    return AnswerJSON({"error": private(message, server_folders(book)), **(extra or {})}, status_code=status)


def server_folders(book: SourceBook | None) -> list[Path]:
    """The folders whose files an error may name: the game folder ``toolkit serve`` was given (as given, absolute
    and resolved) and the bundled games' folder, the longest first."""
    given = [Path(book.game)] if book is not None and book.game is not None else []
    folders = {f for g in given for f in (g.absolute(), g.resolve())} | {modules_dir().resolve(), modules_dir()}
    return sorted(folders, key=lambda f: len(str(f)), reverse=True)


def private(message: str, folders: list[Path]) -> str:
    """``message`` as the browser may see it: a file under one of ``folders`` named relative to that folder
    (``scenarios/scenario-1.yaml``), the folder itself by its name (``my-game``); the server's absolute paths are
    not the page's business (issue 33)."""
    for folder in folders:
        message = re.sub(re.escape(str(folder)) + r"(?:/|(?![\w.-]))",
                         lambda m: "" if m.group().endswith("/") else folder.name, message)
    return message


async def refused(request: Request, err: Exception) -> Response:
    """A refused input: 4xx with the toolkit's message (naming the parameter or file and the fix)."""
    if isinstance(err, WebError):
        return _error(err.status, error_text(err), request, err.extra)
    return _error(400, error_text(err), request)


async def too_deep(request: Request, err: Exception) -> Response:
    """Input nested too deeply for the parsers."""
    return _error(400, "the input is nested too deeply", request)


async def http_error(request: Request, err: HTTPException) -> Response:
    """No such route, or the wrong method: JSON like every other answer."""
    if err.status_code == 404:
        return _error(404, f"{request.url.path[:100]}: no such page or endpoint; the API is listed in docs/web.md",
                      request)
    return _error(err.status_code, f"{request.method} {request.url.path[:100]}: {err.detail}", request)


async def server_error(request: Request, err: Exception) -> Response:
    """A bug: logged with its traceback on the server, answered without one."""
    log.error("internal error answering %s", request.url.path, exc_info=err)
    return _error(500, f"internal error answering {request.url.path[:100]} (a bug: the server log has the details)",
                  request)


class Compressed(GZipMiddleware):
    """Answers over a kilobyte compressed, but the event stream (``/api/events``) passed on as it is written
    (a Starlette that buffers it to compress it would hold each event back)."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/events":
            await self.app(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


def create_app(book: SourceBook | None = None) -> Starlette:
    """The viewer's app over ``book`` (by default the bundled sources only)."""
    routes = [
        Route("/", page), Route("/los", page),
        Route("/api/sources", sources), Route("/api/source", source), Route("/api/open", open_file, methods=["POST"]),
        Route("/api/map.svg", map_picture), Route("/api/geometry", geometry), Route("/api/hex", hex_info),
        Route("/api/moves", moves), Route("/api/odds", odds), Route("/api/play", play),
        Route("/api/games", games), Route("/api/game", game), Route("/api/history", history, methods=["POST"]),
        Route("/api/seats", seats, methods=["POST"]), Route("/api/events", game_events),
        Route("/api/position.yaml", position_yaml),
        Route("/api/position.vsav", position_vsav), Route("/api/los", los), Route("/api/los.svg", los_svg),
        Route("/api/los.png", los_png), Route("/api/ruling.svg", ruling_svg),
        # = toolkit supply / command / check / victory --json; the zoc and reach layers
        *(Route(f"/api/{name}", position_answer(name, model, answer, *keys)) for name, model, answer, *keys in (
            ("supply", SupplyQuery, supply_answer, "side", "unit"), ("command", SourceQuery, command_answer),
            ("check", CheckQuery, check_answer, "turn_end"), ("victory", VictoryQuery, victory_answer, "road_cut_by"),
            ("zoc", SideQuery, zoc_answer, "side"), ("reach", SideQuery, reach_answer, "side"))),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False)),
    ]
    handlers: dict[Any, Callable] = {cls: refused for cls in (*REFUSALS, WebError)}
    handlers |= {RecursionError: too_deep, HTTPException: http_error, Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers,
                    middleware=[Middleware(Compressed, minimum_size=1024, compresslevel=GZIP_LEVEL)])
    app.state.book = book or SourceBook()
    return app
