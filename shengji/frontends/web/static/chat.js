// The room's chat (server: frontends/web/chat.py): lines from players and spectators,
// shown as text only (never markup), newest last; a line to send, 200 characters at most.
import { $, h } from "./dom.js";
import { app, seatName } from "./state.js";
import { send } from "./connection.js";

const SHOWN = 100;
let last = -1;  // the number of the last line shown (history and new lines may overlap)

export function onChat(msg) {
  const list = $("chatlist");
  for (const line of msg.lines || []) {
    if (typeof line.n !== "number" || line.n <= last) continue;
    last = line.n;
    const who = line.seat === null || line.seat === undefined ? `${line.name} (watching)`
      : line.seat === app.seat ? "you" : String(line.name || seatName(line.seat));
    list.append(h("li", { dataset: { n: String(line.n) } }, h("b", {}, who + ": "), String(line.text)));
  }
  while (list.children.length > SHOWN) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
  $("chat").hidden = false;
}

export function setUpChat() {
  $("chatform").onsubmit = (ev) => {
    ev.preventDefault();
    const input = $("chatinput");
    const text = input.value.trim();
    if (!text || !app.ws) return;
    const msg = { type: "chat", text };
    if (app.token) msg.token = app.token;
    send(msg);
    input.value = "";
  };
}
