"""Check a ``.vmod`` the way VASSAL 3.6 would read it, in pure Python.

``validate_module(path) -> list[str]``: one sentence per problem, empty when
the module is fine.  Checked, for the elements the toolkit writes:

* the zip holds ``buildFile.xml`` and ``moduledata`` (VassalVersion below 3.7);
* the XML parses (entities not resolved, no network); the root is
  ``GameModule`` and ``BasicCommandEncoder`` is its first child;
* every element is on the allow-list, under a parent VASSAL accepts;
* attributes VASSAL parses as numbers or booleans are such (``x0``/``y0`` are
  ``Integer.valueOf``, so ``139.0`` kills the grid); ``dx`` is not the default
  width VASSAL would recompute (``dx`` and ``dy`` are doubles: a grid fitted to
  your own board picture, ``dy`` 138.56..., is played as it is);
* every image named by a board or a piece is in the zip, with exact case;
* every PieceSlot/PrototypeDefinition text is an AddPiece ``+/id/type/state``
  whose type and state have the same number of trait levels, ending in a
  ``piece;`` BasicPiece, with each trait's type and state well formed;
* gpids are unique whole numbers below ``nextPieceSlotId``;
* every ``prototype;NAME`` trait names an existing PrototypeDefinition;
* the module is playable: ``GlobalOptions`` is there (without it the main map
  is never docked nor shown) and every ``Map`` has the components that let a
  player drag, select and right-click pieces (:data:`PLAY_COMPONENTS`);
* files named by help pages, charts and zones exist; zone paths are polygons.

The module is untrusted: it is read through :mod:`toolkit.vassal.engine.safezip`
(names, sizes and inflation checked; nothing extracted) and its XML with
:func:`~toolkit.vassal.engine.safezip.parse_xml` (no DOCTYPE, no entities), with
``buildFile.xml`` at most :data:`MAX_BUILDFILE_BYTES`; a piece's trait levels
are capped (:data:`~toolkit.vassal.engine.pieces.MAX_TRAITS`) and every check is
linear in the module.  :func:`check_module` raises
:class:`~toolkit.vassal.engine.safezip.ArchiveError` for an archive or XML it refuses
(``toolkit vmod check`` then exits 2); :func:`validate_module` returns that as
a problem.
"""
from __future__ import annotations

import math
import os
import re
from collections import Counter

from ..engine.pieces import MAX_TRAITS
from ..engine.safezip import ArchiveError, open_archive, parse_xml
from ..engine.seqenc import decode

MAX_BUILDFILE_BYTES = 64 << 20  # buildFile.xml
MAX_MODULEDATA_BYTES = 1 << 20

P = "VASSAL.build."
M = P + "module."
B = M + "map.boardPicker."
G = B + "board."
W = P + "widget."
T = M + "turn."
GAME = P + "GameModule"

# element -> parents it may appear under
PARENTS: dict[str, set[str]] = {
    M + "BasicCommandEncoder": {GAME},
    M + "Map": {GAME},
    M + "map.BoardPicker": {M + "Map"},
    B + "Board": {M + "map.BoardPicker"},
    G + "HexGrid": {B + "Board", G + "ZonedGrid"},
    G + "mapgrid.HexGridNumbering": {G + "HexGrid"},
    G + "RegionGrid": {B + "Board", G + "ZonedGrid"},
    G + "Region": {G + "RegionGrid"},
    M + "PieceWindow": {GAME},
    W + "TabWidget": {M + "PieceWindow", M + "ChartWindow", W + "TabWidget", W + "ListWidget"},
    W + "ListWidget": {M + "PieceWindow", W + "TabWidget", W + "ListWidget"},
    W + "PieceSlot": {M + "PieceWindow", W + "TabWidget", W + "ListWidget"},
    M + "PrototypesContainer": {GAME},
    M + "PrototypeDefinition": {M + "PrototypesContainer"},
    M + "DiceButton": {GAME},
    T + "TurnTracker": {GAME},
    T + "ListTurnLevel": {T + "TurnTracker", T + "ListTurnLevel"},
    T + "TurnGlobalHotkey": {T + "TurnTracker"},
    M + "GlobalKeyCommand": {GAME},
    M + "properties.GlobalProperty": {M + "properties.GlobalProperties"},
    M + "PredefinedSetup": {GAME, M + "PredefinedSetup"},
    M + "GlobalOptions": {GAME},
    M + "PlayerRoster": {GAME},
    "entry": {M + "PlayerRoster"},
    M + "Documentation": {GAME},
    M + "documentation.HelpFile": {M + "Documentation"},
    M + "ChartWindow": {GAME},
    W + "HtmlChart": {M + "ChartWindow", W + "TabWidget", W + "ListWidget"},
    G + "ZonedGrid": {B + "Board"},
    G + "mapgrid.Zone": {G + "ZonedGrid"},
    M + "properties.GlobalProperties": {M + "Map", GAME},
    **{M + "map." + c: {M + "Map"} for c in (
        "StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
        "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Zoomer", "LOS_Thread",
        "GlobalMap", "HighlightLastMoved", "SelectionHighlighters", "Flare", "LayeredPieceCollection")},
}
# Without these a map shows its pieces but a player can neither drag, select nor right-click them.
PLAY_COMPONENTS = ("ForwardToKeyBuffer", "MenuDisplayer", "StackExpander", "PieceMover", "KeyBufferer")

INT, FLOAT, BOOL = "an integer", "a number", "true or false"
TYPED: dict[str, dict[str, str]] = {
    GAME: {"nextPieceSlotId": INT},
    M + "Map": {"edgeWidth": INT, "edgeHeight": INT, "allowMultiple": BOOL, "launch": BOOL},
    M + "map.BoardPicker": {"slotWidth": INT, "slotHeight": INT, "slotScale": FLOAT},
    B + "Board": {"reversible": BOOL},
    G + "HexGrid": {"x0": INT, "y0": INT, "dx": FLOAT, "dy": FLOAT, "sideways": BOOL, "snapTo": BOOL,
                    "edgesLegal": BOOL, "cornersLegal": BOOL, "visible": BOOL, "dotsVisible": BOOL},
    G + "mapgrid.HexGridNumbering": {"hOff": INT, "vOff": INT, "hLeading": INT, "vLeading": INT,
                                     "hDrawOff": INT, "vDrawOff": INT, "fontSize": INT, "rotateText": INT,
                                     "hDescend": BOOL, "vDescend": BOOL, "stagger": BOOL, "visible": BOOL},
    G + "RegionGrid": {"fontsize": INT, "snapto": BOOL, "visible": BOOL},
    G + "Region": {"originx": INT, "originy": INT},
    M + "PieceWindow": {"defaultWidth": INT, "scale": FLOAT, "hidden": BOOL},
    W + "ListWidget": {"width": INT, "height": INT, "divider": INT, "scale": FLOAT},
    W + "PieceSlot": {"width": INT, "height": INT},
    M + "DiceButton": {"nDice": INT, "nSides": INT, "plus": INT, "addToTotal": INT, "prompt": BOOL,
                       "reportTotal": BOOL},
    T + "ListTurnLevel": {"configFirst": BOOL, "configList": BOOL},
    M + "PredefinedSetup": {"useFile": BOOL, "isMenu": BOOL},
    M + "map.Zoomer": {"zoomStart": INT},
    M + "map.GlobalMap": {"scale": FLOAT},
    M + "map.StackMetrics": {"exSepX": INT, "exSepY": INT, "unexSepX": INT, "unexSepY": INT, "disabled": BOOL},
    G + "mapgrid.Zone": {"useParentGrid": BOOL, "useHighlight": BOOL},
    M + "GlobalKeyCommand": {"deckCount": INT, "reportSingle": BOOL, "singleMap": BOOL},
    M + "properties.GlobalProperty": {"isNumeric": BOOL, "wrap": BOOL},
}
REQUIRED: dict[str, tuple[str, ...]] = {
    GAME: ("name", "VassalVersion", "nextPieceSlotId"),
    M + "Map": ("mapName",),
    B + "Board": ("name", "image"),
    G + "HexGrid": ("dx", "dy", "x0", "y0"),
    G + "Region": ("name", "originx", "originy"),
    W + "PieceSlot": ("gpid",),
    M + "PrototypeDefinition": ("name",),
    G + "mapgrid.Zone": ("name", "path"),
    W + "HtmlChart": ("chartName", "fileName"),
    M + "documentation.HelpFile": ("fileName",),
}
CHOICES: dict[tuple[str, str], set[str]] = {
    (G + "mapgrid.HexGridNumbering", "hType"): {"N", "A"},
    (G + "mapgrid.HexGridNumbering", "vType"): {"N", "A"},
    (G + "mapgrid.HexGridNumbering", "first"): {"H", "V"},
}
DEFAULT_HEX_WIDTH = math.sqrt(3) / 2 * 64  # HexGrid recomputes dx from dy when dx equals this

# Trait type prefixes VASSAL 3.6 knows (BasicCommandEncoder.createDecorator); the first group is checked in detail.
TRAITS = ("prototype;", "emb2;", "emb;", "mark;", "delete;", "clone;", "label;", "hide;", "obs;", "rotate;",
          "pivot;", "sendto;", "return;", "immob;", "report;", "macro;", "submenu;", "placemark;", "replace;",
          "globalkey;", "PROP;", "setprop;", "footprint;", "restrict;", "translate;", "calcProp;", "AreaOfEffect;",
          "button;", "markmoved;", "mat;", "matPiece;", "deselect;", "attach;", "move;", "propct;", "playSound;",
          "menuSeparator;", "multiLocation;", "cargo;", "locmsg;", "nonRect;", "nonRect2;", "chatter;")

_INT_RE = re.compile(r"-?\d+")


def _is(kind: str, v: str) -> bool:
    if kind == INT:
        return bool(_INT_RE.fullmatch(v))
    if kind == FLOAT:
        try:
            float(v)
        except ValueError:
            return False
        return v.strip() == v and v.lower() not in ("nan", "inf", "-inf", "infinity")
    return v in ("true", "false")


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def _where(e) -> str:
    name = e.get("entryName") or e.get("name") or e.get("mapName")
    return f"{_short(e.tag)}{f' {name!r}' if name else ''} (line {e.sourceline})"


class _Piece:
    """Checks one piece definition; collects its images and prototype names."""

    def __init__(self, where: str, problems: list[str]):
        self.where, self.problems = where, problems
        self.images: list[str] = []
        self.prototypes: list[str] = []
        self.gpid: str | None = None

    def bad(self, msg: str) -> None:
        self.problems.append(f"{self.where}: {msg}")

    def check(self, text: str | None) -> None:
        text = (text or "").strip("\n ")
        if not text.startswith("+/"):
            self.bad(f"piece definition must be an AddPiece command '+/id/type/state', got {text[:40]!r}")
            return
        parts = decode(text, "/")
        if len(parts) != 4:
            self.bad(f"AddPiece has {len(parts)} '/'-separated parts, expected 4 (+, id, type, state); "
                     "is a '/' in a name unescaped?")
            return
        _, _, type_, state = parts
        types, states = self._levels(type_), self._levels(state)
        if len(types) != len(states):
            self.bad(f"type has {len(types)} trait levels but state has {len(states)} "
                     f"(types: {[t.split(';')[0] for t in types]})")
            return
        if not types[-1].startswith("piece;"):
            self.bad(f"innermost level must be a BasicPiece 'piece;...', got {types[-1][:30]!r}")
        for i, t in enumerate(types[:-1]):
            if not t.startswith(TRAITS):
                self.bad(f"trait level {i + 1} {t[:30]!r} is not a known VASSAL trait")
            if t.startswith("piece;"):
                self.bad(f"BasicPiece at trait level {i + 1}; it must be innermost")
        for t, s in zip(types, states):
            self._trait(t, s)

    @staticmethod
    def _levels(text: str) -> list[str]:
        out = []
        while True:
            if len(out) > MAX_TRAITS:
                out.append("\x00deep")
                return out
            toks = decode(text, "\t")
            if len(toks) > 2:
                out.append("\x00bad")
                return out
            if len(toks) == 1:
                out.append(toks[0])
                return out
            out.append(toks[0])
            text = toks[1]

    def _trait(self, t: str, s: str) -> None:
        if t == "\x00deep" or s == "\x00deep":
            self.bad(f"more than {MAX_TRAITS} trait levels (limit)")
        elif t == "\x00bad" or s == "\x00bad":
            self.bad("a trait level splits into more than 2 tab-separated parts (unescaped tab)")
        elif t.startswith("piece;"):
            f = decode(t[len("piece;"):], ";")
            if len(f) != 4:
                self.bad(f"BasicPiece type has {len(f)} fields, expected 4 (cloneKey;deleteKey;image;name)")
            elif f[2]:
                self.images.append(f[2])
            st = decode(s, ";")
            if len(st) < 5 or not all(_INT_RE.fullmatch(v) for v in st[1:3] + st[4:5]):
                self.bad(f"BasicPiece state {s!r} is not 'map;x;y;gpid;n' with integer x, y, n")
            else:
                n = int(st[4])
                if len(st) != 5 + 2 * n:
                    self.bad(f"BasicPiece state declares {n} properties but has {len(st) - 5} key/value tokens")
                self.gpid = st[3]
        elif t.startswith("prototype;"):
            f = decode(t[len("prototype;"):], ";")
            if not f[0]:
                self.bad("prototype trait names no prototype")
            self.prototypes.append(f[0])
        elif t.startswith("mark;"):
            keys = decode(t[len("mark;"):], ",")
            values = decode(s, ",") if s else []
            if len(values) > len(keys):
                self.bad(f"Marker has {len(keys)} keys but {len(values)} values")
        elif t.startswith("emb2;"):
            f = decode(t[len("emb2;"):], ";")
            if len(f) < 26:
                self.bad(f"Layer (emb2) type has {len(f)} fields, expected at least 26")
                return
            ints = [f[1], f[4], f[7], f[13], f[14], f[23], f[24]]
            if not all(_INT_RE.fullmatch(v) for v in ints if v):
                self.bad(f"Layer (emb2) type has a non-integer modifier/offset/version: {ints}")
            images = decode(f[15], ",")
            names = decode(f[16], ",")
            if len(names) > len(images):
                self.bad(f"Layer has {len(images)} images but {len(names)} level names")
            self.images += [i for i in images if i]
            if not _INT_RE.fullmatch(s or "") or not (1 <= abs(int(s)) <= len(images)):
                self.bad(f"Layer state {s!r} must be a level between 1 and {len(images)} (negative = inactive)")
        elif t.startswith("obs;"):
            f = decode(t[len("obs;"):], ";")
            if len(f) > 1 and f[1]:
                self.images.append(f[1])
        elif t.startswith("markmoved;"):
            f = decode(t[len("markmoved;"):], ";")
            if f and f[0] and not f[0].endswith(".gif"):  # VASSAL's own moved.gif ships with the engine
                self.images.append(f[0])
        elif t.startswith(("delete;", "clone;")):
            f = decode(t.split(";", 1)[1], ";")
            if len(f) >= 2 and f[1] and "," in f[1] and not all(_INT_RE.fullmatch(v) for v in f[1].split(",")[:2]):
                self.bad(f"{t.split(';')[0]} keystroke {f[1]!r} is not 'keyCode,modifiers'")


def validate_module(path: str | os.PathLike[str]) -> list[str]:
    """Problems VASSAL would have with the module at ``path`` (empty list: none found); an archive or XML
    the safe reader refuses is the one problem returned."""
    try:
        return check_module(path)
    except ArchiveError as err:
        return [str(err)]


def check_module(path: str | os.PathLike[str]) -> list[str]:
    """As :func:`validate_module`, but an archive or XML refused by :mod:`toolkit.vassal.engine.safezip` raises
    :class:`~toolkit.vassal.engine.safezip.ArchiveError` (naming the file and the problem)."""
    problems: list[str] = []
    label = os.fspath(path)
    with open_archive(path) as z:
        names = set(z.names())
        lower = {n.lower(): n for n in names}
        if "buildFile.xml" not in names:
            problems.append("buildFile.xml missing from the module (VASSAL 3.5+ reads 'buildFile.xml')")
            return problems
        if "moduledata" not in names:
            problems.append("moduledata missing from the module")
        root = parse_xml(z.read("buildFile.xml", MAX_BUILDFILE_BYTES), f"{label}: buildFile.xml")
        md_version = None
        if "moduledata" in names:
            md = parse_xml(z.read("moduledata", MAX_MODULEDATA_BYTES), f"{label}: moduledata")
            md_version = md.findtext("VassalVersion")
        _check_tree(root, problems)
        _check_versions(root, md_version, problems)

        def need_image(img: str, where: str) -> None:
            if f"images/{img}" in names:
                return
            near = lower.get(f"images/{img}".lower())
            hint = f" (the zip has {near!r}: names are case-sensitive)" if near else ""
            problems.append(f"{where}: image {img!r} not found in the module as 'images/{img}'{hint}")

        for b in root.iter(B + "Board"):
            if b.get("image"):
                need_image(b.get("image"), _where(b))
        for setup in root.iter(M + "PredefinedSetup"):
            if setup.get("useFile") == "true" and setup.get("file") not in names:
                problems.append(f"{_where(setup)}: predefined setup file {setup.get('file')!r} is not in the module")
        for e in [*root.iter(W + "HtmlChart"), *root.iter(M + "documentation.HelpFile")]:
            if e.tag == W + "HtmlChart" or e.get("fileType", "archive") == "archive":
                if e.get("fileName") and e.get("fileName") not in names:
                    problems.append(f"{_where(e)}: file {e.get('fileName')!r} is not in the module")
        _check_pieces(root, problems, need_image)
    return problems


def _check_tree(root, problems: list[str]) -> None:
    if root.tag != GAME:
        problems.append(f"root element is {root.tag!r}, expected {GAME!r}")
        return
    kids = [c for c in root if isinstance(c.tag, str)]
    if not kids or kids[0].tag != M + "BasicCommandEncoder":
        problems.append("BasicCommandEncoder must be the first child of GameModule (it decodes the pieces)")
    if not any(k.tag == M + "GlobalOptions" for k in kids):
        problems.append("GlobalOptions is missing: VASSAL then never docks the main map, which shows in no window")
    for m in root.iter(M + "Map"):
        have = {_short(k.tag) for k in m}
        missing = [c for c in PLAY_COMPONENTS if c not in have]
        if missing:
            problems.append(f"{_where(m)}: lacks {missing}: players could not drag, select or right-click pieces")
    for e in root.iter():
        if not isinstance(e.tag, str):
            continue
        if e.tag == G + "mapgrid.Zone" and e.get("path") is not None:
            pts = e.get("path").split(";")
            if len(pts) < 3 or not all(re.fullmatch(r"-?\d+,-?\d+", p) for p in pts):
                problems.append(f"{_where(e)}: path {e.get('path')!r} is not a polygon 'x,y;x,y;x,y...'")
        if e is not root:
            allowed = PARENTS.get(e.tag)
            if allowed is None:
                problems.append(f"{_where(e)}: element {e.tag!r} is not one the toolkit emits or checks")
            elif e.getparent().tag not in allowed:
                problems.append(f"{_where(e)}: {_short(e.tag)} may not be a child of {_short(e.getparent().tag)}")
        for a in REQUIRED.get(e.tag, ()):
            if e.get(a) is None:
                problems.append(f"{_where(e)}: required attribute {a!r} missing")
        for a, kind in TYPED.get(e.tag, {}).items():
            v = e.get(a)
            if v is not None and not _is(kind, v):
                problems.append(f"{_where(e)}: attribute {a}={v!r} must be {kind}")
        for (tag, a), ok in CHOICES.items():
            if e.tag == tag and e.get(a) is not None and e.get(a) not in ok:
                problems.append(f"{_where(e)}: attribute {a}={e.get(a)!r} must be one of {sorted(ok)}")
        if e.tag == G + "HexGrid":
            dx = e.get("dx")
            if dx and _is(FLOAT, dx) and float(dx) == DEFAULT_HEX_WIDTH:
                problems.append(f"{_where(e)}: dx={dx!r} is VASSAL's default width; it would be recomputed from dy")


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", v)[:3])


def _check_versions(root, md_version: str | None, problems: list[str]) -> None:
    for where, v in (("GameModule VassalVersion", root.get("VassalVersion")), ("moduledata VassalVersion", md_version)):
        if v is None:
            if where.startswith("moduledata"):
                problems.append("moduledata has no VassalVersion")
            continue
        t = _version_tuple(v)
        if not t:
            problems.append(f"{where} {v!r} is not a version number")
        elif t >= (3, 7):
            problems.append(f"{where} {v!r}: VASSAL 3.6 refuses modules of 3.7 or later (write 3.6.0)")
        elif t < (3, 5):
            problems.append(f"{where} {v!r}: below 3.5 VASSAL looks for 'buildFile', not 'buildFile.xml'")


def _check_pieces(root, problems: list[str], need_image) -> None:
    proto_list = [p.get("name") for p in root.iter(M + "PrototypeDefinition")]
    proto_names = set(proto_list)
    dup = sorted(n for n, k in Counter(proto_list).items() if k > 1 and n is not None)
    if dup:
        problems.append(f"duplicate PrototypeDefinition names: {dup}")
    next_id = root.get("nextPieceSlotId")
    next_id = int(next_id) if next_id and _INT_RE.fullmatch(next_id) else None
    seen: dict[str, str] = {}
    for e in list(root.iter(W + "PieceSlot")) + list(root.iter(M + "PrototypeDefinition")):
        where = _where(e)
        piece = _Piece(where, problems)
        piece.check(e.text)
        for img in piece.images:
            need_image(img, where)
        for name in piece.prototypes:
            if name not in proto_names:
                listed = sorted(n for n in proto_names if n is not None)
                problems.append(f"{where}: prototype {name!r} does not exist (PrototypeDefinitions: "
                                f"{listed[:20]}{' …' if len(listed) > 20 else ''})")
        if e.tag != W + "PieceSlot":
            continue
        gpid = e.get("gpid")
        if gpid is None:
            continue
        if gpid in seen:
            problems.append(f"{where}: gpid {gpid!r} is also used by {seen[gpid]}; gpids must be unique")
        seen.setdefault(gpid, where)
        if not _INT_RE.fullmatch(gpid):
            problems.append(f"{where}: gpid {gpid!r} is not a whole number")
        elif next_id is not None and int(gpid) >= next_id:
            problems.append(f"{where}: gpid {gpid} is not below nextPieceSlotId {next_id}; "
                            "new slots made in the editor would clash")
        if piece.gpid not in (None, "", gpid):
            problems.append(f"{where}: the piece's state has gpid {piece.gpid!r} but the slot has {gpid!r}")
