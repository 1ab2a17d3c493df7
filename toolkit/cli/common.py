"""What every family of ``toolkit`` commands shares: printing JSON, the position and game a command names, the
status line of a written file, the arguments of a rules command, and the check of every path before any work.

Light to import: the toolkit's heavy modules (numpy, pydantic, the games) are imported by the functions that use
them, so building the parser loads none of them (issue 31).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from functools import cached_property
from typing import Any, Callable, Sequence

from ..fileio import STDOUT, OutputError, check_input, check_output


def print_json(data: Any) -> None:
    """An answer as JSON on standard output (docs/cli.md)."""
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def load_position(path: str, game_arg: str | None):
    """A position file: of the bundled game it names, or of the game the user gave (``--game ./my-game``: the
    file's ``game`` must be that game's id -- a position never names a folder itself).  Counter values are
    checked by the game's rules package when the toolkit has one."""
    from ..game.module import load_game
    from ..games import load_game_position

    return load_game_position(path, None if game_arg is None else load_game(game_arg))


def game_command(args: argparse.Namespace):
    """The position (a position file, or a VASSAL save) and its game's rules."""
    from ..answers import Rules
    from ..games import load_position_or_save

    position, unplaced = load_position_or_save(str(args.position), getattr(args, "game", None))
    for u in unplaced:
        print(f"toolkit: note: {args.position}: piece {u} not placed", file=sys.stderr)
    return position, Rules(position.game)


def draw_or_dump(args: argparse.Namespace, position, data, layers: Callable) -> bool:
    """Draw ``layers(resolve)`` on the position's map for ``--svg``; print ``data`` for ``--json``.

    Returns whether the JSON was printed, when the command prints nothing more.
    """
    if args.svg:
        from ..render import write_image

        cmap = position.game.map
        print(f"wrote {write_image(args.svg, cmap, layers(cmap.resolve))}", file=sys.stderr)
    if args.json:
        print_json(data)
        return True
    return False


def verb(output) -> str:
    """``replaced`` when an output file exists already (it is overwritten, as ``make`` users expect), else ``wrote``."""
    return "replaced" if output not in (None, STDOUT) and os.path.isfile(output) else "wrote"


def status_stream(output):
    """Where a command's status line goes: stderr when its output is standard output."""
    return sys.stderr if output == STDOUT else sys.stdout


def write_position_data(output: str, data: dict) -> None:
    """Write a position's file form (``Position.to_file`` as JSON data) to ``output`` as YAML, atomically, and say
    so."""
    import yaml

    from ..fileio import write_atomic

    written_verb = verb(output)
    write_atomic(output, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    print(f"{written_verb} {output}", file=status_stream(output))


def rules_parser(sub, name: str, help: str, func: str, svg: str | None = None) -> argparse.ArgumentParser:
    """A rules command: a position file or VASSAL save, ``--game``, ``--json`` and, given ``svg``, ``--svg``;
    ``func`` names the command's function (:func:`command`)."""
    s = sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".")
    s.add_argument("position", help="position file or SAVE.vsav" + (", or a log LOG.vlog" if name == "check" else ""))
    s.add_argument("--game", help="the game: a bundled id or your game's folder (a position of your own game, or a "
                                  "save of a module that is not one of ours)")
    s.add_argument("--json", action="store_true")
    if svg:
        s.add_argument("--svg", metavar="OUT", help=f"{svg} (.svg or .png)")
    s.set_defaults(func=func)
    return s


class LazyChoices(Sequence[str]):
    """An option's choices read from a module only when argparse first lists or checks them."""

    def __init__(self, load: Callable[[], Sequence[str]]):
        self.load = load

    @cached_property
    def values(self) -> list[str]:
        """The choices, loaded once."""
        return list(self.load())

    def __getitem__(self, i):
        return self.values[i]

    def __len__(self) -> int:
        return len(self.values)


INPUTS = ("position", "save", "map", "file", "vmod", "counters")   # argument names that may be input files
OUTPUTS = ("output", "svg")                     # argument names that are output files
GAME_FILES = ("game.yaml", "counters.yaml", "vassal.yaml", "pieces.yaml", "rules.yaml")   # what a game folder reads


def _map_files(map_file: str | os.PathLike[str]) -> list[str]:
    """A map file of the user's and the board image it names (nothing for a bundled map id)."""
    if not os.path.isfile(map_file):
        return []
    from ..mapdata import open_map

    board = open_map(map_file).board
    return [os.fspath(map_file)] + ([os.path.join(os.path.dirname(map_file), board.image)] if board else [])


def protected_files(args: argparse.Namespace, inputs: list[str]) -> list[tuple[str, str]]:
    """Every file the command reads through its inputs, which no output may replace, with the input naming it:
    the inputs, a game folder's own files and map (``--game``, or a folder as the MAP) and a map's board image."""
    from ..game.module import is_game_folder, load_game, user_map_file

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
    names an input (every output option, ``-o`` and ``--svg`` alike).  ``los``'s positional arguments (its
    ``places``: a map, which may be a file or a game folder, and hexes) count as inputs when they look like
    files."""
    places = getattr(args, "places", None) or []
    inputs = [getattr(args, k) for k in INPUTS if isinstance(getattr(args, k, None), str)]
    inputs += [h for h in places if os.path.sep in h or h.endswith((".yaml", ".yml"))]
    folders = {getattr(args, "map", None), *places[:1]}   # a map may be a game folder
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
        from ..vassal.saves.positions import same_file

        for path, named_by in protected_files(args, inputs):
            if os.path.exists(path) and same_file(path, out):
                via = "" if path == named_by else f", read through {named_by!r}"
                raise OutputError(f"{out}: refusing to write over the input {path!r}{via} (--{key}); choose another "
                                  "name")
