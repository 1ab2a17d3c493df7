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


def play_module(path: Path) -> Path:
    xml = build_file_xml(
        map_children=STANDARD_MAP_CHILDREN,
        module_children=PREDEFINED_SETUP,
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
