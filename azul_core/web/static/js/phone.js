// On a narrow screen (a phone): a button near the top that jumps to the last round's summary
// (which sits below every board), and the player's own board brought into view, above the
// confirm bar that stays at the bottom of the screen (web-keys.css), when a move awaits
// confirmation. The layout itself is CSS; this only scrolls on the player's behalf.
import { el } from "./dom.js";

const NARROW = window.matchMedia("(max-width: 699px)");
let shownFor = null; // the pending move the board was last brought into view for

/** A button in the page's top part that jumps to the round summary, when there is one. */
function jumpButton() {
  let nav = document.getElementById("jumps");
  if (!nav) {
    nav = el("nav", { id: "jumps", class: "jumps", "aria-label": "jump to" });
    const main = document.querySelector("main");
    main.insertBefore(nav, document.getElementById("last-move"));
  }
  return nav;
}

function jumpToSummary() {
  const summary = document.querySelector("#round-box .round-summary");
  if (!summary) return;
  summary.open = true;
  summary.scrollIntoView({ block: "start" });
  summary.querySelector("summary")?.focus({ preventScroll: true });
}

export function afterRender(app) {
  const nav = jumpButton();
  const summary = document.querySelector("#round-box .round-summary");
  const round = summary?.dataset.round ?? null;
  if (!round) {
    nav.hidden = true;
    nav.replaceChildren();
  } else if (nav.dataset.round !== round) {
    nav.dataset.round = round;
    nav.replaceChildren(el("button", { type: "button", class: "button jump", id: "jump-summary", onclick: jumpToSummary },
      `Round ${round}: what each tile scored ↓`));
    nav.hidden = false;
  }
  // A move to confirm: on a phone, the player's board (its lines, wall and floor) is brought
  // into view above the confirm bar, once per choice (the player may scroll away after).
  if (!app.pending) {
    shownFor = null;
    return;
  }
  if (!NARROW.matches || shownFor === app.pending) return;
  shownFor = app.pending;
  const board = document.querySelector(".board.mine");
  const bar = document.getElementById("confirm-bar");
  if (!board || !bar || bar.hidden) return;
  const box = board.getBoundingClientRect();
  const limit = bar.getBoundingClientRect().top;
  if (box.top < 0 || box.bottom > limit) {
    // Align the board's top with the screen's top, or as near as the page allows.
    window.scrollBy({ top: box.top - 8, behavior: "instant" });
  }
}
