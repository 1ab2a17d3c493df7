// Play: moves made on the map (/api/play checks each with the game's legal-move search), phases entered, free
// placement for setting up; undo, redo, the log, the position exported as a position file or a VASSAL save.  Each
// game played is kept by the server (`saved`: its id, its steps' positions, where it stands); a seat (a player's
// link, `seat=`) plays one side, and the other's steps arrive as they are made (`follow`).
import {getJSON, postJSON, url} from "./api.js";
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

// The page's link to a position: a saved game's position by its id, else its first source and the steps made
// since (a permalink that replays them).
export function positionLink(source, path = "/", extra = {}) {
  if (source.saved) return url(path, {source: source.id, ...extra});
  return url(path, {source: source.base, step: source.steps, ...extra});
}

// The page's link to a saved game as it stands (with a seat's token: that player's link).
export function gameLink(source, seat = null) {
  return source.saved ? url("/", {game: source.saved.id, seat}) : positionLink(source);
}

export class Play {
  constructor(els, {onPosition, onError}) {
    this.els = els;   // {section, standing, phase, notice, undo, redo, next, log, yaml, vsav, free, link, seat}
    this.onPosition = onPosition;   // (source) => the page shows it
    this.onError = onError;
    this.history = [];   // the positions of the game (its redo branch too), each a source (null: not asked yet)
    this.at = -1;
    this.seat = null;    // this page's seat token (a player's link), or null ...
    this.side = null;    // ... and the side it plays
    this.making = null;  // the step being made: {key, done} (its promise)
    this.going = 0;      // counts the moves through the history, so that only the latest one is shown
    els.undo.addEventListener("click", () => this.go(this.at - 1));
    els.redo.addEventListener("click", () => this.go(this.at + 1));
    els.phase.addEventListener("change", () => this.step(`phase:${els.phase.value}`));
    els.next.addEventListener("click", () => this.step("turn:next"));   // the game's order, through its turns
  }

  get source() { return this.history[this.at]; }
  get free() { return this.els.free.checked; }

  // A source opened anew (not by a step): a saved game's positions are its history, each asked when gone to.
  start(source) {
    this.history = [source];
    this.at = 0;
    this.known(source);
    this.making = null;
    this.going += 1;
    this.els.free.checked = false;
    this.render();
  }

  // The history as the saved game of `source` has it now (the positions already asked kept), at `source`.
  known(source) {
    if (!source.saved) return;
    const asked = new Map(this.history.filter(Boolean).map((s) => [s.id, s]));
    asked.set(source.id, source);
    this.history = source.saved.positions.map((id) => asked.get(id) || null);
    this.at = source.saved.at;
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
      after = await getJSON("/api/play", {source: from.id, step: steps, seat: this.seat});
    } catch (err) {
      if (this.source === from) this.render();   // the phase picker shows the position's phase again
      if (this.source === from && err.data?.choice) this.ask(err.data.choice);
      else this.onError(err);
      return null;
    }
    if (this.source !== from) return null;        // undone, redone or another source opened meanwhile
    this.known(after);
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

  // Go to the position `index` of the history (undo, redo): the saved game goes there too (/api/history), for
  // this page, a reopened link and the other seat alike; only the latest go is shown.
  async go(index) {
    const game = this.source.saved;
    if (!game || index < 0 || index >= this.history.length || this.making) return;
    const going = this.going += 1;
    let found;
    try {
      found = await postJSON("/api/history", {game: game.id, at: index, seat: this.seat});
    } catch (err) {
      this.onError(err);
      return;
    }
    if (going !== this.going) return;
    this.known(found);
    this.render();
    await this.onPosition(this.source);
  }

  // The game changed elsewhere (the other seat played, undid or redid; another page of this game): its position
  // now (`event.position`) is shown unless this page shows it already or is making a step of its own.
  async follow(event) {
    const shown = this.source;
    if (!shown?.saved || shown.saved.id !== event.id || shown.id === event.position || this.making) return;
    const going = this.going += 1;
    let found;
    try {
      found = await getJSON("/api/source", {source: event.position});
    } catch (err) {
      this.onError(err);
      return;
    }
    if (going !== this.going || this.source !== shown) return;
    this.known(found);
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
    els.link.href = gameLink(s);
    els.seat.textContent = seatText(s, this.side);
    this.notice(s);
    els.log.replaceChildren(...s.log.map((e, i) => html("li", {className: `log-${e.kind}`, textContent: e.text,
                                                               title: e.step, dataset: {step: i + 1}})));
    if (!s.log.length) els.log.append(html("li", {className: "muted", textContent: "No move made yet."}));
  }

  // The phase's end asks the player to choose (No Prisoners 9.2 C: which unit over the limit goes): the question,
  // and a button for each option, which makes the step again with that choice added.
  ask(choice) {
    const box = this.els.notice, chosen = (i) => `${choice.step.split(";")[0]};choices=${[...choice.given, i].join("+")}`;
    box.hidden = false;
    box.replaceChildren(`${choice.what}: `, ...choice.options.map((o, i) => html("button", {
      type: "button", textContent: o, dataset: {choice: i}, onclick: () => this.step(chosen(i))})));
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

// Which side this page plays and whose turn it is, for a game opened for two players.
function seatText(source, side) {
  if (!source.saved?.seated) return "";
  if (!side) return "Watching: open your side's link to play.";
  const turn = side === source.phasing_side ? "your move" : `the ${source.phasing_side} player's move`;
  return `You play ${side} · ${turn}`;
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
