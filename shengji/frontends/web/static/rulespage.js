// The rules page (rules.html), where a refusal's "why?" leads: each rule behind a
// refusal in plain words, from known.js (shengji.protocol.refusals.RULES), one section
// per rule with the anchor the link names (#following, ...).
import { $, h, fill } from "./dom.js";
import { RULES } from "./known.js";

fill($("rulelist"), Object.values(RULES).map((r) =>
  h("section", { id: r.id, class: "rule" }, h("h3", {}, r.title), h("p", {}, r.text))));
// the sections were drawn after the page loaded: go to the one the link names
const target = location.hash && document.getElementById(location.hash.slice(1));
if (target) target.scrollIntoView();
