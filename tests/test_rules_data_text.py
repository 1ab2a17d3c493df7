"""Issue 33: the text answers of a rules.yaml game say what the docs say they do (docs/rules-data.md): `toolkit
odds` each unit's strength and how it was obtained, and the notes of a game or rules plugin; `toolkit command`
the units out of command, also with no HQ on the map."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from toolkit.answers import odds_answer
from toolkit.cli.positions import _print_odds
from toolkit.game import load_game
from toolkit.game.position import position_from_yaml

ROOT = Path(__file__).resolve().parent.parent
STEPPE = ROOT / "examples" / "steppe"


def write(tmp_path: Path, units: list[dict], phase: str = "axis_combat") -> Path:
    """A Steppe position file holding ``units``."""
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump({"game": "steppe", "turn": "1", "phase": phase, "phasing_side": "axis",
                                    "units": units}))
    return path


def text(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "toolkit", *args, "--game", str(STEPPE)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_odds_text_shows_each_strength_and_how_it_was_obtained(tmp_path):
    path = write(tmp_path, [{"id": "g", "counter": "ger-inf", "hex": "0904"},
                            {"id": "r", "counter": "sov-inf", "hex": "1004"}])
    out = text("odds", str(path), "--attack", "g", "--defend", "r")
    # 0904 is 8 hexes from the Axis west edge: out of supply (12.0), 4 x½ (12.3); Belgorod is a city, 4 x2 (9.3)
    assert "  attacker g: 2 (attack 4 x0.5 out of supply (12.3))" in out.splitlines()
    assert "  defender r: 8 (defence 4 x2 in city (9.3))" in out.splitlines()


def test_odds_text_shows_the_notes_of_a_game_or_plugin(tmp_path, capsys):
    pos = position_from_yaml(write(tmp_path, [{"id": "g", "counter": "ger-inf", "hex": "0504"},
                                              {"id": "r", "counter": "sov-inf", "hex": "0604"}]).read_bytes(),
                             "p.yaml", load_game(str(STEPPE)))
    data = odds_answer(pos, "p.yaml", ["g"], ["r"])
    _print_odds({**data, "notes": ["the defender may not retreat into the swamp", {"rule": "9.9", "text": "a note"}]})
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["  note: the defender may not retreat into the swamp", "  note: [9.9] a note"]


def test_command_text_lists_units_out_of_command_and_says_when_no_hq_is_on_the_map(tmp_path):
    path = write(tmp_path, [{"id": "g", "counter": "ger-inf", "hex": "0104"},
                            {"id": "r", "counter": "sov-inf", "hex": "0604"}])
    out = text("command", str(path)).splitlines()
    # 11.0: no HQ, so every unit needing command is out of it
    assert out == ["no HQ on the map",
                   "  g at 0104: OUT OF COMMAND: not within the command radius of a friendly HQ (11.0)",
                   "  r at 0604: OUT OF COMMAND: not within the command radius of a friendly HQ (11.0)"]
    path = write(tmp_path, [{"id": "hq", "counter": "ger-hq", "hex": "0104"},
                            {"id": "g", "counter": "ger-inf", "hex": "0204"},
                            {"id": "far", "counter": "ger-inf", "hex": "0704"}])
    out = text("command", str(path)).splitlines()
    # the German HQ's radius is 3 (its counter's command value): 0204 in it, 0704 six hexes away not
    assert out == ["hq at 0104, radius 3: in command: g",
                   "  far at 0704: OUT OF COMMAND: not within the command radius of a friendly HQ (11.0)"]
