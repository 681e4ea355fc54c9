// The table: the state as it arrives (its events kept for the trick and the result),
// the felt with its seats for any count (2-12), the information bar, whose turn it is, a
// failed throw explained, the deal's result, the last trick and the cards out.
import { $, h, fill, button } from "./dom.js";
import { SUIT, SUIT_NAME, RED, RANK_ORDER, tokens, cardsRow, textCards } from "./cards.js";
import {
  app, shownView, handTokens, seatName, whose, says, viewBase, fixedTeams, sameSide,
} from "./state.js";
import { send } from "./connection.js";
import { renderHand, selectedCards } from "./hand.js";
import { decorate } from "./rulescore.js";
import { renderActions, hideError } from "./actions.js";
import { logEvent } from "./log.js";
import { renderCalls, sideOf, SIDE_WORDS, clearPick } from "./friends.js";
import { turnSignal, setUpOptions } from "./options.js";
import { dealingOffer } from "./bidding.js";
import { followRules } from "./roomrules.js";

export function onState(msg) {
  const first = !app.state;
  app.prevView = app.state ? app.state.view : null;  // the view before this change
  app.state = msg;
  app.legal = msg.legal;
  followRules(app.room, msg.rules_fingerprint);  // (the text itself is fetched once)
  $("advice").hidden = true;
  $("waiting").hidden = true;
  $("game").hidden = false;
  for (const e of msg.events || []) onEvent(e);
  // reconnecting while the bots wait for our "next": show the button even without a result
  if (!app.hold && !app.watching && (msg.waiting || []).includes(app.seat)) app.hold = { scored: null, trick: null };
  if (!msg.legal) app.selected.clear();
  if (!msg.legal || msg.legal.kind !== "call") clearPick();
  // the selection is by place in the hand: once cards leave it (a burial), start afresh
  if (app.prevView && app.prevView.hand !== msg.view.hand) app.selected.clear();
  const handNow = handTokens(msg.view);
  for (const i of [...app.selected]) if (i >= handNow.length) app.selected.delete(i);
  if (first) app.selected.clear();
  // an offer to declare while the cards arrive is not a turn to wait for (bidding.js)
  const mine = !!msg.legal && !app.hold && !dealingOffer(msg);
  turnSignal(mine, app.wasMine);
  app.wasMine = mine;
  render();
}

export function onEvent(e) {
  switch (e.type) {
    case "DealStarted": app.trick = []; app.throwNote = null; app.won = {}; app.penalties = {}; break;
    case "Played":
      if (e.lead) { app.trick = []; }
      app.trick.push([e.seat, e.cards]);
      break;
    case "PlayTakenBack": {
      // table.play_takeback: the last play of the trick goes back to its seat's hand
      const last = app.trick.length - 1;
      if (last >= 0 && app.trick[last][0] === e.seat) app.trick.pop();
      break;
    }
    case "ThrowFailed":
      app.throwNote = e;
      if (e.penalty) app.penalties[e.seat] = (app.penalties[e.seat] || 0) + e.penalty;
      break;
    case "TrickWon":
      if (typeof e.points === "number") app.won[e.seat] = (app.won[e.seat] || 0) + e.points;
      app.lastTrick = { plays: app.trick, winner: e.seat, points: e.points, trick: e.trick };
      app.trick = [];
      app.throwNote = null;
      break;
    case "DealScored":
      // the last trick and the result stay on the table until "Next deal"
      app.hold = { scored: e, trick: app.lastTrick, view: heldView(e), won: { ...app.won } };
      break;
    default: break;
  }
  logEvent(e);
}

// the table as the scored deal left it: its trump and dealer, the final points, no cards
export function heldView(e) {
  const v = app.prevView;
  if (!v || v.deal !== e.deal) return null;
  // the levels as the scoring left them: the view of this message is already past it
  const now = app.state.view;
  return { ...v, trick_points: e.attacker_points, hand_sizes: v.hand_sizes.map(() => 0),
    to_act: null, points_out: v.points_total, trick: [], phase: "over",
    level_ranks: now.level_ranks, levels: now.levels };
}

// ------------------------------------------------------------------ the table layout

// Seats around the table for any count: the other seats in play order go up the right
// side, right to left along the top, down the left side (play passes to the right).
// Returns {right: [rel...] bottom-up, top: [rel...] right-to-left, left: [rel...] top-down}.
export function seatSlots(n) {
  const m = n - 1;
  const side = m === 2 ? 1 : Math.floor(m / 3);
  const top = m - 2 * side;
  const rel = Array.from({ length: m }, (_, i) => i + 1);
  return { right: rel.slice(0, side), top: rel.slice(side, side + top), left: rel.slice(side + top) };
}

export function buildFelt(n) {
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

export function render() {
  const st = app.state, v = st.view;
  buildFelt(v.players);
  renderInfo(st);
  renderSpots(st);
  renderCalls(shownView(st), $("calls"));
  renderCenter(st);
  renderTurn(st);
  renderNotice(st);
  // a new selection makes the last refusal stale
  renderHand(st, () => { hideError(); renderActions(app.state); decorate(app.state, selectedCards()); });
  renderBarTrick(st);
  renderActions(st);
  decorate(st, app.seat === null ? "" : selectedCards());
  renderResult(st);
  renderTools(st);
}

// a trump suit ("H", or "none") as the info bar shows it
function trumpText(suit) {
  return suit === "none" ? "no trump" :
    h("span", { class: "bigsuit" + (RED.has(suit) ? " red" : "") }, `${SUIT[suit]} ${SUIT_NAME[suit]}`);
}

// the trump while it is not set: the declaration standing, "dealing…" before any, and
// "not declared yet" once the cards are all dealt
function trumpSoFar(v) {
  const bid = v.bids.length ? v.bids[v.bids.length - 1] : null;
  if (bid) return [trumpText(bid.trump === null ? "none" : "SHCD"[bid.trump]), h("small", { class: "sub" }, " so far")];
  return h("i", {}, v.to_deal > 0 ? "dealing…" : "not declared yet");
}

// the failed throws' penalties as the attackers' points count them (engine/calling.py
// _tally_sides): a throw of the dealer's side gives its penalty to the attackers, an
// attacker's costs them; the deal's result counts them in already
function penaltyNet(v) {
  if (app.hold || !app.penalties) return 0;
  let net = 0;
  for (const [seat, p] of Object.entries(app.penalties)) net += (v.side || []).includes(Number(seat)) ? p : -p;
  return net;
}

export function renderInfo(st) {
  const v = shownView(st);
  $("level").textContent = v.level_rank;
  fill($("trump"), v.trump_suit === null ? trumpSoFar(v) : trumpText(v.trump_suit));
  $("dealer").textContent = v.dealer === null ? "first to declare" : seatName(v.dealer);
  const net = penaltyNet(v);
  fill($("points"), String(v.trick_points + net),
    net ? h("small", { class: "sub", dataset: { penalty: String(net) } }, ` incl. penalty ${net > 0 ? "+" : "−"}${Math.abs(net)}`) : null);
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
export function levelsText(v) {
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

export function renderSpots(st) {
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
    // finding friends: every seat's side as far as the calls have made it public
    const known = sideOf(v, seat);
    spot.dataset.side = known || "";
    if (known && seat !== v.dealer) badges.push(h("span", { class: "badge side " + known }, SIDE_WORDS[known]));
    else if (seat !== app.seat && side === true) badges.push(h("span", { class: "badge partner" }, fixedTeams(v) ? "your team" : "your side"));
    if (info && info.standin) badges.push(h("span", { class: "badge away" }, "away · bot plays"));
    else if (info && info.kind === "human" && !info.connected) badges.push(h("span", { class: "badge away" }, "away"));
    else if (info && info.kind === "bot") badges.push(h("span", { class: "badge bot" }, "bot"));
    if (app.state.waiting && app.state.waiting.includes(seat)) badges.push(h("span", { class: "badge wait" }, "reading the result"));
    const lines = [h("b", { class: "name" }, seatName(seat)), badges,
      h("span", { class: "count" }, `${v.hand_sizes[seat]} card${v.hand_sizes[seat] === 1 ? "" : "s"}`)];
    // points this seat's tricks took this deal (hidden points are not counted)
    const won = (app.hold && app.hold.won) || app.won || {};
    if (won[seat]) lines.push(h("span", { class: "count won", dataset: { won: String(won[seat]) } }, `won ${won[seat]}`));
    if (!fixedTeams(v)) lines.push(h("span", { class: "count" }, `level ${v.level_ranks[seat]}`));
    fill(spot, h("div", { class: "who" }, lines),
      played[seat] ? cardsRow(played[seat]) : h("div", { class: "cards empty" }));
    if (faded && played[seat]) spot.lastChild.classList.add("faded");
  }
}

// the trick being played, in one line of glyphs for the action bar (on a phone the felt
// scrolls away while the hand is chosen)
function renderBarTrick(st) {
  const el = $("bartrick"), v = st.view;
  if (app.hold || v.phase !== "play" || !v.trick.length) { el.hidden = true; return; }
  el.hidden = false;
  const parts = [h("b", {}, `Trick ${v.trick_number + 1}: `)];
  v.trick.forEach(([s, c], i) => parts.push(i ? " · " : "", `${seatName(s)} `, textCards(c)));
  fill(el, parts);
}

export function renderCenter(st) {
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
    fill(c, box(v.to_deal > 0 ? `Dealing — ${v.to_deal} cards to go` : "All dealt — the last declarations",
      h("small", {}, bids)));
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

export function gameOverText(st) {
  if (st.winner === null || st.winner === undefined) return "Game over";
  const v = st.view;
  if (app.seat !== null) return v.teams[app.seat] === st.winner ? "Game over — your team wins!" : "Game over — the opponents win";
  return "Game over";
}

export function renderTurn(st) {
  const t = $("turn"), legal = st.legal;
  const mine = !!legal && !app.hold;
  document.body.classList.toggle("myturn", mine && !dealingOffer(st));
  if (mine && dealingOffer(st)) {
    t.className = "turn";
    t.textContent = "Dealing — you may declare now (Declare…), or let the cards keep coming";
    return;
  }
  if (app.hold) {
    t.className = "turn";
    t.textContent = st.over ? "The game is over." : "Deal over — read the result, then press Next deal.";
    return;
  }
  if (!mine) {
    t.className = "turn";
    t.textContent = st.over ? "The game is over." : st.view.phase === "deal" && st.view.to_deal > 0 ?
      "Dealing — Declare lights up when you can declare" : st.view.to_act === null ? "" :
      app.seat === null ? `${seatName(st.view.to_act)} to play…` : `Waiting for ${seatName(st.view.to_act)}…`;
    return;
  }
  t.className = "turn mine";
  const what = {
    declare: "declare trump, or pass",
    takeback: "keep your declaration, or take it back",
    redeal: "your hand is weak: keep the deal, or ask for a redeal",
    bury: `tap ${legal.count} cards to bury`,
    lead: "lead: tap cards, then Lead",
    follow: `follow with ${legal.count} card${legal.count > 1 ? "s" : ""}: tap them, then Play`,
    choose: "choose what the thrower must play",
  }[legal.kind] || legal.kind;
  t.textContent = "Your turn — " + what;
}

// a failed throw, explained when it happens: the part that is beaten, by whom, with
// what, and the penalty
export function renderNotice(st) {
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

// ------------------------------------------------------------------ deal result

export function renderResult(st) {
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
      h("p", {}, "Kitty: ", e.kitty === null ? "not shown" : textCards(e.kitty), ` (${e.kitty_points} points)`));
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

export function nextDeal() {
  if (!app.watching) send({ type: "next", token: app.token });
  app.hold = null;
  render();
}

// ------------------------------------------------------------------ tools: last trick, cards out

export function renderTools(st) {
  $("lasttrickbtn").disabled = !app.lastTrick;
}

export function showLastTrick() {
  const t = app.lastTrick;
  if (!t) return;
  fill($("recallbody"), h("p", {}, `Trick ${t.trick + 1}: ${says(t.winner, "win")} ${t.points} points.`),
    t.plays.map(([s, c]) => h("div", { class: "replayrow" + (s === t.winner ? " winner" : "") },
      h("b", {}, seatName(s)), cardsRow(c))));
  $("recalltitle").textContent = "Last trick";
  $("recall").hidden = false;
}

// every card played face up this deal, by suit, strongest first
export function showCardsOut() {
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

export function setUpTable() {
  setUpOptions(() => { app.selected.clear(); if (app.state && app.state.view) render(); });
  $("start").onclick = () => send({ type: "start", token: app.token });
  $("lasttrickbtn").onclick = showLastTrick;
  $("cardsoutbtn").onclick = showCardsOut;
  $("recallclose").onclick = () => { $("recall").hidden = true; };
}
