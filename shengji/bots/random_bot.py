"""``random``: uniform over the listed legal actions; declares sometimes."""

from __future__ import annotations

from .base import Bot, register

#: chance of declaring when a declaration is offered during the deal / after the last card
DECLARE_P = 0.25
FINAL_DECLARE_P = 0.6


@register
class RandomBot(Bot):
    name = "random"

    def act(self, view, legal):
        rng = self.rng
        if legal.kind == "declare":
            # legal[0] is Pass; declare only sometimes, else dealing would be a bidding war
            final = view.to_deal == 0
            if len(legal) > 1 and rng.random() < (FINAL_DECLARE_P if final else DECLARE_P):
                return legal[rng.randrange(1, len(legal))]
            return legal[0]
        if legal.kind == "bury":
            from ..engine.actions import Bury

            cards = [k for k, n in enumerate(view.hand) for _ in range(n)]
            return Bury(view.seat, tuple(rng.sample(cards, legal.count)))
        if legal.kind == "call":
            from ..engine.actions import CallFriends

            # finding friends: ``count`` distinct calls among the single calls allowed
            picks = rng.sample(range(len(legal)), legal.count)
            return CallFriends(view.seat, tuple(legal[i].calls[0] for i in sorted(picks)))
        return legal[rng.randrange(len(legal))]

