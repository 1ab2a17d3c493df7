"""Where reinforcements may be placed (6.x, 18.4).

A unit off the map (a box of the position) is placed during its side's
Reinforcement Phase of its sector (6.2 A, 6.2 C), once its turn has come
(6.1: the counter's ``arrival``).  Where:

* Allied Western (6.3 A), CP Western (6.3 C), CP Eastern (6.3 D): the entry
  hexes of ``game.yaml`` ``place_lists`` (``allied_west_entry``,
  ``cp_west_entry``, ``cp_east_entry``), never a hex holding enemy units
  (6.4 A), an enemy ZOC being allowed (6.4 B).  When every entry hex holds
  enemy units the arrival waits (6.5 A).
* Allied Eastern (6.3 B, 18.x), only once the Arab Revolt has been triggered
  (18.1 A; the position parameter ``arab_revolt`` names the turn):
  ``AR+n`` units from that turn + n (18.2 B), in an Allied-occupied port of
  ``place_lists.eastern_ports`` (18.4); tribal units anywhere in the Eastern
  Sector free of enemy units and EZOC, within 6 hexes of the south map edge
  or of another Allied Eastern unit (18.4; distances in ``tables.yaml``
  ``arab_revolt.deploy``).

Readings of our own: units come from the ``reinforcements`` box, tribal units
also straight from the ``tribal_pool`` once drawn; a unit whose counter says
``start`` may still be placed (it comes back as a replacement, 14.x); prohibited (all-sea) hexes are never
offered; stacking is left to the checker, which judges it at the end of the
phase (9.2 A).
"""
from __future__ import annotations

from ...game import Position, Unit
from ...game.moves import Reason
from ...game.placement import Placement, placement_json  # noqa: F401  (placement_json: this game's `place --json`)
from ...hexgrid import Hex
from .mapfacts import ALLIED, EASTERN, WESTERN, MapFacts, map_facts
from .places import place_hexes
from .supply import enemy_zoc, is_unit, side_kind, unit_sector
from .tables import Tables, load_tables

REVOLT_PARAM = "arab_revolt"
ARRIVING_BOX = "reinforcements"
PLACED_FROM = (ARRIVING_BOX, "tribal_pool")     # 6.1; 18.2 A, 18.3: tribal units drawn from the pool
ENTRY_LISTS = {(ALLIED, WESTERN): ("allied_west_entry", "6.3 A"), ("cp", WESTERN): ("cp_west_entry", "6.3 C"),
               ("cp", EASTERN): ("cp_east_entry", "6.3 D")}


def _turn_index(position: Position, turn: str) -> int | None:
    turns = position.game.spec.turns
    return turns.index(turn) if turn in turns else None


def arrival_refusal(position: Position, u: Unit) -> Reason | None:
    """Whether the unit's turn has come (6.1; AR+n: n turns after the revolt, 18.2 B)."""
    arrival = str(u.counter.value("arrival", default="start"))
    now = _turn_index(position, position.turn)
    if u.counter.value("tribal", default=False) or arrival.startswith("AR+") or arrival == "pool":
        revolt = position.params.get(REVOLT_PARAM)
        if _turn_index(position, str(revolt)) is None:
            return Reason("18.1 A", f"Allied Eastern units arrive only after the Arab Revolt; set the position "
                                    f"parameter {REVOLT_PARAM!r} to the turn it was triggered (e.g. 1916-II, 19.9.1)")
        due = _turn_index(position, str(revolt)) + (int(arrival[3:]) if arrival.startswith("AR+") else 0)
        rule = "18.2 B"
    else:
        due, rule = _turn_index(position, arrival), "6.1"
    if due is not None and now is not None and now < due:
        when = position.game.spec.turns[due]
        return Reason(rule, f"{u.id} arrives in {when}; it is now {position.turn}")
    return None


def _phase_refusal(position: Position, u: Unit, sector: str) -> Reason | None:
    """Placement happens in the owner's Reinforcement Phase of the unit's sector (6.2 A/C)."""
    wanted = f"{'west' if sector == WESTERN else 'east'}_{side_kind(u.side)}_reinforcement"
    if wanted in position.game.spec.phases and position.phase != wanted:
        return Reason("6.2 A", f"{u.id} is placed in the {wanted.replace('_', ' ')} phase, not {position.phase}")
    return None


def _south_edge(facts: MapFacts) -> set[Hex]:
    """Land hexes with no map hex straight south of them."""
    return {h for h in facts.neighbors if Hex(h.q, h.r + 1) not in facts.neighbors and h not in facts.prohibited}


def _tribal_hexes(position: Position, facts: MapFacts, tables: Tables, enemy: set[Hex],
                  ezoc: set[Hex]) -> tuple[list[Hex], dict[Hex, Reason]]:
    """18.4: Eastern Sector hexes free of enemy units and EZOC, near the south edge or an Allied Eastern unit."""
    reach = tables.arab_revolt.deploy
    south = _south_edge(facts)
    friends = [u.hex for u in position.units
               if is_unit(u) and side_kind(u.side) == ALLIED and unit_sector(u, facts) == EASTERN]
    hexes, blocked = [], {}
    name = position.game.map.name
    for h in sorted(facts.neighbors):
        if facts.sector(h) != EASTERN or h in facts.prohibited:
            continue
        if not (any(h.distance(e) <= reach.south_edge_hexes for e in south)
                or any(h.distance(f) <= reach.near_allied_east_unit_hexes for f in friends)):
            continue
        if h in enemy:
            blocked[h] = Reason("18.4", f"{name(h)} holds enemy units")
        elif h in ezoc:
            blocked[h] = Reason("18.4", f"{name(h)} is in an enemy ZOC")
        else:
            hexes.append(h)
    return hexes, blocked


def placement(position: Position, unit_id: str) -> Placement:
    """Where an off-map unit may be placed as a reinforcement now (6.x, 18.4), or why not.

    In Scenario 1 on turn 1915-II, in the Allied Western Reinforcement Phase, a Western division due that
    turn may go in any of the nineteen western-edge hexes of Egypt (6.3 A) that holds no CP unit.
    """
    u = position.by_id[unit_id]
    if u.hex is not None:
        return Placement(u.id, refused=Reason("6.2 A", f"{u.id} is already on the map"))
    if u.box not in PLACED_FROM:
        return Placement(u.id, refused=Reason("6.1", f"{u.id} is in the {u.box} box; reinforcements are placed from "
                                                     f"the {' or '.join(PLACED_FROM)} box"))
    tables = load_tables(position.game.folder)
    facts = map_facts(position.game.map, tables.rail)
    sector = unit_sector(u, facts)
    if sector is None:
        return Placement(u.id, refused=Reason("6.2 C", f"counter {u.counter.id} has no sector letter (values.sector "
                                                       "W or E in counters.yaml): its entry area is unknown"))
    refused = arrival_refusal(position, u) or _phase_refusal(position, u, sector)
    if refused is not None:
        return Placement(u.id, refused=refused)
    enemy = {v.hex for v in position.units if v.side != u.side and is_unit(v)}
    name = position.game.map.name
    kind = side_kind(u.side)
    if kind == ALLIED and sector == EASTERN:
        if u.counter.value("tribal", default=False):
            ezoc = enemy_zoc(position, facts, u.side)
            hexes, blocked = _tribal_hexes(position, facts, tables, enemy, ezoc)
            return Placement(u.id, tuple(hexes), "18.4", None, blocked)
        ports = place_hexes(position, "eastern_ports", "game.yaml", "place_lists.eastern_ports")
        held = [h for h in ports if any(is_unit(v) and v.side == u.side for v in position.at(h))]
        blocked = {h: Reason("18.4", f"{name(h)} is not held by Allied units") for h in ports if h not in held}
        if not held:
            return Placement(u.id, refused=Reason("18.4", "AR+ units deploy in an Allied-held Eastern port; the "
                                                          "Allies hold none"), blocked=blocked)
        return Placement(u.id, tuple(held), "18.4", None, blocked)
    key, rule = ENTRY_LISTS[(kind, sector)]
    entry = place_hexes(position, key, "game.yaml", f"place_lists.{key}")
    blocked = {h: Reason("6.4 A", f"{name(h)} holds enemy units") for h in entry if h in enemy}
    free = tuple(h for h in entry if h not in enemy)
    if not free:
        return Placement(u.id, refused=Reason("6.5 A", "every entry hex holds enemy units: the arrival waits for "
                                                       "a Reinforcement Phase with a free one"), blocked=blocked)
    return Placement(u.id, free, rule, None, blocked)


