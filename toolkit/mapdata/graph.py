"""The map as a networkx graph: hexes are nodes, adjacent on-map hexes are joined.

>>> from toolkit.mapdata import compile_map, maps_dir
>>> g = to_graph(compile_map(maps_dir() / "example" / "map.yaml"))
>>> g.number_of_nodes(), g.number_of_edges()
(120, 317)
"""
from __future__ import annotations

import networkx as nx

from ..hexgrid import hexside
from .compiled import CompiledMap


def to_graph(cmap: CompiledMap) -> nx.Graph:
    """One node per hex (attributes ``name, terrain, elevation, place, region, features``);
    one edge per adjacent pair of hexes, carrying the hexside's attributes (a copy; empty if none)."""
    g = nx.Graph()
    for h, info in cmap.hexes.items():
        g.add_node(h, name=cmap.grid.name(h), terrain=info.terrain, elevation=info.elevation,
                   place=info.place, region=info.region, features=dict(info.features))
    for h in cmap.hexes:
        for n in cmap.grid.neighbors(h):
            if h < n:
                g.add_edge(h, n, **cmap.hexsides.get(hexside(h, n), {}))
    return g
