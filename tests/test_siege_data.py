"""The Siege of Jerusalem game data (issue 6): vocabulary, counter manifest, VASSAL module."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from toolkit.game import load_game
from toolkit.games.siege.units import UnitValues, check_counter
from toolkit.vassal.build.module import build_module
from toolkit.vassal.build.validate import validate_module

ROOT = Path(__file__).resolve().parent.parent
MOD = ROOT / "modules" / "siege-of-jerusalem"
VALUE_KEYS = set(UnitValues.model_fields)
LEGIONS = {"legio_v": "V", "legio_x": "X", "legio_xii": "XII", "legio_xv": "XV"}          # 2.51
FACTIONS = {"faction_y": "Y", "faction_j": "J", "faction_e": "E", "faction_s": "S"}     # 2.51
COMBAT_CLASSES = {"heavy_infantry", "light_infantry", "cavalry", "hq", "artillery"}     # 2.4


@pytest.fixture(scope="module")
def game():
    return load_game("siege-of-jerusalem")


@pytest.fixture(scope="module")
def raw():
    return yaml.safe_load((MOD / "counters.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def counters(game):
    return game.manifest.counters


def test_game_loads(game):
    spec = game.spec
    assert spec.id == "siege-of-jerusalem" and spec.map == "siege-of-jerusalem"
    assert spec.title == "The Siege of Jerusalem"
    assert [s.id for s in spec.sides] == ["roman", "jewish"]
    assert spec.phases == ["recovery", "fire", "movement", "melee"]                 # 4.1
    assert len(spec.turns) == 50 and spec.turns[0] == "AP I/1" and spec.turns[-1] == "AP V/10"   # 18, 18.1
    nats = {n.id: n.side for n in spec.nationalities}
    assert all(nats[n] == "roman" for n in LEGIONS) and all(nats[n] == "jewish" for n in FACTIONS)
    assert nats["garrison"] == "jewish"


def test_every_face_validates(counters):
    problems = [p for c in counters for p in check_counter(c)]
    assert problems == []


def test_every_counter_carries_every_key(raw):
    for c in raw["counters"]:
        assert set(c["values"]) == VALUE_KEYS, c["id"]
        assert set(c.get("back") or {}) <= VALUE_KEYS, c["id"]
        assert set(c["reconstructed"]) <= VALUE_KEYS | {"count"}, c["id"]
        assert c["rules"] and c["count"] >= 1, c["id"]


def test_ids_unique(raw):
    ids = [c["id"] for c in raw["counters"]] + [m["id"] for m in raw["markers"]]
    assert len(ids) == len(set(ids))


def test_every_unit_has_a_disrupted_back(counters):
    for c in counters:                                                               # 2.3, 2.45
        assert c.back is not None and c.back_name and c.back_name != c.name, c.id


@pytest.mark.parametrize("nat,num", sorted(LEGIONS.items()))
def test_legion(counters, nat, num):
    mine = [c for c in counters if c.values["formation"] == num and c.side == "roman"]
    types = {c.type for c in mine}
    assert {"cohort", "velites", "foederati", "syrian_archers", "cavalry", "leader", "ram", "siege_tower",
            "ballista", "onager", "catapult"} <= types
    cohorts = [c for c in mine if c.type == "cohort"]
    assert all(c.nationality == nat for c in cohorts)
    by_cohort: dict[int, list[float]] = {}
    for c in cohorts:
        by_cohort.setdefault(c.values["cohort"], []).append(c.values["melee"])
        assert c.values["movement"] == 7 and c.values["unit_class"] == "heavy_infantry"   # 8.8: 7 - 6 = 1 MF left, 2.41
    assert all(sorted(m) == [5, 6, 7] for m in by_cohort.values())                    # 11.841


@pytest.mark.parametrize("nat,letter", sorted(FACTIONS.items()))
def test_faction(counters, nat, letter):
    mine = {c.type: c for c in counters if c.nationality == nat}
    assert {"regulars", "militia", "leader"} <= set(mine)
    assert (mine["regulars"].values["melee"], mine["regulars"].values["movement"]) == (5, 7)   # 18.611
    assert (mine["militia"].values["melee"], mine["militia"].values["movement"]) == (2, 6)     # 18.611
    assert all(c.values["formation"] == letter for c in mine.values())


def test_commanders_and_other_families(counters):
    by_id = {c.id: c for c in counters}
    for cid in ("titus", "gallus", "tiberius-alexander", "eliezer-ben-yair"):             # 5.5
        assert by_id[cid].type == "commander" and by_id[cid].values["commander"] is True
    assert by_id["titus"].values["casualty_vp"] == 200                                   # 18.91
    types = {c.type for c in counters}
    assert {"armored_tower", "cauldron", "zealots"} <= types
    zealots = by_id["zealots-7-7"]
    assert zealots.values["formation"] is None and (zealots.values["melee"], zealots.values["movement"]) == (7, 7)


def test_garrisons(counters):
    got = {(c.values["garrison_area"], c.type): c.count for c in counters if c.nationality == "garrison"}
    assert got == {("AF", "regulars"): 4, ("HP", "regulars"): 6, ("TQ", "regulars"): 8, ("TQ", "zealots"): 2}  # 18.4


def test_values_follow_the_rules(counters):
    for c in counters:
        v, back = c.values, {**c.values, **(c.back or {})}
        if v["unit_class"] == "siege_engine":                                            # 2.4, 2.45, 2.53
            assert not v["combat_unit"] and v["melee"] is None and v["recovery"] is None, c.id
            assert back["movement"] is None and back["breach"] is None, c.id
            assert (v["breach"] == 1) == (c.type in {"ram", "armored_tower"}), c.id
        else:
            assert v["unit_class"] in COMBAT_CLASSES and v["combat_unit"], c.id
            assert v["recovery"] is not None, c.id                                       # 2.55
            assert back["melee_defense_only"], c.id                                      # 2.53
        if v["unit_class"] == "hq":
            assert (v["command_radius"], back["command_radius"]) == (10, 8), c.id        # 5.1, 5.11
        if c.type in {"ballista", "onager", "catapult"}:
            assert v["missile"] is not None and v["range"] is not None, c.id             # 2.522
            assert v["melee_defense_only"], c.id                                         # 2.46
        if c.type in {"zealots", "militia", "cauldron"}:
            assert v["rocks"], c.id                                                      # 2.523
        if c.type in {"velites", "foederati", "syrian_archers", "regulars"}:
            assert v["missile"] is not None, c.id                                        # 2.522
        if c.side == "roman" and c.type != "commander" and c.type != "armored_tower":
            assert v["formation"] in LEGIONS.values(), c.id                              # 2.51


def test_markers(raw):
    ids = {m["id"] for m in raw["markers"]}
    assert {"turn", "rout", "panic", "breach_damage", "breach", "ladder", "ramp", "testudo", "broken_testudo",
            "wreckage", "multiple_attack_a"} <= ids
    assert all(m["rules"] for m in raw["markers"])


def test_module_builds_and_validates(tmp_path):
    out = build_module("siege-of-jerusalem", tmp_path / "siege.vmod")
    assert validate_module(str(out)) == []


def test_testudo_arithmetic_fixes_heavy_infantry_at_7_mf(counters):
    # 8.8: two Fresh Heavy Infantry forming a Testudo for six MF are left with one MF
    hi = [c for c in counters if c.values["unit_class"] == "heavy_infantry"]
    assert hi and all(c.values["movement"] - 6 == 1 for c in hi)
    assert all(c.value("movement", back=True) < 6 for c in hi)                          # 16.4: too few MF Disrupted


def test_disrupted_hq_and_velites_can_join_a_testudo(counters):
    # 16.4: the only Disrupted units with the MF (six, 8.8) to form or join a Testudo are HQ and Velites
    for c in counters:
        if c.side == "roman" and (c.type == "velites" or c.values["unit_class"] == "hq"):
            assert c.value("movement", back=True) >= 6, c.id
            assert c.values["movement"] >= c.value("movement", back=True), c.id


def test_disrupted_regulars_have_five_mf(counters):
    # 15.3 example: a Disrupted Regular retreats along a Wall and into a Bastion with three MF left
    # (Elevated Hexes along a Wall at 1 MF each), then 2 MF down the stairway and one more
    for c in counters:
        if c.type == "regulars":
            assert c.value("movement", back=True) == 5, c.id


def test_onager_bands(counters):
    # 13.2 example: two Jewish Onagers give six Attack Factors at secondary range, -1 beyond Primary Range
    ona = next(c for c in counters if c.type == "onager" and c.side == "jewish")
    assert ona.count >= 2 and ona.values["missile_secondary"] == 3
    assert ona.values["primary_range"] < ona.values["range"]
    for c in counters:
        if c.type in {"ballista", "onager", "catapult"}:
            v = c.values
            assert v["primary_range"] is not None and v["missile_secondary"] is not None, c.id   # 9.3, 13.2
            assert v["missile_secondary"] <= v["missile"] and v["primary_range"] < v["range"], c.id


def test_engines_move_within_their_pushers_mf(counters):
    # 8.61: pushers lose two MF per MF the engine spends; the example pushes a Tower two Clear hexes (1 MF each)
    hi_mf = min(c.values["movement"] for c in counters if c.values["unit_class"] == "heavy_infantry")
    for c in counters:
        if c.values["unit_class"] == "siege_engine":
            assert 2 <= c.values["movement"] and 2 * c.values["movement"] <= hi_mf, c.id
