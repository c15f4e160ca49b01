// The replay page: a finished game stepped through move by move. The server replays the record
// through the engine and sends each step's view (the table page's); this page only draws it,
// with the table page's own drawing code, and moves between the steps.
import { el, fill, setColours, setKinds } from "./dom.js";
import { drawSupply, drawBoard, drawKindsLegend } from "./board.js";
import { drawRoundSummary, drawFinal } from "./summary.js";
import { drawPluginInfo } from "./plugins.js";

const $ = (id) => document.getElementById(id);
// Phases in which a seat is to move (between the last move of a round and the next deal, nobody is).
const PLAYING = new Set(["draft", "place", "choose"]);

// A finished online table (/t/TABLE/replay, its link's secret after '#') or the record that
// `azul replay --web` serves (/).
const tablePath = /^\/t\/([^/]+)\/replay\/?$/.exec(location.pathname);
const fragment = new URLSearchParams(location.hash.slice(1));
const secret = fragment.get("seat") || fragment.get("watch");
const api = tablePath ? `/api/tables/${tablePath[1]}/replay` : "/api/replay";
const headers = tablePath && secret ? { Authorization: `Bearer ${secret}`, Accept: "application/json" } : { Accept: "application/json" };

const app = {
  // {title, variant, players, over, problem, steps: [{round, action, move, text, seat, round_end}],
  //  seat_events: [{step, seat, event, text}]}: an online table's events about seats, under the step they followed
  index: null,
  at: 0, // the step shown (or being fetched)
  shown: null, // the step drawn
  views: new Map(), // step -> the server's answer
};

async function getJson(path) {
  const response = await fetch(path, { headers });
  const text = await response.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error(data?.error || `${response.status} ${response.statusText}`);
  return data;
}

async function start() {
  if (tablePath && !secret) {
    showMessage("This link has no seat or watch secret: open the replay from the table's own link.");
    return;
  }
  try {
    app.index = await getJson(api);
  } catch (error) {
    showMessage(`The replay could not be loaded: ${error.message}.`);
    return;
  }
  const steps = app.index.steps;
  if (!steps.length) {
    showMessage(app.index.problem ? `Nothing to replay: ${app.index.problem}.` : "The record has no rounds to replay.");
    return;
  }
  if (app.index.problem) showMessage(`Only part of the game can be shown: ${app.index.problem}.`);
  $("replay-title").textContent = app.index.title;
  document.title = `Azul replay (${app.index.title})`;
  $("slider").max = String(steps.length - 1);
  $("step-count").textContent = String(steps.length - 1);
  drawLog();
  drawRoundEnds();
  go(0);
}

// ------------------------------------------------------------------ moving between steps

function clamp(step) {
  return Math.max(0, Math.min(app.index.steps.length - 1, step));
}

function roundEnds() {
  return app.index.steps.map((s, i) => (s.round_end ? i : -1)).filter((i) => i >= 0);
}

async function go(step) {
  if (!app.index) return;
  step = clamp(step);
  app.at = step;
  markPosition(step);
  let answer = app.views.get(step);
  if (!answer) {
    try {
      answer = await getJson(`${api}/${step}`);
    } catch (error) {
      showMessage(`Step ${step} could not be loaded: ${error.message}.`);
      return;
    }
    app.views.set(step, answer);
  }
  if (app.at !== step) return; // another step was asked for meanwhile
  render(answer);
}

function nextRoundEnd() {
  const found = roundEnds().find((i) => i > app.at);
  return found === undefined ? app.index.steps.length - 1 : found;
}

function previousRoundEnd() {
  const found = roundEnds().reverse().find((i) => i < app.at);
  return found === undefined ? 0 : found;
}

// ------------------------------------------------------------------ drawing

function markPosition(step) {
  const info = app.index.steps[step];
  $("slider").value = String(step);
  $("step-number").textContent = String(step);
  $("position").textContent = `move ${step} of ${app.index.steps.length - 1}`;
  $("step-text").textContent = info.text;
  $("first").disabled = $("prev").disabled = $("prev-round").disabled = step === 0;
  $("last").disabled = $("next").disabled = $("next-round").disabled = step === app.index.steps.length - 1;
  for (const node of document.querySelectorAll("[data-step][aria-current]")) node.removeAttribute("aria-current");
  const item = $("log-list").querySelector(`[data-step="${step}"]`);
  if (item) {
    item.setAttribute("aria-current", "step");
    // Scroll the log only, never the page, so the board stays where the eye is.
    const list = $("log-list");
    const top = item.offsetTop; // the list is positioned: offsets are within it
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
  for (const button of document.querySelectorAll("[data-round-end]")) {
    button.setAttribute("aria-pressed", Number(button.dataset.step) === step ? "true" : "false");
  }
}

function render(answer) {
  const view = answer.view;
  app.shown = answer.step;
  setColours(view.colours, view.floor_line);
  setKinds(view.kinds);
  document.body.dataset.step = String(answer.step);
  document.body.dataset.round = String(answer.round);
  document.body.dataset.phase = view.phase;
  document.body.dataset.roundEnd = answer.round_end ? "yes" : "no";
  $("round").textContent = view.phase === "over" ? "game over" : `round ${answer.round}`;
  const over = view.phase === "over";
  $("supply").hidden = over;
  fill($("supply"), drawSupply(view, new Set(), null, () => {}),
    el("p", { class: "bag" }, `bag ${view.bag} · lid ${view.lid}`), drawKindsLegend());
  fill($("boards"), view.seats.map((seat) => drawBoard(seat, view, {
    mine: false, toMove: PLAYING.has(view.phase) && seat.seat === view.to_move, targets: null, onTarget: () => {},
  })));
  const info = drawPluginInfo(view);
  $("plugin-info").hidden = !info;
  fill($("plugin-info"), info);
  // The round this step ended is told first and highlighted; later, the last finished round
  // is still there, folded open as on the table page.
  const summary = drawRoundSummary(view);
  if (summary && answer.round_end) {
    summary.classList.add("just-scored");
    summary.querySelector("summary").textContent = `Round ${view.last_round.round} is over: what each tile scored`;
  }
  fill($("round-box"), summary);
  const final = drawFinal(view, { onDownload: () => {} });
  final?.querySelector("#download")?.parentElement?.remove(); // the record is already the user's
  fill($("final-box"), final);
}

function drawLog() {
  const steps = app.index.steps;
  const seatEvents = app.index.seat_events ?? [];
  const chat = Array.isArray(app.index.chat) ? app.index.chat : [];
  const items = [];
  steps.forEach((step, index) => {
    const deal = step.move === null;
    items.push(el("li", { class: deal ? "log-deal" : "log-move", "data-round": step.round },
      el("button", { type: "button", class: "log-step", "data-step": index, onclick: () => go(index) },
        deal ? el("strong", { class: "log-text" }, step.text)
          : [el("span", { class: "log-number" }, `${step.action}.`), el("span", { class: "log-text" }, step.text)],
        step.move ? el("code", { class: "log-notation" }, step.move) : null)));
    if (step.round_end) {
      items.push(el("li", { class: "log-scored", "data-round": step.round },
        el("button", { type: "button", class: "log-step scored-link", "data-step": index, "data-scored": step.round, onclick: () => go(index) },
          `Round ${step.round} scored`)));
    }
    // A seat handed to a bot, the stand-in, a seat taken back, a rematch: told, not a step.
    seatEvents.filter((event) => event.step === index).forEach((event) => items.push(
      el("li", { class: "log-seat-event", "data-round": step.round, "data-seat": event.seat ?? "", "data-event": String(event.event) },
        String(event.text ?? ""))));
    // What the players said at the table (the record's chat), as text: told, not a step.
    chat.filter((said) => said.step === index).forEach((said) => items.push(
      el("li", { class: "log-chat", "data-round": step.round, "data-seat": said.seat },
        el("span", { class: "log-chat-name" }, `${String(said.name ?? "")}: `),
        el("span", { class: "log-chat-text" }, String(said.text ?? "")))));
  });
  fill($("log-list"), items);
}

function drawRoundEnds() {
  const ends = roundEnds();
  fill($("round-ends"), ends.length ? el("span", { class: "round-ends-label" }, "round ends:") : null,
    ends.map((index) => el("button", {
      type: "button", class: "button round-end", "data-round-end": app.index.steps[index].round, "data-step": index,
      title: `the end of round ${app.index.steps[index].round}: its scoring`, onclick: () => go(index),
    }, String(app.index.steps[index].round))));
}

function showMessage(text) {
  const node = $("message");
  node.textContent = text;
  node.dataset.kind = "refused";
  node.hidden = false;
}

// ------------------------------------------------------------------ controls

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(app.at - 1));
$("next").addEventListener("click", () => go(app.at + 1));
$("last").addEventListener("click", () => go(Number.MAX_SAFE_INTEGER));
$("prev-round").addEventListener("click", () => go(previousRoundEnd()));
$("next-round").addEventListener("click", () => go(nextRoundEnd()));
$("slider").addEventListener("input", (event) => go(Number(event.target.value)));

const KEYS = {
  ArrowRight: () => app.at + 1,
  ArrowLeft: () => app.at - 1,
  Home: () => 0,
  End: () => Number.MAX_SAFE_INTEGER,
  PageDown: nextRoundEnd,
  PageUp: previousRoundEnd,
};

document.addEventListener("keydown", (event) => {
  if (!app.index || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  // The slider moves itself with the arrow keys (its input event follows); a text field keeps its keys.
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const where = KEYS[event.key];
  if (!where) return;
  event.preventDefault();
  go(where());
});

start();
