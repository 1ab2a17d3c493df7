"""The command line, through ``main()`` as a user would call it."""
import json

import pytest
from lxml import etree
from PIL import Image

from toolkit.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_maps_lists_the_example(capsys):
    code, out, _ = run(capsys, "maps", "--json")
    assert code == 0 and "example" in [m["id"] for m in json.loads(out)]


def test_hex_by_place_name_json(capsys):
    code, out, _ = run(capsys, "hex", "example", "nebi samuel", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"map", "hex", "terrain", "elevation", "place", "neighbors", "hexsides"}
    assert (data["hex"], data["terrain"], data["elevation"], data["place"]) == ("0505", ["hill"], 2, "Nebi Samuel")
    assert sorted(data["neighbors"]) == ["0405", "0406", "0504", "0506", "0605", "0606"]
    assert data["hexsides"]["0405"] == {"wall": "true"}


def test_los_json_and_picture(capsys, tmp_path):
    out_png = tmp_path / "pics" / "los.png"
    code, out, err = run(capsys, "los", "example", "Emmaus", "0908", "--json", "--svg", str(out_png))
    data = json.loads(out)
    assert code == 0 and str(out_png) in err
    assert set(data) >= {"map", "from", "to", "visible", "convention", "rule", "range", "blocked_by", "touched",
                         "block_point"}
    assert (data["from"], data["to"], data["visible"], data["range"]) == ("0303", "0908", False, 8)
    assert data["convention"] == "touch" and data["rule"] == "10.7.1"
    assert data["blocked_by"] == ["0504", "0505"]  # the hill, in order from the viewer
    assert [t["hex"] for t in data["touched"]][:3] == ["0404", "0405", "0504"]
    assert Image.open(out_png).size[0] > 100


def test_los_text_cites_convention_and_rule(capsys):
    code, out, _ = run(capsys, "los", "example", "0106", "0508", "--convention", "cross")
    assert code == 0 and out.startswith("0106 -> 0508, range 4: CLEAR (rule 10.7.1, cross convention)")


def test_render_svg_with_labelled_highlight(capsys, tmp_path):
    target = tmp_path / "map.svg"
    code, out, _ = run(capsys, "render", "example", "-o", str(target), "--highlight", "0505=3½", "Latrun")
    assert code == 0 and out.strip() == str(target)
    text = target.read_text(encoding="utf-8")
    etree.fromstring(text.encode())
    assert "3½" in text


def test_schema_map(capsys):
    code, out, _ = run(capsys, "schema", "map")
    schema = json.loads(out)
    assert code == 0 and "grid" in schema["properties"]


@pytest.mark.parametrize("argv, message", [
    (("hex", "example", "Atlantis"), "'Atlantis' is neither a hex nor a place"),
    (("hex", "nowhere", "0101"), "no such map file or bundled map"),
    (("render", "example", "-o", "out.gif"), ".svg"),
])
def test_errors_are_clear_and_exit_2(capsys, argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err
