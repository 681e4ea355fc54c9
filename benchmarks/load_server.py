"""Load test of the web server (not a test): many tables at once against ``shengji
serve`` on loopback, as it is served — the store on, abuse limits on, server bots at
their usual pace — with one person per table played by a client.

    python benchmarks/load_server.py --tables 100,300,500 --duration 30
    python benchmarks/load_server.py --tables 300 --setups sqlite,postgres,nginx1,nginx2

``--setups`` (default ``sqlite``), run one after the other for each table count, in one
run so that they are compared side by side:

- ``sqlite``: one process, its SQLite file (a fresh one in a temporary directory);
- ``postgres``: one process on a PostgreSQL database;
- ``nginx1``, ``nginx2``: one or two ``--shard I/N`` processes on PostgreSQL behind
  Debian's nginx (the configuration of ``shengji.frontends.web.proxyconf``), the clients
  speaking to nginx.

PostgreSQL is a throwaway cluster with fsync on (tests/servers.py: initdb and pg_ctl, as
the user ``shengjitest`` when run as root), one fresh database per setup.

For each table count and setup: start the servers, then open the tables over
``--ramp`` seconds. Each table is one client on
its own websocket: it creates a room over HTTP, takes seat 0, starts (the server's bots
take the other seats), and plays — after ``--think`` seconds it sends the first legal
action (or the first cards of its hand to bury), and after each deal it sends ``next``.
Clients come from 127.0.0.2, 127.0.0.3, ... (``--per-address`` tables each), so the
per-address limits apply as they would to real players.

**Action latency** is the time from sending an action to receiving the ``state`` that
shows it: the server checks it, applies it, stores it, and broadcasts. Measured after
``--warmup`` seconds, for ``--duration`` seconds; printed as p50/p90/p99/max with the
number of actions, the server's CPU use over the window (from /proc), the load
generator's own event-loop lag (p99: when it is large, the client is the bottleneck),
errors (every ``error`` message, failed connection or stalled table) and the load average
of the machine at the start and end (other work on the machine skews the figures: take
them when it is quiet). **CPU per action** is the CPU time over the window divided by
the actions measured: of the shengji processes (all shards), of PostgreSQL (the
postmaster and its backends) and of nginx (master and workers). ``--json`` prints one
JSON object per table count and setup.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HOST = "127.0.0.1"  # loopback only, never another address
SETUPS = ("sqlite", "postgres", "nginx1", "nginx2")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its live children (a postmaster's backends, nginx's
    workers)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def loadavg() -> float:
    return os.getloadavg()[0]


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.measuring = False
        self.actions = 0
        self.deals = 0
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text)


def choose(msg: dict) -> dict:
    """A cheap, always legal decision: what a quick person might do."""
    legal = msg["legal"]
    if legal["kind"] == "bury":
        return {"type": "Bury", "cards": " ".join(msg["view"]["hand"].split()[:legal["count"]])}
    return legal["actions"][0]


async def table(args, index: int, base: str, stats: Stats, stop: asyncio.Event) -> None:
    import httpx
    import websockets

    address = f"127.0.0.{2 + index // args.per_address}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=30) as http:
        while not stop.is_set():
            r = await http.post(f"{base}/api/rooms", json={"variant": args.variant,
                                                           "max_deals": args.deals})
            if r.status_code != 200:
                stats.error(f"table {index}: create room: HTTP {r.status_code} {r.text[:120]}")
                await asyncio.sleep(5)
                continue
            room = r.json()["room"]
            url = base.replace("http://", "ws://") + f"/ws/{room}"  # a proxy routes on it
            async with websockets.connect(url, local_addr=(address, 0), max_size=1 << 22,
                                          compression=None, open_timeout=60) as ws:
                await play(args, ws, room, stats, stop)


async def play(args, ws, room: str, stats: Stats, stop: asyncio.Event) -> None:
    from shengji.protocol import PROTOCOL_VERSION

    await ws.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "room": room,
                              "name": "load"}))
    token = None
    sent_at = None       # when our last action left, until its state comes back
    acted_index = -1
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), args.stall)
        except asyncio.TimeoutError:
            stats.error(f"room {room}: no message for {args.stall} s")
            return
        msg = json.loads(raw)
        kind = msg["type"]
        if kind == "welcome":
            token = msg["token"]
            await ws.send(json.dumps({"type": "start", "token": token}))
        elif kind == "error":
            stats.error(f"room {room}: {msg['code']}: {msg['message'][:100]}")
        elif kind == "state":
            if sent_at is not None and msg["event_index"] > acted_index:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if any(e["type"] == "DealScored" for e in msg["events"]):
                stats.deals += 1
                if not msg["over"]:
                    await ws.send(json.dumps({"type": "next", "token": token}))
            if msg["over"]:
                return  # a new room for this table
            if msg["legal"] is not None and sent_at is None and msg["event_index"] > acted_index:
                await asyncio.sleep(args.think)
                acted_index = msg["event_index"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "token": token,
                                          "action": choose(msg)}))
                stats.actions += 1


async def load(args, tables: int, base: str, pids: dict) -> dict:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    began = time.monotonic()

    async def guarded(i):
        try:
            await table(args, i, base, stats, stop)
        except Exception as e:  # count it, keep the other tables going
            stats.error(f"table {i} at {time.monotonic() - began:.1f} s: {type(e).__name__}: {e}")

    lags: list[float] = []

    async def probe():
        """This client's own event-loop lag: when it is large the figures measure the
        load generator, not the server."""
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            if stats.measuring:
                lags.append(time.perf_counter() - t - 0.01)

    tasks.append(asyncio.create_task(probe()))
    for i in range(tables):  # open the tables over the ramp (on the clock: a busy
        tasks.append(asyncio.create_task(guarded(i)))  # client must not stretch it)
        await asyncio.sleep(max(0.0, began + (i + 1) * args.ramp / tables - time.monotonic()))
    await asyncio.sleep(max(0.0, began + args.ramp + args.warmup - time.monotonic()))
    stats.measuring = True

    def cpu():
        return {"server": sum(cpu_seconds(p) for p in pids["server"]),
                **{k: tree_cpu_seconds(p) for k, p in pids.items() if k != "server"}}
    cpu0, t0, actions0, deals0 = cpu(), time.monotonic(), stats.actions, stats.deals
    await asyncio.sleep(args.duration)
    stats.measuring = False
    cpu1, t1 = cpu(), time.monotonic()
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies)

    def pct(p):
        return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

    return {"tables": tables, "actions": len(lat),
            "actions_per_s": (stats.actions - actions0) / (t1 - t0),
            "deals_per_s": (stats.deals - deals0) / (t1 - t0),
            "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99),
            "max_ms": 1000 * lat[-1] if lat else float("nan"),
            "mean_ms": 1000 * statistics.fmean(lat) if lat else float("nan"),
            "server_cpu": (cpu1["server"] - cpu0["server"]) / (t1 - t0),
            "cpu_ms_per_action": {k: 1000 * (cpu1[k] - cpu0[k]) / max(1, len(lat))
                                  for k in cpu1},
            "errors": len(stats.errors),
            "client_lag_p99_ms": 1000 * sorted(lags)[int(0.99 * len(lags))] if lags else 0.0,
            "error_samples": stats.errors[:5]}


def start_server(args, port: int, db: str, *extra: str, env: dict | None = None,
                 cwd: str | None = None) -> subprocess.Popen:
    """``shengji serve`` on ``port`` once it answers (``extra``: more options; ``env``: the
    environment, e.g. the PYTHONPATH of another tree; then ``cwd`` elsewhere than a
    checkout, which ``python -m`` would put first)."""
    import httpx

    cmd = [sys.executable, "-m", "shengji.cli", "serve", "--port", str(port), "--db", db,
           "--bot-delay", str(args.bot_delay), "--variant", args.variant, *extra]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env or os.environ.copy(),
                              cwd=cwd)
    for _ in range(1200):  # wait for the server to listen
        try:
            httpx.get(f"http://{HOST}:{port}/api/variants", timeout=1)
            return server
        except httpx.TransportError:
            if server.poll() is not None:
                raise SystemExit("the server exited at start-up") from None
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def servers_module():
    """tests/servers.py: the throwaway PostgreSQL cluster and nginx of the tests."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import servers
    return servers


def start_setup(args, setup: str, tmp: str, cluster):
    """The servers of one setup: (base URL, {what: pids}, stop())."""
    servers = servers_module()
    procs, pids = [], {}
    if setup == "sqlite":
        port = free_port()
        procs.append(start_server(args, port, os.path.join(tmp, "rooms.sqlite3")))
        base = f"http://{HOST}:{port}"
    else:
        db = cluster.database()
        pids["postgres"] = cluster.postmaster_pid()
        if setup == "postgres":
            port = free_port()
            procs.append(start_server(args, port, db))
            base = f"http://{HOST}:{port}"
        else:
            from shengji.frontends.web.proxyconf import nginx_config

            n = int(setup.removeprefix("nginx"))
            ports = [free_port() for _ in range(n + 1)]
            procs += [start_server(args, ports[i], db, "--shard", f"{i}/{n}",
                                   "--proxy-headers") for i in range(n)]
            proxy = servers.Nginx(nginx_config([f"{HOST}:{p}" for p in ports[:n]],
                                               listen=f"{HOST}:{ports[n]}"))
            proxy.wait(ports[n])
            pids["nginx"] = proxy.proc.pid
            base = f"http://{HOST}:{ports[n]}"
    pids["server"] = [p.pid for p in procs]

    def stop():
        if "nginx" in pids:
            proxy.stop()
        for p in procs:
            servers.stop(p)
    return base, pids, stop


def run_one(args, tables: int, setup: str, cluster) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        base, pids, stop = start_setup(args, setup, tmp, cluster)
        try:
            before = loadavg()
            try:
                import uvloop
                runner = uvloop.run
            except ImportError:
                runner = asyncio.run
            result = runner(load(args, tables, base, pids))
            result["setup"] = setup
            result["load_before"], result["load_after"] = before, loadavg()
        finally:
            stop()
    return result


def stop_server(server: subprocess.Popen) -> None:
    """A server of start_server stopped (SIGTERM, then SIGKILL if it lingers)."""
    servers_module().stop(server)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", default="100", help="table counts, comma separated (100)")
    p.add_argument("--duration", type=float, default=30, help="seconds measured (30)")
    p.add_argument("--warmup", type=float, default=10, help="seconds before measuring (10)")
    p.add_argument("--ramp", type=float, default=10, help="seconds to open the tables (10)")
    p.add_argument("--think", type=float, default=1.0,
                   help="seconds the person takes to act (1.0)")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="the server's pause between bot plays (0.6, as served)")
    p.add_argument("--variant", default="two-deck-80")
    p.add_argument("--deals", type=int, default=1000, help="max_deals of each room")
    p.add_argument("--per-address", type=int, default=8, help="tables per client address (8)")
    p.add_argument("--stall", type=float, default=60,
                   help="seconds without a message that count a table as stalled (60)")
    p.add_argument("--setups", default="sqlite",
                   help=f"comma separated, run side by side: {', '.join(SETUPS)} (sqlite)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per table count and setup")
    args = p.parse_args(argv)
    counts = [int(t) for t in args.tables.split(",")]
    if not all(1 <= t <= 2000 for t in counts) or args.duration <= 0:
        p.error("--tables 1..2000 each, --duration > 0")
    if max(counts) // args.per_address + 2 > 254:
        p.error("too many client addresses: raise --per-address")
    setups = args.setups.split(",")
    if not set(setups) <= set(SETUPS):
        p.error(f"--setups: of {', '.join(SETUPS)}")
    cluster = None
    if setups != ["sqlite"]:
        servers = servers_module()
        missing = servers.missing_postgres() or (
            any(s.startswith("nginx") for s in setups) and servers.missing_nginx())
        if missing:
            raise SystemExit(missing)
        cluster = servers.PgCluster(durable=True)
    failed = False
    try:
        for tables in counts:
            for setup in setups:
                failed |= report(args, run_one(args, tables, setup, cluster))
    finally:
        if cluster is not None:
            cluster.stop()
    return 1 if failed else 0


def report(args, r: dict) -> bool:
    """Print one result; True when it had errors."""
    if args.json:
        print(json.dumps(r))
    else:
        cpu = ", ".join(f"{k} {v:.2f}" for k, v in r["cpu_ms_per_action"].items())
        print(f"{r['setup']:8s} {r['tables']:4d} tables: p50 {r['p50_ms']:6.1f} ms  "
              f"p90 {r['p90_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms  "
              f"({r['actions']} actions, {r['actions_per_s']:.0f}/s, "
              f"{r['deals_per_s']:.2f} deals/s)  server CPU {100 * r['server_cpu']:.0f}%  "
              f"CPU ms per action: {cpu}  "
              f"client lag p99 {r['client_lag_p99_ms']:.1f} ms  errors {r['errors']}  "
              f"load avg {r['load_before']:.2f} → {r['load_after']:.2f}")
        for e in r["error_samples"]:
            print("    " + e)
    sys.stdout.flush()
    return r["errors"] > 0


if __name__ == "__main__":
    sys.exit(main())
