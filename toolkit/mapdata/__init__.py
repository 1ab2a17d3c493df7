"""Map data: the map file format, its compiler, the compiled-map cache, bundled maps and graphs.

Each name is imported from its module on first use (:mod:`toolkit.lazy`): naming a bundled map loads no compiler.
"""
from ..lazy import lazy_exports

_HOMES = {
    ".cache": ["load_map"],
    ".catalog": ["list_maps", "maps_dir", "open_map"],
    ".compiled": ["CompiledMap", "HexInfo", "HexsideFeatureType", "LosDefaults", "TerrainType"],
    ".compiler": ["compile_map", "compile_source", "path_chain"],
    ".errors": ["MapError"],
    ".graph": ["to_graph"],
    ".key": ["COMPILER_VERSION"],
    ".schema": ["MapSpec", "map_json_schema"],
}
__getattr__ = lazy_exports(__name__, _HOMES)

__all__ = [
    "COMPILER_VERSION", "CompiledMap", "HexInfo", "HexsideFeatureType", "LosDefaults", "MapError", "MapSpec",
    "TerrainType", "compile_map", "compile_source", "list_maps", "load_map", "map_json_schema", "maps_dir",
    "open_map", "path_chain", "to_graph",
]
