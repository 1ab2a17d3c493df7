"""The web viewer's JSON API (docs/web.md) through Starlette's TestClient: every endpoint answers what the CLI's
``--json`` prints for the same input; bad and hostile input is a 4xx JSON error, never a 500 or a traceback."""
import io
import json
import signal
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from urllib.parse import quote
from urllib.request import urlopen

import pytest
import shapely
import yaml
from lxml import etree
from PIL import Image

from test_hostile_support import save_bytes, valid_save
from toolkit.answers import reach_answer, zoc_answer
from toolkit.cli import build_parser, main
from toolkit.games import load_game_position
from toolkit.web import SourceBook, create_app
from toolkit.web.server import listen
from toolkit.web.sources import MAX_UPLOAD_BYTES

with warnings.catch_warnings():   # Starlette 1.x would rather run its TestClient on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_II = "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
EXAMPLE_971 = "modules/jerusalem-1948/examples/rule-9-7-1.yaml"
NP_1 = "modules/no-prisoners/scenarios/scenario-1.yaml"
SIEGE = "modules/siege-of-jerusalem/scenarios/demonstration.yaml"
J2, N1, SD = ("bundled:jerusalem-1948/scenario-ii.yaml", "bundled:no-prisoners/scenario-1.yaml",
              "bundled:siege-of-jerusalem/demonstration.yaml")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def cli_json(capsys, *argv):
    """What ``toolkit ARGV --json`` prints, parsed."""
    main([*argv, "--json"])
    return json.loads(capsys.readouterr().out)


def ok(client, url, **params):
    r = client.get(url, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def refused(client, url, status=400, **params):
    r = client.get(url, params=params)
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    error = r.json()["error"]
    assert "Traceback" not in error and 'File "' not in error
    return error


# -- every endpoint = the CLI ---------------------------------------------------------------------------------

def test_sources_lists_bundled_maps_and_positions(client):
    data = ok(client, "/api/sources")
    ids = {s["id"]: s for s in data["sources"]}
    assert data["current"] is None
    assert {"map:example", "map:jerusalem-1948", J2, "bundled:jerusalem-1948/rule-9-7-1.yaml", N1, SD} <= set(ids)
    assert ids[J2] == {"id": J2, "kind": "position", "title": "Jerusalem!: scenario-ii", "map": "jerusalem-1948",
                       "game": "jerusalem-1948"}
    assert ids["map:example"]["kind"] == "map" and ids["map:example"]["game"] is None


def test_source_of_a_position(client):
    data = ok(client, "/api/source", source=J2)
    position = load_game_position(SCENARIO_II)
    assert (data["kind"], data["game"], data["map"], data["phase"]) == ("position", "jerusalem-1948",
                                                                        "jerusalem-1948", "overland")
    assert data["phases"] == ["overland", "road"] and data["sides"] == ["jewish", "arab"]
    assert data["phase_names"] == {"overland": "Overland Movement Phase", "road": "Road Movement Phase"}   # 3.1
    assert [u["id"] for u in data["units"]] == [u.id for u in position.units]
    plm = next(u for u in data["units"] if u["id"] == "j-plm-1")
    assert (plm["hex"], plm["side"], plm["face"], plm["box"]) == ("2817", "jewish", "front", None)
    assert data["move_options"] == {"flags": ["pickup", "terrorist", "enter"], "kinds": []}
    assert data["layers"] == ["zoc", "victory", "reach", "check"]
    np = ok(client, "/api/source", source=N1)
    assert np["move_options"]["kinds"] == ["normal", "strategic", "rail", "amphibious"]
    assert np["layers"] == ["zoc", "supply", "command", "reach", "check"]
    assert ok(client, "/api/source", source=SD)["layers"] == ["zoc", "command", "reach", "check"]
    # the page draws a position's lines by its game's own rule first (Jerusalem! spotting, the Siege's LOF)
    assert (data["sight_rule"], np["sight_rule"]) == ("10.7.1", None)
    assert ok(client, "/api/source", source=SD)["sight_rule"] == "9.5"


def test_source_of_a_map(client):
    data = ok(client, "/api/source", source="map:example")
    assert (data["kind"], data["units"], data["layers"], data["game"], data["sight_rule"]) == ("map", [], [], None, None)


@pytest.mark.parametrize("source,hex_text,map_id", [("map:example", "Nebi Samuel", "example"),
                                                    (J2, "Latrun Police Fort", "jerusalem-1948"),
                                                    (SD, "CC19", "siege-of-jerusalem")])
def test_hex_is_the_cli_hex(client, capsys, source, hex_text, map_id):
    assert ok(client, "/api/hex", source=source, hex=hex_text) == cli_json(capsys, "hex", map_id, hex_text)


@pytest.mark.parametrize("path,source,argv", [
    (SCENARIO_II, J2, ["j-plm-1"]),
    (SCENARIO_II, J2, ["j-ac-1"]),
    (SCENARIO_II, J2, ["j-hgh-1", "--with", "j-hgh-2"]),
    (NP_1, N1, ["a-mgc", "--kind", "rail"]),
    (SIEGE, SD, ["r-x-1-7-8"]),
])
def test_moves_are_the_cli_moves(client, capsys, path, source, argv):
    params = {"source": source, "unit": argv[0]}
    if "--with" in argv:
        params["with"] = argv[argv.index("--with") + 1:]
    if "--kind" in argv:
        params["kind"] = argv[argv.index("--kind") + 1]
    assert ok(client, "/api/moves", **params) == cli_json(capsys, "moves", path, *argv)


def test_moves_phase_overrides_the_positions(client, capsys, tmp_path):
    road = tmp_path / "road.yaml"
    road.write_text((ROOT / SCENARIO_II).read_text(encoding="utf-8").replace("phase: overland", "phase: road", 1),
                    encoding="utf-8")
    data = ok(client, "/api/moves", source=J2, unit="j-ac-1", phase="road")
    assert data["phase"] == "road" and data == cli_json(capsys, "moves", str(road), "j-ac-1")


def test_a_phase_naming_a_side_makes_that_side_phasing(client, capsys, tmp_path):
    """No Prisoners' ``west_cp_movement`` is the Central Powers' phase: picking it moves their units (4.2.1.3)."""
    cp = tmp_path / "cp.yaml"
    cp.write_text((ROOT / NP_1).read_text(encoding="utf-8").replace(
        "phase: west_allied_random_events", "phase: west_cp_movement", 1).replace(
        "phasing_side: allied", "phasing_side: cp", 1), encoding="utf-8")
    data = ok(client, "/api/moves", source=N1, unit="c-27-div", phase="west_cp_movement")
    assert data["refused"] is None and data["destinations"]
    assert data == cli_json(capsys, "moves", str(cp), "c-27-div")


def test_moves_options_reach_the_generator(client, capsys):
    data = ok(client, "/api/moves", source=J2, unit="j-plm-1", terrorist="1")
    assert data == cli_json(capsys, "moves", SCENARIO_II, "j-plm-1", "--terrorist")


@pytest.mark.parametrize("argv,params", [
    (["example", "0106", "0508", "--convention", "cross"], {"map": "example", "from": "0106", "to": "0508",
                                                           "convention": "cross"}),
    (["jerusalem-1948", "Hebrew University", "Greek Monastery"], {"map": "jerusalem-1948",
                                                                  "from": "Hebrew University",
                                                                  "to": "Greek Monastery"}),
    (["siege-of-jerusalem", "Z22", "CC19"], {"map": "siege-of-jerusalem", "from": "Z22", "to": "CC19"}),
    (["Hebrew University", "Greek Monastery", "--position", SCENARIO_II], {"source": J2, "from": "Hebrew University",
                                                                           "to": "Greek Monastery"}),
    (["Z22", "CC19", "--position", SIEGE], {"source": SD, "from": "Z22", "to": "CC19"}),
    (["example", "0303", "0908"], {"source": "map:example", "from": "0303", "to": "0908"}),
])
def test_los_is_the_cli_los(client, capsys, argv, params):
    assert ok(client, "/api/los", **params) == cli_json(capsys, "los", *argv)


def test_los_pictures(client):
    params = {"map": "example", "from": "0303", "to": "0908"}
    svg = client.get("/api/los.svg", params=params)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    root = etree.fromstring(svg.content)
    assert root.xpath("//*[@class='los-blocked']") and root.xpath("//*[@class='los-block']")
    png = client.get("/api/los.png", params={"source": J2, "from": "Hebrew University", "to": "Greek Monastery"})
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    width, height = Image.open(io.BytesIO(png.content)).size   # the excerpt around the line, not the whole map
    assert 12 * 80 * 0.95 <= width <= 3000 and height < width
    ruling = client.get("/api/ruling.svg", params={"source": J2, "from": "Hebrew University", "to": "Greek Monastery"})
    text = " ".join(etree.fromstring(ruling.content).itertext())
    assert "Line of sight" in text and "rule 10.7" in text and "href" not in ruling.text.replace("xmlns", "")


@pytest.mark.parametrize("url,argv,params", [
    ("/api/supply", ["supply", NP_1], {"source": N1}),
    ("/api/supply", ["supply", NP_1, "--side", "cp"], {"source": N1, "side": "cp"}),
    ("/api/supply", ["supply", NP_1, "--unit", "a-mgc"], {"source": N1, "unit": "a-mgc"}),
    ("/api/command", ["command", NP_1], {"source": N1}),
    ("/api/command", ["command", SIEGE], {"source": SD}),
    ("/api/check", ["check", SCENARIO_II], {"source": J2}),
    ("/api/check", ["check", NP_1], {"source": N1}),
    ("/api/check", ["check", SIEGE], {"source": SD}),
    ("/api/check", ["check", SCENARIO_II, "--turn-end"], {"source": J2, "turn_end": "1"}),
    ("/api/victory", ["victory", SCENARIO_II], {"source": J2}),
    ("/api/victory", ["victory", SCENARIO_II, "--road-cut-by", "zoc-or-unit"], {"source": J2,
                                                                                 "road_cut_by": "zoc-or-unit"}),
])
def test_rules_answers_are_the_cli_answers(client, capsys, url, argv, params):
    assert ok(client, url, **params) == cli_json(capsys, *argv)


@pytest.mark.parametrize("path,source,side", [(SCENARIO_II, J2, "arab"), (SCENARIO_II, J2, "jewish"),
                                              (NP_1, N1, "cp"), (SIEGE, SD, "jewish")])
def test_zoc_and_reach_layers(client, path, source, side):
    position = load_game_position(path)
    zoc = ok(client, "/api/zoc", source=source, side=side)
    assert zoc == zoc_answer(position, side) and zoc["side"] == side and zoc["hexes"]
    reach = ok(client, "/api/reach", source=source, side=side)
    assert reach == reach_answer(position, side)
    assert all(h["count"] == len(h["units"]) > 0 for h in reach["hexes"])
    assert {h["hex"] for h in zoc["hexes"]} <= {h["hex"] for h in reach["hexes"]}   # a ZOC hex is attackable


@pytest.mark.parametrize("source", [J2, "map:example", "map:no-prisoners", SD])
def test_geometry_matches_the_map_svg(client, source):
    """A hex's centre from /api/geometry lies inside the hexagon /api/map.svg draws around that hex's printed name,
    and the corner offsets draw that hexagon."""
    geometry = ok(client, "/api/geometry", source=source)
    svg = client.get("/api/map.svg", params={"source": source})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    root = etree.fromstring(svg.content)
    assert [float(v) for v in root.get("viewBox").split()] == pytest.approx(geometry["viewBox"], abs=1e-3)
    assert geometry["map"] == ok(client, "/api/source", source=source)["map"] and len(geometry["corners"]) == 6
    ns = {"s": "http://www.w3.org/2000/svg"}
    polygons = [shapely.Polygon([tuple(map(float, p.split(","))) for p in e.get("points").split()])
                for e in root.xpath("//s:polygon[@class='hex']", namespaces=ns)]
    assert len(geometry["hexes"]) == len(polygons)
    tree = shapely.STRtree(polygons)
    labels = {e.text: (float(e.get("x")), float(e.get("y")))
              for e in root.xpath("//s:text[@class='hexname']", namespaces=ns)}
    names = sorted(geometry["hexes"])
    for name in [*names[:2], names[len(names) // 2], names[-1], *(["2817", "5827", "7047"] if source == J2 else [])]:
        label = shapely.Point(labels[name])           # the SVG prints the hex's name inside its hexagon
        hexagon = polygons[int(tree.query(label, predicate="within")[0])]
        cx, cy = geometry["hexes"][name]
        assert hexagon.contains(shapely.Point(cx, cy))
        drawn = shapely.Polygon([(cx + dx, cy + dy) for dx, dy in geometry["corners"]])
        assert drawn.symmetric_difference(hexagon).area < 1e-3 * hexagon.area
    if source == J2:
        assert (geometry["map"], geometry["orientation"], len(geometry["hexes"])) == ("jerusalem-1948", "flat", 3290)


def test_the_page_and_its_assets(client):
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert client.get("/los", params={"map": "example", "from": "0303", "to": "0908"}).text == page.text
    assert client.get("/static/api.js").status_code == 200


# -- uploads -----------------------------------------------------------------------------------------------------

def upload(client, body: bytes, name: str | None):
    headers = {} if name is None else {"X-Filename": name}
    return client.post("/api/open", content=body, headers=headers)


def test_upload_a_position_then_ask_about_it(client, capsys):
    r = upload(client, (ROOT / EXAMPLE_971).read_bytes(), "my 9.7.1.yaml")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["id"].startswith("upload:") and data["title"] == "my 9.7.1.yaml" and data["game"] == "jerusalem-1948"
    assert data["id"] in {s["id"] for s in ok(client, "/api/sources")["sources"]}
    assert ok(client, "/api/check", source=data["id"]) == cli_json(capsys, "check", EXAMPLE_971)


def test_upload_a_save(client):
    raw, _ = valid_save()
    r = upload(client, raw, "scenario-ii.vsav")
    assert r.status_code == 200, r.text
    position = load_game_position(SCENARIO_II)
    placed = {u["id"]: u["hex"] for u in r.json()["units"] if u["hex"]}
    assert placed == {u.id: position.game.map.name(u.hex) for u in position.units if u.hex is not None}


@pytest.mark.parametrize("body,name,needle", [
    (b"game: jerusalem-1948\nturn: [unclosed\n", "bad.yaml", "YAML syntax error"),
    (b"game: ../../etc\nturn: x\nphase: y\nphasing_side: z\nunits: []\n", "evil.yaml", "not a game id"),
    (b"game: chess\nturn: x\nphase: y\nphasing_side: z\nunits: []\n", "chess.yaml", "not a bundled game"),
    (b"- a list\n", "list.yaml", "mapping"),
    (b"a: &a [*a]\n", "alias.yaml", ""),
    (b"game: jerusalem-1948\nturn: May IV\nphase: overland\nphasing_side: jewish\nunits:\n"
     b"  - {id: x, counter: nope, hex: '0101'}\n", "units.yaml", "units[0].counter"),
    (b"PK\x03\x04 not a zip", "junk.vsav", "junk.vsav"),
    (save_bytes("junk"), "junk2.vsav", "junk2.vsav"),
    (b"hello", "notes.txt", ".vsav"),
    (b"hello", None, "X-Filename"),
])
def test_bad_uploads_are_refused(client, body, name, needle):
    r = upload(client, body, name)
    assert r.status_code == 400, r.text
    assert needle in r.json()["error"] and "Traceback" not in r.text


def test_uploads_over_the_size_cap_are_refused(client):
    big = b"#" * (MAX_UPLOAD_BYTES + 1)
    assert upload(client, big, "big.yaml").status_code == 413

    def stream():   # no Content-Length: counted as it comes
        for _ in range(6):
            yield b"#" * (1 << 20)
    r = client.post("/api/open", content=stream(), headers={"X-Filename": "big.yaml"})
    assert r.status_code == 413 and "limit" in r.json()["error"]


def test_an_upload_yaml_position_with_a_bad_key_names_its_line(client):
    body = (ROOT / EXAMPLE_971).read_bytes().replace(b"phase: overland", b"phase: lunch", 1)
    error = upload(client, body, "lunch.yaml").json()["error"]
    assert error.startswith("lunch.yaml: phase: unknown phase 'lunch'") and "(line 8)" in error


def test_x_filename_may_be_percent_encoded(client):
    r = upload(client, (ROOT / EXAMPLE_971).read_bytes(), quote("ירושלים 9.7.1.yaml"))
    assert r.status_code == 200 and r.json()["title"] == "ירושלים 9.7.1.yaml"


def test_zip_entry_traversal_in_a_save_is_refused(client):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("../../evil", b"x")
        z.writestr("savedGame", b"x")
    r = upload(client, buf.getvalue(), "evil.vsav")
    assert r.status_code == 400 and "evil.vsav" in r.json()["error"]


# -- bad input and hostile parameters ----------------------------------------------------------------------------

@pytest.mark.parametrize("url,params,needle", [
    ("/api/source", {}, "missing parameter 'source'"),
    ("/api/source", {"source": "bundled:chess/x.yaml"}, "no such source"),
    ("/api/source", {"source": J2, "sauce": "1"}, "unknown parameter 'sauce'"),
    ("/api/hex", {"source": J2, "hex": "9999"}, "neither a hex nor a place"),
    ("/api/hex", {"source": J2}, "missing parameter 'hex'"),
    ("/api/moves", {"source": J2, "unit": "nope"}, "no unit 'nope'"),
    ("/api/moves", {"source": J2, "unit": "j-plm-1", "pickup": "ghost"}, "no unit 'ghost'"),
    ("/api/moves", {"source": J2, "unit": "j-plm-1", "phase": "lunch"}, "phase 'lunch'"),
    ("/api/moves", {"source": J2, "unit": "j-plm-1", "kind": "rail"}, "drop kind"),
    ("/api/moves", {"source": N1, "unit": "a-mgc", "kind": "teleport"}, "give one"),
    ("/api/moves", {"source": J2, "unit": "j-plm-1", "terrorist": "maybe"}, "parameter 'terrorist'"),
    ("/api/moves", {"source": "map:example", "unit": "x"}, "is a map, not a position"),
    ("/api/moves", {"source": J2, "unit": "a-mufti-1", "enter": "QQ99"}, ""),
    ("/api/los", {"from": "0101", "to": "0202"}, "give map=MAP"),
    ("/api/los", {"map": "example", "source": J2, "from": "0101", "to": "0202"}, "one of the two"),
    ("/api/los", {"map": "example", "from": "0101", "to": "9999"}, "neither a hex nor a place"),
    ("/api/los", {"map": "example", "from": "0101", "to": "0202", "convention": "squint"}, "convention"),
    ("/api/los", {"source": J2, "from": "0101", "to": "0202", "convention": "cross"}, "drop convention"),
    ("/api/los", {"map": "example", "from": "0101"}, "missing parameter 'to'"),
    ("/api/supply", {"source": N1, "side": "martians"}, "side 'martians'"),
    ("/api/supply", {"source": N1, "unit": "ghost"}, "no unit 'ghost'"),
    ("/api/supply", {"source": J2}, "no 'supply' for 'jerusalem-1948'"),
    ("/api/command", {"source": J2}, "no 'command' for 'jerusalem-1948'"),
    ("/api/victory", {"source": N1}, "no 'victory' for 'no-prisoners'"),
    ("/api/victory", {"source": J2, "road_cut_by": "magic"}, "road_cut_by"),
    ("/api/check", {"source": "map:example"}, "is a map"),
    ("/api/zoc", {"source": J2}, "missing parameter 'side'"),
    ("/api/zoc", {"source": J2, "side": "martians"}, "give one of: jewish, arab"),
    ("/api/reach", {"source": J2, "side": "martians"}, "give one of: jewish, arab"),
    ("/api/geometry", {"source": "upload:999"}, "no such source"),
    ("/api/map.svg", {"source": "map:nowhere"}, "no such source"),
    ("/api/sources", {"source": J2}, "unknown parameter"),
])
def test_bad_input_is_a_4xx_naming_the_parameter(client, url, params, needle):
    status = 404 if "no such source" in needle else 400
    assert needle in refused(client, url, status, **params)


def test_a_parameter_given_twice_is_refused(client):
    r = client.get("/api/hex?source=map:example&hex=0505&hex=0606")
    assert r.status_code == 400 and "more than once" in r.json()["error"]


HOSTILE = ["../../../../etc/passwd", "/etc/passwd", "..%2F..%2Fetc%2Fpasswd", str(ROOT / SCENARIO_II),
           "maps/example/map.yaml", "modules/jerusalem-1948/scenarios/scenario-ii.yaml", "map:../example",
           "bundled:jerusalem-1948/../../../etc/passwd", "bundled:jerusalem-1948/scenarios/scenario-ii.yaml",
           "upload:../1", "C:\\Windows\\win.ini", "\x00", "x" * 500]


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("url,key,params", [
    ("/api/source", "source", {}), ("/api/geometry", "source", {}), ("/api/map.svg", "source", {}),
    ("/api/hex", "source", {"hex": "0101"}), ("/api/hex", "hex", {"source": J2}),
    ("/api/moves", "source", {"unit": "j-plm-1"}), ("/api/moves", "unit", {"source": J2}),
    ("/api/moves", "with", {"source": J2, "unit": "j-plm-1"}), ("/api/moves", "enter", {"source": J2,
                                                                                       "unit": "j-plm-1"}),
    ("/api/moves", "phase", {"source": J2, "unit": "j-plm-1"}), ("/api/moves", "kind", {"source": N1,
                                                                                       "unit": "a-mgc"}),
    ("/api/los", "map", {"from": "0101", "to": "0202"}), ("/api/los", "source", {"from": "0101", "to": "0202"}),
    ("/api/los", "from", {"map": "example", "to": "0202"}), ("/api/los.svg", "map", {"from": "0101", "to": "0202"}),
    ("/api/supply", "side", {"source": N1}), ("/api/supply", "unit", {"source": N1}),
    ("/api/zoc", "side", {"source": J2}), ("/api/reach", "source", {"side": "arab"}),
    ("/api/check", "source", {}), ("/api/victory", "source", {}), ("/api/command", "source", {}),
])
def test_no_parameter_is_a_path(client, url, key, params, text):
    r = client.get(url, params={**params, key: text})
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:200])
    body = r.text
    assert "root:" not in body and "Traceback" not in body and "units:\n" not in body


@pytest.mark.parametrize("path", ["/static/../cli.py", "/static/%2e%2e/cli.py", "/static/..%2fcli.py",
                                  "/static/%2e%2e%2f%2e%2e%2fpyproject.toml", "/static//etc/passwd",
                                  "/api/../cli.py", "/static/..\\cli.py"])
def test_static_files_do_not_leave_their_folder(client, path):
    r = client.get(path)
    assert r.status_code == 404 and "import" not in r.text and "root:" not in r.text


@pytest.mark.parametrize("name", ["../../../tmp/evil.yaml", "/etc/passwd.yaml", "..%2F..%2Fevil.yaml",
                                  str(ROOT / SCENARIO_II), "C:\\evil\\x.yaml", "a\x1b[31mred.yaml"])
def test_x_filename_is_never_a_path(client, tmp_path, name):
    """The body is read, whatever the name says: an absolute path to a real position file with a broken body is
    still the broken body; a good body under a path-like name is opened under its last part."""
    broken = upload(client, b"game: [", name)
    assert broken.status_code == 400 and "YAML syntax error" in broken.json()["error"]
    good = upload(client, (ROOT / EXAMPLE_971).read_bytes(), name)
    assert good.status_code == 200, good.text
    title = good.json()["title"]
    assert "/" not in title and "\\" not in title and "\x1b" not in title and title.endswith(".yaml")
    assert not (tmp_path / "evil.yaml").exists() and not Path("/tmp/evil.yaml").exists()


def test_a_bug_is_a_500_json_without_traceback(monkeypatch):
    import toolkit.web.app as web_app

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a calculator")
    monkeypatch.setattr(web_app, "check_answer", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        r = c.get("/api/check", params={"source": J2})
    assert r.status_code == 500 and r.json()["error"].startswith("internal error answering /api/check")
    assert "RuntimeError" not in r.text and "Traceback" not in r.text


def test_unknown_route_and_method(client):
    assert client.get("/api/nothing").status_code == 404
    r = client.get("/api/open")
    assert r.status_code == 405 and "error" in r.json()


# -- the command line opens a source -----------------------------------------------------------------------------

def test_a_file_given_on_the_command_line_is_current(tmp_path):
    book = SourceBook()
    assert book.open_command_line(SCENARIO_II).id == J2 and book.current == J2   # a bundled file is its source
    own = tmp_path / "mine.yaml"
    own.write_bytes((ROOT / EXAMPLE_971).read_bytes())
    source = book.open_command_line(str(own))
    with TestClient(create_app(book)) as c:
        data = c.get("/api/sources").json()
        assert data["current"] == source.id and source.id.startswith("upload:")
        assert c.get("/api/source", params={"source": source.id}).json()["title"] == "mine.yaml"
    book.open_command_line("example")
    assert book.current == "map:example"


def test_your_own_game_in_the_viewer(capsys, tmp_path):
    """``toolkit serve --game DIR`` (or the folder itself): its map and scenarios are offered, the files opened or
    dropped are read as that game's (issue 15: every command takes a game folder)."""
    folder = tmp_path / "my-game"
    assert main(["new", str(folder), "--cols", "8", "--rows", "6"]) in (0, None)
    capsys.readouterr()
    book = SourceBook(str(folder))
    # The folder opens its first scenario, not the bare map (issue 32); its map file opens the map.
    assert book.open_command_line(str(folder)).id == "game:my-game/scenario-1.yaml"
    assert book.current == "game:my-game/scenario-1.yaml"
    assert book.open_command_line(str(folder / "map.yaml")).id == "map:my-game" and book.current == "map:my-game"
    assert book.open_command_line(str(folder / "map.yaml")).id == "map:my-game"      # the same map, not twice
    scenario = (folder / "scenarios" / "scenario-1.yaml").read_bytes()
    with TestClient(create_app(book)) as c:
        ids = {s["id"]: s for s in c.get("/api/sources").json()["sources"]}
        assert ids["game:my-game/scenario-1.yaml"]["game"] == "my-game" and ids["map:my-game"]["kind"] == "map"
        assert ok(c, "/api/hex", source="map:my-game", hex="0101") == cli_json(capsys, "hex", str(folder), "0101")
        r = c.post("/api/open", content=scenario, headers={"X-Filename": "mine.yaml"})
        assert r.status_code == 200 and r.json()["game"] == "my-game"
        listed = ok(c, "/api/source", source="game:my-game/scenario-1.yaml")
        # the scaffold's rules.yaml declares every section: every layer (docs/rules-data.md)
        assert listed["layers"] == ["zoc", "supply", "command", "victory", "reach", "check"]
        # The sides' counter colours are the game's own (game.yaml `color`, `text`), for the page to draw them so.
        sides = yaml.safe_load((folder / "game.yaml").read_text())["sides"]
        assert listed["side_colours"] == {s["id"]: [s["color"], s["text"]] for s in sides if "color" in s}
        assert listed["side_colours"], "the scaffold gives its sides colours"
        assert ok(c, "/api/check", source="game:my-game/scenario-1.yaml") == cli_json(
            capsys, "check", str(folder / "scenarios" / "scenario-1.yaml"), "--game", str(folder))
        assert [u["id"] for u in listed["units"]] == [u["id"] for u in r.json()["units"]]
    with TestClient(create_app()) as c:                     # without --game: refused, saying how
        r = c.post("/api/open", content=scenario, headers={"X-Filename": "mine.yaml"})
        assert r.status_code == 400 and "--game" in r.json()["error"]
    plain = SourceBook()
    assert plain.open_command_line(str(folder / "map.yaml")).kind == "map"          # a map file alone
    assert build_parser().parse_args(["serve", "--game", str(folder)]).game == str(folder)
    assert main(["serve", str(folder), "--port", "70000"]) == 2                      # the folder passes the input
    assert "--port 70000" in capsys.readouterr().err                                # checks; only the port is refused


def test_a_bad_file_on_the_command_line_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: [\n", encoding="utf-8")
    assert main(["serve", str(bad), "--port", "0"]) == 2
    assert "YAML syntax error" in capsys.readouterr().err


# -- toolkit serve --------------------------------------------------------------------------------------------------

def test_serve_arguments_default_to_this_machine():
    args = build_parser().parse_args(["serve"])
    assert (args.position, args.host, args.port, args.open) == (None, "127.0.0.1", 8765, False)
    args = build_parser().parse_args(["serve", SCENARIO_II, "--port", "9000", "--open", "--host", "0.0.0.0"])
    assert (args.position, args.host, args.port, args.open) == (SCENARIO_II, "0.0.0.0", 9000, True)


def test_serve_refuses_a_port_in_use_and_a_bad_port(capsys):
    taken = listen("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
        assert "choose another --port" in capsys.readouterr().err
    finally:
        taken.close()
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err


def test_serve_warns_off_this_machine(capsys, monkeypatch):
    import uvicorn
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    assert main(["serve", "--port", "0", "--host", "0.0.0.0"]) == 0
    out, err = capsys.readouterr()
    assert "warning: serving on 0.0.0.0" in err and "http://0.0.0.0:" in out


def test_serve_open_opens_the_page(capsys, monkeypatch):
    import time

    import uvicorn
    import toolkit.web.server as server
    opened = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: time.sleep(1.5))
    monkeypatch.setattr(server.webbrowser, "open", opened.append)
    assert main(["serve", "--port", "0", "--open"]) == 0
    url = capsys.readouterr().out.split(" at ")[1].split()[0]
    assert opened == [url] and url.startswith("http://127.0.0.1:")


def test_serve_binds_localhost_answers_and_stops_on_ctrl_c():
    child = subprocess.Popen([sys.executable, "-m", "toolkit", "serve", "example", "--port", "0"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line.startswith("toolkit viewer at http://127.0.0.1:"), (line, child.stderr.read())
        url = line.split(" at ")[1].split()[0]
        with urlopen(url + "api/sources", timeout=20) as r:
            assert json.load(r)["current"] == "map:example"
        with urlopen(url + "api/hex?source=map:example&hex=" + quote("Nebi Samuel"), timeout=20) as r:
            assert json.load(r)["hex"] == "0505"
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=20) == 130
        assert "Traceback" not in child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_data_only_game_in_the_viewer(capsys):
    """``toolkit serve --game examples/steppe``: a game whose rules are data (rules.yaml) has every layer, its
    phases' names and sides, its rail movement, and answers as the CLI (issue 19)."""
    game = str(ROOT / "examples" / "steppe")
    scenario = f"{game}/scenarios/scenario-1.yaml"
    book = SourceBook(game)
    sid = book.open_command_line(scenario).id
    with TestClient(create_app(book)) as c:
        data = ok(c, "/api/source", source=sid)
        assert data["layers"] == ["zoc", "supply", "command", "victory", "reach", "check"]
        assert data["move_options"] == {"flags": ["enter", "kind"], "kinds": ["rail"]}
        assert data["phase_names"]["axis_mech"] == "Axis Mechanized Movement"
        assert data["phase_sides"] == {"axis_movement": "axis", "axis_combat": "axis", "axis_mech": "axis",
                                       "soviet_movement": "soviet", "soviet_combat": "soviet"}
        for endpoint, argv, params in (("moves", ("moves", scenario, "g-pz-1", "--kind", "rail"),
                                        {"unit": "g-pz-1", "kind": "rail"}),
                                       ("victory", ("victory", scenario), {}), ("supply", ("supply", scenario), {})):
            assert ok(c, f"/api/{endpoint}", source=sid, **params) == cli_json(capsys, *argv, "--game", game)
