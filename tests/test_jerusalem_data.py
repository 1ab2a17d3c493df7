"""The Jerusalem! (1948) game data: vocabulary, counters, tables and the Scenario II set-up."""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest
import yaml

from toolkit.games.jerusalem.units import UnitValues, check_counter

from toolkit.mapdata import open_map

ROOT = Path(__file__).resolve().parent.parent
MOD = ROOT / "modules" / "jerusalem-1948"
SCENARIO = MOD / "scenarios" / "scenario-ii.yaml"

# Every unit the rulebook names (issue 4), by counter id.
NAMED_UNITS = {
    "hgh-4-6": ("infantry", 4, 6), "plm-8-8": ("infantry", 8, 8), "gdn-2-4": ("infantry", 2, 4),
    "alx-12-6": ("infantry", 12, 6), "j-ac-4-30": ("armored_car", 4, 30), "j-ac-h-2-18": ("armored_car", 2, 18),
    "al-ac-4-30-6r": ("armored_car", 4, 30), "al-ac-4-30-4r": ("armored_car", 4, 30),
    "j-truck-1-24-1": ("truck", 1, 24), "j-truck-1-24-3": ("truck", 1, 24), "al-truck-1-24-3": ("truck", 1, 24),
    "syr-truck-1-24-3": ("truck", 1, 24), "irq-truck-1-24-3": ("truck", 1, 24),
    "j-bus-3-12": ("bus", 3, 12), "j-bus-2-12": ("bus", 2, 12),
    "j-ht-2-10": ("halftrack", 2, 10), "al-ht-4-10": ("halftrack", 4, 10), "j-ht-flame": ("halftrack", 2, None),
    "j-dozer": ("bulldozer", 2, None), "davidka": ("artillery", None, None),
    "j-art-2-2": ("artillery", 2, 2), "j-art-3-4": ("artillery", 3, 4), "al-art-3in": ("artillery", 3, 4),
    "al-art-25lb": ("artillery", 4, 2), "al-art-2in": ("artillery", 2, 4), "al-art-6lb": ("artillery", 2, None),
    "j-art-6in": ("artillery", None, None), "j-art-mix": ("artillery", None, None), "ar-art-mix": ("artillery", None, None),
    "a-gar-4-0": ("garrison", 4, 0), "a-gar-6-0": ("garrison", 6, 0), "a-gar-12-0": ("garrison", 12, 0),
    "j-gar-6-0": ("garrison", 6, 0), "j-gar-8-0": ("garrison", 8, 0), "j-gar-12-0": ("garrison", 12, 0),
    "jc": ("convoy", 12, None), "irgun": ("infantry", None, None), "stern": ("infantry", None, None),
    "al-12-8-6r": ("infantry", 12, 8), "al-12-8-4r": ("infantry", 12, 8), "mufti-2-8": ("infantry", 2, 8),
    "syr-3-4": ("infantry", 3, 4), "irq-3-4": ("infantry", 3, 4), "eef-6-6": ("infantry", None, None),
    "eef-m4": ("tank", None, None), "eef-matilda": ("tank", None, None),
    "amin": ("leader", None, None), "khader": ("leader", None, None), "jazzi": ("leader", None, None),
    "irekat": ("leader", None, None), "ghory": ("leader", None, None), "kaukji": ("leader", None, None),
    "kutub": ("leader", None, None), "tell": ("leader", None, None), "shaltiel": ("leader", None, None),
    "dummy-leader": ("dummy_leader", None, None),
}
VALUE_KEYS = set(UnitValues.model_fields)
NO_ZOC_TYPES = {"truck", "bus", "leader", "dummy_leader"}       # 4.1, 4.6
MECHANIZED_TYPES = {"armored_car", "tank", "halftrack", "bulldozer"}   # 1.2.1


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game():
    return load(MOD / "game.yaml")


@pytest.fixture(scope="module")
def counters():
    return load(MOD / "counters.yaml")


@pytest.fixture(scope="module")
def by_id(counters):
    return {c["id"]: c for c in counters["counters"]}


@pytest.fixture(scope="module")
def tables():
    return load(MOD / "tables.yaml")


@pytest.fixture(scope="module")
def scenario():
    return load(SCENARIO)


@pytest.fixture(scope="module")
def cmap():
    return open_map("jerusalem-1948")


@pytest.fixture(scope="module")
def placed(scenario, cmap, by_id):
    """Hex -> list of (unit, counter) of the Scenario II position."""
    out = defaultdict(list)
    for u in scenario["units"]:
        if "hex" in u:
            out[cmap.resolve(u["hex"])].append((u, by_id[u["counter"]]))
    return out


# ------------------------------------------------------------------ vocabulary and counters

def test_files_name_the_game(game, counters, tables, scenario):
    assert game["id"] == counters["game"] == tables["game"] == scenario["game"] == "jerusalem-1948"
    assert game["map"] == "jerusalem-1948"


def test_turns_are_the_eleven_and_a_half_of_3_5(game):
    turns = game["turns"]
    assert len(turns) == 12 and turns[0] == "April I" and turns[-1] == "June IV"
    assert turns[turns.index("May IV"):] == ["May IV", "June I", "June II", "June III", "June IV"]
    assert [p["id"] for p in game["phases"]] == ["overland", "road"]


def test_ids_unique(counters):
    ids = [c["id"] for c in counters["counters"]] + [m["id"] for m in counters["markers"]]
    assert len(ids) == len(set(ids))
    assert all(c["id"] == c["id"].lower() and set(c["id"]) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")
               for c in counters["counters"])


def test_counter_vocabulary_is_declared(game, counters):
    sides = {s["id"] for s in game["sides"]}
    nats = {n["id"]: n["side"] for n in game["nationalities"]}
    assert set(nats.values()) <= sides
    for c in counters["counters"]:
        assert c["side"] in sides, c["id"]
        assert nats[c["nationality"]] == c["side"], c["id"]
        assert c["type"] in game["unit_types"], c["id"]
        assert set(c["values"]) <= VALUE_KEYS, c["id"]
        assert set(c.get("back") or {}) <= VALUE_KEYS, c["id"]
        assert set(c["reconstructed"]) <= VALUE_KEYS | {"count"}, c["id"]
        assert c["rules"] and c["count"] >= 1, c["id"]


@pytest.mark.parametrize("cid", sorted(NAMED_UNITS))
def test_named_unit_exists(by_id, cid):
    kind, strength, mp = NAMED_UNITS[cid]
    c = by_id[cid]
    assert c["type"] == kind
    if strength is not None:
        assert c["values"]["strength"] == strength
    if mp is not None:
        assert c["values"]["mp"] == mp


def test_counter_values_follow_the_rules(by_id):
    for cid, c in by_id.items():
        v = c["values"]
        assert v["strength_use"] in {"attack", "first_fire", "none"}, cid
        assert v["mp_class"] in {"both", "one", "road", "garrison"}, cid
        assert v["mechanized"] == (c["type"] in MECHANIZED_TYPES), cid            # 1.2.1
        if c["type"] in NO_ZOC_TYPES or (c["type"] == "garrison" and c["side"] == "arab"):
            assert v["zoc"] is False, cid                                          # 4.1
        if c["type"] == "garrison":
            assert (v["mp"], v["mp_class"], v["strength_use"]) == (0, "garrison", "first_fire"), cid   # 7.1, 9.4.1
            assert not v["transportable"], cid                                     # 8.6
        if c["type"] in {"armored_car", "tank"}:
            assert v["mp_class"] == "one", cid                                     # 7.2, 8.2
        if c["type"] in {"truck", "bus"}:
            assert v["mp_class"] == "road" and v["transport"] and v["capacity"], cid   # 7.3, 8.7.1
        if c["type"] == "artillery":
            assert v["range"] and v["range"] >= 1, cid                             # 1.2.1
        if v["strength"] is None:
            assert c["type"] == "dummy_leader" or (c["type"] == "leader" and v["leader_multiplier"]), cid   # 12.6


def test_special_counters(by_id):
    assert by_id["hgh-4-6"]["back"] == {"strength_use": "none", "zoc": False}     # 6.5.2
    jc = by_id["jc"]["values"]
    assert (jc["strength"], jc["strength_use"], jc["mp"], jc["capacity"]) == (12, "none", None, 3)   # 6.1, 6.3.2, 6.7.2
    assert by_id["j-ht-flame"]["values"]["targeted_strength"] == 12                 # 11.0
    assert by_id["al-art-6lb"]["values"]["targeted_strength"] == 12                 # 10.9.2
    assert by_id["khader"]["values"]["leader_multiplier"] == 3                      # 12.7 example
    assert by_id["khader"]["values"]["jeep"] and by_id["shaltiel"]["values"]["jeep"]   # 12.5
    assert by_id["kaukji"]["values"]["leader_multiplier"] == 0.5                    # 12.6 note
    assert by_id["amin"]["values"]["city_only"] and by_id["amin"]["values"]["mp"] is None   # 12.9.3
    assert by_id["mufti-2-8"]["values"]["needs_leader"]                             # 1.2.1, 7.4
    assert by_id["irgun"]["count"] == 2 and by_id["stern"]["count"] == 1            # 13.2
    # 13.2.4: both Irgun and the Stern Gang total 5, doubled to 10.
    assert 2 * (2 * by_id["irgun"]["values"]["strength"] + by_id["stern"]["values"]["strength"]) == 10
    assert by_id["tell"]["nationality"] == "arab_legion" and by_id["tell"]["values"]["formation"] == "6th Regiment"
    assert by_id["hgh-4-6"]["count"] == 20 and by_id["mufti-2-8"]["count"] == 10   # highest Scenario II rolls


def test_markers(counters):
    ids = {m["id"] for m in counters["markers"]}
    assert {"stop", "no_entry", "no_remain", "phase", "date", "bomb", "secondary_road", "convoy_arrow"} <= ids


def test_village_lists_name_map_villages(game, cmap):
    lists = game["place_lists"]
    jewish, arab = lists["jewish_villages"], lists["arab_villages"]
    assert not set(jewish) & set(arab)
    villages = {h for h, info in cmap.hexes.items() if "village" in info.terrain}
    assert {cmap.resolve(p) for p in jewish + arab} == villages          # every village is on one side
    city = {h for h, info in cmap.hexes.items() if "jerusalem_city" in info.terrain}
    assert {cmap.resolve(p) for p in lists["jerusalem_city"]} == city and len(city) == 12   # 1.3


# ------------------------------------------------------------------ tables

def test_movement_in_half_mp(tables):
    mv = tables["movement"]
    assert (mv["clear"], mv["uphill"], mv["level_or_downhill"]) == (4, 6, 4)
    assert (mv["stream_mechanized"], mv["stream_other"], mv["pickup"], mv["bevingrad"]) == (8, 4, 4, 1)
    assert mv["primary_road"] == {"level": 1, "uphill": 3, "downhill": 1}
    assert mv["secondary_road"] == {"level": 2, "uphill": 4, "downhill": 2}
    assert mv["city"] == {"primary": 1, "secondary": 2, "none": 4}
    # 1.3 example: five primary, three secondary, thirteen primary road hexes = 12 MP.
    assert 5 * mv["primary_road"]["level"] + 3 * mv["secondary_road"]["level"] + 13 * mv["primary_road"]["level"] == 24


def test_crt(tables):
    cols = tables["odds_columns"]
    assert cols == ["1-2", "1-1", "2-1", "3-1", "4-1", "6-1", "8-1", "10-1"]
    assert [tables["crt"][c] for c in cols] == [1, 2, 3, 4, 5, 6, 7, None]


def test_combat_modifiers(tables):
    mods = {m["id"]: m for m in tables["combat_modifiers"]}
    expect = {"higher_terrain": 1, "stream": 1, "village": 1, "village_on_higher": 2, "city": 2,
              "city_vs_arab_legion": 1, "old_city_wall_all_outside": 3, "old_city_wall_some_inside": 2,
              "monastery_cathedral_protected": 3, "monastery_cathedral_other": 2, "police_fort_protected": 3,
              "police_fort_other": 0, "bevingrad": 3, "shaltiel": -1, "tell": -1, "artillery_vs_transported": -1}
    assert {k: m["value"] for k, m in mods.items()} == expect
    assert all(m["rule"] for m in mods.values())
    # 9.5 example: fort defenders above all their attackers add four.
    assert mods["police_fort_protected"]["value"] + mods["higher_terrain"]["value"] == 4


def test_special_hexes_use_map_terrain(tables, cmap):
    terrains = {t for info in cmap.hexes.values() for t in info.terrain}
    for key, entry in tables["special_hexes"].items():
        assert set(entry.get("terrain", [])) <= terrains, key
        for p in entry.get("places", []):
            assert cmap.resolve(p), key


# ------------------------------------------------------------------ Scenario II

def test_scenario_header(scenario, game):
    assert (scenario["scenario"], scenario["turn"], scenario["phasing_side"]) == ("II", "May IV", "jewish")
    assert scenario["phase"] in [p["id"] for p in game["phases"]]
    assert scenario["params"] == {"haganah_roll": 1, "mufti_roll": 1}


def test_scenario_units_and_hexes_exist(scenario, by_id, cmap, game):
    ids = [u["id"] for u in scenario["units"]]
    assert len(ids) == len(set(ids))
    for u in scenario["units"]:
        assert u["counter"] in by_id, u
        assert ("hex" in u) != ("box" in u), u
        if "hex" in u:
            assert u["hex"].isdigit() and cmap.resolve(u["hex"]) in cmap.hexes, u    # hex names, on the map
        else:
            assert u["box"] in [b if isinstance(b, str) else b["id"] for b in game["boxes"]], u   # an id, or {id, name}
        assert set(u.get("flags", [])) <= set(game["flags"]), u


def test_no_more_copies_than_counters(scenario, by_id):
    used = Counter(u["counter"] for u in scenario["units"])
    for cid, n in used.items():
        assert n <= by_id[cid]["count"], cid


def test_stacking(placed):
    for h, units in placed.items():
        kinds = [c["type"] for _, c in units]
        assert kinds.count("infantry") <= 3, h                     # 5.1
        assert len(units) <= 7, h                                   # 5.1
        assert sum(k in ("leader", "dummy_leader") for k in kinds) <= 1, h   # 5.2, 12.2
        assert len({c["side"] for _, c in units}) == 1, h          # 4.2: no enemy units share a hex


def test_leaders_with_legion_and_eef(placed):
    for h, units in placed.items():
        leaders = [c for _, c in units if c["type"] in ("leader", "dummy_leader")]
        nats = {c["nationality"] for _, c in units if c["type"] not in ("leader", "dummy_leader")}
        if leaders and leaders[0]["side"] == "arab":
            assert "eef" not in nats, h                                    # 5.2
            if "arab_legion" in nats:
                assert leaders[0]["id"] == "tell", h                       # 5.2
            assert nats, h                                                 # 12.3: never alone


def test_garrisons(placed, cmap, game):
    lists = game["place_lists"]

    def where(counter):
        return sorted(h for h, units in placed.items() for _ in [u for u, c in units if c["id"] == counter])

    city = {cmap.resolve(p) for p in lists["jerusalem_city"]}
    special = {cmap.resolve(p) for p in ("Jewish HQ", "Jewish Quarter", "Arab Quarter")}
    assert where("j-gar-12-0") == sorted(city - special)                 # Scenario II a)
    assert where("j-gar-8-0") == [cmap.resolve("Jewish Quarter")]
    six = [p for p in lists["jewish_villages"] if p not in ("Bethany", "Kfar Etzion", "Ramat Rahel")]
    assert where("j-gar-6-0") == sorted({cmap.resolve(p) for p in six + ["Hulda", "El Kubab", "Jewish HQ"]})
    assert where("a-gar-12-0") == [cmap.resolve("Arab Quarter")]
    no_arab = {"Deir Muhzein", "Bab el Wad", "Beit Mashir", "Saris", "Kastel", "Deir Yassin", "Sheikh Jarrah"}
    assert where("a-gar-4-0") == sorted(cmap.resolve(p) for p in lists["arab_villages"] if p not in no_arab)
    assert where("amin") == [cmap.resolve("Arab Quarter")]


def test_unit_counts_for_roll_one(scenario, tables):
    used = Counter(u["counter"] for u in scenario["units"])
    roll = tables["scenario_ii"]
    assert used["hgh-4-6"] == roll["haganah_roll"][scenario["params"]["haganah_roll"]] == 10
    mufti = roll["mufti_roll"][scenario["params"]["mufti_roll"]]
    assert used["mufti-2-8"] == mufti["mufti"] == 5
    leaders = {u["counter"] for u in scenario["units"] if u["counter"] in
               {"kaukji", "ghory", "jazzi", "kutub", "irekat", "khader"}}
    assert leaders == set(mufti["leaders"]) == {"kaukji", "ghory"}
    expect = {  # Scenario II b)-g) of both sides
        "shaltiel": 1, "davidka": 1, "j-art-2-2": 1, "plm-8-8": 1, "j-ac-4-30": 2, "j-ac-h-2-18": 2, "gdn-2-4": 1,
        "j-truck-1-24-1": 2, "j-truck-1-24-3": 3 + 1, "j-bus-3-12": 1, "j-bus-2-12": 1, "alx-12-6": 3, "jc": 1,
        "syr-3-4": 3, "syr-truck-1-24-3": 1, "irq-3-4": 3, "irq-truck-1-24-3": 1,
        "al-12-8-6r": 3, "al-ht-4-10": 3, "al-ac-4-30-6r": 2, "tell": 1,
        "al-ac-4-30-4r": 1, "al-12-8-4r": 3, "al-art-25lb": 2, "al-art-3in": 1, "al-truck-1-24-3": 2, "amin": 1,
    }
    assert {k: used[k] for k in expect} == expect


def test_set_up_places(scenario, cmap, by_id):
    """Units stand where Scenario II allows them."""
    def places(*names):
        return {cmap.resolve(n) for n in names}
    city = {h for h, info in cmap.hexes.items() if "jerusalem_city" in info.terrain or "bevingrad" in info.terrain}
    brigade_places = places("Bab el Wad", "Beit Mashir", "Saris", "Kastel", "Lifta", "Hadassah",
                            "Hebrew University", "Ramat Rahel") | (city - places("Arab Quarter", "Jewish Quarter"))
    mufti_places = places("Shuafat", "Bethlehem", "Sufata", "Sur Bahir", "Sheikh Jarrah", "Arab Quarter")
    rule = {"mufti-2-8": mufti_places, "kaukji": mufti_places, "ghory": mufti_places,
            "syr-3-4": places("Ramallah"), "irq-3-4": places("Bethany"), "alx-12-6": places("El Kubab"),
            "tell": places("Bethlehem", "Sheikh Jarrah"), "al-12-8-6r": places("Bethlehem", "Sheikh Jarrah"),
            "al-12-8-4r": places("Latrun", "Latrun Police Fort"), "al-art-25lb": places("Latrun", "Latrun Police Fort"),
            "hgh-4-6": brigade_places, "plm-8-8": brigade_places, "shaltiel": brigade_places,
            "j-ac-4-30": brigade_places, "davidka": brigade_places}
    for u in scenario["units"]:
        if u["counter"] in rule and "hex" in u:
            assert cmap.resolve(u["hex"]) in rule[u["counter"]], u
    boxed = {u["counter"] for u in scenario["units"] if u.get("box") == "reinforcements"}
    assert {"jc", "bde7-4-6", "eef-6-6"} <= boxed                    # Scenario II d), g): enter this turn


def test_carrying_within_capacity(scenario, by_id):
    units = {u["id"]: u for u in scenario["units"]}
    load_of = Counter(u["carried_by"] for u in units.values() if u.get("carried_by"))
    for carrier, n in load_of.items():
        assert by_id[units[carrier]["counter"]]["values"]["transport"]
        assert n <= by_id[units[carrier]["counter"]]["values"]["capacity"], carrier


# ------------------------------------------------------------------ the toolkit's own loaders

def test_loads_through_toolkit_game():
    game_mod = pytest.importorskip("toolkit.game")
    g = game_mod.load_game("jerusalem-1948")
    assert "hgh-4-6" in g.counters and g.spec.turns[-1] == "June IV"
    pos = game_mod.load_position(SCENARIO)
    assert pos.turn == "May IV" and len(pos.units) == len(load(SCENARIO)["units"])
    carried = pos.carried(pos.by_id["j-ht-2"])
    assert len(carried) == 2


def test_every_counter_face_has_valid_values():
    from toolkit.game import load_game
    problems = [p for c in load_game("jerusalem-1948").manifest.counters for p in check_counter(c)]
    assert problems == []
