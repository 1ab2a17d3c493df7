#!/usr/bin/env python3
"""A random playout: a whole game from a position, random legal actions, dice and choices drawn from the seed,
written as a VASSAL log of the game's module (``toolkit.games.playout``, ``toolkit.vassal.saves.record``).

    python scripts/playout.py modules/jerusalem-1948/scenarios/scenario-ii.yaml --seed 1 -o game.vlog
    toolkit check game.vlog                      # the referee replays it: legal

The last line says how the game ended (its last turn, the scenario's end) and the number of actions and turns.
The same position and seed always give the same game (and the same log).
"""
from __future__ import annotations

import argparse
import sys

from toolkit.fileio import write_atomic
from toolkit.games import load_game_position
from toolkit.games.playout import play_random
from toolkit.vassal.saves.record import log_of_game


def main(argv: list[str] | None = None) -> int:
    """Play the game out and write its log; exit status 0 when the game reached its end, 1 when it did not."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("position", help="the position to start from (a position file)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the dice and choices (default 0)")
    parser.add_argument("-o", "--output", required=True, help="the VASSAL log to write (.vlog)")
    parser.add_argument("--game", help="the game folder, for a position of your own game")
    parser.add_argument("--moves", type=int, default=6, help="at most this many moves a phase (default 6)")
    parser.add_argument("--attacks", type=int, default=3, help="at most this many attacks a phase (default 3)")
    parser.add_argument("--max-actions", type=int, default=100_000, help="stop after this many actions")
    args = parser.parse_args(argv)
    try:
        from toolkit.game import load_game
        start = load_game_position(args.position, None if args.game is None else load_game(args.game))
        game = play_random(start, args.seed, moves=args.moves, attacks=args.attacks, max_actions=args.max_actions)
        write_atomic(args.output, log_of_game(start, game.steps))
    except (OSError, ValueError) as err:
        print(f"playout: error: {err}", file=sys.stderr)
        return 2
    for refused in game.refused:
        print(f"offered but refused (a new violation): {refused}")
    print(f"{args.output}: {game.summary()}")
    return 0 if game.ended else 1


if __name__ == "__main__":
    sys.exit(main())
