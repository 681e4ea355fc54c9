"""Hypothesis strategies for the rules core: play rules with every knob, contexts, and
*interesting* card groups (leads of one effective suit built from tuples and runs, hands
biased toward the led suit), kept small so the brute-force oracle stays fast.

Groups are 54-count tuples. Every group is drawn from what is left of the decks, so a
lead, a hand and the other holdings never hold more copies of a card than exist.
"""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st
from oracle import OracleContext
from oracle.structures import structure_counts, structures

from shengji.cards import NUM_KINDS, RANKS
from shengji.rules import (
    BOMBS,
    FAILED_THROW,
    FOLLOW_PROTECTIONS,
    KITTY_THROW,
    RUFF_COMPARE,
    THROW_FOLLOWING,
    PlayRules,
    parse_pattern,
)

# explicit ladders from the seeds (docs/rules.md §5), and a few odd ones
TITANIC_LADDERS = {
    "000": ("titanic", "tractor", "triple + triple", "triple + pair", "triple",
            "pair + pair", "pair", "singles"),
    "001": ("titanic", "triple + triple", "tractor", "triple + pair", "triple",
            "pair + pair", "pair", "singles"),
    "002": ("titanic", "triple + triple", "triple + pair", "triple", "tractor",
            "pair + pair", "pair", "singles"),
}  # fmt: skip
QUAD_003 = ("quad", "triple", "pair + pair", "pair", "singles")
TRIPLE_003 = ("triple", "pair", "singles")
ODD_LADDERS = [
    ("tractor", ("pair", "tractor", "singles")),  # pairs before the tractor
    ("pair", ("singles",)),  # shape never required
    ("2x3", ("2x3", "tractor", "pair + pair + pair", "pair", "singles")),
]


@st.composite
def compositions(draw, decks):
    """Copies per kind of a deck composition: short packs (the lowest ranks gone from
    some packs: shengji.io deck.rs ``min``) and packs without one or both jokers."""
    copies = [decks] * NUM_KINDS
    for _ in range(decks):
        if draw(st.booleans()):
            low = draw(st.integers(1, 5))  # this pack keeps ranks from RANKS[low] up
            for s in range(4):
                for r in range(low):
                    copies[s * 13 + r] -= 1
        for joker in (52, 53):
            if draw(st.integers(0, 3)) == 0:
                copies[joker] -= 1
    return tuple(copies)


@st.composite
def play_rules(draw, decks=None):
    decks = decks or draw(st.integers(1, 4))
    kw: dict = {"decks": decks}
    if decks == 4:
        # seed 003: four decks have no tractors and no throws; others may want them
        kw["tractors"] = kw["throws"] = draw(st.booleans())
    if decks >= 2 and draw(st.integers(0, 4)) == 0:
        kw["max_tuple"] = draw(st.integers(1, decks))
    if draw(st.integers(0, 4)) == 0:
        kw["tractor_min_length"] = 3
    if draw(st.integers(0, 4)) == 0 and decks >= 3:
        kw["tractor_min_width"] = 3
    kw["tractor_bridges_level_gap"] = draw(st.booleans())
    constant = draw(
        st.sampled_from([(), (), (0,), (0,), (12,), (0, 1)]) | st.tuples(st.integers(0, 12))
    )
    kw["constant_ranks"] = [RANKS[r] for r in constant]  # from_mapping reads printed ranks
    if draw(st.integers(0, 3)) == 0:  # the older alias
        kw["must_break_tuples"] = draw(st.booleans())
    else:
        kw["follow_protection"] = draw(st.sampled_from(FOLLOW_PROTECTIONS))
    kw["shorter_tractors"] = draw(st.booleans())
    kw["bombs"] = draw(st.sampled_from(BOMBS) if decks == 4 else st.sampled_from(
        ["none", "none", *BOMBS]))
    if draw(st.integers(0, 3)) == 0:
        kw["rainbow_min"] = draw(st.integers(4, min(16, 4 + 2 * (decks - 1))))
    if draw(st.integers(0, 3)) == 0:
        kw["copies"] = draw(compositions(decks))
    kw["ruff_compare"] = draw(st.sampled_from(RUFF_COMPARE))
    kw["failed_throw"] = draw(st.sampled_from(FAILED_THROW))
    kw["kitty"] = draw(st.sampled_from(["exponential", "power", "table", "twice_size"]))
    if draw(st.booleans()):
        kw["kitty_cap"] = draw(st.sampled_from([8, 16, 64]))
    if kw["kitty"] != "table":  # the table names one structure's value, not a throw's
        kw["kitty_throw"] = draw(st.sampled_from(KITTY_THROW))
    kw["throw_following"] = draw(st.sampled_from(THROW_FOLLOWING))
    kw["trump_throws"] = draw(st.booleans())
    following = {}
    if decks >= 3 and draw(st.booleans()):
        following["titanic"] = TITANIC_LADDERS[draw(st.sampled_from(sorted(TITANIC_LADDERS)))]
    if decks == 4 and draw(st.booleans()):
        following["quad"] = QUAD_003
        following["triple"] = TRIPLE_003
    if decks >= 2 and draw(st.integers(0, 3)) == 0:
        shape, ladder = draw(st.sampled_from(ODD_LADDERS))
        following[shape] = ladder
    kw["genuine_tuples"] = draw(st.integers(0, 2)) == 0
    kw["tractors_first"] = draw(st.integers(0, 2)) == 0
    if kw.get("max_tuple", decks) == decks:  # shengji_io's tuples take every copy
        kw["decomposition"] = draw(st.sampled_from(["seeds", "seeds", "shengji_io"]))
    kw["follow_requirements"] = draw(st.sampled_from(["seeds", "seeds", "shengji_io"]))
    # PlayRules refuses a pattern no hand can supply (a shape the drawn rules do not
    # have): keep the ladders that make sense under the drawn rules
    base = PlayRules.from_mapping(kw)
    kw["following"] = {
        shape: ladder for shape, ladder in following.items()
        if all(base.shape_exists(s) for p in ladder for s in parse_pattern(p))
    }
    return PlayRules.from_mapping(kw)


@st.composite
def contexts(draw, decks=None):
    """(PlayRules, level, trump) drawn together, plus the oracle for them."""
    rules = draw(play_rules(decks))
    level = draw(st.integers(0, 13))  # 13: the no-trump level above A (no level cards)
    trump = draw(st.none() | st.integers(0, 3))
    return rules, level, trump, OracleContext(rules, level, trump)


def kinds_by_strength(octx, suit):
    """Kinds of one effective suit, lowest first."""
    return sorted((k for k in range(NUM_KINDS) if octx.suit[k] == suit), key=octx.pos)


def full(octx):
    return octx.rules.copies


def minus(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))


@st.composite
def suited_group(draw, octx, suit, size, avail):
    """Exactly ``size`` cards of effective suit ``suit`` out of ``avail`` (fewer if the
    suit runs out), built from runs of tuples so pairs, tractors and Titanics are
    common."""
    kinds = [k for k in kinds_by_strength(octx, suit) if avail[k]]
    counts = [0] * NUM_KINDS
    left = size
    while left > 0 and kinds:
        free = [k for k in kinds if avail[k] - counts[k] > 0]
        if not free:
            break
        width = draw(st.integers(1, max(1, min(octx.rules.decks, left))))
        run = draw(st.integers(1, max(1, min(3, left // width))))
        start = draw(st.integers(0, len(kinds) - 1))
        for k in kinds[start : start + run]:
            take = min(width, avail[k] - counts[k], left)
            counts[k] += take
            left -= take
        if draw(st.integers(0, 3)) == 0 and left > 0:  # a stray single
            k = draw(st.sampled_from(free))
            if avail[k] - counts[k] > 0:
                counts[k] += 1
                left -= 1
    return tuple(counts)


@st.composite
def any_group(draw, octx, size, avail):
    """``size`` cards from anywhere in ``avail`` (fewer if it runs out)."""
    counts = [0] * NUM_KINDS
    pool = [k for k in range(NUM_KINDS) for _ in range(avail[k])]
    if not pool:
        return tuple(counts)
    idx = draw(st.lists(st.integers(0, len(pool) - 1), max_size=size, unique=True))
    for i in idx:
        counts[pool[i]] += 1
    return tuple(counts)


def effective_suits(octx):
    return sorted({octx.suit[k] for k in range(NUM_KINDS) if octx.rules.copies[k]})


@st.composite
def structure(draw, octx, suit, avail, max_cards):
    """One structure (tuple or tractor) of ``suit`` from ``avail``, or nothing if the
    drawn shape is not there. Consecutive strengths are looked up, not assumed."""
    rules = octx.rules
    w = draw(st.integers(1, rules.max_tuple))
    longest = max(1, max_cards // w)
    ln = 1
    if w >= max(2, rules.tractor_min_width) and rules.tractors and longest >= 2:
        ln = draw(st.integers(1, min(longest, 3)))
        if ln > 1:
            ln = max(ln, rules.tractor_min_length)
    if w * ln > max_cards:
        ln = 1
    return tuple_run(draw, octx, suit, avail, w, ln)


def tuple_run(draw, octx, suit, avail, w, ln):
    """``w`` copies of each of up to ``ln`` kinds of ``suit`` held ``w`` times in
    ``avail``, of consecutive strengths downwards from a drawn top (shorter where the run
    breaks; nothing if no kind is held ``w`` times)."""
    kinds = [k for k in kinds_by_strength(octx, suit) if avail[k] >= w]
    if not kinds:
        return tuple([0] * NUM_KINDS)
    chain = [draw(st.sampled_from(kinds))]
    for _ in range(ln - 1):
        below = [k for k in kinds if octx.strengths[k] == octx.strengths[chain[-1]] - 1]
        if not below:
            break
        chain.append(draw(st.sampled_from(below)))
    return tuple(w if k in chain else 0 for k in range(NUM_KINDS))


@st.composite
def leads(draw, octx, max_size=6, suits=None, modes=("one", "one", "throw", "loose")):
    """A lead of one effective suit (non-empty): mostly one structure, sometimes a
    throw of a few structures, sometimes loose cards of the suit."""
    suit = draw(st.sampled_from(suits or effective_suits(octx)))
    avail = full(octx)
    mode = draw(st.sampled_from(modes))
    if mode == "loose":
        lead = draw(suited_group(octx, suit, draw(st.integers(1, max_size)), avail))
    else:
        lead = tuple([0] * NUM_KINDS)
        for _ in range(1 if mode == "one" else draw(st.integers(2, 3))):
            room = max_size - sum(lead)
            if room <= 0:
                break
            part = draw(structure(octx, suit, minus(avail, lead), room))
            lead = tuple(a + b for a, b in zip(lead, part, strict=True))
    if sum(lead) == 0:  # the drawn shape was not there: lead the suit's top card
        k = [k for k in kinds_by_strength(octx, suit) if avail[k]][-1]
        lead = tuple(1 if i == k else 0 for i in range(NUM_KINDS))
    return suit, lead


@st.composite
def holdings(draw, octx, suit, avail, in_suit, extra):
    """A holding: about ``in_suit`` cards of ``suit`` (often with pairs and tractors)
    plus ``extra`` others; the trump part is sometimes structured too (for ruffs)."""
    a = tuple([0] * NUM_KINDS)
    while sum(a) < in_suit and draw(st.booleans()):
        part = draw(structure(octx, suit, minus(avail, a), in_suit - sum(a)))
        a = tuple(x + y for x, y in zip(a, part, strict=True))
    more = draw(suited_group(octx, suit, in_suit - sum(a), minus(avail, a)))
    a = tuple(x + y for x, y in zip(a, more, strict=True))
    avail = minus(avail, a)
    if suit != 4 and draw(st.booleans()):
        b = draw(suited_group(octx, 4, extra, avail))
    else:
        b = draw(any_group(octx, extra, avail))
    return tuple(x + y for x, y in zip(a, b, strict=True))


@st.composite
def other_holdings(draw, octx, suit, lead, n=3):
    """``n`` other seats' holdings (for a throw check), drawn from what the lead left."""
    avail = minus(full(octx), lead)
    out = []
    for _ in range(n):
        h = draw(holdings(octx, suit, avail, draw(st.integers(0, 5)), 3))
        avail = minus(avail, h)
        out.append(h)
    return out


@st.composite
def filled(draw, octx, counts, avail, n, prefer=None):
    """``counts`` topped up to n cards out of ``avail`` (from suit ``prefer`` while it
    has cards enough)."""
    need = n - sum(counts)
    if need <= 0:
        return counts
    pool = [k for k in range(NUM_KINDS) for _ in range(avail[k])]
    preferred = [k for k in pool if octx.suit[k] == prefer]
    if len(preferred) >= need:
        pool = preferred
    pick = draw(st.lists(st.integers(0, len(pool) - 1), min_size=need, max_size=need, unique=True))
    out = list(counts)
    for i in pick:
        out[pool[i]] += 1
    return tuple(out)


@st.composite
def shaped_group(draw, octx, suit, shapes, avail):
    """One structure of each given shape in ``suit`` where ``avail`` has one (so
    follow-matches and ruffs that must be compared are common)."""
    counts = tuple([0] * NUM_KINDS)
    for w, ln in shapes:
        found = list(structures(octx, minus(avail, counts), w, ln, suit=suit))
        if found:
            st_ = draw(st.sampled_from(found))
            counts = tuple(a + b for a, b in zip(counts, structure_counts(st_), strict=True))
    return counts


@st.composite
def follow_case(draw, octx, decks):
    """(lead, hand) with the hand drawn from what the lead left."""
    suit, lead = draw(leads(octx, max_size=5 if decks >= 2 else 3))
    n = sum(lead)
    avail = minus(full(octx), lead)
    # mostly more cards of the suit than led, so that the shape rules bite
    in_suit = draw(st.integers(n + 1, n + 4) | st.integers(0, n + 1))
    extra = draw(st.integers(max(0, n - in_suit), n + 2))
    hand = draw(holdings(octx, suit, avail, in_suit, extra))
    return lead, hand


@st.composite
def trick(draw, octx, decks):
    """[lead, follower plays...] of equal size: follows of the led suit, trump plays
    (ruffs when the lead is not trump) and discards, all from one set of decks."""
    suit, lead = draw(leads(octx, max_size=6 if decks >= 2 else 4))
    n = sum(lead)
    avail = minus(full(octx), lead)
    plays = [lead]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["follow", "ruff", "shaped", "shaped", "any"]))
        target = {"follow": suit, "ruff": 4}.get(kind)
        if kind == "shaped":  # the lead's shapes in the led suit or in trumps
            target = draw(st.sampled_from([suit, 4]))
            p = draw(shaped_group(octx, target, [c[:2] for c in octx.decompose(lead)], avail))
        elif target is not None:
            p = draw(suited_group(octx, target, n, avail))
        else:
            p = tuple([0] * NUM_KINDS)
        # fill up to n cards from anywhere (a discard, or a short suit)
        p = draw(filled(octx, p, minus(avail, p), n))
        avail = minus(avail, p)
        plays.append(p)
    return plays


@st.composite
def ruffed_throw(draw, octx, decks):
    """A throw in a plain suit and two or three plays that try to ruff it with trumps
    of its shapes (so ruff against ruff, under every ruff_compare, is exercised)."""
    lead_suits = [x for x in effective_suits(octx) if x != 4]
    suit, lead = draw(leads(octx, max_size=7, suits=lead_suits, modes=("throw",)))
    shapes = [c[:2] for c in octx.decompose(lead)]
    n = sum(lead)
    avail = minus(full(octx), lead)
    plays = [lead]
    for _ in range(draw(st.integers(2, 3))):
        p = draw(shaped_group(octx, 4, shapes, avail))
        p = draw(filled(octx, p, minus(avail, p), n, prefer=4))
        avail = minus(avail, p)
        plays.append(p)
    return plays


@st.composite
def grouping_follow_case(draw, octx):
    """(lead, hand) where the follower may group pairs into tractors: a led tractor of
    three pairs (or a quad, with four decks) and a hand of the suit rich in pairs, so
    ``shorter_tractors`` and ``follow_protection`` decide (semantics §4)."""
    rules = octx.rules
    suit = draw(st.sampled_from(effective_suits(octx)))
    avail = full(octx)
    kinds = [k for k in kinds_by_strength(octx, suit) if avail[k] >= 2]
    lead = tuple([0] * NUM_KINDS)
    if rules.max_tuple >= 4 and draw(st.booleans()):
        quads = [k for k in kinds if avail[k] >= 4]
        if quads:
            k = draw(st.sampled_from(quads))
            lead = tuple(4 if i == k else 0 for i in range(NUM_KINDS))
    if sum(lead) == 0:
        found = list(structures(octx, avail, 2, 3, suit=suit)) if rules.max_tuple >= 2 else []
        if found:
            lead = structure_counts(draw(st.sampled_from(found)))
        else:
            lead = draw(suited_group(octx, suit, 6, avail))
    avail = minus(avail, lead)
    hand = tuple([0] * NUM_KINDS)
    for _ in range(draw(st.integers(2, 4))):
        part = draw(structure(octx, suit, minus(avail, hand), 6))
        hand = tuple(a + b for a, b in zip(hand, part, strict=True))
    more = draw(suited_group(octx, suit, draw(st.integers(0, 3)), minus(avail, hand)))
    hand = tuple(a + b for a, b in zip(hand, more, strict=True))
    return lead, hand


@st.composite
def bomb_trick(draw, octx):
    """A four-card lead and a hand / follower plays that hold quads of several suits (four
    decks), so that bombs (follow and trick winner, semantics §4/§7) are met often."""
    suit = draw(st.sampled_from(effective_suits(octx)))
    lead = draw(structure(octx, suit, full(octx), 4))
    lead = draw(filled(octx, lead, minus(full(octx), lead), 4, prefer=suit))
    if len({octx.suit[k] for k, c in enumerate(lead) if c}) > 1:  # the suit ran out
        lead = draw(filled(octx, tuple([0] * NUM_KINDS), full(octx), 4, prefer=4))
        suit = 4
        # short packs can leave fewer than four trumps too (no level cards, one kind of
        # joker): no one-suit lead of four then
        assume(len({octx.suit[k] for k, c in enumerate(lead) if c}) == 1)
    avail = minus(full(octx), lead)
    plays = [lead]
    hand = tuple([0] * NUM_KINDS)
    for _ in range(draw(st.integers(1, 3))):
        quads = [k for k in range(NUM_KINDS) if avail[k] - hand[k] >= 4]
        if not quads:
            break
        k = draw(st.sampled_from(quads))
        hand = tuple(c + (4 if i == k else 0) for i, c in enumerate(hand))
    extra = draw(holdings(octx, suit, minus(avail, hand), draw(st.integers(0, 6)), 2))
    hand = tuple(a + b for a, b in zip(hand, extra, strict=True))
    avail = minus(avail, hand)
    for _ in range(draw(st.integers(1, 3))):
        quads = [k for k in range(NUM_KINDS) if avail[k] >= 4]
        if quads and draw(st.booleans()):
            k = draw(st.sampled_from(quads))
            p = tuple(4 if i == k else 0 for i in range(NUM_KINDS))
        else:
            p = draw(filled(octx, tuple([0] * NUM_KINDS), avail, 4,
                            prefer=draw(st.sampled_from([suit, 4]))))
        avail = minus(avail, p)
        plays.append(p)
    return lead, hand, plays


@st.composite
def rank_group(draw, octx, avail, at_least):
    """Cards of one rank from all four suits (a rainbow unit), at least ``at_least`` of
    them, out of ``avail``; empty when no rank can give that many."""
    ranks = [r for r in range(13)
             if all(avail[s * 13 + r] for s in range(4))
             and sum(avail[s * 13 + r] for s in range(4)) >= at_least]
    if not ranks:
        return tuple([0] * NUM_KINDS)
    r = draw(st.sampled_from(ranks))
    counts = [0] * NUM_KINDS
    for s in range(4):
        counts[s * 13 + r] = 1
    pool = [s * 13 + r for s in range(4) for _ in range(avail[s * 13 + r] - 1)]
    extra = draw(st.integers(max(0, at_least - 4), len(pool)))
    if extra:
        for i in draw(st.lists(st.integers(0, len(pool) - 1), min_size=extra, max_size=extra,
                               unique=True)):
            counts[pool[i]] += 1
    return tuple(counts)


@st.composite
def rainbow_case(draw, octx):
    """A rainbow lead (one or two ranks, rainbow_min cards of each or more), a hand with
    rank groups of its own, other holdings and follower plays of the lead's size."""
    m = octx.rules.rainbow_min
    avail = full(octx)
    lead = tuple([0] * NUM_KINDS)
    for _ in range(draw(st.integers(1, 2))):
        part = draw(rank_group(octx, minus(avail, lead), m))
        lead = tuple(a + b for a, b in zip(lead, part, strict=True))
    n = sum(lead)
    avail = minus(avail, lead)
    hands = []
    for _ in range(3):
        h = tuple([0] * NUM_KINDS)
        for _ in range(draw(st.integers(0, 2))):
            part = draw(rank_group(octx, minus(avail, h), draw(st.integers(2, 4))))
            h = tuple(a + b for a, b in zip(h, part, strict=True))
        h = draw(filled(octx, h, minus(avail, h), sum(h) + draw(st.integers(0, 3))))
        avail = minus(avail, h)
        hands.append(h)
    plays = [lead]
    for h in hands:
        if sum(h) >= n:
            plays.append(draw(st.sampled_from(sorted(_sub_of(h, n)))))
    return lead, hands, plays


def _sub_of(h, n):
    """a few n-card parts of h: its first n cards by kind, and by kind from the top"""
    cards = [k for k, c in enumerate(h) for _ in range(c)]
    out = set()
    for seq in (cards, cards[::-1], cards[1:] + cards[:1]):
        c = [0] * NUM_KINDS
        for k in seq[:n]:
            c[k] += 1
        out.add(tuple(c))
    return out


@st.composite
def big_table(draw, octx, decks):
    """A trick and the other holdings at a table of 5 to 12 seats: [lead, plays...] of
    the lead's size (follows, ruffs, the lead's shapes, discards) and one holding per other
    seat for the throw check, all from one set of packs."""
    m = draw(st.integers(5, 12))
    suit, lead = draw(leads(octx, max_size=6 if decks >= 2 else 3))
    n = sum(lead)
    avail = minus(full(octx), lead)
    plays = [lead]
    for _ in range(m - 1):
        if sum(avail) < n:
            break
        kind = draw(st.sampled_from(["follow", "ruff", "shaped", "any"]))
        if kind == "shaped":
            target = draw(st.sampled_from([suit, 4]))
            p = draw(shaped_group(octx, target, [c[:2] for c in octx.decompose(lead)], avail))
        elif kind in ("follow", "ruff"):
            p = draw(suited_group(octx, suit if kind == "follow" else 4, n, avail))
        else:
            p = tuple([0] * NUM_KINDS)
        p = draw(filled(octx, p, minus(avail, p), n))
        avail = minus(avail, p)
        plays.append(p)
    others = []
    for _ in range(m - 1):
        h = draw(holdings(octx, suit, avail, draw(st.integers(0, 4)), 2))
        avail = minus(avail, h)
        others.append(h)
    return plays, lead, others
