// The game log: every move in words, grouped by round, each round headed by the points each
// seat made in it. Built from the server's log (the state's `log`, made from the stored events),
// so a reloaded or reconnected page shows the whole game; updates append to it. The log is not a
// live region: the latest move alone is announced (#last-move).
import { el, plural } from "./dom.js";

let shown = null; // the log last drawn (its length and the names it was drawn with)

/** Draw the log under the table (`log`: the server's entries; `view`: for the seats' names). */
export function renderLog(log, view) {
  const box = logBox();
  if (!Array.isArray(log) || !view) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const names = view.seats.map((seat) => seat.name);
  const key = `${log.length}|${names.join("\u0000")}`;
  if (shown === key) return;
  const first = shown === null;
  shown = key;
  const scroller = box.querySelector(".log-scroll");
  // Keep the reader's place unless they were following the end of the log.
  const atEnd = first || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
  const rounds = new Map();
  const roundOf = (number) => {
    if (!rounds.has(number)) rounds.set(number, { moves: [], points: null, end: null, after: [] });
    return rounds.get(number);
  };
  for (const entry of log) {
    if (!entry || typeof entry !== "object") continue;
    const round = roundOf(Number(entry.round) || 0);
    if (Array.isArray(entry.points)) round.points = entry;
    else if (entry.end) round.end = entry;
    else if (round.end) round.after.push(entry); // after the game: a rematch made
    else round.moves.push(entry);
  }
  const sections = [...rounds].map(([number, round]) => drawRound(number, round, names));
  scroller.replaceChildren(...(sections.length ? sections : [el("p", { class: "log-empty" }, "No move yet.")]));
  // (tiles a rule drew from the bag are chance, told in the log, but nobody's move)
  box.querySelector(".log-count").textContent = `(${plural(log.filter((e) => e && e.move && !e.drawn).length, "move")})`;
  if (atEnd) scroller.scrollTop = scroller.scrollHeight;
}

function drawRound(number, round, names) {
  const heading = el("h3", { class: "log-round-head" }, `Round ${number}`);
  if (round.points) {
    heading.append(el("span", { class: "log-points" }, round.points.points.map((points, seat) =>
      el("span", { class: "log-seat-points", "data-seat": seat },
        `${names[seat] ?? `Seat ${seat + 1}`} ${signed(points)}`))));
  } else {
    heading.append(el("span", { class: "log-points log-in-play" }, "in play"));
  }
  const moves = el("ol", { class: "log-moves" }, round.moves.map(logItem));
  return el("section", { class: "log-round", "data-round": number }, heading, moves,
    round.end ? el("p", { class: "log-end" }, `Game over. ${round.end.text ?? ""}`) : null,
    round.after.length ? el("ul", { class: "log-moves log-after" }, round.after.map(logItem)) : null);
}

/** A move, an event about a seat (a bot handed it, the stand-in, taken back, a rematch), or a
 * seat's chat message (its words as text, after the sender's name). */
function logItem(entry) {
  if (entry.chat) {
    return el("li", { class: "log-chat", "data-seat": entry.seat ?? "" },
      el("span", { class: "log-chat-name" }, `${String(entry.name ?? "")}: `),
      el("span", { class: "log-chat-text" }, String(entry.text ?? "")));
  }
  if (entry.event) {
    return el("li", { class: "log-seat-event", "data-seat": entry.seat ?? "", "data-event": String(entry.event) },
      String(entry.text ?? ""));
  }
  const kind = entry.drawn ? "log-move log-drawn" : entry.bot ? "log-move log-bot" : "log-move";
  return el("li", { class: kind, "data-seat": entry.seat },
    String(entry.text ?? entry.move ?? ""));
}

function signed(points) {
  return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "±0";
}

/** The log's panel, made once, after the round summary. */
function logBox() {
  let box = document.getElementById("game-log");
  if (box) return box;
  box = el("section", { id: "game-log", class: "game-log panel", "aria-labelledby": "game-log-title", hidden: true },
    el("details", { open: true },
      el("summary", {}, el("h2", { id: "game-log-title" }, "Game log "), el("span", { class: "log-count" }, "")),
      el("div", { class: "log-scroll", tabindex: "0", "aria-label": "the moves so far, by round" })));
  const after = document.getElementById("round-box");
  if (after) after.after(box);
  else document.querySelector("main").append(box);
  return box;
}
