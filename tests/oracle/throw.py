"""Throw validation (§6): look in every other holding for a higher structure of each
component's shape."""

from __future__ import annotations

from .follow import in_suit
from .structures import key, structure_counts, structures


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
    beaten = [c for c in comps if any(beats(ctx, h, c, suit) for h in others)]
    if not beaten:
        return True, None, [], None
    # per beaten shape, the throw's smallest component of that shape
    candidates = {}
    for c in comps:
        shape = c[:2]
        if any(b[:2] == shape for b in beaten):
            if shape not in candidates or key(ctx, c) < key(ctx, candidates[shape]):
                candidates[shape] = c
    order = sorted(candidates.values(), key=lambda c: (c[0] * c[1], c[0]))
    forced = order[0]
    if ctx.rules.failed_throw == "next_player_chooses":
        options = order
    else:
        options = [forced]
    blocker = next(
        j
        for j, h in enumerate(others)
        if any(beats(ctx, h, c, suit) for c in comps if c[:2] == forced[:2])
    )
    return (
        False,
        structure_counts(forced),
        [structure_counts(c) for c in options],
        blocker,
    )
