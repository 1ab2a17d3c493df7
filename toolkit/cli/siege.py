"""``toolkit siege …``: *The Siege of Jerusalem*'s table answers and procedures on the command line (docs/cli.md).

Each subcommand prints its answer with the rule, or the JSON with ``--json``; every calculator is found through the
game's rules (:func:`toolkit.games.rule`, the names of ``toolkit.games.siege.__all__``).  Random draws are
reproducible: each roll is given (``--roll``) or drawn by ``--seed``.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from .common import rules_parser
from .siege_tables import Dice, add_seed, dump, siege_rules, table


def cmd_shafts(args: argparse.Namespace) -> None:
    """A completed shaft: the hexes it undermines (19.21) and the damage of each (19.22)."""
    position, rules = siege_rules(args)
    dice = Dice(args.seed)
    engineering, = dice.rolls([args.engineering_roll] if args.engineering_roll else None, 1, 1, "--engineering-roll")
    hexes, _ = rules.shaft_hexes(position.game.map, position.game.map.resolve(args.target), engineering)
    data = rules.shafts(position, args.target, engineering, dice.rolls(args.roll, len(hexes), 2, "--roll"))
    if dump(args, data):
        return
    print(f"shaft at {data['target']}: Engineering roll {engineering}: {len(data['hexes'])} hexes, damage drm "
          f"{data['damage_drm']:+d} (19.21)")
    for d in data["damage"]:
        fate = "BREACH" if d["breach"] else f"damage {d['damage']}"
        print(f"  {d['hex']} ({d['kind']}, Breach Defence {d['breach_defence']}, {d['damage_before']} before): "
              f"roll {d['roll']} {data['damage_drm']:+d} = {d['final']}: {fate} ({d['rule']})")


def cmd_recovery(args: argparse.Namespace) -> None:
    """The Recovery order of a side and each unit's roll (17.1-17.3)."""
    position, rules = siege_rules(args)
    order = [u.id for u in rules.recovery_order(position, args.side)]
    given = dict(_unit_rolls(position, args.position, args.roll))
    dice = Dice(args.seed)
    rolls = given if given or args.seed is None else dict(zip(order, dice.rolls(None, len(order), 1, "--roll")))
    data = rules.recovery_rolls(position, args.side, rolls)
    if dump(args, data):
        return
    print(f"{args.side} Recovery, in order (17.1: the HQ first, then by row and number): {len(order)} units")
    for u in data["units"]:
        if u["roll"] is None:
            print(f"  {u['unit']:16} {u['hex']}")
            continue
        mods = "".join(f" {m['value']:+d} ({m['rule']})" for m in u["modifiers"])
        print(f"  {u['unit']:16} {u['hex']}  {u['state']}: roll {u['roll']}{mods} = {u['final']} vs "
              f"{u['recovery_number']}: {u['outcome']} ({u['rule']})")


def _unit_rolls(position, label: str, items: Sequence[str] | None) -> list[tuple[str, int]]:
    """``UNIT=N`` pairs, the units checked."""
    out = []
    for item in items or []:
        unit, sep, roll = item.partition("=")
        if not sep or not roll.strip().isdigit():
            raise ValueError(f"--roll {item!r}: give UNIT=N (a unit id and its roll)")
        out.append((unit, int(roll)))
    from ..answers import require_units

    require_units(position, label, [u for u, _ in out])
    return out


def cmd_vp(args: argparse.Namespace) -> None:
    """The Jewish Victory Points a position shows (18.9-18.94, 19.1)."""
    position, rules = siege_rules(args)
    data = rules.vp(position, args.week, args.redoubt)
    if dump(args, data):
        return
    print(f"Jewish Victory Points: {data['total']} of {data['jewish_win_at']} ({data['rule']})"
          + (": the Jews win" if data["jewish_win"] else ""))
    print(f"  Casualty {data['casualty']} (18.91): {len(data['casualty_units'])} Roman units in the dead pile"
          + (f"; {data['mutiny_at']} or more in one Assault Period: mutiny, the Jews win (18.94)" if data["mutiny"]
             else ""))
    print(f"  Flight {data['flight']} (18.922): {len(data['flight_units'])} Jewish units escaped")
    if data["redoubt_hexes"] is not None:
        print(f"  Redoubt {data['redoubt']} (18.93): {' '.join(data['redoubt_hexes']) or 'no Fortress held'}")
    if data["week"] is not None:
        print(f"  delay {data['preparation']} (19.1): the assault launched in week {data['week']}")


def cmd_multiple_attacks(args: argparse.Namespace) -> None:
    """11.9: what each unit under a Multiple Attack marker must or may attack; with ``--attack``, what resolving
    that attack does to the markers."""
    position, rules = siege_rules(args)
    if args.attack:
        from ..answers import require_units

        require_units(position, args.position, args.attack)
        data = rules.multiple_attack_markers(position, args.attack)
        if dump(args, data):
            return
        kind = f"an \"{data['marker']}\" Multiple Attack" if data["multiple_attack"] else "not a Multiple Attack"
        print(f"{', '.join(args.attack)}: {kind} (11.9)" + (f"; refused: {data['refused']['reason']}"
                                                            if data["refused"] else ""))
        for r in data["removed"]:
            print(f"  {r['unit']} loses its \"{r['marker']}\" marker: {r['why']}")
        print(f"  units advancing after it may take an \"{data['advancing_marker']}\" marker (11.9)")
        return
    data = rules.multiple_attacks(position)
    if dump(args, data):
        return
    print(f"{len(data['units'])} units under a Multiple Attack marker (11.9)")
    for u in data["units"]:
        verb = "must attack one of" if u["must"] else "may attack one of"
        print(f"  {u['unit']} (\"{u['marker']}\", {u['hex']}) {verb} ({u['rule']}):")
        for h in u["hexes"]:
            why = f"odds {h['odds']}" if h["allowed"] else f"not allowed: {h['refused']['reason']} ({h['refused']['rule']})"
            print(f"    {h['hex']} {', '.join(h['defenders'])}: {why}")


def cmd_sally(args: argparse.Namespace) -> None:
    """11.14: a Gate's Sally: its Entry hexes and the counterattacks allowed at the end of the Melee Phase."""
    position, rules = siege_rules(args)
    data = rules.sally(position, args.gate)
    if dump(args, data):
        return
    state = "opened for a Sally" if data["open"] else "closed (no Sally recorded in the parameter sallies)"
    print(f"Gate {data['gate']} held by {data['held_by'] or 'no one'}: {state} (11.14)")
    for e in data["entries"]:
        line = f"  Entry hex {e['hex']}: {', '.join(e['enemy']) or 'no enemy'}"
        c = e.get("counterattack")
        if c is not None:
            line += (f"; counterattack by {', '.join(e['counterattackers'])}: " +
                     (f"{c['attack']:g} against {c['defence']:g}, odds {c['odds']}" if not c["refused"]
                      else f"not allowed: {c['refused']['reason']} ({c['refused']['rule']})"))
        print(line)
    if data["open"]:
        print(f"  {data['closes']}")


def _pairs(items: Sequence[str] | None, option: str, shape: str) -> list[tuple[str, str]]:
    """``A:B`` / ``A=B`` items of ``option`` split at the first ``:`` or ``=`` (``shape`` names them in errors)."""
    out = []
    for item in items or []:
        a, sep, b = item.replace("=", ":", 1).partition(":")
        if not sep or not a.strip() or not b.strip():
            raise ValueError(f"{option} {item!r}: give {shape}")
        out.append((a.strip(), b.strip()))
    return out


def cmd_ramps(args: argparse.Namespace) -> None:
    """18.8, 18.81, 19.4: where the Roman may build his Ramp this interphase, and a build judged."""
    position, rules = siege_rules(args)
    data = rules.ramps(position, args.week, _pairs(args.build, "--build", "HEX:TOWARD (a Ramp hex and the Elevated "
                                                                             "Hex it climbs)"), args.period)
    if dump(args, data):
        return
    print(f"Ramps before Assault Period {data['period']}: {data['why']}; {data['when']}")
    if data["built"]:
        print("  built: " + ", ".join(f"{r['hex']} toward {r['toward']}" for r in data["built"]))
    if "build" not in data:
        print(f"  {len(data['sites'])} sites (18.81): " + "; ".join(f"{s['hex']} toward {'/'.join(s['toward'])}"
                                                                    for s in data["sites"]))
        return
    if data["allowed"]:
        print("  allowed: marker ramp " + ", ".join(f"{m['hex']} toward {m['toward']}" for m in data["build"])
              + f"; parameter ramps_built: {data['params']['ramps_built']} (19.4: once per game)")
    for why in data["refused"]:
        print(f"  refused: {why}")


def cmd_repairs(args: argparse.Namespace) -> None:
    """19.6: the Jewish Repair roll and what it repairs."""
    position, rules = siege_rules(args)
    allocation = {h: int(n) for h, n in _pairs(args.repair, "--repair", "HEX=N (points repaired there)")}
    roll = Dice(args.seed).rolls(args.roll, 1, 2, "--roll")[0] if args.roll or args.seed is not None else None
    data = rules.repairs(position, args.week, roll, allocation, delay=args.delay, period=args.period)
    if dump(args, data):
        return
    kind = "a week of delay after a completed shaft" if args.delay else f"before Assault Period {data['period']}"
    head = f"Repairs, {kind} (19.6)"
    if roll is not None:
        head += f": roll {roll} {data['drm']:+d} (week {args.week}) = {data['points']} damage points"
    print(head)
    for h in data["hexes"]:
        done = f", repaired {h['repaired']}: {h['after']} left" if "repaired" in h else ""
        print(f"  {h['hex']}: damage {h['damage']}, " + (h["refused"] if h["refused"] else
                                                         f"at most {h['max']} (half, 19.6){done}"))


def cmd_withdrawal(args: argparse.Namespace) -> None:
    """18.3: the end of an Assault Period: areas held, units kept or withdrawn, the next period's parameters."""
    position, rules = siege_rules(args)
    data = rules.withdrawal(position)
    if dump(args, data):
        return
    print("End of the Assault Period (18.3): the Romans hold " + (", ".join(data["roman_areas"]) or "no area")
          + (f"; newly: {', '.join(data['newly_roman'])}" if data["newly_roman"] else ""))
    for u in data["units"]:
        line = f"  {u['unit']:16} {u['side']:7} {u['hex']:6} {u['where']}: {u['fate']} ({u['rule']})"
        print(line + (f", to {u['to']}" if u["fate"] == "withdraws" else f", {u['to']}" if "to" in u else ""))
    print(f"  next Assault Period: roman_areas: {data['params']['roman_areas'] or '-'}; razed_areas: "
          f"{data['params']['razed_areas'] or '-'} (18.37); hex control starts afresh (18.3)")


def cmd_stairways(args: argparse.Namespace) -> None:
    """The second 18.36: the Jews' new Gate Stairways and temporary, Ladder-marked Stairways."""
    position, rules = siege_rules(args)
    data = rules.stairways(position)
    if dump(args, data):
        return
    print("Gate Entry hexsides into Roman areas, now Stairways (18.36): "
          + (", ".join(g["hexside"] for g in data["gate_stairways"]) or "none"))
    print("Jewish Bastions and Forts without a Stairway to Jewish ground, and where a temporary one may lead (18.36):")
    for t in data["temporary"]:
        print(f"  {t['hex']} ({t['kind']}): {', '.join(t['to']) or 'nowhere: no adjacent Jewish Ground hex'}")
    for r in data["recorded"]:
        print(f"  recorded {r['hexside']}: " + ("allowed" if r["allowed"] else f"refused: {r['why']}"))
    print(f"  record one in the {data['record']}")


def add_siege(sub) -> None:
    """``toolkit siege SUBCOMMAND``: the table answers (no position) and the procedures (a position, ``--game``,
    ``--json``: :func:`toolkit.cli.common.rules_parser`)."""
    s = sub.add_parser("siege", help="The Siege of Jerusalem: the Missile Table column, mining, Replacements, "
                                     "Recovery, VP, Reserves, Multiple Attacks, Sallies, Ramps, repairs, "
                                     "the withdrawal, Stairways (docs/cli.md)")
    ssub = s.add_subparsers(dest="siege_command", required=True)

    t = table(ssub, "missile-column", "the Missile Table column of a shot (13.2, 13.4)", "cmd_missile_column")
    t.add_argument("--row", required=True, help="the target's row: clear, built_up, wall, bastion, testudo, ram, "
                                                "artillery …")
    t.add_argument("--af", type=float, required=True, help="the shot's Attack Factors")
    t = table(ssub, "mining", "a Mining roll: the new shafts (19.2)", "cmd_mining")
    t.add_argument("--week", type=int, required=True, help="the week of preparation (1-9)")
    t.add_argument("--completed", type=int, default=0, help="shafts completed by earlier rolls")
    t.add_argument("--roll", type=int, nargs=1, help="the Mining roll (one die)")
    add_seed(t)
    t = rules_parser(ssub, "shafts", "a completed shaft: the hexes it undermines and their damage (19.21, 19.22)",
                     "cmd_shafts")
    t.add_argument("--target", required=True, metavar="HEX", help="the shaft's target hex")
    t.add_argument("--engineering-roll", type=int, metavar="N", help="the Engineering roll (one die)")
    t.add_argument("--roll", type=int, nargs="+", metavar="N", help="one damage roll (two dice) per hex, in order")
    add_seed(t)
    t = table(ssub, "replacements", "Replacements: Roman (18.5, 19.3) or Jewish (18.6), drawn from a position's dead pile",
              "cmd_replacements")
    t.add_argument("--side", required=True, choices=["roman", "jewish"])
    t.add_argument("--position", help="a position: its dead pile counted and drawn from (needs --seed)")
    t.add_argument("--game", help="your game's folder, for a position of your own game")
    t.add_argument("--eliminated", type=int, help="the units in the dead pile (without --position)")
    t.add_argument("--weeks", type=int, help="Roman: the weeks of preparation (19.3)")
    t.add_argument("--drawn-weeks", type=int, help="Roman: the week of an earlier draw (only the difference, 19.3)")
    t.add_argument("--roman-areas", nargs="*", default=[], metavar="AREA",
                   help="Jewish without --position: the Areas the Romans control (18.6)")
    add_seed(t)
    t = rules_parser(ssub, "recovery", "the Recovery order of a side and each roll (17.1-17.3)", "cmd_recovery")
    t.add_argument("--side", required=True, choices=["roman", "jewish"])
    t.add_argument("--roll", nargs="+", metavar="UNIT=N", help="a unit's Recovery roll (one die)")
    add_seed(t)
    t = rules_parser(ssub, "vp", "the Jewish Victory Points of a position (18.9-18.94, 19.1)", "cmd_vp")
    t.add_argument("--week", type=int, help="the week of preparation the assault was launched in (19.1)")
    t.add_argument("--redoubt", action="store_true", help="count Redoubt points (the end of the 5th Assault "
                                                          "Period, 18.93)")
    t = table(ssub, "reserves", "Reserve Activation in an Area (18.611, 18.612)", "cmd_reserves")
    t.add_argument("--area", required=True)
    t.add_argument("--entered", action="store_true", help="Romans inside the Area: two dice (18.611)")
    t.add_argument("--night", action="store_true")
    t.add_argument("--temple", default="jewish_clear", choices=["jewish_clear", "jewish", "roman"],
                   help="who holds the Temple (jewish_clear: the Jews, no Romans inside its outer walls)")
    t.add_argument("--razed", nargs="*", default=[], metavar="AREA", help="the razed Areas (18.37)")
    t.add_argument("--activated-before", type=int, default=0, help="Reserves the Area released before (18.612)")
    t.add_argument("--roll", type=int, nargs="+", metavar="N", help="the Activation roll (one die each)")
    t.add_argument("--unit-rolls", type=int, nargs="+", metavar="N", help="one die per released unit (its type)")
    add_seed(t)
    t = rules_parser(ssub, "multiple-attacks", "11.9: what units under Multiple Attack markers must or may attack; "
                                               "with --attack, the markers that attack removes and gives",
                     "cmd_multiple_attacks")
    t.add_argument("--attack", nargs="+", metavar="UNIT", help="the units of the attack about to be resolved")
    t = rules_parser(ssub, "sally", "11.14: a Gate's Sally and the counterattacks it allows", "cmd_sally")
    t.add_argument("--gate", required=True, metavar="HEX")
    t = rules_parser(ssub, "ramps", "18.81, 19.4: where the Roman may build his Ramp; --build judges one", "cmd_ramps")
    t.add_argument("--week", type=int, required=True, help="the week of preparation (1-9, 19.1)")
    t.add_argument("--build", nargs="+", metavar="HEX:TOWARD", help="Ramp hexes and the Elevated Hex each climbs")
    t.add_argument("--period", help="the Assault Period about to start (default: from the position's turn)")
    t = rules_parser(ssub, "repairs", "19.6: the Jewish Repair roll and the damage it removes", "cmd_repairs")
    t.add_argument("--week", type=int, required=True, help="the week of preparation the roll is made in (1-9)")
    t.add_argument("--roll", type=int, nargs=1, metavar="N", help="the Repair roll (two dice)")
    t.add_argument("--repair", nargs="+", metavar="HEX=N", help="the damage points removed from each hex")
    t.add_argument("--delay", action="store_true", help="the extra roll for a week of delay after a shaft (19.6)")
    t.add_argument("--period", help="the Assault Period about to start (default: from the position's turn)")
    add_seed(t)
    rules_parser(ssub, "withdrawal", "18.3: the end of an Assault Period: areas, withdrawals, next parameters",
                 "cmd_withdrawal")
    rules_parser(ssub, "stairways", "18.36 (second): the Jews' new Gate and temporary Stairways", "cmd_stairways")


PARSERS = {"siege": add_siege}
