// The table as this page knows it: the host's `table`, `welcome`, `seats` and latest state message, the move in
// flight, the event log and the chat. One object; the renderers only read it.

import { UI, say, seatLabels, errorText } from "./words.js";

const LOG_LIMIT = 300;
const CHAT_LIMIT = 100;
// The largest page of legal moves the host gives at once.
const LEGAL_PAGE = 4096;

export class TableState {
  constructor() {
    this.table = null;
    this.role = null;
    this.seat = null;
    this.capabilities = [];
    this.seats = [];
    this.spectators = null;
    this.started = false;
    this.current = null;
    this.receivedAt = 0;
    this.log = [];
    this.chat = [];
    this.notice = null;
    this.votes = null;
    // The move sent and not yet acknowledged: {decision_id, index, ref}.
    this.pending = null;
    this.nextRef = 1;
    // The pending move is sent again after a reconnect (PROTOCOL.md § 7).
    this.resend = false;
    this.selected = new Set();
    this.selectionFor = null;
    // The legal moves of a decision sent without its list, fetched page by page: {id, moves, done}.
    this.paged = null;
    // The page stopped for good (the host closed the table, or a final refusal): no more moves.
    this.closed = false;
  }

  get game() {
    return this.table ? this.table.game : null;
  }

  get view() {
    return this.current ? this.current.view : null;
  }

  get over() {
    return Boolean(this.current && this.current.over);
  }

  /** The open decision this page may still answer (null while a move for it is on its way). */
  get decision() {
    const decision = this.current && this.current.decision;
    if (this.closed || !decision || !Array.isArray(decision.legal)) return null;
    if (this.pending && this.pending.decision_id === decision.id) return null;
    return decision;
  }

  /** Whole seconds left on the open decision's turn timer, or null without one. */
  get secondsLeft() {
    const decision = this.decision;
    if (!decision || !Number.isInteger(decision.deadline_ms)) return null;
    return Math.max(0, Math.ceil((decision.deadline_ms - (Date.now() - this.receivedAt)) / 1000));
  }

  get names() {
    return seatLabels(this.seats, this.seat);
  }

  name(seat) {
    const names = this.names;
    return seat >= 0 && seat < names.length ? names[seat] : say(UI.seat, { seat });
  }

  onTable(message) {
    this.table = message;
    this.seats = message.seats || [];
    this.started = Boolean(message.started);
  }

  onWelcome(message) {
    this.seat = Number.isInteger(message.seat) ? message.seat : null;
    this.capabilities = message.capabilities || [];
    // Pages of legal moves asked on the lost connection will not come: ask again on this one.
    if (this.paged && !this.paged.done) this.paged = null;
    // A move whose ack never came is repeated once the state arrives (its ack, or its refusal, follows).
    this.resend = this.pending !== null;
  }

  onSeats(message) {
    this.seats = message.seats || this.seats;
    this.started = Boolean(message.started);
    if (Number.isInteger(message.spectators)) this.spectators = message.spectators;
  }

  /** A `snapshot` or `update`; `eventText` words each event. Returns true when a new game began. */
  onState(message, eventText) {
    const before = this.current;
    const newGame = before !== null && message.game_no !== before.game_no;
    this.current = message;
    // A turn timer's milliseconds left count from the message's arrival (PROTOCOL.md § 10).
    this.receivedAt = Date.now();
    if (newGame) {
      this.votes = null;
      this.pending = null;
      this.addLog(UI.newGame);
    }
    if (message.ack && this.pending && message.ack.decision_id === this.pending.decision_id) this.pending = null;
    if (this.pending && message.over) this.pending = null;
    for (const event of message.events || []) {
      const text = eventText(event);
      if (text) this.addLog(text);
    }
    const decision = message.decision;
    if (decision && decision.legal === null && this.paged && this.paged.id === decision.id && this.paged.done) {
      // A list too long to send inline (PROTOCOL.md § 4) was fetched in pages for this decision already.
      decision.legal = this.paged.moves;
    }
    const key = decision ? `${message.game_no}/${decision.id}` : null;
    if (key !== this.selectionFor) {
      this.selected = new Set();
      this.selectionFor = key;
    }
    return newGame;
  }

  /** The `legal` request for the first page of the open decision's moves, when it came without them. */
  firstLegalPage() {
    const decision = this.current && this.current.decision;
    if (!decision || decision.legal !== null || !(decision.count > 0)) return null;
    if (this.paged && this.paged.id === decision.id) return null;
    this.paged = { id: decision.id, moves: [], done: false };
    return this.legalRequest();
  }

  /** The `legal` request for the page after those received. */
  legalRequest() {
    return { decision_id: this.paged.id, limit: LEGAL_PAGE, offset: this.paged.moves.length, type: "legal" };
  }

  /** A page of legal moves arrived: "done" when the list is now complete, "more" when pages are missing,
   * "ignored" for a page of another decision or a repeated one. */
  onLegal(message) {
    const decision = this.current && this.current.decision;
    const paged = this.paged;
    if (!paged || paged.done || message.decision_id !== paged.id || message.offset !== paged.moves.length) return "ignored";
    paged.moves.push(...message.moves);
    if (paged.moves.length < message.count && message.moves.length) return "more";
    paged.done = true;
    if (decision && decision.id === paged.id) decision.legal = paged.moves;
    return "done";
  }

  /** A non-fatal refusal: the move in flight (if it was that one) may be chosen again. */
  onError(message) {
    if (this.pending && (message.ref === this.pending.ref || message.code === "stale_decision")) this.pending = null;
    this.notice = { kind: "refusal", text: errorText(message, this.game) };
  }

  onChat(message) {
    this.chat.push(message);
    if (this.chat.length > CHAT_LIMIT) this.chat.splice(0, this.chat.length - CHAT_LIMIT);
  }

  addLog(text) {
    this.log.push(text);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  /** The move message answering the open decision with its `index`, remembered until acknowledged. */
  answer(index) {
    const decision = this.decision;
    if (!decision || index < 0 || index >= decision.legal.length) return null;
    this.pending = { decision_id: decision.id, index, ref: this.nextRef++ };
    this.notice = null;
    return { decision_id: decision.id, index, ref: this.pending.ref, type: "move" };
  }

  /** The pending move's message again (after a reconnect). */
  repeat() {
    if (!this.pending) return null;
    const { decision_id, index, ref } = this.pending;
    return { decision_id, index, ref, type: "move" };
  }
}
