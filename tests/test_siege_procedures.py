"""Siege of Jerusalem Melee Phase procedures: 11.9 Multiple Attacks, 11.14 Sallies and counterattacks (hand-worked
positions, exact answers), through the calculators and `toolkit siege`."""
import json

from siege_positions import pos

from position_files import write_position
from toolkit.cli import main
from toolkit.games.siege import combat, multiple_attack_markers, multiple_attacks, sally


def test_11_9_a_marked_unit_must_attack_the_enemy_in_its_zoc():
    # KK30 (Clear) has the Jews in KK29 (Clear: in its Ground ZOC, 7.11) and LL29 (Built-up: no ZOC into it)
    units = [("a", "v-1-7-8", "KK30", "multiple_attack_a"), ("j", "y-regulars-5-7", "KK29"),
             ("k", "y-regulars-5-7", "LL29")]
    row, = multiple_attacks(pos(units, phase="melee"))["units"]
    assert (row["marker"], row["must"], [h["hex"] for h in row["hexes"]]) == ("A", True, ["KK29"])
    assert row["hexes"][0]["allowed"] and row["hexes"][0]["odds"] == "1-1"          # 7 against 5, for the defender
    row, = multiple_attacks(pos([units[0], units[2]], phase="melee"))["units"]
    assert (row["must"], [h["hex"] for h in row["hexes"]]) == (False, ["LL29"])      # none in its ZOC: may attack


def test_11_9_markers_removed_and_given():
    units = [("a", "v-1-7-8", "KK30", "multiple_attack_a"), ("b", "v-2-7-8", "BB20", "multiple_attack_b"),
             ("c", "v-3-7-8", "AA21", "multiple_attack_c"), ("d", "v-4-7-8", "AA22", "attacked"),
             ("e", "v-5-7-8", "CC21")]
    p = pos(units, phase="melee")
    removed = lambda r: [(x["unit"], x["marker"]) for x in r["removed"]]   # noqa: E731
    r = multiple_attack_markers(p, ["a", "e"])
    assert (r["marker"], r["advancing_marker"], removed(r), r["refused"]) == ("A", "B", [("a", "A")], None)
    r = multiple_attack_markers(p, ["b"])                   # a "B" attack removes every "A"
    assert (r["marker"], r["advancing_marker"], removed(r)) == ("B", "C", [("a", "A"), ("b", "B")])
    r = multiple_attack_markers(p, ["c"])                   # after "C" the chain begins again with "A"
    assert (r["marker"], r["advancing_marker"], removed(r)) == ("C", "A", [("c", "C")])
    r = multiple_attack_markers(p, ["e"])                   # no marker: every marker goes
    assert (r["multiple_attack"], r["advancing_marker"], removed(r)) == (False, "A", [("a", "A"), ("b", "B"),
                                                                                      ("c", "C")])
    assert multiple_attack_markers(p, ["d"])["refused"]["rule"] == "11.8"          # attacked already
    assert multiple_attack_markers(p, ["d", "a"])["refused"] is None                # again, in a Multiple Attack


def gate(params=None):
    # Zealots in the Gate of Susa (QQ36, Entry hexsides to RR35 and PP37); a Tower with its pusher and rider, and a
    # Legionary, in RR35
    return pos([("z", "zealots-7-7", "QQ36"), ("t", "v-tower", "RR35", "facing_nw"),
                ("pu", "v-2-7-8", "RR35", "pushing"), ("r", "v-2-6-8", "RR35", "riding"), ("h", "v-1-7-8", "RR35")],
               phase="melee", side="jewish", params=params or {})


def test_11_14_sally_and_counterattack():
    sallied = combat(gate(), ["z"], ["h", "pu", "r", "t"], kind="melee")
    assert sallied.allowed and sallied.attack == 3.5                 # through the Entry hexside at half (11.14)
    closed = sally(gate(), "QQ36")
    assert closed["open"] is False and "counterattack" not in closed["entries"][1]
    data = sally(gate({"sallies": "QQ36"}), "QQ36")
    assert [e["hex"] for e in data["entries"]] == ["PP37", "RR35"]
    rr35 = data["entries"][1]
    assert rr35["counterattackers"] == ["pu", "h"]                   # the pusher too (11.2); not the rider
    c = rr35["counterattack"]
    assert (c["attack"], c["defence"], c["odds"], c["total_modifier"]) == (14, 14, "1-1", 0)   # Gate x2 (11.7)
    refused = combat(gate(), ["h"], ["z"], kind="melee", counterattack=True).refused
    assert refused.rule == "11.14"                                   # no Sally recorded: no counterattack
    refused = combat(gate({"sallies": "QQ36"}), ["r"], ["z"], kind="melee", counterattack=True).refused
    assert refused.rule == "11.2"                                    # riders do not counterattack


def test_cli_multiple_attacks_and_sally(tmp_path, capsys):
    write_position(tmp_path, "siege-of-jerusalem", "AP I/1", "melee", "roman",
                   [("a", "v-1-7-8", "KK30", ["multiple_attack_b"]), ("j", "y-regulars-5-7", "KK29")])
    p = str(tmp_path / "pos.yaml")
    assert main(["siege", "multiple-attacks", p]) in (0, None)
    out = capsys.readouterr().out
    assert 'a ("B", KK30) must attack one of (11.9):' in out and "KK29 j: odds 1-1" in out
    assert main(["siege", "multiple-attacks", p, "--attack", "a", "--json"]) in (0, None)
    assert json.loads(capsys.readouterr().out)["advancing_marker"] == "C"
    write_position(tmp_path, "siege-of-jerusalem", "AP I/1", "melee", "jewish",
                   [("z", "zealots-7-7", "QQ36"), ("h", "v-1-7-8", "RR35")], params={"sallies": "QQ36"})
    assert main(["siege", "sally", p, "--gate", "QQ36"]) in (0, None)
    out = capsys.readouterr().out
    assert "Gate QQ36 held by jewish: opened for a Sally (11.14)" in out
    assert "Entry hex RR35: h; counterattack by h: 7 against 14, odds 1-2" in out
    assert main(["siege", "sally", p, "--gate", "KK30"]) == 2
    assert "not a Gate" in capsys.readouterr().err
