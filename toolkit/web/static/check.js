// Check: the position's violations (/api/check); clicking one highlights its hexes and units.
import {html} from "./dom.js";
import {ruleText} from "./rules.js";

// The check of `source` asked through `asking` (a Latest): null, nothing shown, when a newer position was asked.
export async function showCheck(view, box, source, markUnits, asking) {
  const a = await asking.get("/api/check", {source: source.id});
  if (a === null) return null;
  box.replaceChildren();
  if (a.legal) {
    box.append(html("p", {textContent: "No rule broken.", className: "legal"}));
    return a;
  }
  const list = html("ul", {className: "violations"});
  for (const v of a.violations) {
    const b = html("button", {type: "button", className: "violation", textContent: `${ruleText(source, v.rule)}: ${v.message}`});
    b.addEventListener("click", () => {
      for (const other of list.querySelectorAll(".violation")) other.setAttribute("aria-pressed", "false");
      b.setAttribute("aria-pressed", "true");
      highlight(view, v, markUnits);
    });
    list.append(html("li", {}, b));
  }
  box.append(list);
  return a;
}

function highlight(view, v, markUnits) {
  const g = view.layer("check");
  g.replaceChildren();
  const hexes = (v.hexes || []).filter((h) => view.has(h));
  for (const h of hexes) view.hexPolygon(h, {class: "violation-hex"}, g);
  markUnits(new Set(v.units || []));
  if (hexes.length) view.focus(hexes[0]);
}

export function clearCheck(view, box, markUnits) {
  view.clear("check");
  markUnits(new Set());
  for (const b of box.querySelectorAll(".violation")) b.setAttribute("aria-pressed", "false");
}
