"""*No Prisoners* combat calculator (11.x, 17.3 B, 21.2, 21.3 E) on hand-built positions with exact answers.

The module is a test copy: the synthetic map of ``test_no_prisoners_supply.py`` (columns 1-11
Western, 12-26 Eastern, sea on rows 10 and 12 of columns 1-7, Allied depot 0105 "Cairo") with a
few additions (a town 0305, a mountain 0606, the city "Jerusalem" 0807 (rough), the city
"Medina" 2005, a Suez Canal hexside 0508|0509, Damascus 1206 on the boundary), test counters of
chosen strengths and the REAL ``tables.yaml`` (so the odds columns, CRT grids and multipliers are
the module's data).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from position_files import write_position
import yaml

from test_no_prisoners_supply import synthetic_map

from toolkit.game.module import _load
from toolkit.games.no_prisoners.combat import combat, combat_json
from toolkit.games.no_prisoners.tables import load_tables

REAL_TABLES = Path(__file__).resolve().parent.parent / "modules" / "no-prisoners" / "tables.yaml"

GAME = """
id: no-prisoners
title: test copy
map: {map}
sides: [{{id: allied, name: Allies}}, {{id: cp, name: Central Powers}}]
nationalities: [{{id: british, name: British, side: allied}}, {{id: arab, name: Arab, side: allied}},
                {{id: turkish, name: Turkish, side: cp}}]
unit_types: [infantry, cavalry, hq, artillery, air_group, naval_squadron]
flags: [flipped, command_bonus_used, attacked, used_first_combat, used_second_combat, out_of_supply]
turns: ["1916-I", "1916-II", "1916-III"]
phases: [west_allied_movement, west_allied_first_combat, west_allied_second_combat, east_allied_reinforcement,
         east_allied_first_combat, west_cp_first_combat, east_cp_first_combat]
place_lists: {{}}
boxes: [reinforcements, eliminated, air_naval, replaceable, off_map]
"""
COUNTERS = """
game: no-prisoners
counters:
  - {id: w1, name: W 1, side: allied, nationality: british, type: infantry, values: {sector: W, combat: 1, ma: 5}}
  - {id: w3, name: W 3, side: allied, nationality: british, type: infantry, values: {sector: W, combat: 3, ma: 5}}
  - {id: w4, name: W 4, side: allied, nationality: british, type: infantry, values: {sector: W, combat: 4, ma: 5}}
  - {id: e2, name: E 2, side: allied, nationality: arab, type: infantry, values: {sector: E, combat: 2, ma: 5}}
  - {id: murray, name: Murray HQ, side: allied, nationality: british, type: hq,
     values: {sector: W, combat: 1, ma: 4, command_radius: 2}, back: {combat: 2, command_radius: 3}}
  - {id: rfc, name: RFC, side: allied, nationality: british, type: air_group,
     values: {sector: W, column_shift: 1, zoc: false, stacks_free: true, always_supplied: true}}
  - {id: rfc2, name: RFC 2, side: allied, nationality: british, type: air_group,
     values: {sector: W, column_shift: 1, zoc: false, stacks_free: true, always_supplied: true}}
  - {id: emed, name: EMED Sqd, side: allied, nationality: british, type: naval_squadron,
     values: {sector: W, column_shift: 1, zoc: false, stacks_free: true, always_supplied: true}}
  - {id: t3, name: T 3, side: cp, nationality: turkish, type: infantry, values: {sector: W, combat: 3, ma: 4}}
  - {id: t2, name: T 2, side: cp, nationality: turkish, type: infantry, values: {sector: W, combat: 2, ma: 4}}
  - {id: t10, name: T 10, side: cp, nationality: turkish, type: infantry, values: {sector: W, combat: 10, ma: 4}}
  - {id: te2, name: TE 2, side: cp, nationality: turkish, type: infantry, values: {sector: E, combat: 2, ma: 4}}
markers:
  - {id: railhead, name: Allied Railhead}
  - {id: fsd, name: Forward Supply Depot}
"""
EXTRA_PLACES = {"0305": ("Town", ["desert", "town"]), "0807": ("Jerusalem", ["rough", "city"]),
                "2005": ("Medina", ["desert", "city"]), "1206": ("Damascus", ["rough", "city"])}


def test_map() -> dict:
    """The supply tests' synthetic map with the additions of the module docstring."""
    m = synthetic_map()
    m["terrain"].update({"clear": {}, "rough": {}, "mountain": {}})
    m["features"]["suez_canal"] = {"kind": "hexside"}
    hexes = m["overrides"]["hexes"]
    for h, (place, terrain) in EXTRA_PLACES.items():
        hexes[h]["place"], hexes[h]["terrain"] = place, terrain
    hexes["0606"]["terrain"] = ["mountain"]
    hexes["1206"]["region"] = "Damascus"
    sides = [s for s in m["overrides"]["hexsides"] if "1206" not in s["between"]]
    sides.append({"between": ["0508", "0509"], "set": {"suez_canal": "true"}})
    m["overrides"]["hexsides"] = sides
    return m


test_map.__test__ = False  # not a test


@pytest.fixture
def npc(tmp_path, monkeypatch):
    folder = tmp_path / "modules" / "no-prisoners"
    folder.mkdir(parents=True)
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(test_map(), sort_keys=False))
    (folder / "game.yaml").write_text(GAME.format(map=tmp_path / "map.yaml"))
    (folder / "counters.yaml").write_text(COUNTERS)
    (folder / "tables.yaml").write_text(REAL_TABLES.read_text())
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    caches = (_load, load_tables)
    for c in caches:
        c.cache_clear()
    yield tmp_path
    for c in caches:
        c.cache_clear()


def pos(tmp_path, units, phase="west_allied_first_combat", side="allied", markers=(), params=None, turn="1916-II",
        boxed=()):
    """A position from ``(id, counter, hex)`` triples, ``(id, counter, box)`` and ``(marker, hex)`` pairs."""
    return write_position(tmp_path, "no-prisoners", turn, phase, side, units, markers=markers, params=params,
                          boxed=boxed)


SUPPORT = [("rfc", "rfc", "air_naval"), ("rfc2", "rfc2", "air_naval"), ("emed", "emed", "air_naval")]
# Defender at 0509: coastal (0510 is sea) and 2 hexes from Town 0305; attackers from 0409 / 0609 (no canal side; 0410 is sea).
HOLD = [("g", "w1", "0305"), ("cairo", "w1", "0105")]   # 15.4 B: the depot must be held for supply


def test_the_11_11_example_seven_against_three_three_shifts(npc):
    p = pos(npc, [("a", "w4", "0409"), ("b", "w3", "0609"), ("m", "murray", "0409"), *HOLD,
                  ("d", "t3", "0509")], boxed=SUPPORT)
    r = combat_json(combat(p, ["a", "b", "rfc", "emed"], ["d"], command=True))
    # The HQ attacks too?  No: only a and b; the HQ is in the hex and gives command.
    assert r["refused"] is None
    assert (r["attack"], r["defence"], r["ratio"], r["base_odds"]) == (7, 3, "2-1", "2-1")
    assert [(s["id"], s["rule"]) for s in r["shifts"]] == [("air_group", "11.8 A"), ("naval_squadron", "11.9 A"),
                                                            ("command", "11.10 A")]
    assert r["odds"] == "5-1"
    assert r["table"] == "MOCRT" and r["mocrt_allowed"]
    mocrt = yaml.safe_load(REAL_TABLES.read_text())["mocrt"]["5-1"]
    assert [x["result"] for x in r["results"]] == mocrt and [x["die"] for x in r["results"]] == [1, 2, 3, 4, 5, 6]
    assert "naval squadron" not in " ".join(s["why"] for s in r["denied_shifts"])


def test_11_14_half_to_one_is_the_worst_base_column_and_no_shift_is_lost(npc):
    # 11.14: odds worse than 1/2:1 use the 1/2:1 column as the base line, and shifts count from it column by
    # column (as in 11.11's example), so 1 against 10 with one shift is 1:1 and with two is 2:1.  The printed
    # 11.14 example says 1:1 after two shifts; we follow the stated rule (docs/games/no-prisoners.md).
    p = pos(npc, [("a", "w1", "0409"), *HOLD, ("d", "t10", "0509")], boxed=SUPPORT)
    assert combat(p, ["a"], ["d"]).odds == "1-2"
    one = combat(p, ["a", "rfc"], ["d"])
    assert (one.raw_odds, one.base_odds, one.odds) == ("1-10", "1-2", "1-1")
    r = combat_json(combat(p, ["a", "rfc", "emed"], ["d"]))
    assert (r["ratio"], r["base_odds"], r["odds"]) == ("1-10", "1-2", "2-1")
    assert len(r["shifts"]) == 2 and "11.14" in r["base_why"]
    assert any("11.14" in n and "example" in n for n in r["notes"])


def test_between_half_and_one_is_the_half_column_and_shifts_count_from_it(npc):
    p = pos(npc, [("a", "w1", "0409"), *HOLD, ("d", "t2", "0509")], boxed=SUPPORT)   # 1 against 2
    assert combat(p, ["a"], ["d"]).odds == "1-2"
    assert combat(p, ["a", "rfc"], ["d"]).odds == "1-1"


def test_above_six_to_one_starts_from_six(npc):
    p = pos(npc, [("a", "w4", "0409"), *HOLD, ("x", "t2", "0709")], boxed=SUPPORT)
    assert combat(p, ["a", "rfc"], ["x"]).refused.rule == "11.5 B"          # 0409 is not adjacent to 0709
    p = pos(npc, [("a", "w4", "0409"), ("b", "w4", "0609"), ("c", "w4", "0409"), *HOLD, ("d", "t2", "0509")],
            boxed=SUPPORT)
    r = combat(p, ["a", "b", "c", "rfc"], ["d"])       # 12 against 2 = 6:1 base, one shift 7:1
    assert (r.raw_odds, r.base_odds, r.odds) == ("6-1", "6-1", "7-1")
    assert any("7-1" in x for x in r.reconstructed)


def test_air_shift_needs_a_held_supplied_town_within_six(npc):
    near = pos(npc, [("a", "w4", "0409"), *HOLD, ("d", "t3", "0509")], boxed=SUPPORT)
    assert [s.id for s in combat(near, ["a", "rfc"], ["d"], command=False).shifts] == ["air_group"]
    nobody = pos(npc, [("a", "w4", "0409"), ("d", "t3", "0509")], boxed=SUPPORT)
    r = combat(nobody, ["a", "rfc"], ["d"], command=False)
    assert r.shifts == [] and [(s.id, s.rule) for s in r.denied_shifts] == [("air_group", "11.8 A")]
    # Two air groups: the second is denied (11.11 A).
    r = combat(near, ["a", "rfc", "rfc2"], ["d"], command=False)
    assert [s.unit for s in r.shifts] == ["rfc"] and [(s.unit, s.rule) for s in r.denied_shifts] == [("rfc2", "11.11 A")]
    used = near.moved({"rfc": replace(near.by_id["rfc"], flags=frozenset({"used_first_combat"}))})
    assert combat(used, ["a", "rfc"], ["d"], command=False).denied_shifts[0].rule == "11.11 C"


def test_naval_shift_coast_or_canal_only(npc):
    inland = pos(npc, [("a", "w4", "0704"), ("d", "t3", "0804")], boxed=SUPPORT)
    r = combat(inland, ["a", "emed"], ["d"], command=False)
    assert r.shifts == [] and r.denied_shifts[0].rule == "11.9 A"
    canal = pos(npc, [("a", "w4", "0409"), ("d", "t3", "0508")], boxed=SUPPORT)      # 0508|0509 is the canal
    r = combat(canal, ["a", "emed"], ["d"], command=False)
    assert [s.id for s in r.shifts] == ["naval_squadron"] and "Suez Canal" in r.shifts[0].why


def test_command_shift_comes_from_attack_bonus(npc):
    p = pos(npc, [("a", "w4", "0409"), ("m", "murray", "0408"), ("d", "t3", "0509")], boxed=SUPPORT)
    r = combat(p, ["a"], ["d"])
    assert [(s.id, s.unit, s.rule) for s in r.shifts] == [("command", "m", "11.10 A")] and r.odds == "2-1"
    assert combat(p, ["a"], ["d"], command=False).odds == "1-1"
    used = pos(npc, [("a", "w4", "0409"), ("m", "murray", "0408"), ("d", "t3", "0509")],
               params={"command_used": "m"})
    r = combat(used, ["a"], ["d"])
    assert r.shifts == [] and any("11.10 B" in n for n in r.notes)


def test_terrain_best_single_multiplier_and_hexside_only_if_every_attacker_crosses(npc):
    d = yaml.safe_load(REAL_TABLES.read_text())["defence"]
    mountain = pos(npc, [("a", "w4", "0506"), ("b", "w4", "0505"), ("d", "t2", "0606")])
    r = combat(mountain, ["a", "b"], ["d"], command=False)
    assert r.terrain.id == "mountain" and r.defence == 2 * d["terrain"]["mountain"]
    city = pos(npc, [("a", "w4", "0707"), ("d", "t2", "0807")])                         # rough city: the best one
    r = combat(city, ["a"], ["d"], command=False)
    best = max(d["terrain"]["rough"], d["terrain"]["city"])
    assert r.defence == 2 * best and r.terrain.rule == "11.12 D"
    across = pos(npc, [("a", "w4", "0509"), ("d", "t2", "0508")])                       # over the canal
    r = combat(across, ["a"], ["d"], command=False)
    assert r.terrain.id == "suez_canal" and r.defence == 2 * d["hexside"]["suez_canal"]
    mixed = pos(npc, [("a", "w4", "0509"), ("b", "w4", "0408"), ("d", "t2", "0508")])  # b does not cross
    r = combat(mixed, ["a", "b"], ["d"], command=False)
    assert r.defence == 2 and r.terrain.rule == "11.12 E" and "b" in r.terrain.why


def test_mocrt_refused_into_jerusalem_and_medina_and_when_out_of_supply(npc):
    p = pos(npc, [("a", "w4", "0707"), ("d", "t2", "0807")])
    r = combat(p, ["a"], ["d"])
    assert r.table == "RCRT" and not r.mocrt_allowed and r.mocrt_reason.rule == "21.2"
    refused = combat(p, ["a"], ["d"], table="mocrt")
    assert refused.refused.rule == "21.2" and "Jerusalem" in refused.refused.message
    med = pos(npc, [("a", "e2", "2006"), ("d", "te2", "2005")], phase="east_allied_first_combat")
    assert combat(med, ["a"], ["d"]).mocrt_reason.rule == "21.2"
    far = pos(npc, [("a", "w4", "1007"), ("d", "t2", "1008")])                         # 9 hexes from Cairo
    r = combat(far, ["a"], ["d"])
    assert r.table == "RCRT" and r.mocrt_reason.rule == "11.13 B" and "a" in r.mocrt_reason.message
    assert list(combat_json(r)["rows"]) == ["RCRT"]


def test_no_attack_across_the_sector_boundary(npc):
    p = pos(npc, [("a", "w4", "1105"), ("d", "te2", "1205")])
    r = combat(p, ["a"], ["d"])
    assert r.refused.rule == "17.3 B" and "1105" in r.refused.message and r.refused.message.endswith("(17.3 B)")


def test_damascus_cp_of_both_sectors_attack_separately(npc):
    p = pos(npc, [("w", "t2", "1106"), ("e", "te2", "1306"), ("d", "e2", "1206")], side="cp",
            phase="west_cp_first_combat")
    assert combat(p, ["w", "e"], ["d"]).refused.rule == "21.3 E"
    r = combat(p, ["w"], ["d"])
    assert r.allowed and any("21.3 D" in n for n in r.notes)


def test_refusals(npc):
    p = pos(npc, [("a", "w4", "0409"), ("d", "t3", "0509"), ("d2", "t2", "0509")], boxed=SUPPORT)
    assert combat(p, ["a"], ["d"]).refused.rule == "11.7 C"
    assert combat(p, ["rfc"], ["d", "d2"]).refused.rule == "11.3"
    assert combat(p, ["a"], ["d", "d2"], kind="barrage").refused.rule == "11.1 A"
    cp_turn = pos(npc, [("a", "w4", "0409"), ("d", "t3", "0509")], side="cp", phase="west_cp_first_combat")
    assert combat(cp_turn, ["a"], ["d"]).refused.rule == "11.1 A"
    attacked = p.moved({"a": replace(p.by_id["a"], flags=frozenset({"attacked"}))})
    assert combat(attacked, ["a"], ["d", "d2"]).refused.rule == "11.4 C"
    summer = pos(npc, [("a", "w4", "0409"), ("d", "t3", "0509")], turn="1916-III", phase="west_allied_second_combat")
    assert combat(summer, ["a"], ["d"]).refused.rule == "22.4"
    with pytest.raises(KeyError):
        combat(p, ["nobody"], ["d"])
    j = combat_json(combat(p, ["a"], ["d"]))
    assert set(j) >= {"kind", "attackers", "defenders", "attack", "defence", "ratio", "odds", "modifiers",
                      "total_modifier", "kills_on", "probability", "refused", "notes"}
    assert j["refused"]["rule"] == "11.7 C" and j["probability"] is None


def test_odds_outside_a_combat_phase_computed_but_flagged(npc, capsys):
    # 4.2.1.4, 11.2: attacks are made in the phasing side's combat phases; `odds` in the Movement Phase still
    # computes (for planning) but says the position is not in a combat phase; `check` does not care.
    from toolkit.cli import main
    from toolkit.games.no_prisoners import check
    units = [("a", "w4", "0409"), *HOLD, ("d", "t2", "0509")]
    moving = pos(npc, units, phase="west_allied_movement")
    assert main(["odds", moving.source, "--attack", "a", "--defend", "d"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("NOT IN A COMBAT PHASE (4.2.1.4): west_allied_movement is not a combat phase: "
                                   "attacks are made only in the phasing side's First and Second Combat Phases "
                                   "(4.2.1.4, 11.2); these odds are for planning")
    r = combat_json(combat(moving, ["a"], ["d"]))
    assert r["refused"] is None and r["odds"] == "2-1"
    assert r["in_combat_phase"] is False
    assert r["phase_warning"] == {"rule": "4.2.1.4", "reason": "west_allied_movement is not a combat phase: attacks "
                                  "are made only in the phasing side's First and Second Combat Phases (4.2.1.4, "
                                  "11.2); these odds are for planning"}
    fighting = combat_json(combat(pos(npc, units), ["a"], ["d"]))
    assert fighting["in_combat_phase"] is True and fighting["phase_warning"] is None
    assert {k: v for k, v in fighting.items() if k not in ("in_combat_phase", "phase_warning")} == \
        {k: v for k, v in r.items() if k not in ("in_combat_phase", "phase_warning")}
    assert [v.rule for v in check(moving)] == [v.rule for v in check(pos(npc, units))]
