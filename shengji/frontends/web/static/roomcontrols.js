// The host's room controls in the waiting room (shengji.io's room settings): swap two
// seats, shuffle the seats, each seat's starting level, the first dealer. Only the host
// (the first to sit down) sees them; the server checks it again (message "arrange",
// web/seating.py). A player the host moved is told with "seated".
import { $, h, fill, button } from "./dom.js";
import { app } from "./state.js";
import { send } from "./connection.js";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

function arrange(fields) { send({ type: "arrange", token: app.token, ...fields }); }

// called with every "room" message while waiting
export function showControls(msg) {
  let box = $("roomcontrols");
  if (!box) {
    box = h("div", { id: "roomcontrols", class: "hr-controls" });
    $("waitseats").after(box);
  }
  const host = msg.host !== null && msg.host !== undefined && msg.host === app.seat && !app.watching;
  box.hidden = !host || msg.started;
  if (box.hidden) return;
  const n = msg.seats.length;
  const levels = msg.start_levels || Array(n).fill(0);
  const seatOpts = (sel) => msg.seats.map((s) => h("option", { value: String(s.seat), selected: s.seat === sel },
    `seat ${s.seat}` + (s.name ? ` (${s.name})` : "")));
  const a = h("select", { "aria-label": "seat", "data-control": "swap-a" }, seatOpts(0));
  const b = h("select", { "aria-label": "with seat", "data-control": "swap-b" }, seatOpts(Math.min(1, n - 1)));
  const levelSel = msg.seats.map((s) => {
    const sel = h("select", { "data-control": `level-${s.seat}`, "aria-label": `seat ${s.seat} starts at` },
      RANKS.map((r, i) => h("option", { value: r, selected: levels[s.seat] === i }, r)));
    return h("label", { class: "inline" }, `seat ${s.seat} `, sel);
  });
  const dealer = h("select", { "data-control": "first-dealer", "aria-label": "first dealer" },
    h("option", { value: "", selected: msg.first_dealer === null || msg.first_dealer === undefined }, "the first declarer"),
    seatOpts(msg.first_dealer === null ? -1 : msg.first_dealer));
  fill(box,
    h("h3", {}, "Before the start (you are the host)"),
    h("div", { class: "hr-tools" }, "Swap ", a, " with ", b,
      button("Swap", () => arrange({ swap: [Number(a.value), Number(b.value)] })),
      button("Shuffle seats", () => arrange({ shuffle: 1 }))),
    h("div", { class: "hr-tools" }, "Starting levels: ", levelSel),
    h("div", { class: "hr-tools" }, "First dealer: ", dealer,
      button("Set levels and dealer", () => arrange({
        levels: levelSel.map((l) => l.querySelector("select").value),
        first_dealer: dealer.value === "" ? null : Number(dealer.value),
      }))));
}

// the host moved us: our seat number changed (the token is the same)
export function onSeated(msg) {
  app.seat = msg.seat;
  localStorage.setItem("shengji:" + msg.room, JSON.stringify({ seat: msg.seat, token: app.token }));
  $("seatname").textContent = `you · seat ${msg.seat}`;
}
