"""Errors in files a user hands the toolkit: they name the file, the key path, the bad value and the fix.

Also :func:`load_yaml_model`, the one way the toolkit reads a YAML data file
into a pydantic model.

>>> str(DataFileError("maps/x/map.yaml", "areas[3].terrain", "unknown terrain 'hils'; expected one of: clear, hill"))
"maps/x/map.yaml: areas[3].terrain: unknown terrain 'hils'; expected one of: clear, hill"
>>> key_path(("areas", 3, "terrain"))
'areas[3].terrain'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, TypeVar

import yaml
from pydantic import BaseModel, ValidationError


class DataFileError(ValueError):
    """A problem in a data file: ``file: key.path: problem``.

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


def _pydantic_problem(err: dict[str, Any], doc: str) -> str:
    kind = err["type"]
    if kind == "missing":
        return "missing required key"
    if kind == "extra_forbidden":
        return f"unknown key (value {err['input']!r}); check the spelling against {doc}"
    if kind == "value_error":
        return str(err["ctx"]["error"])
    return f"{err['msg'][0].lower()}{err['msg'][1:]}; got {err['input']!r}"


def from_validation_error(err: ValidationError, file: str, doc: str,
                          error: type[DataFileError] = DataFileError) -> DataFileError:
    """Convert a pydantic validation error into ``error`` (first problem first); ``doc`` names the format's docs."""
    problems = [(key_path(e["loc"]) or "(top level)", _pydantic_problem(e, doc)) for e in err.errors()]
    (path, problem), rest = problems[0], problems[1:]
    return error(file, path, problem, [f"{file}: {p}: {m}" for p, m in rest])


def from_yaml_error(err: yaml.YAMLError, file: str, error: type[DataFileError] = DataFileError) -> DataFileError:
    """Convert a YAML syntax error into ``error`` naming line and column."""
    mark = getattr(err, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    problem = getattr(err, "problem", None) or str(err)
    return error(file, where, f"YAML syntax error: {problem}")


def parse_yaml(raw: bytes, file: str, error: type[DataFileError] = DataFileError) -> dict[str, Any]:
    """A YAML document that must be a mapping at the top level."""
    try:
        data = yaml.load(raw, Loader=SAFE_LOADER)
    except yaml.YAMLError as err:
        raise from_yaml_error(err, file, error) from None
    if not isinstance(data, dict):
        raise error(file, "", f"expected a mapping of keys at the top level, got {type(data).__name__}")
    return data


M = TypeVar("M", bound=BaseModel)
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's safe loader when PyYAML has it: 10x faster


def load_yaml_model(path: str | Path, model: type[M], doc: str, error: type[DataFileError] = DataFileError) -> M:
    """Read a YAML file into ``model``; any problem raises ``error`` naming the file and key."""
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise error(str(path), "", f"cannot read the file: {err.strerror}") from None
    try:
        return model.model_validate(parse_yaml(raw, str(path), error))
    except ValidationError as err:
        raise from_validation_error(err, str(path), doc, error) from None
