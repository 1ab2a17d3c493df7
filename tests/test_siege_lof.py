"""Siege of Jerusalem line of fire (9.5-9.52, 9.9, 9.13, 10.3): the rulebook's examples, readings, symmetry."""
import random

import pytest

from position_files import write_position
from toolkit.cli import main
from toolkit.games.siege.lof import lof
from toolkit.mapdata import open_map

GAME = "siege-of-jerusalem"


@pytest.fixture(scope="module")
def cmap():
    return open_map(GAME)


def see(cmap, a, b, position=None, **readings):
    return lof(cmap, cmap.resolve(a), cmap.resolve(b), position, readings or None)


@pytest.mark.parametrize("a, b, visible, rule", [
    ("LL27", "KK29", False, "9.5"),    # along KK28-LL28: both Built-up (9.5 example)
    ("LL30", "KK29", True, "9.5"),     # along KK30-LL29: only LL29 blocks (9.5 example)
    ("DD19", "BB20", True, "9.5"),     # Fort along the Wall hexside (9.5 example)
    ("DD19", "AA21", True, "9.5"),     # Wall CC20 nearer the Fort than the target (9.5 example)
    ("KK30", "KK28", True, "9.5"),
    ("TT46", "RR48", True, "9.5"),     # the crest hex (9.52 example)
    ("TT46", "QQ49", True, "9.5"),     # the Elevated Hex behind it (9.52 example)
    ("TT46", "QQ48", False, "9.52"),   # behind the crest (9.52 example)
    ("BB69", "EE67", True, "9.5"),     # same elevation (9.52 example)
])
def test_rulebook_examples(cmap, a, b, visible, rule):
    r = see(cmap, a, b)
    assert (r.visible, r.rule) == (visible, rule)
    assert see(cmap, b, a).visible == visible      # the same from either end
    assert r.range == cmap.resolve(a).distance(cmap.resolve(b))   # 9.2: the target's hex counted, not the firer's


def test_bastion_reading_blocks_dd19_to_aa21(cmap):
    # "if DD19 were a Bastion ... the LOF could be blocked": readings other than `fortress` and `higher`
    assert not see(cmap, "DD19", "AA21", lower_elevated_near_higher_end="never").visible
    assert see(cmap, "DD19", "AA21", lower_elevated_near_higher_end="higher").visible
    with pytest.raises(ValueError):
        see(cmap, "DD19", "AA21", lower_elevated_near_higher_end="sometimes")


def test_slope_literal_reading(cmap):
    assert not see(cmap, "TT46", "QQ48", slope_count="literal").visible
    assert see(cmap, "TT46", "RR48", slope_count="literal").visible


def test_units_indirect_fire_and_towers(tmp_path, cmap):
    units = [("r1", "v-velites", "KK30"), ("r2", "v-1-7-8", "KK29"), ("j1", "y-regulars-5-7", "KK28")]
    pos = write_position(tmp_path, GAME, "AP I/1", "fire", "roman", units)
    r = see(cmap, "KK30", "KK28", pos)
    assert r.visible and r.indirect and [d.id for d in r.drm] == ["indirect_fire"]
    assert not see(cmap, "KK30", "KK28", pos, units_block="none").indirect
    pos = write_position(tmp_path, GAME, "AP I/1", "fire", "roman",
                         [("r1", "v-velites", "KK30"), ("t", "v-tower", "KK29"), ("p", "v-2-7-8", "KK29", ["pushing"]),
                          ("j1", "y-regulars-5-7", "KK28")])
    r = see(cmap, "KK30", "KK28", pos)
    assert r.visible and not r.indirect and [(d.id, d.value, d.rule) for d in r.drm] == [("tower_hex", -1, "9.13")]


def test_breach_marker_makes_ground(tmp_path, cmap):
    pos = write_position(tmp_path, GAME, "AP I/1", "fire", "roman", [], markers=[("breach", "CC20")])
    r = see(cmap, "BB20", "DD20", pos)   # through the Breach in CC20: Ground-level fire, -1 (9.5, 13.3)
    assert r.visible and ("breach", -1) in [(d.id, d.value) for d in r.drm]
    assert not see(cmap, "BB20", "DD20").visible   # the standing Wall blocks Ground-level fire


def test_symmetric_under_default_readings(tmp_path, cmap):
    pos = write_position(tmp_path, GAME, "AP I/1", "fire", "roman",
                         [("r1", "v-1-7-8", "KK29"), ("j1", "y-regulars-5-7", "CC20"), ("j2", "zealots-7-7", "QQ35")],
                         markers=[("breach", "EE19")])
    rng = random.Random(13)
    hexes = sorted(cmap.hexes)
    checked = 0
    while checked < 400:
        a = rng.choice(hexes)
        b = rng.choice(hexes)
        if a == b or a.distance(b) > 8:
            continue
        checked += 1
        assert lof(cmap, a, b, pos).visible == lof(cmap, b, a, pos).visible, (cmap.name(a), cmap.name(b))


def test_cli_plain_los_says_it_ignores_the_siege_rules(capsys):
    assert main(["los", GAME, "DD19", "AA21"]) in (0, None)
    out = capsys.readouterr().out
    assert "BLOCKED" in out and "los --position" in out


def test_cli_los_position_uses_the_siege_lof(capsys):
    pos = "modules/siege-of-jerusalem/scenarios/demonstration.yaml"
    assert main(["los", "--position", pos, "TT46", "QQ48", "--json"]) in (0, None)
    import json
    data = json.loads(capsys.readouterr().out)
    assert data["visible"] is False and data["rule"] == "9.52"
    assert main(["los", "--position", pos, "TT46", "RR48"]) in (0, None)
    assert "CLEAR" in capsys.readouterr().out


def test_cli_los_position_cites_the_sub_rule_and_the_fire_modifiers(tmp_path, capsys):
    import json
    pos = str(write_position(tmp_path, GAME, "AP I/1", "fire", "roman", [
        ("r1", "v-velites", "KK30"), ("r2", "v-1-7-8", "KK29"), ("j1", "y-regulars-5-7", "KK28")]).source)
    assert main(["los", "--position", pos, "P64", "R64", "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)        # Built-up Q64 next to the Ground-level end R64
    assert (data["visible"], data["rule"]) == (False, "9.51") and data["reasons"][0]["rule"] == "9.51"
    assert main(["los", "--position", pos, "KK30", "KK28", "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)        # over the Legionary in KK29: Indirect Fire
    assert data["visible"] and [(d["id"], d["value"], d["rule"]) for d in data["drm"]] == [("indirect_fire", -1, "9.9")]
    assert main(["los", "--position", pos, "KK30", "KK28"]) in (0, None)
    assert "-1 indirect_fire (9.9)" in capsys.readouterr().out
    assert main(["los", "--position", pos, "MM38", "JJ38", "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)        # the Temple's central hex through its Buildings
    assert data["visible"] and "10.3" in [r["rule"] for r in data["reasons"]]
