// The rematch: at the end of a game, one click makes a new table with the same seats, bots and
// variant. The new table knows every link of this one, so a page moves over by keeping its own
// link's fragment (its secret never leaves this page) and changing the table id.
import { el, fill } from "./dom.js";

let made = null; // the rematch's table id, once the server says there is one

export function showRematch(rematch, app) {
  made = rematch || null;
  drawRematch(app);
}

/** The rematch box: under the final scores, once the game is over. */
export function drawRematch(app) {
  const box = document.getElementById("rematch-box");
  if (!box) return;
  const over = app.view?.phase === "over";
  const mayAsk = app.you !== null || !!app.admin;
  if (!over || (!made && !mayAsk)) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const key = made ? `made:${made}` : "ask";
  if (box.dataset.shown === key && !box.hidden) return;
  box.dataset.shown = key;
  if (made) {
    fill(box, el("p", {}, el("strong", {}, "A rematch is ready"), ": the same seats at a new table."),
      el("button", { type: "button", id: "rematch-go", class: "button primary", onclick: () => go(made) }, "Go to the new table"));
  } else {
    const button = el("button", { type: "button", id: "rematch", class: "button primary" }, "Rematch: play again");
    button.addEventListener("click", () => ask(app, button));
    fill(box, el("p", {}, "Play again with the same seats and rules? Every player's link works at the new table."),
      firstPlayer(app.view), button, el("span", { class: "rematch-error", role: "alert" }));
  }
  box.hidden = false;
}

/** Who plays first at the rematch, as the table's creator chose (the view's final.rematch_first). */
function firstPlayer(view) {
  const first = view?.final?.rematch_first;
  if (first?.rule === "rotate" && view.seats[first.seat]) {
    return el("p", { class: "rematch-first" }, `${view.seats[first.seat].name} plays first at the rematch: the first player moves on one seat.`);
  }
  if (first?.rule === "draw") return el("p", { class: "rematch-first" }, "The first player is drawn at random.");
  return null;
}

async function ask(app, button) {
  button.disabled = true; // a second click waits for the first's answer (and the server makes one table)
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/rematch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.you !== null ? app.secret : app.admin}`, "Content-Type": "application/json" },
      body: "{}",
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || `${response.status}`);
    go(data.table);
  } catch (failure) {
    const error = button.parentNode?.querySelector(".rematch-error");
    if (error) error.textContent = `No rematch: ${failure.message}`;
    button.disabled = false;
  }
}

function go(table) {
  // The same fragment (this page's own secret), at the new table.
  location.assign(`/t/${encodeURIComponent(table)}${location.hash}`);
}
