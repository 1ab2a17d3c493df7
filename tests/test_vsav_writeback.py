"""``toolkit vsav write`` for a game imported from a published module, without the engine: the pieces as the
engine's sequence encoding writes them (hand-checked), prototypes expanded, slots matched, stacks and layers,
what cannot go, and the refusals.  The engine's word on the same saves: tests/test_vsav_writeback_engine.py."""
from __future__ import annotations

import shutil

import pytest
import yaml

import vassal_modules as vm
from test_engine_tier import add_piece, nest, xml_escape
from toolkit.cli import main
from toolkit.game import load_game, position_from_file
from toolkit.game.position import PositionFile
from toolkit.vassal.design.traits import rotate_trait
from toolkit.vassal.engine.pieces import MAX_TRAITS, PieceLimitError, Trait, parse_add_piece
from toolkit.vassal.published.importer import import_module
from toolkit.vassal.published.writeback import (Imported, ModulePieces, PieceSlot, PublishedLayout, SlotPiece,
                                                 expand, imported_save, read_module_pieces)
from toolkit.vassal.saves.imported import load_record
from toolkit.vassal.saves.positions import read_position_save
from toolkit.vassal.saves.savefile import read_save

GUNNER = add_piece("null", nest([rotate_trait(6).type, "prototype;Unit"], "piece;;;;"),
                   nest(["0", ""], "null;0;0;;0"))


def gun_slot(entry: str = "Gun", gpid: str = "31", image: str = "gun.png") -> str:
    """A slot whose prototype ``Gunner`` (a six-angle rotation) names the prototype ``Unit``."""
    piece = add_piece("null", nest(["prototype;Gunner", "mark;gun"], f"piece;;;{image};Gun"),
                      nest(["", "heavy"], f"null;0;0;{gpid};0"))
    return (f'<VASSAL.build.widget.PieceSlot entryName="{entry}" gpid="{gpid}" height="40" width="40">'
            f"{xml_escape(piece)}</VASSAL.build.widget.PieceSlot>")


def with_gun(shape: tuple[str, dict], slots: str | None = None) -> tuple[str, dict]:
    """A module shape with more slots (default: one Gun) and the prototype ``Gunner``: prototypes nested, as
    published modules nest them."""
    xml, images = shape
    definition = f'<VASSAL.build.module.PrototypeDefinition description="" name="Gunner">{xml_escape(GUNNER)}' \
                 "</VASSAL.build.module.PrototypeDefinition>"
    close = "</VASSAL.build.module.PrototypesContainer>"
    extra = f'<VASSAL.build.module.PieceWindow name="Guns" text="Guns" hidden="false">{slots or gun_slot()}' \
            "</VASSAL.build.module.PieceWindow>"
    if close in xml:
        xml = xml.replace(close, definition + close)
    else:
        extra += f"<VASSAL.build.module.PrototypesContainer>{definition}</VASSAL.build.module.PrototypesContainer>"
    head, sep, tail = xml.rpartition("</VASSAL.")
    return head + extra + sep + tail, {**images, "gun.png": (40, 40), "gun2.png": (40, 40)}


FACINGS = [f"facing_{i}" for i in range(6)]


def imported_with_facings(vmod, folder) -> None:
    """Import a module; give the game six facings for its pieces (what a maker adds to game.yaml for counters
    that point across a hexside)."""
    import_module(vmod, folder)
    spec = yaml.safe_load((folder / "game.yaml").read_text())
    spec["flags"] = [*spec.get("flags", []), *FACINGS]
    spec["facing"] = {"unit_types": ["piece"], "flags": FACINGS}
    (folder / "game.yaml").write_text(yaml.safe_dump(spec))


@pytest.fixture
def zoned(tmp_path):
    """The zoned shape with the gun, imported, with facings."""
    vmod = vm.write_vmod(tmp_path / "zoned.vmod", with_gun(vm.zoned()))
    imported_with_facings(vmod, tmp_path / "game")
    return vmod, tmp_path / "game"


def pos_of(folder, units, markers=()):
    """A position of the imported game."""
    game = load_game(str(folder))
    return position_from_file(PositionFile(game=game.spec.id, turn="1", phase="play", phasing_side="allies",
                                           units=units, markers=list(markers)), game=game)


def write(tmp_path, folder, vmod, units, *extra):
    """``toolkit vsav write`` of a position with these units; the exit status."""
    side = load_game(str(folder)).spec.sides[0].id
    (tmp_path / "pos.yaml").write_text(yaml.safe_dump({"game": "game", "turn": "1", "phase": "play",
                                                      "phasing_side": side, "units": units}))
    return main(["vsav", "write", str(tmp_path / "pos.yaml"), "--game", str(folder), *extra,
                 "-o", str(tmp_path / "out.vsav")])


# ---------------------------------------------------------------- pieces in the engine's encoding


def test_a_flipped_unit_is_its_slot_piece_with_the_back_face_level_at_the_hex_centre(zoned):
    """Hand-checked: hex Field B03 of the zoned field grid (dx 45, dy 52, origin 40,110; columns lettered from
    A, rows from 0, no stagger) is raw column 1 (x 40 + 45 = 85), row 3 of an odd column (y 110 + 3 x 52 + 26
    = 292); the Rifles' layer at its second level, the Unit prototype's Marker with its state in place."""
    vmod, folder = zoned
    pos = pos_of(folder, [{"id": "r", "counter": "rifles", "hex": "Field B03", "flags": ["flipped"]}])
    data, omitted, notes = imported_save(pos, vmod)
    (tmp := folder.parent / "s.vsav").write_bytes(data)
    piece = next(c for c in read_save(tmp).commands if c.startswith("+/") and "/stack/" not in c)
    assert piece == add_piece("1000", nest([vm.FLIP_LAYER, "mark;kind"], "piece;;;rifles.png;Rifles"),
                              nest(["2", "unit"], "Campaign;85;292;11;0"))
    assert omitted == [] and notes == []
    assert read_save(tmp).moduledata["name"] == "Zoned Campaign"


def test_a_gun_has_both_prototypes_expanded_and_its_facing_as_the_rotation_index(zoned):
    vmod, folder = zoned
    pos = pos_of(folder, [{"id": "g", "counter": "gun", "hex": "Field C02", "flags": ["facing_4"]}])
    data, _, _ = imported_save(pos, vmod)
    (tmp := folder.parent / "s.vsav").write_bytes(data)
    (p,) = read_save(tmp).pieces
    assert [(t.kind, t.state) for t in p.traits] == [("rotate", "4"), ("mark", "unit"), ("mark", "heavy")]
    assert (p.name, p.gpid, p.map) == ("Gun", "31", "Campaign")


def test_prototypes_expand_in_place_and_a_missing_one_is_dropped_as_the_engine_drops_it():
    protos = {"A": add_piece("null", nest(["mark;a", "prototype;B", "mark;a2"], "piece;;;;"),
                             nest(["1", "", "2"], "null;0;0;;0")),
              "B": add_piece("null", nest(["mark;b"], "piece;;;;"), nest(["3"], "null;0;0;;0"))}
    traits = [Trait("emb2;x", "1"), Trait("prototype;A"), Trait("prototype;Nowhere"), Trait("mark;own", "o")]
    assert [(t.type, t.state) for t in expand(traits, protos)] == [
        ("emb2;x", "1"), ("mark;a", "1"), ("mark;b", "3"), ("mark;a2", "2"), ("mark;own", "o")]


def test_a_prototype_naming_itself_stops_at_the_trait_limit():
    protos = {"Loop": add_piece("null", nest(["mark;a", "mark;b", "mark;c", "prototype;Loop"], "piece;;;;"),
                                nest(["", "", "", ""], "null;0;0;;0"))}
    with pytest.raises(PieceLimitError, match=f"limit of {MAX_TRAITS}"):
        expand([Trait("prototype;Loop")], protos)
    doubling = {"Twice": add_piece("null", nest(["prototype;Twice", "prototype;Twice"], "piece;;;;"),
                                   nest(["", ""], "null;0;0;;0"))}   # no trait at all: 2^32 expansions unbounded
    with pytest.raises(PieceLimitError, match="more than 1000 prototypes expanded"):
        expand([Trait("prototype;Twice")], doubling)


def test_slots_sharing_a_name_are_told_apart_by_piece_name_and_image(tmp_path):
    """Two slots called Gun without gpids: the counter's manifest (slot, name, image) picks the right one."""
    slots = gun_slot("Gun", "", "gun.png") + gun_slot("Gun", "", "gun2.png")
    vmod = vm.write_vmod(tmp_path / "m.vmod", with_gun(vm.zoned(), slots))
    import_module(vmod, tmp_path / "game")
    manifest = Imported.of(tmp_path / "game")
    second = next(c for c, refs in manifest.slots.items() if refs[0].image == "gun2.png")
    layout = PublishedLayout(pos_of(tmp_path / "game", []), load_record(tmp_path / "game"), read_module_pieces(vmod),
                             manifest)
    assert parse_add_piece(layout.slot_of(second).slot.text).image == "gun2.png"


def layered_slot(front: str, back: str) -> str:
    """A slot as an old module holds it: no gpid, no image of its own, its faces on a layer (``emb2``)."""
    layer = vm.FLIP_LAYER.replace("rifles.png,rifles-back.png", f"{front},{back}")
    return ('<VASSAL.build.widget.PieceSlot entryName="Gun" gpid="" height="40" width="40">'
            f'{xml_escape(add_piece("null", nest([layer], "piece;;;;Gun"), nest(["1"], "null;0;0;;0")))}'
            "</VASSAL.build.widget.PieceSlot>")


def test_slots_alike_but_for_their_faces_and_slots_alike_in_all_go_by_faces_then_by_order(tmp_path):
    """The Longest Day's way: slots of one name, no gpid, no image, their faces on a layer; two of them alike in
    every way.  Each counter gets its own slot back: by its faces, then by its place among the alike."""
    faces = [("a.png", "a-back.png"), ("b.png", "b-back.png"), ("a.png", "a-back.png")]
    slots = "".join(layered_slot(*f) for f in faces)
    vmod = vm.write_vmod(tmp_path / "m.vmod", with_gun(vm.zoned(), slots))
    import_module(vmod, tmp_path / "game")
    manifest = Imported.of(tmp_path / "game")
    guns = [c for c, refs in manifest.slots.items() if refs[0].slot == "Gun"]
    layout = PublishedLayout(pos_of(tmp_path / "game", []), load_record(tmp_path / "game"), read_module_pieces(vmod),
                             manifest)
    slots = layout.module.slots   # after Rifles and HQ; the first and the last alike in every way
    assert [next(i for i, s in enumerate(slots) if s is layout.slot_of(c).slot) for c in guns] == [2, 3, 4]


def test_pieces_that_never_stack_stand_alone_and_stacks_keep_the_maps_piece_layers(zoned):
    """A ``Does not stack`` piece (``immob`` with stacking option R) in no stack; on a map with piece layers
    (``LayeredPieceCollection`` on ``Layer``: Terrain, Units) a unit whose Layer is Units stacks in layer 1."""
    _, folder = zoned
    record = load_record(folder)
    lone = SlotPiece.of(PieceSlot("x", "1", add_piece("null", nest(["immob;;;R;", "mark;Layer"], "piece;;;a.png;A"),
                                                      nest(["", "Units"], "null;0;0;1;0"))), {})
    unit = SlotPiece.of(PieceSlot("y", "2", add_piece("null", nest(["immob;;;L;", "mark;Layer"], "piece;;;b.png;B"),
                                                      nest(["", "Units"], "null;0;0;2;0"))), {})
    assert not lone.stacks() and unit.stacks()
    module = ModulePieces("m.vmod", "Zoned Campaign", "1.2", (), {}, {"Campaign": ("Layer", ("Terrain", "Units"))})
    layout = PublishedLayout(pos_of(folder, [{"id": "u", "counter": "hq", "hex": "Field C02"}]), record, module,
                             Imported.of(folder))
    layout._pieces["hq"] = unit
    (u,) = layout.position.units
    assert layout.place(u)[0] == "Campaign" and layout.stack_layer(u) == 1
    layout._pieces["hq"] = lone
    assert layout.stack_layer(u) is None


def test_every_box_gets_a_point_the_module_names_as_the_box_and_maps_their_default_boards(zoned, tmp_path):
    vmod, folder = zoned
    boxes = sorted(set(load_record(folder).boxes.values()))
    units = [{"id": f"b{i}", "counter": "hq", "box": b} for i, b in enumerate(boxes)]
    assert write(tmp_path, folder, vmod, units, "--module", str(vmod)) == 0
    pf, unplaced = read_position_save(tmp_path / "out.vsav", str(folder))
    assert sorted(u.box for u in pf.units) == boxes and not unplaced
    boards = [c for c in read_save(tmp_path / "out.vsav").commands if "BoardPicker" in c]
    assert boards == ["CampaignBoardPicker\tCampaign\t0\t0", "BoxesBoardPicker\tBoxes\t0\t0"]


# ---------------------------------------------------------------- what cannot go, and refusals


def test_what_the_module_cannot_show_is_listed_never_dropped_silently(zoned, tmp_path, capsys):
    vmod, folder = zoned
    units = [{"id": "h", "counter": "hq", "hex": "Field C02", "flags": ["facing_2"]},
             {"id": "r", "counter": "rifles", "hex": "Field D02"}]
    assert write(tmp_path, folder, vmod, units, "--module", str(vmod)) == 0
    out = capsys.readouterr().out
    assert "note: h: facing_2 not shown: the module's piece 'HQ' has no trait that shows it" in out
    assert "note: r:" not in out


def test_a_hex_whose_centre_a_zone_takes_is_left_out_with_the_engines_name(tmp_path, capsys):
    """square-zones: the Endurance track covers hex 01-01's centre, so a piece there would be on the track."""
    vmod = vm.write_vmod(tmp_path / "sq.vmod", vm.square_zones())
    import_module(vmod, tmp_path / "game")
    assert write(tmp_path, tmp_path / "game", vmod, [{"id": "r", "counter": "rifles", "hex": "01-01"},
                                                     {"id": "h", "counter": "hq", "hex": "0303"}],
                 "--module", str(vmod)) == 0
    out = capsys.readouterr().out
    assert "not in the save: r" in out and "hex 01-01 is named 'Endurance 0018'" in out
    pf, _ = read_position_save(tmp_path / "out.vsav", str(tmp_path / "game"))
    assert [(u.counter, pf.units[0].hex) for u in pf.units] == [("hq", "0303")]


def test_the_module_is_found_beside_the_game_folder_by_the_record(zoned, tmp_path):
    vmod, folder = zoned
    assert vmod.parent == folder.parent and Imported.of(folder).module["file"] == "zoned.vmod"
    assert write(tmp_path, folder, vmod, [{"id": "h", "counter": "hq", "hex": "Field C02"}]) == 0


def test_refusals_name_the_fix(zoned, tmp_path, capsys):
    vmod, folder = zoned
    units = [{"id": "h", "counter": "hq", "hex": "Field C02"}]
    moved = shutil.move(vmod, tmp_path / "elsewhere.vmod")
    assert write(tmp_path, folder, vmod, units) == 2
    assert "give the module with --module THEIR.vmod" in capsys.readouterr().err
    other = vm.write_vmod(tmp_path / "other.vmod", vm.lettered())
    assert write(tmp_path, folder, vmod, units, "--module", str(other)) == 2
    assert "module 'Lettered', but the game was imported from 'Zoned Campaign'" in capsys.readouterr().err
    assert not (tmp_path / "out.vsav").exists()
    assert main(["vsav", "write", str(tmp_path / "pos.yaml"), "--game", str(folder), "--module", str(moved),
                 "-o", str(moved)]) == 2
    assert "refusing to write over the input module" in capsys.readouterr().err


def test_module_is_only_for_imported_games(tmp_path, capsys):
    scenario = "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
    assert main(["vsav", "write", scenario, "--module", "x.vmod", "-o", str(tmp_path / "s.vsav")]) == 2
    assert "--module is for a game imported from a published module" in capsys.readouterr().err


def test_their_map_is_still_no_module_of_ours_and_the_refusal_says_how_to_write_a_save(zoned, tmp_path, capsys):
    _, folder = zoned
    assert main(["vmod", str(folder), "-o", str(tmp_path / "ours.vmod")]) == 2
    assert "toolkit vsav write POSITION.yaml --game GAME_DIR -o SAVE.vsav` writes a save of it" in \
        capsys.readouterr().err


def test_a_hostile_module_is_refused_before_anything_is_written(zoned, tmp_path, capsys):
    """The module is read again as an untrusted file: a DOCTYPE, a module holding more piece slots than an
    import may hold."""
    import zipfile

    vmod, folder = zoned
    units = [{"id": "h", "counter": "hq", "hex": "Field C02"}]
    with zipfile.ZipFile(vmod) as z:
        xml = z.read("buildFile.xml").decode()
    for name, text, needle in (
            ("doctype.vmod", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]>' + xml.split("?>", 1)[1], "DOCTYPE"),
            ("slots.vmod", xml.replace("</VASSAL.build.GameModule>",
                                       gun_slot() * 20_001 + "</VASSAL.build.GameModule>"), "20,004 piece slots")):
        with zipfile.ZipFile(tmp_path / name, "w") as z:
            z.writestr("buildFile.xml", text)
        assert write(tmp_path, folder, vmod, units, "--module", str(tmp_path / name)) == 2
        assert needle in capsys.readouterr().err
        assert not (tmp_path / "out.vsav").exists()
