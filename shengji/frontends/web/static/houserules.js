// The house-rules panel of the lobby (issue 27). Its fields come from the variant schema
// (rulesfields.js); the base is the lobby's variant and table size; changed fields are
// marked and can be reset. The YAML box (#rules-yaml) holds the house file: `extends: BASE`
// plus only what differs (rulesyaml.js). Editing, pasting or uploading YAML fills the
// panel through the server's check (POST /api/rules/check, the command line's loader),
// whose errors are shown next to their fields ([data-error-for="play.kitty"]).
// "Try these rules" is rulespreview.js; a room's rules summary is roomrules.js.
import { $, h, fill, button } from "./dom.js";
import { isObj, same, getPath, scalar, toYaml, shown } from "./rulesyaml.js";
import { buildFields, readField, writeField } from "./rulesfields.js";
import { tryRules } from "./rulespreview.js";
import { previewRoomRules } from "./roomrules.js";

const hr = { schema: null, bases: [], examples: {}, fields: new Map(), base: null, baseSettings: null,
  name: null, timer: null, checked: null, asked: 0, onAccepted: () => {} };

function resetField(key) {
  const f = hr.fields.get(key);
  writeField(f, f.base);
}
function resetAll() { for (const key of hr.fields.keys()) resetField(key); changed(); }

// the panel → the house file (only what differs from the base)
function houseTree() {
  const tree = {};
  for (const f of hr.fields.values()) {
    const value = readField(f);
    const diff = !same(value, f.base);
    f.row.classList.toggle("changed", diff);
    if (!diff) continue;
    const parts = f.key.split(".");
    let node = tree;
    for (const p of parts.slice(0, -1)) node = node[p] = node[p] || {};
    node[parts.at(-1)] = isObj(value) ? { __whole: true, value } : value;
  }
  return { tree };
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
  hr.onAccepted();
  showWarnings(got.data.warnings || []);
  if (fillPanel) {
    hr.name = got.data.name || null;
    await setBase(got.data.base, got.data.players, got.data.base_settings);
    for (const f of hr.fields.values()) writeField(f, getPath(got.data.settings, f.key));
    writeYaml();
  }
  showStatus(got.data.changes.length ? `${got.data.changes.length} rule${got.data.changes.length === 1 ? "" : "s"} differ${got.data.changes.length === 1 ? "s" : ""} from ${got.data.base}` :
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
  if (errors.length) showStatus(`${errors.length} problem${errors.length === 1 ? "" : "s"}: nothing is created until ${errors.length === 1 ? "it is" : "they are"} fixed`, true);
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

// ---------------------------------------------------------------- the lobby's hooks
// `onAccepted()`: the server's check accepted the rules as they are now
export async function mountHouseRules(container, onAccepted = () => {}) {
  hr.onAccepted = onAccepted;
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
      h("div", { class: "hr-tools" }, button("Try these rules", () => tryRules(showRuleErrors), "hr-try"),
        h("label", { class: "inline" }, "seed ", h("input", { id: "rules-seed", size: 6, inputmode: "numeric", placeholder: "random" }))),
      h("div", { id: "rules-preview", class: "hr-preview", role: "status" }))));
  container.hidden = false;
  hr.fields = buildFields(body, hr.schema, hr.examples, changed, (key) => { resetField(key); changed(); });
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
