"""The ``play`` command: the REAL VASSAL engine driven as a player would, with a Robot under Xvfb.

A tiny hand-built module (``test_engine_tier``'s, plus the Map children VASSAL's editor
puts in a new map, GlobalOptions, a PredefinedSetup and a piece with Delete, Clone and
a two-image Flip layer) is played in two JVM runs: one that starts the set-up, looks
at the windows, drags, right-clicks, flips with a key, zooms, logs, saves and takes a
screenshot; one that loads the save back.  Skipped (with the reason) where the engine
cannot run (see tests/engine/README.md).
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from test_engine_tier import (
    GLOBAL_OPTIONS,
    MAP_NAME,
    PIECE_TYPE,
    SAVE_PIECES,
    STANDARD_MAP_CHILDREN,
    _png,
    build_file_xml,
    deobfuscate,
    hex_centre,
    hex_name,
    nest,
    save_bytes,
    save_command,
    write_module,
)
from vassal_engine import vengine

# ---------------------------------------------------------------- the piece: Flip (emb2), Clone, Delete

# Embellishment (emb2) type tokens, in Embellishment.myGetType order (version 1): a layer
# that is always active, "Flip" (Ctrl+F) steps through two images and loops.
FLIP_TYPE = "emb2;" + ";".join([
    "", "130", "",              # activate: command, modifiers, key (unused: always active)
    "Flip", "130", "F",         # increase: command, modifiers, key
    "", "130", "",              # decrease
    "", "", "1",                # reset: command, key, level
    "false", "0", "0",          # draw underneath when selected, x and y offset
    "infantry.png,infantry_back.png",  # one image per level
    ",+ (reduced)",             # level names: level 2 appends " (reduced)" to the name
    "true", "Step",             # loop levels, layer name
    "", "",                     # random: key, command
    "false", "", "1",           # follow property, its name, first level value
    "1", "true",                # version, always active
    "", "70,130", "",           # activate, increase (Ctrl+F), decrease keystrokes
    "", "1.0",                  # description, scale
])
CLONE_TYPE = "clone;Clone;67,130;"   # command, Ctrl+C, description
DELETE_TYPE = "delete;Delete;68,130;"  # command, Ctrl+D, description
TRAIT_TYPES = [FLIP_TYPE, CLONE_TYPE, DELETE_TYPE]
TRAIT_STATES = ("1", "", "")          # Flip at level 1; Clone and Delete keep no state
FLIP_PIECE_TYPE = nest(TRAIT_TYPES, PIECE_TYPE)
SETUP_NAME = "Opening"

PREDEFINED_SETUP = f"""
  <VASSAL.build.module.PredefinedSetup file="opening.vsav" isMenu="false" name="{SETUP_NAME}" useFile="true"/>"""
# The editor's default TurnTracker with one counter level (Turn 1, 2, ...).
TURN_TRACKER = """
  <VASSAL.build.module.turn.TurnTracker buttonText="Turn" hotkey="" length="-1" lengthStyle="Maximum" name="Turn" nexthotkey="" prevhotkey="" reportFormat="* &amp;lt;$PlayerId$&amp;gt; Turn Updated from $oldTurn$ to $newTurn$" tooltip="Right-click to configure" turnFormat="$level1$ $level2$ $level3$ $level4$">
    <VASSAL.build.module.turn.CounterTurnLevel incr="1" loop="false" loopLimit="-1" name="Turn" property="Turn" start="1" turnFormat="Turn $value$"/>
  </VASSAL.build.module.turn.TurnTracker>"""


def play_module(path: Path) -> Path:
    xml = build_file_xml(
        map_children=STANDARD_MAP_CHILDREN,
        module_children=PREDEFINED_SETUP + TURN_TRACKER,
        before_maps=GLOBAL_OPTIONS,
        slot_type=FLIP_PIECE_TYPE,
        slot_state=nest(list(TRAIT_STATES), "null;0;0;1;0"),
    )
    return write_module(path, xml, extra={
        "images/infantry_back.png": _png((40, 40), (200, 60, 60)),
        "opening.vsav": save_bytes(save_command(FLIP_PIECE_TYPE, TRAIT_STATES)),
    })


def centre(col: int, row: int) -> list[int]:
    return [round(v) for v in hex_centre(col, row)]


# ---------------------------------------------------------------- pure-Python check (always runs)


def test_trait_nesting():
    # Decorator.getType: outer own part, TAB, then the inner rest with its TABs escaped
    assert nest(["a;1", "b;2"], "piece;;;x.png;X") == "a;1\tb;2\\\tpiece;;;x.png;X"
    assert nest(["1", "", ""], "null;0;0;1;0") == "1\t\\\t\\\\\tnull;0;0;1;0"


# ---------------------------------------------------------------- engine runs

_REASON = vengine.engine_available()
needs_engine = pytest.mark.skipif(_REASON is not None, reason=f"VASSAL engine unavailable: {_REASON}")

START, END = SAVE_PIECES[0][1:], (3, 2)   # the first piece of the set-up moves from 0203 to 0403
START_XY, END_XY = centre(*START), centre(*END)
PROPS = ["Step_Level", "Step_Name", "LocationName"]


def _show(result: dict) -> str:
    keep = {k: result.get(k) for k in ("ok", "errors", "dialogs", "notes", "elapsed")}
    keep["steps"] = [{k: v for k, v in s.items() if k in ("op", "ok", "error", "seconds")}
                     for s in result.get("steps", [])]
    return json.dumps(keep, indent=1)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    d = tmp_path_factory.mktemp("engine-play")
    module = play_module(d / "play.vmod")
    files = {k: d / n for k, n in (("save", "moved.vsav"), ("log", "moves.vlog"),
                                     ("shot", "window.png"))}
    steps = [
        {"op": "new", "setup": SETUP_NAME},
        {"op": "windows"},
        {"op": "slots"},
        {"op": "pieces", "props": PROPS},
        {"op": "log_start"},
        {"op": "drag", "map": MAP_NAME, "from": START_XY, "to": END_XY},
        {"op": "menu", "map": MAP_NAME, "at": END_XY},
        {"op": "key", "map": MAP_NAME, "at": END_XY, "key": "ctrl F", "props": PROPS},
        {"op": "log_end", "file": str(files["log"])},
        {"op": "zoom", "map": MAP_NAME, "dir": "in"},
        {"op": "screenshot", "map": MAP_NAME, "file": str(files["shot"]), "center": END_XY},
        {"op": "save", "file": str(files["save"])},
        {"op": "pieces", "map": MAP_NAME, "props": PROPS},
    ]
    result = vengine.play(module, steps)
    by_op: dict[str, list[dict]] = {}
    for s in result.get("steps", []):
        by_op.setdefault(s["op"], []).append(s)
    return {"module": module, "result": result, "steps": by_op, **files}


def _step(played, op: str, n: int = 0) -> dict:
    steps = played["steps"].get(op, [])
    assert len(steps) > n, f"no step {op}[{n}]:\n{_show(played['result'])}"
    step = steps[n]
    assert step["ok"], f"{op}: {step.get('error')}\n{_show(played['result'])}"
    return step


@needs_engine
def test_play_run_is_clean(played):
    r = played["result"]
    assert r["ok"], _show(r)
    assert [s["op"] for s in r["steps"]] == [
        "new", "windows", "slots", "pieces", "log_start", "drag", "menu", "key",
        "log_end", "zoom", "screenshot", "save", "pieces"]


@needs_engine
def test_setup_starts_and_map_docks(played):
    new = _step(played, "new")
    assert new["gameStarted"] is True
    assert new["pieces"] == len(SAVE_PIECES)
    win = _step(played, "windows")["windows"]
    assert win["playerWindow"]["visible"] is True
    (m,) = win["maps"]
    assert m["name"] == MAP_NAME
    assert m["showing"] is True and m["docked"] is True
    w, h = m["viewport"]
    assert w > 100 and h > 100
    assert m["zoom"] == 1.0


@needs_engine
def test_pieces_and_slots_show_traits_and_menus(played):
    (slot,) = _step(played, "slots")["slots"]
    assert slot["gpid"] == "1"
    assert slot["traits"] == ["emb2", "clone", "delete", "piece"]
    pieces = {p["id"]: p for p in _step(played, "pieces")["pieces"]}
    assert sorted(pieces) == sorted(pid for pid, _, _ in SAVE_PIECES)
    for pid, c, r in SAVE_PIECES:
        p = pieces[pid]
        assert (p["x"], p["y"]) == tuple(centre(c, r))
        assert p["locationName"] == hex_name(c, r)
        assert p["traits"] == ["emb2", "clone", "delete", "piece"]
        assert p["properties"]["Step_Level"] == "1"
        assert p["obscured"] is False
        # the menu items read "Flip  Ctrl+F": the command, then its keystroke
        assert [t.split("  ")[0] for t in p["menu"]] == ["Flip", "Clone", "Delete"]


@needs_engine
def test_robot_drag_moves_the_piece(played):
    drag = _step(played, "drag")
    assert drag["piece"]["id"] == SAVE_PIECES[0][0]
    assert drag["piece"]["locationName"] == hex_name(*START)
    after = drag["after"]
    assert drag["moved"] is True
    assert (after["x"], after["y"]) == tuple(END_XY)  # snapped to the hex centre
    assert after["locationName"] == hex_name(*END)
    assert after["stack"] is not None  # a moved piece gets a Stack of its own


@needs_engine
def test_right_click_menu_lists_the_traits(played):
    menu = _step(played, "menu")
    assert [t.split("  ")[0] for t in menu["menu"]] == ["Flip", "Clone", "Delete"]


@needs_engine
def test_ctrl_f_flips_the_layer(played):
    key = _step(played, "key")
    assert key["selected"] is True
    assert key["before"]["properties"]["Step_Level"] == "1"
    assert key["after"]["properties"]["Step_Level"] == "2"
    assert key["after"]["name"] == "Infantry (reduced)"
    assert key["after"]["state"].split("\t")[0] == "2"


@needs_engine
def test_zoom_in_changes_the_scale(played):
    zoom = _step(played, "zoom")
    assert zoom["before"] == 1.0 and zoom["after"] > 1.0


@needs_engine
def test_log_holds_the_move(played):
    end = _step(played, "log_end")
    assert end["commands"] >= 2  # the move and the flip
    with zipfile.ZipFile(played["log"]) as z:
        text = deobfuscate(z.read("savedGame"))
    assert text.startswith("begin_save")
    # "LOG\t" entries wrap the logged commands: the move is a MovePiece
    # M/id/newMap/x/y/underId/oldMap/oldX/oldY/..., the flip a ChangePiece D/id/newState/...
    logged = [c for c in text.split("\x1b") if c.startswith("LOG\t")]
    pid = SAVE_PIECES[0][0]
    (x, y), (x0, y0) = END_XY, START_XY
    assert any(c.startswith(f"LOG\tM/{pid}/{MAP_NAME}/{x}/{y}/null/{MAP_NAME}/{x0}/{y0}/") for c in logged), logged
    assert any(c.startswith(f"LOG\tD/{pid}/2\t") for c in logged), logged


@needs_engine
def test_screenshot_is_written(played):
    shot = _step(played, "screenshot")
    from PIL import Image

    img = Image.open(played["shot"])
    assert img.size == tuple(shot["size"])
    # the board's green and the flipped piece's red are on screen
    colours = {c for _, c in img.convert("RGB").getcolors(1 << 20)}
    assert (200, 220, 180) in colours
    assert (200, 60, 60) in colours


@needs_engine
def test_save_loads_back_with_the_moved_piece(played):
    _step(played, "save")
    again = vengine.play(played["module"], [
        {"op": "load", "file": str(played["save"])},
        {"op": "pieces", "props": PROPS},
        {"op": "menu", "map": MAP_NAME, "at": END_XY, "choose": "Flip  Ctrl+F", "props": PROPS},
        {"op": "new", "setup": None},
        {"op": "windows"},
        {"op": "turn", "next": True},
        {"op": "refresh"},
    ])
    assert again["ok"], _show(again)
    load, pieces, menu, new, windows, turn, refresh = again["steps"]
    assert load["gameStarted"] is True and load["pieces"] == len(SAVE_PIECES)
    moved = {p["id"]: p for p in pieces["pieces"]}[SAVE_PIECES[0][0]]
    assert (moved["x"], moved["y"]) == tuple(END_XY)
    assert moved["locationName"] == hex_name(*END)
    assert moved["properties"]["Step_Level"] == "2"
    # choosing Flip from the right-click menu (a Robot click on the item) flips it back
    assert menu["after"]["properties"]["Step_Level"] == "1"
    # a new game without a set-up: boards placed, no pieces, no dialog
    assert new["gameStarted"] is True and new["pieces"] == 0
    assert windows["windows"]["maps"][0]["boards"] == ["Tiny Board"]
    (tracker,) = turn["trackers"]
    assert tracker["turn"].strip() == "Turn 1"
    assert tracker["turnAfter"].strip() == "Turn 2"
    assert tracker["state"] != tracker["before"]
    assert refresh["before"] == refresh["after"] == 0
