"""Every command and option docs/cli.md names is run by at least one test (a documented form that crashes is the
worst kind of bug: users copy the docs).  The first test finds, for each documented command and option, a test
file that runs that command with that option; the others run the ones no other test did."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolkit.cli import main

ROOT = Path(__file__).resolve().parents[1]
S = str(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
E = str(ROOT / "modules/jerusalem-1948/examples/rule-9-7-1.yaml")
D = str(ROOT / "modules/siege-of-jerusalem/scenarios/demonstration.yaml")
SUBCOMMANDS = ("siege", "vsav", "vmod")


def documented() -> list[tuple[str, str | None, str]]:
    """``(command, sub-command, option)`` of each form in docs/cli.md's table of commands."""
    out = []
    for line in (ROOT / "docs/cli.md").read_text().splitlines():
        if not line.startswith("| `toolkit "):
            continue
        form = line.split("`")[1].split()
        cmd = form[1]
        sub = form[2] if cmd in SUBCOMMANDS and len(form) > 2 and re.fullmatch(r"[a-z-]+", form[2]) else None
        for option in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-o)\b", " ".join(form)))):
            out.append((cmd, sub, option))
    return out


def runs(text: str, cmd: str, sub: str | None, option: str) -> bool:
    """Whether a test file's text runs ``cmd`` (and ``sub``) with ``option``: both named as words of one call
    (a list of arguments, or a command line)."""
    quoted = (f'"{cmd}"', f"'{cmd}'", f"toolkit {cmd} ")
    has_cmd = any(q in text for q in quoted) and (sub is None or f'"{sub}"' in text or f" {sub} " in text)
    has_option = any(q in text for q in (f'"{option}"', f"'{option}'", f" {option} ", f" {option}\""))
    return has_cmd and has_option


def test_every_documented_option_is_run_by_a_test():
    tests = [p.read_text() for p in (ROOT / "tests").glob("test_*.py")]
    forms = documented()
    assert len(forms) > 60 and ("combat", None, "--choose") in forms
    missing = [f for f in forms if not any(runs(t, *f) for t in tests)]
    assert missing == []


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_moves_pickup_loads_the_infantry_on_the_bus(capsys):
    code, out = run(capsys, "moves", S, "j-bus-1", "--pickup", "j-hgh-5", "--json")
    data = json.loads(out)
    assert code == 0 and set(data["moving"]) >= {"j-bus-1", "j-hgh-5"}


def test_fire_with_either_reading_of_higher_terrain(capsys):
    for reading in ("higher-than-both", "higher-than-either"):
        code, out = run(capsys, "fire", S, "j-art-1", "a-mufti-1", "--higher-terrain", reading, "--json")
        assert code == 0 and json.loads(out)["rule"]


def test_odds_with_protected_and_fired_units(capsys):
    code, out = run(capsys, "odds", E, "--attack", "h1", "h2", "h3", "--defend", "m1", "m2", "--protected", "m1")
    assert code == 0 and out.startswith("12 against 4: odds 3-1")
    code, out = run(capsys, "odds", E, "--kind", "first_fire", "--attack", "g", "m1", "m2", "--defend", "h1",
                    "--fired", "g")
    assert code == 0 and "against 4" in out


def test_zoc_and_retreat_draw_their_pictures(capsys, tmp_path):
    assert run(capsys, "zoc", S, "--side", "arab", "--svg", str(tmp_path / "zoc.svg"))[0] == 0
    assert (tmp_path / "zoc.svg").read_text().startswith("<")
    code, _ = run(capsys, "retreat", str(ROOT / "examples/steppe/scenarios/scenario-1.yaml"), "--game",
                  str(ROOT / "examples/steppe"), "--units", "s", "--from-attack-hex", "0404", "--result", "DR",
                  "--svg", str(tmp_path / "retreat.svg"))
    assert code in (0, 2) and (code == 2 or (tmp_path / "retreat.svg").exists())


def test_siege_vp_with_the_redoubt(capsys):
    _, without = run(capsys, "siege", "vp", D)
    code, with_redoubt = run(capsys, "siege", "vp", D, "--redoubt")
    assert code == 0 and "Redoubt" in with_redoubt and with_redoubt != without


def test_siege_reserves_at_night_after_earlier_activations(capsys):
    code, out = run(capsys, "siege", "reserves", "--area", "Upper City", "--night", "--activated-before", "1",
                    "--roll", "3", "--seed", "2", "--json")
    assert code == 0 and json.loads(out)["area"] == "Upper City"


def test_new_game_with_numbering(capsys, tmp_path):
    code, _ = run(capsys, "new", str(tmp_path / "g"), "--cols", "8", "--rows", "6", "--numbering", "ccrr")
    assert code == 0 and (tmp_path / "g" / "game.yaml").exists()


@pytest.fixture(scope="module")
def combat_position(tmp_path_factory):
    """A Jerusalem! position just before a combat of a playout, and that combat as made."""
    import yaml

    from toolkit.games import load_game_position
    from toolkit.games.playout import play_random

    start = load_game_position(S)
    game = play_random(start, 1)
    before = [start] + [p for _, p in game.steps[:-1]]
    pos, action = next((b, a) for b, (a, _) in zip(before, game.steps) if a.kind == "combat" and a.rolls)
    path = tmp_path_factory.mktemp("combat") / "before.yaml"
    path.write_text(yaml.safe_dump(pos.to_file().model_dump(mode="json", exclude_defaults=True)))
    return str(path), action


def test_combat_with_the_rolls_and_choices_thrown(capsys, tmp_path, combat_position):
    path, action = combat_position
    argv = ["combat", path, "--attack", *action.units, "--defend", *action.targets,
            "--roll", *map(str, action.rolls)]
    if action.choices:
        argv += ["--choose", *map(str, action.choices)]
    code, out = run(capsys, *argv, "-o", str(tmp_path / "after.yaml"))
    assert code == 0 and out.splitlines()[1].startswith(action.text())     # after "wrote AFTER.yaml"
    assert "position after the combat: legal" in out and (tmp_path / "after.yaml").exists()
    code, out = run(capsys, *argv, "--json")
    assert json.loads(out)["action"]["rolls"] == list(action.rolls)


def test_combat_drawn_from_a_seed_and_one_missing_roll_said(capsys, combat_position):
    path, action = combat_position
    code, out = run(capsys, "combat", path, "--attack", *action.units, "--defend", *action.targets, "--seed", "5",
                    "--kind", "attack", "--json")
    assert code == 0 and json.loads(out)["action"]["kind"] == "combat"
    code = main(["combat", path, "--attack", *action.units, "--defend", *action.targets])
    assert code == 2 and "needs more choices than the 0 given (choice 1, by its number: 0=False, 1=True)" in \
        capsys.readouterr().err
