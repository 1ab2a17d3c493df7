// Go to a hex, a place or a unit: one box; Enter centres the map on it and outlines the hex.
import {hexInfo} from "./api.js";
import {html} from "./dom.js";

// The unit a text names (its id, else its counter's name), on the map or not; null when none does.
function namedUnit(source, text) {
  const t = text.trim().toLowerCase();
  return source.units.find((u) => u.id.toLowerCase() === t) ||
    source.units.find((u) => (u.name || "").toLowerCase() === t) || null;
}

// The hex a text names: a unit's hex, else the hex or place the map resolves (/api/hex); an error says why not.
export async function hexNamed(source, text) {
  const unit = namedUnit(source, text);
  if (unit && unit.hex) return {hex: unit.hex, unit};
  if (unit) throw new Error(`${unit.id} is not on the map (${unit.box || "off the map"})`);
  return {hex: (await hexInfo(source.id, text.trim())).hex, unit: null};
}

// The box's suggestions: the units of the source (their ids and names).
export function fillSuggestions(list, source) {
  const names = new Set(source.units.flatMap((u) => [u.id, u.name]).filter(Boolean));
  list.replaceChildren(...[...names].map((n) => html("option", {value: n})));
}

// Centre `hex` and outline it in the `goto` layer.
export function showHex(view, hex) {
  view.clear("goto");
  if (!view.has(hex)) return;
  view.focus(hex);
  view.hexPolygon(hex, {class: "goto-hex"}, view.layer("goto"));
}
