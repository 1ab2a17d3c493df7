"""Game-module and position files: loading, and one clear error per kind of mistake."""
import textwrap

import pytest

from toolkit.game import GameDataError, load_game, load_position
from toolkit.game.module import _load

GAME = """
id: mini
title: Mini
map: example
sides: [{id: blue, name: Blue}, {id: red, name: Red}]
nationalities: [{id: b, name: B, side: blue}, {id: r, name: R, side: red}]
unit_types: [infantry, truck]
flags: [stopped]
turns: [T1, T2]
phases: [overland, road]
"""
COUNTERS = """
game: mini
counters:
  - {id: inf, name: Infantry, side: blue, nationality: b, type: infantry, values: {strength: 4, mp: 6}}
  - {id: truck, name: Truck, side: blue, nationality: b, type: truck, values: {capacity: 1}}
  - {id: foe, name: Foe, side: red, nationality: r, type: infantry, values: {strength: 2}, reconstructed: [strength]}
markers: [{id: stop, name: Stop}]
"""
POSITION = """
game: mini
turn: T1
phase: overland
phasing_side: blue
units:
  - {id: u1, counter: inf, hex: "0505", flags: [stopped]}
  - {id: u2, counter: truck, hex: Emmaus}
  - {id: u3, counter: inf, hex: Emmaus, carried_by: u2}
  - {id: u4, counter: foe, box: reinforcements}
markers: [{marker: stop, hex: "0101"}]
"""


@pytest.fixture
def modules(tmp_path, monkeypatch):
    folder = tmp_path / "modules" / "mini"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "counters.yaml").write_text(COUNTERS)
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    _load.cache_clear()
    yield folder
    _load.cache_clear()


def write(tmp_path, text):
    p = tmp_path / "pos.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def test_loads_a_position(modules, tmp_path):
    pos = load_position(write(tmp_path, POSITION))
    m = pos.game.map
    assert [u.id for u in pos.at(m.resolve("Emmaus"))] == ["u2", "u3"]
    assert pos.carried(pos.by_id["u2"]) == [pos.by_id["u3"]]
    assert pos.by_id["u1"].has("stopped") and pos.by_id["u4"].hex is None
    assert pos.game.counters["foe"].value("strength") == 2
    again = pos.to_file()
    assert again.units[1].hex == "0303" and again.markers[0].hex == "0101"


@pytest.mark.parametrize("change, key, message", [
    (("counter: truck", "counter: lorry"), "units[1].counter", "unknown counter 'lorry'"),
    (('hex: "0505"', 'hex: "9999"'), "units[0].hex", "neither a hex nor a place"),
    (("id: u2,", "id: u1,"), "units[1].id", "duplicate unit id 'u1'"),
    (("flags: [stopped]", "flags: [sleepy]"), "units[0].flags", "unknown flag 'sleepy'"),
    (("box: reinforcements", "box: limbo"), "units[3].box", "unknown box 'limbo'"),
    (("turn: T1", "turn: T9"), "turn", "unknown turn 'T9'"),
    (("carried_by: u2}", "carried_by: u1}"), "units[u3].carried_by", "not in the same place"),
    (("carried_by: u2}", "carried_by: nobody}"), "units[u3].carried_by", "unknown unit id 'nobody'"),
    (("{id: u4, counter: foe, box: reinforcements}", "{id: u4, counter: foe}"), "units[3]", "exactly one of"),
    (("marker: stop", "marker: go"), "markers[0].marker", "unknown marker 'go'"),
])
def test_position_errors_name_file_key_and_fix(modules, tmp_path, change, key, message):
    path = write(tmp_path, POSITION.replace(*change))
    with pytest.raises(GameDataError) as err:
        load_position(path)
    assert str(err.value).startswith(f"{path}: {key}: ") and message in str(err.value)


def test_carrying_cycle(modules, tmp_path):
    text = POSITION.replace("{id: u2, counter: truck, hex: Emmaus}", "{id: u2, counter: truck, hex: Emmaus, carried_by: u3}")
    with pytest.raises(GameDataError, match="carrying cycle"):
        load_position(write(tmp_path, text))


@pytest.mark.parametrize("change, message", [
    (("nationality: r, type", "nationality: b, type"), "belongs to side 'blue', not 'red'"),
    (("type: truck", "type: zeppelin"), "unknown unit type 'zeppelin'"),
    (("id: truck", "id: inf"), "duplicate counter id 'inf'"),
    (("reconstructed: [strength]", "reconstructed: [range]"), "not among this counter's values"),
])
def test_manifest_errors(modules, change, message):
    (modules / "counters.yaml").write_text(COUNTERS.replace(*change))
    with pytest.raises(GameDataError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_game("mini")


def test_unknown_game_lists_the_known_ones(modules):
    with pytest.raises(GameDataError, match="unknown game 'chess'; expected one of: mini"):
        load_game("chess")
