"""Playing on the page's server (``/api/play``, docs/web.md "Play"): each move is the game's own legal-move
search's destination, made along its path; the new position is a new source whose answers are the CLI's for the
exported position file; refused steps are 4xx naming the step, the reason and the rule."""
import json
import warnings

import pytest
import yaml

from toolkit.cli import main
from toolkit.vassal.saves.positions import read_position_save
from toolkit.web import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

J2, N1 = "bundled:jerusalem-1948/scenario-ii.yaml", "bundled:no-prisoners/scenario-1.yaml"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def ok(client, url, **params):
    r = client.get(url, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def unit(source, uid):
    return next(u for u in source["units"] if u["id"] == uid)


def test_a_move_is_made_along_the_path_the_moves_answer_shows(client):
    moves = ok(client, "/api/moves", source=J2, unit="j-plm-1")
    far = max(moves["destinations"], key=lambda d: d["cost"])
    after = ok(client, "/api/play", source=J2, step=f"move:j-plm-1>{far['hex']}")
    assert after["id"].startswith(f"play:{after['saved']['id']}/1.") and after["base"] == J2
    assert unit(after, "j-plm-1")["hex"] == far["hex"]
    assert after["steps"] == [f"move:j-plm-1>{far['hex']}"]
    [entry] = after["log"]
    assert (entry["from"], entry["to"], entry["cost"], entry["path"]) == ("2817", far["hex"], far["cost"], far["path"])
    # The same step from the same position of a game is the same position (a double click makes one move); from
    # the scenario again it starts another game.
    first = after["saved"]["positions"][0]
    assert ok(client, "/api/play", source=first, step=f"move:j-plm-1>{far['hex']}")["id"] == after["id"]
    assert ok(client, "/api/play", source=J2, step=f"move:j-plm-1>{far['hex']}")["saved"]["id"] != after["saved"]["id"]
    # Its movement points are spent: it cannot go on as far again in this phase.
    again = ok(client, "/api/moves", source=after["id"], unit="j-plm-1")
    assert max((d["cost"] for d in again["destinations"]), default=0) < far["cost"]


def test_a_move_the_rules_refuse_names_the_reason_and_rule(client):
    moves = ok(client, "/api/moves", source=J2, unit="j-plm-1")
    refused = moves["unreachable"][0]
    r = client.get("/api/play", params={"source": J2, "step": f"move:j-plm-1>{refused['hex']}"})
    assert r.status_code == 400
    assert refused["reason"] in r.json()["error"] and f"({refused['rule']})" in r.json()["error"]


@pytest.mark.parametrize("step, needle", [
    ("jump:x", "starts with none of"), ("move:>2817", "give the unit"), ("move:j-plm-1>2817;fly", "option 'fly'"),
    ("place:j-plm-1+j-ac-1>2817", "place takes one unit"), ("phase:lunch", "not a phase of jerusalem-1948"),
    ("turn:later", "turn:next"), ("move:nobody>2817", "no unit 'nobody'"), ("move:j-plm-1>Atlantis", "Atlantis")])
def test_bad_steps_are_refused_naming_the_step(client, step, needle):
    r = client.get("/api/play", params={"source": J2, "step": step})
    assert r.status_code in (400, 404) and needle in r.json()["error"], r.text


def test_a_phase_step_sets_the_phase_and_its_side_and_clears_spent_points(client):
    assert ok(client, "/api/source", source=N1)["movement_phases"]["allied"] == ["west_allied_movement",
                                                                                 "east_allied_movement"]
    after = ok(client, "/api/play", source=N1, step="phase:west_cp_movement")
    assert (after["phase"], after["phasing_side"], after["turn"]) == ("west_cp_movement", "cp", "1916-II")
    assert after["log"][0]["kind"] == "phase"


def test_turn_next_goes_through_the_phases_player_turns_and_turns(client):
    """Jerusalem! (scenario II: May IV, the Jewish overland phase): road, then the Arab player turn's overland and
    road (player_turns), then June I's Jewish overland phase."""
    after = ok(client, "/api/play", source=J2, step=["turn:next"] * 4)
    assert [(e["turn"], e["phase"], e["side"]) for e in after["log"]] == [
        ("May IV", "road", "jewish"), ("May IV", "overland", "arab"), ("May IV", "road", "arab"),
        ("June I", "overland", "jewish")]
    assert after["log"][-1]["step"] == "turn:next" and "Overland Movement Phase" in after["log"][-1]["text"]
    # A name that says Phase is not followed by "phase" again (issue 32: "Road Movement Phase phase").
    assert [e["text"] for e in after["log"]] == [
        "turn May IV: Road Movement Phase (jewish)", "turn May IV: Overland Movement Phase (arab)",
        "turn May IV: Road Movement Phase (arab)", "turn June I: Overland Movement Phase (jewish)"]


def test_a_phase_named_for_its_side_sets_the_side_on_turn_next(client):
    after = ok(client, "/api/play", source=N1, step=["phase:west_cp_movement", "turn:next"])
    assert after["phasing_side"] == "cp" and after["phase"] != "west_cp_movement"


def test_the_source_lists_the_combat_kinds_and_the_rule_topics(client):
    jerusalem, nop = ok(client, "/api/source", source=J2), ok(client, "/api/source", source=N1)
    assert jerusalem["combat_kinds"][:2] == ["attack", "first_fire"] and nop["combat_kinds"] == []
    assert jerusalem["rule_topics"]["4.2"] == "entering an enemy ZOC" and nop["rule_topics"]["9.3"]


def test_free_placement_says_no_rule_was_checked(client):
    after = ok(client, "/api/play", source=J2, step="place:j-plm-1>0215")
    assert unit(after, "j-plm-1")["hex"] == "0215"
    assert "no rule checked" in after["log"][0]["text"]


def test_a_unit_placed_from_a_box_is_logged_with_the_boxs_name(client):
    waiting = unit(ok(client, "/api/source", source=J2), "j-ht-2")
    assert (waiting["box"], waiting["box_name"]) == ("reinforcements", "Order of Battle")   # game.yaml boxes
    after = ok(client, "/api/play", source=J2, step="place:j-ht-2>0215")
    assert (after["log"][0]["from"], after["log"][0]["to"]) == ("Order of Battle", "0215")


def test_a_phase_end_that_asks_a_choice_says_so_and_takes_it_by_number(client):
    """No Prisoners 9.2 C: a town (0409, limit 3, its three Allied units) overstacked by a fourth at the end of a
    phase: Next asks which unit goes (the four, by number), and ``turn:next;choices=N`` eliminates that one."""
    over = ok(client, "/api/play", source=N1, step="place:a-29-ind-bde>0409")
    r = client.get("/api/play", params={"source": over["id"], "step": "turn:next"})
    assert r.status_code == 400 and "9.2 C" in r.json()["error"]
    choice = r.json()["choice"]
    assert choice["options"] == ["a-29-ind-bde", "a-anzac-mtd-div", "a-hq-murray", "a-yeo-mtd-div"]
    assert (choice["given"], choice["step"]) == ([], "turn:next")
    assert choice["what"].startswith("9.2 C: allied eliminates a unit over the limit of 3 in 0409")
    after = ok(client, "/api/play", source=over["id"], step="turn:next;choices=2")
    assert unit(after, "a-hq-murray")["hex"] is None and unit(after, "a-29-ind-bde")["hex"] == "0409"
    assert after["log"][-1]["step"] == "turn:next;choices=2" and "a-hq-murray eliminated (9.2 C)" in \
        after["log"][-1]["text"]
    bad = client.get("/api/play", params={"source": over["id"], "step": "turn:next;choices=x"})
    assert bad.status_code == 400 and "turn:next;choices=0+2" in bad.json()["error"]


def test_the_exported_position_answers_as_the_cli(client, capsys, tmp_path):
    moves = ok(client, "/api/moves", source=J2, unit="j-ac-1")
    dest = moves["destinations"][len(moves["destinations"]) // 2]["hex"]
    after = ok(client, "/api/play", source=J2, step=[f"move:j-ac-1>{dest}", "phase:road"])
    r = client.get("/api/position.yaml", params={"source": after["id"]})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "after.yaml"
    path.write_bytes(r.content)
    assert yaml.safe_load(r.content)["phase"] == "road"
    main(["check", str(path), "--json"])
    assert ok(client, "/api/check", source=after["id"]) == json.loads(capsys.readouterr().out)
    save = client.get("/api/position.vsav", params={"source": after["id"]})
    assert save.status_code == 200
    (tmp_path / "after.vsav").write_bytes(save.content)
    pf, _ = read_position_save(str(tmp_path / "after.vsav"), "jerusalem-1948")
    assert next(u for u in pf.units if u.id == "j-ac-1").hex == dest


def test_answers_are_compressed(client):
    for url in ("/api/map.svg", "/api/source"):
        r = client.get(url, params={"source": J2}, headers={"accept-encoding": "gzip"})
        assert r.headers["content-encoding"] == "gzip"


def _prepared(book) -> None:
    """Wait for the clicks answered ahead (``app.prepare_clicks``)."""
    import threading

    for thread in [t for t in threading.enumerate() if t.name.startswith("prepare ")]:
        thread.join(60)


def test_the_clicks_on_a_shown_position_and_after_a_move_are_answered_ahead_as_computed():
    from toolkit.web.sources import SourceBook

    book = SourceBook()
    with TestClient(create_app(book)) as c:
        shown = ok(c, "/api/source", source=J2)
        _prepared(book)
        phasing = [u["id"] for u in shown["units"] if u["side"] == shown["phasing_side"] and u["hex"]]
        kept = {json.loads(key[2])["unit"] for key in book.kept.answers if key[:2] == (J2, "moves")}
        assert kept == set(phasing) and "j-ac-1" in kept
        ahead = c.get("/api/moves", params={"source": J2, "unit": "j-ac-1"})
        book.kept.clear()
        assert c.get("/api/moves", params={"source": J2, "unit": "j-ac-1"}).content == ahead.content
        reach = book.get(J2).answers
        assert all(("reach", side) in reach for side in shown["sides"])
        assert reach[("reach", "arab")] == ok(c, "/api/reach", source=J2, side="arab")
        moves = ok(c, "/api/moves", source=J2, unit="j-plm-1")
        after = ok(c, "/api/play", source=J2, step=f"move:j-plm-1>{moves['destinations'][0]['hex']}")
        _prepared(book)                                   # the position after the move: its clicks too
        assert any(key[:2] == (after["id"], "moves") for key in book.kept.answers)


def test_kept_megabytes_from_the_environment(monkeypatch):
    from toolkit.web.sources import SourceBook, kept_bytes

    monkeypatch.setenv("TOOLKIT_KEPT_MB", "lots")
    with pytest.raises(ValueError, match="TOOLKIT_KEPT_MB='lots': give a whole number of megabytes"):
        kept_bytes()
    monkeypatch.setenv("TOOLKIT_KEPT_MB", "0")
    book = SourceBook()
    with TestClient(create_app(book)) as c:
        first = ok(c, "/api/moves", source=J2, unit="j-ac-1")
        assert not book.kept.answers                      # nothing kept
        assert ok(c, "/api/moves", source=J2, unit="j-ac-1") == first
