// shengji's C rules core in JavaScript: core.wasm (core_c/ built by core_c/build_wasm.py)
// behind a small API, the same in the browser and in Node (an ES module, no bundler).
//
//   import { loadCore } from "./core.mjs";
//   const core = await loadCore();                     // fetches / reads core.wasm beside it
//   const ctx = core.context({ decks: 2 }, "10", "S"); // PlayRules as JSON, level, trump
//   ctx.checkFollow("H5 H5", "H7 H7 H3 S2", "H7 H3");  // {ok: false, reason: "must_follow_shape", detail}
//   ctx.free();                                        // the rules live in wasm memory
//
// Cards are written in the case-file notation ("HA HA H10 BJ", docs/conformance.md).
// Every pointer into wasm memory is allocated and freed here; the C side validates every
// buffer, and bad input raises a ShengjiError (kind CardError / HandError / RulesError),
// never a trap. Messages are those of shengji/core.py, word for word.

const NK = 54;
const MAX_DECKS = 10;
const SUITS = "SHCD";
const SUIT_SYMBOLS = "♠♥♣♦";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const LJ = 52;
const BJ = 53;
const NO_TRUMP_LEVEL = 13;
const SUIT_NAMES = ["S", "H", "C", "D", "trump", "rainbow"];

export const RUFF_COMPARE = ["strongest", "all_components", "highest_card", "unit_length", "all",
  "cover_winner"];
export const FAILED_THROW = ["smallest", "next_player_chooses", "first_blocker", "fewest_cards"];
// PlayRules.throw_following / kitty_throw / throw_check, in the order of the core's codes
export const THROW_FOLLOWING = ["as_led", "tuples"];
export const KITTY_THROW = ["largest", "whole"];
export const THROW_CHECKS = ["holdings", "unseen"];
export const FOLLOW_PROTECTIONS = ["none", "longer_tuples", "tractor_on_tractor", "both",
  "suit_only"];
export const BOMBS = ["none", "any_suit", "follow_suit", "follow_suit_or_trump"];
export const KITTY_POLICIES = ["exponential", "power", "table", "twice_size"];
export const REASONS = ["ok", "not_in_hand", "wrong_count", "must_follow_suit",
  "must_follow_shape"];
const SHAPE_NAMES = { "1x1": "single", "2x1": "pair", "3x1": "triple", "4x1": "quad",
  "2x2": "tractor", "3x2": "titanic" };
const RULE_FIELDS = { 1: "decks", 2: "level", 3: "trump", 4: "max_tuple", 5: "tractors",
  6: "tractor_min_width", 7: "tractor_min_length", 8: "tractor_bridges_level_gap",
  9: "follow_protection", 10: "constant_ranks", 11: "ruff_compare", 12: "failed_throw",
  13: "kitty", 14: "kitty_cap", 15: "kitty_table", 16: "following", 17: "following",
  18: "shorter_tractors", 19: "bombs", 20: "rainbow_min", 21: "copies", 22: "genuine_tuples",
  23: "tractors_first", 24: "decomposition",
  25: "follow_requirements", 26: "throw_following", 27: "kitty_throw", 28: "trump_throws" };
// sj_err.code
const ERR = { LENGTH: -1, COPIES: -2, KIND: -3, EMPTY: -4, MIXED: -5, SIZE: -6,
  NOT_IN_HAND: -7, RULES: -8, LIMIT: -9, CAPACITY: -10, CONTEXT: -11, ARG: -12, MEMORY: -13 };
const ARG_NAMES = ["lead", "hand", "play", "others", "plays", "rules"];

/** Every error of this module: `kind` names the Python class of the same error. */
export class ShengjiError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = kind;
    this.kind = kind;
  }
}
const cardError = (m) => new ShengjiError("CardError", m);
const handError = (m) => new ShengjiError("HandError", m);
const rulesError = (m) => new ShengjiError("RulesError", m);

// ------------------------------------------------------------------------ cards

const TOKENS = new Map();
for (let s = 0; s < 4; s++) {
  const rankTexts = [...RANKS.map((r, i) => [r, i]), ["T", 8]];
  for (const suit of new Set([SUITS[s], SUITS[s].toLowerCase(), SUIT_SYMBOLS[s]])) {
    for (const [text, r] of rankTexts) {
      TOKENS.set(suit + text, s * 13 + r);
      TOKENS.set(suit + text.toLowerCase(), s * 13 + r);
    }
  }
}
for (const [name, k] of [["BJ", BJ], ["LJ", LJ]]) {
  for (const a of [name[0], name[0].toLowerCase()]) {
    for (const b of [name[1], name[1].toLowerCase()]) TOKENS.set(a + b, k);
  }
}

/** "HA" → 38 (kind id: suit * 13 + rank, LJ 52, BJ 53). */
export function parseCard(token) {
  if (typeof token !== "string") {
    throw cardError(`a card must be a string token, got ${typeof token} ${String(token)}`);
  }
  const t = token.trim();
  const k = TOKENS.get(t) ?? TOKENS.get(t.toUpperCase());
  if (k !== undefined) return k;
  if (t.length < 2) {
    throw cardError(`malformed card '${token}': a card is a suit letter and a rank, e.g. HA, S10, BJ`);
  }
  const suit = t[0];
  if (!SUITS.includes(suit.toUpperCase()) && !SUIT_SYMBOLS.includes(suit)) {
    throw cardError(`malformed card '${token}': unknown suit '${suit}' (expected S H C D or ♠ ♥ ♣ ♦)`);
  }
  throw cardError(`malformed card '${token}': unknown rank '${t.slice(1)}' ` +
    `(expected one of ${RANKS.join(" ")}, or T for 10)`);
}

/** 38 → "HA". */
export function cardStr(k) {
  if (!Number.isInteger(k) || k < 0 || k >= NK) throw cardError(`not a card id: ${k} (expected 0..53)`);
  if (k === BJ) return "BJ";
  if (k === LJ) return "LJ";
  return SUITS[Math.floor(k / 13)] + RANKS[k % 13];
}

// highest first: jokers, then S H C D from A down (shengji.cards.format_counts)
const DISPLAY_ORDER = [BJ, LJ];
for (let s = 0; s < 4; s++) for (let r = 12; r >= 0; r--) DISPLAY_ORDER.push(s * 13 + r);

/** 54 counts → "BJ SA SA H10" (the canonical order of shengji.cards.format_counts). */
export function formatCounts(counts) {
  const out = [];
  for (const k of DISPLAY_ORDER) for (let i = 0; i < counts[k]; i++) out.push(cardStr(k));
  return out.join(" ");
}

/** Cards (a string, a list of tokens or kind ids, or 54 counts as a Uint8Array) → 54
 * counts. At most MAX_DECKS (10) copies of a card (the most any game plays). */
export function counts(cards, what = "cards") {
  // 54 counts as they are: the core checks every count against the packs' copies
  if (cards instanceof Uint8Array && cards.length === NK) return cards;
  if (cards instanceof Cards) return cards.counts;
  let tokens;
  if (typeof cards === "string") tokens = cards.replaceAll(",", " ").split(/\s+/).filter(Boolean);
  else if (Array.isArray(cards)) tokens = cards;
  else throw cardError(`${what}: expected a string such as 'HA HA HK' or a list of card tokens, got ${typeof cards}`);
  const c = new Uint8Array(NK);
  try {
    for (const tok of tokens) {
      const k = Number.isInteger(tok) ? (tok >= 0 && tok < NK ? tok : cardStr(tok)) : parseCard(tok);
      c[k] += 1;
    }
  } catch (e) { // named as core.py names it: "lead: malformed card ..."
    if (what === "cards") throw e;
    throw new ShengjiError(e.kind, e.message.startsWith("cards:") ? what + e.message.slice(5) : `${what}: ${e.message}`);
  }
  for (let k = 0; k < NK; k++) {
    if (c[k] > MAX_DECKS) {
      throw handError(`${what}: ${c[k]} copies of ${cardStr(k)} but at most ${MAX_DECKS} decks are played`);
    }
  }
  return c;
}

function parseLevel(level) {
  if (typeof level === "number" && Number.isInteger(level)) {
    if (level < 0 || level > NO_TRUMP_LEVEL) {
      throw rulesError(`level: rank index ${level} out of range 0..12 ('2'..'A'), or 13 (NT)`);
    }
    return level;
  }
  const t = String(level).trim().toUpperCase();
  if (t === "NT") return NO_TRUMP_LEVEL;
  if (t === "T") return 8;
  const r = RANKS.indexOf(t);
  if (r < 0) throw cardError(`unknown rank '${level}': expected one of ${RANKS.join(" ")} (or T for 10)`);
  return r;
}

function parseTrump(trump) {
  if (trump === null || trump === undefined) return -1;
  if (typeof trump === "number" && Number.isInteger(trump)) {
    if (trump < 0 || trump > 3) throw rulesError(`trump: suit index ${trump} out of range 0..3 (S H C D)`);
    return trump;
  }
  const t = String(trump).trim();
  if (["none", "nt", "no trump", "notrump", ""].includes(t.toLowerCase())) return -1;
  if (t.length === 1) {
    const s = SUITS.indexOf(t.toUpperCase());
    if (s >= 0) return s;
    if (SUIT_SYMBOLS.includes(t)) return SUIT_SYMBOLS.indexOf(t);
  }
  throw cardError(`unknown suit '${trump}': expected one of S H C D (or ♠ ♥ ♣ ♦)`);
}

// ------------------------------------------------------------------------ rules

/** A shape [w, len] (or a name: "pair", "tractor", "2x3") → [w, len]. */
function parseShape(s, where) {
  if (Array.isArray(s) && s.length === 2 && s.every(Number.isInteger)) {
    const [w, len] = s;
    if (w < 1 || w > MAX_DECKS || len < 1 || len > 24) throw rulesError(`${where}: shape ${JSON.stringify(s)} out of range: width 1..${MAX_DECKS}, length 1..24`);
    return [w, len];
  }
  const t = String(s).trim().toLowerCase();
  for (const [key, name] of Object.entries(SHAPE_NAMES)) if (name === t) return key.split("x").map(Number);
  const m = /^(\d)x(\d+)$/.exec(t);
  if (m) return parseShape([Number(m[1]), Number(m[2])], where);
  throw rulesError(`${where}: unknown shape ${JSON.stringify(s)}`);
}

export function shapeStr([w, len]) {
  return SHAPE_NAMES[`${w}x${len}`] ?? `${w}x${len}`;
}

function patternStr(shapes) {
  return shapes.length ? shapes.map(shapeStr).join(" + ") : "singles";
}

const RULE_DEFAULTS = {
  decks: 2, max_tuple: null, tractors: true, throws: true, tractor_min_width: 2,
  tractor_min_length: 2, tractor_bridges_level_gap: true, constant_ranks: [],
  following: [], ruff_compare: "strongest", failed_throw: "smallest", kitty: "exponential",
  kitty_cap: 64, kitty_table: [2, 4, 6, 8, 8, 16], follow_protection: null,
  must_break_tuples: null, shorter_tractors: true, bombs: "none", rainbow_min: 0, copies: null,
  genuine_tuples: false, tractors_first: false, decomposition: "seeds",
  follow_requirements: "seeds", throw_following: "as_led", kitty_throw: "largest",
  trump_throws: true, throw_check: "holdings",
};
// PlayRules.decomposition, in the order of the core's SJ_DECOMP_* codes
const DECOMPOSITIONS = ["seeds", "shengji_io"];
// PlayRules.follow_requirements, in the order of the core's SJ_FOLLOWREQ_* codes
const FOLLOW_REQUIREMENTS = ["seeds", "shengji_io"];

/** The JSON form of PlayRules (shengji.wasm.rules_json; missing keys take PlayRules'
 * defaults) checked and completed: every field type- and range-checked. */
export function normaliseRules(json) {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw rulesError("play rules: expected an object of PlayRules settings");
  }
  for (const key of Object.keys(json)) {
    if (!(key in RULE_DEFAULTS) && key !== "extra") throw rulesError(`play rules: unknown setting '${key}'`);
  }
  const r = { ...RULE_DEFAULTS, ...json };
  const int = (name, lo, hi = 2 ** 31 - 1) => {
    const v = r[name];
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw rulesError(`${name}: ${JSON.stringify(v)} is not an integer ${lo}..${hi === 2 ** 31 - 1 ? "" : hi}`);
    }
  };
  const bool = (name) => {
    if (typeof r[name] !== "boolean") throw rulesError(`${name}: ${JSON.stringify(r[name])} is not true or false`);
  };
  const choice = (name, allowed) => {
    if (!allowed.includes(r[name])) throw rulesError(`${name}: ${JSON.stringify(r[name])} is not one of ${allowed.join(", ")}`);
  };
  int("decks", 1, MAX_DECKS);
  if (r.max_tuple === null) r.max_tuple = r.decks;
  int("max_tuple", 1, r.decks);
  for (const b of ["tractors", "throws", "tractor_bridges_level_gap", "shorter_tractors", "genuine_tuples",
    "tractors_first", "trump_throws"]) bool(b);
  if (r.follow_protection === null) r.follow_protection = r.must_break_tuples === false ? "longer_tuples" : "none";
  choice("follow_protection", FOLLOW_PROTECTIONS);
  int("tractor_min_width", 2, MAX_DECKS);
  int("tractor_min_length", 2, 24);
  if (!Array.isArray(r.constant_ranks) || !r.constant_ranks.every((x) => Number.isInteger(x) && x >= 0 && x <= 12)) {
    throw rulesError(`constant_ranks: ${JSON.stringify(r.constant_ranks)} is not a list of rank indices 0..12`);
  }
  choice("ruff_compare", RUFF_COMPARE);
  choice("failed_throw", FAILED_THROW);
  choice("kitty", KITTY_POLICIES);
  choice("bombs", BOMBS);
  choice("decomposition", DECOMPOSITIONS);
  choice("follow_requirements", FOLLOW_REQUIREMENTS);
  choice("throw_following", THROW_FOLLOWING);
  choice("kitty_throw", KITTY_THROW);
  choice("throw_check", THROW_CHECKS);
  if (r.kitty_throw === "whole" && r.kitty === "table") {
    throw rulesError("kitty_throw: whole reads the policy's formula over the whole lead, and the table kitty has none (its values name one structure each): use exponential, power or twice_size");
  }
  if (r.decomposition === "shengji_io" && r.max_tuple !== r.decks) {
    throw rulesError(`decomposition: shengji_io takes every copy of a card as one tuple, so max_tuple must be ${r.decks} (the deck count), not ${r.max_tuple}`);
  }
  int("rainbow_min", 0, 16);
  int("kitty_cap", 1);
  if (!Array.isArray(r.kitty_table) || r.kitty_table.length !== 6
      || !r.kitty_table.every((x) => Number.isInteger(x) && x >= 1)) {
    throw rulesError("kitty_table: needs 6 multipliers >= 1 (single, pair, triple, quad, tractor, titanic)");
  }
  if (r.copies === null) r.copies = new Array(NK).fill(r.decks);
  if (!Array.isArray(r.copies) || r.copies.length !== NK
      || !r.copies.every((x) => Number.isInteger(x) && x >= 0 && x <= r.decks)) {
    throw rulesError(`copies: expected ${NK} counts 0..decks (${r.decks})`);
  }
  let following = r.following;
  if (following && !Array.isArray(following) && typeof following === "object") following = Object.entries(following);
  if (!Array.isArray(following) || following.length > 16) {
    throw rulesError("following: expected a list of at most 16 [led shape, ladder] pairs");
  }
  r.following = following.map((entry) => {
    if (!Array.isArray(entry) || entry.length !== 2 || !Array.isArray(entry[1])
        || entry[1].length < 1 || entry[1].length > 24) {
      throw rulesError(`following: ${JSON.stringify(entry)} is not a [led shape, ladder of 1..24 patterns] pair`);
    }
    const lead = parseShape(entry[0], "following");
    const ladder = entry[1].map((p) => {
      if (!Array.isArray(p) || p.length > 90) throw rulesError(`following.${shapeStr(lead)}: a pattern is a list of at most 90 shapes`);
      return p.map((s) => parseShape(s, `following.${shapeStr(lead)}`));
    });
    for (const pat of ladder) checkPattern(r, lead, pat);
    return [lead, ladder];
  });
  const led = r.following.map(([l]) => shapeStr(l));
  if (new Set(led).size !== led.length) throw rulesError("following: two ladders for one led shape");
  return r;
}

// PlayRules.shape_exists / _check_pattern: a ladder no follower could ever supply is refused
function shapeExists(r, [w, len]) {
  if (w > r.max_tuple) return false;
  if (len === 1) return true;
  return r.tractors && w >= 2 && w >= r.tractor_min_width && len >= r.tractor_min_length;
}

function checkPattern(r, lead, pat) {
  const where = `following.${shapeStr(lead)}: pattern ${patternStr(pat)}`;
  const cards = pat.reduce((n, [w, len]) => n + w * len, 0);
  if (cards > lead[0] * lead[1]) {
    throw rulesError(`${where}: asks ${cards} cards but the led ${shapeStr(lead)} has ${lead[0] * lead[1]}; ` +
      "no follow could ever supply it");
  }
  if (!shapeExists(r, lead)) return;
  for (const s of pat) {
    if (!shapeExists(r, s)) throw rulesError(`${where}: no hand can supply it, a ${shapeStr(s)} does not exist under these rules`);
  }
}

// ------------------------------------------------------------------------ the module

let defaultCore = null;

/** Instantiate core.wasm (by default the file beside this module). `source`: a URL, a
 * path (Node), bytes, or a compiled WebAssembly.Module. */
export async function loadCore(source) {
  if (source === undefined && defaultCore) return defaultCore;
  let module;
  if (source instanceof WebAssembly.Module) module = source;
  else {
    let bytes = source;
    if (bytes === undefined || typeof bytes === "string" || bytes instanceof URL) {
      const url = bytes === undefined ? new URL("./core.wasm", import.meta.url) : bytes;
      if (typeof process !== "undefined" && process.versions?.node
          && (typeof url === "string" ? !/^https?:/.test(url) : url.protocol === "file:")) {
        const { readFile } = await import("node:fs/promises");
        bytes = await readFile(url);
      } else {
        const resp = await fetch(url);
        if (!resp.ok) throw new ShengjiError("ShengjiError", `core.wasm: HTTP ${resp.status}`);
        bytes = await resp.arrayBuffer();
      }
    }
    module = await WebAssembly.compile(bytes);
  }
  const instance = await WebAssembly.instantiate(module, {});
  const core = new Core(instance);
  if (source === undefined) defaultCore = core;
  return core;
}

class Core {
  constructor(instance) {
    this.x = instance.exports;
    this.x._initialize?.();
    this.memory = this.x.memory;
    const x = this.x;
    // scratch structs and buffers, owned by this Core for its lifetime
    this.sizes = { rules: x.sjw_sizeof(0), lead: x.sjw_sizeof(1), info: x.sjw_sizeof(2),
      throw: x.sjw_sizeof(3), err: x.sjw_sizeof(4) };
    this.lead = this.alloc(this.sizes.lead);
    this.leadOffsets = [0, 1, 2, 3, 4, 5, 6].map((i) => x.sjw_lead_offset(i));
    this.info = this.alloc(this.sizes.info);
    this.err = this.alloc(this.sizes.err);
    this.bufA = this.alloc(NK);
    this.bufB = this.alloc(NK);
    this.bufC = this.alloc(NK);
    this.playsCap = 12 * NK; // a trick of up to 12 seats without an allocation
    this.plays = this.alloc(this.playsCap);
    this.words = this.alloc(32); // uint64 total, int32 n_out, int32 exact, int32 esuit/strength
    this.released = typeof FinalizationRegistry !== "undefined"
      ? new FinalizationRegistry((p) => x.sjw_free(p)) : null;
  }

  alloc(n) {
    const p = this.x.sjw_alloc(n);
    if (!p) throw new ShengjiError("ShengjiError", `out of wasm memory (${n} bytes)`);
    return p;
  }

  free(p) {
    this.x.sjw_free(p);
  }

  /** A view of wasm memory (made again only after the memory grew: growing detaches
   * the old buffer, and making a view per call costs more than the call). */
  u8() {
    const v = this.view;
    if (v && v.buffer === this.memory.buffer) return v;
    this.view = new Uint8Array(this.memory.buffer);
    this.dv = new DataView(this.memory.buffer);
    return this.view;
  }

  i32(p) {
    this.u8();
    return this.dv.getInt32(p, true);
  }

  put(p, c) {
    this.u8().set(c, p);
  }

  /** Cards kept in wasm memory (54 counts), for calls that take the same hand many
   * times (no copy per call, as shengji.core's Hand): free them with cards.free(). */
  cards(cards) {
    const c = Uint8Array.from(counts(cards));
    const p = this.alloc(NK);
    this.put(p, c);
    return new Cards(this, p, c);
  }

  /** The address of `cards` in wasm memory: a Cards' own, else copied into `scratch`. */
  at(cards, scratch, what) {
    if (cards instanceof Cards && cards.core === this && cards.p) return cards.p;
    this.put(scratch, counts(cards, what));
    return scratch;
  }

  /** The rules of one deal: PlayRules as JSON, the level ("2".."A", "NT" or 0..13) and
   * the trump suit ("S".."D", "none"/null). Free it with ctx.free() (a forgotten one is
   * freed when collected). */
  context(rules, level, trump = null) {
    return new Context(this, normaliseRules(rules), parseLevel(level), parseTrump(trump));
  }

  /** How many bytes of wasm memory are in use (grows only; for leak tests). */
  get memoryBytes() {
    return this.memory.buffer.byteLength;
  }
}

function err(core) {
  const p = core.err;
  const v = (i) => core.i32(p + 4 * i);
  return { code: v(0), which: v(1), index: v(2), card: v(3), count: v(4), a: v(5), b: v(6) };
}

class Context {
  constructor(core, rules, level, trump) {
    this.core = core;
    this.rules = rules;
    this.level = level;
    this.trump = trump;
    const x = core.x;
    const r = core.alloc(core.sizes.rules);
    const set = (f, i, v) => x.sjw_rules_set(r, f, i, v);
    set(1, 0, rules.decks);
    set(2, 0, level);
    set(3, 0, trump);
    set(4, 0, rules.max_tuple);
    set(5, 0, rules.tractors ? 1 : 0);
    set(6, 0, rules.tractor_min_width);
    set(7, 0, rules.tractor_min_length);
    set(8, 0, rules.tractor_bridges_level_gap ? 1 : 0);
    set(9, 0, FOLLOW_PROTECTIONS.indexOf(rules.follow_protection));
    set(10, 0, rules.constant_ranks.reduce((m, c) => m | (1 << c), 0));
    set(11, 0, RUFF_COMPARE.indexOf(rules.ruff_compare));
    set(12, 0, FAILED_THROW.indexOf(rules.failed_throw));
    set(13, 0, KITTY_POLICIES.indexOf(rules.kitty));
    set(14, 0, Math.min(rules.kitty_cap, 2 ** 31 - 1));
    rules.kitty_table.forEach((v, i) => set(15, i, Math.min(v, 2 ** 31 - 1)));
    set(18, 0, rules.shorter_tractors ? 1 : 0);
    set(19, 0, BOMBS.indexOf(rules.bombs));
    set(20, 0, rules.rainbow_min);
    rules.copies.forEach((v, k) => set(21, k, v));
    set(22, 0, rules.genuine_tuples ? 1 : 0);
    set(23, 0, rules.tractors_first ? 1 : 0);
    set(24, 0, DECOMPOSITIONS.indexOf(rules.decomposition));
    set(25, 0, FOLLOW_REQUIREMENTS.indexOf(rules.follow_requirements));
    set(26, 0, THROW_FOLLOWING.indexOf(rules.throw_following));
    set(27, 0, KITTY_THROW.indexOf(rules.kitty_throw));
    set(28, 0, rules.trump_throws ? 0 : 1); // the core's field: no_trump_throws
    rules.following.forEach(([lead, ladder], i) => {
      x.sjw_ladder(r, i, lead[0], lead[1], ladder.length);
      ladder.forEach((pattern, p) => pattern.forEach(([w, len], j) => x.sjw_pattern_shape(r, i, p, j, w, len)));
    });
    if (x.sj_prepare(r, core.err) !== 0) {
      const e = err(core);
      core.free(r);
      throw rulesError(`${RULE_FIELDS[e.a] ?? "rules"}: value rejected by the rules core (out of range)`);
    }
    this.r = r;
    this.esuit = new Uint8Array(NK);
    this.strength = new Uint8Array(NK);
    for (let k = 0; k < NK; k++) {
      this.esuit[k] = x.sjw_rules_get(r, 0, k);
      this.strength[k] = x.sjw_rules_get(r, 1, k);
    }
    this.leadKey = null; // counts of the lead decomposed in core.lead (a one-entry cache)
    this.token = {};
    core.released?.register(this, r, this.token);
  }

  /** Give the rules' wasm memory back (the context is unusable afterwards). */
  free() {
    if (this.r) {
      this.core.released?.unregister(this.token);
      this.core.free(this.r);
      this.r = 0;
    }
  }

  live() {
    if (!this.r) throw new ShengjiError("ShengjiError", "this rules context was freed");
    return this.r;
  }

  // ------------------------------------------------------------ errors (core.py _raise)

  holdOnly(k) {
    const c = k >= 0 && k < NK ? this.rules.copies[k] : this.rules.decks;
    const d = this.rules.decks;
    return c === d ? `${d} deck(s) hold only ${d}` : `the packs hold only ${c} (the variant's deck composition)`;
  }

  raise(e = err(this.core)) {
    let what = ARG_NAMES[e.which] ?? "cards";
    if (e.index >= 0 && (e.which === 3 || e.which === 4)) what = `${what}[${e.index}]`;
    const card = e.card >= 0 && e.card < NK ? cardStr(e.card) : null;
    switch (e.code) {
      case ERR.COPIES:
        throw handError(`${what}: ${e.count} copies of ${card} but ${this.holdOnly(e.card)}`);
      case ERR.EMPTY:
        throw handError(`${what}: empty lead (a lead needs at least one card)`);
      case ERR.MIXED:
        throw handError(`${what}: cards of two suits (${SUIT_NAMES[e.a]} and ${SUIT_NAMES[e.b]}, e.g. ${card}) ` +
          "cannot be led together: a lead is of one suit, all trumps counting as one suit");
      case ERR.SIZE:
        throw handError(`${what}: ${e.count} cards but the lead has ${e.a}: every play of a trick has ` +
          "as many cards as the lead");
      case ERR.NOT_IN_HAND:
        throw handError(`${what}: ${card} is not in the hand`);
      case ERR.KIND:
        throw cardError(`${what}: not a card id (expected 0..53)`);
      case ERR.LIMIT:
        throw new ShengjiError("ShengjiError", `${what}: the rules core's search budget was exhausted`);
      case ERR.RULES:
        throw rulesError(`${RULE_FIELDS[e.a] ?? "rules"}: rejected by the rules core`);
      default:
        throw new ShengjiError("ShengjiError", `${what}: rules core error ${e.code}`);
    }
  }

  /** A lead decomposed once, for many follow checks (as a prepared lead Hand in
   * shengji.core): pass it wherever a lead is taken; free it with lead.free(). */
  lead(cards) {
    const c = Uint8Array.from(counts(cards, "lead"));
    const core = this.core;
    const p = core.alloc(core.sizes.lead);
    core.put(core.bufA, c);
    if (core.x.sj_decompose(this.live(), core.bufA, NK, p, core.err) < 0) {
      core.free(p);
      this.raise();
    }
    return new Lead(this, p, c);
  }

  /** The sj_lead of `lead` (a Lead of this context, or cards decomposed into core.lead,
   * kept while the same counts are asked again). */
  leadPtr(lead) {
    if (lead instanceof Lead) {
      if (lead.ctx !== this || !lead.p) throw new ShengjiError("ShengjiError", "lead: prepared by another context, or freed");
      return lead.p;
    }
    this.prepareLead(lead);
    return this.core.lead;
  }

  /** Decompose `lead` into core.lead (kept while the same counts are asked again). */
  prepareLead(lead) {
    if (lead instanceof Lead) lead = lead.counts;
    const c = counts(lead, "lead");
    const key = this.leadKey;
    if (key && key.ctx === this && sameCounts(key.c, c) && this.core.leadOwner === this) return c;
    const core = this.core;
    core.put(core.bufA, c);
    if (core.x.sj_decompose(this.live(), core.bufA, NK, core.lead, core.err) < 0) {
      this.leadKey = null;
      core.leadOwner = null;
      this.raise();
    }
    this.leadKey = { ctx: this, c: Uint8Array.from(c) };
    core.leadOwner = this;
    return c;
  }

  // ------------------------------------------------------------ single cards

  /** 0..3 for a plain suit, 4 for trumps. */
  effectiveSuit(card) {
    return this.esuit[typeof card === "number" ? card : parseCard(card)];
  }

  /** "higher" / "lower" / "equal" / "unrelated": `a` led first, then `b`. */
  compare(a, b) {
    const ka = typeof a === "number" ? a : parseCard(a);
    const kb = typeof b === "number" ? b : parseCard(b);
    return ["", "higher", "lower", "equal", "unrelated"][this.core.x.sj_compare(this.live(), ka, kb)];
  }

  // ------------------------------------------------------------ structures

  /** Components of a lead, best first: [{width, length, cards}] (semantics §3). */
  decompose(lead) {
    const core = this.core;
    let l;
    if (lead instanceof Lead) l = this.leadPtr(lead);
    else { // straight into the scratch lead (no cache copy: a decomposition is asked once)
      core.put(core.bufA, counts(lead, "lead"));
      this.leadKey = null;
      core.leadOwner = null;
      if (core.x.sj_decompose(this.live(), core.bufA, NK, core.lead, core.err) < 0) this.raise();
      l = core.lead;
    }
    const m = core.u8();
    const o = core.leadOffsets;
    const n = core.i32(l + o[2]);
    const rainbow = core.i32(l + o[1]) === 5;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const at = l + o[3] + i * o[6];
      const w = m[at];
      const len = m[at + 1];
      if (rainbow) { // rank groups: every card of that rank
        const rank = m[at + 2];
        const c = new Uint8Array(NK);
        for (let s = 0; s < 4; s++) c[s * 13 + rank] = m[l + o[5] + s * 13 + rank];
        out[i] = new Component(w, 1, null, c);
        continue;
      }
      const first = l + o[4] + m[at + 3];
      out[i] = new Component(w, len, len === 1 ? m[first] : Array.from(m.subarray(first, first + len)), null);
    }
    return out;
  }

  /** How many components `lead` decomposes into (no component built: the cheap question
   * "is this lead one structure?"). */
  componentCount(lead) {
    if (lead instanceof Lead) return this.core.x.sjw_lead_get(this.leadPtr(lead), 2, 0);
    const core = this.core;
    core.put(core.bufA, counts(lead, "lead"));
    const n = core.x.sj_ncomp(this.live(), core.bufA);
    if (n >= 0) return n;
    return this.core.x.sjw_lead_get(this.leadPtr(lead), 2, 0); // raises the input error
  }

  /** The lead's shape in words, for followers: "tractor + pair", "3 singles", "rainbow". */
  leadShape(lead) {
    if (this.core.x.sjw_lead_get(this.leadPtr(lead), 1, 0) === 5) return "rainbow";
    const parts = [];
    for (const { width, length } of this.decompose(lead)) {
      const name = shapeStr([width, length]);
      const last = parts[parts.length - 1];
      if (last && last.name === name) last.n += 1;
      else parts.push({ name, n: 1 });
    }
    return parts.map(({ name, n }) => (n === 1 ? name : `${n} ${name}s`)).join(" + ");
  }

  isTractor(cards) {
    const core = this.core;
    core.put(core.bufA, counts(cards));
    const rc = core.x.sj_is_tractor(this.live(), core.bufA, NK, core.err);
    if (rc < 0) this.raise();
    return rc === 1;
  }

  // ------------------------------------------------------------ following

  /** Is `play` (from `hand`) a legal follow to `lead`? {ok, reason, code, detail}: the
   * reason code and sentence the server gives (core.py Context.check_follow). A play not
   * in the hand is an input error (HandError). */
  checkFollow(lead, hand, play) {
    const l = this.leadPtr(lead);
    const core = this.core;
    const x = core.x;
    const h = core.at(hand, core.bufB, "hand");
    const p = core.at(play, core.bufC, "play");
    const rc = x.sj_follow_code(this.live(), l, h, p);
    if (rc === 0) return FOLLOW_OK;
    if (rc > 1) { // a verdict: its sentence is made when read (as in shengji.core)
      const m = core.u8();
      return new Refusal(this, lead instanceof Lead ? lead.counts : m.slice(l + core.leadOffsets[5], l + core.leadOffsets[5] + NK),
        m.slice(h, h + NK), m.slice(p, p + NK), rc);
    }
    const full = x.sj_check_follow(this.r, l, h, NK, p, NK, core.info, core.err);
    if (full < 0) this.raise();
    throw handError(`play: ${cardStr(x.sjw_info_get(core.info, 2, 0))} is not in the hand`);
  }

  /** The sentence of a refused follow (checked again with the full entry point). */
  refusalDetail(lead, hand, play) {
    const l = this.leadPtr(lead);
    const core = this.core;
    const h = core.at(hand, core.bufB, "hand");
    const p = core.at(play, core.bufC, "play");
    const rc = core.x.sj_check_follow(this.live(), l, h, NK, p, NK, core.info, core.err);
    if (rc < 0) this.raise();
    return rc > 1 ? this.followDetail(rc, l) : "";
  }

  followDetail(rc, l) {
    const x = this.core.x;
    const info = this.core.info;
    const n = x.sjw_lead_get(l, 0, 0);
    const esuit = x.sjw_lead_get(l, 1, 0);
    const suit = SUIT_NAMES[esuit];
    const count = x.sjw_info_get(info, 3, 0);
    if (rc === 2) return `the lead has ${n} card(s) but the play has ${count}`;
    if (rc === 3) {
      if (count >= n) {
        return `must follow suit: the hand holds ${count} ${suit} card(s), so all ${n} cards played must be ${suit}`;
      }
      return `must follow suit: the hand holds ${count} ${suit} card(s) and all of them must be played`;
    }
    if (esuit === 5) {
      const ncomp = x.sjw_lead_get(l, 2, 0);
      const sizes = Array.from({ length: ncomp }, (_, i) => x.sjw_lead_get(l, 3, i)).join(" + ");
      return "must follow the rainbow: the hand holds cards of one rank for each " +
        `part (${sizes} cards), so the play must have them too`;
    }
    const comp = x.sjw_info_get(info, 1, 0);
    if (comp < 0) return "must follow shape";
    const shape = [x.sjw_lead_get(l, 3, comp), x.sjw_lead_get(l, 4, comp)];
    const pattern = Array.from({ length: x.sjw_info_get(info, 4, 0) },
      (_, j) => [x.sjw_info_get(info, 5, j), x.sjw_info_get(info, 6, j)]);
    return `must follow shape: component ${comp + 1} of the lead (${shapeStr(shape)}) requires ` +
      `${patternStr(pattern)} from the suit, which the hand holds`;
  }

  /** Every legal follow (distinct multisets, as card strings), at most `limit`, with the
   * true total; `exact` false when the core's work budget stopped the count. */
  legalFollows(lead, hand, limit = 10000) {
    const raw = this.legalRaw(lead, hand, limit);
    const plays = [];
    for (let i = 0; i < raw.n; i++) plays.push(formatCounts(raw.out.subarray(i * NK, (i + 1) * NK)));
    return { plays, total: raw.total, exact: raw.exact };
  }

  legalRaw(lead, hand, limit) {
    if (!Number.isInteger(limit) || limit < 0) throw handError(`limit: ${limit} is not a non-negative integer`);
    const l = this.leadPtr(lead);
    const core = this.core;
    core.put(core.bufB, counts(hand, "hand"));
    limit = Math.min(limit, Math.floor(2 ** 31 / NK) - 1);
    // a small buffer first, a larger one only when more follows exist (as shengji.core):
    // a huge limit never allocates more than the follows need
    let cap = Math.min(limit, 64);
    for (;;) {
      const out = core.alloc(Math.max(cap, 1) * NK);
      try {
        const w = core.words;
        const rc = core.x.sj_legal_follows(this.live(), l, core.bufB, NK, out, cap * NK,
          w + 8, w, w + 12, core.err);
        if (rc < 0) this.raise();
        core.u8();
        const dv = core.dv;
        const n = dv.getInt32(w + 8, true);
        const total = Number(dv.getBigUint64(w, true));
        const exact = dv.getInt32(w + 12, true) !== 0;
        if (n === Math.min(limit, total) || (!exact && n < cap) || cap >= limit) {
          return { n, total, exact, out: core.u8().slice(out, out + n * NK) };
        }
        cap = Math.min(limit, Math.max(total, 2 * cap));
      } finally {
        core.free(out);
      }
    }
  }

  /** Which cards of `hand` take part in at least one legal follow to `lead`: 54 flags
   * (1 = playable). When the follows are too many to list, every card is playable (a
   * follow that large lets any card in). */
  playable(lead, hand, limit = 256) {
    const h = counts(hand, "hand");
    const flags = new Uint8Array(NK);
    const raw = this.legalRaw(lead, h, limit);
    if (raw.n < raw.total || !raw.exact) {
      for (let k = 0; k < NK; k++) flags[k] = h[k] ? 1 : 0;
      return flags;
    }
    for (let i = 0; i < raw.n * NK; i++) if (raw.out[i]) flags[i % NK] = 1;
    return flags;
  }

  // ------------------------------------------------------------ throws, tricks, kitty

  /** A throw (a lead of several components) against every other seat's holding:
   * {valid, blocker, forced, forcedOptions} (core.py check_throw; forced options smallest
   * first, the first is forced unless the variant lets another seat choose). */
  checkThrow(lead, others) {
    if (!Array.isArray(others)) throw handError("others: expected a list of card groups");
    if (others.length > 64) throw handError(`others: ${others.length} holdings, at most 64`);
    const l = this.leadPtr(lead);
    const core = this.core;
    const x = core.x;
    const groups = others.map((o, i) => counts(o, `others[${i}]`));
    const buf = core.alloc(Math.max(groups.length, 1) * NK);
    const res = core.alloc(core.sizes.throw);
    try {
      groups.forEach((g, i) => core.put(buf + i * NK, g));
      if (x.sj_check_throw(this.live(), l, buf, groups.length * NK, groups.length, res, core.err) < 0) {
        this.raise();
      }
      if (x.sjw_throw_get(res, 0, 0)) return { valid: true, blocker: null, forced: null, forcedOptions: [] };
      const options = [];
      for (let o = 0; o < x.sjw_throw_get(res, 2, 0); o++) {
        const p = x.sjw_throw_get(res, 3, o);
        options.push(formatCounts(core.u8().subarray(p, p + NK)));
      }
      const blocker = x.sjw_throw_get(res, 1, 0);
      return { valid: false, blocker: blocker >= 0 ? blocker : null, forced: options[0] ?? null, forcedOptions: options };
    } finally {
      core.free(res);
      core.free(buf);
    }
  }

  /** Index of the winning play; plays in play order, the lead first (semantics §7). */
  trickWinner(plays) {
    if (!Array.isArray(plays) || plays.length < 2 || plays.length > 64) {
      throw handError(`plays: a trick needs 2..64 plays, got ${Array.isArray(plays) ? plays.length : typeof plays}`);
    }
    const core = this.core;
    const groups = plays.map((p, i) => counts(p, `plays[${i}]`));
    const m = groups.length;
    const buf = m * NK <= core.playsCap ? core.plays : core.alloc(m * NK);
    try {
      groups.forEach((g, i) => core.put(buf + i * NK, g));
      let rc = core.x.sj_winner_code(this.live(), buf, m);
      if (rc < 0) {
        rc = core.x.sj_trick_winner(this.r, buf, m * NK, m, core.err);
        if (rc < 0) this.raise();
      }
      return rc;
    } finally {
      if (buf !== core.plays) core.free(buf);
    }
  }

  /** Kitty multiplier of the last trick's winning play (and its lead) (semantics §8). */
  kittyMultiplier(play, lead = null) {
    const core = this.core;
    let pl = 0;
    if (lead !== null && lead !== undefined) pl = this.leadPtr(lead);
    core.put(core.bufB, counts(play, "play"));
    const rc = core.x.sj_kitty_multiplier(this.live(), core.bufB, NK, pl, core.err);
    if (rc < 0) this.raise();
    return rc;
  }

  // ------------------------------------------------------------ display

  /** What a page shows for a follower's selection, in one call: which cards of `hand`
   * can take part in a legal follow (54 flags), the lead's shape in words, and the
   * verdict on `selection` ({ok, reason, code, detail}) once it has as many cards as the
   * lead, else null and the selected cards no legal follow contains (`stray`). */
  feedback(lead, hand, selection) {
    const l = counts(lead, "lead");
    const h = counts(hand, "hand");
    const sel = counts(selection, "play");
    const playable = this.playable(l, h);
    const shape = this.leadShape(l);
    let n = 0;
    let size = 0;
    const stray = [];
    for (let k = 0; k < NK; k++) {
      n += sel[k];
      size += l[k];
      if (sel[k] && !playable[k]) stray.push(cardStr(k));
    }
    const verdict = n === size ? this.checkFollow(l, h, sel) : null;
    return { playable, shape, verdict, stray };
  }

  /** The hand in trump order (shengji.protocol.messages.hand_groups): trumps first, then
   * S H C D, strongest first: [{suit: "trump" | "S" | ..., cards: [tokens]}]. */
  sortHand(hand) {
    const c = counts(hand, "hand");
    const groups = new Map();
    for (let k = 0; k < NK; k++) {
      for (let i = 0; i < c[k]; i++) {
        const s = this.esuit[k];
        if (!groups.has(s)) groups.set(s, []);
        groups.get(s).push(k);
      }
    }
    const out = [];
    for (const s of [4, 0, 1, 2, 3]) {
      const ks = groups.get(s);
      if (!ks) continue;
      ks.sort((a, b) => this.strength[b] - this.strength[a] || b - a);
      out.push({ suit: s === 4 ? "trump" : SUITS[s], cards: ks.map(cardStr) });
    }
    return out;
  }
}

const FOLLOW_OK = Object.freeze({ ok: true, reason: "ok", code: 0, detail: "" });

/** A refused follow: {ok: false, reason, code, detail}; `detail` (the server's sentence)
 * is worked out when first read, so a caller that wants only the verdict never pays for it. */
class Refusal {
  constructor(ctx, lead, hand, play, code) {
    this.ok = false;
    this.code = code;
    this.reason = REASONS[code];
    this.why = [ctx, lead, hand, play];
    this.text = null;
  }

  get detail() {
    if (this.text === null) {
      const [ctx, lead, hand, play] = this.why;
      this.text = ctx.refusalDetail(lead, hand, play);
    }
    return this.text;
  }

  toJSON() {
    return { ok: false, reason: this.reason, code: this.code, detail: this.detail };
  }
}

/** One component of a decomposition: `width` cards per tuple, `length` tuples; its cards
 * as 54 `counts`, and as text (`cards`) when read. */
class Component {
  constructor(width, length, kinds, c) {
    this.width = width;
    this.length = length;
    this.kinds = kinds; // the kind, or the kinds of a tractor from the top down
    this.c = c;
  }

  /** The component's cards as 54 counts. */
  get counts() {
    if (this.c === null) {
      this.c = new Uint8Array(NK);
      for (const k of typeof this.kinds === "number" ? [this.kinds] : this.kinds) this.c[k] = this.width;
    }
    return this.c;
  }

  get cards() {
    return formatCounts(this.counts);
  }

  toJSON() {
    return { width: this.width, length: this.length, cards: this.cards };
  }
}

/** Cards in wasm memory (Core.cards), until free(). */
class Cards {
  constructor(core, p, c) {
    this.core = core;
    this.p = p;
    this.counts = c;
    this.token = {};
    core.released?.register(this, p, this.token);
  }

  free() {
    if (this.p) {
      this.core.released?.unregister(this.token);
      this.core.free(this.p);
      this.p = 0;
    }
  }

  toString() {
    return formatCounts(this.counts);
  }
}

/** A lead decomposed once (Context.lead): its sj_lead lives in wasm memory until free(). */
class Lead {
  constructor(ctx, p, c) {
    this.ctx = ctx;
    this.p = p;
    this.counts = c;
    this.token = {};
    ctx.core.released?.register(this, p, this.token);
  }

  free() {
    if (this.p) {
      this.ctx.core.released?.unregister(this.token);
      this.ctx.core.free(this.p);
      this.p = 0;
    }
  }
}

function sameCounts(a, b) {
  for (let k = 0; k < NK; k++) if (a[k] !== b[k]) return false;
  return true;
}
