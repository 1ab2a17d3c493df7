// Line of sight: two hexes picked on the map or typed (hex or place names) → /api/los, drawn with its verdict.
import {Latest, getJSON, hexInfo, url} from "./api.js";
import {html} from "./dom.js";
import {svgEl} from "./svg.js";
import {positionLink} from "./play.js";
import {ruleText} from "./rules.js";

const FOCUS_HEXES = 24;   // a line brought into view shows at least this many hexes across

export class Los {
  constructor(view, els, onError) {
    this.view = view;
    this.els = els;           // {form, pick, from, to, convention, rules, rulesLabel, verdict}
    this.onError = onError;
    this.source = null;
    this.picking = false;
    this.asking = new Latest();   // a newer pair (or clearing) drops the answer for the pair asked before
    els.form.addEventListener("submit", (e) => { e.preventDefault(); this.run(this.params(), {focus: true}); });
    els.pick.addEventListener("click", () => this.setPicking(!this.picking));
  }

  setSource(source) {
    this.source = source;
    this.clear();
    this.els.rulesLabel.hidden = source.kind !== "position";
    // A game with its own line of sight or fire (its `sight_rule`): that rule by default, the map's one click away.
    this.els.rules.checked = source.kind === "position" && Boolean(source.sight_rule);
  }

  setPicking(on) {
    this.picking = on;
    this.pickedFrom = null;
    this.els.pick.setAttribute("aria-pressed", String(on));
    this.els.pick.textContent = on ? "Picking: click the viewer's hex" : "Pick two hexes on the map";
  }

  clear() {
    this.asking.cancel();
    this.view.clear("los");
    this.els.verdict.replaceChildren();
    this.setPicking(false);
  }

  // A map click while picking: the first hex is the viewer, the second the target.  True when used.
  clickHex(hex) {
    if (!this.picking || !hex) return false;
    if (!this.pickedFrom) {
      this.asking.cancel();
      this.pickedFrom = hex;
      this.els.from.value = hex;
      this.els.pick.textContent = "Picking: click the target's hex";
      this.view.clear("los");
      this.view.hexPolygon(hex, {class: "los-end"}, this.view.layer("los"));
      return true;
    }
    this.els.to.value = hex;
    this.setPicking(false);
    this.run();
    return true;
  }

  // The API parameters: the position's own rule (source=) or the map's (map=, convention=).
  params() {
    const from = this.els.from.value.trim(), to = this.els.to.value.trim();
    if (this.els.rules.checked && this.source.kind === "position") return {source: this.source.id, from, to};
    return {map: this.source.map, from, to, convention: this.els.convention.value};
  }

  // Ask, draw and explain; `focus` also brings the whole line into view (typed names, a permalink).
  // Only the latest pair asked is drawn: an earlier pair's late answer is dropped.
  async run(params = this.params(), {focus = false} = {}) {
    const source = this.source;
    let got;
    try {
      got = await this.asking.run(async (signal) => {
        const a = await getJSON("/api/los", params, signal);
        return [a, await Promise.all([a.from, a.to].map((h) => hexInfo(source.id, h)))];
      });
    } catch (err) {
      this.onError(err);
      return;
    }
    if (got === null) return;
    const [answer, places] = got;
    this.draw(answer);
    this.verdict(answer, params, places.map((p) => p.place));
    if (focus) this.focus(answer);
  }

  focus(a) {
    const [[x1, y1], [x2, y2]] = [this.view.centre(a.from), this.view.centre(a.to)];
    const margin = this.view.radius * 4, least = this.view.radius * 2 * FOCUS_HEXES;
    const w = Math.max(least, Math.abs(x2 - x1) + 2 * margin), h = Math.abs(y2 - y1) + 2 * margin;
    this.view.show((x1 + x2 - w) / 2, (y1 + y2 - h) / 2, w, h);
  }

  draw(a) {
    const g = this.view.layer("los");
    g.replaceChildren();
    for (const t of a.touched || []) if (this.view.has(t.hex)) this.view.hexPolygon(t.hex, {class: "los-touched"}, g);
    for (const h of a.blocked_by || []) if (this.view.has(h)) this.view.hexPolygon(h, {class: "los-blocking"}, g);
    for (const h of [a.from, a.to]) if (this.view.has(h)) this.view.hexPolygon(h, {class: "los-end"}, g);
    const [x1, y1] = this.view.centre(a.from), [x2, y2] = this.view.centre(a.to);
    const [bx, by] = a.block_point || [x2, y2];
    svgEl("line", {x1, y1, x2: bx, y2: by, class: "los-clear"}, g);
    if (a.block_point) {
      svgEl("line", {x1: bx, y1: by, x2, y2, class: "los-blocked"}, g);
      svgEl("circle", {cx: bx, cy: by, r: this.view.radius * 0.18, class: "los-block-point"}, g);
    }
  }

  // The link that opens the page with this line drawn: on the position as it stands now (its first source and
  // the steps made since) with the rule asked, or on the bare map.
  permalink(a, params) {
    const line = {from: a.from, to: a.to};
    if (this.source.kind !== "position") return url("/los", {map: params.map, ...line, convention: a.convention});
    const rule = params.source ? {rules: 1} : {convention: params.convention};
    return positionLink(this.source, "/los", {...line, ...rule});
  }

  verdict(a, params, places) {
    const box = this.els.verdict;
    const line = (text, className = "") => box.append(html("p", {textContent: text, className}));
    box.replaceChildren();
    const [from, to] = [a.from, a.to].map((h, i) => (places[i] ? `${h} (${places[i]})` : h));
    line(`${from} → ${to}: ${a.visible ? "VISIBLE" : "BLOCKED"}`, a.visible ? "verdict visible" : "verdict blocked");
    line(`rule ${ruleText(this.source, a.rule)}${a.convention ? `, ${a.convention} convention` : ""}, range ${a.range}`, "los-rule");
    if (a.blocked_by && a.blocked_by.length) line(`blocked by ${a.blocked_by.join(", ")}`, "los-blocked-by");
    if (a.block_point) line(`first blocked at (${a.block_point.map((v) => v.toFixed(1)).join(", ")}) map units`);
    if (a.note) line(a.note, "muted");
    const links = html("p", {className: "links"});
    links.append(html("a", {href: this.permalink(a, params), textContent: "permalink", id: "los-permalink"}));
    links.append(html("a", {href: url("/api/ruling.svg", params), textContent: "ruling (SVG)", download: "ruling.svg",
                            id: "los-ruling", title: "the map around the line, the verdict and its rule: one file"}),
                 html("a", {href: url("/api/los.svg", params), textContent: "whole map SVG", download: "los.svg"}),
                 html("a", {href: url("/api/los.png", params), textContent: "PNG", download: "los.png"}));
    box.append(links);
  }
}
