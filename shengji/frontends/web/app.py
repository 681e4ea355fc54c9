"""The ASGI app (Starlette): the page, a little JSON API to create rooms, and the
websocket that speaks the protocol (docs/protocol.md).

    GET  /                 the page (static files, no build step)
    GET  /api/variants     names a room may use
    POST /api/rooms        {"variant": NAME, "seed": S} → {"room": CODE}
    GET  /api/rooms/CODE/replay   the room's public replay (finished deals; the game
                           record once the match is over)
    WS   /ws/CODE          protocol messages, one JSON object per text frame; the code in
                           the URL is for a proxy that routes rooms to processes (the
                           server reads the code of the join message; /ws works too)

Every request passes ``guard.Guard`` first (Host and Origin checks, security headers);
``limits.Limits`` holds the abuse limits (docs/serving.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import ShengjiError
from ...protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError, error_message
from ...protocol.codes import http_status
from ...protocol.messages import check_unicode
from ...protocol.schema import CHECKER
from ...variants import list_variants, load_variant
from ...variants.house import HouseRulesError
from .checker import CheckLimits
from .conns import ABORT_EXTENSION
from .gcpause import GcPauses
from .guard import Guard
from .limits import Limits
from .lobby import Lobby
from .pgstore import PgStore, is_url
from .reclaim import reclaim_idle
from .rooms import DEFAULT_BOT_DELAY, DEFAULT_TURN_TIMER, STORE_CLOSE, Conn, encode
from .rules_api import MAX_RULES_BODY, RulesApi, refusal
from .store import Store

STATIC = Path(__file__).parent / "static"
#: the largest JSON body of any POST (each may carry a house file: rules_api.MAX_RULES_BODY)
MAX_BODY = MAX_RULES_BODY
MAX_SEED = 64
#: a match is long; a room plays at most this many deals (also when none are asked for)
MAX_DEALS_LIMIT = 1000
MAX_TURN_TIMER = 3600
#: the WebAssembly core and its module (shengji/wasm/), served to the page by name only
WASM_FILES = {"core.wasm": "application/wasm", "core.mjs": "text/javascript"}
log = logging.getLogger("shengji.web")


def create_app(*, variants: list[str] | None = None, default_variant: str = "two-deck-80",
               bot_delay: float = DEFAULT_BOT_DELAY, bot: str = "heuristic",
               limits: Limits | None = None, max_rooms: int | None = None,
               allowed_hosts=(), allowed_origins=(), db: str | None = None,
               seats: int | None = None, gc_pauses: bool = False,
               custom_rules: bool = True, bases: list[str] | None = None,
               shard: tuple[int, int] | None = None,
               check_limits: CheckLimits | None = None) -> Starlette:
    """``variants``: the names or paths rooms may use (default: the built-in names; a
    client never names a file). The first load of each happens here, so a broken variant
    fails at start-up, not in a room. ``limits``: the abuse limits (``max_rooms`` is a
    shortcut for ``Limits(max_rooms=...)``). ``allowed_hosts``/``allowed_origins``: names
    this server answers to besides IP literals and localhost (see guard.py). ``db``: the
    SQLite file that keeps rooms and games across restarts (store.py), or a
    ``postgresql://`` URL (pgstore.py: several processes on several hosts); None keeps
    them in memory only. ``seats``: the default variant is played at that many seats
    (``shengji serve --seats``). ``gc_pauses``: while the app runs, the garbage collector's full
    collections are replaced by short ones (gcpause.py; ``shengji serve`` turns it on: it
    changes the whole process's collector). ``custom_rules``: rooms may be created with
    house rules (``rules``, checked by rules_api.py); ``bases``: the offered variants a
    house file may extend (default: all). ``shard``: (index, count): this process makes
    and serves only the room codes of that shard (docs/scaling.md, past one process).
    ``check_limits``: the cost limits of house-rules checks (checker.py)."""
    allowed = list(dict.fromkeys(variants or list_variants()))
    if default_variant not in allowed:
        allowed.insert(0, default_variant)
    loaded = {name: load_variant(name, players=seats if name == default_variant else None)
              for name in allowed}
    limits = limits or Limits()
    if max_rooms:
        from dataclasses import replace
        limits = replace(limits, max_rooms=max_rooms)
    store = open_store(db)
    # the table sizes each variant offers: its by_players table, else its own size
    seat_counts = {name: sorted({int(k) for k in (v.settings.get("by_players") or {})}
                                | {v.players}) for name, v in loaded.items()}
    # each variant's description, for the lobby (a file's own words, in one line)
    descriptions = {name: " ".join(str(v.settings.get("description") or "").split())
                    for name, v in loaded.items()}
    lobby = Lobby(variants=loaded, bot_delay=bot_delay, bot=bot, limits=limits, store=store,
                  shard=shard)
    house_api = RulesApi(lobby, loaded, bases=bases, enabled=custom_rules,
                         check_limits=check_limits)

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def wasm_file(request):
        from ...wasm import HERE as WASM_DIR

        name = request.path_params["name"]
        if name not in WASM_FILES:
            return Response("not found", status_code=404)
        return FileResponse(WASM_DIR / name, media_type=WASM_FILES[name])

    async def get_variants(request):
        return JSONResponse({"variants": allowed, "default": default_variant,
                             "protocol": PROTOCOL_VERSION, "seats": seat_counts,
                             "descriptions": descriptions})

    async def create_room(request):
        address = request.client.host if request.client else "?"
        try:
            data = await _read_json(request, limit=MAX_RULES_BODY)
            text = data.pop("rules", None)
            name, seed, max_deals, turn_timer, players = _room_settings(data, loaded,
                                                                         default_variant)
            # checked in the rules worker (checker.py), its variant loaded in a thread
            house = None if text is None else await house_api.playable(text, players,
                                                                        address)
            room = await lobby.create(house.base if house else name, seed, max_deals,
                                      address=address, turn_timer=turn_timer,
                                      players=players, house=house)
        except HouseRulesError as e:
            return JSONResponse(refusal(e), http_status("bad_rules"))
        except ClientDisconnect:  # the body stopped coming (or the read timeout cut it)
            log.info("POST /api/rooms from %s: the client went away mid-body", address)
            return Response(status_code=400)
        except ShengjiError as e:
            return _refusal(e)
        return JSONResponse({"room": room.code, "variant": room.variant_name})

    async def public_replay(request):
        address = request.client.host if request.client else "?"
        try:
            room = await lobby.get(request.path_params["code"], address)
            text = room.public_replay(lambda: lobby.addresses.bucket("replay", address).take())
        except ShengjiError as e:
            return _refusal(e)
        if CHECKER is not None:
            CHECKER.observe(text)
        return Response(text, media_type="application/json")

    async def websocket(ws: WebSocket):
        address = ws.client.host if ws.client else "?"
        await ws.accept()
        # uvicorn as shengji serve runs it hands the app its socket's abort (conns.py): a
        # client that stops reading is cut off at once, whatever its buffers hold
        abort = (ws.scope.get("extensions") or {}).get(ABORT_EXTENSION, {}).get("abort")
        refused = lobby.connect(address)
        if refused is not None:
            refusal = error_message(refused)
            if CHECKER is not None:
                CHECKER.observe(refusal)
            try:
                await asyncio.wait_for(_refuse_socket(ws, encode(refusal)), limits.send_timeout)
            except asyncio.TimeoutError:  # a client that does not read: cut off
                if abort is not None:
                    abort()
            except (WebSocketDisconnect, RuntimeError):
                pass
            return

        async def send(text: str):
            if CHECKER is not None:  # SHENGJI_PROTOCOL_CHECK: every message against the schema
                CHECKER.observe(text)
            await ws.send_text(text)

        def cut_off(reason: str) -> None:  # the client is too slow (outbox.py)
            log.info("websocket from %s cut off: %s", address, reason)
            conn.closing = reason
            if abort is not None:
                abort()  # the reader then reads a disconnect
            else:
                reading.cancel()

        conn = Conn(send, address, limits, ws.close, on_fail=cut_off)
        reading = asyncio.ensure_future(_read_socket(ws, conn, lobby, limits))
        try:
            await reading
        except asyncio.CancelledError:
            if conn.outbox.failed is None:
                raise  # the server is stopping
        except (WebSocketDisconnect, RuntimeError):
            pass  # the peer went away (RuntimeError: sending on a closed socket)
        finally:
            conn.outbox.stop()
            room = conn.room
            lobby.disconnect(conn)
            if room is not None:
                with contextlib.suppress(ShengjiError):
                    await room.broadcast()  # the others see the seat disconnected

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if store is not None:
            await store.open()  # PostgreSQL connects here (SQLite opened above)
        pauses = GcPauses() if gc_pauses else None
        if pauses is not None:
            pauses.start()
        app.state.gc_pauses = pauses
        chores = [asyncio.create_task(reclaim_idle(lobby))]  # reclaim.py
        if store is not None:
            chores.append(asyncio.create_task(store.keep_alive()))  # the lease (lease.py)
        try:
            yield
        finally:
            for task in chores:
                task.cancel()
            if pauses is not None:
                pauses.stop()
            house_api.close()
            for room in list(lobby.rooms.values()):  # no bot writes to a closed store
                room.stop()
            if store is not None:
                await store.aclose()

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/variants", get_variants),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}/replay", public_replay),
        *house_api.routes(_read_json),
        WebSocketRoute("/ws", websocket),
        WebSocketRoute("/ws/{room}", websocket),  # the code for a proxy (docs/serving.md)
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/wasm/{name}", wasm_file),
    ], middleware=[Middleware(Guard, allowed_hosts=allowed_hosts,
                              allowed_origins=allowed_origins)], lifespan=lifespan,
        exception_handlers={Exception: _internal_error})
    app.state.lobby = lobby
    return app


def open_store(db: str | None):
    """The store of ``--db``: a ``postgresql://`` URL (connected when the app starts), an
    SQLite file, or None."""
    if not db:
        return None
    return PgStore(db) if is_url(db) else Store(db)


async def _refuse_socket(ws: WebSocket, text: str) -> None:
    await ws.send_text(text)
    await ws.close(1008)


async def _read_socket(ws: WebSocket, conn: Conn, lobby: Lobby, limits: Limits) -> None:
    """A websocket's messages to the lobby, until it closes; a connection that has not
    joined within ``limits.join_timeout`` is told so and closed."""
    deadline = time.monotonic() + limits.join_timeout
    while conn.closing is None:
        if conn.room is None:  # not joined yet: only so long
            try:
                frame = await asyncio.wait_for(ws.receive(),
                                               max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                conn.send(error_message(ProtocolError(
                    "join_timeout", f"no join within {limits.join_timeout:g} s")))
                conn.closing = "join timeout"
                break
        else:
            frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            text = frame.get("bytes") or b""
        await lobby.receive(conn, text)
    if conn.outbox.failed is None:  # the error told first, then the close frame
        conn.close(1011 if conn.closing == STORE_CLOSE else 1008, conn.closing)
        await conn.outbox.flush()


def _refusal(e: ShengjiError) -> JSONResponse:
    """An ``error`` body with its code's status (shengji.protocol.codes)."""
    code = getattr(e, "code", "")
    if code == "store_error":
        log.error("%s", e)
    return JSONResponse(error_message(e), http_status(code))


async def _internal_error(request, exc) -> JSONResponse:
    """A bug: a JSON error like every other answer, not Starlette's plain text (the
    traceback still goes to the log)."""
    return JSONResponse({"type": "error", "protocol": PROTOCOL_VERSION, "code": "internal",
                         "message": "internal server error", "reason": "", "rule": ""},
                        http_status("internal"))


async def _read_json(request, limit: int = MAX_BODY) -> dict:
    """The request body as a JSON object, read no further than ``limit`` bytes (a larger
    body is refused while it arrives, never held in memory)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        # also what keeps a cross-site HTML form from posting here
        raise ProtocolError("bad_media_type", "send the body as application/json")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ProtocolError("too_large", f"request body over {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ProtocolError("too_large", f"request body over {limit} bytes")
    try:
        data = json.loads(bytes(body) or b"{}")
    except (ValueError, RecursionError) as e:  # RecursionError: nested too deep
        raise ProtocolError("bad_json", f"bad JSON ({str(e)[:80]})") from None
    check_unicode(data)  # a lone surrogate in a seed or a key: refused here, not a 500
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "the body is a JSON object")
    return data


def _room_settings(data: dict, loaded: dict, default_variant: str) -> tuple:
    keys = ("variant", "seed", "max_deals", "turn_timer", "players")
    unknown = set(data) - set(keys)
    if unknown:
        raise ProtocolError("bad_message", f"unknown key(s) {', '.join(sorted(unknown))} "
                                           f"(allowed: {', '.join(keys)})")
    name = data.get("variant", default_variant)
    if not isinstance(name, str):
        raise ProtocolError("bad_message", "variant: a variant name (a string)")
    if name not in loaded:
        raise ProtocolError("bad_variant", f"variant {name!r} is not offered here (choose one "
                                           f"of {', '.join(loaded)})")
    # without a seed the deal is a secret: a known seed would tell every hand
    seed = data.get("seed")
    if seed is None:
        seed = secrets.token_hex(8)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > MAX_SEED:
        raise ProtocolError("bad_message", f"seed: an integer or a string of at most "
                                           f"{MAX_SEED} characters")
    # a room's memory grows with its deals (docs/serving.md): at most this many, always
    max_deals = data.get("max_deals")
    if max_deals is None:
        max_deals = MAX_DEALS_LIMIT
    if isinstance(max_deals, bool) or not isinstance(max_deals, int) \
            or not 1 <= max_deals <= MAX_DEALS_LIMIT:
        raise ProtocolError("bad_message", f"max_deals: an integer 1..{MAX_DEALS_LIMIT}")
    turn_timer = data.get("turn_timer", DEFAULT_TURN_TIMER)
    if isinstance(turn_timer, bool) or not isinstance(turn_timer, (int, float)) \
            or not 0 <= turn_timer <= MAX_TURN_TIMER:
        raise ProtocolError("bad_message", f"turn_timer: seconds 0..{MAX_TURN_TIMER} (0: wait "
                                           "for ever)")
    players = data.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ProtocolError("bad_message", "players: a number of seats")
    if players is not None and not 2 <= players <= 12:
        # named like every other size the variant does not offer (never a file path)
        v = loaded[name]
        sizes = sorted({int(k) for k in (v.settings.get("by_players") or {})} | {v.players})
        raise ProtocolError("bad_variant", f"{name} is played at "
                                           f"{', '.join(map(str, sizes))} seats, not {players}")
    return name, seed, max_deals, turn_timer, players


__all__ = ["create_app", "MAX_MESSAGE_BYTES"]
