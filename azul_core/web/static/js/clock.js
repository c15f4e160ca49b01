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

/** 75 -> "1:15"; 3725 -> "1:02:05" */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
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
        `${name(seat)} ${clockText(seat === running && turnLeft !== null && now <= 0 ? turnLeft : now)}`));
    });
  } else if (running !== null && turnLeft !== null) {
    parts.push(el("span", { class: "clock-seat running", "data-seat": running },
      `${name(running)}: ${clockText(turnLeft)}`));
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
