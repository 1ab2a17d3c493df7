"""``toolkit import-vmod`` on modules built to make it work without end (issue 20): element counts, hexes and
numbers bounded before the work, zones found through a spatial index, each map compiled once, and the
temporary folder never shown, never left, never replacing the mode of the user's folder."""
from __future__ import annotations

import os
import stat

import pytest

import vassal_modules as vm
from test_hostile_support import assert_refused, listing, run
from toolkit.cli import main
from toolkit.vassal.published import importer
from toolkit.vassal.engine import vgrid
from toolkit.vassal.published.importer import import_module

NUMBERING = ('first="H" hLeading="1" hOff="1" hType="N" hDescend="false" locationFormat="$gridLocation$" sep="" '
             'stagger="false" vDescend="false" vLeading="1" vOff="1" vType="N"')


def _module(tmp_path, maps: str = "", extra: str = "", name: str = "m.vmod"):
    maps = maps or vm.game_map("Main Map", vm.board("B", None, vm.hexgrid(40.0, 46.0, 24, 26, NUMBERING), (500, 400)))
    return vm.write_vmod(tmp_path / name, (vm.module_xml("M", maps, extra), vm.PIECE_IMAGES))


def _zoned_board(zones: int, y: int = 5000) -> str:
    """A 10,000-hex board whose ZonedGrid holds ``zones`` one-pixel zones (at ``y``)."""
    z = "".join(vm.zone(f"z{i}", (i % 1900, y, 1, 1)) for i in range(zones))
    grid = f"<{vm.G}ZonedGrid>{z}{vm.hexgrid(20.0, 20.0, 0, 0, NUMBERING)}</{vm.G}ZonedGrid>"
    return vm.game_map("Main Map", vm.board("B", None, grid, (2000, 2000)))


def _refused(tmp_path, vmod, *needles):
    r = run(["import-vmod", str(vmod), "-o", str(tmp_path / "g")], timeout=60)
    assert_refused(r, str(vmod), *needles)
    assert not os.path.lexists(tmp_path / "g")
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".g.")]


def _grid(dx="40.0", x0="24") -> str:
    return vm.hexgrid(40.0, 46.0, 24, 26, NUMBERING).replace('dx="40.0"', f'dx="{dx}"').replace('x0="24"',
                                                                                              f'x0="{x0}"')


def _sized(width, height=400, **grid) -> str:
    return vm.game_map("Main Map", vm.board("B", None, _grid(**grid), (500, height))).replace(
        'width="500"', f'width="{width}"')


@pytest.mark.parametrize("maps, extra, needles", [
    (_zoned_board(20_000), "", ("20,000 zones", "5,000")),
    ("".join(vm.game_map(f"M{i}", vm.board(f"b{i}", None, _grid(), (200, 200))) for i in range(5000)), "",
     ("5,000 maps", "limit of 100")),
    ("", "".join(vm.slot(f"p{i}", str(i), "piece;;;a.png;P", "null;0;0;1;0") for i in range(30_000)),
     ("30,002 piece slots", "20,000")),
    (vm.game_map("Main Map", vm.board("B", None, vm.hexgrid(1.0, 1.1, 0, 0, NUMBERING), (1000, 1000))), "",
     ("hexes", "250,000")),
], ids=["zones", "maps", "piece-slots", "hexes"])
def test_counts_refused_before_the_work(tmp_path, maps, extra, needles):
    _refused(tmp_path, _module(tmp_path, maps, extra), *needles, "limit")


@pytest.mark.parametrize("maps, needles", [
    (_sized("9" * 4000), ("width", "limit")),
    (_sized(500, x0="-" + "9" * 4000), ("x0", "limit")),
    (_sized(10**5, 10**5), ("width and height", "pixels")),
    (_sized(500, dx="1e-300"), ("dx", "1e-300")),
], ids=["width-digits", "x0-digits", "board-pixels", "spacing"])
def test_absurd_numbers_refused_naming_the_attribute(tmp_path, maps, needles):
    _refused(tmp_path, _module(tmp_path, maps), *needles)


def test_zones_are_found_through_a_spatial_index(monkeypatch):
    zones = tuple(vgrid.Zone(f"z{i}", ((i, 0), (i + 1, 0), (i + 1, 1), (i, 1))) for i in range(5000))
    grid = vgrid.ZonedGrid(zones, None)
    tests = []
    real = vgrid.polygon_contains
    monkeypatch.setattr(vgrid, "polygon_contains", lambda pts, x, y: tests.append(1) or real(pts, x, y))
    assert grid.zone_at(100, 0).name == "z100" and grid.zone_at(3000, 500) is None
    assert len(tests) <= 4   # the candidates whose bounding box holds the point, not every zone


def test_each_map_is_compiled_once(tmp_path, monkeypatch):
    compiled = []
    real = importer.compile_map
    monkeypatch.setattr(importer, "compile_map", lambda p: compiled.append(os.path.basename(p)) or real(p))
    report = import_module(vm.write_vmod(tmp_path / "m.vmod", vm.two_boards()), tmp_path / "g")
    assert sorted(compiled) == sorted(report.hexes) and len(compiled) == len(set(compiled)) >= 2


def test_a_dangling_symlink_output_refused_and_nothing_made_outside(tmp_path):
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "g").symlink_to("../elsewhere/deep")
    vmod = _module(tmp_path / "w")
    assert_refused(run(["import-vmod", str(vmod), "-o", str(tmp_path / "w" / "g")]), "symbolic link")
    assert sorted(os.listdir(tmp_path)) == ["w"] and listing(tmp_path / "w") == ["g", "m.vmod"]


def test_the_folder_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path):
    vmod = _module(tmp_path)
    (tmp_path / "g").mkdir()
    os.chmod(tmp_path / "g", 0o750)
    assert main(["import-vmod", str(vmod), "-o", str(tmp_path / "g")]) == 0
    assert stat.S_IMODE((tmp_path / "g").stat().st_mode) == 0o750
    old = os.umask(0o022)
    try:
        assert main(["import-vmod", str(vmod), "-o", str(tmp_path / "new")]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o755


def test_a_killed_imports_temporary_folder_is_removed_by_the_next(tmp_path):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)   # a process id that is gone
    stale = tmp_path / f".g{importer.TMP_TAG}{pid}.abcd.tmp"
    (stale / "images").mkdir(parents=True)
    mine = tmp_path / f".g{importer.TMP_TAG}{os.getppid()}.abcd.tmp"   # a live process's: left alone
    mine.mkdir()
    assert main(["import-vmod", str(_module(tmp_path)), "-o", str(tmp_path / "g")]) == 0
    assert not stale.exists() and mine.exists()


def test_a_game_that_would_not_load_names_the_module_not_the_temporary_folder(tmp_path, monkeypatch):
    from toolkit.game.module import GameDataError

    def fail(folder):
        raise GameDataError(os.path.join(folder, "map.yaml"), "grid", "broken")
    monkeypatch.setattr(importer, "load_game", fail)
    vmod = _module(tmp_path)
    with pytest.raises(importer.ScaffoldError) as err:
        import_module(vmod, tmp_path / "g")
    assert str(vmod) in str(err.value) and ".tmp" not in str(err.value) and "map.yaml" in str(err.value)
