// The websocket to the server: connecting, reconnecting to our seat, sending messages
// (docs/protocol.md, protocol v2) and handing each received message to its handler.
import { $ } from "./dom.js";
import { app } from "./state.js";

export const PROTOCOL = 2;

export function connect(onOpen) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  app.ws = ws;
  ws.onopen = () => { $("conn").textContent = "connected"; $("conn").className = "conn on"; onOpen(); };
  ws.onclose = () => {
    $("conn").textContent = "offline — reconnecting…"; $("conn").className = "conn";
    if (app.token) setTimeout(() => connect(() => joinRoom(app.room, null, app.token)), 1500);
    else if (app.watching) setTimeout(() => connect(() => watchRoom(app.room)), 1500);
  };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}

export function connectThen(fn) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) fn(); else connect(fn);
}

export function send(msg) { app.ws.send(JSON.stringify(msg)); }

export function joinRoom(code, name, token) {
  const msg = { type: "join", protocol: PROTOCOL, room: code };
  if (token) msg.token = token; else if (name) msg.name = name;
  send(msg);
}

export function watchRoom(code) { send({ type: "watch", protocol: PROTOCOL, room: code }); }

// Each message type goes to the handler a module registered for it (app.js wires them),
// so this module knows the wire and nothing of what the page draws.
const handlers = {};
export function on(type, fn) { handlers[type] = fn; }

function handle(msg) {
  const fn = handlers[msg.type];
  if (fn) fn(msg);
}
