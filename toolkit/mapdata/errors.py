"""Map-file errors: :class:`~toolkit.datafile.DataFileError` for map files.

>>> str(MapError("maps/x/map.yaml", "areas[3].terrain", "unknown terrain 'hils'; expected one of: clear, hill"))
"maps/x/map.yaml: areas[3].terrain: unknown terrain 'hils'; expected one of: clear, hill"
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..datafile import DataFileError, expected, key_path
from ..datafile import from_validation_error as _from_validation_error
from ..datafile import from_yaml_error as _from_yaml_error

if TYPE_CHECKING:
    import yaml
    from pydantic import ValidationError

__all__ = ["MapError", "expected", "from_validation_error", "from_yaml_error", "key_path"]


class MapError(DataFileError):
    """A problem in a map file: ``file: key.path: problem``."""


def from_validation_error(err: ValidationError, file: str) -> MapError:
    """A pydantic validation error as a :class:`MapError` (first problem first)."""
    return _from_validation_error(err, file, "docs/map-format.md", MapError)


def from_yaml_error(err: yaml.YAMLError, file: str) -> MapError:
    """A YAML syntax error as a :class:`MapError` naming line and column."""
    return _from_yaml_error(err, file, MapError)
