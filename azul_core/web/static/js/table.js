// The table page: reads its secret from the URL fragment, follows the game over a WebSocket,
// and lets the seat's player choose moves among the ones the server says are legal.
import { el, fill, plural, setColours, setKinds, floorLine } from "./dom.js";
import { describeBoard } from "./board-words.js";
import { TableConnection } from "./connection.js";
import { drawSupply, drawBoard, drawKindsLegend, sourceName } from "./board.js";
import { drawRoundSummary, drawFinal } from "./summary.js";
import { drawMoves, drawPluginInfo } from "./plugins.js";
import { drawPhaseNote } from "./phases.js";
import { applyChanges } from "./patches.js";
import { onSeating, awayLongEnough, arrived, drawSeats } from "./seats.js";
import { installKeyboard, afterRender as keysAfterRender } from "./keyboard.js";
import { afterRender as phoneAfterRender } from "./phone.js";
import { showRules } from "./rules.js";
import { installHints, receiveHint, afterRender as hintsAfterRender } from "./hints.js";
import { drawReplayLink } from "./replay-link.js";
import { renderLog } from "./log.js";
import { installChat, receiveChatRefusal, afterRender as chatAfterRender } from "./chat.js";
import { decoratePreview, explainRefusal, forgetReason, sentence } from "./preview.js";
import { isQuestion, ask, showAnswer, afterRender as answerAfterRender } from "./movebox.js";
import { showLinkProblem } from "./linkproblem.js";
import { installAttention, afterRender as attentionAfterRender } from "./attention.js";
import { prepareFlight } from "./animate.js";

const $ = (id) => document.getElementById(id);

const fragment = new URLSearchParams(location.hash.slice(1));
const app = {
  table: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  secret: fragment.get("seat") || fragment.get("watch"),
  admin: fragment.get("admin"),
  version: null,
  view: null,
  legal: null,
  you: null,
  selected: null, // {source, colour} picked in the supply
  pending: null, // the move chosen and waiting for Confirm
  sent: null, // the move sent and not yet answered
  summaryRound: null,
  finalShown: false,
  bots: null,
  syncing: false, // asked for the whole state after a gap, not yet received
};

const connection = new TableConnection(app.table, app.secret, {
  version: () => app.version,
  onStatus: showConnection,
  onMessage: receive,
});

function receive(message) {
  if (message.type === "state") {
    // A reconnecting page may get an answer older than what it already shows: keep the newer.
    if (app.version !== null && message.version < app.version) return;
    app.syncing = false;
    app.you = message.you ?? null;
    show(message.version, { view: message.view, last: message.last || null, log: message.log }, message.legal);
  } else if (message.type === "update") {
    // What changed since the version this page shows. One missed (or a reconnection under way):
    // ask for the whole state once and wait for it.
    if (app.syncing) return;
    let next = null;
    if (app.view && message.base === app.version) {
      try {
        next = applyChanges({ view: app.view, last: app.last, log: app.log }, message.changes);
      } catch {
        next = null;
      }
    }
    if (!next || !next.view) {
      app.syncing = connection.send({ type: "sync" });
      return;
    }
    show(message.version, next, message.legal);
  } else if (message.type === "refused") {
    app.sent = null;
    showMessage(sentence(message.reason || "the server did not say why"), "refused");
    render();
  } else if (message.type === "presence") {
    if (app.view && Array.isArray(message.connected)) {
      app.view.seats.forEach((seat, i) => { seat.connected = !!message.connected[i]; });
      render();
    }
  } else if (message.type === "seating") {
    onSeating(message, app, render);
  } else if (message.type === "hint") {
    receiveHint(message);
  } else if (message.type === "chat-refused") {
    receiveChatRefusal(message);
  } else if (message.type === "checked") {
    explainRefusal(message);
  } else if (message.type === "help") {
    showAnswer(message);
  } else if (message.type === "error") {
    showMessage(message.reason || message.error || "the server reported an error", "refused");
  }
}

function show(version, seen, legal) {
  const moved = version !== app.version;
  // Where the arriving move's tiles were is read before the redraw takes them away.
  const flight = moved ? prepareFlight(app, seen.last || null) : null;
  app.version = version;
  app.view = seen.view;
  app.last = seen.last || null;
  app.log = Array.isArray(seen.log) ? seen.log : null;
  app.legal = legal ? withPreviews(legal) : null;
  if (moved) {
    app.sent = null;
    keepChoiceIfStillLegal();
  }
  render();
  flight?.();
}

function keepChoiceIfStillLegal() {
  const moves = new Set(legalMoves().map((m) => m.move));
  if (app.pending && !moves.has(app.pending)) app.pending = null;
  if (app.selected && !(app.legal?.drafts || []).some((d) => d.source === app.selected.source && d.colour === app.selected.colour)) {
    app.selected = null;
  }
}

// The server writes each draft's preview once, in `previews`; a draft names it by index.
function withPreviews(legal) {
  if (!Array.isArray(legal.previews)) return legal;
  const drafts = (legal.drafts || []).map((d) =>
    (typeof d.preview === "number" ? { ...d, preview: legal.previews[d.preview] || null } : d));
  return { ...legal, drafts };
}

function legalMoves() {
  if (!app.legal) return [];
  return [...(app.legal.drafts || []), ...(app.legal.columns || []), ...(app.legal.moves || [])];
}

function myTurn() {
  return app.view && app.you !== null && app.view.phase !== "over" && app.view.to_move === app.you && !!app.legal;
}

// ------------------------------------------------------------------ choosing a move

function pick(source, colour) {
  clearMessage();
  forgetReason();
  app.selected = { source, colour };
  app.pending = null;
  const targets = (app.legal?.drafts || []).filter((d) => d.source === source && d.colour === colour);
  // A colour with one place to go (the floor only) is chosen at once, still to be confirmed.
  if (targets.length === 1) app.pending = targets[0].move;
  render();
}

function target(move) {
  clearMessage();
  app.pending = move;
  render();
  $("confirm").focus();
}

function confirmMove() {
  if (!app.pending) return;
  send(app.pending);
}

function cancel() {
  app.pending = null;
  render();
}

function send(move) {
  clearMessage();
  if (!connection.send({ type: "move", version: app.version, move })) {
    showMessage("Not connected: the move was not sent. Reconnecting…", "refused");
    $("message").dataset.about = "connection";
    return;
  }
  app.sent = move;
  app.pending = null;
  app.selected = null;
  render();
}

function typed(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  // "?" and "help" are answered as at the terminal (by the server: it knows this seat's moves).
  if (isQuestion(text)) {
    ask(connection, text);
    return;
  }
  // A typed draft that sends its tiles to the floor by mistake (duel) asks first, as a click does.
  const match = legalMoves().find((m) => m.move.toUpperCase() === text.toUpperCase());
  if (match?.misplaced) {
    app.selected = { source: match.source, colour: match.colour };
    app.pending = match.move;
    render();
    return;
  }
  send(text);
}

// ------------------------------------------------------------------ drawing

function render() {
  const view = app.view;
  if (!view) return;
  setColours(view.colours, view.floor_line);
  setKinds(view.kinds);
  describeBoard();
  document.body.dataset.version = String(app.version);
  document.body.dataset.phase = view.phase;
  document.body.dataset.round = String(view.round);
  document.body.dataset.myTurn = myTurn() ? "yes" : "no";
  document.body.dataset.role = app.you === null ? "watcher" : "player";
  $("variant-name").textContent = view.variant;
  $("round").textContent = view.phase === "over" ? "game over" : `round ${view.round}`;
  const mover = view.to_move === null ? null : view.seats[view.to_move];
  const turn = view.phase === "over" ? "" : myTurn() ? "your turn" : mover ? `${mover.name} to move` : "";
  $("turn").textContent = app.you === null ? `watching${turn ? ` · ${turn}` : ""}` : turn;

  const mine = myTurn();
  const drafts = mine ? app.legal.drafts || [] : [];
  const picks = new Set(drafts.map((d) => `${d.source}:${d.colour}`));
  $("supply").hidden = view.phase === "over";
  fill($("supply"), drawPhaseNote(view, app.you, mine), drawSupply(view, picks, mine ? app.selected : null, pick),
    el("p", { class: "bag" }, `bag ${view.bag} · lid ${view.lid}`), drawKindsLegend());

  const targets = mine ? boardTargets() : null;
  const order = view.seats.map((_, i) => i);
  if (app.you !== null) order.sort((a, b) => ((a - app.you + order.length) % order.length) - ((b - app.you + order.length) % order.length));
  fill($("boards"), order.map((seat) => drawBoard(view.seats[seat], view, {
    mine: seat === app.you, toMove: seat === view.to_move, targets: seat === app.you ? targets : null, onTarget: target,
    notArrived: !arrived(seat),
  })));
  $("last-move").textContent = app.last?.text ? `Last move: ${app.last.text}` : "";
  const info = drawPluginInfo(view, app.you);
  $("plugin-info").hidden = !info;
  fill($("plugin-info"), info);
  renderPlay();
  renderSummaries();
  renderAdmin();
  drawSeats(app);
  phoneAfterRender(app);
  showRules(view);
  hintsAfterRender();
  keysAfterRender();
  renderLog(app.log, view);
  chatAfterRender();
  decoratePreview(app, mine, connection);
  attentionAfterRender(view.variant, mine);
  answerAfterRender(app.version, connection);
}

function boardTargets() {
  const lines = new Map();
  const cells = new Map();
  let floor = null;
  let placing = null;
  if (app.selected) {
    for (const d of app.legal.drafts || []) {
      if (d.source !== app.selected.source || d.colour !== app.selected.colour) continue;
      if (d.line === floorLine()) floor = d.move;
      else lines.set(d.line, { move: d.move, misplaced: !!d.misplaced });
    }
  }
  for (const c of app.legal.columns || []) {
    cells.set(`${c.row}:${c.column}`, c.move);
    placing = c.row;
  }
  return { lines, floor, cells, placing, chosen: app.pending };
}

function renderPlay() {
  const view = app.view;
  const play = $("play");
  play.hidden = app.you === null || view.phase === "over";
  // Open whenever the game is on: out of turn, the server says why not (in words).
  $("move-input").disabled = view.phase === "over";
  const bar = $("confirm-bar");
  bar.hidden = !app.pending;
  $("pending-warning").hidden = true;
  if (app.pending) {
    $("pending-text").textContent = describe(app.pending);
    const warning = misplacedWarning(app.pending);
    if (warning) {
      $("pending-warning").textContent = warning;
      $("pending-warning").hidden = false;
    }
  }
  // A house rule's moves on offer: a button each, chosen then confirmed like a draft.
  const moves = myTurn() ? app.legal.moves || [] : [];
  $("plugin-moves").hidden = !moves.length;
  fill($("plugin-moves"), drawMoves(moves, app.pending, target));
  $("prompt").textContent = prompt();
}

function prompt() {
  const view = app.view;
  if (app.you === null) return "";
  if (app.sent) return `Sending ${app.sent}…`;
  if (!myTurn()) {
    const mover = view.to_move === null ? null : view.seats[view.to_move];
    if (!mover) return "";
    // In a phase chosen at once the others wait for every seat, not one (the phase's note says).
    if (view.stage?.at_once) return "Waiting for the others to choose, in secret.";
    const what = view.phase === "place" ? "choose a wall space" : view.phase === "choose" ? "choose" : "move";
    return mover.bot ? `${mover.name} (bot) is about to ${what}…` : `Waiting for ${mover.name} to ${what}.`;
  }
  if (app.legal.columns?.length) {
    const row = app.legal.columns[0].row;
    return app.pending
      ? "Confirm the wall space, or click another highlighted one."
      : `Your pattern line ${row + 1} is full: choose where its tile goes on your wall (the highlighted spaces).`;
  }
  if (app.legal.moves?.length && !app.legal.drafts?.length) {
    const secret = view.stage?.at_once ? " Nobody sees it until everyone has chosen." : "";
    return app.pending ? `Confirm your choice, or click another one.${secret}` : `Choose one of the moves on offer.${secret}`;
  }
  if (!app.selected) {
    const also = app.legal.moves?.length ? ", or a move of the house rule" : "";
    return `Your turn: click a colour in a factory or the centre${also}.`;
  }
  if (!app.pending) {
    const count = countOf(app.selected.source, app.selected.colour);
    return `Now click a highlighted pattern line or the floor for ${plural(count, `${app.selected.colour} tile`)}.`;
  }
  return "Confirm the move, or click another line or colour to change it.";
}

function countOf(source, colour) {
  const tiles = source === 0 ? app.view.centre.tiles : app.view.factories[source - 1] || [];
  return tiles.filter((t) => t === colour).length;
}

function describe(move) {
  const found = legalMoves().find((m) => m.move === move);
  if (!found) return `Send ${move}?`;
  if (found.label !== undefined) return `${found.label} (${move}).`;
  if (found.column !== undefined && found.source === undefined) {
    const points = found.points !== undefined ? `, for ${plural(found.points, "point")}` : "";
    return `Put the tile of pattern line ${found.row + 1} in wall column ${found.column + 1}${points} (${move}).`;
  }
  const count = countOf(found.source, found.colour);
  const where = found.line === floorLine() ? "the floor" : `pattern line ${found.line + 1}`;
  const marker = found.source === 0 && app.view.centre.marker ? " and the start marker" : "";
  const effect = found.effect ? `: ${found.effect}` : "";
  return `Take ${plural(count, `${found.colour} tile`)} from ${sourceName(found.source)}${marker} onto ${where} (${move}${effect}).`;
}

function misplacedWarning(move) {
  const found = legalMoves().find((m) => m.move === move);
  if (!found?.misplaced) return "";
  const count = countOf(found.source, found.colour);
  const why = found.why ? sentence(found.why) : `Line ${found.line + 1} can't take ${found.colour}.`;
  const falling = count === 1 ? "The tile" : `All ${count} tiles`;
  return `Careful: ${why} ${falling} would fall to the floor. Send it anyway?`;
}

function renderSummaries() {
  // Redrawn only when they change, so a summary the player folded stays folded.
  const view = app.view;
  const round = view.last_round ? view.last_round.round : null;
  if (round !== app.summaryRound) {
    app.summaryRound = round;
    fill($("round-box"), drawRoundSummary(view));
  }
  if (!!view.final !== app.finalShown) {
    app.finalShown = !!view.final;
    fill($("final-box"), drawFinal(view, { onDownload: download }), drawReplayLink(view, app.table, location.hash));
  }
}

function renderAdmin() {
  const box = $("admin");
  const view = app.view;
  const away = app.admin && view.phase !== "over"
    ? view.seats.filter((s) => !s.bot && !s.connected && s.seat !== app.you && awayLongEnough(s.seat)) : [];
  box.hidden = !away.length;
  if (!away.length) {
    box.replaceChildren();
    return;
  }
  // Don't redraw under the creator's hand while they choose a bot.
  const shown = [...box.querySelectorAll("[data-seat]")].map((n) => Number(n.dataset.seat)).join(",");
  if (shown === away.map((s) => s.seat).join(",")) return;
  const bots = app.bots || ["random", "greedy", "mcts"];
  fill(box, el("h2", {}, away.every((seat) => !arrived(seat.seat)) ? "Players not here yet" : "Players who left"),
    away.map((seat) => {
      const choice = el("select", { "aria-label": `bot for ${seat.name}'s seat` },
        bots.map((b) => el("option", { value: b }, b)));
      choice.value = bots.includes("greedy") ? "greedy" : bots[0];
      return el("p", { class: "away-seat", "data-seat": seat.seat },
        arrived(seat.seat) ? `${seat.name} is not at the table. ` : `${seat.name} has not opened their link yet. `,
        el("label", {}, "Hand the seat to a bot: ", choice),
        el("button", { type: "button", class: "button", "data-hand": seat.seat, onclick: () => handToBot(seat, choice.value) }, "Hand over"));
    }));
}

async function handToBot(seat, bot) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/seats/${seat.seat}/bot`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.admin}`, "Content-Type": "application/json" },
      body: JSON.stringify({ bot }),
    });
    if (!response.ok) throw new Error(await errorText(response));
    showMessage(`${seat.name}'s seat is now played by the ${bot} bot.`, "notice");
  } catch (error) {
    showMessage(`Could not hand the seat over: ${error.message}`, "refused");
  }
}

async function download() {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(app.table)}/record`, {
      headers: { Authorization: `Bearer ${app.secret}`, Accept: "application/json" },
    });
    if (!response.ok) throw new Error(await errorText(response));
    const blob = await response.blob();
    const disposition = response.headers.get("Content-Disposition") || "";
    const named = /filename="?([^";]+)"?/.exec(disposition);
    const link = el("a", { href: URL.createObjectURL(blob), download: named ? named[1] : `azul-${app.table.slice(0, 8)}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch (error) {
    showMessage(`The record could not be downloaded: ${error.message}`, "refused");
  }
}

async function errorText(response) {
  const text = await response.text();
  try {
    const data = JSON.parse(text);
    return data.error || data.detail || data.reason || `${response.status}`;
  } catch {
    return text.trim().slice(0, 200) || `${response.status} ${response.statusText}`;
  }
}

// ------------------------------------------------------------------ status and messages

const STATUS_WORDS = { connecting: "connecting…", live: "live", offline: "offline: reconnecting…", reconnecting: "reconnecting…", refused: "not connected" };

function showConnection(status, reason) {
  const node = $("connection");
  node.dataset.status = status;
  node.textContent = STATUS_WORDS[status] || status;
  // Live again: a message that the page was not connected is no longer true.
  if (status === "live" && $("message").dataset.about === "connection") clearMessage();
  if (status === "refused") {
    showMessage(`This link does not open the table: ${reason}.`, "refused");
    showLinkProblem();
  }
}

function showMessage(text, kind) {
  const node = $("message");
  node.textContent = text;
  node.dataset.kind = kind;
  delete node.dataset.about;
  node.hidden = false;
}

function clearMessage() {
  $("message").hidden = true;
  $("message").textContent = "";
}

async function loadBots() {
  try {
    const response = await fetch("/api/variants");
    if (!response.ok) return;
    const variants = await response.json();
    const variant = variants.find((v) => v.name === app.view?.variant) || variants[0];
    if (variant?.bots?.length) app.bots = variant.bots;
  } catch {
    // the default list will do
  }
}

$("confirm").addEventListener("click", confirmMove);
$("cancel").addEventListener("click", cancel);
$("move-form").addEventListener("submit", typed);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (app.pending || app.selected)) {
    app.pending = null;
    app.selected = null;
    render();
  }
});

installKeyboard(app);
installHints(app, (message) => connection.send(message));
installAttention();
installChat(app, (message) => connection.send(message));

if (!app.table || !app.secret) {
  showMessage("This link has no seat or watch secret: ask the table's creator for your link.", "refused");
  showConnection("refused", "no secret in the link");
} else {
  if (app.admin) loadBots();
  connection.open();
}
