"""Untrusted archives and XML: every hostile input is refused with a clear error naming the file."""
from __future__ import annotations

import io
import stat
import struct
import zipfile
import zlib

import pytest

from toolkit.vassal.engine.safezip import ArchiveError, open_archive, parse_xml
from toolkit.vassal.saves.savefile import read_save


def _zip(path, entries, **kw):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            if isinstance(name, zipfile.ZipInfo):
                z.writestr(name, data)
            else:
                z.writestr(name, data)
    return path


def _refused(path, match, **limits):
    with pytest.raises(ArchiveError, match=match) as err:
        with open_archive(path, **limits) as arc:
            for name in arc.names():
                arc.read(name)
    assert str(path) in str(err.value)
    return err.value


def test_plain_archive_reads(tmp_path):
    p = _zip(tmp_path / "ok.vsav", [("savedGame", b"begin_save"), ("images/a.png", b"x" * 10)])
    with open_archive(p) as arc:
        assert arc.names() == ["savedGame", "images/a.png"]
        assert arc.read("savedGame") == b"begin_save"


def test_path_traversal_entry_refused(tmp_path):
    p = _zip(tmp_path / "trav.vmod", [("images/../../etc/passwd", b"root")])
    _refused(p, r"'\.\.'")


def test_absolute_path_refused(tmp_path):
    p = _zip(tmp_path / "abs.vmod", [("ok", b"")])
    # zipfile strips a leading '/', so write the name into the archive by hand
    raw = p.read_bytes().replace(b"ok", b"/x", 2)
    p.write_bytes(raw)
    _refused(p, "absolute")


@pytest.mark.parametrize("name, why", [("C:/windows/x", "drive letter"), ("images\\..\\x", "backslash")])
def test_drive_letters_and_backslashes_refused(tmp_path, name, why):
    p = tmp_path / "win.vmod"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr(zipfile.ZipInfo("a" * len(name)), b"")
    p.write_bytes(p.read_bytes().replace(b"a" * len(name), name.encode()))
    _refused(p, why)


def test_symlink_entry_refused(tmp_path):
    info = zipfile.ZipInfo("images/link.png")
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    p = _zip(tmp_path / "link.vmod", [(info, "/etc/passwd")])
    _refused(p, "symbolic link")


def test_too_many_entries_refused(tmp_path):
    p = _zip(tmp_path / "many.vmod", [(f"f{i}", b"") for i in range(50)])
    _refused(p, "50 entries, over the limit of 20", max_entries=20)


def test_declared_size_over_limit_refused(tmp_path):
    p = _zip(tmp_path / "big.vmod", [("big", b"\0" * 200_000)])
    _refused(p, "declares 200000 bytes", max_entry_bytes=100_000)


def _zip_bomb(path, actual: int, declared: int):
    """A one-entry zip whose headers declare ``declared`` bytes but whose data inflates to ``actual``."""
    data = b"\0" * actual
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = comp.compress(data) + comp.flush()
    crc = zlib.crc32(data[:declared])
    name = b"savedGame"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(body), declared, len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(body), declared,
                          len(name), 0, 0, 0, 0, 0, 0)
    cd_off = len(local) + len(name) + len(body)
    cd = central + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), cd_off, 0)
    path.write_bytes(local + name + body + cd + end)
    return path


def test_zip_bomb_refused(tmp_path):
    # declares 1 000 bytes, inflates to 50 MB: refused by counting, before it is all inflated
    p = _zip_bomb(tmp_path / "bomb.vsav", actual=50_000_000, declared=1000)
    with zipfile.ZipFile(p) as z:
        assert z.infolist()[0].file_size == 1000  # the lie
    _refused(p, "zip bomb|declares 1000")
    # and with the per-entry limit under the real size, the count alone refuses it
    with open_archive(p, max_entry_bytes=10_000) as arc:
        with pytest.raises(ArchiveError, match="bomb|declares"):
            arc.read("savedGame")
    with pytest.raises(ArchiveError):
        read_save(p)


def test_total_size_counted_while_reading(tmp_path):
    p = _zip(tmp_path / "sum.vmod", [(f"f{i}", b"\0" * 40_000) for i in range(5)])
    _refused(p, "in all", max_total_bytes=100_000)


def test_corrupt_zip_refused(tmp_path):
    p = tmp_path / "corrupt.vsav"
    p.write_bytes(b"PK\x03\x04 this is not really a zip file" * 3)
    _refused(p, "not a readable zip")
    good = _zip(tmp_path / "trunc.vsav", [("savedGame", b"x" * 5000)])
    raw = good.read_bytes()
    good.write_bytes(raw[:40] + b"\xff" * 30 + raw[70:])  # damaged data, intact directory
    _refused(good, "corrupt|declares|bomb")


def test_missing_file_refused(tmp_path):
    _refused(tmp_path / "nope.vsav", "no such file")


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<data>&lol4;</data>
"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE data [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<data><name>&xxe;</name></data>
"""


@pytest.mark.parametrize("doc", [BILLION_LAUGHS, XXE, b'<!DOCTYPE data SYSTEM "http://x/y.dtd"><data/>',
                                 BILLION_LAUGHS.decode().encode("utf-16")])
def test_xml_with_doctype_or_entities_refused(doc):
    with pytest.raises(ArchiveError, match="DOCTYPE|ENTITY") as err:
        parse_xml(doc, "mod.vmod: buildFile.xml")
    assert "buildFile.xml" in str(err.value)


def test_xml_ok_and_malformed():
    root = parse_xml(b"<data><name>x</name></data>", "moduledata")
    assert root.find("name").text == "x"
    with pytest.raises(ArchiveError, match="not well-formed"):
        parse_xml(b"<data><name>", "moduledata")


def test_save_with_hostile_savedata_refused(tmp_path):
    p = _zip(tmp_path / "evil.vsav", [("savedGame", b"begin_save"), ("savedata", BILLION_LAUGHS)])
    with pytest.raises(ArchiveError, match="savedata.*DOCTYPE|DOCTYPE"):
        read_save(p)


def test_opening_never_writes_next_to_input(tmp_path):
    p = _zip(tmp_path / "ok.vmod", [("a/b/c.txt", b"hi")])
    before = sorted(tmp_path.rglob("*"))
    with open_archive(p) as arc:
        arc.read("a/b/c.txt")
    with open_archive(io.BytesIO(p.read_bytes())) as arc:
        assert arc.read("a/b/c.txt") == b"hi"
    assert sorted(tmp_path.rglob("*")) == before
