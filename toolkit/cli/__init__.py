"""The ``toolkit`` command: wires maps, line of sight, the rules assistants, VASSAL and the viewer together.

One module per family of commands (:mod:`.maps`, :mod:`.positions`, :mod:`.rules`, :mod:`.siege` with
:mod:`.siege_tables`, :mod:`.vassal`, :mod:`.owngame`, :mod:`.viewer`), each defining its sub-commands' arguments
(``PARSERS``) and functions (``cmd_*``); what they share is :mod:`.common`.  Building the parser imports none of
the toolkit's heavy modules: a command imports what it runs, so ``toolkit --help`` starts at once (issue 31).

Every sub-command's ``--json`` output is documented in ``docs/cli.md``.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any, Callable, Sequence

from . import maps, owngame, positions, rules, siege, siege_tables, vassal, viewer
from .common import check_paths

DISTRIBUTION = "hex-wargame-toolkit"  # the name the toolkit is installed under (pyproject.toml's project.name)
FAMILIES = (maps, positions, rules, siege, vassal, owngame, viewer)   # each defines PARSERS
ROOMS = (*FAMILIES, siege_tables)   # where the commands' functions are

#: The sub-commands in the order ``toolkit --help`` lists them.
COMMANDS = ("maps", "hex", "los", "seen", "render", "moves", "check", "victory", "fire", "odds", "supply", "place",
            "railhead", "command", "zoc", "siege", "phase", "combat", "control", "actions", "advance", "retreat", "vmod",
            "vsav", "new", "serve", "import-vmod", "schema")


def installed_version() -> str:
    """The toolkit's version, read from the installed package's metadata (pyproject.toml's, the one source): the
    name of its ``.dist-info`` folder where the first ``sys.path`` entry holding one has it (what
    :func:`importlib.metadata.version` would read, without importing that module), else that function's answer."""
    prefix = DISTRIBUTION.replace("-", "_") + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.lower().startswith(prefix) and name.endswith(".dist-info"):
                return name[len(prefix):-len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return f"unknown ({DISTRIBUTION} is not installed: pip install .)"


class VersionAction(argparse.Action):
    """``--version``: the installed version, read only when asked for."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show program's version number and exit"):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {installed_version()}")
        parser.exit()


def __getattr__(name: str) -> Callable[[argparse.Namespace], Any]:
    """A command's function by name (``toolkit.cli.cmd_hex``), from the family that defines it."""
    for room in ROOMS:
        if name.startswith("cmd_") and hasattr(room, name):
            return getattr(room, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``toolkit`` command; a sub-command names its function (``func``).  Given one of
    :data:`COMMANDS`, only that sub-command is defined (what ``toolkit COMMAND ...`` parses); given ``--version``
    (which prints and exits before a sub-command is looked for), none; else all of them."""
    p = argparse.ArgumentParser(prog="toolkit", description="Hex-and-counter wargame toolkit.")
    p.add_argument("--version", action=VersionAction)
    sub = p.add_subparsers(dest="command", required=True)
    parsers = {name: add for family in FAMILIES for name, add in family.PARSERS.items()}
    for name in [command] if command in parsers else [] if command == "--version" else COMMANDS:
        parsers[name](sub)
    return p


def _terminate(signum, frame) -> None:
    """SIGTERM: unwind like Ctrl-C, so temporary files are removed."""
    raise SystemExit(128 + signum)


def _error_status(err: Exception) -> int:
    """An error that is no bug -- a refused input, output or argument (:data:`toolkit.answers.REFUSALS`), or a
    file the system refuses -- as one line on stderr, exit status 2; any other error is raised on."""
    from ..answers import REFUSALS, clean_text, error_text
    from ..fileio import OutputError

    if isinstance(err, (*REFUSALS, OutputError)):
        print(f"toolkit: error: {error_text(err)}", file=sys.stderr)
    elif isinstance(err, OSError):  # an output (or input) the file system refuses: one line, no traceback
        where = f"{err.filename}: " if err.filename else ""
        print(f"toolkit: error: {clean_text(where + (err.strerror or str(err)))}", file=sys.stderr)
    else:
        raise
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a refused input, output or argument; 130 on Ctrl-C)."""
    try:
        old_term = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread
        old_term = None
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(argv[0] if argv else None).parse_args(argv)
        check_paths(args)
        status = getattr(sys.modules[__name__], args.func)(args)   # the command, found by name (__getattr__)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    except RecursionError:
        print("toolkit: error: the input is nested too deeply", file=sys.stderr)
        return 2
    except Exception as err:
        return _error_status(err)
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    return status or 0
