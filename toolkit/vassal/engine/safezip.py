"""Reading untrusted VASSAL archives (``.vmod``, ``.vsav``) and their XML safely.

A module or a saved game can come from anyone, so nothing in it is trusted:

* :func:`open_archive` refuses entry names that could escape a folder
  (absolute, ``..``, drive letters, backslashes, NUL), symlink entries,
  encrypted entries, duplicate names, too many entries, and declared sizes over
  the limits; while reading it counts the bytes actually inflated, because a
  zip bomb lies about its sizes.  Nothing is ever extracted to disk.
* :func:`parse_xml` parses with entity resolution, DTD loading and network
  access off and refuses any ``DOCTYPE`` or ``ENTITY`` declaration.

Every refusal is an :class:`ArchiveError` naming the file and the problem.

>>> import io, zipfile
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w") as z:
...     z.writestr("moduledata", "<data/>")
>>> with open_archive(buf) as a:
...     a.read("moduledata")
b'<data/>'
"""
from __future__ import annotations

import os
import re
import stat
import struct
import zipfile
import zlib
from pathlib import Path
from typing import IO, Iterator

__all__ = ["ArchiveError", "SafeArchive", "open_archive", "parse_xml", "check_entry_name",
           "xml_fields", "MAX_ENTRIES", "MAX_TOTAL_BYTES", "MAX_ENTRY_BYTES"]

MAX_ENTRIES = 20_000
MAX_TOTAL_BYTES = 1 << 30        # 1 GiB inflated in all
MAX_ENTRY_BYTES = 256 << 20      # 256 MiB inflated per entry
_CHUNK = 1 << 16
_DRIVE = re.compile(r"^[A-Za-z]:")


class ArchiveError(ValueError):
    """An archive or XML document refused: ``source`` (file, entry) and ``problem``."""

    def __init__(self, source: object, problem: str):
        self.source = str(source)
        self.problem = problem
        super().__init__(f"{self.source}: {problem}")


def check_entry_name(name: str) -> str | None:
    """Why an entry name is unsafe, or ``None`` when it is a plain relative path."""
    if not name:
        return "empty entry name"
    if "\x00" in name:
        return "entry name contains a NUL character"
    if "\\" in name:
        return "entry name contains a backslash"
    if name.startswith("/"):
        return "absolute entry name"
    if _DRIVE.match(name):
        return "entry name starts with a drive letter"
    if any(part == ".." for part in name.split("/")):
        return "entry name contains '..'"
    return None


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    mode = info.external_attr >> 16
    return info.create_system == 3 and stat.S_ISLNK(mode)


class SafeArchive:
    """An open, checked archive; read entries with :meth:`read` (limits enforced while inflating)."""

    def __init__(self, zf: zipfile.ZipFile, name: str, max_total_bytes: int, max_entry_bytes: int):
        self._zf = zf
        self.name = name
        self.max_total_bytes = max_total_bytes
        self.max_entry_bytes = max_entry_bytes
        self._infos = {i.filename: i for i in zf.infolist()}
        self._read_total = 0

    def __enter__(self) -> "SafeArchive":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._zf.close()

    def names(self) -> list[str]:
        """Entry names, in archive order (directories included)."""
        return list(self._infos)

    def __contains__(self, name: object) -> bool:
        return name in self._infos

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def size(self, name: str) -> int:
        """The declared (uncompressed) size of an entry -- not to be trusted, see :meth:`read`."""
        return self._info(name).file_size

    def _info(self, name: str) -> zipfile.ZipInfo:
        try:
            return self._infos[name]
        except KeyError:
            raise ArchiveError(self.name, f"no entry {name!r} in the archive") from None

    def read(self, name: str, max_bytes: int | None = None) -> bytes:
        """The inflated bytes of an entry, refusing it once it exceeds a limit.

        ``max_bytes`` (optional) lowers the per-entry limit for this read.
        """
        info = self._info(name)
        limit = self.max_entry_bytes if max_bytes is None else min(max_bytes, self.max_entry_bytes)
        where = f"{self.name}: entry {name!r}"
        if info.file_size > limit:
            raise ArchiveError(where, f"declares {info.file_size} bytes, over the limit of {limit}")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise ArchiveError(where, f"compression method {info.compress_type} is not supported "
                                      "(VASSAL writes stored or deflated entries)")
        out = bytearray()
        total_left = self.max_total_bytes - self._read_total
        try:
            raw = self._raw_chunks(info)
            inflater = zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
            for chunk in raw:
                # inflate at most limit+1 bytes per step: the real size counts, not the declared one
                while chunk:
                    if inflater is None:
                        piece, chunk = chunk, b""
                    else:
                        piece = inflater.decompress(chunk, min(limit, info.file_size) + 2 - len(out))
                        chunk = inflater.unconsumed_tail
                    out += piece
                    if len(out) > info.file_size:
                        raise ArchiveError(where, f"inflates to more than the {info.file_size} bytes it declares: "
                                                  "a zip bomb or a corrupt archive")
                    if len(out) > limit:
                        raise ArchiveError(where, f"inflates to more than {limit} bytes "
                                                  f"(declares {info.file_size}): a zip bomb?")
                    if len(out) > total_left:
                        raise ArchiveError(where, f"the archive inflates to more than {self.max_total_bytes} "
                                                  "bytes in all: a zip bomb?")
                    if inflater is not None and inflater.eof:
                        break
            if inflater is not None:
                out += inflater.flush()
                if not inflater.eof:
                    raise ArchiveError(where, "corrupt entry: the deflate stream is truncated")
        except ArchiveError:
            raise
        except (zlib.error, EOFError, OSError, ValueError, struct.error) as err:
            raise ArchiveError(where, f"corrupt or unreadable entry ({err})") from None
        if len(out) != info.file_size:
            raise ArchiveError(where, f"inflates to {len(out)} bytes but declares {info.file_size}: "
                                      "a zip bomb or a corrupt archive")
        if zlib.crc32(out) != info.CRC:
            raise ArchiveError(where, "corrupt entry: CRC-32 mismatch")
        self._read_total += len(out)
        return bytes(out)

    def _raw_chunks(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        """The compressed bytes of an entry, straight from the file (local header skipped)."""
        fp = self._zf.fp
        if fp is None:
            raise ArchiveError(self.name, "the archive is closed")
        fp.seek(info.header_offset)
        head = fp.read(30)
        if len(head) != 30 or head[:4] != b"PK\x03\x04":
            raise ArchiveError(f"{self.name}: entry {info.filename!r}", "corrupt entry: bad local header")
        name_len, extra_len = struct.unpack("<HH", head[26:30])
        fp.seek(info.header_offset + 30 + name_len + extra_len)
        left = info.compress_size
        while left > 0:
            chunk = fp.read(min(_CHUNK, left))
            if not chunk:
                raise ArchiveError(f"{self.name}: entry {info.filename!r}", "corrupt entry: data truncated")
            left -= len(chunk)
            yield chunk

    def read_text(self, name: str, max_bytes: int | None = None) -> str:
        """An entry as UTF-8 text (an :class:`ArchiveError` if it is not)."""
        data = self.read(name, max_bytes)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ArchiveError(f"{self.name}: entry {name!r}", f"not UTF-8 text ({err})") from None


def open_archive(path: str | os.PathLike[str] | IO[bytes], max_entries: int = MAX_ENTRIES,
                 max_total_bytes: int = MAX_TOTAL_BYTES, max_entry_bytes: int = MAX_ENTRY_BYTES) -> SafeArchive:
    """Open and check a zip archive (a path or a binary file object); see the module doc for what is refused."""
    label = getattr(path, "name", None) if not isinstance(path, (str, os.PathLike)) else os.fspath(path)
    label = str(label or "<archive>")
    if isinstance(path, (str, os.PathLike)) and not Path(path).is_file():
        raise ArchiveError(label, "no such file")
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, NotImplementedError) as err:
        raise ArchiveError(label, f"not a readable zip archive ({err})") from None
    try:
        infos = zf.infolist()
        if len(infos) > max_entries:
            raise ArchiveError(label, f"{len(infos)} entries, over the limit of {max_entries}")
        seen: set[str] = set()
        total = 0
        for info in infos:
            problem = check_entry_name(info.filename)
            if problem:
                raise ArchiveError(label, f"{problem}: {info.filename!r}")
            if _is_symlink(info):
                raise ArchiveError(label, f"entry {info.filename!r} is a symbolic link")
            if info.flag_bits & 0x1:
                raise ArchiveError(label, f"entry {info.filename!r} is encrypted")
            if info.filename in seen:
                raise ArchiveError(label, f"duplicate entry {info.filename!r}")
            seen.add(info.filename)
            if info.file_size > max_entry_bytes:
                raise ArchiveError(label, f"entry {info.filename!r} declares {info.file_size} bytes, "
                                          f"over the limit of {max_entry_bytes}")
            total += info.file_size
            if total > max_total_bytes:
                raise ArchiveError(label, f"entries declare more than {max_total_bytes} bytes in all")
    except BaseException:
        zf.close()
        raise
    return SafeArchive(zf, label, max_total_bytes, max_entry_bytes)


def parse_xml(data: bytes, what: str):
    """Parse untrusted XML (``what`` names it in errors); refuses DOCTYPE and ENTITY declarations.

    Returns the root element (``lxml.etree._Element``).
    """
    from lxml import etree

    head = data[:1 << 16]
    for bad in (b"<!DOCTYPE", b"<!ENTITY", b"<\x00!\x00D\x00O\x00C", b"<\x00!\x00E\x00N\x00T"):
        if bad in head or bad in data:
            raise ArchiveError(what, "XML with a DOCTYPE or ENTITY declaration is refused "
                                     "(entity expansion and external entities are not allowed)")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             dtd_validation=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as err:
        raise ArchiveError(what, f"not well-formed XML ({err})") from None
    except ValueError as err:
        raise ArchiveError(what, f"unreadable XML ({err})") from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None or info.externalDTD is not None:
        raise ArchiveError(what, "XML with a DOCTYPE declaration is refused")
    for node in root.iter():
        if node.tag is etree.Entity:
            raise ArchiveError(what, "XML with entity references is refused")
    return root


def xml_fields(data: bytes, what: str) -> dict[str, str]:
    """The child elements of a flat ``<data>`` document (``moduledata``/``savedata``) as a dict."""
    root = parse_xml(data, what)
    return {str(child.tag): (child.text or "") for child in root if isinstance(child.tag, str)}

