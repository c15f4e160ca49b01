// Playing by keyboard. Three groups of controls each hold one tab stop (a "roving tabindex"):
// the colours that may be taken (factories and centre), the places on your board the chosen
// colour or tile may go (pattern lines, floor, wall spaces), and a house rule's moves. Arrow
// keys move within a group, Enter or Space picks (the buttons' own behaviour), Escape goes
// back (table.js). After each step the focus goes where the next step is: a colour picked
// sends it to the legal lines, a line picked to Confirm, a confirmed move back to the colours
// when the turn comes round again. A whole turn is Enter, Enter, Enter, plus arrows to choose.
//
// Shortcuts make any turn short, whatever the table's size: a digit goes to that factory (0 or C
// to the centre; 0 alone where a colour's letter is C), a colour's letter (B Y R K W, or the
// variant's own: O for orange) takes that colour there, a digit (or - for the floor) then takes
// that line, or that wall column; Enter confirms. So at most six keys: Tab,
// 6, R, 3, Enter, and one more Enter when the move costs points: an Enter that would send tiles
// to the floor, or to a line the preview marks with a cost, asks once more (a mouse click on
// Confirm does not: the preview is under the pointer).
//
// Nothing here decides what is legal: the groups are the buttons the page drew from the
// server's legal moves.
import { el, fill, floorLine, COLOURS, LETTER } from "./dom.js";

const GROUPS = {
  supply: "#supply button.tile.pickable",
  targets: ".board.mine button.target",
  moves: "#plugin-moves button.plugin-move",
};

// Where the focus was in each group, as a key that survives a redraw (render() replaces the
// buttons on every message).
const remembered = { supply: null, targets: null, moves: null };
let keyboardMode = false;
let seenVersion = null;
let app = null;
// The costly move an Enter on Confirm asked about ({move, version}): the next Enter sends it.
let asked = null;
let spaceAsked = false;

/** The colour a key takes (its letter, either case), or undefined. */
function colourOfKey(key) {
  return COLOURS.find((name) => LETTER[name]?.toLowerCase() === key);
}

/** The key that finds a control again after a redraw. */
function keyOf(button) {
  const d = button.dataset;
  if (d.move && button.classList.contains("plugin-move")) return `move:${d.move}`;
  if (d.colour !== undefined && d.source !== undefined) return `pick:${d.source}:${d.colour}`;
  if (d.row !== undefined && d.column !== undefined) return `cell:${d.row}:${d.column}`;
  if (d.line !== undefined) return `line:${d.line}`;
  return null;
}

function groupOf(node) {
  for (const [name, selector] of Object.entries(GROUPS)) {
    if (node instanceof Element && node.matches(selector)) return name;
  }
  return null;
}

/** The members of a group, one per choice: a factory's two red tiles are one choice. */
function members(group) {
  const seen = new Set();
  return [...document.querySelectorAll(GROUPS[group])].filter((button) => {
    const key = keyOf(button);
    if (seen.has(key)) return false;
    seen.add(key);
    return !button.disabled && !button.closest("[hidden]");
  });
}

function find(group, key) {
  return key ? members(group).find((button) => keyOf(button) === key) || null : null;
}

/** The member that holds the group's tab stop: the one last focused, else the chosen one, else the
 * first (that is not a mistake). */
function current(group) {
  const list = members(group);
  if (!list.length) return null;
  return find(group, remembered[group])
    || list.find((b) => b.classList.contains("selected") || b.classList.contains("chosen"))
    // The default place costs nothing where one does: Enter, Enter, Enter never throws tiles
    // away unasked (and a line that can't take the colour, duel's, is never the default).
    || (group === "targets" ? list.find((b) => !costs(draftOf(b))) : null)
    || list.find((b) => !b.classList.contains("misplaced"))
    || list[0];
}

/** One tab stop per group; the other members are reached with the arrow keys. */
function rove() {
  for (const group of Object.keys(GROUPS)) {
    const stop = current(group);
    for (const button of document.querySelectorAll(GROUPS[group])) {
      button.tabIndex = button === stop ? 0 : -1;
    }
  }
}

/** The draft a place of your board stands for, with the colour picked (null: a wall space). */
function draftOf(button) {
  const selected = app?.selected;
  if (!selected || button?.dataset.line === undefined) return null;
  const line = button.dataset.line === "floor" ? floorLine() : Number(button.dataset.line);
  return (app.legal?.drafts || []).find((d) => d.source === selected.source && d.colour === selected.colour
    && d.line === line) || null;
}

/** Whether a draft costs points (tiles or the marker to the floor), as its preview says. */
function costs(draft) {
  return !!draft && (draft.line === floorLine() || !!draft.misplaced || !!draft.preview?.cost);
}

function pendingDraft() {
  return app?.pending ? (app.legal?.drafts || []).find((d) => d.move === app.pending) || null : null;
}

function askWords(draft) {
  const p = draft.preview || {};
  const falling = [p.floor ? `${p.floor} ${p.floor === 1 ? "tile" : "tiles"}` : null, p.marker ? "the start marker" : null]
    .filter(Boolean).join(" and ");
  const cost = p.cost ? ` (${p.cost} ${Math.abs(p.cost) === 1 ? "point" : "points"})` : "";
  return `${falling || "Tiles"} to the floor${cost}: Enter again to confirm, Escape to change.`;
}

/** Show the question an Enter on Confirm asked (a redraw clears the confirm bar's warning). */
function showAsked() {
  const warning = document.getElementById("pending-warning");
  const draft = pendingDraft();
  if (!warning) return;
  if (!asked || !draft || asked.move !== app.pending || asked.version !== app.version) {
    delete warning.dataset.ask;
    return;
  }
  warning.textContent = askWords(draft);
  warning.dataset.ask = "yes";
  warning.hidden = false;
}

/** Enter (or Space) on Confirm for a move that costs points: the first asks, the second sends. */
function confirmAsks(event) {
  if ((event.key !== "Enter" && event.key !== " ") || event.target?.id !== "confirm") return false;
  const draft = pendingDraft();
  if (!costs(draft) || (asked && asked.move === app.pending && asked.version === app.version)) return false;
  asked = { move: app.pending, version: app.version };
  showAsked();
  spaceAsked = event.key === " "; // a button is pressed by Space when it is let go
  return true;
}

function typing(node) {
  return node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement
    || node instanceof HTMLSelectElement || node?.isContentEditable;
}

/** A digit, C, - or a colour's letter: go to a factory, take a colour, take a line. */
function shortcut(event) {
  if (!myTurn() || typing(event.target) || event.shiftKey) return false;
  const key = event.key.toLowerCase();
  const group = groupOf(event.target);
  const places = members("targets");
  const onPlaces = places.length && (group === "targets" || group === null || event.target?.id === "confirm");
  if (onPlaces && (/^[1-9]$/.test(key) || key === "-")) {
    const wall = places[0].dataset.column !== undefined;
    const place = places.find((b) => (key === "-" ? b.dataset.line === "floor"
      : wall ? Number(b.dataset.column) === Number(key) - 1 : Number(b.dataset.line) === Number(key) - 1));
    if (!place) return true; // no such place for this colour: nothing happens
    remembered.targets = keyOf(place);
    place.focus();
    place.click();
    return true;
  }
  const supply = members("supply");
  if (!supply.length) return false;
  const colour = colourOfKey(key);
  if ((/^[0-9]$/.test(key) || (key === "c" && !colour)) && group !== "targets") {
    const source = key === "c" ? 0 : Number(key);
    const first = supply.find((b) => Number(b.dataset.source) === source);
    if (first) {
      remembered.supply = keyOf(first);
      rove();
      first.focus();
    }
    return true;
  }
  if (colour) {
    const at = group === "supply" ? event.target : current("supply");
    const source = group === "targets" && app.selected ? app.selected.source : Number(at?.dataset.source);
    const button = supply.find((b) => Number(b.dataset.source) === source && b.dataset.colour === colour);
    if (button) {
      remembered.supply = keyOf(button);
      button.focus();
      button.click();
    }
    return true;
  }
  return false;
}

function myTurn() {
  return document.body.dataset.myTurn === "yes" && !app.sent;
}

/** Where the player's next step is: Confirm, a place for the chosen colour, a move, a colour. */
function nextStep() {
  if (!myTurn()) return null;
  const confirm = document.getElementById("confirm");
  if (app.pending && confirm && !confirm.closest("[hidden]")) return confirm;
  return current("targets") || (app.legal?.drafts?.length ? current("supply") : current("moves")) || current("supply");
}

function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || !!active.closest("[hidden]");
}

/** Make `key` (as keyOf gives it) the tab stop of `group` when it is drawn: a hint's choice,
 * so that Shift+Tab from the Hint button, then Enter, Enter, Enter plays what was suggested. */
export function prefer(group, key) {
  remembered[group] = key;
  if (app) rove();
}

/** Called at the end of every render: keep one tab stop per group and, for a keyboard player,
 * put back the focus the redraw took away. */
export function afterRender() {
  if (!app) return;
  if (app.version !== seenVersion) {
    // A new position: the places and moves start again from the first (the colours keep theirs).
    seenVersion = app.version;
    remembered.targets = null;
    remembered.moves = null;
  }
  rove();
  showAsked();
  describeKeys();
  if (keyboardMode && focusLost()) nextStep()?.focus({ preventScroll: false });
}

function move(event) {
  const group = groupOf(event.target);
  if (!group) return false;
  const list = members(group);
  const at = list.findIndex((b) => keyOf(b) === keyOf(event.target));
  if (at < 0 || !list.length) return false;
  let next = null;
  const key = event.key;
  if (key === "Home") next = list[0];
  else if (key === "End") next = list[list.length - 1];
  else if (group === "supply" && (key === "ArrowDown" || key === "ArrowUp")) {
    // Up and down jump to the next factory (or the centre), left and right go colour by colour.
    const source = event.target.dataset.source;
    const step = key === "ArrowDown" ? 1 : -1;
    for (let i = 1; i <= list.length; i++) {
      const candidate = list[(at + step * i + list.length * i) % list.length];
      if (candidate.dataset.source !== source) {
        next = step > 0 ? candidate : list.find((b) => b.dataset.source === candidate.dataset.source);
        break;
      }
    }
  } else if (key === "ArrowRight" || key === "ArrowDown") next = list[(at + 1) % list.length];
  else if (key === "ArrowLeft" || key === "ArrowUp") next = list[(at - 1 + list.length) % list.length];
  if (!next) return false;
  remembered[group] = keyOf(next);
  rove();
  next.focus();
  return true;
}

const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"]);
const KEYS = new Set([...ARROWS, "Tab", "Enter", " ", "Escape"]);

function keydown(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (KEYS.has(event.key)) keyboardMode = true;
  if (event.key === "Escape") {
    // Going back is choosing afresh: the place and the question go with the choice.
    remembered.targets = null;
    asked = null;
  }
  if (confirmAsks(event)) {
    event.preventDefault();
    return;
  }
  if (ARROWS.has(event.key) && move(event)) {
    event.preventDefault();
    return;
  }
  if (event.key.length === 1 && !event.altKey && shortcut(event)) {
    keyboardMode = true;
    event.preventDefault();
    return;
  }
  // Tab from nowhere (the page just opened, or the focused control went away) lands on the
  // player's next step rather than at the top of the page.
  if (event.key === "Tab" && !event.shiftKey && focusLost()) {
    const step = nextStep();
    if (step) {
      event.preventDefault();
      step.focus();
    }
  }
}

function keyup(event) {
  if (event.key === " " && spaceAsked) {
    spaceAsked = false;
    event.preventDefault();
    return;
  }
  // Escape (handled in table.js) redraws without the choice: the focus goes back a step.
  if (event.key === "Escape" && focusLost()) afterRender();
}

/** The keys that depend on the variant: its colours' letters and its number of lines. */
function variantKeys() {
  const letters = COLOURS.map((name) => LETTER[name]);
  return [el("kbd", {}, "1"), "–", el("kbd", {}, "9"), " or ", el("kbd", {}, letters.includes("C") ? "0" : "C"),
    " a factory, ", letters.map((letter) => el("kbd", {}, letter)), " a colour, ",
    el("kbd", {}, "1"), "–", el("kbd", {}, String(floorLine())), " or ", el("kbd", {}, "-"), " a line."];
}

let keysDescribed = "";

/** Keep the keys' help to the variant's letters and lines (learnt from the first view). */
function describeKeys() {
  const said = `${COLOURS.map((name) => LETTER[name]).join("")}:${floorLine()}`;
  const node = document.getElementById("keys-variant");
  if (!node || said === keysDescribed) return;
  keysDescribed = said;
  fill(node, variantKeys());
}

/** Start listening; `state` is the page's app object (pending, selected, sent, legal). */
export function installKeyboard(state) {
  app = state;
  const prompt = document.getElementById("prompt");
  prompt?.after(el("p", { id: "keys-help", class: "keys-help" }, "Keys: ", el("kbd", {}, "Tab"), " to your move, ",
    el("kbd", {}, "←"), el("kbd", {}, "→"), el("kbd", {}, "↑"), el("kbd", {}, "↓"), " to choose, ",
    el("kbd", {}, "Enter"), " to pick, ", el("kbd", {}, "Esc"), " to go back; ",
    el("span", { id: "keys-variant" }, variantKeys())));
  document.addEventListener("keydown", keydown);
  document.addEventListener("keyup", keyup);
  document.addEventListener("pointerdown", () => { keyboardMode = false; }, true);
  document.addEventListener("focusin", (event) => {
    const group = groupOf(event.target);
    if (group) remembered[group] = keyOf(event.target);
  });
}
