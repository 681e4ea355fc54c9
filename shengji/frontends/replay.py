"""Deals told trick by trick in the terminal, seen from above (every hand shown):
``shengji replay LOG`` reads a finished game, ``shengji watch`` lets bots play one at a
readable pace.

What ``replay`` reads (the format is recognised from the content):

- the JSON lines of ``shengji simulate --log`` (one deal a line: ``seed``, ``deal``,
  ``events``);
- a game record (``shengji.engine.serial``: ``format``, ``variant``, ``seed``,
  ``actions``), replayed through the engine;
- a room's public replay from the web server (``GET /api/rooms/CODE/replay``): its game
  record once the match is over, else the finished deals as a spectator saw them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TextIO

from ..errors import ShengjiError
from .terminal import BOLD, DIM, RED, RESET, SUIT_SYMBOL, YELLOW

SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
RANK_ORDER = {r: i for i, r in enumerate("2 3 4 5 6 7 8 9 10 J Q K A".split())}


def _rank_name(level) -> str:
    from ..protocol.messages import rank_name
    return rank_name(level) if isinstance(level, int) else str(level)


class Narrator:
    """Turns event dicts (``Event.to_dict()``) into lines. ``per_play``: a line for every
    play as it lands (``watch``); otherwise one line per trick (``replay``). ``delay``:
    seconds to wait after each play (and twice that after a trick)."""

    def __init__(self, out: TextIO, color: bool = False, per_play: bool = False,
                 delay: float = 0.0, names: list[str] | None = None):
        self.out, self.color, self.per_play, self.delay = out, color, per_play, delay
        self.names = names
        self.trick: list = []
        self.dealt: dict[int, list[str]] = {}
        self.shown_hands = False
        # finding friends: the calls, which are fulfilled, the dealer's side so far, and
        # the joins of the trick being told (per trick, they follow the trick's line)
        self.calls: list[str] = []
        self.done: list[bool] = []
        self.side: list[int] = []
        self.players = len(names) if names else None
        self.pending: list[str] = []

    # ----------------------------------------------------------------- formatting

    def paint(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.color and code else text

    def card(self, tok: str) -> str:
        if tok in ("BJ", "LJ"):
            return self.paint(tok, (RED if tok == "BJ" else "") + BOLD)
        return self.paint(SUIT_SYMBOL[tok[0]] + tok[1:], RED if tok[0] in "HD" else "")

    def cards(self, text) -> str:
        toks = text.split() if isinstance(text, str) else list(text or ())
        return " ".join(self.card(t) for t in toks) if toks else "—"

    def seat(self, s) -> str:
        if s is None:
            return "nobody"
        if self.names and 0 <= s < len(self.names):
            return f"seat {s} ({self.names[s]})"
        return f"seat {s}"

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def pause(self, factor: float = 1.0) -> None:
        if self.delay > 0:
            time.sleep(self.delay * factor)

    @staticmethod
    def sort_hand(toks: list[str]) -> list[str]:
        def key(t):
            if t in ("BJ", "LJ"):
                return (-1, 0 if t == "BJ" else 1)
            return (SUIT_ORDER[t[0]], -RANK_ORDER[t[1:]])
        return sorted(toks, key=key)

    # ----------------------------------------------------------------- events

    def event(self, e: dict) -> None:
        t = e["type"]
        handler = getattr(self, "on_" + t, None)
        if handler is not None:
            handler(e)

    def on_DealStarted(self, e):
        self.trick, self.dealt, self.shown_hands = [], {}, False
        self.calls, self.done, self.side, self.pending = [], [], [], []
        dealer = "decided by the first declaration" if e["dealer"] is None \
            else self.seat(e["dealer"])
        redeal = f" (redeal {e['attempt']})" if e.get("attempt") else ""
        self.say(self.paint(f"\n=== Deal {e['deal'] + 1}{redeal} · level "
                            f"{_rank_name(e['level'])} · dealer: {dealer} ===", BOLD))

    def on_CardDealt(self, e):
        if e.get("card"):
            self.dealt.setdefault(e["seat"], []).append(e["card"])

    def on_Declared(self, e):
        trump = "no trump" if e["trump"] is None else SUIT_SYMBOL["SHCD"[e["trump"]]]
        self.say(f"  {self.seat(e['seat'])} declares {self.cards(e['cards'])} → {trump}")

    def on_Redealt(self, e):
        self.say("  nobody declared: the cards are dealt again")

    def on_RedealAsked(self, e):
        self.say(f"  {self.seat(e['seat'])} asks for a redeal (a weak hand): the cards are "
                 "dealt again")

    def on_TrumpSet(self, e):
        trump = "no trump" if e["trump"] is None else SUIT_SYMBOL["SHCD"[e["trump"]]]
        self.say(f"  trump: {trump} · level {_rank_name(e['level'])} · dealer "
                 f"{self.seat(e['dealer'])}")
        if self.dealt and not self.shown_hands:
            self.shown_hands = True
            for s in sorted(self.dealt):
                self.say(self.paint(f"    {self.seat(s)}: ", DIM)
                         + self.cards(self.sort_hand(self.dealt[s])))

    def call(self, text: str) -> str:
        """'1 HA' → '1st ♥A'; '0 HA' → 'other ♥A' (friends.other_copy)."""
        ordinal, card = text.split()
        n = int(ordinal)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{'other' if n == 0 else f'{n}{suffix}'} {self.card(card)}"

    def on_FriendsCalled(self, e):
        self.calls = list(e["calls"])
        self.done = [False] * len(self.calls)
        self.side = [e["seat"]]
        calls = ", ".join(self.call(c) for c in self.calls)
        self.say(f"  {self.seat(e['seat'])} calls friends: {calls} (the seat that plays a "
                 "called copy joins the dealer's side)")

    def on_FriendJoined(self, e):
        i = e["call"]
        call = self.call(self.calls[i]) if 0 <= i < len(self.calls) else self.card(e["card"])
        if 0 <= i < len(self.done):
            self.done[i] = True
        who = self.seat(e["seat"])
        if e["already"]:
            line = (f"  ★ {who} plays the called {call}: already on the dealer's side, the call "
                    "is used up")
        else:
            self.side.append(e["seat"])
            line = f"  ★ {who} plays the called {call}: joins the dealer's side"
        line = self.paint(line, BOLD) + "\n" + self.sides_line()
        if self.per_play:
            self.say(line)
        else:
            self.pending.append(line)  # after the trick that shows the card

    def sides_line(self) -> str:
        side = ", ".join(self.seat(s) for s in self.side)
        if all(self.done) and self.players:
            others = ", ".join(self.seat(s) for s in range(self.players) if s not in self.side)
            return f"    sides known: dealer's side {side}; attackers {others or 'nobody'}"
        left = ", ".join(self.call(c) for c, d in zip(self.calls, self.done, strict=True) if not d)
        return f"    dealer's side so far: {side}; still called: {left}"

    def on_KittyTaken(self, e):
        if e.get("cards"):
            self.say(f"  {self.seat(e['seat'])} takes the kitty: {self.cards(e['cards'])}")

    def on_Buried(self, e):
        what = self.cards(e["cards"]) if e.get("cards") else "the kitty"
        self.say(f"  {self.seat(e['seat'])} buries {what}")

    def on_ThrowFailed(self, e):
        line = f"  {self.seat(e['seat'])} tries to throw {self.cards(e['attempted'])}: refused"
        if e.get("beaten") and "blocker" not in e:  # table.hide_throw_halting_player
            line += f" — {self.cards(e['beaten'])} is beaten"
        elif e.get("beaten"):
            line += (f" — {self.cards(e['beaten'])} is beaten by "
                     f"{self.seat(e['blocker'])}'s {self.cards(e['beaten_by'])}")
        options = e.get("options") or []
        if len(options) == 1:
            line += f"; {self.seat(e['seat'])} plays {self.cards(options[0])} instead"
        elif options:
            line += f"; {self.seat(e.get('chooser'))} chooses what is played"
        if e.get("penalty"):
            line += f"; penalty {e['penalty']} points to the other side"
        self.say(line)

    def on_Played(self, e):
        if e["lead"]:
            self.trick = []
        self.trick.append((e["seat"], e["cards"]))
        if self.per_play:
            verb = "leads" if e["lead"] else "plays"
            self.say(f"    {self.seat(e['seat'])} {verb} {self.cards(e['cards'])}")
            self.pause()

    def on_TrickWon(self, e):
        points = "hidden" if e.get("points") is None else e["points"]
        if self.per_play:
            self.say(self.paint(f"  trick {e['trick'] + 1} → {self.seat(e['seat'])} wins "
                                f"{points} points (attackers {e['attacker_points']})", YELLOW))
        else:
            plays = " | ".join(("*" if s == e["seat"] else "") + f"{self.seat(s)} {self.cards(c)}"
                               for s, c in self.trick)
            self.say(f"  trick {e['trick'] + 1}: {plays}")
            self.say(f"    → {self.seat(e['seat'])} wins {points} points "
                     f"(attackers {e['attacker_points']})")
        for line in self.pending:
            self.say(line)
        self.pending = []
        self.trick = []
        self.pause(2)

    def on_DealScored(self, e):
        self.say(self.paint(f"--- Deal {e['deal'] + 1} result ---", BOLD))
        self.say(f"  kitty: {self.cards(e['kitty'])} ({e['kitty_points']} points"
                 + (f", ×{e['multiplier']} to the attackers" if e["multiplier"] else "") + ")")
        self.say(f"  attackers' points: {e['attacker_points']} (tricks {e['trick_points']}, "
                 f"kitty bonus {e['kitty_bonus']}, penalties {e['penalty']})")
        side = e.get("side")
        dealers = ", ".join(self.seat(s) for s in side) if side else self.seat(e["dealer"])
        rising = e.get("rising")
        if rising is None:  # older records: a rising team
            rising_text = f"team {e.get('rising_team')}"
        else:
            rising_text = ", ".join(self.seat(s) for s in rising) or "nobody"
        self.say(f"  dealers: {dealers}; the {e['next_side']} deal next; "
                 + (f"{rising_text} rise {e['rise']} level(s)" if e["rise"] else "nobody rises"))
        levels = e.get("levels")
        if levels:
            self.say("  levels: " + ", ".join(
                f"{self.seat(i)} {_rank_name(lv[1] if isinstance(lv, list) else lv)}"
                for i, lv in enumerate(levels)))

    def on_MatchOver(self, e):
        self.say(self.paint(f"*** Match over: team {e['winner']} wins after {e['deals']} "
                            "deals ***", BOLD))


# ----------------------------------------------------------------- reading logs

def read_deals(path: str | Path) -> list[tuple[str, list[dict]]]:
    """A log file → [(title, events of one deal)], in order. Raises ShengjiError naming
    the file (and line) when it is none of the formats above."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ShengjiError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") \
            from None
    stripped = text.strip()
    if not stripped:
        raise ShengjiError(f"{path}: empty file")
    try:
        whole = json.loads(stripped)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict):
        return _from_object(whole, path)
    deals = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except (ValueError, RecursionError) as e:
            why = (f"{e.msg}, column {e.colno}" if isinstance(e, json.JSONDecodeError)
                   else type(e).__name__)
            raise ShengjiError(f"{path}:{n}: not JSON ({why[:80]})") from None
        if not (isinstance(d, dict) and isinstance(d.get("events"), list)):
            raise ShengjiError(f"{path}:{n}: not a deal of `shengji simulate --log` (an "
                               "object with events), a game record or a public replay")
        deals.append((f"seed {d.get('seed')}", d["events"]))
    return deals


def _from_object(d: dict, path: Path) -> list[tuple[str, list[dict]]]:
    if d.get("type") == "public_replay":
        if "record" in d:
            return _from_record(d["record"], path)
        return [(f"room {d.get('room')}", r.get("events", [])) for r in d.get("deals", [])]
    if "actions" in d and "format" in d:
        return _from_record(d, path)
    if isinstance(d.get("events"), list):
        return [(f"seed {d.get('seed')}", d["events"])]
    raise ShengjiError(f"{path}: not a game record (format, variant, seed, actions), a "
                       "public replay or `shengji simulate --log` lines")


def _from_record(record: dict, path: Path) -> list[tuple[str, list[dict]]]:
    from ..engine.serial import game_from_dict

    try:
        game = game_from_dict(record)
    except ShengjiError as e:
        raise ShengjiError(f"{path}: {e}") from None
    deals: list[tuple[str, list[dict]]] = []
    for event in game.events:
        d = event.to_dict()
        if d["type"] == "DealStarted":
            deals.append((f"{record.get('variant')} seed {record.get('seed')}", []))
        if deals:
            deals[-1][1].append(d)
    return deals


def _checked(deals: list, path) -> list:
    """Every event read from a file is checked as an event record first (a malformed one
    is one line naming the deal, the event and the field, not a KeyError mid-replay)."""
    from ..engine.events import event_from_dict

    for i, (_, events) in enumerate(deals):
        if not isinstance(events, list):
            raise ShengjiError(f"{path}: deal {i + 1}: events: not a list")
        for j, e in enumerate(events):
            event_from_dict(e, f"{path}: deal {i + 1}, event {j + 1}")
    return deals


def replay(path, *, deal: int | None = None, out: TextIO, color: bool = False,
           delay: float = 0.0) -> int:
    deals = _checked(read_deals(path), path)
    if deal is not None:
        chosen = [(t, evs) for t, evs in deals
                  if evs and evs[0].get("type") == "DealStarted" and evs[0]["deal"] == deal - 1]
        if not chosen:
            raise ShengjiError(f"--deal {deal}: {path} has deals 1..{len(deals)}")
        deals = chosen
    narrator = Narrator(out, color=color, delay=delay)
    for i, (title, events) in enumerate(deals):
        narrator.players = _players(events)
        narrator.say(narrator.paint(f"[{title}]", DIM))
        for j, e in enumerate(events):
            try:
                narrator.event(e)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                # a well-formed record with values no deal produces (a seat "x", ...)
                raise ShengjiError(f"{path}: deal {i + 1}, event {j + 1} ({e.get('type')}): "
                                   f"a value no deal produces ({type(exc).__name__}: {exc})"
                                   ) from None
    return 0


def _players(events: list) -> int | None:
    """The seat count of a deal, from its scoring (levels by seat) or its plays."""
    for e in events:
        if e.get("type") == "DealScored" and isinstance(e.get("levels"), list):
            return len(e["levels"])
    seats = {e.get("seat") for e in events if e.get("type") == "Played"}
    return max(seats) + 1 if seats and all(isinstance(s, int) for s in seats) else None


def watch(variant="two-deck-80", seed=0, *, bots: list[str] | None = None,
          deals: int | None = 1, delay: float = 0.8, out: TextIO, color: bool = False) -> int:
    """Bots at every seat; every play printed as it lands, ``delay`` seconds apart."""
    from ..protocol import Table

    table = Table(variant, seed, max_deals=deals)
    n = table.players
    bots = bots or ["heuristic"]
    if len(bots) not in (1, n):
        raise ShengjiError(f"--players names {len(bots)} bots; the variant has {n} seats "
                           "(name one for every seat, or one for all)")
    names = [bots[0] if len(bots) == 1 else bots[s] for s in range(n)]
    for s in range(n):
        table.set_bot(s, names[s])
    # name the bots only when they differ
    narrator = Narrator(out, color=color, per_play=True, delay=delay,
                        names=names if len(set(names)) > 1 else None)
    narrator.players = n
    narrator.say(f"shengji watch · {table.game.variant_ref} · seed {seed} · Ctrl-C to stop")
    cursor = 0
    while True:
        events = table.all_events(cursor)
        cursor += len(events)
        for e in events:
            narrator.event(e)
        if not table.step_bot():
            return 0
