"""*No Prisoners* combat as one action (11.3, 11.4 C, 11.10, 11.13, 12.x, 13.x, 19.3) with fixed dice and choices.

The map is the combat tests' synthetic one (``test_no_prisoners_combat.test_map``: desert everywhere, stacking 2,
the town 0305 (x1.5, stacking 3), the Allied depots 0105 "Cairo" and 0103 "Base" and the CP depot 0101 "North",
sea on rows 10 and 12 of columns 1-7).  Flat-top hexes, odd columns shifted down: an odd column's hex (c, r) has
the neighbours (c, r±1), (c±1, r), (c±1, r+1); an even column's (c, r±1), (c±1, r-1), (c±1, r).  The CRT grids
and result codes are the module's REAL tables.yaml (reconstructed):

* RCRT 4-1: DR DR DR DR2 DR2 DH; 1-1: AR NE NE DR DR DR;
* MOCRT 1-1: AE AH AH EX EX DH; 1-2: AE AE AH AH AR EX; 5-1: EX BH DH DE DE DE; 4-1: EX EX BH DH DE DE.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from position_files import write_position
from test_no_prisoners_combat import test_map

from toolkit.game.module import _load
from toolkit.games.no_prisoners import attack_options, check, loss_count, pursuit_length, resolve
from toolkit.games.no_prisoners.tables import load_tables

REAL_TABLES = Path(__file__).resolve().parent.parent / "modules" / "no-prisoners" / "tables.yaml"

GAME = """
id: no-prisoners
title: test copy
map: {map}
sides: [{{id: allied, name: Allies}}, {{id: cp, name: Central Powers}}]
nationalities: [{{id: british, name: British, side: allied}}, {{id: turkish, name: Turkish, side: cp}},
                {{id: german, name: German, side: cp}}]
unit_types: [infantry, cavalry, hq, air_group, armoured_train]
flags: [flipped, command_bonus_used, attacked, used_first_combat, used_second_combat, out_of_supply]
turns: ["1916-II", "1916-III", "1918-I"]
phases: [west_allied_movement, west_allied_first_combat, west_allied_second_combat, west_cp_first_combat]
place_lists: {{}}
boxes: [reinforcements, eliminated, air_naval, replaceable, off_map]
eliminated_box: replaceable
"""


def _c(cid, side, typ, combat, pursuit, nat=None, **extra):
    nat = nat or ("british" if side == "allied" else "turkish")
    values = {"sector": "W", "combat": combat, "ma": 6, "pursuit": pursuit, **extra}
    return {"id": cid, "name": cid, "side": side, "nationality": nat, "type": typ, "values": values}


COUNTERS = [
    _c("w1", "allied", "infantry", 1, 1), _c("w2", "allied", "infantry", 2, 1), _c("w4", "allied", "infantry", 4, 1),
    _c("cav", "allied", "cavalry", 2, 2),
    _c("murray", "allied", "hq", 1, 0, command_radius=2),
    {"id": "rfc", "name": "RFC", "side": "allied", "nationality": "british", "type": "air_group",
     "values": {"sector": "W", "column_shift": 1, "zoc": False, "stacks_free": True, "always_supplied": True}},
    _c("t1", "cp", "infantry", 1, 1), _c("t3", "cp", "infantry", 3, 1), _c("tcav", "cp", "cavalry", 1, 2),
    _c("ginf", "cp", "infantry", 4, 1, nat="german", infiltration=True),
    _c("train", "cp", "armoured_train", 2, 0, rail_only=True, ignores_ezoc=True, advances=False),
]


@pytest.fixture
def npr(tmp_path, monkeypatch):
    folder = tmp_path / "modules" / "no-prisoners"
    folder.mkdir(parents=True)
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(test_map(), sort_keys=False))
    (folder / "game.yaml").write_text(GAME.format(map=tmp_path / "map.yaml"))
    (folder / "counters.yaml").write_text(yaml.safe_dump({"game": "no-prisoners", "counters": COUNTERS,
                                                          "markers": [{"id": "railhead", "name": "Railhead"}]}))
    (folder / "tables.yaml").write_text(REAL_TABLES.read_text())
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    for c in (_load, load_tables):
        c.cache_clear()
    yield tmp_path
    for c in (_load, load_tables):
        c.cache_clear()


def pos(tmp_path, units, phase="west_allied_first_combat", side="allied", turn="1916-II", boxed=()):
    return write_position(tmp_path, "no-prisoners", turn, phase, side, units, boxed=boxed)


class Script:
    """A ``choose`` that answers from a list of picks in order and records every question."""

    def __init__(self, *picks):
        self.picks, self.asked = list(picks), []

    def __call__(self, what, options):
        self.asked.append((what.split(":")[0], list(options)))
        pick = self.picks.pop(0)
        assert pick in options, (what, options, pick)
        return pick


def dice(*rolls):
    it = iter(rolls)

    def roll(sides):
        assert sides == 6
        return next(it)
    return roll


def where(p, uid):
    u = p.by_id[uid]
    return p.game.map.name(u.hex) if u.hex is not None else u.box


def rules(notes):
    return [n["rule"] for n in notes]


def crt(notes):
    """The note of the die roll: odds, table, die and result."""
    return next(n["text"] for n in notes if " die " in n["text"]).split(": ", 1)[1]


# Cavalry and Murray at 0203, w2 at 0204 attack the Turk at 0303 (whose free neighbours 0403 and 0404 are out of
# the Allied ZOC; 0302 and 0304 are in it).  Base (0103) is held, so every attacker is in supply.
OPEN = [("base", "w1", "0103"), ("cav", "cav", "0203"), ("murray", "murray", "0203"), ("w2", "w2", "0204"),
        ("t", "t1", "0303")]


# -- 11.3: how many units a loss takes ------------------------------------------------------------------------------
def test_half_losses_round_up():
    assert [loss_count("half", n) for n in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]
    assert (loss_count("one", 3), loss_count("one", 0), loss_count("all", 3), loss_count(0, 3)) == (1, 0, 3, 0)


# -- a Raid: retreat and pursuit --------------------------------------------------------------------------------
def test_raid_dr_retreat_and_pursuit_without_command(npr):
    p = pos(npr, OPEN)
    choose = Script(False, "0404", "0303", "0204")   # no command bonus; retreat to 0404; cav pursues, w2 stays
    after, notes = resolve(p, ["cav", "w2"], ["t"], kind="rcrt", roll=dice(1), choose=choose)
    # 4 against 1 = 4-1 on the Raid CRT; die 1: DR.
    assert crt(notes) == "4-1, column 4-1 on the RCRT; die 1: DR"
    assert choose.asked == [
        ("11.10 A", [False, True]),
        ("12.1 A", ["0403", "0404"]),                                   # 0302, 0304: EZOC (12.2 A)
        ("13.2 A", ["0203", "0204", "0302", "0303", "0304", "0403"]),   # cav: 2 hexes, first 0303; 0404 enemy
        ("13.2 A", ["0204", "0303"]),                                   # w2: 1 hex; 0303 after the cavalry
    ]
    assert (where(after, "t"), where(after, "cav"), where(after, "w2")) == ("0404", "0303", "0204")
    assert after.by_id["cav"].has("attacked") and after.by_id["w2"].has("attacked")
    assert not after.by_id["murray"].has("command_bonus_used")
    assert rules(notes) == ["11.10 A", "11.3", "12.1 A", "13.2 A"]
    assert check(after) == []


def test_command_bonus_adds_a_column_and_a_pursuit_hex(npr):
    p = pos(npr, OPEN)
    assert [pursuit_length(p, p.by_id[u], True) for u in ("cav", "w2", "murray")] == [3, 2, 0]   # 13.5
    assert [pursuit_length(p, p.by_id[u], False) for u in ("cav", "w2", "murray")] == [2, 1, 0]  # 13.3
    choose = Script(True, "0403", "0204")
    after, notes = resolve(p, ["cav", "w2"], ["t"], kind="rcrt", roll=dice(5), choose=choose)
    # 4-1 shifted one column: 5-1; die 5: DH: the one defender is lost (half of 1, rounded up), nobody retreats.
    assert crt(notes) == "4-1, column 5-1 on the RCRT; die 5: DH"
    assert where(after, "t") == "replaceable"                         # 14.2 A (game.yaml eliminated_box)
    assert after.by_id["murray"].has("command_bonus_used")            # 11.10 B
    assert [a for a, _ in choose.asked] == ["11.10 A", "13.2 A", "13.2 A"]
    w2_options = choose.asked[2][1]
    assert w2_options == ["0203", "0204", "0302", "0303", "0304", "0403", "0404"]   # 2 hexes: 0303 and around
    assert check(after) == []


# -- MOCRT, half losses chosen by the owner ------------------------------------------------------------------------
# Three Turks in the town 0305 (3 x 1 x 1.5 = 4.5) against w4 (0205) and w4 (0405): 8 / 4.5 = 1-1.  Cairo (0105) is
# held.  Their only retreat is 0306: 0206, 0304 and 0406 are in the Allied ZOC.
TOWN = [("cairo", "w1", "0105"), ("a", "w4", "0205"), ("b", "w4", "0405"),
        ("t1", "t1", "0305"), ("t2", "t1", "0305"), ("t3", "t1", "0305")]


def test_dh_half_of_three_is_two_the_owner_picks_them(npr):
    p = pos(npr, TOWN)
    choose = Script("MOCRT", "t3", "t1", "0305", "0405")
    after, notes = resolve(p, ["a", "b"], ["t1", "t2", "t3"], roll=dice(6), choose=choose)
    assert choose.asked == [("11.13 A", ["MOCRT", "RCRT"]),
                            ("11.3", ["t1", "t2", "t3"]), ("11.3", ["t1", "t2"]),   # the defender picks two
                            ("13.2 A", ["0205", "0305"]), ("13.2 A", ["0305", "0405"])]
    assert (where(after, "t1"), where(after, "t2"), where(after, "t3")) == ("replaceable", "0306", "replaceable")
    assert (where(after, "a"), where(after, "b")) == ("0305", "0405")
    assert {"rule": "11.3", "text": "the defender loses 2 of 3 unit(s) (half, rounded up): t3, t1"} in notes
    assert check(after) == []


def test_ex_each_side_loses_one(npr):
    p = pos(npr, TOWN)
    choose = Script("b", "t2", "0405", "0306")
    after, notes = resolve(p, ["a", "b"], ["t1", "t2", "t3"], kind="mocrt", roll=dice(4), choose=choose)
    # 1-1, die 4: EX: one unit each, picked by each owner; with b gone, 0405 and 0406 are free of the Allied ZOC,
    # so the two other Turks retreat to any of 0306, 0405, 0406, one after the other (12.2 B).  No pursuit.
    assert choose.asked == [("11.3", ["a", "b"]), ("11.3", ["t1", "t2", "t3"]),
                            ("12.1 A", ["0306", "0405", "0406"]), ("12.1 A", ["0306", "0405", "0406"])]
    assert (where(after, "a"), where(after, "b")) == ("0205", "replaceable")
    assert (where(after, "t1"), where(after, "t2"), where(after, "t3")) == ("0405", "replaceable", "0306")
    assert check(after) == []


def test_ae_the_defender_pursues(npr):
    units = [("cairo", "w1", "0105"), ("a", "w1", "0204"), ("c", "tcav", "0303"), ("base", "w1", "0103")]
    p = pos(npr, units)
    choose = Script("0204")
    after, notes = resolve(p, ["a"], ["c"], kind="mocrt", roll=dice(1), choose=choose)
    # 1 against 1 = 1-1, die 1: AE: the attacker is eliminated and the defender's cavalry (2 hexes) pursues, first
    # into 0204; 0205 and 0104 are in the ZOC of Cairo's and Base's units, which pursuit ignores (13.4 C).
    assert where(after, "a") == "replaceable" and where(after, "c") == "0204"
    assert choose.asked == [("13.2 A", ["0104", "0203", "0204", "0205", "0303", "0304"])]
    assert check(after) == []


# -- 19.3 infiltration -------------------------------------------------------------------------------------------
# The German infantry (0202) and a Turk (0102) attack w1 at 0203; North (0101) is held (CP supply).  5-1 on the
# MOCRT, die 1: EX.
INFILTRATION = [("north", "t1", "0101"), ("g", "ginf", "0202"), ("x", "t1", "0102"), ("w", "w1", "0203")]


def test_infiltration_from_1918(npr):
    p = pos(npr, INFILTRATION, phase="west_cp_first_combat", side="cp", turn="1918-I")
    choose = Script("x", "0303")
    after, notes = resolve(p, ["g", "x"], ["w"], kind="mocrt", roll=dice(1), choose=choose)
    assert choose.asked == [("11.3", ["g", "x"]),
                            ("19.3", ["0102", "0103", "0202", "0203", "0204", "0302", "0303"])]
    assert where(after, "g") == "0303" and where(after, "w") == "replaceable"
    assert check(after) == []
    p = pos(npr, INFILTRATION, phase="west_cp_first_combat", side="cp", turn="1916-II")
    choose = Script("x")
    after, _ = resolve(p, ["g", "x"], ["w"], kind="mocrt", roll=dice(1), choose=choose)
    assert [a for a, _ in choose.asked] == ["11.3"] and where(after, "g") == "0202"   # EX gives no pursuit


# -- refusals, flags, air ----------------------------------------------------------------------------------------------
def test_refusals_name_their_rule(npr):
    p = pos(npr, OPEN)
    with pytest.raises(ValueError, match=r"^11\.5 B"):
        resolve(p, ["base"], ["t"], roll=dice(1), choose=Script())
    with pytest.raises(ValueError, match=r"^11\.13 A"):
        resolve(p, ["cav"], ["t"], kind="barrage", roll=dice(1), choose=Script())
    with pytest.raises(ValueError, match=r"^4\.2\.1\.4"):
        resolve(pos(npr, OPEN, phase="west_allied_movement"), ["cav"], ["t"], roll=dice(1), choose=Script())
    after, _ = resolve(p, ["w2"], ["t"], kind="rcrt", roll=dice(1), choose=Script(False))   # 2-1, die 1: NE
    with pytest.raises(ValueError, match=r"^11\.4 C"):
        resolve(after, ["w2"], ["t"], kind="rcrt", roll=dice(1), choose=Script())


def test_air_group_is_flagged_and_never_lost(npr):
    p = pos(npr, OPEN + [("tn", "w1", "0305")], boxed=[("rfc", "rfc", "air_naval")])
    after, notes = resolve(p, ["w2", "rfc"], ["t"], kind="rcrt", roll=dice(1), choose=Script(False))
    # 2 against 1 = 2-1, one column for the air group (the town 0305, two hexes away, is held, 11.8 A): 3-1; die 1:
    # NE.
    assert crt(notes) == "2-1, column 3-1 on the RCRT; die 1: NE"
    assert after.by_id["rfc"].has("used_first_combat") and where(after, "rfc") == "air_naval"
    assert where(after, "t") == "0303"


# -- attack_options and random play ---------------------------------------------------------------------------------
def test_attack_options(npr):
    p = pos(npr, OPEN)
    assert attack_options(p) == [(("cav", "murray"), ("t",), None), (("cav", "murray", "w2"), ("t",), None),
                                 (("w2",), ("t",), None)]
    assert attack_options(pos(npr, OPEN, phase="west_allied_movement")) == []
    assert attack_options(pos(npr, OPEN, phase="west_allied_second_combat", turn="1916-III")) == []   # 22.4


@pytest.mark.parametrize("units, side, phase, turn", [
    (OPEN, "allied", "west_allied_first_combat", "1916-II"),
    (TOWN, "allied", "west_allied_first_combat", "1916-II"),
    (INFILTRATION, "cp", "west_cp_first_combat", "1918-I"),
])
def test_random_rolls_and_choices_give_legal_positions(npr, units, side, phase, turn):
    p = pos(npr, units, phase=phase, side=side, turn=turn)
    assert check(p) == []
    rng = random.Random(29)
    for _ in range(40):
        for attackers, defenders, kind in attack_options(p):
            try:
                after, notes = resolve(p, attackers, defenders, kind=kind, roll=lambda n: rng.randint(1, n),
                                       choose=lambda what, options: rng.choice(list(options)))
            except ValueError:
                continue
            assert check(after) == [], notes
            assert all(after.by_id[a].has("attacked") for a in attackers)


def test_same_rolls_and_choices_same_result(npr):
    p = pos(npr, TOWN)
    outcomes = []
    for _ in range(2):
        rng = random.Random(7)
        outcomes.append(resolve(p, ["a", "b"], ["t1", "t2", "t3"], roll=lambda n: rng.randint(1, n),
                                choose=lambda what, options: rng.choice(list(options))))
    (one, notes_one), (two, notes_two) = outcomes
    assert one.units == two.units and notes_one == notes_two
