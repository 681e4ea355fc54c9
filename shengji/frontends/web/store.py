"""Rooms on disk: SQLite (the standard library's sqlite3) in WAL mode.

Three tables hold everything a room is: ``rooms`` (code, variant, seed, settings, whether
it started and finished), ``seats`` (kind, name, the SHA-256 of the token) and
``actions`` (every action of the game, in order). The game itself is not stored: replay
is deterministic (``Game.replay(variant, seed, actions)``), so the actions are the game.
An action is committed before anyone is told about it, so a killed server loses nothing
a player saw; WAL with ``synchronous=NORMAL`` makes each commit an append to the log
(no fsync: a power cut may lose the last commits, a killed process does not). Copying
the log into the database (a checkpoint, with an fsync: tens of milliseconds) is done by
a background thread once a second, not by a commit in the server's event loop.

docs/serving.md says how several processes would share one database.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field

from ...errors import ShengjiError

SCHEMA_VERSION = 1
#: frames (pages) of write-ahead log past which a complete checkpoint truncates the file
WAL_FRAMES = 2048
SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    seed TEXT NOT NULL,              -- JSON: an integer or a string
    max_deals INTEGER,
    settings TEXT NOT NULL,          -- JSON object: turn_timer, ...
    created REAL NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL REFERENCES rooms(code),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- open | human | bot
    name TEXT NOT NULL,
    token_hash BLOB,
    PRIMARY KEY (room, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms(code),
    seq INTEGER NOT NULL,            -- 0, 1, 2, ... : the game's action index
    action TEXT NOT NULL,            -- JSON: Action.to_dict()
    PRIMARY KEY (room, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms(finished);
CREATE TABLE IF NOT EXISTS chat (    -- a room's last chat lines (chat.py), never its record
    room TEXT NOT NULL REFERENCES rooms(code),
    n INTEGER NOT NULL,              -- the line's number in the room: 0, 1, 2, ...
    seat INTEGER,                    -- null: a spectator
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (room, n)
) WITHOUT ROWID;
"""


class StoreError(ShengjiError):
    """The database failed: not a database, read-only, a corrupt page, a full disk. One
    line; the web server answers it as an ``error`` with code ``store_error``."""

    code = "store_error"


def _guarded(method):
    """sqlite3 errors of a Store method → StoreError (a repeated action number stays an
    IntegrityError: two writers of one room, a bug to see)."""
    @functools.wraps(method)
    def wrapper(self, *args, **kw):
        try:
            return method(self, *args, **kw)
        except sqlite3.IntegrityError:
            raise
        except (sqlite3.Error, ValueError) as e:  # ValueError: bad JSON in a damaged row
            raise StoreError(f"database {self.path}: {str(e).splitlines()[0][:200]}") from None
    return wrapper


@dataclass
class RoomRecord:
    code: str
    variant: str
    seed: int | str
    max_deals: int | None
    settings: dict
    started: bool
    finished: bool
    seats: list = field(default_factory=list)    # [(kind, name, token_hash)] by seat
    actions: list = field(default_factory=list)  # [action dict] in order
    chat: list = field(default_factory=list)     # the kept chat lines, oldest first


class Store:
    """``Store(path)``; ``path`` ``":memory:"`` keeps nothing after the process."""

    def __init__(self, path: str):
        self.path = str(path)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise self._unusable(e) from None
        try:
            self._open()
        except sqlite3.Error as e:  # not a database, read-only, locked, ...
            self.db.close()
            raise self._unusable(e) from None
        except StoreError:  # another schema version: refused, and nothing left open
            self.db.close()
            raise

    def _unusable(self, e: sqlite3.Error) -> StoreError:
        return StoreError(f"--db {self.path}: cannot use it: {e}")

    def _open(self) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise StoreError(f"--db {self.path}: schema version {version}, this shengji "
                             f"reads version {SCHEMA_VERSION}")
        self.db.executescript(SCHEMA)
        self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        # a read-only file opens and reads: find out now, not at the first room
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("ROLLBACK")
        # checkpoints belong to the background thread (see above); the log stays small
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute("PRAGMA journal_size_limit=8388608")

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        self.db.close()

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False)
        try:
            while not self._stop.wait(1.0):
                # PASSIVE: copies what it can without waiting for, or blocking, the writer
                busy, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                if not busy and frames == copied and frames > WAL_FRAMES:
                    # all copied after a burst: cut the file back (a quick truncate; the
                    # next commit would only reuse the log from its start, not shrink it)
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # the next start checkpoints what is left; nothing is lost
        finally:
            db.close()

    def _start_checkpointer(self) -> None:
        if self._checkpointer is None and self.path != ":memory:":
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, daemon=True,
                                                  name="shengji-checkpoint")
            self._checkpointer.start()

    # ----------------------------------------------------------------- writes

    @_guarded
    def add_room(self, code: str, variant: str, seed, max_deals, settings: dict,
                 seats: list) -> None:
        self._start_checkpointer()  # room creations alone grow the log too
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO rooms (code, variant, seed, max_deals, settings, "
                            "created) VALUES (?, ?, ?, ?, ?, ?)",
                            (code, variant, json.dumps(seed), max_deals, json.dumps(settings),
                             time.time()))
            self._put_seats(code, seats)

    @_guarded
    def save_seats(self, code: str, seats: list, started: bool | None = None) -> None:
        """``seats``: [(kind, name, token_hash)] by seat."""
        with self.db:
            self.db.execute("BEGIN")
            self._put_seats(code, seats)
            if started is not None:
                self.db.execute("UPDATE rooms SET started=? WHERE code=?", (int(started), code))

    def save_settings(self, code: str, settings: dict) -> None:
        """A room's settings as they are now (the host's room controls change them)."""
        with self.db:
            self.db.execute("UPDATE rooms SET settings=? WHERE code=?",
                            (json.dumps(settings), code))

    def _put_seats(self, code: str, seats: list) -> None:
        self.db.executemany("INSERT OR REPLACE INTO seats (room, seat, kind, name, token_hash) "
                            "VALUES (?, ?, ?, ?, ?)",
                            [(code, i, k, n, t) for i, (k, n, t) in enumerate(seats)])

    @_guarded
    def add_actions(self, code: str, first: int, actions: list[dict],
                    finished: bool = False) -> None:
        """Append actions ``first, first+1, ...`` (a gap or a repeat is an IntegrityError:
        two writers of one room)."""
        self._start_checkpointer()
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO actions (room, seq, action) VALUES (?, ?, ?)",
                                [(code, first + i, json.dumps(a, separators=(",", ":")))
                                 for i, a in enumerate(actions)])
            if finished:
                self.db.execute("UPDATE rooms SET finished=1 WHERE code=?", (code,))

    @_guarded
    def add_chat(self, code: str, line: dict, kept: int) -> None:
        """Store a chat line, and forget the room's lines older than the last ``kept``."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO chat (room, n, seat, name, text) VALUES (?, ?, ?, ?, ?)",
                            (code, line["n"], line["seat"], line["name"], line["text"]))
            self.db.execute("DELETE FROM chat WHERE room=? AND n<=?", (code, line["n"] - kept))

    @_guarded
    def drop_room(self, code: str) -> None:
        """Delete a room nobody joined (it has no actions)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM seats WHERE room=?", (code,))
            self.db.execute("DELETE FROM actions WHERE room=?", (code,))
            self.db.execute("DELETE FROM chat WHERE room=?", (code,))
            self.db.execute("DELETE FROM rooms WHERE code=?", (code,))

    # ----------------------------------------------------------------- reads

    @_guarded
    def room(self, code: str) -> RoomRecord | None:
        row = self.db.execute("SELECT code, variant, seed, max_deals, settings, started, "
                              "finished FROM rooms WHERE code=?", (code,)).fetchone()
        if row is None:
            return None
        rec = RoomRecord(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]),
                         bool(row[5]), bool(row[6]))
        rec.seats = [(k, n, t) for k, n, t in self.db.execute(
            "SELECT kind, name, token_hash FROM seats WHERE room=? ORDER BY seat", (code,))]
        rec.actions = [json.loads(a) for (a,) in self.db.execute(
            "SELECT action FROM actions WHERE room=? ORDER BY seq", (code,))]
        rec.chat = [{"n": n, "seat": seat, "name": name, "text": text} for n, seat, name, text
                    in self.db.execute("SELECT n, seat, name, text FROM chat WHERE room=? "
                                       "ORDER BY n", (code,))]
        return rec

    @_guarded
    def unfinished(self) -> list[str]:
        return [c for (c,) in self.db.execute("SELECT code FROM rooms WHERE finished=0")]

    @_guarded
    def exists(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM rooms WHERE code=?", (code,)).fetchone() is not None
