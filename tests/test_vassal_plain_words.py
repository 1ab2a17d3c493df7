"""Issue 21, plain words in the module: no phase id where a player reads text, the mouse-over viewer names a
hex's place and terrain (a zone per named place over the unchanged grid), place names printed where a counter
leaves them readable, the boxes board leaves room for the window's scrollbar."""
from __future__ import annotations

import pytest
from lxml import etree

from toolkit.game.module import load_game
from toolkit.vassal.build.buildfile import HEX_SUMMARY
from toolkit.vassal.build.module import module_files
from toolkit.vassal.design.board import board_layout, hex_centre, hex_label
from toolkit.vassal.design.boxes import MARGIN, SCROLLBAR_ROOM, boxes_layout
from toolkit.vassal.design.counters import COUNTER_SIZE
from toolkit.vassal.design.piecedefs import BOXES_MAP
from toolkit.render.png import text_font
from toolkit.render.scene import PLACE_EDGE_DX, PLACE_EDGE_DY, build_scene

GRID = "VASSAL.build.module.map.boardPicker.board."


@pytest.fixture(scope="module")
def jerusalem():
    game = load_game("jerusalem-1948")
    return game, board_layout(game.map), etree.fromstring(module_files(game)["buildFile.xml"])


def test_every_hex_with_a_place_or_terrain_is_a_zone_the_viewer_names(jerusalem):
    game, board, root = jerusalem
    zoned = root.find(f".//{GRID}ZonedGrid")
    assert zoned.getparent().tag == "VASSAL.build.module.map.boardPicker.Board"
    assert zoned.find(GRID + "HexGrid") is not None
    zones = zoned.findall(GRID + "mapgrid.Zone")
    assert len(zones) == len(board.zones) == len([h for h in game.map.grid.hex_list if hex_label(game.map, h)])
    assert len(zones) > len(game.map.places)
    hulda = next(z for z in zones if z.get("name").startswith("Hulda"))
    assert (hulda.get("name"), hulda.get("locationFormat"), hulda.get("useParentGrid")) == \
        ("Hulda (Clear, Village)", "$gridLocation$", "true")
    viewer = root.find(".//VASSAL.build.module.map.CounterDetailViewer")
    assert viewer.get("summaryReportFormat") == viewer.get("emptyHexReportForma") == HEX_SUMMARY \
        == "$LocationName$ $CurrentZone$"
    boxes_viewer = root.findall(".//VASSAL.build.module.map.CounterDetailViewer")[1]
    assert boxes_viewer.get("summaryReportFormat") == "$LocationName$ $enters$"   # issue 35: entry hexes
    assert boxes_viewer.get("emptyHexReportForma") == "$LocationName$"


def test_zones_leave_every_hex_name_as_the_grid_gives_it(jerusalem):
    game, board, _ = jerusalem
    cmap = game.map
    for h in cmap.grid.hex_list:
        px, py = hex_centre(board, cmap, h)
        assert board.location_name(px, py) == cmap.name(h)
        assert board.zone_name(px, py) == hex_label(cmap, h)


def test_place_names_lie_below_the_counter_on_the_vassal_board(jerusalem):
    game, board, _ = jerusalem
    layout = game.map.grid.layout
    half_counter = COUNTER_SIZE / 2 / board.scale          # map units
    half_hex = layout.size * 3 ** 0.5 / 2
    assert half_counter < PLACE_EDGE_DY * layout.size < half_hex
    places = [i for i in build_scene(game.map, show_title=False, places_at_edge=True).items if i.tag == "place"]
    hulda = next(i for i in places if i.text == "Hulda")
    x, y = layout.centre(game.map.places["Hulda"])
    assert hulda.pos == (pytest.approx(x + PLACE_EDGE_DX * layout.size), pytest.approx(y + PLACE_EDGE_DY * layout.size))


def test_no_phase_id_is_shown_where_its_name_should_be():
    """The turn tracker, its reports, the boxes, the help and the charts: every text a player reads in the module
    (the scenario saves keep ids in their machine-read description, and the tracker state is an index)."""
    game = load_game("no-prisoners")   # the other games' phase ids are plain words (`road`, `melee`)
    # ids such as west_allied_random_events (a one-word id such as `road` is a plain word too)
    renamed = [p for p in game.spec.phases if game.spec.phase_name(p) != p and "_" in p]
    assert renamed, "the game gives its phases names"
    for name, data in module_files(game).items():
        if name.endswith((".xml", ".html", ".htm")):
            text = data.decode() if isinstance(data, bytes) else data
            assert not [p for p in renamed if p in text], name


@pytest.mark.parametrize("game_id, words", [("jerusalem-1948", 106), ("no-prisoners", 0)])
def test_boxes_board_leaves_room_for_the_scrollbar_and_the_words(game_id, words):
    """The blank strip for the scrollbar, and (issue 35) for the mouse-over's words over Jerusalem!'s May IV
    arrivals, centred on the last slot of the track's last column: 'Turn May IV (enters at 0215 Hulda or 0102 to
    Tel Aviv)' is 298 px in the viewer's 11 px font, its half and 6 px of padding 155 px right of the slot's centre,
    1063 + 155 = 1218 = the board (1234) less its scrollbar's room (16): the engine screenshot shows it whole."""
    game = load_game(game_id)
    layout = boxes_layout(game, COUNTER_SIZE)
    right = max(z.x + z.w for z in layout.zones)
    assert layout.width - right == MARGIN + SCROLLBAR_ROOM + words
    assert layout.width - 15 >= right + MARGIN   # seen through a viewport 15 px narrower, nothing is cut
    if words:
        may_iv = layout.zone("turn", "May IV")
        assert max(x for x, _ in may_iv.slots()) == 1063 and may_iv.x + may_iv.w == right


@pytest.mark.parametrize("game_id, boxes", [
    ("siege-of-jerusalem", "Reserve Pool, Dead Pile, Off the Board, Escaped Jerusalem"),
    ("no-prisoners", "Reinforcements, Replaceable Units Holding Box, Permanently Eliminated, "
                     "Air Groups and Naval Squadrons, Tribal Units Pool, Optional Units, Off Map"),
    ("jerusalem-1948", "Order of Battle, Eliminated Units, Off the Map")])
def test_boxes_read_as_the_rulebooks_name_them(game_id, boxes):
    """Issue 35: the Help notes, the Boxes board's zones and the Eliminate action name each off-map box as its
    rulebook does (``game.yaml`` ``boxes`` names: No Prisoners 14.2 A's Replaceable Units Holding Box, 19.2's air
    groups and naval squadrons; the Siege's dead pile, 18.5-18.6; Jerusalem!'s Order of Battle, 3.3), never by id."""
    from toolkit.vassal.build.helpdocs import notes_html
    game = load_game(game_id)
    html = notes_html(game).decode()
    assert f"the off-map boxes\n({boxes}) and a place for game markers" in html
    root = etree.fromstring(module_files(game)["buildFile.xml"])
    boxes_map = next(m for m in root.iter("VASSAL.build.module.Map") if m.get("mapName") == BOXES_MAP)
    zones = [z.get("name") for z in boxes_map.iter(GRID + "mapgrid.Zone") if not z.get("name").startswith("Turn ")]
    assert zones == boxes.split(", ") + ["Game markers"]
    eliminate = game.spec.box_name(game.spec.eliminated_box)
    assert eliminate in zones and f";Z;{eliminate};" in etree.tostring(root).decode()


def _spec(boxes):
    from toolkit.game.schema import GameSpec
    return GameSpec.model_validate({"id": "g", "title": "G", "map": "example", "sides": [{"id": "red", "name": "R"}],
                                    "nationalities": [], "unit_types": [], "turns": ["1"], "phases": ["move"],
                                    "boxes": boxes, "eliminated_box": "dead"})


def test_a_box_without_a_name_reads_as_its_id_in_words():
    spec = _spec(["dead", {"id": "air_naval", "name": "Air and Naval", "rule": "19.2"}, "off_map"])
    assert spec.boxes == ["dead", "air_naval", "off_map"]
    assert [spec.box_name(b) for b in spec.boxes] == ["Dead", "Air and Naval", "Off map"]


@pytest.mark.parametrize("boxes, message", [
    (["dead", {"id": "off_map", "name": "Dead"}], "boxes ['dead', 'off_map'] have the same name"),
    (["dead", {"id": "off_map", "name": ""}], "at least 1 character"),
    (["dead", {"id": "off_map", "title": "Off"}], "title"),
    (["dead", {"id": "Off map", "name": "Off"}], "should match pattern")])
def test_box_names_are_checked(boxes, message):
    """Two boxes that read alike would be one zone of the module; an empty name, an unknown key or an id that is
    not an id are refused naming the problem."""
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _spec(boxes)


def test_a_marker_value_runs_right_from_the_marker_inside_the_boxes_board():
    """Issue 35: No Prisoners' victory point label (four indices, 38 characters) starts at the marker's left edge
    and runs right, instead of centred under a marker in the Off map box's first slot, past the board's left edge
    ("CP W 9" lost); the engine showed it whole (screenshot of the Boxes window)."""
    from toolkit.game.position import load_position
    from toolkit.vassal.design.piecedefs import marker_def
    from toolkit.vassal.saves.positions import ModuleLayout

    game = load_game("no-prisoners")
    label = next(t for t in marker_def(game, game.markers["vp"], "1").traits if t.kind == "label")
    assert label.type.startswith("label;76,130;Set value;10;255,255,255;0,0,0;b;0;l;0;t;l;$pieceName$ ($label$);")
    position = load_position(game.folder / "scenarios/scenario-1.yaml", game)
    vp = next(m for m in position.markers if m.marker == "vp")
    assert vp.value == "CP W 9, CP E 0, Allied W 6, Allied E 0"
    _, x, _ = ModuleLayout.of(game).place(vp)
    assert x == 49 and x - COUNTER_SIZE // 2 == 21 > MARGIN   # the label's left end: inside the Off map box


def test_reinforcements_carry_their_entry_hexes_in_words():
    """Issue 35: Scenario II's May IV arrivals (3.3, 14.1) carry where they enter, in words, for the Boxes window's
    mouse-over; a unit without entry hexes and every marker carry an empty value (else the engine writes the
    property's name); the Help notes list them by scenario and turn."""
    from toolkit.game.position import load_position
    from toolkit.vassal.build.helpdocs import notes_html
    from toolkit.vassal.design.piecedefs import ENTERS, prototypes, unit_values

    game = load_game("jerusalem-1948")
    position = load_position(game.folder / "scenarios/scenario-ii.yaml", game)
    values = {u.id: unit_values(game, u)[ENTERS] for u in position.units}
    assert values["j-7bde-1"] == "(enters at 0215 Hulda or 0102 to Tel Aviv)"
    assert values["a-eef-4"] == "(enters at 4247 Kfar Etzion)"
    assert {u.id for u in position.units if values[u.id]} == {u.id for u in position.units if u.entry}
    assert len([v for v in values.values() if v]) == 11
    marker_values = next(t for t in prototypes(game)["Marker"] if t.kind == "mark")
    assert marker_values.type == f"mark;Layer,{ENTERS}" and marker_values.state.endswith(",")
    html = notes_html(game).decode()
    assert ("<tr><td>Scenario II</td><td>May IV</td><td>Halftrack 2-10&nbsp;&times;2, 7th Brigade 4-6&nbsp;&times;3, "
            "Jerusalem Convoy (JC)</td><td>0215 Hulda or 0102 to Tel Aviv</td></tr>") in html
    assert "<td>EEF 6-6&nbsp;&times;3, M4 Sherman tank, Matilda tank</td><td>4247 Kfar Etzion</td>" in html
    assert "Where reinforcements enter" not in notes_html(load_game("siege-of-jerusalem")).decode()


def _letters(game, board) -> dict[str, tuple[float, float, float, float]]:
    """Each place name's letters on the VASSAL board (left, top, right, bottom px), as the board draws them."""
    cmap = game.map
    out = {}
    for i in build_scene(cmap, show_title=False, places_at_edge=True).items:
        if i.tag == "place" and i.text in cmap.places:
            cx, cy = hex_centre(board, cmap, cmap.places[i.text])
            x = cx + PLACE_EDGE_DX * cmap.grid.layout.size * board.scale
            y = cy + PLACE_EDGE_DY * cmap.grid.layout.size * board.scale
            left, top, right, bottom = text_font(round(i.size * board.scale), bold=True).getbbox(i.text, anchor="mm")
            out[i.text] = (round(x + left), round(y + top), round(x + right), round(y + bottom))   # whole pixels
    return out


def _pieces(position, board, half: float) -> dict[str, tuple[float, float, float, float]]:
    """What a scenario's save puts on the map, as rectangles (px): each hex's stack, its counters 2 px right and
    up of one another, and each marker at MARKER_OFFSET from its hex's centre."""
    from collections import Counter as Count
    from toolkit.vassal.saves.positions import MARKER_OFFSET
    cmap = position.game.map
    out = {}
    for h, n in Count(u.hex for u in position.units if u.hex is not None).items():
        x, y = hex_centre(board, cmap, h)
        out[f"stack {cmap.name(h)}"] = (x - half, y - half - 2 * (n - 1), x + half + 2 * (n - 1), y + half)
    for m in position.markers:
        if m.hex is not None:
            x, y = hex_centre(board, cmap, m.hex)
            x, y = x + MARKER_OFFSET[0], y + MARKER_OFFSET[1]
            out[f"{m.marker} {cmap.name(m.hex)}"] = (x - half, y - half, x + half, y + half)
    return out


@pytest.mark.parametrize("game_id", ["jerusalem-1948", "no-prisoners", "siege-of-jerusalem"])
def test_no_scenario_covers_a_place_name(game_id):
    """Issue 35: every place name, printed along its hex's bottom edge (a little right of the middle: stacks grow
    up and right), stays clear of what every scenario puts on the map -- Mahane Yehuda of the Jewish HQ's six
    counters below it, Port Said and Qantara of the Allied Railhead on Qantara's stack (whole pixels: Mea Shearim
    is as wide as the room between the stacks of 5923 and 6123).  The engine screenshots
    (tests/test_engine_pieces.py) show them."""
    from toolkit.game.position import load_position
    from toolkit.vassal.design.counters import game_counter_size

    game = load_game(game_id)
    board = board_layout(game.map)
    letters = _letters(game, board)
    assert {"Mahane Yehuda", "Qantara", "Port Said", "Mea Shearim"} & set(letters) or game_id == "siege-of-jerusalem"
    for path in sorted((game.folder / "scenarios").glob("*.yaml")):
        pieces = _pieces(load_position(path, game), board, game_counter_size(game) / 2)
        covered = [(place, what) for place, (a, b, c, d) in letters.items() for what, (e, f, g, h) in pieces.items()
                   if min(c, g) - max(a, e) > 0 and min(d, h) - max(b, f) > 0]
        assert not covered, (path.name, covered)


def test_entry_areas_are_marked_on_the_map_and_named_by_the_mouse_over():
    """Issue 35: No Prisoners' entry hexes (6.3 A, C, D: game.yaml ``entry_areas`` over its ``place_lists``) get an
    arrow of the side's colour inside the hex's left corner on the board, and their zones name the area after the
    hex's own words; a hex with no other words gets a zone of its own."""
    from PIL import Image
    import io
    from toolkit.vassal.design.entry import ARROW, ARROW_INSET, entry_areas, entry_zones

    game = load_game("no-prisoners")
    board = board_layout(game.map)
    areas = {a.words: len(a.hexes) for a in entry_areas(game)}
    assert areas == {"Allied Western entry (6.3 A)": 19, "CP Western entry (6.3 C)": 2, "CP Eastern entry (6.3 D)": 11}
    files = module_files(game)
    root = etree.fromstring(files["buildFile.xml"])
    main = next(m for m in root.iter("VASSAL.build.module.Map") if m.get("mapName") != BOXES_MAP)
    names = {z.get("name") for z in main.iter(GRID + "mapgrid.Zone")}
    zones = {board.location_name(*hex_centre(board, game.map, z.hex)): z.name for z in entry_zones(game, board)}
    assert zones["0110"] in names and zones["0110"].endswith(" Allied Western entry (6.3 A)")
    kiswe = game.map.places["Kiswe"]
    assert zones[game.map.name(kiswe)] == f"{hex_label(game.map, kiswe)} CP Eastern entry (6.3 D)"
    assert len(zones) == len(board.zones) + sum(1 for a in entry_areas(game) for h in a.hexes
                                                if not hex_label(game.map, h))
    assert ("marks each hex where its reinforcements come on by the rules (Allied Western entry (6.3 A); CP Western "
            "entry (6.3 C); CP Eastern entry (6.3 D))") in files["help/notes.html"].decode()
    image = Image.open(io.BytesIO(files["images/board.png"])).convert("RGB")
    for hex_name, colour in (("0110", (0xc0, 0x39, 0x2b)), ("1301", (0x2e, 0x7d, 0x32))):
        corners = [board.pixel(*c) for c in game.map.grid.layout.corners(game.map.resolve(hex_name))]
        x, y = min(corners)
        assert image.getpixel((round(x + ARROW_INSET + ARROW / 3), round(y))) == colour, hex_name
    assert image.getpixel((round(x + ARROW_INSET + ARROW / 3), round(y) - 30)) != colour   # the arrow only


def test_a_rules_yaml_game_marks_its_sides_entry():
    """A game of rules.yaml (the steppe example, 13.1) gets its sides' entry hexes marked without game.yaml
    saying more: the west edge for the Axis, Belgorod for the Soviets."""
    from pathlib import Path
    from toolkit.vassal.design.entry import entry_areas
    game = load_game(str(Path(__file__).resolve().parent.parent / "examples/steppe"))
    areas = {a.words: [game.map.name(h) for h in a.hexes] for a in entry_areas(game)}
    assert areas["Soviet entry (13.1)"] == [game.map.name(game.map.places["Belgorod"])]
    assert len(areas["Axis entry (13.1)"]) == 8


@pytest.mark.parametrize("area, message", [
    ({"side": "blue", "hexes": ["0101"], "name": "Blue entry"}, "side 'blue' is not among `sides`"),
    ({"side": "red", "hexes": "west_edge", "name": "Red entry"}, "'west_edge' is not among `place_lists`"),
    ({"side": "red", "hexes": ["0101"], "name": ""}, "at least 1 character")])
def test_entry_areas_are_checked(area, message):
    from pydantic import ValidationError
    from toolkit.game.schema import GameSpec
    with pytest.raises(ValidationError, match=message.replace("`", ".")):
        GameSpec.model_validate({"id": "g", "title": "G", "map": "example", "sides": [{"id": "red", "name": "R"}],
                                 "nationalities": [], "unit_types": [], "turns": ["1"], "phases": ["move"],
                                 "entry_areas": [area]})
