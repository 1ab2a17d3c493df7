// Combat: attackers and defenders picked from the map's selection, the attacked hex when the game's combat takes
// one (`combat_target`: the Siege's Breach attack on a wall hex no unit defends, 10.1) and the kind of combat (the
// kinds the game's rules list, `combat_kinds`) → /api/odds (= `toolkit odds --json`), with every modifier, shift and
// refusal and its rule.
import {Latest} from "./api.js";
import {html} from "./dom.js";
import {ruleText} from "./rules.js";

export class Combat {
  constructor(els, {view, selection, onError}) {
    // {section, attack, defend, addAttack, addDefend, clear, result, kind, kindLabel, targetRow, target, pick}
    this.els = els;
    this.view = view;
    this.selection = selection;   // () => the unit ids selected on the map
    this.onError = onError;
    this.sides = {attack: [], defend: []};
    this.target = "";             // the attacked hex (target=), "" for none
    this.asking = new Latest();   // only the odds of the sides and kind picked last are shown
    els.addAttack.addEventListener("click", () => this.add("attack"));
    els.addDefend.addEventListener("click", () => this.add("defend"));
    els.clear.addEventListener("click", () => this.setSource(this.source));
    els.kind.addEventListener("change", () => this.ask());
    els.pick.addEventListener("click", () => this.picking(els.pick.getAttribute("aria-pressed") !== "true"));
    els.target.addEventListener("change", () => this.aim(els.target.value.trim()));
  }

  setSource(source) {
    this.asking.cancel();
    this.source = source;
    this.sides = {attack: [], defend: []};
    this.aim("", false);
    this.picking(false);
    this.els.targetRow.hidden = !source.combat_target;
    this.els.section.hidden = source.kind !== "position";
    const kinds = source.combat_kinds || [];
    this.els.kindLabel.hidden = !kinds.length;
    this.els.kind.replaceChildren(...kinds.map((k) => new Option(k.replace(/_/g, " "), k)));
    this.render();
    this.els.result.replaceChildren();
  }

  // The map's selection joins one side (and leaves the other).
  add(side) {
    const ids = this.selection();
    if (!ids.length) {
      this.onError(new Error("select a unit on the map first, then add it to the attackers or the defenders"));
      return;
    }
    const other = side === "attack" ? "defend" : "attack";
    this.sides[other] = this.sides[other].filter((u) => !ids.includes(u));
    this.sides[side] = [...new Set([...this.sides[side], ...ids])];
    this.render();
    this.ask();
  }

  render() {
    for (const side of ["attack", "defend"]) {
      this.els[side].replaceChildren(...this.sides[side].map((u) => html("span", {className: "chip", textContent: u})));
      if (!this.sides[side].length) this.els[side].append(html("span", {className: "muted", textContent: "none"}));
    }
  }

  // The next click (or tap) on the map picks the attacked hex (`on`), or not.
  picking(on) {
    this.els.pick.setAttribute("aria-pressed", String(on));
  }

  // A click on the map while picking: `hex` is the attacked hex (true: the click is taken).
  clickHex(hex) {
    if (!hex || this.els.pick.getAttribute("aria-pressed") !== "true") return false;
    this.picking(false);
    this.aim(hex);
    return true;
  }

  // `hex` (a hex or place name; "" for none) is the attacked hex, outlined on the map; the odds asked anew.
  aim(hex, ask = true) {
    this.target = hex;
    this.els.target.value = hex;
    const layer = this.view.layer("target");
    layer.replaceChildren();
    if (hex && this.view.has(hex)) this.view.hexPolygon(hex, {class: "target-hex"}, layer);
    if (ask) this.ask();
  }

  async ask() {
    if (!this.sides.attack.length || (!this.sides.defend.length && !this.target)) return;
    try {
      const a = await this.asking.get("/api/odds", {source: this.source.id, ...this.sides, target: this.target,
                                                    kind: this.els.kind.value});
      if (a !== null) this.show(a);
    } catch (err) {
      this.els.result.replaceChildren();
      this.onError(err);
    }
  }

  // The answer in words, as `toolkit odds` prints it: the odds (or the Siege's Missile or Breach row and column),
  // each modifier and shift, each die's result, the notes.
  show(a) {
    const line = (text, className = "") => html("p", {textContent: text, className});
    const rule = (r) => ruleText(this.source, r);
    const out = [];
    if (a.phase_warning) out.push(line(`Not a combat phase (${rule(a.phase_warning.rule)}): ${a.phase_warning.reason}`,
                                       "refused"));
    if (a.refused) {
      out.push(line(`Not allowed (${rule(a.refused.rule)}): ${a.refused.reason}`, "refused odds-verdict"));
    } else {
      out.push(line(verdict(a), "odds-verdict"));
    }
    const items = [...(a.modifiers || []).map((m) => `${signed(m.value)} ${m.id} (${rule(m.rule)}): ${m.why}`),
                   ...(a.shifts || []).map((s) => `${signed(s.columns)} column ${s.id} (${rule(s.rule)}): ${s.why}`),
                   ...(a.notes || []).map(noteText)];
    if (items.length) out.push(html("ul", {className: "modifiers"}, ...items.map((t) => html("li", {textContent: t}))));
    if (!a.refused && (a.results || []).length) out.push(dieResults(a.results));
    if ((a.flank || {}).flank) out.push(line(`Flank Attack (${rule(a.flank.rule)}): ` +
                                             a.flank.hexes.map((h) => h.why).join("; ")));
    if ((a.immune || []).length) out.push(line(`target ${(a.targets || []).join(", ")}; immune ${a.immune.join(", ")}`));
    this.els.result.replaceChildren(...out);
  }
}

// The verdict line: the odds (on their table, with the die modifier and the roll that kills), or, for the Siege's
// Missile and Breach attacks (no odds), the table's row and column; with the chance.
function verdict(a) {
  const chance = a.probability === null || a.probability === undefined ? "" :
    ` (chance ${Math.round(a.probability * 100)}%)`;
  if (a.odds === null && a.row !== null && a.row !== undefined) {
    return `${a.attack} AF on the ${a.row} row: column ${a.column}${chance}`;
  }
  const kills = a.kills_on === null || a.kills_on === undefined ? "" :
    `, die modifier ${signed(a.total_modifier)}, kills on ${a.kills_on} or less`;
  const table = a.table ? ` on the ${a.table.toUpperCase()}` : "";
  return `${a.attack} against ${a.defence}: odds ${a.odds}${table}${kills}${chance}`;
}

// A game's or a rules plugin's note as `toolkit odds` prints it: text, or `[rule] text`.
function noteText(note) {
  return typeof note === "object" && note !== null ? `[${note.rule}] ${note.text}` : String(note);
}

// What each natural die gives: a table of die, modified die (where the answer gives it) and result (a Breach's
// damage).
function dieResults(results) {
  const breach = results.some((r) => r.damage !== undefined);
  const modified = results.some((r) => r.final !== undefined);
  const head = ["die", ...(modified ? ["modified"] : []), "result", ...(breach ? ["wall damage", "breached"] : [])];
  const said = (r) => r.result + (r.meaning ? ` (${r.meaning})` : "") + (r.erratic ? " (erratic shot, 9.31)" : "");
  const row = (r) => [r.die, ...(modified ? [r.final] : []), said(r),
                      ...(breach ? [r.total_damage, r.breach ? "yes" : "no"] : [])];
  return html("table", {className: "die-results"},
              html("tr", {}, ...head.map((h) => html("th", {textContent: h}))),
              ...results.map((r) => html("tr", {}, ...row(r).map((v) => html("td", {textContent: String(v)})))));
}

// A modifier as a player writes it: +1, −2, 0.
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
