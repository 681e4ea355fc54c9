// The house file as text: values compared as the rules compare them (key order aside),
// a settings tree written as YAML (block mappings, lists and tables on one line), and a
// value shown in one line. Used by the house-rules panel (houserules.js, rulesfields.js)
// and a room's rules summary (roomrules.js).

// a value written into the file as it was typed ("2.0"), so the loader reads what the
// command line would read from the same text
export class Raw { constructor(text) { this.text = text; } }
export const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Raw);
export const same = (a, b) => JSON.stringify(norm(a)) === JSON.stringify(norm(b));
function norm(v) {  // key order does not matter when comparing values
  if (Array.isArray(v)) return v.map(norm);
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm(v[k])]));
  return v === undefined ? null : v;
}
export function getPath(obj, key) {
  let node = obj;
  for (const part of key.split(".")) { if (!isObj(node)) return undefined; node = node[part]; }
  return node;
}

const BARE = /^[A-Za-z_][A-Za-z0-9_\-+/]*$/;
const SPECIAL = /^(y|n|yes|no|on|off|true|false|null)$/i;
export function scalar(v) {
  if (v instanceof Raw) return v.text;
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
// a tree of settings → YAML; a mapping marked {__whole: true, value} is one value (a table)
export function toYaml(tree, indent = "") {
  let out = "";
  for (const [k, v] of Object.entries(tree)) {
    if (isObj(v) && !v.__whole) out += `${indent}${k}:\n` + toYaml(v, indent + "  ");
    else out += `${indent}${k}: ${flow(isObj(v) ? v.value : v)}\n`;
  }
  return out;
}

export function shown(v) {
  if (v instanceof Raw) return v.text;
  return v === undefined ? "—" : (typeof v === "string" ? v : JSON.stringify(v));
}
