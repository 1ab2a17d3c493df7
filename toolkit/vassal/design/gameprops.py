"""The scenario and parameters of a position as the module's global properties, so that they survive a save made
in VASSAL.

The module declares two ``GlobalProperty`` components at module level: ``Scenario`` (the scenario's name) and
``Parameters`` (the position's ``params`` as a JSON object).  A game in progress keeps their values, and every
save the engine writes carries them as ``GlobalProperty TAB;<name>;<value>;Module`` commands (the property's
restore command); the toolkit's saves write the same commands.

>>> cmds = property_commands("1", {"vp": 9, "revolt": None})
>>> cmds[1]
'GlobalProperty\\t;Parameters;{"revolt": null, "vp": 9};Module'
>>> read_properties(cmds)
{'scenario': '1', 'params': {'revolt': None, 'vp': 9}}
>>> read_properties(property_commands(None, {"vp": [1, 2], "roll": 3}))
{'params': {'roll': 3}}
"""
from __future__ import annotations

import json

from ..engine.pieces import fast_decode
from ..engine.seqenc import encode

PREFIX = "GlobalProperty\t"
CONTAINER = "Module"  # GameModule's container id
SCENARIO, PARAMS = "Scenario", "Parameters"
DESCRIPTIONS = {SCENARIO: "the scenario this game was set up from (toolkit)",
                PARAMS: "the position's parameters, a JSON object (toolkit)"}


def property_commands(scenario: str | None, params: dict) -> list[str]:
    """The commands that set both properties (the scenario empty when there is none)."""
    values = {SCENARIO: scenario or "", PARAMS: json.dumps(params, sort_keys=True)}
    return [encode([PREFIX, name, value, CONTAINER], ";") for name, value in values.items()]


def _values(commands: list[str]) -> dict[str, str]:
    """The last value each global property command sets, by property name."""
    out = {}
    for cmd in commands:
        if cmd.startswith(PREFIX):
            fields = fast_decode(cmd, ";")
            if len(fields) >= 3:
                out[fields[1]] = fields[2]
    return out


def read_properties(commands: list[str]) -> dict:
    """``scenario`` and ``params`` as the commands set them; a key is left out when its property is missing,
    empty or (parameters) not a JSON object.  A parameter must be a position's value (a string, number, true,
    false or null); any other (from a save edited by hand) is left out."""
    values = _values(commands)
    out: dict = {}
    if values.get(SCENARIO):
        out["scenario"] = values[SCENARIO]
    try:
        params = json.loads(values.get(PARAMS) or "null")
    except (ValueError, RecursionError):
        params = None
    if isinstance(params, dict):
        out["params"] = {k: v for k, v in params.items() if v is None or isinstance(v, (bool, int, float, str))}
    return out
