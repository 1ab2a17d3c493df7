"""The Charts window: tables.yaml drawn as charts a player reads, in the words of the game's charts.yaml."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from toolkit.game.module import load_game
from toolkit.vassal.build.charts import (ANCHOR_PX, SCROLLBAR_PX, TOP_ANCHOR, ChartsError, Words, chart_pages,
                                        charts_from_tables, grid_of, mp, reconstruction_line)

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["jerusalem-1948", "no-prisoners", "siege-of-jerusalem"]


def _text(html: bytes) -> str:
    return re.sub(r"<[^>]+>", " ", html.decode())


def test_half_points_read_as_mp():
    assert [mp(v) for v in (0, 1, 2, 3, 4, 6, 8)] == ["0", "½", "1", "1½", "2", "3", "4"]


@pytest.mark.parametrize("game", GAMES)
def test_every_heading_and_label_is_in_words(game):
    """No snake_case key, no 'reconstructed: True', no source note on any chart; every tab named short."""
    pages = chart_pages(load_game(game))
    assert 5 <= len(pages) <= 8 and all(len(tab) <= 12 for tab in pages), list(pages)
    for tab, html in pages.items():
        heads = re.findall(r"<th[^>]*>([^<]*)</th>|<h3>([^<]*)", html.decode())
        for text in (a or b for a, b in heads):
            assert not re.search(r"[a-z]+_[a-z]+", text), (tab, text)
        assert "True" not in _text(html) and "half_mp" not in _text(html), tab


def test_jerusalem_crt_reads_as_a_chart():
    """Odds across, what the number means in the row heading, a null column reads 'any roll', with its rule."""
    html = chart_pages(load_game("jerusalem-1948"))["Combat"].decode()
    assert "Combat results table <font size=\"-1\">(rule 9.4)</font>" in html
    assert '<th align="left" bgcolor="#eeeeee">Target eliminated on a modified roll of</th>' in html
    assert '<td align="center">1 or less</td>' in html and '<td align="center">any roll</td>' in html
    assert '<th bgcolor="#d8d8d8">10-1</th>' in html


def test_jerusalem_movement_costs_in_mp():
    """Costs stored in half points are shown in MP: clear 4 -> 2, primary road uphill 3 -> 1½."""
    html = chart_pages(load_game("jerusalem-1948"))["Movement"].decode()
    assert '<th align="left" bgcolor="#eeeeee">Clear hex</th><td align="center">2</td>' in html
    assert '<th align="left" bgcolor="#eeeeee">Primary road</th><td align="center">½</td><td align="center">1½</td>' in html


def test_die_tables_have_die_rows_and_code_meanings():
    html = chart_pages(load_game("no-prisoners"))["Combat"].decode()
    assert '<th bgcolor="#d8d8d8">Die</th><th bgcolor="#d8d8d8">1-2</th>' in html
    assert '<tr><th align="left" bgcolor="#eeeeee">6</th><td align="center">DR</td>' in html
    assert "DR2: defender retreats 2" in html and "BH: both lose half" in html
    siege = chart_pages(load_game("siege-of-jerusalem"))["Melee"].decode()
    assert ">0 or less</th>" in siege and ">9 or more</th>" in siege and "DE: one disrupted and one eliminated" in siege


def test_reconstruction_in_one_line():
    """A wholly reconstructed table says so once; a partly reconstructed one names its rows once."""
    words = Words({"desert": "Desert"}, {})
    chain = [{}, {"reconstructed": ["desert", "city"], "terrain": {}}]
    assert reconstruction_line({"clear": 2, "desert": 3}, chain, "movement.terrain", words) == \
        "Reconstructed (not printed in the rulebook; our values): Desert."
    assert reconstruction_line({"a": 1, "reconstructed": True}, [{}], "x", words).startswith("Reconstruction:")
    html = chart_pages(load_game("no-prisoners"))["Combat"].decode()
    assert html.count("Reconstruction:") == 2   # RCRT and MOCRT: one line each, no per-cell mark


def test_labels_are_data_per_chart_first():
    words = Words({"none": "No result"}, {})
    grid = grid_of({"a": {"none": 4}}, words, {"unit": "half_mp"})
    assert grid.head == ["", "No result"] and grid.rows == [["A", "2"]]


def test_every_page_as_wide_as_the_window():
    """VASSAL sizes the window to the first page: every page has one width, within bounds, the first 16 px wider
    (room for a longer page's scrollbar); wider tables wrap."""
    for game in GAMES:
        widths = [int(re.search(rb'width="(\d+)"', html).group(1)) for html in chart_pages(load_game(game)).values()]
        assert len(set(widths[1:])) == 1 and widths[0] == widths[1] + SCROLLBAR_PX, (game, widths)
        assert 560 <= widths[1] <= 820, game
    assert b'cellpadding="4" width="100%"' in chart_pages(load_game("jerusalem-1948"))["Modifiers"]


def test_every_page_ends_at_its_top():
    """Issue 35: the engine scrolls a chart to the end of its text when it opens; the last text of every page is
    a narrow cell at the top right, so each tab opens at its top."""
    for game in GAMES:
        for tab, html in chart_pages(load_game(game)).items():
            assert html.endswith(f'<td valign="top" width="{ANCHOR_PX}">{TOP_ANCHOR}</td></tr></table>'
                                 "</body></html>".encode()) or tab == next(iter(chart_pages(load_game(game)))), tab


def test_a_table_too_wide_even_wrapped_is_turned_on_its_side():
    """The Siege's stacking limits (rule 6), a column per terrain, would lose its last columns at the window's
    edge: it reads down the page, a row per terrain; the Jerusalem! CRT, which wraps, keeps its odds across."""
    moves = chart_pages(load_game("siege-of-jerusalem"))["Moves"].decode()
    stacking = moves[moves.index("Stacking"):]
    assert '<th bgcolor="#d8d8d8">Terrain</th><th bgcolor="#d8d8d8">Units</th>' in stacking
    assert '<tr><th align="left" bgcolor="#eeeeee">Fortress</th><td align="center">3</td></tr>' in stacking
    crt = chart_pages(load_game("jerusalem-1948"))["Combat"].decode()
    assert '<th bgcolor="#d8d8d8">1-2</th>' in crt


def test_every_table_is_charted_or_omitted_with_a_reason(tmp_path):
    for game in GAMES:
        spec = yaml.safe_load((ROOT / "modules" / game / "charts.yaml").read_text())
        assert all(isinstance(v, str) and v for v in (spec.get("omitted") or {}).values())
    (tmp_path / "tables.yaml").write_bytes((ROOT / "modules/jerusalem-1948/tables.yaml").read_bytes())
    game = SimpleNamespace(folder=tmp_path, spec=SimpleNamespace(title="T"))
    spec = yaml.safe_load((ROOT / "modules/jerusalem-1948/charts.yaml").read_text())
    spec["tabs"] = spec["tabs"][:-1]    # drop Scenario II
    (tmp_path / "charts.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(ChartsError, match=r"charts.yaml: tabs: tables scenario_ii of tables.yaml are on no tab"):
        charts_from_tables(game)
    spec["omitted"] = {"scenario_ii": "not charted"}
    spec["tabs"][0]["charts"][0]["table"] = "movment"
    (tmp_path / "charts.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(ChartsError, match=r"table 'movment': tables.yaml has no 'movment'"):
        charts_from_tables(game)


def test_steppe_rules_yaml_charts():
    """A game with rules.yaml: its terrain effects chart (MP by class, combat effect) and CRT with meanings."""
    pages = chart_pages(load_game(str(ROOT / "examples/steppe")))
    assert list(pages) == ["Terrain", "Combat"]
    terrain = pages["Terrain"].decode()
    assert '<th bgcolor="#d8d8d8">Foot MP</th><th bgcolor="#d8d8d8">Mechanized MP</th>' in terrain
    assert ('<th align="left" bgcolor="#eeeeee">Swamp</th><td align="center">3</td>'
            '<td align="center">prohibited</td><td align="center">-1 column</td>') in terrain
    assert "defence ×2" in terrain and "Along road" in terrain
    combat = pages["Combat"].decode()
    assert "Combat results table <font size=\"-1\">(rule 9.2)</font>" in combat
    assert "AE: attacker eliminated" in combat and "Odds below 1-2: AE." in combat


@pytest.mark.parametrize("game", GAMES)
def test_no_id_in_any_chart_text(game):
    """Issue 35: ids inside a table's notes read as words too (headings are checked above)."""
    for tab, html in chart_pages(load_game(game)).items():
        assert not re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", _text(html)), tab


def test_ids_in_jerusalem_modifier_notes_read_as_names():
    """The note's id takes the game's label (Old City wall), or its words in lower case (higher terrain) -- never
    the chart's row label, which names the row, not the thing."""
    html = chart_pages(load_game("jerusalem-1948"))["Modifiers"].decode()
    assert "every firer outside the wall (Old City wall hexsides)</td>" in html
    assert "village +1 and higher terrain +1 together (9.6.1); do not add higher terrain again</td>" in html
