"""The bundled maps: ``maps/<id>/map.yaml`` at the repository root, inside the package once installed.

The directory is ``$TOOLKIT_MAPS_DIR`` if set (:func:`toolkit.bundled.bundled_dir`).  Their ids and titles come
from a small catalogue beside the compiled-map cache (``catalog.json``), so naming a map parses no map file: a
map file is read again only when its size or modification time changed (issue 31).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..bundled import bundled_dir
from .errors import MapError

if TYPE_CHECKING:
    from .compiled import CompiledMap

CATALOG_FILE = "catalog.json"   # in the compiled-map cache directory (toolkit.mapdata.cache.default_cache_dir)
UNREADABLE = "(unreadable map file)"


def maps_dir() -> Path:
    """The directory holding the bundled maps."""
    return bundled_dir("maps", "TOOLKIT_MAPS_DIR")


def _map_files() -> dict[str, Path]:
    root = maps_dir()
    return {p.parent.name: p for p in sorted(root.glob("*/map.yaml"))} if root.is_dir() else {}


def _stamp(path: Path) -> list[int]:
    """What says a map file changed: its size and modification time."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def read_title(path: Path) -> str:
    """A map file's ``title``, parsed from the file through the guarded reader (:data:`UNREADABLE` when it is
    refused or not a YAML mapping)."""
    from ..datafile import read_yaml

    try:
        data = read_yaml(path, MapError)
    except MapError:
        data = None
    return str(data.get("title", "")) if isinstance(data, dict) else UNREADABLE


def _catalog_path() -> Path:
    from .cache import default_cache_dir

    return default_cache_dir() / CATALOG_FILE


def _read_catalog(root: Path) -> dict[str, list]:
    """The catalogue's entries ``{id: [size, mtime_ns, title]}`` for the maps directory ``root`` (none when it is
    missing, unreadable or of another directory)."""
    try:
        data = json.loads(_catalog_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    maps = data.get("maps") if isinstance(data, dict) and data.get("dir") == str(root) else None
    return maps if isinstance(maps, dict) else {}


def _write_catalog(root: Path, entries: dict[str, list]) -> None:
    """Replace the catalogue (atomically); a cache directory that cannot be written is no error."""
    from ..fileio import OutputError, write_atomic

    try:
        write_atomic(_catalog_path(), json.dumps({"dir": str(root), "maps": entries}, ensure_ascii=False))
    except (OSError, OutputError):
        pass


def list_maps() -> list[tuple[str, str, Path]]:
    """``(id, title, path)`` of every bundled map, sorted by id; a title is read from its map file (without
    compiling) only when the file changed since the catalogue last saw it."""
    files = _map_files()
    root = maps_dir()
    known = _read_catalog(root)
    entries = {}
    for map_id, path in files.items():
        stamp = _stamp(path)
        entry = known.get(map_id)
        fresh = isinstance(entry, list) and len(entry) == 3 and entry[:2] == stamp and isinstance(entry[2], str)
        entries[map_id] = entry if fresh else [*stamp, read_title(path)]
    if entries != known:
        _write_catalog(root, entries)
    return [(map_id, entries[map_id][2], path) for map_id, path in files.items()]


def open_map(id_or_path: str | os.PathLike[str]) -> CompiledMap:
    """A compiled map from a bundled map id, a path to a map file, or a folder holding ``map.yaml`` (cached)."""
    from .cache import load_map

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
