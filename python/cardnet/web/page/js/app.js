// The web seat: greets the host, keeps the seat token, answers decisions with the moves the player taps, and
// redraws the page after every message. The protocol is PROTOCOL.md's, one line per WebSocket message.

import { passwordProof } from "./auth.js";
import { Connection, socketUrl } from "./connection.js";
import { byId } from "./dom.js";
import { showRules } from "./rules.js";
import { loadSegments } from "./segments.js";
import { TableState } from "./state.js";
import { forgetSeat, loadLanguage, loadName, loadSeat, saveLanguage, saveName, saveSeat } from "./store.js";
import { UI, errorText, preferredLanguage, useLanguage } from "./words.js";
import { drawJoin, drawLink, drawTable, drawTurn, gameContext, gameModule, labelPage } from "./view.js";

const PROTOCOL = 1;
const CLIENT = "cardnet-web/1";
const CAPABILITIES = ["chat", "index_moves", "rematch"];
// Fatal refusals after which reconnecting would only repeat them.
const FINAL = new Set(["replaced", "shutting_down", "unsupported_version"]);

const st = new TableState();
let intent = null;
let joinError = "";
// The link's state (connecting, connected, reconnecting, silent, closed) and details ({attempt, at} or {byHost}).
let link = "connecting";
let linkInfo = {};
let firstState = false;
// The table's password as typed during this visit: kept in memory only, never stored.
let password = null;
// The moves one tap still has to make, one per decision (see handlers.play).
let planned = [];
const connection = new Connection(socketUrl(window.location), { onMessage, onStatus });

const handlers = {
  toggle(card, max) {
    if (!st.decision) return;
    if (max <= 1) st.selected = st.selected.has(card) ? new Set() : new Set([card]);
    else if (st.selected.has(card)) st.selected.delete(card);
    else if (st.selected.size < max) st.selected.add(card);
    draw();
  },
  clear() {
    st.selected = new Set();
    draw();
  },
  /** Answer with legal move `index`; `plan`: predicates picking the moves to send at this seat's next decisions
   * (TEN's one-tap payment, one piece per decision), dropped at the first that matches no legal move. */
  play(index, plan = []) {
    const message = st.answer(index);
    if (message) connection.send(message);
    planned = message ? [...plan] : [];
    draw();
  },
  redraw() {
    draw();
  },
  rematch() {
    connection.send({ type: "rematch" });
  },
};

/** Problems with a name the host would refuse (1-32 code points, no control characters), or "". */
function nameProblem(name) {
  if (!name) return UI.nameEmpty;
  if ([...name].length > 32) return UI.nameTooLong;
  if (/[\u0000-\u001f\u007f]/.test(name)) return UI.nameControl;
  return "";
}

function hello(role, name, token) {
  const message = { capabilities: CAPABILITIES, client: CLIENT, name, protocol: PROTOCOL, role, type: "hello" };
  if (token) message.token = token;
  if (st.table.password) message.auth = passwordProof(password || "", st.table.table_id, st.table.challenge);
  connection.send(message);
}

/** After the host's `table`: take the kept seat back, repeat the player's choice after a drop, or ask. */
function greet() {
  const table = st.table;
  if (!(table.versions || []).includes(PROTOCOL)) {
    joinError = errorText({ code: "unsupported_version" });
    intent = null;
    return;
  }
  if (table.password && password === null) {
    // The form asks for it first (offering the kept seat back, if there is one).
    intent = null;
    return;
  }
  const kept = loadSeat(table.table_id);
  if (kept) {
    hello("player", kept.name || loadName() || UI.guestName, kept.token);
    intent = { role: "player", name: kept.name };
  } else if (intent) {
    hello(intent.role, intent.name);
  }
}

function choose(role) {
  const name = byId("name").value.trim();
  const problem = nameProblem(name);
  if (problem) {
    joinError = problem;
    draw();
    return;
  }
  if (st.table.password) password = byId("password").value;
  saveName(name);
  const kept = role === "player" ? loadSeat(st.table.table_id) : null;
  intent = { role, name: kept && kept.name ? kept.name : name };
  joinError = "";
  hello(role, intent.name, kept ? kept.token : null);
}

function onMessage(message) {
  switch (message.type) {
    case "table":
      mark("cardnet-table");
      // The host answered: the link is up even before this guest joins or watches.
      if (link !== "closed") setLink("connected", {});
      st.onTable(message);
      showRules(message.game);
      st.welcomed = false;
      greet();
      break;
    case "welcome":
      // Back after a drop: say so in place of the refusal or warning that may still show.
      if (st.current) st.notice = { kind: "info", text: UI.reconnected };
      setLink("connected", {});
      st.onWelcome(message);
      st.welcomed = true;
      if (message.token && st.seat !== null) {
        saveSeat(st.table.table_id, { token: message.token, seat: st.seat, name: intent ? intent.name : loadName() });
      }
      break;
    case "seats":
      st.onSeats(message);
      break;
    case "snapshot":
    case "update": {
      const mod = gameModule(st.game);
      st.onState(message, (event) => (mod ? mod.eventText(gameContext(st, handlers), event) : null));
      firstState = true;
      requestLegal();
      if (st.resend) {
        st.resend = false;
        const again = st.repeat();
        if (again) connection.send(again);
      }
      break;
    }
    case "error":
      onError(message);
      break;
    case "chat":
      st.onChat(message);
      break;
    case "rematch":
      st.votes = message;
      break;
    case "legal": {
      const got = st.onLegal(message);
      if (got === "more") connection.send(st.legalRequest());
      if (got !== "done") return;
      break;
    }
    default:
      return;
  }
  continuePlan();
  draw();
}

/** The next move of a one-tap plan, once this seat's next decision (with its legal moves) is open. */
function continuePlan() {
  if (!planned.length || !st.decision) return;
  if (st.over) {
    planned = [];
    return;
  }
  const index = st.decision.legal.findIndex(planned.shift());
  if (index < 0) {
    planned = [];
    return;
  }
  const message = st.answer(index);
  if (message) connection.send(message);
}

/** Ask for a decision's legal moves, page by page, when the host sent it without them. */
function requestLegal() {
  const request = st.firstLegalPage();
  if (request) connection.send(request);
}

function onError(message) {
  planned = [];
  if (!message.fatal) {
    st.onError(message);
    return;
  }
  const text = errorText(message, st.game);
  if (message.code === "bad_token" && st.table) {
    forgetSeat(st.table.table_id);
    intent = null;
    joinError = UI.badTokenDropped;
  } else if (message.code === "table_full" && !st.welcomed) {
    intent = null;
    joinError = UI.fullWatch;
  } else if (!st.welcomed) {
    // A refused greeting (a wrong password, a name the host will not take): back to the form with its words.
    if (message.code === "auth_failed") password = null;
    intent = null;
    joinError = text;
  }
  if (FINAL.has(message.code)) {
    // No reconnecting and no more moves; the table stays on screen.
    connection.stop();
    planned = [];
    st.closed = true;
    const final = { replaced: UI.replacedStop, shutting_down: UI.hostStoppedHint }[message.code] || text;
    st.notice = { kind: "final", text: final };
    setLink("closed", { byHost: message.code === "shutting_down" });
  } else if (st.welcomed) {
    st.notice = { kind: "refusal", text };
  }
}

function onStatus(kind, info) {
  if (link !== "closed") setLink(kind, info);
}

function setLink(kind, info) {
  link = kind;
  linkInfo = info;
  drawLink(kind, info);
}

/** A performance mark, once per page load (read by bench/web_page.py: load to first table state). */
function mark(name) {
  if (performance.getEntriesByName(name).length === 0) performance.mark(name);
}

function draw() {
  if (st.welcomed) {
    drawTable(st, handlers);
    if (firstState) mark("cardnet-first-state");
  } else if (st.table && !intent) {
    drawJoin(st, joinError, Boolean(loadSeat(st.table.table_id)));
  }
}

/** Speak `lang` from now on (the start page's choice, remembered): every label and the screen drawn again. */
async function switchLanguage(lang) {
  saveLanguage(await useLanguage(lang));
  labelPage();
  drawLink(link, linkInfo);
  if (st.table) showRules(st.table.game);
  draw();
}

async function main() {
  // The chosen language, else the browser's first that cardnet speaks, else English (words.js).
  await useLanguage(preferredLanguage(loadLanguage()));
  labelPage();
  byId("language").addEventListener("change", (event) => switchLanguage(event.target.value));
  drawLink(link, linkInfo);
  byId("retry-btn").addEventListener("click", () => connection.retryNow());
  byId("name").value = loadName();
  byId("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    choose("player");
  });
  byId("watch-btn").addEventListener("click", () => choose("spectator"));
  byId("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId("chat-text");
    const text = input.value.trim();
    if (text && connection.send({ text, type: "chat" })) input.value = "";
  });
  connection.start();
  setInterval(() => {
    if (st.welcomed && st.secondsLeft !== null) drawTurn(st);
    // The seconds until the next reconnect attempt.
    if (linkInfo.at) drawLink(link, linkInfo);
  }, 1000);
  await loadSegments();
  draw();
}

main();
