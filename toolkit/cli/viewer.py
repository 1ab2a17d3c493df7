"""``toolkit serve``: the local web viewer (docs/web.md)."""
from __future__ import annotations

import argparse


def cmd_serve(args: argparse.Namespace) -> None:
    """The local web viewer (docs/web.md) until Ctrl-C: the bundled sources, and the file or map given."""
    from ..game.module import is_game_folder
    from ..web import SourceBook, create_app
    from ..web.server import is_local, serve
    from ..web.store import open_store

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: give 0 to 65535 (0 picks a free port)")
    game = args.game
    if game is None and args.position and is_game_folder(args.position):
        game = args.position          # a game folder: its map, and its scenarios listed
    book = SourceBook(game, open_store(args.store), seats_only=not is_local(args.host))
    if args.position:
        book.open_command_line(args.position)
    elif game is not None:
        book.open_command_line(game)
    serve(create_app(book), args.host, args.port, args.open)


def add_serve(sub) -> None:
    """``toolkit serve [POSITION|SAVE|MAP]``."""
    s = sub.add_parser("serve", help="the local web viewer: maps, positions, moves, line of sight (docs/web.md)")
    s.add_argument("position", nargs="?", metavar="POSITION.yaml|SAVE.vsav|MAP",
                   help="what the page opens first: a position, a save, a bundled map id, a map file or a game "
                        "folder (default: it offers the bundled maps and scenarios)")
    s.add_argument("--game", help="your game's folder: its map and scenarios are offered, and the files you open "
                                  "or drop on the page are read as positions of that game")
    s.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0 picks a free one)")
    s.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only; another prints a warning, "
                        "and games are then played only from their seats' links)")
    s.add_argument("--open", action="store_true", help="open the page in the web browser")
    s.add_argument("--store", metavar="PATH|URL",
                   help="where the games played and the files opened are kept: an SQLite file (default: "
                        "$XDG_DATA_HOME/toolkit/games.sqlite, else ~/.local/share/toolkit/games.sqlite) or a "
                        "PostgreSQL URL (postgresql://USER@HOST/DATABASE; the postgresql extra)")
    s.set_defaults(func="cmd_serve")


PARSERS = {"serve": add_serve}
