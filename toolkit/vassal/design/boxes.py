"""The "Boxes and tracks" map of a module: the turn record track, every off-map box, and a place for game markers.

One board, drawn here, with a ``ZonedGrid``: a zone per turn of the turn
track (``Turn May IV``: the turn marker and the units arriving that turn), per off-map box of ``game.yaml`` ``boxes``
(``Reinforcements``, ``Eliminated`` ...) and one for markers that have no
place on a track (``Game markers``: the phase marker, victory points).  Each
zone holds a grid of slots one counter apart, where saves lay the pieces;
a player may drop a piece anywhere in a zone.  :func:`zone_at` maps a point
back to its zone, so a save read back puts each piece in its box or turn.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ...datafile import read_yaml
from ...game.module import Game, GameDataError
from ...render.png import text_font
from .entry import enters_words
from .piecedefs import TURN_ZONE

MARKERS_ZONE = "Game markers"
TITLE_H = 22
PAD = 6
COLUMNS = 8
TURNS_PER_ROW = 8
TURN_COLUMNS = 2  # slots a row of a turn's box on the turn record track
MARGIN = 12
#: Blank board at the right for the window's vertical scrollbar: the engine packs the window to the board's
#: width, then cuts its height to the desktop, and the scrollbar that appears takes 15 px of the viewport (a
#: 792 px board was seen through a 777 px viewport).
SCROLLBAR_ROOM = 16
#: The mouse-over viewer's font size (``buildfile._map_components``) and the padding round its words.
VIEWER_FONT_PX = 11
VIEWER_LABEL_PAD = 6


@dataclass(frozen=True)
class Zone:
    """A zone of the board: its name, what it holds (``turn``, ``box`` or ``markers``) and which, its rectangle."""

    name: str
    kind: str
    key: str
    x: int
    y: int
    w: int
    h: int
    pitch: int

    def contains(self, px: float, py: float) -> bool:
        """Whether a board point lies in the zone."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    @property
    def path(self) -> str:
        """The zone's outline as VASSAL's ``Zone`` ``path`` attribute (``x,y;x,y;...``)."""
        x2, y2 = self.x + self.w, self.y + self.h
        return f"{self.x},{self.y};{x2},{self.y};{x2},{y2};{self.x},{y2}"

    def slots(self) -> list[tuple[int, int]]:
        """Slot centres, row by row, one counter apart."""
        cols = max(1, (self.w - 2 * PAD) // self.pitch)
        rows = max(1, (self.h - TITLE_H - PAD) // self.pitch)
        x0 = self.x + PAD + self.pitch // 2
        y0 = self.y + TITLE_H + self.pitch // 2
        return [(x0 + c * self.pitch, y0 + r * self.pitch) for r in range(rows) for c in range(cols)]

    def slot(self, i: int) -> tuple[int, int]:
        """The ``i``-th slot (wrapping round, so an overfull zone stacks pieces)."""
        s = self.slots()
        return s[i % len(s)]


@dataclass(frozen=True)
class BoxesLayout:
    """The board's size and zones."""

    width: int
    height: int
    zones: tuple[Zone, ...]

    def zone(self, kind: str, key: str) -> Zone:
        """The zone of a turn (``kind='turn'``), a box (``'box'``) or the markers zone (``'markers'``)."""
        for z in self.zones:
            if z.kind == kind and z.key == key:
                return z
        raise KeyError(f"no {kind} zone {key!r}")

    def zone_at(self, px: float, py: float) -> Zone | None:
        """The zone holding a board point, if any."""
        return next((z for z in self.zones if z.contains(px, py)), None)


def _zone_of(game: Game, key: str, p: dict) -> tuple[str, object]:
    """The zone a scenario's unit or marker lies in: ``("turn", turn)`` for a marker on a turn or a unit
    waiting in the ``arrivals_box`` for its turn, else ``("box", box)``."""
    if p.get("turn") is not None and (key == "markers" or p.get("box") == game.spec.arrivals_box):
        return "turn", p["turn"]
    return "box", p.get("box")


def _scenarios(game: Game) -> list[dict]:
    """The game's scenario files as read (the boxes board is laid out for all of them)."""
    return [read_yaml(path, GameDataError) for path in sorted((game.folder / "scenarios").glob("*.yaml"))]


def _capacities(game: Game) -> dict[tuple[str, object], int]:
    """Slots each box and turn needs: the most units and markers any scenario puts there; boxes have at least
    two rows, turns one slot."""
    most = {("box", box): 2 * COLUMNS for box in game.spec.boxes} | {("turn", t): 1 for t in game.spec.turns}
    for data in _scenarios(game):
        placed = Counter(_zone_of(game, key, p) for key in ("units", "markers") for p in data.get(key) or []
                         if isinstance(p, dict))
        for zone in most:
            most[zone] = max(most[zone], placed[zone])
    return most


def _entry_summaries(game: Game) -> dict[str, list[str]]:
    """Per turn, what the Boxes window's mouse-over writes over each reinforcement waiting there with entry hexes
    (``Turn May IV (enters at 4247 Kfar Etzion)``, ``buildfile.BOX_SUMMARY``)."""
    out: dict[str, list[str]] = {}
    for data in _scenarios(game):
        for p in data.get("units") or []:
            if isinstance(p, dict) and p.get("entry") and _zone_of(game, "units", p)[0] == "turn":
                words = enters_words(game, tuple(game.map.resolve(str(e)) for e in p["entry"]))
                out.setdefault(p["turn"], []).append(f"{TURN_ZONE.format(p['turn'])} {words}")
    return out


def words_room(game: Game, zones: list[Zone], right: int) -> int:
    """Blank board to leave right of ``right`` (the zones' right edge) so that the mouse-over's words over a
    reinforcement on the turn record track (:func:`_entry_summaries`), centred over the mouse, stay in the window
    (which is as wide as the board, less its vertical scrollbar): Jerusalem!'s May IV box is the track's last."""
    font = text_font(VIEWER_FONT_PX, bold=False)
    need = 0
    for turn, texts in _entry_summaries(game).items():
        zone = next(z for z in zones if z.kind == "turn" and z.key == turn)
        half = max(font.getlength(t) for t in texts) / 2 + VIEWER_LABEL_PAD
        need = max(need, math.ceil(max(x for x, _ in zone.slots()) + half - right - MARGIN))
    return need


def boxes_layout(game: Game, counter_px: int) -> BoxesLayout:
    """The zones of a game's boxes-and-tracks board for counters of ``counter_px``."""
    pitch = counter_px + 6
    zones: list[Zone] = []
    capacity = _capacities(game)
    per_turn = max(capacity[("turn", t)] for t in game.spec.turns)
    columns = min(per_turn, TURN_COLUMNS)
    cell_w = max(columns * pitch + 2 * PAD, 96)
    cell_h = TITLE_H + math.ceil(per_turn / columns) * pitch + PAD
    y = MARGIN + TITLE_H
    for i, turn in enumerate(game.spec.turns):
        r, c = divmod(i, TURNS_PER_ROW)
        zones.append(Zone(TURN_ZONE.format(turn), "turn", turn, MARGIN + c * cell_w, y + r * cell_h, cell_w, cell_h,
                          pitch))
    y += math.ceil(len(game.spec.turns) / TURNS_PER_ROW) * cell_h + MARGIN
    box_w = max(COLUMNS * pitch + 2 * PAD, min(len(game.spec.turns), TURNS_PER_ROW) * cell_w)
    for box in [*game.spec.boxes, None]:
        rows = math.ceil((capacity[("box", box)] if box else len(game.manifest.markers) or 1) / COLUMNS)
        h = TITLE_H + rows * pitch + PAD
        zones.append(Zone(game.spec.box_name(box), "box", box, MARGIN, y, box_w, h, pitch) if box
                     else Zone(MARKERS_ZONE, "markers", "", MARGIN, y, box_w, h, pitch))
        y += h + MARGIN
    right = MARGIN + box_w
    return BoxesLayout(right + MARGIN + SCROLLBAR_ROOM + words_room(game, zones, right), y, tuple(zones))


def boxes_image(game: Game, layout: BoxesLayout) -> Image.Image:
    """The board image: a titled outline per zone, the turn track's title above its cells."""
    img = Image.new("RGB", (layout.width, layout.height), (236, 230, 214))
    d = ImageDraw.Draw(img)
    title_font, font = text_font(15, bold=True), text_font(12, bold=True)
    d.text((MARGIN, MARGIN // 2 + 2), "Turn record track", fill=(40, 40, 40), font=title_font)
    for z in layout.zones:
        fill = (250, 247, 238) if z.kind == "turn" else (245, 240, 226)
        d.rectangle([z.x, z.y, z.x + z.w - 1, z.y + z.h - 1], fill=fill, outline=(90, 80, 60), width=2)
        label = z.key if z.kind == "turn" else z.name
        d.text((z.x + PAD, z.y + 4), label, fill=(40, 40, 40), font=font)
    return img
