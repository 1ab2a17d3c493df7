"""On-disk cache of compiled maps, keyed by the source hash.

Cache files are plain JSON (:meth:`CompiledMap.to_json`) named
``<source hash>.json`` in ``$TOOLKIT_CACHE_DIR`` or ``~/.cache/toolkit/maps/``.
They are written atomically; a corrupt file is ignored and rebuilt.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..datafile import read_regular
from ..fileio import write_atomic
from .compiled import CompiledMap
from .errors import MapError
from .key import source_hash


def default_cache_dir() -> Path:
    """The cache directory: ``$TOOLKIT_CACHE_DIR`` or ``~/.cache/toolkit/maps``."""
    env = os.environ.get("TOOLKIT_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "toolkit" / "maps"


def compile_source(raw: bytes, source_name: str) -> CompiledMap:
    """Compile a map file's bytes: the compiler (shapely, the map schema) is imported on a cache miss only."""
    from .compiler import compile_source as compile_

    return compile_(raw, source_name)


def _read_cached(path: Path, digest: str) -> CompiledMap | None:
    try:
        cmap = CompiledMap.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
    return cmap if cmap.source_hash == digest else None


def load_map(path: str | Path, cache_dir: str | Path | None = None) -> CompiledMap:
    """The compiled map of a map file, from the cache when the source is unchanged."""
    raw = read_regular(path, str(path), MapError)
    digest = source_hash(raw)
    cached_file = Path(cache_dir or default_cache_dir()) / f"{digest}.json"
    cmap = _read_cached(cached_file, digest)
    if cmap is None:
        cmap = compile_source(raw, str(path))
        write_atomic(cached_file, json.dumps(cmap.to_json(), separators=(",", ":")))
    return cmap
