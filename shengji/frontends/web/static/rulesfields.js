// The house-rules panel's fields, built from the variant schema the server serves
// (GET /api/rules/schema): one field per setting (a key added to the schema appears
// without touching this file), grouped as docs/variants.md groups the keys, each with
// its description, the base's value, its shengji.io name, an example position where it
// changes a verdict, and its error ([data-error-for="play.kitty"]). Reading and writing a
// field's value; the panel itself (houserules.js) keeps the fields and the base.
import { h, fill, button } from "./dom.js";
import { Raw, shown } from "./rulesyaml.js";

// where each key is shown, as docs/variants.md groups them (first match wins)
const GROUPS = [
  ["Decks and seats", /^(decks|deck\.|teams|by_players|hand_size|kitty_size)/],
  ["Friends", /^(game_mode|friends\.)/],
  ["Declaring", /^declare\./],
  ["Kitty", /^(play\.kitty|bury\.)/],
  ["Throws and penalties", /^(play\.(throws|failed_throw|ruff_compare)|penalties\.)/],
  ["Play", /^play\./],
  ["Scoring", /^(scoring\.|next_dealer\.)/],
  ["Advancement", /^(start_level|match_end\.|advancement\.)/],
  ["Table options", /^table\./],
];
// keys the panel does not offer: what names the file, the base (the lobby's variant),
// the table size (the lobby's seats) and code (never accepted from the web)
const SKIP = new Set(["name", "description", "extends", "plugins", "players"]);

let schema = null;   // the served schema (its $defs resolve references)

function deref(node) {
  while (node && node.$ref) node = schema.$defs[node.$ref.split("/").pop()];
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
  // a number as text: what was typed reaches the check as it is (a number input would
  // hand over "" for "2e" and let the base's value stand in silently)
  else if (kind === "int") el = h("input", { type: "text", inputmode: "decimal", autocomplete: "off", "data-kind": "int" });
  else el = h("input", { type: "text", spellcheck: "false", autocomplete: "off" });
  el.className = "hr-input";
  el.setAttribute("aria-label", key);
  return el;
}

// What the field holds now, as the house file will say it. Whatever was typed goes into
// the file, so the server's check (the command line's loader) says what is wrong with it
// next to the field ("2.5 is not an integer"): a value the panel cannot read is never
// dropped for the base's.
export function readField(f) {
  const el = f.input;
  if (f.kind === "bool" || f.kind === "enum") return JSON.parse(el.value);
  const text = el.value.trim();
  if (text === "") return f.base;
  if (f.kind === "int") {
    if (/^-?\d+$/.test(text)) return parseInt(text, 10);
    // a decimal ("2.5", "2.0") as typed: the loader refuses it as the command line does
    return /^[-+]?\d*\.\d*$/.test(text) && /\d/.test(text) ? new Raw(text) : text;
  }
  try { return JSON.parse(text); }
  catch (e) {
    return text;   // plain words are strings (auto, NT, ...); anything else is checked as one
  }
}
export function writeField(f, value) {
  const el = f.input;
  if (f.kind === "bool" || f.kind === "enum") {
    const want = JSON.stringify(value === undefined ? null : value);
    if (![...el.options].some((o) => o.value === want)) {
      el.append(h("option", { value: want }, value === undefined || value === null ? "(not set)" : String(value)));
    }
    el.value = want;
  } else if (f.kind === "int") el.value = value === undefined || value === null ? "" : String(value);
  else el.value = value === undefined ? "" : (typeof value === "string" && !looksJson(value) ? value : JSON.stringify(value));
}
// a string that reads back as another value ("2", "true"): written quoted
function looksJson(text) { try { JSON.parse(text); return true; } catch (e) { return false; } }

export function buildFields(body, rulesSchema, examples, onChange, onReset) {
  schema = rulesSchema;
  const fields = new Map();
  const groups = new Map(GROUPS.map(([name]) => [name, []]));
  groups.set("Other", []);
  for (const [key, sch] of leaves(schema, "", [])) {
    const s = deref(sch);
    const input = makeInput(key, sch);
    const reset = button("↺", () => onReset(key), "inline hr-reset");
    reset.title = "reset to the base's value";
    const f = { key, kind: kindOf(sch), input, base: undefined, reset,
      baseNote: h("span", { class: "hr-base" }),
      error: h("div", { class: "hr-error", "data-error-for": key, role: "alert" }) };
    const io = sch["x-shengji-io"] || s["x-shengji-io"];
    f.row = h("div", { class: "hr-field", "data-key": key },
      h("label", {}, h("code", {}, key), " ", input), " ", reset,
      h("div", { class: "hr-desc" }, sch.description || s.description || ""),
      h("div", { class: "hr-meta" }, f.baseNote, io ? h("span", { class: "hr-io" }, " · shengji.io: " + io) : null),
      exampleOf(key, examples[key]), f.error);
    input.addEventListener(f.kind === "bool" || f.kind === "enum" ? "change" : "input", onChange);
    fields.set(key, f);
    const group = (GROUPS.find(([, re]) => re.test(key)) || ["Other"])[0];
    groups.get(group).push(f.row);
  }
  fill(body, [...groups].filter(([, rows]) => rows.length).map(([name, rows]) =>
    h("details", { class: "hr-group" }, h("summary", {}, name, " ", h("span", { class: "hr-count" })), rows)));
  return fields;
}

// one position where this setting and its base judge differently (a rule case)
function exampleOf(key, list) {
  if (!list || !list.length) return null;
  return h("details", { class: "hr-example", "data-example-for": key },
    h("summary", {}, "What it changes: an example"),
    list.map((ex) => h("div", { class: "hr-case" },
      h("div", {}, `${ex.kind}`, ex.level !== null ? ` at level ${"23456789TJQKA"[ex.level] === "T" ? "10" : "23456789TJQKA"[ex.level]}` : "",
        ex.trump !== null ? `, trump ${"DCHS"[ex.trump]}` : "", ": ", h("code", {}, JSON.stringify(ex.position))),
      h("div", {}, "with ", h("code", {}, `${key}: ${shown(ex.value)}`), " → ", h("b", {}, shown(ex.house_verdict))),
      h("div", {}, `under ${ex.base} → `, h("b", {}, shown(ex.base_verdict))))));
}
