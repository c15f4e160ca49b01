// The phases of choices a house rule adds (the view's `stage`): what the phase is, and in a
// phase chosen at once who has chosen, never what: the server sends this page its own choice
// alone until every seat has chosen. Names and labels are set as text, never HTML.
import { el } from "./dom.js";

/** The phase's words, or null outside a house rule's phase. `you`: this page's seat (null: a
 * watcher); `mine`: whether this page's seat is the one choosing now. */
export function drawPhaseNote(view, you, mine) {
  const stage = view.stage;
  if (!stage || view.phase !== "choose") return null;
  const parts = [el("strong", { class: "phase-title" }, `${stage.text}.`)];
  if (stage.at_once) {
    const waiting = waitingWords(view, you, mine);
    if (waiting) parts.push(" ", el("span", { class: "phase-waiting" }, waiting));
  }
  return el("p", { class: "phase-note", id: "phase-note", "data-stage": stage.name }, parts);
}

/** In a phase chosen at once: this seat's own choice, who else has chosen, and that the page
 * waits for the others (a seat whose turn it is to choose waits for nobody). */
export function waitingWords(view, you, mine) {
  const stage = view.stage;
  if (!stage?.at_once) return "";
  const names = view.seats.map((seat) => seat.name);
  const words = [];
  if (stage.yours) words.push(`You chose: ${stage.yours.label}.`);
  const others = stage.chosen.filter((seat) => seat !== you).map((seat) => names[seat] ?? `seat ${seat + 1}`);
  if (others.length) words.push(`${others.join(", ")} ${others.length === 1 ? "has" : "have"} chosen.`);
  if (!mine) words.push("Waiting for the others: every choice is shown when everyone has chosen.");
  return words.join(" ");
}
