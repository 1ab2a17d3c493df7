"""``toolkit siege``'s table answers (the Missile Table column, Mining, Replacements, Reserves) and what every
Siege sub-command shares: the dice, the Siege's rules (with the position, when one is given), the JSON.
"""
from __future__ import annotations

import argparse
import random
from typing import Sequence

from .common import game_command, print_json

GAME_ID = "siege-of-jerusalem"


class Dice:
    """The rolls of one command: those the user gave, else draws of a generator seeded by ``--seed``."""

    def __init__(self, seed: int | None):
        self.rng = None if seed is None else random.Random(seed)

    def rolls(self, given: Sequence[int] | None, count: int, dice: int, option: str) -> list[int]:
        """``count`` rolls of ``dice`` dice: ``given`` (checked), else drawn; a clear error when neither."""
        low, high = dice, 6 * dice
        if given:
            if len(given) != count:
                raise ValueError(f"{option}: give {count} roll{'s' * (count != 1)} ({dice} di{'c' if dice > 1 else ''}e"
                                 f" each), or --seed S to draw them")
            bad = [r for r in given if not low <= r <= high]
            if bad:
                raise ValueError(f"{option} {bad[0]}: {dice} di{'c' if dice > 1 else ''}e roll {low}-{high}")
            return list(given)
        if self.rng is None:
            raise ValueError(f"give {option} (the roll{'s' * (count != 1)}) or --seed S (drawn, reproducible)")
        return [sum(self.rng.randint(1, 6) for _ in range(dice)) for _ in range(count)]


def siege_rules(args: argparse.Namespace):
    """The position (when the subcommand takes one) and the Siege's rules; a position of another game refused."""
    if getattr(args, "position", None) is None:
        from ..answers import Rules
        from ..game.module import load_game

        return None, Rules(load_game(GAME_ID))
    position, rules = game_command(args)
    if position.game.spec.id != GAME_ID:
        raise ValueError(f"{args.position}: a position of {position.game.spec.id}; `toolkit siege` answers "
                         f"{GAME_ID} positions")
    return position, rules


def dump(args: argparse.Namespace, data) -> bool:
    """Print ``data`` as JSON for ``--json``; returns whether it did."""
    if args.json:
        print_json(data)
    return args.json


def cmd_missile_column(args: argparse.Namespace) -> None:
    """The Missile Table column of a shot (13.2, 13.4)."""
    _, rules = siege_rules(args)
    data = rules.missile_shot(args.row, args.af)
    if dump(args, data):
        return
    if data["column"] is None:
        print(f"{args.af:g} AF on the {args.row} row: no column, fewer than {data['first_column_af']:g} AF (13.2)")
        return
    more = f", {data['multiples_drm']:+d} drm for multiples of {data['multiple']:g} AF beyond it (13.4)" \
        if data["multiples_drm"] else ""
    print(f"{args.af:g} AF on the {args.row} row: column {data['column']} (13.2){more}")


def cmd_mining(args: argparse.Namespace) -> None:
    """A Mining roll in a week of preparation (19.2)."""
    _, rules = siege_rules(args)
    roll, = Dice(args.seed).rolls(args.roll, 1, 1, "--roll")
    data = rules.assault.mining(args.week, roll, args.completed)
    if dump(args, data):
        return
    if data["drm"] is None:
        print(f"week {args.week}: {data['why']}")
        return
    print(f"week {args.week}: Mining roll {roll} {data['drm']:+d} = {data['final']}, less {args.completed} completed: "
          f"{data['shafts']} new shaft{'s' * (data['shafts'] != 1)} (19.2; at most four in all)")


def cmd_replacements(args: argparse.Namespace) -> None:
    """Replacements: the Roman share after weeks of preparation (18.5, 19.3) or the Jewish Levy share (18.6), and
    with a position the units drawn from its dead pile."""
    position, rules = siege_rules(args)
    pile = None if position is None else rules.dead_pile(position, args.side)
    eliminated = len(pile) if pile is not None else args.eliminated
    if eliminated is None:
        raise ValueError("--eliminated N: the units in the dead pile (or give --position POSITION to count them)")
    if args.side == "roman":
        if args.weeks is None:
            raise ValueError("--weeks W: the weeks of preparation before this Assault Period (19.3)")
        data = rules.assault.roman_replacements(args.weeks, eliminated, args.drawn_weeks)
    else:
        areas = position if position is not None else args.roman_areas
        data = rules.assault.jewish_replacements(eliminated, areas)
    if position is not None:
        data["drawn"] = rules.draw_replacements(position, args.side, data["replacements"], seeded(args))
    if dump(args, data):
        return
    share = f"{data['pct']} %" + (f" after {args.weeks} weeks" if args.side == "roman" else " (the Levy share)")
    print(f"{args.side} replacements: {share} of {eliminated} eliminated: {data['replacements']} ({data['rule']}, "
          "fractions dropped)")
    if "drawn" in data:
        print(f"  drawn at random: {', '.join(data['drawn']) or 'none'}")
    if args.side == "jewish" and data["flight_allowed"]:
        print(f"  the Levy share is 25 % or less: Flight is allowed ({data['flight_rule']})")


def seeded(args: argparse.Namespace) -> random.Random:
    """The generator of a random draw: ``--seed``'s, which the draw needs (so it can be repeated)."""
    if args.seed is None:
        raise ValueError("--seed S: the draw is random; give a seed so it can be repeated")
    return random.Random(args.seed)


def cmd_reserves(args: argparse.Namespace) -> None:
    """18.611, 18.612: the Reserves an Activation roll releases in an Area, and the unit each further roll gives."""
    _, rules = siege_rules(args)
    opts = dict(entered=args.entered, night=args.night, temple=args.temple, razed=args.razed,
                activated_before=args.activated_before)
    plan = rules.assault.reserve_activation(args.area, **opts)
    dice = Dice(args.seed)
    roll = sum(dice.rolls(args.roll, plan["dice"], 1, "--roll"))
    released = rules.assault.reserve_activation(args.area, roll=roll, **opts)["released"]
    units = dice.rolls(args.unit_rolls, released, 1, "--unit-rolls") if released else []
    data = rules.assault.reserve_activation(args.area, roll=roll, unit_rolls=units, **opts)
    if dump(args, data):
        return
    mods = "".join(f" {m['value']:+d} {m['id']}" for m in data["modifiers"])
    print(f"{args.area}: {data['dice']} di{'c' if data['dice'] > 1 else ''}e, roll {roll}{mods} = {data['final']}: "
          f"{data['released']} Reserves released (18.611; {data['left']} left of the Area's {data['limit']}, 18.612)")
    for u in data.get("units", []):
        print(f"  roll {u['roll']}: {u['type']} {u['factors']}")


def table(ssub, name: str, help: str, func: str) -> argparse.ArgumentParser:
    """A Siege sub-command that needs no position: ``--json`` only; ``func`` names its function."""
    t = ssub.add_parser(name, help=help)
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=func, position=None)
    return t


def add_seed(t: argparse.ArgumentParser) -> None:
    """``--seed``: the rolls not given, drawn reproducibly."""
    t.add_argument("--seed", type=int, help="draw the rolls not given with this seed (reproducible)")
