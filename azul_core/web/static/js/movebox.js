// The move box answers "?" (your legal moves, "? 3", "? C", "? red") and "help" as the terminal
// does: the server answers (a "help" message), with the terminal's own words.
import { el } from "./dom.js";

/** Whether what was typed asks a question rather than names a move. */
export function isQuestion(text) {
  const word = text.trim().toLowerCase();
  return word.startsWith("?") || ["help", "h"].includes(word) || ["moves", "list"].includes(word.split(" ")[0]);
}

// The list of moves is of one version: the question and the version it was asked at, to ask it
// again or close it when the page moves on.
let question = null;
let pageVersion = null;

/** Send the question; the answer comes as a "help" message. */
export function ask(connection, text) {
  question = { text, version: pageVersion };
  if (!connection.send({ type: "help", query: text, width: charactersAcross() })) {
    showText("Not connected: ask again once the page is live.");
  }
}

/** How many characters the answer's box holds in a line: the server lays the list out for it
 * (one column where two don't fit), so no part of it is hidden at the right. */
function charactersAcross() {
  const box = answerBox();
  const shown = !box.hidden;
  box.hidden = false;
  const text = box.querySelector("pre");
  const probe = el("span", {}, "0".repeat(10));
  text.append(probe);
  const across = Math.floor((text.clientWidth - 16) / (probe.getBoundingClientRect().width / 10));
  probe.remove();
  box.hidden = !shown;
  return Number.isFinite(across) && across > 0 ? across : undefined;
}

/** Called at the end of every render: once the table moves on, a list of moves is out of date:
 * on this seat's turn it is asked for again, else it is closed (how to type a move stays). */
export function afterRender(version, connection) {
  pageVersion = version;
  const box = document.getElementById("move-answer");
  if (!question || question.version === version) return;
  const lasting = ["help", "h"].includes(question.text.trim().toLowerCase());
  if (!box || box.hidden || lasting) return;
  if (document.body.dataset.myTurn === "yes") {
    ask(connection, question.text);
  } else {
    box.hidden = true;
    question = null;
  }
}

/** Show the server's answer under the move box. */
export function showAnswer(message) {
  showText(String(message.text ?? ""));
}

function answerBox() {
  let box = document.getElementById("move-answer");
  if (!box) {
    box = el("div", { id: "move-answer", class: "move-answer", hidden: true },
      el("pre", { class: "move-answer-text", tabindex: "0", role: "status" }),
      el("button", { type: "button", class: "button", onclick: () => { box.hidden = true; } }, "Close"));
    document.getElementById("move-form")?.after(box);
  }
  return box;
}

function showText(text) {
  const box = answerBox();
  box.querySelector("pre").textContent = text;
  box.hidden = false;
}
