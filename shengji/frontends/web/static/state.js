// The page's state (one object, also window.shengji for the tests) and what follows
// from it alone: whose names, which side each seat is on, the hand in order.
import { tokens } from "./cards.js";
import { orderGroups } from "./options.js";

export const app = (window.shengji = {
  ws: null, room: null, seat: null, token: null, watching: false,
  state: null, legal: null, selected: new Set(),
  trick: [],          // plays of the trick being played, from the events
  lastTrick: null,    // {plays: [[seat, cards]], winner, points} of the last completed trick
  hold: null,         // after a scored deal: {scored, trick} shown until "Next deal"
  throwNote: null,    // the last failed throw of this trick, explained
  lastSent: null,     // the last action we sent (to explain a refusal)
  replay: null, replayStep: 0, publicReplay: null,
  won: {},            // points each seat's tricks took this deal, from the events
  penalties: {},      // failed-throw penalties each seat incurred this deal, from the events
  wasMine: false,     // whether the last state was this seat's turn (for the turn signal)
});

// render() lives in table.js, which imports most modules; the others redraw through
// this hook so that no module imports the table back.
let renderer = () => {};
export function setRenderer(fn) { renderer = fn; }
export function redraw() { renderer(); }

// the view the table shows: the held deal's, or the current one
export function shownView(st) { return (app.hold && app.hold.view) || st.view; }

export function handTokens(view) {
  const out = [];
  // in trump order: by the page's rules core when it runs (rulescore.js), else the server's;
  // then in the order the player chose (options.js)
  const groups = app.sortHand ? app.sortHand(view) : view.hand_groups;
  for (const g of orderGroups(groups)) for (const t of tokens(g.cards)) out.push({ tok: t, trump: g.suit === "trump" });
  return out;
}

export function seatName(seat) {
  if (seat === null || seat === undefined) return "–";
  if (seat === app.seat) return "you";
  const s = app.state && app.state.seats ? app.state.seats[seat] : null;
  return s ? s.name : "seat " + seat;
}

// "your" / "ann's"
export function whose(seat) { return seat === app.seat ? "your" : `${seatName(seat)}'s`; }

// "you declare" / "ann declares"
export function says(seat, verb) { return `${seatName(seat)} ${seat === app.seat ? verb : verb.replace(/([^aeiou])y$/, "$1ie") + "s"}`; }

export function viewBase() { return app.seat === null ? 0 : app.seat; }

// Fixed partnerships: two team ids. Finding friends: sides known only as friends appear.
export function fixedTeams(v) { return new Set(v.teams).size === 2 && v.teams.length >= 4; }

export function sameSide(v, a, b) {
  if (a === b) return true;
  if (fixedTeams(v) && (v.sides_known || !v.side || !v.side.length)) return v.teams[a] === v.teams[b];
  if (!v.side || !v.side.length) return null;
  const inA = v.side.includes(a), inB = v.side.includes(b);
  if (v.sides_known) return inA === inB;
  return inA && inB ? true : null;
}
