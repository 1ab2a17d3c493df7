"""*Jerusalem!* movement: the rules a moving unit or stack obeys, for :func:`toolkit.game.moves.legal_moves`.

Readings the rulebook leaves open (documented in ``modules/jerusalem-1948/README.md``):

* a stream hex costs the larger of its stream cost and its uphill/level cost
  when not entered along a road (1.3);
* the unprinted city roads (1.3, 8.1) cross every hexside two city hexes (or
  a city hex and Bevingrad) share: the city is one road network, a path through
  it pays the city primary-road cost hex by hex and enemy-held city hexes block
  it (4.2).  ``tables.yaml`` ``city_road_links: all_pairs`` restores the older
  reading, a direct link between any two city hexes;
* the units a rule binds to a moving unit move with it: the whole stack of the
  Jerusalem Convoy when the convoy moves (6.3.3, 6.3.5; Jewish garrisons stay,
  6.3.3 note) and, in the Road Movement Phase, the transport of a carried unit
  with all it carries (8.7.4).  A bound unit that may not move refuses the
  whole move;
* El Kutub moving alone may end his move on a Jewish-held hex he may bomb
  (13.1.2, 13.1.3): village, Latrun Police Fort, Bevingrad, Greek Monastery,
  Notre Dame or a city hex (``special_hexes.bombable``), without a Bomb
  marker, and only if no Bomb marker carries this turn (one bombing a turn);
* Kaukji (counter value ``must_stack``) is never alone: moving without another
  Arab unit he may end only where one is, and the last Arab unit in his hex
  may not move away without him (12.6 note; no rule makes him go along);
* Haj Amin (``city_only``) never steps out of the twelve Jerusalem city hexes,
  Bevingrad included (12.9.3, 1.3 note);
* a unit that starts a phase in an enemy ZOC may leave it (4.4), but its first
  step may not be into another enemy-ZOC hex;
* stacking limits apply to every hex entered, passing through included (5.3).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable

from ...game import Position, Unit
from ...game.moves import Blocked, Reason, Step
from ...hexgrid import Hex
from ...mapdata import CompiledMap
from .tables import Tables
from .units import is_legion_leader

CITY_TERRAIN = frozenset({"jerusalem_city", "bevingrad"})
BRITISH_LEAVE = "May III"  # 1.3: Bevingrad closed, Latrun Police Fort and Notre Dame pass-through only before
PASS_THROUGH_ONLY = ("police_fort", "notre_dame")
TRANSPORTS = ("truck", "bus", "halftrack")
INFANTRY = "infantry"
LEADERS = ("leader", "dummy_leader")
NEED_CARRYING = (INFANTRY, "artillery", *LEADERS)  # 8.6 (jeep leaders excepted, 12.5 note)
TERRORIST_STEP = 2  # 13.2 note: one MP a hex whatever the terrain (half MP units)
ZOC_STOP = Reason("4.2", "entering an enemy ZOC ends the move")
CITY_BOUND = Reason("12.9.3", "Haj Amin never leaves the Jerusalem city hexes (Bevingrad is not one, 1.3)")
BOMB_STOP = Reason("13.1.3", "El Kutub ends his move on the hex he bombs; after the bombing he may move away "
                             "with the MP he has left (13.1.5)")
ENTRY_BOXES = ("reinforcements", "off_map")  # 14.1, 14.6
ENTRY_SHIFT = 3  # 14.3: map-edge hexes either side of a blocked entrance


class MapFacts:
    """What movement needs to know about the *Jerusalem!* map."""

    def __init__(self, cmap: CompiledMap):
        self.cmap = cmap
        self.city = frozenset(h for h, info in cmap.hexes.items() if CITY_TERRAIN & set(info.terrain))
        self.levels = {h: info.elevation for h, info in cmap.hexes.items()}
        self.neighbors = {h: [n for n in h.neighbors() if n in cmap.hexes] for h in cmap.hexes}
        self.streams = frozenset(h for h, info in cmap.hexes.items() if "stream" in info.features)
        self.pass_through_only = frozenset(h for h, info in cmap.hexes.items()
                                           if set(PASS_THROUGH_ONLY) & set(info.terrain))
        self.bevingrad = frozenset(h for h, info in cmap.hexes.items() if "bevingrad" in info.terrain)
        self.city_proper = self.city - self.bevingrad  # 1.3 note: the Jerusalem city hexes, Bevingrad not one
        self.edge = frozenset(h for h, near in self.neighbors.items() if len(near) < 6)
        self.road_exits = {h: info.features["map_edge_entry"] for h, info in cmap.hexes.items()
                           if "map_edge_entry" in info.features and self.road_in_hex(h)}  # 14.6
        # per tables (kept alive beside its id): per (mechanized, all_pairs, city_only): hex -> its edges
        self.edge_tables: dict[int, tuple[object, dict[tuple, dict[Hex, list]]]] = {}
        self.roads: dict[tuple[Hex, Hex], str] = {}
        self.rails: set[tuple[Hex, Hex]] = set()
        for side, attrs in cmap.hexsides.items():
            kind = "primary" if "primary_road" in attrs else ("secondary" if "secondary_road" in attrs else None)
            for pair in ((side.a, side.b), (side.b, side.a)):
                if kind:
                    self.roads[pair] = kind
                if "railway" in attrs:
                    self.rails.add(pair)

    def has(self, h: Hex, terrain: str) -> bool:
        """Whether a hex has a terrain type."""
        return terrain in self.cmap.hexes[h].terrain

    def level(self, h: Hex) -> int:
        """Hill level: 0 clear, 1 hill 1, 2 hill 2 (1.3)."""
        return self.levels[h]

    def stream(self, h: Hex) -> bool:
        """A stream hex (1.3)."""
        return h in self.streams

    def road_in_hex(self, h: Hex) -> bool:
        """Whether a primary or secondary road runs through the hex."""
        f = self.cmap.hexes[h].features
        return "primary_road" in f or "secondary_road" in f or h in self.city

    def printed_road(self, a: Hex, b: Hex) -> str | None:
        """``primary`` / ``secondary`` when a road joins the two hexes through their hexside (city links included)."""
        if a in self.city and b in self.city:
            return "primary"  # 1.3, 8.1
        return self.roads.get((a, b))

    def railway(self, a: Hex, b: Hex) -> bool:
        """Whether the railway joins the two hexes."""
        return (a, b) in self.rails

    def city_distance(self, h: Hex) -> int:
        """Hexes to the nearest Jerusalem city hex."""
        return min(h.distance(c) for c in self.city)


_FACTS: dict[tuple[str, str], MapFacts] = {}


def map_facts(cmap: CompiledMap) -> MapFacts:
    """Movement facts of a map (cached per map source)."""
    key = (cmap.id, cmap.source_hash)
    if key not in _FACTS:
        _FACTS[key] = MapFacts(cmap)
    return _FACTS[key]


def built_roads(position: Position) -> set[frozenset[Hex]]:
    """Hexsides joined by bulldozer-built secondary roads usable this turn (15.3, 15.4)."""
    now = position.game.turn_index(position.turn)
    return {frozenset((m.hex, m.toward)) for m in position.markers
            if m.marker == "secondary_road" and m.hex is not None and m.toward is not None
            and (m.turn is None or position.game.turn_index(m.turn) < now)}


def exerts_zoc(u: Unit, stack: list[Unit]) -> bool:
    """Whether a unit has a ZOC where it stands (4.1, 4.6, 6.5.2, 12.4)."""
    if u.type == "garrison" and u.side == "arab":
        return any(v.type == "leader" and v.side == "arab" for v in stack)
    return bool(u.counter.value("zoc", back=u.has("demobilized"), default=True))


def zoc_units(position: Position, facts: MapFacts, exerting: Callable[[str], bool]) -> dict[Hex, list[str]]:
    """Each hex in the ZOC of units of the sides ``exerting`` accepts, with the ids of the units exerting it;
    none into or out of city hexes (4.1, 4.3)."""
    zoc: dict[Hex, list[str]] = {}
    for h in position.occupied():
        if h in facts.city:
            continue
        stack = position.at(h)
        ids = [u.id for u in stack if exerting(u.side) and exerts_zoc(u, stack)]
        if ids:
            for n in h.neighbors():
                if n in facts.cmap.hexes and n not in facts.city:
                    zoc.setdefault(n, []).extend(ids)
    return zoc


def enemy_zoc(position: Position, facts: MapFacts, side: str) -> set[Hex]:
    """Hexes in the ZOC of the other side's units (4.1, 4.3)."""
    return set(zoc_units(position, facts, lambda s: s != side))


def stacking_violation(units: list[Unit]) -> Reason | None:
    """The first stacking rule one side's units in one hex break, or ``None`` (5.1, 5.2, 6.3.1, 12.2).

    Pure: used for a stack entering a hex (with 5.3, passing through) and for a static hex.
    """
    convoy = any(u.type == "convoy" for u in units)
    limit = 10 if convoy else 7
    infantry = sum(u.type == INFANTRY for u in units)
    if infantry > (6 if convoy else 3) or len(units) > limit:
        return Reason("6.3.1" if convoy else "5.1",
                      f"{len(units)} units ({infantry} infantry) in one hex; the limit is "
                      f"{limit} ({6 if convoy else 3} infantry) and applies at all times, passing through included "
                      "(5.3)")
    leaders = [u for u in units if u.type in LEADERS]
    if len(leaders) > 1:
        return Reason("5.2", "a player may never have more than one leader in a hex")
    if leaders and any(u.side == "arab" for u in leaders):
        nat = {u.counter.nationality for u in units}
        if "eef" in nat:
            return Reason("5.2", "no leader may stack with an EEF unit")
        if "arab_legion" in nat and not all(is_legion_leader(u) for u in leaders):
            return Reason("5.2", "only Abdullah Tell may stack with Arab Legion units")
    return None


def _half(value) -> int | None:
    return None if value is None else round(float(value) * 2)


@dataclass
class JerusalemMove:
    """One unit or stack moving together in the current phase (a :class:`~toolkit.game.moves.MoveRules`)."""

    position: Position
    units: list[Unit]
    tables: Tables
    facts: MapFacts
    pickup: list[Unit] = field(default_factory=list)
    terrorist: bool = False
    entry: Hex | None = None

    def __post_init__(self):
        self.entering = all(u.hex is None and u.box in ENTRY_BOXES for u in self.units)
        self.start = self.entry if self.entering else self.units[0].hex
        self.phase = self.position.phase
        self.road_phase = self.phase == "road"
        self.bound: dict[str, Reason] = self._bound_units()
        self.units = self.units + [self.position.by_id[uid] for uid in self.bound]
        self.entries = self._entries if self.entering and self.entry is not None else None
        self.exits = self._exits
        self.side = self.units[0].side
        self.british_gone = (self.position.game.turn_index(self.position.turn)
                             >= self.position.game.turn_index(BRITISH_LEAVE))
        self.mechanized = any(u.counter.value("mechanized") for u in self.units)
        self.moving_ids = {u.id for u in self.units} | {u.id for u in self.pickup}
        self.moving = self.units + self.pickup + [c for u in self.units for c in self.position.carried(u)
                                                  if c.id not in self.moving_ids]
        self.moving_ids |= {u.id for u in self.moving}
        self.moving_units = tuple(u.id for u in self.moving)  # every unit that moves (MoveResult.moving)
        self.budget = self._budget()
        # Facts of the moving stack that every step consults, worked out once.
        movers = self._movers()
        self.is_convoy = any(u.type == "convoy" for u in self.units)
        self.wheeled = any(u.type in ("truck", "bus") for u in self.moving)
        self.ignores_zoc = self.terrorist or (self.side == "arab" and all(u.type in LEADERS for u in movers))
        self.passes_enemies = all(u.counter.value("moves_through_enemy") for u in movers)  # 12.5
        self.city_tether = [(u, u.counter.value("max_city_distance")) for u in self.moving
                            if u.counter.value("max_city_distance") is not None]  # 12.9.4
        self.alone_violation = stacking_violation(self.moving)
        self._ending: dict[Hex, tuple] = {}     # per search: the entered hex's ZOC stop and end refusal
        self._entering: dict[Hex, tuple] = {}   # per search: the entered hex's own entry refusals
        self.expanded: set[Hex] = set()          # filled by the search (MoveRules.expanded)
        self.bomber = movers[0] if (len(movers) == 1 and not self.pickup and movers[0].counter.value("bomber")
                                    and len(self.moving) == 1) else None  # 13.1.1: alone, not carried
        self.lonely = [u for u in self.moving if u.counter.value("must_stack")]  # 12.6 note
        self.city_only = any(u.counter.value("city_only") for u in movers)  # 12.9.3
        self.all_pairs = self.tables.movement.city_road_links == "all_pairs"  # the reading of 1.3, 8.1
        if self.lonely and any(u.type not in LEADERS for u in self.moving):
            self.lonely = []
        tables_edges = self.facts.edge_tables.setdefault(id(self.tables), (self.tables, {}))[1]
        self.edge_table = tables_edges.setdefault((self.mechanized, self.all_pairs, self.city_only), {})

    # -- whole-stack checks --------------------------------------------------------------------
    @cached_property
    def zoc(self) -> set[Hex]:
        """Hexes in enemy ZOC (worked out once per position and side)."""
        return self.position.remembered(("jerusalem", "enemy zoc", self.side),
                                        lambda: enemy_zoc(self.position, self.facts, self.side))

    @cached_property
    def roads(self) -> set[frozenset[Hex]]:
        """Bulldozer roads usable now."""
        return built_roads(self.position)

    def _bound_units(self) -> dict[str, Reason]:
        """Units that must move with the named ones, and the rule that binds each (6.3.3, 6.3.5, 8.7.4)."""
        if self.entering or self.start is None:
            return {}
        named = {u.id for u in self.units}
        picked = {u.id for u in self.pickup}
        here = [u for u in self.position.at(self.start) if u.side == self.units[0].side]
        bound: dict[str, Reason] = {}
        if self.road_phase:  # 8.7.4: a carried unit moves only with its transport, and so does the rest of its load
            for u in self.units:
                carrier = self.position.by_id.get(u.carried_by) if u.carried_by else None
                if carrier is not None and carrier.hex == self.start and carrier.id not in named:
                    bound.setdefault(carrier.id, Reason("8.7.4", f"{u.id} is carried by {carrier.id} and moves "
                                                                  "only with it"))
                    for w in self.position.carried(carrier):
                        if w.id not in named:
                            bound.setdefault(w.id, Reason("8.7.4", f"{w.id} is carried by {carrier.id}"))
        moving = named | set(bound)
        if any(u.type == "convoy" and u.id in moving for u in here):  # 6.3.3, 6.3.5: the convoy's whole stack
            for u in here:
                if u.id not in moving and u.id not in picked and u.type != "garrison":  # garrisons: 6.3.3 note
                    bound[u.id] = Reason("6.3.3", f"{u.id} is stacked with the Jerusalem Convoy and may not be "
                                                  "left behind")
        return bound

    @cached_property
    def bomb_targets(self) -> frozenset[Hex]:
        """Jewish-held hexes El Kutub, moving alone, may end on to bomb (13.1.2, 13.1.3); a Bomb marker refuses."""
        if self.bomber is None:
            return frozenset()
        entry = self.tables.special_hexes.get("bombable")
        terrain = set(entry.terrain) if entry else set()
        return frozenset(h for h in self.position.occupied()
                         if terrain & set(self.facts.cmap.hexes[h].terrain)
                         and any(u.side != self.side for u in self.position.at(h)))

    @cached_property
    def bombed(self) -> tuple[set[Hex], bool]:
        """Hexes with a Bomb marker, and whether one was placed this turn (13.1.2: one hex a turn)."""
        marks = [m for m in self.position.markers if m.marker == "bomb"]
        return {m.hex for m in marks if m.hex is not None}, any(m.turn == self.position.turn for m in marks)

    def _movers(self) -> list[Unit]:
        """The units moving under their own power (not carried)."""
        return [u for u in self.units if u.carried_by is None]

    def _budget(self) -> int | None:
        movers = self._movers() or self.units
        if any(u.type == "convoy" for u in movers):
            return None  # 6.1: unlimited
        if any(u.counter.value("city_only") for u in movers):
            return None  # 12.9.3: Haj Amin moves anywhere within the city
        if self.road_phase:
            movers = [u for u in movers if self._drives(u)]  # 8.7.4: transported units' MP do not count
        mps = [_half(u.counter.value("mp")) for u in movers]
        known = [m - _half(u.spent) for m, u in zip(mps, movers) if m is not None]  # MP already spent this phase
        budget = min(known) if known else None  # 5.4, 7.6: the slowest member
        if budget is not None and self.pickup:
            budget -= self.tables.movement.pickup * sum(u.type not in LEADERS for u in self.pickup)  # 8.7.2
        return budget

    def refusal(self) -> Reason | None:
        """Why this stack may not move in this phase at all (3.4, 6.x, 7.x, 8.x, 12.x, 13.2, 14.5)."""
        places = {(u.hex, u.box) for u in self.units}
        if len(places) > 1:
            return Reason("5.4", "units move together only from one map hex")
        where = self._place(self.units[0])
        for u in self.pickup:
            if (u.hex, u.box) != (self.units[0].hex, self.units[0].box):
                return Reason("8.7.2", f"{u.id} is in {self._place(u)}, not in the transport's hex {where}: a "
                                       "transport picks up only units in its own hex")
        if self.entering:
            left_by = self._left_by()
            if left_by is not None and self.entry is not None and self.entry != left_by:
                return Reason("14.6", "units that left the map return only by the road they left by, at "
                                      f"{self.facts.cmap.name(left_by)}")
            if self.entry is None or not (self.entry in self.facts.edge or self.entry in self._entrances()):
                return Reason("14.1", "units off the map enter at a map-edge hex or a listed entrance: give it "
                                      "(toolkit moves --enter HEX)")
            if self.alone_violation is not None:  # 14.5: only within stacking limits
                why = self.alone_violation
                return Reason(why.rule, f"these units may not enter together: {why.message}; reinforcements "
                                        "come onto the map only within stacking limits (14.5)")
        elif self.start is None:
            return Reason("5.4", "the units are not on the map")
        if any(u.side != self.side for u in self.units) or self.side != self.position.phasing_side:
            return Reason("9.2", "only the phasing player's units move")
        why = self._convoy_refusal()
        if why:
            return why
        for u in self.units + self.pickup:
            why = self._unit_refusal(u)
            if why and u.id in self.bound:
                tie = self.bound[u.id]
                return Reason(tie.rule, f"{tie.message} ({tie.rule}), but it may not move: {why.message} "
                                        f"({why.rule}); pick it up (--pickup) or leave the stack as it is")
            if why:
                return why
        return self._carrying_refusal() or self._leaves_alone()

    def _leaves_alone(self) -> Reason | None:
        """12.6 note: Kaukji (``must_stack``) is never without an Arab unit, so the last one in his hex may not
        move away without him (the rules bind no leader to a unit: he may go along or move first)."""
        if self.entering or self.start is None:
            return None
        staying = [u for u in self.position.at(self.start) if u.side == self.side and u.id not in self.moving_ids]
        lonely = [u for u in staying if u.counter.value("must_stack")]
        if not lonely or any(u.type not in LEADERS for u in staying):
            return None
        return Reason("12.6", f"{lonely[0].id} would be left in {self.facts.cmap.name(self.start)} without an Arab "
                              "unit, and he must always be stacked with at least one (12.6 note): move him along "
                              "or first to another Arab unit")

    def _place(self, u: Unit) -> str:
        return self.facts.cmap.name(u.hex) if u.hex is not None else f"box {u.box}"

    def _convoy_refusal(self) -> Reason | None:
        """6.3.3, 6.3.5: units with the convoy stay with it; the convoy's stack picks nobody up on the way."""
        convoy = [u for u in self.position.at(self.start) if u.type == "convoy" and u.side == self.side]
        if convoy and not self.is_convoy:
            return Reason("6.3.3", "units stacked with the Jerusalem Convoy move only with it until it reaches "
                                   f"Jerusalem or is destroyed: move the convoy ({convoy[0].id}) and its whole "
                                   "stack moves")
        if self.is_convoy and self.pickup and any(u.spent for u in self._movers()):
            return Reason("6.3.5", "the convoy's transports may not pick up units along the route")
        return None

    def _unit_refusal(self, u: Unit) -> Reason | None:
        v = u.counter.value
        if u.has("stopped"):
            return Reason("3.4", f"{u.id} is stopped for the rest of the turn")
        if u.has("disrupted"):
            return Reason("10.10", f"{u.id} is disrupted and may not move (10.10, 13.1.4)")
        if u.has("abandoned"):
            return Reason("12.8.1", f"{u.id} abandoned his units last Jewish turn and may not move this Arab turn")
        if u.has("new_recruit") and self.road_phase:
            return Reason("6.4.2", f"{u.id} was just re-created by the convoy and may not move this phase")
        if v("mp_class") == "garrison" or u.type == "garrison":
            return Reason("7.1", f"{u.id} is a garrison and never moves")
        if v("mp_class") == "one" and u.has("moved_overland" if self.road_phase else "moved_road"):
            return Reason("7.2", f"{u.id} moved in the other phase this turn (one phase per turn)")
        if u.type == "convoy" and not self.road_phase:
            return Reason("6.1", "the Jerusalem Convoy moves only in the Road Movement Phase")
        if v("mp_class") == "road" and not self.road_phase:
            return Reason("7.3", f"{u.id} moves only in the Road Movement Phase")
        if v("terrorist") and (self.road_phase or u.carried_by or u in self.pickup):
            return Reason("13.2.2", f"{u.id} moves only in the Overland Movement Phase and is never carried")
        if self.terrorist and not v("terrorist"):
            return Reason("13.2.1", f"{u.id} is not a terrorist unit; a terrorist move takes only Irgun/Stern units")
        if v("needs_leader") and not self._mufti_may_move(u):
            return Reason("7.4", f"{u.id} needs to start the phase with or next to an Arab leader, within two "
                                 "hexes of Abdul Khader, or with an Arab Legion unit (7.4, 12.4, 12.9.1.1)")
        if self.road_phase and u.carried_by is None and u not in self.pickup and not self._drives(u):
            return Reason("8.6", f"{u.id} moves in the Road Movement Phase only when carried by a truck, bus "
                                 "or halftrack")
        return None

    @staticmethod
    def _drives(u: Unit) -> bool:
        """Whether a unit moves under its own power in the Road Movement Phase (8.6, 12.5 jeeps)."""
        return u.type not in NEED_CARRYING or bool(u.counter.value("jeep"))

    def _mufti_may_move(self, u: Unit) -> bool:
        """7.4, 12.4, 12.9.1.1: with an Arab Legion unit, or within a real leader's activation radius."""
        if any(w.counter.nationality == "arab_legion" for w in self.position.at(u.hex)):
            return True
        return any(w.side == u.side and w.type == "leader" and w.hex is not None
                   and w.hex.distance(u.hex) <= int(w.counter.value("command_radius") or 0)
                   for w in self.position.units)

    def _carrying_refusal(self) -> Reason | None:
        if not self.pickup:
            return None
        carriers = [u for u in self._movers() if u.type in TRANSPORTS]
        if not self.road_phase or not carriers:
            return Reason("8.7.2", "units are picked up by a truck, bus or halftrack in the Road Movement Phase")
        if self.start in self.zoc:
            return Reason("8.7.6", "a unit in an enemy ZOC at the start of the Road Movement Phase may not be "
                                   "picked up")
        for u in self.pickup:
            if u.has("transported"):
                return Reason("8.7.5", f"{u.id} was already carried this phase (no daisy-chaining)")
            if u.type == "garrison":
                return Reason("8.6", f"{u.id} is a garrison and may not be transported")
        load = sum(u.type not in LEADERS for u in self.pickup) + sum(
            w.type not in LEADERS for c in carriers for w in self.position.carried(c))
        capacity = sum(int(c.counter.value("capacity") or 0) for c in carriers)
        if load > capacity:
            return Reason("8.7.1", f"carrying {load} units needs more than the capacity {capacity}")
        legion_only = all(c.counter.nationality == "arab_legion" for c in carriers)
        if legion_only and any(u.counter.nationality != "arab_legion" for u in self.pickup if u.type not in LEADERS):
            return Reason("8.7.9", "Arab Legion transports carry only Arab Legion units")
        if self.budget is not None and self.budget < 0:
            return Reason("8.7.2", "picking these units up costs more MP than the transport has")
        return None

    def _exits(self, h: Hex) -> list[str]:
        """14.6: a unit may leave the map by any road at the map edge (the road's last on-map hex)."""
        road = self.facts.road_exits.get(h)
        return [road] if road is not None and not self.is_convoy else []

    def _left_by(self) -> Hex | None:
        """The edge hex of the road by which off-map units left: position param ``left_by``, ``"unit:hex …"``."""
        left = dict(pair.split(":", 1) for pair in str(self.position.params.get("left_by") or "").split())
        hexes = {left.get(u.id) for u in self.units if u.box == "off_map"} - {None}
        return self.facts.cmap.resolve(hexes.pop()) if len(hexes) == 1 else None

    def _entrances(self) -> set[Hex]:
        """Entrance hexes off the map edge that the game data lists (``place_lists.entrances``)."""
        cmap = self.facts.cmap
        return {cmap.resolve(p) for p in self.position.game.spec.place_lists.get("entrances", [])}

    # -- steps -------------------------------------------------------------------------------
    def _entries(self) -> Iterable[Step | Blocked]:
        """The first step onto the map at the entrance hex, or beside it when enemies hold it (14.1-14.5)."""
        f = self.facts
        occupied = {h for h in f.edge for u in self.position.at(h) if u.side != self.side}
        if self.entry not in occupied:
            gates = [self.entry]
        else:
            gates = sorted(h for h in f.edge - occupied if h.distance(self.entry) <= ENTRY_SHIFT)
            yield Blocked(self.entry, Reason("14.3", "enemy units hold the entrance hex; enter within "
                                                     f"{ENTRY_SHIFT} edge hexes of it"))
        for gate in gates:
            road = "primary" if "primary_road" in f.cmap.hexes[gate].features else (
                "secondary" if f.road_in_hex(gate) else None)  # 14.1: entering along the road that leaves the map
            blocked = self._entry_refusal(None, gate, road)
            if blocked:
                yield Blocked(gate, blocked)
                continue
            cost = TERRORIST_STEP if self.terrorist else self._cost(gate, gate, road)
            yield Step(gate, cost, *self._end_of(gate))  # 14.4: entering into an enemy ZOC stops there too

    def steps(self, at: Hex, cost_so_far: int, mode=None) -> Iterable[Step | Blocked]:
        """Every step out of ``at`` and its cost, or why it is refused.

        Hexes the search has expanded already (:attr:`expanded`) are left out: whether entering a hex ends the
        move depends on that hex alone here, so a step into one can improve nothing."""
        built, bombs, city_only, city, expanded = self.roads, self.bomb_targets, self.city_only, \
            self.facts.city_proper, self.expanded
        by_edge = self.road_phase or self.is_convoy or at == self.start   # refusals of the step itself (8.1, 6.2.1, 4.4)
        entering, ending = self._entering, self._ending
        for b, road, cost in self._edges(at):
            if b in expanded:
                continue
            if city_only and b not in city:  # 12.9.3: within the city hexes
                yield Blocked(b, CITY_BOUND)
                continue
            if road is None and built and frozenset((at, b)) in built:  # 15.3, 15.4: a bulldozer road
                road, cost = "secondary", self._cost(at, b, "secondary")
            blocked = (self._entry_refusal(at, b, road) if by_edge
                       else (entering.get(b) or self._entering_of(b))[3])
            if blocked:
                yield Blocked(b, blocked)
                continue
            if self.terrorist:
                cost = TERRORIST_STEP
            yield Step(b, cost, *(ending.get(b) or self._end_of(b)))
            if b in bombs and self._bomb_refusal(b) is None:
                yield Step(b, cost, BOMB_STOP, None)  # 13.1.3: ends here to bomb; passing through stays legal

    def _edges(self, at: Hex) -> list[tuple[Hex, str | None, int]]:
        """The hexes one step from ``at`` (the city as one road network under ``city_road_links: all_pairs``), each
        with the printed road joining them and the step's terrain cost for this stack: map and tables only, so
        worked out once for every search."""
        edges = self.edge_table.get(at)
        if edges is None:
            f = self.facts
            targets = f.neighbors[at]
            if self.all_pairs and (at in f.city or self.city_only):  # 1.3, 8.1: the older reading
                targets = targets + sorted(c for c in f.city if c != at and c not in targets)
            edges = self.edge_table[at] = [(b, road, self._cost(at, b, road))
                                           for b in targets for road in [f.printed_road(at, b)]]
        return edges

    def _end_of(self, b: Hex) -> tuple[Reason | None, Reason | None]:
        """What entering ``b`` means for the end of the move: the ZOC stop (4.2) and why it may not end there;
        worked out once per search."""
        stop = ZOC_STOP if b in self.zoc and not self.ignores_zoc else None
        ending = self._ending[b] = (stop, self._end_refusal(b))
        return ending

    def _bomb_refusal(self, b: Hex) -> Reason | None:
        """Why El Kutub may not end on this Jewish-held bombable hex to bomb it (13.1.2, 1.3)."""
        hexes, this_turn = self.bombed
        if b in hexes:
            return Reason("13.1.2", "this hex has been bombed already (once per game); El Kutub may pass through "
                                    "but not end here (12.5)")
        if this_turn:
            return Reason("13.1.2", "El Kutub has bombed a hex this turn already (one a turn); he may pass "
                                    "through but not end here (12.5)")
        if not self.british_gone and b in self.facts.pass_through_only:
            return Reason("1.3", "units may pass through but not remain here before May III")
        return None

    def _entry_refusal(self, a: Hex, b: Hex, road: str | None) -> Reason | None:
        """Why the stack may not enter ``b`` from ``a``; the checks in rule order, those of ``b`` alone cached."""
        bevingrad, stream, occupants, _ = self._entering.get(b) or self._entering_of(b)
        if bevingrad:
            return bevingrad
        if self.road_phase and road is None:
            return Reason("8.1", "the Road Movement Phase allows movement only along roads")
        if self.is_convoy:
            arrow = [m.toward for m in self.position.markers_at(a, "convoy_arrow") if m.toward is not None]
            if arrow and b not in arrow:
                return Reason("6.2.1", "the convoy follows its announced route")
        if stream:
            return stream
        if a == self.start and a in self.zoc and b in self.zoc and not self.ignores_zoc:
            return Reason("4.4", "a unit may not move directly from one enemy ZOC to another")
        return occupants

    def _entering_of(self, b: Hex) -> tuple[Reason | None, Reason | None, Reason | None, Reason | None]:
        """The refusals to enter ``b`` that do not depend on where from: Bevingrad (1.3), a stream without a
        road for wheels (1.3), and the city tether, enemies and stacking (12.9.4, 4.2, 5.x); then the first of
        them.  Worked out once per search."""
        f = self.facts
        bevingrad = (Reason("1.3", "no unit may enter Bevingrad before May III")
                     if not self.british_gone and b in f.bevingrad else None)
        stream = (Reason("1.3", "trucks and buses may not enter a stream hex without a road")
                  if self.wheeled and f.stream(b) and not f.road_in_hex(b) else None)
        occupants = self._occupant_refusal(b)
        refusals = self._entering[b] = (bevingrad, stream, occupants, bevingrad or stream or occupants)
        return refusals

    def _occupant_refusal(self, b: Hex) -> Reason | None:
        f = self.facts
        for u, limit in self.city_tether:
            if f.city_distance(b) > limit:
                return Reason("12.9.4", f"{u.id} may never be more than {limit} hexes from a Jerusalem city hex")
        there = self.position.at(b)
        if not there:
            return self.alone_violation
        there = [u for u in there if u.id not in self.moving_ids]
        enemies = [u for u in there if u.side != self.side]
        if enemies and not self._terror_target(enemies) and not self.passes_enemies:
            return Reason("4.2", "units may not enter enemy-occupied hexes")
        return self._stacking_refusal([u for u in there if u.side == self.side])

    def _terror_target(self, enemies: list[Unit]) -> bool:
        return self.terrorist and any(u.type == "garrison" for u in enemies)  # 13.2.3

    def _stacking_refusal(self, friends: list[Unit]) -> Reason | None:
        together = friends + self.moving
        if self.road_phase and any(u.type == "convoy" for u in friends):
            return Reason("6.3.4", "no unit may enter the convoy's hex in the Road Movement Phase")
        return stacking_violation(together)

    def _end_refusal(self, b: Hex) -> Reason | None:
        if not self.british_gone and b in self.facts.pass_through_only:
            return Reason("1.3", "units may pass through but not remain here before May III")
        there = self.position.at(b)
        enemies = [u for u in there if u.side != self.side] if there else ()
        if enemies and not self._terror_target(enemies):
            if b in self.bomb_targets:
                why = self._bomb_refusal(b)
                if why is not None:
                    return why
            return Reason("12.5", "may pass through but not end in a hex with enemy units")
        if self.lonely and not any(u.side == self.side and u.type not in LEADERS and u.id not in self.moving_ids
                                   for u in there):
            return Reason("12.6", f"{self.lonely[0].id} must always be stacked with at least one Arab unit")
        if self.bomber is not None and self.bomber.has("bombing") and any(
                u.side == self.side and u.id != self.bomber.id for u in there):
            return Reason("13.1.1", "El Kutub may not stack with Arab units in the turn he bombs")
        return None

    def _cost(self, a: Hex, b: Hex, road: str | None) -> int:
        m, f = self.tables.movement, self.facts
        la, lb = f.levels[a], f.levels[b]
        up, down = lb > la, lb < la
        if b in f.bevingrad:
            return m.bevingrad
        if b in f.city:
            return {"primary": m.city.primary, "secondary": m.city.secondary}.get(road, m.city.none)
        if road:
            costs = m.primary_road if road == "primary" else m.secondary_road
            return costs.uphill if up else (costs.downhill if down else costs.level)
        cost = m.uphill if up else m.level_or_downhill
        if b in f.streams:
            if self.mechanized and "railway_bridge" in f.cmap.hexes[b].features and f.railway(a, b):
                stream = m.railroad_bridge_mechanized
            else:
                stream = m.stream_mechanized if self.mechanized else m.stream_other
            cost = max(cost, stream)
        return cost
