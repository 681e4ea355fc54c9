"""Rainbows (semantics §3–§8, shengji.io CompoundFormats): a lead of one rank from all
four effective suits, ``rules.rainbow_min`` cards or more; several ranks so led are a
rainbow throw. Written from docs/semantics.md: every rank total is counted by brute force.
"""

from __future__ import annotations

from itertools import product

from .structures import total


def groups(ctx, counts):
    """[(rank, cards, counts of that rank)] best first (more cards, then the higher rank),
    or None when ``counts`` is not a rainbow lead (one suit, jokers, a rank short of
    rainbow_min cards or of four suits, or no rainbows in the rules)."""
    m = ctx.rules.rainbow_min
    if not m or counts[52] or counts[53] or not total(counts):
        return None
    if len({ctx.suit[k] for k, c in enumerate(counts) if c}) < 2:
        return None
    out = []
    for rank in range(13):
        kinds = [s * 13 + rank for s in range(4)]
        n = sum(counts[k] for k in kinds)
        if not n:
            continue
        if n < m or len({ctx.suit[k] for k in kinds if counts[k]}) < 4:
            return None
        out.append((rank, n, tuple(c if k in kinds else 0 for k, c in enumerate(counts))))
    return sorted(out, key=lambda g: (g[1], g[0]), reverse=True)


def rank_totals(counts):
    return [sum(counts[s * 13 + r] for s in range(4)) for r in range(13)]


def assignable(sizes, counts) -> bool:
    """Can every unit (a size) get that many cards of one rank (units may share a rank)?
    Every assignment of ranks is tried."""
    t = rank_totals(counts)
    for ranks in product(range(13), repeat=len(sizes)):
        need = [0] * 13
        for r, c in zip(ranks, sizes, strict=True):
            need[r] += c
        if all(need[r] <= t[r] for r in range(13)):
            return True
    return False


def check_follow(ctx, lead, hand, play):
    sizes = [n for _, n, _ in groups(ctx, lead)]
    if assignable(sizes, play) or not assignable(sizes, hand):
        return True, "ok"
    return False, "must_follow_shape"


def beats(holding, rank, n) -> bool:
    t = rank_totals(holding)
    return any(t[r] >= n for r in range(rank + 1, 13))


def check_throw(ctx, lead, others):
    units = groups(ctx, lead)
    if len(units) == 1:
        return True, None, [], None
    policy = ctx.rules.failed_throw
    if policy == "first_blocker":
        for j, h in enumerate(others):
            mine = [u for u in units if beats(h, u[0], u[1])]
            if mine:
                forced = min(mine, key=lambda u: u[0])  # the lowest rank (one unit per rank)
                return False, forced[2], [forced[2]], j
        return True, None, [], None
    order = (lambda u: (u[1], u[0])) if policy == "fewest_cards" else (lambda u: (u[0], u[1]))
    beaten = sorted((u for u in units if any(beats(h, u[0], u[1]) for h in others)), key=order)
    if not beaten:
        return True, None, [], None
    if policy == "next_player_chooses":
        options = []
        for u in beaten:  # the lowest beaten unit of each size
            if all(o[1] != u[1] for o in options):
                options.append(u)
    else:
        options = beaten[:1]
    blocker = next(j for j, h in enumerate(others) if beats(h, options[0][0], options[0][1]))
    return False, options[0][2], [o[2] for o in options], blocker


def value(sizes, play):
    """§7: for each unit from the largest, the highest rank with that many cards left; the
    ranks high to low, or None if some unit gets none."""
    t = rank_totals(play)
    got = []
    for c in sizes:
        ranks = [r for r in range(13) if t[r] >= c]
        if not ranks:
            return None
        t[ranks[-1]] -= c
        got.append(ranks[-1])
    return sorted(got, reverse=True)


def trick_winner(ctx, plays):
    sizes = [n for _, n, _ in groups(ctx, plays[0])]
    win, best = 0, value(sizes, plays[0])
    for i, p in enumerate(plays[1:], 1):
        v = value(sizes, p)
        if v is not None and v > best:
            win, best = i, v
    return win
