// The home page: choose a variant and the seats, create the table, hand out the links.
import { el, fill } from "./dom.js";
import { copyText } from "./clipboard.js";
import { clockChoice } from "./clock-form.js";

const form = document.getElementById("create");
const variantSelect = document.getElementById("variant");
const seatCount = document.getElementById("seat-count");
const seatsBox = document.getElementById("seats");
const errorBox = document.getElementById("form-error");
let variants = [];

// The server takes names of 1 to 32 characters.
const NAME_MAX = 32;

async function loadVariants() {
  try {
    const response = await fetch("/api/variants", { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(await reason(response));
    variants = await response.json();
  } catch (error) {
    errorBox.textContent = `Can't load the variants: ${error.message}`;
    return;
  }
  fill(variantSelect, variants.map((v) => el("option", { value: v.name }, v.name)));
  const standard = variants.find((v) => v.name === "standard");
  if (standard) variantSelect.value = "standard";
  showVariant();
}

function current() {
  return variants.find((v) => v.name === variantSelect.value);
}

function showVariant() {
  const variant = current();
  if (!variant) return;
  document.getElementById("variant-description").textContent = variant.description || "";
  // The rules that differ, in a player's words (`words`); `rules` is what `azul rules` prints.
  const words = variant.words?.length ? variant.words : variant.rules || [];
  fill(document.getElementById("variant-rules"), words.map((line) => el("li", {}, line)));
  const before = Number(seatCount.value) || 0;
  const counts = variant.players || [2, 3, 4];
  fill(seatCount, counts.map((n) => el("option", { value: n }, `${n} players`)));
  seatCount.value = counts.includes(before) ? before : counts.includes(3) ? 3 : counts[0];
  showSeats();
}

function showSeats() {
  const variant = current();
  const bots = variant?.bots?.length ? variant.bots : ["random", "greedy", "mcts"];
  const wanted = Number(seatCount.value);
  const rows = [...seatsBox.querySelectorAll(".seat-row")];
  // Keep what was typed in the seats that stay.
  rows.slice(wanted).forEach((row) => row.remove());
  for (let seat = rows.length; seat < wanted; seat++) seatsBox.append(seatRow(seat, bots));
}

function seatRow(seat, bots) {
  if (seat === 0) {
    return el("div", { class: "seat-row", "data-seat": 0 },
      el("span", { class: "seat-label" }, "Seat 1 (you)"),
      el("label", { class: "field inline" }, "Your name ",
        el("input", { name: "your-name", maxlength: NAME_MAX, required: true, autocomplete: "nickname", placeholder: "your name" })));
  }
  const nameInput = el("input", { name: `seat-name-${seat}`, maxlength: NAME_MAX, placeholder: "a friend's name" });
  const kind = el("select", { name: `seat-kind-${seat}`, "aria-label": `seat ${seat + 1}: a person or a bot` },
    el("option", { value: "person" }, "a person"),
    bots.map((bot) => el("option", { value: `bot:${bot}` }, `bot: ${bot}`)));
  // A sensible default table: a friend, then bots.
  kind.value = seat === 1 ? "person" : `bot:${bots.includes("greedy") ? "greedy" : bots[0]}`;
  const sync = () => { nameInput.hidden = kind.value !== "person"; };
  kind.addEventListener("change", sync);
  sync();
  return el("div", { class: "seat-row", "data-seat": seat },
    el("span", { class: "seat-label" }, `Seat ${seat + 1}`), kind, nameInput);
}

function collectSeats() {
  const seats = [];
  for (const row of seatsBox.querySelectorAll(".seat-row")) {
    const seat = Number(row.dataset.seat);
    if (seat === 0) {
      seats.push({ name: row.querySelector("input").value.trim() });
      continue;
    }
    const kind = row.querySelector("select").value;
    if (kind.startsWith("bot:")) seats.push({ bot: kind.slice(4) });
    else seats.push({ name: row.querySelector("input").value.trim() || `Player ${seat + 1}` });
  }
  return seats;
}

async function reason(response) {
  const text = await response.text();
  try {
    const data = JSON.parse(text);
    return data.error || data.detail || data.reason || `${response.status} ${response.statusText}`;
  } catch {
    return text.trim().slice(0, 200) || `${response.status} ${response.statusText}`;
  }
}

async function create(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const seats = collectSeats();
  if (!seats[0].name) {
    errorBox.textContent = "Type your name first: the other players see it.";
    form.querySelector("input[name=your-name]").focus();
    return;
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ variant: variantSelect.value, seats, ...clockChoice(),
        rematch_first: document.getElementById("rematch-first")?.value || "rotate",
        hints: document.getElementById("hints")?.checked === true,
        chat: document.getElementById("chat")?.checked !== false }),
    });
    if (response.status !== 201 && !response.ok) throw new Error(await reason(response));
    showLinks(await response.json(), seats);
  } catch (error) {
    errorBox.textContent = `The table was not created: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

function withAdmin(url, admin) {
  // The creator's own link also carries the admin secret (in the fragment, never sent to the server
  // by the browser), so the creator can hand a departed player's seat to a bot.
  return admin ? `${url}&admin=${encodeURIComponent(admin)}` : url;
}

function showLinks(table, seats) {
  const list = document.getElementById("link-list");
  const items = [];
  let own = null;
  for (const seat of table.seats) {
    if (seat.bot) {
      items.push(el("li", { class: "link bot" }, el("span", { class: "who" }, `Seat ${seat.seat + 1}: bot (${seat.bot})`)));
      continue;
    }
    const mine = seat.seat === 0;
    const url = mine ? withAdmin(seat.url, table.admin_secret) : seat.url;
    if (mine) own = url;
    const name = seat.name || seats[seat.seat]?.name || `Player ${seat.seat + 1}`;
    items.push(linkItem(`Seat ${seat.seat + 1}: ${name}${mine ? " (you)" : ""}`, url, `seat-${seat.seat}`));
  }
  items.push(linkItem("Watch (anyone may follow the game)", table.watch_url, "watch"));
  fill(list, items);
  const open = document.getElementById("open-own");
  open.href = own || table.watch_url;
  form.hidden = true;
  document.getElementById("links").hidden = false;
  open.focus();
}

function linkItem(label, url, key) {
  const input = el("input", { type: "text", readonly: true, value: url, class: "link-url", "data-link": key, "aria-label": label });
  const status = el("span", { class: "copied", "aria-live": "polite" });
  const button = el("button", {
    type: "button", class: "button copy", "data-copy": key,
    onclick: async () => {
      const ok = await copyText(url, input);
      status.textContent = ok ? "copied" : "select and copy by hand";
    },
  }, "Copy");
  return el("li", { class: "link" }, el("span", { class: "who" }, label),
    el("span", { class: "link-line" }, input, button, status));
}

variantSelect.addEventListener("change", showVariant);
seatCount.addEventListener("change", showSeats);
form.addEventListener("submit", create);
document.getElementById("another").addEventListener("click", () => {
  document.getElementById("links").hidden = true;
  form.hidden = false;
});
loadVariants();
