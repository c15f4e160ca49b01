// The move box answers "?" (your legal moves, "? 3", "? C", "? red") and "help" as the terminal
// does: the server answers (a "help" message), with the terminal's own words.
import { el } from "./dom.js";

/** Whether what was typed asks a question rather than names a move. */
export function isQuestion(text) {
  const word = text.trim().toLowerCase();
  return word.startsWith("?") || ["help", "h"].includes(word) || ["moves", "list"].includes(word.split(" ")[0]);
}

/** Send the question; the answer comes as a "help" message. */
export function ask(connection, text) {
  if (!connection.send({ type: "help", query: text })) {
    showText("Not connected: ask again once the page is live.");
  }
}

/** Show the server's answer under the move box. */
export function showAnswer(message) {
  showText(String(message.text ?? ""));
}

function showText(text) {
  let box = document.getElementById("move-answer");
  if (!box) {
    box = el("div", { id: "move-answer", class: "move-answer" },
      el("pre", { class: "move-answer-text", tabindex: "0", role: "status" }),
      el("button", { type: "button", class: "button", onclick: () => { box.hidden = true; } }, "Close"));
    document.getElementById("move-form")?.after(box);
  }
  box.querySelector("pre").textContent = text;
  box.hidden = false;
}
