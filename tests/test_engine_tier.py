"""Engine tier: a hand-made tiny module and save, loaded by the REAL VASSAL engine.

Skipped (with the reason) where the engine cannot run: no JDK, no Xvfb, no
permission for ``unshare -n``, Debian Java libraries missing, or the engine jar
not fetchable (see tests/engine/README.md and scripts/install_engine_deps.sh).

Everything here is built by hand from VASSAL's documented XML and command
formats (tests/engine/README.md); nothing asks the toolkit's own exporter.
"""
from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path

import pytest

from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)

# ---------------------------------------------------------------- the tiny module

MAP_NAME = "Main Map"
BOARD_NAME = "Tiny Board"
BOARD_W, BOARD_H = 360, 300
# Flat-topped hexes in vertical columns (HexGrid sideways="false").
# dy: distance between hex centres in a column; dx: between column centres.
# Whole numbers for the integer attributes (x0, y0); even dy; dx not the
# engine's default width (that one is recomputed from dy).
DX, DY, X0, Y0 = 52, 60, 40, 45
COLS, ROWS = 6, 4

ESC = "\x1b"  # separator of the commands in a saved game


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Centre of the hex in column ``col``, row ``row`` (0-based), board pixels.

    Odd columns are shifted down by half a hex (VASSAL's HexGrid layout).
    """
    return X0 + col * DX, Y0 + row * DY + (DY / 2 if col % 2 else 0)


def hex_name(col: int, row: int) -> str:
    """CCRR name with HexGridNumbering hOff=vOff=1, leading 1, stagger=false."""
    return f"{col + 1:02d}{row + 1:02d}"


def _png(size: tuple[int, int], colour: tuple[int, int, int]) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", size, colour)
    d = ImageDraw.Draw(img)
    if size == (BOARD_W, BOARD_H):
        for c in range(COLS):
            for r in range(ROWS):
                x, y = hex_centre(c, r)
                d.ellipse([x - 2, y - 2, x + 2, y + 2], fill=(0, 0, 0))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


PIECE_TYPE = "piece;;;infantry.png;Infantry"  # BasicPiece: ID;cloneKey;deleteKey;image;name

# The children VASSAL's editor gives a new Map (Map.build(null) plus a Zoomer), with the
# attributes the engine's own getBuildElement writes for default-constructed components
# (VASSAL 3.6.0-SNAPSHOT-9a37405aa).  Without PieceMover nothing can be dragged, without
# MenuDisplayer there is no right-click menu, without KeyBufferer no selection (so no keys).
STANDARD_MAP_CHILDREN = """
    <VASSAL.build.module.map.StackMetrics bottom="40,0" disabled="false" down="37,0" exSepX="6" exSepY="18" top="38,0" unexSepX="2" unexSepY="4" up="39,0"/>
    <VASSAL.build.module.map.ForwardToKeyBuffer/>
    <VASSAL.build.module.map.Scroller/>
    <VASSAL.build.module.map.ForwardToChatter/>
    <VASSAL.build.module.map.MenuDisplayer/>
    <VASSAL.build.module.map.MapCenterer/>
    <VASSAL.build.module.map.StackExpander/>
    <VASSAL.build.module.map.PieceMover/>
    <VASSAL.build.module.map.KeyBufferer/>
    <VASSAL.build.module.map.ImageSaver buttonText="" hotkey="" icon="/images/camera.gif" tooltip="Save map as PNG image"/>
    <VASSAL.build.module.map.CounterDetailViewer borderWidth="0" centerAll="false" centerText="false" combineCounterSummary="false" counterReportFormat="" delay="700" description="" display="from top-most layer only" emptyHexReportForma="$LocationName$" enableHTML="false" extraTextPadding="0" fgColor="0,0,0" fontSize="9" graphicsZoom="1.0" hotkey="32,130" layerList="" minDisplayPieces="2" propertyFilter="" showDeck="false" showDeckDepth="1" showMoveSelectde="false" showNoStack="false" showNonMovable="false" showOverlap="false" showgraph="true" showgraphsingle="false" showtext="false" showtextsingle="false" stretchWidthSummary="false" summaryReportFormat="$LocationName$" unrotatePieces="false" version="3" verticalOffset="0" verticalTopText="5" zoomlevel="1.0"/>
    <VASSAL.build.module.map.Flare circleColor="255,0,0" circleScale="true" circleSize="100" flareKey="keyAlt" flareName="Map Flare" flarePulses="6" flarePulsesPerSec="3" reportFormat=""/>
    <VASSAL.build.module.properties.GlobalProperties/>
    <VASSAL.build.module.map.SelectionHighlighters/>
    <VASSAL.build.module.map.HighlightLastMoved color="255,0,0" enabled="true" thickness="2"/>
    <VASSAL.build.module.map.Zoomer inButtonText="" inIconName="/images/zoomIn.gif" inTooltip="Zoom in" outButtonText="" outIconName="/images/zoomOut.gif" outTooltip="Zoom out" pickButtonText="" pickIconName="/images/zoom.png" pickTooltip="Select Zoom" zoomInKey="" zoomLevels="0.2,0.25,0.333,0.4,0.5,0.555,0.625,0.75,1.0,1.25,1.6" zoomOutKey="" zoomPickKey="" zoomStart="3"/>"""

# GlobalOptions as a fresh module holds it (the engine adds one when it is missing).
GLOBAL_OPTIONS = """
  <VASSAL.build.module.GlobalOptions autoReport="Always" chatterHTMLSupport="Never" hotKeysOnClosedWindows="Never" nonOwnerUnmaskable="Never" playerIdFormat="$PlayerName$" promptString="Opponents can unmask my pieces">
    <option name="stepIcon">/images/StepForward16.gif</option>
    <option name="stepHotKey">34,0</option>
    <option name="undoIcon">/images/Undo16.gif</option>
    <option name="undoHotKey"/>
    <option name="serverControlsIcon">/images/connect.gif</option>
    <option name="serverControlsHotKey">83,520</option>
  </VASSAL.build.module.GlobalOptions>"""


def build_file_xml(map_children: str = "", module_children: str = "", before_maps: str = "",
                   slot_type: str = PIECE_TYPE, slot_state: str = "null;0;0;1;0") -> str:
    """The buildFile.xml of the tiny module.

    ``map_children`` goes into the Map after its BoardPicker (e.g. STANDARD_MAP_CHILDREN),
    ``before_maps`` before the Map (GlobalOptions must precede the maps: a Map decides at
    build time whether to dock into the main window, from GlobalOptions' single-window
    setting), ``module_children`` after the pieces; the one PieceSlot holds ``slot_type``/``slot_state``.
    """
    slot = xml_escape(add_piece("null", slot_type, slot_state))  # an AddPiece command, as the editor writes it
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.6.0" description="engine tier test" name="Tiny" nextPieceSlotId="2" version="0.1">
  <VASSAL.build.module.BasicCommandEncoder/>{before_maps}
  <VASSAL.build.module.Map allowMultiple="false" backgroundcolor="255,255,255" buttonName="" edgeHeight="0" edgeWidth="0" hideKey="" hotkey="" icon="" launch="false" mapName="{MAP_NAME}" markMoved="Never" markUnmovedHotkey="" markUnmovedIcon="" markUnmovedText="" markUnmovedTooltip="" showKey="" tooltip="">
    <VASSAL.build.module.map.BoardPicker addColumnText="Add column" addRowText="Add row" boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">
      <VASSAL.build.module.map.boardPicker.Board image="board.png" name="{BOARD_NAME}" reversible="false">
        <VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="{DX}.0" dy="{DY}.0" edgesLegal="false" sideways="false" snapTo="true" visible="false" x0="{X0}" y0="{Y0}">
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" first="H" fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="1" hType="N" locationFormat="$gridLocation$" rotateText="0" sep="" stagger="false" vDescend="false" vDrawOff="0" vLeading="1" vOff="1" vType="N" visible="false"/>
        </VASSAL.build.module.map.boardPicker.board.HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>{map_children}
  </VASSAL.build.module.Map>
  <VASSAL.build.module.PieceWindow defaultWidth="0" hidden="false" hotkey="" icon="" name="Pieces" scale="1.0" text="Pieces" tooltip="">
    <VASSAL.build.widget.ListWidget entryName="Units" height="0" scale="1.0" width="0">
      <VASSAL.build.widget.PieceSlot entryName="Infantry" gpid="1" height="40" width="40">{slot}</VASSAL.build.widget.PieceSlot>
    </VASSAL.build.widget.ListWidget>
  </VASSAL.build.module.PieceWindow>{module_children}
</VASSAL.build.GameModule>
"""


def xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


MODULEDATA = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1">
  <version>0.1</version>
  <VassalVersion>3.6.0</VassalVersion>
  <dateSaved>1700000000000</dateSaved>
  <description>engine tier test</description>
  <name>Tiny</name>
</data>
"""


def write_module(path: Path, xml: str | None = None, extra: dict[str, bytes] | None = None) -> Path:
    """Write the tiny module: ``xml`` (default ``build_file_xml()``), the images, and ``extra`` entries."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", build_file_xml() if xml is None else xml)
        z.writestr("moduledata", MODULEDATA)
        z.writestr("images/board.png", _png((BOARD_W, BOARD_H), (200, 220, 180)))
        z.writestr("images/infantry.png", _png((40, 40), (90, 120, 200)))
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


# ---------------------------------------------------------------- the hand-made save


def obfuscate(text: str, key: int) -> bytes:
    """VASSAL's ObfuscatingOutputStream: '!VCSK', key as 2 hex digits, then each UTF-8 byte XOR key as 2 hex digits."""
    data = text.encode("utf-8")
    return b"!VCSK" + f"{key:02x}".encode() + "".join(f"{b ^ key:02x}" for b in data).encode()


def deobfuscate(raw: bytes) -> str:
    if not raw.startswith(b"!VCSK"):
        return raw.decode("utf-8")
    key = int(raw[5:7], 16)
    body = raw[7:]
    return bytes(int(body[i:i + 2], 16) ^ key for i in range(0, len(body), 2)).decode("utf-8")


def seq_escape(token: str, delim: str) -> str:
    """SequenceEncoder.append(String): backslash before each delimiter; quote a token starting with a backslash."""
    out = token.replace(delim, "\\" + delim)
    if token.startswith("\\") or (len(token) > 1 and token[0] == "'" and token[-1] == "'"):
        out = "'" + out + "'"
    return out


def add_piece(piece_id: str, type_: str, state: str) -> str:
    return "+/" + "/".join(seq_escape(t, "/") for t in (piece_id, type_, state))


def nest(outer_first: list[str], innermost: str) -> str:
    """Decorator.getType()/getState(): each trait's own part, TAB, the inner rest escaped (SequenceEncoder, TAB).

    ``outer_first`` lists the traits' own type (or state) strings, outermost first.
    """
    acc = innermost
    for own in reversed(outer_first):
        acc = own + "\t" + seq_escape(acc, "\t")
    return acc


def basic_state(map_name: str, x: int, y: int, gpid: str) -> str:
    # BasicPiece state: map;x;y;gpid;number of persistent properties
    return ";".join(seq_escape(t, ";") for t in (map_name, str(x), str(y), gpid, "0"))


# pieces placed by the save: (id, col, row, extra offset)
SAVE_PIECES = [("1001", 1, 2), ("1002", 4, 0)]


def save_command(piece_type: str = PIECE_TYPE, trait_states: tuple[str, ...] = ()) -> str:
    """A whole saved game: SAVE_PIECES (of ``piece_type``, traits in ``trait_states``) on the board."""
    cmds = ["begin_save", ""]
    for pid, c, r in SAVE_PIECES:
        x, y = (round(v) for v in hex_centre(c, r))
        cmds.append(add_piece(pid, piece_type, nest(list(trait_states), basic_state(MAP_NAME, x, y, "1"))))
    # the second piece sits in a Stack, as the engine saves stacked pieces
    pid, c, r = SAVE_PIECES[1]
    x, y = (round(v) for v in hex_centre(c, r))
    cmds.append(add_piece("1003", "stack", ";".join([MAP_NAME, str(x), str(y), pid, "@@0"])))
    # the BoardPicker's restore command: <map>BoardPicker TAB board TAB x TAB y
    cmds.append(f"{MAP_NAME}BoardPicker\t{BOARD_NAME}\t0\t0")
    cmds.append("end_save")
    return ESC.join(cmds)


SAVEDATA = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1">
  <version>0.1</version>
  <VassalVersion>3.6.0</VassalVersion>
  <dateSaved>1700000000000</dateSaved>
  <description/>
</data>
"""


def save_bytes(command: str | None = None) -> bytes:
    """A .vsav (zip) holding ``command`` (default ``save_command()``)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", obfuscate(save_command() if command is None else command,
                                          key=random.Random(7).randrange(256)))
        z.writestr("savedata", SAVEDATA)
        z.writestr("moduledata", MODULEDATA)
    return buf.getvalue()


def write_save(path: Path) -> Path:
    path.write_bytes(save_bytes())
    return path


# ---------------------------------------------------------------- pure-Python checks (always run)


def test_obfuscation_round_trip():
    text = save_command()
    for key in (0, 0x5A, 255):
        raw = obfuscate(text, key)
        assert raw.startswith(b"!VCSK")
        assert deobfuscate(raw) == text
    assert deobfuscate(text.encode()) == text  # plain savedGame is accepted too


def test_sequence_escaping():
    assert seq_escape("a/b", "/") == "a\\/b"
    assert seq_escape("\\x", "/") == "'\\x'"
    assert add_piece("1", "piece;;;a.png;A/B", "null;0;0;;0") == "+/1/piece;;;a.png;A\\/B/null;0;0;;0"


# ---------------------------------------------------------------- engine runs

_REASON = vengine.engine_available()
needs_engine = pytest.mark.skipif(_REASON is not None, reason=f"VASSAL engine unavailable: {_REASON}")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("engine-tier")
    return {"module": write_module(d / "tiny.vmod"), "save": write_save(d / "tiny.vsav"), "dir": d}


def _show(result: dict) -> str:
    return json.dumps({k: result.get(k) for k in ("ok", "errors", "dialogs", "elapsed")}, indent=1)


@needs_engine
def test_module_loads_cleanly(files):
    r = vengine.run_engine(["load", files["module"]])
    assert r["ok"], _show(r)
    assert r["errors"] == []
    assert r["module"] == "Tiny"
    assert r["pieces"] == 1
    assert [m["name"] for m in r["maps"]] == [MAP_NAME]
    (board,) = r["maps"][0]["boards"]
    assert board["name"] == BOARD_NAME
    assert board["grid"] == "HexGrid"
    assert board["bounds"] == [0, 0, BOARD_W, BOARD_H]
    assert board["hex"]["dx"] == DX and board["hex"]["dy"] == DY
    assert (board["hex"]["x0"], board["hex"]["y0"]) == (X0, Y0)
    assert board["hex"]["numbering"] == "HexGridNumbering"


@needs_engine
def test_location_names_and_snap(files):
    cells = [(c, r) for c in range(COLS) for r in range(ROWS - 1)]
    points = []
    for c, r in cells:
        x, y = hex_centre(c, r)
        points.append([round(x), round(y)])
        points.append([round(x) + 7, round(y) - 9])  # off-centre, same hex
    pts = files["dir"] / "points.json"
    pts.write_text(json.dumps(points))
    r = vengine.run_engine(["where", files["module"], pts])
    assert r["ok"], _show(r)
    assert r["map"] == MAP_NAME
    got = r["points"]
    assert len(got) == len(points)
    for i, (c, r_) in enumerate(cells):
        centre, off = got[2 * i], got[2 * i + 1]
        want = hex_name(c, r_)
        assert centre["name"] == want, (c, r_, centre)
        assert off["name"] == want, (c, r_, off)
        assert centre["snap"] == centre["point"], centre
        assert off["snap"] == centre["point"], off


@needs_engine
def test_hand_made_save_decodes(files):
    r = vengine.run_engine(["save", files["module"], files["save"]])
    assert r["ok"], _show(r)
    pieces = sorted(r["pieces"], key=lambda p: p["id"])
    assert [p["id"] for p in pieces] == [pid for pid, _, _ in SAVE_PIECES]
    for p, (pid, c, row) in zip(pieces, SAVE_PIECES):
        x, y = (round(v) for v in hex_centre(c, row))
        assert p["name"] == "Infantry"
        assert p["map"] == MAP_NAME
        assert (p["x"], p["y"]) == (x, y)
        assert p["gpid"] == "1"
        assert p["location"] == hex_name(c, row)
    assert r["maps"] == [{"name": MAP_NAME, "boards": [BOARD_NAME]}]


@needs_engine
def test_broken_module_reports_errors(files):
    bad = files["dir"] / "bad.vmod"
    with zipfile.ZipFile(files["module"]) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            if item.filename != "images/board.png":  # board image missing
                dst.writestr(item, src.read(item.filename))
    r = vengine.run_engine(["load", bad])
    assert not r["ok"]
    assert any("board.png" in e for e in r["errors"]), _show(r)
