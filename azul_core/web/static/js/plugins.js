// A house rule's moves, memory and secrets, drawn from the server's data alone: the page runs
// no code of the plugin's. Labels and values are the plugin's text: set as text, never HTML.
import { el } from "./dom.js";

/** One button per move on offer (LEGAL's `moves`), labelled with the plugin's label. */
export function drawMoves(moves, chosen, onPick) {
  return moves.map((move) => el("button", {
    type: "button",
    class: `button plugin-move${move.move === chosen ? " chosen" : ""}`,
    "data-move": move.move,
    title: move.move,
    "aria-pressed": move.move === chosen ? "true" : "false",
    onclick: () => onPick(move.move),
  }, move.label || move.move));
}

/** The house rules' secrets and memory in their plugins' words (the view's `words`, made by
 * the server from what this page may see: its seat's own secret while the game is on, every
 * seat's at the end). `you`: this page's seat (null: a watcher). */
export function drawPluginInfo(view, you) {
  const names = (view.seats || []).map((seat) => seat.name);
  const lines = (view.words || []).map((told) => {
    const text = told.seat === null ? told.them
      : told.seat === you && told.you !== null ? told.you
        : told.them === null ? null : `${names[told.seat] ?? `seat ${told.seat + 1}`} ${told.them}`;
    return text === null ? null : el("li", {
      class: told.kind === "secret" ? "plugin-secret" : "plugin-memory",
      "data-plugin": told.plugin,
      "data-seat": told.seat ?? "",
    }, text);
  }).filter(Boolean);
  return lines.length ? [el("ul", { class: "plugin-words" }, lines)] : null;
}
