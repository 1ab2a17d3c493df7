"""*Jerusalem!* victory (2.0): five city hexes held and an open road out of Jerusalem.

The Jewish player wins when, after his June IV player turn, (a) his units stand in at
least five of the twelve Jerusalem city hexes and (b) a road free of Arab ZOC runs from a
Jerusalem city hex to the "to Tel Aviv" entrance hex or to the Hulda village hex.  The
Arab player wins otherwise.

How the rules are read here (each is also said in the explanation the user sees):

* **Held city hexes (2.0, 1.3).**  A city hex is held when at least one Jewish unit is in
  it (a carried unit, a leader or the convoy counts: all are units, 1.2.1) and no Arab
  unit is.  Only the twelve ``jerusalem_city`` hexes count; Bevingrad never does (2.0
  note).  The held hexes need not be connected.
* **The road graph (1.3, 2.0, 8.1, 15.3, 15.4).**  Two hexes are joined when a primary or
  secondary road crosses their common hexside, when both are adjacent city hexes or a city
  hex and Bevingrad (the city's unprinted primary roads, 1.3, 8.1, read as crossing every
  hexside city hexes share: ``tables.yaml`` ``city_road_links``; ``all_pairs`` joins every
  two), or by a bulldozer road usable this turn
  (:func:`~toolkit.games.jerusalem.movement.built_roads`).  Railways are not roads (1.3).
* **What breaks the road.**  By default only what 2.0 names: a hex in the ZOC of an Arab
  unit (4.1, 4.6, 6.5.2, via :func:`~toolkit.games.jerusalem.movement.enemy_zoc`).  An
  Arab unit without a ZOC (a lone garrison, a truck, a lone leader) standing on the road
  does not cut it; an Arab unit with a ZOC cuts it through the ZOC round it (4.1.1: not
  its own hex), except in the city, where there is no ZOC (4.3).  The stricter reading,
  ``road_cut_by="zoc_or_unit"`` (``toolkit victory --road-cut-by zoc-or-unit``), also
  cuts at every hex holding an Arab unit (4.2: no unit may enter it).  Jewish units in a
  hex do not cancel Arab ZOC there: 2.0 asks for "no Arab ZOC".
* **End hexes.**  Every hex of the road counts, both ends included: the "to Tel Aviv"
  or Hulda hex must itself be free of Arab ZOC (and, in the stricter reading, of Arab
  units).  The starting city hex is never in a ZOC (4.3); it need not be a held hex.
  Bevingrad may be passed through (it is linked by the city roads, 8.1) but is not a
  starting hex (2.0 note).
* **Timing (2.0, 3.5).**  The conditions are evaluated on the position as given; the
  result says whether that position is the end of the Jewish June IV player turn.
* **Cut.**  When no open road exists, ``cut_by`` lists the fewest blocked road hexes
  (Arab ZOC or Arab-occupied) that together cut every road from the city to the two
  exits: a minimum vertex cut (networkx max-flow) on the whole road graph in which only
  blocked hexes may be cut (open hexes cannot be).  Clearing those hexes would open a
  road, unless clearing one of them puts a neighbour into a new ZOC, which cannot
  happen: ZOC only disappears when units are removed.  The set is one minimum cut;
  others of the same size may exist.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...lazy import lazy_module
from ...game import Position
from ...hexgrid import Hex
from .tables import load_tables
from .movement import MapFacts, built_roads, enemy_zoc

nx = lazy_module("networkx")  # imported when a road is first checked (issue 31: start-up)

RULE = "2.0"
FINAL_TURN = "June IV"
ARAB = "arab"
CITY = "jerusalem_city"
EXIT_TERRAIN = "tel_aviv_entrance"
EXIT_PLACES = ("to Tel Aviv", "Hulda")

_SOURCE = ("source",)
_SINK = ("sink",)


@dataclass(frozen=True)
class VictoryResult:
    """The 2.0 verdict on a position."""

    jewish_wins: bool
    city_hexes_held: tuple[str, ...]
    needed: int
    road_from: str | None
    road_to: str | None
    path: tuple[str, ...]
    cut_by: tuple[str, ...]
    final_turn: bool
    explanation: str
    labels: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def road_open(self) -> bool:
        """Whether an open road was found."""
        return bool(self.path)


def _jewish_side(position: Position) -> str:
    sides = [s.id for s in position.game.spec.sides]
    return next((s for s in sides if s != ARAB), "jewish")


def _label(position: Position, h: Hex) -> str:
    cmap = position.game.map
    place = cmap.hexes[h].place
    return f"{cmap.name(h)} ({place})" if place else cmap.name(h)


def city_hexes(facts: MapFacts) -> set[Hex]:
    """The twelve Jerusalem city hexes of 2.0 (Bevingrad excluded)."""
    return {h for h in facts.city if facts.has(h, CITY)}


def exit_hexes(facts: MapFacts) -> list[Hex]:
    """The "to Tel Aviv" entrance hex and the Hulda village hex (2.0 a, b)."""
    cmap = facts.cmap
    found = [h for h, info in cmap.hexes.items() if EXIT_TERRAIN in info.terrain]
    for name in EXIT_PLACES:
        try:
            h = cmap.resolve(name)
        except Exception:  # noqa: BLE001 - a map without the place simply has no such exit
            continue
        if h not in found:
            found.append(h)
    return found


def road_graph(position: Position, facts: MapFacts) -> nx.Graph:
    """Hexes joined by road: printed primary/secondary hexsides, the city links of 8.1, built roads (15.4)."""
    g = nx.Graph()
    cmap = facts.cmap
    for h in cmap.hexes:
        for n in h.neighbors():
            if n in cmap.hexes and facts.printed_road(h, n):
                g.add_edge(h, n)
    if load_tables().movement.city_road_links == "all_pairs":  # the older reading of 1.3, 8.1
        city = sorted(facts.city)
        for i, a in enumerate(city):
            for b in city[i + 1:]:
                g.add_edge(a, b)
    for side in built_roads(position):
        a, b = tuple(side)
        if a in cmap.hexes and b in cmap.hexes:
            g.add_edge(a, b)
    return g


ROAD_CUT_BY = ("zoc", "zoc_or_unit")


def blocked_hexes(position: Position, facts: MapFacts, road_cut_by: str = "zoc") -> dict[Hex, str]:
    """Road-breaking hexes and why: in Arab ZOC (2.0, 4.1, 4.3); with ``zoc_or_unit`` also Arab-occupied (4.2)."""
    if road_cut_by not in ROAD_CUT_BY:
        raise ValueError(f"road_cut_by must be one of {', '.join(ROAD_CUT_BY)}, not {road_cut_by!r}")
    out: dict[Hex, str] = {}
    for h in enemy_zoc(position, facts, _jewish_side(position)):
        out[h] = "in Arab ZOC (4.1)"
    if road_cut_by == "zoc_or_unit":
        for h in position.occupied():
            if any(u.side == ARAB for u in position.at(h)):
                out[h] = "occupied by Arab units (4.2)"
    return out


def _held(position: Position, facts: MapFacts) -> list[Hex]:
    jewish = _jewish_side(position)
    out = []
    for h in city_hexes(facts):
        units = position.at(h)
        if any(u.side == jewish for u in units) and not any(u.side == ARAB for u in units):
            out.append(h)
    return sorted(out, key=lambda h: position.game.map.name(h))


def _open_path(g: nx.Graph, starts: set[Hex], ends: list[Hex], blocked: dict[Hex, str]) -> list[Hex] | None:
    free = g.subgraph([h for h in g.nodes if h not in blocked]).copy()
    free.add_node(_SOURCE)
    free.add_node(_SINK)
    free.add_edges_from((_SOURCE, s) for s in starts if s in free)
    free.add_edges_from((e, _SINK) for e in ends if e in free)
    try:
        path = nx.shortest_path(free, _SOURCE, _SINK)
    except nx.NetworkXNoPath:
        return None
    return path[1:-1]


def _min_cut(g: nx.Graph, starts: set[Hex], ends: list[Hex], blocked: dict[Hex, str]) -> list[Hex] | None:
    """Fewest blocked hexes cutting every road from ``starts`` to ``ends``; ``None`` if no road exists at all."""
    d = nx.DiGraph()
    for h in g.nodes:
        if h in blocked:
            d.add_edge(("in", h), ("out", h), capacity=1)
        else:
            d.add_edge(("in", h), ("out", h))  # no capacity attribute: infinite, an open hex cannot be cut
    for a, b in g.edges:
        d.add_edge(("out", a), ("in", b))
        d.add_edge(("out", b), ("in", a))
    for s in starts:
        d.add_edge(_SOURCE, ("in", s))
    for e in ends:
        d.add_edge(("out", e), _SINK)
    if _SOURCE not in d or _SINK not in d or not nx.has_path(d, _SOURCE, _SINK):
        return None
    _, (reach, _rest) = nx.minimum_cut(d, _SOURCE, _SINK)
    return [h for h in g.nodes if ("in", h) in reach and ("out", h) not in reach]


def victory(position: Position, road_cut_by: str = "zoc") -> VictoryResult:
    """The 2.0 victory check for the Jewish player on ``position`` (see the module docstring).

    ``road_cut_by``: ``"zoc"`` (2.0 as written: only Arab ZOC cuts the road) or ``"zoc_or_unit"``
    (the stricter reading: a hex holding any Arab unit cuts it too).
    """
    facts = MapFacts(position.game.map)
    name = position.game.map.name
    label = {}

    def lab(h: Hex) -> str:
        label[name(h)] = _label(position, h)
        return name(h)

    held = _held(position, facts)
    starts = city_hexes(facts)
    ends = exit_hexes(facts)
    blocked = blocked_hexes(position, facts, road_cut_by)
    g = road_graph(position, facts)
    path = _open_path(g, starts, ends, blocked) if ends else None
    cut: list[Hex] = []
    no_road_at_all = False
    if path is None:
        found = _min_cut(g, starts, ends, blocked) if ends else None
        no_road_at_all = found is None
        cut = sorted(found or [], key=name)
    final = position.turn == FINAL_TURN and position.phasing_side == _jewish_side(position) \
        and bool(position.params.get("turn_end", False))

    held_names = tuple(lab(h) for h in held)
    path_names = tuple(lab(h) for h in path or [])
    cut_names = tuple(lab(h) for h in cut)
    needed = load_tables().limits.victory_city_hexes  # 2.0
    enough = len(held) >= needed
    wins = enough and bool(path)

    parts = [f"2.0: the Jewish player holds {len(held)} of the {len(starts)} Jerusalem city hexes "
             f"(needs {needed}; Bevingrad does not count)"
             + (": " + ", ".join(label[n] for n in held_names) if held_names else "") + "."]
    if path:
        free = "no Arab ZOC, no Arab unit" if road_cut_by == "zoc_or_unit" else "no Arab ZOC"
        parts.append(f"2.0, 8.1: an open road ({free}) runs from {label[path_names[0]]} "
                     f"to {label[path_names[-1]]} through {len(path_names)} hexes.")
    elif not ends:
        parts.append("2.0: the map has neither the 'to Tel Aviv' entrance hex nor the Hulda hex; no road can count.")
    elif no_road_at_all:
        parts.append("2.0: no road at all joins the city to 'to Tel Aviv' or Hulda on this map.")
    else:
        why = "; ".join(f"{label[name(h)]} {blocked[h]}" for h in cut)
        parts.append(f"2.0, 4.1: every road from the city to 'to Tel Aviv' and Hulda is cut; the fewest hexes "
                     f"cutting them all ({len(cut)}): {why}.")
    parts.append("The Jewish player wins (2.0)." if wins else "The Jewish player does not win; the Arab player "
                 "wins if this holds at the end of the Jewish June IV player turn (2.0).")
    if not final:
        parts.append("Note: 2.0 is judged at the end of the Jewish June IV player turn (3.5); this position "
                     f"is {position.turn}, {position.phasing_side} phasing"
                     + ("" if position.params.get("turn_end") else ", not marked as a turn end (params.turn_end)")
                     + ".")
    return VictoryResult(wins, held_names, needed, path_names[0] if path_names else None,
                         path_names[-1] if path_names else None, path_names, cut_names, final, " ".join(parts),
                         label)


def victory_json(result: VictoryResult) -> dict:
    """The stable JSON form of a :class:`VictoryResult`."""
    return {
        "jewish_wins": result.jewish_wins,
        "city_hexes_held": list(result.city_hexes_held),
        "needed": result.needed,
        "road": ({"from": result.road_from, "to": result.road_to, "path": list(result.path)}
                 if result.path else None),
        "cut_by": list(result.cut_by),
        "rule": RULE,
        "explanation": result.explanation,
    }
