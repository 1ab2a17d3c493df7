"""Saved games at the table (docs/web.md "Saved games" and "Two players"): who may change a game, what the page is
told of it, and its live steps (server-sent events).

A game has one secret token per side.  Opened for two players (``POST /api/seats``), each player plays from a
link carrying their side's token: a seat moves only its side, only while its side is the phasing side (its
steps, undone or redone too), and is refused otherwise with the reason.  A game not opened for two is played
without a token from this machine; a server that serves other machines (``--host`` other than 127.0.0.1) needs
a seat's token for every change.  Everyone who has a game's id may watch it: each change is sent to the pages
that show it (``GET /api/events``, ``text/event-stream``).
"""
from __future__ import annotations

import asyncio
import hmac
from typing import Any, AsyncIterator, Iterable, Optional

import orjson
from pydantic import Field

from .play import MAX_STEPS
from .queries import MAX_TEXT, PlayQuery, Query, SourceQuery, WebError
from .sources import Source, SourceBook, played_id
from .store import GameRow

EVENT_POLL_SECONDS = 0.25   # how often a page's event stream looks whether its game changed (any server process)
KEEP_ALIVE_SECONDS = 15     # a comment line this often keeps an idle stream open through proxies


class Forbidden(WebError):
    """A change the seat (or its absence) does not allow."""

    status = 403


def _seat_field():
    return Field(None, min_length=1, max_length=MAX_TEXT, description="a seat's token (its player's link)")


class SeatedPlayQuery(PlayQuery):
    """``/api/play``: the steps, and the seat making them."""

    seat: Optional[str] = _seat_field()


class GameQuery(Query):
    """``/api/game`` and ``/api/events``: a saved game, and the seat asking."""

    game: str = Field(min_length=1, max_length=MAX_TEXT, description="a game id from /api/games")
    seat: Optional[str] = _seat_field()


class HistoryQuery(GameQuery):
    """``POST /api/history``: the step the game goes back or forward to (undo, redo)."""

    at: int = Field(ge=0, le=MAX_STEPS, description="the step (0: the game's first position)")


class SeatsQuery(SourceQuery):
    """``POST /api/seats``: the position whose game is opened for two players."""

    seat: Optional[str] = _seat_field()


def seat_of(row: GameRow, token: str | None) -> str | None:
    """The side whose seat ``token`` is, or None."""
    if token is None:
        return None
    return next((side for side, t in row.seats.items() if hmac.compare_digest(t, token)), None)


def may_change(book: SourceBook, row: GameRow | None, token: str | None, sides: Iterable[str], what: str) -> None:
    """Refuse (:class:`Forbidden`) a change to game ``row`` (None: a game about to start) made by the holder of
    ``token`` that touches steps of ``sides`` (``what`` says which, for the message)."""
    side = None if row is None else seat_of(row, token)
    if token is not None and side is None:
        raise Forbidden(f"seat token {token[:4]}…: not a seat of {'this game' if row is None else f'game {row.id}'}; "
                        "open the link its player was given")
    if side is None:
        if row is not None and row.seated:
            raise Forbidden(f"game {row.id} is played from two seats: play from your side's link (it carries "
                            "seat=…); without it the page only watches")
        if book.seats_only:
            raise Forbidden("this server serves other machines (--host): a game is played from its seats' links; "
                            "open the position for two players (Two players) and play from your side's link")
        return
    others = sorted(set(sides) - {side})
    if others:
        raise Forbidden(f"seat {side}: {what} is the {others[0]} side's; a seat moves only its own side, in its "
                        f"side's phases: wait for the {others[0]} player (their steps show here as they come)")


def position_game(book: SourceBook, source: Source) -> GameRow | None:
    """The saved game ``source`` is a position of, or None."""
    return None if source.table is None else book.game_row(source.table[0])


def saved_json(book: SourceBook, source: Source, token: str | None = None) -> dict[str, Any] | None:
    """``{"id", "title", "at", "cursor", "positions", "sides", "seated", "seat", "created", "last_played",
    "version"}`` of the game ``source`` is a position of (None when it is none's): ``at`` its step,
    ``cursor`` the game's current step, ``positions`` the source id of each step (0: the first position; the redo
    branch included), ``seat`` the side of ``token``."""
    if source.table is None:
        return None
    row = book.game_row(source.table[0])
    steps = book.store.steps(row.id)
    return {"id": row.id, "title": row.title, "at": source.table[1], "cursor": row.at,
            "positions": [f"play:{row.id}/0", *(played_id(row.id, s) for s in steps)], "sides": list(row.seats),
            "seated": row.seated, "seat": seat_of(row, token), "created": row.created, "last_played": row.played,
            "version": row.version}


def open_seats(book: SourceBook, source: Source, token: str | None) -> dict[str, Any]:
    """The game of ``source`` (a new one from it when it is none's) opened for two players: ``{"game", "seats":
    {side: {"token", "link"}}}``.  Who holds a seat of it may ask again; on a server for other machines nobody
    else may."""
    row = position_game(book, source)
    if row is not None and book.seats_only and seat_of(row, token) is None:
        raise Forbidden(f"game {row.id}: only its players (their links, seat=…) may see its seats on a server "
                        "for other machines")
    if row is None:
        row, _ = book.start_game(source)
    book.store.set_seated(row.id)
    return {"game": row.id, "seats": {side: {"token": t, "link": f"/?game={row.id}&seat={t}"}
                                      for side, t in row.seats.items()}}


def listing(book: SourceBook) -> dict[str, Any]:
    """``{"games": [...]}``: the saved games, the last played first (not on a server for other machines: a
    game's id lets whoever has it watch)."""
    if book.seats_only:
        raise Forbidden("the saved games are listed only by a server for this machine alone (no --host); open a "
                        "game from its link")
    return {"games": [row.entry() for row in book.store.games()]}


async def events(book: SourceBook, gid: str, disconnected) -> AsyncIterator[bytes]:
    """The event stream of game ``gid``: an event ``game`` (``{"id", "version", "at", "position"}``: its step and
    the source id there) at once and after each change, whichever server process made it (the store's
    ``version`` polled every :data:`EVENT_POLL_SECONDS`); ends when the page goes or the server stops."""
    seen, quiet = None, 0.0
    while not book.workers.stopped and not await disconnected():
        version = await asyncio.to_thread(book.store.version, gid)
        if version != seen:
            seen, quiet = version, 0.0
            yield b"event: game\ndata: " + orjson.dumps(await asyncio.to_thread(_cursor, book, gid)) + b"\n\n"
        elif quiet >= KEEP_ALIVE_SECONDS:
            quiet = 0.0
            yield b": still here\n\n"
        await asyncio.sleep(EVENT_POLL_SECONDS)
        quiet += EVENT_POLL_SECONDS


def _cursor(book: SourceBook, gid: str) -> dict[str, Any]:
    row = book.game_row(gid)
    steps = book.store.steps(gid, row.at)
    return {"id": gid, "version": row.version, "at": row.at,
            "position": played_id(gid, steps[-1]) if steps else f"play:{gid}/0"}
