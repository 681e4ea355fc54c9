// The websocket to the server: connecting, reconnecting to our seat, sending messages
// (docs/protocol.md, protocol v2) and handing each received message to its handler.
import { $ } from "./dom.js";
import { app } from "./state.js";

export const PROTOCOL = 2;

// the code as the server reads it: upper case, letters and digits only
export function normalCode(code) { return String(code).replace(/[^0-9a-z]/gi, "").toUpperCase(); }

// the close code of a socket whose room the server reclaimed (frontends/web/reclaim.py)
const IDLE_CLOSE = 4000;

// One websocket per room: its URL carries the room's code (/ws/CODE), so that a proxy in
// front of several server processes can send it to the one that serves the room.
export function connect(code, onOpen) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(normalCode(code))}`);
  app.ws = ws;
  app.wsRoom = normalCode(code);
  ws.onopen = () => { $("conn").textContent = "connected"; $("conn").className = "conn on"; onOpen(); };
  ws.onclose = (ev) => {
    if (ws !== app.ws) return;  // a socket this page replaced (another room)
    if (ev.code === IDLE_CLOSE) {  // the server reclaimed the idle room: reload to come back
      $("conn").textContent = "closed: the room was idle — reload the page to play on"; $("conn").className = "conn";
      return;
    }
    $("conn").textContent = "offline — reconnecting…"; $("conn").className = "conn";
    if (app.token) setTimeout(() => connect(app.room, () => joinRoom(app.room, null, app.token)), 1500);
    else if (app.watching) setTimeout(() => connect(app.room, () => watchRoom(app.room)), 1500);
  };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}


// run fn on the open websocket of room ``code``, opening one (and closing another room's)
export function connectThen(code, fn) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN && app.wsRoom === normalCode(code)) { fn(); return; }
  if (app.ws && app.ws.readyState <= WebSocket.OPEN) app.ws.close();
  connect(code, fn);
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
