// Knowing it is your turn while looking at another tab: the page's title starts with "● Your
// turn", its icon wears an amber dot, and, if the player ticked "Sound when it's my turn", a
// short tone plays when the turn arrives while the page is hidden (a visible page shows it
// already). The tone is made by the Web Audio API: no sound file to fetch. The setting is kept
// in this browser (localStorage), for every table.
import { el } from "./dom.js";

const SOUND_SETTING = "azul.turn-sound";
const TURN_ICON = "/static/favicon-turn.svg";
const TURN_MARK = "● Your turn — ";

let plainIcon = null;
let wasMine = null; // null until the first render: a page opened on its turn plays nothing
let audio = null;

function soundWanted() {
  try {
    return localStorage.getItem(SOUND_SETTING) === "on";
  } catch {
    return false; // storage refused (a private window's settings): no sound
  }
}

function rememberSound(on) {
  try {
    if (on) localStorage.setItem(SOUND_SETTING, "on");
    else localStorage.removeItem(SOUND_SETTING);
  } catch {
    // not kept past this page, but it still applies here
  }
}

/** The audio context, resumed: browsers start one suspended until the person clicks or types. */
function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    audio ??= new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    return null;
  }
  return audio;
}

function chime() {
  const context = audioContext();
  if (!context) return;
  const now = context.currentTime;
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.type = "sine";
  tone.frequency.setValueAtTime(660, now);
  tone.frequency.setValueAtTime(880, now + 0.12);
  volume.gain.setValueAtTime(0.0001, now);
  volume.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
  tone.connect(volume).connect(context.destination);
  tone.start(now);
  tone.stop(now + 0.32);
}

function icon() {
  return document.querySelector("link[rel~='icon']");
}

/** The sound's checkbox, at the end of the move panel (a watcher has no turn: no panel). */
export function installAttention() {
  plainIcon = icon()?.getAttribute("href") ?? null;
  const box = el("input", { type: "checkbox", id: "turn-sound" });
  box.checked = soundWanted();
  box.addEventListener("change", () => {
    rememberSound(box.checked);
    // Ticking it is a click: the moment a browser lets a page make its audio ready.
    if (box.checked) audioContext();
  });
  document.getElementById("play")?.append(
    el("p", { class: "turn-sound" }, el("label", {}, box, " Sound when it's my turn")));
  // A remembered setting needs one click or key on the page before a sound may play.
  const unlock = () => { if (soundWanted() && audio?.state !== "running") audioContext(); };
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);
}

/** Called at the end of every render, with whether this seat is to move now. */
export function afterRender(variant, mine) {
  document.title = `${mine ? TURN_MARK : ""}Azul (${variant})`;
  const link = icon();
  const href = mine ? TURN_ICON : plainIcon;
  if (link && href && link.getAttribute("href") !== href) link.setAttribute("href", href);
  if (mine && wasMine === false && document.hidden && soundWanted()) chime();
  wasMine = mine;
}
