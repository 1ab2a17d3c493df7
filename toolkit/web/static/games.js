// Saved games (/api/games: the server keeps every game played) and two seats (/api/seats: one link per side);
// the game shown is followed live (/api/events, server-sent events: the other seat's steps as they are made).
import {getJSON, postJSON, url} from "./api.js";
import {html} from "./dom.js";

// "5 Dec, 14:02": when a game was last played, in the reader's own words for dates.
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, {day: "numeric", month: "short", hour: "2-digit",
                                                             minute: "2-digit"});
}

export class SavedGames {
  // `onOpen(id)` opens a saved game (a promise), `onError`; `play` (play.js's Play: the game shown, its seat) is
  // set after.
  constructor({onOpen, onError}) {
    this.play = null;
    this.onOpen = onOpen;
    this.onError = onError;
    this.stream = null;      // the EventSource of the game followed
    this.following = null;   // ... its id
    const section = document.getElementById("play-section");
    this.seatLine = html("p", {id: "seat-line", className: "seat-line"});
    section.querySelector("#standing").after(this.seatLine);
    this.seatsButton = html("button", {type: "button", id: "two-players", textContent: "Two players",
                                       title: "open this game for two players: one link per side, each plays "
                                              + "only its side"});
    this.seatsButton.addEventListener("click", () => this.openSeats());
    section.querySelector(".play-buttons").append(this.seatsButton);
    this.seatLinks = html("div", {id: "seat-links", className: "seat-links", hidden: true});
    section.querySelector(".play-buttons").after(this.seatLinks);
    this.list = html("ol", {id: "games-list", className: "games-list"});
    const refresh = html("button", {type: "button", id: "games-refresh", textContent: "Refresh"});
    refresh.addEventListener("click", () => this.refresh());
    this.section = html("details", {id: "games-section"},
                        html("summary", {textContent: "Saved games"}), refresh, this.list);
    this.section.addEventListener("toggle", () => { if (this.section.open) this.refresh(); });
    section.after(this.section);
  }

  // The saved games, the last played first: title, game, turn, when last played; a click opens one.
  async refresh() {
    let games;
    try {
      ({games} = await getJSON("/api/games"));
    } catch (err) {
      this.list.replaceChildren(html("li", {className: "muted", textContent: err.message}));
      return;
    }
    this.list.replaceChildren(...games.map((g) => {
      const open = html("button", {type: "button", className: "link", dataset: {game: g.id},
                                   textContent: g.title});
      open.addEventListener("click", () => this.onOpen(g.id));
      return html("li", {}, open, ` · ${g.game} · turn ${g.turn} · step ${g.at}/${g.steps}` +
                          `${g.seated ? " · two players" : ""} · ${when(g.last_played)}`);
    }));
    if (!games.length) this.list.append(html("li", {className: "muted", textContent: "No game played yet."}));
  }

  // Open the game shown for two players: its two links, one per side (a position not yet played starts a game).
  async openSeats() {
    const source = this.play.source;
    let answer;
    try {
      answer = await postJSON("/api/seats", {source: source.id, seat: this.play.seat});
    } catch (err) {
      this.onError(err);
      return;
    }
    if (!source.saved) await this.onOpen(answer.game);   // the new game shown (this page watches it)
    this.seatLinks.hidden = false;
    this.seatLinks.replaceChildren(html("p", {textContent: "Give each player their side's link:"}),
      ...Object.entries(answer.seats).map(([side, seat]) => html("p", {},
        `${side}: `, html("a", {href: seat.link, target: "_blank", dataset: {side},
                               textContent: location.origin + seat.link}))));
  }

  // Follow the game of `source` (its changes sent by the server), or none when it is no saved game's.
  follow(source) {
    const id = source.saved?.id || null;
    this.seatsButton.hidden = source.kind !== "position";
    if (id === this.following) return;
    this.stream?.close();
    this.stream = null;
    this.following = id;
    this.seatLinks.hidden = true;
    if (!id) return;
    this.stream = new EventSource(url("/api/events", {game: id}));
    this.stream.addEventListener("game", (e) => this.play.follow(JSON.parse(e.data)));
  }
}
