"""Combat odds of a ``rules.yaml`` game (``combat`` section): strengths, the column of the results table after
every shift, the die-roll modifiers, and each roll's result with its meaning and chance.

Strengths come from counter values (the face a unit shows), halved or otherwise changed out of supply; the
defender's terrain multiplies the defence or shifts the column (of several terrains, the best for the defender);
a hexside feature between the attackers and the defender shifts it when every attacker (or any) attacks across
it; modifiers with conditions add shifts or die-roll modifiers.  Odds are rounded in the defender's favour;
odds beyond the table use its end columns (or ``below``: a result, or ``refused``: no such attack).
"""
from __future__ import annotations

from collections import Counter as Tally
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from math import floor
from typing import Any, Sequence

from ...game import Position, Unit
from ...game.moves import Reason
from ...game.odds import Applied, Strength, fraction, number, odds_json, ratio, ratio_value
from ...game.rulesdata import Combat, Modifier
from .facts import chosen, holds, matching, rules_of, value


@dataclass
class CombatResult:
    """One attack worked out (see the module doc)."""

    kind: str
    attackers: list[Strength]
    defenders: list[Strength]
    attack: Fraction = Fraction(0)
    defence: Fraction = Fraction(0)
    raw_odds: str | None = None
    odds: str | None = None              # the column used
    shifts: list[Applied] = field(default_factory=list)
    modifiers: list[Applied] = field(default_factory=list)
    total_modifier: int = 0
    results: list[dict] = field(default_factory=list)
    chances: dict[str, float] = field(default_factory=dict)
    probability: float | None = None
    refused: Reason | None = None
    notes: list[str] = field(default_factory=list)


def combat(position: Position, attack: Sequence[str], defend: Sequence[str], kind: str | None = None,
           protected: Sequence[str] = (), fired: Sequence[str] = (), **_options: Any) -> CombatResult:
    """The attack of ``attack`` on ``defend`` (unit ids) by the game's results table."""
    c = rules_of(position).combat
    attackers, defenders = [position.by_id[u] for u in attack], [position.by_id[u] for u in defend]
    result = CombatResult(c.table.kind, [], [])
    result.refused = _refusal(position, c, attackers, defenders)
    if result.refused is not None:
        return result
    target = defenders[0].hex
    unsupplied = _out_of_supply(position, attackers + defenders) if c.out_of_supply is not None else set()
    terrain = _terrain_effect(position, c, target)
    result.attackers = [_strength(position, c, u, c.attack, unsupplied, *_across(position, c, u, target))
                        for u in attackers]
    result.defenders = [_strength(position, c, u, c.defence, unsupplied, terrain[0], terrain[1]) for u in defenders]
    result.attack = sum((s.strength for s in result.attackers), Fraction(0))
    result.defence = sum((s.strength for s in result.defenders), Fraction(0))
    base = _base_column(c, result)
    if base < 0 and c.table.below == "refused":   # no attack below the table's first column
        result.refused = Reason(c.table.rule or c.rule, f"odds of {result.raw_odds or '0'} are below the lowest "
                                                        f"column, {c.table.columns[0]}: the attack is not allowed")
        return result
    applying = [m for m in c.modifiers if _holds(position, m, attackers, defenders)]
    crossing = _crossing(position, c, attackers, target)
    result.shifts = terrain[2] + [a for a, _ in crossing if a.value] + [
        Applied(m.id, m.shift, m.rule or c.rule, m.why or m.id) for m in applying if m.shift]
    result.modifiers = [replace(a, value=drm) for a, drm in crossing if drm] + [
        Applied(m.id, m.drm, m.rule or c.rule, m.why or m.id) for m in applying if m.drm]
    result.total_modifier = sum(m.value for m in result.modifiers)
    _resolve(c, result, base)
    return result


def with_shifts(position: Position, result: CombatResult, shifts: Sequence[Applied]) -> CombatResult:
    """An attack :func:`combat` worked out (not refused), with more column shifts (a rules plugin's own,
    docs/plugins.md): the column and each roll's result worked out again."""
    c = rules_of(position).combat
    out = replace(result, shifts=[*result.shifts, *shifts], results=[], chances={})
    _resolve(c, out, _base_column(c, out))
    return out


def _refusal(position: Position, c: Combat, attackers: list[Unit], defenders: list[Unit]) -> Reason | None:
    if not attackers or not defenders:
        return Reason(c.rule, "name at least one attacker and one defender")
    if any(u.hex is None for u in attackers + defenders):
        return Reason(c.rule, "every unit in a combat must be on the map")
    if len({u.side for u in attackers}) > 1 or {u.side for u in attackers} & {u.side for u in defenders}:
        return Reason(c.rule, "the attackers are one side's units, the defenders the other's")
    if len({u.hex for u in defenders}) > 1:
        return Reason(c.rule, "the defenders must stand in one hex")
    far = [u.id for u in attackers if u.hex.distance(defenders[0].hex) != 1]
    if far:
        return Reason(c.adjacent.rule or c.rule, f"{', '.join(far)} not next to the defender's hex")
    return None


def _out_of_supply(position: Position, units: list[Unit]) -> set[str]:
    if rules_of(position).supply is None:
        return set()
    from .trace import supply
    report = supply(position)
    ids = {u.id for u in units}
    return {ln.unit for ln in report.units if ln.unit in ids and not ln.supplied}


def _terrain_effect(position: Position, c: Combat, h) -> tuple[Fraction, str, list[Applied]]:
    """The defender's terrain: the defence multiplier, how it was obtained, and the column shift (the best of the
    hex's terrains for the defender)."""
    terrain = chosen(c.terrain, position, h)   # each terrain's effect (or variant) holding now
    effects = [(t, terrain[t]) for t in position.game.map.hexes[h].terrain if t in terrain]
    mult = max((fraction(e.multiply) for _, e in effects if e.multiply is not None), default=Fraction(1))
    how = next((f" x{number(mult)} in {t} ({e.rule or c.terrain_rule or c.rule})" for t, e in effects
                if e.multiply is not None and fraction(e.multiply) == mult), "")
    shifted = [(e.shift, t, e) for t, e in effects if e.shift]
    shifts = []
    if shifted:
        s, t, e = min(shifted, key=lambda x: x[0])
        shifts.append(Applied(f"terrain-{t}", s, e.rule or c.terrain_rule or c.rule, f"the defender is in {t}"))
    return mult, how, shifts


def _strength(position: Position, c: Combat, u: Unit, key: str, unsupplied: set[str], mult: Fraction,
              how: str) -> Strength:
    s = fraction(value(position, u, key)) * mult
    if u.id in unsupplied:
        factor = fraction(c.out_of_supply.attack if key == c.attack else c.out_of_supply.defence)
        if factor != 1:
            s *= factor
            how += f" x{number(factor)} out of supply ({c.out_of_supply.rule or c.rule})"
    return Strength(u.id, s, f"{key} {number(fraction(value(position, u, key)))}{how}")


def _base_column(c: Combat, result: CombatResult) -> int:
    """The column before shifts (-1: below the table)."""
    t = c.table
    if t.kind == "odds":
        if result.defence <= 0 or result.attack <= 0:
            result.raw_odds = None
            return -1 if result.attack <= 0 else len(t.columns) - 1
        result.raw_odds = ratio(result.attack, result.defence)
        raw = ratio_value(result.raw_odds)
        values = [ratio_value(col) for col in t.columns]
    else:
        raw = floor(result.attack - result.defence)
        result.raw_odds = f"{raw:+d}"
        values = [int(col) for col in t.columns]
    fits = [i for i, v in enumerate(values) if v <= raw]
    return fits[-1] if fits else -1


def _crossing(position: Position, c: Combat, attackers: list[Unit], target) -> list[tuple[Applied, int]]:
    """The hexside features the attack crosses (``combat.hexsides``, when every attacker attacks across one, or
    any does): each one's column shift (as applied) and die-roll modifier."""
    out = []
    for f, e in chosen(c.hexsides, position, target).items():
        across = [u for u in attackers if matching({f: e}, position.game.map.hexside(u.hex, target))]
        if across and (e.across == "any" or len(across) == len(attackers)):
            who = "every attacker attacks" if e.across == "all" else "an attacker attacks"
            out.append((Applied(f"across-{f}", e.shift, e.rule or c.rule, f"{who} across the {e.label(f)}"), e.drm))
    return out


def _across(position: Position, c: Combat, u: Unit, target) -> tuple[Fraction, str]:
    """What the hexsides an attacker attacks across do to its attack (``combat.hexsides``: ``attack``), and how."""
    mult, how = Fraction(1), ""
    for f, e in matching(chosen(c.hexsides, position, target), position.game.map.hexside(u.hex, target)):
        if e.attack is not None:
            mult *= fraction(e.attack)
            how += f" x{number(fraction(e.attack))} across the {e.label(f)} ({e.rule or c.rule})"
    return mult, how


def _holds(position: Position, m: Modifier, attackers: list[Unit], defenders: list[Unit]) -> bool:
    w = m.when
    terrain = set(position.game.map.hexes[defenders[0].hex].terrain)
    return ((not w.attacker_types or any(u.type in w.attacker_types for u in attackers))
            and (not w.defender_types or any(u.type in w.defender_types for u in defenders))
            and (not w.defender_terrain or bool(terrain & set(w.defender_terrain)))
            and not terrain & set(w.defender_terrain_not)
            and holds(position, w, defenders[0].hex))


def _resolve(c: Combat, result: CombatResult, base: int) -> None:
    """The column after shifts and each roll's result (modified, within the table's rows)."""
    t = c.table
    shift = sum(s.value for s in result.shifts)
    below = base < 0 and t.below is not None
    column = min(max(base + shift, 0), len(t.columns) - 1) if not below else None
    result.odds = t.columns[column] if column is not None else f"below {t.columns[0]}"
    lo, hi = min(t.rows), max(t.rows)
    n, sides = t.die
    tally = Tally(sum(roll) for roll in product(range(1, sides + 1), repeat=n))
    total = sum(tally.values())
    for roll in sorted(tally):
        row = min(max(roll + result.total_modifier, lo), hi)
        code = t.below if column is None else t.rows[row][column]
        result.results.append({"die": roll, "final": row, "result": code, "meaning": c.results[code],
                               "chance": tally[roll] / total})
        result.chances[code] = result.chances.get(code, 0) + tally[roll] / total


def combat_json(result: CombatResult) -> dict[str, Any]:
    """``toolkit odds --json`` for a ``rules.yaml`` game: the shared keys (docs/cli.md) plus ``table``,
    ``shifts``, ``results`` (each roll's result, its meaning and chance) and ``chances`` by result."""
    return {**odds_json(result), "table": "crt", "kills_on": None,
            "shifts": [{"columns": s.value, "id": s.id, "rule": s.rule, "why": s.why} for s in result.shifts],
            "results": result.results, "chances": result.chances}
