// shengji web client: speaks the protocol (docs/protocol.md) over one websocket.
// No build step, no framework: ES modules served as they are. The server sends the whole
// view of our seat each time, and render() draws it again. The modules:
//   dom.js         h()/fill(): every piece of data reaches the page as text, never markup
//   cards.js       card tokens as glyphs and card elements
//   state.js       the page's state (window.shengji) and what follows from it alone
//   connection.js  the websocket: connect, reconnect, send, dispatch by message type
//   lobby.js       variants, creating/joining/watching rooms, the waiting room
//   houserules.js  the lobby's house-rules panel: the base, the house file, the check
//   rulesfields.js its fields, built from the served schema
//   rulesyaml.js   the house file as YAML text; values compared and shown
//   rulespreview.js "Try these rules": the bots' figures as a chart
//   roomrules.js   a room's rules summary, before sitting down and during play
//   roomcontrols.js the host's seats, starting levels and first dealer before the start
//   table.js       the state as it arrives, the felt and seats, info bar, result, tools
//   hand.js        your hand and its selection
//   actions.js     the buttons of each decision, hints, refusals shown
//   refusals.js    refusals in words, the cards refused, the "why?" link (rules.html)
//   log.js         "What happened"
//   replay.js      a deal's replay, step by step
//   friends.js     finding friends: the calls, the sides, the call picker
//   options.js     the player's options (four colours, hand order, turn signal)
//   chat.js        the room's chat
//   known.js       generated from Python: suits, jokers, ranks, points, refusals and
//                  their rules in words
//   rulescore.js   the rules core (core.wasm) judging a selection before it is sent
// This module wires them together and starts the page.
import { $ } from "./dom.js";
import { app, setRenderer } from "./state.js";
import { connect, joinRoom, watchRoom, on } from "./connection.js";
import { setUpLobby, onWelcome, showWaiting, showLobbyError, typedCode } from "./lobby.js";
import { setUpTable, onState, render } from "./table.js";
import { showAdvice, showError } from "./actions.js";
import { setUpReplay, renderReplay, openPublicReplay } from "./replay.js";
import { onChat, setUpChat } from "./chat.js";
import { showControls, onSeated } from "./roomcontrols.js";
import { startRulesCore, onRules } from "./rulescore.js";

setRenderer(render);

on("welcome", (msg) => { onRules(msg); onWelcome(msg); });
on("room", (msg) => { showWaiting(msg); showControls(msg); });
on("seated", onSeated);
on("state", onState);
on("advice", showAdvice);
on("chat", onChat);
on("replay", (msg) => { app.replay = msg; app.replayStep = 0; renderReplay(); });
on("error", (msg) => {
  if (msg.code === "bad_token" && !app.state) {
    localStorage.removeItem("shengji:" + app.room);
    app.token = null;
  }
  if (!$("lobby").hidden) showLobbyError(msg); else showError(msg);
});

startRulesCore();
setUpLobby();
setUpTable();
setUpReplay();
setUpChat();
$("publicreplay").onclick = () => { const c = typedCode(); if (c) openPublicReplay(c); };

const params = new URLSearchParams(location.search);
const code = params.get("room");
if (code) {
  $("joincode").value = code;
  const saved = JSON.parse(localStorage.getItem("shengji:" + code) || "null");
  if (saved && !params.get("watch")) { app.room = code; app.token = saved.token; connect(code, () => joinRoom(code, null, saved.token)); }
  else if (params.get("watch")) { app.room = code; connect(code, () => watchRoom(code)); }
}
