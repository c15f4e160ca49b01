// On your turn, once a colour is picked: what each legal line leads to (the server's `preview`
// of each draft: the tiles that fall to the floor and their cost, the points the line's tile
// scores on the wall when the line is tiled this round), and why a line or a wall space that
// can't take the tiles can't: the page asks the server (a "check" message), which answers with
// the reason it gives when that move is sent. Nothing here applies a rule.
import { el, plural, floorLine, LETTER } from "./dom.js";


let reason = null; // {text} of the last refusal explained, shown under your board
let asked = null; // {move, version} of the check awaiting its answer
let page = null; // {app, connection} of the last drawing, for the clicks

/** After each drawing: the previews on your board's lines, and the reason last explained. */
export function decoratePreview(app, mine, connection) {
  page = { app, connection };
  listen();
  const board = document.querySelector(".board.mine");
  if (!board) return;
  if (mine && app.selected && app.legal) {
    const drafts = (app.legal.drafts || []).filter((d) => d.source === app.selected.source
      && d.colour === app.selected.colour && d.preview);
    if (drafts.length) {
      board.append(el("ul", { class: "preview-list", "aria-label": "what each place leads to" },
        drafts.map((draft) => el("li", { "data-line": draft.line === floorLine() ? "floor" : draft.line },
          previewWords(draft)))));
    }
    for (const draft of drafts) {
      const node = draft.line === floorLine() ? board.querySelector("[data-line='floor']")
        : board.querySelector(`.lines [data-line='${draft.line}']`);
      if (!node) continue;
      const words = previewWords(draft);
      node.setAttribute("aria-label", `${node.getAttribute("aria-label") || ""}. ${words}`);
      node.setAttribute("title", words);
      node.append(badge(draft));
    }
  }
  // A reason belongs to the position it was asked about.
  if (reason && reason.version !== app.version) reason = null;
  if (reason) {
    board.querySelector(".board-head")?.after(el("p", { class: "why-not", id: "why-not", role: "status" }, reason.text));
  }
}

/** Forget the reason shown (a new colour picked, a move made). */
export function forgetReason() {
  reason = null;
  asked = null;
  document.getElementById("why-not")?.remove();
}

/** The server's answer to a check: its reason, shown near your board. */
export function explainRefusal(message) {
  if (!asked || message.move !== asked.move) return;
  asked = null;
  // The server's reason is the one a sent move gets, already in a player's words.
  const text = message.reason
    ? sentence(message.reason)
    : `${message.move} is legal: click a highlighted place to choose it.`;
  showReason(text);
}

/** A reason as a sentence: a capital first, one full stop. */
export function sentence(reason) {
  const text = String(reason).trim().replace(/\.$/, "");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function showReason(text) {
  reason = { text, version: page?.app.version };
  const board = document.querySelector(".board.mine");
  document.getElementById("why-not")?.remove();
  board?.querySelector(".board-head")?.after(el("p", { class: "why-not", id: "why-not", role: "status" }, text));
}

function previewWords(draft) {
  const p = draft.preview;
  const falling = [p.floor ? plural(p.floor, "tile") : null, p.marker ? "the start marker" : null].filter(Boolean).join(" and ");
  const cost = p.cost ? `${p.cost} ${Math.abs(p.cost) === 1 ? "point" : "points"}` : "no cost";
  if (draft.line === floorLine()) return `Floor: ${falling || "nothing"}, ${cost}`;
  if (draft.misplaced) return `Line ${draft.line + 1}: all to the floor (${falling}), ${cost}`;
  const points = wallPoints(p.wall);
  const where = p.complete ? "full" : `${plural(p.missing, "more tile")} to fill it`;
  const wall = points ? `, ${points} on the wall${p.complete ? "" : " if filled this round"}` : "";
  return `Line ${draft.line + 1}: ${where}${wall}${falling ? `; ${falling} to the floor: ${cost}` : ""}`;
}

/** "+3", or "+1 to +3" where the player chooses the column (grey wall). */
function wallPoints(spaces) {
  if (!Array.isArray(spaces) || !spaces.length) return "";
  const points = spaces.map((space) => space.points);
  const low = Math.min(...points);
  const high = Math.max(...points);
  return low === high ? `+${low}` : `+${low} to +${high}`;
}

function badge(draft) {
  const p = draft.preview;
  const parts = [];
  if (draft.line !== floorLine() && !draft.misplaced) {
    const points = wallPoints(p.wall);
    if (points) parts.push(el("span", { class: p.complete ? "gain" : "gain maybe" }, p.complete ? points : `(${points})`));
  }
  if (p.cost) parts.push(el("span", { class: "cost" }, String(p.cost)));
  return el("span", { class: "preview", "aria-hidden": "true" }, parts);
}

// ------------------------------------------------------------------ clicks that can't be taken

let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const board = target?.closest(".board.mine");
    if (!board || !page) return;
    const place = target.closest(".lines [data-line], .wall [data-row], [data-line='floor']");
    if (!place || place.classList.contains("target")) return; // a legal place: chosen as usual
    explainClick(place);
  });
}

function explainClick(place) {
  const { app, connection } = page;
  const view = app.view;
  if (!view || app.you === null || view.to_move !== app.you || !app.legal) return;
  let move = null;
  if (view.phase === "place" && place.dataset.row !== undefined) {
    move = `w${Number(place.dataset.row) + 1}:${Number(place.dataset.column) + 1}`;
  } else if (view.phase === "draft") {
    if (!app.selected) {
      showReason("Pick a colour in a factory or the centre first; then the places it may go light up.");
      return;
    }
    const line = place.dataset.row !== undefined ? Number(place.dataset.row) : place.dataset.line === "floor" ? null : Number(place.dataset.line);
    if (line === null) return;
    const legal = (app.legal.drafts || []).find((d) => d.source === app.selected.source
      && d.colour === app.selected.colour && d.line === line);
    if (legal) {
      showReason(`The tiles go on pattern line ${line + 1} first: click it (highlighted) to choose it.`);
      return;
    }
    const source = app.selected.source === 0 ? "C" : String(app.selected.source);
    move = `${source}${LETTER[app.selected.colour] ?? "?"}${line + 1}`;
  }
  if (!move) return;
  asked = { move, version: app.version };
  if (!connection.send({ type: "check", version: app.version, move })) {
    asked = null;
    showReason("Not connected: the server can't say why now. Reconnecting…");
  }
}
