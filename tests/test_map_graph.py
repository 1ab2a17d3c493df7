"""The compiled map as a networkx graph."""
from __future__ import annotations

import pytest

from toolkit.mapdata import compile_map, compile_source, to_graph


def expected_edges(columns: int, rows: int) -> int:
    """Edges of a flat-top offset rectangle: within each column, plus 2 * rows - 1 between neighbouring columns."""
    return columns * (rows - 1) + (columns - 1) * (2 * rows - 1)


@pytest.mark.parametrize("columns, rows, shifted", [(4, 3, "odd"), (5, 6, "even"), (1, 4, "odd"), (3, 1, "even")])
def test_counts(map_dict, columns, rows, shifted):
    map_dict["grid"].update(columns=[1, columns], rows=[1, rows], naming={"scheme": "ccrr", "shifted": shifted})
    g = to_graph(compile_source(map_dict))
    assert g.number_of_nodes() == columns * rows
    assert g.number_of_edges() == expected_edges(columns, rows)
    assert all(a.distance(b) == 1 for a, b in g.edges)


def test_attributes(example_path):
    cmap = compile_map(example_path)
    g = to_graph(cmap)
    h = cmap.resolve("0505")
    assert g.nodes[h] == {"name": "0505", "terrain": ("hill",), "elevation": 2, "place": "Nebi Samuel",
                          "region": None, "features": {"road": "primary"}}
    assert g.edges[cmap.resolve("0405"), h] == {"wall": "true"}
    assert g.edges[cmap.resolve("0405"), cmap.resolve("0406")] == {}
    assert sum(1 for _, _, d in g.edges(data=True) if d) == len(cmap.hexsides)
    assert all(g.edges[s.a, s.b] == attrs for s, attrs in cmap.hexsides.items())
