"""Where a reinforcement of a ``rules.yaml`` game may come on (``reinforcements`` section): a unit waiting in the
reinforcements box whose arrival turn has come, at its own entry hexes or its side's (hexes, places, a place list
of ``game.yaml``, map edges), never into enemy units nor, when the section says so, enemy zones of control."""
from __future__ import annotations

from ...game import Position
from ...game.moves import Reason
from ...game.placement import Placement
from ...game.rulesdata import Entry
from ...hexgrid import Hex
from ...mapdata import CompiledMap
from .facts import enemy_zoc, rules_of
from .replacements import applies, not_now, replacement


def edge_hexes(cmap: CompiledMap, edge: str) -> list[Hex]:
    """The map's hexes on one edge (``north``, ``south``, ``east``, ``west``).

    Flat-top hexes stand in columns: the west and east edges are the first and last columns, the north and south
    edges each column's top and bottom hex; pointy-top hexes stand in rows, the other way round.
    """
    lay = cmap.grid.layout
    across = 0 if lay.orientation == "flat" else 1       # the axis the columns (or rows) line up on
    along = 1 - across
    lines: dict[int, list[tuple[float, Hex]]] = {}
    for h in cmap.hexes:
        c = lay.centre(h)
        lines.setdefault(round(c[across] * 1000), []).append((c[along], h))
    if (edge in ("west", "east")) == (across == 0):      # a whole first or last line
        key = (min if edge in ("west", "north") else max)(lines)
        found = [h for _, h in lines[key]]
    else:                                                # each line's first or last hex
        pick = min if edge in ("west", "north") else max
        found = [pick(line)[1] for line in lines.values()]
    return sorted(found, key=cmap.name)


def entry_hexes(position: Position, side: str, entries: dict[str, Entry] | None = None) -> list[Hex]:
    """Every entry hex of a side (``entries``: by side, else ``reinforcements.entry``)."""
    reinforcements = rules_of(position).reinforcements
    entries = entries if entries is not None else reinforcements.entry if reinforcements is not None else {}
    e = entries.get(side)
    if e is None:
        return []
    cmap = position.game.map
    names = [*e.hexes, *e.places, *(position.game.spec.place_lists.get(e.place_list, []) if e.place_list else [])]
    hexes = [cmap.resolve(n) for n in names] + [h for edge in e.edges for h in edge_hexes(cmap, edge)]
    hexes += sorted((h for h, info in cmap.hexes.items() if info.region in e.regions), key=cmap.name)
    return list(dict.fromkeys(hexes))


def open_hexes(position: Position, side: str, hexes: list[Hex], rule: str) -> tuple[tuple[Hex, ...],
                                                                                   dict[Hex, Reason]]:
    """Of ``hexes``, those a unit of ``side`` may be placed in, and the others with the reason: never into enemy
    units, nor into an enemy zone of control where ``reinforcements.enemy_zoc`` prohibits it (friendly units
    there negate it when ``zoc.negated_by_friends`` lists reinforcements)."""
    r, zoc_rules = rules_of(position).reinforcements, rules_of(position).zoc
    enemy = {v.hex for v in position.units if v.hex is not None and v.side != side}
    zoc = set(enemy_zoc(position, side)) if r is not None and r.enemy_zoc == "prohibited" else set()
    if zoc and zoc_rules and "reinforcements" in zoc_rules.negated_by_friends:
        zoc -= {v.hex for v in position.units if v.hex is not None and v.side == side}
    blocked: dict[Hex, Reason] = {}
    for h in hexes:
        if h in enemy:
            blocked[h] = Reason(rule, "enemy units hold the hex")
        elif h in zoc:
            blocked[h] = Reason(rule, "the hex is in an enemy zone of control")
    return tuple(h for h in hexes if h not in blocked), blocked


def placement(position: Position, unit_id: str) -> Placement:
    """Where a unit may be placed (or enter) now, with the rule, or why not: a replacement in a replacement phase
    (:mod:`.replacements`), else a reinforcement."""
    r = rules_of(position).reinforcements
    if unit_id not in position.by_id:
        raise ValueError(f"{position.source}: no unit {unit_id!r}")
    u = position.by_id[unit_id]
    if applies(position, u):
        return replacement(position, u)
    waiting = not_now(position, u)
    if waiting is not None or r is None:
        return waiting or Placement(u.id, refused=Reason(rules_of(position).replacements.rule, f"{u.id} is not one "
                                                         "the replacements may return"))
    entry = r.entry.get(u.side)
    rule = (entry.rule if entry is not None and entry.rule else r.rule)
    turns = position.game.spec.turns
    if u.hex is not None:
        return Placement(u.id, rule=rule, refused=Reason(r.rule, f"{u.id} is on the map already"))
    if u.box != r.box:
        return Placement(u.id, rule=rule, refused=Reason(r.rule, f"{u.id} is in the {u.box} box, not among the "
                                                                 f"reinforcements ({r.box})"))
    if u.arrives is not None and turns.index(u.arrives) > turns.index(position.turn):
        return Placement(u.id, rule=rule, refused=Reason(r.rule, f"{u.id} arrives on turn {u.arrives}; this is "
                                                                 f"turn {position.turn}"))
    hexes = list(u.entry) or entry_hexes(position, u.side)
    if not hexes:
        return Placement(u.id, rule=rule, refused=Reason(r.rule, f"no entry hexes for side {u.side}: give "
                                                                 "reinforcements.entry in rules.yaml or the unit's "
                                                                 "own `entry`"))
    ok, blocked = open_hexes(position, u.side, hexes, rule)
    return Placement(u.id, ok, rule, None, blocked)
