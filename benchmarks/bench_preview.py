"""Load test of "Try these rules" (not a test): ``--clients`` previews asked at once,
each from its own loopback address (127.0.0.2, ...), against one ``shengji serve``
process, while a bystander plays a table on a websocket (from 127.0.0.200).

    python benchmarks/bench_preview.py --clients 20 --rounds 2

Printed: how many previews ran, were queued or refused (``busy``: the queue is full),
each finished preview's own play time against the server's time cap (it must hold),
the wall time of the answers, and the bystander's action latency (action sent → the
``state`` showing it) during the previews and before them, as p50/p95/max.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_server import HOST, Stats, free_port, play, start_server  # noqa: E402

HOUSE = "extends: two-deck-80\npenalties: {failed_throw: 10}\nplay: {failed_throw: first_blocker}\n"


async def preview(base: str, index: int, seed: int) -> dict:
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{2 + index}")
    async with httpx.AsyncClient(transport=transport, timeout=120) as http:
        t = time.perf_counter()
        r = await http.post(f"{base}/api/rules/preview",
                            json={"rules": HOUSE, "seed": seed, "deals": 40})
        return {"status": r.status_code, "wall": time.perf_counter() - t, "body": r.json()}


async def bystander(base: str, stats: Stats, stop: asyncio.Event, args) -> None:
    import httpx
    import websockets

    address = "127.0.0.200"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=30) as http:
        while not stop.is_set():
            room = (await http.post(f"{base}/api/rooms", json={"max_deals": 50})).json()["room"]
            async with websockets.connect(base.replace("http://", "ws://") + "/ws",
                                          local_addr=(address, 0), max_size=1 << 22) as ws:
                await play(args, ws, room, stats, stop)


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000


async def main_async(args, base: str) -> dict:
    stats = Stats()
    stats.measuring = True
    stop = asyncio.Event()
    task = asyncio.ensure_future(bystander(base, stats, stop, args))
    await asyncio.sleep(args.quiet)
    quiet = list(stats.latencies)
    stats.latencies.clear()
    answers = []
    for r in range(args.rounds):
        answers += await asyncio.gather(*[preview(base, i, 100 * r + i)
                                          for i in range(args.clients)])
    busy = list(stats.latencies)
    stop.set()
    task.cancel()
    ok = [a for a in answers if a["status"] == 200]
    return {
        "previews": len(answers), "ran": len(ok),
        "refused": {str(s): sum(a["status"] == s for a in answers)
                    for s in sorted({a["status"] for a in answers}) if s != 200},
        "time_cap_s": ok[0]["body"]["time_cap"] if ok else None,
        "play_s_max": max((a["body"]["seconds"] for a in ok), default=None),
        "capped": sum(a["body"]["capped"] for a in ok),
        "wall_s_median": statistics.median(a["wall"] for a in answers),
        "wall_s_max": max(a["wall"] for a in answers),
        "bystander_quiet_ms": [round(pct(quiet, p), 1) for p in (50, 95, 100)],
        "bystander_busy_ms": [round(pct(busy, p), 1) for p in (50, 95, 100)],
        "bystander_actions": [len(quiet), len(busy)],
        "errors": stats.errors[:5],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--quiet", type=float, default=5.0, help="seconds measured before")
    ap.add_argument("--think", type=float, default=0.05)
    ap.add_argument("--stall", type=float, default=60)
    ap.add_argument("--bot-delay", type=float, default=0.0)
    ap.add_argument("--variant", default="two-deck-80")
    args = ap.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(args, port, os.path.join(tmp, "rooms.sqlite3"))
        try:
            got = asyncio.run(main_async(args, f"http://{HOST}:{port}"))
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(json.dumps(got, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
