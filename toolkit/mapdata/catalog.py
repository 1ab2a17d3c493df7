"""The bundled maps: ``maps/<id>/map.yaml`` at the repository root, inside the package once installed.

The directory is ``$TOOLKIT_MAPS_DIR`` if set (:func:`toolkit.bundled.bundled_dir`).
"""
from __future__ import annotations

from pathlib import Path

from ..bundled import bundled_dir
from .cache import load_map
from ..datafile import read_yaml
from .compiled import CompiledMap
from .errors import MapError


def maps_dir() -> Path:
    """The directory holding the bundled maps."""
    return bundled_dir("maps", "TOOLKIT_MAPS_DIR")


def _map_files() -> dict[str, Path]:
    root = maps_dir()
    return {p.parent.name: p for p in sorted(root.glob("*/map.yaml"))} if root.is_dir() else {}


def list_maps() -> list[tuple[str, str, Path]]:
    """``(id, title, path)`` of every bundled map, sorted by id (title read without compiling)."""
    out = []
    for map_id, path in _map_files().items():
        try:
            data = read_yaml(path, MapError)
        except MapError:
            data = None
        title = data.get("title", "") if isinstance(data, dict) else "(unreadable map file)"
        out.append((map_id, str(title), path))
    return out


def open_map(id_or_path: str | Path) -> CompiledMap:
    """A compiled map from a bundled map id, a path to a map file, or a folder holding ``map.yaml`` (cached)."""
    files = _map_files()
    text = str(id_or_path)
    if text in files:
        return load_map(files[text])
    if Path(text).is_file():
        return load_map(text)
    if Path(text).is_dir():   # a folder: its map.yaml (a game folder's map.yaml, say)
        if (Path(text) / "map.yaml").is_file():
            return load_map(Path(text) / "map.yaml")
        raise MapError(text, "", "is a folder without a map.yaml (or game.yaml); give a map file, a game folder or "
                                 f"a bundled map id ({', '.join(files) or 'none bundled'})")
    raise MapError(text, "", f"no such map file or bundled map; expected a path to a map.yaml or one of: "
                             f"{', '.join(files) or '(no bundled maps in ' + str(maps_dir()) + ')'}")
