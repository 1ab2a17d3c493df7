"""The Charts window: the game's tables drawn as charts a player reads at the table.

The values stay in ``tables.yaml``; the words are data too, in the game folder's ``charts.yaml`` beside it
(docs/vassal.md, "Charts"): which table goes on which tab, each chart's title and rule number, a label
for every key, the meaning of every result code, how values read (half movement points as MP, ``null``
as "prohibited" or "every roll").  A game with a ``rules.yaml`` (docs/rules-data.md) also gets its
terrain effects chart and its combat results table drawn from that file.

VASSAL shows the pages in Swing's HTML viewer (HTML 3.2: plain tables, ``bgcolor``, no CSS), and sizes
the window to the first tab's page, so every page is laid out at the width its widest table needs.

>>> mp(3), mp(4), mp(1), mp(0)
('1½', '2', '½', '0')
>>> Words({"level": "Level"}, {}).label("uphill_road")
'Uphill road'
>>> Words({"old_city_wall": "Old City wall"}, {}).value("beyond the old_city_wall, no higher_terrain", {})
'beyond the Old City wall, no higher terrain'
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from ...datafile import DataFileError, from_validation_error, read_yaml
from ...game.module import Game
from ...game.rulesdata import RulesData, Situation

CHARTS_FILE = "charts.yaml"
DOC = "docs/vassal.md"
MIN_WIDTH, MAX_WIDTH, CHAR_PX, BOLD_CHAR_PX, CELL_PX = 560, 820, 7, 8, 16
_ID = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")   # a snake_case id among a table's values
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")              # a key without a label: its words, capitalised
_ID_IN_TEXT = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")   # a snake_case id inside a sentence


class ChartsError(DataFileError):
    """A ``charts.yaml`` that does not fit its game's ``tables.yaml`` (the message names the file and key)."""


def mp(value: float) -> str:
    """Half movement points as MP, with ½ (``3`` -> ``1½``)."""
    whole, half = divmod(int(value), 2)
    return ("" if whole == 0 and half else str(whole)) + ("½" if half else "")


@dataclass(frozen=True)
class Words:
    """The words of one game's charts: ``labels`` (key or value id -> words) and ``codes`` (result -> meaning)."""

    labels: dict[str, str]
    codes: dict[str, str]
    names: Optional[dict[str, str]] = None   # labels for ids inside a sentence (default: ``labels``)

    def label(self, key: object) -> str:
        """The words for a key: its label, or the id in plain words (``uphill_road`` -> ``Uphill road``)."""
        text = str(key)
        return self.labels.get(text, text.replace("_", " ").capitalize() if _KEY.match(text) else text)

    def value(self, v: object, options: dict) -> str:
        """A cell's text: numbers in the chart's ``unit``, ``null`` as its ``none``, ids and lists in words."""
        if v is None:
            return str(options.get("none", "—"))
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, (int, float)):
            text = mp(v) if options.get("unit") == "half_mp" else _number(v)
            text = f"+{text}" if options.get("signed") and v > 0 else text
            return str(options.get("cell", "{}")).format(text)
        if isinstance(v, list):
            if "item" in options and all(isinstance(x, list) for x in v):   # e.g. range bands: [range, AF]
                return "; ".join(options["item"].format(*(self.value(y, {}) for y in x)) for x in v)
            return ", ".join(self.value(x, options) for x in v)
        if isinstance(v, dict):
            return "; ".join(f"{self.label(k)} {self.value(x, options)}" for k, x in v.items() if k not in HIDDEN)
        text = str(v)
        return self.labels.get(text, self.label(text) if _ID.match(text) else self.sentence(text))

    def sentence(self, text: str) -> str:
        """A free text (a table's note) with every id in it in words: its label, else its words in lower case."""
        names = self.labels if self.names is None else self.names
        return _ID_IN_TEXT.sub(lambda m: names.get(m.group(), m.group().replace("_", " ")), text)


HIDDEN = ("reconstructed", "sources", "unit")   # tables.yaml keys about the data, never a chart's row


def _number(v: float) -> str:
    if v == 0.5:
        return "½"
    return str(int(v)) if float(v).is_integer() else str(v)


def _cell_width(text: str) -> int:
    return len(text) * CHAR_PX + CELL_PX


@dataclass(frozen=True)
class Grid:
    """One table of a chart: a header row, body rows (the first cell of each a row heading) and its width."""

    head: list[str]
    rows: list[list[str]]

    @property
    def width(self) -> int:
        """Pixels the table needs, from its longest text per column (texts wrap at 60 characters)."""
        cols = zip(*([self.head] + self.rows)) if self.head else zip(*self.rows)
        return sum(max(_cell_width(t[:60]) for t in col) for col in cols)

    @property
    def least_width(self) -> int:
        """Pixels the table needs with every text wrapped: its longest word per column, in bold (headings)."""
        cols = zip(*([self.head] + self.rows)) if self.head else zip(*self.rows)
        return sum(max(len(max(t.split() or [""], key=len)) * BOLD_CHAR_PX + CELL_PX for t in col) for col in cols)

    def html(self, fit: bool = False) -> str:
        """The table in HTML 3.2: grey headings, row headings in bold; ``fit``: as wide as the page, texts wrapped."""
        head = "".join(f'<th bgcolor="#d8d8d8">{escape(t)}</th>' for t in self.head) if any(self.head) else ""
        body = "".join("<tr>" + "".join((f'<th align="left" bgcolor="#eeeeee">{escape(t)}</th>' if i == 0
                                          else f'<td align="center">{escape(t)}</td>') for i, t in enumerate(row))
                       + "</tr>" for row in self.rows)
        width = ' width="100%"' if fit else ""
        return (f'<table border="1" cellspacing="0" cellpadding="4"{width}>{"<tr>" + head + "</tr>" if head else ""}'
                f"{body}</table>")


@dataclass(frozen=True)
class Section:
    """One chart on a tab: title, rule, its table, the codes it uses explained, a reconstruction line."""

    title: str
    rule: str
    grid: Grid
    notes: tuple[str, ...] = ()

    def html(self, fit: bool = False) -> str:
        """The chart: its heading with the rule, the table (``fit``: as wide as the page), the notes in small type."""
        rule = f" <font size=\"-1\">(rule {escape(self.rule)})</font>" if self.rule else ""
        notes = "".join(f'<p><font size="-1">{escape(n)}</font></p>' for n in self.notes)
        return f"<h3>{escape(self.title)}{rule}</h3>\n{self.grid.html(fit)}\n{notes}\n"


def page_width(tabs: dict[str, list[Section]]) -> int:
    """One width for every page: the widest table's, within bounds.  VASSAL sizes the window to the first tab's
    page, so every later page must fit in that width (wider tables are set to the page width and wrap)."""
    widest = max((s.grid.width for sections in tabs.values() for s in sections), default=MIN_WIDTH)
    return max(MIN_WIDTH, min(MAX_WIDTH, widest + 24))


def _fitted(section: Section, width: int) -> Section:
    """The section, its table turned on its side (columns as rows) when even wrapped it is wider than ``width``
    and the turned table is narrower: a chart with many columns and few rows then reads down the page instead of losing its
    last columns past the window's edge."""
    grid = section.grid
    if grid.least_width <= width or not grid.head:
        return section
    turned = Grid(list(next(zip(*[grid.head] + grid.rows))), [list(col) for col in zip(*[grid.head] + grid.rows)][1:])
    return replace(section, grid=turned) if turned.least_width < grid.least_width else section


#: The page's last text, in a narrow cell at the top right: the engine puts the caret at the end of a chart's
#: text when it loads it and scrolls the caret into view, so the tab opens at the top of the page.
TOP_ANCHOR, ANCHOR_PX = '<font size="1">&nbsp;</font>', 6
SCROLLBAR_PX = 16  # a Swing vertical scrollbar's width (15) and one


def page(title: str, sections: list[Section], width: int, spare: int = 0) -> bytes:
    """A chart page: the sections one below the other, ``width`` pixels wide, ``spare`` pixels more blank at its
    right (the first tab's: VASSAL sizes the window to it, and a longer tab's scrollbar then takes that room)."""
    inner = width - ANCHOR_PX
    width += spare
    body = "".join(s.html(fit=s.grid.width > inner) for s in (_fitted(s, inner) for s in sections))
    return (f"<html><head><title>{escape(title)}</title></head><body>\n"
            f'<table border="0" cellpadding="0" cellspacing="0" width="{width}"><tr>'
            f'<td valign="top" width="{inner}">\n{body}</td>'
            f'<td valign="top" width="{ANCHOR_PX + spare}">{TOP_ANCHOR}</td></tr></table></body></html>').encode("utf-8")


# --- shapes of tables.yaml ---------------------------------------------------------------------------------

def _scalar(v: object) -> bool:
    return not isinstance(v, (dict, list)) or (isinstance(v, list) and not any(isinstance(x, dict) for x in v))


def grid_of(value: object, words: Words, options: dict) -> Grid:
    """A table's rows as a grid, by its shape and the chart's ``layout``.

    * ``layout: die`` -- a mapping column -> one result per roll: columns across, one row per roll (``rolls``).
    * ``layout: across`` -- a mapping key -> value: the keys across, the values in one row (``row``).
    * a mapping of mappings -- one row per key, one column per inner key.
    * a list of mappings -- one row per item (its ``id`` first), one column per key.
    * a mapping of values -- two columns: what, and its value (inner mappings inline).
    * one value, or a list of values -- one row: the chart's ``row``, then the value(s).
    """
    if _scalar(value):
        return Grid([], [[options.get("row", "")] + [words.value(v, options)
                                                      for v in (value if isinstance(value, list) else [value])]])
    layout = options.get("layout")
    if layout == "die":
        return _die_grid(value, words, options)
    if isinstance(value, list):
        return _list_grid(value, words, options)
    items = {k: v for k, v in value.items() if k not in HIDDEN}
    if layout == "across":
        return Grid([options.get("corner", "")] + [words.label(k) for k in items],
                    [[options.get("row", "")] + [words.value(v, options) for v in items.values()]])
    if items and all(isinstance(v, dict) for v in items.values()):
        cols = list(dict.fromkeys(c for v in items.values() for c in v if _shown(c, options)))
        return Grid([options.get("corner", "")] + [words.label(c) for c in cols],
                    [[words.label(k)] + [words.value(v.get(c), options) if c in v else "" for c in cols]
                     for k, v in items.items()])
    return Grid([options["head"][0], options["head"][1]] if "head" in options else [],
                [[words.label(k), words.value(v, options)] for k, v in items.items()])


def _shown(column: str, options: dict) -> bool:
    """Whether a grid shows an inner key as a column (not a note about the data, not in the chart's ``skip``)."""
    return column not in HIDDEN and column not in options.get("skip", ())


def _list_grid(items: list, words: Words, options: dict) -> Grid:
    if not all(isinstance(x, dict) for x in items):
        raise ValueError("a list of mappings charts as a grid: give every item as a mapping (key: value)")
    cols = list(dict.fromkeys(k for x in items for k in x if _shown(k, options)))
    first = cols.pop(cols.index("id") if "id" in cols else 0)
    rows = [[words.value(x.get(first), options)] + [words.value(x.get(c), options) if c in x else ""
                                                   for c in cols] for x in items]
    return Grid([options.get("corner") or words.label(first)] + [words.label(c) for c in cols], rows)


def _die_grid(value: dict, words: Words, options: dict) -> Grid:
    """Columns across (the odds), one row per roll; the first and last rolls read "or less" / "or more"."""
    columns = [k for k in value if k not in HIDDEN] if isinstance(value, dict) else []
    lengths = {len(value[c]) if isinstance(value[c], list) else -1 for c in columns}
    if not columns or len(lengths) != 1 or -1 in lengths:
        raise ValueError("layout: die charts a mapping of columns, each a list of one result per roll, all as long")
    n = lengths.pop()
    rolls = [str(r) for r in options.get("rolls", range(1, n + 1))]
    if len(rolls) != n:
        raise ValueError(f"the chart's rolls name {len(rolls)} rolls for {n} results a column; give one roll each")
    if options.get("open_ended"):
        rolls[0], rolls[-1] = f"{rolls[0]} or less", f"{rolls[-1]} or more"
    return Grid([options.get("corner", "Die")] + [words.label(c) for c in columns],
                [[roll] + [words.value(value[c][i], options) for c in columns] for i, roll in enumerate(rolls)])


# --- charts.yaml -------------------------------------------------------------------------------------------

def _template(text: str) -> str:
    """A cell's or an item's text with ``{}`` where the value goes: no other braces (``{0.x}``, ``{1}``)."""
    if "{" in text.replace("{}", "") or "}" in text.replace("{}", ""):
        raise ValueError(f"{text[:60]!r}: write {{}} where the value goes, and no other braces")
    return text


Template = Annotated[str, AfterValidator(_template)]


def _keys_as_text(value: object) -> object:
    """A mapping's keys as YAML wrote them (``0: none`` labels the key or value 0)."""
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else value


Texts = Annotated[dict[str, str], BeforeValidator(_keys_as_text)]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChartSpec(_Spec):
    """One chart of a tab (docs/vassal.md, Charts): the table it shows and how it reads."""

    table: str
    title: str = ""
    rule: str = ""
    layout: Optional[Literal["across", "die"]] = None
    row: str = ""
    corner: str = ""
    cell: Template = "{}"
    item: Template = "{}"
    none: str = "—"
    unit: Optional[Literal["half_mp"]] = None
    signed: bool = False
    only: Optional[list[str]] = None
    skip: list[str] = []
    head: Optional[tuple[str, str]] = None
    rolls: Optional[list[Union[int, str]]] = None
    open_ended: bool = False
    labels: Texts = {}
    notes: list[str] = []


class TabSpec(_Spec):
    """A tab of the Charts window and its charts."""

    tab: str
    charts: list[ChartSpec]


class ChartsSpec(_Spec):
    """A whole ``charts.yaml``."""

    tabs: list[TabSpec] = []
    omitted: Texts = {}
    labels: Texts = {}
    codes: Texts = {}


def charts_spec(folder: Path) -> ChartsSpec | None:
    """A game folder's ``charts.yaml`` read and checked (None when there is none)."""
    path = folder / CHARTS_FILE
    data = read_yaml(path, ChartsError, optional=True)
    if data is None:
        return None
    try:
        return ChartsSpec.model_validate(data)
    except ValidationError as err:
        raise from_validation_error(err, str(path), f"{DOC}, Charts", ChartsError) from None


def _lookup(tables: dict, path: str, file: str) -> tuple[object, list[dict]]:
    """The table at a dotted ``path`` and the mappings above it (for their ``reconstructed`` keys)."""
    value, chain = tables, []
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            raise ChartsError(file, "tabs", f"table {path!r}: tables.yaml has no {part!r} there; name a key of "
                                            f"tables.yaml (see {DOC}, Charts)")
        chain.append(value)
        value = value[part]
    return value, chain


def reconstruction_line(value: object, chain: list[dict], path: str, words: Words) -> str | None:
    """One line naming what of a chart is ours, from the ``reconstructed`` keys of the table and above it."""
    own = path.split(".")[-1]
    marks = [m.get("reconstructed") for m in chain[1:] + ([value] if isinstance(value, dict) else [])]
    if any(m is True for m in marks) or any(isinstance(m, list) and own in m for m in marks):
        return "Reconstruction: the rulebook's chart is not available; these values are ours."
    keys = value if isinstance(value, dict) else {}
    ours = [k for m in marks if isinstance(m, list) for k in m if k in keys]
    ours += [k for k, v in keys.items() if isinstance(v, dict) and v.get("reconstructed") is True]
    if not ours:
        return None
    return "Reconstructed (not printed in the rulebook; our values): " + ", ".join(
        words.label(k) for k in dict.fromkeys(ours)) + "."


def _section(spec: ChartSpec, tables: dict, words: Words, file: str) -> Section:
    """One chart of a tab: its table of ``tables.yaml`` in the chart's words (its own ``labels`` first)."""
    chart = spec.model_dump(exclude_unset=True)
    value, chain = _lookup(tables, spec.table, file)
    words = Words(words.labels | spec.labels, words.codes, words.labels)   # a chart's row labels name rows only
    if isinstance(value, dict):
        only, skip = chart.get("only"), set(chart.get("skip", ()))
        value = {k: v for k, v in value.items() if (only is None or k in only) and k not in skip}
    try:
        grid = grid_of(value, words, chart)
    except ValueError as err:
        raise ChartsError(str(Path(file).with_name("tables.yaml")), spec.table, str(err)) from None
    used = {c for row in grid.rows for c in row[1:]}
    legend = [f"{code}: {meaning}" for code, meaning in words.codes.items() if code in used] \
        if chart.get("layout") == "die" else []
    notes = ([" · ".join(legend)] if legend else []) + spec.notes
    recon = reconstruction_line(value, chain, spec.table, words)
    return Section(spec.title or words.label(spec.table.split(".")[-1]), spec.rule, grid,
                   tuple(notes + ([recon] if recon else [])))


def _check_coverage(spec: ChartsSpec, tables: dict, file: str) -> None:
    """Every top-level table is on a tab or listed in ``omitted`` with the reason, so none is forgotten."""
    charted = {c.table.split(".")[0] for tab in spec.tabs for c in tab.charts}
    missing = [str(k) for k in tables if str(k) not in charted and str(k) not in spec.omitted and k != "game"]
    if missing:
        raise ChartsError(file, "tabs", f"tables {', '.join(missing)} of tables.yaml are on no tab; chart them "
                                        f"under `tabs` or list them under `omitted` with the reason (see {DOC}, Charts)")


def charts_from_tables(game: Game) -> dict[str, list[Section]]:
    """The tabs of ``charts.yaml`` (tab -> its charts), or one tab per table of ``tables.yaml`` without it."""
    tables = read_yaml(game.folder / "tables.yaml", ChartsError, optional=True)
    if tables is None:
        return {}
    spec = charts_spec(game.folder)
    if spec is None:
        spec = ChartsSpec(tabs=[TabSpec(tab=Words({}, {}).label(k), charts=[ChartSpec(table=str(k))])
                                for k in tables if k != "game"])
    file = str(game.folder / CHARTS_FILE)
    _check_coverage(spec, tables, file)
    words = Words(spec.labels, spec.codes)
    return {tab.tab: [_section(c, tables, words, file) for c in tab.charts] for tab in spec.tabs}


# --- rules.yaml --------------------------------------------------------------------------------------------

def _cost(c: object) -> str:
    return "prohibited" if c == "P" else _number(c)


def _by_class(cost: object, classes: list[str]) -> list[str]:
    return [_cost(cost.get(k) if isinstance(cost, dict) else cost) for k in classes]


def _variants(entry: object) -> list:
    """An entry of rules.yaml, or each variant of a list of them (the first whose ``when`` holds applies)."""
    return list(entry) if isinstance(entry, list) else [entry]


def _when(when: Situation | None, words: Words) -> str:
    """A condition in words (``weather mud``; ``weather clear or mud, turn 3``); empty when it always holds."""
    if not isinstance(when, Situation):
        return ""
    tests = [(words.label(k).lower(), [words.label(x).lower() for x in ([v] if isinstance(v, str) else v)])
             for k, v in when.params.items()]
    tests += [(what, [words.label(x) for x in given]) for what, given in (
        ("turn", when.turns), ("phase", when.phase), ("side", when.sides), ("in", when.terrain)) if given]
    tests += [(words.label(k).lower(), [v] if isinstance(v, str) else v or ["any"])
              for k, v in when.features.items()]
    return ", ".join(f"{what} {' or '.join(given)}" for what, given in tests)


def _variant_rows(label: str, entry: object, cells, words: Words, effect: object = None) -> list[list[str]]:
    """A chart's rows for one entry: the variant that applies when no other does under ``label``, then each
    conditional variant under ``label (its condition)``; ``cells`` gives a variant's cells, ``effect`` the
    combat effect of the plain row."""
    rows = []
    for v in _variants(entry):
        when = _when(getattr(v, "when", None), words)
        combat = "—" if when else _effects(effect, words)
        rows.append([f"{label} ({when})" if when else label] + cells(v) + [combat])
    return rows[-1:] + rows[:-1]


def terrain_effects(rules: RulesData, words: Words) -> Section:
    """Terrain effects chart from ``rules.yaml``: MP to enter by movement class, and the effect on combat; a cost
    or effect that varies (a list of variants, Conditions) has a row for each variant, named with its condition."""
    mv, combat = rules.movement, rules.combat
    classes = list(mv.classes) or ["all"]
    effects = combat.terrain if combat else {}
    hex_effects = combat.hexsides if combat else {}
    rows = []
    for t, c in mv.terrain.costs.items():
        rows += _variant_rows(words.label(t), c, lambda v: _by_class(getattr(v, "cost", v), classes), words,
                              effects.get(t))
    for h, s in mv.hexsides.items():
        rows += _variant_rows(f"{words.label(h)} (hexside, added)", s,
                              lambda v: [f"+{c}" if c != "prohibited" else c for c in _by_class(v.cost, classes)],
                              words, hex_effects.get(h))
    for name, line in mv.lines.items():
        rows += _variant_rows(f"Along {words.label(name).lower()}", line, lambda v: _by_class(v.cost, classes),
                              words)
    head = ["Terrain"] + [f"{words.label(k)} MP" for k in classes] + ["Combat"]
    notes = [f"{words.label(k)}: {', '.join(words.label(t) for t in v)}" for k, v in mv.classes.items()]
    cited = [mv.terrain.rule] + [v.rule for s in mv.hexsides.values() for v in _variants(s)]
    rules_cited = ", ".join(dict.fromkeys(r for r in cited + [combat.terrain_rule if combat else ""] if r))
    return Section("Terrain effects", rules_cited, Grid(head, rows),
                   tuple(["Movement classes: " + "; ".join(notes) + "."] if notes else []))


def _effects(entry: object, words: Words) -> str:
    """The combat effect of an entry, or of each of its variants with its condition."""
    if entry is None:
        return "—"
    said = []
    for v in _variants(entry):
        when = _when(getattr(v, "when", None), words)
        effect = _effect(v)
        if effect != "—" or when:
            said.append(f"{effect} ({when})" if when else effect)
    return "; ".join(said) or "—"


def _effect(effect) -> str:
    if effect is None:
        return "—"
    multiply, attack = getattr(effect, "multiply", None), getattr(effect, "attack", None)   # terrain; hexside
    parts = ([f"defence ×{_number(multiply)}"] if multiply else []) + \
            ([f"each attacker across it ×{_number(attack)}"] if attack else []) + \
            ([f"{effect.shift:+d} column{'s' if abs(effect.shift) > 1 else ''}"] if effect.shift else []) + \
            ([f"{effect.drm:+d} to the roll"] if getattr(effect, "drm", 0) else [])
    return ", ".join(parts) or "—"


def combat_results(rules: RulesData, words: Words) -> Section:
    """The combat results table from ``rules.yaml``: odds across, die rolls down, every code explained."""
    table = rules.combat.table
    grid = Grid(["Die"] + table.columns, [[str(roll)] + list(results) for roll, results in table.rows.items()])
    legend = " · ".join(f"{code}: {meaning}" for code, meaning in rules.combat.results.items())
    below = ([f"No attack at odds below {table.columns[0]}."] if table.below == "refused" else
             [f"Odds below {table.columns[0]}: {table.below}."] if table.below else [])
    modifiers = [f"{words.label(m.id)}: {_effect(m)} ({m.why}, rule {m.rule})" for m in rules.combat.modifiers]
    return Section("Combat results table", table.rule, grid, tuple([legend] + below + modifiers))


def charts_from_rules(game: Game) -> dict[str, list[Section]]:
    """The terrain effects chart and the CRT of a game's ``rules.yaml`` (tab -> its charts); none without one."""
    rules = game.rules_data
    if rules is None:
        return {}
    spec = charts_spec(game.folder)
    words = Words(spec.labels if spec is not None else {}, {})
    pages = {}
    if rules.movement is not None:
        pages["Terrain"] = [terrain_effects(rules, words)]
    if rules.combat is not None:
        pages["Combat"] = [combat_results(rules, words)]
    return pages


def chart_pages(game: Game) -> dict[str, bytes]:
    """Every tab of the Charts window (tab name -> HTML page): ``rules.yaml``'s charts, then ``tables.yaml``'s."""
    tabs = charts_from_rules(game) | charts_from_tables(game)
    width = page_width(tabs)
    return {tab: page(f"{game.spec.title}: {tab}", sections, width, SCROLLBAR_PX if i == 0 else 0)
            for i, (tab, sections) in enumerate(tabs.items())}


def chart_file(title: str) -> str:
    """The archive path of a chart page."""
    return "charts/" + "".join(ch if ch.isalnum() else "_" for ch in title.lower()) + ".html"
