"""The house-rules API: check a house file, look a room's rules up by code, and the
schema the page builds its rules editor from.

    GET  /api/rules/schema   the variant schema, the bases a house file may extend and
                             their table sizes
    POST /api/rules/check    {"rules": YAML, "players": N?} → the resolved rules, or 422
                             {"errors": [{"key": "play.kitty", "message": ...}]}
    GET  /api/rooms/CODE     a room's rules and seats (rate-limited like a join by code)

A house file from a client is data only (shengji.variants.house: no plugins, no file
paths, the loader's size and nesting limits, the schema's maxima). Checks cost a variant
load each, so they are rate-limited per address.
"""

from __future__ import annotations

import json
from collections import OrderedDict

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import ShengjiError
from ...protocol import ProtocolError, error_message
from ...variants.files import schema
from ...variants.house import MAX_HOUSE_BYTES, HouseRulesError, check_house
from .houserules import rules_fields
from .limits import Bucket, address_key

#: a request that carries a house file (JSON-escaped text: up to twice its bytes)
MAX_RULES_BODY = 2 * MAX_HOUSE_BYTES + 4096
#: checks per address: a burst, then this many a second
CHECK_RATE, CHECK_BURST = 2.0, 30
TRACKED = 10_000


def _status(e: ShengjiError) -> int:
    return {"rate_limited": 429, "too_large": 413, "bad_media_type": 415,
            "no_such_room": 404, "custom_rules_off": 403}.get(getattr(e, "code", ""), 400)


class RulesApi:
    def __init__(self, lobby, loaded: dict, bases: list[str] | None = None,
                 enabled: bool = True):
        unknown = [b for b in bases or () if b not in loaded]
        if unknown:
            raise ShengjiError(f"--bases: {', '.join(unknown)} not served here (served: "
                               f"{', '.join(loaded)})")
        self.lobby = lobby
        self.bases = {name: loaded[name] for name in (bases or loaded)}
        self.enabled = enabled
        self._buckets: OrderedDict = OrderedDict()

    def _bucket(self, address: str) -> Bucket:
        address = address_key(address)
        b = self._buckets.get(address)
        if b is None:
            if len(self._buckets) >= TRACKED:
                self._buckets.popitem(last=False)
            b = self._buckets[address] = Bucket(CHECK_RATE, CHECK_BURST)
        return b

    def check(self, text, players, address: str):
        """Checked HouseRules, or HouseRulesError / ProtocolError."""
        if not self.enabled:
            raise ProtocolError("custom_rules_off", "this server plays only the variants it "
                                                    "offers (serve --no-custom-rules)")
        if not isinstance(text, str):
            raise HouseRulesError([{"key": "", "message": "rules: the text of a YAML house "
                                                          "file"}])
        if not self._bucket(address).take():
            raise ProtocolError("rate_limited", "rules are checked too often from your "
                                                "address; wait a little")
        return check_house(text, self.bases, players)

    def routes(self, read_json) -> list[Route]:
        async def get_schema(request):
            sizes = {name: sorted({int(k) for k in (v.settings.get("by_players") or {})}
                                  | {v.players}) for name, v in self.bases.items()}
            return JSONResponse({"schema": schema(), "bases": list(self.bases),
                                 "seats": sizes, "custom_rules": self.enabled})

        async def post_check(request):
            address = request.client.host if request.client else "?"
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
                house = self.check(data.get("rules"), players, address)
            except HouseRulesError as e:
                return JSONResponse({"error": "bad_rules", "errors": e.errors}, 422)
            except ShengjiError as e:
                return JSONResponse(error_message(e), _status(e))
            base = self.bases[house.base]
            from ...variants import load_variant
            base = load_variant(base, players=house.players)
            return Response(json.dumps({
                "base": house.base, "players": house.players, "rules": house.text,
                "rules_fingerprint": house.fingerprint, "house": house.house,
                "settings": house.variant.settings, "base_settings": base.settings,
                "changes": house.changes, "warnings": house.warnings,
            }, ensure_ascii=False, default=str), media_type="application/json")

        async def get_room(request):
            address = request.client.host if request.client else "?"
            try:  # a lookup by code: misses are counted per address (admission.py)
                room = self.lobby.get(request.path_params["code"], address)
            except ShengjiError as e:
                return JSONResponse(error_message(e), _status(e))
            return JSONResponse({"room": room.code, "variant": room.variant_name,
                                 "players": room.table.players, "started": room.started,
                                 "seats": room.seat_infos(), **rules_fields(room.rules)})

        return [Route("/api/rules/schema", get_schema),
                Route("/api/rules/check", post_check, methods=["POST"]),
                Route("/api/rooms/{code}", get_room)]


__all__ = ["RulesApi", "MAX_RULES_BODY", "MAX_HOUSE_BYTES"]
