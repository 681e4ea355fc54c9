"""A reference client of the shengji protocol (docs/protocol.md), in about a page.

    python docs/client.py http://127.0.0.1:8000 [--variant finding-friends --players 6]

It creates a room, joins seat 0, starts (bots fill the other seats), plays one deal with
the first legal choice each time, prints the deal's result from its DealScored event,
and reads the room's public replay once the match is over. Standard library plus the
`websockets` package (the `web` extra). Run by tests/test_protocol_client.py.
"""

import argparse
import json
import urllib.request

from websockets.sync.client import connect

PROTOCOL = 2


def http(base: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def choose(legal: dict, view: dict) -> dict:
    """The first legal choice: what a bot would send, minus the thinking."""
    if legal["kind"] == "bury":      # any `count` cards of the hand (the kitty is in it)
        return {"type": "Bury", "cards": " ".join(view["hand"].split()[:legal["count"]])}
    if legal["kind"] == "call":      # `count` single calls, sent together
        calls = [a["calls"][0] for a in legal["actions"][:legal["count"]]]
        return {"type": "CallFriends", "calls": calls}
    return legal["actions"][0]       # Pass while dealing; a lead or a follow; ...


def play(base: str, variant: str, players: int | None) -> dict:
    body = {"variant": variant, "seed": 1, "max_deals": 1}
    if players:
        body["players"] = players
    code = http(base, "/api/rooms", body)["room"]
    # the code in the URL lets a proxy route the socket to the room's process
    with connect(base.replace("http", "ws", 1) + f"/ws/{code}",
                 origin=base) as ws:
        def send(msg: dict) -> None:
            ws.send(json.dumps(msg))

        send({"type": "join", "protocol": PROTOCOL, "room": code, "name": "ref"})
        token, acted, result = None, -1, None
        send_start = True
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "welcome":
                token = msg["token"]
            elif msg["type"] == "room" and send_start:
                send({"type": "start", "token": token})
                send_start = False
            elif msg["type"] == "error":
                raise SystemExit(f"refused: {msg['code']}: {msg['message']}")
            elif msg["type"] == "state":
                for event in msg.get("events", []):
                    if event["type"] == "DealScored":
                        result = event
                if msg["over"]:
                    break
                # act once per event_index: a repeated state (another connection joined
                # this seat) carries the same index and no events
                if msg["legal"] is not None and msg["event_index"] != acted:
                    acted = msg["event_index"]
                    send({"type": "action", "token": token,
                          "action": choose(msg["legal"], msg["view"])})
    replay = http(base, f"/api/rooms/{code}/replay")
    return {"room": code, "result": result, "deals": len(replay["deals"]),
            "actions": len(replay["record"]["actions"])}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", help="the server, e.g. http://127.0.0.1:8000")
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--players", type=int, default=None)
    args = ap.parse_args()
    out = play(args.base, args.variant, args.players)
    r = out["result"]
    print(f"room {out['room']}: attackers {r['attacker_points']} points, next side "
          f"{r['next_side']} (+{r['rise']}); replay: {out['deals']} deal(s), "
          f"{out['actions']} actions")
