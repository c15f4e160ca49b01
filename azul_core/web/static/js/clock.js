// The turn clock, as the server tells it (`seating.clock`): the server's time is the truth; the
// page only counts down from what it was last told, and the server hands the seat to the
// stand-in bot when the time is up, whatever the page shows.
import { el, fill } from "./dom.js";

let told = null; // {clock, at}
let ticking = null;

export function showClock(clock, app) {
  told = clock ? { clock, at: performance.now(), app } : null;
  if (!told) {
    clearInterval(ticking);
    ticking = null;
    const box = document.getElementById("clock");
    if (box) {
      box.hidden = true;
      box.replaceChildren();
    }
    return;
  }
  draw();
  if (!ticking) ticking = setInterval(draw, 250);
}

const HOUR = 3600, DAY = 86400;

/** 75 -> "1:15"; from an hour on, in words (a slow game's seconds are noise): 3725 -> "1 h 2 min",
 *  183600 -> "2 d 3 h" */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(whole / DAY);
  const h = Math.floor((whole % DAY) / HOUR);
  const m = Math.floor((whole % HOUR) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  return `${m}:${String(whole % 60).padStart(2, "0")}`;
}

/** The time a seat has left: "0:29", or "2 d 3 h left" on a long clock. */
function leftText(seconds) {
  return seconds >= HOUR ? `${clockText(seconds)} left` : clockText(seconds);
}

function draw() {
  const box = document.getElementById("clock");
  if (!box || !told) return;
  const { clock, at, app } = told;
  const gone = (performance.now() - at) / 1000;
  const seats = app.view?.seats || [];
  const name = (seat) => (seat === app.you ? "you" : seats[seat]?.name ?? `seat ${seat + 1}`);
  const running = clock.running;
  const turnLeft = clock.turn_left === null ? null : Math.max(0, clock.turn_left - gone);
  const parts = [];
  if (clock.mode === "game") {
    (clock.left || []).forEach((left, seat) => {
      if (left === null) return;
      const now = seat === running ? Math.max(0, left - gone) : left;
      parts.push(el("span", { class: `clock-seat${seat === running ? " running" : ""}`, "data-seat": seat },
        `${name(seat)} ${leftText(seat === running && turnLeft !== null && now <= 0 ? turnLeft : now)}`));
    });
  } else if (running !== null && turnLeft !== null) {
    parts.push(el("span", { class: "clock-seat running", "data-seat": running },
      `${name(running)}: ${leftText(turnLeft)}`));
  }
  // The seat to move has no clock yet: its player has not opened their link.
  const mover = app.view?.phase === "over" ? null : app.view?.to_move;
  if (running === null && mover !== null && mover !== undefined && !clock.begun && clock.arrived
      && !clock.arrived[mover] && !seats[mover]?.bot) {
    parts.push(el("span", { class: "clock-seat waiting", "data-seat": mover }, `${name(mover)}: not arrived yet`));
  }
  const label = clock.mode === "game" ? `clock ${clockText(clock.seconds)} a game` : `clock ${clockText(clock.seconds)} a move`;
  fill(box, el("span", { class: "clock-rule" }, label), " ", parts);
  box.hidden = false;
  box.dataset.running = running === null ? "" : String(running);
  box.dataset.left = turnLeft === null ? "" : String(Math.ceil(turnLeft));
  box.classList.toggle("low", turnLeft !== null && turnLeft <= 10);
}
