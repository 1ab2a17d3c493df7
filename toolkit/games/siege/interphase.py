"""*The Siege of Jerusalem* between Assault Periods: what a position allows or obliges before the next one, each as
a JSON-ready dict naming its rules.  Dice are never rolled here: the caller gives the roll.

* :func:`ramps` -- 18.8, 18.81, 19.4: where the Roman may build (or, the same interphase, extend) his Ramp, how many
  hexes the week of preparation allows, and the ``ramp`` markers (``toward`` the Elevated Hex) a build gives.
* :func:`repairs` -- 19.6: the damaged Elevated Hexes the Jews may repair, the most each may lose, the points a
  Repair roll gives (two dice plus the Preparation Table's drm) and the damage left after an allocation.
* :func:`withdrawal` -- 18.3-18.37: who holds each area at the end of the Assault Period, what each side's units
  keep or must leave and where they may go, and the position parameters of the next Assault Period.
* :func:`stairways` -- the second 18.36: the Gate Entry hexsides that become Stairways and the Bastions and Forts
  that may have a temporary, Ladder-marked Stairway (recorded in the parameter ``temporary_stairways``).

The Assault Period about to start is ``period`` when given, else the position's own when its turn is the first of
one ("AP II/1"), else the next one (the position ends its Assault Period).  The numbers are data
(``tables.yaml`` ``preparation`` and ``interphase``).

Readings (ours):

* Ramps (19.4, "only once per game"): the Ramp is built in one interphase; the position parameter ``ramps_built``
  names the Assault Period it was built before.  In that interphase it may grow, week by week, to the Preparation
  Table's count; Ramp markers from an earlier interphase close the matter.  All Ramp hexes form one combined Ramp
  (18.81).  A "mined hex" is one with a ``mine_shaft`` marker.  The hex behind a Ramp must be a Ground hex (18.81:
  one side Ground, the other Elevated); a Ramp is not built on a Breach or on another Ramp.
* Repairs (19.6): "half the damage" drops fractions (nine points: four); only ``breach_damage`` markers on
  Elevated Hexes count (on a Tower's hex the marker is its 8.61 number); an isolated Fortress is one the Jews hold
  only by 18.34, its Wall section being Roman (18.35).  The drm is that of the week the roll is made in.
* Withdrawal (18.3): areas are judged as if the last Jewish Melee Phase ended in the position (:mod:`.control`);
  Breach hexes go with their Wall section; hex control starts afresh (the ``roman_hexes`` / ``jewish_hexes`` and
  ``conceded_areas`` parameters are emptied) and every Roman area is razed (18.37).
* Stairways (the second 18.36): an Entry hexside of a Gate into a city area the Romans hold becomes a Stairway
  (the example: P58-Q58 once Herod's Palace is Roman).  A Bastion or Fort the Jews hold "has no access to Ground
  level" when none of its map Stairways leads to a Ground or Built-up hex the Jews control; its temporary Stairway
  may lead to any adjacent one they do control.
"""
from __future__ import annotations

from math import floor
from typing import Any, Iterable, Mapping, Sequence

from ...game import Position
from ...hexgrid import Hex
from . import assault
from .control import _area_control, _board, _elevated_control, wall_side
from .zoc import ELEVATED, FORTRESS, JEWISH, ROMAN, Board, opposite, stairway_pairs

PERIODS = list(assault.PERIODS)       # I-V (18)
RAMP, MINE = "ramp", "mine_shaft"     # markers (counters.yaml)


def _section(position: Position, name: str) -> dict[str, Any]:
    return assault.tables(position.game.folder)[name]


def upcoming_period(position: Position, period: str | int | None = None) -> str:
    """The Assault Period about to start (I-V): ``period``, else from the position's turn (see the module)."""
    if period is not None:
        key = str(period).upper()
        key = PERIODS[int(key) - 1] if key.isdigit() and 1 <= int(key) <= len(PERIODS) else key
        if key not in PERIODS:
            raise ValueError(f"period {period!r}: an Assault Period, I-V (18)")
        return key
    name, _, number = str(position.turn).rpartition("/")
    key = name.removeprefix("AP ").strip()
    if key not in PERIODS or not number.isdigit():
        raise ValueError(f"turn {position.turn!r} is not an Assault Period turn such as 'AP II/1'; give the period")
    if int(number) == 1:
        return key
    if key == PERIODS[-1]:
        raise ValueError("the 5th Assault Period is the last (18): no Assault Period follows it")
    return PERIODS[PERIODS.index(key) + 1]


def _names(board: Board, hexes: Iterable[Hex]) -> list[str]:
    return sorted(board.facts.name(h) for h in hexes)


# -- 18.8, 18.81, 19.4 Ramps --------------------------------------------------------------------------------------
def ramp_refusal(board: Board, h: Hex, top: Hex) -> str | None:
    """Why a Ramp may not be built in ``h`` pointing at ``top`` (18.8, 18.81), or None when it may."""
    f, name = board.facts, board.facts.name
    if top not in f.neighbors.get(h, ()) or not board.elevated(top):
        return f"{name(top)} is not a standing Elevated Hex adjacent to {name(h)} (18.8)"
    if not board.ground(h) or h in board.breaches or h in board.ramps:
        return f"{name(h)} is not a Ground hex free of a Breach or Ramp (18.8)"
    foot = opposite(h, top)
    if foot not in f.base or not board.ground(foot):
        return f"the hex behind {name(h)}, opposite {name(top)}, is not a Ground hex (18.81)"
    if not f.in_city(h):
        mined = [m.hex for m in board.position.markers if m.marker == MINE and m.hex in {h, *f.neighbors[h]}]
        return f"on or adjacent to the mined hex {name(mined[0])} (18.81)" if mined else None
    if f.region[h] not in board.roman_areas or board.controller(h) != ROMAN:
        return f"{name(h)} is in the city but not a Roman-controlled hex of a Roman-controlled area (18.81)"
    return None


def _one_ramp(hexes: set[Hex]) -> bool:
    """Whether ``hexes`` form one group of adjacent hexes (18.81: one combined Ramp)."""
    if not hexes:
        return True
    seen, todo = set(), [next(iter(hexes))]
    while todo:
        h = todo.pop()
        if h not in seen:
            seen.add(h)
            todo.extend(n for n in h.neighbors() if n in hexes)
    return seen == hexes


def _ramp_allowance(position: Position, board: Board, week: int, key: str) -> tuple[int, str]:
    """The Ramp hexes the Roman may still build before Assault Period ``key``, and why (19.4, 19.1)."""
    built = position.params.get("ramps_built")
    if board.ramps and str(built).upper() != key:
        when = f"before Assault Period {built}" if built else "in an earlier interphase (no parameter ramps_built)"
        return 0, f"Ramps are built only once per game (19.4): this one was built {when}"
    table = assault.preparation(week, folder=position.game.folder)["ramps"] or 0
    cap = min(table, int(_section(position, "preparation")["ramp_hexes_per_game"]))
    left = max(0, cap - len(board.ramps))
    return left, (f"week {week} of preparation allows {table} Ramp hex{'es' * (table != 1)} (19.1, 19.4; five a game "
                  f"at most), {len(board.ramps)} built: {left} more")


def ramps(position: Position, week: int, build: Sequence[tuple[str, str]] = (),
          period: str | int | None = None) -> dict[str, Any]:
    """18.8, 18.81, 19.4: the Ramp hexes the Roman may build before the next Assault Period after ``week`` weeks of
    preparation, each allowed site with the Elevated Hexes it may point at (next to the Ramp already begun, when
    extending), and, for ``build`` (``(hex, toward)`` pairs), whether it is allowed and the markers it gives."""
    board, _ = _board(position)
    f = board.facts
    key = upcoming_period(position, period)
    left, why = _ramp_allowance(position, board, week, key)
    sites = []
    for h in sorted(f.base, key=f.name):
        if board.ramps and not any(n in board.ramps for n in f.neighbors[h]):
            continue
        tops = [t for t in f.neighbors[h] if ramp_refusal(board, h, t) is None]
        if tops:
            sites.append({"hex": f.name(h), "toward": _names(board, tops)})
    out: dict[str, Any] = {"rule": "18.81, 19.4", "period": key, "week": week, "may_build": left, "why": why,
                           "built": [{"hex": f.name(h), "toward": f.name(t)} for h, t in board.ramps.items()],
                           "sites": sites if left else [],
                           "when": "before the Jews place their Artillery (18.81)"}
    if build:
        out.update(_ramp_build(position, board, build, left, key))
    return out


def _ramp_build(position: Position, board: Board, build: Sequence[tuple[str, str]], left: int,
                key: str) -> dict[str, Any]:
    """The verdict on building ``build`` (``(hex, toward)`` names) with ``left`` hexes allowed (18.81, 19.4)."""
    cmap = position.game.map
    pairs = [(cmap.resolve(h), cmap.resolve(t)) for h, t in build]
    refused = [f"{cmap.name(h)} toward {cmap.name(t)}: {why}" for h, t in pairs
               if (why := ramp_refusal(board, h, t)) is not None]
    if len(pairs) > left:
        refused.append(f"{len(pairs)} Ramp hexes, {left} allowed (19.4)")
    whole = set(board.ramps) | {h for h, _ in pairs}
    limit = int(_section(position, "interphase")["ramp_max_combined"])
    if not _one_ramp(whole) or len(whole) > limit:
        refused.append(f"the Ramp hexes must be adjacent, one combined Ramp of {limit} hexes at most (18.81)")
    markers = [{"marker": RAMP, "hex": cmap.name(h), "toward": cmap.name(t)} for h, t in pairs]
    return {"build": markers, "allowed": not refused, "refused": refused,
            "params": {"ramps_built": key} if not refused else {}}


# -- 19.6 Repairs -------------------------------------------------------------------------------------------------
def repair_refusal(board: Board, h: Hex, held: Mapping[Hex, str]) -> str | None:
    """Why the Jews may not repair the damaged Elevated Hex ``h`` (19.6), or None; ``held``: 18.34/18.35 control."""
    name = board.facts.name(h)
    if h in board.breaches:
        return f"{name} is a Breach: a Breach is never repaired (19.6)"
    if held[h] != JEWISH:
        return f"{name} is not under Jewish control (19.6, 18.35)"
    if board.facts.base[h] in FORTRESS and wall_side(board, h, board.roman_areas) == ROMAN:
        return f"{name} is an isolated Fortress in a Wall section the Jews do not control (19.6, 18.34)"
    return None


def repairs(position: Position, week: int, roll: int | None = None, allocation: Mapping[str, int] | None = None,
            *, delay: bool = False, period: str | int | None = None) -> dict[str, Any]:
    """19.6: the damaged Elevated Hexes and the points each may lose (half its damage), the points a Repair
    ``roll`` (two dice) gives with the drm of ``week``, and with ``allocation`` (hex name -> points) the damage
    left.  ``delay``: the extra roll for a week of delay after a completed shaft (allowed before the first
    Assault Period too); otherwise the roll before each Assault Period except the first."""
    key = upcoming_period(position, period)
    if key == PERIODS[0] and not delay:
        raise ValueError("no Repair roll before the first Assault Period (19.6); only the extra roll for a week of "
                         "delay after a completed shaft (the delay option, --delay)")
    board, _ = _board(position)
    share = float(_section(position, "interphase")["repair_max_share"])
    held = _elevated_control(board, board.roman_areas)
    rows = {}
    for h, damage in board.damage.items():
        if board.facts.base[h] not in ELEVATED:
            continue                                                  # a Tower's 8.61 number, not damage
        why = repair_refusal(board, h, held)
        rows[board.facts.name(h)] = {"hex": board.facts.name(h), "damage": int(damage),
                                     "max": 0 if why else floor(damage * share), "refused": why}
    out: dict[str, Any] = {"rule": "19.6", "period": key, "week": week, "delay": delay,
                           "hexes": [rows[k] for k in sorted(rows)]}
    if roll is not None:
        out.update(_repair_points(position, week, roll))
    if allocation:
        if roll is None:
            raise ValueError("an allocation needs the Repair roll (19.6)")
        _allocate(rows, allocation, out["points"])
        out["used"] = sum(allocation.values())
    return out


def _repair_points(position: Position, week: int, roll: int) -> dict[str, Any]:
    dice = int(_section(position, "interphase")["repair_dice"])
    if not dice <= roll <= 6 * dice:
        raise ValueError(f"Repair roll {roll}: {dice} dice, {dice}-{6 * dice} (19.6)")
    drm = assault.preparation(week, folder=position.game.folder)["repair_drm"]
    return {"roll": roll, "drm": drm, "points": max(0, roll + drm)}


def _allocate(rows: dict[str, dict[str, Any]], allocation: Mapping[str, int], points: int) -> None:
    """Apply ``allocation`` to ``rows`` (``repaired``, ``after``), or raise naming the first broken limit (19.6)."""
    for name, n in allocation.items():
        row = rows.get(name)
        if row is None:
            raise ValueError(f"{name}: no damage marker on an Elevated Hex there; damaged: {', '.join(rows) or 'none'}")
        if row["refused"]:
            raise ValueError(row["refused"])
        if not 0 <= n <= row["max"]:
            raise ValueError(f"{name}: {n} points, at most {row['max']} (half its {row['damage']} damage, 19.6)")
        row.update(repaired=n, after=row["damage"] - n)
    if sum(allocation.values()) > points:
        raise ValueError(f"{sum(allocation.values())} points repaired, the roll gives {points} (19.6)")


# -- 18.3-18.37 the withdrawal at the end of an Assault Period ----------------------------------------------------
def withdrawal(position: Position) -> dict[str, Any]:
    """18.3: at the end of the Assault Period, each area's holder (18.31-18.36), each unit on the map kept or
    withdrawn (18.3, 18.34, 18.35) and where it may go, and the parameters of the next Assault Period (18.37)."""
    board, need = _board(position)
    areas = _area_control(board, need)
    roman = frozenset(a.area for a in areas if a.holder == ROMAN)
    held = _elevated_control(board, roman)
    city = [a.area for a in areas]
    go = {ROMAN: "outside the city or " + _listing(sorted(roman), "an area the Romans hold"),
          JEWISH: _listing([a for a in city if a not in roman], "an area the Jews hold")}
    units = []
    for u in sorted((u for u in position.units if u.hex is not None), key=lambda u: (u.side, u.id)):
        where, holder, rule = _place(board, u.hex, roman, held)
        row = {"unit": u.id, "side": u.side, "hex": board.facts.name(u.hex), "where": where, "holder": holder}
        if holder != u.side:
            row.update(fate="withdraws", rule=rule, to=go[u.side])
        elif rule == "18.34":
            row.update(fate="may stay", rule=rule, to=f"or withdraw to {go[JEWISH]}")
        else:
            row.update(fate="stays", rule=rule)
        units.append(row)
    razed = sorted(board.razed | roman)
    return {"rule": "18.3", "areas": [{"area": a.area, "holder": a.holder, "rule": a.rule} for a in areas],
            "roman_areas": sorted(roman), "newly_roman": sorted(roman - board.roman_areas), "units": units,
            "params": {"roman_areas": ", ".join(sorted(roman)), "razed_areas": ", ".join(razed), "roman_hexes": "",
                       "jewish_hexes": "", "conceded_areas": ""},
            "razed_rule": "18.37"}


def _listing(names: list[str], what: str) -> str:
    return f"{what} ({', '.join(names)})" if names else f"{what} (none)"


def _place(board: Board, h: Hex, roman: frozenset[str], held: Mapping[Hex, str]) -> tuple[str, str, str]:
    """Where ``h`` lies, who holds it between Assault Periods and by which rule (18.3, 18.34, 18.35)."""
    f = board.facts
    if f.base[h] in ELEVATED:
        if f.base[h] in FORTRESS and held[h] == JEWISH and wall_side(board, h, roman) == ROMAN:
            return f"the Fortress {f.name(h)}", JEWISH, "18.34"
        return f"the Wall at {f.name(h)}", held[h], "18.35"
    area = f.region[h]
    if area is None:
        return "outside the city", ROMAN, "18.3"
    return area, ROMAN if area in roman else JEWISH, "18.3"


# -- the second 18.36 Stairways -----------------------------------------------------------------------------------
def stairways(position: Position) -> dict[str, Any]:
    """The second 18.36, at the start of an Assault Period (areas: ``roman_areas``): the Gate Entry hexsides into
    Roman areas that become Stairways; each Jewish Bastion or Fort without a map Stairway to Jewish ground and the
    hexes its temporary Stairway may lead to; and the recorded ``temporary_stairways`` judged."""
    board, _ = _board(position)
    f = board.facts
    held = _elevated_control(board, board.roman_areas)
    gates = [{"gate": f.name(g), "hexside": f"{f.name(g)}-{f.name(n)}", "area": f.region[n]}
             for g in sorted(f.base, key=f.name) if f.base[g] == "gate"
             for n in f.neighbors[g] if frozenset((g, n)) in f.entry and f.region[n] in board.roman_areas]
    kinds = set(_section(position, "interphase")["temporary_stairway_from"])
    cut_off = {h: _temporary_sites(board, h) for h in f.base if f.base[h] in kinds and held[h] == JEWISH
               and not _has_ground_access(board, h)}
    used: set[Hex] = set()
    pairs = sorted(stairway_pairs(position), key=lambda pair: sorted(map(f.name, pair)))
    recorded = [_judge_stairway(board, pair, cut_off, used) for pair in pairs]
    return {"rule": "18.36", "gate_stairways": gates,
            "temporary": [{"hex": f.name(h), "kind": f.base[h], "to": _names(board, to)}
                          for h, to in sorted(cut_off.items(), key=lambda kv: f.name(kv[0]))],
            "recorded": recorded, "record": "parameter temporary_stairways: \"BASTION-HEX …\" (a Ladder marks it)"}


def _has_ground_access(board: Board, h: Hex) -> bool:
    """Whether a map Stairway leads from ``h`` to a Ground or Built-up hex the Jews control (8.93, 18.3)."""
    return any(frozenset((h, n)) in board.facts.stairway and not board.elevated(n) and board.controller(n) == JEWISH
               for n in board.facts.neighbors[h])


def _temporary_sites(board: Board, h: Hex) -> list[Hex]:
    """The adjacent Ground or Built-up hexes the Jews control: where a temporary Stairway from ``h`` may lead."""
    return [n for n in board.facts.neighbors[h] if not board.elevated(n) and board.controller(n) == JEWISH]


def _judge_stairway(board: Board, pair: frozenset, cut_off: Mapping[Hex, list[Hex]], used: set[Hex]) -> dict[str, Any]:
    """One recorded temporary Stairway: allowed, or why not (the second 18.36: one from each Bastion or Fort;
    ``used`` collects those that have theirs)."""
    name = board.facts.name
    top = next((h for h in pair if h in cut_off), None)
    text = "-".join(sorted(map(name, pair)))
    if top is None:
        return {"hexside": text, "allowed": False, "why": "neither hex is a Jewish Bastion or Fort without access to "
                                                          "Ground level (18.36)"}
    (foot,) = pair - {top}
    if foot not in cut_off[top]:
        return {"hexside": text, "allowed": False, "why": f"{name(foot)} is not an adjacent Ground or Built-up hex "
                                                          f"the Jews control (18.36)"}
    if top in used:
        return {"hexside": text, "allowed": False, "why": f"{name(top)} has its temporary Stairway already (18.36)"}
    used.add(top)
    return {"hexside": text, "allowed": True, "why": None}
