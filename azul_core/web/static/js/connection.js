// The table's WebSocket: says hello with the secret and the last version seen, hands every
// message to the page, and comes back by itself after a network loss, a sleep or a server restart.

const RETRY_MS = [250, 500, 1000, 2000, 4000];
// A socket can look open after a sleep or a network change while the connection is gone: a ping
// that gets no pong in time closes it, and the usual reconnection follows.
const PING_EVERY_MS = 25000;
const PONG_WITHIN_MS = 5000;

export class TableConnection {
  /**
   * @param {string} table  the table id
   * @param {string|null} secret  the seat or watch secret (from the URL fragment)
   * @param {{onMessage: Function, onStatus: Function, version: Function}} handlers
   */
  constructor(table, secret, handlers) {
    this.table = table;
    this.secret = secret;
    this.handlers = handlers;
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.pongTimer = null;
    setInterval(() => { if (document.visibilityState === "visible") this.check(); }, PING_EVERY_MS);
    // A page coming back from sleep or a lost network reconnects at once instead of waiting.
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
    window.addEventListener("pageshow", (event) => { if (event.persisted) this.reconnectNow(); });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.table)}`;
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.handlers.onStatus(this.attempt ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      // changes: after the first state, each update says only what changed (docs/serve.md).
      // log: the game log too, appended to by the updates; seating: who plays each seat, clocks, a rematch.
      socket.send(JSON.stringify({ type: "hello", secret: this.secret, version: this.handlers.version(), changes: true, seating: true, log: true }));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "pong") {
        clearTimeout(this.pongTimer);
        this.pongTimer = null;
        return;
      }
      if (message.type === "state") {
        this.attempt = 0;
        this.handlers.onStatus("live");
      }
      this.handlers.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
      // 4xxx: the server refused this link for good (no such table, bad secret): don't hammer it.
      if (event.code >= 4000 && event.code < 4500) {
        this.stopped = true;
        this.handlers.onStatus("refused", event.reason || "the server refused this link");
        return;
      }
      this.retry();
    });
  }

  retry() {
    if (this.stopped || this.timer) return;
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.handlers.onStatus("offline");
    this.timer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.check();
      return;
    }
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING) return;
    this.attempt = Math.max(this.attempt, 1);
    this.open();
  }

  /** Is the open socket still alive? No pong in time: close it (and so reconnect). */
  check() {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || this.pongTimer) return;
    socket.send(JSON.stringify({ type: "ping" }));
    this.pongTimer = setTimeout(() => {
      this.pongTimer = null;
      if (this.socket !== socket) return;
      // Don't wait for a dead connection's closing handshake: drop it and reconnect now.
      this.socket = null;
      socket.close();
      this.retry();
    }, PONG_WITHIN_MS);
  }

  /** Send a message; false when the socket is not open (the caller says so on the page). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
