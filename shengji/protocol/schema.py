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
from ..variants.house import MAX_ERRORS
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
    """``schema`` or null (a type list names "null" once: draft-07 wants its items unique)."""
    out = dict(schema)
    t = out.get("type")
    if t is not None:
        types = [t] if isinstance(t, str) else list(t)
        out["type"] = types if "null" in types else [*types, "null"]
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
    "RedealAsked": "a weak hand asked for the deal to be dealt again "
                   "(declare.weak_hand_redeal)",
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
    "phase": {"enum": ["deal", "redeal", "steal", "bury", "call", "play", "choose", "over"]},
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
LEGAL = obj({"kind": {"enum": ["declare", "takeback", "redeal", "bury", "call", "lead",
                               "follow", "choose"]},
             "count": NAT, "total": NAT, "truncated": BOOL,
             "restricted": {"type": "string", "description": "a burial's limit (variant "
                            "key bury): at most restricted_max cards of these kinds"},
             "restricted_max": NAT,
             "actions": {"type": "array", "items": {"$ref": "#/definitions/action"}}},
            ["kind", "count", "total", "truncated", "actions"],
            doc="the actions open to this seat now (null when it has none)")
EVENT_REF = {"$ref": "#/definitions/event"}


def described(schema: dict, text: str) -> dict:
    return {**schema, "description": text}


#: the rules a room plays (web/houserules.py rules_fields): its state, its lookup by
#: code and its public replay carry them
RULES_FIELDS = {
    "rules": described(STR, "the rules in force as resolved YAML text (no extends)"),
    "rules_fingerprint": described(STR, "sha256: of that text"),
    "rules_base": described({"type": ["string", "null"]}, "the offered variant they start "
                            "from"),
    "rules_house": described({"type": ["string", "null"]}, "the short house file (null "
                             "without house rules)"),
    "rules_changes": described(
        {"type": "array", "items": obj({"key": STR, "base": {}, "value": {}})},
        "each setting that differs from the base: its dotted key, the base's value, this "
        "room's"),
}

#: the game record (shengji.engine.record.game_to_dict): what `shengji replay` reads.
#: Strict, so that a key added to the record and not described here fails the tests.
RECORD = obj({
    "format": described({"const": 1}, "the record format (1)"),
    "variant": described(STR, "the variant's name (or the path it was loaded from)"),
    "players": described({"type": "integer", "minimum": 2, "maximum": 12},
                         "the table size"),
    "seed": described({"type": ["integer", "string"]}, "the seed of the deals"),
    "max_deals": described({"type": ["integer", "null"], "minimum": 1},
                           "the match's length in deals (null: to the end)"),
    "actions": described({"type": "array", "items": {"type": "object"}},
                         "every action in order, each with its seat"),
    "state": described({"type": "object"}, "a snapshot of the final state, compared with "
                       "the replayed one when the record is read"),
    "start_levels": described({"type": "array", "items": NAT},
                              "the host's starting level of each seat (only when set)"),
    "first_dealer": described(SEAT, "the host's first dealer (only when set)"),
    "rules": described(STR, "the rules as resolved YAML text: in every public replay's "
                       "record, elsewhere for rules that are no file"),
}, ["format", "variant", "players", "seed", "max_deals", "actions", "state"], strict=True,
    doc="a game record: variant, seed and actions rebuild the game")

FIGURES = obj({"deals": NAT, "dealer_hold_rate": {"type": "number"},
               "attacker_points": {"type": "number"}, "levels_per_deal": {"type": "number"},
               "failed_throws_per_deal": {"type": "number"},
               "tricks_per_deal": {"type": "number"},
               "kitty_won": NAT, "kitty_changed": NAT, "failed_throws": NAT,
               "nobody_declared": NAT},
              doc="a side's figures: deals played, the share the dealers held, attacker "
                  "points, levels risen, failed throws and tricks, per deal; and how often "
                  "rules came into play: deals whose kitty the attackers won, deals whose "
                  "kitty multiplier the other side's rules would change, failed throws, "
                  "deals nobody declared")
#: one changed setting of a preview and how often it came into play (web/preview.py)
APPLIED = obj({"key": STR, "use": {"type": ["string", "null"]},
               "house": NAT, "base": NAT, "said": STR}, ["key", "use", "said"],
              doc="a changed setting, what is counted for it (null: not counted), the "
                  "counts under the house rules and the base, and the sentence shown")
SIZES = {"type": "object", "additionalProperties": {"type": "array", "items": NAT}}

#: the JSON answers of the web server's HTTP API, by definition name: docs/protocol.md's
#: table of their keys is generated from these (docs/tables.py)
HTTP_ANSWERS: dict[str, tuple[str, dict]] = {
    "http.variants": ("GET /api/variants", obj({
        "variants": described({"type": "array", "items": STR}, "the variant names a room "
                              "may use"),
        "default": described(STR, "the lobby's first choice"),
        "protocol": described({"const": PROTOCOL_VERSION}, "the protocol version"),
        "seats": described(SIZES, "per variant, the table sizes it is played at (its "
                           "by_players table, else its own size)"),
        "descriptions": described({"type": "object", "additionalProperties": STR},
                                  "per variant, its file's description on one line"),
    })),
    "http.room_created": ("POST /api/rooms", obj({
        "room": described(STR, "the new room's code"),
        "variant": described(STR, "the name of the rules it plays (a house room: the house "
                             "file's name, else BASE+house)"),
    })),
    "http.room": ("GET /api/rooms/CODE", obj({
        "room": described(STR, "the code"), "variant": described(STR, "as in state"),
        "players": described(NAT, "the table size"),
        "started": described(BOOL, "the game has started"),
        "seats": described({"type": "array", "items": SEAT_INFO}, "each seat, as in room"),
        **RULES_FIELDS})),
    "http.rules_schema": ("GET /api/rules/schema", obj({
        "schema": described({"type": "object"}, "the variant schema (variant.schema.json)"),
        "bases": described({"type": "array", "items": STR}, "the offered variants a house "
                           "file may extend"),
        "examples": described({"type": "object"}, "per setting, positions where it and its "
                              "base disagree (rule_examples.json)"),
        "seats": described(SIZES, "per base, its table sizes"),
        "custom_rules": described(BOOL, "false with serve --no-custom-rules"),
    })),
    "http.rules_check": ("POST /api/rules/check", obj({
        "base": described(STR, "the offered variant the file extends"),
        "players": described(NAT, "the table size"),
        "rules": described(STR, "the resolved rules (YAML text, no extends)"),
        "name": described({"type": ["string", "null"]}, "the file's own name, else null"),
        "rules_fingerprint": described(STR, "sha256: of rules"),
        "house": described(STR, "the short house file: extends and what differs"),
        "settings": described({"type": "object"}, "the resolved settings"),
        "base_settings": described({"type": "object"}, "the base's settings"),
        "changes": RULES_FIELDS["rules_changes"],
        "warnings": described({"type": "array", "items": STR}, "settings that cannot take "
                              "effect with this deck"),
    })),
    "http.rules_preview": ("POST /api/rules/preview", obj({
        "seed": described({"type": ["integer", "string"]}, "the seed both matches used"),
        "deals": described(NAT, "the deals asked for, per side"),
        "base_name": described(STR, "the base played beside the house rules"),
        "time_cap": described({"type": "number"}, "seconds of play allowed, both sides "
                              "together"),
        "house": described(FIGURES, "the figures under the house rules"),
        "base": described(FIGURES, "the figures under the base"),
        "seconds": described({"type": "number"}, "seconds the matches took"),
        "capped": described(BOOL, "a side stopped at the time cap before its deals"),
        "bots": described(STR, "the bots both sides were played by (heuristic, or bold: "
                               "they bring kitty and throw rules into play)"),
        "bots_said": described(STR, "those bots in words"),
        "applied": described({"type": "array", "items": APPLIED},
                             "each changed setting and how often it came into play"),
    })),
}


def server_schemas() -> dict:
    def msg(kind: str, props: dict, required=None, doc: str = "") -> dict:
        props = {"type": {"const": kind}, "protocol": {"const": PROTOCOL_VERSION}, **props}
        return obj(props, None if required is None else ["type", "protocol", *required],
                   doc=doc)

    # the room's rules (web/houserules.py) and the host's controls (web/seating.py: the
    # room message only); welcome and state carry the fingerprint alone: the text is
    # GET /api/rooms/CODE's, fetched once
    rules = RULES_FIELDS
    fingerprint = described(STR, "sha256: of the room's rules text (GET /api/rooms/CODE "
                            "serves the text, once)")
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
            "waiting": SEATS, "watchers": NAT, "rules_fingerprint": fingerprint},
            ["seat", "variant", "over", "winner", "event_index", "view", "legal"],
            doc="after every change: the view, the legal actions (null when not this "
                "seat's turn) and the events since the last state on this connection"),
        "server.replay": msg("replay", replay, doc="a scored deal's events as this seat "
                                                   "saw them"),
        "server.advice": msg("advice", {"seat": SEAT, "action": {"$ref": "#/definitions/action"},
                                        "reason": STR}, doc="the answer to hint"),
        "server.error": msg("error", {
            "code": STR, "message": STR, "reason": STR, "rule": STR,
            "errors": {"type": "array", "items": obj({"key": STR, "message": STR}),
                       "description": "bad_rules only: the first problems of the house file "
                                      f"({MAX_ERRORS} at most), by their dotted keys (\"\" "
                                      "for the file as a whole)"},
            "error_count": described(NAT, "bad_rules only: how many problems there were "
                                     "(errors lists the first of them)")},
            ["code", "message", "reason", "rule"],
            doc="a refused message or request: nothing changed (over HTTP too, with the "
                "status of docs/protocol.md's code table)"),
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
            "record": {"$ref": "#/definitions/record"}, **rules},
            ["room", "variant", "over", "winner", "seats", "deals"],
            doc="GET /api/rooms/CODE/replay: every scored deal as a spectator saw it, "
                "and the game record once the match is over"),
    }


def build() -> dict:
    """The whole protocol schema (draft-07)."""
    events = {f"event.{name}": event_schema(name, cls)
              for name, cls in event_classes().items()}
    defs = {**client_schemas(), **server_schemas(), **events, "action": action_schema(),
            "view": VIEW, "legal": LEGAL, "record": RECORD,
            **{name: {**schema, "description": f"the answer to {request}"}
               for name, (request, schema) in HTTP_ANSWERS.items()},
            "event": discriminated(events, "an event, by its type"),
            "client": {"oneOf": [{"$ref": f"#/definitions/{k}"} for k in client_schemas()]},
            "server": {"oneOf": [{"$ref": f"#/definitions/{k}"} for k in server_schemas()]}}
    return {"$schema": "http://json-schema.org/draft-07/schema#",
            "$id": f"urn:shengji:protocol:{PROTOCOL_VERSION}",
            "title": f"shengji protocol, version {PROTOCOL_VERSION}",
            "description": "Every message of docs/protocol.md: definitions client.* (client to "
                           "server), server.* (server to client), event.* (the events of "
                           "a state or replay message), http.* (the HTTP API's answers; "
                           "its errors are server.error) and record (a game record).",
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


def validate_http(name: str, body) -> None:
    """Check one HTTP answer (a dict, or its JSON text) against ``http.NAME`` (or
    ``server.error``, ``server.public_replay``), as ``validate_server`` does."""
    if isinstance(body, (str, bytes)):
        body = json.loads(body)
    if name not in load()["definitions"]:
        raise SchemaViolation(f"no definition {name!r}")
    try:
        _validator(name)(body)
    except SchemaViolation as e:
        raise SchemaViolation(f"{name}: {e}") from None


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
