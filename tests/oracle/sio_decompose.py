"""shengji.io's decomposition (``play.decomposition: shengji_io``), read literally from
its source (rbtying/shengji 71f8d43, mechanics/src/trick.rs): ``find_plays`` lists every
split, lowest card first, and ``TrickFormat::from_cards`` keeps, of those whose largest
unit is largest by (size, is a tractor), the one listed last (a stable sort, then pop).

Written from that source alone, as a full enumeration, so the C core's pruned search
(core_c/shapes.c, sio_*) has an independent reading to be checked against. Exponential in
the worst case: the differential tests draw leads of a few cards.
"""

from __future__ import annotations

from shengji.cards import NUM_KINDS

#: our suit index (S H C D) -> shengji.io's order of equal cards (types.rs ALL_SUITS and
#: Card::as_char: spades, hearts, diamonds, clubs)
_SIO_SUIT = {0: 0, 1: 1, 2: 3, 3: 2}


def _order(ctx, k: int):
    """OrderedCard's Ord (types.rs Trump::compare): effective order, then the card."""
    return (ctx.strengths[k], _SIO_SUIT[k // 13] if k < 52 else 0)


def _successors(ctx, k: int) -> list[int]:
    """Trump::successor: the cards one step up in the same effective suit (several at
    the trump suit's top: the other suits' level cards, in ALL_SUITS order)."""
    want = ctx.strengths[k] + 1
    nxt = [j for j in range(NUM_KINDS) if ctx.suit[j] == ctx.suit[k] and ctx.strengths[j] == want]
    return sorted(nxt, key=lambda j: _order(ctx, j))


def _size(unit) -> int:
    kind, members, count = unit
    return count * len(members)


def _tractors_from_start(ctx, card: int, count: int, counts: dict) -> list:
    """find_tractors_from_start: breadth first along successors; one min_count shared by
    every path (as written there), a tractor at every step that meets the requirements."""
    rules = ctx.rules
    out: list = []
    if not rules.tractors or count < rules.tractor_min_width:
        return out
    frontier = [(s, [card]) for s in _successors(ctx, card)]
    min_count = count
    while frontier:
        nxt = []
        for c, path in frontier:
            n = counts.get(c, 0)
            if n >= 2:
                min_count = min(min_count, n)
                path = path + [c]
                if min_count >= rules.tractor_min_width and len(path) >= rules.tractor_min_length:
                    out.append(("tractor", tuple(path), min_count))
                nxt.extend((s, path) for s in _successors(ctx, c))
        frontier = nxt
    return out


def _without(counts: dict, unit) -> dict:
    _, members, count = unit
    rest = dict(counts)
    for c in members:
        rest[c] -= count
        if rest[c] == 0:
            del rest[c]
    return rest


def _find_plays(ctx, counts: dict, num: int, min_start) -> list[list]:
    """find_plays_inner: every split, each listed with its first unit last."""
    if num == 0:
        return []
    ordered = sorted(counts, key=lambda k: _order(ctx, k))
    if min_start is not None:
        ordered = [k for k in ordered if _order(ctx, k) >= _order(ctx, min_start)]
    starts: list = []
    if ordered:
        card = ordered[0]
        tractors = _tractors_from_start(ctx, card, counts[card], counts)
        consumed = bool(tractors) and all(
            counts.get(c, 0) == w for _, members, w in tractors for c in members)
        starts.extend(tractors)
        if not consumed:
            starts.append(("repeated", (card,), counts[card]))
    whole = [u for u in starts if _size(u) == num]
    if whole:
        return [[whole[0]]]
    plays = []
    for u in starts:
        for play in _find_plays(ctx, _without(counts, u), num - _size(u), u[1][0]):
            plays.append(play + [u])
    return plays


def sio_partition(ctx, counts) -> list:
    """The structures (w, L, kinds from the top) of shengji.io's choice, unordered."""
    held = {k: n for k, n in enumerate(counts) if n}
    plays = _find_plays(ctx, held, sum(held.values()), None)
    plays.sort(key=lambda p: max((_size(u), u[0] == "tractor") for u in p))
    chosen = plays.pop()
    return [(w, len(members), tuple(reversed(members))) for _, members, w in chosen]
