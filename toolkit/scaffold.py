"""``toolkit new GAME_DIR``: a minimal, valid, commented game of your own (docs/new-game.md).

Writes ``map.yaml`` (a blank grid with one example of each map construct: a base-terrain area, an area with
its own elevation, a region, a path line, a hexside line, a place, a hex override and a hexside override),
``game.yaml``, ``counters.yaml`` (two sides, a few counters, one with a back face, a marker), ``rules.yaml``
(every section of the rules as data, so the rules commands answer at once), ``charts.yaml`` (the charts'
words for ids) and ``scenarios/scenario-1.yaml``.  The folder must be new or empty.  Every file is checked by loading it
(map compiled, game and scenario loaded) before the command reports success.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from .game.module import _bundled_ids, load_game
from .game.position import load_position
from .hexgrid import CCRR, Grid, Layout
from .mapdata import compile_source

MIN_SIDE, MAX_SIDE = 4, 200   # columns and rows of a new map
SIZE = 10.0                   # centre-to-corner, map units (docs/map-format.md)


class ScaffoldError(ValueError):
    """A refused ``toolkit new`` (the folder is not empty, a bad size ...)."""


def game_id_for(folder: Path) -> str:
    """A game id from the folder's name (lower-case letters, digits, ``-``, ``_``), never a bundled id."""
    gid = re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-_")[:48] or "my-game"
    if not gid[0].isalnum():
        gid = "g" + gid
    return gid + "-own" if gid in _bundled_ids() else gid


def check_new_names(folder: Path, title: str | None) -> None:
    """Refuse, before anything is written, a folder the toolkit would read as a bundled game (its name as given
    is a bundled id) and a folder name or title holding a control or formatting character."""
    text = str(folder)
    if text in _bundled_ids():
        raise ScaffoldError(f"{text}: is the id of a bundled game, which the toolkit reads instead of a folder of "
                            "that name; give the folder another name")
    for what, name in (("the folder name", folder.resolve().name), ("--title", title or "")):
        if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
            raise ScaffoldError(f"{ascii(name)[1:-1]}: {what} holds a control or formatting character; give a "
                                "name of letters, digits and punctuation")


def _fmt(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _pts(points) -> str:
    return "[" + ", ".join(f"[{_fmt(x)}, {_fmt(y)}]" for x, y in points) + "]"


def map_yaml(game_id: str, title: str, cols: int, rows: int, orientation: str) -> str:
    """The text of a new ``map.yaml``."""
    digits = max(2, len(str(max(cols, rows))))
    naming = CCRR(orientation=orientation, shifted="odd", digits=digits)
    grid = Grid(Layout(orientation, SIZE), naming, (1, cols), (1, rows))
    minx, miny, maxx, maxy = grid.bounds()
    grid = Grid(Layout(orientation, SIZE, (-minx, -miny)), naming, (1, cols), (1, rows))
    lay = grid.layout
    width, height = maxx - minx, maxy - miny

    def at(c: int, r: int):
        return naming.from_offset(c, r)

    def name(c: int, r: int) -> str:
        return naming.name(at(c, r))

    woods, hill, town = (2, 2), (cols - 1, rows - 1), (2, rows - 1)
    below_town = (2, rows)
    road_row = (rows + 1) // 2
    road = [lay.centre(at(c, road_row)) for c in range(1, cols + 1)]
    river = lay.corners(at(*hill))[0:4]        # three edges of the hill hex, corner to corner
    wc = lay.centre(at(*woods))
    return f"""\
# {title}: the map (docs/map-format.md; `toolkit schema map` gives its JSON Schema).
# Written by `toolkit new`: a blank {cols} x {rows} grid with one example of each construct.  Edit it,
# then look at it with `toolkit render {game_id}/map.yaml -o map.png` (or the game folder's path).
# Coordinates are map units: x grows east, y grows SOUTH; `grid.size` is the centre-to-corner distance.
# With the default origin the top-left hex touches (0, 0); the whole grid is {_fmt(width)} x {_fmt(height)}.
id: {game_id}
title: "{title}"
grid:
  orientation: {orientation}     # flat-top or pointy-top hexes (the VASSAL export lays flat-top only)
  size: {_fmt(SIZE)}
  naming: {{scheme: ccrr, shifted: odd, digits: {digits}}}   # hex {name(1, 1)} is column 1, row 1
  columns: [1, {cols}]
  rows: [1, {rows}]
coverage: 0.5                    # an area gives a hex its terrain when it covers at least half of it

# The terrain vocabulary.  Base terrains exclude each other (the first is every hex's default); the others
# (base: false) are added on top.  `elevation` is the terrain's height for line of sight.
terrain:
  clear: {{color: "#eae3c5", base: true}}
  woods: {{color: "#5f8f3e", base: true}}
  hill: {{color: "#c9a66b", base: true, elevation: 1}}
  town: {{color: "#b04030", base: false, label: "Town"}}

# Features drawn as lines: `path` features mark the hexes a line runs through (and the hexsides between
# them); `hexside` features mark the hexsides a line runs along or across.
features:
  road: {{kind: path, color: "#8b0000", width: 3}}
  river: {{kind: hexside, color: "#3070ff", width: 4}}

los:                             # line of sight (docs/line-of-sight.md): `toolkit los MAP FROM TO`
  convention: touch
  blocking_terrain: [woods, hill, town]
  blocking_hexside_features: []
  elevation: none

areas:
  # Terrain as a polygon: exactly hex {name(*woods)} (a polygon gives every hex it covers at least
  # `coverage` of its terrain; draw it around as many hexes as you like).
  - terrain: woods
    polygon: {_pts(lay.corners(at(*woods)))}
  # Hex {name(*hill)}: a hill, with its own elevation (else the terrain's).
  - terrain: hill
    elevation: 2
    polygon: {_pts(lay.corners(at(*hill)))}
  # A region: the northern half of the map.
  - region: North
    polygon: {_pts([(-SIZE, -SIZE), (width + SIZE, -SIZE), (width + SIZE, height / 2), (-SIZE, height / 2)])}

lines:
  # A road through the centres of row {road_row}, {name(1, road_row)} to {name(cols, road_row)}: draw paths
  # through hexes, never along their edges.
  - feature: road
    value: primary
    points: {_pts(road)}
  # A river along three edges of the hill {name(*hill)}, corner to corner: draw hexside lines along edges
  # (or across them), never through hex centres.
  - feature: river
    points: {_pts(river)}

points:
  # A place name: the hex holding the point is named (commands take place names for hexes).
  - {{place: Dark Wood, at: [{_fmt(wc[0])}, {_fmt(wc[1])}]}}

overrides:
  # Last word, hex by hex: terrain, elevation, place, region, features.
  hexes:
    "{name(*town)}": {{terrain: [clear, town], place: Millbrook}}
  # And hexside by hexside (a value of null removes a feature).
  hexsides:
    - {{between: ["{name(*town)}", "{name(*below_town)}"], set: {{river: "true"}}}}
"""


def game_yaml(game_id: str, title: str) -> str:
    """The text of a new ``game.yaml``."""
    return f"""\
# {title}: the game's vocabulary (toolkit.game.GameSpec; every key in docs/game-files.md).
id: {game_id}                    # lower-case letters, digits, '-', '_'; positions name the game by this id
title: "{title}"                 # also the VASSAL module's name
map: map.yaml                    # a path inside this folder, or a bundled map id (`toolkit maps`)

sides:                           # two players, with their counter colours
  - {{id: blue, name: Blue, color: "#2b5fb4", text: "#ffffff"}}
  - {{id: red, name: Red, color: "#c0392b", text: "#ffffff"}}
nationalities:                   # forces of a side (a side may have several), each with its colours
  - {{id: blue, name: Blue Army, side: blue, color: "#2b5fb4", text: "#ffffff"}}
  - {{id: red, name: Red Army, side: red, color: "#c0392b", text: "#ffffff"}}
unit_types: [infantry, armour, hq]
flags: [reduced]                 # unit flags a position may carry
back_flag: reduced               # a unit with this flag shows its counter's back face (VASSAL: Flip, Ctrl+F)
counter_factors: [attack, defence, movement]   # the values printed on counters, in order: "4-4-4"
symbols: {{infantry: infantry, armour: armour, hq: hq}}   # unit type -> NATO symbol (docs/game-files.md)
dice: [[1, 6]]                   # dice buttons of the module: one six-sided die

turns: ["1", "2", "3", "4", "5", "6"]
player_turns: [blue, red]        # every turn: Blue's player turn, then Red's, each with the phases
phases:                          # an id (positions name the phase by it) and the name players read
  - {{id: movement, name: Movement Phase}}     # the module's turn tracker: "1 Blue Movement Phase"
  - {{id: combat, name: Combat Phase}}
boxes:                           # off-map boxes (the module's Boxes and tracks window), named as players read them
  - reinforcements                             # no name: "Reinforcements"
  - {{id: eliminated, name: Dead Pile}}
arrivals_box: reinforcements     # units waiting there lie on the turn record track by their `turn:` of arrival

# Stacking limits, checked by `toolkit check` (units of one side in a hex; a terrain's own limit, the lowest of
# a hex's terrains winning; unit types that do not count).
stacking: {{limit: 2, terrain: {{town: 3}}, free_types: [hq]}}
"""


def charts_yaml(title: str) -> str:
    """The text of a new ``charts.yaml``: the words the module's charts use for ids."""
    return f"""\
# {title}: the words of the module's Charts window (docs/vassal.md, Charts).  An id without a label here reads
# as its words ("town" -> "Town"); give a label where that is not the name players read.
labels:
  hq: HQ
"""


def counters_yaml(game_id: str, title: str) -> str:
    """The text of a new ``counters.yaml``."""
    return f"""\
# {title}: every counter and marker (toolkit.game.CounterManifest, docs/game-files.md).
# `values` are yours: numbers, text, true/false or null, keyed as you like (`counter_factors` in game.yaml
# names those printed on the counter).  `back` holds the values that differ on the back face.  A counter may
# show a picture of your own instead of the drawn art: `image: images/blue-inf.png` (and `back_image:`), a
# file inside this folder.
game: {game_id}
counters:
  - {{id: blue-inf, name: Blue Infantry, side: blue, nationality: blue, type: infantry, count: 4,
     values: {{attack: 4, defence: 4, movement: 4}},
     back: {{attack: 2, defence: 2}}, back_name: Blue Infantry (reduced)}}
  - {{id: blue-armour, name: Blue Armour, side: blue, nationality: blue, type: armour, count: 2,
     values: {{attack: 6, defence: 3, movement: 6}}}}
  - {{id: red-inf, name: Red Infantry, side: red, nationality: red, type: infantry, count: 4,
     values: {{attack: 3, defence: 5, movement: 4}},
     back: {{attack: 1, defence: 3}}, back_name: Red Infantry (reduced)}}
  - {{id: red-hq, name: Red HQ, side: red, nationality: red, type: hq, count: 1,
     values: {{attack: 0, defence: 2, movement: 5, command: 3}}}}
markers:
  - {{id: objective, name: Objective, color: "#ffcc00", text: "#000000"}}
"""


def rules_yaml(game_id: str, title: str) -> str:
    """The text of a new ``rules.yaml``: every section, for the scaffold's map and counters."""
    return f"""\
# {title}: the rules as data (docs/rules-data.md; `toolkit schema rules` gives the JSON Schema).  The commands
# (moves, odds, retreat, supply, command, place, victory, check) and the viewer answer from it, citing the rule numbers
# given here: replace them with your rulebook's.  Delete a section your game does not have; a plugin can add
# rules that need code (docs/plugins.md).
game: {game_id}

movement:
  rule: "6"
  allowance: movement                 # the counter value holding the movement points
  classes: {{foot: [infantry, hq], mech: [armour]}}   # unit types grouped by how they pay for terrain
  terrain:
    rule: "6.1"
    costs:                            # MP to enter a hex, one number or by class; P: prohibited
      clear: 1
      woods: {{foot: 2, mech: 3}}
      hill: 2
      town: 1                         # a hex with several terrains costs the highest
  hexsides:
    river: {{rule: "6.2", cost: {{foot: 1, mech: 2}}}}   # added when crossing
  lines:
    road: {{rule: "6.3", cost: 0.5}}    # moving along the road: its rate instead of terrain and hexsides
  minimum_move: {{rule: "6.4"}}         # a unit may always move one hex
  phases: {{movement: all}}             # who moves in which phase
  enemy_units: {{rule: "6.5"}}          # no unit enters a hex holding enemy units

zoc:
  rule: "7"
  exerted_by: [infantry, armour]
  enter: {{effect: stop, rule: "7.1"}}  # entering an enemy zone of control ends the move
  leave: {{cost: 1, rule: "7.2"}}       # extra MP to leave one
  zoc_to_zoc: {{allowed: false, rule: "7.3"}}
  negated_by_friends: [supply]

combat:
  rule: "8"
  attack: attack
  defence: defence
  table:
    rule: "8.1"
    kind: odds                        # or differential (columns like "-1", "0", "+2")
    columns: ["1-2", "1-1", "2-1", "3-1", "4-1"]
    die: [1, 6]
    rows:                             # one result per column, for each roll
      1: [AR, DR, DR, DE, DE]
      2: [AR, AR, DR, DR, DE]
      3: [AE, AR, EX, DR, DR]
      4: [AE, AR, AR, EX, DR]
      5: [AE, AE, AR, AR, EX]
      6: [AE, AE, AE, AR, AR]
    below: AE                         # odds below the first column
  results: {{AE: attacker eliminated, AR: attacker retreats, EX: exchange, DR: defender retreats,
            DE: defender eliminated}}
  terrain_rule: "8.2"
  terrain: {{woods: {{shift: -1}}, hill: {{shift: -1}}, town: {{multiply: 2}}}}
  hexsides: {{river: {{rule: "8.3", shift: -1, across: all}}}}
  out_of_supply: {{rule: "9.2", attack: 0.5, defence: 1}}

retreat:                              # applying the results (toolkit retreat)
  rule: "8.4"
  results:                            # each code of combat.results: what it does to each side's units
    AE: {{attacker: {{eliminate: true}}}}
    AR: {{attacker: {{retreat: 1}}}}
    EX: {{attacker: {{step_loss: true}}, defender: {{step_loss: true}}}}   # turned to the back face (or eliminated)
    DR: {{defender: {{retreat: 1}}}}
    DE: {{defender: {{eliminate: true}}}}
  away: {{rule: "8.4"}}                 # each hex farther from the hex retreated from
  enemy_zoc: {{effect: prohibited, rule: "8.4"}}
  overstack: {{effect: last_resort, rule: "8.4"}}   # only when no other retreat; the excess is eliminated

supply:
  rule: "9"
  sources: {{blue: {{edges: [west]}}, red: {{edges: [east]}}}}
  hexes: 5
  blocked_by: {{enemy_units: true, enemy_zoc: true}}

command:
  rule: "10"
  hq_types: [hq]
  radius: command                     # the HQ's counter value (or a number)

reinforcements:
  rule: "11"
  box: reinforcements                 # units wait here with their arrival `turn` (scenarios/scenario-1.yaml)
  entry: {{blue: {{edges: [west]}}, red: {{edges: [east]}}}}
  enemy_zoc: prohibited

victory:
  rule: "12"
  objectives:
    - {{hex: Millbrook, vp: 5, side: blue, owner: red}}
  levels:
    - {{side: blue, vp: 5, result: "Blue wins"}}
  otherwise: "Red wins"
"""


def scenario_yaml(game_id: str, cols: int, rows: int, orientation: str) -> str:
    """The text of ``scenarios/scenario-1.yaml``."""
    digits = max(2, len(str(max(cols, rows))))
    naming = CCRR(orientation=orientation, shifted="odd", digits=digits)

    def name(c: int, r: int) -> str:
        return naming.name(naming.from_offset(c, r))

    mid = (rows + 1) // 2
    return f"""\
# Scenario 1: the set-up as a position (toolkit.game.PositionFile, docs/game-files.md).  The module
# offers it as File > New Game > "Scenario 1".  Hexes are hex names or place names of the map.
# A position names its game by id; the commands find your game's folder because you give it:
#   toolkit vsav write scenarios/scenario-1.yaml --game . -o scenario-1.vsav
game: {game_id}
scenario: "1"
turn: "1"
phase: movement
phasing_side: blue
units:
  - {{id: b-inf-1, counter: blue-inf, hex: "{name(1, mid)}"}}
  - {{id: b-inf-2, counter: blue-inf, hex: Millbrook}}              # a place name
  - {{id: b-inf-3, counter: blue-inf, hex: Millbrook, flags: [reduced]}}   # stacked, showing its back
  - {{id: b-arm-1, counter: blue-armour, hex: "{name(2, 1)}"}}
  - {{id: b-arm-2, counter: blue-armour, box: reinforcements, turn: "2"}}   # off the map, arriving on turn 2
  - {{id: r-inf-1, counter: red-inf, hex: "{name(cols, mid)}"}}
  - {{id: r-inf-2, counter: red-inf, hex: "{name(cols - 1, 1)}"}}
  - {{id: r-hq, counter: red-hq, hex: "{name(cols, rows)}"}}
markers:
  - {{marker: objective, hex: "{name(cols - 1, mid)}"}}
"""


def new_game(folder: str | Path, cols: int, rows: int, orientation: str = "flat", numbering: str = "ccrr",
             title: str | None = None) -> list[Path]:
    """Write a new game into ``folder`` (new or empty); returns the files written."""
    folder = Path(folder)
    if numbering.lower() != "ccrr":
        raise ScaffoldError(f"--numbering {numbering!r}: a new game is numbered ccrr (column then row, e.g. 0507); "
                            "edit map.yaml grid.naming afterwards for another scheme (docs/map-format.md)")
    if orientation not in ("flat", "pointy"):
        raise ScaffoldError(f"--orientation {orientation!r}: give flat or pointy")
    for what, n in (("--cols", cols), ("--rows", rows)):
        if not MIN_SIDE <= n <= MAX_SIDE:
            raise ScaffoldError(f"{what} {n}: give {MIN_SIDE} to {MAX_SIDE} hexes")
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{folder}: exists and is not a folder; give a new or empty folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder}: the folder is not empty; `toolkit new` writes only into a new or empty "
                            "folder (it never overwrites your files)")
    check_new_names(folder, title)
    gid = game_id_for(folder)
    title = title or folder.resolve().name.replace("-", " ").replace("_", " ").strip().title() or "My Game"
    title = title.replace('"', "'").replace("\\", "/")
    files = {
        "map.yaml": map_yaml(gid, title, cols, rows, orientation),
        "game.yaml": game_yaml(gid, title),
        "counters.yaml": counters_yaml(gid, title),
        "rules.yaml": rules_yaml(gid, title),
        "charts.yaml": charts_yaml(title),
        "scenarios/scenario-1.yaml": scenario_yaml(gid, cols, rows, orientation),
    }
    compile_source(files["map.yaml"], str(folder / "map.yaml"))   # refuse before writing anything
    (folder / "scenarios").mkdir(parents=True, exist_ok=True)
    written = []
    for rel, text in files.items():
        path = folder / rel
        with open(path, "x", encoding="utf-8") as f:   # never over an existing file
            f.write(text)
        written.append(path)
    game = load_game(str(folder))                    # the whole game checked as the commands will read it
    game.rules_data
    load_position(folder / "scenarios/scenario-1.yaml", game)
    return written
