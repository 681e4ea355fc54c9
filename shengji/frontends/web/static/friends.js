// Finding friends on screen: the dealer's calls as words ("1st ♣A"), each marked once it is
// fulfilled and by whom; each seat's side as far as it is public; the dealer's call picker
// (a suit, a card, then which copy: "the 2nd ♠A played").
import { h, fill, button } from "./dom.js";
import { SUIT } from "./known.js";
import { textCards } from "./cards.js";
import { app, seatName, says, fixedTeams, redraw } from "./state.js";

export function ordinal(n) {
  if (n === 0) return "other";  // friends.other_copy: the copy the dealer does not hold
  const k = n % 100;
  return n + (k >= 11 && k <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
}

// "1 HA" → [ordinal text, card token]
export function splitCall(text) {
  const [n, card] = String(text).split(" ");
  return [ordinal(Number(n)), card];
}

// "1 HA" → "1st ♥A" (glyphs)
export function callWords(text) {
  const [nth, card] = splitCall(text);
  return [nth + " ", textCards(card)];
}

// the calls fulfilled so far, in order: [{call, seat, already}] (already: the seat was
// on the dealer's side before, so the call is used up and the side does not grow)
export function fulfilled(v) {
  const side = [v.dealer], out = [];
  for (const [seat, i] of v.joined || []) {
    const already = side.includes(seat);
    if (!already) side.push(seat);
    out.push({ call: i, seat, already });
  }
  return out;
}

// A seat's side as this view makes it public: "dealer" (the dealer's side), "attackers",
// or "unknown" (finding friends, before the calls reveal it); null without friend calls.
export function sideOf(v, seat) {
  if (fixedTeams(v) || v.dealer === null || v.dealer === undefined || !(v.calls || []).length) return null;
  if ((v.side || []).includes(seat)) return "dealer";
  return v.sides_known ? "attackers" : "unknown";
}

export const SIDE_WORDS = { dealer: "dealer's side", attackers: "attackers", unknown: "unknown" };

// the calls bar above the felt: every call, marked when fulfilled, with who joined
export function renderCalls(v, el) {
  const calls = (v && v.calls) || [];
  el.hidden = !calls.length;
  if (!calls.length) return;
  const done = {};
  for (const f of fulfilled(v)) done[f.call] = f;
  fill(el, h("span", { class: "label" }, "Calls"), calls.map((c, i) => {
    const f = done[i];
    const status = !f ? "open" : f.already ? `used up by ${seatName(f.seat)}` : `${seatName(f.seat)} joined`;
    return h("span", {
      class: "call" + (f ? " done" : ""), dataset: { call: c, done: f ? "true" : "false" },
      title: f ? status : `the ${splitCall(c)[0]} ${splitCall(c)[1]} played joins the dealer's side`,
    }, callWords(c), f ? h("span", { class: "joined" }, f.already ? ` — ${status}` : ` ✓ ${status}`) : null);
  }));
}

// ---------------------------------------------------------------- the call picker

// app.pick: {suit, card, picked: ["1 HA", ...]} while the dealer picks its calls
function pickState(offered) {
  if (!app.pick) {
    const suits = [...new Set(offered.map((c) => groupOf(c.split(" ")[1])))];
    app.pick = { suit: suits[0], card: null, picked: [] };
  }
  return app.pick;
}

function groupOf(card) { return card === "BJ" || card === "LJ" ? "J" : card[0]; }

export function clearPick() { app.pick = null; }

// The picker, into `box`: suit tabs, the cards of that suit that may be called, then the
// copies of the chosen card ("1st", "2nd", ...); picked calls show as chips until sent.
export function renderCallPicker(box, legal, send) {
  const offered = legal.actions.map((a) => a.calls[0]);
  const p = pickState(offered);
  const byCard = new Map();
  for (const c of offered) {
    const card = c.split(" ")[1];
    if (!byCard.has(card)) byCard.set(card, []);
    byCard.get(card).push(c);
  }
  const suits = [...new Set([...byCard.keys()].map(groupOf))];
  const full = p.picked.length >= legal.count;
  const tab = (s) => {
    const b = button(s === "J" ? "jokers" : SUIT[s], () => { p.suit = s; p.card = null; redraw(); },
      "pick" + (p.suit === s ? " selected" : "") + (s === "H" || s === "D" ? " red" : ""));
    b.dataset.suit = s;
    b.setAttribute("aria-pressed", String(p.suit === s));
    return b;
  };
  const cardBtn = (card) => {
    const b = button(textCards(card), () => { p.card = card; redraw(); }, "pick" + (p.card === card ? " selected" : ""));
    b.dataset.card = card;
    b.setAttribute("aria-pressed", String(p.card === card));
    b.disabled = full;
    return b;
  };
  const ordBtn = (c) => {
    const taken = p.picked.includes(c);
    const b = button(`${splitCall(c)[0]} played`, () => { p.picked.push(c); p.card = null; redraw(); }, "pick");
    b.dataset.call = c;
    b.disabled = full || taken;
    return b;
  };
  const chips = p.picked.map((c, i) => h("span", { class: "chip", dataset: { call: c } }, callWords(c), " ",
    button("×", () => { p.picked.splice(i, 1); redraw(); }, "inline unpick")));
  const cards = [...byCard.keys()].filter((c) => groupOf(c) === p.suit);
  const picker = h("div", { id: "callpicker" },
    h("div", { class: "pickrow", id: "callsuits" }, h("span", { class: "label" }, "Call a card:"), suits.map(tab)),
    h("div", { class: "pickrow", id: "callcards" }, cards.map(cardBtn)),
    p.card ? h("div", { class: "pickrow", id: "callordinals" }, h("span", { class: "label" }, ["which ", textCards(p.card), "?"]),
      byCard.get(p.card).map(ordBtn)) : null,
    h("div", { class: "pickrow", id: "callpicked" }, chips.length ? chips :
      h("span", { class: "label" }, `Pick ${legal.count} call${legal.count > 1 ? "s" : ""}: whoever plays that copy joins you.`)));
  box.appendChild(picker);
  const go = button(`Call ${p.picked.length}/${legal.count}`, () => { const calls = p.picked.slice(); clearPick(); send(calls); }, "primary");
  go.id = "play";
  go.disabled = p.picked.length !== legal.count;
  box.appendChild(go);
}

// log lines
export function callsLine(calls) {
  const out = [];
  calls.forEach((c, i) => { if (i) out.push(", "); out.push(...callWords(c)); });
  return out;
}

// calls: the deal's calls, as its FriendsCalled event listed them
export function joinLine(e, calls) {
  const call = calls && calls[e.call] ? callWords(calls[e.call]) : [textCards(e.card)];
  const you = e.seat === app.seat;
  return [`${says(e.seat, "play")} the called `, ...call, e.already ? " (already on the dealer's side: the call is used up)"
    : ` and ${you ? "join" : "joins"} the dealer's side`];
}

