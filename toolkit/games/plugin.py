"""A rules plugin's calculators (docs/plugins.md), loaded so that its failures name it.

A plugin is another package's code, trusted to run (docs/plugins.md), but its bugs are not the toolkit's: one
that fails to import, or a calculator that raises anything but a refusal (``ValueError``, the toolkit's way of
saying "the input is refused, by this rule"), is refused as :class:`PluginError` naming the package, the entry
point and what failed -- one line, no traceback -- and every other game goes on working.  The toolkit's own
games, declared the same way, are the toolkit's code: their bugs stay bugs (a traceback to report).
"""
from __future__ import annotations

import functools
import inspect
from importlib.metadata import EntryPoint
from typing import Any, Callable

OWN_PACKAGE = "toolkit"


class PluginError(ValueError):
    """A rules plugin failed to load, or one of its calculators failed."""


def plugin_name(ep: EntryPoint) -> str:
    """How messages name a plugin: its distribution (package) and the module the entry point loads."""
    dist = getattr(ep, "dist", None)
    package = f"package {dist.name!r}, " if dist is not None and getattr(dist, "name", None) else ""
    return f"the rules plugin for {ep.name!r} ({package}{ep.value})"


def calculators(ep: EntryPoint) -> dict[str, Any]:
    """The plugin's calculators: the names of its ``__all__`` when it has one (so that what a plugin module
    imports, a submodule named ``combat`` say, never hides a calculator of the data), else every public name;
    another package's functions guarded (:func:`guarded`).  :class:`PluginError` when it cannot be loaded."""
    try:
        obj = ep.load()
        names = getattr(obj, "__all__", None) or [k for k in dir(obj) if not k.startswith("_")]
        found = {k: getattr(obj, k) for k in names}
    except Exception as err:   # noqa: BLE001 -- whatever another package's import raises, named as its failure
        raise PluginError(f"{plugin_name(ep)} failed to load: {type(err).__name__}: {err}; fix or uninstall that "
                          "package (docs/plugins.md)") from err
    if _package(ep.value) == OWN_PACKAGE:
        return found
    return {k: guarded(v, k, plugin_name(ep)) if inspect.isroutine(v) else v for k, v in found.items()}


def guarded(fn: Callable[..., Any], name: str, who: str) -> Callable[..., Any]:
    """``fn`` whose failures other than a refusal (``ValueError``) are raised as :class:`PluginError` naming
    ``who`` and the calculator ``name``."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ValueError:
            raise
        except Exception as err:   # noqa: BLE001 -- another package's bug, named as its failure
            raise PluginError(f"{who}: {name} failed: {type(err).__name__}: {err}; report it to that package's "
                              "authors (docs/plugins.md)") from err
    return call


def _package(name: str) -> str:
    """The top-level package of a module or entry-point value (``toolkit.games.jerusalem:x`` -> ``toolkit``)."""
    return name.split(":")[0].split(".")[0]


def is_own(calculator: Any) -> bool:
    """Whether a calculator is the toolkit's own code (a bundled game's, or built from ``rules.yaml``), not a
    plugin's."""
    return calculator is not None and _package(getattr(calculator, "__module__", None) or "") == OWN_PACKAGE
