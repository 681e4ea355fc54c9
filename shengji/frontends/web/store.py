"""Rooms on disk: SQLite (the standard library's sqlite3) in WAL mode, the embedded store
of ``shengji serve --db PATH`` (pgstore.py is the same store on PostgreSQL).

Three tables hold everything a room is: ``rooms`` (code, variant, seed, settings, whether
it started and finished), ``seats`` (kind, name, the SHA-256 of the token) and
``actions`` (every action of the game, in order); ``chat`` keeps its last lines and
``processes``/``owners`` the lease of one writer per room (lease.py). The game itself is
not stored: replay is deterministic (``Game.replay(variant, seed, actions)``), so the
actions are the game. An action is committed before anyone is told about it, so a killed
server loses nothing a player saw; WAL with ``synchronous=NORMAL`` makes each commit an
append to the log (no fsync: a power cut may lose the last commits, a killed process
does not). Copying the log into the database (a checkpoint, with an fsync: tens of
milliseconds) is done by a background thread once a second, not by a commit in the
server's event loop.

**What the rooms ask of a store** (both stores): writes are made by plain calls, in the
order a room makes them (``add_room``, ``save_seats``, ``save_settings``,
``add_actions``, ``add_chat``, ``release``); ``await flush(code)`` returns once every
write of the room made so far is committed (here at once: each write commits before it
returns), and a room tells nobody anything before it. ``await claim(code)`` takes the
room's lease and reads it back; ``await code_used(code)`` asks whether a code was ever
given; ``failed(code)`` says a room's writes failed (it is then restored afresh).
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import ShengjiError
from . import lease

#: frames (pages) of write-ahead log past which a complete checkpoint truncates the file
WAL_FRAMES = 2048
#: the schema: numbered SQL files, applied in order at start (migrations/sqlite/,
#: migrations/postgres/); a database's version is the last one applied
MIGRATIONS = Path(__file__).parent / "migrations"


def migrations(kind: str) -> list[tuple[int, str, str]]:
    """``(version, name, SQL)`` of ``migrations/<kind>/NNNN_name.sql``, in order."""
    found = []
    for path in sorted((MIGRATIONS / kind).glob("[0-9][0-9][0-9][0-9]_*.sql")):
        number, _, name = path.stem.partition("_")
        found.append((int(number), name, path.read_text(encoding="utf-8")))
    return found


SCHEMA_VERSION = migrations("sqlite")[-1][0]


class StoreError(ShengjiError):
    """The database failed: not a database, read-only, a corrupt page, a full disk, a
    server that cannot be reached. One line; the web server answers it as an ``error``
    with code ``store_error``."""

    code = "store_error"


class LeaseLost(StoreError):
    """This process no longer holds the room: another one took it over (lease.py). The
    write is refused, so the game cannot fork."""

    def __init__(self, code: str):
        super().__init__(f"room {code}: another process serves it now; this one stops")


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


def _room_write(method):
    """A write of one room (its code first): guarded, and a failure remembered, so that
    the server restores the room afresh from what was committed (``failed``)."""
    guarded = _guarded(method)

    @functools.wraps(method)
    def wrapper(self, code, *args, **kw):
        try:
            return guarded(self, code, *args, **kw)
        except StoreError:
            self._failed.add(code)
            raise
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

    def __init__(self, path: str, lease_seconds: float = lease.LEASE_SECONDS):
        self.path = str(path)
        self.owner = lease.new_owner()
        self.lease_seconds = lease_seconds
        self._failed: set[str] = set()   # rooms whose last write failed
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
        if version > SCHEMA_VERSION:
            raise StoreError(f"--db {self.path}: schema version {version}, this shengji "
                             f"reads versions up to {SCHEMA_VERSION}")
        for number, _name, sql in migrations("sqlite"):
            if number > version:  # each in one transaction with its version number
                self.db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version={number};"
                                      "\nCOMMIT;")
        # a read-only file opens and reads: this write finds out now, not at the first room
        self._register()
        # checkpoints belong to the background thread (see above); the log stays small
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute("PRAGMA journal_size_limit=8388608")

    def _register(self) -> None:
        """This process's lease row; the rows of this host's dead processes go (their
        rooms are free at once), and rows a day past their expiry."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            host = lease.this_host()
            dead = [o for o, p in self.db.execute(
                "SELECT owner, pid FROM processes WHERE host=?", (host,)) if lease.gone(host, p)]
            dead += [o for (o,) in self.db.execute(
                "SELECT owner FROM processes WHERE expires<?", (time.time() - 86400,))]
            self.db.executemany("DELETE FROM owners WHERE owner=?", [(o,) for o in dead])
            self.db.executemany("DELETE FROM processes WHERE owner=?", [(o,) for o in dead])
            self.db.execute("INSERT INTO processes (owner, host, pid, expires) VALUES "
                            "(?, ?, ?, ?)", (self.owner, host, os.getpid(),
                                             time.time() + self.lease_seconds))

    async def heartbeat(self) -> None:
        """Push this process's lease ahead (lease.py)."""
        self._renew()

    @_guarded
    def _renew(self) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO processes (owner, host, pid, expires) "
                            "VALUES (?, ?, ?, ?)", (self.owner, lease.this_host(),
                                                    os.getpid(),
                                                    time.time() + self.lease_seconds))

    def close(self) -> None:
        """Stop; the rooms this process held are free for another at once."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("DELETE FROM owners WHERE owner=?", (self.owner,))
                self.db.execute("DELETE FROM processes WHERE owner=?", (self.owner,))
        except sqlite3.Error:
            pass  # a damaged or read-only file: the lease expires by itself
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

    # ----------------------------------------------------------------- the server's side

    async def open(self) -> None:
        """Nothing to do: the file was opened by the constructor (pgstore connects here)."""

    async def aclose(self) -> None:
        self.close()

    async def keep_alive(self) -> None:
        """Renew this process's lease while the event loop runs (a task of the app)."""
        import asyncio

        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.heartbeat()
            except StoreError:
                pass  # the next writes say so; the lease may lapse meanwhile

    async def flush(self, code: str) -> None:
        """Every write of the room is committed already (each commits before it returns)."""

    def failed(self, code: str) -> bool:
        """A write of the room failed (it raised where it was made, too)."""
        return code in self._failed

    async def code_used(self, code: str) -> bool:
        return self.exists(code)

    @_guarded
    def _take(self, code: str) -> bool:
        """Take the room's lease (False: no such room); RoomElsewhere when another live
        process holds it."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if not self.exists(code):
                return False
            held = self.db.execute("SELECT o.owner, p.expires FROM owners o LEFT JOIN "
                                   "processes p ON p.owner=o.owner WHERE o.room=?",
                                   (code,)).fetchone()
            if held is not None and held[0] != self.owner and held[1] is not None \
                    and held[1] > time.time():
                raise lease.RoomElsewhere(f"room {code} is served by another process; "
                                          "try again in a moment")
            self.db.execute("INSERT OR REPLACE INTO owners (room, owner) VALUES (?, ?)",
                            (code, self.owner))
            return True

    async def claim(self, code: str) -> RoomRecord | None:
        """The room's lease taken, and the room read back (None: no such room)."""
        self._failed.discard(code)
        return self.room(code) if self._take(code) else None

    # ----------------------------------------------------------------- writes

    def _owned(self, code: str) -> None:
        """In a write transaction: this process must still hold the room."""
        row = self.db.execute("SELECT owner FROM owners WHERE room=?", (code,)).fetchone()
        if row is None or row[0] != self.owner:
            raise LeaseLost(code)

    @_guarded
    def add_room(self, code: str, variant: str, seed, max_deals, settings: dict,
                 seats: list) -> None:
        self._start_checkpointer()  # room creations alone grow the log too
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO rooms (code, variant, seed, max_deals, settings, "
                            "created) VALUES (?, ?, ?, ?, ?, ?)",
                            (code, variant, json.dumps(seed), max_deals, json.dumps(settings),
                             time.time()))
            self._put_seats(code, seats)
            self.db.execute("INSERT INTO owners (room, owner) VALUES (?, ?)",
                            (code, self.owner))

    @_room_write
    def save_seats(self, code: str, seats: list, started: bool | None = None) -> None:
        """``seats``: [(kind, name, token_hash)] by seat."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._owned(code)
            self._put_seats(code, seats)
            if started is not None:
                self.db.execute("UPDATE rooms SET started=? WHERE code=?", (int(started), code))

    @_room_write
    def save_settings(self, code: str, settings: dict) -> None:
        """A room's settings as they are now (the host's room controls change them)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._owned(code)
            self.db.execute("UPDATE rooms SET settings=? WHERE code=?",
                            (json.dumps(settings), code))

    def _put_seats(self, code: str, seats: list) -> None:
        self.db.executemany("INSERT OR REPLACE INTO seats (room, seat, kind, name, token_hash) "
                            "VALUES (?, ?, ?, ?, ?)",
                            [(code, i, k, n, t) for i, (k, n, t) in enumerate(seats)])

    @_room_write
    def add_actions(self, code: str, first: int, actions: list[dict],
                    finished: bool = False) -> None:
        """Append actions ``first, first+1, ...`` (a gap or a repeat is an IntegrityError:
        two writers of one room)."""
        self._start_checkpointer()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._owned(code)
            self.db.executemany("INSERT INTO actions (room, seq, action) VALUES (?, ?, ?)",
                                [(code, first + i, json.dumps(a, separators=(",", ":")))
                                 for i, a in enumerate(actions)])
            if finished:
                self.db.execute("UPDATE rooms SET finished=1 WHERE code=?", (code,))

    @_room_write
    def add_chat(self, code: str, line: dict, kept: int) -> None:
        """Store a chat line, and forget the room's lines older than the last ``kept``."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._owned(code)
            self.db.execute("INSERT INTO chat (room, n, seat, name, text) VALUES (?, ?, ?, ?, ?)",
                            (code, line["n"], line["seat"], line["name"], line["text"]))
            self.db.execute("DELETE FROM chat WHERE room=? AND n<=?", (code, line["n"] - kept))

    @_guarded
    def release(self, code: str, drop: bool = False) -> None:
        """The room leaves this process: its lease is free for another at once. ``drop``:
        a room nobody joined (it has no actions) is deleted too."""
        self._failed.discard(code)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM owners WHERE room=? AND owner=?", (code, self.owner))
            if drop:
                for table in ("seats", "actions", "chat", "owners"):
                    self.db.execute(f"DELETE FROM {table} WHERE room=?", (code,))
                self.db.execute("DELETE FROM rooms WHERE code=?", (code,))

    def drop_room(self, code: str) -> None:
        """Delete a room nobody joined (it has no actions)."""
        self.release(code, drop=True)

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
