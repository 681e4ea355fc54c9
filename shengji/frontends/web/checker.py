"""House-rules checks in a worker process, with a CPU limit and a cost per address.

A check parses YAML, walks the schema and loads a variant: about 0.1 s of CPU for a
house file, and before the bounds of issue 34 a hostile 32 KB file cost a second. Run in
the server's process that CPU is taken from every table (the GIL, one core). Here:

- checks run in one worker process (spawned on first use, at a lower priority: the
  tables' process wins the CPU when both want it), one at a time, turns shared fairly
  between addresses (fairqueue.py);
- each check may use ``cpu_limit`` seconds of CPU (a profiling timer in the worker
  stops it: the answer is a refusal naming the limit); a worker that does not answer
  within ``wall_limit`` seconds is killed and replaced;
- each address has a budget of CPU seconds (``cpu_rate`` a second, up to ``cpu_burst``):
  a check is admitted while the budget is above zero, and what it cost (measured in
  the worker) is taken from it afterwards. So the rate matches the cost: a cheap check
  costs little, a large file costs its share.

The answer is plain data (``Checked``): the variant itself is rebuilt from the resolved
text by whoever needs it (a room).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...protocol import ProtocolError
from .fairqueue import FairQueue
from .limits import Bucket, address_key

log = logging.getLogger("shengji.web")


@dataclass(frozen=True)
class CheckLimits:
    #: CPU seconds one check may use (a house file within the bounds takes 0.02-0.3)
    cpu_limit: float = 1.0
    #: seconds to wait for the worker before it is killed (a stuck worker; the first
    #: check also waits for the worker to start)
    wall_limit: float = 60.0
    #: CPU seconds of checking per address: this many a second, up to a burst
    cpu_rate: float = 0.1
    cpu_burst: float = 3.0
    #: checks waiting for the worker; checks one address may have queued or running
    queue: int = 32
    per_address: int = 2
    #: seconds an address over its budget waits for its refusal (429, Retry-After)
    refusal_pause: float = 1.0
    #: addresses whose budgets are remembered (the oldest are forgotten first)
    tracked: int = 10_000


@dataclass
class Checked:
    """Checked house rules as data (shengji.variants.house.HouseRules without the
    Variant)."""
    base: str
    players: int
    text: str
    fingerprint: str
    house: str
    name: str | None
    settings: dict
    base_settings: dict
    warnings: list = field(default_factory=list)
    changes: list = field(default_factory=list)
    #: the Variant, once the server process has rebuilt it from ``text`` (a room)
    variant: object = None


class _OverLimit(Exception):
    pass


def _stop(signum, frame):
    raise _OverLimit()


def exit_with_parent(parent: int) -> None:
    """In a worker process: end when the server that spawned it ends, however it ends
    (a pool's worker waits on a queue whose other end it holds itself: killed, the server
    would leave it behind for ever)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="shengji-parent-watch", daemon=True).start()


def _start_worker(parent: int) -> None:
    """In the worker: a lower priority than the server's tables, the timer's handler,
    and an end with the server."""
    try:
        os.nice(10)
    except (AttributeError, OSError):  # not on this platform
        pass
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGPROF, _stop)
    exit_with_parent(parent)


#: in the worker: (ref, players) -> loaded base Variant
_BASES: dict = {}


class _Bases(Mapping):
    """The bases a house file may extend, each loaded when first looked up (a check
    needs one of them)."""

    def __init__(self, refs: dict):
        self.refs = refs   # name -> (the reference create_app loaded it by, its size)

    def __getitem__(self, name):
        key = self.refs[name]
        if key not in _BASES:
            from ...variants import load_variant

            _BASES[key] = load_variant(key[0], players=key[1])
        return _BASES[key]

    def __iter__(self):
        return iter(self.refs)

    def __len__(self) -> int:
        return len(self.refs)


def check_in_worker(text: str, bases: dict, players: int | None,
                    cpu_limit: float) -> tuple:
    """In the worker: check_house under a CPU-time limit → (Checked or the
    HouseRulesError, CPU seconds). ``bases``: name -> (the reference create_app loaded
    it by, its table size)."""
    from ...variants import Variant, load_variant
    from ...variants.house import HouseRulesError, check_house

    loaded = _Bases(bases)
    start = time.process_time()
    timed = hasattr(signal, "setitimer")
    if timed:
        signal.setitimer(signal.ITIMER_PROF, cpu_limit)
    try:
        house = check_house(text, loaded, players)
        base = load_variant(loaded[house.base], players=house.players)
    except HouseRulesError as e:
        return e, time.process_time() - start
    except _OverLimit:
        return HouseRulesError([{"key": "", "message": f"these rules took over {cpu_limit:g} "
                                 "s of CPU to check: make them smaller"}]), cpu_limit
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_PROF, 0)
    assert isinstance(house.variant, Variant)  # (HouseRules types it as an object)
    return Checked(house.base, house.players, house.text, house.fingerprint, house.house,
                   house.name, house.variant.settings, base.settings, house.warnings,
                   house.changes), time.process_time() - start


#: the worker process: one per server process, shared by its apps (spawned on first use)
_pool: concurrent.futures.ProcessPoolExecutor | None = None


def _worker() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # spawn: the server has threads (the store's checkpointer), fork would copy them
        _pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(os.getpid(),))
        atexit.unregister(_close_worker)  # (once, however often the worker is replaced)
        atexit.register(_close_worker)
    return _pool


def _close_worker() -> None:
    """At exit, while the modules the pool's clean-up uses are still there: a check
    running is not waited for."""
    _kill_worker()


def _kill_worker() -> None:
    """A worker that does not answer: ended, a new one next time."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)


class Checker:
    """The queue to the worker and the per-address budgets."""

    def __init__(self, bases: dict, limits: CheckLimits | None = None):
        self.bases = bases           # name -> (reference, players): what the worker loads
        self.limits = limits or CheckLimits()
        self.queue = FairQueue(self.limits.queue, self.limits.per_address, "rules checks")
        self._budgets: OrderedDict[str, Bucket] = OrderedDict()

    def _budget(self, address: str) -> Bucket:
        key = address_key(address)
        b = self._budgets.get(key)
        if b is None:
            if len(self._budgets) >= self.limits.tracked:
                self._budgets.popitem(last=False)
            b = self._budgets[key] = Bucket(self.limits.cpu_rate, self.limits.cpu_burst)
        self._budgets.move_to_end(key)
        return b

    def admit(self, address: str) -> None:
        """Refuse an address over its budget or its places (``rate_limited``) before
        anything of its request is read."""
        if not self._budget(address).in_credit() or self.queue.full_for(address):
            raise ProtocolError("rate_limited", "rules are checked too often from your "
                                                "address; wait a little")

    async def check(self, text: str, players: int | None, address: str) -> Checked:
        """Checked rules, or HouseRulesError / ProtocolError (``rate_limited``,
        ``busy``)."""
        budget = self._budget(address)
        self.admit(address)
        lim = self.limits
        async with self.queue.turn(address):
            fut = asyncio.get_running_loop().run_in_executor(
                _worker(), check_in_worker, text, self.bases, players, lim.cpu_limit)
            try:
                got, cpu = await asyncio.wait_for(fut, lim.wall_limit)
            except asyncio.TimeoutError:
                _kill_worker()
                budget.spend(lim.cpu_limit)
                raise ProtocolError("busy", "the rules check took too long and was "
                                            "stopped") from None
            except concurrent.futures.BrokenExecutor:
                _kill_worker()
                raise ProtocolError("busy", "the rules checker stopped; try again") from None
            except Exception as e:  # noqa: BLE001  # (the time limit met the check's end)
                log.warning("rules check from %s: %s", address, type(e).__name__)
                raise ProtocolError("busy", "the rules check failed; try again") from None
        budget.spend(cpu)
        if isinstance(got, Exception):
            raise got
        return got
