"""Where reinforcements come on, as a player of the module sees it.

* A reinforcement a scenario gives entry hexes (``entry:``) carries them in words (:func:`enters_words`), which
  the Boxes window's mouse-over writes after its turn's box.
* The hexes where a side's reinforcements come on by the rules -- ``game.yaml`` ``entry_areas`` (No Prisoners'
  6.3 edges), or a ``rules.yaml`` game's ``reinforcements.entry`` -- are marked on the main map: a small arrow
  of the side's colour at the hex's left corner (clear of a counter on the hex), and the mouse-over writes the
  area after the hex's place and terrain (``0108 (Clear) Allied entry (6.3 A)``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from ...game.module import Game
from ...game.position import Position, position_from_file
from ...game.schema import PositionFile
from ...hexgrid import Hex
from .board import BoardLayout, HexZone, hex_outline

ARROW = 15   # px: the entry arrow's length (its height 4/5 of it), inside the hex from its left corner
ARROW_INSET = 7   # px from the corner, so that the arrow lies in the hex, not on the corner it shares


@dataclass(frozen=True)
class EntryArea:
    """Hexes where a side's reinforcements come on: its words for the mouse-over and its rule."""

    side: str
    name: str
    rule: str
    hexes: tuple[Hex, ...]

    @property
    def words(self) -> str:
        """``Allied entry (6.3 A)``."""
        return f"{self.name} ({self.rule})" if self.rule else self.name


def entry_words(game: Game, entry: tuple[Hex, ...]) -> list[str]:
    """Where a reinforcement comes on, as a player reads it: each hex's name and place (``["0215 Hulda", "0102 to
    Tel Aviv"]``)."""
    cmap = game.map
    return [" ".join(filter(None, (cmap.name(h), cmap.hexes[h].place))) for h in entry]


def enters_words(game: Game, entry: tuple[Hex, ...]) -> str:
    """What the Boxes window's mouse-over writes after the box of a waiting reinforcement, ``(enters at 0215 Hulda
    or 0102 to Tel Aviv)``; '' without entry hexes."""
    return f"(enters at {' or '.join(entry_words(game, entry))})" if entry else ""


def entry_areas(game: Game) -> list[EntryArea]:
    """The game's entry areas: ``game.yaml`` ``entry_areas``, then a ``rules.yaml`` game's
    ``reinforcements.entry`` (named after the side: ``Axis entry``)."""
    spec, cmap = game.spec, game.map
    out = []
    for a in spec.entry_areas:
        names = spec.place_lists[a.hexes] if isinstance(a.hexes, str) else a.hexes
        out.append(EntryArea(a.side, a.name, a.rule or "", tuple(cmap.resolve(n) for n in names)))
    rules = game.rules_data
    if rules is not None and rules.reinforcements is not None:
        from ...games.data.reinforcements import entry_hexes   # the rules engine, loaded only for such a game
        start = _start(game)
        sides = {s.id: s.name for s in spec.sides}
        for side, e in rules.reinforcements.entry.items():
            out.append(EntryArea(side, f"{sides[side]} entry", e.rule or rules.reinforcements.rule or "",
                                 tuple(entry_hexes(start, side))))
    return out


def _start(game: Game) -> Position:
    """An empty position at the game's first turn and phase: what ``rules.yaml``'s entry hexes are read from."""
    spec = game.spec
    pf = PositionFile(game=spec.id, turn=spec.turns[0], phase=spec.phases[0], phasing_side=spec.sides[0].id,
                      units=[])
    return position_from_file(pf, f"{spec.id} (its first turn)", game)


def entry_zones(game: Game, board: BoardLayout) -> tuple[HexZone, ...]:
    """The main map's hex zones with each entry area's words after the hex's (a hex with nothing else to say gets
    a zone of its own), in the grid's order."""
    words: dict[Hex, list[str]] = {}
    for area in entry_areas(game):
        for h in area.hexes:
            words.setdefault(h, []).append(area.words)
    if not words:
        return board.zones
    zones = {z.hex: z for z in board.zones}
    cmap = game.map
    out = []
    for h in cmap.grid.hex_list:
        zone = zones.get(h)
        if h in words:
            said = " ".join(words[h])
            zone = HexZone(said, hex_outline(cmap, h, board.scale, board.ox, board.oy), h) if zone is None \
                else replace(zone, name=f"{zone.name} {said}")
        if zone is not None:
            out.append(zone)
    return tuple(out)


def mark_entry_hexes(img: Image.Image, game: Game, board: BoardLayout) -> Image.Image:
    """The board with an arrow of the side's colour pointing into each entry hex from its left corner."""
    areas = entry_areas(game)
    if not areas:
        return img
    colours = {s.id: (s.color, s.text) for s in game.spec.sides}
    draw = ImageDraw.Draw(img)
    cmap = game.map
    for area in areas:
        fill, outline = colours[area.side]
        for h in area.hexes:
            corners = [board.pixel(*c) for c in cmap.grid.layout.corners(h)]
            left = min(corners)                     # a flat-top hex's left corner
            x, y, half = left[0] + ARROW_INSET, left[1], ARROW * 2 / 5
            draw.polygon([(x, y - half), (x + ARROW, y), (x, y + half)], fill=fill, outline=outline)
    return img
