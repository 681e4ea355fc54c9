// A room's rules: what differs from its base, and the whole rules text with their
// fingerprint (GET /api/rooms/CODE). Shown before sitting down (the code typed in the
// lobby, or a shared link) and openable during play (a "Rules" button by the room code);
// fetched once per fingerprint (followRules: messages carry the fingerprint alone).
import { $, h, fill, button } from "./dom.js";
import { shown } from "./rulesyaml.js";

function summary(info) {
  const changes = info.rules_changes || [];
  return h("div", { class: "rules-summary" },
    h("p", {}, changes.length ? `House rules: ${changes.length} change${changes.length === 1 ? "" : "s"} from ${info.rules_base}` :
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
