"""Map-file errors that name the file, the key path, the bad value and what was expected.

>>> str(MapError("maps/x/map.yaml", "areas[3].terrain", "unknown terrain 'hils'; expected one of: clear, hill"))
"maps/x/map.yaml: areas[3].terrain: unknown terrain 'hils'; expected one of: clear, hill"
>>> key_path(("areas", 3, "terrain"))
'areas[3].terrain'
"""
from __future__ import annotations

from typing import Any, Iterable

import yaml
from pydantic import ValidationError


class MapError(ValueError):
    """A problem in a map file: ``file: key.path: problem``.

    ``details`` holds further problems found at the same time (already formatted).
    """

    def __init__(self, file: str, path: str, problem: str, details: Iterable[str] = ()):
        self.file, self.path, self.problem = file, path, problem
        self.details = list(details)
        head = ": ".join(part for part in (file, path, problem) if part)
        super().__init__("\n".join([head, *self.details]))


def key_path(loc: Iterable[Any]) -> str:
    """Format a key location as ``a.b[3].c`` (integers become indexes)."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def expected(what: str, value: Any, choices: Iterable[str]) -> str:
    """The message ``unknown <what> <value!r>; expected one of: a, b, c``."""
    return f"unknown {what} {value!r}; expected one of: {', '.join(choices) or '(none defined)'}"


def _pydantic_problem(err: dict[str, Any]) -> str:
    kind = err["type"]
    if kind == "missing":
        return "missing required key"
    if kind == "extra_forbidden":
        return f"unknown key (value {err['input']!r}); check the spelling against docs/map-format.md"
    if kind == "value_error":
        return str(err["ctx"]["error"])
    return f"{err['msg'][0].lower()}{err['msg'][1:]}; got {err['input']!r}"


def from_validation_error(err: ValidationError, file: str) -> MapError:
    """Convert a pydantic validation error into a :class:`MapError` (first problem first)."""
    problems = [(key_path(e["loc"]) or "(top level)", _pydantic_problem(e)) for e in err.errors()]
    (path, problem), rest = problems[0], problems[1:]
    return MapError(file, path, problem, [f"{file}: {p}: {m}" for p, m in rest])


def from_yaml_error(err: yaml.YAMLError, file: str) -> MapError:
    """Convert a YAML syntax error into a :class:`MapError` naming line and column."""
    mark = getattr(err, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    problem = getattr(err, "problem", None) or str(err)
    return MapError(file, where, f"YAML syntax error: {problem}")
