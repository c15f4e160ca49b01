// What the end of a round and the end of the game tell the players, from the server's view.
import { el, tile, tileClass } from "./dom.js";
import { drawScoreSources } from "./score-sources.js";

const BONUS_WORDS = { rows: "rows", columns: "cols", colours: "colours" };
// The table's columns: points from tiles, the floor's cost, each end bonus (rows, columns,
// colours: whatever kinds the variant's plugins give), the final score.

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

export function drawRoundSummary(view) {
  const last = view.last_round;
  if (!last) return null;
  const seats = last.seats.map((result, seat) => {
    const name = view.seats[seat]?.name ?? `Seat ${seat + 1}`;
    const placed = result.placed.length
      ? result.placed.map((p) => el("li", { class: "scored" },
        tile(p.colour, { class: `tile ${tileClass(p.colour)} small` }),
        ` line ${p.row + 1} → column ${p.column + 1}: `,
        el("strong", {}, signed(p.points))))
      : [el("li", { class: "scored none" }, "no tile reached the wall")];
    return el("div", { class: "round-seat", "data-seat": seat },
      el("h3", {}, name),
      el("ul", {}, placed),
      el("p", { class: "floor-cost" }, `floor: ${result.floor ? signed(result.floor) : "0"}`),
      el("p", { class: "round-score" }, `score after the round: ${result.score}`));
  });
  return el("details", { class: "round-summary panel", open: true, "data-round": last.round },
    el("summary", {}, `Round ${last.round}: what each tile scored`),
    el("div", { class: "round-seats" }, seats));
}

export function drawFinal(view, { onDownload }) {
  const final = view.final;
  if (!final) return null;
  const kinds = [];
  for (const seat of final.seats || []) {
    for (const bonus of seat.bonuses || []) if (!kinds.includes(bonus.kind)) kinds.push(bonus.kind);
  }
  const rows = view.seats.map((seat, index) => {
    const result = final.seats?.[index] || {};
    const bonus = (kind) => (result.bonuses || []).find((b) => b.kind === kind)?.points ?? 0;
    return el("tr", { class: final.winners.includes(index) ? "winner" : "", "data-seat": index },
      el("th", { scope: "row" }, seat.name,
        final.winners.includes(index) ? el("span", { class: "star", title: "winner", "aria-label": "winner" }, " ★") : null),
      el("td", {}, result.tiles ?? ""),
      el("td", {}, result.floor ? signed(result.floor) : "0"),
      kinds.map((kind) => el("td", {}, bonus(kind) ? signed(bonus(kind)) : "0")),
      el("td", { class: "final-score" }, String(final.scores?.[index] ?? seat.score),
        result.held > 0 ? el("span", { class: "held", title: `${result.held} points a floor could not take: a score never goes below 0` }, "*") : null));
  });
  return el("section", { class: "final panel", id: "final-panel", "aria-live": "polite" },
    el("h2", { id: "winner" }, `Game over. ${final.text || ""}`),
    // The winner's line may already be the tie-break's words: said once.
    final.tie_break && final.tie_break !== final.text ? el("p", { class: "tie-break" }, `Tie-break: ${final.tie_break}`) : null,
    el("div", { class: "table-scroll" }, el("table", { class: "final-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", { title: "points scored by the tiles placed on the wall" }, "tiles"), el("th", {}, "floor"),
        kinds.map((kind) => el("th", { title: `end bonus: ${kind}` }, BONUS_WORDS[kind] ?? kind)), el("th", {}, "score"))),
      el("tbody", {}, rows))),
    el("p", { class: "legend" }, "tiles: points from the tiles placed on the wall; floor: its cost; rows, cols, colours: the end bonuses. "
      + "A score never goes below 0: a floor that costs more than a player has takes the score to 0 only"
      + ((final.seats || []).some((s) => s.held > 0) ? " (*: so the columns add up to less than the score)." : ".")),
    drawScoreSources(view),
    el("p", {}, el("button", { type: "button", id: "download", class: "button primary", onclick: onDownload },
      "Download the game record")));
}
