"""A room's seats: who sits there (open, a person, a bot), the display name, and what is
kept of a seat's secret token (its SHA-256 only)."""

from __future__ import annotations

import hashlib
import unicodedata

MAX_NAME = 24


def token_hash(token: str) -> bytes:
    """What a room keeps of a seat's token (any text hashes: a forged non-ASCII token is
    simply wrong)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def clean_name(name: str, default: str) -> str:
    """A display name: no control or format characters, spaces collapsed, MAX_NAME long.
    It is shown as text everywhere (never as markup)."""
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in name or "")
    text = " ".join(text.split())[:MAX_NAME]
    return text or default


class Seat:
    __slots__ = ("kind", "token_hash", "name")

    def __init__(self, kind: str = "open", name: str = "", token_hash: bytes | None = None):
        self.kind = kind        # open | human | bot
        self.token_hash = token_hash
        self.name = name

    def record(self) -> tuple:
        return (self.kind, self.name, self.token_hash)
