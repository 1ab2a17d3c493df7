"""The compiled-map cache key: a map source's hash with the compiler's version, known without loading the compiler
(a cache hit needs no shapely, numpy or map schema: issue 31)."""
from __future__ import annotations

import hashlib

#: Bumped whenever compiled output can change for the same source; part of the source hash.
COMPILER_VERSION = "1"


def source_hash(data: bytes) -> str:
    """sha256 of the source bytes and :data:`COMPILER_VERSION` (the cache key)."""
    return hashlib.sha256(COMPILER_VERSION.encode() + b"\0" + data).hexdigest()
