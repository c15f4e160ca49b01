// Building the page from data without ever parsing data as HTML: every text goes
// through textContent, every attribute through setAttribute.

export const COLOURS = ["blue", "yellow", "red", "black", "white"];
// The record notation's letters; printed on every tile so colour is never the only cue.
export const LETTER = { blue: "B", yellow: "Y", red: "R", black: "K", white: "W" };

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

/** A tile of a colour (or the start marker), with its letter for colour-blind players. */
export function tile(colour, attrs = {}, tag = "span") {
  if (colour === "marker") {
    return el(tag, { class: "tile marker", title: "start marker", "aria-label": "start marker", ...attrs }, "1");
  }
  return el(tag, { class: `tile t-${colour}`, title: colour, "aria-label": colour, ...attrs }, LETTER[colour] ?? "?");
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "North", "North and East", "North, East and West" */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
