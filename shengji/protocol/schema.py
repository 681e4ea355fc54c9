"""The protocol as a JSON Schema (draft-07): every client message, every server
message and every event type, built from the Python definitions so that the two cannot
drift apart.

- Client messages come from ``messages.CLIENT_MESSAGES`` and ``messages.ACTION_KEYS``
  (what ``check_message`` enforces): strict, unknown keys refused.
- Events come from the dataclasses of ``shengji.engine.events``: each field's JSON form
  is looked up by its name in ``EVENT_FIELDS`` (a new field with a new name fails
  ``build()`` until it is described here).
- Server messages are written out below; they may carry keys added later (a compatible
  change, docs/protocol.md "Versioning"), so only their documented keys are required.

The shipped file ``protocol.schema.json`` beside this module is ``build()``'s output
(``python -m shengji.protocol.schema > shengji/protocol/protocol.schema.json``; a test
keeps it current). ``validate_server(msg)`` checks one outgoing message; with the
environment variable ``SHENGJI_PROTOCOL_CHECK`` set, the web server and ``Table`` check
every message they send (the test suite turns it on, docs/protocol.md "Schema").
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import threading
from pathlib import Path
from typing import Any

from ..engine import events as _events
from .messages import (
    ACTION_KEYS,
    CLIENT_MESSAGES,
    MAX_CALLS,
    MAX_CHAT_TEXT,
    MAX_SHORT_TEXT,
    PROTOCOL_VERSION,
)

SCHEMA_FILE = Path(__file__).with_name("protocol.schema.json")

# ------------------------------------------------------------------ building blocks

INT = {"type": "integer"}
NAT = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}
STR = {"type": "string"}
SEAT = {"type": "integer", "minimum": 0, "maximum": 11}
CARDS = {"type": "string", "description": "cards in the case-file notation, e.g. \"HA HA\""}
CARD = {"type": "string", "description": "one card in the case-file notation, e.g. \"HA\""}
TRUMP = {"type": ["integer", "null"], "minimum": 0, "maximum": 3,
         "description": "trump suit index 0..3 (S H C D), null for no trump"}
LEVELS = {"type": "array", "items": NAT, "description": "a level per seat"}
SEATS = {"type": "array", "items": SEAT}
CALLS = {"type": "array", "items": {"type": "string", "pattern": "^[0-9]+ \\S+$"},
         "description": "friend calls such as \"1 HA\" (the first ♥A played)"}


def nullable(schema: dict) -> dict:
    out = dict(schema)
    t = out.get("type")
    if t is not None:
        out["type"] = [t, "null"] if isinstance(t, str) else [*t, "null"]
    else:
        out = {"anyOf": [schema, {"type": "null"}]}
    return out


def obj(props: dict, required=None, *, strict: bool = False, doc: str = "") -> dict:
    out: dict[str, Any] = {"type": "object", "properties": props,
           "required": sorted(props if required is None else required)}
    if strict:
        out["additionalProperties"] = False
    if doc:
        out["description"] = doc
    return out


#: the JSON form of every event field, by name (events.Event.to_dict)
EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "deal": NAT, "attempt": NAT, "dealer": SEAT, "level": NAT, "levels": LEVELS,
    "first_seat": SEAT, "seat": SEAT, "card": CARD, "cards": CARDS, "trump": TRUMP,
    "strength": {"type": "array", "items": INT,
                 "description": "the declaration's strength, compared element by element"},
    "kitty": CARDS, "declarer": SEAT, "turned_card": CARD, "attempted": CARDS,
    "options": {"type": "array", "items": CARDS}, "chooser": SEAT, "penalty": INT,
    "option": NAT, "trick": NAT, "lead": BOOL, "points": INT, "attacker_points": INT,
    "calls": CALLS, "call": NAT, "already": BOOL, "trick_points": INT, "kitty_points": INT,
    "multiplier": NAT, "kitty_bonus": INT, "next_side": {"enum": ["dealers", "attackers"]},
    "rise": NAT, "rising": SEATS, "next_dealer": SEAT, "side": SEATS,
    "winner": {"type": ["integer", "null"], "description": "the winning team id"},
    "deals": NAT,
}
#: fields that are null in some events (redacted cards, no dealer yet, no declarer ...)
NULLABLE_FIELDS = {
    "DealStarted": {"dealer"}, "CardDealt": {"card"}, "Declared": {"trump"},
    "TrumpSet": {"trump", "declarer", "turned_card"}, "KittyTaken": {"cards"},
    "Buried": {"cards"}, "ThrowFailed": {"chooser"}, "Played": {"cards"},
    "TrickWon": {"points"}, "DealScored": {"kitty"},
}
#: one line for each event type (docs/protocol.md's table is made from these)
EVENT_DOCS = {
    "DealStarted": "a deal begins (attempt > 0 after redeals); first_seat gets the first card",
    "CardDealt": "one card to a seat (card null for every other seat)",
    "Declared": "a declaration (or a kitty-theft steal) shown and accepted",
    "Passed": "a seat declines to declare now",
    "BidTakenBack": "a declaration withdrawn (declare.takeback)",
    "Redealt": "nobody declared and the variant redeals: the turned kitty, public",
    "TrumpSet": "the declarations are over: trump, declarer, dealer, level, the turned card",
    "KittyTaken": "the dealer (or a stealer) picks up the kitty (cards only to that seat)",
    "Buried": "cards buried (cards only to that seat)",
    "ThrowFailed": "a throw failed: the forced options, who chooses, the penalty",
    "ForcedChosen": "the chooser picked a forced option",
    "Played": "cards played to a trick (lead: whether they led it)",
    "TrickWon": "a trick won; attacker_points: the attackers' trick points so far",
    "FriendsCalled": "finding friends: the dealer's calls",
    "FriendJoined": "a called copy played: that seat joins the dealer's side",
    "DealScored": "the deal's result: points, kitty, multiplier, who rises and by how much",
    "MatchOver": "a team passed the last level: the match is won",
    "PlayTakenBack": "a play withdrawn before the next seat acted (table.play_takeback): "
                     "its cards back in that seat's hand, that seat to act again",
}
#: keys the table adds to ThrowFailed (protocol/throws.py), present when a part is beaten
THROW_NOTES: dict[str, dict[str, Any]] = {"blocker": SEAT, "beaten": CARDS, "beaten_by": CARDS}


def event_classes() -> dict[str, type]:
    return {name: cls for name, cls in vars(_events).items()
            if isinstance(cls, type) and issubclass(cls, _events.Event)
            and cls is not _events.Event and dataclasses.is_dataclass(cls)}


def event_schema(name: str, cls: type) -> dict:
    props: dict[str, dict[str, Any]] = {"type": {"const": name}}
    for f in dataclasses.fields(cls):
        if f.name not in EVENT_FIELDS:
            raise KeyError(f"event {name}.{f.name}: describe its JSON form in "
                           "shengji/protocol/schema.py EVENT_FIELDS")
        field = EVENT_FIELDS[f.name]
        props[f.name] = nullable(field) if f.name in NULLABLE_FIELDS.get(name, ()) else field
    required = list(props)
    if name == "ThrowFailed":
        props.update(THROW_NOTES)
    if name not in EVENT_DOCS:
        raise KeyError(f"event {name}: add its one-line meaning to EVENT_DOCS")
    return obj(props, required, doc=EVENT_DOCS[name])


# ------------------------------------------------------------------ client messages

_JSON_TYPES = {int: "integer", str: "string", dict: "object", list: "array",
               type(None): "null"}


def client_schemas() -> dict:
    out = {}
    for kind, spec in CLIENT_MESSAGES.items():
        props: dict[str, dict[str, Any]] = {"type": {"const": kind}}
        for key, (types, _required) in spec.items():
            names = [_JSON_TYPES[t] for t in types]
            prop: dict[str, Any] = {"type": names[0] if len(names) == 1 else names}
            if "string" in names:
                prop["maxLength"] = (MAX_CHAT_TEXT if (kind, key) == ("chat", "text")
                                     else MAX_SHORT_TEXT)
            if key == "action":
                prop = {"$ref": "#/definitions/action"}
            props[key] = prop
        required = ["type"] + [k for k, (_, req) in spec.items() if req]
        out[f"client.{kind}"] = obj(props, required, strict=True)
    return out


def action_schema() -> dict:
    field = {"cards": {"type": "string", "maxLength": 1200}, "option": NAT,
             "calls": {"type": "array", "maxItems": MAX_CALLS,
                       "items": {"type": "string", "maxLength": 16}}}
    variants = {}
    for kind, keys in ACTION_KEYS.items():
        props = {"type": {"const": kind}, "seat": NAT, **{k: field[k] for k in keys}}
        variants[kind] = obj(props, ["type", *keys], strict=True)
    return discriminated(variants, "an action object (no seat needed: the connection's "
                                   "seat acts)")


def discriminated(variants: dict, doc: str) -> dict:
    """One of ``variants`` chosen by the ``type`` key: if/then per type rather than
    oneOf, so a validator tries one branch and its error names that branch."""
    names = [v["properties"]["type"]["const"] if "properties" in v
             else k.split(".", 1)[1] for k, v in variants.items()]
    branches = []
    for name, (key, schema) in zip(names, variants.items(), strict=True):
        then = {"$ref": f"#/definitions/{key}"} if key.startswith("event.") else schema
        branches.append({"if": {"properties": {"type": {"const": name}}}, "then": then})
    return {"type": "object", "required": ["type"], "description": doc,
            "properties": {"type": {"enum": names}}, "allOf": branches}


# ------------------------------------------------------------------ server messages

SEAT_INFO = obj({"seat": SEAT, "kind": {"enum": ["open", "human", "bot"]}, "name": STR,
                 "connected": BOOL, "standin": BOOL})
BID = obj({"seat": SEAT, "cards": CARDS, "trump": TRUMP,
           "strength": {"type": "array", "items": INT}})
PLAYS = {"type": "array", "items": {"type": "array", "items": [SEAT, CARDS],
                                    "minItems": 2, "maxItems": 2}}
VIEW = obj({
    "seat": nullable(SEAT), "players": {"type": "integer", "minimum": 2, "maximum": 12},
    "teams": {"type": "array", "items": INT}, "team": {"type": ["integer", "null"]},
    "phase": {"enum": ["deal", "steal", "bury", "call", "play", "choose", "over"]},
    "to_act": nullable(SEAT), "deal": NAT, "dealer": nullable(SEAT),
    "dealer_team": {"type": ["integer", "null"]}, "level": NAT, "level_rank": STR,
    "levels": LEVELS, "level_ranks": {"type": "array", "items": STR}, "trump": TRUMP,
    "trump_suit": {"type": ["string", "null"]}, "trump_set": BOOL, "to_deal": NAT,
    "bids": {"type": "array", "items": BID}, "hand": CARDS,
    "hand_groups": {"type": "array", "items": obj({"suit": STR, "cards": CARDS})},
    "trumps": CARDS, "hand_sizes": {"type": "array", "items": NAT},
    "kitty": nullable(CARDS), "kitty_size": NAT, "leader": nullable(SEAT),
    "trick_number": NAT, "trick": PLAYS, "tricks": {"type": "array", "items": PLAYS},
    "played": CARDS, "trick_points": INT, "forced_options": {"type": "array", "items": CARDS},
    "side": SEATS, "sides_known": BOOL, "calls": CALLS,
    "joined": {"type": "array", "items": {"type": "array", "items": NAT,
                                          "minItems": 2, "maxItems": 2}},
    "points_total": NAT, "points_out": NAT,
    "can_take_back": {"type": "boolean", "description": "this seat may take back its last "
                      "play now (TakeBack; table.play_takeback)"},
}, doc="a seat's view (shengji.engine.SeatView) with display helpers")
LEGAL = obj({"kind": {"enum": ["declare", "takeback", "bury", "call", "lead", "follow",
                               "choose"]},
             "count": NAT, "total": NAT, "truncated": BOOL,
             "actions": {"type": "array", "items": {"$ref": "#/definitions/action"}}},
            doc="the actions open to this seat now (null when it has none)")
EVENT_REF = {"$ref": "#/definitions/event"}


def server_schemas() -> dict:
    def msg(kind: str, props: dict, required=None, doc: str = "") -> dict:
        props = {"type": {"const": kind}, "protocol": {"const": PROTOCOL_VERSION}, **props}
        return obj(props, None if required is None else ["type", "protocol", *required],
                   doc=doc)

    # a room with house rules (web/houserules.py) and the host's controls (web/seating.py)
    rules = {"rules": STR, "rules_fingerprint": STR, "rules_base": {"type": ["string", "null"]},
             "rules_house": {"type": ["string", "null"]},
             "rules_changes": {"type": "array"}}
    # welcome and state carry the fingerprint alone: the text is GET /api/rooms/CODE's
    fingerprint = {"type": "string", "description": "sha256: of the room's rules text "
                   "(GET /api/rooms/CODE serves the text, once)"}
    controls = {"host": nullable(SEAT), "start_levels": {"type": ["array", "null"]},
                "first_dealer": nullable(SEAT)}
    replay = {"deal": NAT, "events": {"type": "array", "items": EVENT_REF},
              "played": {"type": "array", "items": CARDS}}
    return {
        "server.welcome": msg("welcome", {
            "room": STR, "seat": nullable(SEAT), "token": {"type": ["string", "null"]},
            "variant": STR, "play_rules": {"type": "object"}, "watching": BOOL,
            "rules_fingerprint": fingerprint},
            ["room", "seat", "token", "variant", "play_rules"],
            doc="a seat taken (or, with watching, a spectator's place); keep the token"),
        "server.room": msg("room", {
            "room": STR, "variant": STR, "started": BOOL,
            "seats": {"type": "array", "items": SEAT_INFO}, "watchers": NAT,
            "turn_timer": {"type": "number", "minimum": 0,
                           "description": "seconds a player has to act (0: no limit)"},
            **controls},
            ["room", "variant", "started", "seats", "watchers", "turn_timer"],
            doc="a room before its start"),
        "server.state": msg("state", {
            "seat": nullable(SEAT), "variant": STR, "over": BOOL,
            "winner": {"type": ["integer", "null"]}, "event_index": NAT, "view": VIEW,
            "legal": nullable(LEGAL), "events": {"type": "array", "items": EVENT_REF},
            "room": STR, "seats": {"type": "array", "items": SEAT_INFO},
            "waiting": SEATS, "watchers": NAT, "rules_fingerprint": fingerprint,
            **controls},
            ["seat", "variant", "over", "winner", "event_index", "view", "legal"],
            doc="after every change: the view, the legal actions (null when not this "
                "seat's turn) and the events since the last state on this connection"),
        "server.replay": msg("replay", replay, doc="a scored deal's events as this seat "
                                                   "saw them"),
        "server.advice": msg("advice", {"seat": SEAT, "action": {"$ref": "#/definitions/action"},
                                        "reason": STR}, doc="the answer to hint"),
        "server.error": msg("error", {"code": STR, "message": STR, "reason": STR, "rule": STR},
                            doc="a refused message: nothing changed"),
        "server.pong": msg("pong", {}, doc="the answer to ping"),
        "server.chat": msg("chat", {"lines": {"type": "array", "items": obj({
            "n": NAT, "seat": nullable(SEAT), "name": STR,
            "text": {"type": "string", "maxLength": MAX_CHAT_TEXT}})}},
            doc="chat lines of the room (after a welcome: the kept ones; then each new one)"),
        "server.seated": msg("seated", {"room": STR, "seat": SEAT},
                             doc="the host moved this connection's player to another seat"),
        "server.public_replay": msg("public_replay", {
            "room": STR, "variant": STR, "over": BOOL, "winner": {"type": ["integer", "null"]},
            "seats": {"type": "array", "items": obj({"seat": SEAT, "kind": STR,
                                                     "name": STR})},
            "deals": {"type": "array", "items": obj(replay)},
            "record": {"type": "object"}, **rules},
            ["room", "variant", "over", "winner", "seats", "deals"],
            doc="GET /api/rooms/CODE/replay: every scored deal as a spectator saw it, "
                "and the game record once the match is over"),
    }


def build() -> dict:
    """The whole protocol schema (draft-07)."""
    events = {f"event.{name}": event_schema(name, cls)
              for name, cls in event_classes().items()}
    defs = {**client_schemas(), **server_schemas(), **events, "action": action_schema(),
            "view": VIEW, "legal": LEGAL,
            "event": discriminated(events, "an event, by its type"),
            "client": {"oneOf": [{"$ref": f"#/definitions/{k}"} for k in client_schemas()]},
            "server": {"oneOf": [{"$ref": f"#/definitions/{k}"} for k in server_schemas()]}}
    return {"$schema": "http://json-schema.org/draft-07/schema#",
            "$id": f"urn:shengji:protocol:{PROTOCOL_VERSION}",
            "title": f"shengji protocol, version {PROTOCOL_VERSION}",
            "description": "Every message of docs/protocol.md: definitions client.* (client to "
                           "server), server.* (server to client), event.* (the events of "
                           "a state or replay message).",
            "definitions": defs}


# ------------------------------------------------------------------ checking

_validators: dict = {}


def _validator(ref: str):
    """A compiled check of one definition: fastjsonschema when installed (the test
    suite checks every message it sees: ~30x faster), else jsonschema."""
    v = _validators.get(ref)
    if v is None:
        schema = {**load(), "$ref": f"#/definitions/{ref}"}
        try:
            import fastjsonschema
        except ImportError:
            from jsonschema import Draft7Validator
            checker = Draft7Validator(schema)

            def v(msg, checker=checker):
                error = next(iter(checker.iter_errors(msg)), None)
                if error is not None:
                    path = ".".join(str(p) for p in error.absolute_path) or "(message)"
                    raise SchemaViolation(f"{path}: {error.message[:200]}")
        else:
            compiled = fastjsonschema.compile(schema)

            def v(msg, compiled=compiled):
                try:
                    compiled(msg)
                except fastjsonschema.JsonSchemaException as e:
                    raise SchemaViolation(str(e)[:300]) from None
        _validators[ref] = v
    return v


@functools.cache
def load() -> dict:
    """The shipped schema file (read once)."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


class SchemaViolation(ValueError):
    """A message that does not match the protocol schema."""


def validate_server(msg) -> None:
    """Check one server → client message (a dict, or its JSON text); SchemaViolation
    names the first key path that does not match."""
    if isinstance(msg, (str, bytes)):
        msg = json.loads(msg)
    _validate("server", msg)


def validate_client(msg) -> None:
    """Check one client → server message (a dict), as ``validate_server`` does."""
    _validate("client", msg)


def _validate(side: str, msg) -> None:
    kind = msg.get("type") if isinstance(msg, dict) else None
    ref = f"{side}.{kind}"
    if not isinstance(kind, str) or ref not in load()["definitions"]:
        raise SchemaViolation(f"unknown {side} message type {kind!r}")
    try:
        _validator(ref)(msg)
    except SchemaViolation as e:
        raise SchemaViolation(f"{kind}: {e}") from None


class Checker:
    """Counts and checks every message sent while ``SHENGJI_PROTOCOL_CHECK`` is set (the
    test suite's conftest reads ``CHECKER.checked`` and ``CHECKER.failures``)."""

    def __init__(self) -> None:
        self.checked = 0
        self.failures: list[str] = []
        self._lock = threading.Lock()

    def observe(self, msg) -> None:
        try:
            validate_server(msg)
            problem = None
        except (SchemaViolation, ValueError) as e:
            problem = str(e)
        with self._lock:
            self.checked += 1
            if problem is not None and len(self.failures) < 100:
                self.failures.append(problem)


CHECKER = Checker() if os.environ.get("SHENGJI_PROTOCOL_CHECK") else None


def main() -> None:
    print(json.dumps(build(), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
