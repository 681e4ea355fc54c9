"""Issue 34's attacks against ``shengji serve`` (not a test): how other tables fare while
one client attacks, measured side by side on two source trees (this one and an older
checkout) in one run.

    python benchmarks/attack_server.py --attack rules,slow --tree OLD=/tmp/old --tree NEW=.

For each attack and tree: start ``shengji serve`` from that tree (PYTHONPATH, a fresh
database), open ``--tables`` tables as benchmarks/load_server.py does (one person per
table played by a client, the server's bots at their usual pace), measure the action
latency of those tables for ``--duration`` seconds (the baseline), then start the attack
and measure again (after ``--settle`` seconds). Attacks:

- ``rules``: issue 34 item 2. From one address, six requests at a time to
  ``POST /api/rules/check`` with a 32 KB ``teams: [x, x, ...]`` file, each sent again as
  soon as its answer comes. Reported: the answers by status, and the CPU of the server
  process and of its children (the rules worker) during the attack.
- ``slow``: issue 34 item 1, repro A. A victim room with a player who reads and plays,
  and 40 websockets from one address watching it that send chat 18 times a second and
  never read. Reported: the victim player's longest wait for a state during the attack
  (a frozen room: the whole window), and how many silent sockets the server closed.

Action latency is as in load_server.py: from sending an action to the state that shows
it. Printed as p50/p99/max per phase, with the load average before and after: the
machine is shared, quote the load with the figures. ``--json`` prints one object per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_server import (  # noqa: E402
    HOST,
    Stats,
    cpu_seconds,
    free_port,
    loadavg,
    start_server,
    stop_server,
    table,
    tree_cpu_seconds,
)

TEAMS_ATTACK = "extends: two-deck-80\nteams: [" + ", ".join(["x"] * 10_900) + "]\n"
ATTACKER = "127.0.0.250"


def family_cpu(pid: int) -> tuple[float, float]:
    """(CPU seconds of ``pid``, of its living children: the rules and preview workers)."""
    own = cpu_seconds(pid)
    return own, tree_cpu_seconds(pid) - own


def percentiles(lat: list[float]) -> dict:
    lat = sorted(lat)

    def pct(p):
        return round(1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 1) if lat \
            else float("nan")

    return {"actions": len(lat), "p50_ms": pct(50), "p99_ms": pct(99),
            "max_ms": round(1000 * lat[-1], 1) if lat else float("nan")}


# ---------------------------------------------------------------- the attacks

async def rules_attack(base: str, stop: asyncio.Event, tally: dict) -> None:
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    async with httpx.AsyncClient(transport=transport, timeout=120) as http:
        async def one():
            while not stop.is_set():
                try:
                    r = await http.post(f"{base}/api/rules/check",
                                        json={"rules": TEAMS_ATTACK})
                    key = str(r.status_code)
                    tally["bytes"] = tally.get("bytes", 0) + len(r.content)
                except httpx.HTTPError as e:
                    key = type(e).__name__
                tally[key] = tally.get(key, 0) + 1

        await asyncio.gather(*(one() for _ in range(6)))


class Silent:
    """A websocket that, after the handshake, never reads (asyncio, raw socket)."""

    def __init__(self, port: int):
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        self.proto = ClientProtocol(parse_uri(f"ws://{HOST}:{port}/ws"))
        self.port = port
        self.writer = None

    async def open(self, room: str) -> None:
        from websockets.protocol import State

        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((ATTACKER, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (HOST, self.port))
        reader, self.writer = await asyncio.open_connection(sock=sock)
        self.proto.send_request(self.proto.connect())
        self.writer.write(b"".join(self.proto.data_to_send()))
        while self.proto.state is State.CONNECTING:
            data = await reader.read(256)
            if not data:
                raise ConnectionError("closed during the handshake")
            self.proto.receive_data(data)
        self.reader = reader
        self.send({"type": "watch", "protocol": 2, "room": room})

    def send(self, msg: dict) -> bool:
        if self.writer.is_closing() or self.writer.transport.get_write_buffer_size() > 1 << 16:
            return False
        self.proto.send_text(json.dumps(msg).encode())
        self.writer.write(b"".join(self.proto.data_to_send()))
        return True

    def closed_by_server(self) -> bool:
        return self.reader.at_eof() or self.writer.transport.is_closing() or \
            self.reader.exception() is not None


async def victim(base: str, port: int, stop: asyncio.Event, out: dict) -> None:
    """The attacked room: a player who plays as fast as states come; notes the arrival
    of each state."""
    import httpx

    async with httpx.AsyncClient(timeout=30) as http:
        room = (await http.post(f"{base}/api/rooms", json={"max_deals": 1000})).json()["room"]
    out["room"] = room
    times = out.setdefault("times", [])
    try:
        await _play_victim(port, room, stop, times)
    except Exception as e:  # noqa: BLE001  # cut off or closed: said in the figures
        out["closed"] = f"{type(e).__name__}: {e}"[:120]


async def _play_victim(port: int, room: str, stop: asyncio.Event, times: list) -> None:
    import websockets

    async with websockets.connect(f"ws://{HOST}:{port}/ws", max_size=1 << 22,
                                  compression=None) as ws:
        await ws.send(json.dumps({"type": "join", "protocol": 2, "room": room}))
        token = json.loads(await ws.recv())["token"]
        await ws.send(json.dumps({"type": "start", "token": token}))
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except asyncio.TimeoutError:
                continue
            if msg["type"] != "state":
                continue
            times.append(time.monotonic())
            if 0 in msg.get("waiting", ()):
                await ws.send(json.dumps({"type": "next", "token": token}))
            elif msg["legal"]:
                legal = msg["legal"]
                action = legal["actions"][0] if legal["kind"] != "bury" else {
                    "type": "Bury",
                    "cards": " ".join(msg["view"]["hand"].split()[:legal["count"]])}
                await ws.send(json.dumps({"type": "action", "token": token,
                                          "action": action}))


async def slow_attack(base: str, room: str, stop: asyncio.Event, tally: dict) -> None:
    port = int(base.rsplit(":", 1)[1])
    silent = [Silent(port) for _ in range(40)]
    for s in silent:
        await s.open(room)
    while not stop.is_set():
        for s in silent:
            s.send({"type": "chat", "text": "la " * 66})
        await asyncio.sleep(1 / 18)
    await asyncio.sleep(1)
    tally["silent_closed"] = sum(s.closed_by_server() for s in silent)


def attacker_main(kind: str, base: str, room: str, seconds: float) -> None:
    """The attacker, in a process of its own (so that its work is not the measuring
    client's event-loop lag): attack for ``seconds``, then print its tally as JSON."""
    async def go():
        stop, tally = asyncio.Event(), {}
        job = rules_attack(base, stop, tally) if kind == "rules" else \
            slow_attack(base, room, stop, tally)
        task = asyncio.create_task(job)
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait_for(task, 60)
        return tally

    tally = asyncio.run(go())
    tally["attacker_cpu_s"] = round(time.process_time(), 1)  # (it shares the machine)
    print(json.dumps(tally))


def start_attacker(kind: str, base: str, room: str, seconds: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--attacker", kind, "--base", base,
                             "--room", room or "", "--seconds", str(seconds)],
                            stdout=subprocess.PIPE, text=True)


# ---------------------------------------------------------------- one run

async def measure(args, attack: str, port: int, server_pid: int) -> dict:
    base = f"http://{HOST}:{port}"
    stats, stop = Stats(), asyncio.Event()
    tasks = [asyncio.create_task(table(args, i, base, stats, stop))
             for i in range(args.tables)]
    victim_out: dict = {}
    stop_victim = asyncio.Event()
    if attack == "slow":
        tasks.append(asyncio.create_task(victim(base, port, stop_victim, victim_out)))
    await warm_up(base)
    await asyncio.sleep(args.warmup)
    out: dict = {}
    for phase in ("baseline", "attack"):
        attacker = None
        if phase == "attack":
            attacker = start_attacker(attack, base, victim_out.get("room", ""),
                                      args.settle + args.duration)
            await asyncio.sleep(args.settle)
        stats.latencies.clear()
        stats.measuring = True
        cpu0, t0 = family_cpu(server_pid), time.monotonic()
        await asyncio.sleep(args.duration)
        cpu1, t1 = family_cpu(server_pid), time.monotonic()
        stats.measuring = False
        out[phase] = percentiles(stats.latencies)
        out[phase]["server_cpu"] = round((cpu1[0] - cpu0[0]) / (t1 - t0), 2)
        out[phase]["worker_cpu"] = round(max(0.0, cpu1[1] - cpu0[1]) / (t1 - t0), 2)
        if attack == "slow":
            times = [t for t in victim_out.get("times", []) if t0 <= t <= t1]
            times = [t0, *times, t1]
            out[phase]["victim_longest_wait_s"] = round(
                max(b - a for a, b in zip(times, times[1:], strict=False)), 2)
            if "closed" in victim_out:
                out[phase]["victim_closed"] = victim_out.pop("closed")
        if attacker is not None:
            got, _ = await asyncio.to_thread(attacker.communicate, timeout=120)
            out[phase]["attack"] = json.loads(got.strip().splitlines()[-1])
    stop.set()
    stop_victim.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out["errors"] = len(stats.errors)
    return out


async def warm_up(base: str) -> None:
    """One small check first, so that a rules worker's start is not in the figures."""
    import httpx

    async with httpx.AsyncClient(timeout=120) as http:
        await http.post(f"{base}/api/rules/check", json={"rules": "extends: two-deck-80\n"})


def run(args, attack: str, label: str, tree: str) -> dict:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(args, port, os.path.join(tmp, "rooms.sqlite3"), env=env,
                              cwd=tmp)
        try:
            got = subprocess.run([sys.executable, "-c", "import shengji; print(shengji.__file__)"],
                                 env=env, cwd=tmp, capture_output=True, text=True).stdout
            assert got.startswith(str(Path(tree).resolve())), f"{label} serves {got}"
            before = loadavg()
            result = asyncio.run(measure(args, attack, port, server.pid))
            result.update(kind=attack, tree=label, load_before=round(before, 2),
                          load_after=round(loadavg(), 2))
        finally:
            stop_server(server)
    return result


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--attack", default="rules,slow", help="rules, slow or both (rules,slow)")
    p.add_argument("--tree", action="append", default=[], metavar="LABEL=PATH",
                   help="a source tree to serve from (its shengji/ built); give two")
    p.add_argument("--tables", type=int, default=40, help="bystander tables (40)")
    p.add_argument("--duration", type=float, default=30, help="seconds per phase (30)")
    p.add_argument("--warmup", type=float, default=10, help="seconds before measuring (10)")
    p.add_argument("--settle", type=float, default=3, help="seconds of attack before its "
                                                           "phase is measured (3)")
    p.add_argument("--think", type=float, default=1.0, help="seconds a person takes (1.0)")
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--json", action="store_true")
    p.add_argument("--attacker", help=argparse.SUPPRESS)  # (the attacker's own process)
    p.add_argument("--base", help=argparse.SUPPRESS)
    p.add_argument("--room", help=argparse.SUPPRESS)
    p.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.attacker:
        attacker_main(args.attacker, args.base, args.room, args.seconds)
        return 0
    # what load_server.table reads
    args.ramp, args.variant, args.deals, args.per_address, args.stall = \
        args.warmup, "two-deck-80", 1000, 8, 60
    trees = [t.split("=", 1) for t in args.tree] or [["this", "."]]
    for attack in args.attack.split(","):
        for label, tree in trees:
            r = run(args, attack, label, tree)
            if args.json:
                print(json.dumps(r))
                continue
            for phase in ("baseline", "attack"):
                f = r[phase]
                extra = f"  victim waits up to {f['victim_longest_wait_s']} s" \
                    if "victim_longest_wait_s" in f else ""
                extra += f" (victim's socket: {f['victim_closed']})" \
                    if "victim_closed" in f else ""
                print(f"{attack:5s} {label:4s} {phase:8s}: p50 {f['p50_ms']:6.1f} ms  "
                      f"p99 {f['p99_ms']:7.1f} ms  max {f['max_ms']:7.1f} ms  "
                      f"({f['actions']} actions)  server CPU {100 * f['server_cpu']:.0f}%  "
                      f"workers {100 * f['worker_cpu']:.0f}%{extra}")
                if "attack" in f:
                    print(f"      attack: {f['attack']}")
            print(f"      errors {r['errors']}  load avg {r['load_before']} → "
                  f"{r['load_after']}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
