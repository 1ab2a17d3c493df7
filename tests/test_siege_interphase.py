"""Siege of Jerusalem between Assault Periods: Ramps (18.8, 18.81, 19.4), repairs (19.6), the end-of-period withdrawal
(18.3-18.37) and the second 18.36's Stairways, on hand-built positions of the bundled map (exact answers, each with
its rule), through the calculators and `toolkit siege`."""
import json

import pytest

from siege_positions import pos
from test_siege_movement import dest
from toolkit.cli import main
from toolkit.games.siege import command, ramps, repairs, stairways, withdrawal
from toolkit.games.siege.interphase import upcoming_period

GAME = "siege-of-jerusalem"


# -- the period about to start --------------------------------------------------------------------------------------
def test_the_upcoming_assault_period():
    assert upcoming_period(pos([], turn="AP II/1")) == "II"            # set up for AP II
    assert upcoming_period(pos([], turn="AP II/7")) == "III"           # AP II ends
    assert upcoming_period(pos([], turn="AP II/7"), 4) == "IV"
    with pytest.raises(ValueError, match="5th Assault Period is the last"):
        upcoming_period(pos([], turn="AP V/9"))


# -- 18.8, 18.81, 19.4 Ramps ------------------------------------------------------------------------------------------
def built(r):
    return [(m["hex"], m["toward"]) for m in r["build"]]


def test_19_4_the_week_of_preparation_sets_the_ramp_hexes():
    p = pos([], turn="AP I/7")
    assert [ramps(p, w)["may_build"] for w in (1, 2, 3, 4, 7, 9)] == [0, 0, 1, 2, 5, 5]   # 19.1 table, five a game
    assert ramps(p, 2)["sites"] == []
    r = ramps(p, 4, [("RR35", "QQ36"), ("RR36", "QQ36")])    # outside the Gate of Susa, two adjacent hexes
    assert (r["allowed"], built(r), r["params"]) == (True, [("RR35", "QQ36"), ("RR36", "QQ36")], {"ramps_built": "II"})
    r = ramps(p, 3, [("RR35", "QQ36"), ("RR36", "QQ36")])
    assert r["refused"] == ["2 Ramp hexes, 1 allowed (19.4)"]


def test_18_81_where_a_ramp_may_stand():
    p = pos([], turn="AP I/7", markers=[{"marker": "mine_shaft", "hex": "QQ35"}],
            params={"roman_areas": "New City"})
    sites = {s["hex"]: s["toward"] for s in ramps(p, 5)["sites"]}
    assert sites["BB20"] == ["BB21", "CC20"]                  # outside the city, beside two Wall hexes
    assert "RR35" not in sites and "RR36" in sites           # RR35 is adjacent to the mined QQ35 (18.81)
    assert sites["DD20"] == ["CC20", "DD19", "EE19"]         # inside the Roman New City, beside its Walls and Fort
    assert "Z34" not in sites and "PP36" not in sites        # Built-up (2.12); the Temple District is Jewish
    razed = pos([], turn="AP I/7", params={"roman_areas": "New City, Temple District", "razed_areas": "New City"})
    sites = {s["hex"]: s["toward"] for s in ramps(razed, 5)["sites"]}
    assert (sites["Z34"], sites["PP36"]) == (["AA34", "Y35", "Z35"], ["QQ35", "QQ36"])   # Clear once razed (18.37)
    r = ramps(p, 5, [("RR35", "QQ36"), ("PP36", "QQ36"), ("AA21", "BB21"), ("BB20", "QQ36")])
    assert r["refused"] == ["RR35 toward QQ36: on or adjacent to the mined hex QQ35 (18.81)",
                            "PP36 toward QQ36: PP36 is in the city but not a Roman-controlled hex of a "
                            "Roman-controlled area (18.81)",
                            "BB20 toward QQ36: QQ36 is not a standing Elevated Hex adjacent to BB20 (18.8)",
                            "4 Ramp hexes, 3 allowed (19.4)",
                            "the Ramp hexes must be adjacent, one combined Ramp of 5 hexes at most (18.81)"]
    assert r["params"] == {}


def test_19_4_once_per_game_but_extended_in_the_same_interphase():
    ramp = [{"marker": "ramp", "hex": "RR35", "toward": "QQ36"}]
    earlier = pos([], turn="AP II/7", markers=ramp, params={"ramps_built": "II"})
    r = ramps(earlier, 9)
    assert (r["may_build"], r["sites"]) == (0, [])           # built before AP II: none before AP III (19.4)
    assert r["why"] == "Ramps are built only once per game (19.4): this one was built before Assault Period II"
    assert ramps(pos([], turn="AP II/7", markers=ramp), 9)["may_build"] == 0      # no parameter: an earlier one
    same = pos([], turn="AP I/7", markers=ramp, params={"ramps_built": "II"})
    r = ramps(same, 5)                                       # week 5: three hexes, one built
    assert (r["may_build"], r["built"]) == (2, [{"hex": "RR35", "toward": "QQ36"}])
    assert [s["hex"] for s in r["sites"]] == ["RR34", "RR36"]   # only next to the Ramp begun (18.81)
    assert ramps(same, 5, [("RR36", "QQ36")])["allowed"]


def test_18_8_a_built_ramp_is_climbed():
    # the marker a build gives: a Legionary directly behind the Ramp (SS35) climbs it onto the Wall QQ37; from the
    # Ramp's side (SS36) it goes round by the hex behind (18.8)
    p = pos([("a", "v-1-7-8", "SS35")], markers=[{"marker": "ramp", "hex": "RR36", "toward": "QQ37"}])
    assert dest(p, ["a"], "QQ37")[1] == ["SS35", "RR36", "QQ37"]
    side = pos([("a", "v-1-7-8", "SS36")], markers=[{"marker": "ramp", "hex": "RR36", "toward": "QQ37"}])
    assert dest(side, ["a"], "RR36")[1] == ["SS36", "SS35", "RR36"]


# -- 19.6 repairs -----------------------------------------------------------------------------------------------------
SUSA = [{"marker": "breach_damage", "hex": "QQ37", "value": 8}, {"marker": "breach_damage", "hex": "QQ36", "value": 9},
        {"marker": "breach", "hex": "QQ35"}, {"marker": "breach_damage", "hex": "QQ35", "value": 2}]


def test_19_6_the_19_2_example_a_week_of_delay():
    # 19.2's example: the shaft at QQ36 leaves QQ37 with 8, QQ36 with 9 and QQ35 breached; the Roman waits a fifth
    # week, so the Jew rolls for repairs (19.6, second paragraph), drm -1 in week 5 (19.1)
    p = pos([], turn="AP I/1", markers=SUSA)
    r = repairs(p, 5, 7, {"QQ37": 4, "QQ36": 2}, delay=True)
    assert (r["roll"], r["drm"], r["points"], r["used"]) == (7, -1, 6, 6)
    assert [(h["hex"], h["damage"], h["max"], h.get("after")) for h in r["hexes"]] == [
        ("QQ35", 2, 0, None), ("QQ36", 9, 4, 7), ("QQ37", 8, 4, 4)]        # half, fractions dropped; 9 -> 4
    assert r["hexes"][0]["refused"] == "QQ35 is a Breach: a Breach is never repaired (19.6)"
    with pytest.raises(ValueError, match=r"QQ36: 5 points, at most 4 \(half its 9 damage, 19.6\)"):
        repairs(p, 5, 12, {"QQ36": 5}, delay=True)
    with pytest.raises(ValueError, match=r"8 points repaired, the roll gives 6 \(19.6\)"):
        repairs(p, 5, 7, {"QQ36": 4, "QQ37": 4}, delay=True)
    with pytest.raises(ValueError, match="no Repair roll before the first Assault Period"):
        repairs(p, 5, 7)
    assert repairs(p, 1, 4, delay=True)["points"] == 0                      # 4 - 5: nothing (19.1 week 1)


def test_19_6_only_hexes_under_jewish_control():
    # before AP III, the New City Roman: its outer Wall EE19 is Roman (18.35); Fort DD19 held by a Zealot only by
    # 18.34 is an isolated Fortress; the Tyropoeon side of Bastion AA34 keeps it Jewish
    dmg = [{"marker": "breach_damage", "hex": h, "value": 6} for h in ("EE19", "DD19", "AA34")]
    p = pos([("z", "zealots-7-7", "DD19")], markers=dmg, turn="AP III/1", params={"roman_areas": "New City"})
    got = {h["hex"]: (h["max"], h["refused"]) for h in repairs(p, 6, 9)["hexes"]}
    assert got == {"AA34": (3, None),
                   "DD19": (0, "DD19 is an isolated Fortress in a Wall section the Jews do not control (19.6, 18.34)"),
                   "EE19": (0, "EE19 is not under Jewish control (19.6, 18.35)")}


# -- 18.3 the withdrawal ----------------------------------------------------------------------------------------------
def test_18_3_each_side_withdraws_from_what_it_does_not_hold():
    units = [("r1", "v-1-7-8", "DD20"), ("r2", "v-2-7-8", "W37"), ("r3", "v-3-7-8", "BB20"),
             ("j1", "y-regulars-5-7", "Z25"), ("j2", "zealots-7-7", "DD19"), ("j3", "y-militia-2-6", "EE19"),
             ("j4", "y-regulars-5-7", "AA34")]
    p = pos(units, turn="AP II/7", side="jewish", phase="melee", params={"roman_areas": "New City",
                                                                         "roman_hexes": "W38"})
    r = withdrawal(p)
    fate = {u["unit"]: (u["where"], u["fate"], u["rule"]) for u in r["units"]}
    assert fate == {"r1": ("New City", "stays", "18.3"),
                    "r2": ("Tyropoeon City", "withdraws", "18.3"),
                    "r3": ("outside the city", "stays", "18.3"),
                    "j1": ("New City", "withdraws", "18.3"),
                    "j2": ("the Fortress DD19", "may stay", "18.34"),
                    "j3": ("the Wall at EE19", "withdraws", "18.35"),
                    "j4": ("the Wall at AA34", "stays", "18.35")}
    to = {u["unit"]: u.get("to") for u in r["units"]}
    assert to["r2"] == "outside the city or an area the Romans hold (New City)"
    assert to["j1"].startswith("an area the Jews hold (Tyropoeon City, City of David, Upper City")
    assert (r["roman_areas"], r["newly_roman"]) == (["New City"], [])
    assert r["params"] == {"roman_areas": "New City", "razed_areas": "New City", "roman_hexes": "",   # 18.37, 18.3
                           "jewish_hexes": "", "conceded_areas": ""}


def test_18_3_an_area_taken_this_period_is_roman_and_razed():
    from test_siege_control import LOWER_CITY, cohorts
    p = pos(cohorts(LOWER_CITY[:10]), side="jewish", phase="melee",
            params={"roman_hexes": " ".join(LOWER_CITY[10:15]), "razed_areas": "New City"})
    r = withdrawal(p)
    assert (r["roman_areas"], r["newly_roman"]) == (["Lower City"], ["Lower City"])
    assert r["params"]["razed_areas"] == "Lower City, New City"
    assert {u["fate"] for u in r["units"]} == {"stays"}


# -- the second 18.36 Stairways ---------------------------------------------------------------------------------------
def test_18_36_gate_entries_into_lost_areas_become_stairways():
    # 18.36's example: Herod's Palace Roman at the outset, P58-Q58 becomes an inherent Stairway
    got = stairways(pos([], turn="AP III/1", params={"roman_areas": "Herod's Palace"}))["gate_stairways"]
    assert [g["hexside"] for g in got] == ["P58-Q58", "T56-S56"]
    got = stairways(pos([], turn="AP II/1", params={"roman_areas": "New City"}))["gate_stairways"]
    assert [g["hexside"] for g in got] == ["NN33-NN32", "W36-W35", "Y25-Y26"]


def test_18_36_temporary_stairways_from_cut_off_bastions():
    # New City Roman: Bastions AA34 and V44 keep a Tyropoeon side, but their map Stairways (Z34, U44) lead into the
    # New City; Fort DD19 (held by 18.34) has only Roman ground beside it
    params = {"roman_areas": "New City", "temporary_stairways": "AA34-AA35 V44-U44 V44-W43 V44-W44 DD19-DD18"}
    r = stairways(pos([("z", "zealots-7-7", "DD19")], turn="AP II/1", params=params))
    assert r["temporary"] == [{"hex": "AA34", "kind": "bastion", "to": ["AA35"]},
                              {"hex": "DD19", "kind": "fort", "to": []},
                              {"hex": "V44", "kind": "bastion", "to": ["W43", "W44"]}]
    assert [(x["hexside"], x["allowed"]) for x in r["recorded"]] == [
        ("AA34-AA35", True), ("DD18-DD19", False), ("U44-V44", False), ("V44-W43", True), ("V44-W44", False)]
    assert r["recorded"][-1]["why"] == "V44 has its temporary Stairway already (18.36)"


def test_18_36_a_temporary_stairway_is_a_stairway_for_movement():
    units = [("j", "y-regulars-5-7", "AA34")]
    cut = pos(units, side="jewish", params={"roman_areas": "New City"})
    assert dest(cut, ["j"], "AA35") == (None, "8.93")
    laddered = pos(units, side="jewish", params={"roman_areas": "New City", "temporary_stairways": "AA34-AA35"})
    assert dest(laddered, ["j"], "AA35")[1] == ["AA34", "AA35"]


def test_18_36_a_temporary_stairway_carries_command_control():
    # a Faction Leader in the Tyropoeon City (AA35) traces CC up the temporary Stairway to Bastion AA34: one hex,
    # against nine round by the map's Stairways (5.1, 8.93)
    units = [("l", "y-leader", "AA35"), ("j", "y-regulars-5-7", "AA34")]
    for extra, hexes in (({}, 9), ({"temporary_stairways": "AA34-AA35"}, 1)):
        p = pos(units, side="jewish", params={"roman_areas": "New City", **extra})
        (hq,) = command(p).hqs
        assert hq.hexes[p.by_id["j"].hex] == hexes


# -- toolkit siege ramps / repairs / withdrawal / stairways -----------------------------------------------------------
def write(tmp_path, **fields):
    import yaml
    data = {"game": GAME, "turn": "AP I/7", "phase": "melee", "phasing_side": "jewish", "units": [], **fields}
    path = tmp_path / "pos.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_the_commands(tmp_path, capsys):
    p = write(tmp_path, markers=SUSA, units=[{"id": "z", "counter": "zealots-7-7", "hex": "QQ37"}])
    assert main(["siege", "ramps", p, "--week", "4", "--build", "RR36:QQ36", "SS36:RR36", "--json"]) in (0, None)
    r = json.loads(capsys.readouterr().out)
    assert (r["allowed"], r["refused"][0]) == (False, "SS36 toward RR36: RR36 is not a standing Elevated Hex "
                                                      "adjacent to SS36 (18.8)")
    main(["siege", "repairs", p, "--week", "5", "--delay", "--roll", "7", "--repair", "QQ37=4", "QQ36=2"])
    out = capsys.readouterr().out
    assert "roll 7 -1 (week 5) = 6 damage points" in out and "QQ36: damage 9, at most 4 (half, 19.6), repaired 2: " \
                                                             "7 left" in out
    main(["siege", "repairs", p, "--week", "5", "--delay", "--seed", "1", "--json"])
    first = json.loads(capsys.readouterr().out)
    main(["siege", "repairs", p, "--week", "5", "--delay", "--seed", "1", "--json"])
    assert json.loads(capsys.readouterr().out) == first and 2 <= first["roll"] <= 12   # reproducible
    assert main(["siege", "repairs", p, "--week", "5", "--roll", "7", "--period", "I"]) == 2   # --delay only
    assert "no Repair roll before the first Assault Period" in capsys.readouterr().err
    main(["siege", "withdrawal", p])
    assert "z                jewish  QQ37   the Wall at QQ37: stays (18.35)" in capsys.readouterr().out
    q = write(tmp_path, turn="AP II/1", params={"roman_areas": "New City", "temporary_stairways": "AA34-AA35"})
    main(["siege", "stairways", q])
    out = capsys.readouterr().out
    assert "now Stairways (18.36): NN33-NN32, W36-W35, Y25-Y26" in out and "recorded AA34-AA35: allowed" in out
