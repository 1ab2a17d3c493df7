// Go to a hex, a place or a unit: one box; Enter centres the map on it and outlines the hex.
import {hexInfo} from "./api.js";
import {html} from "./dom.js";

// The unit a text names exactly (its id, else its counter's name), on the map or not; null when none does.
function namedUnit(source, text) {
  const t = text.trim().toLowerCase();
  return source.units.find((u) => u.id.toLowerCase() === t) ||
    source.units.find((u) => (u.name || "").toLowerCase() === t) || null;
}

// The units whose id or name begins with the text, else those that contain it.
function partlyNamed(source, text) {
  const t = text.trim().toLowerCase(), names = (u) => [u.id, u.name || ""].map((n) => n.toLowerCase());
  const starting = source.units.filter((u) => names(u).some((n) => n.startsWith(t)));
  return starting.length ? starting : source.units.filter((u) => names(u).some((n) => n.includes(t)));
}

// The hex of a unit; an error when it is off the map.
function unitHex(unit) {
  if (unit.hex) return {hex: unit.hex, unit};
  throw new Error(`${unit.id} is not on the map (${unit.box_name || "off the map"})`);
}

// The hex a text names: a unit's hex (its id or name, or a part of one that only one unit has), else the hex or
// place the map resolves (/api/hex); an error says why not, and lists the units a part names when several do.
export async function hexNamed(source, text) {
  const unit = namedUnit(source, text);
  if (unit) return unitHex(unit);
  try {
    return {hex: (await hexInfo(source.id, text.trim())).hex, unit: null};
  } catch (err) {
    const units = partlyNamed(source, text);
    if (units.length === 1) return unitHex(units[0]);
    if (units.length > 1) {
      const listed = units.slice(0, 8).map((u) => u.id).join(", ") + (units.length > 8 ? ", …" : "");
      throw new Error(`${units.length} units are named so (${listed}); type more of the name`);
    }
    throw err;
  }
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
