"""The house-rules API: check a house file, look a room's rules up by code, and the
schema the page builds its rules editor from.

    GET  /api/rules/schema   the variant schema, the bases a house file may extend and
                             their table sizes
    POST /api/rules/check    {"rules": YAML, "players": N?} → the resolved rules, or 422
                             {"errors": [{"key": "play.kitty", "message": ...}]}
    POST /api/rules/preview  {"rules", "players"?, "seed"?, "deals"?} → figures of a short
                             bot match under the house rules and under the base (preview.py)
    GET  /api/rooms/CODE     a room's rules and seats (rate-limited like a join by code)

A house file from a client is data only (shengji.variants.house: no plugins, no file
paths, the loader's size, nesting and node limits, the schema's maxima). Checks cost a
variant load each: they run in a worker process under a CPU limit, and each address has
a budget of CPU seconds (checker.py).
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import ShengjiError
from ...protocol import PROTOCOL_VERSION, ProtocolError, error_message
from ...protocol.codes import http_status
from ...variants.files import schema
from ...variants.house import MAX_HOUSE_BYTES, HouseRulesError, canonical_text, rules_variant
from .checker import Checked, Checker, CheckLimits
from .houserules import rules_fields
from .limits import address_key
from .preview import DEFAULT_DEALS, MAX_DEALS, PreviewLimits, Previews

#: a request that carries a house file (JSON-escaped text: up to twice its bytes)
MAX_RULES_BODY = 2 * MAX_HOUSE_BYTES + 4096


@functools.cache
def rule_examples() -> dict:
    """Positions where a setting and its base disagree (shengji.conformance.examples)."""
    from importlib import resources

    text = resources.files("shengji").joinpath("schema/rule_examples.json").read_text("utf-8")
    return json.loads(text)


def _status(e: ShengjiError) -> int:
    return http_status(getattr(e, "code", ""))


def refusal(e: HouseRulesError) -> dict:
    """The answer to refused rules: an ``error`` like any other (``server.error`` of the
    protocol schema), every problem by its key (the first MAX_ERRORS of them), and how
    many there were."""
    first = e.errors[0]
    return {"type": "error", "protocol": PROTOCOL_VERSION, "code": "bad_rules",
            "message": f"{first['key'] or 'rules'}: {first['message']}", "reason": "",
            "rule": "", "errors": e.errors, "error_count": e.count}


class RulesApi:
    def __init__(self, lobby, loaded: dict, bases: list[str] | None = None,
                 enabled: bool = True, preview_limits: PreviewLimits | None = None,
                 check_limits: CheckLimits | None = None):
        unknown = [b for b in bases or () if b not in loaded]
        if unknown:
            raise ShengjiError(f"--bases: {', '.join(unknown)} not served here (served: "
                               f"{', '.join(loaded)})")
        self.lobby = lobby
        self.bases = {name: loaded[name] for name in (bases or loaded)}
        self.enabled = enabled
        # the worker loads each base as create_app did: by its reference, at its size
        self.checker = Checker({name: (name, v.players) for name, v in self.bases.items()},
                               check_limits)
        self.previews = Previews(preview_limits)
        self._texts: dict = {}   # (base, players) -> the base's rules text

    def close(self) -> None:
        self.previews.close()

    def _base(self, name: str, players: int):
        from ...variants import load_variant  # a loaded size is kept by the Variant

        return load_variant(self.bases[name], players=players)

    def _base_text(self, name: str, players: int) -> str:
        key = (name, players)
        if key not in self._texts:
            self._texts[key] = canonical_text(self._base(name, players).settings)
        return self._texts[key]

    async def check(self, text, players, address: str) -> Checked:
        """Checked rules (checker.py), or HouseRulesError / ProtocolError."""
        if not self.enabled:
            raise ProtocolError("custom_rules_off", "this server plays only the variants it "
                                                    "offers (serve --no-custom-rules)")
        if not isinstance(text, str):
            raise HouseRulesError([{"key": "", "message": "rules: the text of a YAML house "
                                                          "file"}])
        return await self.checker.check(text, players, address)

    async def playable(self, text, players, address: str) -> Checked:
        """Checked rules with their Variant, rebuilt here from the resolved text (in a
        thread: a variant load is some 20 ms), for a room."""
        house = await self.check(text, players, address)
        house.variant = await asyncio.to_thread(rules_variant, house.text)
        return house

    def routes(self, read_json) -> list[Route]:
        async def get_schema(request):
            sizes = {name: sorted({int(k) for k in (v.settings.get("by_players") or {})}
                                  | {v.players}) for name, v in self.bases.items()}
            return JSONResponse({"schema": schema(), "bases": list(self.bases),
                                 "examples": rule_examples(),
                                 "seats": sizes, "custom_rules": self.enabled})

        async def post_check(request):
            address = request.client.host if request.client else "?"
            try:  # over its budget: refused before its body is read
                if self.enabled:
                    self.checker.admit(address)
            except ProtocolError as e:
                # ... after a pause: a flood of refused requests then costs sleeping
                # tasks, not a loop as fast as the refusals come back
                await asyncio.sleep(self.checker.limits.refusal_pause)
                return JSONResponse(error_message(e), 429, headers={"Retry-After": "1"})
            try:
                data = await read_json(request, limit=MAX_RULES_BODY)
                unknown = set(data) - {"rules", "players"}
                if unknown:
                    raise ProtocolError("bad_message", f"unknown key(s) "
                                        f"{', '.join(sorted(unknown))} (allowed: rules, "
                                        "players)")
                players = data.get("players")
                if players is not None and (isinstance(players, bool)
                                            or not isinstance(players, int)
                                            or not 2 <= players <= 12):
                    raise ProtocolError("bad_message", "players: a table size 2..12")
                house = await self.check(data.get("rules"), players, address)
            except HouseRulesError as e:
                return JSONResponse(refusal(e), http_status("bad_rules"))
            except ShengjiError as e:
                return JSONResponse(error_message(e), _status(e))
            return Response(json.dumps({
                "base": house.base, "players": house.players, "rules": house.text,
                "name": house.name,
                "rules_fingerprint": house.fingerprint, "house": house.house,
                "settings": house.settings, "base_settings": house.base_settings,
                "changes": house.changes, "warnings": house.warnings,
            }, ensure_ascii=False, default=str), media_type="application/json")

        async def get_room(request):
            address = request.client.host if request.client else "?"
            try:  # a lookup by code: misses are counted per address (admission.py)
                room = await self.lobby.get(request.path_params["code"], address)
            except ShengjiError as e:
                return JSONResponse(error_message(e), _status(e))
            return JSONResponse({"room": room.code, "variant": room.variant_name,
                                 "players": room.table.players, "started": room.started,
                                 "seats": room.seat_infos(), **rules_fields(room.rules)})

        async def post_preview(request):
            address = address_key(request.client.host if request.client else "?")
            try:
                data = await read_json(request, limit=MAX_RULES_BODY)
                unknown = set(data) - {"rules", "players", "seed", "deals"}
                if unknown:
                    raise ProtocolError("bad_message", f"unknown key(s) "
                                        f"{', '.join(sorted(unknown))} (allowed: rules, "
                                        "players, seed, deals)")
                seed = data.get("seed")
                if seed is None:
                    seed = secrets.randbelow(1_000_000)
                if isinstance(seed, bool) or not isinstance(seed, (int, str)) \
                        or len(str(seed)) > 64:
                    raise ProtocolError("bad_message", "seed: an integer or a short string")
                deals = data.get("deals", DEFAULT_DEALS)
                if isinstance(deals, bool) or not isinstance(deals, int) \
                        or not 1 <= deals <= MAX_DEALS:
                    raise ProtocolError("bad_message", f"deals: 1..{MAX_DEALS}")
                players = data.get("players")
                if players is not None and (isinstance(players, bool)
                                            or not isinstance(players, int)
                                            or not 2 <= players <= 12):
                    raise ProtocolError("bad_message", "players: a table size 2..12")
                found = {}

                async def prepare():
                    house = found["house"] = await self.check(data.get("rules"), players,
                                                              address)
                    base = await asyncio.to_thread(self._base_text, house.base, house.players)
                    return house.text, base

                got = await self.previews.run(address, prepare, seed, deals)
                house = found["house"]
            except HouseRulesError as e:
                return JSONResponse(refusal(e), http_status("bad_rules"))
            except ShengjiError as e:
                return JSONResponse(error_message(e), _status(e))
            return JSONResponse({"seed": seed, "deals": deals, "base_name": house.base,
                                 "time_cap": self.previews.limits.time_cap, **got})

        return [Route("/api/rules/schema", get_schema),
                Route("/api/rules/preview", post_preview, methods=["POST"]),
                Route("/api/rules/check", post_check, methods=["POST"]),
                Route("/api/rooms/{code}", get_room)]


__all__ = ["RulesApi", "MAX_RULES_BODY", "MAX_HOUSE_BYTES"]
