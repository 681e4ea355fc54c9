// "What happened": one line per event, newest first, bounded.
import { $, h } from "./dom.js";
import { SUIT, textCards } from "./cards.js";
import { seatName, whose, says } from "./state.js";
import { callsLine, joinLine } from "./friends.js";

let calls = [];  // the calls of the deal being logged (a join names its call)

export function logEvent(e) {
  let line = null;
  switch (e.type) {
    case "DealStarted": line = [h("b", {}, `Deal ${e.deal + 1}`), " starts"]; break;
    case "Declared": line = [says(e.seat, "declare"), " ", textCards(e.cards)]; break;
    case "RedealAsked": line = [says(e.seat, "ask"), " for a redeal (a weak hand)"]; break;
    case "TrumpSet": line = `Trump: ${e.trump === null ? "no trump" : SUIT["SHCD"[e.trump]]}, dealer ${seatName(e.dealer)}`; break;
    case "ThrowFailed":
      line = [says(e.seat, "try"), " to throw ", textCards(e.attempted), " — refused",
        e.beaten ? (e.blocker === undefined ? [": ", textCards(e.beaten), " is beaten"] :  // the table hides who
          [": ", textCards(e.beaten), ` beaten by ${whose(e.blocker)} `, textCards(e.beaten_by)]) : "",
        e.penalty ? `, penalty ${e.penalty}` : ""];
      break;
    case "PlayTakenBack": line = [says(e.seat, "take"), " back ", textCards(e.cards)]; break;
    case "FriendsCalled": calls = e.calls; line = [says(e.seat, "call"), " friends: ", callsLine(e.calls)]; break;
    case "FriendJoined": line = joinLine(e, calls); break;
    case "TrickWon": line = `Trick ${e.trick + 1}: ${says(e.seat, "win")} ${e.points} points (attackers ${e.attacker_points})`; break;
    case "DealScored": line = [h("b", {}, `Deal ${e.deal + 1}`), `: attackers ${e.attacker_points} points`]; break;
    case "MatchOver": line = [h("b", {}, "Match over")]; break;
    default: break;
  }
  if (!line) return;
  const list = $("loglist");
  list.insertBefore(h("li", {}, line), list.firstChild);
  while (list.children.length > 60) list.removeChild(list.lastChild);
}
