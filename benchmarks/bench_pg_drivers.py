"""The two asynchronous PostgreSQL drivers side by side (not a test): the client CPU and
the wall time of the statements the room store runs most — appending an action (the
lease check and the insert in one statement, as pgstore.ADD_ACTIONS) and reading a room
back (pgstore.READ_ROOM) — through asyncpg (what shengji uses) and psycopg 3 in async
mode, on a throwaway cluster (tests/servers.py), rounds alternating.

    python benchmarks/bench_pg_drivers.py --statements 2000 --rounds 5

What matters for the server is the client CPU: its event loop is one core for every
table of the process; the database's own work is the same for both drivers. Medians of
the rounds; psycopg is left out (with a line) where it is not installed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEATS = [("human", "ann", b"h" * 32)] + [("bot", f"bot {i}", None) for i in range(1, 4)]


async def with_asyncpg(url: str, n: int, code: str) -> tuple[float, float, float, float]:
    import asyncpg

    from shengji.frontends.web.pgstore import ADD_ACTIONS, READ_ROOM

    conn = await asyncpg.connect(url)
    action = json.dumps({"type": "Play", "seat": 0, "cards": "HA HA"})
    try:
        await conn.execute("DELETE FROM actions WHERE room = $1", code)
        c0, t0 = time.process_time(), time.perf_counter()
        for i in range(n):
            await conn.fetchrow(ADD_ACTIONS, code, "bench", i, [action], False)
        c1, t1 = time.process_time(), time.perf_counter()
        for _ in range(n // 10):
            await conn.fetchrow(READ_ROOM, code)
        c2, t2 = time.process_time(), time.perf_counter()
    finally:
        await conn.close()
    return (c1 - c0) / n, (t1 - t0) / n, (c2 - c1) / (n // 10), (t2 - t1) / (n // 10)


async def with_psycopg(url: str, n: int, code: str) -> tuple[float, float, float, float]:
    import psycopg

    from shengji.frontends.web.pgstore import READ_ROOM

    # ADD_ACTIONS uses $1 in several places: spelled out for positional %s
    add = """
WITH ok AS (SELECT 1 FROM owners WHERE room = %(room)s AND owner = %(owner)s FOR SHARE),
ins AS (INSERT INTO actions (room, seq, action)
        SELECT %(room)s, %(seq)s + t.i - 1, t.a FROM ok,
               unnest(%(texts)s::text[]) WITH ORDINALITY AS t(a, i) RETURNING 1),
fin AS (UPDATE rooms SET finished = true
        WHERE %(fin)s AND code = %(room)s AND EXISTS (SELECT 1 FROM ok))
SELECT (SELECT count(*) FROM ok), (SELECT count(*) FROM ins)"""
    read = READ_ROOM.replace("$1", "%(room)s")
    # prepared from the first use, as asyncpg's statements are
    conn = await psycopg.AsyncConnection.connect(url, autocommit=True, prepare_threshold=0)
    action = json.dumps({"type": "Play", "seat": 0, "cards": "HA HA"})
    try:
        await conn.execute("DELETE FROM actions WHERE room = %s", (code,))
        c0, t0 = time.process_time(), time.perf_counter()
        for i in range(n):
            cur = await conn.execute(add, {"room": code, "owner": "bench", "seq": i,
                                           "texts": [action], "fin": False})
            await cur.fetchone()
        c1, t1 = time.process_time(), time.perf_counter()
        for _ in range(n // 10):
            cur = await conn.execute(read, {"room": code})
            await cur.fetchone()
        c2, t2 = time.process_time(), time.perf_counter()
    finally:
        await conn.close()
    return (c1 - c0) / n, (t1 - t0) / n, (c2 - c1) / (n // 10), (t2 - t1) / (n // 10)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--statements", type=int, default=2000, help="appends per round (2000)")
    p.add_argument("--rounds", type=int, default=5, help="rounds of each driver (5)")
    args = p.parse_args(argv)
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import servers

    from shengji.frontends.web.pgstore import PgStore

    missing = servers.missing_postgres()
    if missing:
        raise SystemExit(missing)
    drivers = {"asyncpg": with_asyncpg}
    try:
        import psycopg  # noqa: F401
        drivers["psycopg"] = with_psycopg
    except ImportError:
        print("psycopg is not installed: asyncpg alone (pip install 'psycopg[binary]')")
    cluster = servers.PgCluster(durable=True)
    try:
        url = cluster.database()

        async def prepare():  # the schema, a room with its lease held by "bench"
            store = PgStore(url)
            await store.open()
            await store.aclose()
            import asyncpg
            c = await asyncpg.connect(url)
            await c.execute("INSERT INTO rooms (code, variant, seed, settings) VALUES "
                            "('BENCH234', 'two-deck-80', '1', '{}')")
            await c.execute("INSERT INTO owners (room, owner) VALUES ('BENCH234', 'bench')")
            await c.close()
        asyncio.run(prepare())
        results: dict[str, list] = {name: [] for name in drivers}
        for _ in range(args.rounds):
            for name, run in drivers.items():
                results[name].append(asyncio.run(run(url, args.statements, "BENCH234")))
    finally:
        cluster.stop()
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.rounds} rounds, "
          f"{args.statements} appends and {args.statements // 10} room reads each")
    med = {name: [statistics.median(r[i] for r in rs) for i in range(4)]
           for name, rs in results.items()}
    for name, (cpu_add, wall_add, cpu_read, wall_read) in med.items():
        print(f"{name:8s} append: client CPU {1e6 * cpu_add:6.1f} µs, "
              f"wall {1e6 * wall_add:7.1f} µs   read a room: client CPU "
              f"{1e6 * cpu_read:6.1f} µs, wall {1e6 * wall_read:7.1f} µs")
    if "psycopg" in med:
        a, b = med["asyncpg"], med["psycopg"]
        print(f"psycopg / asyncpg client CPU: append {b[0] / a[0]:.2f}x, read {b[2] / a[2]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
