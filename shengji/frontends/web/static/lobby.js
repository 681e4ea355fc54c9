// The lobby: variants to choose from, creating, joining and watching rooms, what each
// refusal of the lobby means, the waiting room until the game starts.
import { $, h, fill } from "./dom.js";
import { glyphText } from "./cards.js";
import { app } from "./state.js";
import { connectThen, joinRoom, normalCode, watchRoom } from "./connection.js";
// The house-rules panel draws its fields into the lobby and adds what they say to the
// room's creation request; a room's rules show before sitting down and during play.
import { mountHouseRules, houseRules, showRuleErrors } from "./houserules.js";
import { previewRoomRules, followRules } from "./roomrules.js";

export async function loadVariants() {
  const r = await fetch("/api/variants");
  const data = await r.json();
  const sel = $("variant");
  app.seatCounts = data.seats || {};
  app.descriptions = data.descriptions || {};
  for (const v of data.variants) {
    const o = h("option", { value: v }, v.split("/").pop().replace(/\.ya?ml$/, ""));
    if (v === data.default) o.selected = true;
    sel.appendChild(o);
  }
  sel.onchange = showSeatCounts;
  showSeatCounts();
}

// a variant playable at several table sizes (finding friends: 5-12) offers a choice
export function showSeatCounts() {
  $("variantdesc").textContent = app.descriptions[$("variant").value] || "";
  const counts = app.seatCounts[$("variant").value] || [];
  $("seatslabel").hidden = counts.length < 2;
  fill($("seats"), counts.map((n) => h("option", { value: String(n) }, String(n))));
}

// what the lobby was doing when a refusal came: its heading says so
let doing = "join";
const DOING = { create: "Could not create the room: ", join: "Could not join: ", watch: "Could not watch: ",
  replay: "Could not open the replay: " };

export async function createRoom() {
  doing = "create";
  // no seed: the server draws a secret one (a known seed would tell every hand)
  const seedText = $("seed").value.trim();
  const body = { variant: $("variant").value, turn_timer: Number($("timer").value) };
  if (!$("seatslabel").hidden) body.players = Number($("seats").value);
  Object.assign(body, houseRules());
  if (seedText) body.seed = /^-?\d+$/.test(seedText) ? parseInt(seedText, 10) : seedText;
  let r, data;
  try {
    r = await fetch("/api/rooms", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    data = await r.json();
  } catch (e) {
    showLobbyError({ code: "offline", message: "the server did not answer" });
    return;
  }
  if (!r.ok) { showLobbyError(data); if (data.errors) showRuleErrors(data.errors); return; }
  connectThen(data.room, () => joinRoom(data.room, $("name").value.trim() || "you"));
}

export function typedCode() { return normalCode($("joincode").value); }

export function joinTyped() {
  doing = "join";
  const code = typedCode();
  if (code.length !== 8) {
    showLobbyError({ code: "no_such_room", message: "" });
    return;
  }
  connectThen(code, () => joinRoom(code, $("name").value.trim()));
}

export function watchTyped() {
  doing = "watch";
  const code = typedCode();
  if (code.length !== 8) { showLobbyError({ code: "no_such_room", message: "" }); return; }
  connectThen(code, () => watchRoom(code));
}

// what a person can do about each refusal of the lobby
export const LOBBY_ERRORS = {
  no_such_room: "There is no room with that code. Room codes have 8 letters and digits — check it with whoever shared it.",
  room_full: "That room is already playing and every seat is taken. You can watch it instead.",
  seat_taken: "That seat is taken.",
  server_full: "The server is full right now. Try again in a few minutes.",
  too_many_rooms: "You have several unfinished rooms open already. Finish or leave one first.",
  rate_limited: "Too many attempts from your address. Wait a minute, then try again.",
  too_many_connections: "Too many connections from your address. Close some tabs and try again.",
  bad_token: "Your saved seat in this room is no longer valid. Join again to take an open seat.",
  bad_variant: "This server does not offer that variant.",
  join_timeout: "The connection waited too long without joining. Try again.",
  offline: "The server did not answer. Is it running?",
  game_over: "That game is over. You can watch its end or open its replay.",
  room_elsewhere: "That room is being moved between the server's processes (a restart). Try again in a moment.",
};

// `what`: what was being done, when it is not the lobby's last create, join or watch
export function showLobbyError(msg, what = doing) {
  const el = $("lobbyerror");
  el.hidden = false;
  el.dataset.code = msg.code || "";
  const text = LOBBY_ERRORS[msg.code];
  fill(el, h("b", {}, DOING[what]), text || glyphText(msg.message || msg.code));
  if (msg.code === "room_full" || msg.code === "game_over") {
    el.append(" ", h("button", { onclick: watchTyped, class: "inline" }, "Watch this room"));
  }
}

export function hideLobbyError() { $("lobbyerror").hidden = true; }

export function showWaiting(msg) {
  $("waiting").hidden = false;
  $("game").hidden = true;
  $("waitcode").textContent = msg.room;
  fill($("waitseats"), msg.seats.map((s) => h("li", {}, `seat ${s.seat}: `,
    s.kind === "open" ? "open (a bot if still empty)" :
      s.name + (s.seat === app.seat ? " (you)" : "") + (s.connected ? "" : " — away"))));
  $("start").hidden = app.watching;
  $("waitnote").textContent = app.watching ? "You are watching: the game starts when a player starts it."
    : "Share the code; empty seats are filled by bots when you start.";
}

// the server's welcome: our seat (and its token, kept for reconnecting) in a room
export function onWelcome(msg) {
  app.room = msg.room; app.seat = msg.seat; app.token = msg.token; app.watching = !!msg.watching;
  if (msg.token) localStorage.setItem("shengji:" + msg.room, JSON.stringify({ seat: msg.seat, token: msg.token }));
  history.replaceState(null, "", "?room=" + msg.room + (app.watching ? "&watch=1" : ""));
  $("roominfo").hidden = false;
  $("roomcode").textContent = msg.room;
  // a variant file offered by path shows as its file name
  $("variantname").textContent = msg.variant.split("/").pop().replace(/\.ya?ml$/, "");
  $("seatname").textContent = app.watching ? "watching" : `you · seat ${msg.seat}`;
  followRules(msg.room, msg.rules_fingerprint);  // the table's rules, openable during play
  $("lobby").hidden = true;
  hideLobbyError();
}

export function setUpLobby() {
  $("create").onclick = createRoom;
  $("join").onclick = joinTyped;
  $("watch").onclick = watchTyped;
  // refused rules, fixed since: their refusal no longer stands
  mountHouseRules($("houserules"), () => { if ($("lobbyerror").dataset.code === "bad_rules") hideLobbyError(); });
  // before sitting down: the rules of the room whose code is typed
  $("joincode").addEventListener("input", () => previewRoomRules(typedCode()));
  if ($("joincode").value) previewRoomRules(typedCode());
  loadVariants();
}
