"""Short garbage-collector pauses for a long-running server (``shengji serve``).

CPython's collector stops the whole process. A young collection looks at the objects
made since the last one (a millisecond or so); a *full* collection looks at every
object, and a server with hundreds of tables holds hundreds of thousands of them (each
game keeps its actions and events): at 300 tables one full collection took 60-150 ms,
during which no table moved — the tail of the action latency (benchmarks/load_server.py).
The collector starts a full collection each time the objects that survived young
collections reach a quarter of the old ones, so the pauses come every few seconds and
grow with the heap.

``GcPauses`` keeps every pause as short as a young collection's:

- at start-up, and at the end of every collection of the middle generation, everything
  that survived is frozen (``gc.freeze()``, from a ``gc.callbacks`` hook): moved to the
  permanent generation, which collections skip. Objects that survived two young
  collections are the game's actions and events, the rooms, the bots' caches: they are
  not looked at again. Freezing changes no reference count: a frozen object that is no
  longer used is freed at once as usual; only a *cycle* of frozen objects that dies
  waits for the next reclaim.
- so the oldest generation stays empty and the automatic full collection never runs
  (its threshold is set out of reach as well).
- a **reclaim** (``gc.unfreeze()``, one full collection, freeze again) frees the dead
  cycles among frozen objects, once every ``reclaim_interval`` seconds (ten minutes):
  the one pause that grows with the heap, six times an hour instead of every few
  seconds. What dies in cycles after being frozen is little (a closed connection's
  protocol objects, tens of them; games and rooms are freed by reference counts), so
  ten minutes of it is a small, bounded amount of memory.

``stop()`` brings the default collector back, with nothing frozen.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("shengji.web")

#: gc thresholds while the policy runs: the young generations as CPython's defaults; the
#: oldest is never collected automatically (survivors of the middle one are frozen)
THRESHOLDS = (700, 10, 1 << 30)


class GcPauses:
    def __init__(self, reclaim_interval: float = 600.0):
        self.reclaim_interval = reclaim_interval
        self.saved: tuple[int, int, int] | None = None      # the thresholds to restore
        self.reclaims = 0
        self.longest_reclaim = 0.0
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Freeze what start-up made (modules, variants, the app) and take over the oldest
        generation; reclaims run on the running event loop, if there is one."""
        if self.saved is not None:
            return
        self.saved = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*THRESHOLDS)
        gc.callbacks.append(self._collected)
        try:
            self._task = asyncio.get_running_loop().create_task(self._run())
        except RuntimeError:
            self._task = None  # no loop: the caller calls reclaim() itself

    def stop(self) -> None:
        """The default collector again (nothing stays frozen)."""
        if self.saved is None:
            return
        if self._task is not None:
            self._task.cancel()
            self._task = None
        gc.callbacks.remove(self._collected)
        gc.set_threshold(*self.saved)
        self.saved = None
        gc.unfreeze()

    @staticmethod
    def _collected(phase: str, info: dict) -> None:
        # at the end of a collection of the middle generation the young ones are empty
        # and its survivors have just been promoted: freezing them is a list splice
        if phase == "stop" and info["generation"] >= 1:
            gc.freeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.reclaim_interval)
            self.reclaim()

    def reclaim(self) -> int:
        """One full collection of everything, frozen or not; then freeze the survivors.
        Returns the number of objects freed."""
        began = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        took = time.perf_counter() - began
        self.reclaims += 1
        self.longest_reclaim = max(self.longest_reclaim, took)
        log.info("gc reclaim: %d objects freed in %.0f ms", freed, 1000 * took)
        return freed
