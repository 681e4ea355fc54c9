"""Following (§4) by trying every way the play can supply each required pattern, and
legal follows (§5) by filtering every sub-multiset of the hand."""

from __future__ import annotations

from . import rainbow, sio_follow
from .order import TRUMP
from .structures import structure_counts, structures, sub, total


def supplies(ctx, counts, pattern, suit, exact_from=None):
    """Every distinct multiset of cards with which ``counts`` supplies ``pattern``
    (disjoint structures, one per shape of the pattern)."""
    if not pattern:
        return {tuple([0] * len(counts))}
    (w, ln), rest = pattern[0], pattern[1:]
    out = set()
    for st in structures(ctx, counts, w, ln, suit=suit, exact_from=exact_from):
        used = structure_counts(st)
        for more in supplies(ctx, sub(counts, used), rest, suit, exact_from):
            out.add(tuple(a + b for a, b in zip(used, more, strict=False)))
    return out


def can_supply(ctx, counts, pattern, suit, unbroken: bool) -> bool:
    return bool(supplies(ctx, counts, pattern, suit, exact_from=counts if unbroken else None))


def in_suit(ctx, counts, suit):
    return tuple(c if ctx.suit[k] == suit else 0 for k, c in enumerate(counts))


def bomb_kind(ctx, play):
    """§7: the kind of a bomb (n >= 4 copies of one kind, when the rules have bombs)."""
    kinds = [k for k, c in enumerate(play) if c]
    if ctx.rules.bombs == "none" or total(play) < 4 or len(kinds) != 1:
        return None
    return kinds[0]


def bomb_exempt(ctx, lead, play):
    """§4: a bomb follows whatever was led (any_suit), or when of the led suit, or
    (follow_suit_or_trump) when trump."""
    k = bomb_kind(ctx, play)
    if k is None:
        return False
    if ctx.rules.bombs == "follow_suit_or_trump" and ctx.suit[k] == TRUMP:
        return True
    return ctx.rules.bombs == "any_suit" or ctx.suit[k] == ctx.lead_components(lead)[0]


def check_follow(ctx, lead, hand, play):
    rb = rainbow.groups(ctx, lead) is not None
    suit, comps = (None, None) if rb else ctx.lead_components(lead)
    n = total(lead)
    if any(p > h for p, h in zip(play, hand, strict=False)):
        return False, "not_in_hand"
    if total(play) != n:
        return False, "wrong_count"
    if rb:  # a rainbow has no suit to follow
        return rainbow.check_follow(ctx, lead, hand, play)
    if bomb_exempt(ctx, lead, play):
        return True, "ok"
    h = total(in_suit(ctx, hand, suit))
    p = total(in_suit(ctx, play, suit))
    if p != min(h, n):
        return False, "must_follow_suit"
    if h <= n:
        return True, "ok"
    if ctx.rules.follow_requirements == "shengji_io":
        ok = sio_follow.check(ctx, suit, comps, hand, play)
        return (True, "ok") if ok else (False, "must_follow_shape")
    unbroken = not ctx.rules.must_break_tuples
    held = in_suit(ctx, hand, suit)
    genuine = ctx.rules.genuine_tuples and unbroken

    def genuine_ok(asked):
        # shengji.io PR #512: the plain w-tuples asked, less the kinds the play holds
        # exactly w of, must not be there among the kinds held exactly w times outside
        # the play
        for w in range(2, ctx.rules.decks + 1):
            slots = sum(1 for pattern in asked for pw, pl in pattern if (pw, pl) == (w, 1))
            covered = sum(1 for c in play if c == w)
            spare = sum(1 for h, c in zip(held, play, strict=True) if h - c == w)
            if slots > covered and spare >= slots - covered:
                return False
        return True

    def walk(i, r, q, asked):
        # r: the hand's cards of the suit not yet used, q: the play's
        if i == len(comps):
            return genuine_ok(asked) if genuine else True
        w, ln, _ = comps[i]
        ladder = ctx.rules.ladder_for((w, ln), in_throw=len(comps) > 1)
        pattern = next((pt for pt in ladder if can_supply(ctx, r, pt, suit, unbroken)), ())
        return any(
            walk(i + 1, sub(r, used), sub(q, used), asked + (pattern,))
            for used in supplies(ctx, q, pattern, suit)
        )

    ok = walk(0, held, play, ())
    return (True, "ok") if ok else (False, "must_follow_shape")


def sub_multisets(counts, n):
    """Every sub-multiset of ``counts`` with n cards."""
    kinds = [k for k, c in enumerate(counts) if c]

    def rec(i, left):
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        room = sum(counts[k] for k in kinds[i:])
        if room < left:
            return
        for m in range(min(counts[kinds[i]], left), -1, -1):
            for rest in rec(i + 1, left - m):
                yield ((kinds[i], m),) + rest

    for choice in rec(0, n):
        c = [0] * len(counts)
        for k, m in choice:
            c[k] = m
        yield tuple(c)


def legal_follows(ctx, lead, hand):
    n = total(lead)
    return {p for p in sub_multisets(hand, n) if check_follow(ctx, lead, hand, p)[0]}


__all__ = ["check_follow", "legal_follows", "supplies", "can_supply"]
