// The "Replay" link of a finished table: its replay page (/t/TABLE/replay), opened with the same
// link secret (after '#', never sent to the server but by the page itself, as a header).
import { el } from "./dom.js";

/** The link, or null while the game goes on (a replay would tell what is still hidden). */
export function drawReplayLink(view, table, hash) {
  if (!view || view.phase !== "over" || !table) return null;
  return el("p", { class: "replay-link" },
    el("a", { class: "button", id: "replay-link", href: `/t/${encodeURIComponent(table)}/replay${hash || ""}` },
      "Watch the replay"));
}
