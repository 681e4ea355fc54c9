"""Terminal frontend: you at one seat, bots at the others (``shengji play``).

It is a protocol client like any other: it renders ``state`` messages and their events,
and sends action objects built from what you type. Input is card tokens (``HA HA``,
``♥A``, ``BJ`` or ``★`` for a big joker), ``h`` for every hint, ``p`` to pass, ``#N`` for
hint N (from 0, as listed), ``q`` to quit. Cards are shown as the page shows them (``♥A``,
``★big joker``). A refused action is said in plain words (shengji.protocol.refusals, the
page's sentences); with ``--explain``, also the engine's own sentence and the rule it
breaks, in words. The state is unchanged.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

from ..bots import make_bot
from ..cards import JOKER_NAMES, JOKER_SYMBOLS
from ..errors import ShengjiError
from ..protocol import ProtocolError, Table
from ..protocol.refusals import RULELESS, RULES, refusal_text, yours

SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
#: a card token in the engine's sentences (HA, C10, BJ), shown as the page shows it
CARD_TOKEN = re.compile(r"\b(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)\b")
#: the jokers as shown ("★big joker") or by their symbol alone, typed back: their tokens
JOKERS_TYPED = {**{JOKER_SYMBOLS[t] + JOKER_NAMES[t]: t for t in JOKER_SYMBOLS},
                **{sym: t for t, sym in JOKER_SYMBOLS.items()}}
RED, BOLD, DIM, YELLOW, GREEN, RESET = "\033[31m", "\033[1m", "\033[2m", "\033[33m", \
    "\033[32m", "\033[0m"
#: hints shown with each prompt (``h`` shows up to HINTS_ALL)
HINTS_SHOWN, HINTS_ALL = 6, 60
PROMPTS = {"declare": "declare or pass", "bury": "bury", "lead": "lead", "follow": "follow",
           "choose": "choose the forced play", "call": "call friends",
           "takeback": "keep your declaration (pass) or take it back (t)",
           "redeal": "keep the deal (pass) or ask for a redeal, your hand being weak (r)"}


def same_side(view: dict, a: int, b: int) -> bool | None:
    """``SeatView.same_side`` on a protocol view: None while a friend is not found."""
    if a == b:
        return True
    if view["sides_known"]:
        if not view["side"]:
            return view["teams"][a] == view["teams"][b]
        return (a in view["side"]) == (b in view["side"])
    return True if a in view["side"] and b in view["side"] else None


class Terminal:
    def __init__(self, table: Table, seat: int, inp: TextIO, out: TextIO, color: bool = False,
                 advisor: str = "heuristic", explain: bool = False):
        self.table, self.seat, self.inp, self.out, self.color = table, seat, inp, out, color
        self.explain = explain         # refusals: the engine's sentence and rule too
        self.told_explain = False      # "--explain shows the rule" said once
        self.cursor = 0
        self.trick: list = []          # plays of the trick being narrated
        self.advisor = advisor         # bot spec whose advice leads the hints
        self.advice: tuple[str, str] | None = None  # (action text, reason) for the current prompt
        # finding friends as narrated so far: the calls, which are fulfilled, the dealer's
        # side; a join is told after the trick that shows its card
        self.calls: list[str] = []
        self.done: list[bool] = []
        self.side: list[int] = []
        self.joins: list[str] = []

    # ----------------------------------------------------------------- formatting

    def card(self, token: str, trump: bool = False) -> str:
        if token in JOKER_SYMBOLS:  # as the page shows it: "★big joker"
            text = JOKER_SYMBOLS[token] + JOKER_NAMES[token]
            return self._paint(text, (RED if token == "BJ" else "") + BOLD)
        sym = SUIT_SYMBOL[token[0]]
        text = sym + token[1:]
        return self._paint(text, RED if token[0] in "HD" else "")

    def cards(self, text: str) -> str:
        return " ".join(self.card(t) for t in text.split()) if text else "—"

    def glyphs(self, sentence: str) -> str:
        """An engine sentence with its card tokens shown as cards ("BJ" → "★big joker")."""
        return CARD_TOKEN.sub(lambda m: self.card(m.group(0)), sentence)

    def call(self, text: str) -> str:
        """'1 HA' → '1st ♥A'; '0 HA' → 'other ♥A' (friends.other_copy)."""
        ordinal, card = text.split()
        n = int(ordinal)
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
        return f"{'other' if n == 0 else f'{n}{suffix}'} {self.card(card)}"

    def _paint(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.color and code else text

    def who(self, seat: int, view: dict) -> str:
        if seat == self.seat:
            return "you"
        same = same_side(view, seat, self.seat)
        rel = "partner" if same else "opponent" if same is False else "side unknown"
        return f"seat {seat} ({rel})"

    def verb(self, seat: int, third_person: str) -> str:
        """"wins" for another seat, "win" for you ("tries" → "try", "buries" → "bury")."""
        if seat != self.seat:
            return third_person
        return third_person[:-3] + "y" if third_person.endswith("ies") else third_person[:-1]

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")

    # ----------------------------------------------------------------- narration

    def told(self, view: dict) -> dict:
        """``view`` with the sides as the events told so far reveal them (the view itself
        may be later: a join told after its trick must not label that trick's seats)."""
        if not self.calls:
            return view
        return {**view, "side": list(self.side), "sides_known": all(self.done)}

    def narrate(self, events: list[dict], view: dict) -> None:
        """One line per event worth telling (the dealing itself is not)."""
        latest = view
        for e in events:
            t = e["type"]
            view = self.told(latest)
            if t == "DealStarted":
                self.trick = []
                self.calls, self.done, self.side, self.joins = [], [], [], []
                dealer = "decided by the first declaration" if e["dealer"] is None \
                    else self.who(e["dealer"], view)
                self.say(self._paint(f"\n=== Deal {e['deal'] + 1} · dealer: {dealer} ===", BOLD))
            elif t == "Declared":
                trump = "no trump" if e["trump"] is None else SUIT_SYMBOL["SHCD"[e["trump"]]]
                self.say(f"  {self.who(e['seat'], view)} {self.verb(e['seat'], 'declares')} "
                         f"{self.cards(e['cards'])} "
                         f"→ {trump}")
            elif t == "Redealt":
                self.say("  nobody declared: the cards are dealt again")
            elif t == "RedealAsked":
                self.say(f"  {self.who(e['seat'], view)} {self.verb(e['seat'], 'asks')} for a "
                         "redeal (a weak hand): the cards are dealt again")
            elif t == "TrumpSet":
                trump = "no trump" if e["trump"] is None else SUIT_SYMBOL["SHCD"[e["trump"]]]
                self.say(f"  trump: {trump} · level {view['level_rank']} · dealer "
                         f"{self.who(e['dealer'], view)}")
            elif t == "FriendsCalled":
                self.calls, self.done = list(e["calls"]), [False] * len(e["calls"])
                self.side = [e["seat"]]
                calls = ", ".join(self.call(c) for c in e["calls"])
                self.say(f"  {self.who(e['seat'], view)} {self.verb(e['seat'], 'calls')} "
                         f"friends: {calls}")
            elif t == "FriendJoined":
                if 0 <= e["call"] < len(self.done):
                    self.done[e["call"]] = True
                if not e["already"] and e["seat"] not in self.side:
                    self.side.append(e["seat"])
                who = "you" if e["seat"] == self.seat else f"seat {e['seat']}"
                call = (self.call(self.calls[e["call"]]) if 0 <= e["call"] < len(self.calls)
                        else self.card(e["card"]))
                what = ("already on the dealer's side: the call is used up" if e["already"]
                        else f"{'join' if e['seat'] == self.seat else 'joins'} the dealer's side")
                self.joins.append(self._paint(f"  ★ {who} played the called {call}: {what}",
                                              BOLD))
            elif t == "Buried" and e["seat"] != self.seat:
                self.say(f"  {self.who(e['seat'], view)} buries the kitty")
            elif t == "ThrowFailed":
                self.throw_failed(e, view)
            elif t == "Played":
                if e["lead"]:
                    self.trick = []
                self.trick.append((e["seat"], e["cards"]))
            elif t == "TrickWon":
                plays = " | ".join(f"{self.who(s, view)} {self.cards(c)}" for s, c in self.trick)
                self.say(f"  trick {e['trick'] + 1}: {plays}")
                winner = self.who(e["seat"], view)
                points = "hidden" if e["points"] is None else e["points"]  # table option
                self.say(f"    → {winner} {self.verb(e['seat'], 'wins')} {points} points "
                         f"(attackers {e['attacker_points']})")
                for line in self.joins:
                    self.say(line)
                self.joins = []
                self.trick = []
            elif t == "DealScored":
                self.deal_result(e, view)
            elif t == "MatchOver":
                if len(set(view["teams"])) == view["players"]:  # a level per seat
                    winner = ("you win" if e["winner"] == self.seat
                              else f"seat {e['winner']} wins")
                else:
                    winner = ("your team wins" if e["winner"] == view["team"]
                              else "the opponents win")
                self.say(self._paint(f"*** Match over: {winner} after {e['deals']} deals ***",
                                     BOLD))

    def throw_failed(self, e: dict, view: dict) -> None:
        """Who threw what, which part another seat beats and with what (the table adds
        it: protocol/throws.py), what is played instead, and the penalty."""
        who = self.who(e["seat"], view)
        line = f"  {who} {self.verb(e['seat'], 'tries')} to throw {self.cards(e['attempted'])}"
        if e.get("beaten") and "blocker" not in e:  # table.hide_throw_halting_player
            line += f": {self.cards(e['beaten'])} is beaten"
        elif e.get("beaten"):
            whose = ("your" if e["blocker"] == self.seat
                     else f"{self.who(e['blocker'], view)}'s")
            line += f": {self.cards(e['beaten'])} is beaten by {whose} {self.cards(e['beaten_by'])}"
        else:
            line += ": refused"
        options = e.get("options") or []
        if len(options) == 1:
            line += f"; {who} {self.verb(e['seat'], 'plays')} {self.cards(options[0])} instead"
        elif options:
            line += f"; {self.who(e['chooser'], view)} {self.verb(e['chooser'], 'chooses')} " \
                    "what is played"
        if e.get("penalty"):
            line += f"; penalty: {e['penalty']} points to the other side"
        self.say(line)

    def deal_result(self, e: dict, view: dict) -> None:
        mine = self.seat in e["side"]
        # partners and opponents as they were in that deal (the view may be the next one's)
        view = {**view, "side": e["side"], "sides_known": True}
        self.say(self._paint(f"--- Deal {e['deal'] + 1} result ---", BOLD))
        kitty = "not shown" if e["kitty"] is None else self.cards(e["kitty"])
        self.say(f"  kitty: {kitty} ({e['kitty_points']} points"
                 + (f", ×{e['multiplier']} to the attackers" if e["multiplier"] else "") + ")")
        self.say(f"  attackers' points: {e['attacker_points']} (tricks {e['trick_points']}, "
                 f"kitty bonus {e['kitty_bonus']}, penalties {e['penalty']})")
        dealers = ", ".join(self.who(s, view) for s in e["side"])
        side = "you were" if mine else "your opponents were"
        rising = ", ".join(self.who(s, view) for s in e["rising"]) or "nobody"
        self.say(f"  {side} the dealers ({dealers}); {e['next_side']} deal next; "
                 f"rising {e['rise']} level(s): {rising}")
        self.say(f"  levels now: {self.levels(e['levels'], view)}")

    def levels(self, levels: list, view: dict) -> str:
        """Each seat's level; seats of one team share theirs, so a team is listed once."""
        from ..protocol.messages import rank_name
        teams, parts, seen = view["teams"], [], set()
        for seat, lv in enumerate(levels):
            mates = [s for s in range(len(levels)) if teams[s] == teams[seat]]
            if teams[seat] in seen:
                continue
            seen.add(teams[seat])
            names = " & ".join(self.who(s, view) for s in mates)
            parts.append(f"{names}: {rank_name(lv, self.table.variant.top_level)}")
        return ", ".join(parts)

    # ----------------------------------------------------------------- the prompt

    def show(self, state: dict) -> list[str]:
        """Print the table as this seat sees it; return the hints (action texts)."""
        v, legal = state["view"], state["legal"]
        trump = v["trump_suit"]
        trump_text = ("not set (dealing)" if trump is None else
                      "no trump" if trump == "none" else SUIT_SYMBOL[trump])
        mine = None if v["dealer"] is None else same_side(v, self.seat, v["dealer"])
        role = ("" if v["dealer"] is None else " · you defend (dealers)" if mine else
                " · you attack" if mine is False else " · your side is not known yet")
        self.say(self._paint(f"\n[deal {v['deal'] + 1} · level {v['level_rank']} · trump "
                             f"{trump_text}{role} · attackers' points {v['trick_points']}]",
                             YELLOW))
        if v["phase"] == "deal":
            bids = ", ".join(f"{self.who(b['seat'], v)} {self.cards(b['cards'])}"
                             for b in v["bids"]) or "none yet"
            self.say(f"declaration window: {v['to_deal']} cards still to deal; "
                     f"declarations: {bids}")
        if v["players"] > 4 or v["calls"]:
            self.say(self.table_line(v))
        if v["trick"]:
            plays = " | ".join(f"{self.who(s, v)} {self.cards(c)}" for s, c in v["trick"])
            self.say(f"trick {v['trick_number'] + 1}: {plays}")
        if v["kitty"]:
            self.say(f"kitty you took: {self.cards(v['kitty'])}")
        parts = []
        for g in v["hand_groups"]:
            label = "trumps" if g["suit"] == "trump" else SUIT_SYMBOL[g["suit"]]
            parts.append(self._paint(label + ":", YELLOW if g["suit"] == "trump" else DIM)
                         + " " + self.cards(g["cards"]))
        self.say(f"your hand ({sum(len(g['cards'].split()) for g in v['hand_groups'])}): "
                 + "  ".join(parts))
        return self.hints(state) if legal else []

    def table_line(self, v: dict) -> str:
        """Every seat on one line (bigger tables): cards held and level, the dealer's side
        as far as it is known, and the calls."""
        from ..protocol.messages import rank_name

        marks = []
        for s in range(v["players"]):
            tag = "*" if s == v["dealer"] else "+" if s in v["side"] else ""
            name = "you" if s == self.seat else f"s{s}"
            marks.append(f"{name}{tag} {v['hand_sizes'][s]}/{rank_name(v['levels'][s])}")
        line = "seats: " + " · ".join(marks) + "  (* dealer, + dealer's side; cards/level)"
        if v["calls"]:
            line += "\ncalls: " + ", ".join(self.call(c) for c in v["calls"])
            line += "" if v["sides_known"] else " (friends not all found)"
        return line

    def hints(self, state: dict) -> list[str]:
        """The advisor's action first, then the other listed actions."""
        legal = state["legal"]
        kind = legal["kind"]
        advice = self.table.advice(self.seat, self.advisor)
        text = self._action_text(advice["action"])
        self.advice = (text, advice["reason"])
        if kind == "bury":
            return [text]
        if kind == "choose":
            listed = [f"#{i}" for i in range(len(legal["actions"]))]
        else:  # (a call lists each single call allowed; the advice is a whole set)
            listed = [self._action_text(a) for a in legal["actions"]]
        return [text] + [h for h in listed if h != text]

    @staticmethod
    def _action_text(a: dict) -> str:
        kind = a["type"]
        if kind == "ChooseForced":
            return f"#{a['option']}"
        if kind == "CallFriends":
            return ", ".join(a["calls"])
        return {"Pass": "pass", "TakeBack": "takeback",
                "RequestRedeal": "redeal"}.get(kind) or a["cards"]

    def prompt(self, state: dict, hints: list[str]) -> None:
        legal = state["legal"]
        kind = legal["kind"]
        what = PROMPTS.get(kind, kind)
        if kind == "bury":
            what += f" {legal['count']} cards (suggested below)"
            if "restricted" in legal:  # the variant's bury settings
                what += (f"; at most {legal['restricted_max']} of "
                         f"{self.cards(legal['restricted'])}")
        elif kind == "follow":
            what += f" with {legal['count']} card{'' if legal['count'] == 1 else 's'}"
        elif kind == "call":
            what += (f": {legal['count']} at once, like '1 HA, 2 SK' (1 HA = the first ♥A "
                     "played; hint #0 is a suggestion)")
        elif kind == "choose":
            opts = state["view"]["forced_options"]
            self.say("failed throw: choose what the thrower must play: "
                     + " | ".join(f"#{i} {self.cards(o)}" for i, o in enumerate(opts)))
        if self.advice is not None:
            text, reason = self.advice
            self.say(f"advice: {self._hint_text(text)}" + (f" — {reason}" if reason else ""))
        more = len(hints) - HINTS_SHOWN
        # numbered: "#N" plays hint N
        shown = " | ".join(f"#{i} {self._hint_text(h)}" for i, h in enumerate(hints[:HINTS_SHOWN]))
        self.say(f"hints: {shown}" + (f" | … {more} more (h)" if more > 0 else ""))
        self.out.write(f"your turn to {what} > ")
        self.out.flush()

    def _hint_text(self, hint: str) -> str:
        if hint[:1].isdigit():  # calls: "1 HA, 2 SK"
            return ", ".join(self.call(c.strip()) for c in hint.split(","))
        if hint in ("pass", "takeback", "redeal") or hint.startswith("#"):
            return hint
        return self.cards(hint)

    # ----------------------------------------------------------------- input

    def read_action(self, state: dict, hints: list[str]) -> dict | None | str:
        """One line → an action object; "again" to prompt again; None to quit."""
        line = self.inp.readline()
        if not line:
            return None
        if not (hasattr(self.inp, "isatty") and self.inp.isatty()):
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo scripted input
        text = line.strip()
        kind = state["legal"]["kind"]
        low = text.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("h", "?", "hint", "hints"):
            # numbered, so that "#N" can pick one without counting
            listed = (f"#{i} {self._hint_text(h)}" for i, h in enumerate(hints[:HINTS_ALL]))
            self.say("all hints: " + " | ".join(listed)
                     + (" …" if len(hints) > HINTS_ALL or state["legal"]["truncated"] else ""))
            return "again"
        if low in ("p", "pass") or (not text and kind in ("declare", "takeback", "redeal")):
            if kind not in ("declare", "takeback", "redeal"):  # nothing to pass: say so
                self.say(f"there is nothing to pass now: your turn to {PROMPTS.get(kind, kind)}"
                         " (type the cards, or #0 for the advice)")
                return "again"
            return {"type": "Pass"}
        if kind == "takeback" and low in ("t", "takeback", "take back"):
            return {"type": "TakeBack"}
        if kind == "redeal" and low in ("r", "redeal"):
            return {"type": "RequestRedeal"}
        if not text:
            return "again"
        # "#N", or a hint copied as shown ("#N ♠A")
        number = text[1:].split()[0] if text.startswith("#") and len(text) > 1 else ""
        if number.isdigit():
            i = int(number)
            if kind == "choose":
                return {"type": "ChooseForced", "option": i}
            if i >= len(hints):
                self.say(f"no hint #{i}: there are {len(hints)}")
                return "again"
            text = hints[i]
            if text == "pass":
                return {"type": "Pass"}
            if text == "takeback":
                return {"type": "TakeBack"}
            if text == "redeal":
                return {"type": "RequestRedeal"}
        # the jokers typed as they are shown: "★big joker", "★" → BJ
        for shown_as, token in JOKERS_TYPED.items():
            text = text.replace(shown_as, token)
        if kind == "call":  # "1 HA, 2 SK"
            return {"type": "CallFriends",
                    "calls": [c.strip() for c in text.split(",") if c.strip()]}
        kind_type = {"declare": "Declare", "bury": "Bury", "lead": "Play", "follow": "Play",
                     "choose": "ChooseForced", "takeback": "TakeBack",
                     "redeal": "RequestRedeal"}[kind]
        if kind_type == "TakeBack":
            self.say("type p to keep your declaration, t to take it back")
            return "again"
        if kind_type == "RequestRedeal":
            self.say("type p to keep the deal, r to ask for a redeal")
            return "again"
        if kind_type == "ChooseForced":
            self.say("type #0, #1, … to choose an option")
            return "again"
        return {"type": kind_type, "cards": text}

    # ----------------------------------------------------------------- main loop

    def run(self) -> int:
        table = self.table
        self.say(f"shengji · {table.game.variant_ref} · you are seat {self.seat} · cards like "
                 "HA HA or ♥A (BJ, LJ: the jokers); h = hints, p = pass, q = quit")
        while True:
            table.run_bots()
            state = table.state(self.seat, since=self.cursor)
            self.cursor = state["event_index"]
            self.narrate(state["events"], state["view"])
            if state["over"]:
                self.say("the game is over")
                return 0
            hints = self.show(state)
            while True:
                self.prompt(state, hints)
                action = self.read_action(state, hints)
                if action is None:
                    self.say("\nbye")
                    return 0
                if isinstance(action, str):  # "again": the prompt once more
                    continue
                try:
                    table.act(self.seat, action)
                except ProtocolError as e:
                    self.refused(e, action, state)
                    continue
                if not self.keep_play():
                    return 0
                break

    def keep_play(self) -> bool:
        """table.play_takeback: before the bots answer, keep the play just made (Enter)
        or take it back (t), as the page's Take back button does. False: quit."""
        if not self.table.state(self.seat)["view"]["can_take_back"]:
            return True
        self.out.write("keep your play (Enter) or take it back (t) > ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return False
        if not (hasattr(self.inp, "isatty") and self.inp.isatty()):
            self.out.write(line if line.endswith("\n") else line + "\n")
        if line.strip().lower() in ("t", "takeback", "take back"):
            self.table.act(self.seat, {"type": "TakeBack"})
            self.say("taken back: play again")
        return True

    def refused(self, e: ProtocolError, action: dict | None = None,
                state: dict | None = None) -> None:
        """A refusal in plain words; the engine's own sentence and the rule behind it
        with ``--explain`` (``explain``)."""
        v = state["view"] if state else None
        lead = v["trick"][0][1] if v and v["trick"] else ""
        legal = state["legal"] if state else None
        tried = action.get("cards") if isinstance(action, dict) else None
        text = refusal_text(
            e.reason, tried=self.cards(tried) if isinstance(tried, str) and tried else "",
            lead=self.cards(lead) if lead else "",
            suit=self.suit_words(lead.split()[0], v) if v and lead else "",
            count=legal["count"] if legal and legal.get("count") else None,
            message=self.glyphs(yours(str(e), self.seat)))
        self.say(self._paint(f"refused: {text}", RED))
        # the rule behind it, in the words the page's "why?" leads to (refusals.RULES)
        rule = RULES.get(e.rule) if e.reason not in RULELESS else None
        if self.explain:
            self.say(f"  the engine: {yours(str(e), self.seat)}")
            if rule:
                where = e.rule.split(" (")[0]  # docs/rules.md §5
                self.say(f"  why: {rule['title']}: {rule['text']} ({where})")
        elif rule and not self.told_explain:
            self.told_explain = True
            self.say("  (shengji play --explain shows the rule behind a refusal)")
        self.say("  nothing was played; try again (h for hints)")

    @staticmethod
    def suit_words(token: str, view: dict) -> str:
        """"trumps" or "♠ spades": the suit ``token`` counts in under the view."""
        if token in ("BJ", "LJ") or token in view.get("trumps", "").split():
            return "trumps"
        return f"{SUIT_SYMBOL[token[0]]} {SUIT_NAMES[token[0]]}"


def play(variant="two-deck-80", seat: int = 0, seed: int | str = 0, *, bot: str = "heuristic",
         deals: int | None = None, inp: TextIO | None = None, out: TextIO | None = None,
         color: bool | None = None, advisor: str = "heuristic", explain: bool = False) -> int:
    """Play at ``seat`` against bots at every other seat, reading ``inp``, writing ``out``;
    the ``advisor`` bot's choice (and reason) leads the hints."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    if color is None:
        color = hasattr(out, "isatty") and out.isatty()
    table = Table(variant, seed, max_deals=deals)
    make_bot(advisor, table.variant)  # an unknown advisor fails before the first prompt
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
        raise ShengjiError(f"--seat {seat}: seats are 0..{table.players - 1}")
    for s in range(table.players):
        if s != seat:
            table.set_bot(s, bot)
    return Terminal(table, seat, inp, out, color, advisor, explain).run()
