// What you can do now: the buttons of each decision (declare, bury, call friends, play),
// the hint and its advice, a refusal explained in words and card glyphs.
import { $, h, fill, button } from "./dom.js";
import { textCards } from "./cards.js";
import { refusalText, whyLink } from "./refusals.js";
import { app, handTokens, redraw } from "./state.js";
import { send } from "./connection.js";
import { selectedCards } from "./hand.js";
import { renderCallPicker } from "./friends.js";
import { renderDealDeclare } from "./bidding.js";
import { veto } from "./rulescore.js";

export function sendAction(action) {
  hideError();
  app.lastSent = action;
  send({ type: "action", token: app.token, action });
}

export function renderActions(st) {
  const box = $("actions"), legal = st.legal;
  box.replaceChildren();
  renderSelection(legal);
  // while the cards arrive: a Declare button, never a prompt that stops the deal
  if (app.seat !== null && !app.hold && st.view && st.view.phase === "deal" && st.view.to_deal > 0 &&
      (!legal || legal.kind === "declare")) {
    renderDealDeclare(box, st, sendAction);
    return;
  }
  // table.play_takeback: you played last and the next seat has not acted yet
  if (app.seat !== null && !app.hold && st.view && st.view.can_take_back) {
    const t = button("Take back", () => sendAction({ type: "TakeBack" }), "pass");
    t.id = "takeback-play";
    t.dataset.action = "takeback-play";
    box.appendChild(t);
  }
  if (!legal || app.hold) return;
  const n = app.selected.size;
  if (legal.kind === "declare" || legal.kind === "takeback") {
    for (const a of legal.actions) {
      if (a.type === "Pass") box.appendChild(button(legal.kind === "takeback" ? "Keep it" : "Pass", () => sendAction({ type: "Pass" }), "pass"));
      else if (a.type === "TakeBack") box.appendChild(button("Take it back", () => sendAction({ type: "TakeBack" }), "pass"));
      else box.appendChild(button(["Declare ", textCards(a.cards)], () => sendAction(a), "declare"));
    }
  } else if (legal.kind === "redeal") {
    // declare.weak_hand_redeal: your hand is weak; keep the deal or ask for it again
    box.appendChild(button("Keep the deal", () => sendAction({ type: "Pass" }), "pass"));
    const r = button("Ask for a redeal", () => sendAction({ type: "RequestRedeal" }), "declare");
    r.id = "request-redeal";
    r.dataset.action = "request-redeal";
    box.appendChild(r);
  } else if (legal.kind === "bury") {
    const b = button(`Bury ${n}/${legal.count}`, () => sendAction({ type: "Bury", cards: selectedCards() }), "primary");
    b.id = "play";
    b.disabled = n !== legal.count;
    box.appendChild(b);
    box.appendChild(hintButton());
    // the variant's bury settings: what the kitty may hold
    if (legal.restricted) {
      box.appendChild(h("span", { class: "hintline", id: "bury-limit" },
        [`at most ${legal.restricted_max} of `, textCards(legal.restricted)]));
    }
  } else if (legal.kind === "call") {
    // finding friends: a suit, a card, then which copy ("the 2nd ♠A played")
    renderCallPicker(box, legal, (calls) => sendAction({ type: "CallFriends", calls }));
  } else if (legal.kind === "choose") {
    st.view.forced_options.forEach((o, i) => {
      box.appendChild(button(["Force ", textCards(o)], () => sendAction({ type: "ChooseForced", option: i }), "declare"));
    });
  } else if (legal.kind === "lead" || legal.kind === "follow") {
    const b = button(legal.kind === "lead" ? "Lead" : "Play", () => {
      // the rules core in the page refuses an illegal follow before it is sent
      const refused = veto(st, selectedCards());
      if (!refused) { sendAction({ type: "Play", cards: selectedCards() }); return; }
      showError(refused);
      $("selnote")?.remove();  // the refusal above says what the note said
    }, "primary");
    b.id = "play";
    b.disabled = n === 0;
    box.appendChild(b);
    box.appendChild(hintButton());
  } else {
    // an action kind this page does not know yet: offer what the server lists
    for (const a of legal.actions) {
      box.appendChild(button([a.type, a.cards ? " " : "", a.cards ? textCards(a.cards) : ""], () => sendAction(a), "declare"));
    }
  }
  if (legal.kind === "bury" || legal.kind === "lead" || legal.kind === "follow") {
    const c = button("Clear", () => { app.selected.clear(); hideError(); redraw(); });
    c.id = "clear";
    box.appendChild(c);
  }
}

// ask the server for advice: the room's bot, seeing only this seat's state
function hintButton() {
  const b = button("Hint", hint);
  b.id = "hint";
  return b;
}

// what is selected, beside the buttons (the hand may be scrolled away on a phone)
function renderSelection(legal) {
  const el = $("selection");
  const picking = legal && !app.hold && ["bury", "lead", "follow"].includes(legal.kind);
  if (!picking) { el.replaceChildren(); return; }
  const cards = selectedCards();
  const want = legal.kind === "lead" ? "" : `/${legal.count}`;
  fill(el, cards ? [h("b", {}, `${app.selected.size}${want}: `), textCards(cards)]
    : h("span", { class: "hintline" }, legal.kind === "bury" ? `tap ${legal.count} cards to bury` : "tap your cards"));
}

export function hint() {
  if (!app.legal) return;
  hideError();
  send({ type: "hint", token: app.token });
}

// select the advised cards and say why
export function showAdvice(msg) {
  const a = msg.action;
  if (a.cards && app.legal) {
    const toks = handTokens(app.state.view);
    app.selected.clear();
    for (const w of a.cards.split(" ")) {
      const i = toks.findIndex((c, j) => c.tok === w && !app.selected.has(j));
      if (i >= 0) app.selected.add(i);
    }
  }
  redraw();
  const el = $("advice");
  fill(el, "Hint: ", a.cards ? textCards(a.cards) : a.type, msg.reason ? " — " + msg.reason : "");
  el.hidden = false;
}

// a refusal in plain words (refusals.js); the rule behind it is a "why?" link
export function showError(msg) {
  const el = $("error");
  el.hidden = false;
  fill(el, h("b", {}, "Not allowed: "), refusalText(msg), " ", whyLink(msg));
}

export function hideError() { $("error").hidden = true; }
