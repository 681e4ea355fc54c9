// Your hand: the cards in groups (trumps apart), tapped to select; the selection is by
// place in the hand, so two equal cards are two choices.
import { $, h } from "./dom.js";
import { cardEl, textCards } from "./cards.js";
import { app, handTokens } from "./state.js";

// onSelect(): called after each tap changes the selection (the actions follow it)
export function renderHand(st, onSelect) {
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
      onSelect();
    };
    groupEl.appendChild(el);
  });
  if (st.view.kitty) hand.append(h("div", { class: "note" }, "You took the kitty: ", textCards(st.view.kitty)));
}

export function selectedCards() {
  const toks = handTokens(app.state.view);
  return [...app.selected].sort((a, b) => a - b).map((i) => toks[i].tok).join(" ");
}
