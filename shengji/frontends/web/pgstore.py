"""Rooms in PostgreSQL: ``shengji serve --db postgresql://USER@HOST/DB``, the store for
several server processes on several hosts (docs/scaling.md). The same tables and the
same promises as the SQLite store (store.py), through asyncpg:

- an action anyone is told of is committed first: a room's writes are made by plain
  calls and committed in order by one task per room, and the room awaits ``flush`` (all
  of its writes so far committed) before it sends anything;
- ``(room, seq)`` is the primary key of ``actions``: appending an action is a
  compare-and-set, and every write also checks, in the same statement, that this
  process still holds the room's lease (lease.py), so a second writer is refused;
- a room is restored with one query (its row, seats, actions and chat: index scans of
  one key);
- the schema is the numbered SQL files of migrations/postgres/, applied at start under
  an advisory lock (several processes may start at once), each in its own transaction.

Why asyncpg (not psycopg 3): the server is one event loop per core, and the client's CPU
per statement is what a table costs: measured side by side, psycopg costs 2.2x asyncpg's
CPU per append and 1.8x per room read (benchmarks/bench_pg_drivers.py, docs/scaling.md).
asyncpg brings its own pool and reads the same ``postgresql://`` URLs, ``PG*`` variables
and password file as libpq.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections import deque
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from . import lease
from .store import LeaseLost, RoomRecord, StoreError, migrations

log = logging.getLogger("shengji.web")

#: the advisory lock held while migrations run (any number: ours)
MIGRATION_LOCK = 0x5E3691
#: seconds to connect, and for any one statement, before the store gives up
CONNECT_TIMEOUT = 10.0
STATEMENT_TIMEOUT = 30.0

_OWNED = "SELECT 1 FROM owners WHERE room = $1 AND owner = $2 FOR SHARE"
# each write below is one statement: the lease check (locking the owner row against a
# takeover until the write commits) and the write, so one round trip
ADD_ACTIONS = f"""
WITH ok AS ({_OWNED}),
ins AS (INSERT INTO actions (room, seq, action)
        SELECT $1, $3 + t.i - 1, t.a FROM ok, unnest($4::text[]) WITH ORDINALITY AS t(a, i)
        RETURNING 1),
fin AS (UPDATE rooms SET finished = true
        WHERE $5::boolean AND code = $1 AND EXISTS (SELECT 1 FROM ok))
SELECT (SELECT count(*) FROM ok), (SELECT count(*) FROM ins)"""
SAVE_SEATS = f"""
WITH ok AS ({_OWNED}),
s AS (INSERT INTO seats (room, seat, kind, name, token_hash)
      SELECT $1, t.i - 1, t.k, t.n, t.h
      FROM ok, unnest($3::text[], $4::text[], $5::bytea[]) WITH ORDINALITY AS t(k, n, h, i)
      ON CONFLICT (room, seat) DO UPDATE
      SET kind = EXCLUDED.kind, name = EXCLUDED.name, token_hash = EXCLUDED.token_hash),
st AS (UPDATE rooms SET started = $6::boolean WHERE $6::boolean IS NOT NULL AND code = $1
       AND EXISTS (SELECT 1 FROM ok))
SELECT count(*) FROM ok"""
SAVE_SETTINGS = f"""
WITH ok AS ({_OWNED}),
u AS (UPDATE rooms SET settings = $3 WHERE code = $1 AND EXISTS (SELECT 1 FROM ok))
SELECT count(*) FROM ok"""
ADD_CHAT = f"""
WITH ok AS ({_OWNED}),
i AS (INSERT INTO chat (room, n, seat, name, text)
      SELECT $1, $3::integer, $4::integer, $5, $6 FROM ok),
d AS (DELETE FROM chat WHERE room = $1 AND n <= $3::integer - $7::integer
      AND EXISTS (SELECT 1 FROM ok))
SELECT count(*) FROM ok"""
ADD_ROOM = """
WITH r AS (INSERT INTO rooms (code, variant, seed, max_deals, settings)
           VALUES ($1, $2, $3, $4, $5) RETURNING code),
s AS (INSERT INTO seats (room, seat, kind, name, token_hash)
      SELECT r.code, t.i - 1, t.k, t.n, t.h
      FROM r, unnest($6::text[], $7::text[], $8::bytea[]) WITH ORDINALITY AS t(k, n, h, i))
INSERT INTO owners (room, owner) SELECT code, $9 FROM r"""
# the lease: free, ours already, or its holder's lease expired
TAKE = """
INSERT INTO owners (room, owner) SELECT code, $2 FROM rooms WHERE code = $1
ON CONFLICT (room) DO UPDATE SET owner = EXCLUDED.owner
WHERE owners.owner = EXCLUDED.owner OR NOT EXISTS (
    SELECT 1 FROM processes p WHERE p.owner = owners.owner AND p.expires > now())
RETURNING 1"""
READ_ROOM = """
SELECT variant, seed, max_deals, settings, started, finished,
       ARRAY(SELECT kind FROM seats WHERE room = $1 ORDER BY seat),
       ARRAY(SELECT name FROM seats WHERE room = $1 ORDER BY seat),
       ARRAY(SELECT token_hash FROM seats WHERE room = $1 ORDER BY seat),
       (SELECT string_agg(action, ',' ORDER BY seq) FROM actions WHERE room = $1),
       (SELECT json_agg(json_build_object('n', n, 'seat', seat, 'name', name, 'text', text)
                        ORDER BY n) FROM chat WHERE room = $1)
FROM rooms WHERE code = $1"""
HEARTBEAT = """
INSERT INTO processes (owner, host, pid, expires)
VALUES ($1, $2, $3, now() + $4 * interval '1 second')
ON CONFLICT (owner) DO UPDATE SET expires = EXCLUDED.expires"""


def is_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def shown_url(url: str) -> str:
    """The URL as printed: never its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _seat_arrays(seats: list) -> tuple[list, list, list]:
    return [k for k, _, _ in seats], [n for _, n, _ in seats], [t for _, _, t in seats]


class _Queue:
    """The writes of one room not yet committed, in order, and who waits for them."""

    __slots__ = ("ops", "task", "submitted", "done", "waiters")

    def __init__(self) -> None:
        self.ops: deque = deque()
        self.task: asyncio.Task | None = None
        self.submitted = 0
        self.done = 0
        self.waiters: list = []   # [(ops that must be done, future)]


class PgStore:
    """``PgStore(url)``; ``await open()`` connects and migrates (a StoreError of one line
    when the server cannot be reached or refuses)."""

    def __init__(self, url: str, lease_seconds: float = lease.LEASE_SECONDS,
                 pool_size: int = 10):
        self.url = url
        self.path = shown_url(url)  # what messages name (store.Store's path)
        self.owner = lease.new_owner()
        self.lease_seconds = lease_seconds
        self.pool_size = pool_size
        self.pool: Any = None   # asyncpg.Pool once open
        self._queues: dict[str, _Queue] = {}
        self._failed: dict[str, StoreError] = {}

    # ----------------------------------------------------------------- start, stop

    def _error(self, e: BaseException) -> StoreError:
        text = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        if isinstance(e, (OSError, asyncio.TimeoutError)):
            text = f"cannot reach it: {text}"
        return StoreError(f"database {self.path}: {text}")

    async def open(self) -> None:
        try:
            import asyncpg
        except ImportError:
            raise StoreError(f"--db {self.path}: PostgreSQL needs asyncpg: "
                             "pip install 'shengji[postgres]'") from None
        try:
            # min_size 0: no floor of connections for asyncpg to restore (and log a
            # traceback about) while the database is away; they open as needed
            self.pool = await asyncpg.create_pool(
                self.url, min_size=0, max_size=self.pool_size, timeout=CONNECT_TIMEOUT,
                command_timeout=STATEMENT_TIMEOUT)
            async with self.pool.acquire() as c:
                await self._migrate(c)
                await self._register(c)
        except StoreError:
            await self._close_pool()
            raise
        except (OSError, asyncio.TimeoutError, asyncpg.PostgresError,
                asyncpg.InterfaceError, ValueError) as e:
            await self._close_pool()
            text = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
            raise StoreError(f"--db {self.path}: cannot use it: {text}") from None

    async def _migrate(self, c) -> None:
        known = migrations("postgres")
        async with c.transaction():
            await c.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await c.execute("CREATE TABLE IF NOT EXISTS shengji_migrations (version integer "
                            "PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL "
                            "DEFAULT now())")
            have = await c.fetchval("SELECT coalesce(max(version), 0) FROM shengji_migrations")
            if have > known[-1][0]:
                raise StoreError(f"--db {self.path}: schema version {have}, this shengji "
                                 f"reads versions up to {known[-1][0]}")
            for number, name, sql in known:
                if number > have:
                    await c.execute(sql)
                    await c.execute("INSERT INTO shengji_migrations (version, name) "
                                    "VALUES ($1, $2)", number, name)

    async def _register(self, c) -> None:
        """This process's lease row; the rows of this host's dead processes go (their
        rooms are free at once), and rows a day past their expiry."""
        host = lease.this_host()
        async with c.transaction():
            rows = await c.fetch("SELECT owner, pid FROM processes WHERE host = $1", host)
            dead = [r["owner"] for r in rows if lease.gone(host, r["pid"])]
            dead += [r["owner"] for r in await c.fetch(
                "SELECT owner FROM processes WHERE expires < now() - interval '1 day'")]
            await c.execute("DELETE FROM owners WHERE owner = ANY($1::text[])", dead)
            await c.execute("DELETE FROM processes WHERE owner = ANY($1::text[])", dead)
            await c.execute(HEARTBEAT, self.owner, host, os.getpid(), self.lease_seconds)

    async def heartbeat(self) -> None:
        """Push this process's lease ahead (lease.py)."""
        await self.pool.execute(HEARTBEAT, self.owner, lease.this_host(), os.getpid(),
                                self.lease_seconds)

    async def keep_alive(self) -> None:
        """Renew this process's lease while the event loop runs (a task of the app)."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.heartbeat()
            except Exception as e:  # the database away: writes will say so
                log.warning("%s", self._error(e))

    async def aclose(self) -> None:
        """Commit what is pending, give every room back, close the connections."""
        tasks = [q.task for q in self._queues.values() if q.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.pool is not None:
            try:
                async with self.pool.acquire() as c:
                    await c.execute("DELETE FROM owners WHERE owner = $1", self.owner)
                    await c.execute("DELETE FROM processes WHERE owner = $1", self.owner)
            except Exception as e:  # the lease expires by itself
                log.warning("%s", self._error(e))
        await self._close_pool()

    async def _close_pool(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            try:
                await asyncio.wait_for(pool.close(), 10)
            except (Exception, asyncio.TimeoutError):
                pool.terminate()

    # ----------------------------------------------------------------- writes, in order

    def add_room(self, code: str, variant: str, seed, max_deals, settings: dict,
                 seats: list) -> None:
        self._submit(code, self._add_room, variant, json.dumps(seed), max_deals,
                     json.dumps(settings), *_seat_arrays(seats))

    def save_seats(self, code: str, seats: list, started: bool | None = None) -> None:
        self._submit(code, self._owned_write, SAVE_SEATS, *_seat_arrays(seats), started)

    def save_settings(self, code: str, settings: dict) -> None:
        self._submit(code, self._owned_write, SAVE_SETTINGS, json.dumps(settings))

    def add_actions(self, code: str, first: int, actions: list[dict],
                    finished: bool = False) -> None:
        self._submit(code, self._add_actions, first,
                     [json.dumps(a, separators=(",", ":")) for a in actions], finished)

    def add_chat(self, code: str, line: dict, kept: int) -> None:
        self._submit(code, self._owned_write, ADD_CHAT, line["n"], line["seat"], line["name"],
                     line["text"], kept)

    def release(self, code: str, drop: bool = False) -> None:
        """The room leaves this process (after its pending writes): its lease is free at
        once; ``drop``: a room nobody joined is deleted too."""
        self._failed.pop(code, None)
        self._submit(code, self._release, drop)

    def drop_room(self, code: str) -> None:
        self.release(code, drop=True)

    def _submit(self, code: str, fn, *args) -> None:
        if code in self._failed:
            return  # its writes failed: flush says so, nothing later is written
        q = self._queues.get(code)
        if q is None:
            q = self._queues[code] = _Queue()
        q.ops.append((fn, args))
        q.submitted += 1
        if q.task is None:
            q.task = asyncio.get_running_loop().create_task(self._drain(code, q))

    async def _drain(self, code: str, q: _Queue) -> None:
        try:
            while q.ops:
                fn, args = q.ops.popleft()
                taken = 1
                if fn == self._add_actions:  # runs of actions in one statement
                    first, texts, finished = args
                    while q.ops and q.ops[0][0] == self._add_actions \
                            and q.ops[0][1][0] == first + len(texts):
                        texts = texts + q.ops[0][1][1]
                        finished = finished or q.ops.popleft()[1][2]
                        taken += 1
                    args = (first, texts, finished)
                await fn(code, *args)
                q.done += taken
                for item in [w for w in q.waiters if w[0] <= q.done]:
                    q.waiters.remove(item)
                    if not item[1].done():
                        item[1].set_result(None)
        except Exception as e:
            err = e if isinstance(e, StoreError) else self._error(e)
            log.error("%s", err)
            self._failed[code] = err
            q.ops.clear()
            q.done = q.submitted
            for _, fut in q.waiters:
                if not fut.done():
                    fut.set_exception(err)
            q.waiters.clear()
        finally:
            q.task = None
            if not q.ops and self._queues.get(code) is q:
                del self._queues[code]

    async def flush(self, code: str) -> None:
        """Returns once every write of the room made so far is committed; a StoreError
        if one failed (then the room is restored afresh: Lobby.get)."""
        q = self._queues.get(code)
        if q is not None and q.done < q.submitted:
            fut = asyncio.get_running_loop().create_future()
            q.waiters.append((q.submitted, fut))
            await fut
        err = self._failed.get(code)
        if err is not None:
            raise err

    def failed(self, code: str) -> bool:
        return code in self._failed

    async def _add_room(self, code, variant, seed, max_deals, settings, kinds, names, hashes):
        await self.pool.execute(ADD_ROOM, code, variant, seed, max_deals, settings, kinds,
                                names, hashes, self.owner)

    async def _owned_write(self, code: str, sql: str, *args) -> None:
        if not await self.pool.fetchval(sql, code, self.owner, *args):
            raise LeaseLost(code)

    async def _add_actions(self, code: str, first: int, texts: list, finished: bool) -> None:
        import asyncpg

        try:
            owned, _ = await self.pool.fetchrow(ADD_ACTIONS, code, self.owner, first, texts,
                                                finished)
        except asyncpg.UniqueViolationError:  # the compare-and-set: seq taken already
            raise StoreError(f"room {code}: action {first} is stored already (a second "
                             "writer)") from None
        if not owned:
            raise LeaseLost(code)

    async def _release(self, code: str, drop: bool) -> None:
        if drop:
            await self.pool.execute("DELETE FROM rooms WHERE code = $1 AND EXISTS ("
                                    "SELECT 1 FROM owners WHERE room = $1 AND owner = $2)",
                                    code, self.owner)
        else:
            await self.pool.execute("DELETE FROM owners WHERE room = $1 AND owner = $2",
                                    code, self.owner)

    # ----------------------------------------------------------------- reads

    async def claim(self, code: str) -> RoomRecord | None:
        """The room's lease taken (after any pending write of it, such as its release),
        and the room read back; None: no such room; RoomElsewhere: another live process
        holds it."""
        self._failed.pop(code, None)  # a fresh start for a room that failed before
        fut = asyncio.get_running_loop().create_future()
        self._submit(code, self._claim, fut)
        return await fut

    async def _claim(self, code: str, fut: asyncio.Future) -> None:
        try:
            taken = await self.pool.fetchval(TAKE, code, self.owner)
            rec = await self.room(code)
            if rec is not None and not taken:
                raise lease.RoomElsewhere(f"room {code} is served by another process; try "
                                          "again in a moment")
        except Exception as e:  # told to the claimer; the room's queue goes on
            if not fut.done():
                fut.set_exception(e if isinstance(e, (StoreError, lease.RoomElsewhere))
                                  else self._error(e))
            return
        if not fut.done():
            fut.set_result(rec)

    async def room(self, code: str) -> RoomRecord | None:
        try:
            row = await self.pool.fetchrow(READ_ROOM, code)
        except Exception as e:
            raise self._error(e) from None
        if row is None:
            return None
        rec = RoomRecord(code, row[0], json.loads(row[1]), row[2], json.loads(row[3]),
                         row[4], row[5])
        rec.seats = list(zip(row[6], row[7], row[8], strict=True))
        rec.actions = json.loads(f"[{row[9] or ''}]")
        rec.chat = json.loads(row[10]) if row[10] else []
        return rec

    async def code_used(self, code: str) -> bool:
        try:
            return await self.pool.fetchval("SELECT 1 FROM rooms WHERE code = $1",
                                            code) is not None
        except Exception as e:
            raise self._error(e) from None

    async def unfinished(self) -> list[str]:
        try:
            return [r[0] for r in await self.pool.fetch(
                "SELECT code FROM rooms WHERE NOT finished")]
        except Exception as e:
            raise self._error(e) from None
