// The end screen's points by source: a small table per player (the view's final.sources, worked
// out by the server from the game's record), whose rows add up to the player's score.
import { el } from "./dom.js";

const WORDS = {
  wall: "tiles on the wall",
  floor: "floor",
  rows: "complete rows",
  columns: "complete columns",
  colours: "complete colours",
  other: "other",
};

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

function words(source) {
  if (source.kind === "move") return `moves: ${source.name}`;
  if (source.kind === "bonus" && !(source.name in WORDS)) return `bonus: ${source.name}`;
  return WORDS[source.name] ?? source.name;
}

/** One table per player: each source's points and the total; null without sources (a game
 * in play, or a finished game the server could not break down). */
export function drawScoreSources(view) {
  const all = view.final?.sources;
  if (!Array.isArray(all)) return null;
  const players = all.map((sources, seat) => {
    const name = view.seats[seat]?.name ?? `Seat ${seat + 1}`;
    const total = sources.reduce((sum, source) => sum + source.points, 0);
    return el("table", { class: "sources-table", "data-seat": seat },
      el("caption", {}, name),
      el("tbody", {}, sources.map((source) => el("tr", { "data-kind": source.kind, "data-name": source.name },
        el("th", { scope: "row" }, words(source)),
        el("td", { class: "source-points" }, signed(source.points))))),
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, "score"),
        el("td", { class: "sources-total" }, String(total)))));
  });
  return el("section", { class: "score-sources", id: "score-sources", "aria-label": "points by source" },
    el("h3", {}, "Where the points came from"),
    el("div", { class: "sources-tables" }, players),
    el("p", { class: "legend" }, "Worked out from the game's record, so each table adds up to the score: "
      + "the floor counts what it took, never more than the player had (a score never goes below 0)."));
}
