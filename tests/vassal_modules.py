"""Hand-written VASSAL modules in the shapes published modules use (not written by the toolkit's exporter).

* :func:`two_boards` -- one map, an edge buffer, two boards side by side from the BoardPicker's default
  setup: an upright HexGrid (offsets, dx not the regular width, stagger) and a ``sideways="true"`` one
  (rows first, a separator, letters, descending, leading zeros); a flip layer and a prototype.
* :func:`zoned` -- a ZonedGrid board (a turn-track zone named by ``$name$``, a field zone with its own
  HexGrid and letters, a zone location format), a roster of two sides, and an off-map box map
  (``launch="true"``, a board without an image, zones for boxes).
* :func:`lettered` -- letters and numbers rows-first, descending columns, a location format with text,
  negative raw columns; a turn track map with a RegionGrid.
* :func:`regions` -- a RegionGrid whose points tie (no hex grid: not importable as a map).
* :func:`large` -- one board of ``cols x rows`` hexes (the bench's 5,000-hex import).
* :func:`quartered` -- four boards two by two whose hex grids continue one another (joined into one map).

Each returns ``(buildFile.xml text, {image name: (width, height)})``; :func:`write_vmod` writes the archive.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from test_engine_tier import GLOBAL_OPTIONS, MODULEDATA, STANDARD_MAP_CHILDREN, add_piece, nest, xml_escape

G = "VASSAL.build.module.map.boardPicker.board."


def hexgrid(dx: float, dy: float, x0: int, y0: int, numbering: str, sideways: bool = False) -> str:
    """A HexGrid element with a HexGridNumbering (``numbering``: its attributes)."""
    return (f'<{G}HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="{dx}" dy="{dy}" '
            f'edgesLegal="false" sideways="{str(sideways).lower()}" snapTo="true" visible="false" x0="{x0}" y0="{y0}">'
            f'<{G}mapgrid.HexGridNumbering color="0,0,0" fontSize="9" hDrawOff="0" rotateText="0" vDrawOff="0" '
            f'visible="false" {numbering}/></{G}HexGrid>')


def zone(name: str, rect: tuple[int, int, int, int], fmt: str = "$name$", grid: str = "") -> str:
    """A Zone covering a rectangle."""
    x, y, w, h = rect
    path = f"{x},{y};{x + w},{y};{x + w},{y + h};{x},{y + h}"
    return (f'<{G}mapgrid.Zone highlightProperty="" locationFormat="{xml_escape(fmt)}" name="{name}" path="{path}" '
            f'useHighlight="false" useParentGrid="false">{grid}</{G}mapgrid.Zone>')


def board(name: str, image: str | None, grid: str, size: tuple[int, int] | None = None) -> str:
    """A Board element (with an image, or a size)."""
    attrs = f'image="{image}"' if image else f'width="{size[0]}" height="{size[1]}"'
    return f'<VASSAL.build.module.map.boardPicker.Board {attrs} name="{name}" reversible="false">{grid}</VASSAL.build.module.map.boardPicker.Board>'


def game_map(name: str, boards: str, setup: str = "", edge: tuple[int, int] = (0, 0), launch: bool = False) -> str:
    """A Map with its BoardPicker (``setup``: the default boards command) and the editor's standard children."""
    setup_el = f"<setup>{xml_escape(setup)}</setup>" if setup else ""
    return (f'<VASSAL.build.module.Map allowMultiple="false" backgroundcolor="255,255,255" buttonName="{name}" '
            f'edgeHeight="{edge[1]}" edgeWidth="{edge[0]}" hideKey="" hotkey="" icon="" launch="{str(launch).lower()}" '
            f'mapName="{name}" markMoved="Never" markUnmovedHotkey="" markUnmovedIcon="" markUnmovedText="" '
            f'markUnmovedTooltip="" showKey="" tooltip="">'
            f'<VASSAL.build.module.map.BoardPicker addColumnText="Add column" addRowText="Add row" '
            f'boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">'
            f'{setup_el}{boards}</VASSAL.build.module.map.BoardPicker>{STANDARD_MAP_CHILDREN}</VASSAL.build.module.Map>')


FLIP_LAYER = ("emb2;Flip;2;F;;0;;;0;;;;1;false;0;0;rifles.png,rifles-back.png;,+ (reduced);true;Step;;;false;;1;1;true;"
              "70,130;;;;1.0")


def slot(entry: str, gpid: str, type_: str, state: str) -> str:
    """A PieceSlot holding an AddPiece command."""
    return (f'<VASSAL.build.widget.PieceSlot entryName="{entry}" gpid="{gpid}" height="40" width="40">'
            f'{xml_escape(add_piece("null", type_, state))}</VASSAL.build.widget.PieceSlot>')


PIECES = f"""
  <VASSAL.build.module.PrototypesContainer>
    <VASSAL.build.module.PrototypeDefinition description="" name="Unit">{xml_escape(add_piece("null", nest(["mark;kind"], "piece;;;;"), nest(["unit"], "null;0;0;;0")))}</VASSAL.build.module.PrototypeDefinition>
  </VASSAL.build.module.PrototypesContainer>
  <VASSAL.build.module.PieceWindow defaultWidth="0" hidden="false" hotkey="" icon="" name="Pieces" scale="1.0" text="Pieces" tooltip="">
    <VASSAL.build.widget.ListWidget entryName="Units" height="0" scale="1.0" width="0">
      {slot("Rifles", "11", nest([FLIP_LAYER, "prototype;Unit"], "piece;;;rifles.png;Rifles"), nest(["1", ""], "null;0;0;11;0"))}
      {slot("HQ", "12", nest(["prototype;Unit"], "piece;;;hq.png;HQ"), nest([""], "null;0;0;12;0"))}
    </VASSAL.build.widget.ListWidget>
  </VASSAL.build.module.PieceWindow>"""

PIECE_IMAGES = {"rifles.png": (40, 40), "rifles-back.png": (40, 40), "hq.png": (40, 40)}


def module_xml(name: str, maps: str, extra: str = "", next_id: int = 20) -> str:
    """A whole buildFile.xml: the encoder, GlobalOptions, the maps, then the pieces."""
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.6.0" description="hand-written" name="{name}" nextPieceSlotId="{next_id}" version="1.2">
  <VASSAL.build.module.BasicCommandEncoder/>{GLOBAL_OPTIONS}{extra}
  {maps}{PIECES}
</VASSAL.build.GameModule>
"""


def two_boards() -> tuple[str, dict[str, tuple[int, int]]]:
    """One map, two boards side by side: upright and sideways hex grids with different numberings."""
    west = hexgrid(54.0, 60.0, 36, 44, 'first="H" hLeading="1" hOff="1" hType="N" hDescend="false" '
                   'locationFormat="$gridLocation$" sep="" stagger="true" vDescend="false" vLeading="1" vOff="1" vType="N"')
    east = hexgrid(50.0, 56.0, 30, 25, 'first="V" hLeading="0" hOff="0" hType="A" hDescend="false" '
                   'locationFormat="$gridLocation$" sep="-" stagger="true" vDescend="true" vLeading="2" vOff="3" vType="N"',
                   sideways=True)
    boards = board("West", "west.png", west) + board("East", "east.png", east)
    maps = game_map("Main Map", boards, setup="Main MapBoardPicker\tWest\t0\t0\tEast\t1\t0", edge=(20, 12))
    return module_xml("Two Boards", maps), {"west.png": (420, 330), "east.png": (400, 360), **PIECE_IMAGES}


def zoned() -> tuple[str, dict[str, tuple[int, int]]]:
    """A ZonedGrid board (a turn track and a hex field) and an off-map box map."""
    field = hexgrid(45.0, 52.0, 40, 110, 'first="H" hLeading="1" hOff="0" hType="A" hDescend="false" '
                    'locationFormat="$gridLocation$" sep="" stagger="false" vDescend="false" vLeading="1" vOff="0" vType="N"')
    grid = (f'<{G}ZonedGrid>{zone("Turn Track", (0, 0, 500, 70))}'
            f'{zone("Field", (0, 70, 500, 330), "Field $gridLocation$", field)}</{G}ZonedGrid>')
    boxes = (f'<{G}ZonedGrid>{zone("Eliminated", (0, 0, 150, 200))}{zone("Reinforcements", (150, 0, 150, 200))}'
             f'</{G}ZonedGrid>')
    maps = (game_map("Campaign", board("Campaign", "campaign.png", grid))
            + game_map("Boxes", board("Boxes", None, boxes, (300, 200)), launch=True))
    roster = ('<VASSAL.build.module.PlayerRoster buttonKeyStroke="" buttonText="Retire" buttonToolTip="" '
              'icon="/images/PlayerRoster.gif"><entry>Allies</entry><entry>Axis</entry></VASSAL.build.module.PlayerRoster>')
    return module_xml("Zoned Campaign", maps, extra=roster), {"campaign.png": (500, 400), **PIECE_IMAGES}


def lettered() -> tuple[str, dict[str, tuple[int, int]]]:
    """Rows first in letters, descending columns, a location format with text, columns left of x0; and a
    turn record track map with a RegionGrid (named points)."""
    grid = hexgrid(40.0, 46.0, 70, 20, 'first="V" hLeading="2" hOff="1" hType="N" hDescend="true" '
                   'locationFormat="Hex $gridLocation$" sep="" stagger="true" vDescend="false" vLeading="1" vOff="0" vType="A"')
    regions = "".join(f'<{G}Region name="Turn {i + 1}" originx="{30 + 60 * i}" originy="40"/>' for i in range(4))
    track = f'<{G}RegionGrid fontsize="9" snapto="true" visible="false">{regions}</{G}RegionGrid>'
    maps = (game_map("Sector Map", board("Sector", "sector.png", grid))
            + game_map("Turn Track", board("Track", "track.png", track), launch=True))
    return module_xml("Lettered", maps), {"sector.png": (380, 300), "track.png": (250, 80), **PIECE_IMAGES}


def regions(count: int = 22) -> tuple[str, dict[str, tuple[int, int]]]:
    """A board with a RegionGrid of ``count`` regions 40 px apart: many points are equally near two or four
    (the engine breaks ties by its HashMap's order)."""
    pts = "".join(f'<{G}Region name="R{i}" originx="{20 + 40 * (i % 6)}" originy="{20 + 40 * (i // 6)}"/>'
                  for i in range(count))
    grid = f'<{G}RegionGrid fontsize="9" snapto="true" visible="false">{pts}</{G}RegionGrid>'
    return module_xml("Regions", game_map("Regions", board("R", "r.png", grid))), {"r.png": (260, 180), **PIECE_IMAGES}


def large(cols: int = 100, rows: int = 50, pieces: int = 0) -> tuple[str, dict[str, tuple[int, int]]]:
    """One board of ``cols x rows`` hexes (CCRR names, stagger off) and ``pieces`` more piece slots (legacy ones,
    as old modules hold them)."""
    dx, dy, x0, y0 = 40.0, 46.0, 24, 26
    grid = hexgrid(dx, dy, x0, y0, 'first="H" hLeading="1" hOff="1" hType="N" hDescend="false" '
                   'locationFormat="$gridLocation$" sep="" stagger="false" vDescend="false" vLeading="1" vOff="1" vType="N"')
    size = (int(x0 + dx * (cols - 1) + 30), int(y0 + dy * rows + 30))
    extra = ('<VASSAL.build.module.PieceWindow name="More" text="More" hidden="false">'
             + "".join(legacy_slot(f"Unit {i}", str(100 + i), "rifles.png") for i in range(pieces))
             + "</VASSAL.build.module.PieceWindow>") if pieces else ""
    return module_xml("Large", game_map("Main Map", board("Large", "large.png", grid)), extra), \
        {"large.png": size, **PIECE_IMAGES}


def _png(size: tuple[int, int]) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", size, (214, 222, 190))
    d = ImageDraw.Draw(img)
    for x in range(0, size[0], 25):   # something to see under the grid
        d.line([(x, 0), (x, size[1])], fill=(190, 200, 170))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def write_vmod(path: Path, shape: tuple[str, dict[str, tuple[int, int]]], extra: dict[str, bytes] | None = None) -> Path:
    """Write a module of a shape (buildFile.xml, moduledata, images) and ``extra`` entries."""
    xml, images = shape
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", xml)
        z.writestr("moduledata", MODULEDATA)
        for name, size in images.items():
            z.writestr(f"images/{name}", _png(size))
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


SHAPES = {"two-boards": two_boards, "zoned": zoned, "lettered": lettered}


# ---------------------------------------------------------------- modules as they are found in the wild (issue 23)

NUMBERED = ('first="H" hLeading="1" hOff="1" hType="N" hDescend="false" locationFormat="$gridLocation$" sep="" '
            'stagger="true" vDescend="false" vLeading="1" vOff="1" vType="N"')


def squaregrid(dx: float, dy: float, x0: int, y0: int, numbering: str | None) -> str:
    """A SquareGrid element, with a SquareGridNumbering of those attributes (None: without one)."""
    num = (f'<{G}mapgrid.SquareGridNumbering color="0,0,0" fontSize="9" hDrawOff="0" rotateText="0" vDrawOff="0" '
           f'visible="false" {numbering}/>') if numbering is not None else ""
    return (f'<{G}SquareGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="{dx}" dy="{dy}" '
            f'edgesLegal="false" range="Metric" snapTo="true" visible="false" x0="{x0}" y0="{y0}">{num}</{G}SquareGrid>')


def legacy_slot(entry: str, gpid: str, image: str) -> str:
    """A PieceSlot as old modules hold it: a bare BasicPiece whose state is ``null;0;0`` (no gpid, no count)."""
    return (f'<VASSAL.build.widget.PieceSlot entryName="{entry}" gpid="{gpid}" height="40" width="40">'
            f'{xml_escape(add_piece("null", f"piece;;;{image};{entry}", "null;0;0"))}</VASSAL.build.widget.PieceSlot>')


def legacy() -> tuple[str, dict[str, tuple[int, int]]]:
    """An older module: the root ``VASSAL.launch.BasicModule``, legacy piece states, and a second map whose
    board image is missing from the archive."""
    grid = hexgrid(50.0, 58.0, 30, 36, NUMBERED)
    maps = (game_map("Main Map", board("Main", "main.png", grid))
            + game_map("Charts", board("Charts", "charts.png", ""), launch=True))
    pieces = ('<VASSAL.build.module.PieceWindow name="Pieces" text="Pieces" hidden="false">'
              f'{legacy_slot("Rifles", "1", "rifles.png")}{legacy_slot("HQ", "2", "hq.png")}'
              '</VASSAL.build.module.PieceWindow>')
    xml = module_xml("Legacy", maps).replace(PIECES, pieces).replace("VASSAL.build.GameModule", "VASSAL.launch.BasicModule")
    return xml, {"main.png": (420, 360), **PIECE_IMAGES}


def unnumbered() -> tuple[str, dict[str, tuple[int, int]]]:
    """A hex grid without a numbering (the engine snaps to its hexes and names every point ``offboard``)."""
    grid = hexgrid(50.0, 58.0, 30, 36, "").replace(f'<{G}mapgrid.HexGridNumbering', "<x").split("<x")[0] + f"</{G}HexGrid>"
    return module_xml("Unnumbered", game_map("Main Map", board("Main", "main.png", grid))), \
        {"main.png": (420, 360), **PIECE_IMAGES}


def square_zones() -> tuple[str, dict[str, tuple[int, int]]]:
    """A hex board with square-grid zones (a numbered track, a descending box grid) and a square-grid map."""
    field = hexgrid(45.0, 52.0, 40, 110, NUMBERED)
    track = squaregrid(40.0, 50.0, 20, 25, 'first="H" hLeading="2" hOff="0" hType="N" hDescend="false" '
                       'locationFormat="$gridLocation$" sep="" vDescend="false" vLeading="0" vOff="8" vType="N"')
    boxes = squaregrid(50.0, 40.0, 325, 350, 'first="V" hLeading="0" hOff="1" hType="N" hDescend="true" '
                       'locationFormat="$row$-$column$" sep="" vDescend="true" vLeading="0" vOff="0" vType="A"')
    grid = (f'<{G}ZonedGrid>{zone("Endurance", (0, 0, 500, 50), "$name$ $gridLocation$", track)}'
            f'{zone("Holding", (300, 330, 200, 120), "Box $gridLocation$", boxes)}'
            f'{field}</{G}ZonedGrid>')
    tactical = squaregrid(30.0, 30.0, 15, 15, 'first="H" hLeading="1" hOff="1" hType="A" hDescend="false" '
                          'locationFormat="$gridLocation$" sep="-" vDescend="true" vLeading="1" vOff="1" vType="N"')
    maps = (game_map("Campaign", board("Campaign", "campaign.png", grid))
            + game_map("Tactical", board("Tactical", "tactical.png", tactical), launch=True))
    return module_xml("Square Zones", maps), {"campaign.png": (500, 450), "tactical.png": (300, 240), **PIECE_IMAGES}


def quartered(sideways: bool = False) -> tuple[str, dict[str, tuple[int, int]]]:
    """One map of four boards, two by two, whose hex grids continue one another: the same spacing, the
    lattice carried on, the numbering's offsets carried on.  Upright: boards 400 x 348 pixels, 8 columns of
    50 pixels and 6 rows of 58 (columns 9.. on the east boards, rows 7.. on the south ones).  Sideways
    (columns run down): boards 400 x 400, rows 7.. and a 41-pixel origin on the east boards, columns 9.. on
    the south ones."""
    east, south = (("hOff", 9, 35), ("vOff", 7, 35)) if not sideways else (("vOff", 8, 41), ("hOff", 9, 35))

    def grid(is_east: bool, is_south: bool) -> str:
        numbering = NUMBERED
        for key, off, _ in [east] * is_east + [south] * is_south:
            numbering = numbering.replace(f'{key}="1"', f'{key}="{off}"')
        return hexgrid(50.0, 58.0, 30, east[2] if is_east else 35, numbering, sideways)

    size = (400, 400) if sideways else (400, 348)
    boards = "".join(board(name, f"{name.lower()}.png", grid(name[1] == "E", name[0] == "S"))
                     for name in ("NW", "NE", "SW", "SE"))
    maps = game_map("Main Map", boards, setup="Main MapBoardPicker\tNW\t0\t0\tNE\t1\t0\tSW\t0\t1\tSE\t1\t1",
                    edge=(20, 12))
    return module_xml("Quartered", maps), {**{f"{n}.png": size for n in ("nw", "ne", "sw", "se")}, **PIECE_IMAGES}


WILD = {"legacy": legacy, "unnumbered": unnumbered, "square-zones": square_zones, "quartered": quartered,
        "quartered-sideways": lambda: quartered(sideways=True)}


# ---------------------------------------------------------------- sides, setups and shapes of issue 34

SIDED_GRID = (50.0, 58.0, 30, 36)   # dx, dy, x0, y0 of the sided module's main board (420 x 360)


def sided_centre(col: int, row: int, crop: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """The pixel of raw hex (col, row) of :func:`sided`'s main grid, in a board cropped ``crop`` pixels from it."""
    dx, dy, x0, y0 = SIDED_GRID
    return round(x0 + col * dx) - crop[0], round(y0 + row * dy + (dy / 2 if col % 2 else 0)) - crop[1]


NORTH_CROP = (100, 58)   # the part board "North": the main board from (100, 58) on (two columns, one row in: the
#                          same origin, its numbering's offsets two and one more)


def _sided_slot(entry: str, gpid: str, image: str, traits: list[str], states: list[str]) -> str:
    return (f'<VASSAL.build.widget.PieceSlot entryName="{entry}" gpid="{gpid}" height="40" width="40">'
            f'{xml_escape(add_piece("null", nest(traits, f"piece;;;{image};{entry}"), nest(states, f"null;0;0;{gpid};0")))}'
            "</VASSAL.build.widget.PieceSlot>")


def _list(name: str, body: str) -> str:
    return f'<VASSAL.build.widget.ListWidget entryName="{name}" height="0" scale="1.0" width="0">{body}</VASSAL.build.widget.ListWidget>'


def sided() -> tuple[str, dict[str, tuple[int, int]]]:
    """A two-sided module whose sides show as published modules show them: nationality folders ("American",
    "German": the roster says Allies and Germans), a prototype named after a side, a ``Faction`` property; two
    slots both named "Infantry" (different images); a deck of cards; a part board "North" (the main board from
    :data:`NORTH_CROP`, its numbering carried on); setups in nested menus (files: :func:`sided_setups`)."""
    dx, dy, x0, y0 = SIDED_GRID
    main = hexgrid(dx, dy, x0, y0, NUMBERED)
    north = hexgrid(dx, dy, x0, y0, NUMBERED.replace('hOff="1"', 'hOff="3"').replace('vOff="1"', 'vOff="2"'))
    deck = ('<VASSAL.build.module.map.DrawPile name="Events" owningBoard="Main" x="380" y="320" width="40" height="40" '
            'faceDown="Always" shuffle="Always" allowMultiple="false" allowSelect="false" reversible="false" draw="true" '
            'color="0,0,0" reshuffleCommand="" reshuffleTarget="" reshuffleMessage="">'
            '<VASSAL.build.widget.CardSlot entryName="Event" gpid="45" height="40" width="40">'
            f'{xml_escape(add_piece("null", "piece;;;event.png;Event", "null;0;0;45;0"))}</VASSAL.build.widget.CardSlot>'
            '</VASSAL.build.module.map.DrawPile>')
    maps = game_map("Main Map", board("Main", "main.png", main) + board("North", "north.png", north),
                    setup="Main MapBoardPicker\tMain\t0\t0").replace("</VASSAL.build.module.Map>", deck + "</VASSAL.build.module.Map>")
    roster = ('<VASSAL.build.module.PlayerRoster buttonKeyStroke="" buttonText="Retire" buttonToolTip="" icon="">'
              '<entry>Allies</entry><entry>Germans</entry></VASSAL.build.module.PlayerRoster>')
    protos = ('<VASSAL.build.module.PrototypesContainer><VASSAL.build.module.PrototypeDefinition name="Allies">'
              f'{xml_escape(add_piece("null", nest(["mark;kind"], "piece;;;;"), nest(["unit"], "null;0;0;;0")))}'
              '</VASSAL.build.module.PrototypeDefinition></VASSAL.build.module.PrototypesContainer>')
    palette = ('<VASSAL.build.module.PieceWindow name="Pieces" text="Pieces" hidden="false">'
               '<VASSAL.build.widget.TabWidget entryName="">'
               + _list("American", _sided_slot("Infantry", "41", "inf-us.png", [], []))
               + _list("German", _sided_slot("Infantry", "42", "inf-ger.png", [], [])
                       + _sided_slot("Panzer", "46", "panzer.png", [], []))
               + _list("Misc", _sided_slot("Tank", "43", "tank.png", ["prototype;Allies"], [""])
                       + _sided_slot("Jaeger", "44", "jaeger.png", ["mark;Faction"], ["Germans"]))
               + "</VASSAL.build.widget.TabWidget></VASSAL.build.module.PieceWindow>")
    setups = ('<VASSAL.build.module.PredefinedSetup isMenu="true" name="Scenarios" useFile="false">'
              '<VASSAL.build.module.PredefinedSetup isMenu="true" name="Campaign" useFile="false">'
              '<VASSAL.build.module.PredefinedSetup file="day1.vsav" isMenu="false" name="Day 1" useFile="true"/>'
              '</VASSAL.build.module.PredefinedSetup>'
              '<VASSAL.build.module.PredefinedSetup file="north.vsav" isMenu="false" name="North" useFile="true"/>'
              '<VASSAL.build.module.PredefinedSetup file="old.sav" isMenu="false" name="Old" useFile="true"/>'
              '<VASSAL.build.module.PredefinedSetup file="gone.vsav" isMenu="false" name="Gone" useFile="true"/>'
              '</VASSAL.build.module.PredefinedSetup>')
    xml = module_xml("Sided", maps, extra=roster + protos + setups).replace(PIECES, palette)
    return xml, {"main.png": (420, 360), "north.png": (220, 200),
                 **{f"{n}.png": (40, 40) for n in ("inf-us", "inf-ger", "panzer", "tank", "jaeger", "event")}}


def sided_piece(pid: str, slot: tuple[str, str, str], map_name: str, xy: tuple[int, int], gpid: bool = True,
                traits: int = 0) -> str:
    """An AddPiece of a :func:`sided` slot ``(name, gpid, image)`` at a map point (``gpid=False``: a legacy piece
    without one; ``traits``: that many Marker traits around it)."""
    name, g, image = slot
    state = f"{map_name};{xy[0]};{xy[1]};{g if gpid else ''};0"
    return add_piece(pid, nest(["mark;x"] * traits, f"piece;;;{image};{name}"), nest(["1"] * traits, state))


SIDED_SLOTS = {"us": ("Infantry", "41", "inf-us.png"), "ger": ("Infantry", "42", "inf-ger.png"),
               "tank": ("Tank", "43", "tank.png"), "jaeger": ("Jaeger", "44", "jaeger.png"),
               "panzer": ("Panzer", "46", "panzer.png")}

#: day1.vsav: (piece id, slot, raw column and row of the main grid, with a gpid)
DAY1 = [("1", "us", (2, 2), True), ("2", "ger", (4, 3), False), ("3", "tank", (3, 1), True),
        ("4", "jaeger", (5, 4), True), ("5", "panzer", (6, 2), False)]
#: north.vsav: pieces on the part board North, alone on the map (raw column and row of the main grid)
NORTH = [("11", "us", (3, 2)), ("12", "ger", (5, 3))]


def sided_setups(deep: int = 80) -> dict[str, bytes]:
    """The setup files of :func:`sided`: ``day1.vsav`` (pieces, one without gpids, a deck of two cards, one piece
    ``deep`` trait levels deep), ``north.vsav`` (the part board alone) and ``old.sav`` (VASSAL 2.9 plain text)."""
    from test_hostile_support import save_bytes

    def save(cmds: list[str], boards: str) -> bytes:
        return save_bytes("\x1b".join(["begin_save", *cmds, f"Main MapBoardPicker\t{boards}\t0\t0", "end_save"]),
                          moduledata=MODULEDATA.replace("<name>Tiny</name>", "<name>Sided</name>"))

    deck_type = "deck;" + ";".join(["false", "0,0,0", "40", "40", "Always", "Always", "false", "false", "false", "",
                                    "", "", "Events"])
    day1 = [sided_piece(pid, SIDED_SLOTS[s], "Main Map", sided_centre(*cr), g) for pid, s, cr, g in DAY1]
    day1 += [add_piece("90", deck_type, "Main Map;380;320;true;91,92"),
             add_piece("91", "piece;;;event.png;Event", "Main Map;380;320;45;0"),
             add_piece("92", "piece;;;event.png;Event", "Main Map;380;320;45;0"),
             sided_piece("99", SIDED_SLOTS["us"], "Main Map", sided_centre(1, 1), traits=deep)]
    north = [sided_piece(pid, SIDED_SLOTS[s], "Main Map", sided_centre(*cr, NORTH_CROP)) for pid, s, cr in NORTH]
    return {"day1.vsav": save(day1, "Main"), "north.vsav": save(north, "North"),
            "old.sav": b"!VCSK00" + "begin_save\x1bend_save".encode().hex().encode()}


def zone_unnumbered(fmt: str = "$name$") -> tuple[str, dict[str, tuple[int, int]]]:
    """A ZonedGrid board whose hex field is a zone with a HexGrid without a numbering (its location format
    ``fmt``; the editor's default is ``$name$``), beside a turn track zone."""
    field = hexgrid(50.0, 58.0, 30, 36, "").replace(f'<{G}mapgrid.HexGridNumbering', "<x").split("<x")[0] + f"</{G}HexGrid>"
    grid = (f'<{G}ZonedGrid>{zone("Turn Track", (0, 0, 420, 60))}'
            f'{zone("Battlefield", (0, 60, 420, 300), fmt, field)}</{G}ZonedGrid>')
    return module_xml("Zone Unnumbered", game_map("Main Map", board("Main", "main.png", grid))), \
        {"main.png": (420, 360), **PIECE_IMAGES}


def region_hexes(cols: int = 8, rows: int = 6) -> tuple[str, dict[str, tuple[int, int]]]:
    """A board whose grid is a RegionGrid of one region per hex centre (flat-top, 46 x 52 pixels apart, odd
    columns half a hex lower), named with letter columns and diagonal numbers (the Siege's rule 2.14, which
    ``HexGridNumbering`` cannot name: the toolkit's own modules lay such maps so), under a ZonedGrid whose hex
    zones use it (``useParentGrid``), as the toolkit's Siege module does; and a box zone."""
    from toolkit.hexgrid import Diagonal

    names = Diagonal()
    pts = []
    for c in range(2, 2 + cols):
        for r in range(6, 6 + rows):
            x, y = 40 + 46 * (c - 2), 50 + 52 * (r - 6) + (26 if c % 2 else 0)
            pts.append(f'<{G}Region name="{names.name(names.from_offset(c, r))}" originx="{x}" originy="{y}"/>')
    regions = f'<{G}RegionGrid fontsize="9" snapto="true" visible="false">{"".join(pts)}</{G}RegionGrid>'
    hexzone = zone("Slope", (86, 102, 40, 40), "$gridLocation$").replace('useParentGrid="false"',
                                                                         'useParentGrid="true"')
    grid = f'<{G}ZonedGrid>{hexzone}{zone("Dead", (360, 0, 60, 60))}{regions}</{G}ZonedGrid>'
    return module_xml("Region Hexes", game_map("Main Map", board("Main", "main.png", grid))), \
        {"main.png": (420, 380), **PIECE_IMAGES}
