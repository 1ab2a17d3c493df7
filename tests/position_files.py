"""Writing small position files for tests: units as tuples, markers as pairs, through the real loader."""
from pathlib import Path

import yaml

from toolkit.game import Position, load_position


def write_position(folder: Path, game: str, turn: str, phase: str, side: str, units=(), *, markers=(),
                   params=None, boxed=()) -> Position:
    """Write and load a position.

    ``units``: ``(id, counter, hex)`` or ``(id, counter, hex, [flags])``; ``boxed``: ``(id, counter, box)``;
    ``markers``: ``(marker, hex)``.
    """
    data = {"game": game, "turn": turn, "phase": phase, "phasing_side": side}
    if params:
        data["params"] = params
    data["units"] = [{"id": u[0], "counter": u[1], "hex": u[2], **({"flags": list(u[3])} if len(u) > 3 else {})}
                     for u in units] + [{"id": i, "counter": c, "box": b} for i, c, b in boxed]
    if markers:
        data["markers"] = [{"marker": m, "hex": h} for m, h in markers]
    path = folder / "pos.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_position(path)
