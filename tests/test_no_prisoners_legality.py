"""*No Prisoners* position checker: one hand-built position per violation with exact rule, hexes and units,
and both bundled scenario set-ups check clean.

Hand-built positions use the combat tests' module copy (``test_no_prisoners_combat.py``: synthetic
map, test counters, the REAL ``tables.yaml``, so the stacking limits are the module's data).
"""
from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from test_no_prisoners_combat import REAL_TABLES, npc, pos  # noqa: F401  (fixture)

from toolkit.game import load_position, modules_dir
from toolkit.game.violations import check_json
from toolkit.games.no_prisoners.legality import check, is_setup

LIMITS = yaml.safe_load(REAL_TABLES.read_text())["stacking"]["limit"]


def one(violations):
    assert len(violations) == 1, violations
    v = violations[0]
    assert v.message.endswith(f"({v.rule})")
    return v


@pytest.mark.parametrize("name", ["scenario-1.yaml", "scenario-2.yaml"])
def test_bundled_scenarios_check_clean(name):
    p = load_position(modules_dir() / "no-prisoners" / "scenarios" / name)
    assert is_setup(p)
    assert check_json(check(p)) == {"legal": True, "violations": []}


def test_scenario_zone_violations_on_the_real_setup():
    p = load_position(modules_dir() / "no-prisoners" / "scenarios" / "scenario-1.yaml")
    m = p.game.map.resolve
    moved = p.moved({"a-42-div": replace(p.by_id["a-42-div"], hex=m("0509"))})   # two units one hex east of the canal
    v = one(check(moved))
    assert (v.rule, v.hexes, v.units) == ("25.4.1", ("0509",), ("a-42-div", "a-52-div"))
    later = replace(moved, phase="west_allied_movement")                         # no longer the set-up
    assert check(later) == []


def test_desert_stacking_limit(npc):  # noqa: F811
    n = LIMITS["desert"]
    units = [(f"u{i}", "w1", "0704") for i in range(n + 1)]
    v = one(check(pos(npc, units)))
    assert (v.rule, v.hexes, v.units) == ("9.1", ("0704",), tuple(f"u{i}" for i in range(n + 1)))
    assert check(pos(npc, units[:-1])) == []


def test_air_and_naval_stack_free(npc):  # noqa: F811
    n = LIMITS["desert"]
    units = [(f"u{i}", "w1", "0704") for i in range(n)] + [("r", "rfc", "0704"), ("n", "emed", "0704")]
    assert check(pos(npc, units)) == []


def test_enemy_units_in_one_hex(npc):  # noqa: F811
    v = one(check(pos(npc, [("a", "w1", "0704"), ("d", "t2", "0704")])))
    assert (v.rule, v.hexes, v.units) == ("9.3", ("0704",), ("a", "d"))


def test_unit_outside_its_sector(npc):  # noqa: F811
    v = one(check(pos(npc, [("e", "e2", "0704")])))
    assert (v.rule, v.hexes, v.units) == ("17.1", ("0704",), ("e",))


def test_cp_unit_in_damascus(npc):  # noqa: F811
    v = one(check(pos(npc, [("t", "t2", "1206")], side="cp")))
    assert (v.rule, v.hexes, v.units) == ("21.3 A", ("1206",), ("t",))


def test_allied_units_of_both_sectors_in_damascus(npc):  # noqa: F811
    v = one(check(pos(npc, [("w", "w1", "1206"), ("e", "e2", "1206")])))
    assert (v.rule, v.hexes, v.units) == ("21.3 C", ("1206",), ("w", "e"))


def test_railhead_off_the_allied_rail(npc):  # noqa: F811
    assert check(pos(npc, [("a", "w1", "0105")], markers=[("railhead", "0505")])) == []
    v = one(check(pos(npc, [("a", "w1", "0105")], markers=[("railhead", "0704")])))
    assert (v.rule, v.hexes, v.units) == ("16.2 A", ("0704",), ())
    v = one(check(pos(npc, [("a", "w1", "0105")], markers=[("railhead", "1003")])))    # a CP (beersheba) line
    assert (v.rule, v.hexes) == ("16.2 A", ("1003",))


def test_railhead_under_an_enemy_unit_only_at_setup(npc):  # noqa: F811
    units = [("a", "w1", "0105"), ("t", "t2", "0505")]
    assert check(pos(npc, units, markers=[("railhead", "0505")])) == []                # 16.3 C: it stays
    p = pos(npc, units, markers=[("railhead", "0505")], params={"setup": True})
    p = replace(p, scenario="9")
    v = one(check(p))
    assert (v.rule, v.hexes, v.units) == ("16.2 A", ("0505",), ("t",))


def test_fsd_must_be_on_an_eastern_city_or_town(npc):  # noqa: F811
    assert check(pos(npc, [("e", "e2", "1412")], markers=[("fsd", "1412")])) == []
    v = one(check(pos(npc, [("e", "e2", "1411")], markers=[("fsd", "1411")])))
    assert (v.rule, v.hexes) == ("15.8 A", ("1411",))
    v = one(check(pos(npc, [("w", "w1", "0305")], markers=[("fsd", "0305")])))
    assert (v.rule, v.hexes) == ("15.8 A", ("0305",))
