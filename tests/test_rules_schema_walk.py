"""Issue 33, no silent no-op: every key of the rules.yaml schema (``toolkit schema rules``) either changes some
calculator's answer or is refused when the game loads.

The schema is walked key by key (``*``: any name of a mapping, ``[]``: any item of a list).  Each key has one
edit of examples/steppe/rules.yaml (a value changed, or the key added); the answers of every calculator on a set
of probe positions (moves, odds, retreats, supply, command, reinforcements, victory, check) must differ from the
unedited game's.  A key no calculator reads fails the test: give it an effect, or refuse it (``REFUSED`` of
toolkit/game/rulesdata.py) with the fix.

Two shapes are walked once, as one function of the toolkit reads them wherever they are written: a condition
(``X.when``, a ``Situation``) is one key where it is written, showing that ``when`` is read there, and its tests
(``when.params``, ``when.terrain`` …) are keys of their own, each edited at one place; an entry that may also be
written as a list of its variants (``{cost: 2}`` or ``[{cost: 3, when: …}, {cost: 2}]``) is walked as the entry,
and ``X[]`` is the key of its list form.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolkit.answers import (check_answer, command_answer, moves_json, odds_answer, retreat_answer, search_moves,
                             supply_answer, victory_answer, zoc_answer)
from toolkit.game import GameDataError, load_game
from toolkit.game.placement import placement_json
from toolkit.game.position import position_from_yaml
from toolkit.game.rulesdata import rules_json_schema
from toolkit.game.sequence import game_over
from toolkit.games import rules_for

STEPPE = Path(__file__).resolve().parent.parent / "examples" / "steppe"


def schema_keys(schema: dict) -> set[str]:
    """Every key path of a JSON schema whose value is not itself an object of keys (``*`` and ``[]`` as above)."""
    defs, out = schema.get("$defs", {}), set()

    def resolve(node: dict) -> dict:
        while "$ref" in node:
            node = defs[node["$ref"].split("/")[-1]]
        return node

    def variants_of(members: list[dict]) -> set[str]:   # the defs also given as a list of variants
        named = {m["$ref"] for m in members if "$ref" in m}
        return {m["items"]["$ref"] for m in members if m.get("type") == "array" and m.get("items", {}).get("$ref")
                in named}

    def walk(node: dict, path: str) -> bool:   # whether ``node`` has keys of its own
        if node.get("$ref", "").endswith("/Situation"):
            out.add(path)
            out.update(f"when.{key}" for key in defs["Situation"]["properties"])
            return True
        node, found = resolve(node), False
        members = [*node.get("anyOf", ()), *node.get("oneOf", ())]
        listed = variants_of(members)
        if listed:
            out.add(f"{path}[]")
        leaves = False
        for member in members:
            if member.get("type") == "array" and member.get("items", {}).get("$ref") in listed:
                continue
            keyed = walk(member, path)
            found |= keyed
            leaves |= not keyed and member.get("type") != "null"
        if found and leaves:   # one value, or keys (a cost, or a list of its variants)
            out.add(path)
        for key, sub in node.get("properties", {}).items():
            found = True
            if not walk(sub, f"{path}.{key}" if path else key):
                out.add(f"{path}.{key}" if path else key)
        if isinstance(node.get("additionalProperties"), dict):
            found |= walk(node["additionalProperties"], f"{path}.*")
        if isinstance(node.get("items"), dict):
            found |= walk(node["items"], f"{path}[]")
        return found

    walk(schema, "")
    return out


# -- the probes ------------------------------------------------------------------------------------------------------
def unit(uid: str, counter: str, where: str, **more) -> dict:
    return {"id": uid, "counter": counter, **({"box": where} if where == "reinforcements" else {"hex": where}), **more}


SCENARIO = yaml.safe_load((STEPPE / "scenarios" / "scenario-1.yaml").read_text())
SCENARIO["units"].append(unit("deep", "ger-inf", "0903"))      # next to Belgorod: its ZOC covers the Soviet entry
SCENARIO["units"].append({"id": "lost", "counter": "ger-inf", "box": "eliminated"})   # for replacements, end VP
SCENARIO["units"].append(unit("worn", "ger-inf", "0103", flags=["reduced"]))         # a reduced unit
SCENARIO["params"] = {"weather": "clear"}
COMBAT = [unit("g", "ger-inf", "0504"), unit("pz", "ger-pz", "0503"), unit("r", "sov-inf", "0604"),
          unit("f", "sov-inf", "0403"), unit("gf", "ger-inf", "0402"), unit("hq", "ger-hq", "0302"),
          unit("s", "sov-inf", "0306"), unit("gs", "ger-inf", "0305"), unit("c", "sov-inf", "0705"),
          unit("gc", "ger-inf", "0706"), unit("far", "ger-inf", "0904"), unit("b", "sov-inf", "1004"),
          unit("tired", "ger-inf", "0404", spent=3.5), unit("pzs", "ger-pz", "0206"),   # in swamp: prohibited
          unit("both", "sov-inf", "0402"),                                               # two sides in 0402
          *(unit(f"full{i}", "sov-inf", "0704") for i in range(3))]                      # 0704 stacked full
HELD = [unit("k", "ger-inf", "0705")]                           # the Axis holds Kharkov: 10 VP
MARKED = [{"marker": "axis-control", "hex": "1004"}]            # Belgorod held by a marker


def probes(folder: Path) -> dict[str, Any]:
    """Every calculator's answer on the probe positions (an error's message stands for its answer)."""
    game = load_game(str(folder))
    rules_for(game)
    out: dict[str, Any] = {}

    def pos(doc: dict):
        return position_from_yaml(yaml.safe_dump(doc).encode(), "probe.yaml", game)

    def ask(key: str, call) -> None:
        try:
            out[key] = json.loads(json.dumps(call(), default=str))
        except ValueError as err:   # a refusal (a unit off the map moved without --enter …)
            out[key] = f"error: {err}"

    for phase in ("axis_movement", "axis_mech", "axis_combat", "soviet_movement"):
        for turn in ("1", "3"):
            p = pos({**SCENARIO, "phase": phase, "turn": turn, "phasing_side": phase.split("_")[0]})
            for u in p.units:
                ask(f"moves {phase} {turn} {u.id}", lambda: moves_json(p, [u.id], search_moves(p, "p", [u.id])))
                ask(f"rail {phase} {turn} {u.id}",
                    lambda: moves_json(p, [u.id], search_moves(p, "p", [u.id], kind="rail")))
            for u in ("g-inf-3", "s-tank-2", "lost", "worn"):
                ask(f"place {phase} {turn} {u}", lambda: placement_json([rules_for(game).placement(p, u)], p))
            for name, call in (("supply", supply_answer), ("command", command_answer), ("check", check_answer),
                               ("victory", victory_answer)):
                ask(f"{name} {phase} {turn}", lambda: call(p))
    combat = pos({**SCENARIO, "phase": "axis_combat", "units": COMBAT})
    for phase in ("axis_movement", "soviet_movement"):
        moving = pos({**SCENARIO, "phase": phase, "phasing_side": phase.split("_")[0], "units": COMBAT})
        for u in moving.units:
            ask(f"moves {phase} {u.id}", lambda: moves_json(moving, [u.id], search_moves(moving, "p", [u.id])))
    for name, call in (("supply", supply_answer), ("command", command_answer), ("check", check_answer),
                       ("zoc axis", lambda p: zoc_answer(p, "axis")), ("zoc soviet", lambda p: zoc_answer(p, "soviet"))):
        ask(f"{name} combat", lambda: call(combat))
    for name, units, markers in (("held", HELD, []), ("marked", [], MARKED), ("empty", [], [])):
        ask(f"victory {name}", lambda: victory_answer(pos({**SCENARIO, "units": units, "markers": markers})))
    ask("retreat toward", lambda: retreat_answer(combat, ["r"], attackers=["far"], result="DR"))
    last = pos({**SCENARIO, "turn": "6", "phase": "soviet_combat", "phasing_side": "soviet"})   # the game's end
    ask("victory last", lambda: victory_answer(last))
    for name, units in (("held", HELD), ("scenario", SCENARIO["units"])):   # the game's end, or a sudden death
        for phase, turn in (("axis_movement", "1"), ("soviet_combat", "1"), ("soviet_combat", "6")):
            over = pos({**SCENARIO, "units": units, "phase": phase, "turn": turn, "phasing_side": phase.split("_")[0]})
            ask(f"over {name} {phase} {turn}", lambda: str(game_over(over)))
    if "replaced" in game.spec.flags:   # two Axis replacements taken (replacements: one a side)
        taken = [unit("a1", "ger-inf", "0104", flags=["replaced"]), unit("a2", "ger-inf", "0204", flags=["replaced"])]
        ask("check replaced", lambda: check_answer(pos({**SCENARIO, "units": taken})))
    ask("place lost", lambda: placement_json([rules_for(game).placement(pos(SCENARIO), "lost")], pos(SCENARIO)))
    ask("topics", lambda: game.rule_topics)   # the rule numbers the viewer lists, each from where it is cited
    for attack, defend in ((["g", "pz"], ["r"]), (["g"], ["r"]), (["gf", "pz"], ["f"]), (["gs"], ["s"]),
                           (["gc"], ["c"]), (["far"], ["b"]), (["gf"], ["r"])):
        ask(f"odds {attack} {defend}", lambda: odds_answer(combat, "p", attack, defend))
    codes = list(game.rules_data.combat.results) if game.rules_data.combat else []
    for code in codes:
        for units, enemy in ((["r"], ["g", "pz"]), (["g"], ["r"]), (["s"], ["gs"]), (["f"], ["gf"]),
                             (["full0", "full1"], ["gc"])):
            ask(f"retreat {code} {units}", lambda: retreat_answer(combat, units, attackers=enemy, result=code))
    ask("retreat 2", lambda: retreat_answer(combat, ["r"], attackers=["g"], hexes=2))
    return out


# -- one edit per key: (where, the new value); ``None`` drops the key ------------------------------------------------
R = "R99"   # a rule number no answer cites before the edit
CLEAR = {"params": {"weather": "clear"}}   # the probes' weather
EDITS: dict[str, tuple] = {   # key -> (where, new value[, a SETUPS change made first])
    "game": ("game", "other"),
    # movement
    "movement.rule": ("movement.rule", R),
    "movement.allowance": ("movement.allowance", "attack"),
    "movement.classes": ("movement.classes", {"foot": ["infantry", "hq", "armour"]}),
    "movement.terrain.rule": ("movement.terrain.rule", R),
    "movement.terrain.costs.*": ("movement.terrain.costs.clear", 2),
    "movement.terrain.costs.*[].cost": ("movement.terrain.costs.clear", [{"cost": 2}]),
    "movement.terrain.costs.*[].rule": ("movement.terrain.costs.swamp", [{"cost": {"foot": 3, "mech": "P"},
                                                                         "rule": R}]),
    "movement.terrain.costs.*[].when": ("movement.terrain.costs.clear", [{"cost": 2, "when": {"turns": ["3"]}},
                                                                         {"cost": 1}]),
    "movement.terrain.several": ("movement.terrain.several", "sum", "village"),
    "movement.hexsides.*.cost": ("movement.hexsides.river.cost", 3),
    "movement.hexsides.*.rule": ("movement.hexsides.major_river.rule", R),
    "movement.hexsides.*.feature": ("movement.hexsides.other", {"feature": "river", "cost": 4}),
    "movement.hexsides.*.value": ("movement.hexsides.river.value", "false"),
    "movement.hexsides.*.when": ("movement.hexsides.river.when", {"turns": ["3"]}),
    "movement.hexsides.*[]": ("movement.hexsides.river", [{"cost": 3, "when": CLEAR}, {"cost": 1}]),
    "movement.lines.*.cost": ("movement.lines.road.cost", 1),
    "movement.lines.*.rule": ("movement.lines.rail.rule", R),
    "movement.lines.*.feature": ("movement.lines.other", {"feature": "rail", "cost": 0.5}),
    "movement.lines.*.value": ("movement.lines.road.value", "false"),
    "movement.lines.*.kind": ("movement.lines.road.kind", "rail"),
    "movement.lines.*.when": ("movement.lines.road.when", {"turns": ["3"]}),
    "movement.lines.*[]": ("movement.lines.road", [{"cost": 1, "when": CLEAR}, {"cost": 0.5}]),
    "movement.kinds.*.rule": ("movement.kinds.rail.rule", R),
    "movement.kinds.*.along": ("movement.kinds.rail.along", ["road"]),
    "movement.kinds.*.allowance": ("movement.kinds.rail.allowance", "any"),
    "movement.kinds.*.enemy_zoc": ("movement.kinds.rail.enemy_zoc", "normal"),
    "movement.kinds.*.phases": ("movement.kinds.rail.phases", ["axis_mech"]),
    "movement.kinds.*.only": ("movement.kinds.rail.only", True),
    "movement.minimum_move.rule": ("movement.minimum_move.rule", R),
    "movement.phases": ("movement.phases.axis_mech", ["infantry"]),
    "movement.enemy_units.rule": ("movement.enemy_units.rule", R),
    "movement.caps[].max": ("movement.caps", [{"max": 1}]),
    "movement.caps[].rule": ("movement.caps", [{"max": 6, "rule": R}]),
    "movement.caps[].types": ("movement.caps", [{"max": 1, "types": ["armour"]}]),
    "movement.caps[].when": ("movement.caps[0].when.params", {"weather": "clear"}, "mud"),
    # the tests of a condition, each shown at one place (one function reads them everywhere: facts.holds)
    "when.params": ("movement.caps", [{"max": 1, "when": CLEAR}]),
    "when.turns": ("movement.caps", [{"max": 1, "when": {"turns": ["3"]}}]),
    "when.phase": ("movement.caps", [{"max": 1, "when": {"phase": ["axis_mech"]}}]),
    "when.sides": ("movement.caps", [{"max": 1, "when": {"sides": ["soviet"]}}]),
    "when.terrain": ("movement.caps", [{"max": 1, "when": {"terrain": ["forest"]}}]),       # f in forest 0403
    "when.features": ("movement.caps", [{"max": 1, "when": {"features": {"road": []}}}]),   # units on the road
    # zones of control
    "zoc.rule": ("zoc.rule", R),
    "zoc.exerted_by": ("zoc.exerted_by", ["armour"]),
    "zoc.not_across": ("zoc.not_across", ["river"]),
    "zoc.not_into": ("zoc.not_into", ["clear"]),
    "zoc.enter.effect": ("zoc.enter.effect", "none"),
    "zoc.enter.rule": ("zoc.enter.rule", R),
    "zoc.leave.cost": ("zoc.leave.cost", 2),
    "zoc.leave.rule": ("zoc.leave.rule", R),
    "zoc.zoc_to_zoc.allowed": ("zoc.zoc_to_zoc.allowed", True),
    "zoc.zoc_to_zoc.rule": ("zoc.zoc_to_zoc.rule", R),
    "zoc.negated_by_friends": ("zoc.negated_by_friends", []),
    "zoc.when": ("zoc.when", {"turns": ["3"]}),
    "zoc.enter.when": ("zoc.enter.when", {"turns": ["3"]}),
    "zoc.enter[]": ("zoc.enter", [{"effect": "none", "when": CLEAR}, {"effect": "stop", "rule": "7.1"}]),
    "zoc.leave.when": ("zoc.leave.when", {"turns": ["3"]}),
    "zoc.leave[]": ("zoc.leave", [{"cost": 2, "when": CLEAR}, {"cost": 1, "rule": "7.2"}]),
    "zoc.zoc_to_zoc.when": ("zoc.zoc_to_zoc.when", {"turns": ["3"]}),
    "zoc.zoc_to_zoc[]": ("zoc.zoc_to_zoc", [{"allowed": True, "when": CLEAR}, {"allowed": False}]),
    # combat
    "combat.rule": ("combat.rule", R),
    "combat.attack": ("combat.attack", "defence"),
    "combat.defence": ("combat.defence", "attack"),
    "combat.table.rule": ("combat.table.rule", R),
    "combat.table.kind": ("combat.table", {"kind": "differential", "columns": ["-2", "0", "+2", "+4", "+6", "+8"],
                                           "rows": {i: ["AR", "DR", "DR", "DE", "DE", "DE"] for i in range(1, 7)}}),
    "combat.table.columns": ("combat.table.columns", ["1-2", "1-1", "3-2", "2-1", "3-1", "4-1"]),
    "combat.table.die": ("combat.table", {"die": [2, 6], "columns": ["1-1"], "below": "AE",
                                          "rows": {i: ["DR"] for i in range(2, 13)}}),
    "combat.table.rows": ("combat.table.rows.1", ["DE", "DE", "DE", "DE", "DE", "DE"]),
    "combat.table.below": ("combat.table.below", "refused"),
    "combat.results": ("combat.results.AE", "attacker wiped out"),
    "combat.terrain_rule": ("combat.terrain_rule", R),
    "combat.terrain.*.shift": ("combat.terrain.forest.shift", -2),
    "combat.terrain.*.multiply": ("combat.terrain.city.multiply", 3),
    "combat.terrain.*.rule": ("combat.terrain.city.rule", R),
    "combat.terrain.*.when": ("combat.terrain.city.when", {"params": {"weather": "mud"}}),
    "combat.terrain.*[]": ("combat.terrain.city", [{"multiply": 3, "when": CLEAR}, {"multiply": 2}]),
    "combat.hexsides.*.shift": ("combat.hexsides.river.shift", -2),
    "combat.hexsides.*.drm": ("combat.hexsides.river.drm", 1),
    "combat.hexsides.*.attack": ("combat.hexsides.river.attack", 0.5),
    "combat.hexsides.*.across": ("combat.hexsides.river.across", "any"),
    "combat.hexsides.*.when": ("combat.hexsides.river.when", {"params": {"weather": "mud"}}),
    "combat.hexsides.*[]": ("combat.hexsides.river", [{"shift": -2, "when": CLEAR}, {"shift": -1}]),
    "combat.hexsides.*.rule": ("combat.hexsides.river.rule", R),
    "combat.hexsides.*.feature": ("combat.hexsides.other", {"feature": "river", "shift": -3}),
    "combat.hexsides.*.value": ("combat.hexsides.river.value", "false"),
    "combat.modifiers[].id": ("combat.modifiers[0].id", "tanks"),
    "combat.modifiers[].why": ("combat.modifiers[0].why", "other words"),
    "combat.modifiers[].rule": ("combat.modifiers[0].rule", R),
    "combat.modifiers[].shift": ("combat.modifiers[0].shift", 2),
    "combat.modifiers[].drm": ("combat.modifiers[0].drm", -1),
    "combat.modifiers[].when.attacker_types": ("combat.modifiers[0].when.attacker_types", ["infantry"]),
    "combat.modifiers[].when.defender_types": ("combat.modifiers[0].when.defender_types", ["armour"]),
    "combat.modifiers[].when.defender_terrain": ("combat.modifiers[0].when.defender_terrain", ["forest"]),
    "combat.modifiers[].when.defender_terrain_not": ("combat.modifiers[0].when.defender_terrain_not", []),
    "combat.modifiers[].when.phase": ("combat.modifiers[0].when.phase", ["soviet_combat"]),
    "combat.modifiers[].when.params": ("combat.modifiers[0].when.params", {"weather": "mud"}),
    "combat.modifiers[].when.turns": ("combat.modifiers[0].when.turns", ["2"]),
    "combat.modifiers[].when.sides": ("combat.modifiers[0].when.sides", ["soviet"]),
    "combat.modifiers[].when.terrain": ("combat.modifiers[0].when.terrain", ["clear"]),     # refused: defender_terrain
    "combat.modifiers[].when.features": ("combat.modifiers[0].when.features", {"rail": []}),  # r is not on the rail
    "combat.out_of_supply.attack": ("combat.out_of_supply.attack", 1),
    "combat.out_of_supply.defence": ("combat.out_of_supply.defence", 0.5),
    "combat.out_of_supply.rule": ("combat.out_of_supply.rule", R),
    "combat.adjacent.rule": ("combat.adjacent.rule", R),
    # retreat
    "retreat.rule": ("retreat.rule", R),
    "retreat.results.*.rule": ("retreat.results.DR.rule", R),
    "retreat.results.*.attacker.retreat": ("retreat.results.AR.attacker.retreat", 2),
    "retreat.results.*.attacker.eliminate": ("retreat.results.EX.attacker.eliminate", True),
    "retreat.results.*.attacker.step_loss": ("retreat.results.EX.attacker.step_loss", True),
    "retreat.results.*.attacker.note": ("retreat.results.EX.attacker.note", "other words"),
    "retreat.results.*.defender.retreat": ("retreat.results.DR.defender.retreat", 2),
    "retreat.results.*.defender.eliminate": ("retreat.results.DR.defender.eliminate", True),
    "retreat.results.*.defender.step_loss": ("retreat.results.DR.defender.step_loss", True),
    "retreat.results.*.defender.note": ("retreat.results.DR.defender.note", "other words"),
    "retreat.results.*.exchange.per": ("retreat.results.EX.exchange.per", "unit", "exchange"),
    "retreat.results.*.exchange.steps": ("retreat.results.EX.exchange.steps", 2, "exchange"),
    "retreat.away.rule": ("retreat.away.rule", R),
    "retreat.not_toward_enemy.rule": ("retreat.not_toward_enemy.rule", R),
    "retreat.enemy_zoc.effect": ("retreat.enemy_zoc.effect", "allowed"),
    "retreat.enemy_zoc.rule": ("retreat.enemy_zoc.rule", R),
    "retreat.overstack.effect": ("retreat.overstack.effect", "allowed"),
    "retreat.overstack.rule": ("retreat.overstack.rule", R),
    # supply
    "supply.rule": ("supply.rule", R),
    "supply.sources.*.rule": ("supply.sources.axis.rule", R),
    "supply.sources.*.hexes": ("supply.sources.axis.hexes", ["1003"]),
    "supply.sources.*.places": ("supply.sources.axis.places", ["Belgorod"]),
    "supply.sources.*.features": ("supply.sources.axis.features", ["rail"]),
    "supply.sources.*.edges": ("supply.sources.axis.edges", ["east"]),
    "supply.hexes": ("supply.hexes", 2),
    "supply.hexes[].hexes": ("supply.hexes", [{"hexes": 2}]),
    "supply.hexes[].rule": ("supply.hexes", [{"hexes": 5, "rule": R}]),
    "supply.hexes[].when": ("supply.hexes", [{"hexes": 2, "when": {"turns": ["3"]}}, {"hexes": 5}]),
    "supply.mp": ("supply.mp", 3, "supply_mp"),
    "supply.mp[].mp": ("supply.mp", [{"mp": 3}], "supply_mp"),
    "supply.mp[].rule": ("supply.mp", [{"mp": 5, "rule": R}], "supply_mp"),
    "supply.mp[].when": ("supply.mp", [{"mp": 3, "when": {"turns": ["3"]}}, {"mp": 5}], "supply_mp"),
    "supply.movement_class": ("supply.movement_class", "mech", "supply_mp"),
    "supply.blocked_by.enemy_units": ("supply.blocked_by.enemy_units", False),
    "supply.blocked_by.enemy_zoc": ("supply.blocked_by.enemy_zoc", False),
    "supply.blocked_by.terrain": ("supply.blocked_by.terrain", ["forest", "swamp"]),
    "supply.blocked_by.hexsides": ("supply.blocked_by.hexsides", ["major_river"]),
    "supply.blocked_by.when": ("supply.blocked_by.when", {"params": {"weather": "mud"}}),
    "supply.blocked_by[]": ("supply.blocked_by", [{"enemy_units": False, "enemy_zoc": False, "when": {"terrain": [
        "clear"]}}, {"enemy_units": True, "enemy_zoc": True}]),
    # command
    "command.rule": ("command.rule", R),
    "command.hq_types": ("command.hq_types", ["armour"]),
    "command.radius": ("command.radius", 1),
    "command.applies_to": ("command.applies_to", ["armour"]),
    "command.blocked_by.enemy_units": ("command.blocked_by.enemy_units", False),
    "command.blocked_by.enemy_zoc": ("command.blocked_by.enemy_zoc", True),
    "command.blocked_by.terrain": ("command.blocked_by.terrain", ["forest", "city"]),
    "command.blocked_by.hexsides": ("command.blocked_by.hexsides", ["major_river"]),
    "command.blocked_by.when": ("command.blocked_by.when", {"params": {"weather": "mud"}}),
    "command.blocked_by[]": ("command.blocked_by", [{"enemy_units": False, "when": CLEAR}, {"enemy_units": True}]),
    # reinforcements
    "reinforcements.rule": ("reinforcements.rule", R),
    "reinforcements.box": ("reinforcements.box", "eliminated"),
    "reinforcements.entry.*.rule": ("reinforcements.entry.axis.rule", R),
    "reinforcements.entry.*.hexes": ("reinforcements.entry.axis.hexes", ["0305"]),
    "reinforcements.entry.*.places": ("reinforcements.entry.axis.places", ["Poltava"]),
    "reinforcements.entry.*.place_list": ("reinforcements.entry.axis.place_list", "west"),
    "reinforcements.entry.*.regions": ("reinforcements.entry.axis.regions", ["north"]),
    "reinforcements.entry.*.edges": ("reinforcements.entry.axis.edges", ["north"]),
    "reinforcements.enemy_zoc": ("reinforcements.enemy_zoc", "allowed"),
    # victory
    "victory.rule": ("victory.rule", R),
    "victory.objectives[].hex": ("victory.objectives[0].hex", "0104"),
    "victory.objectives[].vp": ("victory.objectives[0].vp", 3),
    "victory.objectives[].side": ("victory.objectives[2].side", "axis"),
    "victory.objectives[].owner": ("victory.objectives[0].owner", "axis"),
    "victory.objectives[].rule": ("victory.objectives[0].rule", R),
    "victory.objectives[].when": ("victory.objectives[0].when", {"turns": ["3"]}),
    "victory.levels[].when": ("victory.levels[1].when", {"turns": ["3"]}),
    "victory.sudden_death[].rule": ("victory.sudden_death[0].rule", R, "sudden"),
    "victory.sudden_death[].side": ("victory.sudden_death[0].side", "soviet", "sudden"),
    "victory.sudden_death[].vp": ("victory.sudden_death[0].vp", 20, "sudden"),
    "victory.sudden_death[].hexes": ("victory.sudden_death[0].hexes", ["Belgorod"], "sudden"),
    "victory.sudden_death[].result": ("victory.sudden_death[0].result", "Axis wins at once", "sudden"),
    "victory.sudden_death[].at": ("victory.sudden_death[0].at", "turn", "sudden"),
    "victory.sudden_death[].when": ("victory.sudden_death[0].when", {"turns": ["3"]}, "sudden"),
    "victory.end.rule": ("victory.end.rule", R, "end"),
    "victory.end.eliminated": ("victory.end.eliminated", {"soviet": 5}, "end"),
    "victory.end.objectives[].hex": ("victory.end.objectives[0].hex", "0204", "end"),
    "victory.end.objectives[].vp": ("victory.end.objectives[0].vp", 3, "end"),
    "victory.end.objectives[].side": ("victory.end.objectives[0].side", "axis", "end"),
    "victory.end.objectives[].owner": ("victory.end.objectives[0].owner", "axis", "end"),
    "victory.end.objectives[].rule": ("victory.end.objectives[0].rule", R, "end"),
    "victory.end.objectives[].when": ("victory.end.objectives[0].when", {"turns": ["3"]}, "end"),
    # replacements
    "replacements.rule": ("replacements.rule", R, "replacements"),
    "replacements.phase": ("replacements.phase", ["soviet_movement"], "replacements"),
    "replacements.per_side": ("replacements.per_side", {"axis": 0, "soviet": 1}, "replacements"),
    "replacements.returns": ("replacements.returns", "step", "replacements"),
    "replacements.from_box": ("replacements.from_box", "reinforcements", "replacements"),
    "replacements.flag": ("replacements.flag", "reduced", "replacements"),
    "replacements.entry.*.rule": ("replacements.entry.axis.rule", R, "replacements"),
    "replacements.entry.*.hexes": ("replacements.entry.axis.hexes", ["0305"], "replacements"),
    "replacements.entry.*.places": ("replacements.entry.axis.places", ["Poltava"], "replacements"),
    "replacements.entry.*.place_list": ("replacements.entry.axis.place_list", "west", "replacements"),
    "replacements.entry.*.regions": ("replacements.entry.axis.regions", ["north"], "replacements"),
    "replacements.entry.*.edges": ("replacements.entry.axis.edges", ["north"], "replacements"),
    "victory.control_markers": ("victory.control_markers", {"axis": "soviet-control", "soviet": "axis-control"}),
    "victory.levels[].side": ("victory.levels[1].side", "soviet"),
    "victory.levels[].vp": ("victory.levels[1].vp", 0),
    "victory.levels[].result": ("victory.levels[1].result", "Axis win"),
    "victory.otherwise": ("victory.otherwise", "Draw"),
    # placement (toolkit check)
    "placement.rule": ("placement.rule", R),
    "placement.prohibited_terrain.rule": ("placement.prohibited_terrain.rule", R),
    "placement.both_sides.rule": ("placement.both_sides.rule", R),
}


def village(folder: Path) -> None:
    """A terrain laid over another (not a base terrain): villages in 0404 and 0504, 2 MP to enter."""
    cmap = yaml.safe_load((folder / "map.yaml").read_text())
    cmap["terrain"]["village"] = {"color": "#a08060", "base": False}
    cmap["areas"].append({"terrain": "village", "hexes": ["0404", "0504"]})
    (folder / "map.yaml").write_text(yaml.safe_dump(cmap, sort_keys=False))
    rules = yaml.safe_load((folder / "rules.yaml").read_text())
    rules["movement"]["terrain"]["costs"]["village"] = 2
    (folder / "rules.yaml").write_text(yaml.safe_dump(rules, sort_keys=False))


def mud(folder: Path) -> None:
    """Every unit's allowance 1 MP in mud (the probes' weather is clear)."""
    rules = yaml.safe_load((folder / "rules.yaml").read_text())
    rules["movement"]["caps"] = [{"max": 1, "when": {"params": {"weather": "mud"}}}]
    (folder / "rules.yaml").write_text(yaml.safe_dump(rules, sort_keys=False))


def rules_edit(change):
    """A setup changing rules.yaml (and game.yaml) of the copied game."""
    def setup(folder: Path) -> None:
        for name in ("rules.yaml", "game.yaml"):
            doc = yaml.safe_load((folder / name).read_text())
            change(name, doc)
            (folder / name).write_text(yaml.safe_dump(doc, sort_keys=False))
    return setup


def _supply_mp(name: str, doc: dict) -> None:   # supply lines of 5 MP of foot movement
    if name == "rules.yaml":
        doc["supply"].pop("hexes")
        doc["supply"].update(mp=5, movement_class="foot")


def _exchange(name: str, doc: dict) -> None:    # an exchange costs each side one step
    if name == "rules.yaml":
        doc["retreat"]["results"]["EX"] = {"rule": "10.1", "exchange": {"per": "side", "steps": 1}}


def _sudden(name: str, doc: dict) -> None:      # the Axis wins at once at the end of the phase it holds Kharkov
    if name == "rules.yaml":
        doc["victory"]["sudden_death"] = [{"rule": "14.2", "side": "axis", "hexes": ["Kharkov"], "at": "phase",
                                           "result": "Axis sudden-death victory"}]


def _end(name: str, doc: dict) -> None:         # at the game's end: 0904 and eliminated Axis units to the Soviets
    if name == "rules.yaml":
        doc["victory"]["end"] = {"rule": "14.3", "objectives": [{"hex": "0904", "vp": 7, "side": "soviet",
                                                                  "owner": "soviet"}],
                                 "eliminated": {"soviet": 2}}


def _replacements(name: str, doc: dict) -> None:   # one unit a side back from the eliminated box
    if name == "game.yaml":
        doc["flags"] = [*doc["flags"], "replaced"]
    else:
        doc["replacements"] = {"rule": "15.0", "phase": ["axis_movement"], "per_side": {"axis": 1, "soviet": 1},
                               "returns": "unit", "from_box": "eliminated", "flag": "replaced",
                               "entry": {"axis": {"edges": ["west"]}}}


SETUPS = {"village": village, "mud": mud, "supply_mp": rules_edit(_supply_mp), "exchange": rules_edit(_exchange),
          "sudden": rules_edit(_sudden), "end": rules_edit(_end), "replacements": rules_edit(_replacements)}
# a change of the game both answers are worked out on


def apply(rules: dict, where: str, new: Any) -> None:
    """Set ``where`` (dotted, ``[i]`` for a list item) of ``rules`` to ``new``."""
    *parents, last = where.replace("[", ".[").split(".")
    node = rules
    for key in parents:
        node = node[int(key[1:-1])] if key.startswith("[") else node.setdefault(key, {})
    if last.startswith("["):
        node[int(last[1:-1])] = new
    elif new is None:
        node.pop(last, None)
    else:
        node[last] = new


@pytest.fixture(scope="module")
def unedited() -> dict:
    """The answers of the example game as it is."""
    return probes(STEPPE)


def test_every_key_of_the_schema_has_an_edit():
    assert sorted(schema_keys(rules_json_schema()) - set(EDITS)) == []


@pytest.mark.parametrize("key", sorted(schema_keys(rules_json_schema())))
def test_each_key_changes_an_answer_or_is_refused(key, unedited, tmp_path):
    if key not in EDITS:
        pytest.fail(f"no edit for {key}")
    folder = tmp_path / "steppe"
    shutil.copytree(STEPPE, folder)
    where, new, *setup = EDITS[key]
    if setup:
        SETUPS[setup[0]](folder)
        unedited = probes(folder)
    rules = yaml.safe_load((folder / "rules.yaml").read_text())
    apply(rules, where, new)
    (folder / "rules.yaml").write_text(yaml.safe_dump(rules, sort_keys=False))
    try:
        edited = probes(folder)
    except GameDataError as err:   # refused when the game loads: the key, the file and the fix named
        assert "rules.yaml" in str(err)
        return
    assert edited != unedited, f"{key}: no answer changed"
