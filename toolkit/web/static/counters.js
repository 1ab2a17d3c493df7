// The position's counters: one per stack (its top unit: its id, values and kind) with a count badge; a click
// expands the stack.
import {html} from "./dom.js";
import {svgEl, tooltip} from "./svg.js";

const SIDE_COLOURS = [["#cfe0f5", "#1d4f91"], ["#f1dfb8", "#7a4a12"], ["#dcefd6", "#2f6b2a"], ["#f3d3d3", "#8a1f1f"]];

// The units on the map by hex, in the position's order (the last one is on top).
function stacks(units) {
  const byHex = new Map();
  for (const u of units) {
    if (u.hex === null || u.hex === undefined) continue;
    if (!byHex.has(u.hex)) byHex.set(u.hex, []);
    byHex.get(u.hex).push(u);
  }
  return byHex;
}

// A side's counter colours [fill, ink]: its game.yaml's (`side_colours` in /api/source), else the page's by its
// place in the game's sides.
export function sideColours(source, side) {
  const own = (source.side_colours || {})[side];
  return own || SIDE_COLOURS[Math.max(0, source.sides.indexOf(side)) % SIDE_COLOURS.length];
}

// "Armoured Car j-ac-2 (4-30)": its name and its id (two counters alike told apart), its values.
export function unitLabel(u) {
  const name = u.name && u.name !== u.id ? `${u.name} ${u.id}` : u.id;
  return `${name} (${u.values || u.type}${u.face === "back" ? ", back" : ""})`;
}

// A label's font size: `most` of the counter's size, smaller for a long label so that it fits the counter.
function fitted(size, label, most) {
  return size * Math.min(most, 1.75 / Math.max(1, label.length));
}

// Draw every stack into `layer` (a selected unit shown on top of its stack); returns the stacks by hex.
export function drawCounters(view, layer, source, selected = new Set()) {
  layer.replaceChildren();
  const byHex = stacks(source.units);
  const size = view.radius * 1.2;
  for (const [hex, units] of byHex) {
    if (!view.has(hex)) continue;
    const top = units.findLast((u) => selected.has(u.id)) || units[units.length - 1];
    const [fill, ink] = sideColours(source, top.side);
    const [cx, cy] = view.centre(hex);
    const g = svgEl("g", {class: "stack", "data-hex": hex, "data-units": units.map((u) => u.id).join(" "),
                          transform: `translate(${cx} ${cy})`}, layer);
    if (units.length > 1) {
      svgEl("rect", {x: -size / 2 + size * 0.08, y: -size / 2 - size * 0.08, width: size, height: size,
                     rx: size * 0.08, fill, stroke: ink, "stroke-width": size * 0.03, class: "under"}, g);
    }
    svgEl("rect", {x: -size / 2, y: -size / 2, width: size, height: size, rx: size * 0.08, fill, stroke: ink,
                   "stroke-width": size * 0.04, class: top.face === "back" ? "face back" : "face"}, g);
    const values = top.values || "", kind = (top.type || "").replace(/_/g, " ");
    svgEl("text", {y: -size * 0.28, "font-size": fitted(size, top.id, 0.2), fill: ink, class: "name"}, g, top.id);
    svgEl("text", {y: size * 0.12, "font-size": fitted(size, values, 0.36), fill: ink, class: "values"}, g, values);
    svgEl("text", {y: size * 0.38, "font-size": fitted(size, kind, 0.22), fill: ink, class: "kind"}, g, kind);
    if (units.length > 1) {
      svgEl("circle", {cx: size * 0.5, cy: -size * 0.5, r: size * 0.2, class: "badge"}, g);
      svgEl("text", {x: size * 0.5, y: -size * 0.5 + size * 0.08, "font-size": size * 0.24, class: "badge-text"}, g,
            String(units.length));
    }
    tooltip(g, `${hex}: ${units.map(unitLabel).reverse().join(", ")}`);
  }
  return byHex;
}

// Mark the counters of the given units (check violations, out of command, the selection).
export function markUnits(layer, unitIds, cls) {
  for (const g of layer.querySelectorAll(".stack")) {
    const ids = g.dataset.units.split(" ");
    g.classList.toggle(cls, ids.some((id) => unitIds.has(id)));
  }
}

// The popover listing a stack's units (top first), each a button; `choose(units)` gets the units to move.
export function showStackPicker(picker, hex, units, at, choose) {
  picker.replaceChildren(html("div", {className: "picker-heading", textContent: `Stack in ${hex}`}));
  const button = (text, chosen, unit) => {
    const b = html("button", {type: "button", textContent: text, dataset: unit ? {unit} : {}});
    b.addEventListener("click", () => { hidePicker(picker); choose(chosen); });
    picker.append(b);
  };
  for (const u of [...units].reverse()) button(unitLabel(u), [u], u.id);
  button(`the whole stack (${units.length} units)`, [...units].reverse());
  const area = picker.parentElement.getBoundingClientRect();
  picker.style.left = `${Math.max(4, Math.min(at[0] - area.left + 12, area.width - 280))}px`;
  picker.style.top = `${Math.max(4, Math.min(at[1] - area.top + 12, area.height - 40 - 30 * (units.length + 1)))}px`;
  picker.hidden = false;
  picker.querySelector("button").focus();
}

export function hidePicker(picker) {
  picker.hidden = true;
  picker.replaceChildren();
}
