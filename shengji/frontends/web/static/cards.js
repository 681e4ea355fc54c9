// Cards as the page shows them: tokens ("HA", "C10", "BJ") to glyphs, card elements,
// server sentences with their card tokens drawn as glyphs.
import { h, frag } from "./dom.js";
import { SUIT, SUIT_NAME, JOKER, JOKER_NAME, RANK_ORDER, POINTS } from "./known.js";

// suits, jokers, ranks and points come from the Python data (known.js is generated)
export { SUIT, SUIT_NAME, RANK_ORDER, POINTS };
export const RED = new Set(["H", "D"]);


export function cardLabel(tok) {
  if (tok === "BJ") return { rank: "JOKER", suit: "BJ", red: true, joker: true };
  if (tok === "LJ") return { rank: "JOKER", suit: "LJ", red: false, joker: true };
  return { rank: tok.slice(1), suit: SUIT[tok[0]], red: RED.has(tok[0]), joker: false };
}

export function cardEl(tok, opts = {}) {
  const c = cardLabel(tok);
  const el = h(opts.button ? "button" : "div", {
    class: "card" + (c.red ? " red" : "") + (c.joker ? " joker" : "") + (opts.trump ? " trump" : "") +
      (opts.small ? " small" : ""),
    dataset: { card: tok }, title: glyph(tok), type: opts.button ? "button" : null,
  });
  if (c.joker) {
    el.append(h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, JOKER[tok]),
      h("span", { class: "jname" }, JOKER_NAME[tok].split(" ")[0]));
  } else {
    el.append(h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, c.suit));
  }
  return el;
}

export function tokens(text) { return (text || "").split(" ").filter(Boolean); }

export function cardsRow(text, small = true) {
  return h("div", { class: "cards" }, tokens(text).map((t) => cardEl(t, { small })));
}

export function glyph(t) {
  const c = cardLabel(t);
  return c.joker ? JOKER[t] + JOKER_NAME[t] : c.suit + c.rank;
}

// card tokens as glyph text ("♥A ♥A"), one span per card
export function textCards(text) {
  const out = [];
  for (const t of tokens(text)) {
    if (out.length) out.push(" ");
    out.push(h("span", { class: "tok" + (cardLabel(t).red ? " red" : ""), dataset: { suit: t[0] } }, glyph(t)));
  }
  return frag(out);
}

// a server sentence with its card tokens (HA, C10, BJ) turned into glyphs
export const CARD_TOKEN = /\b(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)\b/g;
export function glyphText(text) {
  const out = [];
  let at = 0;
  for (const m of String(text).matchAll(CARD_TOKEN)) {
    out.push(text.slice(at, m.index), textCards(m[0]));
    at = m.index + m[0].length;
  }
  out.push(String(text).slice(at));
  return frag(out);
}

export function cardPoints(text) {
  return tokens(text).reduce((n, t) => n + (POINTS[t.slice(1)] || 0), 0);
}

// "trumps" or "♠ spades": the suit a card counts in, as the server's view says (its
// `trumps` lists every trump under the variant, the level and the trump suit)
export function suitOf(tok, v) {
  if (tok === "BJ" || tok === "LJ" || (v && tokens(v.trumps).includes(tok))) return "trumps";
  return SUIT[tok[0]] + " " + SUIT_NAME[tok[0]];
}
