// A move arriving from another seat is shown travelling: a copy of one of its tiles flies from
// the factory or the centre it was taken from to the line (or floor) it went to, in 300 ms.
// The page is redrawn first and the flight is drawn over it, so it never holds the new state
// back; a click anywhere, or the next update, lands it at once. Nothing flies for a person who
// asked their system for less motion (prefers-reduced-motion).

// A draft in record notation: source (C or a factory number), the tile's letter, line or "-".
const DRAFT = /^(C|\d+)([A-Za-z])(\d+|-)$/;
const FLIGHT_MS = 300;
const LESS_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");

let flight = null; // {ghost, animation} while a tile is in the air

/** Land the tile in the air now (its place on the board is drawn already). */
export function land() {
  if (!flight) return;
  const { ghost, animation } = flight;
  flight = null;
  animation?.cancel();
  ghost.remove();
}

/** Before the page is redrawn for a new version: note where the move's tiles were. Returns a
 * function to call once the page shows the new version, or null when nothing is to fly: the
 * page's own move (its player saw it made), a move that is no draft, less motion asked for, or
 * a move told again (a seat handed to a bot since): its source no longer holds its colour. */
export function prepareFlight(app, last) {
  land();
  if (!app.view || !last || LESS_MOTION.matches) return null;
  if (last.seat === app.you || typeof last.move !== "string") return null;
  const draft = DRAFT.exec(last.move);
  if (!draft) return null;
  const source = draft[1].toUpperCase() === "C" ? "0" : draft[1];
  const letter = draft[2].toUpperCase();
  const from = [...document.querySelectorAll(`#supply [data-source="${source}"] .tile`)]
    .find((tile) => tile.textContent === letter);
  const start = from?.getBoundingClientRect();
  if (!start || !start.width) return null;
  const look = { className: from.className, text: from.textContent, style: from.style.cssText };
  const line = draft[3] === "-" ? "floor" : String(Number(draft[3]) - 1);
  return () => fly(look, start, last.seat, line, last.move);
}

function fly(look, start, seat, line, move) {
  const to = document.querySelector(`#boards .board[data-seat="${seat}"] [data-line="${line}"]`);
  const end = to?.getBoundingClientRect();
  if (!end || !end.width) return;
  const ghost = document.createElement("span");
  ghost.className = `${look.className.replace(/\b(pickable|selected|hinted)\b/g, "")} flying-tile`;
  ghost.style.cssText = look.style;
  ghost.textContent = look.text;
  ghost.setAttribute("aria-hidden", "true");
  ghost.dataset.move = move;
  ghost.style.left = `${start.left}px`;
  ghost.style.top = `${start.top}px`;
  document.body.append(ghost);
  // A line fills from its wall end, on the right: the tile lands there.
  const dx = end.right - start.width - start.left;
  const dy = end.top + (end.height - start.height) / 2 - start.top;
  const animation = ghost.animate?.(
    [{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
    { duration: FLIGHT_MS, easing: "ease-in-out", fill: "forwards" });
  flight = { ghost, animation };
  if (animation) animation.onfinish = () => { if (flight?.ghost === ghost) land(); };
  else land();
}

document.addEventListener("pointerdown", land, true);
