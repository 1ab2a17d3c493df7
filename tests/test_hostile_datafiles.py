"""Every data file through one guard (issue 30): ``tables.yaml``, ``charts.yaml``, ``rule_topics.yaml``, the
scenarios the boxes board counts and the map files are read by :func:`toolkit.datafile.read_yaml` (or
``read_regular`` + ``parse_yaml``) with the limits, refusals and wording of positions and maps; YAML's work is
bounded by its nodes, not only by its bytes."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from test_hostile_support import ROOT, assert_refused, run
from toolkit.datafile import MAX_YAML_NODES, DataFileError, count_nodes, parse_yaml, read_yaml
from toolkit.game.module import GameDataError, load_game
from toolkit.vassal.build.charts import ChartsError, chart_pages

STEPPE = ROOT / "examples" / "steppe"


def bomb(levels: int = 9) -> str:
    """A "billion laughs" alias bomb of ``levels`` levels (10^levels scalars once expanded)."""
    out = "&a1 [" + ", ".join(["lol"] * 10) + "]"
    for i in range(2, levels + 1):
        out = f"&a{i} [{out}, " + ", ".join([f"*a{i - 1}"] * 9) + "]"
    return out


@pytest.fixture
def game(tmp_path) -> Path:
    """A fresh copy of examples/steppe."""
    shutil.copytree(STEPPE, tmp_path / "g")
    return tmp_path / "g"


# -- the node budget ---------------------------------------------------------------------------------------------

def test_nodes_are_counted_only_past_the_budget_in_bytes():
    doc = b"units: [{id: a, hex: '0101'}, {id: b}]"
    assert count_nodes(doc, limit=100) == len(doc)        # fewer bytes than the budget: not parsed
    assert count_nodes(doc, limit=5) == 6                 # counting stops past the budget
    assert count_nodes(doc, limit=12) == 11               # mapping, units, list, 2 mappings and their 3 pairs


def test_a_document_of_too_many_nodes_is_refused_before_it_is_built():
    # 16 MB of "0," (8 million nodes) ran 75 s into a MemoryError; now refused after half a million events.
    raw = b"game: jerusalem-1948\nx: [" + b"0," * 8_000_000 + b"0]\n"
    start = time.monotonic()
    with pytest.raises(DataFileError, match=f"more than {MAX_YAML_NODES:,} values"):
        parse_yaml(raw, "p.yaml")
    assert time.monotonic() - start < 10


def test_a_long_document_of_few_nodes_is_read():
    raw = b"game: g\nnote: '" + b"x" * (MAX_YAML_NODES * 2) + b"'\n"
    assert len(parse_yaml(raw, "p.yaml")["note"]) == MAX_YAML_NODES * 2


def test_check_refuses_a_16mb_position_quickly(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("game: jerusalem-1948\nx: [" + "0," * 8_000_000 + "0]\n")
    assert_refused(run(["check", str(path)], timeout=60), "p.yaml", "values (limit", limit=20)


# -- read_yaml ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_special_files_are_refused_never_opened(tmp_path, kind):
    path = tmp_path / "tables.yaml"
    {"fifo": lambda: os.mkfifo(path), "dev-zero": lambda: path.symlink_to("/dev/zero"),
     "folder": path.mkdir}[kind]()
    with pytest.raises(DataFileError, match="cannot read the file: it is"):
        read_yaml(path, optional=True)


def test_an_optional_file_that_is_not_there_is_none_a_dangling_link_refused(tmp_path):
    assert read_yaml(tmp_path / "none.yaml", optional=True) is None
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nowhere")
    with pytest.raises(DataFileError, match="cannot read the file"):
        read_yaml(tmp_path / "dangling.yaml", optional=True)


# -- charts.yaml and tables.yaml ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text, needle", [
    ("tables.yaml", "game: steppe\nbomb: " + bomb() + "\n", "alias bomb"),
    ("charts.yaml", "labels: " + bomb() + "\n", "alias bomb"),
    ("charts.yaml", "- a\n- b\n", "expected a mapping of keys at the top level, got list"),
    ("charts.yaml", "tabs:\n  - {tab: 5, charts: [{table: terrain}]}\n", "tabs[0].tab: input should be a valid string"),
    ("charts.yaml", "tabs:\n  - {tab: T, charts: [{table: terrain, cell: '{0.__class__}'}]}\n",
     "tabs[0].charts[0].cell: '{0.__class__}': write {} where the value goes"),
    ("charts.yaml", "tabs:\n  - {tab: T, charts: [{table: terrain, layout: sideways}]}\n",
     "tabs[0].charts[0].layout"),
    ("charts.yaml", "tabz: []\n", "tabz: unknown key"),
])
def test_charts_and_tables_files_are_refused_in_words(game, name, text, needle):
    (game / "tables.yaml").write_text("game: steppe\nterrain: {a: 1}\n")
    (game / name).write_text(text)
    with pytest.raises(ChartsError) as err:
        chart_pages(load_game(str(game)))
    assert str(game / name) in str(err.value) and needle in str(err.value)


@pytest.mark.parametrize("table, values, options, needle", [
    ("crt", "{1-1: [DR, DE], 2-1: DE}", ", layout: die", "each a list of one result per roll"),
    ("crt", "{1-1: [DR, DE]}", ", layout: die, rolls: [1, 2, 3]", "rolls name 3 rolls for 2 results"),
    ("units", "[{id: a}, 7]", "", "give every item as a mapping"),
])
def test_a_table_of_the_wrong_shape_for_its_chart_names_the_table(game, table, values, options, needle):
    (game / "tables.yaml").write_text(f"game: steppe\n{table}: {values}\n")
    (game / "charts.yaml").write_text(f"tabs:\n  - {{tab: T, charts: [{{table: {table}{options}}}]}}\n")
    with pytest.raises(ChartsError) as err:
        chart_pages(load_game(str(game)))
    assert f"tables.yaml: {table}: " in str(err.value) and needle in str(err.value)


@pytest.mark.parametrize("name", ["charts.yaml", "tables.yaml"])
def test_vmod_refuses_a_data_file_linked_to_dev_zero(game, name):
    path = game / name
    path.unlink(missing_ok=True)
    path.symlink_to("/dev/zero")
    assert_refused(run(["vmod", str(game), "-o", str(game.parent / "g.vmod")]), name, "not a regular file")
    assert not (game.parent / "g.vmod").exists()


def test_vmod_refuses_a_tables_fifo_without_blocking(game):
    os.mkfifo(game / "tables.yaml")
    assert_refused(run(["vmod", str(game), "-o", str(game.parent / "g.vmod")]), "tables.yaml", "FIFO")


# -- rule_topics.yaml --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, needle", [
    ("[1, 2, 3]\n", "expected a mapping of keys at the top level, got list"),
    ('"6.2": [a, b]\n', "6.2: expected a topic (a few words) for rule 6.2, got ['a', 'b']"),
    ("x: " + bomb() + "\n", "alias bomb"),
])
def test_rule_topics_are_read_through_the_guard(game, text, needle):
    (game / "rule_topics.yaml").write_text(text)
    with pytest.raises(GameDataError) as err:
        load_game(str(game)).rule_topics
    assert str(game / "rule_topics.yaml") in str(err.value) and needle in str(err.value)


def test_rule_topics_over_the_cited_ones(game):
    (game / "rule_topics.yaml").write_text('"6.2": terrain costs\n')
    topics = load_game(str(game)).rule_topics
    assert topics["6.2"] == "terrain costs" and topics["7.1"] == "ZOC: enter"
