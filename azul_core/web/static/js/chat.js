// Chat at the table: a seat's player writes short messages to the whole table. They come back,
// as everybody else's, in the game log (log.js draws them as text, never as markup); the form
// sits under the log, for a seat's page only, unless the table's creator turned chat off (the
// view's `chat: false`). The server cleans and limits every message: this page only keeps a
// refused one so it can be sent again.
import { el } from "./dom.js";

// The server's limit (web/chat.py MAX_CHARACTERS); it refuses a longer message in words anyway.
const MAX_CHARACTERS = 200;

let app = null;
let send = null;
let unsent = null; // the text of the message last sent, until it is taken or refused
let saidBefore = 0; // how many of this seat's messages the log held when it was sent
let heard = null; // how many messages the log held at the last drawing (null: not drawn yet)

/** `send(message)` puts a message on the table's socket (false when not connected). */
export function installChat(state, sender) {
  app = state;
  send = sender;
}

/** After each drawing of the page: the form under the log, where this page may chat. */
export function afterRender() {
  const log = document.getElementById("game-log");
  if (log) announce(log);
  const open = !!log && app.you !== null && !!app.view && app.view.chat !== false;
  let form = document.getElementById("chat-form");
  if (!open) {
    if (form) form.hidden = true;
    return;
  }
  if (!form) {
    form = drawForm();
    log.append(form);
  }
  form.hidden = false;
  if (unsent !== null && said() > saidBefore) unsent = null;
}

/** The log is no live region (every move would be read out): the others' new messages are. */
function announce(log) {
  const messages = (app.log || []).filter((entry) => entry && entry.chat);
  let region = document.getElementById("chat-heard");
  if (!region) {
    region = el("p", { id: "chat-heard", class: "chat-heard", "aria-live": "polite" });
    log.append(region);
  }
  if (heard !== null && messages.length > heard) {
    const others = messages.slice(heard).filter((entry) => entry.seat !== app.you);
    if (others.length) {
      region.textContent = others.map((entry) => `${String(entry.name ?? "")} says: ${String(entry.text ?? "")}`).join(" ");
    }
  }
  heard = messages.length;
}

function drawForm() {
  return el("form", { id: "chat-form", class: "chat-form", autocomplete: "off", onsubmit: submit },
    el("label", { for: "chat-input" }, "Say to the table"),
    el("input", { id: "chat-input", name: "chat", type: "text", maxlength: MAX_CHARACTERS, spellcheck: "true",
      placeholder: "a short message, plain text", "aria-describedby": "chat-status" }),
    el("button", { type: "submit", id: "chat-send", class: "button" }, "Send"),
    el("p", { id: "chat-status", class: "chat-status", role: "status" }, ""));
}

function submit(event) {
  event.preventDefault();
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  if (!text) {
    status("Write something first.");
    return;
  }
  if (!send({ type: "chat", text })) {
    status("Not connected: the message was not sent; press Send again once connected.");
    return;
  }
  unsent = text;
  saidBefore = said();
  input.value = "";
  status("");
}

/** A `chat-refused` message (to this page alone): why, and the text back in the box. */
export function receiveChatRefusal(message) {
  const input = document.getElementById("chat-input");
  if (input && unsent !== null && !input.value) input.value = unsent;
  unsent = null;
  status(`Not sent: ${String(message.reason || "the server did not say why")}.`);
}

/** How many messages of this seat the log holds. */
function said() {
  return (app.log || []).filter((entry) => entry && entry.chat && entry.seat === app.you).length;
}

function status(text) {
  const line = document.getElementById("chat-status");
  if (line) line.textContent = text;
}
