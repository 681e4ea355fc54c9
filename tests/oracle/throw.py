"""Throw validation (§6): look in every other holding for a higher structure of each
component's shape."""

from __future__ import annotations

from shengji.cards import SUITS

from .follow import in_suit
from .structures import key, structure_counts, structures


def _sio_order(k: int):
    """shengji.io's order of equal cards (Card::as_char, types.rs): ♠ ♥ ♦ ♣, then rank."""
    if k >= 52:
        return (4, k)
    return ("SHDC".index(SUITS[k // 13]), k % 13)


def beats(ctx, holding, comp, suit) -> bool:
    """Does ``holding`` (its cards of the throw's suit only) hold a structure of the
    component's shape with a strictly higher top?"""
    w, ln, kinds = comp
    top = ctx.strengths[kinds[0]]
    mine = in_suit(ctx, holding, suit)
    return any(ctx.strengths[st[2][0]] > top for st in structures(ctx, mine, w, ln, suit=suit))


def check_throw(ctx, lead, others):
    suit, comps = ctx.lead_components(lead)
    if len(comps) == 1:
        return True, None, [], None
    if ctx.rules.failed_throw == "first_blocker":
        # §6 first_blocker: the first holding that beats anything; of what it beats, the
        # part of the fewest cards, then the lowest bottom card, then the narrower
        for j, h in enumerate(others):
            mine = [c for c in comps if beats(ctx, h, c, suit)]
            if mine:
                forced = min(mine, key=lambda c: (c[0] * c[1], ctx.strengths[c[2][-1]],
                                                  c[0], _sio_order(c[2][-1])))
                return False, structure_counts(forced), [structure_counts(forced)], j
        return True, None, [], None
    beaten = [c for c in comps if any(beats(ctx, h, c, suit) for h in others)]
    if not beaten:
        return True, None, [], None
    # lowest top strength first; ties: smaller shape, then lower position (§6);
    # fewest_cards: the fewest cards first, then the lowest top, narrower, lower position
    if ctx.rules.failed_throw == "fewest_cards":
        beaten.sort(key=lambda c: (c[0] * c[1], ctx.strengths[c[2][0]], c[0], key(ctx, c)))
    else:
        beaten.sort(key=lambda c: (ctx.strengths[c[2][0]], c[0] * c[1], c[0], key(ctx, c)))
    if ctx.rules.failed_throw == "next_player_chooses":
        options = []
        for c in beaten:  # the lowest beaten component of each beaten shape
            if all(o[:2] != c[:2] for o in options):
                options.append(c)
    else:
        options = beaten[:1]
    forced = options[0]
    blocker = next(j for j, h in enumerate(others) if beats(ctx, h, forced, suit))
    return (
        False,
        structure_counts(forced),
        [structure_counts(c) for c in options],
        blocker,
    )
