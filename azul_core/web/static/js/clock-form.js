// The home page's "Turn clock" fieldset: off (the default), a time per move, or a time per
// player for the whole game, and the bot that stands in when a player's time runs out or
// they leave during their turn. `clockChoice()` is the `clock` of the POST /api/tables body.
// The times come in seconds, minutes, hours and days (a slow game among friends: up to 14 days
// a move, 60 days a game, the server's bounds).
import { el, fill } from "./dom.js";

const MINUTE = 60, HOUR = 3600, DAY = 86400;
const UNITS = [["seconds", 1], ["minutes", MINUTE], ["hours", HOUR], ["days", DAY]];
const TIMES = {
  move: [15, 30, 45, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE,
    HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, 5 * DAY, 7 * DAY, 14 * DAY],
  game: [5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 12 * HOUR,
    DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 60 * DAY],
};
const DEFAULT_TIME = { move: 60, game: 900 };
// From this long a turn, the game is a slow one: its players close the page between moves, so
// the stand-in plays only when the time runs out, not when a player has left the page.
const SLOW = HOUR;

const mode = document.getElementById("clock-mode");
const seconds = document.getElementById("clock-seconds");
const bot = document.getElementById("clock-bot");
const away = document.getElementById("clock-away");
const details = document.getElementById("clock-details");
const variant = document.getElementById("variant");
let variants = [];

/** 45 -> "45 seconds", 7200 -> "2 hours", 86400 -> "1 day" (a time of the list: one unit). */
export function durationWords(total) {
  const [unit, size] = [...UNITS].reverse().find(([, size]) => total >= size && total % size === 0) || UNITS[0];
  const count = total / size;
  return `${count} ${count === 1 ? unit.slice(0, -1) : unit}`;
}

function showMode() {
  const chosen = mode.value;
  details.hidden = chosen === "off";
  if (chosen === "off") return;
  // One group of times per unit (seconds, minutes, hours, days).
  const groups = UNITS.map(([unit, size], index) => {
    const next = UNITS[index + 1]?.[1] ?? Infinity;
    const times = TIMES[chosen].filter((time) => time >= size && time < next);
    return times.length ? el("optgroup", { label: unit }, times.map((time) => el("option", { value: time }, durationWords(time)))) : null;
  });
  fill(seconds, groups);
  seconds.value = String(DEFAULT_TIME[chosen]);
  showAway();
}

let awayChosenForSlowGame = false;

/** A slow game's stand-in waits for the time to run out; a quick one's for a player who left. */
function showAway() {
  const slow = Number(seconds.value) >= SLOW;
  if (slow && away.value !== "off") {
    away.value = "off";
    awayChosenForSlowGame = true;
  } else if (!slow && awayChosenForSlowGame) {
    away.value = "60";
    awayChosenForSlowGame = false;
  }
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
  const awayTime = away.value === "off" ? "off" : Number(away.value);
  return { clock: { mode: mode.value, seconds: Number(seconds.value), bot: bot.value, away: awayTime } };
}

async function start() {
  if (!mode) return;
  mode.addEventListener("change", showMode);
  seconds.addEventListener("change", showAway);
  away.addEventListener("change", () => { awayChosenForSlowGame = false; });
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
