"""Game modules (counters, vocabulary) and positions, shared by every game's rules."""
from .module import Game, GameDataError, load_game, modules_dir
from .position import MarkerAt, Position, Unit, load_position, position_from_file
from .schema import Counter, CounterManifest, GameSpec, Marker, PositionFile

__all__ = ["Counter", "CounterManifest", "Game", "GameDataError", "GameSpec", "Marker", "MarkerAt", "Position",
           "PositionFile", "Unit", "load_game", "load_position", "modules_dir", "position_from_file"]
