// shengji web client: speaks protocol v2 (docs/protocol.md) over one websocket.
// No build step, no framework: the server sends the whole view of our seat each time,
// and render() draws it again.
"use strict";

const PROTOCOL = 2;
const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_NAME = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };
const RED = new Set(["H", "D"]);
const $ = (id) => document.getElementById(id);

// Every piece of data (names, messages, cards) reaches the page as text nodes through
// h(): never as markup. The server also sends a Content-Security-Policy without inline
// scripts, so even a slip here would not run a script.
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el[k] = v;
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

function frag(...children) {
  const f = document.createDocumentFragment();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    f.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return f;
}

function fill(el, ...children) { el.replaceChildren(frag(...children)); return el; }

const app = (window.shengji = {
  ws: null, room: null, seat: null, token: null,
  state: null, legal: null, selected: new Set(), log: [], results: [],
  replay: null, replayStep: 0,
});

// ------------------------------------------------------------------ cards

function cardLabel(tok) {
  if (tok === "BJ") return { rank: "JOKER", suit: "BJ", red: true, joker: true };
  if (tok === "LJ") return { rank: "JOKER", suit: "LJ", red: false, joker: true };
  return { rank: tok.slice(1), suit: SUIT[tok[0]], red: RED.has(tok[0]), joker: false };
}

function cardEl(tok, opts = {}) {
  const c = cardLabel(tok);
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card" + (c.red ? " red" : "") + (c.joker ? " joker" : "") +
    (opts.trump ? " trump" : "") + (opts.small ? " small" : "");
  el.dataset.card = tok;
  if (c.joker) {
    fill(el, h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, tok === "BJ" ? "★" : "☆"),
      h("span", { class: "jname" }, tok === "BJ" ? "big" : "little"));
  } else {
    fill(el, h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, c.suit));
  }
  el.title = tok;
  return el;
}

function cardsRow(text, small = true) {
  const row = document.createElement("div");
  row.className = "cards";
  for (const tok of (text || "").split(" ").filter(Boolean)) row.appendChild(cardEl(tok, { small }));
  return row;
}

// card tokens as glyph text ("♥A ♥A"), one span per card
function textCards(text) {
  const out = [];
  for (const t of (text || "").split(" ").filter(Boolean)) {
    const c = cardLabel(t);
    if (out.length) out.push(" ");
    out.push(h("span", { class: "tok" + (c.red ? " red" : "") }, c.joker ? (t === "BJ" ? "★BJ" : "☆LJ") : c.suit + c.rank));
  }
  return frag(out);
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
  };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}

function send(msg) { app.ws.send(JSON.stringify(msg)); }

function sendAction(action) {
  hideError();
  send({ type: "action", token: app.token, action });
}

function joinRoom(code, name, token) {
  const msg = { type: "join", protocol: PROTOCOL, room: code };
  if (token) msg.token = token; else if (name) msg.name = name;
  send(msg);
}

function handle(msg) {
  if (msg.type === "welcome") {
    app.room = msg.room; app.seat = msg.seat; app.token = msg.token;
    localStorage.setItem("shengji:" + msg.room, JSON.stringify({ seat: msg.seat, token: msg.token }));
    history.replaceState(null, "", "?room=" + msg.room);
    $("roominfo").hidden = false;
    $("roomcode").textContent = msg.room;
    $("variantname").textContent = msg.variant;
    $("seatname").textContent = "seat " + msg.seat;
    $("lobby").hidden = true;
  } else if (msg.type === "room") {
    showWaiting(msg);
  } else if (msg.type === "state") {
    onState(msg);
  } else if (msg.type === "error") {
    if (msg.code === "bad_token" && !app.state) {
      localStorage.removeItem("shengji:" + app.room);
      app.token = null;
    }
    showError(msg);
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
  for (const v of data.variants) {
    const o = document.createElement("option");
    o.value = o.textContent = v;
    if (v === data.default) o.selected = true;
    sel.appendChild(o);
  }
}

async function createRoom() {
  // no seed: the server draws a secret one (a known seed would tell every hand)
  const seedText = $("seed").value.trim();
  const body = { variant: $("variant").value };
  if (seedText) body.seed = /^-?\d+$/.test(seedText) ? parseInt(seedText, 10) : seedText;
  const r = await fetch("/api/rooms", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) { showError(data); return; }
  joinRoom(data.room, $("name").value.trim() || "you");
}

function showWaiting(msg) {
  $("waiting").hidden = false;
  $("game").hidden = true;
  $("waitcode").textContent = msg.room;
  const ul = $("waitseats");
  ul.replaceChildren();
  for (const s of msg.seats) {
    const li = document.createElement("li");
    li.textContent = `seat ${s.seat}: ` + (s.kind === "open" ? "open (a bot if still empty)" :
      s.name + (s.seat === app.seat ? " (you)" : "") + (s.connected ? "" : " — away"));
    ul.appendChild(li);
  }
}

// ------------------------------------------------------------------ game state

function onState(msg) {
  const first = !app.state;
  app.state = msg;
  app.legal = msg.legal;
  $("advice").hidden = true;
  $("waiting").hidden = true;
  $("game").hidden = false;
  for (const e of msg.events || []) logEvent(e, msg);
  // keep the selection only while it still fits the hand and it is still our turn
  if (!msg.legal) app.selected.clear();
  const handNow = handTokens(msg.view);
  for (const i of [...app.selected]) if (i >= handNow.length) app.selected.delete(i);
  if (first) app.selected.clear();
  render();
}

function handTokens(view) {
  const out = [];
  for (const g of view.hand_groups) for (const t of g.cards.split(" ").filter(Boolean)) out.push({ tok: t, trump: g.suit === "trump" });
  return out;
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "–";
  if (seat === app.seat) return "you";
  const s = app.state && app.state.seats ? app.state.seats[seat] : null;
  return s ? s.name : "seat " + seat;
}

function relPos(seat) { return (seat - app.seat + 4) % 4; }

function render() {
  const st = app.state, v = st.view;
  $("level").textContent = v.level_rank;
  fill($("trump"), v.trump_suit === null ? h("i", {}, "dealing…") :
    v.trump_suit === "none" ? "no trump" :
    h("span", { class: "bigsuit" + (RED.has(v.trump_suit) ? " red" : "") }, `${SUIT[v.trump_suit]} ${SUIT_NAME[v.trump_suit]}`));
  $("dealer").textContent = v.dealer === null ? "first to declare" : seatName(v.dealer);
  $("points").textContent = v.trick_points;
  $("side").textContent = v.dealer_team === null ? "–" : v.dealer_team === v.team ? "defending (dealers)" : "attacking";
  $("levels").textContent = v.level_ranks.map((r, s) => `${seatName(s)}: ${r}`).join(" · ");
  renderSpots(st);
  renderCenter(st);
  renderTurn(st);
  renderHand(st);
  renderActions(st);
}

function renderSpots(st) {
  const v = st.view;
  // the trick being played, or the last one when a new trick has not started
  let trick = v.trick, last = false;
  if (!trick.length && v.tricks.length && v.phase === "play") { trick = v.tricks[v.tricks.length - 1]; last = true; }
  const played = {};
  for (const [s, c] of trick) played[s] = c;
  for (const spot of document.querySelectorAll(".spot")) {
    const seat = (app.seat + Number(spot.dataset.pos)) % 4;
    spot.replaceChildren();
    spot.dataset.seat = seat;
    spot.classList.toggle("active", v.to_act === seat);
    spot.classList.toggle("partner", v.teams[seat] === v.team && seat !== app.seat);
    const info = st.seats ? st.seats[seat] : null;
    const head = h("div", { class: "who" }, h("b", {}, seatName(seat)),
      v.dealer === seat ? h("span", { class: "badge" }, "dealer") : null,
      v.teams[seat] === v.team && seat !== app.seat ? h("span", { class: "badge partner" }, "partner") : null,
      info && info.kind === "human" && !info.connected ? h("span", { class: "badge away" }, "away") : null,
      h("span", { class: "count" }, `${v.hand_sizes[seat]} cards`));
    spot.appendChild(head);
    if (played[seat]) {
      const row = cardsRow(played[seat]);
      if (last) row.classList.add("faded");
      spot.appendChild(row);
    }
  }
}

function renderCenter(st) {
  const v = st.view, c = $("center");
  c.replaceChildren();
  if (v.phase === "deal") {
    const bids = v.bids.length ? v.bids.map((b) => h("div", {}, `${seatName(b.seat)}: `, textCards(b.cards)))
      : "no declaration yet";
    c.appendChild(h("div", { class: "dealing" }, `Dealing — ${v.to_deal} cards to go`, h("small", {}, bids)));
  } else if (v.phase === "bury") {
    c.appendChild(h("div", { class: "dealing" }, `${v.dealer === app.seat ? "Bury" : seatName(v.dealer) + " buries"} ${v.kitty_size} cards`));
  } else if (st.over) {
    c.appendChild(h("div", { class: "dealing" }, `Game over${st.winner !== null ? " — team " + st.winner + " wins" : ""}`));
  } else if (!v.trick.length && v.tricks.length) {
    c.appendChild(h("div", { class: "dealing" }, h("small", {}, "last trick")));
  }
}

function renderTurn(st) {
  const t = $("turn"), legal = st.legal;
  document.body.classList.toggle("myturn", !!legal);
  if (!legal) {
    t.className = "turn";
    t.textContent = st.over ? "The game is over." : st.view.to_act === null ? "" : `Waiting for ${seatName(st.view.to_act)}…`;
    return;
  }
  t.className = "turn mine";
  const what = {
    declare: "declare trump, or pass",
    takeback: "keep your declaration, or take it back",
    bury: `choose ${legal.count} cards to bury`,
    lead: "lead: click cards, then Play",
    follow: `follow with ${legal.count} card${legal.count > 1 ? "s" : ""}`,
    choose: "choose what the thrower must play",
  }[legal.kind];
  t.textContent = "Your turn — " + what;
}

function renderHand(st) {
  const hand = $("hand");
  hand.replaceChildren();
  const toks = handTokens(st.view);
  let group = null, groupEl = null;
  toks.forEach((c, i) => {
    const g = c.trump ? "trump" : c.tok[0];
    if (g !== group) {
      group = g;
      groupEl = document.createElement("div");
      groupEl.className = "group" + (c.trump ? " trumpgroup" : "");
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
  if (st.view.kitty) {
    hand.appendChild(h("div", { class: "note" }, "You took the kitty: ", textCards(st.view.kitty)));
  }
}

function selectedCards() {
  const toks = handTokens(app.state.view);
  return [...app.selected].sort((a, b) => a - b).map((i) => toks[i].tok).join(" ");
}

function button(label, onClick, cls = "") {
  const b = document.createElement("button");
  b.textContent = label;
  b.className = cls;
  b.onclick = onClick;
  return b;
}

function renderActions(st) {
  const box = $("actions"), legal = st.legal;
  box.replaceChildren();
  if (!legal) return;
  const n = app.selected.size;
  if (legal.kind === "declare" || legal.kind === "takeback") {
    for (const a of legal.actions) {
      if (a.type === "Pass") box.appendChild(button(legal.kind === "takeback" ? "Keep it" : "Pass", () => sendAction({ type: "Pass" }), "pass"));
      else if (a.type === "TakeBack") box.appendChild(button("Take it back", () => sendAction({ type: "TakeBack" }), "pass"));
      else {
        const b = button("", () => sendAction(a), "declare");
        fill(b, "Declare ", textCards(a.cards));
        box.appendChild(b);
      }
    }
  } else if (legal.kind === "bury") {
    const b = button(`Bury ${n}/${legal.count}`, () => sendAction({ type: "Bury", cards: selectedCards() }), "primary");
    b.id = "play";
    b.disabled = n !== legal.count;
    box.appendChild(b);
  } else if (legal.kind === "choose") {
    st.view.forced_options.forEach((o, i) => {
      const b = button("", () => sendAction({ type: "ChooseForced", option: i }), "declare");
      fill(b, "Force ", textCards(o));
      box.appendChild(b);
    });
  } else {
    const b = button(legal.kind === "lead" ? "Lead" : "Play", () => sendAction({ type: "Play", cards: selectedCards() }), "primary");
    b.id = "play";
    b.disabled = n === 0;
    box.appendChild(b);
    box.appendChild(button("Hint", hint));
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
  const el = $("advice");
  el.textContent = "";
  el.append("Hint: ", a.cards ? textCards(a.cards) : a.type, msg.reason ? " — " + msg.reason : "");
  el.hidden = false;
  render();
}

// ------------------------------------------------------------------ messages and log

function showError(msg) {
  const el = $("error");
  el.hidden = false;
  fill(el, h("b", {}, "Refused: "), String(msg.message),
    msg.rule ? h("div", { class: "rule" }, "Rule: " + msg.rule) : null);
}

function hideError() { $("error").hidden = true; }

function logEvent(e, st) {
  let line = null;
  switch (e.type) {
    case "DealStarted": line = [h("b", {}, `Deal ${e.deal + 1}`), " starts"]; break;
    case "Declared": line = [`${seatName(e.seat)} declares `, textCards(e.cards)]; break;
    case "BidTakenBack": line = [`${seatName(e.seat)} takes back `, textCards(e.cards)]; break;
    case "TrumpSet": line = `Trump: ${e.trump === null ? "no trump" : SUIT["SHCD"[e.trump]]}, dealer ${seatName(e.dealer)}`; break;
    case "ThrowFailed": line = [`${seatName(e.seat)} tried to throw `, textCards(e.attempted), " — refused"]; break;
    case "TrickWon": line = `Trick ${e.trick + 1} to ${seatName(e.seat)} (${e.points === null ? "hidden" : e.points} pts; attackers ${e.attacker_points})`; break;
    case "DealScored": line = [h("b", {}, `Deal ${e.deal + 1}`), `: attackers ${e.attacker_points} points`]; showResult(e); break;
    case "MatchOver": line = [h("b", {}, "Match over"), ` — team ${e.winner} wins`]; break;
    default: break;
  }
  if (!line) return;
  const li = h("li", {}, line);
  const list = $("loglist");
  list.insertBefore(li, list.firstChild);
  while (list.children.length > 40) list.removeChild(list.lastChild);
}

function showResult(e) {
  const st = app.state, v = st.view;
  const ours = e.side.includes(app.seat);
  const box = $("result");
  box.hidden = false;
  const rising = e.rising.includes(app.seat) ? "your side" : "the other side";
  fill(box, h("h3", {}, `Deal ${e.deal + 1} result`),
    h("p", {}, "Attackers took ", h("b", {}, String(e.attacker_points)), ` points (tricks ${e.trick_points}` +
      (e.kitty_bonus ? `, kitty ${e.kitty_points} × ${e.multiplier}` : "") + ")."),
    h("p", {}, `${ours ? "You were" : "Your opponents were"} the dealers; ${e.next_side} deal next, ` +
      `${rising} rises ${e.rise} level${e.rise === 1 ? "" : "s"}.`),
    h("p", {}, "Kitty: ", textCards(e.kitty)));
  box.dataset.deal = e.deal;
  const b = button(`Replay deal ${e.deal + 1}`, () => send({ type: "replay", token: app.token, deal: e.deal }));
  b.id = "replaybtn";
  box.appendChild(b);
  if (!app.state.over) {
    // the bots wait for this before the next deal goes on
    const n = button("Next deal", () => { send({ type: "next", token: app.token }); box.hidden = true; }, "primary");
    n.id = "nextdeal";
    box.appendChild(n);
  }
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
  body.replaceChildren();
  if (app.replayStep === 0) {
    body.appendChild(h("p", {}, `Trump ${trump && trump.trump !== null ? SUIT["SHCD"[trump.trump]] : "none"}, ` +
      `dealer ${trump ? seatName(trump.dealer) : "–"}. Cards each seat played:`));
    r.played.forEach((cards, s) => {
      body.appendChild(h("div", { class: "replayrow" }, h("b", {}, seatName(s)), cardsRow(cards)));
    });
  } else {
    const t = tricks[app.replayStep - 1];
    body.appendChild(h("p", {}, `Trick ${t.won.trick + 1}: ${seatName(t.won.seat)} wins ${t.won.points} points ` +
      `(attackers ${t.won.attacker_points}).`));
    for (const p of t.plays) {
      body.appendChild(h("div", { class: "replayrow" + (p.seat === t.won.seat ? " winner" : "") },
        h("b", {}, seatName(p.seat)), cardsRow(p.cards)));
    }
    if (app.replayStep === steps - 1 && scored) {
      body.appendChild(h("p", {}, "Kitty ", textCards(scored.kitty), ` — attackers end with ${scored.attacker_points} points.`));
    }
  }
  $("rstep").textContent = app.replayStep === 0 ? "hands" : `trick ${app.replayStep} of ${tricks.length}`;
}

// ------------------------------------------------------------------ start-up

$("create").onclick = () => connectThen(createRoom);
$("join").onclick = () => connectThen(() => joinRoom($("joincode").value.trim().toUpperCase(), $("name").value.trim()));
$("start").onclick = () => send({ type: "start", token: app.token });
$("rprev").onclick = () => { app.replayStep--; renderReplay(); };
$("rnext").onclick = () => { app.replayStep++; renderReplay(); };
$("rclose").onclick = () => { $("replay").hidden = true; };

function connectThen(fn) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) fn(); else connect(fn);
}

loadVariants();
const params = new URLSearchParams(location.search);
const code = params.get("room");
if (code) {
  $("joincode").value = code;
  const saved = JSON.parse(localStorage.getItem("shengji:" + code) || "null");
  if (saved) { app.room = code; app.token = saved.token; connect(() => joinRoom(code, null, saved.token)); }
}
