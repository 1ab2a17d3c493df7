// Play: moves made on the map (/api/play checks each with the game's legal-move search), phases entered, free
// placement for setting up; undo, redo, the log, the position exported as a position file or a VASSAL save.
import {getJSON, url} from "./api.js";
import {html} from "./dom.js";

// A phase's display name (game.yaml's `name`; its id when the game gives none).
export function phaseName(source, phase) {
  return (source.phase_names || {})[phase] || phase;
}

// "Overland Movement Phase", "overland phase": the name, with "phase" added when the name does not say it.
export function phaseLabel(source, phase) {
  const name = phaseName(source, phase);
  return /phase/i.test(name) ? name : `${name} phase`;
}

// "Turn May IV · Overland phase (jewish)": where the game stands, in words.
export function standing(source) {
  if (!source.phase) return "";
  return `Turn ${source.turn} · ${phaseLabel(source, source.phase)} (${source.phasing_side})`;
}

// The phases where the phasing side may move, when the game's rules say (movement_phases).
function movementPhases(source) {
  return (source.movement_phases || {})[source.phasing_side] || [];
}

// The page's link to a position: its first source and the steps made since (a permalink that replays them).
export function positionLink(source, path = "/", extra = {}) {
  return url(path, {source: source.base, step: source.steps, ...extra});
}

export class Play {
  constructor(els, {onPosition, onError}) {
    this.els = els;   // {section, standing, phase, notice, undo, redo, next, log, yaml, vsav, free, link}
    this.onPosition = onPosition;   // (source) => the page shows it
    this.onError = onError;
    this.history = [];   // the positions from the source opened, each a source (null: not asked yet)
    this.at = -1;
    this.making = null;  // the step being made: {key, done} (its promise)
    this.going = 0;      // counts the moves through the history, so that only the latest one is shown
    els.undo.addEventListener("click", () => this.go(this.at - 1));
    els.redo.addEventListener("click", () => this.go(this.at + 1));
    els.phase.addEventListener("change", () => this.step(`phase:${els.phase.value}`));
    els.next.addEventListener("click", () => this.step("turn:next"));   // the game's order, through its turns
  }

  get source() { return this.history[this.at]; }
  get free() { return this.els.free.checked; }

  // A source opened anew (not by a step): the history starts from its first position, a link's steps each a
  // position undo goes back to (asked when gone to).
  start(source) {
    this.history = [...source.steps.map(() => null), source];
    this.at = source.steps.length;
    this.making = null;
    this.going += 1;
    this.els.free.checked = false;
    this.render();
  }

  // Make steps (/api/play) from the position shown: the new position is shown and becomes the end of the history
  // (redo is lost).  Idempotent: the same steps asked of the same position while they are being made (a double
  // click) make them once; other steps asked meanwhile are not made (they were asked of a position about to go),
  // and the answer is dropped when the page has gone to another position since.  Resolves to the new source, or
  // null when nothing was made.
  step(...steps) {
    const from = this.source, key = JSON.stringify([from.id, steps]);
    if (this.making) return this.making.key === key ? this.making.done : Promise.resolve(null);
    const done = this.make(from, steps).finally(() => { this.making = null; });
    this.making = {key, done};
    return done;
  }

  async make(from, steps) {
    let after;
    try {
      after = await getJSON("/api/play", {source: from.id, step: steps});
    } catch (err) {
      if (this.source === from) this.render();   // the phase picker shows the position's phase again
      this.onError(err);
      return null;
    }
    if (this.source !== from) return null;        // undone, redone or another source opened meanwhile
    this.history = [...this.history.slice(0, this.at + 1), after];
    this.at += 1;
    this.going += 1;
    this.render();
    await this.onPosition(this.source);
    return this.source;
  }

  // A move of `ids` to `hex` with the moves options (pickup, kind, terrorist, enter), or a free placement.
  move(ids, hex, options = {}) {
    if (this.free) return this.step(`place:${ids[0]}>${hex}`);
    const extra = Object.entries(options).filter(([, v]) => v && v.length !== 0)
      .map(([k, v]) => (v === true ? k : `${k}=${[].concat(v).join("+")}`));
    return this.step([`move:${ids.join("+")}>${hex}`, ...extra].join(";"));
  }

  // Go to the position `index` of the history (undo, redo), asking for it first when a link's steps skipped it;
  // only the latest go is shown.
  async go(index) {
    if (index < 0 || index >= this.history.length || this.making) return;
    const going = this.going += 1, last = this.history[this.history.length - 1];
    if (!this.history[index]) {
      try {
        const steps = last.steps.slice(0, index);
        const found = await getJSON(steps.length ? "/api/play" : "/api/source", {source: last.base, step: steps});
        if (going !== this.going) return;
        this.history[index] = found;
      } catch (err) {
        this.onError(err);
        return;
      }
    }
    if (going !== this.going) return;
    this.at = index;
    this.render();
    await this.onPosition(this.source);
  }

  render() {
    const s = this.source, els = this.els;
    els.section.hidden = s.kind !== "position";
    els.standing.textContent = standing(s);
    els.phase.replaceChildren(...s.phases.map((p) => phaseOption(s, p)));
    els.phase.value = s.phase || "";
    els.undo.disabled = this.at <= 0;
    els.redo.disabled = this.at >= this.history.length - 1;
    els.yaml.href = url("/api/position.yaml", {source: s.id});
    els.vsav.href = url("/api/position.vsav", {source: s.id});
    els.link.href = positionLink(s);
    this.notice(s);
    els.log.replaceChildren(...s.log.map((e, i) => html("li", {className: `log-${e.kind}`, textContent: e.text,
                                                               title: e.step, dataset: {step: i + 1}})));
    if (!s.log.length) els.log.append(html("li", {className: "muted", textContent: "No move made yet."}));
  }

  // Nothing moves in this phase: say which phases to pick, each a button.
  notice(s) {
    const phases = movementPhases(s), box = this.els.notice;
    box.hidden = !phases.length || phases.includes(s.phase);
    if (box.hidden) return;
    const later = [...phases.filter((p) => s.phases.indexOf(p) > s.phases.indexOf(s.phase)), ...phases];
    box.replaceChildren(`Nothing of the ${s.phasing_side} side moves in the ${phaseLabel(s, s.phase)}. ` +
                        "Pick a movement phase: ",
                        ...[...new Set(later)].map((p) => html("button", {type: "button", textContent: phaseName(s, p),
                          dataset: {phase: p}, onclick: () => this.step(`phase:${p}`)})));
  }
}

// A phase in the picker, in the game's order: its name and its side; as the tooltip what it lets the phasing
// player do (game.yaml `allows`).
function phaseOption(source, phase) {
  const side = (source.phase_sides || {})[phase];
  const allows = (source.phase_allows || {})[phase] || [];
  const option = new Option(phaseName(source, phase) + (side ? ` — ${side}` : ""), phase);
  if (side) option.dataset.side = side;
  if (allows.length) option.title = `the phasing player may ${allows.join("; ")}`;
  return option;
}
