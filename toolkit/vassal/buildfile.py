"""A VASSAL 3.6 ``buildFile.xml`` for a game module, built with lxml.

The tree (element names are VASSAL's Java classes)::

    GameModule(name, version, VassalVersion=3.6.0, description, nextPieceSlotId)
      BasicCommandEncoder                       -- first: it decodes the PieceSlots
      Map(mapName) > BoardPicker > Board(image=board.png)
          > HexGrid > HexGridNumbering          -- CCRR maps
          > RegionGrid > Region ...             -- one Region per hex (diagonal names)
      PieceWindow > TabWidget > ListWidget(side) > ListWidget(formation/type) > PieceSlot
                              > ListWidget(Markers) > PieceSlot
      PrototypesContainer > PrototypeDefinition (one per side, one for markers)
      DiceButton                                -- 1d6, 2d6 where the game rolls two
      turn.TurnTracker > turn.ListTurnLevel(turns) > turn.ListTurnLevel(phases)

A PieceSlot's text is an AddPiece command ``+/null/<type>/<state>``; a piece is,
outermost first: ``prototype;<side>`` > ``emb2;`` flip layer (counters with a
back) > ``mark;`` properties > ``piece;`` BasicPiece.  Every level is written
with :func:`toolkit.vassal.seqenc.encode`, so names holding ``/ ; , +`` or tabs
survive.  Attribute order and text are deterministic.
"""
from __future__ import annotations


from lxml import etree

from ..game.module import Game
from ..game.schema import Counter
from .board import BoardLayout
from .counters import COUNTER_SIZE, counter_image_name, marker_image_name
from .pieces import Trait, basic_state, basic_type, encode_add_piece, marker_trait
from .seqenc import encode

VASSAL_VERSION = "3.6.0"
MAP_NAME = "Main Map"
BOARD_IMAGE = "board.png"
P = "VASSAL.build."
BOARD = P + "module.map.boardPicker.Board"
GRID = P + "module.map.boardPicker.board."

# Dice per game (default 1d6).

# Keystrokes as NamedHotKeyConfigurer.encode writes them: keyCode,modifiers (Ctrl = 130).
CTRL = 130
KEY_DELETE = f"{ord('D')},{CTRL}"
KEY_CLONE = f"{ord('C')},{CTRL}"
KEY_FLIP = f"{ord('F')},{CTRL}"


# ------------------------------------------------------------------ piece definitions


def delete_trait() -> Trait:
    """Delete on Ctrl+D."""
    return Trait("delete;" + encode(["Delete", KEY_DELETE, ""], ";"))


def clone_trait() -> Trait:
    """Clone on Ctrl+C."""
    return Trait("clone;" + encode(["Clone", KEY_CLONE, ""], ";"))


def prototype_trait(name: str) -> Trait:
    """UsePrototype: ``prototype;<name>`` (no parameters), empty state."""
    return Trait("prototype;" + encode([name, ""], ";"))


def flip_trait(front: str, back: str, back_name: str) -> Trait:
    """Embellishment (``emb2;``, version 1): two always-active levels, Ctrl+F loops; state ``1`` = front."""
    images = encode([front, back], ",")
    # a level name without '+' replaces the piece name; escape '+' so it is never read as prefix/suffix
    names = encode(["", encode([back_name], "+")], ",")
    fields = [
        "", 128, "",            # activate command, modifiers, key (unused in version 1)
        "Flip", 128, "",        # up command, modifiers, key
        "", 128, "",            # down command, modifiers, key
        "", "", "1",            # reset command, reset key, reset level
        "false", 0, 0,          # draw underneath when selected, x/y offset
        images, names,
        "true", "Face",         # loop levels, layer name
        "", "",                 # random key, random text
        "false", "", 1,         # follow property, property name, first level value
        1, "true",              # version (CURRENT_VERSION), always active
        "", KEY_FLIP, "",       # activate, increase, decrease keystrokes
        "Flip", "1.0",          # description, scale
    ]
    return Trait("emb2;" + encode(fields, ";"), "1")


def _value(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def counter_properties(c: Counter) -> dict[str, str]:
    """The properties a counter's piece carries: side, nationality, type, counter id and every value."""
    props = {"side": c.side, "nationality": c.nationality, "type": c.type, "counter": c.id}
    props.update((k, _value(v)) for k, v in c.values.items())
    return props


def _slot_piece(traits: list[Trait], image: str, name: str, gpid: str = "") -> str:
    """The AddPiece text of a palette piece or prototype (off any map)."""
    return encode_add_piece(None, traits, basic_type(image, name), basic_state(None, 0, 0, gpid))


def counter_piece(game: Game, c: Counter, gpid: str) -> str:
    """The AddPiece text of a counter's palette piece."""
    side = next(s for s in game.spec.sides if s.id == c.side)
    traits = [prototype_trait(side.name)]
    front = counter_image_name(c.id)
    if c.back is not None:
        traits.append(flip_trait(front, counter_image_name(c.id, back=True), c.back_name or c.name))
        image = ""
    else:
        image = front
    traits.append(marker_trait(counter_properties(c)))
    return _slot_piece(traits, image, c.name, gpid)


# ------------------------------------------------------------------ XML tree


def palette(game: Game) -> dict[str, dict[str, list[Counter]]]:
    """The counter palette: side name -> group name -> counters, in module order."""
    out: dict[str, dict[str, list[Counter]]] = {}
    for side in game.spec.sides:
        for c in game.manifest.counters:
            if c.side == side.id:
                out.setdefault(side.name, {}).setdefault(group_of(c), []).append(c)
    return out


def piece_gpids(game: Game) -> dict[str, str]:
    """The PieceSlot gpid of every counter and marker id (saves use the same numbers)."""
    ids = [c.id for groups in palette(game).values() for members in groups.values() for c in members]
    ids += [m.id for m in game.manifest.markers]
    return {pid: str(n) for n, pid in enumerate(ids, start=1)}


def _el(parent, tag: str, attrs: dict[str, object] | None = None, text: str | None = None):
    e = etree.SubElement(parent, tag) if parent is not None else etree.Element(tag)
    for k, v in (attrs or {}).items():
        e.set(k, _value(v) if not isinstance(v, str) else v)
    if text is not None:
        e.text = text
    return e


def _fmt_float(v: float) -> str:
    """A double as Java's Double.parseDouble reads it (repr round-trips exactly)."""
    return repr(float(v))


def _map(root, game: Game, board: BoardLayout) -> None:
    m = _el(root, P + "module.Map", {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": "", "edgeHeight": 0,
        "edgeWidth": 0, "hideKey": "", "hotkey": "", "icon": "", "launch": "false", "mapName": MAP_NAME,
        "markMoved": "Never", "markUnmovedHotkey": "", "markUnmovedIcon": "", "markUnmovedText": "",
        "markUnmovedTooltip": "", "showKey": "", "tooltip": ""})
    bp = _el(m, P + "module.map.BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
        "slotHeight": 125, "slotScale": "0.2", "slotWidth": 350, "title": "Choose Boards"})
    b = _el(bp, BOARD, {"image": BOARD_IMAGE, "name": game.spec.title, "reversible": "false"})
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


def _slot(parent, name: str, gpid: str, text: str) -> None:
    _el(parent, P + "widget.PieceSlot",
        {"entryName": name, "gpid": gpid, "height": COUNTER_SIZE, "width": COUNTER_SIZE}, text)


def _list(parent, name: str):
    return _el(parent, P + "widget.ListWidget", {"divider": 150, "entryName": name, "height": 0,
                                                 "scale": "1.0", "width": 0})


def group_of(c: Counter) -> str:
    """Palette group of a counter: its formation, else its nationality and type."""
    formation = c.values.get("formation")
    if isinstance(formation, str) and formation:
        return formation
    return c.type.replace("_", " ").capitalize()


def _pieces(root, game: Game, gpids: dict[str, str]) -> None:
    pw = _el(root, P + "module.PieceWindow", {
        "defaultWidth": 0, "hidden": "false", "hotkey": "", "icon": "", "name": "Counters",
        "scale": "1.0", "text": "Counters", "tooltip": "Counters and markers"})
    tabs = _el(pw, P + "widget.TabWidget", {"entryName": "Counters"})
    for side_name, groups in palette(game).items():
        side_list = _list(tabs, side_name)
        for gname, members in groups.items():
            gl = _list(side_list, gname)
            for c in members:
                _slot(gl, c.name, gpids[c.id], counter_piece(game, c, gpids[c.id]))
    if game.manifest.markers:
        ml = _list(tabs, "Markers")
        for mk in game.manifest.markers:
            gpid = gpids[mk.id]
            _slot(ml, mk.name, gpid, _slot_piece([prototype_trait("Marker"), marker_trait({"marker": mk.id})],
                                                 marker_image_name(mk.id), mk.name, gpid))


def _prototypes(root, game: Game) -> None:
    pc = _el(root, P + "module.PrototypesContainer")
    shared = [delete_trait(), clone_trait()]
    for side in game.spec.sides:
        _el(pc, P + "module.PrototypeDefinition",
            {"description": f"Traits shared by the {side.name} counters", "name": side.name},
            _slot_piece([marker_trait({"side_name": side.name}), *shared], "", ""))
    _el(pc, P + "module.PrototypeDefinition", {"description": "Traits shared by the markers", "name": "Marker"},
        _slot_piece(shared, "", ""))


def _dice(root, game: Game) -> None:
    """One dice button per roll the game's rules use (``game.yaml`` ``dice``)."""
    for n, sides in game.spec.dice:
        label = f"{n}d{sides}"
        _el(root, P + "module.DiceButton", {
            "addToTotal": 0, "hotkey": "", "icon": "", "nDice": n, "nSides": sides, "name": label, "plus": 0,
            "prompt": "false", "reportFormat": "** $name$ = $result$ *** <$PlayerName$>",
            "reportTotal": "true" if n > 1 else "false", "text": label, "tooltip": f"Roll {label}"})


def _turns(root, game: Game) -> None:
    tt = _el(root, P + "module.turn.TurnTracker", {
        "buttonText": "Turn", "buttonTooltip": "Turn track", "hotkey": "", "icon": "", "name": "Turn",
        "nexthotkey": "", "prevhotkey": "", "reportFormat": "* <$PlayerId$> Turn updated from $oldTurn$ to $newTurn$",
        "turnFormat": "$level1$ $level2$"})
    turns = _el(tt, P + "module.turn.ListTurnLevel", {
        "configFirst": "false", "configList": "false", "list": encode(game.spec.turns, ","), "property": "Turn",
        "turnFormat": "$value$"})
    _el(turns, P + "module.turn.ListTurnLevel", {
        "configFirst": "false", "configList": "false", "list": encode(game.spec.phases, ","), "property": "Phase",
        "turnFormat": "$value$"})


def _setups(root, files: list[str]) -> None:
    """A predefined setup (File > New Game) for each scenario save in the module."""
    for name in files:
        _el(root, P + "module.PredefinedSetup", {
            "description": f"Scenario {name.removesuffix('.vsav')}", "file": name, "isMenu": "false",
            "name": f"Scenario: {name.removesuffix('.vsav')}", "useFile": "true"})


def build_tree(game: Game, board: BoardLayout, version: str = "1.0", setups: list[str] = ()) -> etree._Element:
    """The ``buildFile.xml`` tree of a game's module laid on ``board``, with ``setups`` (save files) to offer."""
    root = etree.Element(P + "GameModule")
    gpids = piece_gpids(game)
    _el(root, P + "module.BasicCommandEncoder")
    _map(root, game, board)
    _pieces(root, game, gpids)
    _prototypes(root, game)
    _dice(root, game)
    _turns(root, game)
    _setups(root, list(setups))
    for k, v in (("ModuleOther1", ""), ("ModuleOther2", ""), ("VassalVersion", VASSAL_VERSION),
                 ("description", f"{game.spec.title} (generated by toolkit)"), ("name", game.spec.title),
                 ("nextPieceSlotId", str(len(gpids) + 1)), ("version", version)):
        root.set(k, v)
    return root


def build_file_xml(game: Game, board: BoardLayout, version: str = "1.0", setups: list[str] = ()) -> bytes:
    """``buildFile.xml`` as UTF-8 bytes (deterministic)."""
    return etree.tostring(build_tree(game, board, version, setups), xml_declaration=True, encoding="UTF-8",
                          standalone=False, pretty_print=True)


def moduledata_xml(game: Game, version: str = "1.0") -> bytes:
    """``moduledata`` (fixed ``dateSaved`` so that builds are reproducible)."""
    root = etree.Element("data", version="1")
    for tag, text in (("version", version), ("VassalVersion", VASSAL_VERSION), ("dateSaved", "0"),
                      ("description", f"{game.spec.title} (generated by toolkit)"), ("name", game.spec.title)):
        etree.SubElement(root, tag).text = text
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
