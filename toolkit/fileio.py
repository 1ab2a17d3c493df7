"""Writing files safely: never leave a half-written or corrupted file behind, never replace what is not a file.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "sub" / "out.txt"
>>> write_atomic(p, "hello") == p and p.read_text()
'hello'

* The content goes to a temporary file beside the target, named
  ``.<name>.toolkit-<pid>.tmp``, which then replaces the target in one step.
  On any exception -- ``KeyboardInterrupt`` and the ``SystemExit`` that the
  command raises on SIGTERM included -- the temporary file is removed; one
  left by a killed run (its process gone) is removed by the next write to the
  same target.
* :func:`check_output` refuses, with an :class:`OutputError` naming the path:
  an empty name, a folder, an existing target that is not a regular file
  (a device such as ``/dev/null``, a FIFO, a socket, or a symbolic link to
  one), a name too long for the file system, a parent that is a file.  A
  symbolic link to a regular file is written through (the link stays).
* ``-`` as the path writes to standard output instead.
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO, Callable

from .lazy import lazy_module

# Needed by a write only: checking the paths of a command loads none of them (issue 31).
secrets, shutil, tempfile = lazy_module("secrets"), lazy_module("shutil"), lazy_module("tempfile")

__all__ = ["OutputError", "STDOUT", "check_output", "check_input", "temporary_folder", "write_atomic"]

STDOUT = "-"
_TMP_TAG = ".toolkit-"


class OutputError(ValueError):
    """An output path the toolkit refuses to write (one line: the path and why)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output(path: str | os.PathLike[str]) -> Path:
    """The path a write to ``path`` would replace (symbolic links to regular files followed), or an
    :class:`OutputError` saying why it may not be written."""
    text = os.fspath(path)
    if text == "":
        raise OutputError("the output path is empty; give a file name")
    if "\x00" in text:
        raise OutputError(f"{text!r}: the output path contains a NUL character")
    target = Path(text)
    if text.endswith(("/", os.sep)) or target.name in ("", ".", ".."):
        raise OutputError(f"{text}: is a folder; give a file name inside it")
    max_name = 255
    try:
        max_name = os.pathconf(target.parent if target.parent.is_dir() else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        pass
    if len(target.name.encode("utf-8", "surrogateescape")) > max_name - 30:  # room for the temporary name
        raise OutputError(f"{text[:60]}…: the file name is {len(target.name)} characters, too long "
                          f"(at most {max_name - 30})")
    try:
        st = os.stat(target)  # follows symbolic links
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputError(f"{text}: a part of the path is a file, not a folder") from None
    except OSError as err:
        raise OutputError(f"{text}: cannot write there ({err.strerror})") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{text}: is a folder; give a file name inside it")
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"{text}: is not a regular file (a device, FIFO or socket); the toolkit only "
                              "replaces regular files (use '-o -' for standard output where a command allows it)")
        if target.is_symlink():
            target = Path(os.path.realpath(target))
    elif os.path.lexists(target):  # a dangling symbolic link
        raise OutputError(f"{text}: is a symbolic link to nothing; remove it or choose another name")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise OutputError(f"{text}: {parent} is a file, not a folder")
            break
    return target


def check_input(path: str | os.PathLike[str]) -> None:
    """Refuse an input that exists but is not a regular file (a FIFO would block forever, a device never ends)."""
    try:
        st = os.stat(path)
    except OSError:
        return  # missing or unreadable: the reader says so
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{os.fspath(path)}: is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(f"{os.fspath(path)}: is not a regular file (a FIFO, device or socket); refusing to read it")


def _remove_stale(target: Path, tag: str = _TMP_TAG) -> None:
    """Remove temporary files (and folders) of earlier writes to ``target`` whose process is gone."""
    prefix = f".{target.name}{tag}"
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    for e in entries:
        if not (e.name.startswith(prefix) and e.name.endswith(".tmp")):
            continue
        pid = e.name[len(prefix):].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except OSError:
            continue
        try:
            shutil.rmtree(e.path) if e.is_dir(follow_symlinks=False) else os.unlink(e.path)
        except OSError:
            pass


def temporary_folder(target: Path, tag: str) -> Path:
    """A new folder beside ``target``, ``.<name><tag><pid>.<random>.tmp``, made with the usual permissions
    (0777 less the umask); the folders of earlier runs whose process is gone are removed first."""
    _remove_stale(target, tag)
    while True:
        path = target.parent / f".{target.name}{tag}{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            os.mkdir(path)
            return path
        except FileExistsError:
            continue


def write_atomic(path: str | os.PathLike[str], data: str | bytes | Callable[[BinaryIO], None]) -> Path:
    """Write ``data`` (text as UTF-8, bytes, or a callable given the open binary file) to ``path``.

    The content goes to a temporary file in the same directory, which then
    replaces ``path`` in one step; missing parent directories are created.  A
    new file gets the usual permissions (0666 less the umask); a replaced file
    keeps its own.  ``-`` writes to standard output.  Returns the path.
    Refusals (see :func:`check_output`) raise :class:`OutputError`; other
    failures the ``OSError``.
    """
    if os.fspath(path) == STDOUT:
        out = sys.stdout.buffer
        if callable(data):
            data(out)
        else:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        out.flush()
        return Path(STDOUT)
    target = check_output(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{os.fspath(path)}: a part of the path is a file, not a folder") from None
    _remove_stale(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}{_TMP_TAG}{os.getpid()}.", suffix=".tmp")
    try:
        f = os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    try:
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        with f:
            if callable(data):
                data(f)
            else:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return Path(path)
