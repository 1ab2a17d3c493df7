"""*No Prisoners* combat calculator: strengths, terrain, odds column, column shifts, CRT choice (11.x, 17.3, 21.2, 21.3).

:func:`combat` takes the attacking units and the defending units of ONE combat
and returns a :class:`CombatResult`: the strengths, the terrain multiplier
(11.12), the odds column before and after the column shifts (11.3, 11.14),
each shift with its rule (air 11.8, naval 11.9, command 11.10 through
:func:`~toolkit.games.no_prisoners.command.attack_bonus`, limits 11.11), which
table is used (Raid CRT or MOCRT, 11.1 B, 11.13, 15.7 A, 21.2) and why, and the
result of every die roll on that column, or why the attack may not be made.
:func:`combat_json` is its stable JSON form, with the keys of *Jerusalem!*'s.

Every number comes from ``modules/no-prisoners/tables.yaml`` (odds columns,
the two CRT grids, result codes, terrain multipliers, shift data) or from the
counters.  The CRT grids and the terrain multipliers are printed on the map
sheet, which our copy lacks: they are RECONSTRUCTED, and the result says so.

How the caller names things:

* ``attackers`` are land units of the phasing side; air groups and naval
  squadrons the attacker adds (11.8, 11.9) are named among them too (they are
  counters, not units: they only shift the column, 19.2 A);
* ``defenders`` are every land unit in the defending hex (11.7 C);
* ``table`` is ``"rcrt"`` / ``"mocrt"`` (the attacker's choice, 11.13 A) or
  ``None``: the MOCRT when it is allowed, else the Raid CRT;
* ``command=False`` declines the command bonus (11.10 A "may declare").

Readings of points the rulebook leaves open:

* **11.14 and its example.**  11.3 and 11.11 give a column list of ½:1, 1:1,
  2:1 ... and 11.11's example (7 against 3 = 2:1, three shifts = 5:1) counts
  shifts column by column.  11.14 states that odds worse than ½:1 use ½:1 as
  the base line from which shifts are applied, so ½:1 is the worst base
  column and every shift counts from it: 1 against 10 is ½:1, with one shift
  1:1, with two 2:1.  11.14's printed example ends two shifts on 1:1, one
  column short of that; we follow the stated rule (never losing a shift) and
  the result notes the example.  Odds of ½:1 up to 1:1 (11.3: "less than
  1:1") are on ½:1 too, and odds above 6:1 start from 6:1 (11.14); shifts may
  then go on to the reconstructed 7:1-9:1 columns (tables.yaml
  ``shift_columns``).
* **Terrain (11.12).**  The defenders' printed strengths are added and the
  total multiplied by the single best multiplier (11.12 D) among the terrain
  of the hex (base terrain, city, town) and the hexside features every
  attacker attacks across (11.12 E).  No rounding before the odds, which
  round down (11.3).
* **Air group (11.8 A)**: the defending hex is within six hexes (counted
  straight, not traced) of a city or town of the air group's sector (or
  Damascus) occupied by a land unit of that side and sector that is in supply
  now (15.1 D).  **Naval squadron (11.9 A)**: the defending hex is a land hex
  next to an all-sea hex or behind an all-sea hexside (coastal), or has a Suez
  Canal hexside; only the Allies have squadrons (11.9).
* A named air group or squadron that may not be used (wrong sector, already
  used this combat phase, 11.11 C / 19.2 D, out of reach, a second one,
  11.11 A) does not stop the attack: it is listed under ``denied_shifts``
  with its rule.  Used counters carry the game flags ``used_first_combat`` /
  ``used_second_combat``.
* **Sectors (17.1, 17.3 B, 21.3).**  Attackers and the defending hex must be
  of one sector, Damascus being open to both (21.3 A/B); no attacker may
  attack over a ``sector_boundary`` hexside; CP units of both sectors next to
  Damascus attack it separately, each with its own HQ and air (21.3 E).  When
  CP units attack Damascus the notes say they may not pursue into it (21.3 D).
* The phase name (``west_allied_first_combat`` ...) limits the attackers to
  that sector (4.2.1.4, 4.2.2-4.2.4); there is no second combat phase on a
  summer (III) turn (4.2.1.5, 22.4).  Outside a combat phase the odds are
  still computed (for planning) but ``phase_warning`` says the position is
  not in a combat phase (4.2.1.4, 11.2) and ``in_combat_phase`` is false;
  ``toolkit check`` is not concerned.
* ``probability`` is the chance (one die) that the chosen table's result on
  the final column costs the defender at least one unit; ``kills_on``,
  ``modifiers`` and ``total_modifier`` stay for the shared JSON shape (the
  game has no die modifiers: ``[]`` and 0).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from ...game import Position, Unit
from ...game.odds import Strength, number, ratio, ratio_value, strengths_json
from ...game.odds import fraction as _frac
from ...game.module import GameDataError
from ...game.moves import Reason
from ...hexgrid import Hex
from .command import attack_bonus, shows_back
from .mapfacts import DAMASCUS, EASTERN, WESTERN, MapFacts, map_facts
from .supply import allied_side, is_unit, supply, unit_sector
from .tables import ResultCode, Tables, load_tables

AIR, NAVAL = "air_group", "naval_squadron"
RCRT, MOCRT = "RCRT", "MOCRT"
USED_FLAG = {"first": "used_first_combat", "second": "used_second_combat"}   # 11.11 C, 19.2 D


# -- the tables.yaml sections this module reads (tell the lead: move them into tables.py) ---------------------------


# -- odds --------------------------------------------------------------------------------------------------------


def base_column(attack, defence, tables: Tables) -> tuple[int, str]:
    """Where the odds stand before shifts: an index into ``odds_columns`` and why (11.3, 11.14)."""
    cols = list(tables.odds_columns)
    lo, hi = cols.index(tables.base_columns.lowest), cols.index(tables.base_columns.highest)
    r = _frac(attack) / _frac(defence)
    raw = ratio(attack, defence)
    if r < ratio_value(cols[lo]):
        return lo, f"{raw} is worse than {cols[lo]}: {cols[lo]} is the base line for shifts (11.14)"
    if r < 1:
        return lo, f"{raw} is less than 1-1: the {cols[lo]} column (11.3)"
    if r > ratio_value(cols[hi]):
        return hi, f"{raw} is more than {cols[hi]}: {cols[hi]} is the base line for shifts (11.14)"
    fitting = [i for i in range(lo, hi + 1) if ratio_value(cols[i]) <= r]
    i = max(fitting)
    return i, f"{number(_frac(attack))} / {number(_frac(defence))} rounded down: {cols[i]} (11.3)"


def shifted_column(base: int, shifts: int, tables: Tables) -> str:
    """The column after ``shifts`` columns right of ``base`` (11.8-11.11, 11.14), capped at the last column."""
    cols = tables.odds_columns
    lo = cols.index(tables.base_columns.lowest)
    return cols[min(len(cols) - 1, max(lo, base + shifts))]


# -- results -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shift:
    """A column shift, granted or denied, with its rule."""

    id: str                # air_group | naval_squadron | command
    columns: int
    rule: str
    why: str
    unit: str | None = None


@dataclass(frozen=True)
class TerrainEffect:
    """The single terrain multiplier the defenders get (11.12)."""

    id: str
    multiplier: Fraction
    rule: str
    why: str


@dataclass(frozen=True)
class Row:
    """One die roll's result on the final column."""

    die: int
    code: str
    meaning: ResultCode


@dataclass
class CombatResult:
    """Everything about one combat, or why it may not be made."""

    kind: str
    attackers: list[Strength] = field(default_factory=list)
    defenders: list[Strength] = field(default_factory=list)
    support: list[str] = field(default_factory=list)
    attack: Fraction = Fraction(0)
    printed_defence: Fraction = Fraction(0)
    defence: Fraction = Fraction(0)
    terrain: TerrainEffect | None = None
    raw_odds: str | None = None
    base_odds: str | None = None
    base_why: str = ""
    odds: str | None = None
    shifts: list[Shift] = field(default_factory=list)
    denied_shifts: list[Shift] = field(default_factory=list)
    table: str | None = None
    table_why: Reason | None = None
    mocrt_allowed: bool = False
    mocrt_reason: Reason | None = None
    rows: dict[str, list[Row]] = field(default_factory=dict)
    probability: Fraction | None = None
    refused: Reason | None = None
    phase_warning: Reason | None = None   # set when the position is not in a combat phase (4.2.1.4, 11.2)
    notes: list[str] = field(default_factory=list)
    reconstructed: list[str] = field(default_factory=list)

    @property
    def allowed(self) -> bool:
        """Whether the attack may be made."""
        return self.refused is None


def _row_json(r: Row) -> dict[str, Any]:
    return {"die": r.die, "result": r.code, **r.meaning.model_dump()}


def combat_json(result: CombatResult) -> dict[str, Any]:
    """The stable JSON form of a :class:`CombatResult` (the keys of *Jerusalem!*'s, plus the shifts and tables)."""
    def shift(s: Shift) -> dict[str, Any]:
        return {"id": s.id, "unit": s.unit, "columns": s.columns, "rule": s.rule, "why": s.why}

    t = result.terrain
    return {
        "kind": result.kind,
        "attackers": strengths_json(result.attackers),
        "defenders": strengths_json(result.defenders),
        "support": list(result.support),
        "attack": number(result.attack),
        "printed_defence": number(result.printed_defence),
        "defence": number(result.defence),
        "terrain": None if t is None else {"id": t.id, "multiplier": number(t.multiplier), "rule": t.rule,
                                          "why": t.why},
        "ratio": result.raw_odds,
        "base_odds": result.base_odds,
        "base_why": result.base_why,
        "odds": result.odds,
        "shifts": [shift(s) for s in result.shifts],
        "denied_shifts": [shift(s) for s in result.denied_shifts],
        "table": result.table,
        "table_why": None if result.table_why is None else {"reason": result.table_why.message,
                                                              "rule": result.table_why.rule},
        "mocrt_allowed": result.mocrt_allowed,
        "mocrt_reason": None if result.mocrt_reason is None else {"reason": result.mocrt_reason.message,
                                                                    "rule": result.mocrt_reason.rule},
        "results": [_row_json(r) for r in result.rows.get(result.table or "", [])],
        "rows": {k: [_row_json(r) for r in v] for k, v in result.rows.items()},
        "modifiers": [],
        "total_modifier": 0,
        "kills_on": None,
        "probability": None if result.probability is None else float(result.probability),
        "refused": None if result.refused is None else {"reason": result.refused.message, "rule": result.refused.rule},
        "in_combat_phase": result.phase_warning is None,
        "phase_warning": None if result.phase_warning is None else {"reason": result.phase_warning.message,
                                                                    "rule": result.phase_warning.rule},
        "notes": list(result.notes),
        "reconstructed": list(result.reconstructed),
    }


# -- the calculator ------------------------------------------------------------------------------------------------
class _Refuse(Exception):
    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.reason = Reason(rule, f"{message} ({rule})")


def is_support_counter(u: Unit) -> bool:
    """An air group or naval squadron: a column shift, not a unit (11.8, 11.9, 19.2 A)."""
    return u.type in (AIR, NAVAL) or bool(u.counter.value("column_shift", default=0))


def _kind_of(u: Unit) -> str:
    return NAVAL if u.type == NAVAL else AIR


def printed_combat(position: Position, u: Unit) -> Fraction:
    """The unit's combat factor on its showing face (2.4.2 C; an upgraded HQ its back, 19.1)."""
    back = u.type == "hq" and shows_back(position, u)
    v = u.counter.value("combat", back=back)
    return _frac(v) if v is not None else Fraction(0)


def _sector_word(s: str | None) -> str:
    return {WESTERN: "Western", EASTERN: "Eastern"}.get(s or "", "no")


def _phase_parts(phase: str) -> tuple[str | None, str | None]:
    """(sector, which combat phase) from a phase name such as ``west_allied_first_combat``."""
    sector = WESTERN if phase.startswith("west_") else EASTERN if phase.startswith("east_") else None
    which = "first" if "first_combat" in phase else "second" if "second_combat" in phase else None
    return sector, which


def combat(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str = "attack",
           table: str | None = None, command: bool = True, protected: Sequence[str] = (),
           fired: Sequence[str] = (), **_ignored: Any) -> CombatResult:
    """One attack of ``attackers`` (land units, plus any air group / naval squadron) on ``defenders``.

    See the module docstring.  ``protected`` and ``fired`` (other games' options) are ignored.
    Unknown unit ids raise ``KeyError``; an unknown ``table`` or no units raise ``ValueError``.
    """
    if not attackers or not defenders:
        raise ValueError("give at least one attacking unit and one defending unit")
    if table is not None and table.upper() not in (RCRT, MOCRT):
        raise ValueError(f"table {table!r}: expected rcrt or mocrt")
    unknown = [u for u in [*attackers, *defenders] if u not in position.by_id]
    if unknown:
        raise KeyError(f"unknown unit id(s): {', '.join(unknown)}")
    res = CombatResult(kind)
    if _phase_parts(position.phase)[1] is None:
        res.phase_warning = Reason("4.2.1.4", f"{position.phase} is not a combat phase: attacks are made only in "
                                              "the phasing side's First and Second Combat Phases (4.2.1.4, 11.2); "
                                              "these odds are for planning")
    try:
        _compute(position, res, [position.by_id[u] for u in attackers], [position.by_id[u] for u in defenders],
                 None if table is None else table.upper(), command)
    except _Refuse as r:
        res.refused = r.reason
        res.probability = None
    return res


def _compute(position: Position, res: CombatResult, attackers: list[Unit], defenders: list[Unit],
             wanted: str | None, use_command: bool) -> None:
    tables = load_tables(position.game.folder)
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    cmap = position.game.map
    name = cmap.name
    if res.kind != "attack":
        raise _Refuse("11.1 A", f"No Prisoners has no {res.kind!r} combat: only the phasing side attacks")
    land = [u for u in attackers if not is_support_counter(u)]
    helpers = [u for u in attackers if is_support_counter(u)]
    res.support = [u.id for u in helpers]
    if not land:
        raise _Refuse("11.3", "air groups and naval squadrons only shift the column; name at least one attacking "
                              "land unit")
    odd = [u.id for u in defenders if is_support_counter(u) or not is_unit(u)]
    if odd:
        raise _Refuse("19.2 A", f"{', '.join(odd)} are not units that can be attacked (air, naval, markers or off "
                                "the map)")
    side = land[0].side
    if any(u.side != side for u in attackers) or any(d.side == side for d in defenders) \
            or len({d.side for d in defenders}) != 1:
        raise _Refuse("11.1 A", "the attackers must all be of one side and the defenders all of the other")
    if side != position.phasing_side:
        raise _Refuse("11.1 A", f"only the phasing side ({position.phasing_side}) attacks")
    # The defending hex and its units (11.5 A, 11.7 C).
    hexes = {d.hex for d in defenders}
    if len(hexes) != 1:
        raise _Refuse("11.5 A", "an attack is made on a single hex; attack each hex separately")
    target = next(iter(hexes))
    missing = [u.id for u in position.at(target) if u.side != side and is_unit(u) and u not in defenders]
    if missing:
        raise _Refuse("11.7 C", f"units in one hex defend together: add {', '.join(missing)} in {name(target)}")
    for u in land:
        if u.hex is None:
            raise _Refuse("11.5 B", f"{u.id} is not on the map")
        if u.hex.distance(target) != 1:
            raise _Refuse("11.5 B", f"{u.id} in {name(u.hex)} is not adjacent to the defending hex {name(target)}")
        if u.has("attacked"):
            raise _Refuse("11.4 C", f"{u.id} has already attacked in this combat phase")
    # Phase and season (4.2, 22.4).
    phase_sector, which = _phase_parts(position.phase)
    if which == "second" and position.turn.endswith("-III"):
        raise _Refuse("22.4", f"{position.turn} is a summer turn: there is no second combat phase (4.2.1.5)")
    # Sectors (17.1, 17.3 B, 21.3).
    sectors = {unit_sector(u, facts) for u in land} - {None}
    region = facts.sector(target)
    if len(sectors) > 1:
        if region == DAMASCUS:
            raise _Refuse("21.3 E", "Western and Eastern units next to Damascus attack it separately, each with "
                                    "its own HQ bonus and air support")
        raise _Refuse("17.1", "Western and Eastern units may not attack together: each stays in its own sector")
    sector = next(iter(sectors), None)
    if phase_sector is not None and sector is not None and sector != phase_sector:
        raise _Refuse("4.2.1.4", f"in {position.phase} only {_sector_word(phase_sector)} Sector units attack; "
                                 f"these are {_sector_word(sector)} (4.2.2-4.2.4)")
    for u in land:
        if facts.crosses_boundary(u.hex, target):
            raise _Refuse("17.3 B", f"{u.id} in {name(u.hex)} would attack across the sector boundary into "
                                    f"{name(target)}")
    if sector is not None and region not in (None, sector, DAMASCUS):
        raise _Refuse("17.3 B", f"{name(target)} is in the {region} sector: {_sector_word(sector)} units may not "
                                "attack into the other sector")
    # Strengths.
    for u in land:
        s = printed_combat(position, u)
        res.attackers.append(Strength(u.id, s, f"{number(s)} printed" + (" (back face, 19.1)" if u.type == "hq" and
                                                                         shows_back(position, u) else "")))
    res.attack = sum((s.strength for s in res.attackers), Fraction(0))
    for d in defenders:
        s = printed_combat(position, d)
        res.defenders.append(Strength(d.id, s, f"{number(s)} printed"))
    res.printed_defence = sum((s.strength for s in res.defenders), Fraction(0))
    if res.attack <= 0:
        raise _Refuse("11.3", "the attacking units have no combat strength")
    res.terrain = _terrain(position, tables, land, target)
    mult = res.terrain.multiplier if res.terrain else Fraction(1)
    res.defence = res.printed_defence * mult
    if tables.defence.reconstructed:
        res.reconstructed.append("terrain multipliers (tables.yaml defence)")
    # Odds.
    if res.defence <= 0:
        base = tables.odds_columns.index(tables.base_columns.highest)
        res.raw_odds = "inf"
        res.base_why = f"the defenders have no strength: the {tables.base_columns.highest} base line (11.14)"
    else:
        res.raw_odds = ratio(res.attack, res.defence)
        base, res.base_why = base_column(res.attack, res.defence, tables)
    res.base_odds = tables.odds_columns[base]
    # Shifts (11.8-11.11).
    _shifts(position, facts, tables, res, land, helpers, target, sector, which, use_command)
    n = sum(s.columns for s in res.shifts)
    res.odds = shifted_column(base, n, tables)
    if n and res.defence > 0 and _frac(res.attack) / _frac(res.defence) < ratio_value(tables.base_columns.lowest):
        res.notes.append(f"shifts count from the {tables.base_columns.lowest} base line (11.14); the printed 11.14 "
                         f"example ends one column lower (1 against 10, two shifts: 1-1): we follow the stated rule")
    if base + n > len(tables.odds_columns) - 1:
        res.notes.append(f"the shifts run past the last column; {res.odds} is used")
    if tables.odds_columns.index(res.odds) > tables.odds_columns.index(tables.base_columns.highest):
        res.reconstructed.append(f"the {res.odds} column beyond the 6-1 base line (tables.yaml shift_columns)")
    res.notes.append("the attacker may never lower the odds column (11.6)")
    # Table (11.1 B, 11.13, 15.7 A, 21.2).
    _choose_table(position, tables, res, land, target, wanted)
    for key, grid in ((RCRT, tables.rcrt), (MOCRT, tables.mocrt)):
        if key == MOCRT and not res.mocrt_allowed:
            continue
        row = grid.rows.get(res.odds)
        if row is None:
            raise GameDataError(str(position.game.folder / "tables.yaml"), key.lower(),
                                f"no {res.odds} column in the {key}")
        res.rows[key] = [Row(i + 1, code, tables.results.codes[code]) for i, code in enumerate(row)]
        if grid.reconstructed:
            res.reconstructed.append(f"the {key} grid (tables.yaml {key.lower()})")
    if tables.results.reconstructed:
        res.reconstructed.append("the result codes (tables.yaml results)")
    chosen = res.rows[res.table]
    res.probability = Fraction(sum(1 for r in chosen if r.meaning.defender_loss not in (0, "0", None)), 6)
    if region == DAMASCUS and side != _allied_side_of(position):
        res.notes.append("CP units may attack Damascus but never pursue into it (21.3 D)")


def _allied_side_of(position: Position) -> str:
    return allied_side(position)


def _truthy(v) -> bool:
    return v not in (None, False, "false", "False", "no", "0", 0, "")


def _terrain(position: Position, tables: Tables, land: list[Unit], target: Hex) -> TerrainEffect | None:
    """The best single terrain multiplier of the defending hex (11.12 C-E)."""
    cmap = position.game.map
    info = cmap.hexes[target]
    where = cmap.name(target)
    cands: list[TerrainEffect] = []
    for t in info.terrain:
        if t in tables.defence.terrain:
            cands.append(TerrainEffect(t, _frac(tables.defence.terrain[t]), "11.12 C",
                                       f"{t} in the defending hex {where}: x{number(_frac(tables.defence.terrain[t]))}"))
    for feat, m in tables.defence.hexside.items():
        across = [u for u in land if _truthy(cmap.hexside(u.hex, target).get(feat))]
        if not across:
            continue
        if len(across) == len(land):
            cands.append(TerrainEffect(feat, _frac(m), "11.12 E",
                                       f"every attacker attacks across the {feat} hexside: x{number(_frac(m))}"))
        else:
            others = ", ".join(u.id for u in land if u not in across)
            cands.append(TerrainEffect("none", Fraction(1), "11.12 E",
                                       f"no {feat} benefit: {others} do not attack across it"))
    if not cands:
        return None
    best = max(enumerate(cands), key=lambda ic: (ic[1].multiplier, ic[0]))[1]   # ties: the hexside's note
    if sum(1 for c in cands if c.multiplier > 1) > 1:
        best = TerrainEffect(best.id, best.multiplier, "11.12 D",
                             f"{best.why}; terrain effects are not cumulative, the best one counts")
    return best


def _coastal(facts: MapFacts, cmap, h: Hex) -> bool:
    """A land hex next to an all-sea hex or behind an all-sea hexside (11.9 A)."""
    if h in facts.prohibited:
        return False
    for n in facts.neighbors[h]:
        if cmap.hexes[n].terrain and cmap.hexes[n].terrain[0] == "sea":
            return True
        if _truthy(cmap.hexside(h, n).get("all_sea_hexside")):
            return True
    return False


def _canal(facts: MapFacts, cmap, h: Hex) -> bool:
    return any(_truthy(cmap.hexside(h, n).get("suez_canal")) for n in facts.neighbors[h])


def _shifts(position: Position, facts: MapFacts, tables: Tables, res: CombatResult, land: list[Unit],
            helpers: list[Unit], target: Hex, sector: str | None, which: str | None, use_command: bool) -> None:
    cmap = position.game.map
    name = cmap.name
    side = land[0].side
    spec = tables.column_shifts
    taken: dict[str, int] = {}
    for h in helpers:
        kind = _kind_of(h)
        s = spec.get(kind)
        rule = re.sub(r"(\d)([A-Z])$", r"\1 \2", s.rule) if s else ("11.8 A" if kind == AIR else "11.9 A")
        cols = s.shift if s else 1
        limit = s.max if s else 1

        def deny(r: str, why: str) -> None:
            res.denied_shifts.append(Shift(kind, 0, r, f"{h.id}: {why} ({r})", h.id))

        if taken.get(kind, 0) >= limit:
            deny("11.11 A", f"at most {limit} {kind.replace('_', ' ')} per combat")
            continue
        own = unit_sector(h, facts)
        if own is not None and sector is not None and own != sector:
            deny("11.8 B" if kind == AIR else "11.9 B", f"a {_sector_word(own)} counter is used only in its own "
                                                        "sector")
            continue
        if which and h.has(USED_FLAG[which]):
            deny("11.11 C", f"already used in this {which} combat phase (19.2 D)")
            continue
        if kind == NAVAL:
            if side != _allied_side_of(position):
                deny("11.9 A", "only the Allies have naval squadrons")
                continue
            coast, canal = _coastal(facts, cmap, target), _canal(facts, cmap, target)
            if not (coast or canal):
                deny("11.9 A", f"{name(target)} is neither coastal nor next to the Suez Canal")
                continue
            why = f"{name(target)} is " + ("a coastal hex" if coast else "next to the Suez Canal")
        else:
            reach = (s.range_to_friendly_city_or_town if s else None) or 6
            town = _air_base(position, facts, target, side, own or sector, reach)
            if town is None:
                deny("11.8 A", f"{name(target)} is not within {reach} hexes of a city or town of the "
                               f"{_sector_word(own or sector)} sector held by a supplied friendly land unit")
                continue
            why = f"{name(target)} is {town[1]} hexes from {town[0]}, held by supplied {town[2]}"
        taken[kind] = taken.get(kind, 0) + 1
        res.shifts.append(Shift(kind, cols, rule, f"{h.id}: {why}: {cols} column right ({rule})", h.id))
    if use_command:
        ok, hq, why = attack_bonus(position, [u.id for u in land])
        if ok:
            s = spec.get("command")
            cols = s.shift if s else 1
            res.shifts.append(Shift("command", cols, why.rule, f"{why.message} ({why.rule})", hq))
        else:
            res.notes.append(f"no command bonus: {why.message} ({why.rule})")
    else:
        res.notes.append("the attacker does not declare the command bonus (11.10 A)")


def _air_base(position: Position, facts: MapFacts, target: Hex, side: str, sector: str | None,
              reach: int) -> tuple[str, int, str] | None:
    """The nearest city or town of ``sector`` within ``reach`` of ``target`` held by a supplied land unit (11.8 A)."""
    cmap = position.game.map
    towns = sorted((t.distance(target), cmap.name(t), t) for t in facts.towns
                   if t.distance(target) <= reach and facts.in_sector(t, sector))
    if not towns:
        return None
    holders = {t: [u for u in position.at(t) if u.side == side and is_unit(u)
                   and (sector is None or unit_sector(u, facts) in (None, sector))] for _, _, t in towns}
    if not any(holders.values()):
        return None
    report = supply(position, side=side)
    supplied = {s.unit for s in report.units if s.supplied}
    for d, _, t in towns:
        ok = [u.id for u in holders[t] if u.id in supplied]
        if ok:
            place = cmap.hexes[t].place
            return (f"{cmap.name(t)} ({place})" if place else cmap.name(t)), d, ", ".join(ok)
    return None


def _choose_table(position: Position, tables: Tables, res: CombatResult, land: list[Unit], target: Hex,
                  wanted: str | None) -> None:
    cmap = position.game.map
    place = cmap.hexes[target].place
    where = f"{cmap.name(target)} ({place})" if place else cmap.name(target)
    barred = {p.casefold() for p in tables.no_mocrt_into}
    res.mocrt_allowed = False
    if place and place.casefold() in barred:
        res.mocrt_reason = Reason("21.2", f"no MOCRT attack into {where} (21.2)")
    else:
        report = supply(position, side=land[0].side)
        ids = {u.id for u in land}
        out = [s.unit for s in report.units if s.unit in ids and not s.supplied]
        if out:
            res.mocrt_reason = Reason("11.13 B", f"the MOCRT needs every attacker in supply; out of supply: "
                                                 f"{', '.join(sorted(out))} (11.1 B, 11.13 B, 15.7 A)")
        else:
            res.mocrt_allowed = True
            res.mocrt_reason = Reason("11.13 B", "every attacker is in supply: the MOCRT may be chosen (11.1 B, "
                                                 "11.13 B)")
    if wanted == MOCRT and not res.mocrt_allowed:
        raise _Refuse(res.mocrt_reason.rule, res.mocrt_reason.message.rsplit(" (", 1)[0])
    if wanted == RCRT:
        res.table, res.table_why = RCRT, Reason("11.13 B", "the attacker chose the Raid CRT, always allowed "
                                                           "(11.13 A/B)")
    elif wanted == MOCRT:
        res.table, res.table_why = MOCRT, Reason("11.13 A", "the attacker chose the MOCRT; " +
                                                 res.mocrt_reason.message)
    elif res.mocrt_allowed:
        res.table, res.table_why = MOCRT, Reason("11.13 A", "no table named: the MOCRT, which is allowed ("
                                                 "every attacker in supply); the Raid CRT row is given too "
                                                 "(11.13 A)")
    else:
        res.table, res.table_why = RCRT, Reason(res.mocrt_reason.rule, "the Raid CRT: "
                                                + res.mocrt_reason.message)
