// Building the page from data without ever parsing data as HTML: every text goes
// through textContent, every attribute through setAttribute.

// The variant's colours in order (the view's `colours`, learnt by setColours): the standard
// game's five until a view says otherwise. Changed in place, so importers see the variant's.
export const COLOURS = ["blue", "yellow", "red", "black", "white"];
// The record notation's letters; printed on every tile so colour is never the only cue.
export const LETTER = { blue: "B", yellow: "Y", red: "R", black: "K", white: "W" };
// The looks the stylesheet gives the standard colours (.t-blue ...): a colour of these names and
// looks keeps its class; any other (orange, a variant's own blue) is drawn in the view's look.
const STYLED = { blue: "#2166c4", yellow: "#f2c42c", red: "#c8372d", black: "#262626", white: "#fbfaf5" };
// The colours drawn from their look: name -> {look, ink}.
const LOOKS = new Map();
// The floor's number in a draft's `line` (the view's `floor_line`: the line after the last).
let floorNumber = 5;

/** el("button", {class: "x", "data-line": 2, onclick: f}, "text", child) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of node (a fresh render of one part of the page). */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Learn the variant's colours from a view (`view.colours`: name, letter, look each), and the
 * floor's line number (`view.floor_line`). */
export function setColours(colours, floor) {
  if (!Array.isArray(colours) || !colours.length) return;
  COLOURS.length = 0;
  for (const name of Object.keys(LETTER)) delete LETTER[name];
  LOOKS.clear();
  for (const colour of colours) {
    const name = String(colour?.name ?? "");
    if (!name || name === "marker") continue;
    COLOURS.push(name);
    LETTER[name] = String(colour.letter ?? "?").slice(0, 1) || "?";
    // The server checks the look is #rrggbb; anything else falls back rather than reaching CSS.
    const valid = /^#[0-9a-f]{6}$/i.test(colour.look);
    const look = valid ? colour.look.toLowerCase() : DEFAULT_LOOK;
    if (valid ? STYLED[name] !== look : !(name in STYLED)) LOOKS.set(name, { look, ink: inkOn(look) });
  }
  floorNumber = Number.isInteger(floor) ? floor : COLOURS.length;
}

/** The floor's number in a draft's `line`: pattern lines are 0 to floorLine() - 1. */
export function floorLine() {
  return floorNumber;
}

// A variant's tiles beyond the five colours (the view's `kinds`, e.g. a wild tile):
// name -> {letter, look, ink}. Empty for most variants.
const KINDS = new Map();
const DEFAULT_LOOK = "#c9a227";

/** Learn the variant's extra kinds of tile from a view (`view.kinds`; absent for most variants). */
export function setKinds(kinds) {
  KINDS.clear();
  for (const kind of Array.isArray(kinds) ? kinds : []) {
    const name = String(kind?.name ?? "");
    if (!name || name in LETTER || name === "marker") continue;
    // The server checks the look is #rrggbb; anything else falls back rather than reaching CSS.
    const look = /^#[0-9a-f]{6}$/i.test(kind.look) ? kind.look : DEFAULT_LOOK;
    KINDS.set(name, { letter: String(kind.letter ?? "?").slice(0, 1) || "?", look, ink: inkOn(look) });
  }
}

/** The extra kinds, in the variant's order: [[name, {letter, look, ink}], ...]. */
export function extraKinds() {
  return [...KINDS.entries()];
}

/** Black or white text, whichever contrasts more with the colour `look` (#rrggbb), by its
 * WCAG relative luminance: black above 0.179, where the two contrasts are equal. */
export function inkOn(look) {
  const channel = (at) => {
    const value = parseInt(look.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? "#000000" : "#ffffff";
}

/** The class that colours a tile: `t-red`, `t-look` for a colour drawn in its look (orange), or
 * `t-extra` for an extra kind (the look of either set by `dress`). */
export function tileClass(name) {
  return KINDS.has(name) ? "t-extra" : LOOKS.has(name) ? "t-look" : `t-${name}`;
}

/** The class of a wall space where `name` is printed: `p-red`, or `p-look` (its look set by `dress`). */
export function printClass(name) {
  return LOOKS.has(name) ? "p-look" : `p-${name}`;
}

/** The letter printed on a tile: the record notation's, an extra kind's own. */
export function letterOf(name) {
  return LETTER[name] ?? KINDS.get(name)?.letter ?? "?";
}

/** Give a tile of an extra kind, or of a colour drawn in its look, that look. Set through the
 * CSSOM: the CSP forbids style attributes. */
export function dress(node, name) {
  const kind = KINDS.get(name) ?? LOOKS.get(name);
  if (kind) {
    node.style.setProperty("--look", kind.look);
    node.style.setProperty("--look-ink", kind.ink);
    if (KINDS.has(name)) node.dataset.kind = name;
  }
  return node;
}

/** A tile of a colour, of an extra kind (or the start marker), with its letter for colour-blind players. */
export function tile(colour, attrs = {}, tag = "span") {
  if (colour === "marker") {
    return el(tag, { class: "tile marker", title: "start marker", "aria-label": "start marker", ...attrs }, "1");
  }
  return dress(el(tag, { class: `tile ${tileClass(colour)}`, title: colour, "aria-label": colour, ...attrs },
    letterOf(colour)), colour);
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "North", "North and East", "North, East and West" */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
