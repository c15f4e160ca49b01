// The home page's "Turn clock" fieldset: off (the default), a time per move, or a time per
// player for the whole game, and the bot that stands in when a player's time runs out or
// they leave during their turn. `clockChoice()` is the `clock` of the POST /api/tables body.
import { el, fill } from "./dom.js";

const TIMES = {
  move: [[15, "15 seconds"], [30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"]],
  game: [[300, "5 minutes"], [600, "10 minutes"], [900, "15 minutes"], [1800, "30 minutes"], [3600, "1 hour"]],
};
const DEFAULT_TIME = { move: 60, game: 900 };

const mode = document.getElementById("clock-mode");
const seconds = document.getElementById("clock-seconds");
const bot = document.getElementById("clock-bot");
const away = document.getElementById("clock-away");
const details = document.getElementById("clock-details");
const variant = document.getElementById("variant");
let variants = [];

function showMode() {
  const chosen = mode.value;
  details.hidden = chosen === "off";
  if (chosen === "off") return;
  fill(seconds, TIMES[chosen].map(([value, words]) => el("option", { value }, words)));
  seconds.value = String(DEFAULT_TIME[chosen]);
}

function showBots() {
  const found = variants.find((v) => v.name === variant.value);
  const bots = found?.bots?.length ? found.bots : ["random", "greedy"];
  const before = bot.value;
  fill(bot, bots.map((name) => el("option", { value: name }, name)));
  bot.value = bots.includes(before) ? before : bots.includes("greedy") ? "greedy" : bots[0];
}

/** {clock: ...} for the table's creation body; {} when the clock is off (the server's default). */
export function clockChoice() {
  if (!mode || mode.value === "off") return {};
  return { clock: { mode: mode.value, seconds: Number(seconds.value), bot: bot.value, away: Number(away.value) } };
}

async function start() {
  if (!mode) return;
  mode.addEventListener("change", showMode);
  variant.addEventListener("change", showBots);
  showMode();
  try {
    const response = await fetch("/api/variants", { headers: { Accept: "application/json" } });
    if (response.ok) variants = await response.json();
  } catch {
    // the default bots will do
  }
  showBots();
}

start();
