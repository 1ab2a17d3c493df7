"""VASSAL module export (issue 6): build, validate, reproduce, and load in the REAL engine.

The engine parts skip (with the reason) where the engine cannot run; see
tests/engine/README.md.  ``TOOLKIT_SKIP_ENGINE=1`` forces the skip.
"""
from __future__ import annotations

import json
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from toolkit.game import load_position
from toolkit.game.module import load_game, modules_dir
from toolkit.vassal.design.board import board_layout
from toolkit.vassal.design.boxes import MARKERS_ZONE
from toolkit.vassal.build.buildfile import MAP_NAME
from toolkit.vassal.design.entry import entry_zones
from toolkit.vassal.design.piecedefs import BOXES_MAP, piece_gpids
from toolkit.vassal.build.module import build_module
from toolkit.vassal.saves.positions import write_position_save
from toolkit.vassal.engine.seqenc import decode, encode
from toolkit.vassal.build.validate import validate_module

from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)

SLOT = "VASSAL.build.widget.PieceSlot"


def _engine():
    reason = vengine.engine_available()
    if reason is not None:
        pytest.skip(f"VASSAL engine unavailable: {reason}")


def _show(r: dict) -> str:
    return json.dumps({k: r.get(k) for k in ("ok", "errors", "dialogs", "elapsed")}, indent=1)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("vmod")
    path = build_module("jerusalem-1948", d / "jerusalem-1948.vmod")  # build time: scripts/bench.py
    return {"path": path, "dir": d}


GAMES = ("jerusalem-1948", "siege-of-jerusalem", "no-prisoners")


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The three bundled games' modules (build times are measured by scripts/bench.py)."""
    d = tmp_path_factory.mktemp("vmods")
    return {g: build_module(g, d / f"{g}.vmod") for g in GAMES}


# ---------------------------------------------------------------- pure Python


def test_module_builds_and_validates(built):
    assert validate_module(built["path"]) == []
    with zipfile.ZipFile(built["path"]) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert {"buildFile.xml", "moduledata", "images/board.png"} <= set(names)
        root = etree.fromstring(z.read("buildFile.xml"))
        md = etree.fromstring(z.read("moduledata"))
    assert md.findtext("VassalVersion") == "3.6.0"
    assert root.get("VassalVersion") == "3.6.0"
    assert root[0].tag == "VASSAL.build.module.BasicCommandEncoder"
    game = load_game("jerusalem-1948")
    slots = list(root.iter(SLOT))
    assert len(slots) == len(game.manifest.counters) + len(game.manifest.markers)
    gpids = [int(s.get("gpid")) for s in slots]
    assert len(set(gpids)) == len(gpids) and int(root.get("nextPieceSlotId")) > max(gpids)
    for c in game.manifest.counters:
        assert f"images/c_{c.id}.png" in names
        assert (f"images/c_{c.id}_back.png" in names) == (c.back is not None)
    dice = root.find("VASSAL.build.module.DiceButton")
    assert (dice.get("nDice"), dice.get("nSides")) == ("1", "6")
    level = root.find("VASSAL.build.module.turn.TurnTracker")
    lists = []
    while (level := level.find("VASSAL.build.module.turn.ListTurnLevel")) is not None:
        lists.append(decode(level.get("list"), ","))
    assert lists == [game.spec.turns, ["Jewish", "Arab"], [game.spec.phase_name(p) for p in game.spec.phases]]   # 3.1
    menu = root.find("VASSAL.build.module.PredefinedSetup")   # File > New Game > Scenario II
    assert (menu.get("name"), menu.get("isMenu"), menu.get("useFile")) == ("New Game", "true", "false")
    setup, = menu.findall("VASSAL.build.module.PredefinedSetup")
    assert setup.get("file") == "scenario-ii.vsav" and "scenario-ii.vsav" in names


def test_build_is_reproducible(built):
    again = build_module("jerusalem-1948", built["dir"] / "again.vmod")
    assert again.read_bytes() == built["path"].read_bytes()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_module_validates(modules, game_id):
    assert validate_module(modules[game_id]) == []


def test_siege_module_regiongrid_and_two_dice(modules):
    with zipfile.ZipFile(modules["siege-of-jerusalem"]) as z:
        root = etree.fromstring(z.read("buildFile.xml"))
    regions = list(root.iter("VASSAL.build.module.map.boardPicker.board.Region"))
    assert len(regions) == len(load_game("siege-of-jerusalem").map.grid.hex_list)
    assert root.find(".//VASSAL.build.module.map.boardPicker.board.HexGrid") is None
    dice = [(d.get("nDice"), d.get("nSides")) for d in root.iter("VASSAL.build.module.DiceButton")]
    assert dice == [("1", "6"), ("2", "6")]  # the Siege rolls one die and two dice


def _rewrite(src: Path, dst: Path, edit=None, drop: str | None = None) -> Path:
    """Copy a module, dropping one entry and/or editing the buildFile.xml tree."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            if item.filename == drop:
                continue
            data = zin.read(item.filename)
            if item.filename == "buildFile.xml" and edit is not None:
                root = etree.fromstring(data)
                edit(root)
                data = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
            zout.writestr(item, data)
    return dst


def _hexgrid(root):
    return root.find(".//VASSAL.build.module.map.boardPicker.board.HexGrid")


def _dup_gpid(root):
    slots = list(root.iter(SLOT))
    slots[1].set("gpid", slots[0].get("gpid"))


def _drop_state_level(root):
    slot = next(s for s in root.iter(SLOT) if "emb2;" in s.text)
    plus, pid, type_, state = decode(slot.text, "/")
    inner = decode(state, "\t")[1]  # lose the outermost (prototype) state level
    slot.text = "+/" + encode([pid, type_, inner], "/")


def _unescaped_slash(root):
    slot = next(iter(root.iter(SLOT)))
    slot.text = slot.text.replace("piece;;;", "piece;;;sub/", 1)


@pytest.mark.parametrize("case, edit, drop, expect", [
    ("missing image", None, "images/c_hgh-4-6.png", "image 'c_hgh-4-6.png' not found"),
    ("missing board", None, "images/board.png", "image 'board.png' not found"),
    ("duplicate gpid", _dup_gpid, None, "gpids must be unique"),
    ("bad piece nesting", _drop_state_level, None, "trait levels but state has"),
    ("unescaped slash", _unescaped_slash, None, "'/'-separated parts"),
    ("non-integer x0", lambda r: _hexgrid(r).set("x0", "139.5"), None, "x0='139.5' must be an integer"),
    ("gpid above next id", lambda r: r.set("nextPieceSlotId", "5"), None, "not below nextPieceSlotId"),
    ("encoder not first", lambda r: r.append(r[0]), None, "BasicCommandEncoder must be the first child"),
    ("missing prototype", lambda r: r.remove(r.find("VASSAL.build.module.PrototypesContainer")), None,
     "prototype 'Jewish' does not exist"),
    ("unknown element", lambda r: r.append(etree.Element("VASSAL.build.module.Bogus")), None,
     "'VASSAL.build.module.Bogus' is not one"),
    ("too new", lambda r: r.set("VassalVersion", "3.7.0"), None, "refuses modules of 3.7"),
])
def test_validator_catches_broken_modules(built, tmp_path, case, edit, drop, expect):
    bad = _rewrite(built["path"], tmp_path / "bad.vmod", edit, drop)
    problems = validate_module(bad)
    assert any(expect in p for p in problems), (case, problems[:5])


def test_validator_takes_a_fractional_dy(built, tmp_path):
    """Issue 35: a grid fitted to a game's own board picture has a dy like 138.56...; the engine plays it
    (tests/test_engine_own_game.py), so ``vmod check`` does not refuse it."""
    ok = _rewrite(built["path"], tmp_path / "dy.vmod", lambda r: _hexgrid(r).set("dy", "138.5640646055102"), None)
    assert not [p for p in validate_module(ok) if "dy" in p]


def test_validator_image_case_hint(built, tmp_path):
    bad = tmp_path / "case.vmod"
    with zipfile.ZipFile(built["path"]) as zin, zipfile.ZipFile(bad, "w") as zout:
        for item in zin.infolist():
            name = "images/Board.png" if item.filename == "images/board.png" else item.filename
            zout.writestr(name, zin.read(item.filename))
    assert any("names are case-sensitive" in p for p in validate_module(bad))


def test_validator_refuses_entities(built, tmp_path):
    bad = tmp_path / "xxe.vmod"
    with zipfile.ZipFile(built["path"]) as zin, zipfile.ZipFile(bad, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "buildFile.xml":
                data = data.replace(b"?>", b'?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', 1)
                data = data.replace(b'description="', b'description="&e;', 1)
            zout.writestr(item, data)
    problems = validate_module(bad)  # must not read /etc/passwd nor crash
    assert not any("root:" in p for p in problems)


# ---------------------------------------------------------------- the real engine


def _slot_types(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read("buildFile.xml"))
    return {s.get("gpid"): decode(s.text, "/")[2] for s in root.iter(SLOT)}


def test_engine_loads_module(built):
    _engine()
    r = vengine.run_engine(["load", built["path"]])
    assert r["ok"], _show(r)
    assert r["errors"] == []
    assert r["module"] == "Jerusalem!"
    m, boxes = r["maps"]
    assert (m["name"], boxes["name"]) == (MAP_NAME, BOXES_MAP)
    assert boxes["boards"][0]["grid"] == "ZonedGrid"
    (board,) = m["boards"]
    # the HexGrid under a zone per named place (the mouse-over viewer's place names)
    zones = len(board_layout(load_game("jerusalem-1948").map).zones)
    assert (board["grid"], board["background"], board["zones"]) == ("ZonedGrid", "HexGrid", zones)
    assert board["hex"]["numbering"] == "HexGridNumbering"
    # the engine re-encodes each slot's piece: it must give back exactly what we wrote
    mine = _slot_types(built["path"])
    assert r["pieces"] == len(mine)
    assert {s["gpid"]: s["type"] for s in r["slots"]} == mine


def _every_hex_named(path: Path, cmap, tmp: Path) -> None:
    board = board_layout(cmap, 80)
    hexes = list(cmap.grid.hex_list)
    chunk = 4000
    for i in range(0, len(hexes), chunk):
        part = hexes[i:i + chunk]
        pts = [[round(v) for v in board.pixel(*cmap.grid.layout.centre(h))] for h in part]
        f = tmp / f"points-{i}.json"
        f.write_text(json.dumps(pts))
        r = vengine.run_engine(["where", path, f], timeout=180)
        assert r["ok"], _show(r)
        assert len(r["points"]) == len(part)
        wrong = [(cmap.name(h), p["name"], p["point"]) for h, p in zip(part, r["points"]) if p["name"] != cmap.name(h)]
        assert not wrong, f"{len(wrong)} hexes misnamed, e.g. {wrong[:5]}"


@pytest.mark.parametrize("game_id", GAMES)
def test_engine_loads_every_module_and_names_every_hex(modules, game_id, tmp_path):
    _engine()
    r = vengine.run_engine(["load", modules[game_id]])
    assert r["ok"], _show(r)
    assert {s["gpid"]: s["type"] for s in r["slots"]} == _slot_types(modules[game_id])
    board = r["maps"][0]["boards"][0]
    geometric = "RegionGrid" if game_id == "siege-of-jerusalem" else "HexGrid"
    game = load_game(game_id)
    zones = len(entry_zones(game, board_layout(game.map)))   # over the grid: every name unchanged (below)
    assert (board["grid"], board.get("background"), board.get("zones")) == ("ZonedGrid", geometric, zones)
    _every_hex_named(modules[game_id], load_game(game_id).map, tmp_path)



def test_engine_places_every_piece_of_a_toolkit_save(built, tmp_path):
    """A save written by the toolkit loads in the engine with every piece on its intended hex."""
    _engine()
    position = load_position(modules_dir() / "jerusalem-1948" / "scenarios" / "scenario-ii.yaml")
    save = tmp_path / "scenario-ii.vsav"
    write_position_save(position, save)
    r = vengine.run_engine(["save", built["path"], save])
    assert r["ok"], _show(r)
    name = position.game.map.name
    gpids = piece_gpids(position.game)
    arrivals = position.game.spec.arrivals_box   # a reinforcement with its turn waits on the turn record track

    def where(u):
        if u.hex:
            return name(u.hex)
        return f"Turn {u.arrives}" if u.arrives and u.box == arrivals else position.game.spec.box_name(u.box)
    want = Counter((gpids[u.counter.id], where(u)) for u in position.units)
    want += Counter((gpids[m.marker], f"Turn {m.turn}" if m.turn else MARKERS_ZONE) for m in position.markers)
    assert Counter((p["gpid"], p["location"]) for p in r["pieces"]) == want
