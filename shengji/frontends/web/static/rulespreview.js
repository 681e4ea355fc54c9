// "Try these rules": the server plays a short seeded bot match under the house file and
// under its base (POST /api/rules/preview, in a worker: preview.py), and the figures are
// drawn side by side as an SVG chart.
import { $, h, fill } from "./dom.js";

const METRICS = [
  ["dealer_hold_rate", "dealers hold", (v) => Math.round(v * 100) + "%"],
  ["attacker_points", "attackers' points", (v) => v.toFixed(1)],
  ["levels_per_deal", "levels / deal", (v) => v.toFixed(2)],
  ["failed_throws_per_deal", "failed throws / deal", (v) => v.toFixed(2)],
  ["tricks_per_deal", "tricks / deal", (v) => v.toFixed(1)],
];
const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// two bars per figure (house, base), each figure scaled to its own larger value
export function drawChart(got) {
  const rowH = 34, width = 320, left = 130, barW = width - left - 50;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${METRICS.length * rowH + 24}`, class: "hr-chart",
    role: "img", "aria-label": "house rules against the base" });
  chart.append(svg("rect", { x: left, y: 2, width: 10, height: 8, class: "bar-house" }),
    svg("text", { x: left + 14, y: 10, class: "legend" }, "house"),
    svg("rect", { x: left + 70, y: 2, width: 10, height: 8, class: "bar-base" }),
    svg("text", { x: left + 84, y: 10, class: "legend" }, got.base_name));
  METRICS.forEach(([key, label, fmt], i) => {
    const y = 20 + i * rowH, a = got.house[key], b = got.base[key];
    const top = Math.max(a, b) || 1;
    chart.append(svg("text", { x: 0, y: y + 14, class: "label" }, label));
    [[a, "bar-house", 0], [b, "bar-base", 13]].forEach(([v, cls, dy]) => {
      chart.append(svg("rect", { x: left, y: y + dy, height: 11, width: Math.max(1, (v / top) * barW),
        class: cls, "data-metric": key }));
      chart.append(svg("text", { x: left + (v / top) * barW + 4, y: y + dy + 10, class: "value" }, fmt(v)));
    });
  });
  return chart;
}

// `onRuleErrors`: the panel's errors by field (a file the check refuses)
export async function tryRules(onRuleErrors) {
  const out = $("rules-preview");
  const body = { rules: $("rules-yaml").value };
  const seedText = $("rules-seed").value.trim();
  if (seedText) body.seed = /^-?\d+$/.test(seedText) ? parseInt(seedText, 10) : seedText;
  fill(out, "Bots are playing a short match under both rules…");
  let r, got;
  try {
    r = await fetch("/api/rules/preview", { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    got = await r.json();
  } catch (e) { fill(out, "the server did not answer"); return; }
  if (!r.ok) {
    if (got.errors) onRuleErrors(got.errors);
    fill(out, h("span", { class: "bad" }, got.message || "refused"));
    return;
  }
  $("rules-seed").value = String(got.seed);
  fill(out, drawChart(got), appliedList(got.applied || []), h("div", { class: "hr-note" },
    `${got.house.deals} deals each, seed ${got.seed}` + (got.capped ? ` (stopped at the ${got.time_cap} s cap)` : "") +
    " — the same seed gives the same figures. ", got.bots_said || ""));
}

// how often each changed rule came into play (the server's words: preview.py)
function appliedList(applied) {
  if (!applied.length) return null;
  return h("ul", { class: "hr-applied" }, applied.map((a) =>
    h("li", { "data-applied": a.key, class: a.use && !a.house ? "unused" : "" }, h("code", {}, a.key), ": ", a.said)));
}
