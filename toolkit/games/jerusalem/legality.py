"""*Jerusalem!* position checker: every unit where the rules allow it to be.

:func:`check` returns one :class:`Violation` per broken rule, each naming its rule, the
hexes and the units; :func:`check_json` is its stable JSON form.

Readings the rulebook leaves open (also said in the messages where they matter):

* **Turn ends.**  A position is a snapshot; some rules bind only at the end of a player
  turn (12.3 Arab leaders not alone, 12.9.4 Shaltiel in a city hex, 13.2.5 terrorists
  off the garrison, 13.1.5 El Kutub off the Jewish hex).  They are checked only when
  the position is marked as the end of the phasing side's player turn:
  ``check(position, turn_end=True)`` or ``params: {turn_end: true}`` in the position
  file.  A scenario set-up is not a turn end.
* **Stacking (5.1, 5.2, 6.3.1, 12.2)** is checked per side and hex, at all times (5.3),
  with :func:`~toolkit.games.jerusalem.movement.stacking_violation` (the rule movement
  uses).  Every unit counts, carried units included (5.1); markers do not (1.2.2).  When
  a hex breaks a count limit its leader rules are checked too, so both are reported.
* **Enemy units in one hex (4.2)** are a violation, except (a) Irgun / Stern Gang units
  on top of an Arab garrison during the Jewish Overland Movement Phase, before the turn
  end: a terrorist attack in progress (13.2.3, 13.2.5); (b) El Kutub alone on top of
  Jewish units during an Arab player turn, before its end: a bombing in progress
  (13.1.3, 13.1.5).  Haj Amin may pass Jewish units but never stop with them (12.9.3).
* **Where units may not be (1.3).**  Before May III no unit is in Bevingrad, nor in the
  Latrun Police Fort or Notre Dame (a snapshot is a unit remaining there); trucks and
  buses are never in a stream hex without a road (a printed road in the hex, a city
  hex, or a bulldozer road marker touching it).
* **Kaukji (12.6 note)** must be stacked with at least one Arab unit (a leader is not one:
  5.2 allows one leader a hex).  The note has no turn-end qualifier, unlike 12.3, so it is
  checked at all times; the counter value ``must_stack`` marks him.
* **Haj Amin (12.9.3) and Shaltiel (12.9.4)** must be in one of the twelve Jerusalem
  city hexes of 1.3; Bevingrad is not one (1.3, 2.0).  Shaltiel's four-hex limit is
  counted to the nearest city hex.
* **Carrying (6.3.2, 8.6, 8.7.1, 8.7.9, 13.1.1, 13.2.2).**  Only transports (``transport``
  value, or a truck, bus, halftrack or the convoy) carry; the load of non-leaders is at
  most the ``capacity``; only infantry, artillery and leaders are carried, never a
  garrison (8.6) or an Irgun / Stern Gang unit (13.2.2) or a bombing El Kutub (13.1.1);
  Arab Legion transports carry only Legion units (leaders do not count, as in movement).
"""
from __future__ import annotations

from collections import defaultdict

from ...game import Position, Unit
from ...game.violations import Violation, violation
from ...hexgrid import Hex
from .units import is_city_bound_commander
from .movement import (BRITISH_LEAVE, INFANTRY, LEADERS, PASS_THROUGH_ONLY, TRANSPORTS, MapFacts, map_facts,
                       stacking_violation)

ARAB = "arab"
CITY = "jerusalem_city"
CARRIABLE = (INFANTRY, "artillery", *LEADERS)  # 8.6


def _is_amin(u: Unit) -> bool:
    return bool(u.counter.value("city_only"))


def _is_kutub(u: Unit) -> bool:
    return bool(u.counter.value("bomber"))


def _is_terrorist(u: Unit) -> bool:
    return bool(u.counter.value("terrorist"))


def _is_transport(u: Unit) -> bool:
    return bool(u.counter.value("transport")) or u.type in (*TRANSPORTS, "convoy")


def _where(position: Position, h: Hex) -> str:
    cmap = position.game.map
    place = cmap.hexes[h].place
    return f"{cmap.name(h)} ({place})" if place else cmap.name(h)


def _names(units) -> str:
    return ", ".join(u.id for u in units)


def check(position: Position, turn_end: bool | None = None) -> list[Violation]:
    """Every rule the position breaks (see the module docstring); ``[]`` when it is legal.

    ``turn_end`` says the position is the end of the phasing side's player turn;
    ``None`` reads ``params.turn_end`` (default false).
    """
    if turn_end is None:
        turn_end = bool(position.params.get("turn_end", False))
    facts = map_facts(position.game.map)
    out: list[Violation] = []
    for h in sorted(position.occupied(), key=position.game.map.name):
        units = position.at(h)
        out += _enemies(position, h, units, turn_end)
        for side in sorted({u.side for u in units}):
            out += _stacking(position, h, [u for u in units if u.side == side])
        out += _terrain(position, facts, h, units)
        out += _leaders(position, facts, h, units, turn_end)
    out += _carrying(position)
    return out


# -- 4.2 -----------------------------------------------------------------------------------
def _enemies(position: Position, h: Hex, units: list[Unit], turn_end: bool) -> list[Violation]:
    arabs = [u for u in units if u.side == ARAB]
    jews = [u for u in units if u.side != ARAB]
    if not arabs or not jews:
        return []
    mid_turn = not turn_end
    if (mid_turn and position.phasing_side != ARAB and position.phase != "road"
            and all(_is_terrorist(u) for u in jews) and any(u.type == "garrison" for u in arabs)):
        return []  # 13.2.3, 13.2.5: a terrorist attack in progress
    if mid_turn and position.phasing_side == ARAB and all(_is_kutub(u) for u in arabs):
        return []  # 13.1.3, 13.1.5: El Kutub on the hex he bombs
    amin = [u for u in arabs if _is_amin(u)]
    if amin and len(arabs) == len(amin):
        return [violation("12.9.3", f"Haj Amin ({_names(amin)}) may pass Jewish units but may not end in their hex "
                             f"{_where(position, h)}", position, [h], units)]
    return [violation("4.2", f"Jewish units ({_names(jews)}) and Arab units ({_names(arabs)}) share hex "
                      f"{_where(position, h)}; no unit may enter an enemy-occupied hex", position, [h], units)]


# -- 5.1, 5.2, 6.3.1, 12.2, 13.1.1, 13.2.1 -------------------------------------------------
def _stacking(position: Position, h: Hex, side_units: list[Unit]) -> list[Violation]:
    out = []
    where = _where(position, h)
    first = stacking_violation(side_units)
    if first is not None:
        out.append(violation(first.rule, f"{where}: {first.message}", position, [h], side_units))
        leaders = [u for u in side_units if u.type in LEADERS]
        if first.rule in ("5.1", "6.3.1") and leaders:
            sample, seen = list(leaders), set()
            for u in side_units:
                if u.type not in LEADERS and u.counter.nationality not in seen:
                    seen.add(u.counter.nationality)
                    sample.append(u)
            second = stacking_violation(sample)
            if second is not None and second.rule not in ("5.1", "6.3.1"):
                out.append(violation(second.rule, f"{where}: {second.message}", position, [h], leaders))
    attackers = [u for u in side_units if u.has("terrorist_attack")]
    others = [u for u in side_units if not _is_terrorist(u)]
    if attackers and others:
        out.append(violation("13.2.1", f"{where}: Irgun / Stern Gang units making a terrorist attack "
                                f"({_names(attackers)}) may not stack with other Jewish units ({_names(others)})",
                      position, [h], attackers + others))
    bombers = [u for u in side_units if _is_kutub(u) and u.has("bombing")]
    if bombers and len(side_units) > len(bombers):
        out.append(violation("13.1.1", f"{where}: El Kutub ({_names(bombers)}) may not stack with Arab units in the "
                                f"turn he bombs", position, [h], side_units))
    return out


# -- 1.3 -----------------------------------------------------------------------------------
def _british_here(position: Position) -> bool:
    turns = position.game.spec.turns
    return BRITISH_LEAVE in turns and position.game.turn_index(position.turn) < turns.index(BRITISH_LEAVE)


def _road_marker(position: Position, h: Hex) -> bool:
    return any(m.marker == "secondary_road" and (m.hex == h or m.toward == h) for m in position.markers)


def _terrain(position: Position, facts: MapFacts, h: Hex, units: list[Unit]) -> list[Violation]:
    out = []
    where = _where(position, h)
    if _british_here(position):
        if facts.has(h, "bevingrad"):
            out.append(violation("1.3", f"no unit may be in Bevingrad {where} before {BRITISH_LEAVE}",
                          position, [h], units))
        elif any(facts.has(h, t) for t in PASS_THROUGH_ONLY):
            out.append(violation("1.3", f"units may pass through but not remain in {where} before {BRITISH_LEAVE}",
                          position, [h], units))
    wheels = [u for u in units if u.type in ("truck", "bus")]
    if wheels and facts.stream(h) and not facts.road_in_hex(h) and not _road_marker(position, h):
        out.append(violation("1.3", f"trucks and buses ({_names(wheels)}) may not be in stream hex {where}, which has "
                             "no road", position, [h], wheels))
    return out


# -- 12.3, 12.9.3, 12.9.4 -------------------------------------------------------------------
def _leaders(position: Position, facts: MapFacts, h: Hex, units: list[Unit], turn_end: bool) -> list[Violation]:
    out = []
    where = _where(position, h)
    in_city = facts.has(h, CITY)
    for u in units:
        if u.type not in LEADERS:
            continue
        if u.side == ARAB:
            if (turn_end and position.phasing_side == ARAB and not _is_amin(u) and not _is_kutub(u)
                    and not any(w.side == ARAB and w.id != u.id for w in units)):
                out.append(violation("12.3", f"Arab leader {u.id} is alone in {where} at the end of an Arab player turn; "
                                      "only Haj Amin and El Kutub may be (13.1.1)", position, [h], [u]))
            if u.counter.value("must_stack") and not any(w.side == ARAB and w.type not in LEADERS for w in units):
                out.append(violation("12.6", f"Kaukji ({u.id}) is in {where} without an Arab unit; he must always be "
                                     "stacked with at least one", position, [h], [u]))
            if _is_amin(u) and not in_city:
                out.append(violation("12.9.3", f"Haj Amin ({u.id}) is in {where}, outside the Jerusalem city hexes",
                              position, [h], [u]))
        elif is_city_bound_commander(u):
            far, limit = facts.city_distance(h), u.counter.value("max_city_distance")
            if far > limit:
                out.append(violation("12.9.4", f"Shaltiel ({u.id}) is {far} hexes from the nearest Jerusalem city hex "
                                        f"({where}); the limit is {limit}", position, [h], [u]))
            if turn_end and not in_city:
                out.append(violation("12.9.4", f"Shaltiel ({u.id}) ends a player turn in {where}, not in a Jerusalem "
                                        "city hex (he is eliminated if it is a Jewish player turn)",
                              position, [h], [u]))
    return out


# -- 6.3.2, 8.6, 8.7.1, 8.7.9, 13.1.1, 13.2.2 ------------------------------------------------
def _carrying(position: Position) -> list[Violation]:
    loads: dict[str, list[Unit]] = defaultdict(list)
    for u in position.units:
        if u.carried_by is not None and u.carried_by in position.by_id:
            loads[u.carried_by].append(u)
    out = []
    for cid in sorted(loads):
        carrier, cargo = position.by_id[cid], loads[cid]
        hexes = [carrier.hex] if carrier.hex is not None else []
        at = f" in {_where(position, carrier.hex)}" if carrier.hex is not None else f" in box {carrier.box}"
        if not _is_transport(carrier):
            out.append(violation("8.7.1", f"{cid}{at} is not a transport unit (truck, bus, halftrack or the convoy) but "
                                   f"carries {_names(cargo)}", position, hexes, [carrier, *cargo]))
            continue
        counted = [u for u in cargo if u.type not in LEADERS]
        capacity = int(carrier.counter.value("capacity") or 0)
        if len(counted) > capacity:
            rule = "6.3.2" if carrier.type == "convoy" else "8.7.1"
            out.append(violation(rule, f"{cid}{at} carries {len(counted)} units ({_names(counted)}); its capacity is "
                                f"{capacity} (leaders do not count)", position, hexes, [carrier, *counted]))
        for u in cargo:
            why = _not_carriable(u, carrier)
            if why:
                out.append(violation(why[0], f"{u.id} carried by {cid}{at}: {why[1]}", position, hexes, [carrier, u]))
        if carrier.side == ARAB and carrier.counter.nationality == "arab_legion":
            others = [u for u in counted if u.counter.nationality != "arab_legion"]
            if others:
                out.append(violation("8.7.9", f"Arab Legion transport {cid}{at} carries non-Legion units "
                                       f"({_names(others)}); Legion transports carry only Legion units",
                              position, hexes, [carrier, *others]))
    return out


def _not_carriable(u: Unit, carrier: Unit) -> tuple[str, str] | None:
    if u.type == "garrison":
        return "8.6", "garrison units may not be transported"
    if _is_terrorist(u):
        return "13.2.2", "Irgun and Stern Gang units are never carried by a transport"
    if _is_kutub(u) and u.has("bombing"):
        return "13.1.1", "El Kutub may not be carried in the turn he bombs"
    if u.type not in CARRIABLE or u.counter.value("transportable") is False:
        return "8.6", f"only infantry, artillery and leaders are carried, not a {u.type}"
    if carrier.type == "convoy" and u.type not in (INFANTRY, "artillery"):
        return "6.3.2", "the Jerusalem Convoy carries only infantry and artillery"
    return None
