"""*The Siege of Jerusalem*: one combat as one action (docs/plugins.md ``resolve``), every consequence applied.

* :func:`resolve` -- a melee (Melee Phase, 4.14, 4.24, 11.x) or a missile attack (Fire Phase, 4.12, 4.22, 9.x,
  13.x): legality (:func:`.combat.combat`, 11.8, 9.1), one die (``roll(6)``), the Melee or Missile Table's
  result, and then: the defender's choice of the units that take it (11.82, 14.3, 14.33, 14.4; ``choose``), a D
  taken as a B when the defender likes (14.2), eliminations (Wreckage for Artillery other than Cauldrons and for
  Siege Engines, 14.5), Disruption, retreats one unit at a time (14.2, 15.x: ``choose`` picks the hex, or "off the
  map", 15.5), a Testudo left with fewer than two Fresh Heavy Infantry or with a unit in Panic disbanded into a
  Broken Testudo (16.4), a Ladder whose Base unit is no longer Fresh lost (8.7), the advance after combat into the
  vacated hex and, for excess E results, beyond (11.86, 11.9: ``choose``), its Multiple Attack marker (11.9), and
  Continuous Combat on a natural or final 6 or more (11.87: ``choose`` whether to attack again).  The attackers
  are flagged ``attacked`` or ``fired``.
* :func:`attack_options` -- cheap candidates for random playouts: per enemy hex, the phasing side's eligible units
  next to it (melee) or, in a Fire Phase, each side's Fresh missile units within reach (9.2); sorted.

Not done here (docs/games/siege-of-jerusalem.md): Breach attacks (10.1), the Primary Target's share of a missile
result (13.2), 13.21's Rout and Panic of Artillery by Fire, Wreckage's effect on stacking and movement, and one
attack per hex a phase (9.6, 11.81) -- the position does not record which hexes were attacked.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence, TypeVar

from ...game import Position, Unit
from ...game.position import MarkerAt
from ...game.retreat import Order, retreats
from ...hexgrid import Hex
from .combat import advances, combat, missile_af, _rock_thrower
from .combat_tables import load_combat_tables, table_result
from .movement import arrival_flags
from .procedures import MARKERS, multiple_attack_markers
from .retreat import OFF, SiegeRetreat, _with_off_board, apply_retreat, options, result_orders
from .tables import load_tables
from .zoc import fresh, is_combat, unit_class

T = TypeVar("T")
KIND_OF_PHASE = {"melee": "melee", "fire": "missile"}        # 4.12, 4.14, 4.22, 4.24
SEVERITY = "ED"                                              # 11.82: the most severe results first
MARKERS_BY_LETTER = {letter: flag for flag, letter in MARKERS.items()}                     # 11.9
NO_MELEE = ("testudo", "pushing", "ladder_base")                                          # 11.2, 11.5, 11.6
HEX_FLAGS = ("pushing", "riding", "on_ladder", "ladder_base", "testudo", "gate_stair", "on_ramp")


def _refuse(rule: str, text: str) -> ValueError:
    return ValueError(f"{rule}: {text}")


def _check_turn(position: Position, attackers: Sequence[Unit], kind: str | None) -> str:
    """The kind of the combat, or why the phase allows none (4.12-4.24, 9.1, 11.8)."""
    phase_kind = KIND_OF_PHASE.get(position.phase)
    kind = kind or phase_kind
    if kind not in ("melee", "missile") or kind != phase_kind:
        raise _refuse("4.1", f"no {kind or 'combat'} in the {position.phase} phase: melee in a Melee Phase, missile "
                             "fire in a Fire Phase (4.12-4.24)")
    if kind == "melee" and any(u.side != position.phasing_side for u in attackers):
        raise _refuse("4.14", "only the phasing side attacks in its Melee Phase (4.14, 4.24)")
    again = [u.id for u in attackers if u.has("fired")] if kind == "missile" else []
    if again:
        raise _refuse("9.1", f"{', '.join(again)} already fired this Fire Phase")
    if kind == "melee":
        refused = multiple_attack_markers(position, [u.id for u in attackers])["refused"]
        if refused:
            raise _refuse(refused["rule"], refused["reason"])
    return kind


def resolve(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str | None = None,
            roll: Callable[[int], int], choose: Callable[[str, Sequence[T]], T]) -> tuple[Position, list[dict]]:
    """One whole combat (see the module docstring): the position after it and notes ``[{"rule", "text"}]``."""
    unknown = [u for u in [*attackers, *defenders] if u not in position.by_id]
    if unknown:
        raise ValueError(f"unknown unit id(s): {', '.join(unknown)}")
    kind = _check_turn(position, [position.by_id[a] for a in attackers], kind)
    target = position.by_id[defenders[0]].hex if defenders else None
    notes: list[dict] = []
    attack = multiple_attack_markers(position, attackers) if kind == "melee" else None
    while True:
        position, die, res, excess = _one_attack(position, attackers, defenders, kind, roll, choose, notes, target)
        left = [u for u in position.at(target) if u.side != position.by_id[attackers[0]].side]
        again = kind == "melee" and left and (die >= 6 or die + res.total_modifier >= 6) and all(
            fresh(position.by_id[a]) and position.by_id[a].hex is not None for a in attackers)
        if not again or not choose(f"attack {position.game.map.name(target)} again (11.87)", [False, True]):
            break
        notes.append({"rule": "11.87", "text": "Continuous Combat: the same units attack the same hex again"})
        defenders = [u.id for u in left]
    position = _mark_attackers(position, attackers, kind, attack)
    if kind == "melee" and not [u for u in position.at(target) if u.side != position.by_id[attackers[0]].side]:
        position = _advance(position, attackers, target, attack, excess, choose, notes)
    return position, notes


def _one_attack(position: Position, attackers: Sequence[str], defenders: Sequence[str], kind: str,
                roll: Callable[[int], int], choose, notes: list[dict], target: Hex):
    """One roll on the table and its result applied (the position, the die, the combat, the excess E results)."""
    res = combat(position, attackers, defenders, kind=kind)
    if not res.allowed:
        raise _refuse(res.refused.rule, res.refused.message)
    t = load_combat_tables(position.game.folder)
    die = roll(6)
    final = die + res.total_modifier
    table = t.melee_table if kind == "melee" else t.missile_table
    results = table.results[res.column] if kind == "melee" else table.results[str(res.column)]
    code = table_result(tuple(table.rolls), tuple(results), final)
    notes.append({"rule": "11.81" if kind == "melee" else "13.2",
                  "text": f"{res.odds if kind == 'melee' else f'{res.row} row, column {res.column}'}: die {die}, "
                          f"drm {res.total_modifier:+d}, final {final}: {code}"})
    position, excess = _apply(position, res, code, kind, choose, notes, target, attackers)
    return position, die, res, excess


def _apply(position: Position, res, code: str, kind: str, choose, notes: list[dict], target: Hex,
           attackers: Sequence[str]) -> tuple[Position, int]:
    """The result ``code`` applied to the defenders in ``target`` (11.82, 14.x, 15.x, 16.4, 14.5, 8.7), and the E
    results beyond the defenders (11.86)."""
    if code == "-":
        notes.append({"rule": "14.1", "text": "no effect"})
        return position, 0
    side = position.by_id[attackers[0]].side
    eligible = sorted(res.targets if res.targets is not None else
                      [u.id for u in position.at(target) if u.side != side and is_combat(u)])
    if kind == "melee" and code == "D" and len(eligible) >= 1 and choose(
            "take a B (retreat) instead of the D (14.2)", [False, True]):
        code = "B"
        notes.append({"rule": "14.2", "text": "the defender takes a B instead of the D"})
    enemy = sorted({position.by_id[a].hex for a in attackers}, key=position.game.map.name)
    if code == "B":
        return _carry_out(position, [u.id for u in position.at(target) if u.side != side and is_combat(u)],
                          enemy, code, kind, choose, notes, target), 0
    letters = list(code)
    if len(eligible) < len(letters):
        letters = sorted(letters, key=SEVERITY.index)[:len(eligible)]                               # 11.82
    chosen, pool = [], list(eligible)
    for letter in letters:
        what = "eliminate (14.4)" if letter == "E" else "Disrupt (14.3, 14.33)"
        pick = choose(f"unit to {what}", sorted(pool))
        pool.remove(pick)
        chosen.append(pick)
    excess = code.count("E") - len(eligible)
    position = _carry_out(position, chosen, enemy, code, kind, choose, notes, target)
    if excess > 0:
        notes.append({"rule": "11.86", "text": f"{excess} E result(s) beyond the defenders: an advance of as many "
                                               "hexes beyond the vacated hex"})
    return position, max(0, excess)


def _carry_out(position: Position, unit_ids: list[str], enemy: list[Hex], code: str, kind: str, choose,
               notes: list[dict], target: Hex) -> Position:
    """Eliminations and Disruptions first, then each retreat one unit at a time (14.2), then the hex's Testudo and
    Ladder (16.4, 8.7)."""
    hooks, orders = result_orders(position, unit_ids, enemy, result=code, kind=kind)
    answer = retreats(position, hooks, orders, code)
    box = position.game.spec.eliminated_box
    changes, wrecks = {}, []
    for f in answer.units:
        o = f.order
        if f.eliminated is not None:
            changes[f.unit.id] = replace(f.unit, hex=None, box=box, flags=f.unit.flags - set(HEX_FLAGS))
            notes.append({"rule": f.eliminated.rule, "text": f"{f.unit.id} eliminated: {f.eliminated.message}"})
            wrecks += _wreckage(f.unit)
        else:
            changes[f.unit.id] = f.unit
            for r in (o.flipped, o.stays):
                if r is not None:
                    notes.append({"rule": r.rule, "text": f"{f.unit.id}: {r.message}"})
    position = position.moved(changes)
    position = replace(position, markers=position.markers + tuple(wrecks))
    for f in answer.units:
        if f.eliminated is None and f.order.retreat is not None:
            position = _retreat_one(position, hooks, f.order, choose, notes)
    return _ladder_lost(_testudo_disbands(position, target, notes), target, notes)


def _wreckage(u: Unit) -> list[MarkerAt]:
    """14.5: eliminated Artillery (not a Cauldron) and Siege Engines leave Wreckage in their hex."""
    if u.hex is not None and (unit_class(u) == "siege_engine" or unit_class(u) == "artillery"
                              and u.type != "cauldron"):
        return [MarkerAt("wreckage", u.hex)]
    return []


def _retreat_one(position: Position, first: SiegeRetreat, order: Order, choose, notes: list[dict]) -> Position:
    """One unit's retreat on the position as the units before it left it (14.2): its hex, or off the map (15.5),
    by ``choose``; eliminated when it has none (15.1)."""
    hooks = SiegeRetreat(position)
    hooks.one_hex = set(first.one_hex)                                           # 14.21
    uid = order.unit
    answer = _with_off_board(hooks, retreats(position, hooks, [replace(order, flipped=None)], None))
    f = answer.units[0]
    where = options(answer, uid)
    if not where:
        why = f.eliminated
        notes.append({"rule": why.rule if why else "15.1", "text": f"{uid} eliminated: "
                      + (why.message if why else "no legal retreat")})
        u = position.by_id[uid]
        return position.moved({uid: replace(u, hex=None, box=position.game.spec.eliminated_box,
                                            flags=u.flags - set(HEX_FLAGS))})
    pick = choose(f"hex {uid} retreats to (15.1)", where)
    after = apply_retreat(answer, {uid: pick})
    notes.append({"rule": "15.5" if pick == OFF else order.retreat.rule, "text": f"{uid} retreats to {pick}"})
    u = after.by_id[uid]
    arrived = arrival_flags(after, u, u.hex) if u.hex is not None else frozenset()          # 6.4, 6.61, 15.2
    flags = (u.flags - set(HEX_FLAGS)) | arrived
    return after.moved({uid: replace(u, flags=frozenset(flags))})


def _testudo_disbands(position: Position, h: Hex, notes: list[dict]) -> Position:
    """16.4: a Testudo left with fewer than two Fresh Heavy Infantry, or holding a unit in Panic, disbands at once;
    its units become a Broken Testudo (-6 MF for the Fresh ones)."""
    members = [u for u in position.at(h) if u.has("testudo")]
    if not members:
        return position
    strong = [u for u in members if unit_class(u) == "heavy_infantry" and fresh(u)]
    if len(strong) >= 2 and not any(u.has("panicked") for u in members):
        return position
    notes.append({"rule": "16.4", "text": f"the Testudo in {position.game.map.name(h)} disbands: a Broken Testudo"})
    changed = {u.id: replace(u, flags=(u.flags - {"testudo"}) | {"broken_testudo"}) for u in members}
    markers = tuple(m for m in position.markers if not (m.hex == h and m.marker in ("testudo", "testudo_velites")))
    return replace(position.moved(changed), markers=markers)


def _ladder_lost(position: Position, h: Hex, notes: list[dict]) -> Position:
    """8.7: a Ladder exists only with a Fresh Base unit; without one it is lost and its climbers stand in the hex."""
    if not position.markers_at(h, "ladder"):
        return position
    if any(u.has("ladder_base") and fresh(u) for u in position.at(h)):
        return position
    notes.append({"rule": "8.7", "text": f"the Ladder in {position.game.map.name(h)} is lost: no Fresh Base unit"})
    changed = {u.id: replace(u, flags=u.flags - {"ladder_base", "on_ladder"}) for u in position.at(h)}
    markers = tuple(m for m in position.markers if not (m.hex == h and m.marker == "ladder"))
    return replace(position.moved(changed), markers=markers)


def _mark_attackers(position: Position, attackers: Sequence[str], kind: str, attack: dict | None) -> Position:
    """The attackers flagged ``attacked`` / ``fired`` (11.8, 9.1); the Multiple Attack markers removed (11.9)."""
    flag = "attacked" if kind == "melee" else "fired"
    changed = {a: replace(position.by_id[a], flags=position.by_id[a].flags | {flag}) for a in attackers
               if position.by_id[a].hex is not None}
    position = position.moved(changed)
    if attack is None:
        return position
    gone = {r["unit"]: r["marker"] for r in attack["removed"]}
    return position.moved({u: replace(position.by_id[u], flags=position.by_id[u].flags - {MARKERS_BY_LETTER[m]})
                           for u, m in gone.items()})


def _advance(position: Position, attackers: Sequence[str], target: Hex, attack: dict, excess: int,
             choose, notes: list[dict]) -> Position:
    """11.86, 11.9: the defender's hex is empty: each attacker may advance into it (the side's stacking limit
    there), and one hex further for each excess E; those who advance take the next Multiple Attack marker."""
    name = position.game.map.name
    here = advances(position, list(attackers), name(target), excess_e=excess)
    if here.get("refused"):
        return position
    limit = here["stacking_limit"]
    free = tuple(load_tables(position.game.folder).stacking.free_classes)
    count = sum(1 for u in position.at(target) if unit_class(u) not in free)
    marker = MARKERS_BY_LETTER[attack["advancing_marker"]]
    for a in attackers:
        u = position.by_id[a]
        row = here["units"].get(a, {})
        counts = unit_class(u) not in free
        if u.hex is None or row.get("refused") or not row.get("destinations") or (
                limit is not None and counts and count >= limit):
            continue
        if not choose(f"advance {a} into {name(target)} (11.86, 11.9)", [False, True]):
            continue
        to = target
        beyond = sorted({d["hex"] for d in row["destinations"] if d["steps"] > 0})
        if beyond and choose(f"advance {a} beyond {name(target)} (11.86)", [False, True]):
            to = position.game.map.resolve(choose(f"hex {a} advances to (11.86)", beyond))
        count += counts and to == target
        flags = (u.flags - set(HEX_FLAGS)) | {marker}
        position = position.moved({a: replace(u, hex=to, flags=frozenset(flags))})
        notes.append({"rule": "11.9", "text": f"{a} advances to {name(to)}, under Multiple Attack marker "
                                              f"{attack['advancing_marker']}"})
    return position


def attack_options(position: Position) -> list[tuple[tuple[str, ...], tuple[str, ...], str | None]]:
    """Cheap candidates ``(attackers, defenders, kind)`` for the current phase (each may still be refused by
    :func:`resolve`), sorted: in a Melee Phase, per enemy hex, the phasing side's Fresh units next to it not yet
    flagged ``attacked`` (4.14, 11.8; not in a Testudo, pushing or holding a Ladder, 11.2, 11.5, 11.6); in a Fire
    Phase, per enemy hex, each side's Fresh missile and rock units within reach not yet flagged ``fired`` (4.12,
    9.1, 9.2, 10.2): all of them together, and each alone."""
    kind = KIND_OF_PHASE.get(position.phase)
    if kind is None:
        return []
    t = load_combat_tables(position.game.folder)
    found: dict[tuple[str, Hex], list[str]] = {}
    for u in position.units:
        if u.hex is None or not fresh(u) or not is_combat(u):
            continue
        if kind == "melee":
            if u.side != position.phasing_side or u.has("attacked") or any(u.has(f) for f in NO_MELEE) \
                    or u.counter.value("melee_defense_only"):
                continue
            reach = 1
        else:
            if u.has("fired"):
                continue
            bands = t.weapons_effects.bands(u.type)
            reach = bands[-1][0] if bands else (1 if _rock_thrower(u) else 0)
        for h in position.occupied():
            d = h.distance(u.hex)
            if 0 < d <= reach and any(e.side != u.side and is_combat(e) for e in position.at(h)):
                if kind == "missile" and missile_af(t, u, d)[0] is None and not (_rock_thrower(u) and d == 1):
                    continue
                found.setdefault((u.side, h), []).append(u.id)
    out = set()
    for (side, h), ids in found.items():
        defenders = tuple(sorted(e.id for e in position.at(h) if e.side != side))
        out |= {(tuple(sorted(ids)), defenders, kind)} | {((i,), defenders, kind) for i in ids}
    return sorted(out)
