"""Issue 11: mutation fuzzing of valid saves and positions (hypothesis, fixed seed).

Only the toolkit's own errors escape the readers; no run takes over 5 s; a save file over 64 KB never decodes
to more than 128 times its size (the 8 MiB cap on the decoded text, docs/vassal.md "Limits").
"""
from __future__ import annotations

import io
import time
import zipfile

import pytest
import yaml
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from test_hostile_support import ESC, SCENARIO, save_bytes, valid_save
from toolkit.game import GameDataError
from toolkit.vassal.engine.safezip import ArchiveError
from toolkit.vassal.saves.savefile import MAX_SAVED_GAME_BYTES, SaveError

OWN_ERRORS = (ArchiveError, SaveError, GameDataError)
RUN_LIMIT = 5.0
DECODE_MULTIPLE = 128  # a save over 64 KB decodes to at most this many times its size

GOOD_BYTES, GOOD_TEXT = valid_save()
POSITION_TEXT = SCENARIO.read_text()
TOKENS = [ESC, "\t", "/", ";", ",", "\\", "'", "+/", "begin_save", "end_save", "BoardPicker", "99999999999", "-1",
          "null", "stack", "\x00", "\\\\\\", "\u00e9", "@@", "\\\t"]


def _mutate_text(text: str, data) -> str:
    ops = data.draw(st.lists(st.tuples(st.sampled_from(["insert", "delete", "repeat", "swap"]),
                                       st.integers(0, len(text)), st.integers(1, 400), st.sampled_from(TOKENS)),
                             min_size=1, max_size=6))
    for op, at, n, tok in ops:
        at = min(at, len(text))
        if op == "insert":
            text = text[:at] + tok * (n % 50 + 1) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + n:]
        elif op == "repeat":
            text = text[:at] + text[at:at + n] * (n % 300 + 1) + text[at + n:]
        else:
            cut = min(len(text), at + n)
            text = text[cut:] + text[at:cut] + text[:at]
    return text


def _read_position(path):
    from toolkit.vassal.saves.positions import read_position_save
    from toolkit.game import position_from_file

    pf, _ = read_position_save(path)
    return position_from_file(pf, str(path))


def _timed(fn, *args):
    start = time.monotonic()
    try:
        fn(*args)
    except OWN_ERRORS:
        pass
    elapsed = time.monotonic() - start
    assert elapsed < RUN_LIMIT, elapsed


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                derandomize=True)


@seed(11)
@FUZZ
@given(st.data())
def test_mutated_save_texts(tmp_path_factory, data):
    text = _mutate_text(GOOD_TEXT, data)
    p = tmp_path_factory.mktemp("fz") / "f.vsav"
    p.write_bytes(save_bytes(text, key=data.draw(st.integers(0, 255))))
    _timed(_read_position, p)
    _check_multiple(p)


@seed(12)
@FUZZ
@given(st.data())
def test_mutated_save_archives(tmp_path_factory, data):
    raw = bytearray(GOOD_BYTES)
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        kind = data.draw(st.sampled_from(["flip", "zero", "cut", "dup"]))
        if kind == "flip":
            raw[at] ^= data.draw(st.integers(1, 255))
        elif kind == "zero":
            raw[at:at + 16] = b"\0" * len(raw[at:at + 16])
        elif kind == "cut":
            del raw[at:at + data.draw(st.integers(1, 200))]
        else:
            raw[at:at] = raw[at:at + 64]
        if not raw:
            raw = bytearray(b"PK")
    p = tmp_path_factory.mktemp("fz") / "f.vsav"
    p.write_bytes(bytes(raw))
    _timed(_read_position, p)


@seed(13)
@FUZZ
@given(st.data())
def test_mutated_positions(tmp_path_factory, data):
    from toolkit.games import load_game_position

    text = _mutate_text(POSITION_TEXT, data)
    text = text.replace(ESC, "*").replace("\\", "&")  # YAML-level tokens too: anchors and aliases
    p = tmp_path_factory.mktemp("fz") / "p.yaml"
    p.write_text(text)
    _timed(load_game_position, p)


def _check_multiple(path) -> None:
    size = path.stat().st_size
    if size <= 64 * 1024:
        return
    from toolkit.vassal.saves.savefile import read_save

    try:
        save = read_save(path)
    except OWN_ERRORS:
        return
    decoded = sum(len(c) for c in save.commands)
    assert decoded <= DECODE_MULTIPLE * size, (decoded, size)


def test_large_saves_decode_within_the_documented_multiple(tmp_path):
    # repetition compresses well: the largest a file over 64 KB can decode to is the text cap
    assert MAX_SAVED_GAME_BYTES <= DECODE_MULTIPLE * 64 * 1024
    piece = GOOD_TEXT.split(ESC)[3]
    for n in (100, 1000, 7000, 20_000):
        text = ESC.join(["begin_save", *[piece] * n, "end_save"])
        p = tmp_path / f"r{n}.vsav"
        p.write_bytes(save_bytes(text))
        start = time.monotonic()
        _check_multiple(p)
        try:
            from toolkit.vassal.saves.savefile import read_save
            read_save(p)
        except OWN_ERRORS:
            pass
        assert time.monotonic() - start < 2 * RUN_LIMIT


def test_fuzz_inputs_use_real_saves():
    with zipfile.ZipFile(io.BytesIO(GOOD_BYTES)) as z:
        assert "savedGame" in z.namelist()
    assert yaml.safe_load(POSITION_TEXT)["units"]
    assert GOOD_TEXT.startswith("begin_save")
