// Small SVG helpers shared by the map's layers.
const NS = "http://www.w3.org/2000/svg";

// A new SVG element with attributes (and text), appended to parent when given.
export function svgEl(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// A tooltip (<title>) on an SVG element.
export function tooltip(node, text) {
  svgEl("title", {}, node, text);
  return node;
}

// Movement points as a player writes them (2½, ½, 3), like the CLI's labels.
export function mpLabel(mp) {
  const whole = Math.trunc(mp);
  const half = mp % 1 !== 0;
  return (whole ? String(whole) : "") + (half ? "½" : "") || "0";
}

// A colour from green (0) through yellow to red (1).
export function ramp(t) {
  const clamped = Math.max(0, Math.min(1, t));
  return `hsl(${Math.round(120 * (1 - clamped))}, 75%, 50%)`;
}
