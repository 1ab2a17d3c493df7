"""A package's names imported on first use, so a command loads only what it runs (issue 31).

A package whose ``__init__`` imported every module (numpy, networkx, shapely, pydantic models) made even
``toolkit --version`` pay for all of them; with :func:`lazy_exports` it names where each public name lives and
imports that module when the name is first asked for (``from toolkit.mapdata import CompiledMap``); a module
needed by a few functions only (networkx) is a :func:`lazy_module`.
"""
from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any, Callable, Mapping, Sequence


def lazy_exports(package: str, homes: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """The module ``__getattr__`` (PEP 562) of ``package``: ``homes`` maps each module (relative, ``.cache``) to
    the names it exports; a name is imported from its module on first use and kept in the package."""
    where = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value
    return __getattr__


class LazyModule(ModuleType):
    """A stand-in for a module, imported on the first use of one of its attributes (``nx = lazy_module(
    "networkx")`` where ``import networkx as nx`` stood): thread-safe, as :func:`importlib.import_module` is."""

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)   # later lookups find the attributes directly
        return getattr(module, attr)


def lazy_module(name: str) -> ModuleType:
    """The module ``name`` if it is imported already, else a :class:`LazyModule` for it."""
    return sys.modules.get(name) or LazyModule(name)
