// The house-rules panel of the lobby (issue 27), built from the variant schema the server
// serves (GET /api/rules/schema): a key added to the schema appears here without touching
// this file. The base is the lobby's variant and table size; each field shows the base's
// value, the schema's one-line description and shengji.io name; changed fields are marked
// and can be reset. The YAML box (#rules-yaml) holds the house file: `extends: BASE` plus
// only what differs. Editing, pasting or uploading YAML fills the panel through the
// server's check (POST /api/rules/check, the command line's loader), whose errors are
// shown next to their fields ([data-error-for="play.kitty"]).
// Also here: the rules summary of a room (what differs from its base), shown before
// sitting down and openable during play.
import { $, h, fill, button } from "./dom.js";

// where each key is shown, as docs/variants.md groups them (first match wins)
const GROUPS = [
  ["Decks and seats", /^(decks|deck\.|teams|by_players|hand_size|kitty_size)/],
  ["Friends", /^(game_mode|friends\.)/],
  ["Declaring", /^declare\./],
  ["Kitty", /^play\.kitty/],
  ["Throws and penalties", /^(play\.(throws|failed_throw|ruff_compare)|penalties\.)/],
  ["Play", /^play\./],
  ["Scoring", /^(scoring\.|next_dealer\.)/],
  ["Advancement", /^(start_level|match_end\.|advancement\.)/],
  ["Table options", /^table\./],
];
// keys the panel does not offer: what names the file, the base (the lobby's variant),
// the table size (the lobby's seats) and code (never accepted from the web)
const SKIP = new Set(["name", "description", "extends", "plugins", "players"]);

const hr = { schema: null, bases: [], examples: {}, fields: new Map(), base: null, baseSettings: null,
  name: null, timer: null, checked: null, asked: 0 };

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const same = (a, b) => JSON.stringify(norm(a)) === JSON.stringify(norm(b));
function norm(v) {  // key order does not matter when comparing values
  if (Array.isArray(v)) return v.map(norm);
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm(v[k])]));
  return v === undefined ? null : v;
}
function getPath(obj, key) {
  let node = obj;
  for (const part of key.split(".")) { if (!isObj(node)) return undefined; node = node[part]; }
  return node;
}

// ---------------------------------------------------------------- YAML out
const BARE = /^[A-Za-z_][A-Za-z0-9_\-+/]*$/;
const SPECIAL = /^(y|n|yes|no|on|off|true|false|null)$/i;
function scalar(v) {
  if (typeof v === "string") return BARE.test(v) && !SPECIAL.test(v) ? v : JSON.stringify(v);
  if (v === null || v === undefined) return "null";
  return String(v);
}
function flow(v) {  // a list or mapping on one line; integer keys stay integers
  if (Array.isArray(v)) return "[" + v.map(flow).join(", ") + "]";
  if (isObj(v)) {
    return "{" + Object.entries(v).map(([k, x]) =>
      (/^\d+$/.test(k) ? k : scalar(k)) + ": " + flow(x)).join(", ") + "}";
  }
  return scalar(v);
}
export function toYaml(tree, indent = "") {
  let out = "";
  for (const [k, v] of Object.entries(tree)) {
    if (isObj(v) && !v.__whole) out += `${indent}${k}:\n` + toYaml(v, indent + "  ");
    else out += `${indent}${k}: ${flow(isObj(v) ? v.value : v)}\n`;
  }
  return out;
}

// ---------------------------------------------------------------- the fields
function deref(node) {
  while (node && node.$ref) node = hr.schema.$defs[node.$ref.split("/").pop()];
  return node || {};
}
function kindOf(sch) {
  const s = deref(sch);
  if (s.properties) return "group";
  if (s.enum) return "enum";
  if (s.type === "boolean") return "bool";
  if (s.type === "integer") return "int";
  return "json";   // lists, tables, mixed types: edited as YAML flow / JSON text
}
function leaves(node, prefix, out) {
  for (const [k, sub] of Object.entries(deref(node).properties || {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (SKIP.has(key)) continue;
    if (kindOf(sub) === "group") leaves(sub, key, out);
    else out.push([key, sub]);
  }
  return out;
}

function makeInput(key, sch) {
  const s = deref(sch), kind = kindOf(sch);
  let el;
  // true/false as a choice, so that a key the base leaves unset stays unset
  if (kind === "bool") el = h("select", {}, [true, false].map((v) => h("option", { value: String(v) }, String(v))));
  else if (kind === "enum") el = h("select", {}, s.enum.map((v) => h("option", { value: JSON.stringify(v) }, String(v))));
  else if (kind === "int") el = h("input", { type: "number", min: s.minimum, max: s.maximum, step: 1, inputmode: "numeric" });
  else el = h("input", { type: "text", spellcheck: "false", autocomplete: "off" });
  el.className = "hr-input";
  el.setAttribute("aria-label", key);
  return el;
}

function readField(f) {  // {ok, value} of what the field holds now
  const el = f.input;
  if (f.kind === "bool" || f.kind === "enum") return { ok: true, value: JSON.parse(el.value) };
  const text = el.value.trim();
  if (text === "") return { ok: true, value: f.base };
  if (f.kind === "int") {
    return /^-?\d+$/.test(text) ? { ok: true, value: parseInt(text, 10) } : { ok: false, message: "a whole number" };
  }
  try { return { ok: true, value: JSON.parse(text) }; }
  catch (e) {
    // plain words are strings (auto, NT, ...)
    if (/^[\w\-+ ]+$/.test(text)) return { ok: true, value: text };
    return { ok: false, message: "not valid JSON / YAML flow text" };
  }
}
function writeField(f, value) {
  const el = f.input;
  if (f.kind === "bool" || f.kind === "enum") {
    const want = JSON.stringify(value === undefined ? null : value);
    if (![...el.options].some((o) => o.value === want)) {
      el.append(h("option", { value: want }, value === undefined || value === null ? "(not set)" : String(value)));
    }
    el.value = want;
  } else if (f.kind === "int") el.value = value === undefined || value === null ? "" : String(value);
  else el.value = value === undefined ? "" : (typeof value === "string" ? value : JSON.stringify(value));
}
function shown(v) { return v === undefined ? "—" : (typeof v === "string" ? v : JSON.stringify(v)); }

function buildFields(body) {
  hr.fields.clear();
  const groups = new Map(GROUPS.map(([name]) => [name, []]));
  groups.set("Other", []);
  for (const [key, sch] of leaves(hr.schema, "", [])) {
    const s = deref(sch);
    const input = makeInput(key, sch);
    const reset = button("↺", () => { resetField(key); changed(); }, "inline hr-reset");
    reset.title = "reset to the base's value";
    const f = { key, kind: kindOf(sch), input, base: undefined, reset,
      baseNote: h("span", { class: "hr-base" }),
      error: h("div", { class: "hr-error", "data-error-for": key, role: "alert" }) };
    const io = sch["x-shengji-io"] || s["x-shengji-io"];
    f.row = h("div", { class: "hr-field", "data-key": key },
      h("label", {}, h("code", {}, key), " ", input), " ", reset,
      h("div", { class: "hr-desc" }, sch.description || s.description || ""),
      h("div", { class: "hr-meta" }, f.baseNote, io ? h("span", { class: "hr-io" }, " · shengji.io: " + io) : null),
      exampleOf(key), f.error);
    input.addEventListener(f.kind === "bool" || f.kind === "enum" ? "change" : "input", changed);
    hr.fields.set(key, f);
    const group = (GROUPS.find(([, re]) => re.test(key)) || ["Other"])[0];
    groups.get(group).push(f.row);
  }
  fill(body, [...groups].filter(([, rows]) => rows.length).map(([name, rows]) =>
    h("details", { class: "hr-group" }, h("summary", {}, name, " ", h("span", { class: "hr-count" })), rows)));
}

// one position where this setting and its base judge differently (a rule case)
function exampleOf(key) {
  const list = hr.examples[key];
  if (!list || !list.length) return null;
  return h("details", { class: "hr-example", "data-example-for": key },
    h("summary", {}, "What it changes: an example"),
    list.map((ex) => h("div", { class: "hr-case" },
      h("div", {}, `${ex.kind}`, ex.level !== null ? ` at level ${"23456789TJQKA"[ex.level] === "T" ? "10" : "23456789TJQKA"[ex.level]}` : "",
        ex.trump !== null ? `, trump ${"DCHS"[ex.trump]}` : "", ": ", h("code", {}, JSON.stringify(ex.position))),
      h("div", {}, "with ", h("code", {}, `${key}: ${shown(ex.value)}`), " → ", h("b", {}, shown(ex.house_verdict))),
      h("div", {}, `under ${ex.base} → `, h("b", {}, shown(ex.base_verdict))),
      h("small", {}, `${ex.file} · ${ex.case}` + (ex.source ? ` · ${ex.source}` : "")))));
}

function resetField(key) {
  const f = hr.fields.get(key);
  writeField(f, f.base);
}
function resetAll() { for (const key of hr.fields.keys()) resetField(key); changed(); }

// the panel → the house file (only what differs from the base)
function houseTree() {
  const tree = {}, bad = [];
  for (const f of hr.fields.values()) {
    const got = readField(f);
    f.error.textContent = got.ok ? "" : got.message;
    if (!got.ok) { bad.push(f.key); continue; }
    const diff = !same(got.value, f.base);
    f.row.classList.toggle("changed", diff);
    if (!diff) continue;
    const parts = f.key.split(".");
    let node = tree;
    for (const p of parts.slice(0, -1)) node = node[p] = node[p] || {};
    node[parts.at(-1)] = isObj(got.value) ? { __whole: true, value: got.value } : got.value;
  }
  return { tree, bad };
}
function countChanged() {
  for (const d of document.querySelectorAll("#houserules .hr-group")) {
    const n = d.querySelectorAll(".hr-field.changed").length;
    d.querySelector(".hr-count").textContent = n ? `(${n} changed)` : "";
  }
}

// the file of the base itself, with nothing changed
function plainText() {
  let text = `extends: ${scalar(hr.base)}\n`;
  if (hr.name) text += `name: ${scalar(hr.name)}\n`;
  // a variant of several table sizes: the file says which (the lobby's seats)
  if (!$("seatslabel").hidden) text += `players: ${Number($("seats").value)}\n`;
  return text;
}

function writeYaml() {
  const { tree } = houseTree();
  countChanged();
  $("rules-yaml").value = plainText() + toYaml(tree);
}

function changed() {
  writeYaml();
  scheduleCheck();
}

// ---------------------------------------------------------------- the server's check
// the YAML says its table size itself (players:); `players` only for a base's defaults
async function check(text, players = null) {
  const body = { rules: text };
  if (players) body.players = players;
  const r = await fetch("/api/rules/check", { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { ok: r.ok, status: r.status, data: await r.json() };
}

function scheduleCheck() {
  clearTimeout(hr.timer);
  hr.timer = setTimeout(() => checkYaml(false), 350);
}

// check the YAML box; `fill`: the text came from the user (typed, pasted, uploaded), so
// the panel follows it
async function checkYaml(fillPanel) {
  const text = $("rules-yaml").value;
  let got;
  try { got = await check(text); } catch (e) { showStatus("the server did not answer", true); return; }
  if (text !== $("rules-yaml").value) return;   // edited again meanwhile
  showRuleErrors(got.ok ? [] : (got.data.errors || [{ key: "", message: got.data.message || "refused" }]));
  if (!got.ok) return;
  hr.checked = got.data;
  showWarnings(got.data.warnings || []);
  if (fillPanel) {
    hr.name = got.data.name || null;
    await setBase(got.data.base, got.data.players, got.data.base_settings);
    for (const f of hr.fields.values()) writeField(f, getPath(got.data.settings, f.key));
    writeYaml();
  }
  showStatus(got.data.changes.length ? `${got.data.changes.length} rule(s) differ from ${got.data.base}` :
    `the rules of ${got.data.base}`, false);
}

export function showRuleErrors(errors) {
  for (const f of hr.fields.values()) f.error.textContent = "";
  const general = [];
  for (const e of errors) {
    const f = hr.fields.get(e.key);
    if (f) {
      f.error.textContent = e.message;
      f.row.closest("details").open = true;
      $("houserules").querySelector("details.hr-panel").open = true;
    } else general.push((e.key ? e.key + ": " : "") + e.message);
  }
  const box = document.querySelector('[data-error-for=""]');
  if (box) { box.textContent = general.join("\n"); box.hidden = !general.length; }
  if (errors.length) showStatus(`${errors.length} problem(s): nothing is created until they are fixed`, true);
}
function showWarnings(warnings) {
  fill($("rules-warnings"), warnings.map((w) => h("li", {}, h("code", {}, w.key), ": ", w.message)));
}
function showStatus(text, bad) {
  const el = $("rules-status");
  el.textContent = text;
  el.className = bad ? "hr-status bad" : "hr-status";
}

// the base's resolved rules (the defaults of every field)
async function setBase(base, players, settings) {
  // a pasted file says its table size; a change of variant or size in the lobby does not
  // touch the size (the player may pick another while the base's rules are fetched)
  const fromFile = !!settings;
  const asked = ++hr.asked;   // a pasted file also overtakes a lobby choice being fetched
  if (!settings) {
    const seats = $("seatslabel").hidden ? null : Number($("seats").value);
    const got = await check(`extends: ${scalar(base)}\n`, seats);
    // the player chose again while this was fetched: the newer choice wins, and this
    // stale answer must not put the lobby's variant (and its seats) back. The lobby may
    // have moved before the newer fetch was even asked (its change handler waits a tick),
    // so the variant shown now is checked too: only a pasted file sets the lobby's variant
    if (asked !== hr.asked || $("variant").value !== base) return false;
    if (!got.ok) { showStatus(got.data.message || "this base cannot be used", true); return false; }
    settings = got.data.base_settings;
    players = got.data.players;
  }
  hr.base = base; hr.baseSettings = settings;
  if ($("variant").value !== base) {
    $("variant").value = base;
    $("variant").dispatchEvent(new Event("change"));
  }
  if (fromFile && !$("seatslabel").hidden && players) $("seats").value = String(players);
  for (const f of hr.fields.values()) {
    f.base = getPath(settings, f.key);
    f.baseNote.textContent = `base (${base}): ${shown(f.base)}`;
  }
  return true;
}

async function baseChanged() {
  await new Promise((r) => setTimeout(r, 0));   // after the lobby's own handler (seat counts)
  const base = $("variant").value;
  if (!hr.bases.includes(base)) {
    $("houserules").querySelector(".hr-body").hidden = true;
    showStatus(`house rules here extend ${hr.bases.join(", ")}`, true);
    return;
  }
  $("houserules").querySelector(".hr-body").hidden = false;
  // keep what was changed: the fields that differ are carried over to the new base
  const kept = hr.base ? houseTree().tree : {};
  if (!(await setBase(base, null, null))) return;
  resetAll();
  const apply = (node, prefix) => {
    for (const [k, v] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (isObj(v) && !v.__whole) apply(v, key);
      else if (hr.fields.has(key)) writeField(hr.fields.get(key), isObj(v) ? v.value : v);
    }
  };
  apply(kept, "");
  changed();
}

function download() {
  const blob = new Blob([$("rules-yaml").value], { type: "application/yaml" });
  const a = h("a", { href: URL.createObjectURL(blob), download: (hr.name || `${hr.base}-house`).replace(/[^\w.-]+/g, "-") + ".yaml" });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---------------------------------------------------------------- "Try these rules"
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

async function tryRules() {
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
    if (got.errors) showRuleErrors(got.errors);
    fill(out, h("span", { class: "bad" }, got.message || "refused"));
    return;
  }
  $("rules-seed").value = String(got.seed);
  fill(out, drawChart(got), h("div", { class: "hr-note" },
    `${got.house.deals} deals each, seed ${got.seed}` + (got.capped ? ` (stopped at the ${got.time_cap} s cap)` : "") +
    " — the same seed gives the same figures."));
}

// ---------------------------------------------------------------- the lobby's hooks
export async function mountHouseRules(container) {
  let info;
  try { info = await (await fetch("/api/rules/schema")).json(); } catch (e) { return; }
  if (!info.custom_rules) { container.hidden = true; return; }
  hr.schema = info.schema; hr.bases = info.bases; hr.examples = info.examples || {};
  const upload = h("input", { type: "file", accept: ".yaml,.yml,text/yaml", class: "hr-upload" });
  upload.onchange = async () => {
    const file = upload.files[0];
    if (!file) return;
    $("rules-yaml").value = await file.text();
    checkYaml(true);
  };
  const yaml = h("textarea", { id: "rules-yaml", rows: 6, spellcheck: "false", "aria-label": "house file (YAML)" });
  yaml.addEventListener("input", () => { clearTimeout(hr.timer); hr.timer = setTimeout(() => checkYaml(true), 500); });
  const body = h("div", { class: "hr-fields" });
  fill(container, h("details", { class: "hr-panel" },
    h("summary", {}, "House rules"),
    h("div", { class: "hr-body" },
      h("p", { class: "hr-note" }, "Start from the variant and seats above; change any setting. The file below is what you change: keep it for ",
        h("code", {}, "shengji variants check"), ", ", h("code", {}, "simulate"), " or ", h("code", {}, "serve --variant"), "."),
      body,
      h("div", { class: "hr-tools" }, button("Reset all to the base", resetAll), button("Download .yaml", download),
        h("label", { class: "inline" }, "Load a file ", upload)),
      h("label", { class: "hr-yamllabel" }, "House file (YAML — paste one here)"), yaml,
      h("div", { class: "hr-error", "data-error-for": "", role: "alert", hidden: true }),
      h("div", { id: "rules-status", class: "hr-status", role: "status" }),
      h("ul", { id: "rules-warnings", class: "hr-warnings" }),
      h("div", { class: "hr-tools" }, button("Try these rules", tryRules, "hr-try"),
        h("label", { class: "inline" }, "seed ", h("input", { id: "rules-seed", size: 6, inputmode: "numeric", placeholder: "random" }))),
      h("div", { id: "rules-preview", class: "hr-preview", role: "status" }))));
  container.hidden = false;
  buildFields(body);
  $("variant").addEventListener("change", () => { if ($("variant").value !== hr.base) baseChanged(); });
  $("seats").addEventListener("change", baseChanged);
  // the lobby fills its variant list asynchronously: wait for it
  for (let i = 0; i < 50 && !$("variant").value; i++) await new Promise((r) => setTimeout(r, 50));
  // a shared link (?room=CODE) fills the code: its rules show before sitting down
  const code = $("joincode").value.replace(/[^0-9a-z]/gi, "").toUpperCase();
  if (code) previewRoomRules(code);
  await baseChanged();
}

// what the panel adds to a room's creation request: the house file as the YAML box holds
// it (edited in the panel or by hand), when it is more than the base itself
export function houseRules() {
  if (!hr.base || $("houserules").hidden) return {};
  // the panel follows the lobby's variant a moment later (it fetches the base's rules):
  // until it has, its YAML is the old base's and says nothing about this room
  if (hr.base !== $("variant").value) return {};
  const text = $("rules-yaml").value;
  // only the base and the table size, which the lobby sends itself: no house rules
  const rest = text.split("\n").filter((line) => line.trim() && !/^(extends|players):/.test(line));
  return rest.length ? { rules: text } : {};
}

// ---------------------------------------------------------------- a room's rules
function summary(info) {
  const changes = info.rules_changes || [];
  return h("div", { class: "rules-summary" },
    h("p", {}, changes.length ? `House rules: ${changes.length} change(s) from ${info.rules_base}` :
      `The rules of ${info.rules_base} (no house rules)`),
    changes.length ? h("ul", {}, changes.map((c) => h("li", { "data-key": c.key }, h("code", {}, c.key), ": ",
      h("b", {}, shown(c.value)), " (", info.rules_base, ": ", shown(c.base), ")"))) : null,
    h("details", {}, h("summary", {}, "The whole rules (YAML)"),
      h("pre", { class: "rules-text" }, info.rules_house || info.rules),
      h("small", {}, "fingerprint " + info.rules_fingerprint)));
}

async function roomInfo(code) {
  const r = await fetch("/api/rooms/" + encodeURIComponent(code));
  return r.ok ? r.json() : null;
}

// before sitting down: the rules of the room whose code is typed in the lobby
export async function previewRoomRules(code) {
  let box = $("roomrules");
  if (!box) {
    box = h("div", { id: "roomrules", class: "panel-inset" });
    $("joincode").closest("label").after(box);
  }
  const info = code && code.length === 8 ? await roomInfo(code) : null;
  if (!info) { box.hidden = true; return; }
  box.hidden = false;
  fill(box, summary(info));
}

// the welcome and every state carry the rules' fingerprint, not their text: the text is
// fetched (GET /api/rooms/CODE) once, when a fingerprint not fetched yet comes
let rulesShown = null;
export function followRules(code, fingerprint) {
  if (fingerprint && fingerprint === rulesShown) return;
  rulesShown = fingerprint || null;
  showRoomRules(code);
}

// during play: a "Rules" button by the room code opens the summary
export async function showRoomRules(code) {
  const info = await roomInfo(code);
  if (!info) return;
  let btn = $("rulesbtn");
  if (!btn) {
    btn = button("Rules", () => {
      const box = $("rulesview");
      box.hidden = !box.hidden;
    }, "inline");
    btn.id = "rulesbtn";
    $("roominfo").append(" ", btn);
    const view = h("section", { id: "rulesview", class: "overlay", hidden: true },
      h("div", { class: "panel" }, h("h2", {}, "Rules of this table"), h("div", { id: "rulesviewbody" }),
        h("div", { class: "replaynav" }, button("close", () => { $("rulesview").hidden = true; }))));
    document.querySelector("main").append(view);
  }
  fill($("rulesviewbody"), summary(info));
  const wait = $("waitrules") || h("div", { id: "waitrules" });
  if (!wait.isConnected) $("waitseats").after(wait);
  fill(wait, summary(info));
}
