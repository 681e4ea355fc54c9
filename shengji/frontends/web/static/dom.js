// DOM helpers shared by every module of the page. Every piece of data (names, messages,
// cards) reaches the page as text nodes through h(): never as markup.

export const $ = (id) => document.getElementById(id);

// The server also sends a Content-Security-Policy without inline
// scripts, so even a slip here would not run a script.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el[k] = v;
    else el.setAttribute(k, v);
  }
  el.append(frag(children));
  return el;
}

export function frag(...children) {
  const f = document.createDocumentFragment();
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    f.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return f;
}

export function fill(el, ...children) { el.replaceChildren(frag(children)); return el; }

export function button(label, onClick, cls = "") {
  return h("button", { class: cls, onclick: onClick, type: "button" }, label);
}
