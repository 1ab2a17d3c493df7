"""The toolkit's answers as stable JSON (``docs/cli.md``), one builder each, shared by the command line and the
web viewer (``toolkit serve``, ``docs/web.md``): both wire inputs to these and print or send what they return.

Every builder calls the game's own calculators (the one legal-move generator, the one LOS engine, each game's
supply, command, check and victory); none adds a rule.  Bad input raises the toolkit's error classes
(:data:`REFUSALS`), each naming the key and the fix.
"""
from __future__ import annotations

import re
from inspect import signature
from typing import TYPE_CHECKING, Any, Sequence

from .lazy import lazy_exports

if TYPE_CHECKING:
    from .game import Game, Position
    from .game.moves import MoveResult
    from .hexgrid import Hex
    from .los import LosResult
    from .mapdata import CompiledMap
    from .render import LosOverlay


def _refusals() -> tuple[type[Exception], ...]:
    """:data:`REFUSALS`: the errors that mean "the input is refused" (each names the file or key and the fix), never
    a bug."""
    from .game import GameDataError
    from .hexgrid import HexNameError
    from .mapdata import MapError
    from .vassal.engine.safezip import ArchiveError
    from .vassal.saves.savefile import SaveError

    return (MapError, GameDataError, HexNameError, ArchiveError, SaveError, ValueError, KeyError)


# Each answer imports the calculators it calls, so one answer loads no other's (issue 31: ``toolkit hex`` loads
# neither the games, line of sight, saves nor pictures); ``require_units`` and ``search_moves`` are the games'.
_games_exports = lazy_exports(__name__, {"toolkit.games": ["require_units", "search_moves"]})


def __getattr__(name: str) -> Any:
    """``REFUSALS`` (:func:`_refusals`), made on first use, and the games' names above, imported on first use."""
    if name == "REFUSALS":
        globals()[name] = found = _refusals()
        return found
    return _games_exports(name)


MAX_ERROR_LINES, MAX_ERROR_CHARS = 20, 500
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")


def clean_text(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """A line as it may be echoed: control characters (ESC ...) escaped, shortened."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text.replace("\t", "\\t").replace("\r", "\\r"))
    return text if len(text) <= limit else text[:limit] + "…"


def error_text(err: BaseException) -> str:
    """An error's message as it may be shown: at most :data:`MAX_ERROR_LINES` lines, each cleaned."""
    lines = str(err).split("\n")
    out = [clean_text(line) for line in lines[:MAX_ERROR_LINES]]
    if len(lines) > MAX_ERROR_LINES:
        out.append(f"… and {len(lines) - MAX_ERROR_LINES} more")
    return "\n".join(out)


#: Maps whose game has its own line of fire: plain ``toolkit los`` uses the map's defaults and says so.
OWN_LOF_RULES = {
    "siege-of-jerusalem": "the map's default line of sight only (every Elevated, Built-up and Building hex blocks); "
                          "it ignores the Siege's own LOF rules (heights of Fortress, Bastion and Wall 9.5, "
                          "Built-up next to an end 9.51, slopes and crests 9.52, units 9.9, Towers 9.13, the Temple "
                          "10.3): use `toolkit los --position POSITION FROM TO` (or `toolkit fire`)",
}


class Rules:
    """A game's calculators by name, each raising a clear error when the game has none yet."""

    def __init__(self, game: Game):
        self.game = game

    def __getattr__(self, name: str):
        from .games import rule

        try:
            return rule(self.game, name)
        except ValueError:
            rule(self.game, name.removesuffix("_json"))  # name the calculator, not its JSON form
            raise


def hex_json(cmap: CompiledMap, text: str) -> dict[str, Any]:
    """The stable JSON description of one hex (see docs/cli.md)."""
    h = cmap.resolve(text)
    info = cmap.hexes[h]
    neighbors = [n for n in h.neighbors() if n in cmap.hexes]
    return {
        "map": cmap.id,
        "hex": cmap.name(h),
        "terrain": list(info.terrain),
        "elevation": info.elevation,
        "place": info.place,
        "region": info.region,
        "features": dict(info.features),
        "neighbors": [cmap.name(n) for n in neighbors],
        "hexsides": {cmap.name(n): dict(cmap.hexside(h, n)) for n in neighbors if cmap.hexside(h, n)},
    }


def moves_json(position: Position, unit_ids: Sequence[str], result: MoveResult) -> dict[str, Any]:
    """The stable JSON form of a legal-move search (see docs/cli.md)."""
    from .game.moves import labelled_paths

    name = position.game.map.name
    dests = sorted(result.destinations.values(), key=lambda d: (d.cost, name(d.hex)))
    paths = labelled_paths(dests, name)   # each path ends with its destination's name
    return {
        "unit": unit_ids[0] if len(unit_ids) == 1 else list(unit_ids),
        "from": name(result.start) if result.start is not None else None,
        "entering": position.by_id[unit_ids[0]].hex is None,
        "moving": list(result.moving) or list(unit_ids),  # with the units bound to move along (6.3.3, 8.7.4)
        "phase": position.phase,
        "mp": None if result.budget is None else result.budget / 2,
        "refused": None if result.refused is None else {"reason": result.refused.message,
                                                         "rule": result.refused.rule},
        "destinations": [{"hex": path[-1], "cost": d.cost / 2, "path": list(path), "stop": d.stop is not None,
                          **({"stop_rule": d.stop.rule} if d.stop else {})}
                         for d, path in zip(dests, paths)],
        "unreachable": [{"hex": name(h), "reason": r.message, "rule": r.rule}
                        for h, r in sorted(result.unreachable.items(), key=lambda kv: name(kv[0]))],
        "exits": [{"exit": label, "hex": name(d.hex), "cost": d.mp, "path": [name(h) for h in d.path]}
                  for label, d in sorted(result.exits.items())],
    }


class SightLine:
    """One line of sight asked for: on a map with its obstacles, or in a position with its game's rule."""

    def __init__(self, cmap: CompiledMap, a: Hex, b: Hex, result: LosResult, note: str | None = None,
                 details: dict[str, Any] | None = None):
        self.cmap, self.a, self.b, self.result, self.note, self.details = cmap, a, b, result, note, details or {}

    @classmethod
    def on_map(cls, cmap: CompiledMap, a_text: str, b_text: str, convention: str | None = None) -> "SightLine":
        """``toolkit los MAP A B``: the map's obstacles and convention (or ``convention``); a map whose game has
        its own line of fire gets a ``note`` saying this is not the game's verdict."""
        from .los import Convention, LosEngine
        from .los.explain import map_obstacles

        a, b = cmap.resolve(a_text), cmap.resolve(b_text)
        conv = Convention(convention or cmap.los.convention)
        result = LosEngine(cmap.grid).check(a, b, conv, map_obstacles(cmap), rule=cmap.los.rule)
        return cls(cmap, a, b, result, OWN_LOF_RULES.get(cmap.id))

    @classmethod
    def in_position(cls, position: Position, a_text: str, b_text: str) -> "SightLine":
        """``toolkit los --position POSITION A B``: the game's own spotting or line-of-fire rule, with what its
        ``sight_json`` adds when it has one (the Siege's reasons by sub-rule and fire modifiers)."""
        from .games import rule, rules_for

        cmap = position.game.map
        a, b = cmap.resolve(a_text), cmap.resolve(b_text)
        details = getattr(rules_for(position.game), "sight_json", None)
        return cls(cmap, a, b, rule(position.game, "can_see")(position, a, b),
                   details=None if details is None else details(position, a, b))

    def json(self) -> dict[str, Any]:
        """The stable JSON of ``toolkit los --json`` (see docs/cli.md)."""
        from .los.explain import result_json

        return {**result_json(self.cmap, self.result), **self.details, **({"note": self.note} if self.note else {})}

    def detail_lines(self) -> list[str]:
        """The game's reasons and fire modifiers as text lines (``reasons`` and ``drm`` of its ``sight_json``)."""
        return ([f"  [{r['rule']}] {r['reason']}" for r in self.details.get("reasons", [])]
                + [f"  {d['value']:+d} {d['id']} ({d['rule']}): {d['why']}" for d in self.details.get("drm", [])])

    def overlay(self) -> LosOverlay:
        """The line drawn on the map: green while seen, red from the block point."""
        from .render import LosOverlay

        lay = self.cmap.grid.layout
        return LosOverlay(lay.centre(self.a), lay.centre(self.b), self.result.visible, self.result.block_point,
                          list(self.result.blocked_by), [c.hex for c in self.result.touched])


def odds_answer(position: Position, label: str, attack: Sequence[str], defend: Sequence[str], kind: str = "attack",
                protected: Sequence[str] = (), fired: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
    """``toolkit odds --json``: the combat odds, every modifier and shift with its rule, and the chances
    (``extra``: the Siege's and Jerusalem!'s other options, ``attacked``, ``primary``, ``target``...); a unit named
    twice, or both attacking and defending, or unknown (naming ``label``) is refused."""
    from .games import require_units

    for opt, ids in (("--attack", attack), ("--defend", defend), ("--protected", protected), ("--fired", fired),
                     ("--attacked", extra.get("attacked", ()))):
        dup = sorted({u for u in ids if list(ids).count(u) > 1})
        if dup:
            raise ValueError(f"{opt} names {', '.join(map(repr, dup))} more than once; give each unit once")
    both = sorted(set(attack) & set(defend))
    if both:
        raise ValueError(f"{', '.join(map(repr, both))} both attack and defend")
    require_units(position, label, [*attack, *defend, *protected, *fired, *extra.get("attacked", ())])
    rules = Rules(position.game)
    if extra.get("target") and not takes_target(rules.combat):
        raise ValueError(f"--target: the combat of {position.game.spec.id} takes the defending units, not a hex (only "
                         "a Siege of Jerusalem Breach attack names its hex: 10.1); give --defend UNIT instead")
    given = {k: v for k, v in extra.items() if v}
    return rules.combat_json(rules.combat(position, list(attack), list(defend), kind=kind, protected=list(protected),
                                          fired=list(fired), **given))


def takes_target(combat: Any) -> bool:
    """Whether a game's combat calculator takes the attacked hex as well as the units (``toolkit odds --target``: the
    Siege of Jerusalem's Breach attack on a wall hex no unit defends, 10.1)."""
    try:
        return combat is not None and "target" in signature(combat).parameters
    except (TypeError, ValueError):   # a callable without a signature to read: it is not known to take one
        return False


def supply_answer(position: Position, side: str | None = None, unit: str | None = None) -> dict[str, Any]:
    """``toolkit supply --json``: every unit's supply line, or where it is cut."""
    from .games import require_units

    rules = Rules(position.game)
    if side is not None:
        check_side(position, side)
    if unit is not None:
        require_units(position, position.source, [unit])
    return rules.supply_json(rules.supply(position, side=side, unit=unit))


def command_answer(position: Position) -> dict[str, Any]:
    """``toolkit command --json``: every HQ's command radius and the units in command."""
    rules = Rules(position.game)
    return rules.command_json(rules.command(position))


def check_answer(position: Position, turn_end: bool = False) -> dict[str, Any]:
    """``toolkit check --json``: every rule the position breaks; for a game without a rules assistant, the
    stacking limits its ``game.yaml`` declares (:mod:`toolkit.game.stacking`)."""
    from .game import stacking
    from .game.violations import check_json
    from .games import has_rules

    spec = position.game.spec
    if not has_rules(position.game):
        if spec.stacking is None:
            raise ValueError(f"no rules assistant for game {spec.id!r}: describe its rules in rules.yaml "
                             "(docs/rules-data.md), or declare `stacking` in its game.yaml for a stacking check")
        return check_json(stacking.check(position))
    rules = Rules(position.game)
    return rules.check_json(rules.check(position, turn_end=turn_end or None))


def victory_answer(position: Position, road_cut_by: str | None = None) -> dict[str, Any]:
    """``toolkit victory --json``; ``road_cut_by`` is Jerusalem!'s reading of 2.0 (``zoc`` or ``zoc-or-unit``)."""
    rules = Rules(position.game)
    cut = {"road_cut_by": road_cut_by.replace("-", "_")} if road_cut_by else {}
    return rules.victory_json(rules.victory(position, **cut))


def check_side(position: Position, side: str) -> None:
    """Refuse a side the position's game does not have, naming the sides."""
    sides = [s.id for s in position.game.spec.sides]
    if side not in sides:
        raise ValueError(f"side {side!r} is not a side of {position.game.spec.id}; give one of: {', '.join(sides)}")


def zoc_answer(position: Position, side: str) -> dict[str, Any]:
    """``{"side", "hexes": [{"hex", "units", "rule"}]}``: the hexes in the ZOC of ``side``'s units, by the game's
    own ZOC rules (each unit exerting it listed, with the rule)."""
    from .games import rule

    check_side(position, side)
    name = position.game.map.name
    found = rule(position.game, "side_zoc")(position, side)
    return {"side": side, "hexes": [{"hex": name(h), "units": [u for u, _ in src],
                                     "rule": ", ".join(dict.fromkeys(r for _, r in src))}
                                    for h, src in sorted(found.items(), key=lambda kv: name(kv[0]))]}


def reach_answer(position: Position, side: str) -> dict[str, Any]:
    """``{"side", "hexes": [{"hex", "count", "units"}]}``: every hex some unit of ``side`` can reach or attack
    next turn (:func:`toolkit.game.reach.reach`)."""
    from .games import side_reach

    check_side(position, side)
    name = position.game.map.name
    found = side_reach(position, side)
    return {"side": side, "hexes": [{"hex": name(h), "count": len(units), "units": list(units)}
                                    for h, units in sorted(found.items(), key=lambda kv: name(kv[0]))]}


def retreat_answer(position: Position, unit_ids: Sequence[str], attack_hex: str | None = None,
                   attackers: Sequence[str] = (), hexes: int | None = None, result: str | None = None,
                   apply: Sequence[str] | None = None) -> dict[str, Any]:
    """``toolkit retreat --json``: what a combat result (or a retreat of ``hexes``) does to each named unit, its
    legal retreats or why it is eliminated, each with its rule; with ``apply`` (the hexes the retreating units
    go to, in their order; none needed for a unit with one), the position after the result and its check."""
    from .game.retreat import apply_retreats
    from .games import require_units

    require_units(position, position.source, [*unit_ids, *attackers])
    sides = {position.by_id[u].side for u in unit_ids}
    if len(sides) > 1:
        raise ValueError(f"--units: {', '.join(unit_ids)} are of several sides; name the units of one side")
    cmap = position.game.map
    enemy = [position.by_id[u] for u in attackers] or [
        u for u in position.at(cmap.resolve(attack_hex)) if u.side not in sides]
    if not enemy or any(u.side in sides or u.hex is None for u in enemy):
        raise ValueError("--attackers / --from-attack-hex: give the enemy units of the combat (on the map), or "
                         "the hex they attacked from")
    rules = Rules(position.game)
    hook = rules.retreat
    named = {"attackers": [u.id for u in enemy]} if "attackers" in signature(hook).parameters else {}
    found = hook(position, list(unit_ids), sorted({u.hex for u in enemy}, key=cmap.name), hexes=hexes,
                 result=result, **named)   # a game whose result marks the attackers (Jerusalem! 9.8.2) names them
    data = rules.retreat_json(found)
    if apply is not None:
        going = [f.unit.id for f in found.units if f.destinations]
        if len(apply) > len(going):
            raise ValueError(f"--apply: {len(apply)} hexes for {len(going)} retreating unit(s) "
                             f"({', '.join(going) or 'none'}); give one hex each, in that order")
        after = apply_retreats(found, dict(zip(going, apply)))
        data["after"] = {"position": after.to_file().model_dump(mode="json", exclude_defaults=True),
                         "check": check_answer(after)}
    return data


def phase_answer(position: Position) -> dict[str, Any]:
    """``toolkit phase --json``: the position's phase with its name, rule and the side whose it is, what it allows
    the phasing side (``game.yaml`` ``phases[].allows``, :data:`toolkit.game.schema.ALLOWS`), the game's notes on
    what the phasing player does now (its ``phase_notes`` when it has them) and what comes next in the sequence
    of play (:mod:`toolkit.game.sequence`): the next phase (``others``: the phases the player may choose instead,
    where they come in any order), whether it begins a new player turn, or the game's end with its rule."""
    from .game.schema import ALLOWS
    from .games import has_rules, rules_for

    spec = position.game.spec
    info = spec.phase_info.get(position.phase)
    notes = getattr(rules_for(position.game), "phase_notes", None) if has_rules(position.game) else None
    return {"phase": position.phase, "name": spec.phase_name(position.phase), "rule": info.rule if info else None,
            "phasing_side": position.phasing_side,
            "allows": [{"id": a, "text": ALLOWS[a]} for a in spec.phase_allows(position.phase, position.phasing_side)],
            "notes": notes(position) if notes else [], "next": _next_json(position)}


def _next_json(position: Position) -> dict[str, Any]:
    """What follows the position's phase (see :func:`phase_answer`)."""
    from .game import sequence

    spec = position.game.spec
    over = sequence.game_over(position)
    if over is not None:
        return {"phase": None, "turn": None, "side": None, "new_player_turn": False,
                "name": f"the game ends: {over}", "game_over": {"reason": over.reason, "rule": over.rule}}
    first, *others = sequence.successors(position)
    return {"phase": first.phase, "turn": first.turn, "side": first.side, "name": spec.phase_name(first.phase),
            "new_player_turn": sequence.new_player_turn(position, first), "game_over": None,
            "others": [{"phase": o.phase, "name": spec.phase_name(o.phase)} for o in others]}


def combat_answer(position: Position, attackers: Sequence[str], defenders: Sequence[str], kind: str | None = None,
                  rolls: Sequence[int] = (), choices: Sequence[int] = (), seed: int | None = None) -> dict[str, Any]:
    """``toolkit combat --json``: one whole combat as an action (:mod:`toolkit.game.actions`), every consequence
    applied by the game's ``resolve``: the action as made (its rolls and choices), the notes with their rules, and
    the position after with its check.  The dice are ``rolls`` (those thrown at the table) and the choices
    ``choices`` (numbers of the options offered, in order), or both drawn from ``seed``."""
    import random

    from .game.actions import Action, apply
    from .games import require_units

    require_units(position, position.source, [*attackers, *defenders])
    if seed is not None and (rolls or choices):
        raise ValueError("--seed draws the rolls and choices: give either --seed or --roll / --choose")
    action = Action("combat", tuple(attackers), None, tuple(defenders), {"kind": kind} if kind else {},
                    tuple(rolls), tuple(choices))
    out = apply(position, action, None if seed is None else random.Random(seed))
    return {"action": out.action.to_json(), "text": out.action.text(), "notes": out.notes,
            "after": {"position": out.position.to_file().model_dump(mode="json", exclude_defaults=True),
                      "check": check_answer(out.position)}}

