"""Writing files safely: never leave a half-written or corrupted file behind.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "sub" / "out.txt"
>>> write_atomic(p, "hello") == p and p.read_text()
'hello'
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], data: str | bytes | Callable[[BinaryIO], None]) -> Path:
    """Write ``data`` (text as UTF-8, bytes, or a callable given the open binary file) to ``path``.

    The content goes to a temporary file in the same directory, which then
    replaces ``path`` in one step; missing parent directories are created.  A
    new file gets the usual permissions (0666 less the umask); a replaced file
    keeps its own.  Returns the path.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    return target
