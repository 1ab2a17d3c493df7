"""The two rail nets of a *No Prisoners* position (16.x).

* **Allied net** (16.2 D): the Allied-line rail hexes linked to the western map
  edge, plus the rail path from them up to the hex of the railhead marker,
  that hex included.  The British-built line (``british``) is in play only
  behind the marker (16.1 B): the part beyond it belongs to nobody.
* **CP net** (16.2 D, 16.3 B): every CP-line rail hex that is neither in the
  Allied net nor taken over by the Allies.  Whether a CP rail hex actually
  feeds supply (reaches a depot) is worked out by :mod:`.supply`.

Our choices where the rules leave it to the table:

* The railhead is the marker ``railhead`` placed in a hex, or a unit whose type
  (or counter id) is ``railhead``.  With neither (before 1916-I, 16.2 A) the
  Allied net is only the Egyptian lines linked to the western edge.
* A railhead that no rail path links to the Allied lines adds only nothing;
  :attr:`RailNets.note` says so.
* Taken-over hexes (16.3 B) are every CP-line hex now in the Allied net, plus
  those the position lists: the parameter ``allied_rail_taken`` (hex names
  separated by spaces or commas) and/or markers ``rail_taken`` in hexes.  They
  stay out of the CP net even if the railhead falls back or the CP retake them.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from ...game import Position
from ...hexgrid import Hex
from .mapfacts import ALLIED, MapFacts, map_facts
from .tables import load_tables

RAILHEAD = "railhead"
TAKEN_PARAM = "allied_rail_taken"
TAKEN_MARKER = "rail_taken"


@dataclass(frozen=True)
class RailNets:
    """The Allied and CP rail nets of one position."""

    allied: frozenset[Hex]
    cp: frozenset[Hex]
    railhead: Hex | None
    taken_over: frozenset[Hex]
    allied_lines: frozenset[str]
    note: str = ""

    def net(self, kind: str) -> frozenset[Hex]:
        """The net of ``allied`` or ``cp``."""
        return self.allied if kind == ALLIED else self.cp

    def usable(self, kind: str, a: Hex, b: Hex, line: str) -> bool:
        """Whether a side may use the rail link ``a``-``b`` of ``line`` (16.3 A: own net only)."""
        if kind == ALLIED:
            return a in self.allied and b in self.allied
        return a in self.cp and b in self.cp and line not in self.allied_lines


def railhead_hex(position: Position) -> Hex | None:
    """Where the Allied railhead is: its marker, or a railhead unit (16.2)."""
    for m in position.markers:
        if m.marker == RAILHEAD and m.hex is not None:
            return m.hex
    for u in position.units:
        if u.hex is not None and (u.type == RAILHEAD or u.counter.id == RAILHEAD):
            return u.hex
    return None


def taken_over(position: Position) -> set[Hex]:
    """Rail hexes the position records as taken over by the Allies (16.3 B)."""
    out = {m.hex for m in position.markers if m.marker == TAKEN_MARKER and m.hex is not None}
    raw = position.params.get(TAKEN_PARAM)
    if isinstance(raw, str):
        for name in re.split(r"[\s,;]+", raw.strip()):
            if name:
                out.add(position.game.map.resolve(name))
    return out


def _component(facts: MapFacts, starts: set[Hex], lines: frozenset[str]) -> set[Hex]:
    seen, queue = set(starts), deque(starts)
    while queue:
        h = queue.popleft()
        for n, line in facts.rail_links(h).items():
            if line in lines and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def _rail_path(facts: MapFacts, starts: set[Hex], goal: Hex) -> list[Hex] | None:
    """A shortest rail path from any of ``starts`` to ``goal`` (any line), or ``None``."""
    parent: dict[Hex, Hex | None] = {h: None for h in starts}
    queue = deque(sorted(starts))
    while queue:
        h = queue.popleft()
        if h == goal:
            path = []
            cur: Hex | None = h
            while cur is not None:
                path.append(cur)
                cur = parent[cur]
            return path[::-1]
        for n in sorted(facts.rail_links(h)):
            if n not in parent:
                parent[n] = h
                queue.append(n)
    return None


def rail_nets(position: Position, facts: MapFacts | None = None) -> RailNets:
    """The Allied and CP rail nets of a position (16.1, 16.2 D, 16.3 B)."""
    facts = facts or map_facts(position.game.map, load_tables(position.game.folder).rail)
    edge = {h for h in facts.west_edge if h in facts.allied_line_hexes}
    base = _component(facts, edge, facts.allied_lines - facts.built_lines)
    allied = set(base)
    head = railhead_hex(position)
    note = ""
    if head is None:
        note = "no railhead marker: the Allied net is the Egyptian lines linked to the western edge (16.2 A/D)"
    elif head not in facts.rail_hexes:
        note = f"the railhead is not on a rail hex ({position.game.map.name(head)}); it adds nothing (16.2 B)"
    elif head not in allied:
        path = _rail_path(facts, base, head) if base else None
        if path is None:
            note = "no rail path links the railhead to the western map edge; it adds nothing (16.2 D)"
        else:
            allied.update(path)
    taken = taken_over(position) | (allied & facts.cp_line_hexes - base)
    cp = facts.cp_line_hexes - allied - taken
    return RailNets(frozenset(allied), frozenset(cp), head, frozenset(taken), facts.allied_lines, note)
