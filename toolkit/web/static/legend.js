// The legend: what the colours on the map mean, for the layers that have something drawn now.
import {html} from "./dom.js";
import {ramp, svgEl} from "./svg.js";

const HEX = "14,2 25,8 25,20 14,26 3,20 3,8";   // a hex in the swatch's 28 × 28 box
const NARROW = "(max-width: 760px)";   // a phone, as app.css's @media says: the legend starts closed
const LINE = "2,22 12,10 26,6";

// Per layer, its swatches: [shape, class of the swatch's group, attributes, meaning]; the classes are the map's own
// (the groups are `legend-*`, not `layer-*`: what selects a layer's marks selects none of these).
const ENTRIES = {
  moves: [["hex", "legend-moves", {class: "dest", fill: ramp(0)}, "a destination, cheap (green) to dear (red); the number is its cost in MP"],
          ["hex", "legend-moves", {class: "dest stop", fill: ramp(0.5)}, "the move must stop there (■)"],
          ["hex", "legend-moves", {class: "unreachable"}, "refused: hover (or tap) it for the reason and rule"]],
  path: [["line", "legend-path", {class: "move-path-swatch"},
          "the cheapest path to the hex under the pointer (or tapped)"]],
  zoc: [["hex", "legend-zoc", {class: "zoc"}, "in the enemy's zone of control (hatched)"]],
  reach: [["hex", "legend-reach", {class: "reach", fill: ramp(1)}, "enemy units can reach or attack it (redder: more of them)"]],
  supply: [["line", "supply-line", {class: "path"}, "a supply line"],
           ["line", "supply-line", {class: "rail"}, "by rail"],
           ["line", "supply-line cut", {class: "path"}, "cut (✕ where)"]],
  command: [["line", "legend-command", {class: "command-radius", stroke: "#1f77b4"}, "an HQ's command radius (a colour each)"],
            ["cross", "legend-command", {class: "out-of-command"}, "out of command"]],
  victory: [["line", "legend-victory", {class: "victory-road"}, "the victory road"],
            ["hex", "legend-victory", {class: "held"}, "held"],
            ["cross", "legend-victory", {class: "victory-cut"}, "cuts the road"]],
  check: [["hex", "legend-check", {class: "violation-hex"}, "where the rule picked in Check is broken"]],
  los: [["line", "legend-los", {class: "los-clear"}, "line of sight: visible"],
        ["line", "legend-los", {class: "los-blocked"}, "blocked"],
        ["hex", "legend-los", {class: "los-blocking"}, "a blocking hex"]],
  goto: [["hex", "legend-goto", {class: "goto-hex"}, "the hex gone to"]],
  target: [["hex", "legend-target", {class: "target-hex"}, "the attacked hex (Combat)"]],
};

function swatch([shape, group, attrs]) {
  const svg = svgEl("svg", {viewBox: "0 0 28 28", width: 22, height: 22, class: "swatch"});
  const g = svgEl("g", {class: group}, svg);
  if (shape === "hex") svgEl("polygon", {points: HEX, ...attrs}, g);
  else if (shape === "line") svgEl("polyline", {points: LINE, fill: "none", ...attrs}, g);
  else svgEl("path", {d: "M6,6L22,22M22,6L6,22", ...attrs}, g);
  return svg;
}

// Keep `box` (a list) showing the swatches of the layers of `view` with something drawn in them; the legend is open
// at first on a large screen, closed on a phone (it would hide the map), then as the player leaves it.
export function keepLegend(view, box) {
  box.closest("details").open = !window.matchMedia(NARROW).matches;
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
