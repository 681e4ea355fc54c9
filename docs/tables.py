"""The docs' tables that the code decides, generated from their one source.

    python docs/tables.py            # rewrite every generated region of docs/*.md
    python docs/tables.py --check    # list the regions that differ (exit 1), write nothing

A region is the text between ``<!-- generated: NAME -->`` and ``<!-- end -->`` in a page
of docs/; ``TABLES`` below says what fills it, and tests/test_docs_tables.py fails when a
page differs from what this script writes (as tests/test_web_known.py does for the
page's known.js). Edit the source, not the region:

- reasons: ``shengji.protocol.refusals.REFUSALS``
- error-codes: ``shengji.protocol.codes`` (each code's cause and HTTP status)
- http-answers, record: the protocol schema (``shengji.protocol.schema``: ``HTTP_ANSWERS``,
  ``RECORD``)
- play-rules: the fields of ``shengji.rules.PlayRules`` (meanings: the variant schema)
- body-limits, rates, caps, connections: ``shengji.frontends.web.limits.Limits`` and the
  limits beside the code that applies them
- agreement: tests/reference_agreement.json (the reference engine's run, checked by
  tests/test_reference_engine.py)
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

REGION = re.compile(r"(<!-- generated: ([a-z0-9-]+) -->\n)(.*?)(<!-- end -->)", re.S)


def cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def size(n: int) -> str:
    """Bytes as the docs say them: 8 KiB, 69,632 bytes."""
    return f"{n // 1024} KiB ({n:,} bytes)" if n % 1024 == 0 else f"{n:,} bytes"


def rate(per_second: float, burst: int) -> str:
    every = f"{per_second:g} a second" if per_second >= 1 else f"one per {1 / per_second:g} s"
    return f"bursts of {burst}, then {every}"


# ----------------------------------------------------------------- protocol.md

def reasons() -> str:
    from shengji.protocol.refusals import REFUSALS, RULELESS

    rows = [[f"`{code}`", text + (" (no rule shown)" if code in RULELESS else "")]
            for code, text in REFUSALS.items()]
    return table(["reason", "what the page and the terminal say"], rows)


def error_codes() -> str:
    from shengji.protocol.codes import ERROR_CODES, HTTP_STATUS

    rows = [[f"`{code}`", HTTP_STATUS.get(code, "—"), cause]
            for code, cause in ERROR_CODES.items()]
    return table(["code", "HTTP", "cause"], rows)


def _keys(schema: dict) -> list[list[str]]:
    required = set(schema.get("required", ()))
    return [[f"`{key}`" + ("" if key in required else " (optional)"),
             sub.get("description", "")] for key, sub in schema["properties"].items()]


def http_answers() -> str:
    from shengji.protocol.schema import HTTP_ANSWERS

    rows = []
    for name, (request, schema) in HTTP_ANSWERS.items():
        for i, (key, meaning) in enumerate(_keys(schema)):
            rows.append([f"`{request}` (`{name}`)" if i == 0 else "", key, meaning])
    return table(["answer (schema)", "key", "meaning"], rows)


def record() -> str:
    from shengji.protocol.schema import RECORD

    return table(["key", "meaning"], _keys(RECORD))


# ----------------------------------------------------------------- conformance.md

#: the JSON form of the fields whose value is no plain number, flag or name
FORMS = {
    "constant_ranks": "list of rank indices 0..12 (`2` is 0, `A` 12)",
    "following": "`[[[w, len], [[[w, len], ...], ...]], ...]`: a led shape, then its ladder "
                 "of patterns, best first (each pattern a list of shapes); a shape not "
                 "listed follows the generated ladder",
    "kitty_table": "six integers: single, pair, triple, quad, tractor, titanic",
    "copies": "54 counts, by kind `suit*13+rank` (LJ 52, BJ 53)",
}
#: fields that are no key of a variant's play: section
MEANINGS = {
    "copies": "copies of each kind in the deck (short packs, jokers per pack); the most "
              "of any kind is decks",
}


def _json_type(value) -> str:
    return {bool: "boolean", int: "integer", str: "string", type(None): "null"}.get(
        type(value), "list")


def play_rules() -> str:
    """Every field of PlayRules, as rules_json sends it (the default rules' values)."""
    from shengji.rules import PlayRules
    from shengji.wasm import rules_json

    schema = json.loads((ROOT / "shengji/schema/variant.schema.json").read_text("utf-8"))
    play = schema["properties"]["play"]["properties"]
    default = rules_json(PlayRules())
    rows = []
    for name, value in default.items():
        node = play.get(name) or schema["properties"].get(name) or {}
        meaning = node.get("description") or MEANINGS.get(name)
        if not meaning:
            raise KeyError(f"PlayRules.{name}: describe it in the variant schema's play "
                           "section (or in docs/tables.py MEANINGS)")
        form = FORMS.get(name)
        if form is None:
            choices = node.get("enum")
            form = (" / ".join(f"`{c}`" for c in choices if c is not None) if choices
                    else _json_type(value))
        shown = "54 counts" if name == "copies" else json.dumps(value)
        key = f"`play.{name}`" if name in play else "—"
        rows.append([f"`{name}`", form, f"`{shown}`", key, meaning])
    return table(["field", "JSON", "default", "variant key", "meaning"], rows)


def agreement() -> str:
    data = json.loads((ROOT / "tests" / "reference_agreement.json").read_text("utf-8"))
    classes: dict[str, int] = {}
    for d in data["disagreements"]:
        classes[d["class"]] = classes.get(d["class"], 0) + 1
    lines = [f"shengji.io's rules crate at commit `{data['commit'][:7]}` "
             f"({data['commit']}), on `{data['cases']}`:", ""]
    lines.append(table(["", "cases"], [[k, v] for k, v in data["counts"].items()]
                       + [[f"disagreed: {c}", n] for c, n in classes.items()]))
    rows = [[f"`{d['file']}::{d['case']}` ({d['kind']})", d["class"], d["why"]]
            for d in data["disagreements"]]
    lines.append(table(["disagreement", "class", "why"], rows))
    rows = [[reason, n] for reason, n in data["declined"].items()]
    lines.append(table(["declined by the adapter, because", "cases"], rows))
    return "\n".join(lines)


# ----------------------------------------------------------------- serving.md

def body_limits() -> str:
    from shengji.frontends.web.app import MAX_BODY
    from shengji.frontends.web.conns import server_config
    from shengji.frontends.web.limits import Limits
    from shengji.protocol.messages import (
        MAX_CALLS,
        MAX_CARDS_CHARS,
        MAX_CHAT_TEXT,
        MAX_MESSAGE_BYTES,
        MAX_SHORT_TEXT,
    )
    from shengji.protocol.schema import HTTP_ANSWERS
    from shengji.variants.house import MAX_HOUSE_BYTES

    frame = inspect.signature(server_config).parameters["ws_max_size"].default
    posts = ", ".join(f"`{req}`" for req, _ in HTTP_ANSWERS.values() if req.startswith("POST"))
    rows = [
        ["request headers", size(Limits().max_header_bytes), "the socket is closed"],
        [f"a POST body: {posts}", size(MAX_BODY) + " (each may carry a house file)",
         "413 `too_large`; a declared length over it is refused before reading"],
        ["a house file (`rules`)", size(MAX_HOUSE_BYTES), "422 `bad_rules`"],
        ["a websocket frame", size(frame), "closed by uvicorn (1009)"],
        ["a websocket message", size(MAX_MESSAGE_BYTES), "`too_large`"],
        ["a chat line's `text`", f"{MAX_CHAT_TEXT} characters", "`bad_message`"],
        ["any other string of a message", f"{MAX_SHORT_TEXT} characters", "`bad_message`"],
        ["an action's `cards`; its `calls`", f"{MAX_CARDS_CHARS} characters; {MAX_CALLS} "
         "calls", "`bad_action`"],
    ]
    return table(["what", "at most", "over it"], rows)


def _limits():
    from shengji.frontends.web.limits import Limits

    return Limits()


def share(fraction: float) -> str:
    """A share of a cap in words: the last quarter, the last eighth."""
    return {0.5: "half", 0.25: "quarter", 0.125: "eighth"}.get(fraction, f"{fraction:.0%}")


def rates() -> str:
    from shengji.frontends.web.checker import CheckLimits
    from shengji.frontends.web.preview import PreviewLimits

    lim, pre, chk = _limits(), PreviewLimits(), CheckLimits()
    rows = [
        ["messages per websocket", rate(lim.msg_rate, lim.msg_burst),
         f"the first message over it gets `rate_limited`, later ones are dropped unanswered; "
         f"{lim.msg_dropped_close} dropped close the socket (1008)"],
        ["chat lines of a room, whoever says them (each goes to everyone in the room)",
         rate(lim.chat_rate, lim.chat_burst), "`rate_limited` to the one who said it"],
        ["rooms created per address", rate(lim.room_rate, lim.room_burst),
         "429 `rate_limited`"],
        ["failed lookups by code per address (`join`, `watch`, `GET /api/rooms/CODE` and its "
         "replay; a `join` with a wrong token)", rate(lim.failed_join_rate,
                                                      lim.failed_join_burst),
         "`rate_limited` / 429: every lookup from that address waits"],
        ["public replays built per address (`GET /api/rooms/CODE/replay`; one already built "
         "is free)", rate(lim.replay_rate, lim.replay_burst), "429 `rate_limited`"],
        ["CPU seconds of rules checks per address (`/api/rules/check`, a room with `rules`, "
         "a preview; checker.py): a check is admitted while the budget is above zero, and "
         "what it cost is taken afterwards", f"{chk.cpu_rate:g} a second, up to "
         f"{chk.cpu_burst:g}; one check at most {chk.cpu_limit:g} s of CPU",
         f"429 `rate_limited` after a pause of {chk.refusal_pause:g} s (`Retry-After`); a "
         "check over its CPU: 422 `bad_rules`"],
        ["rules checks queued or running", f"{chk.per_address} per address; {chk.queue} "
         "waiting in all, turns shared fairly (fairqueue.py: the address served longest "
         "ago first)", "429 `rate_limited` / 503 `busy`"],
        ["previews per address", f"{pre.per_address} at a time", "429 `rate_limited`"],
        ["previews waiting", f"{pre.queue}, turns shared fairly (a newcomer takes the place "
         "of the waiting preview of the address served most recently); each plays at most "
         f"{pre.time_cap:g} s (both sides)", "503 `busy`"],
    ]
    named = {f.name for f in dataclasses.fields(lim) if f.name.endswith("_rate")}
    covered = {"msg_rate", "chat_rate", "room_rate", "failed_join_rate", "replay_rate"}
    if named != covered:
        raise KeyError(f"Limits: describe {sorted(named - covered)} in docs/tables.py rates()")
    return table(["rate", "default", "over it"], rows)


def caps() -> str:
    from shengji.frontends.web.app import MAX_DEALS_LIMIT
    from shengji.frontends.web.replays import REPLAYS_KEPT

    lim = _limits()
    rows = [
        ["websockets per seat (reconnects, a second device)", lim.conns_per_seat,
         "`too_many_connections`"],
        ["websockets per address / in all", f"{lim.conns_per_address} / "
         f"{lim.max_connections:,} (fitted to the open-files limit, below); the last "
         f"{share(lim.sockets_reserved_share)} of all is kept for addresses holding fewer "
         f"than {lim.sockets_when_crowded}",
         "`too_many_connections` / `server_full`, then the socket is closed"],
        ["a websocket's outgoing queue (outbox.py)", f"{lim.send_queue} messages or "
         f"{size(lim.send_queue_chars)} of text (one larger message still goes alone); "
         f"one send, or the close frame, waits at most {lim.send_timeout:g} s for the "
         "client to read", "the client is cut off (the socket aborted, no error); its seat "
         "waits for its token (\"Clients that do not read\")"],
        ["time to send `join` or `watch` after opening a websocket",
         f"{lim.join_timeout:g} s", "`join_timeout`, then the socket is closed"],
        ["spectators per room", lim.watchers_per_room, "`room_full`"],
        ["unfinished rooms per address (IPv6: per /64)", lim.rooms_per_address,
         "429 `too_many_rooms`"],
        ["rooms in all", f"{lim.max_rooms:,}; when full, idle rooms go first (finished, "
         f"untouched for an hour, or never joined and untouched for "
         f"{lim.unjoined_seconds:g} s), then the least recently used empty room of the "
         "address holding the most rooms, if it holds at least two more than the newcomer "
         "(admission.py); a room somebody is in is never taken, so the last "
         f"{share(lim.rooms_reserved_share)} of the table is kept for addresses holding "
         f"fewer than {lim.rooms_when_crowded} rooms",
         f"503 `server_full`; 429 `too_many_rooms` to an address holding "
         f"{lim.rooms_when_crowded} or more once that share is reached"],
        ["deals a room plays (`max_deals`: its ceiling, and the default)",
         f"{MAX_DEALS_LIMIT:,}", "400 `bad_message` past it"],
        ["replays of finished deals a room keeps, per seat and deal (built once; the "
         "least recently asked for dropped first)", REPLAYS_KEPT, "built again when asked"],
        ["addresses remembered by the per-address limits", f"{lim.addresses_tracked:,} (the "
         "oldest forgotten first)", ""],
        ["time a room somebody is connected to may go without a message from them",
         f"{lim.idle_room_seconds / 60:g} minutes (looked at once a minute)",
         "`idle`, the sockets closed (4000); the room stays in the store"],
    ]
    return table(["limit", "default", "over it"], rows)


def connections() -> str:
    import uvicorn

    lim = _limits()
    ping = inspect.signature(uvicorn.Config).parameters
    rows = [
        ["request headers complete", f"{lim.header_timeout:g} s from the connection, or from "
         "the last response on a keep-alive connection", "ours: a timer in a subclass of "
         "uvicorn's HTTP protocol (uvicorn has no header timeout)", "the socket is closed"],
        ["request body complete", f"{lim.body_timeout:g} s past the header deadline",
         "ours, same timer", "the socket is closed; the handler reads a disconnect and logs "
         "one line"],
        ["header bytes", size(lim.max_header_bytes), "ours for httptools (the default "
         "parser, which has no limit); uvicorn's `h11_max_incomplete_event_size` for h11",
         "the socket is closed"],
        ["idle keep-alive", f"{lim.keep_alive:g} s", "uvicorn's `timeout_keep_alive`",
         "the socket is closed"],
        ["sockets per address (IPv6: per /64)", lim.sockets_per_address, "ours: counted "
         "from `accept` until whichever protocol holds the socket last loses it",
         "closed at once, nothing read"],
        ["sockets in all", f"{lim.max_sockets:,}, and at most half the open-files limit "
         "less 64 (`shengji serve` raises the soft limit to the hard one first; a line "
         f"says when the cap comes down); the last {share(lim.sockets_reserved_share)} is "
         f"kept for addresses holding fewer than {lim.sockets_when_crowded} sockets",
         "ours, same count", "closed at once"],
        ["requests in flight", "sockets in all + 64", "uvicorn's `limit_concurrency`",
         "HTTP 503"],
        ["a websocket's socket buffers (the kernel's send buffer, asyncio's write buffer)",
         f"{size(lim.send_buffer)} each" if lim.send_buffer else "the system's sizes",
         "ours (conns.py)", "sends wait, then the outgoing queue's limits (\"Caps\")"],
        ["websocket pings", f"every {ping['ws_ping_interval'].default:g} s, "
         f"{ping['ws_ping_timeout'].default:g} s to answer", "uvicorn's `ws_ping_interval`, "
         "`ws_ping_timeout`", "closed by uvicorn"],
    ]
    return table(["limit", "default", "where", "what happens"], rows)


#: region name → the function that writes it
TABLES: dict[str, Callable[[], str]] = {
    "reasons": reasons, "error-codes": error_codes, "http-answers": http_answers,
    "record": record, "play-rules": play_rules, "agreement": agreement,
    "body-limits": body_limits, "rates": rates, "caps": caps, "connections": connections,
}
#: every Limits field a generated table states (the test holds the set to all of them)
LIMITS_STATED = {"msg_rate", "msg_burst", "msg_dropped_close", "join_timeout",
                 "conns_per_seat", "conns_per_address", "max_connections",
                 "watchers_per_room", "max_rooms", "rooms_per_address", "room_rate",
                 "room_burst", "unjoined_seconds", "failed_join_rate", "failed_join_burst",
                 "replay_rate", "replay_burst", "addresses_tracked", "header_timeout",
                 "body_timeout", "max_header_bytes", "keep_alive", "sockets_per_address",
                 "max_sockets", "idle_room_seconds", "chat_rate", "chat_burst", "send_queue",
                 "send_queue_chars", "send_timeout", "send_buffer", "rooms_reserved_share",
                 "rooms_when_crowded", "sockets_reserved_share", "sockets_when_crowded"}


def pages() -> list[Path]:
    return sorted((ROOT / "docs").glob("*.md"))


def render(text: str, where: str = "") -> str:
    """``text`` with every generated region filled in again."""
    def fill(m: re.Match) -> str:
        name = m.group(2)
        if name not in TABLES:
            raise KeyError(f"{where}: unknown generated region {name!r} (known: "
                           f"{', '.join(TABLES)})")
        return m.group(1) + TABLES[name]() + m.group(4)

    return REGION.sub(fill, text)


def regions(text: str) -> list[str]:
    return [m.group(2) for m in REGION.finditer(text)]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path in pages():
        text = path.read_text(encoding="utf-8")
        new = render(text, path.name)
        if new != text:
            stale.append(path.relative_to(ROOT).as_posix())
            if not check:
                path.write_text(new, encoding="utf-8")
    if check and stale:
        print(f"generated tables out of date in {', '.join(stale)}: run python docs/tables.py")
        return 1
    for name in stale:
        print(f"rewrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
