""""Try these rules": a short seeded bot match under the house rules and under their
base, side by side, as five figures per side (the page draws them as a chart), and how
often each changed rule came into play in it.

A rule that never comes into play leaves the two sides alike: heuristic bots never fail
a throw and bury no points, so a kitty or failed-throw rule never showed. When the
changes include such a rule, both sides are played by bold bots (random, leading their
largest plays), whose throws fail and whose last tricks are often pairs or more; for
every changed setting it can count (:data:`RULE_USES`), the answer says how often it
applied, and "did not come into play in this sample" at zero. A kitty rule counts the
deals whose multiplier it changed: the same last trick under the other side's rules.

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


#: what a match's events tell of the rules at work: a count's name → the sentence of how
#: often, "{n}" the count
USES = {
    "kitty_changed": "the kitty rules changed its multiplier {n}, of {kitty_won} deals in which "
                     "the attackers won the kitty",
    "failed_throws": "a throw failed {n}",
    "nobody_declared": "nobody declared {n}",
    "deals": "it decided each of the {n} deals scored",
}
#: a changed setting (its key, or a group of keys ending in ".") → the count that shows
#: it at work
RULE_USES = (
    ("play.kitty", "kitty_changed"),
    ("play.kitty_cap", "kitty_changed"),
    ("play.kitty_table", "kitty_changed"),
    ("penalties.failed_throw", "failed_throws"),
    ("play.failed_throw", "failed_throws"),
    ("declare.when_nobody", "nobody_declared"),
    ("declare.first_deal_redeal", "nobody_declared"),
    ("declare.redeal_limit", "nobody_declared"),
    ("declare.nobody_first_dealer", "nobody_declared"),
    ("scoring.", "deals"),
)
#: counts the heuristic bots (nearly) never make: with a rule they show changed, the
#: preview seats bold bots (:func:`_bold_bot`), whose throws fail and whose last tricks
#: are often pairs or more
STEERED = {"kitty_changed", "failed_throws"}
#: who played the preview, in words
BOT_WORDS = {
    "heuristic": "Played by the heuristic bots.",
    "bold": "Played by bold bots, which lead their largest plays, so that throws fail and "
            "the kitty is won with pairs and tractors: the changed kitty or throw rules "
            "come into play (the heuristic bots never fail a throw and bury no points).",
}


def _bold_bot():
    """The bots that bring kitty and throw rules into play: random, except that every
    lead is one of the largest listed (a throw of a whole suit, a tractor, a pair), so
    throws fail and the last trick, which wins the kitty, is often more than a single.
    (Its own ``act``: the runner asks it, never its inherited ``play_index``.)"""
    from ...bots.random_bot import RandomBot, randbelow

    class BoldBot(RandomBot):
        name = "bold"

        def act(self, view, legal):
            if legal.kind != "lead":
                return super().act(view, legal)
            most = max(len(a.cards) for a in legal)
            big = [a for a in legal if len(a.cards) == most]
            return big[randbelow(self.rng, len(big))]

    return BoldBot


def use_of(key: str) -> str | None:
    """The count that shows setting ``key`` at work, or None (not counted)."""
    return next((use for name, use in RULE_USES
                 if key == name or (name.endswith(".") and key.startswith(name))), None)


def figures(variant, seed, deals: int, deadline: float, bot: str = "heuristic",
            other=None) -> dict:
    """Play up to ``deals`` deals of a seeded match (bots at every seat); the figures and
    the counts of :data:`USES`. ``other``: the variant the match is compared with (the
    base for the house side); a deal's kitty multiplier is worked out under it too."""
    from ...bots import make_bot
    from ...engine import Game
    from ...engine.runner import play

    game = Game(variant, seed)
    if bot == "bold":
        bots = [_bold_bot()(variant, f"{seed}/{s}") for s in range(variant.players)]
    else:
        bots = [make_bot(bot, variant, seed=f"{seed}/{s}") for s in range(variant.players)]
    while game.deals_played < deals and not game.over and time.monotonic() < deadline:
        play(game, bots, stop_after_deals=1)
    played = max(game.deals_played, 1)
    kinds: dict[str, list[Any]] = {}
    for e in game.events:
        kinds.setdefault(type(e).__name__, []).append(e)
    scored = kinds.get("DealScored", [])
    failed = len(kinds.get("ThrowFailed", []))
    tricks = len(kinds.get("TrickWon", []))
    return {
        "deals": game.deals_played,
        "dealer_hold_rate": round(sum(e.next_side == "dealers" for e in scored) / played, 4),
        "attacker_points": round(sum(e.attacker_points for e in scored) / played, 2),
        "levels_per_deal": round(sum(e.rise for e in scored) / played, 3),
        "failed_throws_per_deal": round(failed / played, 3),
        "tricks_per_deal": round(tricks / played, 2),
        # how often rules came into play (USES)
        "kitty_won": sum(1 for e in scored if e.multiplier),
        "kitty_changed": kitty_changed(game.events, variant, other or variant),
        "failed_throws": failed,
        "nobody_declared": len(kinds.get("Redealt", [])) + sum(
            1 for e in kinds.get("TrumpSet", []) if e.declarer is None),
    }


def kitty_changed(events, variant, other) -> int:
    """The deals in which the attackers won the kitty and ``other``'s rules would have
    multiplied it differently: the same last trick (the winning play and the lead) under
    the deal's level and trump."""
    changed = 0
    level = trump = None
    plays: dict[int, tuple] = {}
    last: tuple = ((), ())
    for e in events:
        name = type(e).__name__
        if name == "TrumpSet":
            level, trump = e.level, e.trump
        elif name == "Played":
            if e.lead:
                plays = {}
            plays[e.seat] = e.cards
            if e.lead:
                lead = e.cards
        elif name == "TrickWon":
            last = (plays.get(e.seat, ()), lead)
        elif name == "DealScored" and e.multiplier and last[0]:
            ctx = other.context(level, trump)
            if other.kitty_multiplier(ctx, *last) != e.multiplier:
                changed += 1
    return changed


def applied(changed: list[str], house: dict, base: dict) -> list[dict]:
    """Per changed setting: the count that shows it at work on each side, and in words;
    a setting no count shows is listed with ``use`` None."""
    out = []
    for key in changed:
        use = use_of(key)
        if use is None:
            out.append({"key": key, "use": None, "said": "how often it applies is not "
                                                         "counted: compare the bars"})
            continue
        n, m = house[use], base[use]
        times = f"{n} time{'' if n == 1 else 's'}" if use != "deals" else str(n)
        said = USES[use].format(n=times, kitty_won=house["kitty_won"])
        if n == 0:
            said = "did not come into play in this sample"
            if use == "kitty_changed":
                said += (f": the attackers won the kitty in {house['kitty_won']} deals, each "
                         "time multiplied as the base rules would")
        elif use not in ("deals", "kitty_changed"):
            said += f" (base rules: {m})"
        out.append({"key": key, "use": use, "house": n, "base": m, "said": said})
    return out


def run_preview(house_text: str, base_text: str, seed, deals: int, time_cap: float) -> dict:
    """In the worker: both sides from their resolved rules text, half the time each, by
    the bots that bring the changed rules into play."""
    from ...variants.house import differences, rules_variant

    start = time.monotonic()
    house_v, base_v = rules_variant(house_text, trusted=True), rules_variant(base_text,
                                                                             trusted=True)
    changed = list(differences(base_v.settings, house_v.settings))
    bot = "bold" if any(use_of(k) in STEERED for k in changed) else "heuristic"
    out: dict[str, Any] = {"bots": bot, "bots_said": BOT_WORDS[bot]}
    for i, (side, variant, other) in enumerate((("house", house_v, base_v),
                                                 ("base", base_v, house_v))):
        deadline = start + time_cap * (i + 1) / 2
        out[side] = figures(variant, seed, deals, deadline, bot, other)
    out["applied"] = applied(changed, out["house"], out["base"])
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
