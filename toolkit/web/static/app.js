// The page of `toolkit serve`: wires the map, the counters, movement, layers, line of sight and check together.
// Every answer comes from the JSON API (docs/web.md); the page adds no rule of its own.
import {getJSON, hexInfo, openFile} from "./api.js";
import {html} from "./dom.js";
import {MapView, ZOOM_STEP} from "./mapview.js";
import {drawCounters, hidePicker, markUnits, showStackPicker} from "./counters.js";
import {Moves, phaseName} from "./moves.js";
import {LAYERS} from "./layers.js";
import {Los} from "./los.js";
import {clearCheck, showCheck} from "./check.js";

const $ = (id) => document.getElementById(id);
const view = new MapView($("map"));
// Drawing order, bottom to top: shading under the counters, lines and marks over them.
const LAYER_ORDER = ["reach", "zoc", "moves", "check", "counters", "command", "victory", "supply", "los", "path",
                     "cursor"];
LAYER_ORDER.forEach((name) => view.layer(name));
const state = {source: null, stacks: new Map(), selected: new Set(), flagged: new Set()};

function showError(err) {
  $("error-text").textContent = err.message || String(err);
  $("error").hidden = false;
}
$("error-close").addEventListener("click", () => { $("error").hidden = true; });

const moves = new Moves(view, {text: $("selection-text"), form: $("move-options"), phase: $("phase-select"),
                               summary: $("moves-summary"), offmap: $("offmap-select"), offmapLabel: $("offmap-label")},
                        showError);
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
const markSelected = (ids) => { state.selected = ids; drawStacks(); };

// ---------------------------------------------------------------- sources

async function refreshSources(current) {
  const {sources} = await getJSON("/api/sources");
  const select = $("source-select");
  select.replaceChildren(...sources.map((s) => new Option(`${s.title} (${s.kind === "map" ? "map" : s.game})`, s.id)));
  select.value = current;
  return sources;
}

async function openSource(id) {
  const [source, geometry] = await Promise.all([getJSON("/api/source", {source: id}),
                                               getJSON("/api/geometry", {source: id})]);
  await show(source, geometry);
}

// Show a source: its map, its counters and the panel sections its game has.
async function show(source, geometry) {
  document.body.removeAttribute("data-ready");
  $("loading").hidden = false;
  Object.assign(state, {source, selected: new Set(), flagged: new Set()});
  $("source-title").textContent = source.title + (source.phase ? ` — ${phaseName(source, source.phase)} phase` : "");
  $("source-select").value = source.id;
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
  moves.setSource(source);
  los.setSource(source);
  setupLayers(source);
  performance.mark("map-ready");
  window.mapReadyMs = performance.now();
  document.body.dataset.ready = source.id;
  await runCheck(source);
}

async function runCheck(source) {
  const section = $("check-section");
  section.hidden = !(source.layers || []).includes("check");
  if (section.hidden) return;
  $("check-result").textContent = "checking…";
  try {
    await showCheck(view, $("check-result"), source, markFlagged);
  } catch (err) {
    $("check-result").textContent = "";
    showError(err);
  }
}

$("source-select").addEventListener("change", (e) => openSource(e.target.value).catch(showError));

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

async function drawLayer(name) {
  const on = $(`layer-${name}`).checked;
  view.clear(name);
  const noteId = `notes-${name}`;
  document.getElementById(noteId)?.remove();
  if (!on) return;
  const box = html("div", {id: noteId, className: "layer-note"}, html("h3", {textContent: LAYERS[name].label}));
  $("layer-notes").append(box);
  try {
    box.append(...await LAYERS[name].draw(view, view.layer(name), state.source, $("layer-side").value));
  } catch (err) {
    box.remove();
    showError(err);
  }
}

function redrawSidedLayers() {
  for (const [name, layer] of Object.entries(LAYERS)) {
    if (layer.sided && $(`layer-${name}`)?.checked) drawLayer(name);
  }
}
$("layer-side").addEventListener("change", redrawSidedLayers);

// ---------------------------------------------------------------- selection, hover, keys

function select(units) {
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
  if (los.clickHex(hex)) return;
  const units = hex && state.stacks.get(hex);
  if (!units) return;
  if (units.length === 1) select(units);
  else showStackPicker($("stack-picker"), hex, units, [e.clientX, e.clientY], select);
});

let hovered = null;
view.on("hover", async (hex) => {
  hovered = hex;
  view.clear("cursor");
  if (hex) view.hexPolygon(hex, {class: "cursor-hex"}, view.layer("cursor"));
  const move = moves.hover(hex);
  const moveBox = $("hover-move");
  moveBox.textContent = move ? move.text + (move.rule ? ` (rule ${move.rule})` : "") : "";
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

document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  hidePicker($("stack-picker"));
  moves.clear();
  los.clear();
  markSelected(new Set());
  clearCheck(view, $("check-result"), markFlagged);
});

$("zoom-in").addEventListener("click", () => view.zoom(ZOOM_STEP));
$("zoom-out").addEventListener("click", () => view.zoom(1 / ZOOM_STEP));
$("zoom-fit").addEventListener("click", () => view.fit());

// ---------------------------------------------------------------- start

// `/los?map=…&from=…&to=…&convention=…` (a permalink) opens that map with the line drawn.
async function start() {
  const {current, sources} = await getJSON("/api/sources");
  const link = new URLSearchParams(location.search);
  const wanted = location.pathname === "/los" && link.get("map") ? `map:${link.get("map")}` : current || sources[0]?.id;
  await refreshSources(wanted);
  await openSource(wanted);
  if (location.pathname === "/los") {
    $("los-from").value = link.get("from") || "";
    $("los-to").value = link.get("to") || "";
    $("los-convention").value = link.get("convention") || "";
    await los.run(los.params(), {focus: true});
  }
}

window.toolkitPage = {view, moves, los};
start().catch(showError);
