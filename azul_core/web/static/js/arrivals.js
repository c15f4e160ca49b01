// Waiting for friends to arrive, at a table with a clock: a seat's clock runs only once its
// player has opened their link, or once the creator presses "Start now" (docs/serve.md, Turn
// clocks). Every page says whom the table waits for; the creator's page has the button.
import { el, fill } from "./dom.js";

/** The seats the table waits for: people (no bot plays them) who have not opened their link,
 * while the creator has not started the game. Empty without a clock. */
export function waitingFor(seating, view) {
  const clock = seating?.clock;
  if (!clock || clock.begun || !view || view.phase === "over") return [];
  return (seating.seats || []).map((seat, index) => ({ ...seat, index }))
    .filter((seat) => !seat.bot && clock.arrived && !clock.arrived[seat.index])
    .map((seat) => ({ seat: seat.index, name: view.seats[seat.index]?.name ?? `seat ${seat.index + 1}` }));
}

/** The box at the top of the page: whom the table waits for and, for the creator, Start now. */
export function drawArrivals(seating, app, onError) {
  const box = document.getElementById("start-box");
  if (!box) return;
  const waiting = waitingFor(seating, app.view);
  if (!waiting.length) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.shown;
    return;
  }
  const names = waiting.map((seat) => seat.name);
  const key = `${names.join("\u0000")}|${app.admin ? "admin" : ""}`;
  if (box.dataset.shown === key && !box.hidden) return;
  box.dataset.shown = key;
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  const words = el("p", {}, el("strong", {}, `Waiting for ${who}`),
    ": a player's clock starts when they open their link",
    app.admin ? "." : ", or when the table's creator starts the game.");
  if (!app.admin) {
    fill(box, words);
  } else {
    const button = el("button", { type: "button", id: "start-now", class: "button primary" }, "Start now");
    const status = el("span", { class: "reclaim-error", role: "alert" });
    button.addEventListener("click", () => startNow(app, button, status, onError));
    fill(box, words, button,
      el("p", { class: "hint" }, "Start now: every player's clock runs from now; a seat nobody has opened is played by the stand-in bot when its time is up, until its player arrives and takes it back."),
      status);
  }
  box.hidden = false;
}

async function startNow(app, button, status, onError) {
  button.disabled = true;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/start`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.admin}`, "Content-Type": "application/json" },
      body: "{}",
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw new Error(data.error || `${response.status}`);
    }
    // The server tells every page (this one too) that the clocks run.
  } catch (failure) {
    status.textContent = `Could not start the game: ${failure.message}`;
    button.disabled = false;
    onError?.(failure);
  }
}
