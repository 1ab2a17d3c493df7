"""The ``toolkit`` command: wires maps, line of sight and rendering together.

Every sub-command's ``--json`` output is documented in ``docs/cli.md``.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from importlib import metadata
from typing import Any, Callable, Sequence

import yaml

from .answers import (REFUSALS, Rules, SightLine, check_answer, clean_text, command_answer, error_text, hex_json,
                      moves_json, odds_answer, phase_answer, require_units, retreat_answer, search_moves,
                      supply_answer, victory_answer, zoc_answer)
from .fileio import STDOUT, OutputError, check_input, check_output, write_atomic
from .game.module import is_game_folder, load_game, open_user_map, user_map_file
from .cli_siege import add_siege_parser
from .games import load_game_position, load_position_or_save
from .los import Convention, LosEngine
from .los.explain import explain, map_obstacles
from .mapdata import CompiledMap, list_maps, map_json_schema
from .render import Highlight, PathOverlay, write_image
from .vassal.build.module import build_module
from .vassal.saves.positions import read_position_save, same_file, write_position_save

MAX_RENDER_WIDTH = 20_000  # pixels of a PNG (render --width)
DISTRIBUTION = "hex-wargame-toolkit"  # the name the toolkit is installed under (pyproject.toml's project.name)


def installed_version() -> str:
    """The toolkit's version, read from the installed package's metadata (pyproject.toml's, the one source)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return f"unknown ({DISTRIBUTION} is not installed: pip install .)"


def _load_position(path: str, game_arg: str | None):
    """A position file: of the bundled game it names, or of the game the user gave (``--game ./my-game``: the
    file's ``game`` must be that game's id -- a position never names a folder itself).  Counter values are
    checked by the game's rules package when the toolkit has one."""
    return load_game_position(path, None if game_arg is None else load_game(game_arg))


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def cmd_maps(args: argparse.Namespace) -> None:
    """List the bundled maps."""
    maps = list_maps()
    if args.json:
        _print_json([{"id": i, "title": t, "path": str(p)} for i, t, p in maps])
        return
    for map_id, title, path in maps:
        print(f"{map_id:24} {title}  ({path})")


def cmd_hex(args: argparse.Namespace) -> None:
    """Describe one hex, given by name or by place name."""
    cmap = open_user_map(args.map)
    data = hex_json(cmap, args.hex)
    if args.json:
        _print_json(data)
        return
    print(f"{data['hex']} on {cmap.title}" + (f" — {data['place']}" if data["place"] else ""))
    print(f"  terrain:   {', '.join(data['terrain'])}   elevation {data['elevation']}")
    if data["region"]:
        print(f"  region:    {data['region']}")
    if data["features"]:
        print(f"  features:  {', '.join(f'{k}={v}' for k, v in data['features'].items())}")
    print(f"  neighbors: {' '.join(data['neighbors'])}")
    for n, attrs in data["hexsides"].items():
        print(f"  hexside to {n}: {', '.join(f'{k}={v}' for k, v in attrs.items())}")


def los_all_json(cmap: CompiledMap, hex_text: str, convention: str | None, direction: str) -> dict[str, Any]:
    """Every hex a hex sees (``direction="from"``) or that sees it (``"to"``), with the map's obstacles (docs/cli.md)."""
    from .los import SYMMETRIC

    h = cmap.resolve(hex_text)
    conv = Convention(convention or cmap.los.convention)
    obstacles = map_obstacles(cmap)
    engine = LosEngine(cmap.grid)
    if direction == "from" or conv in SYMMETRIC:
        vis = engine.visible_array(h, conv, obstacles)
    else:  # pragma: no cover - every convention is symmetric today
        vis = engine.visibility_matrix(conv, obstacles).column(h)
    names = [cmap.name(x) for x, v in zip(cmap.grid.hex_list, vis.tolist()) if x != h and v]
    hidden = [cmap.name(x) for x, v in zip(cmap.grid.hex_list, vis.tolist()) if x != h and not v]
    return {"map": cmap.id, ("from" if direction == "from" else "to"): cmap.name(h), "convention": conv.value,
            "rule": cmap.los.rule, "count": len(names), "of": len(names) + len(hidden), "visible": names,
            "hidden": hidden}


def _los_all(args: argparse.Namespace, cmap: CompiledMap, hex_text: str, direction: str) -> None:
    """``toolkit los MAP --from HEX --all`` and ``toolkit seen MAP HEX``: a list, JSON, a picture."""
    data = los_all_json(cmap, hex_text, args.convention, direction)
    h = cmap.resolve(hex_text)
    if args.svg:
        overlays = [Highlight({cmap.resolve(x): None for x in data["hidden"]}, color="#202020"),
                    Highlight({cmap.resolve(x): None for x in data["visible"]}, color="#1a9a3a"),
                    Highlight({h: "◉" if direction == "from" else "◎"}, color="#ffcc00")]
        print(f"wrote {write_image(args.svg, cmap, overlays)}", file=sys.stderr)
    if args.json:
        _print_json(data)
        return
    place = cmap.hexes[h].place
    label = f"{cmap.name(h)} ({place})" if place else cmap.name(h)
    verb = "sees" if direction == "from" else "is seen from"
    rule = f"rule {data['rule']}, " if data["rule"] else ""
    print(f"{label} {verb} {data['count']} of the {data['of']} other hexes ({rule}{data['convention']} convention):")
    for i in range(0, len(data["visible"]), 12):
        print("  " + " ".join(data["visible"][i:i + 12]))


def cmd_seen(args: argparse.Namespace) -> None:
    """Every hex that sees HEX, with the map's obstacles."""
    _los_all(args, open_user_map(args.map), args.hex, "to")


def cmd_los(args: argparse.Namespace) -> None:
    """Line of sight between two hexes: the map's obstacles, or with ``--position`` the game's spotting rules."""
    if args.all or args.from_hex:
        if args.all and not args.from_hex and len(args.hexes) == 2 and not args.position:
            args.hexes, args.from_hex = args.hexes[:1], args.hexes[1]  # `los MAP HEX --all` reads as --from HEX
        if not (args.all and args.from_hex) or len(args.hexes) != 1 or args.position:
            raise ValueError("give MAP --from HEX --all (every hex that HEX sees)")
        _los_all(args, open_user_map(args.hexes[0]), args.from_hex, "from")
        return
    if args.position:
        if len(args.hexes) != 2:
            raise ValueError("with --position give FROM and TO only (the map is the position's)")
        sight = SightLine.in_position(_load_position(args.position, args.game), *args.hexes)
    else:
        if len(args.hexes) != 3:
            raise ValueError("give MAP FROM TO (or --position POSITION FROM TO)")
        sight = SightLine.on_map(open_user_map(args.hexes[0]), *args.hexes[1:], args.convention)
    if args.svg:
        print(f"wrote {write_image(args.svg, sight.cmap, [sight.overlay()])}", file=sys.stderr)
    if args.json:
        _print_json(sight.json())
    else:
        print("\n".join([explain(sight.cmap, sight.result), *sight.detail_lines()]))
        if sight.note:
            print(f"note: {sight.note}")


def cmd_render(args: argparse.Namespace) -> None:
    """Draw a map as SVG or PNG, optionally highlighting hexes."""
    if args.width is not None and not 16 <= args.width <= MAX_RENDER_WIDTH:
        raise ValueError(f"--width {args.width}: give 16 to {MAX_RENDER_WIDTH} pixels")
    cmap = open_user_map(args.map)
    marks = {}
    for item in args.highlight:
        where, _, label = item.partition("=")
        marks[cmap.resolve(where)] = label or None
    overlays = [Highlight(marks)] if marks else []
    verb = _verb(args.output)
    if cmap.board is not None and not args.no_board:   # an imported map: its grid over the board image
        from .render.onboard import board_image_path, render_on_board

        if not args.output.lower().endswith(".png") or args.width is not None:
            raise ValueError(f"{args.output}: an imported map is drawn over its board image as PNG at the board's "
                             "own size: give -o OUT.png without --width (or --no-board for the plain map)")
        image = render_on_board(cmap, board_image_path(cmap, user_map_file(args.map)), set(marks))
        written = write_atomic(args.output, lambda f: image.save(f, format="PNG"))
    else:
        written = write_image(args.output, cmap, overlays, width_px=args.width)
    print(f"{verb} {written}" if verb == "replaced" else written, file=_status_stream(args.output))


def mp_label(mp: float) -> str:
    """Movement points as a player writes them: 2½, ½, 3."""
    whole, half = int(mp), mp % 1
    return (f"{whole}" if whole else "") + ("½" if half else "") or "0"


def cmd_moves(args: argparse.Namespace) -> None:
    """Legal moves of a unit or stack in a position."""
    position = _load_position(args.position, args.game)
    unit_ids = [args.unit, *args.with_units]
    result = search_moves(position, args.position, unit_ids, args.pickup, args.terrorist, args.enter, args.kind)
    data = moves_json(position, unit_ids, result)
    if args.svg:
        cmap = position.game.map
        marks = {d.hex: mp_label(d.mp) + ("*" if d.stop else "") for d in result.destinations.values()}
        print(f"wrote {write_image(args.svg, cmap, [Highlight(marks)])}", file=sys.stderr)
    if args.json:
        _print_json(data)
        return
    if data["refused"]:
        print(f"{', '.join(unit_ids)} cannot move: {data['refused']['reason']} ({data['refused']['rule']})")
        return
    mp = "unlimited" if data["mp"] is None else f"{data['mp']:g}"
    phase = position.game.spec.phase_name(data["phase"])
    phase = f"the {phase} phase" if phase == data["phase"] else phase   # game.yaml names it (a name says "Phase")
    print(f"{', '.join(unit_ids)} from {data['from'] or 'off the map'} in {phase}, {mp} MP: "
          f"{len(data['destinations'])} destinations")
    for d in data["destinations"]:
        stop = f"  stops ({d['stop_rule']})" if d["stop"] else ""
        print(f"  {d['hex']}  {mp_label(d['cost'])} MP  via {' '.join(d['path'][1:-1]) or '-'}{stop}")
    for e in data["exits"]:
        print(f"  may leave the map by the {e['exit']} road from {e['hex']} ({mp_label(e['cost'])} MP to get there)")


def _game_command(args: argparse.Namespace):
    """The position (a position file, or a VASSAL save) and its game's rules."""
    position, unplaced = load_position_or_save(str(args.position), getattr(args, "game", None))
    for u in unplaced:
        print(f"toolkit: note: {args.position}: piece {u} not placed", file=sys.stderr)
    return position, Rules(position.game)


def _draw_or_dump(args: argparse.Namespace, position, data, layers: Callable) -> bool:
    """Draw ``layers(resolve)`` on the position's map for ``--svg``; print ``data`` for ``--json``.

    Returns whether the JSON was printed, when the command prints nothing more.
    """
    if args.svg:
        cmap = position.game.map
        print(f"wrote {write_image(args.svg, cmap, layers(cmap.resolve))}", file=sys.stderr)
    if args.json:
        _print_json(data)
        return True
    return False


def cmd_supply(args: argparse.Namespace) -> None:
    """Supply of every unit (or one side / one unit): in supply or not, the line hex by hex, the source."""
    position, _ = _game_command(args)
    data = supply_answer(position, args.side, args.unit)

    def layers(at):
        units = data["units"]
        cut = {at(u["cut"]["hex"]): "cut" for u in units if u.get("cut") and u["cut"].get("hex")}
        paths = [PathOverlay([at(h) for h in u["path"]], "#1f8f3f" if u["supplied"] else "#c0392b")
                 for u in units if len(u["path"]) > 1]
        return [Highlight(cut, "#e74c3c"), *paths]
    if _draw_or_dump(args, position, data, layers):
        return
    for u in data["units"]:
        if u["supplied"]:
            src = u["source"]
            print(f"  {u['unit']:16} {u['hex'] or 'off-map'}  in supply from {src['kind']} {src.get('hex') or ''} "
                  f"via {' '.join(u['path'])}" + (f" ({u['rule']})" if src['kind'] == "always" else ""))
        else:
            cut = u.get("cut") or {}
            print(f"  {u['unit']:16} {u['hex']}  OUT OF SUPPLY: {cut.get('reason', '')} ({cut.get('rule', '')})")


def cmd_command(args: argparse.Namespace) -> None:
    """Command radius of every HQ and the units in command."""
    position, _ = _game_command(args)
    data = command_answer(position)

    def layers(at):
        marks = {at(h): None for hq in data["hqs"] for h in hq["hexes"]} | {at(hq["hex"]): "HQ" for hq in data["hqs"]}
        return [Highlight(marks, "#9b59b6")]
    if _draw_or_dump(args, position, data, layers):
        return
    for hq in data["hqs"]:
        units = ", ".join(hq.get("units", [])) or "none"
        sector = f" ({hq['sector']})" if hq.get("sector") else ""
        print(f"{hq['hq']} at {hq['hex']}, radius {hq['radius']}{sector}: in command: {units}")


def cmd_zoc(args: argparse.Namespace) -> None:
    """The hexes in the ZOC of a side's units, each with the units exerting it and the rule (every game)."""
    position, _ = _game_command(args)
    data = zoc_answer(position, args.side)

    def layers(at):
        return [Highlight({at(h["hex"]): str(len(h["units"])) for h in data["hexes"]}, "#d35400")]
    if _draw_or_dump(args, position, data, layers):
        return
    print(f"{len(data['hexes'])} hexes in the ZOC of the {args.side} units:")
    for h in data["hexes"]:
        print(f"  {h['hex']}  {', '.join(h['units'])} ({h['rule']})")


def cmd_phase(args: argparse.Namespace) -> None:
    """The position's phase: what it allows and what the phasing player may do now (every game)."""
    position, _ = _game_command(args)
    data = phase_answer(position)
    if args.json:
        _print_json(data)
        return
    rule = f" ({data['rule']})" if data["rule"] else ""
    print(f"{data['name']} of the {data['phasing_side']} player{rule}")
    allows = "; ".join(a["text"] for a in data["allows"]) or "game.yaml does not say (phases[].allows)"
    print(f"  the phasing player may: {allows}")
    for n in data["notes"]:
        print(f"  [{n['rule']}] {n['text']}")
    nxt = data["next"]
    print(f"  next: {nxt['name']}" + (" of the next player turn" if nxt["new_player_turn"] else ""))


def cmd_control(args: argparse.Namespace) -> None:
    """Who holds each city area and wall, whether the Assault Period may end, where a Breach may be opened."""
    position, rules = _game_command(args)
    data = rules.control_json(rules.control(position))

    def layers(at):
        return [Highlight({at(h): "B" for h in data["breach_sites"]}, "#1f8f3f"),
                Highlight({at(h): "x" for h in data["breach_refused"]}, "#c0392b")]
    if _draw_or_dump(args, position, data, layers):
        return
    ap = data["assault_period"]
    light = "night" if ap["night"] else "daylight"
    print(f"Assault Period {ap['period']}, turn {ap['turn']} of at most {ap['last_turn']} ({light}), judged "
          f"{ap['judged']} (18.1)")
    ends = "must end after this Jewish Melee Phase" if ap["must_end"] else (
        "may end alone: " + "; ".join(ap["roman_may_end_because"]) if ap["roman_may_end"] else
        "may end only by agreement")
    print(f"  the Roman {ends}" + ("; he may extend it by up to three night turns" if ap["may_extend"] else ""))
    people = {"roman": "the Romans", "jewish": "the Jews"}
    for a in data["areas"]:
        lack = "" if a["holder"] == "roman" else f"; the Romans lack {' and '.join(a['roman']['lacking'])}"
        print(f"  {a['area']}: {people[a['holder']]} ({a['rule']}; {people[a['held_by']]} held it before){lack}")
    print(f"  19.7: a Breach may be opened in {len(data['breach_sites'])} Roman wall hexes"
          + (f", not in {len(data['breach_refused'])} within two hexes of a Jewish one" if data["breach_refused"]
             else ""))


def cmd_actions(args: argparse.Namespace) -> None:
    """The Siege of Jerusalem: forming or disbanding a Testudo, placing or withdrawing a Ladder, legal or why not."""
    position, rules = _game_command(args)
    require_units(position, args.position, args.units)
    data = rules.actions_json(position, rules.actions(position, args.units))
    if args.json:
        _print_json(data)
        return
    print(f"{', '.join(data['units'])} in {data['hex'] or 'no hex'}:")
    for a in data["actions"]:
        why = "legal" if a["legal"] else f"no: {a['refused']['reason']} ({a['refused']['rule']})"
        print(f"  {a['action']:16} {a['mf']:g} MF ({a['rule']}): {why}")


def cmd_advance(args: argparse.Namespace) -> None:
    """The Siege of Jerusalem: where the victorious attackers may advance after combat (11.86, 11.9)."""
    position, rules = _game_command(args)
    require_units(position, args.position, args.attackers + args.defenders)
    data = rules.advances(position, args.attackers, args.hex, args.excess, args.defenders)

    def layers(at):
        return [Highlight({at(d["hex"]): str(d["steps"]) for u in data["units"].values()
                           for d in u["destinations"]}, "#1f8f3f")]
    if _draw_or_dump(args, position, data, layers):
        return
    if data.get("refused"):
        print(f"no advance into {data['vacated']}: {data['refused']['reason']} ({data['refused']['rule']})")
        return
    print(f"advance after combat into {data['vacated']} ({data['rule']}), {data['excess_e']} hexes beyond:")
    for uid, row in data["units"].items():
        if row["refused"]:
            print(f"  {uid}: stays ({row['refused']['reason']}, {row['refused']['rule']})")
        else:
            beyond = row.get("beyond")
            print(f"  {uid}: {' '.join(d['hex'] for d in row['destinations'])}"
                  + (f"; no further: {beyond['reason']} ({beyond['rule']})" if beyond else ""))


def cmd_retreat(args: argparse.Namespace) -> None:
    """Apply a combat result: each unit's legal retreats (or why it is eliminated or stays), the position after."""
    if args.output and args.apply is None:
        raise ValueError("-o: give --apply (the retreat hexes, or none for units with one) to write the position "
                         "after the result")
    position, _ = _game_command(args)
    data = retreat_answer(position, args.units, args.from_attack_hex, args.attackers or (), args.hexes, args.result,
                          args.apply)
    if args.output:
        text = yaml.safe_dump(data["after"]["position"], sort_keys=False, allow_unicode=True)
        verb = _verb(args.output)
        write_atomic(args.output, text)
        print(f"{verb} {args.output}", file=_status_stream(args.output))

    def layers(at):
        return [Highlight({at(d["hex"]): f"{d['cost']:g}" for u in data["units"] for d in u["destinations"]},
                          "#1f8f3f"),
                Highlight({at(u["from"]): "x" for u in data["units"] if u["eliminated"] and u["from"]}, "#c0392b")]
    if _draw_or_dump(args, position, data, layers):
        return
    print(f"result {data['result']}:" if data["result"] else f"a retreat of {args.hexes} hex(es):")
    for u in data["units"]:
        _print_unit_result(u)
    if "after" in data:
        verdict = "legal" if data["after"]["check"]["legal"] else "NOT LEGAL"
        print(f"position after the result: {verdict} (toolkit check)")
        for v in data["after"]["check"]["violations"]:
            print(f"  {v['message']}")


def _print_unit_result(u: dict) -> None:
    """One unit of ``toolkit retreat``: what the result does to it, with the rule of each restriction."""
    where = f"{u['unit']} in {u['from'] or 'no hex'}"
    for key in ("flipped", "note"):
        if u[key]:
            print(f"  {where}: {u[key]['reason']} ({u[key]['rule']})")
    if u["eliminated"]:
        print(f"  {where}: ELIMINATED: {u['eliminated']['reason']} ({u['eliminated']['rule']})")
    elif u["stays"]:
        print(f"  {where}: stays: {u['stays']['reason']} ({u['stays']['rule']})")
    if u["retreat"] and not u["eliminated"]:
        r = u["retreat"]
        length = f"{r['most']:g} MF" if r["unit_of_length"] == "mf" else (
            f"{r['least']}-{r['most']} hexes" if r["least"] != r["most"] else f"{r['most']} hex(es)")
        print(f"  {where}: retreats {length} ({r['rule']}):")
        for d in u["destinations"]:
            fate = (f", then eliminated: {d['eliminated']['reason']} ({d['eliminated']['rule']})"
                    if d["eliminated"] else f", then {', '.join(d['flags'])}" if u["last_resorts"] else "")
            print(f"    {d['hex']}  via {' '.join(d['path'][1:-1]) or '-'}{fate}")
    if u["retreat"]:
        for x in u["refused"]:
            print(f"    not {x['hex']}: {x['reason']} ({x['rule']})")


def cmd_railhead(args: argparse.Namespace) -> None:
    """Where the Allied railhead marker may be placed or moved now (No Prisoners 16.2)."""
    position, rules = _game_command(args)
    data = rules.railhead_json(rules.railhead_options(position), position)

    def layers(at):
        marks = {at(h): None for h in data["hexes"]} | {at(h): "no" for h in data["blocked"]}
        return [Highlight(marks, "#c0392b"),
                *(PathOverlay([at(h) for h in p], "#1f8f3f") for p in data["hexes"].values() if len(p) > 1)]
    if _draw_or_dump(args, position, data, layers):
        return
    print(f"{data['reason']} ({data['rule']})")
    sup = data["supply"]
    if sup and sup["supplied"]:
        print(f"  in supply from {sup['source']['kind']} {sup['source']['hex']} via {' '.join(sup['path'])} "
              f"({sup['rule']})")
    elif sup:
        print(f"  out of supply: {sup['cut']['reason']} ({sup['cut']['rule']})")
    for h, p in data["hexes"].items():
        print(f"  {h}" + (f"  via {' '.join(p)}" if len(p) > 1 else ""))
    for h, why in data["blocked"].items():
        print(f"  not {h}: {why['reason']} ({why['rule']})")


def cmd_place(args: argparse.Namespace) -> None:
    """Where off-map units may be placed as reinforcements now (No Prisoners 6.x, 18.4)."""
    position, rules = _game_command(args)
    data = rules.placement_json([rules.placement(position, u) for u in args.units], position)

    def layers(at):
        units = data["units"]
        marks = {at(h): None for u in units for h in u["hexes"]} | {at(h): "no" for u in units for h in u["blocked"]}
        return [Highlight(marks, "#2471a3")]
    if _draw_or_dump(args, position, data, layers):
        return
    for u in data["units"]:
        if u["refused"]:
            print(f"{u['unit']}: may not be placed: {u['refused']['reason']} ({u['refused']['rule']})")
        else:
            print(f"{u['unit']}: {len(u['hexes'])} hexes ({u['rule']}): {' '.join(u['hexes'])}")
        for h, why in u["blocked"].items():
            print(f"  not {h}: {why['reason']} ({why['rule']})")


def _verb(output) -> str:
    """``replaced`` when an output file exists already (it is overwritten, as ``make`` users expect), else ``wrote``."""
    return "replaced" if output not in (None, STDOUT) and os.path.isfile(output) else "wrote"


def _status_stream(output):
    """Where a command's status line goes: stderr when its output is standard output."""
    return sys.stderr if output == STDOUT else sys.stdout


def cmd_vmod(args: argparse.Namespace) -> int:
    """Build a game's VASSAL module, or (``vmod check FILE.vmod``) check a module as VASSAL would read it."""
    if args.game == "check":
        return cmd_vmod_check(args)
    if args.file is not None:
        raise ValueError(f"unexpected argument {args.file!r}: build with 'toolkit vmod GAME -o FILE.vmod', "
                         "check with 'toolkit vmod check FILE.vmod'")
    if args.output is None:
        raise ValueError("give the module to write with -o FILE.vmod (or check one: toolkit vmod check FILE.vmod)")
    verb = _verb(args.output)
    print(f"{verb} {build_module(args.game, args.output)}", file=_status_stream(args.output))
    return 0


def cmd_vmod_check(args: argparse.Namespace) -> int:
    """Check a ``.vmod`` (untrusted: read through the safe-zip guards); exit status 1 when it has problems."""
    from .vassal.build.validate import check_module

    if args.file is None:
        raise ValueError("give the module to check: toolkit vmod check FILE.vmod")
    if args.output is not None:
        raise ValueError("vmod check writes nothing; drop -o")
    problems = check_module(args.file)
    if args.json:
        _print_json({"module": args.file, "ok": not problems, "problems": problems})
    elif problems:
        print(f"{args.file}: {len(problems)} problem(s)")
        for problem in problems:
            print(f"  {clean_text(problem)}")
    else:
        print(f"{args.file}: ok")
    return 1 if problems else 0


def cmd_vsav_read(args: argparse.Namespace) -> int:
    """Decode a VASSAL save into a position file."""
    if same_file(args.save, args.output):
        raise ValueError(f"{args.output}: refusing to write over the input save; choose another -o")
    pf, unplaced = read_position_save(args.save, args.game, args.counters)
    text = yaml.safe_dump(pf.model_dump(exclude_defaults=True), sort_keys=False, allow_unicode=True)
    verb = _verb(args.output)
    write_atomic(args.output, text)
    out = _status_stream(args.output)
    print(f"{verb} {args.output}: {len(pf.units)} units", file=out)
    for u in unplaced:
        print(f"  not placed: {u}", file=out)
    return 0


def cmd_vsav_write(args: argparse.Namespace) -> None:
    """Write a position as a VASSAL save for the game's module."""
    if same_file(args.position, args.output):
        raise ValueError(f"{args.output}: refusing to write over the input position; choose another -o")
    position = _load_position(args.position, args.game)
    verb = _verb(args.output)
    omitted = write_position_save(position, args.output)
    print(f"{verb} {args.output}" + (f"; off the map, not in the save: {', '.join(omitted)}" if omitted else ""),
          file=_status_stream(args.output))


#: ``toolkit check GAME.vlog``'s exit status for each verdict (docs/cli.md).
LOG_VERDICT_STATUS = {"legal": 0, "illegal": 1, "not proven": 3}


def cmd_check_log(args: argparse.Namespace) -> int:
    """Every move of a VASSAL log checked with the game's legal-move generator; exit status 1 when any is illegal,
    3 when the log holds something the checker could not judge (not proven legal)."""
    from .vassal.saves.replay import check_log_file

    report = check_log_file(args.position, getattr(args, "game", None))
    if args.json:
        _print_json(report.json())
    else:
        print("\n".join(clean_text(line, 100_000) for line in report.text()))  # commands from the log, escaped
    return LOG_VERDICT_STATUS[report.verdict]


def cmd_check(args: argparse.Namespace) -> int:
    """Every rule a position breaks; exit status 1 when there is any."""
    if str(args.position).lower().endswith(".vlog"):
        return cmd_check_log(args)
    position, _ = _game_command(args)
    data = check_answer(position, args.turn_end)
    if args.json:
        _print_json(data)
    elif data["legal"]:
        print(f"{args.position}: legal")
    else:
        print(f"{args.position}: {len(data['violations'])} violation(s)")
        for v in data["violations"]:
            print(f"  [{v['rule']}] {v['message']}")
    return 0 if data["legal"] else 1


def cmd_victory(args: argparse.Namespace) -> None:
    """Whether the victory conditions hold in a position."""
    position, _ = _game_command(args)
    data = victory_answer(position, args.road_cut_by)  # Jerusalem! 2.0: what cuts the road
    if args.json:
        _print_json(data)
    else:
        print(data["explanation"])


def cmd_fire(args: argparse.Namespace) -> None:
    """Whether a unit may fire at another: range, sight, spotters."""
    position, rules = _game_command(args)
    require_units(position, args.position, [args.firer, args.target])
    data = rules.fire_json(rules.fire(position, args.firer, args.target, higher_terrain=args.higher_terrain))
    if args.json:
        _print_json(data)
        return
    verdict = "MAY FIRE" if data["verdict"] else "MAY NOT FIRE"
    print(f"{data['firer']} -> {data['target']}, range {data['range']}: {verdict} ({data['rule']})")
    for r in data["reasons"]:
        print(f"  [{r['rule']}] {r['reason']}")


def cmd_odds(args: argparse.Namespace) -> None:
    """Combat odds, die modifiers and the chance to kill."""
    if not args.defend and not getattr(args, "target", None):
        raise ValueError("--defend: name the defending units (or, for a Siege Breach attack, --target HEX)")
    position, _ = _game_command(args)
    extra = {key: getattr(args, key, None) for key in ("attacked", "primary", "target", "level", "fired_at")}
    data = odds_answer(position, args.position, args.attack, args.defend or [], args.kind, args.protected,
                       args.fired, **extra)   # the Siege of Jerusalem's 13.2, 10.1, 9.11, 9.6
    if args.json:
        _print_json(data)
        return
    if data.get("phase_warning"):   # the position is not in a combat phase (No Prisoners)
        print(f"NOT IN A COMBAT PHASE ({data['phase_warning']['rule']}): {data['phase_warning']['reason']}")
    if data["refused"]:
        print(f"not allowed ({data['refused']['rule']}): {data['refused']['reason']}")
        return
    line = f"{data['attack']:g} against {data['defence']:g}: odds {data['odds']}"
    if data.get("row") is not None and data["odds"] is None:   # Siege missile / Breach: row and column
        line = f"{data['attack']:g} AF on the {data['row']} row: column {data['column']}"
    if data.get("table"):
        why = data.get("table_why") or {}
        line += f" on the {data['table'].upper()}" + (f" ({why['reason']}, {why['rule']})" if why else "")
    if data["kills_on"] is not None:
        line += f", die modifier {data['total_modifier']:+d}, kills on {data['kills_on']} or less"
    print(line + ("" if data["probability"] is None else f" (chance {data['probability']:.0%})"))
    for m in data["modifiers"]:
        print(f"  {m['value']:+d} {m['id']} ({m['rule']}): {m['why']}")
    for shift in data.get("shifts", []):
        print(f"  {shift['columns']:+d} column ({shift['id']}, {shift['rule']}): {shift['why']}")
    for roll in data.get("results", []):
        meaning = f" ({roll['meaning']})" if roll.get("meaning") else ""
        print(f"  die {roll['die']}: {roll['result']}{meaning}" + ("  (erratic shot, 9.31)" if roll.get("erratic")
                                                                   else ""))
    if (data.get("flank") or {}).get("flank"):   # Siege of Jerusalem 11.85, 9.31, 9.11-9.12
        print("  Flank Attack (11.85): " + "; ".join(h["why"] for h in data["flank"]["hexes"]))
    if data.get("erratic"):
        print(f"  erratic shot ({data['erratic']['rule']}): a natural 1 also Disrupts one of "
              f"{', '.join(data['erratic']['friendly_units'])}")
    if data.get("immune"):
        print(f"  target {', '.join(data.get('targets') or [])}; immune {', '.join(data['immune'])} (9.11, 9.12)")


def cmd_new(args: argparse.Namespace) -> None:
    """Write a new, minimal, valid game into a new or empty folder (docs/new-game.md)."""
    from .scaffold import new_game

    written = new_game(args.game_dir, args.cols, args.rows, orientation=args.orientation,
                       numbering=args.numbering, title=args.title)
    for path in written:
        print(f"wrote {path}")
    if args.orientation == "flat":
        print(f"next: toolkit vmod {args.game_dir} -o {os.path.basename(os.path.normpath(args.game_dir))}.vmod")
    else:
        print("note: the VASSAL export lays flat-top grids only: `toolkit vmod` refuses this pointy-top game; "
              "the map, line of sight and render commands take it")


def cmd_serve(args: argparse.Namespace) -> None:
    """The local web viewer (docs/web.md) until Ctrl-C: the bundled sources, and the file or map given."""
    from .web import SourceBook, create_app
    from .web.server import serve

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: give 0 to 65535 (0 picks a free port)")
    game = args.game
    if game is None and args.position and is_game_folder(args.position):
        game = args.position          # a game folder: its map, and its scenarios listed
    book = SourceBook(game)
    if args.position:
        book.open_command_line(args.position)
    elif game is not None:
        book.open_command_line(game)
    serve(create_app(book), args.host, args.port, args.open)


def cmd_import_vmod(args: argparse.Namespace) -> None:
    """Write a game folder from a published VASSAL module (docs/new-game.md, "Starting from a published module")."""
    from .vassal.published.importer import import_module

    report = import_module(args.vmod, args.game_dir)
    print(f"wrote {report.folder}")
    for path in report.files:
        rel = path.relative_to(report.folder)
        hexes = f" ({report.hexes[str(rel)]:,} hexes)" if str(rel) in report.hexes else ""
        print(f"  {rel}{hexes}")
    for note in report.notes:
        print(f"  note: {clean_text(note)}")
    print(f"next: toolkit render {os.path.join(args.game_dir, 'map.yaml')} -o board.png   (the grid over the board)")


def cmd_schema(args: argparse.Namespace) -> None:
    """Print the JSON Schema of a file format: a map file, or a game's rules.yaml."""
    from .game.rulesdata import rules_json_schema

    _print_json(map_json_schema() if args.kind == "map" else rules_json_schema())


def _rules_parser(sub, name: str, help: str, func, svg: str | None = None) -> argparse.ArgumentParser:
    """A rules command: a position file or VASSAL save, ``--game``, ``--json`` and, given ``svg``, ``--svg``."""
    s = sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".")
    s.add_argument("position", help="position file or SAVE.vsav" + (", or a log LOG.vlog" if name == "check" else ""))
    s.add_argument("--game", help="the game: a bundled id or your game's folder (a position of your own game, or a "
                                  "save of a module that is not one of ours)")
    s.add_argument("--json", action="store_true")
    if svg:
        s.add_argument("--svg", metavar="OUT", help=f"{svg} (.svg or .png)")
    s.set_defaults(func=func)
    return s


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``toolkit`` command."""
    p = argparse.ArgumentParser(prog="toolkit", description="Hex-and-counter wargame toolkit.")
    p.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("maps", help="list the bundled maps")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_maps)

    s = sub.add_parser("hex", help="a hex's attributes, neighbours and hexside features")
    s.add_argument("map", help="bundled map id, path to a map.yaml, or a game folder")
    s.add_argument("hex", help="hex name (e.g. 0507, QQ36) or place name")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_hex)

    s = sub.add_parser("los", help="line of sight between two hexes, or from one hex to every hex",
                       usage="toolkit los [MAP] FROM TO [--position POSITION] [--convention C] [--json] [--svg OUT]"
                             "\n       toolkit los MAP --from HEX --all [--convention C] [--json] [--svg OUT]")
    s.add_argument("hexes", nargs="+", metavar="MAP FROM TO",
                   help="a map and two hexes or places; with --position, the two hexes only; with --all, the map")
    s.add_argument("--from", dest="from_hex", metavar="HEX", help="with --all: the viewer's hex or place")
    s.add_argument("--all", action="store_true", help="every hex the --from hex sees (list, --json, --svg picture)")
    s.add_argument("--position", help="apply this position's game spotting rules (e.g. Jerusalem! 10.7)")
    s.add_argument("--game", help="with --position: your game's folder, for a position of your own game")
    s.add_argument("--convention", choices=[c.value for c in Convention],
                   help="default: the map's own convention")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="also draw the line on the map (.svg or .png)")
    s.set_defaults(func=cmd_los)

    s = sub.add_parser("seen", help="every hex that sees HEX (the map's obstacles and convention)")
    s.add_argument("map", help="bundled map id, path to a map.yaml, or a game folder")
    s.add_argument("hex", help="hex name or place name")
    s.add_argument("--convention", choices=[c.value for c in Convention], help="default: the map's own convention")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="also draw it: seeing hexes green, the others dark (.svg or .png)")
    s.set_defaults(func=cmd_seen)

    s = sub.add_parser("render", help="draw a map as SVG or PNG")
    s.add_argument("map", help="bundled map id, path to a map.yaml, or a game folder")
    s.add_argument("-o", "--output", required=True, help="OUT.svg or OUT.png")
    s.add_argument("--highlight", nargs="*", default=[], metavar="HEX[=LABEL]",
                   help="hexes (or places) to highlight, each optionally with a label such as an MP cost")
    s.add_argument("--width", type=int, help="PNG width in pixels (default 80 px per hex)")
    s.add_argument("--no-board", action="store_true",
                   help="an imported map: draw the map itself, not its grid over the board image")
    s.set_defaults(func=cmd_render)

    s = sub.add_parser("moves", help="legal moves of a unit or stack in a position")
    s.add_argument("position", help="position file (YAML)")
    s.add_argument("unit", help="unit id")
    s.add_argument("--game", help="your game's folder, for a position of your own game (its `game` is the id)")
    s.add_argument("--with", dest="with_units", nargs="*", default=[], metavar="UNIT",
                   help="other units moving together")
    s.add_argument("--pickup", nargs="*", default=[], metavar="UNIT", help="units a transport picks up first")
    s.add_argument("--terrorist", action="store_true", help="an Irgun / Stern Gang terrorist move (13.2)")
    s.add_argument("--enter", metavar="HEX", help="off-map units (reinforcements) enter at this map-edge hex")
    s.add_argument("--kind", help="the kind of movement, for games with several (No Prisoners: normal, strategic "
                                  "8.1, rail 8.8, amphibious 20.x; your game: its rules.yaml movement.kinds)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="draw the destinations with their costs (.svg or .png)")
    s.set_defaults(func=cmd_moves)

    s = _rules_parser(sub, "check", "every rule a position (or a VASSAL save) breaks, or every move of a VASSAL "
                                    "log (.vlog) checked (exit status 1 when any)", cmd_check)
    s.add_argument("--turn-end", action="store_true", help="judge the position as the end of the player turn")

    s = _rules_parser(sub, "victory", "whether the victory conditions hold", cmd_victory)
    s.add_argument("--road-cut-by", choices=["zoc", "zoc-or-unit"],
                   help="Jerusalem! 2.0: what cuts the road: Arab ZOC only (default, as the rule is written) or "
                        "also every hex holding an Arab unit (the stricter reading)")

    s = _rules_parser(sub, "fire", "may FIRER fire at TARGET: range, sight, spotters", cmd_fire)
    s.add_argument("firer")
    s.add_argument("target")
    s.add_argument("--higher-terrain", choices=["higher-than-both", "higher-than-either"],
                   default="higher-than-both", help="the reading of 'higher terrain' in 10.7.1")

    s = _rules_parser(sub, "odds", "combat odds, modifiers and kill chance", cmd_odds)
    s.add_argument("--attack", nargs="+", required=True, metavar="UNIT")
    s.add_argument("--defend", nargs="*", default=None, metavar="UNIT",
                   help="the defending units (required, except for a Siege of Jerusalem Breach attack with --target)")
    s.add_argument("--target", metavar="HEX",
                   help="Siege of Jerusalem: the attacked hex, so a Breach attack needs no defending units (10.1)")
    s.add_argument("--level", choices=["both", "riders", "pushers"],
                   help="Siege of Jerusalem missile fire at a Tower hex: the level fired at (9.11)")
    s.add_argument("--fired-at", nargs="*", default=[], metavar="HEX",
                   help="Siege of Jerusalem: hexes already attacked on the same table this phase (9.6)")
    s.add_argument("--kind", choices=["attack", "first_fire", "barrage", "terrorist", "terrorist_battle", "melee",
                                      "missile", "breach"],
                   default="attack", help="Jerusalem!: attack, defensive first fire, artillery barrage, terrorist "
                                          "attack (13.2.4) or the terrorist battle going on (13.2.5); Siege of "
                                          "Jerusalem: melee (= attack), missile or breach")
    s.add_argument("--primary", choices=["infantry", "artillery"],
                   help="Siege of Jerusalem missile fire: the Primary Target type in a Ground hex (13.2)")
    s.add_argument("--protected", nargs="*", default=[], metavar="UNIT",
                   help="defenders declared protected by a fort, monastery or cathedral (9.6.3)")
    s.add_argument("--fired", nargs="*", default=[], metavar="UNIT",
                   help="defending halftracks/buses that fired defensively (9.11); Siege of Jerusalem: units that "
                        "already fired this phase (9.1)")
    s.add_argument("--attacked", nargs="*", default=[], metavar="UNIT",
                   help="first fire: the units the attack is aimed at (only their hexes first-fire, 9.4.2)")

    s = _rules_parser(sub, "supply", "supply lines of every unit (No Prisoners 15.x; your game: rules.yaml supply)", cmd_supply,
                      svg="draw every line (green in supply, red cut)")
    s.add_argument("--side")
    s.add_argument("--unit")
    s = _rules_parser(sub, "place", "where off-map units may be placed as reinforcements (No Prisoners 6.x, 18.4; your game: rules.yaml reinforcements)",
                      cmd_place, svg="draw the hexes")
    s.add_argument("units", nargs="+", metavar="UNIT", help="unit ids in a box of the position")
    _rules_parser(sub, "railhead", "where the Allied railhead may be placed or moved (No Prisoners 16.2)",
                  cmd_railhead, svg="draw the hexes and paths")
    _rules_parser(sub, "command", "HQ command radii and the units in command (No Prisoners 7.x)", cmd_command,
                  svg="draw every HQ's command radius")
    s = _rules_parser(sub, "zoc", "the hexes in the ZOC of a side's units, with the units and rule (Jerusalem! "
                                  "4.x, No Prisoners 10.1, the Siege 7.1-7.2; your game: rules.yaml zoc)", cmd_zoc,
                      svg="draw the hexes (each with the number of units exerting ZOC)")
    s.add_argument("--side", required=True, help="the side whose ZOC is asked")
    add_siege_parser(sub, _rules_parser)
    _rules_parser(sub, "phase", "the position's phase: what it allows and what the phasing player may do now "
                                "(game.yaml phases; the Siege 4.1-4.3)", cmd_phase)
    _rules_parser(sub, "control", "Siege of Jerusalem: who holds each city area and wall, whether the Assault "
                                  "Period may end, where a Breach may be opened (18.1, 18.3x, 19.7)", cmd_control,
                  svg="draw the 19.7 Breach sites (B) and the refused ones (x)")
    s = _rules_parser(sub, "actions", "Siege of Jerusalem: form or disband a Testudo, place or withdraw a Ladder "
                                      "(6.5, 6.6, 8.7, 8.8): each legal, or why not", cmd_actions)
    s.add_argument("units", nargs="+", metavar="UNIT", help="the units acting together, in one hex")
    s = _rules_parser(sub, "advance", "Siege of Jerusalem: where victorious attackers may advance after combat "
                                      "(11.86, 11.9)", cmd_advance, svg="draw the destinations")
    s.add_argument("--attackers", nargs="+", required=True, metavar="UNIT")
    s.add_argument("--hex", required=True, help="the hex the defenders vacated")
    s.add_argument("--excess", type=int, default=0, metavar="N",
                   help="further hexes: one per E result that eliminated no one (11.86)")
    s.add_argument("--defenders", nargs="*", default=[], metavar="UNIT",
                   help="defenders still shown in the hex, to take off first (they retreated or died)")

    s = _rules_parser(sub, "retreat", "apply a combat result: each unit's legal retreats with the rule of every "
                                      "restriction, or why it is eliminated, and the position after (--apply)",
                      cmd_retreat, svg="draw the destinations (and x where a unit is eliminated)")
    s.add_argument("--units", nargs="+", required=True, metavar="UNIT",
                   help="the units of one side the result affects (the Siege: in the order of the code's letters)")
    enemy = s.add_mutually_exclusive_group(required=True)
    enemy.add_argument("--from-attack-hex", metavar="HEX", help="the hex the enemy attacked from (for the "
                                                                "attacker's own retreat: the defenders' hex)")
    enemy.add_argument("--attackers", nargs="+", metavar="UNIT", help="the enemy units of the combat")
    s.add_argument("--result", metavar="CODE", help="the combat result, a code of the game's table (AR, DR, B, "
                                                    "D, K ...)")
    s.add_argument("--hexes", type=int, metavar="N", help="instead of --result: a retreat of N hexes")
    s.add_argument("--apply", nargs="*", metavar="HEX", help="apply the result: the hex each retreating unit goes "
                                                             "to, in their order (none for a unit with one)")
    s.add_argument("-o", "--output", metavar="POSITION.yaml", help="with --apply: write the position after")

    s = sub.add_parser("vmod", help="build a game's VASSAL module, or check one (vmod check FILE.vmod)",
                       usage="toolkit vmod GAME -o FILE.vmod | toolkit vmod check FILE.vmod [--json]")
    s.add_argument("game", help="bundled game id (e.g. jerusalem-1948) or a game folder (./my-game), or 'check'")
    s.add_argument("file", nargs="?", help="with 'check': the module to check")
    s.add_argument("-o", "--output", help="FILE.vmod to build ('-' for standard output)")
    s.add_argument("--json", action="store_true", help="with 'check': the problems as JSON")
    s.set_defaults(func=cmd_vmod)

    s = sub.add_parser("vsav", help="VASSAL saved games: read into / write from a position")
    vsub = s.add_subparsers(dest="vsav_command", required=True)
    r = vsub.add_parser("read", help="decode SAVE.vsav into a position file")
    r.add_argument("save")
    r.add_argument("-o", "--output", required=True, help="POSITION.yaml")
    r.add_argument("--game", help="the game (bundled id or your game's folder), when the save's module is not one "
                                  "of the bundled games")
    r.add_argument("--counters", metavar="MAPPING.yaml",
                   help="a counter mapping file, `module piece name: counter id`, for pieces named otherwise")
    r.set_defaults(func=cmd_vsav_read)
    w = vsub.add_parser("write", help="write a position as a save for the game's module")
    w.add_argument("position")
    w.add_argument("-o", "--output", required=True, help="SAVE.vsav")
    w.add_argument("--game", help="your game's folder, for a position of your own game (its `game` is the id)")
    w.set_defaults(func=cmd_vsav_write)

    s = sub.add_parser("new", help="write a new, minimal, valid game into a new or empty folder (docs/new-game.md)")
    s.add_argument("game_dir", metavar="GAME_DIR", help="the folder to write (new or empty)")
    s.add_argument("--cols", type=int, required=True, help="columns of hexes (4 to 200)")
    s.add_argument("--rows", type=int, required=True, help="rows of hexes (4 to 200)")
    s.add_argument("--numbering", default="ccrr", type=str.lower, choices=["ccrr"],
                   help="hex names: ccrr, column then row (0507)")
    s.add_argument("--orientation", default="flat", choices=["flat", "pointy"],
                   help="flat-top (default; the VASSAL export needs it) or pointy-top hexes")
    s.add_argument("--title", help="the game's title (default: from the folder's name)")
    s.set_defaults(func=cmd_new)

    s = sub.add_parser("serve", help="the local web viewer: maps, positions, moves, line of sight (docs/web.md)")
    s.add_argument("position", nargs="?", metavar="POSITION.yaml|SAVE.vsav|MAP",
                   help="what the page opens first: a position, a save, a bundled map id, a map file or a game "
                        "folder (default: it offers the bundled maps and scenarios)")
    s.add_argument("--game", help="your game's folder: its map and scenarios are offered, and the files you open "
                                  "or drop on the page are read as positions of that game")
    s.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0 picks a free one)")
    s.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only; another prints a warning)")
    s.add_argument("--open", action="store_true", help="open the page in the web browser")
    s.set_defaults(func=cmd_serve)

    s = sub.add_parser("import-vmod", help="a game folder from a published VASSAL module: its boards, grids and "
                                           "pieces (docs/new-game.md)")
    s.add_argument("vmod", metavar="PUBLISHED.vmod", help="the module (read as an untrusted archive)")
    s.add_argument("-o", "--output", dest="game_dir", metavar="GAME_DIR", required=True,
                   help="the game folder to write (new or empty)")
    s.set_defaults(func=cmd_import_vmod)

    s = sub.add_parser("schema", help="print the JSON Schema of a file format")
    s.add_argument("kind", choices=["map", "rules"], help="map: a map file; rules: a game's rules.yaml")
    s.set_defaults(func=cmd_schema)
    return p


INPUTS = ("position", "save", "map", "file", "vmod", "counters")   # argument names that may be input files
OUTPUTS = ("output", "svg")                     # argument names that are output files
GAME_FILES = ("game.yaml", "counters.yaml", "vassal.yaml", "pieces.yaml", "rules.yaml")   # what a game folder reads


def _map_files(map_file: str | os.PathLike[str]) -> list[str]:
    """A map file of the user's and the board image it names (nothing for a bundled map id)."""
    if not os.path.isfile(map_file):
        return []
    from .mapdata import open_map

    board = open_map(map_file).board
    return [os.fspath(map_file)] + ([os.path.join(os.path.dirname(map_file), board.image)] if board else [])


def protected_files(args: argparse.Namespace, inputs: list[str]) -> list[tuple[str, str]]:
    """Every file the command reads through its inputs, which no output may replace, with the input naming it:
    the inputs, a game folder's own files and map (``--game``, or a folder as the MAP) and a map's board image."""
    out = [(path, path) for path in inputs]
    folders = [f for f in (getattr(args, "game", None), getattr(args, "map", None)) if f and is_game_folder(f)]
    for folder in folders:
        out += [(os.path.join(folder, name), folder) for name in GAME_FILES]
        out += [(path, folder) for path in _map_files(load_game(folder).map_file)]
    if getattr(args, "map", None) and args.map not in folders:
        out += [(path, args.map) for path in _map_files(user_map_file(args.map))]
    return out


def check_paths(args: argparse.Namespace) -> None:
    """Refuse, before any work: an input that is not a regular file (a FIFO blocks, a device never ends), an
    output that is not a writable regular-file path (:func:`toolkit.fileio.check_output`), and any output that
    names an input (every output option, ``-o`` and ``--svg`` alike)."""
    inputs = [getattr(args, k) for k in INPUTS if isinstance(getattr(args, k, None), str)]
    inputs += [h for h in getattr(args, "hexes", None) or [] if os.path.sep in h or h.endswith((".yaml", ".yml"))]
    folders = {getattr(args, "map", None), *(getattr(args, "hexes", None) or [])[:1]}   # a map may be a game folder
    if args.command == "serve":
        folders.add(args.position)                    # what serve opens may be a game or map folder
    for path in inputs:
        if os.path.exists(path) and not (path in folders and os.path.isdir(path)):
            check_input(path)
    for key in OUTPUTS:
        out = getattr(args, key, None)
        if out is None or out == STDOUT:
            continue
        check_output(out)
        if not os.path.exists(out):
            continue
        for path, named_by in protected_files(args, inputs):
            if os.path.exists(path) and same_file(path, out):
                via = "" if path == named_by else f", read through {named_by!r}"
                raise OutputError(f"{out}: refusing to write over the input {path!r}{via} (--{key}); choose another "
                                  "name")


def _terminate(signum, frame) -> None:
    """SIGTERM: unwind like Ctrl-C, so temporary files are removed."""
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a refused input, output or argument; 130 on Ctrl-C)."""
    try:
        old_term = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread
        old_term = None
    try:
        args = build_parser().parse_args(argv)
        check_paths(args)
        status = args.func(args)
    except KeyboardInterrupt:
        return 130
    except (*REFUSALS, OutputError) as err:
        print(f"toolkit: error: {error_text(err)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    except OSError as err:  # an output (or input) the file system refuses: one line, no traceback
        where = f"{err.filename}: " if err.filename else ""
        print(f"toolkit: error: {clean_text(where + (err.strerror or str(err)))}", file=sys.stderr)
        return 2
    except RecursionError:
        print("toolkit: error: the input is nested too deeply", file=sys.stderr)
        return 2
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    return status or 0
