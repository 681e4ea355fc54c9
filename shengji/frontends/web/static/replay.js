// Replays: a deal of our room (the "replay" message) or a room's public replay, stepped
// through trick by trick in an overlay.
import { $, h, fill } from "./dom.js";
import { SUIT, cardsRow, textCards } from "./cards.js";
import { app, seatName, says } from "./state.js";
import { showLobbyError } from "./lobby.js";

export function renderReplay() {
  const r = app.replay;
  const tricks = [];
  let cur = [], trump = null, scored = null;
  for (const e of r.events) {
    if (e.type === "TrumpSet") trump = e;
    if (e.type === "Played") cur.push(e);
    if (e.type === "PlayTakenBack" && cur.length && cur[cur.length - 1].seat === e.seat) cur.pop();
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
      h("p", {}, "Kitty ", scored.kitty === null ? "not shown" : textCards(scored.kitty), ` — attackers end with ${scored.attacker_points} points.`) : null);
  }
  $("rstep").textContent = app.replayStep === 0 ? "hands" : `trick ${app.replayStep} of ${tricks.length}`;
}

// a room's public replay (GET /api/rooms/CODE/replay): pick a deal, step through it
export async function openPublicReplay(code) {
  const r = await fetch(`/api/rooms/${encodeURIComponent(code)}/replay`);
  const data = await r.json();
  if (!r.ok) { showLobbyError(data, "replay"); return; }
  app.publicReplay = data;
  app.state = app.state || { seats: data.seats, view: null };
  if (!data.deals.length) {
    showLobbyError({ code: "", message: `Room ${data.room} has no finished deal yet.` }, "replay");
    return;
  }
  app.replay = data.deals[data.deals.length - 1];
  app.replayStep = 0;
  renderReplay();
}

export function setUpReplay() {
  $("rprev").onclick = () => { app.replayStep--; renderReplay(); };
  $("rnext").onclick = () => { app.replayStep++; renderReplay(); };
  $("rclose").onclick = () => { $("replay").hidden = true; };
}
