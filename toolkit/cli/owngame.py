"""``toolkit new``, ``import-vmod`` and ``schema``: a game of the user's own, written fresh or from a published
VASSAL module, and the JSON Schemas of its files."""
from __future__ import annotations

import argparse
import os

from .common import print_json


def cmd_new(args: argparse.Namespace) -> None:
    """Write a new, minimal, valid game into a new or empty folder (docs/new-game.md)."""
    from ..scaffold import new_game

    written = new_game(args.game_dir, args.cols, args.rows, orientation=args.orientation,
                       numbering=args.numbering, title=args.title)
    for path in written:
        print(f"wrote {path}")
    if args.orientation == "flat":
        print(f"next: toolkit vmod {args.game_dir} -o {os.path.basename(os.path.normpath(args.game_dir))}.vmod")
    else:
        print("note: the VASSAL export lays flat-top grids only: `toolkit vmod` refuses this pointy-top game; "
              "the map, line of sight and render commands take it")


def cmd_import_vmod(args: argparse.Namespace) -> None:
    """Write a game folder from a published VASSAL module (docs/new-game.md, "Starting from a published module")."""
    from ..answers import clean_text
    from ..vassal.published.importer import import_module

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
    if args.kind == "map":
        from ..mapdata import map_json_schema

        print_json(map_json_schema())
    else:
        from ..game.rulesdata import rules_json_schema

        print_json(rules_json_schema())


def add_new(sub) -> None:
    """``toolkit new GAME_DIR --cols N --rows N``."""
    s = sub.add_parser("new", help="write a new, minimal, valid game into a new or empty folder (docs/new-game.md)")
    s.add_argument("game_dir", metavar="GAME_DIR", help="the folder to write (new or empty)")
    s.add_argument("--cols", type=int, required=True, help="columns of hexes (4 to 200)")
    s.add_argument("--rows", type=int, required=True, help="rows of hexes (4 to 200)")
    s.add_argument("--numbering", default="ccrr", type=str.lower, choices=["ccrr"],
                   help="hex names: ccrr, column then row (0507)")
    s.add_argument("--orientation", default="flat", choices=["flat", "pointy"],
                   help="flat-top (default; the VASSAL export needs it) or pointy-top hexes")
    s.add_argument("--title", help="the game's title (default: from the folder's name)")
    s.set_defaults(func="cmd_new")


def add_import_vmod(sub) -> None:
    """``toolkit import-vmod PUBLISHED.vmod -o GAME_DIR``."""
    s = sub.add_parser("import-vmod", help="a game folder from a published VASSAL module: its boards, grids, "
                                           "pieces on their sides and setups as scenarios (docs/new-game.md)")
    s.add_argument("vmod", metavar="PUBLISHED.vmod", help="the module (read as an untrusted archive)")
    s.add_argument("-o", "--output", dest="game_dir", metavar="GAME_DIR", required=True,
                   help="the game folder to write (new or empty)")
    s.set_defaults(func="cmd_import_vmod")


def add_schema(sub) -> None:
    """``toolkit schema map|rules``."""
    s = sub.add_parser("schema", help="print the JSON Schema of a file format")
    s.add_argument("kind", choices=["map", "rules"], help="map: a map file; rules: a game's rules.yaml")
    s.set_defaults(func="cmd_schema")


PARSERS = {"new": add_new, "import-vmod": add_import_vmod, "schema": add_schema}
