// The WebSocket to the host: one protocol line per text message, both ways (PROTOCOL.md § 1). Reconnects with
// exponential back-off and jitter after a drop, and treats a host silent for three keepalive intervals as
// gone (§ 9). It knows nothing of the game: messages go to `onMessage`, the link's state to `onStatus` with
// {attempt, at}: the attempt running or coming, and when the next starts (ms; null while one runs).

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 5000;
// Before `welcome` says otherwise: the host's default keepalive, and the handshake's limit for a silent host.
const DEFAULT_KEEPALIVE_MS = 10000;
const HANDSHAKE_SILENCE_MS = 10000;

export function socketUrl(location) {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}

export class Connection {
  constructor(url, { onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.welcomed = false;
    this.keepaliveMs = DEFAULT_KEEPALIVE_MS;
    this.lastHeard = 0;
    this.retryTimer = null;
    this.watchdog = null;
    // "lost" or "silent": why the link went down, said until it is back.
    this.why = "lost";
  }

  /** Open the connection (again after `stop`, too). */
  start() {
    this.stopped = false;
    this.open();
    if (this.watchdog === null) this.watchdog = setInterval(() => this.checkSilence(), 1000);
  }

  open() {
    this.welcomed = false;
    this.lastHeard = Date.now();
    this.onStatus(this.attempt ? this.status() : "connecting", { attempt: this.attempt, at: null });
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket || typeof event.data !== "string") return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!message || typeof message !== "object" || Array.isArray(message)) return;
      if (message.type === "ping") {
        this.send({ id: message.id, type: "pong" });
        return;
      }
      if (message.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.why = "lost";
        if (Number.isInteger(message.keepalive_ms) && message.keepalive_ms > 0) this.keepaliveMs = message.keepalive_ms;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (!this.stopped) this.retry("lost");
    });
  }

  /** Send one protocol message (dropped when the link is down: the table's next state says what to do). */
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Close for good (a fatal refusal, or the player left): no reconnect. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close();
    }
  }

  /** "Try now": the next attempt at once (nothing while one runs, the link is up, or stopped). */
  retryNow() {
    if (this.stopped || this.socket || this.retryTimer === null) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  status() {
    return this.why === "silent" ? "silent" : "reconnecting";
  }

  retry(why) {
    if (why === "silent" || this.attempt === 0) this.why = why;
    this.attempt += 1;
    const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (this.attempt - 1));
    const delay = base / 2 + Math.random() * (base / 2);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
    this.onStatus(this.status(), { attempt: this.attempt, at: Date.now() + delay });
  }

  checkSilence() {
    if (!this.socket || this.stopped) return;
    const limit = this.welcomed ? 3 * this.keepaliveMs : HANDSHAKE_SILENCE_MS;
    if (Date.now() - this.lastHeard > limit) {
      const socket = this.socket;
      this.socket = null;
      socket.close();
      this.retry("silent");
    }
  }
}
