"""Errors in files a user hands the toolkit: they name the file, the key path, the bad value and the fix.

Also :func:`load_yaml_model`, the one way the toolkit reads a YAML data file
into a pydantic model, and :func:`parse_yaml`, the one YAML parser for data
files (positions, game files, maps, tables, charts), and :func:`read_yaml`,
the one way to read such a file from disk.  They treat the file as untrusted:
a file is at most :data:`MAX_YAML_BYTES`, regular (never a FIFO or a device),
holds at most :data:`MAX_YAML_NODES` nodes, is nested at most
:data:`MAX_YAML_DEPTH` deep, and aliases may add at most
:data:`MAX_ALIAS_NODES` nodes to what the document itself holds (a "billion
laughs" alias bomb is refused before anything walks it); values quoted in
errors are shortened (:func:`brief`).

>>> str(DataFileError("maps/x/map.yaml", "areas[3].terrain", "unknown terrain 'hils'; expected one of: clear, hill"))
"maps/x/map.yaml: areas[3].terrain: unknown terrain 'hils'; expected one of: clear, hill"
>>> key_path(("areas", 3, "terrain"))
'areas[3].terrain'
"""
from __future__ import annotations

import os
import re
import reprlib
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, TypeVar

from .lazy import lazy_module

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

yaml = lazy_module("yaml")   # imported when a file is parsed: an error class or read_regular needs none (issue 31)


MAX_YAML_BYTES = 16 << 20     # a data file
MAX_YAML_DEPTH = 64           # nesting of mappings and lists
MAX_ALIAS_NODES = 100_000     # nodes aliases may add beyond the document's own
#: Nodes (scalars, lists, mappings) of one document.  Every node costs about 350 bytes of memory while the document
#: is composed, before anything can check it: 16 MB of ``[0,0,…]`` is 8 million nodes, 2.8 GB.  The largest file the
#: toolkit ships (a map) holds 22,000 nodes; half a million is 175 MB at most, counted in about a second.
MAX_YAML_NODES = 500_000

_BRIEF = reprlib.Repr()
_BRIEF.maxlevel, _BRIEF.maxstring, _BRIEF.maxother = 3, 80, 80
_BRIEF.maxlist = _BRIEF.maxtuple = _BRIEF.maxdict = _BRIEF.maxset = 6


def brief(value: Any) -> str:
    """``repr(value)`` shortened for an error message (strings, lists and nesting cut; never the whole input)."""
    text = _BRIEF.repr(value)
    return text if len(text) <= 200 else text[:200] + "…"


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
        return f"unknown key (value {brief(err['input'])}); check the spelling against {doc}"
    if kind == "value_error":
        return _short(str(err["ctx"]["error"]))
    return f"{err['msg'][0].lower()}{err['msg'][1:]}; got {brief(err['input'])}"


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


#: The names pydantic gives the members of a union in an error's location (``float``, ``function-after[…]``,
#: ``literal['P']``, ``dict[str,…]``): not keys of the file.
_MEMBER_TAG = re.compile(r"^(str|int|float|bool|none|constrained-[a-z]+|[a-z-]+\[.*\])$", re.S)


#: Complaints about a value itself (its bounds, its finiteness, a check of the toolkit's), not about its type.
_TELLING = {"finite_number", "greater_than", "greater_than_equal", "less_than", "less_than_equal", "multiple_of",
            "value_error", "too_short", "too_long", "string_pattern_mismatch"}


def _problems(err: ValidationError, doc: str) -> list[tuple[str, str]]:
    """``(key path, problem)`` of each place a validation error names, once each: where a value fits no member
    of a union, pydantic reports every member's complaint under a location ending in the member's name; the
    member names are dropped, and the most telling complaint is kept (one about the value, e.g. "a finite
    number", over one about its type)."""
    errors = err.errors()
    locs = [tuple(e["loc"]) for e in errors]
    found: dict[str, tuple[int, str]] = {}
    for e, loc in zip(errors, locs):
        while loc and isinstance(loc[-1], str) and _MEMBER_TAG.match(loc[-1]) and \
                sum(other[:len(loc) - 1] == loc[:-1] for other in locs) > 1:
            loc = loc[:-1]
        path = key_path(loc) or "(top level)"
        rank = 0 if e["type"] in _TELLING else 1
        if path not in found or rank < found[path][0]:
            found[path] = (rank, _pydantic_problem(e, doc))
    return [(path, problem) for path, (_, problem) in found.items()]


def from_validation_error(err: ValidationError, file: str, doc: str,
                          error: type[DataFileError] = DataFileError) -> DataFileError:
    """Convert a pydantic validation error into ``error`` (first problem first); ``doc`` names the format's docs."""
    problems = _problems(err, doc)
    (path, problem), rest = problems[0], problems[1:]
    return error(file, path, problem, [f"{file}: {p}: {m}" for p, m in rest])


def from_yaml_error(err: yaml.YAMLError, file: str, error: type[DataFileError] = DataFileError) -> DataFileError:
    """Convert a YAML syntax error into ``error`` naming line and column."""
    mark = getattr(err, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    problem = getattr(err, "problem", None) or str(err)
    return error(file, where, f"YAML syntax error: {_short(str(problem))}")


def check_structure(data: Any, file: str, error: type[DataFileError] = DataFileError) -> None:
    """Refuse data nested more than :data:`MAX_YAML_DEPTH` deep, holding itself (a recursive alias), or whose
    aliases expand it by more than :data:`MAX_ALIAS_NODES` nodes -- walked iteratively, each distinct
    container once, so the check itself is linear in the document."""
    size: dict[int, int] = {}    # id(container) -> nodes when expanded (done)
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    distinct = 0
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        kids = node.values() if isinstance(node, dict) else node
        if done:
            on_path.discard(key)
            n, d = 1, 0
            for c in kids:
                if isinstance(c, (dict, list)):
                    n += size[id(c)]
                    d = max(d, depth[id(c)])
                else:
                    n += 1
            if isinstance(node, dict):
                n += len(node)  # the keys
            size[key], depth[key] = n, d + 1
            if d + 1 > MAX_YAML_DEPTH:
                raise error(file, "", _TOO_DEEP)
            if n - distinct > MAX_ALIAS_NODES:
                raise error(file, "", f"aliases expand the document by more than {MAX_ALIAS_NODES} nodes (limit): "
                                      "an alias bomb?")
            continue
        if key in size:
            continue
        if key in on_path:
            raise error(file, "", "a recursive alias (the document contains itself)")
        if len(on_path) > MAX_YAML_DEPTH:
            raise error(file, "", _TOO_DEEP)
        on_path.add(key)
        # what this container adds once, as its expanded size counts it: itself, its keys, its scalars
        distinct += 1 + (len(node) if isinstance(node, dict) else 0) + sum(
            not isinstance(c, (dict, list)) for c in kids)
        stack.append((node, True))
        for c in kids:
            if isinstance(c, (dict, list)) and id(c) not in size:
                stack.append((c, False))


_TOO_DEEP = f"the document is nested more than {MAX_YAML_DEPTH} levels deep (limit)"
_RESCAN_BYTES = 2 << 20  # the pure-Python parser reads ~0.6 MB/s: an error's rescan stays within a few seconds


def _nested_too_deep(raw: bytes, err: yaml.YAMLError) -> bool:
    """Whether the document's mappings and lists open more than :data:`MAX_YAML_DEPTH` deep before the point
    where the parser stopped with ``err``.

    Parsers have depth limits of their own and word them their own way (libyaml's, in some PyYAML versions, stops
    at 1,000 levels while it looks ahead, before it hands out a single event).  The pure-Python parser has none:
    its event stream, read up to the error's line (at most :data:`_RESCAN_BYTES`), passes depth 65 first, so the
    refusal reads the same whichever parser and version stopped.

    >>> bad = yaml.YAMLError()
    >>> _nested_too_deep(b"a: " + b"[" * 65 + b"]" * 65, bad), _nested_too_deep(b"a: [[]]", bad)
    (True, False)
    """
    mark = getattr(err, "problem_mark", None)
    upto = raw if mark is None else b"\n".join(raw.split(b"\n", mark.line + 1)[:mark.line + 1])
    depth = 0
    try:
        for event in yaml.parse(upto[:_RESCAN_BYTES], Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    return True
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except (yaml.YAMLError, RecursionError):
        pass
    return False


def count_nodes(raw: bytes, limit: int = MAX_YAML_NODES) -> int:
    """The nodes of a YAML document (scalars, lists and mappings; an alias counts none), counted from the
    parser's events, which are never kept -- stopping past ``limit``.  A document of ``limit`` bytes or fewer is
    not parsed (YAML spends at least a byte a node: ``{a,b}`` is five nodes) and counts as its length.

    >>> doc = b"a: [1, 2, {b: c}]"
    >>> count_nodes(doc, limit=10), count_nodes(doc, limit=5), count_nodes(doc, limit=100)
    (8, 6, 17)
    """
    if len(raw) <= limit:
        return len(raw)
    nodes = 0
    node_events = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)
    for event in yaml.parse(raw, Loader=safe_loader()):
        if isinstance(event, node_events):
            nodes += 1
            if nodes > limit:
                break
    return nodes


def parse_yaml(raw: bytes, file: str, error: type[DataFileError] = DataFileError) -> dict[str, Any]:
    """A YAML document that must be a mapping at the top level (limits: see the module doc)."""
    if len(raw) > MAX_YAML_BYTES:
        raise error(file, "", f"the file is {len(raw)} bytes, over the limit of {MAX_YAML_BYTES} for a data file")
    try:
        if count_nodes(raw) > MAX_YAML_NODES:
            raise error(file, "", f"the document holds more than {MAX_YAML_NODES:,} values (limit for a data "
                                  "file); split it, or write long lists more compactly")
        data = yaml.load(raw, Loader=safe_loader())
    except yaml.YAMLError as err:
        if _nested_too_deep(raw, err):  # the parser's own depth limit stopped first: the toolkit words it
            raise error(file, "", _TOO_DEEP) from None
        raise from_yaml_error(err, file, error) from None
    except RecursionError:
        raise error(file, "", _TOO_DEEP) from None
    if not isinstance(data, dict):
        raise error(file, "", f"expected a mapping of keys at the top level, got {type(data).__name__}")
    check_structure(data, file, error)
    return data


def read_regular(path: str | os.PathLike[str], file: str, error: type[DataFileError] = DataFileError,
                 limit: int = MAX_YAML_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (a FIFO, device or folder is refused, never opened
    for reading)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a FIFO, device or socket)"
            raise error(file, "", f"cannot read the file: it is {kind}")
        if st.st_size > limit:
            raise error(file, "", f"the file is {st.st_size} bytes, over the limit of {limit} for a data file")
        with open(path, "rb") as f:
            return f.read(limit + 1)
    except OSError as err:
        raise error(file, "", f"cannot read the file: {err.strerror}") from None


def read_yaml(path: str | os.PathLike[str], error: type[DataFileError] = DataFileError, *,
              optional: bool = False) -> dict[str, Any] | None:
    """A YAML data file on disk (a mapping at the top level), with every limit of :func:`read_regular` and
    :func:`parse_yaml`; ``optional``: None when nothing is there (a link to nowhere is refused, as is anything
    there that is not a regular file)."""
    if optional and not os.path.lexists(path):
        return None
    return parse_yaml(read_regular(path, str(path), error), str(path), error)


M = TypeVar("M", bound="BaseModel")


def safe_loader() -> type:
    """libyaml's safe loader when PyYAML has it (10x faster), else PyYAML's own."""
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml_model(path: str | Path, model: type[M], doc: str, error: type[DataFileError] = DataFileError) -> M:
    """Read a YAML file into ``model``; any problem raises ``error`` naming the file and key."""
    return yaml_model(read_regular(path, str(path), error), str(path), model, doc, error)


def yaml_model(raw: bytes, file: str, model: type[M], doc: str, error: type[DataFileError] = DataFileError) -> M:
    """YAML bytes (named ``file`` in errors, e.g. an upload) into ``model``, with :func:`parse_yaml`'s limits."""
    from pydantic import ValidationError

    try:
        return model.model_validate(parse_yaml(raw, file, error))
    except ValidationError as err:
        raise from_validation_error(err, file, doc, error) from None
    except RecursionError:
        raise error(file, "", "the document is nested too deeply") from None
