"""``/api/odds`` of a Siege of Jerusalem Breach attack on a wall hex no unit defends (issue 32): ``target=HEX``
names the attacked hex, as ``toolkit odds --target HEX`` does (10.1: Rams and Armored Towers attack adjacent Elevated
Hexes, 12.2: the damage adds up to the hex's Breach Defence), and the answer is the CLI's.  A game whose combat takes
no hex refuses ``target``, naming why."""
import json
import warnings

import pytest
import yaml

from toolkit.cli import main
from toolkit.web import SourceBook, create_app

with warnings.catch_warnings():   # Starlette 1.x would rather run its TestClient on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SIEGE = "modules/siege-of-jerusalem/scenarios/demonstration.yaml"
SD, J2, N1 = ("bundled:siege-of-jerusalem/demonstration.yaml", "bundled:jerusalem-1948/scenario-ii.yaml",
              "bundled:no-prisoners/scenario-1.yaml")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(SourceBook())) as c:
        yield c


@pytest.fixture(scope="module")
def empty_wall(tmp_path_factory):
    """The demonstration with North Wall hex CC20 left empty (its Regulars gone) and 4 points of Breach damage on
    it (12.2): Legio X's Ram in CC19 faces it (10.11)."""
    data = yaml.safe_load(open(SIEGE, encoding="utf-8"))
    data["units"] = [u for u in data["units"] if u["id"] != "j-y-regulars-5-7-1"]
    data["markers"].append({"marker": "breach_damage", "hex": "CC20", "value": 4})
    path = tmp_path_factory.mktemp("breach") / "empty-wall.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def cli_json(capsys, *argv):
    main([*argv, "--json"])
    return json.loads(capsys.readouterr().out)


def test_a_breach_on_an_empty_wall_hex_is_the_clis(client, capsys, empty_wall):
    r = client.post("/api/open", content=empty_wall.read_bytes(), headers={"X-Filename": "empty-wall.yaml"})
    assert r.status_code == 200, r.text
    source = r.json()["id"]
    assert not [u for u in r.json()["units"] if u["hex"] == "CC20"] and r.json()["combat_target"] is True
    r = client.get("/api/odds", params={"source": source, "attack": "r-x-ram", "target": "CC20", "kind": "breach"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer == cli_json(capsys, "odds", str(empty_wall), "--attack", "r-x-ram", "--target", "CC20",
                              "--kind", "breach")
    # Hand-checked: 1 AF (the Ram, 2.53) on the North Wall row, column 1; damage 4 of Breach Defence 6 (12.2): only
    # the 2 points of a 6 bring it down, a chance of 1 in 6.
    assert (answer["refused"], answer["attack"], answer["row"], answer["column"]) == (None, 1, "north_wall", 1)
    assert [r["total_damage"] for r in answer["results"]] == [4, 4, 5, 5, 5, 6]
    assert [r["breach"] for r in answer["results"]] == [False] * 5 + [True]
    assert answer["probability"] == pytest.approx(1 / 6)


def test_a_target_with_its_defenders_is_the_clis(client, capsys):
    params = {"source": SD, "attack": "r-x-ram", "defend": "j-y-regulars-5-7-1", "target": "CC20", "kind": "breach"}
    assert client.get("/api/odds", params=params).json() == cli_json(
        capsys, "odds", SIEGE, "--attack", "r-x-ram", "--defend", "j-y-regulars-5-7-1", "--target", "CC20", "--kind",
        "breach")


def test_a_ram_attacks_only_the_hex_it_faces(client):
    answer = client.get("/api/odds", params={"source": SD, "attack": "r-x-ram", "target": "DD19",
                                             "kind": "breach"}).json()
    assert answer["refused"]["rule"] == "10.11" and "faces CC20" in answer["refused"]["reason"]


@pytest.mark.parametrize("params, says", [
    ({"source": SD, "attack": "r-x-ram", "kind": "breach"}, "missing parameter 'defend'"),
    ({"source": SD, "attack": "r-x-ram", "target": "ZZ99", "kind": "breach"}, "'ZZ99' is neither a hex nor a place"),
    ({"source": J2, "attack": "j-hgh-3", "target": "3520"}, "the combat of jerusalem-1948 takes the defending units"),
    ({"source": N1, "attack": "a-anzac-mtd-div", "defend": "c-16-div", "target": "1008"},
     "the combat of no-prisoners takes the defending units"),
])
def test_a_target_is_refused_saying_why(client, params, says):
    r = client.get("/api/odds", params=params)
    assert r.status_code == 400 and says in r.json()["error"], r.text


def test_the_command_line_refuses_a_target_the_same_way(capsys):
    """``toolkit odds --target`` on a game whose combat takes no hex: refused with the reason (it was a traceback
    for Jerusalem! and silently ignored for No Prisoners)."""
    assert main(["odds", "modules/jerusalem-1948/scenarios/scenario-ii.yaml", "--attack", "j-hgh-3", "--target",
                 "3520"]) == 2
    assert "--target: the combat of jerusalem-1948 takes the defending units" in capsys.readouterr().err
