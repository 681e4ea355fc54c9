// The player's own options, kept in this browser (localStorage): a four-colour deck, the
// order of the hand, and a sound or a flashing title when it becomes your turn (both off
// unless chosen: a page should not beep by itself).
import { $, h } from "./dom.js";

const KEY = "shengji:options";
export const DEFAULTS = Object.freeze({ fourColour: false, sort: "trumps-first", sound: false, flash: false });
export const SORTS = {
  "trumps-first": "trumps first, high to low",
  "trumps-last": "trumps last, high to low",
  "low-first": "trumps first, low to high",
};

export const options = { ...DEFAULTS, ...readSaved() };

function readSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = {};
    for (const k of Object.keys(DEFAULTS)) if (typeof saved[k] === typeof DEFAULTS[k]) out[k] = saved[k];
    if (out.sort && !(out.sort in SORTS)) delete out.sort;
    return out;
  } catch (e) {
    return {};
  }
}

function save() { localStorage.setItem(KEY, JSON.stringify(options)); }

// the hand's groups (trumps first, strongest first, as the server sends them) in the
// order the player chose
export function orderGroups(groups) {
  let out = groups.map((g) => ({ ...g }));
  if (options.sort === "low-first") out = out.map((g) => ({ ...g, cards: g.cards.split(" ").reverse().join(" ") }));
  if (options.sort === "trumps-last") {
    const trumps = out.filter((g) => g.suit === "trump");
    out = out.filter((g) => g.suit !== "trump").concat(trumps);
  }
  return out;
}

export function applyColours() {
  document.body.classList.toggle("fourcolour", options.fourColour);
}

// The options panel (#options): onChange() redraws what depends on them.
export function setUpOptions(onChange) {
  const box = $("options");
  const check = (key, label) => {
    const input = h("input", { type: "checkbox", id: "opt-" + key });
    input.checked = options[key];
    input.onchange = () => { options[key] = input.checked; save(); applyColours(); onChange(); };
    return h("label", { class: "opt" }, input, " ", label);
  };
  const sort = h("select", { id: "opt-sort" }, Object.entries(SORTS).map(([k, v]) => h("option", { value: k }, v)));
  sort.value = options.sort;
  sort.onchange = () => { options.sort = sort.value; save(); onChange(); };
  box.append(check("fourColour", "four-colour deck (♣ green, ♦ blue)"),
    h("label", { class: "opt" }, "hand order ", sort),
    check("sound", "a sound on your turn"), check("flash", "flash the title on your turn"));
  applyColours();
}

// ---------------------------------------------------------------- your turn

let flashing = null;
const TITLE = document.title;

// called with each state: `mine` says whether it is this seat's turn now
export function turnSignal(mine, wasMine) {
  if (mine && !wasMine) {
    if (options.sound) beep();
    if (options.flash && document.hidden) startFlash();
  }
  if (!mine) stopFlash();
}

function startFlash() {
  if (flashing) return;
  let on = false;
  flashing = setInterval(() => { on = !on; document.title = on ? "▶ Your turn — 升级" : TITLE; }, 900);
}

function stopFlash() {
  if (!flashing) return;
  clearInterval(flashing);
  flashing = null;
  document.title = TITLE;
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) stopFlash(); });

// a short tone made in the page (no sound file to fetch)
function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const ctx = new Ctx();
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => ctx.close();
  } catch (e) {
    // no audio here: the turn banner is still shown
  }
}
