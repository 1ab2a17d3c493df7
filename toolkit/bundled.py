"""Where the bundled maps and games lie, found the same way in every kind of install.

The repository keeps them at its top level (``maps/``, ``modules/``); a wheel carries the same files inside the
package as ``toolkit/data/maps`` and ``toolkit/data/modules`` (``setup.py`` copies what ``MANIFEST.in``
lists).  An environment variable names another folder instead.
"""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def bundled_dir(name: str, env: str) -> Path:
    """The folder of the bundled ``name`` (``maps`` or ``modules``): ``$env`` if set; else the copy inside the
    installed package (a wheel); else ``name/`` beside the package (a source checkout or an editable install)."""
    override = os.environ.get(env)
    if override:
        return Path(override)
    packaged = PACKAGE / "data" / name
    return packaged if packaged.is_dir() else PACKAGE.parent / name
