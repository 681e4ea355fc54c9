"""``random``: uniform over the listed legal actions; declares sometimes."""

from __future__ import annotations

import random
from operator import mul
from typing import TYPE_CHECKING, cast

from ..cards import NUM_KINDS
from ..engine.actions import Bury, CallFriends
from .base import Bot, register

if TYPE_CHECKING:
    from ..engine import Action, Legal, SeatView

#: chance of declaring when a declaration is offered during the deal / after the last card
DECLARE_P = 0.25
FINAL_DECLARE_P = 0.6


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n >= 1: the same draws (CPython's
    ``_randbelow_with_getrandbits``) without its argument handling; tests hold the two
    equal, so a seed keeps its game whatever Python's own randrange becomes."""
    k = n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


@register
class RandomBot(Bot):
    name = "random"

    def play_index(self, n: int) -> int:
        """Which of ``n`` listed plays (a lead or a follow) to make: uniform. ``act``
        makes its plays with it, so the runner may ask it directly (Bot.play_index)."""
        # randbelow(self.rng, n), inlined: the runner asks this for every play
        k = n.bit_length()
        getrandbits = self.rng.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def declare_index(self, to_deal: int, n: int) -> int:
        """Which of ``n`` listed declaration actions to take (0: Pass). ``act`` answers
        declaration listings with it, so the runner may ask it directly."""
        # declare only sometimes, else dealing would be a bidding war
        rng = self.rng
        if n > 1 and rng.random() < (FINAL_DECLARE_P if to_deal == 0 else DECLARE_P):
            return rng.randrange(1, n)
        return 0

    def act(self, view: SeatView, legal: Legal) -> Action:
        kind = legal.kind
        if kind == "follow" or kind == "lead":
            return legal[randbelow(self.rng, len(legal))]
        if kind == "declare":
            return legal[self.declare_index(view.to_deal, len(legal))]
        rng = self.rng
        if kind == "bury":
            # the hand's cards by id, each as often as held (the population sampled):
            # joined as bytes, the cheapest way to repeat 54 kinds
            cards = list(b"".join(map(mul, _KIND_BYTES, view.hand)))
            if legal.limit is not None:  # the variant's bury settings: keep to them
                rng.shuffle(cards)
                picked = list(legal.burial(cards))
            else:
                picked = rng.sample(cards, legal.count)
            picked.sort(reverse=True)  # ids of the hand, descending: what Bury keeps
            return Bury.trusted(view.seat, tuple(picked))
        if kind == "call":
            # finding friends: ``count`` distinct calls among the single calls allowed
            picks = rng.sample(range(len(legal)), legal.count)
            # (a call listing lists single CallFriends)
            return CallFriends(view.seat, tuple(cast(CallFriends, legal[i]).calls[0]
                                                for i in sorted(picks)))
        return legal[rng.randrange(len(legal))]


_KIND_BYTES = [bytes((k,)) for k in range(NUM_KINDS)]
