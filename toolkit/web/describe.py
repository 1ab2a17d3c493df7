"""The ``/api/source`` answer: what the page needs to draw a source and offer its game's tools."""
from __future__ import annotations

from typing import Any

from ..answers import takes_target
from ..game import Position, Unit
from ..game.schema import ALLOWS
from ..games import has_rules, rules_for
from ..vassal.design.counters import face_texts
from .sources import Source

#: Each layer of the page and the calculator a game's rules package needs for it.
LAYERS = {"zoc": "side_zoc", "supply": "supply", "command": "command", "victory": "victory",
          "reach": "movement_phases", "check": "check"}


def source_json(source: Source) -> dict[str, Any]:
    """``{"id", "kind", "title", "map", "game", "turn", "phase", "phasing_side", "phases", "phase_names",
    "phase_sides", "phase_allows" (what each phase lets the phasing player do, in words), "movement_phases", "sides",
    "side_colours", "units", "move_options", "combat_kinds", "combat_target", "rule_topics", "layers", "sight_rule",
    "unplaced", "base", "steps", "log"}`` (``docs/web.md``; ``combat_kinds``: the kinds of combat its rules package
    offers, ``COMBAT_KINDS``, empty when it has none; ``combat_target``: whether its combat takes the attacked hex,
    :func:`combat_target`; ``rule_topics``: what each rule number is about, from the game's ``rule_topics.yaml``;
    ``sight_rule``: the rule of the game's own line of sight or fire, its plugin's ``SPOTTING_RULE``, else None); a
    save's pieces it could not place are listed in ``unplaced``."""
    head = source.entry()
    if source.kind == "map":
        return {**head, "turn": None, "phase": None, "phases": [], "phase_names": {}, "phase_sides": {},
                "phase_allows": {}, "movement_phases": {}, "sides": [], "side_colours": {}, "units": [], "move_options": None,
                "combat_kinds": [], "combat_target": False, "rule_topics": {}, "layers": [], "sight_rule": None,
                "unplaced": [], **_played(source)}
    position, unplaced = source.opened
    spec = position.game.spec
    rules = rules_for(position.game) if has_rules(position.game) else None
    return {**head, "turn": position.turn, "phase": position.phase, "phasing_side": position.phasing_side,
            "phases": list(spec.phases), "phase_names": {p: spec.phase_name(p) for p in spec.phases},
            "phase_sides": {p: spec.phase_side(p) for p in spec.phases},
            "phase_allows": {p: [ALLOWS[a] for a in spec.phase_allows(p)] for p in spec.phases},
            "movement_phases": {s.id: list(rules.movement_phases(spec, s.id)) for s in spec.sides}
            if hasattr(rules, "movement_phases") else {}, "sides": [s.id for s in spec.sides],
            "side_colours": side_colours(spec),
            "units": [unit_json(position, u) for u in position.units],
            "move_options": getattr(rules, "MOVE_OPTIONS", {"flags": [], "kinds": []}),
            "combat_kinds": list(getattr(rules, "COMBAT_KINDS", ())), "combat_target": combat_target(rules),
            "rule_topics": position.game.rule_topics,
            "layers": [layer for layer, needs in LAYERS.items() if hasattr(rules, needs)
                       or (layer == "check" and rules is None and spec.stacking is not None)],   # game.yaml stacking
            "sight_rule": getattr(rules, "SPOTTING_RULE", None),
            "unplaced": [str(u) for u in unplaced], **_played(source)}


def combat_target(rules: Any) -> bool:
    """Whether a game's rules (``rules_for``, None without) take the attacked hex as well as the units of an attack
    (:func:`~toolkit.answers.takes_target`: the Siege of Jerusalem's Breach attack on a wall hex no unit defends)."""
    return takes_target(getattr(rules, "combat", None))


def side_colours(spec) -> dict[str, list[str]]:
    """``{side: [fill, ink]}``: the counter colours ``game.yaml`` gives each side (``color``, ``text``); a side
    that gives none is left out (the page then picks its own)."""
    return {s.id: [s.color, s.text] for s in spec.sides if "color" in s.model_fields_set}


def _played(source: Source) -> dict[str, Any]:
    """``{"base", "steps", "log"}``: the source the steps of play start from (the source itself when none were
    made), the steps (``/api/play``) and their log entries."""
    return {"base": source.base or source.id, "steps": list(source.steps), "log": list(source.log)}


def unit_json(position: Position, u: Unit) -> dict[str, Any]:
    """One unit: ``{"id", "name", "side", "hex", "box", "box_name", "type", "face", "values", "counter", "flags",
    "carried_by"}``; ``box_name`` is the box as players read it (game.yaml), ``values`` what its face prints
    (strength-movement, command radius)."""
    back_flag = position.game.spec.back_flag
    back = back_flag is not None and u.has(back_flag)
    return {"id": u.id, "name": u.counter.name, "side": u.side,
            "hex": None if u.hex is None else position.game.map.name(u.hex), "box": u.box,
            "box_name": None if u.box is None else position.game.spec.box_name(u.box), "type": u.type,
            "face": "back" if back else "front", "values": face_texts(position.game, u.counter, back)["factors"],
            "counter": u.counter.id, "flags": sorted(u.flags), "carried_by": u.carried_by}
