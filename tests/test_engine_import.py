"""Engine tier: published-module shapes imported, then checked against the REAL VASSAL engine.

For every hand-written module shape (tests/vassal_modules.py: two boards on one map with an upright and a
sideways grid; a zoned board with a hex zone and an off-map box map; letters, descending columns and a
location format, a RegionGrid track), the import's name of every hex centre of every map file is the name
the engine gives that point (``Map.locationName``), so are the grid arithmetic's names of random points,
and a save the engine makes (pieces dropped on hex centres and in box
zones, ``GameState.saveGame``) reads back with every piece on its named hex or in its box.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import vassal_modules as vm
from toolkit.mapdata import open_map
from toolkit.vassal.saves.imported import load_record
from toolkit.vassal.published.moduleread import read_published_module
from toolkit.vassal.saves.positions import read_position_save
from vassal_engine import vengine

_REASON = vengine.engine_available()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"VASSAL engine unavailable: {_REASON}")


def _imported(tmp_path, shape: str):
    from toolkit.vassal.published.importer import import_module

    vmod = vm.write_vmod(tmp_path / f"{shape}.vmod", vm.SHAPES[shape]())
    folder = tmp_path / "game"
    import_module(vmod, folder)
    return vmod, folder, read_published_module(vmod)


def _map_files(folder):
    return [open_map(p) for p in sorted(folder.glob("map*.yaml"))]


def _hex_points(cmap, module) -> list[tuple[str, str, list[int]]]:
    """Every hex centre of an imported map file as ``(map name, hex name, map point)``."""
    mmap = next(m for m in module.maps if m.name == cmap.board.map)
    placed = next((pb for pb in mmap.layout().boards if pb.board.name == cmap.board.board), None)
    x0, y0 = (placed.x, placed.y) if placed else mmap.edge   # boards joined: their image starts at the edge
    out = []
    for h in cmap.grid.hex_list:
        px, py = (round(v) for v in cmap.board.pixel(*cmap.grid.layout.centre(h)))
        out.append((mmap.name, cmap.name(h), [px + x0, py + y0]))
    return out


@pytest.mark.parametrize("shape", sorted(vm.SHAPES))
def test_every_hex_centre_is_named_as_the_engine_names_it(tmp_path, shape):
    """Every hex centre of every map file, and 300 random points of every map (on and off the boards: the
    grid arithmetic the save reader uses, :mod:`toolkit.vassal.engine.vgrid`), named as the engine names them."""
    vmod, folder, module = _imported(tmp_path, shape)
    centres = [p for cmap in _map_files(folder) for p in _hex_points(cmap, module)]
    assert len(centres) > 40
    rng = random.Random(15)
    for mmap in module.maps:
        lay = mmap.layout()
        w = max(pb.x + pb.board.width for pb in lay.boards) + 10
        h = max(pb.y + pb.board.height for pb in lay.boards) + 10
        mine = [(name, pt) for m, name, pt in centres if m == mmap.name]
        mine += [(lay.location_name(*pt), pt) for pt in ([rng.randrange(-5, w), rng.randrange(-5, h)]
                                                         for _ in range(300))]
        pts = tmp_path / "points.json"
        pts.write_text(json.dumps([pt for _, pt in mine]))
        r = vengine.run_engine(["where", vmod, pts, mmap.name])
        assert r["ok"], r["errors"]
        engine = [p["name"] or "offboard" for p in r["points"]]
        wrong = [(name, pt, got) for (name, pt), got in zip(mine, engine) if name != got]
        assert not wrong, f"{shape} {mmap.name}: {len(wrong)} of {len(mine)} points named otherwise, e.g. {wrong[:3]}"


def _placements(folder, module, shape):
    """Pieces (slot 0 and 1 alternately) on every third hex centre of every map file, and in each box zone."""
    out = []
    for cmap in _map_files(folder):
        out += [[i % 2, m, *pt] for i, (m, _, pt) in enumerate(_hex_points(cmap, module)[::3])]
    record = load_record(folder)
    for mmap in module.maps:
        lay = mmap.layout()
        for pb in lay.boards:
            for x in range(pb.x + 5, pb.x + pb.board.width, 37):   # one piece per box found along a sweep
                for y in range(pb.y + 5, pb.y + pb.board.height, 31):
                    name = lay.location_name(x, y)
                    if name in record.boxes and not any(p[1] == mmap.name and lay.location_name(*p[2:]) == name
                                                        for p in out):
                        out.append([1, mmap.name, x, y])
    return out


@pytest.mark.parametrize("shape", sorted(vm.SHAPES))
def test_an_engine_save_reads_back_with_every_piece_on_its_named_hex(tmp_path, shape):
    vmod, folder, module = _imported(tmp_path, shape)
    placements = _placements(folder, module, shape)
    (tmp_path / "placements.json").write_text(json.dumps(placements))
    save = tmp_path / "engine.vsav"
    r = vengine.run_engine(["place", vmod, tmp_path / "placements.json", save])
    assert r["ok"], r["errors"]
    assert len(r["pieces"]) == len(placements)
    record = load_record(folder)
    main = open_map(folder / "map.yaml")
    counters = {"Rifles": "rifles", "HQ": "hq"}
    on_main = Counter()
    elsewhere = Counter()
    for p in r["pieces"]:
        key = (counters[p["name"].split(" +")[0]], record.boxes.get(p["location"], p["location"]))
        try:
            main.grid.parse(p["location"])
            mmap = next(m for m in module.maps if m.name == p["map"])
            board = mmap.layout().board_at(p["x"], p["y"])[0].board.name
            (on_main if (p["map"], board) == (record.main_map, record.main_board) else elsewhere)[key] += 1
        except ValueError:
            (on_main if p["location"] in record.boxes else elsewhere)[key] += 1
    pf, unplaced = read_position_save(save, str(folder))
    got = Counter((u.counter, u.hex or u.box) for u in pf.units)
    assert got == on_main, f"{shape}: read {got}, the engine has {on_main}"
    assert sum(on_main.values()) >= 10
    assert len(unplaced) == sum(elsewhere.values())   # pieces on the other boards are listed, with the engine's name
    assert all("the engine:" in u.reason for u in unplaced)


def test_region_ties_fall_as_in_the_engine(tmp_path):
    """Points equally near several regions: the engine takes the first in its HashMap's order (vgrid too)."""
    vmod = vm.write_vmod(tmp_path / "regions.vmod", vm.regions())
    lay = read_published_module(vmod).maps[0].layout()
    pts = [[x, y] for x in range(0, 260, 10) for y in range(0, 180, 10)]
    (tmp_path / "points.json").write_text(json.dumps(pts))
    r = vengine.run_engine(["where", vmod, tmp_path / "points.json", "Regions"])
    assert r["ok"], r["errors"]
    assert [p["name"] for p in r["points"]] == [lay.location_name(*pt) for pt in pts]


# ---------------------------------------------------------------- modules as they are found in the wild (issue 23)


def _wild(tmp_path, shape: str):
    from toolkit.vassal.published.importer import import_module

    vmod = vm.write_vmod(tmp_path / f"{shape}.vmod", vm.WILD[shape]())
    import_module(vmod, tmp_path / "game")
    return vmod, tmp_path / "game", read_published_module(vmod)


def _where(tmp_path, vmod, map_name: str, pts: list) -> list[dict]:
    (tmp_path / "points.json").write_text(json.dumps(pts))
    r = vengine.run_engine(["where", vmod, tmp_path / "points.json", map_name])
    assert r["ok"] or all("Image not found" in e for e in r["errors"]), r["errors"]
    return r["points"]


@pytest.mark.parametrize("shape", ["legacy", "square-zones", "quartered",
                                   "quartered-sideways"])
def test_wild_points_are_named_as_the_engine_names_them(tmp_path, shape):
    """An older module (BasicModule root, a missing image) and square-grid zones and maps: every hex centre of the
    map file and 400 random points of every map named by the import record as the engine names them (hex centres
    under a zone are the zone's, as the import's note says)."""
    vmod, folder, module = _wild(tmp_path, shape)
    record = load_record(folder)
    rng = random.Random(23)
    centres = _hex_points(open_map(folder / "map.yaml"), module)
    for mmap in module.maps:
        lay = record.layout(_no_boards(), mmap.name)
        w = max((pb.x + pb.board.width for pb in lay.boards), default=0) + 10
        h = max((pb.y + pb.board.height for pb in lay.boards), default=0) + 10
        pts = [pt for m, _, pt in centres if m == mmap.name]
        pts += [[rng.randrange(-5, w), rng.randrange(-5, h)] for _ in range(400)]
        mine = [(lay.location_name(*pt), pt) for pt in pts]
        engine = [p["name"] or "offboard" for p in _where(tmp_path, vmod, mmap.name, [pt for _, pt in mine])]
        wrong = [(name, pt, got) for (name, pt), got in zip(mine, engine) if name != got]
        assert not wrong, f"{shape} {mmap.name}: {len(wrong)} of {len(mine)} named otherwise, e.g. {wrong[:3]}"


def _no_boards():
    from toolkit.vassal.saves.savefile import SaveContents

    return SaveContents("")


def test_an_unnumbered_hex_grid_the_engine_calls_offboard_snaps_to_the_toolkits_hexes(tmp_path):
    vmod, folder, module = _wild(tmp_path, "unnumbered")
    centres = _hex_points(open_map(folder / "map.yaml"), module)
    points = _where(tmp_path, vmod, "Main Map", [pt for _, _, pt in centres])
    assert {p["name"] or "offboard" for p in points} == {"offboard"}
    assert [p["snap"] for p in points] == [pt for _, _, pt in centres]


@pytest.mark.parametrize("shape", ["legacy", "unnumbered", "square-zones", "quartered",
                                   "quartered-sideways"])
def test_an_engine_save_of_a_wild_module_reads_back_with_every_piece_in_place(tmp_path, shape):
    """Pieces on every third hex centre and in every box the import made (square-zone cells): the engine's own save
    reads back with each on its hex (the toolkit's name for an unnumbered grid) or in its box."""
    vmod, folder, module = _wild(tmp_path, shape)
    placements = _placements(folder, module, shape)
    (tmp_path / "placements.json").write_text(json.dumps(placements))
    save = tmp_path / "engine.vsav"
    r = vengine.run_engine(["place", vmod, tmp_path / "placements.json", save])
    assert r["ok"] or all("Image not found" in e for e in r["errors"]), r["errors"]
    assert len(r["pieces"]) == len(placements)
    record = load_record(folder)
    expected = Counter()
    for (slot, map_name, x, y), p in zip(placements, r["pieces"]):
        lay = record.layout(_no_boards(), map_name)
        name = lay.location_name(p["x"], p["y"])
        assert p["location"] in (name, "offboard")   # offboard: the unnumbered grid, named by the toolkit
        expected[(["rifles", "hq"][slot], record.boxes.get(name, name))] += 1
    pf, unplaced = read_position_save(save, str(folder))
    assert Counter((u.counter, u.hex or u.box) for u in pf.units) == expected and not unplaced


# ---------------------------------------------------------------- shapes of issue 34


@pytest.mark.parametrize("fmt", ["$name$", "$gridLocation$", "Field $gridLocation$"])
def test_a_zone_hex_grid_without_a_numbering_is_named_as_the_engine_names_it(tmp_path, fmt):
    """A zone whose HexGrid has no numbering: the engine names its points by the zone's format with no grid
    location ('Battlefield', '', 'Field ') and snaps them to the hex centres the import's map file has (its
    hexes named by the toolkit, as the import's note says)."""
    vmod = vm.write_vmod(tmp_path / "z.vmod", vm.zone_unnumbered(fmt))
    folder = tmp_path / "game"
    from toolkit.vassal.published.importer import import_module

    import_module(vmod, folder)
    module = read_published_module(vmod)
    lay = module.maps[0].layout()
    centres = _hex_points(open_map(folder / "map.yaml"), module)
    rng = random.Random(34)
    pts = [pt for _, _, pt in centres] + [[rng.randrange(-5, 430), rng.randrange(-5, 370)] for _ in range(200)]
    engine = _where(tmp_path, vmod, "Main Map", pts)
    named = [p["name"] if p["name"] is not None else "offboard" for p in engine]   # '' is the engine's name too
    assert named == [lay.location_name(*pt) for pt in pts]
    assert {p["name"] for p in engine[:len(centres)]} == {fmt.replace("$name$", "Battlefield")
                                                          .replace("$gridLocation$", "")}
    assert [p["snap"] for p in engine[:len(centres)]] == [pt for _, _, pt in centres]


def test_a_region_grid_of_hexes_is_named_as_the_engine_names_it(tmp_path):
    """Regions at the hex centres of one lattice (the Siege's letter columns and diagonal numbers): every hex
    centre of the imported map file, and 300 random points, named by the engine as the import names them."""
    from toolkit.vassal.published.importer import import_module

    vmod = vm.write_vmod(tmp_path / "r.vmod", vm.region_hexes())
    import_module(vmod, tmp_path / "game")
    module = read_published_module(vmod)
    lay = module.maps[0].layout()
    centres = _hex_points(open_map(tmp_path / "game" / "map.yaml"), module)
    rng = random.Random(341)
    pts = [pt for _, _, pt in centres] + [[rng.randrange(0, 420), rng.randrange(0, 380)] for _ in range(300)]
    engine = [p["name"] for p in _where(tmp_path, vmod, "Main Map", pts)]
    assert engine[:len(centres)] == [name for _, name, _ in centres]
    assert engine == [lay.location_name(*pt) for pt in pts]


def test_a_part_board_names_its_hexes_as_the_main_map_does(tmp_path):
    """The sided module's part board North (the main board from NORTH_CROP on, its numbering carried on), laid
    alone as a setup lays it: the engine names each of its hex centres with the name of the main map file's hex
    at that point of the main board."""
    from toolkit.vassal.published.importer import import_module

    import_module(vm.write_vmod(tmp_path / "s.vmod", vm.sided(), vm.sided_setups()), tmp_path / "game")
    cmap = open_map(tmp_path / "game" / "map.yaml")
    xml, images = vm.sided()
    alone = vm.write_vmod(tmp_path / "north.vmod", (xml.replace("\tMain\t0\t0", "\tNorth\t0\t0"), images))
    main = {}
    for h in cmap.grid.hex_list:
        x, y = (round(v) for v in cmap.board.pixel(*cmap.grid.layout.centre(h)))
        if 0 <= x - vm.NORTH_CROP[0] < 220 and 0 <= y - vm.NORTH_CROP[1] < 200:   # on North (220 x 200)
            main[(x - vm.NORTH_CROP[0], y - vm.NORTH_CROP[1])] = cmap.name(h)
    assert len(main) >= 8
    engine = _where(tmp_path, alone, "Main Map", [list(pt) for pt in main])
    assert [p["name"] for p in engine] == list(main.values())

