"""``toolkit import-vmod``: published-module shapes (tests/vassal_modules.py) imported into game folders; the
VASSAL naming scheme; saves read onto the imported map; hostile modules refused.  The real engine's word on
the same modules is tests/test_engine_import.py."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
import yaml
from PIL import Image

import vassal_modules as vm
from test_engine_tier import add_piece, basic_state, nest
from test_hostile_support import assert_refused, listing, run, save_bytes
from toolkit.cli import main
from toolkit.hexgrid import Grid, Layout, VassalNumbering
from toolkit.hexgrid.naming import vassal_coordinate
from toolkit.mapdata import open_map
from toolkit.vassal.engine import vgrid
from toolkit.vassal.published.importer import engine_name, import_module
from toolkit.vassal.published.moduleread import read_published_module
from toolkit.vassal.saves.imported import load_record
from toolkit.vassal.saves.positions import read_position_save


@pytest.fixture(scope="module", params=sorted(vm.SHAPES))
def imported(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(request.param)
    vmod = vm.write_vmod(d / f"{request.param}.vmod", vm.SHAPES[request.param]())
    return request.param, vmod, d / "game", import_module(vmod, d / "game")


# ---------------------------------------------------------------- the naming scheme


def test_coordinates_are_spelled_as_the_engine_spells_them():
    assert [vassal_coordinate(n, "N", 1) for n in (0, 5, 10, 123, -3)] == ["00", "05", "10", "123", "-03"]
    assert [vassal_coordinate(n, "N", 2) for n in (5, 50, 500)] == ["005", "050", "500"]
    assert [vassal_coordinate(n, "N", 0) for n in (0, 7)] == ["0", "7"]
    assert [vassal_coordinate(n, "A", 0) for n in (0, 25, 26, 27, 52)] == ["A", "Z", "AA", "BB", "AAA"]


@pytest.mark.parametrize("numbering", [
    VassalNumbering(),
    VassalNumbering(stagger=False, h_off=0, v_off=0),
    VassalNumbering(sideways=True, first="V", sep="-", h_type="A", h_descend=True, max_columns=20, max_rows=15),
    VassalNumbering(v_descend=True, max_rows=12, location_format="Hex $gridLocation$"),
    VassalNumbering(location_format="$row$/$column$", h_type="A"),
    VassalNumbering(h_leading=0, v_leading=0, h_off=5),
])
def test_every_name_reads_back_to_its_hex(numbering):
    for c in range(-2, 160, 3):
        for r in range(-1, 16):
            h = numbering.from_offset(c, r)
            assert numbering.to_offset(h) == (c, r)
            assert h in list(numbering.candidates(numbering.label(c, r)))


def test_stagger_and_offsets():
    n = VassalNumbering()   # the engine's defaults: offsets 1, stagger on (odd columns one row more)
    assert (n.label(0, 0), n.label(1, 0), n.label(2, 0)) == ("0101", "0202", "0301")
    assert VassalNumbering(stagger=False).label(1, 0) == "0201"


def test_an_ambiguous_name_resolves_inside_the_grid():
    n = VassalNumbering(stagger=False, h_off=0, v_off=0)   # "10100": column 10 row 100, or column 101 row 00
    assert n.label(10, 100) == n.label(101, 0) == "10100"
    small = Grid(Layout("flat", 10), n, (0, 20), (0, 120))
    assert small.naming.to_offset(small.parse("10100")) == (10, 100)
    wide = Grid(Layout("flat", 10), n, (90, 110), (0, 5))
    assert wide.naming.to_offset(wide.parse("10100")) == (101, 0)


def test_a_name_with_missing_zeros_is_not_a_hex():
    from toolkit.hexgrid import HexNameError

    with pytest.raises(HexNameError, match="not a hex name"):
        VassalNumbering().parse("55")


def test_java_polygon_rule_on_edges():
    square = ((0, 0), (10, 0), (10, 10), (0, 10))
    assert vgrid.polygon_contains(square, 0, 0) and vgrid.polygon_contains(square, 5, 5)
    assert not vgrid.polygon_contains(square, 10, 5) and not vgrid.polygon_contains(square, 5, 10)


# ---------------------------------------------------------------- the import


def test_the_folder_holds_a_loadable_game(imported):
    shape, vmod, folder, report = imported
    assert {"game.yaml", "map.yaml", "counters.yaml", "pieces.yaml", "vassal.yaml"} <= set(listing(folder))
    assert [n.split(":")[0] for n in report.notes] == (["map 'Main Map'"] if shape == "two-boards" else [])
    assert not any(p.name.startswith(".") for p in folder.parent.iterdir())   # no temporary folder left
    from toolkit.game.module import load_game

    game = load_game(str(folder))
    assert game.map.board is not None and (folder / game.map.board.image).is_file()
    assert set(game.counters) == {"rifles", "hq"}
    assert game.counters["rifles"].back is not None and game.counters["hq"].back is None


def test_every_hex_centre_is_named_by_the_boards_own_grid(imported):
    shape, vmod, folder, _ = imported
    module = read_published_module(vmod)
    boards = {(m.name, s.board.name): s.board for m in module.maps for s in m.boards}
    files = sorted(folder.glob("map*.yaml"))
    assert len(files) == (2 if shape == "two-boards" else 1)
    for path in files:
        cmap = open_map(path)
        board = boards[(cmap.board.map, cmap.board.board)]
        assert all(engine_name(cmap, board, h) == cmap.name(h) for h in cmap.grid.hex_list)
        assert cmap.grid.parse(cmap.name(cmap.grid.hex_list[-1])) == cmap.grid.hex_list[-1]


def test_zones_and_box_boards_become_boxes(imported):
    shape, _, folder, _ = imported
    game = yaml.safe_load((folder / "game.yaml").read_text())
    if shape == "lettered":
        assert game["boxes"] == ["turn_1", "turn_2", "turn_3", "turn_4"]
    if shape == "zoned":
        assert game["boxes"] == ["eliminated", "reinforcements", "turn_track"]
        assert [s["id"] for s in game["sides"]] == ["allies", "axis"]
        assert open_map(folder / "map.yaml").name(open_map(folder / "map.yaml").grid.hex_list[0]) == "Field A00"


def test_the_manifest_lists_faces_layers_and_prototypes(imported):
    _, _, folder, _ = imported
    pieces = yaml.safe_load((folder / "pieces.yaml").read_text())["pieces"]
    rifles = next(p for p in pieces if p["slot"] == "Rifles")
    assert rifles["faces"] == ["rifles.png", "rifles-back.png"]
    assert rifles["layers"] == [{"name": "Step", "images": ["rifles.png", "rifles-back.png"],
                                 "levels": ["", "+ (reduced)"]}]
    assert rifles["prototypes"] == ["Unit"] and rifles["gpid"] == "11" and rifles["counter"] == "rifles"


def test_render_draws_the_grid_over_the_board_image(imported, tmp_path, capsys):
    shape, _, folder, _ = imported
    out = tmp_path / "board.png"
    assert main(["render", str(folder / "map.yaml"), "-o", str(out), "--highlight",
                 open_map(folder / "map.yaml").name(open_map(folder / "map.yaml").grid.hex_list[3])]) == 0
    board = yaml.safe_load((folder / "map.yaml").read_text())["board"]
    with Image.open(out) as img:
        assert img.size == tuple(board["size"])
    assert main(["render", str(folder), "-o", str(tmp_path / "plain.svg"), "--no-board"]) == 0
    assert main(["render", str(folder), "-o", str(tmp_path / "x.svg")]) == 2
    assert "--no-board" in capsys.readouterr().err


def test_a_board_the_default_setup_leaves_out_gets_its_map_file_too(tmp_path):
    xml, images = vm.two_boards()
    spare = vm.board("Spare", "west.png", vm.hexgrid(60.0, 70.0, 30, 35, 'first="H" stagger="false"'))
    xml = xml.replace("</VASSAL.build.module.map.BoardPicker>", spare + "</VASSAL.build.module.map.BoardPicker>")
    folder = tmp_path / "game"
    import_module(vm.write_vmod(tmp_path / "m.vmod", (xml, images)), folder)
    spare_map = open_map(folder / "map-main-map-spare.yaml")
    assert spare_map.name(spare_map.grid.hex_list[0]) == "0101"
    record = yaml.safe_load((folder / "vassal.yaml").read_text())
    assert [b["name"] for b in record["maps"][0]["boards"]] == ["West", "East", "Spare"]
    assert [b["name"] for b in record["maps"][0]["default"]] == ["West", "East"]


def test_a_non_empty_folder_is_refused_and_left_alone(tmp_path):
    vmod = vm.write_vmod(tmp_path / "m.vmod", vm.lettered())
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "notes.txt").write_text("mine")
    r = run(["import-vmod", str(vmod), "-o", str(tmp_path / "game")])
    assert_refused(r, str(tmp_path / "game"), "not empty")
    assert listing(tmp_path / "game") == ["notes.txt"]
    assert main(["import-vmod", str(vmod), "-o", str(tmp_path / "empty")]) == 0   # a new folder is fine
    assert_refused(run(["vmod", str(tmp_path / "empty"), "-o", str(tmp_path / "x.vmod")]), "grid.naming",
                   "played with that module")


# ---------------------------------------------------------------- saves onto the imported map


def _save_on(folder, module_name: str, pieces: list[tuple[str, str, str, int, int]], legacy: bool = False) -> bytes:
    """A save (as the engine writes one) with pieces ``(id, name, map, x, y)`` and the default boards
    (``legacy``: bare BasicPieces of :func:`vassal_modules.legacy`, gpids 1 and 2)."""
    types = {"Rifles": ("piece;;;rifles.png;Rifles", "1" if legacy else "11"),
             "HQ": ("piece;;;hq.png;HQ", "2" if legacy else "12")}
    cmds = ["begin_save", ""]
    for pid, name, map_name, x, y in pieces:
        t, gpid = types[name]
        cmds.append(add_piece(pid, t, basic_state(map_name, x, y, gpid)) if legacy else
                    add_piece(pid, nest(["mark;kind"], t), nest(["unit"], basic_state(map_name, x, y, gpid))))
    record = yaml.safe_load((folder / "vassal.yaml").read_text())
    for m in record["maps"]:
        boards = "".join(f"\t{b['name']}\t{b['slot'][0]}\t{b['slot'][1]}" for b in m["default"])
        cmds.append(f"{m['name']}BoardPicker{boards}")
    cmds.append("end_save")
    md = (f'<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1.2</version>'
          f"<VassalVersion>3.6.0</VassalVersion><name>{module_name}</name></data>")
    return save_bytes("\x1b".join(cmds), moduledata=md)


def _centre(cmap, name: str, offset: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    px, py = cmap.board.pixel(*cmap.grid.layout.centre(cmap.grid.parse(name)))
    return round(px) + offset[0], round(py) + offset[1]


def test_a_save_reads_onto_the_named_hexes_and_boxes(tmp_path):
    vmod = vm.write_vmod(tmp_path / "z.vmod", vm.zoned())
    folder = tmp_path / "game"
    import_module(vmod, folder)
    cmap = open_map(folder / "map.yaml")
    pieces = [("1", "Rifles", "Campaign", *_centre(cmap, "Field C02")),
              ("2", "HQ", "Campaign", *_centre(cmap, "Field C02", (9, -7))),   # off-centre, same hex
              ("3", "HQ", "Campaign", 250, 30),                                # the turn track zone
              ("4", "Rifles", "Boxes", 40, 60),                                # the Eliminated zone
              ("5", "Rifles", "Nowhere", 10, 10)]
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Zoned Campaign", pieces))
    pf, unplaced = read_position_save(save, str(folder))
    assert sorted((u.counter, u.hex or u.box) for u in pf.units) == [
        ("hq", "Field C02"), ("hq", "turn_track"), ("rifles", "Field C02"), ("rifles", "eliminated")]
    assert [u.id for u in unplaced] == ["5"]


def test_pieces_on_another_board_are_listed_with_the_engines_name(tmp_path):
    vmod = vm.write_vmod(tmp_path / "t.vmod", vm.two_boards())
    folder = tmp_path / "game"
    import_module(vmod, folder)
    west, east = open_map(folder / "map.yaml"), open_map(folder / "map-main-map-east.yaml")
    edge = (20, 12)
    pieces = [("1", "Rifles", "Main Map", *_centre(west, "0303", edge)),
              ("2", "HQ", "Main Map", *_centre(east, "004-H", (edge[0] + 420, edge[1])))]
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Two Boards", pieces))
    pf, unplaced = read_position_save(save, str(folder))
    assert [(u.counter, u.hex) for u in pf.units] == [("rifles", "0303")]
    assert len(unplaced) == 1 and "East" in unplaced[0].reason and "'004-H'" in unplaced[0].reason


def test_a_counter_mapping_file_names_the_counters(tmp_path, capsys):
    vmod = vm.write_vmod(tmp_path / "l.vmod", vm.lettered())
    folder = tmp_path / "game"
    import_module(vmod, folder)
    cmap = open_map(folder / "map.yaml")
    name = cmap.name(cmap.grid.hex_list[5])
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Lettered", [("1", "Rifles", "Sector Map", *_centre(cmap, name))]))
    mapping = tmp_path / "counters.yaml"
    mapping.write_text("Rifles: hq\n")
    out = tmp_path / "pos.yaml"
    assert main(["vsav", "read", str(save), "--game", str(folder), "--counters", str(mapping), "-o", str(out)]) == 0
    assert yaml.safe_load(out.read_text())["units"] == [{"id": "hq-1", "counter": "hq", "hex": name}]
    mapping.write_text("Rifles: tanks\n")
    r = run(["vsav", "read", str(save), "--game", str(folder), "--counters", str(mapping), "-o", str(out)])
    assert_refused(r, str(mapping), "Rifles", "'tanks' is not a counter")


# ---------------------------------------------------------------- hostile modules


def _module_with(tmp_path, entries: dict[str, bytes | str], name: str = "bad.vmod"):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for entry, data in entries.items():
            z.writestr(entry, data)
    return path


def _refused(tmp_path, vmod, *needles):
    r = run(["import-vmod", str(vmod), "-o", str(tmp_path / "out")])
    assert_refused(r, str(vmod), *needles)
    assert not (tmp_path / "out").exists()
    assert not any(p.name.startswith(".out.") for p in tmp_path.iterdir())


def test_traversal_entry_refused(tmp_path):
    xml, _ = vm.lettered()
    _refused(tmp_path, _module_with(tmp_path, {"buildFile.xml": xml, "../../evil.png": b"x"}), "'..'")


def test_entity_expansion_refused(tmp_path):
    bomb = ('<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            '<VASSAL.build.GameModule name="&b;"/>')
    _refused(tmp_path, _module_with(tmp_path, {"buildFile.xml": bomb}), "DOCTYPE")


def test_oversized_build_file_refused(tmp_path):
    xml, _ = vm.lettered()
    big = xml.replace("</VASSAL.build.GameModule>", "<!--" + " " * (65 << 20) + "--></VASSAL.build.GameModule>")
    _refused(tmp_path, _module_with(tmp_path, {"buildFile.xml": big}), "buildFile.xml", "over the limit")


def test_board_image_of_absurd_size_refused(tmp_path):
    xml, _ = vm.lettered()
    buf = io.BytesIO()
    Image.new("1", (1, 1)).save(buf, "PNG")
    png = bytearray(buf.getvalue())
    png[16:24] = (100_000).to_bytes(4, "big") * 2   # IHDR width and height: 100,000 x 100,000 pixels
    import zlib

    png[29:33] = zlib.crc32(bytes(png[12:29])).to_bytes(4, "big")
    _refused(tmp_path, _module_with(tmp_path, {"buildFile.xml": xml, "images/sector.png": bytes(png)}), "sector.png")


def test_a_non_module_refused(tmp_path):
    _refused(tmp_path, _module_with(tmp_path, {"readme.txt": "hello"}, "plain.vmod"), "no buildFile.xml")


def test_a_grid_the_engine_drops_is_refused_with_the_attribute(tmp_path):
    xml, images = vm.lettered()
    _refused(tmp_path, vm.write_vmod(tmp_path / "x0.vmod", (xml.replace('x0="70"', 'x0="70.5"'), images)),
             "HexGrid x0", "'70.5'")


# ---------------------------------------------------------------- modules as they are found in the wild (issue 23)


def _wild(tmp_path, shape: str):
    vmod = vm.write_vmod(tmp_path / f"{shape}.vmod", vm.WILD[shape]())
    return vmod, tmp_path / "game", import_module(vmod, tmp_path / "game")


def test_a_legacy_basic_piece_state_reads_missing_tokens_as_the_engines_defaults():
    from toolkit.vassal.engine.pieces import parse_add_piece

    p = parse_add_piece("+/null/piece;;;a.png;A/null;0;0")   # BasicPiece.setState: nextToken(""), nextInt(0)
    assert (p.map, p.x, p.y, p.gpid, p.persistent) == (None, 0, 0, "", {})
    assert parse_add_piece("+/7/piece;;;a.png;A/Main;5").x == 5


def test_an_older_module_imports_with_its_legacy_pieces_and_a_missing_image(tmp_path):
    vmod, folder, report = _wild(tmp_path, "legacy")
    assert read_published_module(vmod).name == "Legacy"                   # root VASSAL.launch.BasicModule
    assert [p["counter"] for p in yaml.safe_load((folder / "pieces.yaml").read_text())["pieces"]] == ["rifles", "hq"]
    assert report.notes == ["Map 'Charts' Board 'Charts' image: 'charts.png' is missing from the module (no entry "
                            "'images/charts.png'); the board is kept blank and 0 x 0 pixels, as VASSAL shows it"]
    record = yaml.safe_load((folder / "vassal.yaml").read_text())
    assert record["maps"][1]["boards"] == [{"name": "Charts", "image": "", "size": [0, 0], "grid": None,
                                            "map_file": None}]


def test_a_missing_main_board_image_gives_a_blank_stand_in_with_a_warning(tmp_path):
    """The engine shows a board without its image 0 x 0 pixels; the import lays the grid on a blank stand-in
    covering 30 columns and 20 rows of it (the board's width and height, when it has them), and says so."""
    xml, images = vm.legacy()
    del images["main.png"]
    report = import_module(vm.write_vmod(tmp_path / "m.vmod", (xml, images)), tmp_path / "game")
    w, h = 30 + 50 * 30, 36 + 58 * 20.5   # x0 + 30 dx, y0 + 20.5 dy
    assert report.notes[0] == (
        "Map 'Main Map' Board 'Main' image: 'main.png' is missing from the module (no entry 'images/main.png'); "
        f"warning: the board is a blank stand-in of {w} x {round(h)} pixels (VASSAL shows it 0 x 0, every point "
        "'offboard'): put the real image in the game folder's images/ and its size in the map file's board.size")
    board = yaml.safe_load((tmp_path / "game" / "map.yaml").read_text())["board"]
    assert board["size"] == [w, round(h)] and board["image"] == "images/main.png"
    with Image.open(tmp_path / "game" / "images" / "main.png") as img:
        assert img.size == (w, round(h))
    assert open_map(tmp_path / "game" / "map.yaml").name(open_map(tmp_path / "game" / "map.yaml").grid.hex_list[0]) \
        == "0101"
    sized = xml.replace('image="main.png"', 'image="main.png" width="300" height="200"')
    report = import_module(vm.write_vmod(tmp_path / "s.vmod", (sized, images)), tmp_path / "sized")
    assert "a blank stand-in of 300 x 200 pixels" in report.notes[0]


def test_an_unnumbered_hex_grid_is_named_as_vassals_default_numbering_would(tmp_path):
    _, folder, report = _wild(tmp_path, "unnumbered")
    assert len(report.notes) == 1 and "'offboard'" in report.notes[0] and "toolkit's making" in report.notes[0]
    cmap = open_map(folder / "map.yaml")
    assert [cmap.name(h) for h in cmap.grid.hex_list[:3]] == ["0101", "0102", "0103"]
    assert cmap.name(cmap.grid.hex_list[len(cmap.grid.hex_list) // 2]) == "0501"   # column 5, staggered


def test_square_grids_are_named_as_the_engine_names_them():
    n = VassalNumbering(stagger=False, h_off=0, v_off=0, h_leading=0, v_leading=0)
    sq = vgrid.SquareGrid(40.0, 50.0, 20, 25, numbering=n)
    assert sq.location_name(20, 25) == "00" and sq.location_name(41, 50) == "11"
    assert sq.raw(-50, -30) == (-2, 0)          # the row is truncated towards zero, the column floored
    assert sq.snap(33, 44) == (20, 25) and sq.snap(45, 52) == (60, 75)
    assert vgrid.grid_from_dict(vgrid.grid_to_dict(sq)) == sq


def test_square_zone_cells_become_boxes_named_with_their_cell(tmp_path):
    vmod, folder, _ = _wild(tmp_path, "square-zones")
    record = load_record(folder)
    track = sorted(n for n in record.boxes if n.startswith("Endurance"))
    assert track[:3] == ["Endurance 0008", "Endurance 0018", "Endurance 0028"] and len(track) == 13   # 0128: a part cell
    assert sorted(n for n in record.boxes if n.startswith("Box")) == [
        f"Box {r}-{c}" for r in "BCD" for c in "2345"]   # both descending, from the zone's size
    lay = read_published_module(vmod).maps[0].layout()
    assert lay.location_name(100, 30) == "Endurance 0028"
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Square Zones", [("1", "Rifles", "Campaign", 100, 30),
                                                       ("2", "HQ", "Campaign", 330, 360),
                                                       ("3", "HQ", "Tactical", 45, 45)]))
    pf, unplaced = read_position_save(save, str(folder))
    assert sorted((u.counter, u.box) for u in pf.units) == [("hq", "box_d_5"), ("rifles", "endurance_0028")]
    assert [u.id for u in unplaced] == ["3"] and "'C-08'" in unplaced[0].reason   # the square map, named


def test_a_module_of_square_grids_only_is_refused_saying_why(tmp_path):
    xml, images = vm.square_zones()
    start = xml.index('<VASSAL.build.module.Map ')
    xml = xml[:start] + xml[xml.index("</VASSAL.build.module.Map>") + len("</VASSAL.build.module.Map>"):]
    _refused(tmp_path, vm.write_vmod(tmp_path / "sq.vmod", (xml, images)), "SquareGrid", "hexes only")


def test_an_imported_game_gets_the_rules_assistant(tmp_path, capsys):
    """The starter rules.yaml: moves, check of a position, of a save and of a log of the published module, and
    the viewer's map over the published board image."""
    from toolkit.vassal.saves.logfile import log_bytes, move_piece_command

    vmod, folder, _ = _wild(tmp_path, "legacy")
    cmap = open_map(folder / "map.yaml")
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Legacy", [("1", "Rifles", "Main Map", *_centre(cmap, "0303")),
                                                 ("2", "HQ", "Main Map", *_centre(cmap, "0305"))], legacy=True))
    out = tmp_path / "pos.yaml"
    assert main(["vsav", "read", str(save), "--game", str(folder), "-o", str(out)]) == 0
    units = yaml.safe_load(out.read_text())["units"]
    assert [(u["counter"], u["hex"]) for u in units] == [("rifles", "0303"), ("hq", "0305")]
    capsys.readouterr()
    assert main(["moves", str(out), units[0]["id"], "--game", str(folder), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    reach = {d["hex"] for d in moves["destinations"]}
    assert "0703" in reach and "0803" not in reach   # 4 MP at 1 each (the starter): four hexes, not five
    assert main(["check", str(out), "--game", str(folder)]) == 0
    assert main(["check", str(save), "--game", str(folder)]) == 0
    x, y = _centre(cmap, "0303")
    log = tmp_path / "g.vlog"
    log.write_bytes(log_bytes(save, [[move_piece_command("1", "Main Map", *_centre(cmap, "0306"), None,
                                                         "Main Map", x, y, None)]]))
    assert main(["check", str(log), "--game", str(folder)]) == 0
    far = tmp_path / "far.vlog"
    far.write_bytes(log_bytes(save, [[move_piece_command("1", "Main Map", *_centre(cmap, "0803"), None,
                                                         "Main Map", x, y, None)]]))
    assert main(["check", str(far), "--game", str(folder)]) == 1


def test_the_viewer_draws_an_imported_map_over_its_board_image(tmp_path):
    from starlette.testclient import TestClient

    from toolkit.web import SourceBook, create_app

    _, folder, _ = _wild(tmp_path, "legacy")
    book = SourceBook(str(folder))
    sid = next(s for s in book.sources if s.startswith("map:") and folder.name in s)
    with TestClient(create_app(book)) as c:
        svg = c.get("/api/map.svg", params={"source": sid}).text
    assert '<image' in svg and 'class="board"' in svg and "data:image/png;base64," in svg
    assert 'fill-opacity="0.25"' in svg


# ---------------------------------------------------------------- boards joined into one map


def test_boards_that_continue_one_grid_join_into_one_map_and_image(tmp_path):
    from PIL import Image

    from toolkit.vassal.published.importer import joined_boards

    vmod, folder, report = _wild(tmp_path, "quartered")
    assert sorted(report.hexes) == ["map.yaml"] and not report.notes
    cmap = open_map(folder / "map.yaml")
    with Image.open(folder / cmap.board.image) as img:
        assert img.size == (800, 696)
    joined = joined_boards(read_published_module(vmod).maps[0])
    assert all(engine_name(cmap, joined, h) == cmap.name(h) for h in cmap.grid.hex_list)
    assert {"0101", "0901", "0107", "1611"} <= {cmap.name(h) for h in cmap.grid.hex_list}
    assert yaml.safe_load((folder / "vassal.yaml").read_text())["main"]["boards"] == ["NW", "NE", "SW", "SE"]


def test_a_save_reads_with_pieces_on_every_joined_board(tmp_path):
    _, folder, _ = _wild(tmp_path, "quartered")
    cmap = open_map(folder / "map.yaml")
    hexes = ["0202", "0308", "1003", "1511"]   # one on each board
    pieces = [(str(i), "Rifles", "Main Map", *_centre(cmap, h, (20, 12))) for i, h in enumerate(hexes)]
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Quartered", pieces))
    pf, unplaced = read_position_save(save, str(folder))
    assert sorted(u.hex for u in pf.units) == hexes and not unplaced


def test_boards_over_the_joined_image_limit_stay_apart(tmp_path, monkeypatch):
    from toolkit.vassal.published import joined

    monkeypatch.setattr(joined, "MAX_JOINED_PIXELS", 800 * 696 - 1)   # the four boards: 800 x 696 pixels
    _, _, report = _wild(tmp_path, "quartered")
    assert len(report.hexes) == 4 and "not joined into one map" in report.notes[0]


def test_boards_whose_names_restart_stay_apart(tmp_path):
    xml, images = vm.quartered()
    vmod = vm.write_vmod(tmp_path / "r.vmod", (xml.replace('hOff="9"', 'hOff="1"'), images))
    report = import_module(vmod, tmp_path / "game")
    assert len(report.hexes) == 4 and "not joined into one map" in report.notes[0]


# ---------------------------------------------------------------- what real published modules showed


def test_a_module_extension_is_refused_naming_the_module_it_extends(tmp_path):
    ext = '<VASSAL.build.module.ModuleExtension module="VASL" version="0.9" vassalVersion="3.7.22"/>'
    _refused(tmp_path, _module_with(tmp_path, {"buildFile.xml": ext}), "module extension", "'VASL'")


def test_svg_board_images_are_sized_from_their_svg_element(tmp_path):
    """The engine draws SVG boards (The Longest Day's displays): width and height in units, else the viewBox."""
    from toolkit.vassal.published.moduleread import svg_size

    assert svg_size(b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="775" height="625.5">') \
        == (775, 626)
    assert svg_size(b'<svg width="2in" height="25.4mm">') == (192, 96)
    assert svg_size(b'<svg width="100%" viewBox="0 0 300 200">') == (300, 200)
    xml, images = vm.lettered()
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="250" height="80"><rect width="250" height="80"/></svg>'
    vmod = vm.write_vmod(tmp_path / "svg.vmod", (xml.replace('"track.png"', '"track.svg"'), images),
                         {"images/track.svg": svg})
    module = read_published_module(vmod)
    track = next(m for m in module.maps if m.name == "Turn Track").boards[0].board
    assert (track.width, track.height) == (250, 80)
    _refused(tmp_path, vm.write_vmod(tmp_path / "bad.vmod", (xml.replace('"track.png"', '"track.svg"'), images),
                                     {"images/track.svg": b"<svg/>"}), "track.svg", "no width and height")


def test_a_map_in_a_chart_window_is_read(tmp_path):
    """A ``WidgetMap`` (a map in a chart window's tab): its zones are boxes, as any map's."""
    xml, images = vm.zoned()
    start = xml.index('<VASSAL.build.module.Map ', xml.index('mapName="Campaign"'))
    end = xml.index("</VASSAL.build.module.Map>", start)
    xml = (xml[:start] + xml[start:end].replace("VASSAL.build.module.Map ", "VASSAL.build.widget.WidgetMap ", 1)
           + "</VASSAL.build.widget.WidgetMap>" + xml[end + len("</VASSAL.build.module.Map>"):])
    report = import_module(vm.write_vmod(tmp_path / "w.vmod", (xml, images)), tmp_path / "game")
    assert "eliminated" in yaml.safe_load((report.folder / "game.yaml").read_text())["boxes"]


def test_a_module_of_region_grids_is_refused_saying_what_its_boards_hold(tmp_path):
    _refused(tmp_path, vm.write_vmod(tmp_path / "r.vmod", vm.regions()), "1 RegionGrid", "hexes only")


# ---------------------------------------------------------------- setups as scenarios, sides (issue 34)


@pytest.fixture(scope="module")
def sided(tmp_path_factory):
    d = tmp_path_factory.mktemp("sided")
    vmod = vm.write_vmod(d / "sided.vmod", vm.sided(), vm.sided_setups())
    return vmod, d / "game", import_module(vmod, d / "game")


def test_sides_come_from_properties_prototypes_folders_and_elimination(sided):
    _, folder, _ = sided
    counters = {c["id"]: c["side"] for c in yaml.safe_load((folder / "counters.yaml").read_text())["counters"]}
    assert counters == {"infantry": "allies", "infantry-2": "germans", "panzer": "germans", "tank": "allies",
                        "jaeger": "germans", "event": "allies"}
    how = {p["counter"]: (p["side"]["how"], p["side"]["from"])
           for p in yaml.safe_load((folder / "pieces.yaml").read_text())["pieces"]}
    assert how == {"infantry": ("elimination", "American"), "infantry-2": ("palette folder", "German"),
                   "panzer": ("palette folder", "German"), "tank": ("prototype", "Allies"),
                   "jaeger": ("property", "Faction=Germans"), "event": ("not worked out", "")}
    readme = (folder / "README.md").read_text()
    assert "- Allies (`allies`): 3 counters: 1 by prototype ('Allies'); 1 by elimination ('American'); " \
           "1 by not worked out" in readme
    assert "- Germans (`germans`): 3 counters: 1 by property ('Faction=Germans'); 2 by palette folder ('German')" \
        in readme


def test_names_that_name_a_side():
    from toolkit.vassal.published.sides import names_side

    sides = [("allies", "Allies"), ("germans", "Germans"), ("central-powers", "Central Powers")]
    assert [names_side(n, sides) for n in ("German", "Allied", "ALLIES", "central_powers", "Central", "cp", "Art",
                                           "American", "")] == \
        ["germans", "allies", "allies", "central-powers", "central-powers", "central-powers", None, None, None]


def test_every_setup_of_nested_menus_becomes_a_scenario(sided):
    vmod, folder, report = sided
    assert sorted(p.name for p in (folder / "scenarios").iterdir()) == ["day-1.yaml", "north.yaml"]
    lay = read_published_module(vmod).maps[0].layout()
    day1 = yaml.safe_load((folder / "scenarios" / "day-1.yaml").read_text())
    assert day1["scenario"] == "Day 1" and day1["game"] == "game"
    want = {"1": "infantry", "2": "infantry-2", "3": "tank", "4": "jaeger", "5": "panzer"}
    assert sorted((u["counter"], u["hex"]) for u in day1["units"]) == sorted(
        (want[pid], lay.location_name(*vm.sided_centre(*cr))) for pid, _, cr, _ in vm.DAY1)
    readme = (folder / "README.md").read_text()
    assert "| Scenarios > Campaign > Day 1 | scenarios/day-1.yaml | 5 | 3 |" in readme
    assert "| Scenarios > North | scenarios/north.yaml | 2 | 0 |" in readme
    assert main(["check", str(folder / "scenarios" / "day-1.yaml"), "--game", str(folder)]) == 0
    assert main(["moves", str(folder / "scenarios" / "day-1.yaml"), day1["units"][0]["id"], "--game", str(folder),
                 "--json"]) == 0


def test_a_piece_too_deep_is_skipped_with_a_note_and_the_rest_read(sided):
    _, folder, report = sided
    deep = [n for n in report.notes if "'99'" in n]
    assert len(deep) == 1 and "more than 64 trait levels" in deep[0] and "skipped" in deep[0]
    assert "# skipped: piece '99'" in (folder / "scenarios" / "day-1.yaml").read_text()


def test_decks_are_listed_as_decks(sided):
    _, folder, _ = sided
    head = (folder / "scenarios" / "day-1.yaml").read_text().split("\ngame:")[0]
    assert "piece '90' 'Events' at 'Main Map'@(380,320): a deck of 2 cards" in head
    assert head.count("a card in the deck 'Events'") == 2 and "unknown counter" not in head


def test_a_part_board_is_read_onto_the_main_maps_hexes(sided):
    vmod, folder, report = sided
    assert "map 'Main Map' board 'North': its hexes are named with the main map's hex names" in "\n".join(report.notes)
    assert yaml.safe_load((folder / "vassal.yaml").read_text())["main"]["parts"] == [{"map": "Main Map",
                                                                                     "board": "North"}]
    lay = read_published_module(vmod).maps[0].layout()
    north = yaml.safe_load((folder / "scenarios" / "north.yaml").read_text())
    assert sorted(u["hex"] for u in north["units"]) == sorted(lay.location_name(*vm.sided_centre(*cr))
                                                             for _, _, cr in vm.NORTH)


def test_a_plain_text_and_a_missing_setup_are_left_out_saying_why(sided):
    _, _, report = sided
    old = next(n for n in report.notes if "'Scenarios > Old'" in n)
    assert "VASSAL 2.9 plain-text save" in old and "VASSAL 3 refuses it too" in old and "left out" in old
    assert any("'Scenarios > Gone'" in n and "no such entry" in n for n in report.notes)


def test_a_save_piece_without_a_gpid_is_matched_by_name_and_image(sided):
    from toolkit.vassal.published.matching import slot_keys

    _, folder, _ = sided
    keys = slot_keys(yaml.safe_load((folder / "pieces.yaml").read_text())["pieces"])
    assert keys[("Infantry", "inf-ger.png")] == "infantry-2" and keys[("Panzer", "")] == "panzer"
    assert ("Infantry", "") not in keys   # two slots share the name: the image decides


def test_setup_caps_follow_the_modules_size_up_to_the_ceilings():
    from toolkit.vassal.published.moduleread import PieceDef, PublishedModule
    from toolkit.vassal.published.setups import MAX_SETUP_CHARS, MAX_SETUP_TRAITS, setup_limits
    from toolkit.vassal.saves.savefile import SaveLimits

    small = setup_limits(PublishedModule("m", "m", "1", size=1000))
    assert (small.max_chars, small.max_traits, small.max_pieces) == (SaveLimits().max_chars, 64, 20_000)
    deep = [PieceDef("s", "s", "1", "", traits=("mark",) * 90)]
    big = setup_limits(PublishedModule("m", "m", "1", pieces=deep, size=10 << 20))
    assert (big.max_chars, big.max_traits, big.max_pieces) == (10 << 20, 180, (10 << 20) // 100)
    huge = setup_limits(PublishedModule("m", "m", "1", pieces=deep * 2 + [PieceDef("t", "t", "2", "",
                                                                                    traits=("x",) * 200)],
                                        size=1 << 40))
    assert (huge.max_chars, huge.max_traits) == (MAX_SETUP_CHARS, MAX_SETUP_TRAITS) and huge.skip_bad_pieces


@pytest.mark.parametrize("game", ["jerusalem-1948", "no-prisoners", "siege-of-jerusalem"])
def test_our_own_modules_imported_as_published_give_both_sides_and_every_scenario(tmp_path, game):
    """A module built by `toolkit vmod` read as a stranger's: each counter on its game's side (markers, which
    have none, aside), every scenario a position with every unit on its hex or in its box."""
    from toolkit.game import load_game
    from toolkit.game.position import load_position

    vmod = tmp_path / f"{game}.vmod"
    assert main(["vmod", game, "-o", str(vmod)]) == 0
    folder = tmp_path / "game"
    import_module(vmod, folder)
    own = load_game(game)
    imported = yaml.safe_load((folder / "counters.yaml").read_text())["counters"]
    their_sides = {s["id"]: s["name"] for s in yaml.safe_load((folder / "game.yaml").read_text())["sides"]}
    by_name = {c.name: c for c in own.counters.values()}
    side_name = {s.id: s.name for s in own.spec.sides}
    units = sorted((c["name"], their_sides[c["side"]]) for c in imported if c["name"] in by_name)
    assert units == sorted((c.name, side_name[c.side]) for c in own.counters.values())
    assert len({side for _, side in units}) == 2
    scenarios = sorted(p.stem for p in (own.folder / "scenarios").glob("*.yaml"))
    written = sorted(p.stem for p in (folder / "scenarios").glob("*.yaml"))
    assert written == scenarios
    game = load_game(str(folder))
    for stem in scenarios:
        mine = load_position(own.folder / "scenarios" / f"{stem}.yaml")
        theirs = load_position(folder / "scenarios" / f"{stem}.yaml", game)
        placed = sorted((u.counter.name, game.map.name(u.hex) if u.hex else "", u.box is not None)
                        for u in theirs.units if u.counter.name in by_name)
        assert placed == sorted((u.counter.name, own.map.name(u.hex) if u.hex else "", u.box is not None)
                                for u in mine.units)


@pytest.mark.parametrize("fmt, first", [("$name$", "0102"), ("$gridLocation$", "0102"),
                                        ("Field $gridLocation$", "Field 0102")])
def test_a_zone_hex_grid_without_a_numbering_is_named_and_said_so(tmp_path, fmt, first):
    """The engine names a zone's point by the zone's format with no grid location ('Battlefield', '' or
    'Field '): the import names the hexes as VASSAL's default numbering would, in the zone's format where it
    has a grid location, and a save's pieces in the zone are read onto those hexes."""
    vmod = vm.write_vmod(tmp_path / "z.vmod", vm.zone_unnumbered(fmt))
    engine = vm_zone_name = fmt.replace("$name$", "Battlefield").replace("$gridLocation$", "")
    assert read_published_module(vmod).maps[0].layout().location_name(130, 160) == vm_zone_name
    folder = tmp_path / "game"
    report = import_module(vmod, folder)
    assert report.notes == [f"board 'Main': zone 'Battlefield': VASSAL names every point of it {engine!r} (its HexGrid "
                            "has no numbering); the toolkit names its hexes as VASSAL's default HexGridNumbering "
                            "would (0101, 0202 ...)" + (", without the zone's name" if fmt == "$name$" else "")
                            + ": names of the toolkit's making"]
    cmap = open_map(folder / "map.yaml")
    assert cmap.name(cmap.grid.hex_list[0]) == first
    assert yaml.safe_load((folder / "game.yaml").read_text())["boxes"] == ["turn_track"]
    save = tmp_path / "s.vsav"
    save.write_bytes(_save_on(folder, "Zone Unnumbered", [("1", "Rifles", "Main Map", *_centre(cmap, first)),
                                                          ("2", "HQ", "Main Map", 200, 30)]))
    pf, unplaced = read_position_save(save, str(folder))
    assert sorted((u.counter, u.hex or u.box) for u in pf.units) == [("hq", "turn_track"), ("rifles", first)]


def test_a_module_whose_hex_grids_make_no_map_is_refused_saying_why_of_each(tmp_path):
    xml, images = vm.zone_unnumbered("$name$ $gridLocation$")
    _refused(tmp_path, vm.write_vmod(tmp_path / "d.vmod", (xml.replace('name="Battlefield"', 'name="Field $x$"'),
                                                            images)),
             "no board of the module has a hex grid to make a map of (its boards' grids: 1 HexGrid): board 'Main' "
             "zone 'Field $x$': a '$' in the zone's name")
    xml, images = vm.legacy()
    _refused(tmp_path, vm.write_vmod(tmp_path / "o.vmod", (xml.replace('dy="58.0"', 'dy="5000.0"'),
                                                            images)),
             "(its boards' grids: 1 HexGrid): board 'Main': its HexGrid has no hex centre on the board")


def test_a_plain_text_save_is_refused_saying_the_engine_refuses_it_too(tmp_path):
    _, folder, _ = _wild(tmp_path, "legacy")
    old = tmp_path / "old.vsav"
    old.write_bytes(b"!VCSK00" + "begin_save\x1bend_save".encode().hex().encode())
    assert_refused(run(["vsav", "read", str(old), "--game", str(folder), "-o", str(tmp_path / "p.yaml")]), str(old),
                   "VASSAL 2.9 plain-text save", "VASSAL 3 refuses it too")


def test_a_region_grid_of_one_region_per_hex_is_read_as_hexes(tmp_path):
    """Regions at the hex centres of one lattice, named with letter columns and diagonal numbers: a hex map in
    the toolkit's diagonal scheme, every hex centre named as the engine names it (its nearest region), the
    regions no boxes; a region grid whose points are off the lattice stays refused."""
    vmod = vm.write_vmod(tmp_path / "r.vmod", vm.region_hexes())
    folder = tmp_path / "game"
    report = import_module(vmod, folder)
    assert report.notes == [] and report.hexes == {"map.yaml": 48}
    cmap = open_map(folder / "map.yaml")
    assert yaml.safe_load((folder / "map.yaml").read_text())["grid"]["naming"] == {"scheme": "diagonal",
                                                                                   "shifted": "odd"}
    board = read_published_module(vmod).maps[0].boards[0].board
    assert all(engine_name(cmap, board, h) == cmap.name(h) for h in cmap.grid.hex_list)
    assert {"C5", "D6", "J7"} <= {cmap.name(h) for h in cmap.grid.hex_list}
    assert yaml.safe_load((folder / "game.yaml").read_text())["boxes"] == ["dead"]
    xml, images = vm.region_hexes()
    moved = xml.replace('originx="86" originy="128"', 'originx="90" originy="128"')
    assert moved != xml
    _refused(tmp_path, vm.write_vmod(tmp_path / "m.vmod", (moved, images)), "1 RegionGrid", "hexes only")


def test_a_setup_over_the_caps_is_left_out_and_the_others_written(tmp_path, monkeypatch):
    from toolkit.vassal.published import setups

    monkeypatch.setattr(setups, "MAX_SAVED_GAME_BYTES", 600)
    monkeypatch.setattr(setups, "MAX_SETUP_CHARS", 600)   # north.vsav fits, day1.vsav (its deep piece) does not
    report = import_module(vm.write_vmod(tmp_path / "s.vmod", vm.sided(), vm.sided_setups()), tmp_path / "game")
    assert sorted(p.name for p in (tmp_path / "game" / "scenarios").iterdir()) == ["north.yaml"]
    day1 = next(n for n in report.notes if "'Scenarios > Campaign > Day 1'" in n)
    assert "over the limit of 1216" in day1 and day1.endswith("; left out")   # 2 x 600 hex digits and a header


def test_too_many_setups_or_sides_are_refused(tmp_path):
    xml, images = vm.sided()
    many = "".join(f'<VASSAL.build.module.PredefinedSetup file="s{i}.vsav" isMenu="false" name="S{i}" useFile="true"/>'
                   for i in range(995))   # and the six of the module: menus count too
    _refused(tmp_path, vm.write_vmod(tmp_path / "s.vmod", (xml.replace("</VASSAL.build.GameModule>",
                                                                       many + "</VASSAL.build.GameModule>"), images)),
             "1,001 predefined setups, over the limit of 1,000")
    sides = "".join(f"<entry>Side {i}</entry>" for i in range(101))
    _refused(tmp_path, vm.write_vmod(tmp_path / "r.vmod", (xml.replace("<entry>Germans</entry>", sides), images)),
             "102 player sides, over the limit of 100")


def test_the_viewer_offers_the_imported_scenarios(sided):
    from starlette.testclient import TestClient

    from toolkit.web import SourceBook, create_app

    _, folder, _ = sided
    book = SourceBook(str(folder))
    sid = "game:game/day-1.yaml"
    assert {sid, "game:game/north.yaml"} <= set(book.sources)
    with TestClient(create_app(book)) as c:
        r = c.get("/api/position.yaml", params={"source": sid})
    assert r.status_code == 200 and len(yaml.safe_load(r.text)["units"]) == 5


def test_without_a_roster_the_sides_are_the_values_of_the_side_property(tmp_path):
    """Our Jerusalem! module with its PlayerRoster taken out: the sides are the values of the pieces' `side`
    property (in order of appearance), every unit on its side; a module with neither has one side."""
    import re

    vmod = tmp_path / "j.vmod"
    assert main(["vmod", "jerusalem-1948", "-o", str(vmod)]) == 0
    bare = tmp_path / "bare.vmod"
    with zipfile.ZipFile(vmod) as src, zipfile.ZipFile(bare, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "buildFile.xml":
                data = re.sub(rb"<VASSAL.build.module.PlayerRoster.*?</VASSAL.build.module.PlayerRoster>", b"", data,
                              flags=re.S)
            dst.writestr(info, data)
    import_module(bare, tmp_path / "game")
    game = yaml.safe_load((tmp_path / "game" / "game.yaml").read_text())
    assert [s["id"] for s in game["sides"]] == ["jewish", "arab"]
    assert "Sides: the values of the pieces' 'side' property (the module has no PlayerRoster)." in \
        (tmp_path / "game" / "README.md").read_text()
    (tmp_path / "x").mkdir()
    _, folder, _ = _wild(tmp_path / "x", "legacy")
    assert [s["id"] for s in yaml.safe_load((folder / "game.yaml").read_text())["sides"]] == ["players"]


def test_a_setup_the_game_would_refuse_is_left_out(tmp_path):
    """A setup whose piece carries a unit id no position may hold (a backslash): left out with a note, so
    every scenario written opens."""
    from test_hostile_support import save_bytes

    bad = vm.add_piece("7", vm.nest(["mark;unit"], "piece;;;tank.png;Tank"), vm.nest(["a\\\\b"], "Main Map;100;100;43;0"))
    setups = {**vm.sided_setups(), "day1.vsav": save_bytes(f"begin_save\x1b{bad}\x1bend_save")}
    report = import_module(vm.write_vmod(tmp_path / "s.vmod", vm.sided(), setups), tmp_path / "game")
    assert sorted(p.name for p in (tmp_path / "game" / "scenarios").iterdir()) == ["north.yaml"]
    note = next(n for n in report.notes if "'Scenarios > Campaign > Day 1'" in n)
    assert "not a position of the game" in note and note.endswith("; left out")


@pytest.mark.parametrize("reversible, turned", [("false", False), ("true", True)])
def test_a_board_is_turned_by_the_default_setup_only_when_it_is_reversible(tmp_path, reversible, turned):
    """``West/rev`` in the BoardPicker's setup turns West only when the board is ``reversible`` (the engine's
    ``Board.setReversed`` ignores it otherwise)."""
    xml, images = vm.two_boards()
    xml = xml.replace('name="West" reversible="false"', f'name="West" reversible="{reversible}"')
    vmod = vm.write_vmod(tmp_path / "m.vmod", (xml.replace("BoardPicker\tWest\t", "BoardPicker\tWest/rev\t"), images))
    (main_map,) = [m for m in read_published_module(vmod).maps if any(b.board.name == "West" for b in m.boards)]
    assert [(b.board.name, b.reversed) for b in main_map.boards if b.board.name == "West"] == [("West", turned)]
