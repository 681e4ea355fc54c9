"""Chat in a room, for its players and its spectators: plain text only, bounded, and kept
with the room (its last CHAT_KEPT lines, sent to whoever joins), never in the game record
or the public replay, which hold the rules' record alone.

Every chat line is a client message like any other, so the connection's message budget
(limits.py) rate-limits it, and so does the room's own budget of lines (every line goes
to everyone in the room: ``Limits.chat_rate``, ``chat_burst``); its text is cleaned here
(no control or format characters, spaces collapsed, at most MAX_CHAT characters) and
every page shows it as text, never as markup (static/chat.js builds text nodes).

    client → server  {"type": "chat", "token": "…", "text": "hello"}   (spectators: no token)
    server → client  {"type": "chat", "protocol": 2, "lines": [
                        {"n": 7, "seat": 0, "name": "ann", "text": "hello"}, …]}

``seat`` is null for a spectator. The server sends the kept lines after a welcome, then
each new line to everyone in the room. With ``serve --db`` the kept lines are stored with
the room (its ``chat`` table) and come back with it after a restart.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Iterable

from ...protocol import PROTOCOL_VERSION, ProtocolError
from ...protocol.messages import MAX_CHAT_TEXT
from .limits import Bucket

#: the longest chat line, in characters (the protocol's bound on the text sent)
MAX_CHAT = MAX_CHAT_TEXT
#: chat lines a room keeps (and sends to a newcomer)
CHAT_KEPT = 100


def clean_text(text: str) -> str:
    """A chat line as it will be shown: control and format characters and line breaks
    become spaces, runs of spaces one; ProtocolError when nothing is left or it is too
    long."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "chat.text: expected a string")
    out = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    out = " ".join(out.split())
    if not out:
        raise ProtocolError("bad_message", "chat.text: empty")
    if len(out) > MAX_CHAT:
        raise ProtocolError("bad_message", f"chat.text: longer than {MAX_CHAT} characters")
    return out


class ChatLog:
    """The lines of one room, the last CHAT_KEPT of them. With a store (store.py), each
    line is written before anyone sees it, and ``lines`` are those read back with the
    room after a restart."""

    def __init__(self, kept: int = CHAT_KEPT, *, store=None, room: str = "",
                 lines: Iterable[dict] = (), rate: float = 5.0, burst: int = 20):
        self.kept = kept
        self.lines: deque = deque(lines, maxlen=kept)
        self.count = self.lines[-1]["n"] + 1 if self.lines else 0
        self.store, self.room = store, room
        # the room's lines, whoever says them: each goes to everyone in the room, so
        # forty sockets each within their own message budget would still be a flood
        self.bucket = Bucket(rate, burst)

    def add(self, seat: int | None, name: str, text: str) -> dict:
        line = {"n": self.count, "seat": seat, "name": name, "text": clean_text(text)}
        if not self.bucket.take():
            raise ProtocolError("rate_limited", "the room's chat goes too fast; wait a little")
        if self.store is not None:
            self.store.add_chat(self.room, line, self.kept)  # a StoreError: nobody sees it
        self.count += 1
        self.lines.append(line)
        return self.message([line])

    def history(self) -> dict | None:
        return self.message(list(self.lines)) if self.lines else None

    def send_history(self, conn) -> None:
        """The kept lines, to one who has just joined (nothing when there are none)."""
        history = self.history()
        if history is not None:
            conn.send(history)

    @staticmethod
    def message(lines: list[dict]) -> dict:
        return {"type": "chat", "protocol": PROTOCOL_VERSION, "lines": lines}
