""""Try these rules": a short seeded bot match under the house rules and under their
base, side by side, as five figures per side (the page draws them as a chart).

The matches run in one worker process (the server's event loop and its GIL stay free
for the tables), one preview at a time. The work is bounded: each preview plays at most
``deals`` deals per side and stops at a deal boundary once ``time_cap`` seconds have
passed (the answer says so); one preview per address at a time; at most ``queue``
previews wait, and the next turn goes to the address served longest ago (fairqueue.py:
a newcomer takes the place of a flooding address's waiting preview). The same seed (and
rules) gives the same figures.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Any

from ...protocol import ProtocolError
from .checker import exit_with_parent
from .fairqueue import FairQueue

MAX_DEALS = 40
DEFAULT_DEALS = 12


@dataclass(frozen=True)
class PreviewLimits:
    #: seconds of play per preview (both sides together), checked between deals
    time_cap: float = 4.0
    #: previews waiting for the worker (the one playing not counted)
    queue: int = 8
    #: previews one address may have running or waiting
    per_address: int = 1


def figures(variant, seed, deals: int, deadline: float, bot: str = "heuristic") -> dict:
    """Play up to ``deals`` deals of a seeded match (bots at every seat); the figures."""
    from ...bots import make_bot
    from ...engine import Game
    from ...engine.runner import play

    game = Game(variant, seed)
    bots = [make_bot(bot, variant, seed=f"{seed}/{s}") for s in range(variant.players)]
    while game.deals_played < deals and not game.over and time.monotonic() < deadline:
        play(game, bots, stop_after_deals=1)
    played = max(game.deals_played, 1)
    scored: list[Any] = [e for e in game.events if type(e).__name__ == "DealScored"]
    failed = sum(1 for e in game.events if type(e).__name__ == "ThrowFailed")
    tricks = sum(1 for e in game.events if type(e).__name__ == "TrickWon")
    return {
        "deals": game.deals_played,
        "dealer_hold_rate": round(sum(e.next_side == "dealers" for e in scored) / played, 4),
        "attacker_points": round(sum(e.attacker_points for e in scored) / played, 2),
        "levels_per_deal": round(sum(e.rise for e in scored) / played, 3),
        "failed_throws_per_deal": round(failed / played, 3),
        "tricks_per_deal": round(tricks / played, 2),
    }


def run_preview(house_text: str, base_text: str, seed, deals: int, time_cap: float) -> dict:
    """In the worker: both sides from their resolved rules text, half the time each."""
    from ...variants.house import rules_variant

    start = time.monotonic()
    out: dict[str, Any] = {}
    for i, (side, text) in enumerate((("house", house_text), ("base", base_text))):
        deadline = start + time_cap * (i + 1) / 2
        out[side] = figures(rules_variant(text, trusted=True), seed, deals, deadline)
    out["seconds"] = round(time.monotonic() - start, 3)
    out["capped"] = min(out["house"]["deals"], out["base"]["deals"]) < deals
    return out


class Previews:
    """The worker process and the queue to it (turns shared fairly between addresses:
    fairqueue.py)."""

    def __init__(self, limits: PreviewLimits | None = None):
        self.limits = limits or PreviewLimits()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.queue = FairQueue(self.limits.queue, self.limits.per_address, "previews")

    def _worker(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the server has threads (the store's checkpointer), fork would copy them
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def run(self, address: str, prepare, seed, deals: int) -> dict:
        """``await prepare()`` → (house rules text, base rules text): the check of the
        house file, once this preview's turn has come (a refused request costs
        nothing)."""
        lim = self.limits
        async with self.queue.turn(address):  # one preview at a time
            house_text, base_text = await prepare()
            fut = asyncio.get_running_loop().run_in_executor(
                self._worker(), run_preview, house_text, base_text, seed, deals, lim.time_cap)
            try:
                # the worker stops itself at the cap; this bounds a stuck worker too
                return await asyncio.wait_for(fut, lim.time_cap + 30)
            except asyncio.TimeoutError:
                self.close()  # a new worker next time
                raise ProtocolError("busy", "the preview took too long and was "
                                            "stopped") from None
