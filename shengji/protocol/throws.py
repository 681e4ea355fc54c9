"""Why a throw failed, in cards: which part of it another seat beats, and with what.

The engine's ``ThrowFailed`` event says who threw, what, the forced plays and the
penalty. A player also wants to see the reason, as at a real table where the seat that
can beat a part of the throw shows those cards (seed 000, 甩牌: a throw stands only if
no other seat can beat any of its parts in the led suit). The table computes it when the
throw fails — the other hands are exactly as they were — and adds it to the event
(``blocker``, ``beaten``, ``beaten_by``); docs/protocol.md lists the keys.
"""

from __future__ import annotations

from ..cards import NUM_KINDS
from ..engine.actions import cards_text


def _beater(ctx, comp, counts) -> tuple | None:
    """The weakest structure of ``counts`` of the component's suit and shape that beats
    it, or None."""
    cards = comp.cards.cards()
    suit = ctx.effective_suit(cards[0])
    width, length = comp.width, comp.length
    kinds = sorted((k for k in range(NUM_KINDS)
                    if counts[k] >= width and ctx.effective_suit(k) == suit), key=ctx.strength)
    for i in range(len(kinds) - length + 1):
        window = kinds[i:i + length]
        cand = tuple(k for k in window for _ in range(width))
        if length > 1 and not ctx.is_tractor(cand):
            continue
        if ctx.trick_winner([cards, list(cand)]) == 1:
            return cand
    return None


def explain_failed_throw(game, event) -> dict:
    """``{"blocker": seat, "beaten": cards, "beaten_by": cards}`` for a ``ThrowFailed``
    event of the game's current trick, computed before any other seat has played; {} if
    no part is beaten (a hook that fails throws for other reasons)."""
    ctx = game.ctx
    comps = list(ctx.decompose(list(event.attempted)))
    forced = tuple(sorted(event.options[0])) if event.options else ()
    # the part the thrower is forced to play first, then the others, weakest first
    comps.sort(key=lambda c: (tuple(sorted(c.cards.cards())) != forced,
                              ctx.strength(c.cards.cards()[-1])))
    players = game.players
    for i in range(1, players):
        seat = (event.seat + i) % players
        for comp in comps:
            beat = _beater(ctx, comp, game.hands[seat])
            if beat is not None:
                return {"blocker": seat, "beaten": cards_text(sorted(comp.cards.cards(),
                                                                    reverse=True)),
                        "beaten_by": cards_text(sorted(beat, reverse=True))}
    return {}
