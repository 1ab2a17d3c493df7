"""The sequence of play as data (4.1-4.3): game.yaml phases with names, sides and what they allow, `toolkit check`
judging a Siege position against its phase, and `toolkit phase` for every bundled game."""
import json

import pytest
from siege_positions import pos

from toolkit.cli import main
from toolkit.game.module import load_game
from toolkit.games.siege import check, phase_notes


def rules_of(violations):
    return sorted((v.rule, v.units) for v in violations)


def test_flags_out_of_their_phase():
    # a Roman that moved and a Jew that fired, in the Roman Melee Phase; a Jewish unit flagged attacked in it
    units = [("m", "v-1-7-8", "KK30", "moved"), ("f", "y-regulars-5-7", "BB14", "fired"),
             ("a", "y-regulars-5-7", "DD14", "attacked"), ("b", "v-2-7-8", "AA21", "attacked")]
    got = rules_of(check(pos(units, phase="melee", side="roman")))
    assert got == [("4.12, 4.22, 9.1", ("f",)), ("4.13, 4.23, 8.2", ("m",)), ("4.14, 4.24, 11.8", ("a",))]
    # the Fire Phase: both sides fire (4.12), so only the moved and the attacking units are out of it
    got = rules_of(check(pos(units, phase="fire", side="jewish")))
    assert got == [("4.13, 4.23, 8.2", ("m",)), ("4.14, 4.24, 11.8", ("a",)), ("4.14, 4.24, 11.8", ("b",))]
    assert check(pos([("m", "v-1-7-8", "KK30", "moved")], phase="movement", side="roman")) == []


def test_sally_outside_a_melee_phase():
    got = check(pos([("z", "zealots-7-7", "QQ36")], phase="fire", side="jewish", params={"sallies": "QQ36"}))
    assert [v.rule for v in got] == ["11.14"]


def test_phase_notes_by_side():
    assert [n["rule"] for n in phase_notes(pos([], phase="recovery", side="jewish"))] == ["4.21, 18.611", "4.21, 17.1"]
    assert [n["rule"] for n in phase_notes(pos([], phase="recovery", side="roman"))] == ["4.11, 17.1"]


@pytest.mark.parametrize("game, count, phase, name, side, allows", [
    ("siege-of-jerusalem", 4, "fire", "Fire Phase", None, ["fire", "breach"]),
    ("jerusalem-1948", 2, "road", "Road Movement Phase", None, ["movement", "combat", "reinforcements"]),
    ("no-prisoners", 26, "east_allied_second_combat", "Eastern Allied Second Combat Phase", "allied", ["combat"]),
    ("no-prisoners", 26, "turn_advancement", "Turn Advancement Phase", None, ["turn_end"]),
])
def test_game_yaml_phases_as_data(game, count, phase, name, side, allows):
    spec = load_game(game).spec
    assert len(spec.phases) == count and phase in spec.phases
    assert (spec.phase_name(phase), spec.phase_side(phase), spec.phase_allows(phase)) == (name, side, allows)


def test_unknown_allows_word_is_refused():
    from toolkit.game.schema import Phase
    with pytest.raises(ValueError, match="allows: 'teleport' unknown"):
        Phase.model_validate({"id": "x", "allows": ["teleport"]})


def test_cli_phase(capsys):
    assert main(["phase", "modules/siege-of-jerusalem/scenarios/demonstration.yaml", "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert (data["name"], data["rule"], data["phasing_side"]) == ("Movement Phase", "4.13, 4.23", "roman")
    assert [a["id"] for a in data["allows"]] == ["movement"] and data["next"]["phase"] == "melee"
    assert main(["phase", "modules/no-prisoners/scenarios/scenario-2.yaml"]) in (0, None)
    out = capsys.readouterr().out
    assert "the phasing player may:" in out and "next:" in out
