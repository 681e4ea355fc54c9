"""The JSON messages of the shengji protocol, version 2 (docs/protocol.md).

Everything here turns engine objects into plain JSON data and back: the per-seat view,
the legal actions, events, actions and errors. Cards are always strings in the notation
of docs/conformance.md (``"HA HA"``). Clients never send a seat's identity in an action: the
seat is the one their connection joined with its token.

Inbound messages are checked here, strictly, before anything touches a game: a message
that is not an object, has an unknown type or key, a value of the wrong type, or is too
large, raises ``ProtocolError`` with a ``code`` a client can act on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..cards import NUM_KINDS, SUITS, level_name, parse_cards, point_value
from ..engine.actions import (
    ACTION_TYPES,
    CARD_ACTION_TYPES,
    PLAIN_ACTIONS,
    Action,
    CallFriends,
    ChooseForced,
    cards_text,
    norm_cards,
)
from ..engine.legal import Legal
from ..engine.view import SeatView
from ..errors import ShengjiError
from ..friends import parse_calls
from ..memo import remember
from ..model import Bid
from ..safeload import is_unicode

#: protocol version; a client that joins with another version is refused
PROTOCOL_VERSION = 2
#: largest inbound message, in bytes of JSON text (an action of the largest hand fits)
MAX_MESSAGE_BYTES = 8192
#: legal plays listed to a client at most (the list says when it is a prefix)
LEGAL_LIMIT = 200
#: a card string longer than this cannot be a real action (a hand holds at most 216 cards:
#: eight packs between two seats; "H10 " is 4 characters)
MAX_CARDS_CHARS = 1200


class ProtocolError(ShengjiError):
    """A message the protocol refuses. ``code`` is machine-readable (docs/protocol.md
    lists them); ``reason`` and ``rule`` come from the engine for an illegal action."""

    def __init__(self, code: str, message: str, reason: str = "", rule: str = ""):
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.rule = rule


def error_message(err: ShengjiError) -> dict:
    """The ``error`` message for any ShengjiError (engine refusals keep reason and rule)."""
    code = getattr(err, "code", None)
    if code is None:
        code = "illegal" if hasattr(err, "reason") else "bad_cards"
    return {"type": "error", "protocol": PROTOCOL_VERSION, "code": code, "message": str(err),
            "reason": getattr(err, "reason", "") or "", "rule": getattr(err, "rule", "") or ""}


# ----------------------------------------------------------------- inbound (client → server)

#: message type → {key: (allowed types, required)}; ``type`` itself is implied
CLIENT_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "join": {"protocol": ((int,), True), "room": ((str,), True), "seat": ((int, type(None)), False),
             "token": ((str, type(None)), False), "name": ((str,), False)},
    "start": {"token": ((str,), True)},
    "action": {"token": ((str,), True), "action": ((dict,), True)},
    "replay": {"token": ((str,), False), "deal": ((int,), True)},
    "watch": {"protocol": ((int,), True), "room": ((str,), True)},
    "next": {"token": ((str,), True)},
    "hint": {"token": ((str,), True)},
    # the host's room controls before the start (web/seating.py)
    "arrange": {"token": ((str,), True), "swap": ((list,), False), "shuffle": ((int,), False),
                "levels": ((list,), False), "first_dealer": ((int, type(None)), False)},
    "ping": {},
    # room chat (frontends/web/chat.py): players send their token, spectators none
    "chat": {"token": ((str,), False), "text": ((str,), True)},
}
ACTION_KEYS = {"Pass": (), "Declare": ("cards",), "Bury": ("cards",), "Play": ("cards",),
               "ChooseForced": ("option",), "TakeBack": (), "CallFriends": ("calls",),
               "RequestRedeal": ()}
#: the most calls an action may carry (a table of 12 calls 5)
MAX_CALLS = 12
MAX_SHORT_TEXT = 64
#: a chat line's text, in characters (every other string of a message: MAX_SHORT_TEXT)
MAX_CHAT_TEXT = 200


def parse_message(text: str | bytes) -> dict:
    """JSON text from a client → a checked message dict. Raises ProtocolError."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ProtocolError("bad_json", f"a message is JSON text, not {type(text).__name__}")
    if isinstance(text, (bytes, bytearray)):
        size = len(text)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "message is not UTF-8 text") from None
    else:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is "
                                         f"{MAX_MESSAGE_BYTES}")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ProtocolError("bad_json", f"message is not valid JSON ({e})") from None
    if "\\u" in text:  # (only an escape can make a lone surrogate out of UTF-8 text)
        check_unicode(msg)
    return check_message(msg)


def check_unicode(data) -> None:
    """Refuse decoded JSON holding text that is not Unicode: a lone surrogate
    (``"\\ud800"``) in a key or a value, which no encoder can write back (a room made
    with one could never send its state)."""
    if not is_unicode(json.dumps(data, ensure_ascii=False)):
        raise ProtocolError("bad_text", "text that is not Unicode (a lone surrogate such as "
                                        "\\ud800): refused")


def _type_name(types) -> str:
    return " or ".join("null" if t is type(None) else {int: "integer", str: "string",
                                                       dict: "object", list: "list"}[t]
                       for t in types)


def check_message(msg) -> dict:
    """Check a decoded client message against CLIENT_MESSAGES (see parse_message)."""
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", f"a message is a JSON object, not {type(msg).__name__}")
    kind = msg.get("type")
    spec = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}: expected one of "
                                            f"{', '.join(CLIENT_MESSAGES)}")
    for key, value in msg.items():
        if key == "type":
            continue
        if key not in spec:
            raise ProtocolError("bad_message", f"{kind}: unknown key {key!r} (allowed: "
                                               f"{', '.join(spec) or 'none'})")
        types = spec[key][0]
        # bool is an int in Python, never in the protocol
        if isinstance(value, bool) or not isinstance(value, types):
            raise ProtocolError("bad_message", f"{kind}.{key}: expected {_type_name(types)}, "
                                               f"got {json.dumps(value)[:40]}")
        longest = MAX_CHAT_TEXT if (kind, key) == ("chat", "text") else MAX_SHORT_TEXT
        if isinstance(value, str) and len(value) > longest:
            raise ProtocolError("bad_message", f"{kind}.{key}: longer than {longest} "
                                               "characters")
    for key, (_, required) in spec.items():
        if required and key not in msg:
            raise ProtocolError("bad_message", f"{kind}: missing key {key!r}")
    if kind == "action":
        check_action(msg["action"])
    return msg


def check_action(d) -> None:
    """Shape of an action object: ``{"type": "Play", "cards": "HA HA"}`` (no seat)."""
    if not isinstance(d, dict):
        raise ProtocolError("bad_action", "an action is a JSON object")
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise ProtocolError("bad_action", f"unknown action type {kind!r}: expected one of "
                                          f"{', '.join(ACTION_KEYS)}")
    allowed = ("type", "seat") + ACTION_KEYS[kind]
    for key in d:
        if key not in allowed:
            raise ProtocolError("bad_action", f"{kind}: unknown key {key!r} (allowed: "
                                              f"{', '.join(allowed)})")
    for key in ACTION_KEYS[kind]:
        if key not in d:
            raise ProtocolError("bad_action", f"{kind}: missing key {key!r}")
    if "cards" in d and (not isinstance(d["cards"], str) or len(d["cards"]) > MAX_CARDS_CHARS):
        raise ProtocolError("bad_action", f"{kind}.cards: expected a card string like "
                                          "\"HA HA\" (at most one hand)")
    if "option" in d and (isinstance(d["option"], bool) or not isinstance(d["option"], int)):
        raise ProtocolError("bad_action", f"{kind}.option: expected an integer")
    if "calls" in d and not (isinstance(d["calls"], list) and len(d["calls"]) <= MAX_CALLS
                             and all(isinstance(c, str) and len(c) <= 16 for c in d["calls"])):
        raise ProtocolError("bad_action", f"{kind}.calls: expected a list of calls such as "
                                          f"[\"1 HA\", \"2 SK\"] (at most {MAX_CALLS})")
    if "seat" in d and (isinstance(d["seat"], bool) or not isinstance(d["seat"], int)):
        raise ProtocolError("bad_action", f"{kind}.seat: expected an integer")


def decode_action(d: dict, seat: int) -> Action:
    """An action object for ``seat`` (the connection's seat) → engine Action. A ``seat``
    key, if given, must be that seat. Card errors become ProtocolError ``bad_cards``."""
    check_action(d)
    if "seat" in d and d["seat"] != seat:
        raise ProtocolError("not_your_seat", f"you hold seat {seat}; you cannot act for "
                                             f"seat {d['seat']}")
    cls = ACTION_TYPES[d["type"]]
    if cls in PLAIN_ACTIONS:
        return cls(seat)
    if cls is ChooseForced:
        return ChooseForced(seat, d["option"])
    if cls is CallFriends:
        try:
            return CallFriends(seat, d["calls"])
        except ShengjiError as e:
            raise ProtocolError("bad_call", str(e)) from None
    try:  # the card text parsed first: the field holds card ids
        return CARD_ACTION_TYPES[d["type"]](seat, norm_cards(d["cards"]))
    except ShengjiError as e:
        raise ProtocolError("bad_cards", str(e)) from None


def encode_action(action: Action) -> dict:
    """Engine Action → action object (without the seat: the connection says who)."""
    d = action.to_dict()
    d.pop("seat", None)
    return d


# ----------------------------------------------------------------- outbound (server → client)

def trump_name(trump: int | None) -> str:
    if trump is not None and (type(trump) is not int or not 0 <= trump < len(SUITS)):
        raise ProtocolError("bad_message", f"trump: {trump!r:.40} is not a suit index 0..3")
    return "none" if trump is None else SUITS[trump]


def rank_name(level: int, top: int = 12) -> str:
    """Level 0..12 → '2'..'A', 13 → 'NT' (when the variant's levels go up to NT, ``top``
    13); a side past the top shows 'A+' (or 'NT+')."""
    if type(level) is not int or level < 0:
        raise ProtocolError("bad_message", f"level: {level!r:.40} is not a level 0, 1, ...")
    return level_name(level) if level <= top else level_name(top) + "+"


def hand_groups(view: SeatView, variant) -> list[dict]:
    """The hand in trump order for display: trumps first (strongest first), then each
    plain suit (S H C D), strongest first. While dealing, trump is not known yet: the
    jokers and level cards (always trumps) lead."""
    ctx = variant.context(view.level, view.trump if view.trump_set else None)
    groups: dict[int, list[int]] = {}
    for k, n in enumerate(view.hand):
        if n:
            groups.setdefault(ctx.effective_suit(k), []).extend([k] * n)
    out = []
    for suit in (4, 0, 1, 2, 3):
        if suit in groups:
            cards = sorted(groups[suit], key=lambda k: (ctx.strength(k), k), reverse=True)
            out.append({"suit": "trump" if suit == 4 else SUITS[suit], "cards": cards_text(cards)})
    return out


def trump_cards(view: SeatView, variant) -> str:
    """Every card that counts as a trump under the view's level and trump (while dealing:
    those that always do), strongest first: the page tells a card's suit from it."""
    ctx = variant.context(view.level, view.trump if view.trump_set else None)
    kinds = [k for k in range(NUM_KINDS) if ctx.effective_suit(k) == 4]
    return cards_text(sorted(kinds, key=lambda k: (ctx.strength(k), k), reverse=True))


def encode_view(view: SeatView, variant) -> dict:
    """A SeatView → the ``view`` object of a ``state`` message (docs/protocol.md)."""
    d = view.to_dict()
    d["bids"] = [{"seat": b.seat, "cards": cards_text(b.cards), "trump": b.trump,
                  "strength": list(b.strength)} for b in view.bids]
    top = variant.top_level
    d["level_rank"] = rank_name(view.level, top)
    d["trump_suit"] = trump_name(view.trump) if view.trump_set else None
    d["team"] = view.team
    d["dealer_team"] = view.teams[view.dealer] if view.dealer is not None else None
    d["level_ranks"] = [rank_name(lv, top) for lv in view.levels]
    d["hand_groups"] = hand_groups(view, variant)
    d["trumps"] = trump_cards(view, variant)
    # display helpers: the points the whole deck holds, and those played face up so far
    d["points_total"] = points_total(variant)
    d["points_out"] = sum(n * _POINTS[k] for k, n in enumerate(view.played) if n)
    return d


def _decoded(what: str, decode, *args):
    """Run a decoder of a server message; a malformed object (a key missing, a value of
    the wrong type) is a ProtocolError naming it, never a KeyError or TypeError."""
    try:
        return decode(*args)
    except ShengjiError:
        raise
    except KeyError as e:
        raise ProtocolError("bad_message", f"{what}: missing key {e}") from None
    except (TypeError, ValueError, AttributeError, IndexError) as e:
        raise ProtocolError("bad_message", f"{what}: malformed ({type(e).__name__}: {e})"
                            ) from None


_POINTS = [point_value(k) for k in range(54)]


def points_total(variant) -> int:
    """Points in the variant's deck composition (100 a standard pack)."""
    got = _TOTALS.get(id(variant))
    if got is None or got[0] is not variant:  # keyed by id, the variant kept alive with it
        total = sum(n * _POINTS[k] for k, n in enumerate(variant.composition.counts))
        got = _TOTALS[id(variant)] = (variant, total)
    return got[1]


_TOTALS: dict[int, tuple] = {}


_IDS: dict[str, tuple] = {}  # card text → sorted ids: plays repeat ("SA SA") in every view
_IDS_OLD: dict[str, tuple] = {}  # its previous generation (shengji.memo)


def decode_view(d: dict) -> SeatView:
    """The ``view`` object → SeatView (what a bot adapter hands to a bot)."""
    if not isinstance(d, dict):
        raise ProtocolError("bad_message", f"view: expected an object, got {d!r:.40}")
    return _decoded("view", _decode_view, d)


def _decode_view(d: dict) -> SeatView:
    def ids(text):
        got = _IDS.get(text)
        if got is None:
            got = _IDS_OLD.get(text)
            if got is None:
                got = tuple(sorted(parse_cards(text), reverse=True))
            remember(_IDS, _IDS_OLD, 2048, text, got)
        return got

    def counts(text):
        c = [0] * 54
        for k in parse_cards(text):
            c[k] += 1
        return tuple(c)

    def plays(seq):
        return tuple((s, ids(c)) for s, c in seq)

    return SeatView(
        seat=d["seat"], players=d["players"], teams=tuple(d["teams"]), phase=d["phase"],
        to_act=d["to_act"], deal_number=d["deal"], dealer=d["dealer"], level=d["level"],
        levels=tuple(d["levels"]), trump=d["trump"], trump_set=d["trump_set"],
        to_deal=d["to_deal"],
        bids=tuple(Bid(b["seat"], tuple(sorted(parse_cards(b["cards"]))), b["trump"],
                       tuple(b.get("strength", ()))) for b in d["bids"]),
        hand=counts(d["hand"]), hand_sizes=tuple(d["hand_sizes"]),
        kitty=ids(d["kitty"]) if d["kitty"] is not None else None, kitty_size=d["kitty_size"],
        leader=d["leader"], trick_number=d["trick_number"], trick=plays(d["trick"]),
        tricks=tuple(plays(t) for t in d["tricks"]), played=counts(d["played"]),
        trick_points=d["trick_points"], forced_options=tuple(ids(o) for o in d["forced_options"]),
        side=tuple(d["side"]), sides_known=d["sides_known"],
        calls=parse_calls(d["calls"]), joined=tuple(tuple(j) for j in d["joined"]),
        can_take_back=d.get("can_take_back") is True,
    )


def encode_legal(legal: Legal) -> dict | None:
    """Legal actions → the ``legal`` object; None when the seat has nothing to do."""
    if legal.kind == "none":
        return None
    # the calls are never cut: a client picks `count` of them, so it must see them all
    # (at most 54 kinds x 4 copies)
    n = len(legal) if legal.kind == "call" else min(len(legal), LEGAL_LIMIT)
    out = {"kind": legal.kind, "count": legal.count, "total": legal.total,
           "truncated": legal.total > n,
           "actions": [encode_action(legal[i]) for i in range(n)]}
    if legal.limit is not None:  # the variant's bury settings (what the kitty may hold)
        out["restricted"] = cards_text(legal.limit[0])
        out["restricted_max"] = legal.limit[1]
    return out


def decode_legal(d: dict | None, seat: int) -> Legal:
    """The ``legal`` object → an engine Legal (plays as card tuples, as the engine lists)."""
    if d is None:
        return Legal("none", seat, ())
    if not isinstance(d, dict):
        raise ProtocolError("bad_message", f"legal: expected an object or null, got {d!r:.40}")
    return _decoded("legal", _decode_legal, d, seat)


def _decode_legal(d: dict, seat: int) -> Legal:
    kind = d["kind"]
    items: Sequence[object]
    if kind in ("lead", "follow"):
        items = [tuple(sorted(parse_cards(a["cards"]), reverse=True)) for a in d["actions"]]
    else:
        items = tuple(decode_action(a, seat) for a in d["actions"])
    legal = Legal(kind, seat, items, total=len(items), count=d["count"])
    if "restricted" in d:
        legal.limit = (tuple(sorted(parse_cards(d["restricted"]), reverse=True)),
                       d["restricted_max"])
    return legal


def encode_event(event) -> dict:
    """An Event (already redacted for the receiving seat) → its JSON object."""
    return event.to_dict()

