"""The real-VASSAL driver (``tests/engine/engine.py``), loaded once for every test module that uses it."""
import importlib.util
import sys
from pathlib import Path

_ENGINE_PY = Path(__file__).resolve().parent / "engine" / "engine.py"
_NAME = "toolkit_tests_vassal_engine"

if _NAME in sys.modules:
    vengine = sys.modules[_NAME]
else:
    _spec = importlib.util.spec_from_file_location(_NAME, _ENGINE_PY)
    vengine = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = vengine
    _spec.loader.exec_module(vengine)
