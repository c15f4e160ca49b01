// Hints: at a table whose creator turned them on (the view's `hints`), the player to move may ask
// the server's search bot what it would play. The answer is shown in words and marked on the
// page (the tiles to take, the line or wall space they go to, or the house rule's button); it is
// never sent as a move: the player still chooses and confirms.
import { el, COLOURS, LETTER } from "./dom.js";
import { prefer } from "./keyboard.js";

let app = null;
let send = null;
let waiting = null; // the version a hint was asked at, while it is worked out
let hint = null; // the last answer: {version, move, text} or {version, reason}

// A draft in record notation: source (C or a factory number), colour letter (the variant's),
// line (1 to the number of lines, or -).
const DRAFT = /^(C|\d+)([A-Z])([1-9]|-)$/;
const PLACE = /^w(\d):(\d)$/;

/** The colour of a letter of the record notation. */
function colourOf(letter) {
  return COLOURS.find((name) => LETTER[name] === letter);
}

/** `send(message)` puts a message on the table's socket (false when not connected). */
export function installHints(state, sender) {
  app = state;
  send = sender;
}

function row() {
  let box = document.getElementById("hint-row");
  if (!box) {
    box = el("div", { id: "hint-row", class: "hint-row" },
      el("button", { type: "button", id: "hint-button", class: "button", onclick: ask }, "Hint"),
      el("p", { id: "hint-text", class: "hint-text", "aria-live": "polite", hidden: true }));
    const anchor = document.getElementById("keys-help") || document.getElementById("prompt");
    anchor.after(box);
  }
  return box;
}

function ask() {
  if (waiting !== null) return;
  if (!send({ type: "hint", version: app.version })) return;
  waiting = app.version;
  hint = null;
  decorate();
}

/** A `hint` message from the server (to this seat alone). */
export function receiveHint(message) {
  waiting = null;
  hint = message;
  if (message.move && message.version === app?.version) reachable(String(message.move));
  decorate();
}

/** The hinted choice becomes the tab stop of the colours and of the places (keyboard.js). */
function reachable(move) {
  const draft = DRAFT.exec(move);
  const place = PLACE.exec(move);
  if (draft) {
    prefer("supply", `pick:${draft[1] === "C" ? 0 : Number(draft[1])}:${colourOf(draft[2])}`);
    prefer("targets", `line:${draft[3] === "-" ? "floor" : Number(draft[3]) - 1}`);
  } else if (place) {
    prefer("targets", `cell:${Number(place[1]) - 1}:${Number(place[2]) - 1}`);
  } else {
    prefer("moves", `move:${move}`);
  }
}

function myTurn() {
  return document.body.dataset.myTurn === "yes";
}

/** Where the hinted move is on the page: the elements to mark. */
function marked(move) {
  const found = [];
  const draft = DRAFT.exec(move);
  if (draft) {
    const source = draft[1] === "C" ? "0" : draft[1];
    const colour = colourOf(draft[2]);
    found.push(...document.querySelectorAll(`#supply button.tile[data-source="${source}"][data-colour="${colour}"]`));
    const line = draft[3] === "-" ? "floor" : String(Number(draft[3]) - 1);
    found.push(...document.querySelectorAll(`.board.mine [data-line="${line}"]`));
    return found;
  }
  const place = PLACE.exec(move);
  if (place) {
    const row = Number(place[1]) - 1;
    const column = Number(place[2]) - 1;
    return [...document.querySelectorAll(`.board.mine .cell[data-row="${row}"][data-column="${column}"]`)];
  }
  return [...document.querySelectorAll("#plugin-moves button.plugin-move")].filter((b) => b.dataset.move === move);
}

function decorate() {
  if (!app?.view) return;
  const box = row();
  const offered = !!app.view.hints && app.you !== null && app.view.phase !== "over";
  box.hidden = !offered;
  if (!offered) return;
  const button = document.getElementById("hint-button");
  const text = document.getElementById("hint-text");
  const current = hint && hint.version === app.version ? hint : null;
  // Not disabled while thinking (a disabled button drops the keyboard's focus): a second press
  // is ignored, and asking again later gets the same answer.
  button.disabled = !myTurn();
  button.setAttribute("aria-busy", waiting !== null ? "true" : "false");
  button.textContent = waiting !== null ? "Thinking…" : "Hint";
  button.title = myTurn() ? "The search bot suggests a move; you still choose and confirm" : "A hint is for your turn";
  for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
  if (!current || waiting !== null) {
    text.hidden = true;
    text.textContent = "";
    return;
  }
  text.hidden = false;
  text.dataset.kind = current.move ? "hint" : "refused";
  text.textContent = current.move ? String(current.text || `Hint: ${current.move}`) : `No hint: ${current.reason}.`;
  if (current.move) {
    text.dataset.move = String(current.move);
    for (const node of marked(String(current.move))) node.classList.add("hinted");
  }
}

/** Called at the end of every render (the page is redrawn: mark the hint again). */
export function afterRender() {
  if (waiting !== null && waiting !== app.version) waiting = null;
  decorate();
}
