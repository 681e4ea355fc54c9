"""Load test of the web server (not a test): many bot-only tables at once against one
server process on loopback, every seat a protocol client over its own websocket.

    python benchmarks/load_server.py --tables 50 --duration 60

Starts ``uvicorn`` on 127.0.0.1 (a free port) in a child process, keeps ``--tables``
tables playing at once (each: create a room over HTTP, four websocket clients join its
seats, each seat's bot plays through the protocol until the deal is scored), and stops by
itself after ``--duration`` seconds or ``--deals`` completed deals, whichever comes first.
Prints completed deals per second, messages per second and the errors (error messages
received, exceptions, deals that timed out). Exit status 1 when there were errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"  # loopback only, never another address
SERVER = """
import uvicorn
from shengji.frontends.web.app import create_app
from shengji.frontends.web.limits import Limits
# every client of this script shares one address: lift the per-address caps only
limits = Limits(max_rooms=100000, max_connections=100000, conns_per_address=100000,
                rooms_per_address=100000, room_burst=100000)
uvicorn.run(create_app(bot_delay=0, limits=limits), host={host!r}, port={port},
            log_level="warning", ws_max_size=1 << 20)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Stats:
    def __init__(self):
        self.deals = 0
        self.actions = 0
        self.messages = 0
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        self.errors.append(text)


async def seat_client(url: str, room: str, seat: int, variant, bot: str, stats: Stats,
                      ready: asyncio.Event | None) -> None:
    import websockets

    from shengji.bots import make_bot
    from shengji.protocol import ProtocolBot

    player = ProtocolBot(make_bot(bot, variant, seed=f"{room}:{seat}"), seat)
    async with websockets.connect(url, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"type": "join", "protocol": 1, "room": room, "seat": seat}))
        token = None
        acted_at = -1
        async for raw in ws:
            stats.messages += 1
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "welcome":
                token = msg["token"]
                if ready is not None:
                    ready.set()
            elif kind == "error":
                stats.error(f"room {room} seat {seat}: {msg['code']}: {msg['message']}")
            elif kind == "state":
                if msg["over"]:
                    return
                # act once per decision: a state newer than our last action
                if msg["legal"] is not None and msg["event_index"] > acted_at:
                    acted_at = msg["event_index"]
                    action = player.act(msg)
                    await ws.send(json.dumps({"type": "action", "token": token,
                                              "action": action}))
                    stats.actions += 1


async def table(http, base: str, ws_url: str, variant_name: str, variant, bot: str,
                stats: Stats, seed: int, timeout: float) -> None:
    r = await http.post(f"{base}/api/rooms", json={"variant": variant_name, "seed": seed,
                                                   "max_deals": 1})
    if r.status_code != 200:
        stats.error(f"create room: HTTP {r.status_code} {r.text[:200]}")
        return
    room = r.json()["room"]
    # join in seat order so that the last join starts the game
    tasks = []
    for seat in range(variant.players):
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(
            seat_client(ws_url, room, seat, variant, bot, stats, ready)))
        await asyncio.wait_for(ready.wait(), timeout)
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout)
        stats.deals += 1
    except asyncio.TimeoutError:
        stats.error(f"room {room}: deal not finished within {timeout} s")
    finally:
        for t in tasks:
            t.cancel()


async def run_load(args, base: str) -> tuple[Stats, float]:
    import httpx

    from shengji.variants import load_variant

    variant = load_variant(args.variant)
    stats = Stats()
    ws_url = base.replace("http://", "ws://") + "/ws"
    deadline = time.monotonic() + args.duration
    seeds = iter(range(10**9))
    started = time.monotonic()

    async def worker(http):
        while time.monotonic() < deadline and stats.deals + len(stats.errors) < args.deals:
            try:
                await table(http, base, ws_url, args.variant, variant, args.bot, stats,
                            next(seeds), args.deal_timeout)
            except Exception as e:  # count it, keep the other tables going
                stats.error(f"{type(e).__name__}: {e}")

    limits = httpx.Limits(max_connections=args.tables * 2)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        workers = [asyncio.create_task(worker(http)) for _ in range(args.tables)]
        # the duration bounds the run: tables still playing then are not counted
        done, pending = await asyncio.wait(workers, timeout=args.duration + args.deal_timeout)
        for w in pending:
            w.cancel()
    return stats, time.monotonic() - started


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=50, help="tables playing at once (50)")
    p.add_argument("--duration", type=float, default=60, help="seconds to run at most (60)")
    p.add_argument("--deals", type=int, default=2000, help="stop after this many deals")
    p.add_argument("--variant", default="two-deck-80")
    p.add_argument("--bot", default="heuristic", help="bot of every seat (heuristic, random)")
    p.add_argument("--deal-timeout", type=float, default=120, help="seconds one deal may take")
    args = p.parse_args(argv)
    if not (1 <= args.tables <= 500 and 0 < args.duration <= 3600):
        p.error("--tables 1..500, --duration up to 3600 s")

    port = free_port()
    base = f"http://{HOST}:{port}"
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(host=HOST, port=port)],
                              env=os.environ.copy())
    try:
        import httpx

        for _ in range(200):  # wait for the server to listen
            try:
                httpx.get(f"{base}/api/variants", timeout=1)
                break
            except httpx.TransportError:
                if server.poll() is not None:
                    print("the server exited at start-up", file=sys.stderr)
                    return 1
                time.sleep(0.05)
        stats, elapsed = asyncio.run(run_load(args, base))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"tables at once: {args.tables}  variant: {args.variant}  bots: {args.bot}")
    rate = stats.deals / elapsed
    print(f"completed deals: {stats.deals} in {elapsed:.1f} s = {rate:.2f} deals/s")
    print(f"actions: {stats.actions} ({stats.actions / elapsed:.0f}/s), messages received: "
          f"{stats.messages} ({stats.messages / elapsed:.0f}/s)")
    print(f"errors: {len(stats.errors)}")
    for e in stats.errors[:10]:
        print("  " + e)
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
