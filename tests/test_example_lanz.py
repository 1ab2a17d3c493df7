"""Issue 33: the second example game, Lanz 1916 (examples/lanz), written as data only — weather, one river
feature with two values, units of two steps, sudden death and replacements.

Every expected answer is worked out by hand from examples/lanz/map.yaml and the rules of examples/lanz/README.md
(the numbers rules.yaml cites), the arithmetic in a comment, and asked as a user asks: the command line
(``toolkit ... --json``, and once as a child process in words) and the viewer's web API, which must answer the
same.  The map: 16 x 12 flat-top hexes, CCRR, odd columns shifted down: an odd column's hex CCRR touches
(CC±1, RR) and (CC±1, RR+1), an even column's (CC±1, RR-1) and (CC±1, RR).  The Lanz (river=major) runs between
columns 9 and 10, the Aller (river=minor) between rows 6 and 7 of columns 1-9; the high road runs along row 5
(bridge 0905-1005), the Aldmühle road down column 6 (bridge 0606-0607), the railway along row 3.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
import zipfile
from html import unescape
from pathlib import Path

import pytest
import yaml

from toolkit.cli import main
from toolkit.web import SourceBook, create_app

with warnings.catch_warnings():   # Starlette 1.x would rather run its TestClient on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
LANZ = ROOT / "examples" / "lanz"
SCENARIOS = sorted((LANZ / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def viewer():
    """The viewer of ``toolkit serve --game examples/lanz``."""
    with TestClient(create_app(SourceBook(str(LANZ)))) as client:
        yield client


def unit(uid: str, counter: str, where: str, flags: list[str] | None = None) -> dict:
    """One unit of a position: on a hex, or in a box (``eliminated``, ``reinforcements``)."""
    place = {"box": where} if where in ("eliminated", "reinforcements") else {"hex": where}
    return {"id": uid, "counter": counter, **place, **({"flags": flags} if flags else {})}


def write(folder: Path, name: str, units: list[tuple], phase: str = "red_movement", weather: str = "clear",
          turn: str = "1", **more) -> Path:
    """A position file of the game holding ``units`` as ``(id, counter, hex or box[, flags])``."""
    side = "blue" if phase.startswith("blue") else "red"
    doc = {"game": "lanz", "turn": turn, "phase": phase, "phasing_side": side, "params": {"weather": weather},
           "units": [unit(*u) for u in units], **more}
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return path


def asked(capsys, viewer, path: Path, endpoint: str, argv: list[str], params: dict) -> dict:
    """``toolkit ENDPOINT PATH ARGV --game examples/lanz --json``, checked equal to the viewer's ``/api/ENDPOINT``
    on the same file opened in it."""
    main([endpoint, str(path), *argv, "--game", str(LANZ), "--json"])
    cli = json.loads(capsys.readouterr().out)
    opened = viewer.post("/api/open", content=path.read_bytes(), headers={"X-Filename": path.name})
    assert opened.status_code == 200, opened.text
    web = viewer.get(f"/api/{endpoint}", params={"source": opened.json()["id"], **params})
    assert web.status_code == 200, web.text
    assert web.json() == cli
    return cli


def moves(capsys, viewer, path: Path, unit: str, *more: str) -> dict:
    """The moves of ``unit`` (``more``: ``--kind rail``), by the command line and the viewer."""
    params = {"unit": unit, **({"kind": more[1]} if more[:1] == ("--kind",) else {})}
    return asked(capsys, viewer, path, "moves", [unit, *more], params)


def odds(capsys, viewer, path: Path, attack: list[str], defend: list[str]) -> dict:
    """``toolkit odds``, by the command line and the viewer."""
    return asked(capsys, viewer, path, "odds", ["--attack", *attack, "--defend", *defend],
                 {"attack": attack, "defend": defend})


def dest(answer: dict) -> dict[str, dict]:
    return {d["hex"]: d for d in answer["destinations"]}


def column(answer: dict) -> list[str]:
    return [r["result"] for r in answer["results"]]


def how(answer: dict) -> dict[str, tuple]:
    return {s["unit"]: (s["strength"], s["how"]) for s in answer["attackers"] + answer["defenders"]}


# -- the game loads, every scenario is legal ---------------------------------------------------------------------

@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_is_legal(capsys, scenario):
    assert main(["check", str(scenario), "--game", str(LANZ), "--json"]) in (0, None)
    assert json.loads(capsys.readouterr().out) == {"legal": True, "violations": []}


def test_the_weather_of_each_scenario():
    weather = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))["params"]["weather"] for p in SCENARIOS}
    assert weather == {"1-the-crossing": "clear", "2-autumn-mud": "mud", "3-first-frost": "frost"}   # 3.1


# -- movement: clear, mud and frost ---------------------------------------------------------------------------

# Red armour (6 MP, mech) on the high road at 0305 and Red infantry (4 MP, foot) at 0804; Blue infantry holds
# Kesselburg (1405).
MOVERS = [("r-tank-1", "red-tank", "0305"), ("r-inf-1", "red-inf", "0804"), ("b-inf-1", "blue-inf", "1405")]


def test_armour_on_the_road_over_the_bridge_in_clear_weather(capsys, viewer, tmp_path):
    ans = moves(capsys, viewer, write(tmp_path, "clear", MOVERS), "r-tank-1")
    d = dest(ans)
    assert ans["mp"] == 6                                                                   # 4.1
    # 4.5: six road hexes east at ½ MP each: 3 MP to 0905.
    assert (d["0905"]["cost"], d["0905"]["path"]) == (3, ["0305", "0405", "0505", "0605", "0705", "0805", "0905"])
    # 4.5: over the bridge along the road, ½ (not town 1 + the Lanz, prohibited to armour, 4.4): 3½.
    assert d["1005"]["cost"] == 3.5
    assert d["1105"]["cost"] == 4                      # hills along the road: ½ (not 3, 4.2)
    # 1305 (5 MP) is next to Kesselburg's defender: the move stops there (6.2); Kesselburg itself is refused (4.7).
    assert (d["1305"]["cost"], d["1305"]["stop"], d["1305"]["stop_rule"]) == (5, True, "6.2")
    assert "1405" not in d and {r["hex"]: r["rule"] for r in ans["unreachable"]}["1405"] == "4.7"
    # 1004, the hills beside Lanzbrück: 3½ + 3 (hills, 4.2) = 6½ from 1005; across the Lanz from 0904: prohibited.
    assert "1004" not in d
    # 4.5 and the Aller bridge: 0606 at 2 (0605 at 1½ and the road ½, or 0505 at 1 and clear 1: a tie), then four
    # road hexes down column 6 at ½: Aldmühle (0610) at 4.
    assert (d["0606"]["cost"], d["0610"]["cost"]) == (2, 4)
    assert d["0610"]["path"][-5:] == ["0606", "0607", "0608", "0609", "0610"]
    # 4.3: off the road the Aller costs 1 more: 0306 (clear 1), then 0207 across it, 1 + 1: 3.
    assert (d["0207"]["cost"], d["0207"]["path"]) == (3, ["0305", "0306", "0207"])


def test_infantry_crosses_the_lanz_by_the_bridge_and_beside_it(capsys, viewer, tmp_path):
    d = dest(moves(capsys, viewer, write(tmp_path, "clear", MOVERS), "r-inf-1"))
    # 0805 (clear 1; 0804-0805 is no road), 0905 and 1005 along the road at ½: 2 (swimming it from 0904 costs
    # 1 + town 1 + the Lanz 2 = 4, 4.4).
    assert (d["1005"]["cost"], d["1005"]["path"]) == (2, ["0804", "0805", "0905", "1005"])
    # 1004 (hills): 2 + hills 2 = 4 from Lanzbrück, against 1 + 2 + 2 = 5 across the Lanz from 0904.
    assert (d["1004"]["cost"], d["1004"]["path"]) == (4, ["0804", "0805", "0905", "1005", "1004"])
    # 1003: 0903 (clear 1) then across the Lanz, clear 1 + 2: 4.
    assert (d["1003"]["cost"], d["1003"]["path"]) == (4, ["0804", "0903", "1003"])


def test_mud_caps_armour_at_three(capsys, viewer, tmp_path):
    ans = moves(capsys, viewer, write(tmp_path, "mud", MOVERS, weather="mud"), "r-tank-1")
    d = dest(ans)
    assert ans["mp"] == 3                              # 3.2: armour at most 3 MP in mud (6 printed)
    assert d["0905"]["cost"] == 3                      # the road is all-weather: six hexes at ½ (4.5)
    assert "1005" not in d                             # 3½ > 3


def test_mud_leaves_infantry_its_allowance(capsys, viewer, tmp_path):
    ans = moves(capsys, viewer, write(tmp_path, "mud", MOVERS, weather="mud"), "r-inf-1")
    d = dest(ans)
    assert ans["mp"] == 4                              # 3.2 caps armour only
    assert d["1005"]["cost"] == 2 and d["1004"]["cost"] == 4      # as in clear weather: clear and hills unchanged


# Red infantry at 0608 beside the marsh 0708 and at 0506 on the north bank of the Aller (0506-0507 is river=minor,
# no road); Red armour at 0305 on the high road; Blue far off in Kesselburg.
WEATHER = [("m", "red-inf", "0608"), ("n", "red-inf", "0506"), ("t", "red-tank", "0305"), ("b", "blue-inf", "1405")]


@pytest.mark.parametrize("weather,marsh,aller,armour", [
    # 4.2 marsh 3 for foot; 4.3 clear 1 + the Aller 1; armour: clear 1 (4.2), forest 0403 3 after 0404 (½ road +
    # 1 clear): 4½, 0207 across the Aller 1 + 1 + 1: 3.
    ("clear", 3, 2, {"0306": 1, "0404": 1.5, "0403": 4.5, "0207": 3}),
    # 3.2 marsh prohibited; the Aller as in clear weather; armour at 3 MP, clear 2 for it: 0306 2, 0404 ½ + 2,
    # forest prohibited to it, 0207 would take 2 + 2 + 1 = 5.
    ("mud", "3.2", 2, {"0306": 2, "0404": 2.5, "0403": "3.2", "0207": "MP"}),
    # 3.3 marsh 1 and the Aller frozen (clear 1 + 0); armour as in clear weather but over the frozen Aller: 2.
    ("frost", 1, 1, {"0306": 1, "0404": 1.5, "0403": 4.5, "0207": 2}),
])
def test_the_weather_changes_terrain_and_river_costs(capsys, viewer, tmp_path, weather, marsh, aller, armour):
    path = write(tmp_path, weather, WEATHER, weather=weather)
    m, n, t = (moves(capsys, viewer, path, uid) for uid in ("m", "n", "t"))
    said = {"m": dest(m), "n": dest(n), "t": dest(t)}
    why = {uid: {r["hex"]: r for r in a["unreachable"]} for uid, a in (("m", m), ("t", t))}

    def answer(uid: str, hex_name: str):
        found = said[uid].get(hex_name)
        return found["cost"] if found else why[uid][hex_name]["rule"]

    assert answer("m", "0708") == marsh and said["n"]["0507"]["cost"] == aller
    assert {h: answer("t", h) for h in armour} == armour
    if weather == "mud":
        assert why["m"]["0708"]["reason"] == "marsh is prohibited to foot units"
        assert why["t"]["0403"]["reason"] == "forest is prohibited to mech units"
        assert why["t"]["0207"]["reason"] == "needs at least 5 MP; the stack has 3"


# -- odds: the Lanz halves each attacker across it, the weather shifts -------------------------------------------

# Lanzbrück (1005, a town) held by Blue infantry (defence 5), attacked by armour from 0905 (over the bridge)
# and infantry from 0904 (across the Lanz), both across the major river, and infantry from the hills 1104 on the
# east bank.  Every Red unit traces supply to the west edge within 12 hexes (9.2): 0905 and 0904 are 8 hexes from
# column 1; 1104 goes round Blue's zone by 1103, 1003 and row 3, 11 hexes.
BRIDGE = [("t", "red-tank", "0905"), ("i", "red-inf", "0904"), ("j", "red-inf", "1104"), ("b", "blue-inf", "1005")]
BRIDGE_CLEAR = ["DR", "AR", "AR", "AE", "AE", "AE"]       # the 1-1 column of the table (7.2)


def test_attackers_across_the_lanz_are_halved(capsys, viewer, tmp_path):
    ans = odds(capsys, viewer, write(tmp_path, "bridge", BRIDGE, phase="red_combat"), ["t", "i", "j"], ["b"])
    # 7.5: 8 x ½ = 4 and 6 x ½ = 3 across the Lanz, 6 from the east bank: 13; 7.3: the town doubles 5 to 10.
    assert how(ans) == {"t": (4, "attack 8 x0.5 across the river (major) (7.5)"),
                        "i": (3, "attack 6 x0.5 across the river (major) (7.5)"),
                        "j": (6, "attack 6"), "b": (10, "defence 5 x2 in town (7.3)")}
    # 13 : 10 rounded in the defender's favour: 1-1; no shift in clear weather.
    assert (ans["attack"], ans["defence"], ans["odds"], ans["shifts"]) == (13, 10, "1-1", [])
    assert column(ans) == BRIDGE_CLEAR


def test_frost_shifts_the_column_right(capsys, viewer, tmp_path):
    path = write(tmp_path, "frost", BRIDGE, phase="red_combat", weather="frost")
    ans = odds(capsys, viewer, path, ["t", "i", "j"], ["b"])
    # 13 : 10 as in clear weather, 1-1; 3.3: one column right, 2-1.
    assert (ans["attack"], ans["defence"], ans["ratio"]) == (13, 10, "1-1")
    assert [(s["columns"], s["id"], s["rule"]) for s in ans["shifts"]] == [(1, "frost", "3.3")]
    assert ans["odds"] == "2-1" and column(ans) == ["DS", "DR", "EX", "AR", "AR", "AE"]


def test_mud_shortens_supply_and_shifts_the_column_left(capsys, viewer, tmp_path):
    path = write(tmp_path, "mud", BRIDGE, phase="red_combat", weather="mud")
    ans = odds(capsys, viewer, path, ["t", "i", "j"], ["b"])
    # 3.2: supply lines of 8 hexes: 0905 and 0904 are 8 from the west edge, still in supply; 1104 (11) is out of
    # it and attacks at half strength (9.3): 4 + 3 + 3 = 10 against 10, 1-1; mud one column left: 1-2.
    assert how(ans)["j"] == (3, "attack 6 x0.5 out of supply (9.3)")
    assert (ans["attack"], ans["defence"], ans["ratio"]) == (10, 10, "1-1")
    assert [(s["columns"], s["id"], s["rule"]) for s in ans["shifts"]] == [(-1, "mud", "3.2")]
    assert ans["odds"] == "1-2" and column(ans) == ["AR", "AR", "AE", "AE", "AE", "AE"]
    supply = asked(capsys, viewer, path, "supply", ["--side", "red"], {"side": "red"})
    lines = {u["unit"]: u for u in supply["units"]}
    assert lines["t"]["supplied"] and len(lines["t"]["path"]) == 9        # 0905 and the 8 hexes to 0105
    assert not lines["j"]["supplied"]


def test_an_attack_below_the_first_column_is_refused(capsys, viewer, tmp_path):
    """7.2: reduced infantry (attack 3) across the Lanz (x ½ = 1½, 7.5) on Lanzbrück (5 x 2 = 10, 7.3): 1½ : 10
    rounds to 1-7, below 1-2: no attack."""
    path = write(tmp_path, "weak", [("i", "red-inf", "0904", ["reduced"]), ("b", "blue-inf", "1005")],
                 phase="red_combat")
    ans = odds(capsys, viewer, path, ["i"], ["b"])
    assert (ans["attack"], ans["defence"], ans["ratio"], ans["odds"]) == (1.5, 10, "1-7", None)
    assert ans["refused"] == {"rule": "7.2",
                              "reason": "odds of 1-7 are below the lowest column, 1-2: the attack is not allowed"}


# Blue infantry (defence 5) in clear 0807, south of the Aller.  From 0806 and 0706 both attackers attack across
# the Aller (hexsides 0806-0807 and 0706-0807 are river=minor); from 0707 there is no river between.
def test_the_aller_shifts_only_when_every_attacker_crosses_it(capsys, viewer, tmp_path):
    both = write(tmp_path, "aller", [("i1", "red-inf", "0806"), ("i2", "red-inf", "0706"),
                                     ("b", "blue-inf", "0807")], phase="red_combat")
    ans = odds(capsys, viewer, both, ["i1", "i2"], ["b"])
    # 12 : 5 = 2.4 -> 2-1; 7.4: every attacker across the Aller, one column left: 1-1.  The minor river does not
    # halve (7.5 is the Lanz's alone).
    assert (ans["attack"], ans["defence"], ans["ratio"]) == (12, 5, "2-1")
    assert [(s["columns"], s["rule"]) for s in ans["shifts"]] == [(-1, "7.4")]
    assert ans["odds"] == "1-1"
    one = write(tmp_path, "aller-one", [("i1", "red-inf", "0806"), ("i2", "red-inf", "0707"),
                                        ("b", "blue-inf", "0807")], phase="red_combat")
    ans = odds(capsys, viewer, one, ["i1", "i2"], ["b"])
    assert (ans["odds"], ans["shifts"]) == ("2-1", [])          # 7.4: not every attacker crosses it
    frozen = write(tmp_path, "aller-frozen", [("i1", "red-inf", "0806"), ("i2", "red-inf", "0706"),
                                              ("b", "blue-inf", "0807")], phase="red_combat", weather="frost")
    ans = odds(capsys, viewer, frozen, ["i1", "i2"], ["b"])
    # 3.3: the Aller frozen shifts nothing; the frost shifts one column right: 2-1 -> 3-1.
    assert [(s["columns"], s["rule"]) for s in ans["shifts"]] == [(1, "3.3")] and ans["odds"] == "3-1"


# -- the command line in words, as a user reads it ---------------------------------------------------------------

def test_the_command_line_in_words():
    """``python -m toolkit moves`` on scenario 1, read as text: the infantry's bridge crossing (see above)."""
    done = subprocess.run([sys.executable, "-m", "toolkit", "moves", str(SCENARIOS[0]), "r-inf-2", "--game",
                           str(LANZ)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("r-inf-2 from 0805 in Red Movement, 4 MP")
    # 0905 along the road ½; Lanzbrück is Blue's (4.7); 0904 (clear 1) is next to Blue's 1004 but across the
    # Lanz: no zone of control there (6.1), so no stop.
    assert "  0905  ½ MP  via -" in lines and "  0904  1 MP  via -" in lines
    assert not any(line.startswith("  1005 ") for line in lines)


# -- rail movement -------------------------------------------------------------------------------------------------

def test_rail_movement_along_the_railway_up_to_blues_zone(capsys, viewer):
    """Scenario 1: Red infantry on the railway at 0603 moves by rail (5.1) along row 3 only; 1003, beyond the rail
    bridge, is in the zone of control of Blue's 1004 (no river between them) and is refused; 0903 is not (the
    Lanz lies between it and 1004, 6.1)."""
    ans = moves(capsys, viewer, SCENARIOS[0], "r-inf-3", "--kind", "rail")
    assert sorted(dest(ans)) == ["0103", "0203", "0303", "0403", "0503", "0703", "0803", "0903"]
    refused = {r["hex"]: (r["rule"], r["reason"]) for r in ans["unreachable"]}
    assert refused["1003"] == ("5.1", "rail movement may not enter an enemy zone of control")
    assert refused["0604"] == ("5.1", "rail movement goes only along rail")


# -- combat results: a retreat and a step loss (toolkit retreat; the viewer has no retreat endpoint) ---------------

def retreat(capsys, path: Path, *argv: str) -> dict:
    main(["retreat", str(path), *argv, "--game", str(LANZ), "--json"])
    return json.loads(capsys.readouterr().out)


def test_a_defender_retreat_from_lanzbruck(capsys, tmp_path):
    """DR on Lanzbrück's defender (8.3): of its six neighbours 0904, 0905 and 1104 hold Red units (4.7); 1004 and
    1105 are in the zone of control of Red's 1104 (6.1); only 1006 is left (Red's 0905 and 0904 control nothing
    across the Lanz)."""
    path = write(tmp_path, "bridge", BRIDGE, phase="red_combat")
    (unit,) = retreat(capsys, path, "--units", "b", "--attackers", "t", "i", "j", "--result", "DR")["units"]
    assert [d["hex"] for d in unit["destinations"]] == ["1006"] and unit["retreat"]["rule"] == "8.3"
    refused = {r["hex"]: r["rule"] for r in unit["refused"]}      # the neighbours only: a retreat of one hex
    assert refused == {"0904": "4.7", "0905": "4.7", "1104": "4.7", "1004": "8.3", "1105": "8.3"}


def test_a_step_loss_turns_the_unit_then_eliminates_it(capsys, tmp_path):
    """DS (8.2): the full unit turns to its reduced face; a reduced unit has no step left and is eliminated."""
    path = write(tmp_path, "bridge", BRIDGE, phase="red_combat")
    after = retreat(capsys, path, "--units", "b", "--attackers", "t", "i", "j", "--result", "DS", "--apply")["after"]
    blue = {u["id"]: u for u in after["position"]["units"]}["b"]
    assert (blue["hex"], blue["flags"]) == ("1005", ["reduced"]) and after["check"]["legal"]
    reduced = write(tmp_path, "reduced", [*BRIDGE[:3], ("b", "blue-inf", "1005", ["reduced"])], phase="red_combat")
    after = retreat(capsys, reduced, "--units", "b", "--attackers", "t", "i", "j", "--result", "DS", "--apply")
    assert {u["id"]: u for u in after["after"]["position"]["units"]}["b"].get("box") == "eliminated"


def test_an_exchange_costs_each_side_one_step(capsys, tmp_path):
    """EX at the bridge (8.2): each side loses one step — Blue's one defender turns to its reduced face; of the three
    attackers the first the owner names pays it, the others stay as they are; a reduced unit named first has no step
    to spare and is eliminated."""
    path = write(tmp_path, "bridge", BRIDGE, phase="red_combat")

    def after(path: Path, *argv: str) -> dict[str, dict]:
        answer = retreat(capsys, path, *argv, "--result", "EX", "--apply")["after"]
        assert answer["check"]["legal"]
        return {u["id"]: u for u in answer["position"]["units"]}

    blue = after(path, "--units", "b", "--attackers", "t", "i", "j")
    assert blue["b"]["flags"] == ["reduced"]
    red = after(path, "--units", "t", "i", "j", "--from-attack-hex", "1005")
    assert [red[u].get("flags", []) for u in "tij"] == [["reduced"], [], []]
    red = after(path, "--units", "i", "t", "j", "--from-attack-hex", "1005")       # the owner's choice: i
    assert [red[u].get("flags", []) for u in "tij"] == [[], ["reduced"], []]
    worn = write(tmp_path, "worn", [("t", "red-tank", "0905", ["reduced"]), *BRIDGE[1:]], phase="red_combat")
    red = after(worn, "--units", "t", "i", "j", "--from-attack-hex", "1005")
    assert (red["t"].get("box"), red["i"].get("flags", [])) == ("eliminated", [])


# -- sudden death, replacements -----------------------------------------------------------------------------------

# Red units in Lanzbrück and Kesselburg: 5 + 10 = 15 VP (12.1) and the sudden-death condition (12.2).
BOTH_TOWNS = [("r1", "red-inf", "1005"), ("r2", "red-tank", "1405"), ("b", "blue-inf", "1506")]


def test_sudden_death_ends_the_game_at_the_end_of_the_turn(capsys, viewer, tmp_path):
    end = write(tmp_path, "turn-3-end", BOTH_TOWNS, phase="replacements", turn="3")
    ans = asked(capsys, viewer, end, "victory", [], {})
    assert (ans["vp"], ans["result"], ans["rule"], ans["sudden_death"]) == (
        {"red": 15, "blue": 0}, "Red decisive victory", "12.2", True)
    main(["phase", str(end), "--game", str(LANZ), "--json"])
    assert json.loads(capsys.readouterr().out)["next"]["game_over"] == {
        "reason": "sudden death, Red decisive victory", "rule": "12.2"}           # on turn 3 of 6
    opened = viewer.post("/api/open", content=end.read_bytes(), headers={"X-Filename": end.name}).json()
    on = viewer.get("/api/play", params={"source": opened["id"], "step": "turn:next"})    # the viewer's Next
    assert on.status_code == 400 and "sudden death, Red decisive victory (12.2)" in on.json()["error"]
    # In Blue's combat phase the same hold does not end the game yet: 12.2 is checked at the end of the turn.
    before = write(tmp_path, "turn-3-blue", BOTH_TOWNS, phase="blue_combat", turn="3")
    main(["phase", str(before), "--game", str(LANZ), "--json"])
    assert json.loads(capsys.readouterr().out)["next"]["phase"] == "replacements"


# The Replacements phase: Red's infantry at 0804 is reduced, another is in the eliminated box; Blue's in
# Kesselburg is reduced.  Each side has one replacement step (11.0).
REPLACING = [("r1", "red-inf", "0804", ["reduced"]), ("r2", "red-inf", "eliminated"),
             ("b", "blue-inf", "1405", ["reduced"])]


def place(capsys, path: Path, *units: str) -> dict[str, dict]:
    main(["place", str(path), *units, "--game", str(LANZ), "--json"])
    return {u["unit"]: u for u in json.loads(capsys.readouterr().out)["units"]}


def test_a_replacement_step_where_and_how_many(capsys, viewer, tmp_path):
    path = write(tmp_path, "replacements", REPLACING, phase="replacements", turn="2")
    where = place(capsys, path, "r1", "r2", "b")
    # 11.0: a reduced unit is turned in its own hex; 11.1: an eliminated one comes back at the west edge.
    assert (where["r1"]["hexes"], where["r1"]["rule"]) == (["0804"], "11.0")
    assert (where["r2"]["hexes"], where["r2"]["rule"]) == ([f"01{r:02d}" for r in range(1, 13)], "11.1")
    assert where["b"]["hexes"] == ["1405"]
    # r1 replaced (the flag 11.0's units carry this phase): Red's one step is taken, r2 must wait.
    taken = write(tmp_path, "taken", [("r1", "red-inf", "0804", ["replaced"]), *REPLACING[1:]],
                  phase="replacements", turn="2")
    assert place(capsys, taken, "r2")["r2"]["refused"] == {
        "rule": "11.0", "reason": "red has taken 1 of its 1 replacement steps this phase"}
    # Two Red units replaced: one too many, said by toolkit check and the viewer's check alike.
    both = write(tmp_path, "both", [("r1", "red-inf", "0804", ["replaced"]), ("r2", "red-inf", "0101",
                                                                             ["reduced", "replaced"]),
                                    REPLACING[2]], phase="replacements", turn="2")
    check = asked(capsys, viewer, both, "check", [], {})
    assert [(v["rule"], v["message"]) for v in check["violations"]] == [
        ("11.0", "red has taken 2 replacement steps; it may take 1 (11.0)")]


def test_a_replacement_made_turns_the_unit_and_marks_it(tmp_path):
    """The action ``place`` (the viewer, playouts, the referee) applies the game's ``after_place`` (rules.yaml
    replacements): the reduced unit turns to its front, the eliminated one comes back reduced, each carrying the
    flag ``replaced`` until the phase ends (game.yaml flags_cleared); a second Red step is refused (11.0)."""
    from toolkit.game.actions import Action, IllegalAction, apply
    from toolkit.games import load_position_or_save

    position = load_position_or_save(str(write(tmp_path, "replacements", REPLACING, phase="replacements",
                                               turn="2")), str(LANZ))[0]
    turned = apply(position, Action("place", ("r1",), "0804")).position
    assert set(turned.by_id["r1"].flags) == {"replaced"}
    back = apply(position, Action("place", ("r2",), "0103")).position
    cmap = position.game.map
    assert (cmap.name(back.by_id["r2"].hex), set(back.by_id["r2"].flags)) == ("0103", {"reduced", "replaced"})
    with pytest.raises(IllegalAction, match="red has taken 1 of its 1 replacement steps"):
        apply(turned, Action("place", ("r2",), "0103"))


# -- reinforcements and victory ------------------------------------------------------------------------------------

def test_reinforcements_come_on_at_the_west_edge_on_their_turn(capsys, tmp_path):
    """10.1: r-inf-5 arrives on turn 2 at the west edge (column 1, twelve hexes; no Blue zone reaches it)."""
    main(["place", str(SCENARIOS[0]), "r-inf-5", "--game", str(LANZ), "--json"])
    early = json.loads(capsys.readouterr().out)["units"][0]
    assert early["refused"] == {"reason": "r-inf-5 arrives on turn 2; this is turn 1", "rule": "10.0"}
    doc = yaml.safe_load(SCENARIOS[0].read_text(encoding="utf-8")) | {"turn": "2"}
    (tmp_path / "turn-2.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    main(["place", str(tmp_path / "turn-2.yaml"), "r-inf-5", "--game", str(LANZ), "--json"])
    (unit,) = json.loads(capsys.readouterr().out)["units"]
    assert (unit["hexes"], unit["rule"]) == ([f"01{r:02d}" for r in range(1, 13)], "10.1")


def test_victory_points_for_the_towns_red_holds(capsys, viewer, tmp_path):
    """12.1: Red units stand in Lanzbrück (5) and Nordstadt (5): 10 VP, a Red marginal victory; Kesselburg stays
    Blue's (no Red unit there, no marker)."""
    path = write(tmp_path, "towns", [("r1", "red-inf", "1005"), ("r2", "red-inf", "1203"),
                                     ("b", "blue-inf", "1405")], phase="replacements")
    ans = asked(capsys, viewer, path, "victory", [], {})
    assert (ans["vp"], ans["result"]) == ({"red": 10, "blue": 0}, "Red marginal victory")


# -- the VASSAL module ---------------------------------------------------------------------------------------------

def test_the_vassal_module_builds_and_checks(capsys, tmp_path):
    vmod = tmp_path / "lanz.vmod"
    assert main(["vmod", str(LANZ), "-o", str(vmod)]) in (0, None)
    assert main(["vmod", "check", str(vmod)]) in (0, None)
    assert capsys.readouterr().out.splitlines()[-1] == f"{vmod}: ok"
    with zipfile.ZipFile(vmod) as module:
        names = set(module.namelist())
        terrain, combat = (words(module.read(f"charts/{tab}.html")) for tab in ("terrain", "combat"))
    assert {"1-the-crossing.vsav", "2-autumn-mud.vsav", "3-first-frost.vsav"} <= names   # every scenario a set-up
    # the Terrain chart: a row for each weather variant of a cost (3.2, 3.3), with its condition; what the Lanz
    # does to an attack (7.5, not to the defence); the Aller's shift only when it is not frozen (7.4, 3.3)
    assert "| Marsh | 3 | prohibited | -1 column |" in terrain
    assert "| Marsh (weather mud) | prohibited | prohibited | — |" in terrain
    assert "| Marsh (weather frost) | 1 | 1 | — |" in terrain
    assert "| The Lanz (major river) (hexside, added) | +2 | prohibited | each attacker across it ×½ |" in terrain
    assert "| The Aller (minor river) (hexside, added) | +1 | +1 | -1 column (weather clear or mud) |" in terrain
    assert "| The Aller (minor river) (hexside, added) (weather frost) | +0 | +0 | — |" in terrain
    assert "No attack at odds below 1-2." in combat                                       # 7.2
    assert not re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", terrain + combat)       # no id, only words


def words(html: bytes) -> str:
    """A chart page's text, each table row as ``| cell | cell |``."""
    text = re.sub(r"</t[hd]>\s*<t[hd][^>]*>", " | ", html.decode("utf-8"))
    text = re.sub(r"<tr[^>]*>\s*<t[hd][^>]*>", "| ", text)
    text = re.sub(r"</t[hd]>\s*</tr>", " |\n", text)
    return unescape(re.sub(r"<[^>]+>", "", text))
