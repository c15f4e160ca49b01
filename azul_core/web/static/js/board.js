// Drawing the table from the server's view: factories, centre, and each player's board.
// Nothing here decides a rule: what may be clicked comes from the server's legal moves.
import { el, tile, COLOURS, LETTER, dress, extraKinds, letterOf, printClass, tileClass } from "./dom.js";

export function sourceName(source) {
  return source === 0 ? "the centre" : `factory ${source}`;
}

/**
 * The factories and the centre.
 * picks: Map "source:colour" -> true for the colours the player to move may take here;
 * selected: {source, colour} or null; onPick(source, colour).
 */
export function drawSupply(view, picks, selected, onPick) {
  const factories = view.factories.map((tiles, index) => {
    const source = index + 1;
    return el("div", { class: "factory", "data-source": source, role: "group", "aria-label": `factory ${source}` },
      el("span", { class: "source-label" }, String(source)),
      el("div", { class: "factory-tiles" }, tiles.length
        ? tiles.map((colour) => supplyTile(source, colour, picks, selected, onPick))
        : el("span", { class: "empty-note" }, "empty")));
  });
  // The centre's tiles in the colours' order, then the extra kinds.
  const order = (name) => (COLOURS.includes(name) ? COLOURS.indexOf(name) : COLOURS.length);
  const centreTiles = [...view.centre.tiles].sort((a, b) => order(a) - order(b));
  const centre = el("div", { class: "centre", id: "centre", "data-source": 0, role: "group", "aria-label": "the centre" },
    el("span", { class: "source-label" }, "centre"),
    el("div", { class: "centre-tiles" },
      view.centre.marker ? tile("marker", { class: "tile marker", "data-marker": "" }) : null,
      centreTiles.map((colour) => supplyTile(0, colour, picks, selected, onPick)),
      !centreTiles.length && !view.centre.marker ? el("span", { class: "empty-note" }, "empty") : null));
  return [el("div", { class: "factories", id: "factories" }, factories), centre];
}

function supplyTile(source, colour, picks, selected, onPick) {
  const pickable = picks.has(`${source}:${colour}`);
  const chosen = selected && selected.source === source && selected.colour === colour;
  const classes = ["tile", tileClass(colour)];
  if (pickable) classes.push("pickable");
  if (chosen) classes.push("selected");
  return dress(el("button", {
    type: "button", class: classes.join(" "), "data-source": source, "data-colour": colour,
    title: `${colour} from ${sourceName(source)}`, "aria-label": `${colour} from ${sourceName(source)}`,
    "aria-pressed": chosen ? "true" : "false", disabled: !pickable,
    onclick: () => onPick(source, colour),
  }, letterOf(colour)), colour);
}

/** The variant's tiles beyond the five colours, each with its letter and look; null when none. */
export function drawKindsLegend() {
  const kinds = extraKinds();
  if (!kinds.length) return null;
  return el("p", { class: "kinds-legend", id: "kinds-legend" }, "Also in the bag: ",
    kinds.map(([name], index) => el("span", { class: "kind", "data-kind": name },
      index ? ", " : "", tile(name, { class: `tile ${tileClass(name)} small` }), ` ${name}`)));
}

/**
 * One player's board.
 * targets: {lines: Map line -> {move, misplaced}, floor: move|null, cells: Map "row:col" -> move,
 *           chosen: move|null, placing: row|null} for the player's own board when it may move, else null.
 */
export function drawBoard(seat, view, { mine, toMove, targets, onTarget, notArrived = false }) {
  // The full line whose tile is being placed (grey wall), on whoever's board it is.
  const placingRow = view.placing && view.placing.seat === seat.seat ? view.placing.row : null;
  const classes = ["board"];
  if (mine) classes.push("mine");
  if (toMove) classes.push("to-move");
  // A house rule may make a line longer than five: its board's tiles shrink to keep its width.
  const spaces = Math.max(...seat.lines.map((line) => line.capacity));
  // A variant of other than five colours has a wall and pattern lines of its size: its tiles
  // are as large as the board's width allows.
  const size = seat.wall.length;
  if (size !== 5) classes.push("sized");
  else if (spaces > 5) classes.push("long-lines");
  const badges = [];
  if (mine) badges.push(el("span", { class: "badge you" }, "you"));
  if (seat.bot) badges.push(el("span", { class: "badge bot" }, `bot: ${seat.bot}`));
  else if (!seat.connected) badges.push(el("span", { class: "badge away" }, notArrived ? "not arrived yet" : "away"));
  if (toMove && view.phase !== "over") badges.push(el("span", { class: "badge turn" }, view.phase === "place" ? "placing" : "to move"));
  // The start marker beside the board, where the variant keeps it off the floor.
  if (seat.marker && !seat.floor.some((space) => space.tile === "marker")) badges.push(tile("marker", { class: "tile marker small", title: "holds the start marker" }));
  const board = el("article", { class: classes.join(" "), "data-seat": seat.seat, "aria-label": `${seat.name}'s board` },
    el("header", { class: "board-head" },
      el("h2", { class: "player-name" }, seat.name),
      el("span", { class: "badges" }, badges),
      el("span", { class: "score", title: "score" }, String(seat.score))),
    el("div", { class: "board-grid" },
      el("div", { class: "lines", role: "group", "aria-label": "pattern lines" },
        seat.lines.map((line, row) => drawLine(line, row, targets, onTarget, placingRow))),
      el("div", { class: "wall", role: "group", "aria-label": "wall" },
        seat.wall.map((cells, row) => cells.map((cell, column) => drawCell(cell, row, column, targets, onTarget))).flat())),
    drawFloor(seat.floor, targets, onTarget));
  if (spaces > 5 || size !== 5) board.style.setProperty("--spaces", spaces);  // the CSP forbids style attributes
  if (size !== 5) board.style.setProperty("--size", size);
  return board;
}

function targetClasses(classes, move, targets, misplaced = false) {
  classes.push("target");
  if (misplaced) classes.push("misplaced");
  if (targets.chosen === move) classes.push("chosen");
}

function drawLine(line, row, targets, onTarget, placingRow) {
  const classes = ["line"];
  if (line.closed) classes.push("closed");
  const target = targets?.lines.get(row);
  if (target) targetClasses(classes, target.move, targets, target.misplaced);
  if (placingRow === row) classes.push("placing");
  // Tiles of an extra kind standing in for the colour are counted in `count`; drawn on the wall side.
  const extra = line.extra || [];
  const slots = [];
  for (let i = line.capacity - 1; i >= 0; i--) {
    // Right to left, as on the board: the line fills from the wall side.
    slots.push(i < line.count ? tile(i < extra.length ? extra[i] : line.colour) : el("span", { class: "slot" }));
  }
  const label = `pattern line ${row + 1}: ${line.count ? lineTiles(line, extra) : "empty"} of ${line.capacity}`
    + (line.closed ? ", closed this round" : "");
  const attrs = { class: classes.join(" "), "data-line": row, "aria-label": label, title: label };
  if (target) {
    return el("button", { type: "button", ...attrs, onclick: () => onTarget(target.move) }, slots);
  }
  return el("div", attrs, slots);
}

/** "3 red", or with stand-ins "2 red and 1 wild". */
function lineTiles(line, extra) {
  const counts = new Map([[line.colour, line.count - extra.length]]);
  for (const name of extra) counts.set(name, (counts.get(name) || 0) + 1);
  const parts = [...counts].filter(([, count]) => count > 0).map(([name, count]) => `${count} ${name}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts.join("");
}

function drawCell(cell, row, column, targets, onTarget) {
  const classes = ["cell"];
  let content;
  if (cell.tile) {
    content = tile(cell.colour);
    classes.push("filled");
  } else if (cell.pattern) {
    classes.push("printed", printClass(cell.pattern));
    content = el("span", { class: "print" }, LETTER[cell.pattern] ?? "?");
  } else {
    classes.push("grey");
  }
  const move = targets?.cells.get(`${row}:${column}`);
  const label = cell.tile ? `wall row ${row + 1} column ${column + 1}: ${cell.colour}`
    : `wall row ${row + 1} column ${column + 1}: empty${cell.pattern ? ` (${cell.pattern})` : ""}`;
  const attrs = { "data-row": row, "data-column": column, "aria-label": label, title: label };
  let node;
  if (move) {
    targetClasses(classes, move, targets);
    node = el("button", { type: "button", class: classes.join(" "), ...attrs, onclick: () => onTarget(move) }, content);
  } else {
    node = el("div", { class: classes.join(" "), ...attrs }, content);
  }
  // A printed colour beyond the standard five is tinted with its look.
  return !cell.tile && cell.pattern ? dress(node, cell.pattern) : node;
}

function drawFloor(floor, targets, onTarget) {
  const classes = ["floor"];
  const move = targets?.floor;
  if (move) targetClasses(classes, move, targets);
  const total = floor.reduce((sum, space) => sum + (space.tile ? space.cost : 0), 0);
  const spaces = floor.map((space, index) => el("span", { class: "floor-space", "data-space": index },
    space.tile ? tile(space.tile) : el("span", { class: "slot" }),
    el("span", { class: "cost" }, String(space.cost))));
  const attrs = { class: classes.join(" "), "data-line": "floor", "aria-label": `floor${total ? `, costs ${total}` : ""}` };
  const children = [el("span", { class: "floor-label" }, "floor"), el("span", { class: "floor-spaces" }, spaces),
    el("span", { class: "floor-total" }, total ? String(total) : "")];
  if (move) return el("button", { type: "button", ...attrs, onclick: () => onTarget(move) }, children);
  return el("div", attrs, children);
}
