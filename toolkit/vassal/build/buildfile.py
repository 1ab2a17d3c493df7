"""A VASSAL 3.6 ``buildFile.xml`` for a game module, built with lxml.

The tree (element names are VASSAL's Java classes), as VASSAL's own editor
lays out a playable module::

    GameModule(name, version, VassalVersion=3.6.0, description, nextPieceSlotId)
      BasicCommandEncoder                       -- first: it decodes the PieceSlots
      Documentation > HelpFile                  -- Help menu: the game's notes (help/notes.html)
      GlobalOptions                             -- without it the main map is never docked nor shown
      PlayerRoster > entry (one per side)
      Map "Main Map" > BoardPicker > Board(board.png) > [ZonedGrid >] HexGrid > HexGridNumbering
                     | RegionGrid > Region...; [Zone per hex with a place or terrain: the mouse-over words]
                     + the standard map components (piece mover, menus, zoomer, overview ...)
      Map "Boxes and tracks" > BoardPicker > Board(boxes.png) > ZonedGrid > Zone ...
                     + the same components
      GlobalProperties > GlobalProperty (Scenario, Parameters: a position's, kept in saves made in VASSAL)
      GlobalKeyCommand "turn markers follow"    -- on the tracker's hook, sends the turn markers to the turn
      PieceWindow > TabWidget > ListWidget(side) > ListWidget(group) > PieceSlot; ListWidget(Markers)
      PrototypesContainer > PrototypeDefinition (one per side, one for markers)
      DiceButton ...; TurnTracker > ListTurnLevel(turns) > ListTurnLevel(phases), TurnGlobalHotkey
      ChartWindow > TabWidget > HtmlChart (one per table of tables.yaml)
      PredefinedSetup (one per scenario)

Piece definitions come from :mod:`toolkit.vassal.design.piecedefs` (the same ones
saves use); every level is written with :func:`toolkit.vassal.engine.seqenc.encode`.
Attribute order and text are deterministic.
"""
from __future__ import annotations

from lxml import etree

from ...game.module import Game
from ..design.board import BoardLayout
from ..design.boxes import VIEWER_FONT_PX, BoxesLayout
from ..design.counters import game_counter_size
from ..design.entry import entry_zones
from .charts import chart_file
from .helpdocs import NOTES_FILE, setup_title
from ..engine.pieces import basic_state, basic_type, encode_add_piece
from ..design.gameprops import DESCRIPTIONS
from ..design.piecedefs import (BOXES_MAP, ENTERS, LAYER_PROPERTY, LAYERS, MAIN_MAP, counter_def, marker_def,
                                palette, piece_gpids, prototypes)
from ..design.traits import KEY_TO_TURN
from ..engine.seqenc import encode
from ..design.turns import tracker_levels

VASSAL_VERSION = "3.6.0"
MAP_NAME = MAIN_MAP
BOARD_IMAGE = "board.png"
BOXES_IMAGE = "boxes.png"
P = "VASSAL.build."
M = P + "module.map."
BOARD = M + "boardPicker.Board"
GRID = M + "boardPicker.board."
ZOOM_LEVELS = (0.25, 0.333, 0.5, 0.667, 0.75, 1.0, 1.25, 1.5)


def _el(parent, tag: str, attrs: dict[str, object] | None = None, text: str | None = None):
    e = etree.SubElement(parent, tag) if parent is not None else etree.Element(tag)
    for k, v in (attrs or {}).items():
        e.set(k, v if isinstance(v, str) else str(v))
    if text is not None:
        e.text = text
    return e


def _fmt_float(v: float) -> str:
    """A double as Java's Double.parseDouble reads it (repr round-trips exactly)."""
    return repr(float(v))


def _map_element(root, name: str, attrs: dict[str, object]):
    """A ``Map`` with the attributes VASSAL's editor gives a new map (moves reported, pieces marked moved)."""
    base = {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": name,
        "changeFormat": "$message$", "color": "0,0,0",
        "createFormat": "$pieceName$ created in $location$ *", "edgeHeight": 0, "edgeWidth": 0, "hideKey": "",
        "hotkey": "", "icon": "", "launch": "false", "mapName": name, "markMoved": "Always",
        "markUnmovedHotkey": "", "markUnmovedIcon": "/images/unmoved.gif", "markUnmovedReport": "",
        "markUnmovedText": "Mark unmoved", "markUnmovedTooltip": "Mark all pieces on this map as not moved",
        "moveKey": "", "moveToFormat": "$pieceName$ moves $previousLocation$ -> $location$ *",
        "moveWithinFormat": "$pieceName$ moves $previousLocation$ -> $location$ *", "showKey": "", "thickness": 3}
    return _el(root, P + "module.Map", base | attrs)


def _board_picker(m, name: str, image: str):
    bp = _el(m, M + "BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
        "slotHeight": 125, "slotScale": "0.2", "slotWidth": 350, "title": "Choose Boards"})
    return _el(bp, BOARD, {"image": image, "name": name, "reversible": "false"})


def _map_components(m, width: int, height: int, summary: str = "$LocationName$", empty: str = "$LocationName$",
                    centred: bool = False) -> None:
    """The components VASSAL's editor puts in every new map, plus zoom, LOS thread and an overview window;
    ``summary`` is what the mouse-over viewer writes above a stack, ``empty`` over a place with no piece.  The
    viewer draws rotated pieces upright (``unrotatePieces``: the Siege's engines turned to face south read upside
    down otherwise); the map shows the facing.  Its words lie on a pale ground (``bgColor``), readable over the
    counters under them.  ``centred``: the viewer's pieces and words centred over the mouse (``centerAll``,
    ``centerText``), so that words wider than the pieces stay inside a window as wide as its board."""
    _el(m, M + "StackMetrics", {"bottom": "40,0", "disabled": "false", "down": "37,0", "exSepX": 6, "exSepY": 18,
                                "top": "38,0", "unexSepX": 2, "unexSepY": 2, "up": "39,0"})
    for component in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                      "StackExpander", "PieceMover", "KeyBufferer"):
        _el(m, M + component)
    _el(m, M + "ImageSaver", {"buttonText": "", "hotkey": "", "icon": "/images/camera.gif",
                              "tooltip": "Save map as PNG image"})
    _el(m, M + "CounterDetailViewer", {
        "borderWidth": 0, "centerAll": str(centred).lower(), "centerText": str(centred).lower(),
        "combineCounterSummary": "false",
        "counterReportFormat": "", "delay": 700, "description": "", "display": "from all layers",
        "bgColor": "255,255,240", "emptyHexReportForma": empty, "enableHTML": "false", "extraTextPadding": 0,
        "fgColor": "0,0,0",
        "fontSize": VIEWER_FONT_PX, "graphicsZoom": "1.0", "hotkey": "32,130", "layerList": "",
        "minDisplayPieces": 0,
        "propertyFilter": "", "showDeck": "false", "showDeckDepth": 1, "showMoveSelectde": "false",
        "showNoStack": "true", "showNonMovable": "true", "showOverlap": "true", "showgraph": "true",
        "showgraphsingle": "false", "showtext": "true", "showtextsingle": "true", "stretchWidthSummary": "false",
        "summaryReportFormat": summary, "unrotatePieces": "true", "version": 3, "verticalOffset": 0,
        "verticalTopText": 5, "zoomlevel": "1.0"})
    levels = ",".join(str(z) for z in ZOOM_LEVELS)
    _el(m, M + "Zoomer", {
        "inButtonText": "", "inIconName": "/images/zoomIn.gif", "inTooltip": "Zoom in", "outButtonText": "",
        "outIconName": "/images/zoomOut.gif", "outTooltip": "Zoom out", "pickButtonText": "",
        "pickIconName": "/images/zoom.png", "pickTooltip": "Select Zoom", "zoomInKey": "61,130",
        "zoomLevels": levels, "zoomOutKey": "45,130", "zoomPickKey": "",
        "zoomStart": len(ZOOM_LEVELS) - ZOOM_LEVELS.index(1.0)})  # counted from the largest level: 1.0
    _el(m, M + "LOS_Thread", {
        "drawRange": "true", "global": "Always", "hideCounters": "false", "hideOpacity": 0, "hotkey": "",
        "iconName": "/images/thread.gif", "label": "", "persistence": "Ctrl-Click & Drag", "rangeBg": "0,0,0",
        "rangeFg": "255,255,255", "report": "$playerId$ checked LOS from $FromLocation$ to $AllLocationsChecked$",
        "round": "Nearest whole number", "scale": 1, "snapEnd": "true", "snapStart": "true", "threadName": "LOS",
        "tooltip": "Line of sight thread (the toolkit's `los` gives the rules' verdict)"})
    _el(m, M + "GlobalMap", {"buttonText": "", "color": "255,0,0", "hotkey": "79,195",
                             "scale": repr(round(min(0.25, 320 / max(width, height, 1)), 5)),
                             "tooltip": "Show/Hide overview window"})
    _el(m, M + "LayeredPieceCollection", {"layerOrder": ",".join(LAYERS), "property": LAYER_PROPERTY})
    _el(m, M + "HighlightLastMoved", {"color": "255,0,0", "enabled": "true", "thickness": 2})
    _el(m, M + "SelectionHighlighters")
    _el(m, P + "module.properties.GlobalProperties")


#: What the mouse-over viewer of the boxes map writes above a piece: its box, and for a reinforcement waiting on the
#: turn record track the hexes it enters at (``Turn May IV (enters at 0215 Hulda or 0102 to Tel Aviv)``); the board
#: leaves room for those words right of the track (``boxes.words_room``).
BOX_SUMMARY = f"$LocationName$ ${ENTERS}$"

#: What the mouse-over viewer of the main map writes above a hex: its name, then its place and terrain (the
#: hex's zone, ``HexZone``: none for an unnamed hex of nothing but the map's first terrain).
HEX_SUMMARY = "$LocationName$ $CurrentZone$"


def _main_map(root, game: Game, board: BoardLayout) -> None:
    """The map: the board, its grid -- inside a ``ZonedGrid`` with a zone per hex the mouse-over viewer has words
    for (named as the grid names it, ``$gridLocation$``) -- and the usual components."""
    m = _map_element(root, MAP_NAME, {})
    b = _board_picker(m, game.spec.title, BOARD_IMAGE)
    zones = entry_zones(game, board)   # the entry areas' words after the hex's (:mod:`..design.entry`)
    if zones:
        b = _el(b, GRID + "ZonedGrid")
    if board.hexgrid is not None:
        g = board.hexgrid
        hg = _el(b, GRID + "HexGrid", {
            "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false", "dx": _fmt_float(g.dx),
            "dy": _fmt_float(g.dy), "edgesLegal": "false", "sideways": "false", "snapTo": "true",
            "visible": "false", "x0": int(g.x0), "y0": int(g.y0)})
        _el(hg, GRID + "mapgrid.HexGridNumbering", {
            "color": "0,0,0", "first": "H", "fontSize": 9, "hDescend": "false", "hDrawOff": 0,
            "hLeading": g.leading, "hOff": g.h_off, "hType": "N", "locationFormat": "$gridLocation$",
            "rotateText": 0, "sep": "", "stagger": "false", "vDescend": "false", "vDrawOff": 0,
            "vLeading": g.leading, "vOff": g.v_off, "vType": "N", "visible": "false"})
    else:
        rg = _el(b, GRID + "RegionGrid", {"fontsize": 9, "snapto": "true", "visible": "false"})
        for r in board.regions:
            _el(rg, GRID + "Region", {"name": r.name, "originx": int(r.x), "originy": int(r.y)})
    for z in zones:
        _el(b, GRID + "mapgrid.Zone", {"highlightProperty": "", "locationFormat": "$gridLocation$", "name": z.name,
                                        "path": z.path_attribute(), "useHighlight": "false", "useParentGrid": "true"})
    _map_components(m, board.width, board.height, HEX_SUMMARY, HEX_SUMMARY)


def _boxes_map(root, game: Game, boxes: BoxesLayout) -> None:
    """The second map: turn track, off-map boxes and game markers, each a zone; opened from the toolbar."""
    m = _map_element(root, BOXES_MAP, {"launch": "true", "hotkey": "66,130", "markMoved": "Never",
                                       "icon": "/images/map.gif"})
    b = _board_picker(m, BOXES_MAP, BOXES_IMAGE)
    zg = _el(b, GRID + "ZonedGrid")
    for z in boxes.zones:
        _el(zg, GRID + "mapgrid.Zone", {"highlightProperty": "", "locationFormat": "$name$", "name": z.name,
                                         "path": z.path, "useHighlight": "false", "useParentGrid": "false"})
    _map_components(m, boxes.width, boxes.height, BOX_SUMMARY, centred=True)   # an empty spot: its box's name


def _slot(parent, name: str, gpid: str, text: str, size: int) -> None:
    _el(parent, P + "widget.PieceSlot", {"entryName": name, "gpid": gpid, "height": size, "width": size}, text)


def _list(parent, name: str):
    return _el(parent, P + "widget.ListWidget", {"divider": 150, "entryName": name, "height": 0,
                                                 "scale": "1.0", "width": 0})


def _pieces(root, game: Game, gpids: dict[str, str]) -> None:
    pw = _el(root, P + "module.PieceWindow", {
        "defaultWidth": 0, "hidden": "false", "hotkey": "", "icon": "", "name": "Counters",
        "scale": "1.0", "text": "Counters", "tooltip": "Counters and markers"})
    tabs = _el(pw, P + "widget.TabWidget", {"entryName": "Counters"})
    size = game_counter_size(game)
    for side_name, groups in palette(game).items():
        side_list = _list(tabs, side_name)
        for gname, members in groups.items():
            gl = _list(side_list, gname)
            for c in members:
                _slot(gl, c.name, gpids[c.id], counter_def(game, c, gpids[c.id]).add_piece(), size)
    if game.manifest.markers:
        ml = _list(tabs, "Markers")
        for mk in game.manifest.markers:
            _slot(ml, mk.name, gpids[mk.id], marker_def(game, mk, gpids[mk.id]).add_piece(), size)


def _prototypes(root, game: Game) -> None:
    pc = _el(root, P + "module.PrototypesContainer")
    for name, traits in prototypes(game).items():
        _el(pc, P + "module.PrototypeDefinition", {"description": f"Traits shared by the {name} pieces", "name": name},
            encode_add_piece(None, list(traits), basic_type("", ""), basic_state(None, 0, 0, "")))


def _dice(root, game: Game) -> None:
    """One dice button per roll the game's rules use (``game.yaml`` ``dice``)."""
    for n, sides in game.spec.dice:
        label = f"{n}d{sides}"
        _el(root, P + "module.DiceButton", {
            "addToTotal": 0, "hotkey": "", "icon": "", "nDice": n, "nSides": sides, "name": label, "plus": 0,
            "prompt": "false", "reportFormat": "** $name$ = $result$ *** <$PlayerName$>",
            "reportTotal": "true" if n > 1 else "false", "text": label, "tooltip": f"Roll {label}"})


def _turns(root, game: Game) -> None:
    """The turn tracker: turns, player turns where the game has them, phases, each level nested in the one above."""
    levels = tracker_levels(game.spec)
    parent = tracker = _el(root, P + "module.turn.TurnTracker", {
        "buttonText": "Turn", "buttonTooltip": "Turn track", "hotkey": "", "icon": "", "name": "Turn",
        "nexthotkey": "78,195", "prevhotkey": "80,195",
        "reportFormat": "* <$PlayerId$> Turn updated from $oldTurn$ to $newTurn$",
        "turnFormat": " ".join(f"$level{i + 1}$" for i in range(len(levels)))})
    for prop, values in levels:
        if prop == "Phase":   # the names players read (game.yaml phases); saves keep the index, not the name
            values = [game.spec.phase_name(p) for p in values]
        parent = _el(parent, P + "module.turn.ListTurnLevel", {
            "configFirst": "false", "configList": "false", "list": encode(values, ","), "property": prop,
            "turnFormat": "$value$"})
    if game.spec.turn_markers:
        _el(tracker, P + "module.turn.TurnGlobalHotkey", {"hotkey": KEY_TO_TURN, "match": "",
                                                          "name": "Turn markers follow", "reportFormat": ""})


def _turn_markers(root, game: Game) -> None:
    """The global key command the tracker's hook fires: the game's turn markers go to the current turn's box."""
    if not game.spec.turn_markers:
        return
    _el(root, P + "module.GlobalKeyCommand", {
        "buttonHotkey": KEY_TO_TURN, "buttonText": "", "deckCount": -1,
        "filter": "||".join(f"marker={m}" for m in game.spec.turn_markers), "hotkey": KEY_TO_TURN, "icon": "",
        "name": "Turn markers follow", "reportFormat": "", "reportSingle": "true", "singleMap": "false",
        "tooltip": "Put the turn markers on the current turn"})


def _properties(root) -> None:
    """The module's global properties that keep a position's scenario and parameters (:mod:`..design.gameprops`)."""
    props = _el(root, P + "module.properties.GlobalProperties")
    for name, description in DESCRIPTIONS.items():
        _el(props, P + "module.properties.GlobalProperty", {
            "description": description, "initialValue": "", "isNumeric": "false", "max": "", "min": "",
            "name": name, "wrap": "false"})


def _help(root, game: Game) -> None:
    doc = _el(root, P + "module.Documentation")
    _el(doc, P + "module.documentation.HelpFile", {"fileName": NOTES_FILE, "fileType": "archive",
                                                   "title": f"{game.spec.title}: notes"})


def _players(root, game: Game) -> None:
    roster = _el(root, P + "module.PlayerRoster", {
        "buttonKeyStroke": "", "buttonText": "Retire",
        "buttonToolTip": "Switch sides, become an observer, or allow another player to take your side"})
    for side in game.spec.sides:
        _el(roster, "entry", text=side.name)


def _charts(root, charts: list[str]) -> None:
    """The Charts window: one tab per rule table (the HTML pages are in the archive)."""
    if not charts:
        return
    cw = _el(root, P + "module.ChartWindow", {"hotkey": "", "name": "Charts", "text": "Charts",
                                               "tooltip": "The game's tables"})
    tabs = _el(cw, P + "widget.TabWidget", {"entryName": "Charts"})
    for title in charts:
        _el(tabs, P + "widget.HtmlChart", {"chartName": title, "fileName": chart_file(title)})


#: The File-menu entry holding the scenarios (a PredefinedSetup menu; the engine drops its own *New Game* item
#: when a module has predefined setups, so this one takes its place).
NEW_GAME_MENU = "New Game"


def _setups(root, files: list[str]) -> None:
    """File > New Game > *Scenario 1* ...: a predefined setup for each scenario save in the module, in a
    ``New Game`` menu (``isMenu``), first scenario first; the startup wizard lists them too."""
    if not files:
        return
    menu = _el(root, P + "module.PredefinedSetup", {"isMenu": "true", "name": NEW_GAME_MENU, "useFile": "false"})
    for name in files:
        stem = name.removesuffix(".vsav")
        _el(menu, P + "module.PredefinedSetup", {"file": name, "isMenu": "false", "name": setup_title(stem),
                                                 "useFile": "true"})


def build_tree(game: Game, board: BoardLayout, boxes: BoxesLayout, version: str = "1.0", setups: list[str] = (),
               charts: list[str] = ()) -> etree._Element:
    """The ``buildFile.xml`` tree of a game's module: the map on ``board``, ``boxes``, ``setups`` and ``charts``."""
    root = etree.Element(P + "GameModule")
    gpids = piece_gpids(game)
    _el(root, P + "module.BasicCommandEncoder")
    _help(root, game)
    _el(root, P + "module.GlobalOptions", {
        "autoReport": "Always", "chatterHTMLSupport": "Never",
        "hotKeysOnClosedWindows": "Never", "nonOwnerUnmaskable": "Never", "playerIdFormat": "$PlayerName$",
        "promptString": "Opponents can unmask my pieces"})
    _players(root, game)
    _main_map(root, game, board)
    _boxes_map(root, game, boxes)
    _properties(root)
    _turn_markers(root, game)
    _pieces(root, game, gpids)
    _prototypes(root, game)
    _dice(root, game)
    _turns(root, game)
    _charts(root, list(charts))
    _setups(root, list(setups))
    for k, v in (("ModuleOther1", ""), ("ModuleOther2", ""), ("VassalVersion", VASSAL_VERSION),
                 ("description", f"{game.spec.title} (generated by toolkit)"), ("name", game.spec.title),
                 ("nextPieceSlotId", str(len(gpids) + 1)), ("version", version)):
        root.set(k, v)
    return root


def build_file_xml(game: Game, board: BoardLayout, boxes: BoxesLayout, version: str = "1.0", setups: list[str] = (),
                   charts: list[str] = ()) -> bytes:
    """``buildFile.xml`` as UTF-8 bytes (deterministic)."""
    return etree.tostring(build_tree(game, board, boxes, version, setups, charts), xml_declaration=True,
                          encoding="UTF-8", standalone=False, pretty_print=True)


def moduledata_xml(game: Game, version: str = "1.0") -> bytes:
    """``moduledata`` (fixed ``dateSaved`` so that builds are reproducible)."""
    root = etree.Element("data", version="1")
    for tag, text in (("version", version), ("VassalVersion", VASSAL_VERSION), ("dateSaved", "0"),
                      ("description", f"{game.spec.title} (generated by toolkit)"), ("name", game.spec.title)):
        etree.SubElement(root, tag).text = text
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
