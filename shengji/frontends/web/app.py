"""The ASGI app (Starlette): the page, a little JSON API to create rooms, and the
websocket that speaks the protocol (docs/protocol.md).

    GET  /                 the page (static files, no build step)
    GET  /api/variants     names a room may use
    POST /api/rooms        {"variant": NAME, "seed": S} → {"room": CODE}
    WS   /ws               protocol messages, one JSON object per text frame
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import ShengjiError
from ...protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError, error_message
from ...variants import list_variants, load_variant
from .rooms import DEFAULT_BOT_DELAY, Conn, Lobby

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
MAX_SEED = 64
#: a match is long; a room plays at most this many deals unless the server says otherwise
MAX_DEALS_LIMIT = 1000


def create_app(*, variants: list[str] | None = None, default_variant: str = "two-deck-80",
               bot_delay: float = DEFAULT_BOT_DELAY, bot: str = "heuristic",
               max_rooms: int | None = None) -> Starlette:
    """``variants``: the names or paths rooms may use (default: the built-in names; a
    client never names a file). The first load of each happens here, so a broken variant
    fails at start-up, not in a room."""
    allowed = list(dict.fromkeys(variants or list_variants()))
    if default_variant not in allowed:
        allowed.insert(0, default_variant)
    loaded = {name: load_variant(name) for name in allowed}
    lobby = Lobby(bot_delay=bot_delay, bot=bot, **({"max_rooms": max_rooms} if max_rooms else {}))

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def get_variants(request):
        return JSONResponse({"variants": allowed, "default": default_variant,
                             "protocol": PROTOCOL_VERSION})

    async def create_room(request):
        try:
            body = await request.body()
            if len(body) > MAX_BODY:
                raise ProtocolError("too_large", f"request body over {MAX_BODY} bytes")
            data = json.loads(body or b"{}")
            if not isinstance(data, dict):
                raise ProtocolError("bad_message", "the body is a JSON object")
            room = lobby.create(*_room_settings(data, loaded, default_variant))
        except ValueError as e:
            return JSONResponse(error_message(ProtocolError("bad_json", f"bad JSON ({e})")), 400)
        except ShengjiError as e:
            status = 503 if getattr(e, "code", "") == "server_full" else 400
            return JSONResponse(error_message(e), status)
        return JSONResponse({"room": room.code, "variant": room.table.game.variant_ref})

    async def websocket(ws: WebSocket):
        await ws.accept()
        conn = Conn(ws.send_json)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    text = frame.get("bytes") or b""
                await lobby.receive(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            room = conn.room
            lobby.leave(conn)
            if room is not None:
                await room.broadcast()  # the others see the seat disconnected

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/variants", get_variants),
        Route("/api/rooms", create_room, methods=["POST"]),
        WebSocketRoute("/ws", websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.lobby = lobby
    return app


def _room_settings(data: dict, loaded: dict, default_variant: str) -> tuple:
    unknown = set(data) - {"variant", "seed", "max_deals"}
    if unknown:
        raise ProtocolError("bad_message", f"unknown key(s) {', '.join(sorted(unknown))} "
                                           "(allowed: variant, seed, max_deals)")
    name = data.get("variant", default_variant)
    if name not in loaded:
        raise ProtocolError("bad_variant", f"variant {name!r} is not offered here (choose one "
                                           f"of {', '.join(loaded)})")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > MAX_SEED:
        raise ProtocolError("bad_message", f"seed: an integer or a string of at most "
                                           f"{MAX_SEED} characters")
    max_deals = data.get("max_deals")
    if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int)
                                  or not 1 <= max_deals <= MAX_DEALS_LIMIT):
        raise ProtocolError("bad_message", f"max_deals: an integer 1..{MAX_DEALS_LIMIT}")
    return loaded[name], seed, max_deals


__all__ = ["create_app", "MAX_MESSAGE_BYTES"]
