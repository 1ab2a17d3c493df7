// The page of `toolkit serve`: wires the map, the counters, movement, layers, line of sight and check together.
// Every answer comes from the JSON API (docs/web.md); the page adds no rule of its own.
import {Latest, getJSON, hexInfo, openFile} from "./api.js";
import {html} from "./dom.js";
import {MapView, ZOOM_STEP} from "./mapview.js";
import {drawCounters, hidePicker, markUnits, showStackPicker} from "./counters.js";
import {Moves} from "./moves.js";
import {Play, gameLink, positionLink, standing} from "./play.js";
import {SavedGames} from "./games.js";
import {LAYERS, layerQuery} from "./layers.js";
import {Los} from "./los.js";
import {Combat} from "./combat.js";
import {clearCheck, showCheck} from "./check.js";
import {keepLegend} from "./legend.js";
import {fillSuggestions, hexNamed, showHex} from "./goto.js";
import {ruleText} from "./rules.js";

const $ = (id) => document.getElementById(id);
const view = new MapView($("map"));
// Drawing order, bottom to top: shading under the counters, lines and marks over them.
const LAYER_ORDER = ["reach", "zoc", "moves", "check", "counters", "command", "victory", "supply", "los", "path",
                     "goto", "cursor"];
LAYER_ORDER.forEach((name) => view.layer(name));
// `picks` counts the player's own selections (a click, n / p, Esc): a move's answer re-selects the moved unit
// only when none was made since the move was asked.
const state = {source: null, stacks: new Map(), selected: new Set(), flagged: new Set(), picks: 0};
// Every question the page asks again is matched to the state it asks about: only the latest ask's answer is drawn
// (api.js `Latest`), so a late answer for an older position, side, selection or pair is dropped.
const asking = {check: new Latest(), next: new Latest(), layers: new Map()};

function showError(err) {
  $("error-text").textContent = err.message || String(err);
  $("error").hidden = false;
}
$("error-close").addEventListener("click", () => { $("error").hidden = true; });

const moves = new Moves(view, {text: $("selection-text"), form: $("move-options"), summary: $("moves-summary"),
                               offmap: $("offmap-select"), offmapLabel: $("offmap-label")}, showError);
const combat = new Combat({section: $("combat-section"), attack: $("combat-attack"), defend: $("combat-defend"),
                           addAttack: $("add-attack"), addDefend: $("add-defend"), clear: $("combat-clear"),
                           result: $("combat-result"), kind: $("combat-kind"), kindLabel: $("combat-kind-label"),
                           targetRow: $("combat-target-row"), target: $("combat-target"),
                           pick: $("combat-target-pick")},
                          {view, selection: () => [...state.selected], onError: showError});
const games = new SavedGames({onOpen: (id) => { play.seat = null; return openGame(id).catch(showError); },
                              onError: showError});
const play = games.play = new Play({section: $("play-section"), standing: $("standing"), phase: $("phase-select"),
                       notice: $("phase-notice"), undo: $("undo"), redo: $("redo"), log: $("play-log"),
                       yaml: $("export-yaml"), vsav: $("export-vsav"), free: $("free-placement"),
                       link: $("position-link"), next: $("next-phase"), seat: games.seatLine},
                      {onPosition: showPosition, onError: showError});
const los = new Los(view, {form: $("los-form"), pick: $("los-pick"), from: $("los-from"), to: $("los-to"),
                           convention: $("los-convention"), rules: $("los-rules"), rulesLabel: $("los-rules-label"),
                           verdict: $("los-verdict")}, showError);

// The counters, the selected unit on top of its stack, the selected and flagged ones marked.
function drawStacks() {
  const layer = view.layer("counters");
  state.stacks = drawCounters(view, layer, state.source, state.selected);
  markUnits(layer, state.selected, "selected");
  markUnits(layer, state.flagged, "flagged");
}
const markFlagged = (ids) => { state.flagged = ids; drawStacks(); };
const markSelected = (ids) => { state.selected = ids; $("deselect").hidden = !ids.size; drawStacks(); };

// ---------------------------------------------------------------- sources

async function refreshSources(current) {
  const {sources} = await getJSON("/api/sources");
  const select = $("source-select");
  select.replaceChildren(...sources.map((s) => new Option(`${s.title} (${s.kind === "map" ? "map" : s.game})`, s.id)));
  select.value = current;
  return sources;
}

// Open a saved game where it stands (as the seat of `play.seat` when the link carries one).
async function openGame(id) {
  const source = await getJSON("/api/game", {game: id, seat: play.seat});
  play.side = source.saved.seat;
  await show(source, await getJSON("/api/geometry", {source: source.id}));
}

// Open a source, after `steps` of play when a link carries them (a saved game's position: that game, watched).
async function openSource(id, steps = []) {
  const [source, geometry] = await Promise.all([getJSON(steps.length ? "/api/play" : "/api/source",
                                                        {source: id, step: steps}),
                                               getJSON("/api/geometry", {source: id})]);
  await show(source, geometry);
}

// Show a source: its map, its counters and the panel sections its game has.
async function show(source, geometry) {
  document.body.removeAttribute("data-ready");
  $("loading").hidden = false;
  Object.assign(state, {source, selected: new Set(), flagged: new Set()});
  $("source-select").value = source.base;
  try {
    await view.load(source.id, geometry);
  } finally {
    $("loading").hidden = true;
  }
  drawStacks();
  view.start(state.source.units);
  const unplaced = source.unplaced || [];
  $("unplaced").hidden = !unplaced.length;
  $("unplaced").textContent = `${unplaced.length} pieces of the save could not be placed: ${unplaced.join("; ")}`;
  setupLayers(source);
  play.start(source);
  performance.mark("map-ready");
  window.mapReadyMs = performance.now();
  await showPosition(source);
}

// Show a position on the map already drawn (a source opened, or a step made, undone or redone): its counters,
// where the game stands, the moves and line of sight anew, the layers shown and check recomputed.
async function showPosition(source) {
  Object.assign(state, {source, selected: new Set(), flagged: new Set()});
  $("source-title").textContent = [source.title, standing(source)].filter(Boolean).join(" — ");
  $("standing-bar").textContent = standing(source);   // a phone's bar: the turn and phase, the panel folded away
  drawStacks();
  moves.setSource(source);
  los.setSource(source);
  fillSuggestions($("goto-units"), source);
  view.clear("goto");
  combat.setSource(source);
  if (source.saved) history.replaceState(null, "", gameLink(source, play.seat));
  else if (location.search.includes("step=")) history.replaceState(null, "", positionLink(source));
  games.follow(source);
  document.body.dataset.ready = source.id;
  redrawLayers(() => true);
  runCheck(source);   // not waited for: the position is shown, its check follows (and is dropped if superseded)
}
async function runCheck(source) {
  const section = $("check-section");
  section.hidden = !(source.layers || []).includes("check");
  if (section.hidden) {
    asking.check.cancel();
    return;
  }
  $("check-result").textContent = "checking…";
  try {
    await showCheck(view, $("check-result"), source, markFlagged, asking.check);
  } catch (err) {
    $("check-result").textContent = "";
    showError(err);
  }
}

$("source-select").addEventListener("change", (e) => {
  Object.assign(play, {seat: null, side: null});
  openSource(e.target.value).catch(showError);
});

async function upload(file) {
  try {
    const source = await openFile(file);
    await refreshSources(source.id);
    await show(source, await getJSON("/api/geometry", {source: source.id}));
  } catch (err) {
    showError(err.message.includes(file.name) ? err : new Error(`${file.name}: ${err.message}`));
  }
}

$("file-input").addEventListener("change", (e) => {
  const [file] = e.target.files;
  e.target.value = "";
  if (file) upload(file);
});
document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
document.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dropping");
  const [file] = e.dataTransfer.files;
  if (file) upload(file);
});

// ---------------------------------------------------------------- layers

function setupLayers(source) {
  const toggles = $("layer-toggles"), notes = $("layer-notes");
  toggles.replaceChildren();
  notes.replaceChildren();
  const names = (source.layers || []).filter((l) => LAYERS[l]);
  for (const name of Object.keys(LAYERS)) view.clear(name);
  for (const name of names) {
    const box = html("input", {type: "checkbox", name, id: `layer-${name}`});
    box.addEventListener("change", () => drawLayer(name));
    toggles.append(html("label", {}, box, ` ${LAYERS[name].label}`));
  }
  const sided = names.some((l) => LAYERS[l].sided);
  $("layer-side-label").hidden = !sided;
  const sides = source.sides || [];
  $("layer-side").replaceChildren(...sides.map((s) => new Option(s, s)));
  $("layer-side").value = sides[sides.length - 1] || "";
  if (!names.length && source.kind === "map") notes.textContent = "A bare map: open a position for the game's layers.";
}

// Draw a layer anew (or take it away when unticked): its answer for the position shown and the side picked; an
// answer to an earlier question (another position, side, or the layer since unticked) is dropped.
async function drawLayer(name) {
  if (!asking.layers.has(name)) asking.layers.set(name, new Latest());
  const latest = asking.layers.get(name), source = state.source;
  view.clear(name);
  document.getElementById(`notes-${name}`)?.remove();
  if (!$(`layer-${name}`).checked) {
    latest.cancel();
    return;
  }
  let answer;
  try {
    answer = await latest.get(LAYERS[name].path, layerQuery(name, source, $("layer-side").value));
  } catch (err) {
    showError(err);
    return;
  }
  if (answer === null) return;
  const box = html("div", {id: `notes-${name}`, className: "layer-note"},
                   html("h3", {textContent: LAYERS[name].label}));
  box.append(...LAYERS[name].draw(view, view.layer(name), source, answer));
  $("layer-notes").append(box);
}

// Draw again the layers shown that `which(layer)` picks.
function redrawLayers(which) {
  for (const [name, layer] of Object.entries(LAYERS)) {
    if (which(layer) && $(`layer-${name}`)?.checked) drawLayer(name);
  }
}
const redrawSidedLayers = () => redrawLayers((layer) => layer.sided);
$("layer-side").addEventListener("change", redrawSidedLayers);

// ---------------------------------------------------------------- selection, hover, keys

// The player selects `units` (a click, the stack picker, n / p, a drag).
function select(units) {
  state.picks += 1;
  showSelected(units);
}

// `units` selected (their moves asked), the sided layers shown for their enemy.
function showSelected(units) {
  const ids = units.map((u) => u.id);
  markSelected(new Set(ids));
  const enemy = (state.source.sides || []).find((s) => s !== units[0].side);
  if (enemy && $("layer-side").value !== enemy) {
    $("layer-side").value = enemy;
    redrawSidedLayers();
  }
  moves.select(ids);
}

view.on("click", (hex, e) => {
  hidePicker($("stack-picker"));
  if (los.clickHex(hex) || combat.clickHex(hex)) return;
  if (e.pointerType === "touch" && !play.free && !moves.confirm(hex)) return;   // a finger's first tap only shows
  if (moveTo(hex)) return;
  const units = hex && state.stacks.get(hex);
  if (!units) return;
  if (units.length === 1) select(units);
  else showStackPicker($("stack-picker"), hex, units, [e.clientX, e.clientY], select);
});

// The selected units moved to `hex` when it is one of their destinations (or anywhere empty, placing freely);
// the units stay selected to show what is left of their move, unless the player selected another meanwhile.  False
// when the click is not a move; a click on a destination while a step is being made makes nothing (a double
// click, a second destination clicked on a slow server: one move, made from the position it was asked of).
function moveTo(hex) {
  const chosen = moves.selected;
  if (!hex || !chosen.length) return false;
  const free = play.free && !state.stacks.has(hex);
  if (!free && !(moves.destination(hex) && !play.free)) return false;
  if (play.making) return true;
  const {with: along, ...options} = moves.options();
  const picks = state.picks;
  play.move([chosen[0], ...along], hex, options).then((after) => {
    if (!after || play.source !== after || state.picks !== picks) return;
    const still = after.units.filter((u) => u.id === chosen[0]);
    if (still.length) showSelected(still);
  });
  return true;
}

// Dragging a counter: it carries the selected unit when its stack is pressed, else the stack's top unit
// (selected when the drag starts, its moves asked); dropped on a destination, it moves.
view.grab = (hex) => state.stacks.has(hex) && !los.picking;
view.on("carry", (hex) => {
  const units = state.stacks.get(hex);
  if (!units.some((u) => state.selected.has(u.id))) select([units[units.length - 1]]);
});
view.on("drop", async (from, to) => {
  await moves.ready();
  if (to && to !== from) moveTo(to);
});

let hovered = null;
view.on("hover", async (hex) => {
  hovered = hex;
  view.clear("cursor");
  if (hex) view.hexPolygon(hex, {class: "cursor-hex"}, view.layer("cursor"));
  const move = moves.hover(hex);
  const moveBox = $("hover-move");
  moveBox.textContent = move ? move.text + (move.rule ? ` (rule ${ruleText(state.source, move.rule)})` : "") : "";
  if (move?.armed) moveBox.append(html("span", {className: "tap-again", textContent: "Tap again to move here"}));
  moveBox.dataset.rule = move?.rule || "";
  moveBox.dataset.reason = move?.reason || "";
  if (!hex) { $("hover-hex").textContent = ""; return; }
  try {
    const h = await hexInfo(state.source.id, hex);
    if (hovered !== hex) return;
    const place = h.place ? ` — ${h.place}` : "";
    const terrain = h.terrain.join(", ") || "no terrain";
    $("hover-hex").textContent = `${h.hex}${place} · ${terrain} · elevation ${h.elevation}`;
  } catch (err) {
    showError(err);
  }
});

// The next (step 1) or previous (step −1) unit of the phasing side on the map after the one selected that has a
// legal move now (/api/moves: a garrison that may not move is passed over), selected and centred.
async function selectNext(step) {
  const source = state.source;
  const units = source.units.filter((u) => u.side === source.phasing_side && u.hex && view.has(u.hex));
  if (!units.length) return;
  const at = units.findIndex((u) => state.selected.has(u.id));
  const first = at < 0 ? (step > 0 ? 0 : units.length - 1) : at + step;
  const order = units.map((_, i) => units[((first + i * step) % units.length + units.length) % units.length]);
  let unit;
  try {
    unit = await asking.next.run(async (signal) => {
      for (const u of order) {
        const a = await getJSON("/api/moves", {source: source.id, unit: u.id}, signal);
        if (!a.refused && a.destinations.length) return u;
      }
      return undefined;
    });
  } catch (err) {
    showError(err);
    return;
  }
  if (unit === null || state.source !== source) return;   // pressed again, or another position shown since
  if (unit === undefined) {
    $("selection-text").textContent = `No unit of the ${source.phasing_side} side has a legal move now.`;
    return;
  }
  view.focus(unit.hex);
  select([unit]);
}

// Keys (not while typing; `?` lists them): + / − zoom, the arrows pan a quarter of the view, n / p the next or
// previous unit of the phasing side, Ctrl+Z / Ctrl+Y undo and redo.
const MAP_KEYS = {"+": () => view.zoom(ZOOM_STEP), "=": () => view.zoom(ZOOM_STEP), "-": () => view.zoom(1 / ZOOM_STEP),
                  ArrowLeft: () => view.step(-0.25, 0), ArrowRight: () => view.step(0.25, 0),
                  ArrowUp: () => view.step(0, -0.25), ArrowDown: () => view.step(0, 0.25),
                  n: () => selectNext(1), p: () => selectNext(-1),
                  "?": () => { $("keys-help").hidden = !$("keys-help").hidden; }};
const CTRL_KEYS = {z: () => play.go(play.at - 1), y: () => play.go(play.at + 1)};
document.addEventListener("keydown", (e) => {
  const typing = e.target.closest("input, select, textarea");
  const keys = e.ctrlKey || e.metaKey ? CTRL_KEYS : e.altKey ? {} : MAP_KEYS;
  if (keys[e.key] && !typing && view.viewBox) {
    e.preventDefault();
    keys[e.key]();
  }
  if (e.key !== "Escape") return;
  $("keys-help").hidden = true;
  view.clear("goto");
  clearSelection();
  los.clear();
  clearCheck(view, $("check-result"), markFlagged);
});

// Nothing selected: the unit's moves and its marks gone (Esc, or the ✕ under the zoom buttons: a phone has no
// Esc, and a tap on another stack that is a destination moves there).
function clearSelection() {
  state.picks += 1;
  asking.next.cancel();
  hidePicker($("stack-picker"));
  moves.clear();
  markSelected(new Set());
}
$("deselect").addEventListener("click", clearSelection);

// A phone: the panel folds away under the map, the button in the bar unfolds it.
$("panel-toggle").addEventListener("click", () => {
  const open = document.body.classList.toggle("panel-open");
  $("panel-toggle").setAttribute("aria-expanded", String(open));
});

// Go to: Enter centres the hex, place or unit named in the box and outlines it.
$("goto-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const {hex} = await hexNamed(state.source, $("goto").value);
    showHex(view, hex);
  } catch (err) {
    showError(new Error(`Go to ${$("goto").value.trim().slice(0, 60)}: ${err.message}`));
  }
});
$("keys-help").addEventListener("click", () => { $("keys-help").hidden = true; });
keepLegend(view, $("legend-list"));

$("zoom-in").addEventListener("click", () => view.zoom(ZOOM_STEP));
$("zoom-out").addEventListener("click", () => view.zoom(1 / ZOOM_STEP));
$("zoom-fit").addEventListener("click", () => view.fit());

// ---------------------------------------------------------------- start

// A link opens its source with its steps made again (`/?source=…&step=…`); `/los?…&from=…&to=…` (a line of
// sight's permalink, with `map=` or `source=` and `rules=1` for the game's own rule) draws that line too.
async function start() {
  const {current, sources} = await getJSON("/api/sources");
  const link = new URLSearchParams(location.search), drawLine = location.pathname === "/los";
  const wanted = link.get("source") || (link.get("map") ? `map:${link.get("map")}` : current || sources[0]?.id);
  await refreshSources(wanted);
  play.seat = link.get("seat");
  if (link.get("game")) await openGame(link.get("game"));
  else await openSource(wanted, link.getAll("step"));
  if (drawLine) {
    $("los-from").value = link.get("from") || "";
    $("los-to").value = link.get("to") || "";
    $("los-convention").value = link.get("convention") || "";
    $("los-rules").checked = link.has("rules");
    await los.run(los.params(), {focus: true});
  }
}

window.toolkitPage = {view, moves, los, play, games};
start().catch(showError);
