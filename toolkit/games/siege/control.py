"""*The Siege of Jerusalem* control of the city and the end of an Assault Period (18.1, 18.11, 18.3-18.36, 19.7).

* :func:`area_control` -- who would hold each of the ten city areas if the Jewish Melee Phase ended in this
  position: the Romans take an area with ten Fresh Heavy Infantry off its Elevated Hexes and 15 non-Building
  Built-up hexes (18.31: Tyropoeon City, New City, City of David, Upper and Lower Cities) or four Building
  hexes (18.32: Herod's Palace, Temple District), or by occupying every Fortress of it at once (18.33: the
  Fortress Triangle, Jaffa Gate, the Antonia); a conceded area is theirs (18.11); the Jews win an area back
  by meeting the same needs with their Light Infantry, razed Built-up hexes counting (18.36).
* :func:`elevated_control` -- the Elevated Hexes each side holds between Assault Periods: a Wall hex is
  Roman when every city area beside it (and its own area) is Roman (18.35), a Fortress with a Jewish unit in
  it stays Jewish (18.34).
* :func:`assault_period` -- 18.1: the turn of the Assault Period, whether it is a night turn, whether it
  must end, and whether the Roman may end it alone (the turn he first controls a city area, or a
  concession, 18.11).
* :func:`period_end` -- 18.1: whether the Assault Period ends after the position's phase, and why.
* :func:`breach_sites` -- 19.7: the Elevated Hexes of Roman Walls in which the Roman may open a Breach
  between Assault Periods (none within two hexes of a Jewish-held Elevated Hex).
* :func:`control` -- the three at once (``toolkit control POSITION``), :func:`control_json` its JSON.

The needs are data (``tables.yaml`` ``control``).  Hex control is the last occupant (18.3): the unit in the
hex, else the position parameters ``roman_hexes`` / ``jewish_hexes``, else the area's holder
(:meth:`.zoc.Board.controller`).  The areas held before are the parameter ``roman_areas``; areas the Jews
conceded, ``conceded_areas``.

Readings (ours): HQ are not counted among the ten Heavy Infantry (2.4 makes them Infantry for movement and
combat only); the Temple's main Building counts as a Building (2.13, 10.3); a Wall hex with no city area
beside it takes the areas beside the Elevated Hexes connected to it (7.12); a Bridge is not part of a Wall,
so no Breach is cleared in one (19.7).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...game import Position
from ...hexgrid import Hex
from .movement import facts_for
from .tables import ControlTable, load_tables
from .zoc import ELEVATED, FORTRESS, JEWISH, ROMAN, Board, fresh, param_names, unit_class

FOOT = {ROMAN: ("heavy_infantry",), JEWISH: ("light_infantry",)}     # 18.31, 18.36: who counts for each side


@dataclass(frozen=True)
class Claim:
    """What one side has of an area's needs, and what it lacks (empty when the needs are met)."""

    side: str
    rule: str
    units: tuple[str, ...]
    hexes: tuple[Hex, ...]
    lacking: tuple[str, ...]

    @property
    def met(self) -> bool:
        """Whether the side meets every need of the area."""
        return not self.lacking


@dataclass(frozen=True)
class AreaControl:
    """One city area: who held it, who holds it now, by which rule, and each side's claim."""

    area: str
    held_by: str          # before this Jewish Melee Phase (``roman_areas``)
    holder: str           # if the Jewish Melee Phase ended now
    rule: str
    roman: Claim
    jewish: Claim
    conceded: bool = False


def _board(position: Position) -> tuple[Board, ControlTable]:
    tables = load_tables(position.game.folder)
    return Board.of(position, facts_for(position, tables)), tables.control


def _is_building(board: Board, h: Hex) -> bool:
    return board.facts.base[h] in ("building", "temple")                      # 2.13, 10.3


def _claim(board: Board, need: ControlTable, area: str, hexes: list[Hex], side: str) -> Claim:
    """What ``side`` has towards holding ``area`` (18.31-18.33, 18.36)."""
    if area in need.fortress_areas:                                             # 18.33
        forts = [h for h in hexes if board.facts.base[h] in FORTRESS]
        held = [h for h in forts if any(u.side == side for u in board.position.at(h))]
        missing = [board.facts.name(h) for h in forts if h not in held]
        lacking = (f"every Fortress of the area occupied (missing {', '.join(missing)})",) if missing else ()
        units = tuple(u.id for h in held for u in board.position.at(h) if u.side == side)
        return Claim(side, "18.33", units, tuple(held), lacking)
    building = area in need.building_areas
    rule = "18.32" if building else "18.31"
    foot = [u for h in hexes if not board.elevated(h) for u in board.position.at(h)
            if u.side == side and fresh(u) and unit_class(u) in FOOT[side]]
    if building:
        counted = [h for h in hexes if _is_building(board, h)]
    else:   # the Jews may count razed (cleared) Built-up hexes (18.36, 18.37)
        counted = [h for h in hexes if board.facts.base[h] == "built_up" and (side == JEWISH or board.built_up(h))]
    held = [h for h in counted if board.controller(h) == side]
    want = need.building_hexes if building else need.built_up_hexes
    kind = "Building" if building else "non-Building Built-up"
    lacking = []
    if len(foot) < need.heavy_infantry:
        who = "Heavy" if side == ROMAN else "Light"
        lacking.append(f"{need.heavy_infantry} Fresh {who} Infantry off its Elevated Hexes (has {len(foot)})")
    if len(held) < want:
        lacking.append(f"control of {want} {kind} hexes (has {len(held)})")
    return Claim(side, "18.36" if side == JEWISH else rule, tuple(u.id for u in foot), tuple(held), tuple(lacking))


def area_hexes(board: Board) -> dict[str, list[Hex]]:
    """The hexes of each of the ten city areas (18.3), by the map's regions."""
    out: dict[str, list[Hex]] = {a: [] for a in board.position.game.spec.place_lists.get("city_areas", [])}
    for h, region in board.facts.region.items():
        if region in out:
            out[region].append(h)
    return out


def area_control(position: Position) -> list[AreaControl]:
    """Who would hold each city area if the Jewish Melee Phase ended in ``position`` (18.11, 18.31-18.36)."""
    return _area_control(*_board(position))


def _area_control(board: Board, need: ControlTable) -> list[AreaControl]:
    position = board.position
    conceded = param_names(position, "conceded_areas")
    out = []
    for area, hexes in area_hexes(board).items():
        before = ROMAN if area in board.roman_areas else JEWISH
        roman, jewish = (_claim(board, need, area, hexes, s) for s in (ROMAN, JEWISH))
        romans_inside = any(u.side == ROMAN for h in hexes for u in position.at(h))
        if area in conceded:   # theirs; the Jews may not win it back while a Roman unit remains in it (18.11)
            holder, rule = (JEWISH, "18.36") if jewish.met and not roman.met and not romans_inside else (ROMAN, "18.11")
        elif before == ROMAN:
            holder, rule = (JEWISH, "18.36") if jewish.met and not roman.met else (ROMAN, roman.rule)
        else:
            holder, rule = (ROMAN, roman.rule) if roman.met else (JEWISH, roman.rule)
        out.append(AreaControl(area, before, holder, rule, roman, jewish, area in conceded))
    return out


def elevated_control(position: Position, roman_areas: frozenset[str] | None = None) -> dict[Hex, str]:
    """The side holding each Elevated Hex between Assault Periods (18.34, 18.35), given the Roman areas
    (default: the position's ``roman_areas``)."""
    board, _ = _board(position)
    return _elevated_control(board, board.roman_areas if roman_areas is None else roman_areas)


def wall_side(board: Board, h: Hex, areas: frozenset[str]) -> str:
    """18.35: the side holding the Wall section of the Elevated Hex ``h`` -- the Romans when every city area beside
    it (and its own) is in ``areas``, else the Jews (18.34's Fortresses left out)."""
    f = board.facts

    def beside(x: Hex) -> set[str]:
        return ({f.region[x]} | {f.region[n] for n in f.neighbors[x]}) - {None}

    near = beside(h) or set().union(*(beside(n) for n in f.neighbors[h] if f.connected(h, n)))
    return ROMAN if near and near <= areas else JEWISH


def _elevated_control(board: Board, areas: frozenset[str]) -> dict[Hex, str]:
    out = {}
    for h, base in board.facts.base.items():
        if base not in ELEVATED:
            continue
        side = wall_side(board, h, areas)                                                # 18.35
        if base in FORTRESS and any(u.side == JEWISH for u in board.position.at(h)):
            side = JEWISH                                                                 # 18.34
        out[h] = side
    return out


def assault_period(position: Position, control: list[AreaControl] | None = None) -> dict[str, Any]:
    """18.1, 18.11: where the position's turn stands in its Assault Period and who may end it.

    ``turn`` is the game turn ``"AP II/7"``; ``control`` defaults to :func:`area_control` of the position.
    """
    need = load_tables(position.game.folder).control
    period, _, number = str(position.turn).rpartition("/")
    if not number.isdigit():
        raise ValueError(f"turn {position.turn!r} is not an Assault Period turn such as 'AP I/3' (18.1)")
    n = int(number)
    control = area_control(position) if control is None else control
    gained = [a.area for a in control if a.held_by == JEWISH and a.holder == ROMAN and not a.conceded]
    conceded = [a.area for a in control if a.conceded and a.held_by == JEWISH]
    jewish_melee = position.phase == "melee" and position.phasing_side == JEWISH
    reasons = []
    if gained:
        reasons.append(f"the Romans first control {', '.join(gained)} this turn (18.1)")
    if conceded:
        reasons.append(f"the Jews conceded {', '.join(conceded)} (18.11)")
    return {
        "rule": "18.1", "period": period.removeprefix("AP ").strip(), "turn": n,
        "night": n > need.daylight_turns, "daylight_turns": need.daylight_turns, "last_turn": need.last_turn,
        "at_jewish_melee": jewish_melee,
        "must_end": n >= need.last_turn,
        "may_extend": n == need.daylight_turns,
        "may_end_by_agreement": True,
        "roman_may_end": bool(reasons),
        "roman_may_end_because": reasons,
        "judged": ("at the end of this Jewish Melee Phase" if jewish_melee else
                   f"as if the Jewish Melee Phase ended now (the position is in the {position.phasing_side} "
                   f"{position.phase} phase)"),
    }


def period_end(position: Position) -> str | None:
    """18.1: for a position at the end of its phase, whether its Assault Period ends after that phase, and why
    (None: it goes on).  Only after a Jewish Melee Phase: at the end of turn 10 whatever the players wish; at the end
    of its last daylight turn (7) unless the Roman extended it (parameter ``extended_to``: the last turn, 8-10); when
    both players agree (parameter ``period_end: agreed``); when the Roman ends it alone (``period_end: roman``),
    which he may the turn he first controls a city area or on a concession (18.1, 18.11)."""
    if position.phase != "melee" or position.phasing_side != JEWISH:
        return None
    need = load_tables(position.game.folder).control
    ap = assault_period(position, control=[])
    n, asked = ap["turn"], str(position.params.get("period_end") or "")
    extended = int(position.params.get("extended_to") or need.daylight_turns)
    if n >= need.last_turn:
        return f"18.1: the Assault Period ends after the Jewish Melee Phase of turn {need.last_turn}, whatever the players wish"
    if n >= extended:
        return (f"18.1: the Assault Period ends after the Jewish Melee Phase of turn {n}, its last "
                + ("daylight turn (the Roman did not extend it: parameter extended_to)" if n == need.daylight_turns
                   else "turn as the Roman extended it (parameter extended_to)"))
    if asked == "agreed":
        return "18.1: the Assault Period ends: both players agreed to end it after this Jewish Melee Phase"
    if asked == "roman":
        why = assault_period(position)["roman_may_end_because"]
        if why:
            return f"18.1: the Roman ends the Assault Period alone: {'; '.join(why)}"
    return None


def breach_sites(position: Position) -> dict[Hex, str | None]:
    """19.7: each standing Elevated Hex of a Wall the Romans hold, with ``None`` where the Roman may open a Breach
    between Assault Periods, else why not."""
    return _breach_sites(*_board(position))


def _breach_sites(board: Board, need: ControlTable) -> dict[Hex, str | None]:
    held = _elevated_control(board, board.roman_areas)
    jewish = [h for h, side in held.items() if side == JEWISH]
    out: dict[Hex, str | None] = {}
    for h, side in held.items():
        if side != ROMAN or not board.elevated(h) or board.facts.base[h] == "bridge":
            continue
        near = next((j for j in jewish if h.distance(j) <= need.breach_clearance), None)
        out[h] = None if near is None else (f"within {need.breach_clearance} hexes of the Jewish-held "
                                            f"{board.facts.name(near)} (19.7)")
    return out


@dataclass(frozen=True)
class Control:
    """The city's control as :func:`control` judges it: the areas, the Assault Period, the 19.7 Breach sites."""

    position: Position
    areas: list[AreaControl]
    period: dict[str, Any]
    breach_sites: dict[Hex, str | None]


def control(position: Position) -> Control:
    """:func:`area_control`, :func:`assault_period` and :func:`breach_sites` of one position (one board)."""
    board, need = _board(position)
    areas = _area_control(board, need)
    return Control(position, areas, assault_period(position, areas), _breach_sites(board, need))


def control_json(c: Control) -> dict[str, Any]:
    """``{"assault_period": {...18.1}, "areas": [{"area", "held_by", "holder", "rule", "conceded", "roman":
    {claim}, "jewish": {claim}}], "breach_sites": [HEX], "breach_refused": {HEX: reason}}`` (docs/cli.md)."""
    name = c.position.game.map.name

    def claim(k: Claim) -> dict[str, Any]:
        return {"rule": k.rule, "met": k.met, "units": list(k.units), "hexes": sorted(map(name, k.hexes)),
                "lacking": list(k.lacking)}

    return {
        "assault_period": c.period,
        "areas": [{"area": a.area, "held_by": a.held_by, "holder": a.holder, "rule": a.rule, "conceded": a.conceded,
                   "roman": claim(a.roman), "jewish": claim(a.jewish)} for a in c.areas],
        "breach_sites": sorted(name(h) for h, why in c.breach_sites.items() if why is None),
        "breach_refused": {name(h): why for h, why in sorted(c.breach_sites.items(), key=lambda kv: name(kv[0]))
                           if why},
    }
