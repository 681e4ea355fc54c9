"""shengji.io's follow check (``play.follow_requirements: shengji_io``), read from its
source (rbtying/shengji 71f8d43, mechanics/src): trick.rs ``TrickFormat::is_legal_play``,
``TrickFormat::decomposition`` and ``UnitLike::check_play``; ordered_card.rs
``subsequent_decomposition_ordering`` and the listings it is built on; format_match.rs
``find_format_matches``, of which only "is there a match" is ever asked.

Written from what that source means, as plain listings and an exhaustive placement
search, so the C core has an independent reading to be checked against. The orders are
the point: ``is_legal_play`` walks the requirements in order and the first one the play
or the hand can supply decides. Where an order comes from a sort over an earlier list
(a stable sort keeps that list's order among ties), the earlier list is built the same
way, and each function says so.

A requirement is a list of units; a unit is a tuple of widths: ``(3,)`` a triple,
``(2, 2)`` a pair tractor, ``(3, 2)`` a triple with a pair on the next card up.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations, product

from shengji.errors import ShengjiError

from .sio_decompose import _order, _successors

#: the most non-single tuples one led unit may split into before the listing is refused
#: (``compute_adjacent_assignments`` lists the set partitions of them: Bell numbers,
#: 4140 at 8, 115975 at 10); a unit of more is a typed error, never a guess
MAX_TUPLES = 8


# -- the listings of ordered_card.rs ---------------------------------------------------


def tuple_partitions(n: int) -> list[tuple[int, ...]]:
    """``find_tuple_partitions``: every way to write n as a sum of tuple widths (each
    written widest first), the lists in descending lexicographic order."""
    out: list[tuple[int, ...]] = []

    def rec(left: int, most: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
        for w in range(min(left, most), 0, -1):
            rec(left - w, w, acc + (w,))

    rec(n, n, ())
    return sorted(out, reverse=True)


def adjacent_assignments(k: int) -> list[list[list[int]]]:
    """``compute_adjacent_assignments``: the set partitions of 0..k-1 (each block
    ascending, blocks by their least element). The list for k is made from the list for
    k-1, in its order, by adding k-1 to each block in turn and then as a block of its
    own; then sorted, stably, by the largest block (largest first), then by the number
    of blocks (fewest first)."""
    if k == 1:
        return [[[0]]]
    grown: list[list[list[int]]] = []
    for part in adjacent_assignments(k - 1):
        for i in range(len(part)):
            grown.append([b + [k - 1] if j == i else list(b) for j, b in enumerate(part)])
        grown.append([list(b) for b in part] + [[k - 1]])
    return sorted(grown, key=lambda p: (-max(len(b) for b in p), len(p)))


def _unique(items):
    out, seen = [], set()
    for it in items:
        key = repr(it)
        if key not in seen:
            seen.add(key)
            out.append(it)
    return out


def sequential_groupings(widths: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    """``group_into_sequential_tuples``: the tuples (widths, widest first) grouped into
    runs of adjacent cards, one grouping per set partition, in that listing's order. A
    run of one width stays as it is; when some run mixes widths, every order of the
    widths inside each run is listed (positions permuted in lexicographic order, the
    runs' orders combined with the last run varying fastest). Repeats are dropped, the
    first kept."""
    if len(widths) > MAX_TUPLES:
        raise ShengjiError(
            f"follow_requirements shengji_io: a unit of {len(widths)} tuples is past the "
            f"listing's budget ({MAX_TUPLES})")
    out = []
    for assignment in adjacent_assignments(len(widths)):
        runs = [[widths[i] for i in block] for block in assignment]
        if all(len(set(r)) == 1 for r in runs):
            out.append([tuple(r) for r in runs])
            continue
        orders = [_unique(tuple(p) for p in permutations(r)) for r in runs]
        out.extend(list(choice) for choice in product(*orders))
    return _unique(out)


def full_ordering(n: int) -> list[list[tuple[int, ...]]]:
    """``full_decomposition_ordering``: for each way to write n as tuple widths (in
    ``tuple_partitions`` order), each grouping of its non-single tuples into runs (singles
    are never asked to be adjacent), the units sorted descending; repeats dropped."""
    return [list(r) for r in _full_ordering(n)]


@cache
def _full_ordering(n: int) -> tuple:
    out = []
    for widths in tuple_partitions(n):
        wide = tuple(w for w in widths if w > 1)
        singles = [(1,)] * (len(widths) - len(wide))
        if not wide:
            out.append(singles)
            continue
        for grouping in sequential_groupings(wide):
            out.append(sorted(grouping + singles, reverse=True))
    return tuple(tuple(r) for r in _unique(out))


def subsequent_ordering(units: list[tuple[int, ...]], new_adjacency: bool
                        ) -> list[list[tuple[int, ...]]]:
    """``subsequent_decomposition_ordering``: the weaker requirements after the lead's own
    units, in the order ``is_legal_play`` asks them.

    Each unit (its widths sorted widest first) has its own queue: the entries of
    ``full_ordering`` of its card count after its own entry. Step by step, the unit with
    the longest queue left (among equals, the one that came first in the previous step's
    order: the units are re-sorted stably each step, starting from the lead's order) takes
    its next entry; after each step the current entries of all units, together, sorted
    descending, are one requirement, unless some unit that had no run of several cards
    now has one and ``new_adjacency`` is false. Ends when every queue is empty."""
    return [list(r) for r in _subsequent(tuple(units), new_adjacency)]


@lru_cache(maxsize=4096)
def _subsequent(units: tuple, new_adjacency: bool) -> tuple:
    units = [tuple(sorted(u, reverse=True)) for u in units]
    queues = []
    for u in units:
        full = full_ordering(sum(u))
        own = next((i for i, g in enumerate(full) if g == [u]), len(full))
        queues.append(full[own + 1:])
    current = [[u] for u in units]
    may_run = [new_adjacency or len(u) > 1 for u in units]
    order = list(range(len(units)))
    out = []
    while True:
        order.sort(key=lambda i: -len(queues[i]))
        first = order[0]
        if not queues[first]:
            return tuple(out)
        current[first] = queues[first].pop(0)
        if all(len(g) == 1 or may_run[i] for i in order for g in current[i]):
            out.append(tuple(sorted((g for i in order for g in current[i]), reverse=True)))


def lead_units(ctx, comps) -> list[tuple[int, ...]]:
    """The lead's units as widths, in from_cards' order: by size, then by the first
    (lowest) card, in shengji.io's card order."""
    def first(st):
        return _order(ctx, st[2][-1])
    ordered = sorted(comps, key=lambda st: (st[0] * st[1], first(st)))
    return [(w,) * ln for w, ln, _ in ordered]


def requirements(ctx, comps, protection: str):
    """``TrickFormat::decomposition``: the lead's units, then the weaker requirements
    (new runs only when the protection is not tractor_on_tractor / both)."""
    units = lead_units(ctx, comps)
    yield units
    yield from subsequent_ordering(units, protection not in ("tractor_on_tractor", "both"))


# -- find_format_matches, as an existence question ----------------------------------------


def can_supply(ctx, counts: dict, requirement, protected: bool) -> bool:
    """Can ``counts`` (card -> copies) hold every unit of ``requirement`` at once, on
    disjoint copies? A unit (w1, ..., wk) takes w1 copies of a card, w2 of a successor
    of it (``Trump::successor``), and so on. ``protected`` (check_play under
    LongerTuplesProtected): each card a unit uses must give it all its copies."""
    units = sorted(requirement, key=lambda u: (-sum(u), -len(u)))
    left = dict(counts)

    def fits(card: int, w: int) -> bool:
        have = left.get(card, 0)
        return have == w == counts[card] if protected else have >= w

    def place(i: int, low: int) -> bool:
        # equal units take their first cards in ascending order (no placement is lost)
        if i == len(units):
            return True
        return any(place_run(units[i], 0, card, i, card)
                   for card in sorted(left) if card >= low)

    def place_run(unit, j: int, card: int, i: int, start: int) -> bool:
        w = unit[j]
        if not fits(card, w):
            return False
        left[card] -= w
        try:
            if j + 1 == len(unit):
                same = i + 1 < len(units) and units[i + 1] == unit
                return place(i + 1, start if same else 0)
            return any(place_run(unit, j + 1, nxt, i, start) for nxt in _successors(ctx, card))
        finally:
            left[card] += w

    return place(0, 0)


def check(ctx, suit: int, comps, hand, play) -> bool:
    """is_legal_play after the count, suit and bomb checks, when the play is all of the
    led suit and the hand holds more of it than the lead has."""
    protection = ctx.rules.follow_protection
    if protection == "suit_only":
        return True
    protected = protection in ("longer_tuples", "both")
    held = {k: c for k, c in enumerate(hand) if c and ctx.suit[k] == suit}
    played = {k: c for k, c in enumerate(play) if c}
    unplayed = {k: held[k] - played.get(k, 0) for k in held if held[k] > played.get(k, 0)}
    for req in requirements(ctx, comps, protection):
        if can_supply(ctx, played, req, protected=False):
            return not (protected and _guard(ctx, req, played, unplayed))
        if can_supply(ctx, held, req, protected):
            return False
    return True


def _guard(ctx, req, played: dict, unplayed: dict) -> bool:
    """``longer_tuple_bypasses_genuine`` (PR #512, as written: it reads the led-suit cards
    NOT played, so a triple the play took one card from leaves a "genuine" pair): some
    width n >= 2 whose plain n-tuples in the requirement outnumber the kinds the play
    holds exactly n of, with the cards not played holding the rest, protected."""
    for n in sorted({u[0] for u in req if len(u) == 1 and u[0] >= 2}):
        slots = sum(1 for u in req if u == (n,))
        covered = sum(1 for c in played.values() if c == n)
        if slots > covered and can_supply(ctx, unplayed, [(n,)] * (slots - covered), True):
            return True
    return False


__all__ = ["tuple_partitions", "adjacent_assignments", "sequential_groupings",
           "full_ordering", "subsequent_ordering", "requirements", "can_supply", "check",
           "MAX_TUPLES"]
