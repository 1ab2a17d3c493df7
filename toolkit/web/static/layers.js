// The layers a source's game has (`layers` in /api/source): each draws one API answer and writes its notes; the
// page asks (app.js), so that only the answer to its latest question is drawn.
import {html} from "./dom.js";
import {ramp, svgEl, tooltip} from "./svg.js";
import {sideColours} from "./counters.js";
import {ruleText} from "./rules.js";

const HQ_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"];

function note(text, cls = "") {
  return html("p", {textContent: text, className: cls});
}

function polyline(view, hexes, attrs, parent) {
  return svgEl("polyline", {points: view.pathPoints(hexes), ...attrs}, parent);
}

function cross(view, hex, attrs, parent) {
  const [x, y] = view.centre(hex), r = view.radius * 0.45;
  const d = `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`;
  return svgEl("path", {d, ...attrs}, parent);
}

function zoc(view, g, source, a) {
  for (const h of a.hexes) {
    if (view.has(h.hex)) tooltip(view.hexPolygon(h.hex, {class: "zoc"}, g), `ZOC of ${h.units.join(", ")} (${ruleText(source, h.rule)})`);
  }
  return [note(`${a.hexes.length} hexes in the ZOC of the ${a.side} units (hatched).`)];
}

function supply(view, g, source, a) {
  const notes = [];
  for (const u of a.units) {
    const line = svgEl("g", {class: u.supplied ? "supply-line" : "supply-line cut", "data-unit": u.unit}, g);
    if (u.rail_path && u.rail_path.length > 1) polyline(view, u.rail_path, {class: "rail"}, line);
    if (u.path.length > 1) polyline(view, u.path, {class: "path"}, line);
    else if (u.hex && view.has(u.hex)) svgEl("circle", {cx: view.centre(u.hex)[0], cy: view.centre(u.hex)[1],
                                                       r: view.radius * 0.2, class: "at-source"}, line);
    const why = u.cut ? `cut at ${u.cut.hex}: ${u.cut.reason} (${ruleText(source, u.cut.rule)})`
      : `supplied (${ruleText(source, u.rule)})`;
    tooltip(line, `${u.unit}: ${why}`);
    if (u.cut) {
      if (view.has(u.cut.hex)) cross(view, u.cut.hex, {class: "cut-mark"}, line);
      notes.push(note(`${u.unit} in ${u.hex}: ${why}`, "cut"));
    }
  }
  const cut = notes.length;
  notes.unshift(note(`${a.units.length} supply lines: ${a.units.length - cut} in supply (green, rail dotted), ` +
                     `${cut} cut (red, ✕ where and why).`));
  return notes;
}

function command(view, g, source, a) {
  const notes = [];
  a.hqs.forEach((hq, i) => {
    const colour = HQ_COLOURS[i % HQ_COLOURS.length];
    const radius = svgEl("path", {d: view.outline(hq.hexes), stroke: colour, class: "command-radius",
                                  "data-hq": hq.hq}, g);
    const rule = ruleText(source, hq.rule);
    tooltip(radius, `${hq.hq}: radius ${hq.radius} (${rule})`);
    if (hq.hex && view.has(hq.hex)) view.hexPolygon(hq.hex, {class: "hq", stroke: colour}, g);
    const line = note(`${hq.hq} in ${hq.hex}: radius ${hq.radius} (${rule}), ${hq.units.length} units in command`);
    line.title = hq.units.join(", ");
    notes.push(line);
  });
  for (const u of a.out_of_command || []) {     // the games whose calculator lists them (the Siege 5.x)
    const why = `${u.reason} (${ruleText(source, u.rule)})`;
    if (u.hex && view.has(u.hex)) tooltip(cross(view, u.hex, {class: "out-of-command"}, g), `${u.unit}: ${why}`);
    notes.push(note(`${u.unit} in ${u.hex}: out of command — ${why}`, "cut"));
  }
  return notes;
}

// The game's objectives (a rules.yaml game): each outlined in its holder's colour, its VP and holder written
// under its counters.
function objectives(view, g, source, list) {
  for (const o of list) {
    if (!view.has(o.hex)) continue;
    const mark = svgEl("g", {class: "objective", "data-hex": o.hex, "data-holder": o.holder || ""}, g);
    const colour = o.holder ? sideColours(source, o.holder)[1] : "#555";
    view.hexPolygon(o.hex, {class: "objective-hex", stroke: colour}, mark, 0.86);
    const [x, y] = view.centre(o.hex);
    svgEl("text", {x, y: y + view.radius * 0.8, "font-size": view.radius * 0.22, fill: colour,
                   class: "objective-label"}, mark, `${o.vp} VP · ${o.holder || "nobody"}`);
    tooltip(mark, `${o.hex}: held by ${o.holder || "nobody"} (${o.how}); ${o.vp} VP to ${o.side} (${o.rule})`);
  }
}

// Jerusalem!'s road and the hexes cutting it, the hexes held (by the side scoring them), the game's objectives.
function victory(view, g, source, a) {
  if (a.road) polyline(view, a.road.path, {class: "victory-road"}, g);
  for (const h of a.cut_by || []) if (view.has(h)) cross(view, h, {class: "victory-cut"}, g);
  for (const h of a.city_hexes_held || a.held || []) if (view.has(h)) view.hexPolygon(h, {class: "held"}, g, 0.8);
  objectives(view, g, source, a.objectives || []);
  return a.explanation.split("\n").map((line) => note(line));
}

function reach(view, g, source, a) {
  const most = Math.max(1, ...a.hexes.map((h) => h.count));
  for (const h of a.hexes) {
    if (!view.has(h.hex)) continue;
    tooltip(view.hexPolygon(h.hex, {class: "reach", fill: ramp(h.count / most), "data-count": h.count}, g, 0.95),
            `${h.count} units can reach or attack ${h.hex}: ${h.units.join(", ")}`);
    const [x, y] = view.centre(h.hex);
    svgEl("text", {x, y: y - view.radius * 0.45, "font-size": view.radius * 0.38, class: "reach-count"}, g,
          String(h.count));
  }
  return [note(`${a.hexes.length} hexes the ${a.side} units can reach or attack next turn; ` +
               `the number is how many (up to ${most}).`)];
}

// Each layer: its label, the API answer it draws (asked of the source, and of a side when `sided`) and what draws
// that answer into its group and returns its notes.
export const LAYERS = {
  zoc: {label: "Enemy ZOC", path: "/api/zoc", draw: zoc, sided: true},
  supply: {label: "Supply lines", path: "/api/supply", draw: supply},
  command: {label: "Command radii", path: "/api/command", draw: command},
  victory: {label: "Victory", path: "/api/victory", draw: victory},
  reach: {label: "Enemy reach", path: "/api/reach", draw: reach, sided: true},
};

// The query of a layer's answer for a source (and the side picked, for a sided layer).
export function layerQuery(name, source, side) {
  return {source: source.id, ...(LAYERS[name].sided ? {side} : {})};
}
