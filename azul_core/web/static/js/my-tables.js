// "My tables": the seats this browser has opened, kept in its localStorage (no account, nothing
// stored on the server), listed on the home page with whose turn it is.
//
// On a seat's page (a link with #seat=...) the table is remembered: its id, the link, and what
// the page last showed (your turn, waiting, finished). On the home page each remembered table is
// asked afresh, GET /api/tables/{table}/status with that seat's own secret, the one the link
// already holds: no new secret is made or stored. A watch link is never remembered.
import { el, fill } from "./dom.js";

const KEY = "azul-my-tables";
// the most tables remembered (the ones seen last are kept)
const MOST = 30;
// A table id and a secret are URL-safe base64 (secrets.token_urlsafe): anything else in the
// storage is not ours to follow, and is dropped.
const LINK = /^\/t\/([A-Za-z0-9_-]{1,64})#(.*)$/;
const STATES = ["your-turn", "waiting", "finished"];

/** The remembered tables, most recently seen first (a damaged storage reads as none). */
export function rememberedTables() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  return stored.filter((entry) => entry && typeof entry.link === "string" && parseLink(entry.link))
    .map((entry) => ({
      table: parseLink(entry.link).table,
      link: entry.link,
      seen: Number(entry.seen) || 0,
      variant: typeof entry.variant === "string" ? entry.variant : "",
      players: Array.isArray(entry.players) ? entry.players.map(String) : [],
      state: STATES.includes(entry.state) ? entry.state : null,
      toMove: typeof entry.toMove === "string" ? entry.toMove : null,
      winners: Array.isArray(entry.winners) ? entry.winners.map(String) : [],
      you: typeof entry.you === "string" ? entry.you : "",
    }))
    .sort((a, b) => b.seen - a.seen);
}

function store(entries) {
  try {
    localStorage.setItem(KEY, JSON.stringify(entries.slice(0, MOST)));
  } catch {
    // storage full or refused (a private window): the list is only a convenience
  }
}

/** {table, secret} of a seat link ("/t/ID#seat=SECRET..."), or null (a watch link, or not ours). */
function parseLink(link) {
  const match = LINK.exec(link);
  if (!match) return null;
  const secret = new URLSearchParams(match[2]).get("seat");
  return secret ? { table: match[1], secret } : null;
}

/** Remember (or update) the table of `link` with what is known of it now; `visited`: its page is
 *  open now (the list shows the tables visited last first). */
function remember(link, known, visited = false) {
  const parsed = parseLink(link);
  if (!parsed) return;
  const entries = rememberedTables();
  const before = entries.find((entry) => entry.table === parsed.table && parseLink(entry.link).secret === parsed.secret);
  const others = entries.filter((entry) => entry !== before);
  const seen = visited || !before ? Date.now() : before.seen;
  store([{ ...(before || {}), ...known, link, seen }, ...others].sort((a, b) => b.seen - a.seen));
}

export function forget(link) {
  store(rememberedTables().filter((entry) => entry.link !== link));
}

/** What the server says of the seat now: {status} (its answer), {gone: "..."} or {offline: true}. */
async function askStatus(link) {
  const { table, secret } = parseLink(link);
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(table)}/status`, {
      headers: { Authorization: `Bearer ${secret}`, Accept: "application/json" },
      cache: "no-store",
    });
    if (response.status === 404) return { gone: "This table is no longer on the server." };
    if (response.status === 401) return { gone: "This link no longer opens its seat (a new link was made)." };
    if (!response.ok) return { offline: true };
    return { status: await response.json() };
  } catch {
    return { offline: true };
  }
}

function known(status) {
  return { variant: status.variant, players: status.players, state: status.state,
    toMove: status.to_move, winners: status.winners, you: status.players[status.seat] };
}

// ---------------------------------------------------------------- on a seat's page

function followSeatPage() {
  const link = location.pathname + location.hash;
  if (!parseLink(link)) return;
  remember(link, {}, true);
  askStatus(link).then((answer) => { if (answer.status) remember(link, known(answer.status)); });
  // What the page shows (table.js keeps it on the body) is the last known state.
  const body = document.body;
  let told = "";
  new MutationObserver(() => {
    const state = body.dataset.phase === "over" ? "finished" : body.dataset.myTurn === "yes" ? "your-turn" : "waiting";
    if (!body.dataset.version || state === told) return;
    told = state;
    remember(link, { state });
  }).observe(body, { attributes: true, attributeFilter: ["data-version", "data-my-turn", "data-phase"] });
}

// ---------------------------------------------------------------- on the home page

const ORDER = { "your-turn": 0, waiting: 1, finished: 2 };

function stateWords(entry) {
  if (entry.gone) return entry.gone;
  if (entry.state === "your-turn") return "Your turn";
  if (entry.state === "finished") {
    return entry.winners.length ? `Finished: ${entry.winners.join(" and ")} won` : "Finished";
  }
  if (entry.state === "waiting") return entry.toMove ? `Waiting for ${entry.toMove}` : "Waiting";
  return "Not known yet";
}

function row(entry, onForget) {
  const state = entry.gone ? "gone" : entry.state || "unknown";
  const title = [entry.variant || "a table", entry.players.join(", ")].filter(Boolean).join(": ");
  return el("li", { class: `my-table ${state}`, "data-table": entry.table, "data-state": state },
    el("a", { class: "my-table-link", href: entry.link }, title),
    entry.you ? el("span", { class: "my-table-you" }, `you: ${entry.you}`) : null,
    " ",
    el("span", { class: "my-table-state" }, stateWords(entry), entry.offline ? " (last known: the server did not answer)" : ""),
    " ",
    el("button", { type: "button", class: "button forget", "data-forget": entry.table,
      "aria-label": `Forget the table ${title}`, onclick: () => onForget(entry) }, "Forget"));
}

function showList(section, entries) {
  const list = section.querySelector("#my-tables-list");
  const sorted = [...entries].sort((a, b) =>
    (a.gone ? 3 : ORDER[a.state] ?? 1) - (b.gone ? 3 : ORDER[b.state] ?? 1) || b.seen - a.seen);
  const onForget = (entry) => {
    forget(entry.link);
    showList(section, entries.filter((other) => other !== entry));
  };
  fill(list, sorted.map((entry) => row(entry, onForget)));
  section.hidden = sorted.length === 0;
  const yours = sorted.filter((entry) => !entry.gone && entry.state === "your-turn").length;
  section.dataset.yourTurn = String(yours);
}

async function refreshHome(section) {
  const entries = rememberedTables();
  showList(section, entries);  // at once, from what was last known; then from the server
  const asked = await Promise.all(entries.map(async (entry) => {
    const answer = await askStatus(entry.link);
    if (answer.status) {
      remember(entry.link, known(answer.status));
      return { ...entry, ...known(answer.status), seen: entry.seen };
    }
    return { ...entry, ...answer };
  }));
  // A table forgotten meanwhile (its button) stays forgotten.
  const still = new Set(rememberedTables().map((entry) => entry.link));
  showList(section, asked.filter((entry) => still.has(entry.link)));
  section.dataset.loaded = "yes";
}

function followHomePage(section) {
  refreshHome(section);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshHome(section);
  });
}

const section = document.getElementById("my-tables");
if (section) followHomePage(section);
else if (location.pathname.startsWith("/t/") && !location.pathname.endsWith("/replay")) followSeatPage();
