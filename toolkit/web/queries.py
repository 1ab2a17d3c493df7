"""The query parameters of each API endpoint (``docs/web.md``), validated by pydantic.

A bad query raises :class:`BadQuery` naming the parameter and the fix; no parameter is ever a file path (sources
and maps are looked up by id in :class:`~toolkit.web.sources.SourceBook`).
"""
from __future__ import annotations

from typing import Literal, Optional, TypeVar, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..los import Convention

MAX_TEXT = 200     # characters of one parameter (a hex, place, unit or source id)
MAX_UNITS = 50     # units named in one moves query (``with``, ``pickup``)


class WebError(ValueError):
    """A refused request: its HTTP status and a message naming the parameter (or file) and the fix; ``extra``, keys
    the answer carries beside ``error`` (a choice the player must make)."""

    status = 400
    extra: dict | None = None


class BadQuery(WebError):
    """A query parameter missing, unknown, repeated or of the wrong form."""


class NotFound(WebError):
    """A source, map or page that does not exist."""

    status = 404


class TooLarge(WebError):
    """An upload over the size limit."""

    status = 413


class Query(BaseModel):
    """A query: unknown parameters are refused, list parameters may repeat, the others may not."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class NoQuery(Query):
    """An endpoint that takes no parameters."""


class SourceQuery(Query):
    """``source=ID``: the endpoints about one source."""

    source: str = Field(min_length=1, max_length=MAX_TEXT, description="a source id from /api/sources")


class HexQuery(SourceQuery):
    """``/api/hex``."""

    hex: str = Field(min_length=1, max_length=MAX_TEXT, description="a hex name (0507) or a place name")


class MovesQuery(SourceQuery):
    """``/api/moves``: the CLI's ``moves`` options, and ``phase`` overriding the position's."""

    unit: str = Field(min_length=1, max_length=MAX_TEXT, description="a unit id from /api/source")
    with_units: list[str] = Field([], alias="with", max_length=MAX_UNITS, description="more unit ids moving along")
    pickup: list[str] = Field([], max_length=MAX_UNITS, description="unit ids a transport picks up first")
    terrorist: bool = Field(False, description="1 for a terrorist move (Jerusalem! 13.2)")
    enter: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="the map-edge hex entered at")
    kind: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="a kind of movement "
                                                                                    "(move_options.kinds)")
    phase: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="a phase of the game "
                                                                                      "(phases in /api/source)")


class PlayQuery(SourceQuery):
    """``/api/play``: steps made on a source's position."""

    step: list[str] = Field(min_length=1, max_length=MAX_UNITS, description="steps of play: move:UNIT>HEX, "
                                                                             "phase:PHASE or place:UNIT>HEX")


class OddsQuery(SourceQuery):
    """``/api/odds``: ``toolkit odds``'s units, attacked hex and kind of combat."""

    attack: list[str] = Field(min_length=1, max_length=MAX_UNITS, description="the attacking (firing) unit ids")
    defend: list[str] = Field([], max_length=MAX_UNITS, description="the defending unit ids")
    target: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="the attacked hex (toolkit "
                                  "odds --target: a Siege of Jerusalem Breach attack on a hex no unit defends, 10.1)")
    kind: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="the kind of combat "
                                                                                    "(toolkit odds --kind)")


class LosQuery(Query):
    """``/api/los`` (and ``.svg``, ``.png``): ``map=`` and the map's obstacles, or ``source=`` and the game's rule."""

    map: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="a map id (/api/sources)")
    source: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="a source id")
    from_hex: str = Field(alias="from", min_length=1, max_length=MAX_TEXT, description="the viewer's hex or place")
    to: str = Field(min_length=1, max_length=MAX_TEXT, description="the target's hex or place")
    convention: Optional[Convention] = Field(None, description="touch, cross or both-sides (with map= only)")


class SupplyQuery(SourceQuery):
    """``/api/supply``."""

    side: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="a side of the game")
    unit: Optional[str] = Field(None, min_length=1, max_length=MAX_TEXT, description="a unit id")


class SideQuery(SourceQuery):
    """``/api/zoc`` and ``/api/reach``."""

    side: str = Field(min_length=1, max_length=MAX_TEXT, description="a side of the game (sides in /api/source)")


class CheckQuery(SourceQuery):
    """``/api/check``."""

    turn_end: bool = Field(False, description="1 to judge the position as the end of the player turn")


class VictoryQuery(SourceQuery):
    """``/api/victory``."""

    road_cut_by: Optional[Literal["zoc", "zoc-or-unit"]] = Field(None, description="zoc or zoc-or-unit "
                                                                                   "(Jerusalem! 2.0)")


Q = TypeVar("Q", bound=Query)


def parse_query(model: type[Q], items: list[tuple[str, str]]) -> Q:
    """The query ``items`` (key, value pairs as sent) as ``model``; :class:`BadQuery` names what is wrong."""
    lists = {f.alias or name for name, f in model.model_fields.items() if get_origin(f.annotation) is list}
    data: dict[str, object] = {}
    for key, value in items:
        if key in lists:
            data.setdefault(key, []).append(value)
        elif key in data:
            raise BadQuery(f"parameter {_shown(key)} is given more than once; give it once")
        else:
            data[key] = value
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise BadQuery(_problem(model, err.errors()[0])) from None


def _shown(text: str) -> str:
    """A parameter name or value as quoted in an error (shortened, control characters escaped by repr)."""
    return repr(text if len(text) <= 60 else text[:60] + "…")


def _problem(model: type[Query], error: dict) -> str:
    """One sentence: the parameter, what is wrong, and what to give."""
    key = str(error["loc"][0]) if error["loc"] else ""
    fields = {f.alias or name: f for name, f in model.model_fields.items()}
    if error["type"] == "extra_forbidden":
        return f"unknown parameter {_shown(key)}; this endpoint takes: {', '.join(fields)}"
    what = fields[key].description if key in fields else None
    hint = f"; give {what}" if what else ""
    if error["type"] == "missing":
        return f"missing parameter {_shown(key)}{hint}"
    value = error.get("input")
    shown = _shown(value) if isinstance(value, str) else repr(value)[:60]
    return f"parameter {_shown(key)}: {error['msg'][0].lower()}{error['msg'][1:]} (got {shown}){hint}"
