#!/usr/bin/env node
// A conformance engine over core.wasm: the JSON-lines protocol of docs/conformance.md
// ("Any engine: --engine cmd:PROGRAM"). One request per line on stdin, one answer per
// line on stdout, in order. `shengji conformance --engine wasm` runs this program with
// Node, so the protocol is tested by our own use.
//
//   {"id": "a::b", "kind": "follow", "rules": {...}, "level": "10", "trump": "S",
//    "cards": {"lead": "H5 H5", "hand": "H7 H7 H3", "play": "H7 H3"}}
//   -> {"id": "a::b", "answer": "illegal", "reason": "must_follow_shape", "detail": "..."}
//   -> {"id": ..., "error": "play: H3 is not in the hand"}      (the input is wrong)
//   -> {"id": ..., "unsupported": "kind score"}                 (not a kind of this engine)

import { createInterface } from "node:readline";
import { loadCore, formatCounts, counts } from "./core.mjs";

const core = await loadCore();
const contexts = new Map(); // (rules, level, trump) -> Context, bounded
const CONTEXTS = 64;

function context(req) {
  const key = JSON.stringify([req.rules, req.level, req.trump]);
  let ctx = contexts.get(key);
  if (!ctx) {
    if (contexts.size >= CONTEXTS) {
      const [oldest, old] = contexts.entries().next().value;
      old.free();
      contexts.delete(oldest);
    }
    ctx = core.context(req.rules, req.level, req.trump ?? null);
    contexts.set(key, ctx);
  }
  return ctx;
}

const canonical = (cards) => formatCounts(counts(cards));

const KINDS = {
  compare: (ctx, v) => {
    const [a, b] = v.map((c) => {
      const ids = canonical(c).split(" ").filter(Boolean);
      if (ids.length !== 1) throw Object.assign(new Error(`compare: '${c}' is not one card`), { kind: "CardError" });
      return ids[0];
    });
    return { answer: ctx.compare(a, b) };
  },
  tractor: (ctx, v) => ({ answer: ctx.isTractor(v) }),
  decompose: (ctx, v) => ({ answer: ctx.decompose(v).map((c) => c.cards) }),
  follow: (ctx, v) => {
    const r = ctx.checkFollow(v.lead, v.hand, v.play);
    return { answer: r.ok ? "legal" : "illegal", reason: r.reason, detail: r.detail };
  },
  legal_follows: (ctx, v) => {
    const r = ctx.legalFollows(v.lead, v.hand, v.limit ?? 10000);
    return { answer: r };
  },
  playable: (ctx, v) => {
    const flags = ctx.playable(v.lead, v.hand);
    const out = new Uint8Array(54);
    flags.forEach((f, k) => { out[k] = f; });
    return { answer: formatCounts(out) };
  },
  winner: (ctx, v) => ({ answer: ctx.trickWinner(v.plays) }),
  throw: (ctx, v) => {
    if (refusedThrow(ctx, v.lead, v.others)) return { answer: { valid: false, refused: true } };
    const r = ctx.checkThrow(v.lead, v.others);
    if (r.valid) return { answer: { valid: true } };
    return { answer: { valid: false, forced: r.forced, forced_options: r.forcedOptions, blocker: r.blocker } };
  },
  kitty_multiplier: (ctx, v) => ({ answer: ctx.kittyMultiplier(v.play, v.lead ?? null) }),
  sort: (ctx, v) => ({ answer: ctx.sortHand(v) }),
};

// A throw refused before it is made (play.trump_throws false, play.throw_check unseen;
// docs/semantics.md §6): the case's other holdings are every card its thrower cannot see.
function refusedThrow(ctx, lead, others) {
  if (ctx.decompose(lead).length < 2) return false;
  const r = ctx.rules;
  const c = counts(lead, "lead");
  if (!r.trump_throws && c.every((n, k) => n === 0 || ctx.effectiveSuit(k) === 4)) return true;
  if (r.throw_check !== "unseen") return false;
  return !ctx.checkThrow(lead, [others.join(" ")]).valid;
}

function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return { id: null, error: "request is not JSON" };
  }
  const id = req?.id ?? null;
  const judge = KINDS[req?.kind];
  if (!judge) return { id, unsupported: `kind ${req?.kind}` };
  try {
    return { id, ...judge(context(req), req.cards) };
  } catch (e) {
    return { id, error: String(e?.message ?? e), type: e?.kind ?? "Error" };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
let flushing = false;
for await (const line of rl) {
  if (!line.trim()) continue;
  out.push(JSON.stringify(answer(line)));
  // answer at once when the writer waits for us; batch when requests are queued
  if (!flushing) {
    flushing = true;
    setImmediate(() => {
      process.stdout.write(out.join("\n") + "\n");
      out.length = 0;
      flushing = false;
    });
  }
}
// (the last answers are written by the pending setImmediate before Node exits)
