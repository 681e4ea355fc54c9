// The rules core in the page (issue 24): core.wasm, the C core compiled to WebAssembly
// (shengji/wasm/core.mjs), judges a follower's selection before anything is sent. Cards
// that cannot take part in any legal follow are dimmed, an illegal selection is explained
// at once (and not sent), the lead's shape is named, the hand is grouped in trump order.
// The server stays the judge: its refusal still comes for anything the page lets through.
// Without WebAssembly (or if the core fails to load) the page works as before.
import { $, h, fill } from "./dom.js";
import { textCards, glyphText } from "./cards.js";
import { app, redraw } from "./state.js";
import { plainWords } from "./refusals.js";

// the rule a refused follow cites (shengji/engine/phase.py RULE_FOLLOW; tests/test_wasm_page.py)
export const RULE_FOLLOW = "docs/rules.md §5 (following suit and shape, seed 000 出牌規則)";

let core = null;      // the Core of core.mjs once loaded
let mod = null;       // core.mjs itself
const contexts = new Map();  // "level:trump" -> Context of the room's rules
app.core = null;      // "wasm" when in use (the tests read it), else why not
app.coreMs = [];      // the last feedback times, ms (benchmarks/README.md)

export function startRulesCore() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    app.core = "no WebAssembly";
    return;
  }
  import("/wasm/core.mjs")
    .then((m) => { mod = m; return m.loadCore(new URL("/wasm/core.wasm", location.href)); })
    .then((c) => { core = c; app.core = "wasm"; if (app.state) redraw(); })
    .catch((e) => { app.core = "unavailable: " + e; });
}

// welcome: the room's PlayRules as JSON
export function onRules(msg) {
  for (const ctx of contexts.values()) ctx.free();
  contexts.clear();
  app.playRules = msg.play_rules || null;
}

function context(view) {
  if (!core || !app.playRules || !view) return null;
  const trump = view.trump_suit || "none";
  const key = `${view.level}:${trump}`;
  let ctx = contexts.get(key);
  if (!ctx) {
    try {
      ctx = core.context(app.playRules, view.level, trump);
    } catch (e) {
      app.core = "rules refused: " + e.message;
      return null;
    }
    contexts.set(key, ctx);
  }
  return ctx;
}

// the hand in trump order, as the server's hand_groups (state.js reads it)
app.sortHand = (view) => {
  const ctx = context(view);
  if (!ctx || !view.hand) return view.hand_groups;
  try {
    return ctx.sortHand(view.hand).map((g) => ({ suit: g.suit, cards: g.cards.join(" ") }));
  } catch (e) {
    return view.hand_groups;
  }
};

function following(st) {
  const v = st && st.view;
  if (!st || !st.legal || st.legal.kind !== "follow" || app.hold || !v || !v.trick.length) return null;
  const ctx = context(v);
  return ctx ? { ctx, lead: v.trick[0][1], hand: v.hand } : null;
}

// the server's refusal, as the page would get it, naming the cards refused (`tried`)
function refusal(f, cards, verdict) {
  return {
    type: "error", code: "illegal", reason: verdict.reason, rule: RULE_FOLLOW, local: true,
    tried: cards, message: `cannot follow ${f.lead} with ${cards} (${verdict.reason}: ${verdict.detail})`,
  };
}

// Before a Play is sent: the refusal to show instead, or null to send it
export function veto(st, cards) {
  const f = following(st);
  if (!f) return null;
  try {
    const verdict = f.ctx.checkFollow(f.lead, f.hand, cards);
    return verdict.ok ? null : refusal(f, cards, verdict);
  } catch (e) {
    return null;  // an input the core refuses: the server explains it
  }
}

// After each render and selection change: dim, name the lead's shape, explain the selection
export function decorate(st, selection) {
  const box = $("actions");
  for (const id of ["leadshape", "selnote"]) { const el = document.getElementById(id); if (el) el.remove(); }
  for (const el of document.querySelectorAll("#hand .card.unplayable")) el.classList.remove("unplayable");
  const f = following(st);
  if (!f || !box) return;
  let fb;
  const t0 = performance.now();
  try {
    fb = f.ctx.feedback(f.lead, f.hand, selection);
  } catch (e) {
    return;
  }
  app.coreMs.push(performance.now() - t0);
  if (app.coreMs.length > 100) app.coreMs.shift();
  for (const el of document.querySelectorAll("#hand .card")) {
    if (!fb.playable[mod.parseCard(el.dataset.card)]) {
      el.classList.add("unplayable");
      el.title = el.title.split(" — ")[0] + " — no legal play includes it";
    }
  }
  box.append(h("div", { id: "leadshape", class: "note" }, "Lead: ", textCards(f.lead), ` (${fb.shape})`));
  let why = null;
  if (fb.verdict && !fb.verdict.ok) {
    // the sentence a refusal would say (refusals.js), not the core's technical one
    why = ["Not a legal follow: ", plainWords(fb.verdict.reason, st.view) || glyphText(fb.verdict.detail)];
  } else if (fb.stray.length) {
    why = [textCards(fb.stray.join(" ")), fb.stray.length > 1 ? " are" : " is", " in no legal follow"];
  }
  if (why) {
    const note = h("div", { id: "selnote", class: "note illegal" });
    fill(note, ...why);
    box.append(note);
  }
}
