// Who plays each seat, from the server's `seating` messages (docs/serve.md): the banner that
// tells a player a bot has their seat (and takes it back in one click), and which departed
// seats the creator is offered to hand to a bot (only after the server's grace period).
import { el, fill } from "./dom.js";
import { showClock } from "./clock.js";
import { showRematch, drawRematch } from "./rematch.js";
import { drawArrivals } from "./arrivals.js";
import { drawSeatLinks, reopenWithSeatOf } from "./seat-links.js";

const WHY_WORDS = {
  creator: "the table's creator handed it over while you were away",
  clock: "your clock ran out",
  away: "you were away when it was your turn",
  "not-arrived": "the game was started before you opened your link",
};

const seating = {
  message: null, // the last `seating` message
  at: 0, // when it arrived (performance.now(), ms)
  timer: null,
};

/** A `seating` message from the server: redraw what depends on it; `redraw()` redraws the page
 * (the creator's panel of departed seats) when a seat's grace period ends. */
export function onSeating(message, app, redraw) {
  seating.message = message;
  seating.at = performance.now();
  showSeating(app);
  drawArrivals(message, app);
  showClock(message.clock, app);
  showRematch(message.rematch, app);
  // The creator's panel lists a seat once it has been away for the grace period: wake then.
  clearTimeout(seating.timer);
  const waits = (message.seats || []).map((s) => s.away === null ? null : (message.absent_grace - s.away) * 1000)
    .filter((ms) => ms !== null && ms > 0);
  if (waits.length) seating.timer = setTimeout(redraw, Math.min(...waits) + 50);
  redraw();
}

/** Whether the seat has been away for the server's grace period (seconds, counted by the server
 * when it last told, then here). */
export function awayLongEnough(seat) {
  const message = seating.message;
  const entry = message?.seats?.[seat];
  if (!entry || entry.away === null || entry.away === undefined) return false;
  return entry.away + (performance.now() - seating.at) / 1000 >= message.absent_grace;
}

/** Whether the seat's player has opened their link (tables with a clock keep count; without
 * one, every seat counts as arrived). */
export function arrived(seat) {
  const arrivals = seating.message?.clock?.arrived;
  return !arrivals || !!arrivals[seat];
}

/** The banner of a player whose seat a bot plays. */
export function showSeating(app) {
  const banner = document.getElementById("seat-banner");
  if (!banner) return;
  const entry = app.you === null ? null : seating.message?.seats?.[app.you];
  const over = app.view?.phase === "over";
  if (!entry || !entry.bot || !entry.reclaimable || over) {
    banner.hidden = true;
    banner.replaceChildren();
    delete document.body.dataset.seatBot;
    return;
  }
  document.body.dataset.seatBot = entry.bot;
  if (banner.dataset.shown === `${entry.bot}:${entry.why}` && !banner.hidden) return;
  banner.dataset.shown = `${entry.bot}:${entry.why}`;
  const button = el("button", { type: "button", id: "reclaim", class: "button primary" }, "Take my seat back");
  button.addEventListener("click", () => reclaim(app, button));
  fill(banner,
    el("p", {}, el("strong", {}, `The ${entry.bot} bot is playing your seat`),
      `: ${WHY_WORDS[entry.why] || "it was handed over"}. It plays on until you take the seat back.`),
    button,
    el("span", { class: "reclaim-error", role: "alert" }));
  banner.hidden = false;
}

async function reclaim(app, button) {
  button.disabled = true;
  const error = button.parentNode.querySelector(".reclaim-error");
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/seats/${app.you}/reclaim`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.secret}`, "Content-Type": "application/json" },
      body: "{}",
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw new Error(data.error || `${response.status}`);
    }
    // The server tells every page (this one too) who plays the seat now.
  } catch (failure) {
    if (error) error.textContent = `Could not take the seat back: ${failure.message}`;
    button.disabled = false;
  }
}

/** What depends on the view too (the game being over): redrawn with the page. */
export function drawSeats(app) {
  showSeating(app);
  drawArrivals(seating.message, app);
  drawRematch(app);
  drawLinkBox(app);
}

/** A seat's page may ask for a new link for its seat (the old one stops opening this table);
 * the creator's page lists every seat instead, its own among them. */
function drawLinkBox(app) {
  const box = document.getElementById("seat-link");
  if (!box) return;
  if (app.admin) {
    drawSeatLinks(app, seating.message, box, arrived);
    return;
  }
  if (app.you === null) return;
  // The server changes no link at a finished table: its seat asks at the rematch.
  if (app.view?.phase === "over") {
    box.hidden = true;
    return;
  }
  if (box.dataset.shown) return;
  box.dataset.shown = "yes";
  const button = el("button", { type: "button", id: "new-link", class: "button" }, "Make a new link for my seat");
  const status = el("span", { class: "reclaim-error", role: "alert" });
  button.addEventListener("click", () => newLink(app, button, status));
  fill(box, el("details", {},
    el("summary", {}, "Your link"),
    el("p", { class: "hint" }, "Your link is your seat, here and at this table's rematches. If it reached someone it should not have, make a new one: the old one stops opening this table."),
    button, status));
  box.hidden = false;
}

async function newLink(app, button, status) {
  button.disabled = true;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/seats/${app.you}/link`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.secret}`, "Content-Type": "application/json" },
      body: "{}",
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || `${response.status}`);
    // The new secret replaces the old one in this tab's address (and its history), then the page
    // opens the table with it.
    reopenWithSeatOf(data.url);
  } catch (failure) {
    status.textContent = `No new link: ${failure.message}`;
    button.disabled = false;
  }
}
