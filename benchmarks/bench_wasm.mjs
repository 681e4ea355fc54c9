// The JS column of benchmarks/bench_wasm.py: the same calls as the C-only driver, made
// through shengji/wasm/core.mjs in Node. Reads the job file (JSON) named on the command
// line; prints one JSON object {name: {median_us, best_us, n}}. CPU time is
// process.cpuUsage() (user + system), as the C driver reads CLOCK_PROCESS_CPUTIME_ID.
import { readFileSync } from "node:fs";
import { formatCounts, loadCore } from "../shengji/wasm/core.mjs";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const core = await loadCore();
const REPEAT = jobs.repeat ?? 7;
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const contexts = new Map();
const ctxOf = (it) => {
  const key = JSON.stringify([it.rules, it.level, it.trump]);
  if (!contexts.has(key)) contexts.set(key, core.context(it.rules, it.level, it.trump));
  return contexts.get(key);
};
const u8 = (a) => Uint8Array.from(a);

function time(name, calls, fn) {
  let inner = 1;
  for (;;) { // calibrate: a repeat takes about 20 ms of CPU
    const t0 = cpu();
    for (let i = 0; i < inner; i++) for (const c of calls) fn(c);
    const dt = cpu() - t0;
    if (dt > 20000 || inner > 1e6) break;
    inner *= dt > 2000 ? Math.ceil(20000 / dt) : 10;
  }
  const per = [];
  for (let r = 0; r < REPEAT; r++) {
    const t0 = cpu();
    for (let i = 0; i < inner; i++) for (const c of calls) fn(c);
    per.push((cpu() - t0) / (inner * calls.length));
  }
  per.sort((a, b) => a - b);
  return [name, { median_us: per[Math.floor(per.length / 2)], best_us: per[0], n: calls.length }];
}

const out = {};
for (const it of jobs.items) {
  it.ctx = ctxOf(it);
  it.lead8 = u8(it.lead); it.hand8 = u8(it.hand); it.play8 = u8(it.play); it.suit8 = u8(it.suit);
  it.plays8 = it.plays.map(u8);
  it.prepared = it.ctx.lead(it.lead8);
  it.handW = core.cards(it.hand8); // kept in wasm memory, as the C driver's buffers
  it.playW = core.cards(it.play8);
  for (const [k, c] of [["rawHand", it.hand8], ["rawPlay", it.play8], ["rawSuit", it.suit8]]) {
    it[k] = core.alloc(54);
    core.put(it[k], c);
  }
  it.leadText = formatCounts(it.lead8); it.handText = formatCounts(it.hand8); it.playText = formatCounts(it.play8); // decomposed beforehand, as the C driver's lead
}
const byDecks = {};
for (const it of jobs.items) (byDecks[it.rules.decks] ??= []).push(it);
for (const [decks, items] of Object.entries(byDecks)) {
  for (const [name, fn] of [
    ["decompose", (it) => it.ctx.decompose(it.suit8)],
    ["decompose_count", (it) => it.ctx.componentCount(it.suit8)],
    ["check_follow", (it) => it.ctx.checkFollow(it.prepared, it.handW, it.playW)],
    ["check_follow_u8", (it) => it.ctx.checkFollow(it.prepared, it.hand8, it.play8)],
    ["check_follow_text", (it) => it.ctx.checkFollow(it.leadText, it.handText, it.playText)],
    ["trick_winner", (it) => it.ctx.trickWinner(it.plays8)],
    // the export alone, the buffers already in wasm memory: what the JS glue adds is the rest
    ["check_follow_raw", (it) => core.x.sj_follow_code(it.ctx.r, it.prepared.p, it.rawHand, it.rawPlay)],
    ["decompose_raw", (it) => core.x.sj_ncomp(it.ctx.r, it.rawSuit)],
  ]) {
    const [k, v] = time(`${name}/${decks}`, items, fn);
    out[k] = v;
  }
}
// in-page feedback on a selection: Context.feedback, the call rulescore.js makes on every
// click (playable cards, the lead's shape, the verdict), plus the hand in trump order
if (jobs.feedback) {
  for (const f of jobs.feedback) f.ctx = ctxOf(f);
  const fb = (f) => { f.ctx.feedback(f.lead, f.hand, f.selection); f.ctx.sortHand(f.hand); };
  const [k, v] = time("feedback33", jobs.feedback, fb);
  out[k] = v;
  // each position once more, alone: the slowest single call (CPU time, microseconds)
  const each = jobs.feedback.map((f) => {
    const t0 = cpu();
    for (let i = 0; i < 20; i++) fb(f);
    return (cpu() - t0) / 20;
  }).sort((a, b) => a - b);
  out.feedback33_each = { median_us: each[each.length >> 1], p99_us: each[Math.floor(each.length * 0.99)],
    worst_us: each[each.length - 1], n: each.length };
}
console.log(JSON.stringify(out));
