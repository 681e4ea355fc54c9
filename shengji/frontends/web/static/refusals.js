// Refusals in words: the sentences of shengji.protocol.refusals (known.js, the same the
// terminal says), filled in with the lead, its suit and the count as card glyphs. They
// serve a refusal from the server and one from the page's own rules core (rulescore.js,
// which refuses an illegal follow before sending it) alike. The rule behind a refusal is
// a "why?" link to the rules page (static/rules.html, from known.js's RULES).
import { h } from "./dom.js";
import { tokens, textCards, glyphText, suitOf } from "./cards.js";
import { REFUSALS, RULELESS, RULES } from "./known.js";
import { app } from "./state.js";

// the engine's sentence for our own seat: "seat 0's" → "your", "seat 0" → "you"
function yours(text) {
  if (app.seat === null || app.seat === undefined) return text;
  return text.replace(new RegExp(`\\bseat ${app.seat}'s\\b`, "g"), "your").replace(new RegExp(`\\bseat ${app.seat}\\b`, "g"), "you");
}

// The plain sentence of `reason` at the trick of `view`, as parts (text and glyphs); null
// when the reason has none or a field it needs is unknown. `message`: the engine's
// sentence, whose part after the first colon fills {detail}.
export function plainWords(reason, view, message = "") {
  const template = REFUSALS[reason];
  if (!template) return null;
  const lead = view && view.trick.length ? view.trick[0][1] : null;
  const fields = {
    lead: lead ? textCards(lead) : null,
    suit: lead ? suitOf(tokens(lead)[0], view) : null,
    count: app.legal && app.legal.count ? String(app.legal.count) : null,
    detail: message.includes(": ") ? glyphText(message.split(": ").slice(1).join(": ").replace(/\.$/, "")) : null,
  };
  const parts = template.split(/\{(\w+)\}/);  // text, field, text, field, ...
  if (!parts.every((p, i) => i % 2 === 0 || fields[p])) return null;
  return parts.map((p, i) => (i % 2 ? fields[p] : p));
}

// A refusal in words. `msg` is the server's `error`, or the rules core's refusal of the
// selection, which names the cards refused (`tried`); a server refusal answers the last
// action this page sent.
export function refusalText(msg) {
  const message = yours(String(msg.message || ""));
  const said = plainWords(msg.reason, app.state && app.state.view, message);
  if (said) {
    const tried = msg.local ? msg.tried : app.lastSent && app.lastSent.cards;
    return tried && msg.reason !== "not_your_turn" ? ["You tried ", textCards(tried), ". ", ...said] : said;
  }
  if (msg.code === "rate_limited") return ["Too many messages — slow down a little."];
  if (msg.code === "bad_token") return ["This page no longer holds your seat. Reload the page."];
  // anything else: the server's sentence without its codes, cards as glyphs
  return [glyphText((message || msg.code).replace(/\s*\([a-z_]+(:[^)]*)?\)\s*$/, ""))];
}

// "why?": a link to the rule behind the refusal, in plain words on the rules page
export function whyLink(msg) {
  const rule = msg.rule && !RULELESS.includes(msg.reason) ? RULES[msg.rule] : null;
  if (!rule) return null;
  return h("a", { class: "why", href: `/static/rules.html#${rule.id}`, target: "_blank",
    rel: "noopener", title: rule.title }, "why?");
}
