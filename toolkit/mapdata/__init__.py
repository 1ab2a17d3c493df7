"""Map data: the map file format, its compiler, the compiled-map cache, bundled maps and graphs."""
from .cache import load_map
from .catalog import list_maps, maps_dir, open_map
from .compiled import CompiledMap, HexInfo, HexsideFeatureType, LosDefaults, TerrainType
from .compiler import COMPILER_VERSION, compile_map, compile_source, path_chain
from .errors import MapError
from .graph import to_graph
from .schema import MapSpec, map_json_schema

__all__ = [
    "COMPILER_VERSION", "CompiledMap", "HexInfo", "HexsideFeatureType", "LosDefaults", "MapError", "MapSpec",
    "TerrainType", "compile_map", "compile_source", "list_maps", "load_map", "map_json_schema", "maps_dir",
    "open_map", "path_chain", "to_graph",
]
