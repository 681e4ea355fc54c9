"""The ``code`` of every ``error`` a client can receive: what it means, and the HTTP
status it is answered with when it comes over HTTP. docs/protocol.md's table of codes is
generated from here (docs/tables.py), and tests/test_docs_tables.py checks that every
code the server can send is listed, and nothing else.

``illegal`` is the engine's refusal: its ``reason`` is one of
``shengji.protocol.refusals.REFUSALS``.
"""

from __future__ import annotations

from ..variants.house import MAX_ERRORS
from .messages import MAX_CHAT_TEXT, MAX_MESSAGE_BYTES, MAX_SHORT_TEXT

#: code → its cause, one line (Markdown: `code` spans)
ERROR_CODES: dict[str, str] = {
    "bad_json": "not JSON, or not UTF-8 (a websocket message or an HTTP body)",
    "bad_text": "text that is not Unicode: a lone surrogate (`\"\\ud800\"`) in a key or a "
                "value (a websocket message or an HTTP body)",
    "too_large": f"a websocket message over {MAX_MESSAGE_BYTES} bytes "
                 "(`MAX_MESSAGE_BYTES`); an HTTP body over its limit (docs/serving.md, "
                 "\"Body limits\")",
    "bad_message": "not an object, a missing or unknown key, a wrong type (booleans are not "
                   f"integers), a text over {MAX_SHORT_TEXT} characters (a chat line: "
                   f"{MAX_CHAT_TEXT})",
    "unknown_type": "a message whose `type` is missing or unknown",
    "bad_action": "a malformed action object (unknown type or key, `cards` not a string or "
                  "longer than a hand)",
    "bad_cards": "a card token that does not parse (`HX`)",
    "bad_call": "a call that does not parse (`\"1 HX\"`, `\"0 HA\"`); a `CallFriends` with "
                "the wrong number of calls, or calls the variant forbids, is `illegal` with "
                "`reason` `bad_call`",
    "illegal": "the engine refuses the action: `reason` says why (the table below) and "
               "`rule` names the section of docs/rules.md",
    "not_your_seat": "an action object names another seat",
    "not_joined": "a message that needs a seat before a `join` (or a spectator sending "
                  "what only players send)",
    "already_joined": "a second `join` or `watch` on one connection",
    "bad_token": "the token does not hold this connection's seat (on `join`: no seat of the "
                 "room)",
    "bad_version": "`join` or `watch` with another protocol version",
    "no_such_room": "no room has that code (a failed lookup: it counts against the "
                    "address's guesses)",
    "room_full": "`join`: no open seat is left (or the game has started: watch it); "
                 "`watch`: the room has all the spectators it takes",
    "seat_taken": "`join` asks for a seat somebody holds",
    "no_such_seat": "`join` asks for a seat the table does not have",
    "not_started": "an action or a `hint` before the start",
    "game_over": "an action or a `hint` after the end of the match",
    "not_finished": "a `replay` of a deal not scored yet",
    "not_your_turn": "a `hint` while another seat is to act",
    "server_full": "the server holds all the rooms, or all the websockets, it may (a "
                   "websocket is then closed)",
    "bad_variant": "a variant this server does not offer, or a table size the variant is "
                   "not played at (the message names the sizes it is)",
    "too_many_rooms": "the address holds all the unfinished rooms it may",
    "bad_media_type": "a POST body that is not `application/json`",
    "custom_rules_off": "house rules on a server started with `--no-custom-rules`",
    "wrong_shard": "a room code another process serves (`serve --shard`, docs/scaling.md)",
    "room_elsewhere": "a room another live process serves now (its lease, docs/scaling.md): "
                      "the client was routed to the wrong process",
    "idle": "the room was idle past the limit (docs/serving.md, \"Keeping a table moving\"): its "
            "websockets are closed (4000); it is kept, and joining again brings it back",
    "busy": "\"Try these rules\" or a rules check: the worker's queue is full (or this "
            "request's place went to an address served less recently), or the preview or "
            "check ran too long and was stopped",
    "rate_limited": "over a rate of docs/serving.md (\"Rates\"): messages on one websocket "
                    "(the first over it is answered, later ones are dropped unanswered), or, "
                    "per address, failed lookups by code, new rooms or public replays; its "
                    "budget of rules-checking CPU spent (answered after a pause, with "
                    "`Retry-After`); or a second preview from an address while its first runs",
    "not_host": "`arrange` from a player who is not the host",
    "started": "`arrange` after the start",
    "too_many_connections": "over the websockets allowed per seat or per address",
    "join_timeout": "the websocket sent no `join` or `watch` in time (it is then closed)",
    "bad_host": "a `Host` this server does not answer to (HTTP only)",
    "cross_site": "a request from another site's page (HTTP only)",
    "bad_rules": "a house file the rules check refuses: `errors` lists each problem by key "
                 f"(the first {MAX_ERRORS}), `error_count` says how many there were",
    "store_error": "the database failed; the room's websockets are closed (1011) after it",
    "internal": "a bug in the server (its log has the traceback)",
}

#: the status of each code an HTTP answer can carry (every other code is websocket only)
HTTP_STATUS: dict[str, int] = {
    "bad_json": 400, "bad_text": 400, "bad_message": 400, "bad_variant": 400, "bad_host": 400,
    "cross_site": 403, "custom_rules_off": 403, "no_such_room": 404, "too_large": 413,
    "bad_media_type": 415, "wrong_shard": 421, "room_elsewhere": 421, "bad_rules": 422,
    "too_many_rooms": 429,
    "rate_limited": 429, "internal": 500, "server_full": 503, "busy": 503,
    "store_error": 503,
}


def http_status(code: str) -> int:
    """The HTTP status of an error with this code (400 for a code not meant for HTTP)."""
    return HTTP_STATUS.get(code, 400)
