"""*No Prisoners* movement (8.x, 9.x, 10.x, 16.x, 17.1, 19.4, 21.3, 22.2): the rules one moving unit or stack
obeys, for the one legal-move generator :func:`toolkit.game.moves.legal_moves`.

Four kinds of move (``kind``):

* ``normal`` - the printed MA (8.1 C);
* ``strategic`` - double the MA; the stack must start in supply, and may not begin in, enter or end in an
  enemy ZOC (8.1 C/D, 15.1 C, 15.7 A);
* ``rail`` - normal movement plus ONE rail move (8.8 B): along the own rail net (16.3 A), any number of
  hexes at no MP (8.8 A), inside the Western Sector railhead limits (8.9), within the phase's rail
  capacity (8.10); the stack must start in supply (8.8 A).  The ``mode`` of the search is ``None`` before
  the rail move, ``"rail"`` while on it and ``"railed"`` once it is over;
* ``amphibious`` - the Allied sea move (20.x): one unit from a coastal city, town or clear hex to any other
  one of the same sector not enemy-occupied, whatever the EZOCs and supply, for all its MA (20.2 A/B/D);
  never tribal units (20.4); one a sector a calendar year: the parameter ``amphibious_used`` lists the
  sectors and years already used (``"W:1916 E:1917"``).  A coastal hex is a land hex next to an all-sea
  hex, or a port (Aqaba's gulf is drawn as hexsides); lakes, the Dead Sea and the canal make no coast.

Costs are half MP (``tables.yaml`` ``movement``): the base terrain's cost to enter a hex, a unit type's
own cost where ``type_costs`` gives one, the winter line in winter turns (22.1, 22.2), plus hexside costs
such as the Suez Canal (8.6 B); ½ MP a hex along a road or railway (8.7 A/B, either side, supplied or not).

Readings of our own (the rulebook leaves them open):

* a stack moves at the pace of its slowest member: the highest cost of its units' types in every hex;
* along a road the ½ MP is the whole cost of the hex: no hexside cost is added where the road crosses
  the hexside (the British line crosses the Suez Canal at Qantara on a bridge);
* a unit type's own cost replaces the chart cost in every season; otherwise the winter line replaces the
  chart in winter;
* the one-hex minimum (8.4) lets the first hex cost the whole MA when it costs more; the move ends there;
* rail movement is combined with normal movement only, not with strategic movement (8.1 C names two
  kinds, 8.8 B combines rail with "non-rail" movement; we do not stack doubling on top of the rail move);
* 8.9 A: an Allied Western rail move stays in hexes west of the Railhead hex: the railhead hex itself is
  not used; 8.9 B: a CP Western rail move stays east of the hex adjacent to the railhead: neither the
  railhead hex nor any hex next to it is used.  Without a railhead marker, no limit;
* 8.10 capacity: a turn has one Movement Phase per side and sector, so the rail moves already made this
  phase are the units of the same side and sector flagged ``rail_moved`` (armoured trains excepted,
  19.4 B); the position parameter ``rail_moves_used`` overrides that count when given.  The capacity is
  ``rail.capacity`` ``<allied|cp>_<west|east>`` by the turn's year;
* armoured trains (``rail_only``) move only along rail links of the own net, in normal movement at the
  road cost (8.7 A) and by rail at no cost, and ignore enemy ZOCs (19.4 A);
* a unit starting in an enemy ZOC disengages (10.6): its first hex must be free of enemy ZOC and its
  move is at most half its MA; strategic movement is refused there (8.1 D);
* stacking limits (tables.yaml ``stacking``, winter line included) apply where the move ends only
  (9.2 A/B): a hex over the limit is reported as ``no_end``; a city or town replaces the base terrain's
  limit; support units, air groups and naval squadrons stack free (9.4).

Scenario special rules come from ``tables.yaml`` ``scenario_rules`` (26.5 B: in Scenario 2's first CP
Western Movement Phase the units set up at Gaza and Beersheba may enter an EZOC strategically, and stop).

A reinforcement landing by sea (20.3, ``kind="amphibious"`` for a unit in the ``reinforcements`` box) starts off
the map: its landings are the search's entries.  Reinforcement placement (6.x: placement, not movement) is
:mod:`.reinforcements`'s, the railhead marker's own move (16.2 B) :mod:`.railhead`'s.

Movement already made this phase (a unit's ``spent``, in MP) counts: a move continued is one move with the part
already made, so each unit has its kind's allowance less ``spent`` (8.2 A, 8.3 C; a stack the least of its units'):

* nothing left: refused (8.3 C), except a rail move, which costs no MP (8.8 A) and may still be made once;
* the one-hex minimum (8.4) is one hex a phase: only a stack that has spent nothing gets it;
* a unit that has spent MP and stands in an enemy ZOC entered it this phase: its move is over (8.5);
* one type a phase (8.1 C): a unit flagged ``strategic_moved`` goes on only strategically; one flagged
  ``disengaged`` has half its MA (10.6 B) and no strategic movement (8.1 D);
* an amphibious move needs the whole MA (20.2 B): no MP spent.

:func:`after_move` sets those flags (and ``rail_moved``, ``amphibious_moved``, the ``amphibious_used`` parameter)
on the position once a move is made, for the next move of the same units.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence


from ...game import Position, Unit
from ...game.moves import Blocked, Destination, MoveResult, Reason, Step, _mp, legal_moves
from ...hexgrid import Hex
from .mapfacts import ALLIED, DAMASCUS, EASTERN, WESTERN, MapFacts, map_facts
from .places import place_hexes
from .railnet import RailNets, rail_nets
from .reinforcements import ARRIVING_BOX, arrival_refusal
from .supply import NOT_UNITS, enemy_zoc, is_unit, side_kind, supply, unit_sector
from .tables import Tables, load_tables

KINDS = ("normal", "strategic", "rail", "amphibious")
AMPHIBIOUS_PARAM = "amphibious_used"   # "<sector letter>:<year>" pairs, e.g. "W:1916 E:1917" (20.2 A)
AMPHIBIOUS_TERRAIN = ("city", "town", "clear")   # 20.2 A
RAIL, RAILED = "rail", "railed"
ROAD_KEYS = ("road", "railway")              # 8.7 A: every railway has a road along it
RAIL_MOVES_PARAM = "rail_moves_used"
ZOC_STOP = Reason("8.5", "entering an enemy ZOC ends the move (8.5, 10.1 B)")


# -- the tables.yaml sections movement needs (not in tables.Tables yet) -----------------------------------------


# -- static facts of a map for movement -------------------------------------------------------------------------
class MoveFacts:
    """Per map and tables: base terrain, stacking limits, hexside attributes, and a cost cache per profile."""

    def __init__(self, facts: MapFacts, tables: Tables):
        self.facts = facts
        cmap = facts.cmap
        self.base: dict[Hex, str] = {h: (info.terrain[0] if info.terrain else "") for h, info in cmap.hexes.items()}
        self.settlement: dict[Hex, str | None] = {
            h: ("city" if "city" in info.terrain else "town" if "town" in info.terrain else None)
            for h, info in cmap.hexes.items()}
        self.sides: dict[frozenset, dict] = {frozenset((s.a, s.b)): attrs for s, attrs in cmap.hexsides.items()}
        self.road: set[frozenset] = {k for k, a in self.sides.items() if any(_truthy(a.get(r)) for r in ROAD_KEYS)}
        self.costs: dict[tuple, dict[tuple[Hex, Hex], int | None]] = {}
        self.tables = tables
        sea = {h for h in facts.prohibited if self.base[h] == "sea"}
        self.coastal: frozenset[Hex] = frozenset(                    # 20.x: land next to an all-sea hex
            h for h in cmap.hexes if h not in facts.prohibited
            and ("port" in cmap.hexes[h].terrain or any(n in sea for n in facts.neighbors[h])))

    def stacking_limit(self, h: Hex, winter: bool) -> tuple[int | None, str]:
        """The stacking limit of a hex and the terrain that sets it (9.1; a city or town replaces the base)."""
        st = self.tables.stacking
        terrain = self.settlement[h] or self.base[h]
        if winter and terrain in self.tables.weather.winter.stacking:
            return self.tables.weather.winter.stacking[terrain], terrain + " in winter"
        return st.limit.get(terrain), terrain


def _truthy(v) -> bool:
    return v not in (None, False, "false", "False", "no", "0", 0, "")


_FACTS: dict[tuple, MoveFacts] = {}


def move_facts(facts: MapFacts, tables: Tables) -> MoveFacts:
    """Cached :class:`MoveFacts` per map source and tables."""
    key = (facts.cmap.id, facts.cmap.source_hash)
    cached = _FACTS.get(key)
    if cached is None or cached.facts is not facts or cached.tables is not tables:
        cached = _FACTS[key] = MoveFacts(facts, tables)
    return cached


def season(position: Position, tables: Tables) -> str | None:
    """The season of the position's turn: its numeral after the last ``-`` (22.1)."""
    return tables.weather.seasons.get(position.turn.rsplit("-", 1)[-1])


def _year(turn: str) -> int | None:
    head = turn.split("-", 1)[0]
    return int(head) if head.isdigit() else None


# -- the rules of one moving stack -------------------------------------------------------------------------------
@dataclass
class NoPrisonersMove:
    """One unit or stack moving together (a :class:`~toolkit.game.moves.MoveRules`)."""

    position: Position
    units: list[Unit]
    kind: str = "normal"
    pickup: Sequence[str] = ()
    terrorist: bool = False
    enter: str | None = None
    facts: MapFacts = field(default=None, repr=False)
    tables: Tables = field(default=None, repr=False)

    def __post_init__(self):
        pos = self.position
        if self.facts is None:
            self.facts = map_facts(pos.game.map, load_tables(pos.game.folder).rail)
        if self.tables is None:
            self.tables = load_tables(pos.game.folder)
        self.mf = move_facts(self.facts, self.tables)
        u0 = self.units[0]
        self.start = u0.hex
        self.side = u0.side
        self.side_kind = side_kind(self.side)
        self.sector = unit_sector(u0, self.facts)
        self.moving_ids = {u.id for u in self.units}
        self.winter = season(pos, self.tables) == "winter"
        self.rail_only = any(self._v(u, "rail_only") for u in self.units)
        self.ignores_ezoc = all(self._v(u, "ignores_ezoc") for u in self.units)
        self.ezoc: frozenset[Hex] = frozenset() if self.ignores_ezoc else frozenset(
            enemy_zoc(pos, self.facts, self.side))
        self.enemy = {u.hex for u in pos.units if u.side != self.side and is_unit(u)}
        self.fresh = not any(u.spent for u in self.units)      # nothing spent yet this phase (8.3 C)
        self.disengaging = self.fresh and self.start is not None and self.start in self.ezoc
        self.strategic_ezoc = self._scenario_allows("strategic_into_ezoc") if self.kind == "strategic" else None
        left = [self._left(u) for u in self.units]
        self.budget = None if not left or None in left else min(left)
        self.profile = (frozenset(self._types()), self.winter)
        self.costs = self.mf.costs.setdefault(self.profile, {})
        self.counting = sum(1 for u in self.units if not self._free(u))
        self.uses_rail = self.kind == "rail" or self.rail_only
        self.nets: RailNets | None = rail_nets(pos, self.facts) if self.uses_rail else None
        self.rail_zone = self._rail_zone() if self.uses_rail else frozenset()

    # -- unit facts ----------------------------------------------------------------------------------------------
    @staticmethod
    def _v(u: Unit, key: str, default=None):
        return u.counter.value(key, back=u.has("flipped"), default=default)

    def allowance(self, u: Unit) -> int | None:
        """The half MP ``u`` may use this phase in this kind of move: its MA (8.1 C), doubled when strategic
        (8.1 C), half of it once it disengages (10.6 B; not for a sea move, which ignores EZOCs, 20.2 A)."""
        ma = self._v(u, "ma")
        if ma is None:
            return None
        m = self.tables.movement
        if self.kind == "strategic":
            return 2 * int(ma) * m.strategic_multiplier
        if self.kind != "amphibious" and (self.disengaging or u.has("disengaged")):
            return int(2 * int(ma) * m.disengage_fraction)
        return 2 * int(ma)

    def _left(self, u: Unit) -> int | None:
        """The half MP ``u`` has left this phase: its allowance less what it has spent (8.2 A, 8.3 C)."""
        full = self.allowance(u)
        return None if full is None else full - round(2 * u.spent)

    def _types(self) -> set[str]:
        out = set()
        for u in self.units:
            out.add(u.type)
            if self._v(u, "tribal"):
                out.add("tribal")
        return out

    def _free(self, u: Unit) -> bool:
        """9.4: support units (asterisk), air groups and naval squadrons stack free."""
        return bool(self._v(u, "support") or self._v(u, "stacks_free")
                    or u.type in self.tables.stacking.free_types or not is_unit(u))

    def _scenario_allows(self, what: str) -> Reason | None:
        """The scenario special rule (``tables.yaml`` ``scenario_rules``) letting this stack do ``what`` now, as
        the reason its move ends there; ``None`` when no rule applies (26.5 B)."""
        pos = self.position
        for r in self.tables.scenario_rules:
            if (r.allows != what or str(pos.scenario) != r.scenario or (pos.turn, pos.phase) != (r.turn, r.phase)
                    or self.side != r.side or (r.sector is not None and self.sector != r.sector)
                    or self.start is None):
                continue
            near = place_hexes(pos, r.places, "tables.yaml", "scenario_rules")
            if any(self.start.distance(h) <= r.radius for h in near):
                return Reason(r.rule, f"scenario {r.scenario}, {r.turn}: these units may enter an enemy ZOC on a "
                                      "strategic move, and the move ends there")
        return None

    # -- whether the stack may move at all ----------------------------------------------------------------------
    def refusal(self) -> Reason | None:
        """Why this stack may not make this move at all, or ``None``."""
        pos = self.position
        if self.kind not in KINDS:
            return Reason("8.1 C", f"unknown kind of move {self.kind!r}: normal, strategic or rail")
        if self.pickup:
            return Reason("8.2 A", "No Prisoners has no transports to pick units up: move units as a stack instead")
        if self.terrorist:
            return Reason("8.1 C", "No Prisoners has no terrorist moves")
        if self.enter is not None or (self.start is None and self.kind != "amphibious"):
            return Reason("6.4 C", "units off the map are placed as reinforcements (6.2, 6.3), which is not "
                                   "movement (see `toolkit place`); an Allied reinforcement may instead land by sea "
                                   "(20.3: kind amphibious)")
        if len({u.hex for u in self.units}) > 1:
            return Reason("8.2 A", "units move together only from one hex")
        for u in self.units:
            if u.type in NOT_UNITS or u.counter.id in NOT_UNITS or self._v(u, "ma") is None:
                return Reason("19.2 A", f"{u.id} is not a land unit: air groups, naval squadrons and markers "
                                        "do not move on the map")
        if any(u.side != self.side for u in self.units) or self.side != pos.phasing_side:
            return Reason("8.3 A", "only the phasing side's units move, in its own Movement Phase")
        if "movement" not in pos.phase:
            return Reason("8.3 A", f"units move only in a friendly Movement Phase, not in {pos.phase}")
        phase_sector = WESTERN if pos.phase.startswith("west") else EASTERN if pos.phase.startswith("east") else None
        for u in self.units:
            s = unit_sector(u, self.facts)
            if phase_sector and s and s != phase_sector:
                return Reason("4.2.1.3", f"{u.id} is a {s} Sector unit; this Movement Phase moves "
                                         f"{phase_sector} Sector units only")
            if s != self.sector:
                return Reason("21.3 C", "units of different sectors do not move together")
            for flag, rule, why in (("moved", "8.3 A", "has already moved this phase"),
                                    ("amphibious_moved", "20.2 B", "made an amphibious move, which used all its "
                                                                   "MA this turn")):
                if u.has(flag):
                    return Reason(rule, f"{u.id} {why}")
        why = self._spent_refusal()
        if why is not None:
            return why
        if self.kind == "strategic":
            if self.disengaging:
                return Reason("8.1 D", "strategic movement may not begin in an enemy ZOC")
            if not self._supplied():
                return Reason("8.1 D", "strategic movement needs the units to start in supply (8.1 D, 15.7 A): "
                                       + self._oos)
        if self.kind == "rail":
            return self._rail_refusal()
        if self.kind == "amphibious":
            return self._amphibious_refusal()
        return None

    def _spent_refusal(self) -> Reason | None:
        """Why what the stack has already done this phase (``spent``, flags) stops this move (8.1 C/D, 8.3 C, 8.5,
        20.2 B); a move continued is read as one move with the part already made."""
        spent = [u for u in self.units if u.spent]
        if spent and self.kind == "amphibious":
            return Reason("20.2 B", f"an amphibious move takes the unit's whole MA: {_spent_list(spent)} this phase")
        strategic = [u.id for u in self.units if u.has("strategic_moved")]
        if strategic and self.kind != "strategic":
            return Reason("8.1 C", f"{', '.join(strategic)} moved strategically this phase: one type of movement a "
                                   "phase, so the move goes on only as a strategic one")
        if self.kind == "strategic" and any(u.has("disengaged") for u in self.units):
            return Reason("8.1 D", "a unit that began the phase in an enemy ZOC and disengaged may not move "
                                   "strategically")
        if spent and self.start in self.ezoc:
            return Reason("8.5", f"{_spent_list(spent)} and entered an enemy ZOC: its move ended there (8.5, 10.1 B)")
        if self.budget is not None and (self.budget < 0 or (self.budget == 0 and self.kind != "rail")):
            low = min(self.units, key=self._left)
            full = self.allowance(low)
            return Reason("8.3 C", f"{low.id} has spent {_mp(round(2 * low.spent))} of its "
                                   f"{_mp(full)} MP {self._kind_word()} this phase: none left (8.2 A, 8.3 C); the "
                                   "one-hex minimum (8.4) is one hex a phase")
        return None

    def _kind_word(self) -> str:
        if self.kind == "strategic":
            return "of strategic movement (double MA, 8.1 C)"
        if self.disengaging or any(u.has("disengaged") for u in self.units):
            return "after disengaging (half MA, 10.6 B)"
        return "(its MA, 8.1 C)"

    def _amphibious_spot(self, h: Hex) -> bool:
        """A coastal city, town or clear hex (20.2 A)."""
        return h in self.mf.coastal and (self.mf.settlement[h] or self.mf.base[h]) in AMPHIBIOUS_TERRAIN

    def _amphibious_refusal(self) -> Reason | None:
        if self.side_kind != ALLIED:
            return Reason("20.1", "only the Allies move by sea")
        if len(self.units) != 1:
            return Reason("20.2 A", "an amphibious move carries one unit")
        u = self.units[0]
        if self._v(u, "tribal") or not self._v(u, "amphibious", False):
            return Reason("20.4", f"{u.id} may not move by sea (tribal units never do)")
        if self.start is None:
            if u.box != ARRIVING_BOX:
                return Reason("20.3 A", f"{u.id} is in the {u.box} box; only a reinforcement lands from off the map")
            late = arrival_refusal(self.position, u)
            if late is not None:
                return late
            if str(self._v(u, "arrival", "")).startswith("AR+"):
                return None                     # 20.3 B: units due in an Allied-held port do not count
        elif not self._amphibious_spot(self.start):
            return Reason("20.2 A", "an amphibious move begins in a coastal city, town or clear hex")
        used = str(self.position.params.get(AMPHIBIOUS_PARAM) or "")
        letter = (self.sector or "?")[0]
        year = _year(self.position.turn)
        if f"{letter}:{year}" in used.replace(",", " ").split():
            return Reason("20.2 A", f"the {self.sector} Sector has already made its amphibious move in {year}")
        return None

    def _supplied(self) -> bool:
        """Whether every mover is in supply as the move begins (15.1 C); the flag ``out_of_supply`` says no."""
        self._oos = ""
        for u in self.units:
            if u.has("out_of_supply"):
                self._oos = f"{u.id} is marked out of supply"
                return False
            s = supply(self.position, unit=u.id).units[0]
            if not s.supplied:
                cut = s.cut.reason if s.cut else None
                self._oos = f"{u.id} is out of supply" + (f" ({cut.message}, {cut.rule})" if cut else "")
                return False
        return True

    def _rail_refusal(self) -> Reason | None:
        for u in self.units:
            if u.has("rail_moved"):
                return Reason("8.8 B", f"{u.id} has already made its one rail move this turn")
        users = [u for u in self.units if self._v(u, "uses_rail_capacity", True) and not self._v(u, "rail_only")]
        if not users:
            return self._rail_supply()                         # 19.4 B: armoured trains are free
        cap = self.rail_capacity()
        if cap is None:
            return self._rail_supply()
        raw = self.position.params.get(RAIL_MOVES_PARAM)
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            used = int(raw)
        else:
            used = sum(1 for u in self.position.units
                       if u.side == self.side and u.has("rail_moved") and u.id not in self.moving_ids
                       and unit_sector(u, self.facts) == self.sector
                       and self._v(u, "uses_rail_capacity", True) and not self._v(u, "rail_only"))
        if used + len(users) > cap:
            return Reason("8.10", f"the rail capacity this phase is {cap} rail move(s); {used} already made, "
                                  f"{len(users)} more asked")
        return self._rail_supply()

    def _rail_supply(self) -> Reason | None:
        if not self._supplied():
            return Reason("8.8 A", "rail movement needs the units to start in supply: " + self._oos)
        return None

    def rail_capacity(self) -> int | None:
        """Rail moves a phase for the stack's side and sector (8.10; ``None`` when the table gives none)."""
        if self.sector is None:
            return None
        table = self.tables.rail.capacity.get(f"{self.side_kind}_{'west' if self.sector == WESTERN else 'east'}")
        year = _year(self.position.turn)
        if not isinstance(table, dict) or year is None:
            return None
        value = table.get(year, table.get(str(year)))
        return None if value is None else int(value)

    def _rail_zone(self) -> frozenset[Hex]:
        """The own net's hexes a rail move may use, inside the Western railhead limits (16.3 A, 8.9)."""
        nets = self.nets
        net = nets.net(self.side_kind)
        head = nets.railhead
        if self.sector != WESTERN or head is None:
            return net
        if self.side_kind == ALLIED:                             # 8.9 A: west of the railhead hex
            return net - {head}
        return frozenset(h for h in net if h.distance(head) > 1)  # 8.9 B: east of the hex adjacent to it

    # -- steps -----------------------------------------------------------------------------------------------
    def steps(self, at: Hex, cost_so_far: int, mode=None) -> Iterable[Step | Blocked]:
        """Every step out of ``at`` in ``mode`` with its cost, or why it is refused."""
        if self.kind == "amphibious":
            yield from self._landings(at, cost_so_far)
            return
        first = self.fresh and mode is None and at == self.start and cost_so_far == 0
        f = self.facts
        rail_links = f.rail_links(at) if self.uses_rail else {}
        may_rail = self.kind == "rail" and mode in (None, RAIL) and at in self.rail_zone
        normal_mode = RAILED if mode in (RAIL, RAILED) else None
        for b in f.neighbors[at]:
            why = self.entry_refusal(at, b, first)
            if why:
                yield Blocked(b, why)
                continue
            stop, no_end = None, self.end_refusal(b)
            if b in self.ezoc:
                if self.kind == "strategic" and self.strategic_ezoc is None:
                    yield Blocked(b, Reason("8.1 D", "strategic movement may not enter an enemy ZOC"))
                    continue
                stop = self.strategic_ezoc or ZOC_STOP
            line = rail_links.get(b)
            own_rail = line is not None and self.nets.usable(self.side_kind, at, b, line)
            if may_rail and own_rail and b in self.rail_zone:
                yield Step(b, 0, stop, no_end, RAIL)           # 8.8 A: unlimited hexes, no MP
            if self.rail_only and not own_rail:
                yield Blocked(b, Reason("19.4 A", "armoured trains move only along the friendly rail net"))
                continue
            cost = self.step_cost(at, b)
            if cost is None:
                yield Blocked(b, Reason("8.4", f"{self.mf.base[b]} is prohibited terrain for "
                                               f"{'/'.join(sorted(self.profile[0]))} units (8.4, 8.6)"))
                continue
            if first and self.budget is not None and cost > self.budget:
                cost, stop = self.budget, stop or Reason(
                    "8.4", "the guaranteed one-hex move uses the whole movement allowance")
            yield Step(b, cost, stop, no_end, normal_mode)

    @property
    def entries(self):
        """For a reinforcement landing by sea (20.3 A), the landings are its first steps onto the map; for
        every other move ``None`` (the stack starts in its hex)."""
        return self._arrivals if self.start is None else None

    def _arrivals(self) -> Iterable[Step | Blocked]:
        return self._landings(None, 0)

    def _landings(self, at: Hex | None, cost_so_far: int) -> Iterable[Step | Blocked]:
        """20.2: picked up and placed in another coastal city, town or clear hex of the sector, for all the MA."""
        if at != self.start or cost_so_far:
            return
        f = self.facts
        done = Reason("20.2 B", "the amphibious move uses all the unit's MA")
        for b in sorted(self.mf.coastal):
            if b == at or not self._amphibious_spot(b):
                continue
            region = f.sector(b)
            if region is not None and self.sector is not None and region not in (self.sector, DAMASCUS):
                continue                                         # 20.1: same sector only
            if region == DAMASCUS:
                continue
            if b in self.enemy:
                yield Blocked(b, Reason("20.4", "an amphibious move never goes ashore into an enemy-occupied hex"))
                continue
            yield Step(b, self.budget, done, self.end_refusal(b), "landed")

    def entry_refusal(self, a: Hex, b: Hex, first: bool) -> Reason | None:
        """Why no move of any kind may step from ``a`` into adjacent ``b``."""
        f = self.facts
        if b in f.prohibited or f.water_hexside(a, b):
            return Reason("8.4", "all-sea and all-lake hexes and hexsides are prohibited terrain (8.4, 10.3 A)")
        if f.crosses_boundary(a, b):
            return Reason("17.1", "units never cross the sector boundary")
        region = f.sector(b)
        if region == DAMASCUS:
            if self.side_kind != ALLIED:
                return Reason("21.3 A", "no Central Powers unit may ever enter Damascus")
            other = [u for u in self.position.at(b) if u.side == self.side and is_unit(u)
                     and u.id not in self.moving_ids and unit_sector(u, f) not in (None, self.sector)]
            if other:
                return Reason("21.3 C", "Allied units of the other sector hold Damascus; units of both sectors "
                                        "may not stack there")
        elif region is not None and self.sector is not None and region != self.sector:
            return Reason("17.1", f"a {self.sector} Sector unit may not enter the {region} Sector")
        if b in self.enemy:
            return Reason("9.3", "units may never enter a hex with enemy units")
        if first and self.disengaging and b in self.ezoc:
            return Reason("10.6 A", "a unit leaving an enemy ZOC must first enter a hex free of enemy ZOC "
                                    "(no moving directly from one enemy ZOC to another, 8.4)")
        return None

    def end_refusal(self, b: Hex) -> Reason | None:
        """Why the move may pass through but not end in ``b``: the stacking limit (9.1, 9.2 A/B)."""
        if not self.counting:
            return None
        limit, terrain = self.mf.stacking_limit(b, self.winter)
        if limit is None:
            return None
        there = sum(1 for u in self.position.at(b)
                    if u.side == self.side and u.id not in self.moving_ids and not self._free(u))
        if there + self.counting > limit:
            return Reason("9.1", f"{there + self.counting} units would end in {terrain}, whose stacking limit is "
                                 f"{limit}; passing through is free (9.2 B), the limit holds at the end (9.2 A)")
        return None

    def step_cost(self, a: Hex, b: Hex) -> int | None:
        """The cost in half MP of the step from ``a`` into ``b`` (terrain, road, hexsides, 8.6, 8.7), or None when
        the terrain or hexside is prohibited (8.4)."""
        key = (a, b)
        if key in self.costs:
            return self.costs[key]
        pair = frozenset(key)
        m = self.tables.movement
        if pair in self.mf.road:
            cost = m.road                                   # 8.7 A: along the road, ½ MP the hex
        else:
            cost = 0
            terrain = self.mf.base[b]
            for t in self.profile[0]:
                own = m.type_costs.get(t)
                if isinstance(own, dict) and terrain in own:
                    c = own[terrain]
                elif self.winter and terrain in self.tables.weather.winter.movement:
                    c = self.tables.weather.winter.movement[terrain]
                else:
                    c = m.terrain.get(terrain, m.terrain.get("clear"))
                if c is None:
                    cost = None
                    break
                cost = max(cost, c)
            if cost is not None:
                for k, v in self.mf.sides.get(pair, {}).items():
                    if k in m.hexside and _truthy(v):
                        if m.hexside[k] is None:
                            cost = None
                            break
                        cost += m.hexside[k]                # 8.6 B
        self.costs[key] = cost
        return cost


def _spent_list(units: Sequence[Unit]) -> str:
    return ", ".join(f"{u.id} has spent {_mp(round(2 * u.spent))} MP" for u in units)


def moves(position: Position, unit_ids: Sequence[str], pickup: Sequence[str] = (), terrorist: bool = False,
          enter: str | None = None, *, kind: str = "normal") -> MoveResult:
    """Legal destinations of the named units moving together in the position's Movement Phase.

    ``kind`` is ``normal`` (8.1 C), ``strategic`` (double MA, 8.1 C/D) or ``rail`` (normal movement plus one
    rail move, 8.8).  ``pickup``, ``terrorist`` and ``enter`` are the CLI's other games' options: they are
    refused here with the rule.
    """
    units = [position.by_id[u] for u in unit_ids]
    return legal_moves(NoPrisonersMove(position, units, kind, tuple(pickup), terrorist, enter))


def after_move(before: Position, after: Position, unit_ids: Sequence[str], kind: str,
               dest: Destination) -> Position:
    """``after`` (``before`` with the move to ``dest`` of :func:`moves` made) with what that move leaves for later
    moves: ``strategic_moved`` (8.1 C), ``disengaged`` when the stack left an enemy ZOC (10.6 B), ``rail_moved`` when
    its path used the rail (8.8 B), ``amphibious_moved`` and the sector's year in ``amphibious_used`` after a sea move
    (20.2 A/B; not for an AR+ unit landing in an Allied-held port, 20.3 B)."""
    rules = NoPrisonersMove(before, [before.by_id[u] for u in unit_ids], kind)
    mode = dest._key[2] if dest._key else None
    add = {"strategic_moved"} if kind == "strategic" else set()
    add |= {"disengaged"} if rules.disengaging else set()
    add |= {"rail_moved"} if mode in (RAIL, RAILED) else set()
    params = dict(after.params)
    if kind == "amphibious":
        add.add("amphibious_moved")
        u = before.by_id[unit_ids[0]]
        if not (u.hex is None and str(rules._v(u, "arrival", "")).startswith("AR+")):
            used = str(params.get(AMPHIBIOUS_PARAM) or "").split()
            params[AMPHIBIOUS_PARAM] = " ".join([*used, f"{(rules.sector or '?')[0]}:{_year(before.turn)}"])
    moved = after.moved({uid: replace(after.by_id[uid], flags=after.by_id[uid].flags | add) for uid in unit_ids})
    return replace(moved, params=params) if params != after.params else moved
