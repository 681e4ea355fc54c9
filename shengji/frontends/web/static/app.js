// shengji web client: speaks the protocol (docs/protocol.md) over one websocket.
// No build step, no framework: the server sends the whole view of our seat each time,
// and render() draws it again. The table is laid out for any number of seats (2-12).
"use strict";

const PROTOCOL = 2;
const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_NAME = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };
const RED = new Set(["H", "D"]);
const RANK_ORDER = "2 3 4 5 6 7 8 9 10 J Q K A".split(" ");
const POINTS = { "5": 5, "10": 10, K: 10 };
const $ = (id) => document.getElementById(id);

// Every piece of data (names, messages, cards) reaches the page as text nodes through
// h(): never as markup. The server also sends a Content-Security-Policy without inline
// scripts, so even a slip here would not run a script.
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el[k] = v;
    else el.setAttribute(k, v);
  }
  el.append(frag(children));
  return el;
}

function frag(...children) {
  const f = document.createDocumentFragment();
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    f.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return f;
}

function fill(el, ...children) { el.replaceChildren(frag(children)); return el; }

const app = (window.shengji = {
  ws: null, room: null, seat: null, token: null, watching: false,
  state: null, legal: null, selected: new Set(),
  trick: [],          // plays of the trick being played, from the events
  lastTrick: null,    // {plays: [[seat, cards]], winner, points} of the last completed trick
  hold: null,         // after a scored deal: {scored, trick} shown until "Next deal"
  throwNote: null,    // the last failed throw of this trick, explained
  lastSent: null,     // the last action we sent (to explain a refusal)
  replay: null, replayStep: 0, publicReplay: null,
});

// ------------------------------------------------------------------ cards

function cardLabel(tok) {
  if (tok === "BJ") return { rank: "JOKER", suit: "BJ", red: true, joker: true };
  if (tok === "LJ") return { rank: "JOKER", suit: "LJ", red: false, joker: true };
  return { rank: tok.slice(1), suit: SUIT[tok[0]], red: RED.has(tok[0]), joker: false };
}

function cardEl(tok, opts = {}) {
  const c = cardLabel(tok);
  const el = h(opts.button ? "button" : "div", {
    class: "card" + (c.red ? " red" : "") + (c.joker ? " joker" : "") + (opts.trump ? " trump" : "") +
      (opts.small ? " small" : ""),
    dataset: { card: tok }, title: glyph(tok), type: opts.button ? "button" : null,
  });
  if (c.joker) {
    el.append(h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, tok === "BJ" ? "★" : "☆"),
      h("span", { class: "jname" }, tok === "BJ" ? "big" : "little"));
  } else {
    el.append(h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, c.suit));
  }
  return el;
}

function tokens(text) { return (text || "").split(" ").filter(Boolean); }

function cardsRow(text, small = true) {
  return h("div", { class: "cards" }, tokens(text).map((t) => cardEl(t, { small })));
}

function glyph(t) {
  const c = cardLabel(t);
  return c.joker ? (t === "BJ" ? "★big joker" : "☆little joker") : c.suit + c.rank;
}

// card tokens as glyph text ("♥A ♥A"), one span per card
function textCards(text) {
  const out = [];
  for (const t of tokens(text)) {
    if (out.length) out.push(" ");
    out.push(h("span", { class: "tok" + (cardLabel(t).red ? " red" : "") }, glyph(t)));
  }
  return frag(out);
}

// a server sentence with its card tokens (HA, C10, BJ) turned into glyphs
const CARD_TOKEN = /\b(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)\b/g;
function glyphText(text) {
  const out = [];
  let at = 0;
  for (const m of String(text).matchAll(CARD_TOKEN)) {
    out.push(text.slice(at, m.index), textCards(m[0]));
    at = m.index + m[0].length;
  }
  out.push(String(text).slice(at));
  return frag(out);
}

function cardPoints(text) {
  return tokens(text).reduce((n, t) => n + (POINTS[t.slice(1)] || 0), 0);
}

// ------------------------------------------------------------------ connection

function connect(onOpen) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  app.ws = ws;
  ws.onopen = () => { $("conn").textContent = "connected"; $("conn").className = "conn on"; onOpen(); };
  ws.onclose = () => {
    $("conn").textContent = "offline — reconnecting…"; $("conn").className = "conn";
    if (app.token) setTimeout(() => connect(() => joinRoom(app.room, null, app.token)), 1500);
    else if (app.watching) setTimeout(() => connect(() => watchRoom(app.room)), 1500);
  };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}

function connectThen(fn) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) fn(); else connect(fn);
}

function send(msg) { app.ws.send(JSON.stringify(msg)); }

function sendAction(action) {
  hideError();
  app.lastSent = action;
  send({ type: "action", token: app.token, action });
}

function joinRoom(code, name, token) {
  const msg = { type: "join", protocol: PROTOCOL, room: code };
  if (token) msg.token = token; else if (name) msg.name = name;
  send(msg);
}

function watchRoom(code) { send({ type: "watch", protocol: PROTOCOL, room: code }); }

function handle(msg) {
  if (msg.type === "welcome") {
    app.room = msg.room; app.seat = msg.seat; app.token = msg.token; app.watching = !!msg.watching;
    if (msg.token) localStorage.setItem("shengji:" + msg.room, JSON.stringify({ seat: msg.seat, token: msg.token }));
    history.replaceState(null, "", "?room=" + msg.room + (app.watching ? "&watch=1" : ""));
    $("roominfo").hidden = false;
    $("roomcode").textContent = msg.room;
    // a variant file offered by path shows as its file name
    $("variantname").textContent = msg.variant.split("/").pop().replace(/\.ya?ml$/, "");
    $("seatname").textContent = app.watching ? "watching" : "seat " + msg.seat;
    $("lobby").hidden = true;
    hideLobbyError();
  } else if (msg.type === "room") {
    showWaiting(msg);
  } else if (msg.type === "state") {
    onState(msg);
  } else if (msg.type === "error") {
    if (msg.code === "bad_token" && !app.state) {
      localStorage.removeItem("shengji:" + app.room);
      app.token = null;
    }
    if (!$("lobby").hidden) showLobbyError(msg); else showError(msg);
  } else if (msg.type === "replay") {
    app.replay = msg; app.replayStep = 0; renderReplay();
  } else if (msg.type === "advice") {
    showAdvice(msg);
  }
}

// ------------------------------------------------------------------ lobby

async function loadVariants() {
  const r = await fetch("/api/variants");
  const data = await r.json();
  const sel = $("variant");
  app.seatCounts = data.seats || {};
  for (const v of data.variants) {
    const o = h("option", { value: v }, v.split("/").pop().replace(/\.ya?ml$/, ""));
    if (v === data.default) o.selected = true;
    sel.appendChild(o);
  }
  sel.onchange = showSeatCounts;
  showSeatCounts();
}

// a variant playable at several table sizes (finding friends: 5-12) offers a choice
function showSeatCounts() {
  const counts = app.seatCounts[$("variant").value] || [];
  $("seatslabel").hidden = counts.length < 2;
  fill($("seats"), counts.map((n) => h("option", { value: String(n) }, String(n))));
}

async function createRoom() {
  // no seed: the server draws a secret one (a known seed would tell every hand)
  const seedText = $("seed").value.trim();
  const body = { variant: $("variant").value, turn_timer: Number($("timer").value) };
  if (!$("seatslabel").hidden) body.players = Number($("seats").value);
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
  if (!r.ok) { showLobbyError(data); return; }
  connectThen(() => joinRoom(data.room, $("name").value.trim() || "you"));
}

function typedCode() { return $("joincode").value.replace(/[^0-9a-z]/gi, "").toUpperCase(); }

function joinTyped() {
  const code = typedCode();
  if (code.length !== 8) {
    showLobbyError({ code: "no_such_room", message: "" });
    return;
  }
  connectThen(() => joinRoom(code, $("name").value.trim()));
}

function watchTyped() {
  const code = typedCode();
  if (code.length !== 8) { showLobbyError({ code: "no_such_room", message: "" }); return; }
  connectThen(() => watchRoom(code));
}

// what a person can do about each refusal of the lobby
const LOBBY_ERRORS = {
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
};

function showLobbyError(msg) {
  const el = $("lobbyerror");
  el.hidden = false;
  const text = LOBBY_ERRORS[msg.code];
  fill(el, h("b", {}, "Could not join: "), text || glyphText(msg.message || msg.code));
  if (msg.code === "room_full" || msg.code === "game_over") {
    el.append(" ", h("button", { onclick: watchTyped, class: "inline" }, "Watch this room"));
  }
}

function hideLobbyError() { $("lobbyerror").hidden = true; }

function showWaiting(msg) {
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

// ------------------------------------------------------------------ game state

function onState(msg) {
  const first = !app.state;
  app.prevView = app.state ? app.state.view : null;  // the view before this change
  app.state = msg;
  app.legal = msg.legal;
  $("advice").hidden = true;
  $("waiting").hidden = true;
  $("game").hidden = false;
  for (const e of msg.events || []) onEvent(e);
  // reconnecting while the bots wait for our "next": show the button even without a result
  if (!app.hold && !app.watching && (msg.waiting || []).includes(app.seat)) app.hold = { scored: null, trick: null };
  if (!msg.legal) app.selected.clear();
  // the selection is by place in the hand: once cards leave it (a burial), start afresh
  if (app.prevView && app.prevView.hand !== msg.view.hand) app.selected.clear();
  const handNow = handTokens(msg.view);
  for (const i of [...app.selected]) if (i >= handNow.length) app.selected.delete(i);
  if (first) app.selected.clear();
  render();
}

function onEvent(e) {
  switch (e.type) {
    case "DealStarted": app.trick = []; app.throwNote = null; break;
    case "Played":
      if (e.lead) { app.trick = []; }
      app.trick.push([e.seat, e.cards]);
      break;
    case "ThrowFailed": app.throwNote = e; break;
    case "TrickWon":
      app.lastTrick = { plays: app.trick, winner: e.seat, points: e.points, trick: e.trick };
      app.trick = [];
      app.throwNote = null;
      break;
    case "DealScored":
      // the last trick and the result stay on the table until "Next deal"
      app.hold = { scored: e, trick: app.lastTrick, view: heldView(e) };
      break;
    default: break;
  }
  logEvent(e);
}

// the table as the scored deal left it: its trump and dealer, the final points, no cards
function heldView(e) {
  const v = app.prevView;
  if (!v || v.deal !== e.deal) return null;
  return { ...v, trick_points: e.attacker_points, hand_sizes: v.hand_sizes.map(() => 0),
    to_act: null, points_out: v.points_total, trick: [], phase: "over" };
}

// the view the table shows: the held deal's, or the current one
function shownView(st) { return (app.hold && app.hold.view) || st.view; }

function handTokens(view) {
  const out = [];
  for (const g of view.hand_groups) for (const t of tokens(g.cards)) out.push({ tok: t, trump: g.suit === "trump" });
  return out;
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "–";
  if (seat === app.seat) return "you";
  const s = app.state && app.state.seats ? app.state.seats[seat] : null;
  return s ? s.name : "seat " + seat;
}

// "your" / "ann's"
function whose(seat) { return seat === app.seat ? "your" : `${seatName(seat)}'s`; }

// "you declare" / "ann declares"
function says(seat, verb) { return `${seatName(seat)} ${seat === app.seat ? verb : verb.replace(/y$/, "ie") + "s"}`; }

function viewBase() { return app.seat === null ? 0 : app.seat; }

// Fixed partnerships: two team ids. Finding friends: sides known only as friends appear.
function fixedTeams(v) { return new Set(v.teams).size === 2 && v.teams.length >= 4; }

function sameSide(v, a, b) {
  if (a === b) return true;
  if (fixedTeams(v) && (v.sides_known || !v.side || !v.side.length)) return v.teams[a] === v.teams[b];
  if (!v.side || !v.side.length) return null;
  const inA = v.side.includes(a), inB = v.side.includes(b);
  if (v.sides_known) return inA === inB;
  return inA && inB ? true : null;
}

// ------------------------------------------------------------------ the table layout

// Seats around the table for any count: the other seats in play order go up the right
// side, right to left along the top, down the left side (play passes to the right).
// Returns {right: [rel...] bottom-up, top: [rel...] right-to-left, left: [rel...] top-down}.
function seatSlots(n) {
  const m = n - 1;
  const side = m === 2 ? 1 : Math.floor(m / 3);
  const top = m - 2 * side;
  const rel = Array.from({ length: m }, (_, i) => i + 1);
  return { right: rel.slice(0, side), top: rel.slice(side, side + top), left: rel.slice(side + top) };
}

function buildFelt(n) {
  const felt = $("felt");
  if (felt.dataset.n === String(n)) return;
  felt.dataset.n = String(n);
  felt.className = n > 6 ? "many" : n > 4 ? "several" : "";
  const slots = seatSlots(n);
  const spot = (rel) => h("div", { class: "spot", dataset: { rel: String(rel) } });
  fill(felt,
    h("div", { class: "row top" }, slots.top.slice().reverse().map(spot)),
    h("div", { class: "col left" }, slots.left.map(spot)),
    h("div", { id: "center" }),
    h("div", { class: "col right" }, slots.right.slice().reverse().map(spot)),
    h("div", { class: "row bottom" }, spot(0)));
}

// ------------------------------------------------------------------ rendering

function render() {
  const st = app.state, v = st.view;
  buildFelt(v.players);
  renderInfo(st);
  renderSpots(st);
  renderCenter(st);
  renderTurn(st);
  renderNotice(st);
  renderHand(st);
  renderActions(st);
  renderResult(st);
  renderTools(st);
}

function renderInfo(st) {
  const v = shownView(st);
  $("level").textContent = v.level_rank;
  fill($("trump"), v.trump_suit === null ? h("i", {}, "dealing…") :
    v.trump_suit === "none" ? "no trump" :
    h("span", { class: "bigsuit" + (RED.has(v.trump_suit) ? " red" : "") }, `${SUIT[v.trump_suit]} ${SUIT_NAME[v.trump_suit]}`));
  $("dealer").textContent = v.dealer === null ? "first to declare" : seatName(v.dealer);
  $("points").textContent = v.trick_points;
  const left = v.points_total - v.points_out;
  $("pointsleft").textContent = Number.isFinite(left) ? left : "–";
  let side = "–";
  if (app.seat === null) side = "watching";
  else if (v.dealer !== null && v.dealer !== undefined) {
    const mine = sameSide(v, app.seat, v.dealer);
    side = mine === true ? "dealers (defending)" : mine === false ? "attackers" : "not known yet";
  }
  $("side").textContent = side;
  $("levels").textContent = levelsText(v);
}

// "your team 5 · opponents 3" with fixed teams; each seat's level otherwise
function levelsText(v) {
  if (fixedTeams(v) && app.seat !== null) {
    const other = v.teams.findIndex((t) => t !== v.teams[app.seat]);
    return `your team ${v.level_ranks[app.seat]} · opponents ${v.level_ranks[other]}`;
  }
  if (fixedTeams(v)) {
    const other = v.teams.findIndex((t) => t !== v.teams[0]);
    return `${seatName(0)}'s team ${v.level_ranks[0]} · ${seatName(other)}'s team ${v.level_ranks[other]}`;
  }
  // every seat has its own level: shown by its name on the table
  return app.seat === null ? "by each seat" : `you ${v.level_ranks[app.seat]}`;
}

function renderSpots(st) {
  const v = shownView(st), n = v.players, base = viewBase();
  // the trick on the table: the held one after a deal, the one being played, or the
  // last completed one (faded) before the next lead
  let trick = v.trick, faded = false, winner = null;
  if (app.hold) {
    trick = app.hold.trick ? app.hold.trick.plays : [];
    winner = app.hold.trick ? app.hold.trick.winner : null;
  } else if (!trick.length && v.tricks.length && v.phase === "play") {
    trick = v.tricks[v.tricks.length - 1]; faded = true;
    winner = app.lastTrick ? app.lastTrick.winner : null;
  }
  const played = {};
  for (const [s, c] of trick) played[s] = c;
  for (const spot of document.querySelectorAll("#felt .spot")) {
    const seat = (base + Number(spot.dataset.rel)) % n;
    const info = st.seats ? st.seats[seat] : null;
    const side = app.seat === null ? null : sameSide(v, app.seat, seat);
    spot.dataset.seat = String(seat);
    spot.classList.toggle("active", !app.hold && v.to_act === seat);
    spot.classList.toggle("partner", seat !== app.seat && side === true);
    spot.classList.toggle("winner", winner === seat);
    const badges = [];
    if (v.dealer === seat) badges.push(h("span", { class: "badge" }, "dealer"));
    if (seat !== app.seat && side === true) badges.push(h("span", { class: "badge partner" }, fixedTeams(v) ? "your team" : "your side"));
    if (info && info.standin) badges.push(h("span", { class: "badge away" }, "away · bot plays"));
    else if (info && info.kind === "human" && !info.connected) badges.push(h("span", { class: "badge away" }, "away"));
    else if (info && info.kind === "bot") badges.push(h("span", { class: "badge bot" }, "bot"));
    if (app.state.waiting && app.state.waiting.includes(seat)) badges.push(h("span", { class: "badge wait" }, "reading the result"));
    const lines = [h("b", { class: "name" }, seatName(seat)), badges,
      h("span", { class: "count" }, `${v.hand_sizes[seat]} cards`)];
    if (!fixedTeams(v)) lines.push(h("span", { class: "count" }, `level ${v.level_ranks[seat]}`));
    fill(spot, h("div", { class: "who" }, lines),
      played[seat] ? cardsRow(played[seat]) : h("div", { class: "cards empty" }));
    if (faded && played[seat]) spot.lastChild.classList.add("faded");
  }
}

function renderCenter(st) {
  const v = st.view, c = $("center");
  const box = (...kids) => h("div", { class: "dealing" }, kids);
  if (app.hold && app.hold.scored) {
    const t = app.hold.trick;
    fill(c, box(`Deal ${app.hold.scored.deal + 1} is over`,
      t ? h("small", {}, `last trick: ${seatName(t.winner)} won ${t.points} points`) : null));
  } else if (app.hold) {
    fill(c, box("The deal is over"));
  } else if (v.phase === "deal") {
    const bids = v.bids.length ? v.bids.map((b) => h("div", {}, `${seatName(b.seat)}: `, textCards(b.cards)))
      : "no declaration yet";
    fill(c, box(`Dealing — ${v.to_deal} cards to go`, h("small", {}, bids)));
  } else if (v.phase === "bury") {
    fill(c, box(`${v.dealer === app.seat ? "You bury" : seatName(v.dealer) + " buries"} ${v.kitty_size} cards`));
  } else if (st.over) {
    fill(c, box(gameOverText(st)));
  } else if (!v.trick.length && v.tricks.length && app.lastTrick) {
    fill(c, box(h("small", {}, `trick ${app.lastTrick.trick + 1}: ${says(app.lastTrick.winner, "win")} ${app.lastTrick.points} points`)));
  } else {
    fill(c, box(h("small", {}, `trick ${v.trick_number + 1}`)));
  }
}

function gameOverText(st) {
  if (st.winner === null || st.winner === undefined) return "Game over";
  const v = st.view;
  if (app.seat !== null) return v.teams[app.seat] === st.winner ? "Game over — your team wins!" : "Game over — the opponents win";
  return "Game over";
}

function renderTurn(st) {
  const t = $("turn"), legal = st.legal;
  const mine = !!legal && !app.hold;
  document.body.classList.toggle("myturn", mine);
  if (app.hold) {
    t.className = "turn";
    t.textContent = st.over ? "The game is over." : "Deal over — read the result, then press Next deal.";
    return;
  }
  if (!mine) {
    t.className = "turn";
    t.textContent = st.over ? "The game is over." : st.view.to_act === null ? "" :
      app.seat === null ? `${seatName(st.view.to_act)} to play…` : `Waiting for ${seatName(st.view.to_act)}…`;
    return;
  }
  t.className = "turn mine";
  const what = {
    declare: "declare trump, or pass",
    takeback: "keep your declaration, or take it back",
    bury: `tap ${legal.count} cards to bury`,
    lead: "lead: tap cards, then Lead",
    follow: `follow with ${legal.count} card${legal.count > 1 ? "s" : ""}: tap them, then Play`,
    choose: "choose what the thrower must play",
  }[legal.kind] || legal.kind;
  t.textContent = "Your turn — " + what;
}

// a failed throw, explained when it happens: the part that is beaten, by whom, with
// what, and the penalty
function renderNotice(st) {
  const el = $("notice"), e = app.throwNote;
  if (!e || app.hold) { el.hidden = true; return; }
  el.hidden = false;
  const parts = [h("b", {}, "Throw failed: "), `${says(e.seat, "try")} to throw `, textCards(e.attempted), ". "];
  if (e.blocker !== undefined && e.beaten) {
    parts.push(textCards(e.beaten), ` is beaten by ${whose(e.blocker)} `, textCards(e.beaten_by), ". ");
  }
  if (e.options.length === 1) parts.push(`${e.seat === app.seat ? "You play" : seatName(e.seat) + " plays"} `, textCards(e.options[0]), " instead.");
  else parts.push(`${seatName(e.chooser)} chooses what ${e.seat === app.seat ? "you" : seatName(e.seat)} must play.`);
  if (e.penalty) parts.push(` Penalty: ${e.penalty} points to the other side.`);
  fill(el, parts);
}

function renderHand(st) {
  const hand = $("hand");
  hand.replaceChildren();
  if (app.seat === null) {
    hand.append(h("div", { class: "note" }, "You are watching: no hand is shown."));
    return;
  }
  if (app.hold && !st.over) {
    hand.append(h("div", { class: "note" }, "Your cards for the next deal appear when you press Next deal."));
    return;
  }
  const toks = handTokens(st.view);
  let group = null, groupEl = null;
  toks.forEach((c, i) => {
    const g = c.trump ? "trump" : c.tok[0];
    if (g !== group) {
      group = g;
      groupEl = h("div", { class: "group" + (c.trump ? " trumpgroup" : "") });
      hand.appendChild(groupEl);
    }
    const el = cardEl(c.tok, { button: true, trump: c.trump });
    el.dataset.i = i;
    if (app.selected.has(i)) el.classList.add("selected");
    el.onclick = () => {
      if (app.selected.has(i)) app.selected.delete(i); else app.selected.add(i);
      el.classList.toggle("selected");
      renderActions(app.state);
    };
    groupEl.appendChild(el);
  });
  if (st.view.kitty) hand.append(h("div", { class: "note" }, "You took the kitty: ", textCards(st.view.kitty)));
}

function selectedCards() {
  const toks = handTokens(app.state.view);
  return [...app.selected].sort((a, b) => a - b).map((i) => toks[i].tok).join(" ");
}

function button(label, onClick, cls = "") {
  return h("button", { class: cls, onclick: onClick, type: "button" }, label);
}

function renderActions(st) {
  const box = $("actions"), legal = st.legal;
  box.replaceChildren();
  if (!legal || app.hold) return;
  const n = app.selected.size;
  if (legal.kind === "declare" || legal.kind === "takeback") {
    for (const a of legal.actions) {
      if (a.type === "Pass") box.appendChild(button(legal.kind === "takeback" ? "Keep it" : "Pass", () => sendAction({ type: "Pass" }), "pass"));
      else if (a.type === "TakeBack") box.appendChild(button("Take it back", () => sendAction({ type: "TakeBack" }), "pass"));
      else box.appendChild(button(["Declare ", textCards(a.cards)], () => sendAction(a), "declare"));
    }
  } else if (legal.kind === "bury") {
    const b = button(`Bury ${n}/${legal.count}`, () => sendAction({ type: "Bury", cards: selectedCards() }), "primary");
    b.id = "play";
    b.disabled = n !== legal.count;
    box.appendChild(b);
  } else if (legal.kind === "call") {
    // finding friends: pick `count` of the calls allowed ("1 HA" = the first ♥A played)
    app.calls = app.calls || new Set();
    for (const a of legal.actions) {
      const c = a.calls[0];
      const b = button("", () => { app.calls.has(c) ? app.calls.delete(c) : app.calls.add(c); render(); },
        app.calls.has(c) ? "declare selected" : "declare");
      b.setAttribute("aria-pressed", String(app.calls.has(c)));
      const [ord, card] = c.split(" ");
      fill(b, `${ord}. `, textCards(card));
      box.appendChild(b);
    }
    const b = button(`Call ${app.calls.size}/${legal.count}`,
      () => { const calls = [...app.calls]; app.calls.clear(); sendAction({ type: "CallFriends", calls }); }, "primary");
    b.id = "play";
    b.disabled = app.calls.size !== legal.count;
    box.appendChild(b);
  } else if (legal.kind === "choose") {
    st.view.forced_options.forEach((o, i) => {
      box.appendChild(button(["Force ", textCards(o)], () => sendAction({ type: "ChooseForced", option: i }), "declare"));
    });
  } else if (legal.kind === "lead" || legal.kind === "follow") {
    const b = button(legal.kind === "lead" ? "Lead" : "Play", () => sendAction({ type: "Play", cards: selectedCards() }), "primary");
    b.id = "play";
    b.disabled = n === 0;
    box.appendChild(b);
    box.appendChild(button("Hint", hint));
  } else {
    // an action kind this page does not know yet: offer what the server lists
    for (const a of legal.actions) {
      box.appendChild(button([a.type, a.cards ? " " : "", a.cards ? textCards(a.cards) : ""], () => sendAction(a), "declare"));
    }
  }
  if (legal.kind === "bury" || legal.kind === "lead" || legal.kind === "follow") {
    box.appendChild(button("Clear", () => { app.selected.clear(); render(); }));
  }
}

// ask the server for advice: the room's bot, seeing only this seat's state
function hint() {
  if (!app.legal) return;
  send({ type: "hint", token: app.token });
}

// select the advised cards and say why
function showAdvice(msg) {
  const a = msg.action;
  if (a.cards && app.legal) {
    const toks = handTokens(app.state.view);
    app.selected.clear();
    for (const w of a.cards.split(" ")) {
      const i = toks.findIndex((c, j) => c.tok === w && !app.selected.has(j));
      if (i >= 0) app.selected.add(i);
    }
  }
  render();
  const el = $("advice");
  fill(el, "Hint: ", a.cards ? textCards(a.cards) : a.type, msg.reason ? " — " + msg.reason : "");
  el.hidden = false;
}

// ------------------------------------------------------------------ deal result

function renderResult(st) {
  const box = $("result"), e = app.hold && app.hold.scored;
  if (!app.hold) { box.hidden = true; return; }
  box.hidden = false;
  const parts = [];
  if (e) {
    const v = shownView(st);
    // the dealer's side as the deal ended (friends found by then included)
    const dealerSide = e.side ? e.side.includes(viewBase()) : sameSide(v, viewBase(), e.dealer);
    const rose = (e.rising || []).includes(app.seat);
    let who;
    if (app.seat === null) who = `${(e.rising || []).map(seatName).join(", ") || "nobody"} rise${(e.rising || []).length === 1 ? "s" : ""}`;
    else if (fixedTeams(v)) who = rose ? "your team rises" : "the opponents rise";
    else who = rose ? "your side rises" : `${(e.rising || []).map(seatName).join(", ")} rise`;
    const rise = e.rise ? `${who} ${e.rise} level${e.rise === 1 ? "" : "s"}` : "nobody rises";
    parts.push(h("h3", {}, `Deal ${e.deal + 1} result`),
      h("p", {}, "The attackers took ", h("b", {}, String(e.attacker_points)), ` points (tricks ${e.trick_points}` +
        (e.kitty_bonus ? `, kitty ${e.kitty_points} × ${e.multiplier}` : "") +
        (e.penalty ? `, penalties ${e.penalty}` : "") + ")."),
      h("p", {}, app.seat === null ? `${seatName(e.dealer)}'s side dealt; ` :
        `${dealerSide === true ? "Your side" : "Your opponents"} dealt; `,
        `the ${e.next_side} deal next, and ${rise}.`),
      h("p", {}, "Kitty: ", textCards(e.kitty), ` (${e.kitty_points} points)`));
    const b = button(`Replay deal ${e.deal + 1}`, () => send({ type: "replay", token: app.token || undefined, deal: e.deal }));
    b.id = "replaybtn";
    parts.push(b);
  } else {
    parts.push(h("h3", {}, "The deal is over"));
  }
  if (st.over) parts.push(h("p", {}, h("b", {}, gameOverText(st))));
  else if (!app.watching) {
    const n = button("Next deal", nextDeal, "primary");
    n.id = "nextdeal";
    parts.push(" ", n);
  } else {
    parts.push(" ", button("Go on watching", () => { app.hold = null; render(); }));
  }
  fill(box, parts);
}

function nextDeal() {
  if (!app.watching) send({ type: "next", token: app.token });
  app.hold = null;
  render();
}

// ------------------------------------------------------------------ tools: last trick, cards out

function renderTools(st) {
  $("lasttrickbtn").disabled = !app.lastTrick;
}

function showLastTrick() {
  const t = app.lastTrick;
  if (!t) return;
  fill($("recallbody"), h("p", {}, `Trick ${t.trick + 1}: ${says(t.winner, "win")} ${t.points} points.`),
    t.plays.map(([s, c]) => h("div", { class: "replayrow" + (s === t.winner ? " winner" : "") },
      h("b", {}, seatName(s)), cardsRow(c))));
  $("recalltitle").textContent = "Last trick";
  $("recall").hidden = false;
}

// every card played face up this deal, by suit, strongest first
function showCardsOut() {
  const v = app.state.view;
  const by = { J: [], S: [], H: [], C: [], D: [] };
  for (const t of tokens(v.played)) by[t === "BJ" || t === "LJ" ? "J" : t[0]].push(t);
  const rank = (t) => (t === "BJ" ? 99 : t === "LJ" ? 98 : RANK_ORDER.indexOf(t.slice(1)));
  const rows = [];
  for (const [k, list] of Object.entries(by)) {
    list.sort((a, b) => rank(b) - rank(a));
    rows.push(h("div", { class: "replayrow" }, h("b", {}, k === "J" ? "jokers" : SUIT[k] + " " + SUIT_NAME[k]),
      list.length ? cardsRow(list.join(" ")) : h("span", { class: "count" }, "none yet")));
  }
  fill($("recallbody"), h("p", {}, `${tokens(v.played).length} cards out, ${v.points_out} points of ${v.points_total}; ` +
    `${v.points_total - v.points_out} points still in hands and the kitty.`), rows);
  $("recalltitle").textContent = "Cards out this deal";
  $("recall").hidden = false;
}

// ------------------------------------------------------------------ messages and log

// readable refusals: what the rule asks, with card glyphs, not the engine's codes
function refusalText(msg) {
  const v = app.state && app.state.view, a = app.lastSent || {};
  const lead = v && v.trick.length ? v.trick[0][1] : null;
  const leadSuit = lead ? suitOf(tokens(lead)[0], v) : null;
  const tried = a.cards ? ["You tried ", textCards(a.cards), ". "] : [];
  switch (msg.reason) {
    case "must_follow_suit":
      return [...tried, "You must follow ", leadSuit, " while you hold any: the lead was ", textCards(lead), "."];
    case "must_follow_shape":
      return [...tried, "You must match the lead's shape (its pairs and tractors) as far as your ", leadSuit,
        " cards allow: the lead was ", textCards(lead), "."];
    case "wrong_count":
      return [...tried, `Choose exactly ${app.legal ? app.legal.count : "the right number of"} cards.`];
    case "not_your_turn": return ["It is not your turn."];
    case "not_in_hand": return [...tried, "You do not hold those cards."];
    case "no_throws": return [...tried, "This variant has no throws: lead one single, pair or tractor."];
    case "several_suits": return [...tried, "A lead must be all one suit (all trumps count as one suit)."];
    case "empty": return ["Tap the cards you want to play first."];
    case "cannot_declare": return [...tried, "Those cards cannot declare trump at this level."];
    case "cannot_overturn": return [...tried, "That does not beat the standing declaration."];
    case "mixed": return [...tried, "A declaration shows cards of one suit, or jokers only."];
    default: break;
  }
  if (msg.code === "rate_limited") return ["Too many messages — slow down a little."];
  if (msg.code === "bad_token") return ["This page no longer holds your seat. Reload the page."];
  // anything else: the server's sentence without its codes, cards as glyphs
  return [glyphText(String(msg.message || msg.code).replace(/\s*\([a-z_]+(:[^)]*)?\)\s*$/, ""))];
}

function suitOf(tok, v) {
  if (tok === "BJ" || tok === "LJ" || (v && (tok.slice(1) === v.level_rank || tok[0] === v.trump_suit))) return "trumps";
  return SUIT[tok[0]] + " " + SUIT_NAME[tok[0]];
}

function showError(msg) {
  const el = $("error");
  el.hidden = false;
  fill(el, h("b", {}, "Not allowed: "), refusalText(msg),
    msg.rule ? h("div", { class: "rule" }, "Rule: " + msg.rule) : null);
}

function hideError() { $("error").hidden = true; }

function logEvent(e) {
  let line = null;
  switch (e.type) {
    case "DealStarted": line = [h("b", {}, `Deal ${e.deal + 1}`), " starts"]; break;
    case "Declared": line = [says(e.seat, "declare"), " ", textCards(e.cards)]; break;
    case "TrumpSet": line = `Trump: ${e.trump === null ? "no trump" : SUIT["SHCD"[e.trump]]}, dealer ${seatName(e.dealer)}`; break;
    case "ThrowFailed":
      line = [says(e.seat, "try"), " to throw ", textCards(e.attempted), " — refused",
        e.beaten ? [": ", textCards(e.beaten), ` beaten by ${whose(e.blocker)} `, textCards(e.beaten_by)] : "",
        e.penalty ? `, penalty ${e.penalty}` : ""];
      break;
    case "FriendsCalled": line = [says(e.seat, "call"), " friends: ", e.calls.join(", ")]; break;
    case "FriendJoined": line = e.already ? `${says(e.seat, "play")} a called card (already on the dealer's side: the call is used up)` : `${says(e.seat, "join")} the dealer's side`; break;
    case "TrickWon": line = `Trick ${e.trick + 1}: ${says(e.seat, "win")} ${e.points} points (attackers ${e.attacker_points})`; break;
    case "DealScored": line = [h("b", {}, `Deal ${e.deal + 1}`), `: attackers ${e.attacker_points} points`]; break;
    case "MatchOver": line = [h("b", {}, "Match over")]; break;
    default: break;
  }
  if (!line) return;
  const list = $("loglist");
  list.insertBefore(h("li", {}, line), list.firstChild);
  while (list.children.length > 60) list.removeChild(list.lastChild);
}

// ------------------------------------------------------------------ replay

function renderReplay() {
  const r = app.replay;
  const tricks = [];
  let cur = [], trump = null, scored = null;
  for (const e of r.events) {
    if (e.type === "TrumpSet") trump = e;
    if (e.type === "Played") cur.push(e);
    if (e.type === "TrickWon") { tricks.push({ plays: cur, won: e }); cur = []; }
    if (e.type === "DealScored") scored = e;
  }
  const steps = tricks.length + 1;
  app.replayStep = Math.max(0, Math.min(app.replayStep, steps - 1));
  $("replay").hidden = false;
  $("replaytitle").textContent = `Replay of deal ${r.deal + 1}`;
  const body = $("replaybody");
  if (app.replayStep === 0) {
    fill(body, h("p", {}, `Trump ${trump && trump.trump !== null ? SUIT["SHCD"[trump.trump]] : "none"}, ` +
      `dealer ${trump ? seatName(trump.dealer) : "–"}. Cards each seat played:`),
    r.played.map((cards, s) => h("div", { class: "replayrow" }, h("b", {}, seatName(s)), cardsRow(cards))));
  } else {
    const t = tricks[app.replayStep - 1];
    fill(body, h("p", {}, `Trick ${t.won.trick + 1}: ${says(t.won.seat, "win")} ${t.won.points} points ` +
      `(attackers ${t.won.attacker_points}).`),
    t.plays.map((p) => h("div", { class: "replayrow" + (p.seat === t.won.seat ? " winner" : "") },
      h("b", {}, seatName(p.seat)), cardsRow(p.cards))),
    app.replayStep === steps - 1 && scored ?
      h("p", {}, "Kitty ", textCards(scored.kitty), ` — attackers end with ${scored.attacker_points} points.`) : null);
  }
  $("rstep").textContent = app.replayStep === 0 ? "hands" : `trick ${app.replayStep} of ${tricks.length}`;
}

// a room's public replay (GET /api/rooms/CODE/replay): pick a deal, step through it
async function openPublicReplay(code) {
  const r = await fetch(`/api/rooms/${encodeURIComponent(code)}/replay`);
  const data = await r.json();
  if (!r.ok) { showLobbyError(data); return; }
  app.publicReplay = data;
  app.state = app.state || { seats: data.seats, view: null };
  if (!data.deals.length) {
    showLobbyError({ code: "", message: `Room ${data.room} has no finished deal yet.` });
    return;
  }
  app.replay = data.deals[data.deals.length - 1];
  app.replayStep = 0;
  renderReplay();
}

// ------------------------------------------------------------------ start-up

$("create").onclick = createRoom;
$("join").onclick = joinTyped;
$("watch").onclick = watchTyped;
$("publicreplay").onclick = () => { const c = typedCode(); if (c) openPublicReplay(c); };
$("start").onclick = () => send({ type: "start", token: app.token });
$("rprev").onclick = () => { app.replayStep--; renderReplay(); };
$("rnext").onclick = () => { app.replayStep++; renderReplay(); };
$("rclose").onclick = () => { $("replay").hidden = true; };
$("lasttrickbtn").onclick = showLastTrick;
$("cardsoutbtn").onclick = showCardsOut;
$("recallclose").onclick = () => { $("recall").hidden = true; };

loadVariants();
const params = new URLSearchParams(location.search);
const code = params.get("room");
if (code) {
  $("joincode").value = code;
  const saved = JSON.parse(localStorage.getItem("shengji:" + code) || "null");
  if (saved && !params.get("watch")) { app.room = code; app.token = saved.token; connect(() => joinRoom(code, null, saved.token)); }
  else if (params.get("watch")) { app.room = code; connect(() => watchRoom(code)); }
}
