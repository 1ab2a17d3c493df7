"""Hexes named by the game files: a ``place_lists`` key of ``game.yaml``, or place / hex names."""
from __future__ import annotations

from typing import Sequence, Union

from ...game import Position
from ...game.module import GameDataError
from ...hexgrid import Hex


def place_hexes(position: Position, places: Union[str, Sequence[str]], file: str, key: str) -> list[Hex]:
    """The hexes of a ``place_lists`` key, or of one place or hex name, or of a list of names.

    A name the map does not know raises :class:`GameDataError` naming ``file`` (of the game's folder) and
    ``key``, the entry that used it.
    """
    lists = position.game.spec.place_lists
    names = lists.get(places, [places]) if isinstance(places, str) else list(places)
    out = []
    for n in names:
        try:
            out.append(position.game.map.resolve(n))
        except Exception as err:  # noqa: BLE001 - a bad place name is a data error
            raise GameDataError(str(position.game.folder / file), key, f"place {n!r}: {err}") from None
    return out
