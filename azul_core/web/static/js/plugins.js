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

/** A plain value (a memory or a secret: null, true/false, numbers, text, lists) in a few words. */
export function plainText(value) {
  const text = JSON.stringify(value ?? null);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The plugins' memory (public) and the secrets this page may see: its seat's own while the
 * game is on, every seat's at the end (the server leaves out the rest). */
export function drawPluginInfo(view) {
  const memory = Object.entries(view.memory || {});
  const secrets = [];
  for (const [plugin, values] of Object.entries(view.secrets || {})) {
    (values || []).forEach((value, seat) => {
      if (value === null || value === undefined) return;
      const name = view.seats[seat]?.name ?? `seat ${seat + 1}`;
      secrets.push(el("li", { class: "plugin-secret", "data-plugin": plugin, "data-seat": seat },
        `${name}'s secret (${plugin}): `, el("code", {}, plainText(value))));
    });
  }
  if (!memory.length && !secrets.length) return null;
  return [
    secrets.length ? el("ul", { class: "plugin-secrets" }, secrets) : null,
    memory.length ? el("ul", { class: "plugin-memory" }, memory.map(([plugin, value]) =>
      el("li", { "data-plugin": plugin }, `${plugin} remembers: `, el("code", {}, plainText(value))))) : null,
  ];
}
