"""Game modules (counters, vocabulary) and positions, shared by every game's rules.

Each name is imported from its module on first use (:mod:`toolkit.lazy`).
"""
from ..lazy import lazy_exports

__getattr__ = lazy_exports(__name__, {
    ".module": ["Game", "GameDataError", "load_game", "modules_dir"],
    ".position": ["MarkerAt", "Position", "Unit", "load_position", "position_from_file"],
    ".schema": ["Counter", "CounterManifest", "GameSpec", "Marker", "PositionFile"],
})

__all__ = ["Counter", "CounterManifest", "Game", "GameDataError", "GameSpec", "Marker", "MarkerAt", "Position",
           "PositionFile", "Unit", "load_game", "load_position", "modules_dir", "position_from_file"]
