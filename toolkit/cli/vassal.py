"""``toolkit vmod`` and ``toolkit vsav``: a game's VASSAL module built or checked, saved games read and written."""
from __future__ import annotations

import argparse

from .common import load_position, print_json, status_stream, verb


def cmd_vmod(args: argparse.Namespace) -> int:
    """Build a game's VASSAL module, or (``vmod check FILE.vmod``) check a module as VASSAL would read it."""
    if args.game == "check":
        return cmd_vmod_check(args)
    if args.file is not None:
        raise ValueError(f"unexpected argument {args.file!r}: build with 'toolkit vmod GAME -o FILE.vmod', "
                         "check with 'toolkit vmod check FILE.vmod'")
    if args.output is None:
        raise ValueError("give the module to write with -o FILE.vmod (or check one: toolkit vmod check FILE.vmod)")
    from ..vassal.build.module import build_module

    written_verb = verb(args.output)
    print(f"{written_verb} {build_module(args.game, args.output)}", file=status_stream(args.output))
    return 0


def cmd_vmod_check(args: argparse.Namespace) -> int:
    """Check a ``.vmod`` (untrusted: read through the safe-zip guards); exit status 1 when it has problems."""
    from ..answers import clean_text
    from ..vassal.build.validate import check_module

    if args.file is None:
        raise ValueError("give the module to check: toolkit vmod check FILE.vmod")
    if args.output is not None:
        raise ValueError("vmod check writes nothing; drop -o")
    problems = check_module(args.file)
    if args.json:
        print_json({"module": args.file, "ok": not problems, "problems": problems})
    elif problems:
        print(f"{args.file}: {len(problems)} problem(s)")
        for problem in problems:
            print(f"  {clean_text(problem)}")
    else:
        print(f"{args.file}: ok")
    return 1 if problems else 0


def cmd_vsav_read(args: argparse.Namespace) -> int:
    """Decode a VASSAL save into a position file."""
    import yaml

    from ..fileio import write_atomic
    from ..vassal.saves.positions import read_position_save, same_file

    if same_file(args.save, args.output):
        raise ValueError(f"{args.output}: refusing to write over the input save; choose another -o")
    pf, unplaced = read_position_save(args.save, args.game, args.counters)
    text = yaml.safe_dump(pf.model_dump(exclude_defaults=True), sort_keys=False, allow_unicode=True)
    written_verb = verb(args.output)
    write_atomic(args.output, text)
    out = status_stream(args.output)
    print(f"{written_verb} {args.output}: {len(pf.units)} units", file=out)
    for u in unplaced:
        print(f"  not placed: {u}", file=out)
    return 0


def cmd_vsav_write(args: argparse.Namespace) -> None:
    """Write a position as a VASSAL save for the game's module: the toolkit's own, or for a game imported from
    a published module, that module (``--module THEIR.vmod``, else the file its import record names)."""
    from ..vassal.saves.imported import load_record
    from ..vassal.saves.positions import same_file, write_position_save

    for given, what in ((args.position, "position"), (args.module, "module")):
        if given is not None and same_file(given, args.output):
            raise ValueError(f"{args.output}: refusing to write over the input {what}; choose another -o")
    position = load_position(args.position, args.game)
    imported = not position.game.bundled and load_record(position.game.folder) is not None
    if args.module is not None and not imported:
        raise ValueError("--module is for a game imported from a published module (toolkit import-vmod); this "
                         "game's save is for its own module (toolkit vmod)")
    written_verb = verb(args.output)
    out = status_stream(args.output)
    if imported:
        from ..vassal.published.writeback import write_imported_save

        omitted, notes = write_imported_save(position, args.output, args.module)
        print(f"{written_verb} {args.output}" + (f"; not in the save: {', '.join(omitted)}" if omitted else ""),
              file=out)
        for note in notes:
            print(f"  note: {note}", file=out)
        return
    omitted = write_position_save(position, args.output)
    print(f"{written_verb} {args.output}" + (f"; off the map, not in the save: {', '.join(omitted)}" if omitted
                                             else ""), file=out)


def add_vmod(sub) -> None:
    """``toolkit vmod GAME -o FILE.vmod`` and ``toolkit vmod check FILE.vmod``."""
    s = sub.add_parser("vmod", help="build a game's VASSAL module, or check one (vmod check FILE.vmod)",
                       usage="toolkit vmod GAME -o FILE.vmod | toolkit vmod check FILE.vmod [--json]")
    s.add_argument("game", help="bundled game id (e.g. jerusalem-1948) or a game folder (./my-game), or 'check'")
    s.add_argument("file", nargs="?", help="with 'check': the module to check")
    s.add_argument("-o", "--output", help="FILE.vmod to build ('-' for standard output)")
    s.add_argument("--json", action="store_true", help="with 'check': the problems as JSON")
    s.set_defaults(func="cmd_vmod")


def add_vsav(sub) -> None:
    """``toolkit vsav read|write``."""
    s = sub.add_parser("vsav", help="VASSAL saved games: read into / write from a position")
    vsub = s.add_subparsers(dest="vsav_command", required=True)
    r = vsub.add_parser("read", help="decode SAVE.vsav into a position file")
    r.add_argument("save")
    r.add_argument("-o", "--output", required=True, help="POSITION.yaml")
    r.add_argument("--game", help="the game (bundled id or your game's folder), when the save's module is not one "
                                  "of the bundled games")
    r.add_argument("--counters", metavar="MAPPING.yaml",
                   help="a counter mapping file, `module piece name: counter id`, for pieces named otherwise")
    r.set_defaults(func="cmd_vsav_read")
    w = vsub.add_parser("write", help="write a position as a save for the game's module (an imported game: the "
                                      "published module it came from)")
    w.add_argument("position")
    w.add_argument("-o", "--output", required=True, help="SAVE.vsav")
    w.add_argument("--game", help="your game's folder, for a position of your own game (its `game` is the id)")
    w.add_argument("--module", metavar="THEIR.vmod",
                   help="for a game imported from a published module: that module (default: the file its import "
                        "record names, in the game folder or beside it)")
    w.set_defaults(func="cmd_vsav_write")


PARSERS = {"vmod": add_vmod, "vsav": add_vsav}
