// Movement: the selected unit or stack, the move options the CLI has, and its legal destinations (/api/moves).
import {Latest} from "./api.js";
import {html} from "./dom.js";
import {mpLabel, ramp, svgEl} from "./svg.js";
import {unitLabel} from "./counters.js";
import {phaseLabel} from "./play.js";
import {ruleText} from "./rules.js";

export class Moves {
  constructor(view, els, onError) {
    this.view = view;
    this.els = els;           // {text, form, summary, offmap, offmapLabel}
    this.onError = onError;
    this.source = null;
    this.selected = [];       // unit ids: the unit, then the units moving with it
    this.answer = null;
    this.armed = null;        // the destination tapped once (a finger has no hover): a second tap there moves
    this.asking = new Latest();   // a quick second click supersedes the first unit's question
    els.form.addEventListener("change", () => this.refresh());
    els.form.addEventListener("submit", (e) => { e.preventDefault(); this.refresh(); });
    els.offmap.addEventListener("change", () => els.offmap.value && this.select([els.offmap.value]));
  }

  // A new source (or position after a step): its move options and its off-map units.
  setSource(source) {
    this.source = source;
    this.clear();
    const offmap = source.units.filter((u) => u.hex === null);
    this.els.offmap.replaceChildren(new Option("—", ""), ...offmap.map((u) => new Option(unitLabel(u), u.id)));
    this.els.offmapLabel.hidden = source.kind !== "position" || offmap.length === 0;
    this.els.form.hidden = source.kind !== "position";
  }

  unit(id) { return this.source.units.find((u) => u.id === id); }

  select(ids) {
    this.selected = ids;
    this.answer = null;            // the last unit's destinations go at once, not when the new answer comes
    this.armed = null;
    this.view.clear("moves");
    this.view.clear("path");
    this.buildOptions();
    this.pending = this.refresh();
    return this.pending;
  }

  // Resolves when the moves asked last have been drawn (or refused).
  ready() { return this.pending || Promise.resolve(); }

  clear() {
    this.selected = [];
    this.answer = null;
    this.armed = null;
    this.asking.cancel();
    this.view.clear("moves");
    this.view.clear("path");
    this.view.rehover();
    this.els.text.textContent = "Click a counter on the map (Esc clears).";
    this.els.summary.replaceChildren();
    this.els.form.querySelectorAll(".unit-option").forEach((n) => n.remove());
  }

  // The options of the selected unit: its stack mates (with / pickup) and the game's flags.
  buildOptions() {
    const form = this.els.form;
    form.querySelectorAll(".unit-option").forEach((n) => n.remove());
    const [first, ...rest] = this.selected;
    const unit = this.unit(first);
    this.els.text.textContent = `Selected: ${unitLabel(unit)}${unit.hex ? ` in ${unit.hex}` : " (off the map)"}`;
    const mates = unit.hex ? this.source.units.filter((u) => u.hex === unit.hex && u.id !== first) : [];
    const flags = (this.source.move_options && this.source.move_options.flags) || [];
    const add = (node) => { node.classList.add("unit-option"); form.append(node); };
    const legends = {with: "moving with it (--with)", pickup: "picked up (--pickup)"};
    for (const flag of ["with", "pickup"]) {       // every game's moves take --with
      if ((flag === "with" || flags.includes(flag)) && mates.length) {
        add(html("fieldset", {}, html("legend", {textContent: legends[flag]}), ...mates.map((m) => html("label", {},
          html("input", {type: "checkbox", name: flag, value: m.id, checked: flag === "with" && rest.includes(m.id)}),
          ` ${unitLabel(m)}`))));
      }
    }
    if (flags.includes("terrorist")) {
      add(html("label", {}, html("input", {type: "checkbox", name: "terrorist"}), " terrorist (--terrorist)"));
    }
    if (flags.includes("enter") && !unit.hex) {
      add(html("label", {}, "entering at (--enter) ", html("input", {name: "enter", placeholder: "hex or place"})));
    }
    const kinds = (this.source.move_options && this.source.move_options.kinds) || [];
    if (flags.includes("kind") && kinds.length) {
      add(html("label", {}, "kind (--kind) ", html("select", {name: "kind"}, new Option("default", ""),
                                             ...kinds.map((k) => new Option(k, k)))));
    }
  }

  // The moves options chosen in the panel: {with, pickup, terrorist, enter, kind}.
  options() {
    const data = new FormData(this.els.form);
    return {with: data.getAll("with"), pickup: data.getAll("pickup"), terrorist: data.has("terrorist"),
            enter: data.get("enter"), kind: data.get("kind")};
  }

  params() {
    return {source: this.source.id, unit: this.selected[0], ...this.options()};
  }

  // The destination in `hex` of the moves shown, or null.
  destination(hex) {
    return (this.answer && this.destinations.get(hex)) || null;
  }

  async refresh() {
    if (!this.selected.length) return;
    try {
      const answer = await this.asking.get("/api/moves", this.params());
      if (answer === null) return;   // superseded by a newer selection
      this.answer = answer;
    } catch (err) {
      this.answer = null;
      this.view.clear("moves");
      this.onError(err);
      return;
    }
    this.draw();
  }

  draw() {
    const a = this.answer, layer = this.view.layer("moves");
    layer.replaceChildren();
    this.view.clear("path");
    this.destinations = new Map(a.destinations.map((d) => [d.hex, d]));
    this.unreachable = new Map(a.unreachable.map((u) => [u.hex, u]));
    const most = a.mp ?? Math.max(1, ...a.destinations.map((d) => d.cost));
    for (const u of a.unreachable) {
      if (this.view.has(u.hex)) this.view.hexPolygon(u.hex, {class: "unreachable"}, layer, 0.9);
    }
    for (const d of a.destinations) {
      if (!this.view.has(d.hex)) continue;
      this.view.hexPolygon(d.hex, {class: d.stop ? "dest stop" : "dest", fill: ramp(d.cost / most),
                                   "data-cost": d.cost}, layer, 0.92);
      const [x, y] = this.view.centre(d.hex);
      const r = this.view.radius;
      svgEl("text", {x, y: y + r * 0.62, "font-size": r * 0.42, class: "cost"}, layer,
            mpLabel(d.cost) + (d.stop ? "■" : ""));
    }
    if (a.from && this.view.has(a.from)) this.view.hexPolygon(a.from, {class: "start"}, layer);
    this.armed = null;
    this.summary();
    this.view.rehover();   // the hex under the pointer (or tapped) says what these moves say of it
  }

  summary() {
    const a = this.answer, box = this.els.summary;
    const who = [].concat(a.unit).join(", ");
    if (a.refused) {
      const why = `${who} cannot move: ${a.refused.reason} (${ruleText(this.source, a.refused.rule)})`;
      box.replaceChildren(html("p", {className: "refused", textContent: why}));
      return;
    }
    const mp = a.mp === null ? "unlimited MP" : `${mpLabel(a.mp)} MP`;
    const lines = [`${who} from ${a.from || "off the map"}, ${phaseLabel(this.source, a.phase)}, ${mp}: ` +
                   `${a.destinations.length} destinations, ${a.unreachable.length} hexes refused (hover or tap ` +
                   "one for why).",
                   "Shaded by cost (green cheap, red dear), the cost in the hex; ■ the move must stop there."];
    if (a.moving && a.moving.length > 1) lines.push(`Moving together: ${a.moving.join(", ")}.`);
    for (const e of a.exits || []) {
      lines.push(`May leave the map by the ${e.exit} road from ${e.hex} (${mpLabel(e.cost)} MP).`);
    }
    box.replaceChildren(...lines.map((t) => html("p", {textContent: t})));
  }

  // A tap (a finger has no hover) on `hex`: true when the tap acts as a click does (a move to a destination, a
  // stack selected), that is when the moves shown say nothing of the hex or it was tapped last too; else the hex is
  // the one chosen, what a hover shows of it is shown (`hover`: the path and cost, "tap again", or why it is
  // refused), and nothing else happens yet.  Another hex tapped changes the choice.
  confirm(hex) {
    if (this.armed === hex || !this.answer || !(this.destinations.has(hex) || this.unreachable.has(hex))) {
      this.armed = null;
      return true;
    }
    this.armed = hex;
    return false;
  }

  // What hovering a hex says about the move, and its cheapest path drawn; null when nothing is selected.  `armed`:
  // the destination a tap chose, a second tap there moves.  The selected unit's own hex says why it may not move.
  hover(hex) {
    this.view.clear("path");
    if (hex !== this.armed) this.armed = null;
    if (!this.answer || !hex) return null;
    const d = this.destinations.get(hex);
    if (d) {
      svgEl("polyline", {points: this.view.pathPoints(d.path), class: "move-path"}, this.view.layer("path"));
      const stop = d.stop ? "; the move must stop here" : "";   // the page adds its rule
      return {text: `${hex}: ${mpLabel(d.cost)} MP via ${d.path.join(" → ")}${stop}`, rule: d.stop_rule || null,
              armed: hex === this.armed};
    }
    const u = this.unreachable.get(hex);
    if (u) return {text: `${hex}: unreachable — ${u.reason}`, rule: u.rule, reason: u.reason};
    const a = this.answer;
    if (a.refused && hex === a.from) {
      return {text: `${[].concat(a.unit).join(", ")} cannot move: ${a.refused.reason}`, rule: a.refused.rule,
              reason: a.refused.reason};
    }
    return null;
  }
}
