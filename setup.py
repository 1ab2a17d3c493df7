"""The build's one step beyond pyproject.toml: the wheel carries the bundled maps and games.

The repository keeps them at its top level; a regular install would not see them there, so the build copies
the files ``MANIFEST.in`` lists under ``maps/`` and ``modules/`` into the package as ``toolkit/data/`` (where
:mod:`toolkit.bundled` looks first).  An editable install reads the checkout's own folders instead.
"""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUNDLED = ("maps", "modules")


class BuildPyWithBundled(build_py):
    """``build_py`` that also copies the bundled maps and games into ``toolkit/data/`` of the build."""

    def run(self):
        """Build the package, then copy the bundled data beside it (not for an editable install)."""
        super().run()
        if self.editable_mode:
            return
        for source in self.bundled_files():
            target = Path(self.build_lib, "toolkit", "data", source)
            self.mkpath(str(target.parent))
            self.copy_file(str(source), str(target))

    def bundled_files(self):
        """The files of ``maps/`` and ``modules/`` in the source list that ``MANIFEST.in`` makes."""
        self.run_command("egg_info")
        files = (Path(f) for f in self.get_finalized_command("egg_info").filelist.files)
        return sorted(f for f in files if f.parts[0] in BUNDLED)


setup(cmdclass={"build_py": BuildPyWithBundled})
