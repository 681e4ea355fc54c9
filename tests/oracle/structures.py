"""Structures (§3): enumeration, decomposition by exhaustive search, is_tractor.

A structure is ``(w, L, kinds)``: L tuples of w copies, ``kinds`` from the top strength
down, one kind per strength, strengths consecutive within one effective suit.
"""

from __future__ import annotations

from shengji.cards import NUM_KINDS

Counts = tuple[int, ...]


def total(counts: Counts) -> int:
    return sum(counts)


def sub(a: Counts, b: Counts) -> Counts:
    out = tuple(x - y for x, y in zip(a, b, strict=False))
    assert min(out) >= 0, "subtracting cards that are not there"
    return out


def counts_from(kinds_with_mult) -> Counts:
    c = [0] * NUM_KINDS
    for k, m in kinds_with_mult:
        c[k] += m
    return tuple(c)


def structure_counts(st) -> Counts:
    w, _, kinds = st
    return counts_from((k, w) for k in kinds)


def shape_exists(rules, w: int, length: int) -> bool:
    """Can a structure of this shape exist under the rules at all?"""
    if w < 1 or length < 1 or w > rules.max_tuple:
        return False
    if length == 1:
        return True
    return (
        w >= 2
        and rules.tractors
        and w >= rules.tractor_min_width
        and length >= rules.tractor_min_length
    )


def structures(ctx, counts: Counts, w: int, length: int, suit=None, exact_from=None):
    """Every structure of shape (w, length) held in ``counts`` (in effective suit ``suit``
    if given). With ``exact_from`` (counts), each kind used must have exactly w copies
    there: a held longer tuple is not broken (seed 003)."""
    if not shape_exists(ctx.rules, w, length):
        return
    for top in range(NUM_KINDS):
        if counts[top] < w or (suit is not None and ctx.suit[top] != suit):
            continue
        if exact_from is not None and exact_from[top] != w:
            continue
        yield from _extend(ctx, counts, w, length, (top,), exact_from)


def _extend(ctx, counts, w, length, kinds, exact_from):
    if len(kinds) == length:
        yield (w, length, kinds)
        return
    last = kinds[-1]
    want = ctx.strengths[last] - 1
    for k in range(NUM_KINDS):
        if (
            counts[k] >= w
            and ctx.suit[k] == ctx.suit[last]
            and ctx.strengths[k] == want
            and (exact_from is None or exact_from[k] == w)
        ):
            yield from _extend(ctx, counts, w, length, kinds + (k,), exact_from)


def key(ctx, st):
    """§3 component key: (cards, width, [pos of each kind from the top]); with
    ``tractors_first`` (shengji.io from_cards), (cards, is a tractor, width, ...)."""
    w, length, kinds = st
    if ctx.rules.tractors_first:
        return (w * length, length > 1, w, tuple(ctx.pos(k) for k in kinds))
    return (w * length, w, tuple(ctx.pos(k) for k in kinds))


def all_shapes(rules, n: int):
    """Every shape that exists and fits in n cards."""
    return [
        (w, ln)
        for w in range(1, rules.max_tuple + 1)
        for ln in range(1, n // w + 1)
        if shape_exists(rules, w, ln)
    ]


def best_partition(ctx, counts: Counts, memo: dict):
    """Sorted-descending key list that is lexicographically largest over every partition
    of ``counts`` into structures, with those structures. Exhaustive: the highest card
    left must top some structure; try them all. (Merging a fixed component into two
    sorted lists keeps their lexicographic order, so memoising the best rest is exact.)"""
    if counts in memo:
        return memo[counts]
    n = total(counts)
    if n == 0:
        return [], []
    present = [k for k in range(NUM_KINDS) if counts[k]]
    top = max(present, key=ctx.pos)
    best = None
    for w, ln in all_shapes(ctx.rules, n):
        for st in structures(ctx, counts, w, ln):
            if st[2][0] != top:
                continue
            rest_keys, rest_sts = best_partition(ctx, sub(counts, structure_counts(st)), memo)
            pairs = sorted(
                [(key(ctx, st), st)] + list(zip(rest_keys, rest_sts, strict=False)),
                key=lambda p: p[0],
                reverse=True,
            )
            cand = [p[0] for p in pairs]
            if best is None or cand > best[0]:
                best = (cand, [p[1] for p in pairs])
    memo[counts] = best
    return best


def is_structure(ctx, counts: Counts, min_length: int = 1):
    """The single structure that ``counts`` form exactly, or None."""
    n = total(counts)
    for w, ln in all_shapes(ctx.rules, n):
        if w * ln != n or ln < min_length:
            continue
        for st in structures(ctx, counts, w, ln):
            if structure_counts(st) == counts:
                return st
    return None
