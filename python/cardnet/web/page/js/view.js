// Drawing the page from the table state: the join form, and the table screen's parts that every game shares
// (header, notices, whose turn, outcome, the offered moves, the event log, the chat). The game's own parts
// come from its module (cherki.js, fistful.js, matchstick.js).

import * as cherki from "./cherki.js";
import { byId, el, focusedPlace, refocus, setChildren } from "./dom.js";
import * as fistful from "./fistful.js";
import * as matchstick from "./matchstick.js";
import * as ten from "./ten.js";
import { GAMES, LANGUAGES, UI, count, currentLanguage, say } from "./words.js";

const GAME_MODULES = { cherki, fistful, matchstick, ten };

/** The module drawing a game, or null for a game this page does not draw. */
export function gameModule(game) {
  return GAME_MODULES[game] || null;
}

/** Fill the static labels from the words module. */
export function labelPage() {
  document.documentElement.lang = currentLanguage();
  document.title = UI.title;
  byId("language-label").textContent = UI.language;
  const select = byId("language");
  // Each language by its own name, so a player finds theirs whatever the page speaks now.
  setChildren(
    select,
    Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code, text: name })),
  );
  select.value = currentLanguage();
  byId("title").textContent = UI.title;
  byId("name-label").textContent = UI.nameLabel;
  byId("name").placeholder = UI.namePlaceholder;
  byId("join-btn").textContent = UI.join;
  byId("password-label").textContent = UI.passwordLabel;
  byId("watch-btn").textContent = UI.watch;
  byId("join-hint").textContent = UI.joinHint;
  byId("log-title").textContent = UI.log;
  byId("chat-title").textContent = UI.chat;
  byId("chat-text").placeholder = UI.chatPlaceholder;
  byId("chat-label").textContent = UI.chatLabel;
  byId("chat-send").textContent = UI.send;
  byId("retry-btn").textContent = UI.tryNow;
}

/** The connection line under the title (while reconnecting: when the next try comes, and "Try now"). Same text
 * is not set again: the line is a live region, which a screen reader would read again. */
export function drawLink(kind, info) {
  const attempt = info.attempt || 1;
  const closed = info.byHost ? UI.hostStopped : UI.closed;
  const text = { connecting: UI.connecting, connected: UI.connected, closed }[kind] || say(kind === "silent" ? UI.silent : UI.reconnecting, { attempt });
  const node = byId("link");
  if (node.textContent !== text) node.textContent = text;
  node.className = `link link-${kind}`;
  const retrying = kind === "reconnecting" || kind === "silent";
  byId("retry").hidden = !retrying;
  if (!retrying) return;
  const wait = info.at ? Math.ceil((info.at - Date.now()) / 1000) : 0;
  byId("retry-when").textContent = wait > 0 ? say(UI.nextTry, { s: wait }) : UI.tryingNow;
}

function seatMarker(st, seat) {
  const info = st.seats[seat] || {};
  if (info.auto) return ` (${UI.seatAuto})`;
  if (info.kind === "human" && !info.connected && seat !== st.seat) return ` (${UI.seatGone})`;
  return "";
}

/** The join form: the table's name, game and seats; `kept` when this browser holds one of them. */
export function drawJoin(st, error, kept) {
  const table = st.table;
  byId("table").hidden = true;
  byId("join").hidden = false;
  byId("join-table").textContent = say(UI.tableLine, {
    game: GAMES[table.game] || table.game,
    table: table.name,
    players: table.players,
  });
  const names = st.names;
  setChildren(
    byId("join-seats"),
    st.seats.map((seat, i) =>
      el("li", { class: seat.kind === "open" ? "open" : "" }, el("span", { class: "who", text: seat.kind === "open" ? UI.seatOpen : names[i] }), seatMarker(st, i)),
    ),
  );
  // The page is served by the host it plays at, so it draws every game that host can hold.
  byId("join-btn").textContent = kept ? UI.rejoin : UI.join;
  byId("join-btn").disabled = !kept && !st.seats.some((seat) => seat.kind === "open");
  byId("password-row").hidden = !table.password;
  const ask = table.password ? UI.passwordNeeded : "";
  byId("join-error").textContent = error || ask;
}

/** What the game modules read: the view's parts, names, the selection and what tapping does. */
export function gameContext(st, handlers) {
  const view = st.view || { public: {}, private: null };
  return {
    me: st.seat,
    pub: view.public,
    priv: view.private,
    decision: st.decision,
    selected: st.selected,
    toAct: (st.current && st.current.to_act) || [],
    name: (seat) => st.name(seat),
    marker: (seat) => seatMarker(st, seat),
    toggle: handlers.toggle,
    // A game's own controls (TEN's bid form) answer with a legal move's index; `redraw` after data has loaded.
    play: handlers.play,
    redraw: handlers.redraw,
  };
}

function drawHead(st) {
  const table = st.table;
  const who = st.seat === null ? UI.youWatch : say(UI.youSit, { seat: st.seat });
  setChildren(
    byId("table-head"),
    el("h2", { class: "game-title", text: GAMES[table.game] || table.game }),
    el("p", { class: "dim" }, el("span", { class: "table-name", text: table.name }), ` · ${who}`),
  );
}

/** How a seat is held, in the words of the terminal's seats panel (cardnet.ui.app.draw.seat_words). */
function seatWords(st, seat) {
  const info = st.seats[seat] || {};
  if (seat === st.seat) return UI.seatYou;
  if (info.kind === "open") return UI.seatWaiting;
  if (info.kind === "bot") return UI.seatBuiltIn;
  if (info.auto) return UI.seatStandIn;
  return info.connected ? UI.seatConnected : UI.seatGone;
}

/** The seats panel: each seat's name and how it is held; its title says how many watch (once the host said). */
function drawSeats(st) {
  const watching = st.spectators === null ? "" : st.spectators ? say(UI.watching, { n: st.spectators }) : UI.nobodyWatching;
  byId("seats-title").textContent = watching ? `${UI.seats} · ${watching}` : UI.seats;
  setChildren(
    byId("seats"),
    st.seats.map((info, i) => {
      // The player's own seat by the name the others see; every other seat as the whole page names it.
      const name = i === st.seat && info.name ? info.name : st.name(i);
      return el("li", { class: info.kind }, el("span", { class: "who", text: `${i}. ${name}` }), el("span", { class: "seat-state", text: seatWords(st, i) }));
    }),
  );
}

/** "Ann", "Ann and Tom", "Ann, Bea and Tom" in the page's language. */
function listed(names) {
  return names.length > 1 ? say(UI.and, { names: names.slice(0, -1).join(", "), last: names.at(-1) }) : names.join("");
}

/** Who asked for a rematch and whose vote it still waits for: the players here (built-in players and those gone
 * never hold it up; PROTOCOL.md § 5), as the terminal client says it. */
function rematchWords(st) {
  const votes = st.votes.votes;
  const waiting = st.seats.flatMap((info, i) => (info.kind === "human" && info.connected && !info.auto && !votes.includes(i) ? [st.name(i)] : []));
  const names = listed(votes.map((seat) => st.name(seat)));
  return waiting.length ? say(UI.rematchWaiting, { names, waiting: listed(waiting) }) : say(UI.rematchStarts, { names });
}

function drawNotice(st) {
  const node = byId("notice");
  node.hidden = !st.notice;
  node.textContent = st.notice ? st.notice.text : "";
  node.className = `notice ${st.notice ? st.notice.kind : ""}`;
}

function turnText(st) {
  const current = st.current;
  if (!current) {
    const open = st.seats.filter((seat) => seat.kind === "open").length;
    return say(UI.waitingSeats, { open: count(open, "seat") });
  }
  if (current.over) return UI.gameOver;
  // The notice says why nothing more happens here.
  if (st.closed) return "";
  if (st.pending) return UI.sent;
  if (st.decision) return st.secondsLeft === null ? UI.yourTurn : say(UI.yourTurnTimed, { s: st.secondsLeft });
  const others = (current.to_act || []).filter((seat) => seat !== st.seat);
  if (others.length === 1) return say(UI.waitTurn, { who: st.name(others[0]) });
  return UI.waitOthers;
}

function drawOutcome(st, mod, ctx, handlers) {
  const node = byId("outcome");
  const outcome = st.current && st.current.over ? st.current.outcome : null;
  node.hidden = !outcome;
  if (!outcome) {
    node.replaceChildren();
    return;
  }
  const parts = [el("h2", { text: UI.gameOver }), el("ol", { class: "standings" }, mod.outcomeLines(ctx, outcome).map((line) => el("li", { text: line })))];
  if (st.seat !== null) {
    // Once this seat's vote is counted, the line below says so ("asked by You") and whom it waits for.
    const voted = st.votes && st.votes.game_no === st.current.game_no && st.votes.votes.includes(st.seat);
    if (!voted) parts.push(el("button", { type: "button", class: "primary", id: "rematch-btn", text: UI.rematch, onclick: handlers.rematch }));
  }
  if (st.votes && st.votes.game_no === st.current.game_no && st.votes.votes.length) {
    parts.push(el("p", { class: "rematch-votes", text: rematchWords(st) }));
  }
  setChildren(node, parts);
}

function drawActions(st, mod, ctx, handlers) {
  const { hint, offers, extra } = mod.offers(ctx);
  const buttons = offers.map((offer) =>
    el(
      "button",
      { type: "button", class: `offer ${offer.kind || "play"}`, dataset: { index: String(offer.index) }, onclick: () => handlers.play(offer.index, offer.plan) },
      el("span", { class: "offer-label", text: offer.label }),
      offer.note ? el("span", { class: "offer-note", text: offer.note }) : null,
    ),
  );
  const parts = [];
  if (hint) parts.push(el("p", { class: "hint", text: hint }));
  parts.push(...buttons);
  if (extra) parts.push(extra);
  if (st.selected.size) parts.push(el("button", { type: "button", class: "clear", text: UI.clear, onclick: handlers.clear }));
  setChildren(byId("actions"), parts);
}

function drawLog(st) {
  const list = byId("log");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
  setChildren(list, st.log.map((line) => el("li", { text: line })));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function drawChat(st) {
  const box = byId("chat-box");
  box.hidden = !st.capabilities.includes("chat");
  if (box.hidden) return;
  const most = st.table && st.table.limits ? st.table.limits.chat_chars : 0;
  if (most) byId("chat-text").maxLength = most;
  byId("chat-limit").textContent = most ? say(UI.chatLimit, { n: most }) : "";
  const list = byId("chat");
  setChildren(
    list,
    st.chat.map((line) =>
      el(
        "li",
        { class: line.earlier ? "earlier" : "" },
        el("span", { class: "who", text: line.name }),
        line.spectator ? ` ${UI.spectatorTag}` : "",
        ": ",
        el("span", { class: "text", text: line.text }),
        line.earlier ? ` ${UI.earlier}` : "",
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
}

/** Only the line saying whose turn it is (the turn timer's countdown). */
export function drawTurn(st) {
  byId("turn").textContent = turnText(st);
  byId("turn").className = `turn-line ${st.decision ? "your-turn" : ""}`;
}

/** The whole table screen. */
export function drawTable(st, handlers) {
  const place = focusedPlace(byId("table"));
  byId("join").hidden = true;
  byId("table").hidden = false;
  const mod = gameModule(st.game);
  drawHead(st);
  drawNotice(st);
  drawTurn(st);
  if (mod && st.current) {
    const ctx = gameContext(st, handlers);
    drawOutcome(st, mod, ctx, handlers);
    setChildren(byId("board"), mod.board(ctx));
    setChildren(byId("hand"), mod.hand(ctx));
    drawActions(st, mod, ctx, handlers);
  } else {
    byId("outcome").hidden = true;
    for (const id of ["board", "hand", "actions"]) setChildren(byId(id));
  }
  drawLog(st);
  drawSeats(st);
  drawChat(st);
  refocus(place);
}
