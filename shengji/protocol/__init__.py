"""The shengji protocol (version 2): JSON messages between the engine and any client or
bot — the per-seat view, the legal actions, an action, events, errors. See
docs/protocol.md.

    from shengji.protocol import Table
    t = Table("two-deck-80", seed=1, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    t.run_bots()
    msg = t.state(0)                       # {"type": "state", "view": {...}, "legal": {...}}
    t.act(0, msg["legal"]["actions"][0])   # an action object, e.g. {"type": "Pass"}
"""

from .client import ProtocolBot
from .messages import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    check_message,
    decode_action,
    decode_legal,
    decode_view,
    encode_action,
    encode_event,
    encode_legal,
    encode_view,
    error_message,
    parse_message,
)
from .table import Table

__all__ = [
    "PROTOCOL_VERSION", "MAX_MESSAGE_BYTES", "ProtocolError", "ProtocolBot", "Table",
    "check_message", "parse_message", "decode_action", "encode_action", "decode_view",
    "encode_view", "decode_legal", "encode_legal", "encode_event", "error_message",
]
