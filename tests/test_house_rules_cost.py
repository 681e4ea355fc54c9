"""House rules cost the server a bounded amount (issue 34, item 2 and the error list of
item 6): lists are bounded by what they can mean, a file of rules by its number of
values, the errors listed by 50 (and counted); the check runs in a worker process under
a CPU limit, and each address has a budget of CPU seconds; turns at the worker (and at
the preview player) are shared fairly between addresses."""

from __future__ import annotations

import asyncio
import os
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from webtools import BASE  # noqa: E402

from shengji.frontends.web import checker  # noqa: E402
from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.checker import CheckLimits  # noqa: E402
from shengji.frontends.web.fairqueue import FairQueue  # noqa: E402
from shengji.protocol import ProtocolError  # noqa: E402
from shengji.variants import load_variant  # noqa: E402
from shengji.variants.house import MAX_ERRORS, HouseRulesError, check_house  # noqa: E402

#: the issue's request: `teams` of 10,900 entries that are not team ids (32 KB)
TEAMS_ATTACK = "extends: two-deck-80\nteams: [" + ", ".join(["x"] * 10_900) + "]\n"


def _client(**kw):
    return TestClient(create_app(variants=["two-deck-80", "finding-friends"], bot_delay=0,
                                 **kw), base_url=BASE)


@pytest.fixture(scope="module")
def bases():
    return {name: load_variant(name) for name in ("two-deck-80", "finding-friends")}


def _refused(text: str, bases) -> HouseRulesError:
    with pytest.raises(HouseRulesError) as e:
        check_house(text, bases)
    return e.value


@pytest.mark.parametrize("text,key,words", [
    ("extends: two-deck-80\nteams: [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]\n", "teams",
     "13 entries: at most 12"),
    ("extends: two-deck-80\nteams: [0, 1, 0, 12]\n", "teams[3]", "allowed 0..11"),
    ("extends: two-deck-80\nplay: {constant_ranks: ['2', '2']}\n", "play.constant_ranks",
     "twice"),
    ("extends: two-deck-80\nplay: {constant_ranks: ['2', 2]}\n", "play.constant_ranks",
     "listed already"),
    ("extends: two-deck-80\nby_players: {x: {hand_size: 3}}\n", "by_players",
     "not a table size 2..12"),
    ("extends: two-deck-80\nname: " + "n" * 101 + "\n", "name", "at most 100"),
    ("extends: two-deck-80\ndeclare: {redeal_limit: 300}\n", "declare.redeal_limit",
     "allowed 0..20"),
])
def test_lists_and_values_are_bounded_by_what_they_can_mean(bases, text, key, words):
    e = _refused(text, bases)
    assert [x["key"] for x in e.errors] == [key] and words in e.errors[0]["message"], e.errors


def test_a_file_of_many_values_is_refused_while_it_is_read(bases):
    """Parsing costs by the value: 2,000 of them at most (the largest offered variant
    resolves to 260), counted while the YAML is composed."""
    for text in (TEAMS_ATTACK, "extends: two-deck-80\nplay:\n  constant_ranks: ["
                 + ", ".join(["2"] * 5400) + "]\n"):
        e = _refused(text, bases)
        assert e.errors == [{"key": "", "message": "more than 2000 values (YAML nodes): "
                                                   "refused"}]


def test_the_errors_listed_are_capped_and_counted(bases):
    text = "extends: two-deck-80\nteams: [" + ", ".join(["x"] * 1900) + "]\n"
    e = _refused(text, bases)
    assert len(e.errors) == MAX_ERRORS and e.count == 1901
    with _client() as client:
        r = client.post("/api/rules/check", json={"rules": text})
        assert r.status_code == 422
        assert len(r.json()["errors"]) == MAX_ERRORS and r.json()["error_count"] == 1901
        # the answer is a few KB (it was 920 KB): not 30 times the request
        assert len(r.content) < 8000
        r = client.post("/api/rules/check", json={"rules": TEAMS_ATTACK})
        assert r.status_code == 422 and len(r.content) < 1000


def test_checks_run_in_a_worker_process_under_a_cpu_limit():
    with _client(check_limits=CheckLimits(cpu_limit=0.001)) as client:
        r = client.post("/api/rules/check", json={"rules": "extends: finding-friends\n"
                                                           "players: 8\n"})
        assert r.status_code == 422, r.text
        assert "took over 0.001 s of CPU" in r.json()["errors"][0]["message"]
        pool = checker._pool
        assert pool is not None
        assert all(p.pid != os.getpid() for p in pool._processes.values())


def test_each_address_has_a_budget_of_cpu_seconds():
    """The rate matches the cost: a check is admitted while the address's budget of CPU
    seconds is above zero, and what it cost is taken from it."""
    import time

    limits = CheckLimits(cpu_rate=0.0001, cpu_burst=0.01, refusal_pause=0.3)
    rules = {"rules": "extends: two-deck-80\nplay: {bombs: any_suit}\n"}
    with _client(check_limits=limits) as client:
        assert client.post("/api/rules/check", json=rules).status_code == 200
        start = time.monotonic()
        again = client.post("/api/rules/check", json=rules)
        assert again.status_code == 429 and again.json()["code"] == "rate_limited"
        # answered after a pause: a flood of refused requests goes no faster than that
        assert time.monotonic() - start >= 0.3 and again.headers["retry-after"] == "1"
    # another address has its own budget
    with TestClient(create_app(variants=["two-deck-80"], check_limits=limits),
                    base_url=BASE, client=("10.1.2.3", 5000)) as other:
        assert other.post("/api/rules/check", json=rules).status_code == 200


# ---------------------------------------------------------------- fair turns

def test_a_newcomer_gets_a_turn_while_twelve_addresses_flood_the_queue():
    """Issue 34, item 9: twelve addresses keep a queue of eight full (each asks again as
    soon as it is answered); a newcomer is never refused, and goes before every address
    served already."""

    async def main():
        queue = FairQueue(capacity=8, per_address=1)
        order: list[str] = []
        refused = {"newcomer": 0, "flood": 0}
        stop = asyncio.Event()

        async def ask(address: str) -> bool:
            try:
                async with queue.turn(address):
                    order.append(address)
                    await asyncio.sleep(0.002)
                return True
            except ProtocolError as e:
                assert e.code == "busy"
                return False

        async def flood(address: str) -> None:
            while not stop.is_set():
                if not await ask(address):
                    refused["flood"] += 1
                    await asyncio.sleep(0.001)

        tasks = [asyncio.ensure_future(flood(f"10.0.0.{i}")) for i in range(12)]
        await asyncio.sleep(0.1)
        for i in range(20):
            newcomer = f"10.9.0.{i}"
            before = len(order)
            assert await ask(newcomer), f"newcomer {i} refused"
            # nobody served before it arrived had a turn again before it (but the one
            # whose turn had come as it arrived)
            between = order[before:order.index(newcomer)]
            assert len(set(between) & set(order[:before])) <= 1, between
        stop.set()
        await asyncio.gather(*tasks)
        return refused

    refused = asyncio.run(main())
    assert refused["flood"] > 0  # the flood was over the queue's capacity


def test_a_queue_place_per_address_and_first_come_among_equals():
    async def main():
        queue = FairQueue(capacity=1, per_address=1)
        gate = asyncio.Event()

        async def ask(address):
            async with queue.turn(address):
                await gate.wait()

        jobs = [asyncio.ensure_future(ask(a)) for a in ("a", "a", "b", "c")]
        await asyncio.sleep(0.01)
        gate.set()
        return await asyncio.gather(*jobs, return_exceptions=True)

    got = asyncio.run(main())
    codes = [getattr(r, "code", "ok") if isinstance(r, ProtocolError) else "ok" for r in got]
    assert codes == ["ok", "rate_limited", "ok", "busy"]


# ---------------------------------------------------------------- what the engine can play

#: issue 34, item 3: /check said 200, then POST /api/rooms and the preview were 500 with a
#: 112 KB traceback each (the redeals recursed)
REDEALS = ("extends: finding-friends\nplayers: 12\n"
           "deck: {packs: 8, big_jokers: 8, little_jokers: 8}\nhand_size: 35\nkitty_size: 12\n"
           "declare: {first_deal_redeal: true, redeal_limit: 1000, min_level_cards: 8, "
           "jokers: {allowed: false}}\n")


def test_the_redeal_rules_of_the_issue_are_refused_or_played():
    with _client() as client:
        r = client.post("/api/rules/check", json={"rules": REDEALS})
        assert r.status_code == 422 and r.json()["errors"][0]["key"] == "declare.redeal_limit"
        assert client.post("/api/rooms", json={"rules": REDEALS}).status_code == 422
        twenty = REDEALS.replace("redeal_limit: 1000", "redeal_limit: 20")
        assert client.post("/api/rules/check", json={"rules": twenty}).status_code == 200
        r = client.post("/api/rooms", json={"rules": twenty, "seed": 1})
        assert r.status_code == 200, r.text
        game = client.app.state.lobby.rooms[r.json()["room"]].table.game
        assert sum(type(e).__name__ == "Redealt" for e in game.events) == 20


def test_the_rules_worker_ends_with_a_killed_server(tmp_path):
    """A pool's worker waits on a queue whose other end it holds itself: a server killed
    (SIGKILL, or a SIGTERM that ran out of time) left its rules worker running for ever.
    The worker watches its parent and ends with it."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "server.py"
    script.write_text(
        "import asyncio, time\n"
        "from shengji.frontends.web import checker\n"
        "if __name__ == '__main__':\n"
        "    c = checker.Checker({'two-deck-80': ('two-deck-80', 4)})\n"
        "    asyncio.run(c.check('extends: two-deck-80\\n', None, '10.0.0.1'))\n"
        "    print(*checker._pool._processes, flush=True)\n"
        "    time.sleep(60)\n", encoding="utf-8")
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
    try:
        workers = [int(p) for p in server.stdout.readline().split()]
        assert workers
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 10
        while any(os.path.exists(f"/proc/{p}") and _alive(p) for p in workers):
            assert time.monotonic() < deadline, f"the worker {workers} outlived its server"
            time.sleep(0.2)
    finally:
        server.kill()


def _alive(pid: int) -> bool:
    """Not a zombie (an ended process its parent, here init, has not reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
