"""`toolkit los MAP --from HEX --all` and `toolkit seen MAP HEX` (issue 12): the same verdicts as pair by pair."""
from __future__ import annotations

import json

import pytest

from toolkit.cli import main


def run(capsys, *argv: str) -> tuple[int, dict | str]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, (json.loads(out) if "--json" in argv else out)


@pytest.mark.parametrize("convention", ["touch", "cross", "both-sides"])
def test_all_from_a_hex_agrees_with_each_pair(capsys, convention):
    _, every = run(capsys, "los", "example", "--from", "Nebi Samuel", "--all", "--json", "--convention", convention)
    assert every["count"] == len(every["visible"]) and every["count"] + len(every["hidden"]) == every["of"]
    for target in every["visible"][::7] + every["hidden"][::7]:
        _, pair = run(capsys, "los", "example", "Nebi Samuel", target, "--json", "--convention", convention)
        assert pair["visible"] is (target in every["visible"]), target


def test_seen_is_all_from_under_a_symmetric_convention(capsys):
    _, sees = run(capsys, "los", "example", "0505", "--all", "--json")  # `los MAP HEX --all` = --from HEX
    _, seen = run(capsys, "seen", "example", "0505", "--json")
    assert sees["from"] == seen["to"] == "0505" and sees["visible"] == seen["visible"]


def test_all_draws_a_picture(capsys, tmp_path):
    code, _ = run(capsys, "seen", "example", "0505", "--svg", str(tmp_path / "seen.png"))
    assert code in (0, None) and (tmp_path / "seen.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_all_needs_one_hex(capsys):
    assert main(["los", "example", "--all"]) == 2
    assert "--from HEX --all" in capsys.readouterr().err
