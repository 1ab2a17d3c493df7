// The legend: what the colours on the map mean, for the layers that have something drawn now.
import {html} from "./dom.js";
import {ramp, svgEl} from "./svg.js";

const HEX = "14,2 25,8 25,20 14,26 3,20 3,8";   // a hex in the swatch's 28 × 28 box
const LINE = "2,22 12,10 26,6";

// Per layer, its swatches: [shape, class of the layer group, attributes, meaning]; the classes are the map's own.
const ENTRIES = {
  moves: [["hex", "layer-moves", {class: "dest", fill: ramp(0)}, "a destination, cheap (green) to dear (red); the number is its cost in MP"],
          ["hex", "layer-moves", {class: "dest stop", fill: ramp(0.5)}, "the move must stop there (■)"],
          ["hex", "layer-moves", {class: "unreachable"}, "refused: hover it for the reason and rule"]],
  path: [["line", "layer-path", {class: "move-path"}, "the cheapest path to the hex under the pointer"]],
  zoc: [["hex", "layer-zoc", {class: "zoc"}, "in the enemy's zone of control (hatched)"]],
  reach: [["hex", "layer-reach", {class: "reach", fill: ramp(1)}, "enemy units can reach or attack it (redder: more of them)"]],
  supply: [["line", "supply-line", {class: "path"}, "a supply line"],
           ["line", "supply-line", {class: "rail"}, "by rail"],
           ["line", "supply-line cut", {class: "path"}, "cut (✕ where)"]],
  command: [["line", "layer-command", {class: "command-radius", stroke: "#1f77b4"}, "an HQ's command radius (a colour each)"],
            ["cross", "layer-command", {class: "out-of-command"}, "out of command"]],
  victory: [["line", "layer-victory", {class: "victory-road"}, "the victory road"],
            ["hex", "layer-victory", {class: "held"}, "held"],
            ["cross", "layer-victory", {class: "victory-cut"}, "cuts the road"]],
  check: [["hex", "layer-check", {class: "violation-hex"}, "where the rule picked in Check is broken"]],
  los: [["line", "layer-los", {class: "los-clear"}, "line of sight: visible"],
        ["line", "layer-los", {class: "los-blocked"}, "blocked"],
        ["hex", "layer-los", {class: "los-blocking"}, "a blocking hex"]],
  goto: [["hex", "layer-goto", {class: "goto-hex"}, "the hex gone to"]],
};

function swatch([shape, group, attrs]) {
  const svg = svgEl("svg", {viewBox: "0 0 28 28", width: 22, height: 22, class: "swatch"});
  const g = svgEl("g", {class: group}, svg);
  if (shape === "hex") svgEl("polygon", {points: HEX, ...attrs}, g);
  else if (shape === "line") svgEl("polyline", {points: LINE, fill: "none", ...attrs}, g);
  else svgEl("path", {d: "M6,6L22,22M22,6L6,22", ...attrs}, g);
  return svg;
}

// Keep `box` (a list) showing the swatches of the layers of `view` with something drawn in them.
export function keepLegend(view, box) {
  let queued = false;
  const update = () => {
    queued = false;
    const shown = Object.keys(ENTRIES).filter((name) => view.layer(name).childElementCount > 0);
    box.replaceChildren(...shown.flatMap((name) => ENTRIES[name].map((entry) =>
      html("li", {dataset: {layer: name}}, swatch(entry), ` ${entry[3]}`))));
    box.closest("details").hidden = !shown.length;
  };
  new MutationObserver(() => {
    if (!queued) requestAnimationFrame(update);
    queued = true;
  }).observe(view.layerRoot, {childList: true, subtree: true});
  update();
}
