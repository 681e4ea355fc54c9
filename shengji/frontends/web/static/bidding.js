// Bidding as the cards arrive: while the deal runs, an offer to declare does not stop it.
// The engine still asks this seat (a Declare or a Pass, the same events as ever); the page
// answers Pass by itself after a moment unless the player opens "Declare", which lists
// what may be declared now. After the last card the engine's final round is a plain
// prompt again (the deal has stopped anyway).
import { h, button } from "./dom.js";
import { textCards } from "./cards.js";
import { app, redraw } from "./state.js";

app.autoPassMs = 1500;  // how long an offer stays open while the cards arrive
let timer = null;
let timerFor = null;    // the event index the pending pass answers

// an offer to declare while cards are still being dealt
export function dealingOffer(st) {
  const v = st && st.view;
  return !!(st && st.legal && st.legal.kind === "declare" && v && v.phase === "deal" && v.to_deal > 0);
}

// the Declare button of the action bar during the deal (disabled when nothing is offered)
export function renderDealDeclare(box, st, sendAction) {
  const offer = dealingOffer(st) && !app.hold;
  const offers = offer ? st.legal.actions.filter((a) => a.type === "Declare") : [];
  const b = button(offers.length ? `Declare… (${offers.length})` : "Declare", () => {
    app.declareOpen = !app.declareOpen;
    redraw();
  }, "declare" + (app.declareOpen && offers.length ? " selected" : ""));
  b.id = "declarebtn";
  b.disabled = !offers.length;
  b.title = offers.length ? "declare trump now; the deal goes on if you do not" : "nothing to declare yet";
  box.appendChild(b);
  if (offers.length && app.declareOpen) {
    box.appendChild(h("div", { id: "declareoffers", class: "pickrow" }, offers.map((a) => {
      const o = button(["Declare ", textCards(a.cards)], () => { app.declareOpen = false; cancelAutoPass(); sendAction(a); }, "declare offer");
      o.dataset.cards = a.cards;
      return o;
    })));
  }
  if (offers.length && !app.declareOpen) scheduleAutoPass(st, sendAction);
  else cancelAutoPass();
  if (!offer) app.declareOpen = false;
}

// the pass waits app.autoPassMs from the offer (read as it ticks, so a change applies at once)
function scheduleAutoPass(st, sendAction) {
  if (timer && timerFor === st.event_index) return;
  cancelAutoPass();
  timerFor = st.event_index;
  const since = Date.now();
  timer = setInterval(() => {
    const now = app.state;
    if (!now || now.event_index !== timerFor || !dealingOffer(now) || app.declareOpen) { cancelAutoPass(); return; }
    if (Date.now() - since >= app.autoPassMs) { cancelAutoPass(); sendAction({ type: "Pass" }); }
  }, 50);
}

export function cancelAutoPass() {
  if (timer) clearInterval(timer);
  timer = null;
  timerFor = null;
}
