"""The Siege of Jerusalem map agrees with every hex the rulebook cites (rule numbers in each test)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from toolkit.hexgrid import hexside
from toolkit.los import LosEngine
from toolkit.los.explain import map_obstacles
from toolkit.mapdata import compile_map

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "siege-of-jerusalem" / "map.yaml"
ELEVATED = {"fortress", "fort", "bastion", "wall", "gate", "bridge"}
GROUND = {"clear", "courtyard", "slope"}
AREAS_18_3 = {"Temple District", "Upper City", "Lower City", "Tyropoeon City", "New City", "City of David",
              "Antonia Fortress", "Herod's Palace", "Fortress Triangle", "Jaffa Gate"}


@pytest.fixture(scope="module")
def cmap():
    return compile_map(MAP)


def terrain(cmap, name):
    return cmap.hexes[cmap.resolve(name)].terrain[0]


def level(cmap, name):
    return cmap.hexes[cmap.resolve(name)].elevation


def side(cmap, a, b):
    return cmap.hexsides.get(hexside(cmap.resolve(a), cmap.resolve(b)), {})


def los(cmap, a, b):
    return LosEngine(cmap.grid).check(cmap.resolve(a), cmap.resolve(b), "cross", map_obstacles(cmap))


def test_grid_is_diagonal_flat_top(cmap):
    assert cmap.grid.layout.orientation == "flat"
    assert cmap.name(cmap.grid.parse("QQ36")) == "QQ36"
    assert cmap.los.convention == "cross" and cmap.los.rule == "9.5"


def test_damascus_gate_w36(cmap):  # 2.14
    assert terrain(cmap, "W36") == "gate"
    assert cmap.places["Damascus Gate"] == cmap.resolve("W36")


def test_jaffa_gate_p51(cmap):  # 2.14
    assert terrain(cmap, "P51") == "gate"
    assert cmap.hexes[cmap.resolve("P51")].region == "Jaffa Gate"


def test_gate_of_susa_qq36_between_walls(cmap):  # 2.14, 8.91, 19.22
    assert terrain(cmap, "QQ36") == "gate"
    assert terrain(cmap, "QQ35") == "wall" and terrain(cmap, "QQ37") == "wall"


def test_gate_of_susa_entry_hexsides_exactly(cmap):  # 8.91
    gate = cmap.resolve("QQ36")
    entries = {cmap.name(n) for n in gate.neighbors() if side(cmap, "QQ36", cmap.name(n)).get("gate_entry")}
    assert entries == {"RR35", "PP37"}
    assert terrain(cmap, "RR35") in GROUND and terrain(cmap, "PP37") in GROUND


def test_every_gate_has_two_opposite_entries(cmap):  # 8.91
    for g, info in cmap.hexes.items():
        if info.terrain[0] == "gate":
            ends = [n for n in g.neighbors() if cmap.hexsides.get(hexside(g, n), {}).get("gate_entry")]
            assert len(ends) == 2, cmap.name(g)
            assert (ends[0].q - g.q, ends[0].r - g.r) == (g.q - ends[1].q, g.r - ends[1].r), cmap.name(g)


def test_mariamne_tower_p55_is_a_fortress(cmap):  # 2.14, 6.7 example
    assert terrain(cmap, "P55") == "fortress"
    assert cmap.places["Mariamne"] == cmap.resolve("P55")


def test_qq32_is_a_fort(cmap):  # 2.15 erratum
    assert terrain(cmap, "QQ32") == "fort"


def test_r51_walls_meet(cmap):  # 12.3
    r51 = cmap.resolve("R51")
    assert terrain(cmap, "R51") == "wall"
    walls = [n for n in r51.neighbors() if cmap.hexes[n].terrain[0] in ELEVATED]
    assert len(walls) >= 3


def test_9_5_example_obstacles(cmap):  # 9.5
    for name in ("KK28", "LL28", "LL29"):
        assert terrain(cmap, name) in cmap.los.blocking_terrain, name
    assert terrain(cmap, "KK30") not in cmap.los.blocking_terrain


def test_los_ll27_kk29_blocked_by_kk28_and_ll28(cmap):  # 9.5
    res = los(cmap, "LL27", "KK29")
    assert not res.visible
    assert {cmap.name(h) for h in res.blocked_by} == {"KK28", "LL28"}


def test_los_ll30_kk29_clear_along_kk30_ll29(cmap):  # 9.5
    res = los(cmap, "LL30", "KK29")
    assert res.visible
    assert {cmap.name(c.hex) for c in res.touched} == {"KK30", "LL29"}


def test_fort_dd19_on_the_north_wall(cmap):  # 19.22, 9.5 example, 13.22
    assert terrain(cmap, "DD19") == "fort"
    for name in ("CC20", "BB21", "EE19", "FF18"):
        assert terrain(cmap, name) == "wall", name
    assert terrain(cmap, "BB20") in GROUND and terrain(cmap, "AA21") in GROUND


def test_los_dd19_bb20_along_the_wall_hexside(cmap):  # 9.5 example
    res = los(cmap, "DD19", "BB20")
    assert res.visible
    assert {cmap.name(c.hex) for c in res.touched} == {"CC19", "CC20"}


def test_dd19_aa21_only_the_wall_beside_the_firer(cmap):  # 9.5 example: the rules module lets the Fort fire over it
    res = los(cmap, "DD19", "AA21")
    assert [cmap.name(h) for h in res.blocked_by] == ["CC20"]
    assert cmap.resolve("CC20") in cmap.resolve("DD19").neighbors()


def test_9_52_crest_and_slope_by_tt46(cmap):  # 9.52
    assert level(cmap, "TT46") < level(cmap, "QQ48") == level(cmap, "RR48")
    assert terrain(cmap, "QQ48") in GROUND and terrain(cmap, "RR48") in GROUND
    assert terrain(cmap, "QQ49") in ELEVATED
    assert any(terrain(cmap, s) == "slope" and side(cmap, s, "RR48").get("crest") for s in ("SS47", "SS48"))
    assert terrain(cmap, "SS47") == "slope"   # the line TT46 -> QQ48 runs through it


def test_9_52_bb69_ee67_same_elevation(cmap):  # 9.52
    assert level(cmap, "BB69") == level(cmap, "EE67")
    assert terrain(cmap, "BB69") in GROUND and terrain(cmap, "EE67") in GROUND


def test_rr8_above_slope_ss8_across_a_crest(cmap):  # 11.17
    assert terrain(cmap, "SS8") == "slope" and terrain(cmap, "RR8") != "slope"
    assert level(cmap, "RR8") == level(cmap, "SS8") + 1
    assert side(cmap, "RR8", "SS8").get("crest")


def test_herods_palace_gate_p58(cmap):  # 18.36 stairways example
    assert terrain(cmap, "P58") == "gate"
    assert side(cmap, "O58", "P58").get("gate_entry") and side(cmap, "P58", "Q58").get("gate_entry")
    assert cmap.hexes[cmap.resolve("Q58")].region == "Herod's Palace"
    assert cmap.hexes[cmap.resolve("O58")].region is None   # outside the city


def test_the_ten_city_areas(cmap):  # 18.3
    regions = {info.region for info in cmap.hexes.values()} - {None}
    assert regions == AREAS_18_3


def test_control_needs_are_on_the_map(cmap):  # 18.31, 18.32, 18.33
    by_area: dict[str, list[str]] = {}
    for info in cmap.hexes.values():
        if info.region:
            by_area.setdefault(info.region, []).append(info.terrain[0])
    for area in ("Tyropoeon City", "New City", "City of David", "Upper City", "Lower City"):
        assert by_area[area].count("built_up") >= 15, area
    for area in ("Herod's Palace", "Temple District"):
        assert by_area[area].count("building") >= 4, area
    for area in ("Fortress Triangle", "Jaffa Gate", "Antonia Fortress"):
        assert "fortress" in by_area[area], area


def test_temple_central_hex_and_courtyards(cmap):  # 8.92, 10.3
    temple = cmap.places["Temple"]
    assert cmap.hexes[temple].terrain[0] == "temple"
    assert all(cmap.hexes[n].terrain[0] == "building" for n in temple.neighbors())
    temple_ground = {i.terrain[0] for i in cmap.hexes.values() if i.region == "Temple District"}
    assert "courtyard" in temple_ground and "clear" not in temple_ground


def test_builder_regenerates_the_committed_map(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    from mapbuild import siege_of_jerusalem

    out = siege_of_jerusalem.build(tmp_path)
    assert yaml.safe_load(out.read_text()) == yaml.safe_load(MAP.read_text())



# --- issue 13: map builder fixes ---------------------------------------------------------------

def connected(cmap, a, b):
    return bool(side(cmap, a, b).get("connected"))


def test_connected_elevated_hexes_follow_the_walls(cmap):  # 7.12
    assert connected(cmap, "DD19", "CC20") and connected(cmap, "DD19", "EE19")        # the Third Wall (19.22)
    assert connected(cmap, "QQ35", "QQ36") and connected(cmap, "QQ36", "QQ37")        # the Gate of Susa (19.22)
    assert not connected(cmap, "II35", "JJ35")       # two Antonia walls meeting at II36: adjacent, not connected
    assert not connected(cmap, "KK32", "LL32")
    for g, info in cmap.hexes.items():               # every Elevated hex is on a wall line
        if info.terrain[0] in ELEVATED:
            assert any(cmap.hexsides.get(hexside(g, n), {}).get("connected") for n in g.neighbors()), cmap.name(g)
    for hs, feats in cmap.hexsides.items():          # and only Elevated hexes are connected
        if feats.get("connected"):
            a, b = hs.a, hs.b
            assert cmap.hexes[a].terrain[0] in ELEVATED and cmap.hexes[b].terrain[0] in ELEVATED


def test_the_bridge_connects_the_first_wall_to_the_temple(cmap):  # 2.11, 7.12
    assert connected(cmap, "HH42", "GG43") and connected(cmap, "HH42", "II42")
    assert not connected(cmap, "HH42", "II41")


def test_bridge_entry_hexsides(cmap):  # 6.2, 8.4
    bridge = cmap.resolve("HH42")
    entries = {cmap.name(n) for n in bridge.neighbors() if side(cmap, "HH42", cmap.name(n)).get("bridge_entry")}
    assert entries == {"HH41", "HH43"}


def test_north_wall(cmap):  # 13.22
    def nw(name):
        return "north_wall" in cmap.hexes[cmap.resolve(name)].terrain
    assert all(nw(h) for h in ("CC20", "BB21", "EE19", "FF18"))      # the Third Wall by Fort DD19
    assert terrain(cmap, "CC20") == "wall"                          # still a Wall for everything else
    assert not nw("DD19") and not nw("QQ32") and not nw("P36")      # Forts and Fortresses are not
    assert not nw("QQ35") and not nw("II42")                        # the Temple's walls count as Bastions
    assert not any(nw(cmap.name(g)) for g, i in cmap.hexes.items() if i.terrain[0] != "wall")


def test_temple_west_side_blocked(cmap):  # 8.92
    assert side(cmap, "JJ37", "JJ38").get("temple_west") and side(cmap, "JJ42", "JJ43").get("temple_west")
    assert not side(cmap, "JJ39", "KK39").get("temple_west")        # in from the west gate II39, then east
    for hs, feats in cmap.hexsides.items():
        if feats.get("temple_west"):
            a, b = hs.a, hs.b
            assert cmap.hexes[a].terrain[0] == cmap.hexes[b].terrain[0] == "courtyard"


def test_antonia_towers_are_the_antonia(cmap):  # 18.33, 18.4
    for name in ("II33", "LL31", "LL34", "II36"):
        assert terrain(cmap, name) == "fortress" and cmap.hexes[cmap.resolve(name)].region == "Antonia Fortress", name
    shared = [n for n in ("II36", "JJ35", "KK35", "LL34")
              if any(cmap.hexes[x].region == "Temple District" for x in cmap.resolve(n).neighbors())]
    assert len(shared) == 4                                          # 18.4: the four-hex overlap with the Temple


def test_city_of_david_has_open_ground(cmap):  # 18.613
    open_ground = [i for i in cmap.hexes.values()
                   if i.region == "City of David" and i.terrain[0] not in {"built_up", "building", "temple"}]
    assert len(open_ground) >= 3


def test_every_tower_has_its_stairway(cmap):  # 8.93; the README: one per Fortress, Fort and Bastion
    for g, info in cmap.hexes.items():
        if info.terrain[0] in {"fortress", "fort", "bastion"}:
            inner = [n for n in g.neighbors() if n in cmap.hexes and cmap.hexes[n].region
                     and cmap.hexes[n].terrain[0] in GROUND | {"built_up"}]
            stairs = [n for n in g.neighbors() if cmap.hexsides.get(hexside(g, n), {}).get("stairway")]
            assert len(stairs) == (1 if inner else 0), cmap.name(g)
    assert side(cmap, "P61", "Q61").get("stairway")
