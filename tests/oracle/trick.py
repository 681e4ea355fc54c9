"""Trick winner (§7): every way to cut each play into the lead's shapes is tried and
the best value kept."""

from __future__ import annotations

from shengji.cards import rank_of

from .order import TRUMP
from .structures import key, structure_counts, structures, sub, total


def match_value(ctx, play, shapes, suit):
    """Best value vector of ``play`` cut into ``shapes`` (all cards in ``suit``), or None
    when it cannot be cut so. Equal shapes take their structures in descending order, so
    each group is enumerated as non-increasing keys (no permutations)."""
    if any(c and ctx.suit[k] != suit for k, c in enumerate(play)):
        return None
    best = None

    def rec(i, rest, prev_key, tops):
        nonlocal best
        if i == len(shapes):
            if total(rest) == 0 and (best is None or tops > best):
                best = tops
            return
        w, ln = shapes[i]
        same_as_prev = i > 0 and shapes[i - 1] == shapes[i]
        for st in structures(ctx, rest, w, ln, suit=suit):
            k = key(ctx, st)
            if same_as_prev and k > prev_key:
                continue
            rec(i + 1, sub(rest, structure_counts(st)), k, tops + (ctx.strengths[st[2][0]],))

    rec(0, play, None, ())
    return best


def _sio_tie(k):
    """shengji.io's card order among cards of equal strength (Card::as_char): suits
    ♠ ♥ ♦ ♣, then the rank; jokers by id."""
    if k >= 52:
        return 100 + k
    return {0: 0, 1: 1, 2: 3, 3: 2}[k // 13] * 13 + k % 13


def all_split(ctx, play, shapes, cur):
    """ruff_compare ``all`` (shengji.io ThrowEvaluationPolicy::All, compute_winner's
    ``mm.find``): among the splits of the trump ``play`` into ``shapes`` that beat ``cur``
    unit by unit (None: a plain lead, which every split beats), the values of the one
    shengji.io's matcher lists first, or None. Its order: shapes by (width, length)
    ascending; for a shape of tuples, the cards listed from the lowest, highest list
    first; for tractors, each tractor's members from the lowest, highest tractor first."""
    found = []

    def rec(i, rest, chosen):
        if i == len(shapes):
            if total(rest) == 0:
                found.append(list(chosen))
            return
        w, ln = shapes[i]
        for st in structures(ctx, rest, w, ln, suit=TRUMP):
            chosen.append(st)
            rec(i + 1, sub(rest, structure_counts(st)), chosen)
            chosen.pop()

    rec(0, play, [])

    def order(k):
        return (ctx.strengths[k], _sio_tie(k))

    best = None
    for split in found:
        vals = []
        i = 0
        while i < len(shapes):  # equal shapes: their values highest first
            j = i
            while j < len(shapes) and shapes[j] == shapes[i]:
                j += 1
            vals += sorted((ctx.strengths[st[2][0]] for st in split[i:j]), reverse=True)
            i = j
        if cur is not None and not all(a > b for a, b in zip(vals, cur, strict=True)):
            continue
        rank = []
        for shape in sorted(set(shapes)):
            group = [st for st, sh in zip(split, shapes, strict=True) if sh == shape]
            if shape[1] == 1:
                rank += sorted(order(st[2][0]) for st in group)
            else:
                for members in sorted((tuple(order(k) for k in reversed(st[2])) for st in group),
                                      reverse=True):
                    rank += members
        if best is None or rank > best[0]:
            best = (rank, tuple(vals))
    return None if best is None else best[1]


def trick_winner(ctx, plays):
    suit, comps = ctx.lead_components(plays[0])
    n = total(plays[0])
    for p in plays[1:]:
        if total(p) != n:
            ctx.hand_error(f"plays of different sizes: {total(p)} cards against a lead of {n}")
    shapes = [c[:2] for c in comps]
    throw = len(comps) > 1

    def highest(p):
        return max(ctx.strengths[k] for k, c in enumerate(p) if c)

    def own_rank(p):
        """cover_winner: the play's own largest component, by cards, then top strength."""
        _, own = ctx.lead_components(p)
        return max((w * ln, ctx.strengths[kinds[0]]) for w, ln, kinds in own)

    def covers(p, winner):
        """cover_winner (Ran's table): p holds the winner's own shapes and ranks higher."""
        _, own = ctx.lead_components(winner)
        if match_value(ctx, p, [c[:2] for c in own], TRUMP) is None:
            return False
        return own_rank(p) > own_rank(winner)

    def ruff_beats(new_val, new_high, cur_val, cur_high):
        policy = ctx.rules.ruff_compare
        if policy == "strongest":  # the first (largest) component decides
            return new_val[0] > cur_val[0]
        if policy == "all_components":
            return all(a > b for a, b in zip(new_val, cur_val, strict=False))
        if policy == "unit_length":  # shengji.io TrickUnitLength: ties fall through
            skip = len(shapes) > 1 and shapes[0][0] * shapes[0][1] > 1
            for (w, ln), a, b in zip(shapes, new_val, cur_val, strict=False):
                if skip and w * ln == 1:
                    continue
                if a != b:
                    return a > b
            return False
        return new_high > cur_high  # highest_card

    from .follow import bomb_kind

    def bomb_beats(a, b):  # §7: a trump bomb over a plain one, else the higher rank
        if ctx.suit[a] != ctx.suit[b] and TRUMP in (ctx.suit[a], ctx.suit[b]):
            return ctx.suit[a] == TRUMP
        if ctx.suit[a] != ctx.suit[b]:  # two plain suits: by the printed rank, 2 < ... < A
            return rank_of(a) > rank_of(b)
        return ctx.strengths[a] > ctx.strengths[b]

    win, win_ruff = 0, False
    win_bomb = bomb_kind(ctx, plays[0])
    win_val = match_value(ctx, plays[0], shapes, suit)
    win_high = highest(plays[0])
    for i in range(1, len(plays)):
        p = plays[i]
        b = bomb_kind(ctx, p)
        if b is not None:
            if win_bomb is None or bomb_beats(b, win_bomb):
                win, win_bomb = i, b
            continue
        if win_bomb is not None:
            continue
        if ctx.rules.ruff_compare == "all" and suit != TRUMP:
            ruff = all_split(ctx, p, shapes, win_val if win_ruff else None)
            if ruff is not None:
                win, win_ruff, win_val, win_high = i, True, ruff, highest(p)
                continue
            if match_value(ctx, p, shapes, TRUMP) is not None:
                continue  # a ruff that beats no split of the winner's
        fm = match_value(ctx, p, shapes, suit)
        ruff = match_value(ctx, p, shapes, TRUMP) if suit != TRUMP else None
        if ruff is not None and win_ruff and ctx.rules.ruff_compare == "cover_winner":
            if covers(p, plays[win]):
                win, win_val, win_high = i, ruff, highest(p)
        elif ruff is not None:
            if not win_ruff or ruff_beats(ruff, highest(p), win_val, win_high):
                win, win_ruff, win_val, win_high = i, True, ruff, highest(p)
        elif fm is not None and not throw and not win_ruff and fm[0] > win_val[0]:
            win, win_val, win_high = i, fm, highest(p)
    return win
