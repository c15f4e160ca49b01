// The creator's list of the seats and their links (docs/serve.md, "Lost links"): on the page
// opened with the admin secret only, every seat, who plays it, and a new link for it. The
// server keeps only a hash of each link, so no page can show a link made earlier: the list
// shows a link only once this page has made it, and the old one stops opening the table on
// every server process.
import { el, fill } from "./dom.js";
import { copyText } from "./clipboard.js";

/** seat -> the link this page made for it: kept in memory only, so it never reaches the
 * address bar, the history or another tab. */
const made = new Map();

/** Open this table again with `url`'s seat secret, keeping the rest of the page's fragment (the
 * creator's admin secret). */
export function reopenWithSeatOf(url) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  fragment.set("seat", new URLSearchParams(new URL(url).hash.slice(1)).get("seat"));
  history.replaceState(null, "", `${location.pathname}#${fragment}`);
  location.reload();
}

/** The list in `box` (the page's #seat-link section), built once and then kept up to date, so a
 * link made and a question asked survive the page's redraws. `arrived(seat)`: whether the seat's
 * player may have opened their link (seats.js). */
export function drawSeatLinks(app, seating, box, arrived) {
  const view = app.view;
  if (!view) return;
  if (box.dataset.shown !== "creator") {
    box.dataset.shown = "creator";
    fill(box, el("details", { open: true, class: "seat-links-box" },
      el("summary", {}, "Seats and their links"),
      el("p", { class: "hint" },
        "The server keeps only a fingerprint of each link, so no page can show a link again. ",
        "If a friend lost theirs, make a new link here and send it: their old link stops opening this table ",
        "(their open pages close), and this page shows the new one until you close or reload it."),
      el("p", { class: "hint seat-links-over", hidden: true },
        "The game is over: a link is changed at the rematch's table."),
      el("ol", { class: "seat-links" }, view.seats.map((_, seat) => row(app, seat)))));
  }
  const over = view.phase === "over";
  // A finished table changes no link: the list stays only for a link made here, still to be sent.
  box.hidden = over && !made.size;
  box.querySelector(".seat-links-over").hidden = !over;
  for (const seat of view.seats.keys()) {
    const item = box.querySelector(`li[data-seat="${seat}"]`);
    if (!item) continue;
    const about = describe(app, seating, seat, arrived);
    item.querySelector(".seat-state").textContent = about.words;
    item.dataset.state = about.state;
    item.dataset.opened = about.opened;
    item.querySelector(".who").textContent = `Seat ${seat + 1}: ${view.seats[seat].name}${seat === app.you ? " (you)" : ""}`;
    const button = item.querySelector("[data-new-link]");
    button.hidden = over || !about.hasLink;
    if (button.hidden) item.querySelector(".seat-link-confirm").hidden = true;
  }
}

/** What the list says of a seat: its state (arrived, not arrived yet, at the table, bot) in
 * words, whether it has a link at all, and what a new link would do to its player. */
function describe(app, seating, seat, arrived) {
  const shown = app.view.seats[seat];
  const entry = seating?.seats?.[seat];
  const bot = entry ? entry.bot : shown.bot;
  if (bot && !entry?.reclaimable) {
    return { state: "bot", words: `bot (${bot}): a bot's seat has no link`, hasLink: false, opened: "no" };
  }
  // Only a table with a clock notes who opened their link; elsewhere any seat may have.
  const counted = !!seating?.clock?.arrived;
  const opened = !counted ? "maybe" : arrived(seat) ? "yes" : "no";
  let state;
  let words;
  if (bot) {
    state = "bot";
    words = `the ${bot} bot plays it until its player takes it back`;
  } else if (opened === "no") {
    state = "not-arrived";
    words = "not arrived yet";
  } else if (counted) {
    state = "arrived";
    words = shown.connected ? "arrived, at the table" : "arrived, away now";
  } else {
    state = shown.connected ? "here" : "away";
    words = shown.connected ? "at the table" : "not at the table now";
  }
  return { state, words, hasLink: true, opened };
}

function row(app, seat) {
  const status = el("span", { class: "seat-link-status", role: "alert" });
  const confirm = el("div", { class: "seat-link-confirm", hidden: true });
  const result = el("div", { class: "seat-link-made", hidden: true });
  const button = el("button", { type: "button", class: "button", "data-new-link": seat }, "New link");
  const item = el("li", { class: "seat-link-row", "data-seat": seat },
    el("span", { class: "who" }),
    el("span", { class: "seat-state" }),
    button, confirm, result, status);
  button.addEventListener("click", () => ask(app, seat, item));
  return item;
}

/** A seat whose player may have opened their link is asked about first: the new link shuts
 * them out until they are sent it. */
function ask(app, seat, item) {
  const status = item.querySelector(".seat-link-status");
  status.textContent = "";
  const name = app.view.seats[seat].name;
  const opened = item.dataset.opened;
  if (opened === "no") {
    make(app, seat, item);
    return;
  }
  const has = opened === "yes" || item.dataset.state === "here" ? "has" : "may have";
  const who = seat === app.you
    ? "This page opens the table again with your new link; your old link stops working."
    : `${name} ${has} opened their link: it stops working and their open pages close, until you send them the new one.`;
  const confirm = item.querySelector(".seat-link-confirm");
  const yes = el("button", { type: "button", class: "button primary", "data-confirm-link": seat }, "Make the new link");
  const no = el("button", { type: "button", class: "button" }, "Keep the old link");
  yes.addEventListener("click", () => {
    confirm.hidden = true;
    make(app, seat, item);
  });
  no.addEventListener("click", () => {
    confirm.hidden = true;
    item.querySelector("[data-new-link]").focus();
  });
  fill(confirm, el("p", {}, who), yes, no);
  confirm.hidden = false;
  yes.focus();
}

async function make(app, seat, item) {
  const button = item.querySelector("[data-new-link]");
  const status = item.querySelector(".seat-link-status");
  button.disabled = true;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/seats/${seat}/link`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.admin}`, "Content-Type": "application/json" },
      body: "{}",
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || `${response.status}`);
    if (seat === app.you) {
      reopenWithSeatOf(data.url); // this page's own socket is closed with the old link
      return;
    }
    made.set(seat, data.url);
    showMade(app, seat, item);
  } catch (failure) {
    status.textContent = `No new link: ${failure.message}`;
  } finally {
    button.disabled = false;
  }
}

function showMade(app, seat, item) {
  const url = made.get(seat);
  const name = app.view.seats[seat].name;
  const input = el("input", { type: "text", readonly: true, value: url, class: "link-url",
    "aria-label": `${name}'s new link`, "data-made-link": seat });
  const copied = el("span", { class: "copied", "aria-live": "polite" });
  const copy = el("button", { type: "button", class: "button copy", "data-copy-link": seat }, "Copy link");
  copy.addEventListener("click", async () => {
    const ok = await copyText(url, input);
    copied.textContent = ok ? "copied" : "select and copy by hand";
  });
  const result = item.querySelector(".seat-link-made");
  fill(result, el("p", { class: "hint" }, `${name}'s new link; the old one no longer opens this table. Send it to ${name}:`),
    el("span", { class: "link-line" }, input, copy, copied));
  result.hidden = false;
}
