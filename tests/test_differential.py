"""Differential tests: the C core (shengji.core) against the pure-Python oracle
(tests/oracle) on random but interesting inputs, for one to four decks and every knob
of PlayRules (docs/semantics.md §2–§8, §10).

A failure prints the drawn rules, level, trump and card groups; the oracle is anchored to
the seeds by tests/test_oracle.py, so a disagreement is first checked against
docs/semantics.md before either side is changed.
"""

from __future__ import annotations

import dataclasses

import pytest
from diffcheck import H, same_legal_follows, same_throw_check, setup, show
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from oracle import OracleContext
from strategies import (
    big_table,
    bomb_trick,
    contexts,
    filled,
    follow_case,
    full,
    grouping_follow_case,
    leads,
    minus,
    other_holdings,
    rainbow_case,
    ruffed_throw,
    shaped_group,
    suited_group,
    trick,
)
from tiers import depth

from shengji.cards import NUM_KINDS
from shengji.core import Context, Hand
from shengji.errors import HandError
from shengji.rules import PlayRules

DECKS = [1, 2, 3, 4]
# bounded by default, deeper under --long (tests/tiers.py); SHENGJI_DIFF_EXAMPLES=2000 for a
# longer hunt (benchmarks/mutation.py sets it for its differential stage)
pytestmark = pytest.mark.scaled
FAST = settings(
    max_examples=depth(20, 200, env="SHENGJI_DIFF_EXAMPLES"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def sign(x):
    return (x > 0) - (x < 0)


# -- §2 order ----------------------------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_order(decks, data):
    cctx, octx = setup(data, decks)
    for a in range(NUM_KINDS):
        assert cctx.effective_suit(a) == octx.effective_suit(a), show_card(a)
        assert cctx.is_trump(a) == octx.is_trump(a), show_card(a)
        for b in range(NUM_KINDS):
            if octx.effective_suit(a) != octx.effective_suit(b):
                continue
            do = octx.strength(a) - octx.strength(b)
            dc = cctx.strength(a) - cctx.strength(b)
            # only order and adjacency carry meaning (§2), not the numbers
            assert sign(dc) == sign(do), (show_card(a), show_card(b))
            assert (dc == 1) == (do == 1), (show_card(a), show_card(b), "adjacent?")
    pairs = data.draw(st.lists(st.tuples(st.integers(0, 53), st.integers(0, 53)), max_size=20))
    for a, b in pairs:
        assert cctx.compare(a, b) == octx.compare(a, b), (show_card(a), show_card(b))


def show_card(k):
    from shengji.cards import card_str

    return card_str(k)


# -- §3 decomposition --------------------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_decompose_tractor_kitty(decks, data):
    cctx, octx = setup(data, decks)
    max_size = 8 if decks >= 2 else 5
    for _ in range(4):
        _, lead = data.draw(leads(octx, max_size=max_size))
        note(f"lead={show(lead)}")
        want = octx.decompose(lead)
        got = [(c.width, c.length, c.cards.counts) for c in cctx.decompose(H(lead))]
        assert got == want, (show(lead), [(w, ln, show(c)) for w, ln, c in got])
        assert cctx.is_tractor(H(lead)) == octx.is_tractor(lead), show(lead)
        # §8 on the lead's own decomposition (every kitty policy is drawn by contexts)
        assert cctx.kitty_multiplier(H(lead)) == octx.kitty_multiplier(lead), show(lead)


@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@FAST
def test_decompose_shengji_io(decks, data):
    """§3 decomposition: shengji_io (shengji.io find_plays / from_cards) on leads of up
    to 12 cards, several structures and loose copies together: the C core's pruned
    search against the oracle's full listing of shengji.io's splits."""
    rules, level, trump, _ = data.draw(contexts(decks))
    rules = dataclasses.replace(rules, decomposition="shengji_io", max_tuple=decks)
    note(f"rules={rules!r} level={level} trump={trump}")
    cctx, octx = Context(rules, level, trump), OracleContext(rules, level, trump)
    for _ in range(3):
        _, lead = data.draw(leads(octx, max_size=12, modes=("throw", "throw", "loose")))
        note(f"lead={show(lead)}")
        want = octx.decompose(lead)
        got = [(c.width, c.length, c.cards.counts) for c in cctx.decompose(H(lead))]
        assert got == want, (show(lead), [(w, ln, show(c)) for w, ln, c in got])
        assert cctx.kitty_multiplier(H(lead)) == octx.kitty_multiplier(lead), show(lead)


@pytest.mark.parametrize(
    "decks, level, trump, lead, first",
    [
        # two tractors of one width and length: the higher first (random draws rarely
        # lead two equal shapes, so these are pinned)
        (2, "10", "S", "HA HA HK HK H5 H5 H4 H4", "HA HA HK HK"),
        (2, "10", "S", "H7 H7 H6 H6 HQ HQ HJ HJ", "HQ HQ HJ HJ"),
        (3, "6", "H", "S3 S3 S3 S4 S4 S4 SQ SQ SQ SK SK SK", "SK SK SK SQ SQ SQ"),
    ],
)
def test_decompose_equal_shapes_best_first(decks, level, trump, lead, first):
    """docs/semantics.md §3: components are returned best first, by the key (cards,
    width, positions), so of two equally long tractors the higher comes first."""
    from shengji.rules import PlayRules

    rules = PlayRules(decks=decks)
    cctx, octx = Context(rules, level, trump), OracleContext(rules, level, trump)
    got = [c.cards for c in cctx.decompose(lead)]
    assert got[0] == Hand(first), [str(c) for c in got]
    counts = Hand(lead).counts
    assert [(c.width, c.length, c.cards.counts) for c in cctx.decompose(lead)] == \
        octx.decompose(counts)


@pytest.mark.parametrize("policy", ["smallest", "next_player_chooses", "first_blocker"])
@pytest.mark.parametrize("lead, others", [
    ("C10 D10", ["S10", "H2", "H3"]),
    ("C10 D10 H10", ["S10", "H2", "H3"]),
    ("C10 C10 D10 D10", ["S10 S10", "H2", "H3"]),
])
def test_throw_equal_strength_order(policy, lead, others):
    """§6: a failed throw of equal-strength parts (off-suit level cards) forces them in a
    defined order: first_blocker in shengji.io's card order (♠ ♥ ♦ ♣: D10 before C10),
    the other policies by kind (♠ ♥ ♣ ♦). Random draws rarely throw such cards."""
    from shengji.rules import PlayRules

    rules = PlayRules(decks=2, failed_throw=policy)
    cctx, octx = Context(rules, "10", "S"), OracleContext(rules, "10", "S")
    got = cctx.check_throw(lead, others)
    valid, forced, options, blocker = octx.check_throw(
        Hand(lead).counts, [Hand(o).counts for o in others])
    assert got.valid is valid is False and got.blocker == blocker
    assert got.forced.counts == tuple(forced)
    assert [o.counts for o in got.forced_options] == [tuple(o) for o in options]
    if lead == "C10 D10":
        assert got.forced == Hand("D10" if policy == "first_blocker" else "C10")


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_bad_leads_raise(decks, data):
    cctx, octx = setup(data, decks)
    s1, a = data.draw(leads(octx, max_size=2))
    s2, b = data.draw(leads(octx, max_size=2))
    mixed = tuple(min(x + y, c) for x, y, c in zip(a, b, octx.rules.copies, strict=True))
    for counts in ([0] * NUM_KINDS, mixed if s1 != s2 else None):
        if counts is None:
            continue
        with pytest.raises(HandError):
            octx.decompose(tuple(counts))
        with pytest.raises(HandError):
            cctx.decompose(H(tuple(counts)))
        assert cctx.is_tractor(H(tuple(counts))) is octx.is_tractor(tuple(counts)) is False


# -- §4/§5 following ---------------------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_follow(decks, data):
    cctx, octx = setup(data, decks)
    lead, hand = data.draw(follow_case(octx, decks))
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):
        return
    want = same_legal_follows(cctx, octx, lead, hand)
    # §5: the enumeration stops at the limit but reports the true total
    few = cctx.legal_follows(H(lead), H(hand), limit=1)
    assert few.total == len(want) and len(few.plays) == min(1, len(want))
    assert {p.counts for p in few.plays} <= want
    # every answer of check_follow, including the reasons, on a few plays
    from oracle.follow import sub_multisets

    plays = list(sub_multisets(hand, sum(lead)))
    for i in data.draw(st.lists(st.integers(0, len(plays) - 1), max_size=6)):
        p = plays[i]
        r = cctx.check_follow(H(lead), H(hand), H(p))
        assert (r.ok, r.reason) == octx.check_follow(lead, hand, p), show(p)


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_follow_genuine_tuples(decks, data):
    """§4 genuine_tuples (shengji.io PR #512) under longer-tuple protection: the legal
    follows, and check_follow on a few plays, C against the oracle."""
    rules, level, trump, _ = data.draw(contexts(decks))
    rules = dataclasses.replace(
        rules, genuine_tuples=True, must_break_tuples=None,
        follow_protection=data.draw(st.sampled_from(["longer_tuples", "both"])))
    note(f"rules={rules!r} level={level} trump={trump}")
    cctx, octx = Context(rules, level, trump), OracleContext(rules, level, trump)
    lead, hand = data.draw(follow_case(octx, decks))
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):
        return
    want = octx.legal_follows(lead, hand)
    got = cctx.legal_follows(H(lead), H(hand), limit=100_000)
    assert got.total == len(got.plays)
    assert {p.counts for p in got.plays} == want
    from oracle.follow import sub_multisets

    plays = list(sub_multisets(hand, sum(lead)))
    for i in data.draw(st.lists(st.integers(0, len(plays) - 1), max_size=6)):
        p = plays[i]
        r = cctx.check_follow(H(lead), H(hand), H(p))
        assert (r.ok, r.reason) == octx.check_follow(lead, hand, p), show(p)


@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@FAST
def test_follow_groupings(decks, data):
    """§4 default ladders with tractor groupings: a led three-pair tractor or quad against
    hands rich in pairs, under every follow_protection and shorter_tractors."""
    cctx, octx = setup(data, decks)
    lead, hand = data.draw(grouping_follow_case(octx))
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):
        return
    same_legal_follows(cctx, octx, lead, hand)


@pytest.mark.parametrize("decks", [2, 3])
@given(data=st.data())
@FAST
def test_follow_input_reasons(decks, data):
    """not_in_hand and wrong_count (§4 step 1)."""
    cctx, octx = setup(data, decks)
    lead, hand = data.draw(follow_case(octx, decks))
    other = data.draw(suited_group(octx, 4, sum(lead), minus(full(octx), hand)))
    for play in (other, hand):
        want = octx.check_follow(lead, hand, play)
        if want[1] == "not_in_hand":
            # a play not in the hand: the core may also reject it as an input error
            try:
                r = cctx.check_follow(H(lead), H(hand), H(play))
            except HandError:
                continue
            assert (r.ok, r.reason) == want, show(play)
        elif want[1] == "wrong_count":
            r = cctx.check_follow(H(lead), H(hand), H(play))
            assert (r.ok, r.reason) == want, show(play)


# -- §6 throws ---------------------------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_throw(decks, data):
    cctx, octx = setup(data, decks)
    suit, lead = data.draw(leads(octx, max_size=7))
    same_throw_check(cctx, octx, lead, data.draw(other_holdings(octx, suit, lead)))


# -- §7 trick winner, §8 kitty -----------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_trick_winner_and_kitty(decks, data):
    cctx, octx = setup(data, decks)
    plays = data.draw(trick(octx, decks))
    note(f"plays={[show(p) for p in plays]}")
    want = octx.trick_winner(plays)
    assert cctx.trick_winner([H(p) for p in plays]) == want
    lead, win = plays[0], plays[want]
    assert cctx.kitty_multiplier(H(lead)) == octx.kitty_multiplier(lead)
    assert cctx.kitty_multiplier(H(win), H(lead)) == octx.kitty_multiplier(win, lead)


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_ruffs_of_a_throw(decks, data):
    """§7: ruff against ruff on a throw, under the drawn ruff_compare."""
    cctx, octx = setup(data, decks)
    plays = data.draw(ruffed_throw(octx, decks))
    note(f"plays={[show(p) for p in plays]}")
    want = octx.trick_winner(plays)
    assert cctx.trick_winner([H(p) for p in plays]) == want
    assert cctx.kitty_multiplier(H(plays[want]), H(plays[0])) == octx.kitty_multiplier(
        plays[want], plays[0]
    )


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_ruffs_of_a_throw_all_splits(decks, data):
    """§7 ruff_compare ``all`` (shengji.io ThrowEvaluationPolicy::All): any split of a ruff
    that beats the winner's split counts, and the split kept is shengji.io's first."""
    rules, level, trump, _ = data.draw(contexts(decks))
    rules = dataclasses.replace(rules, ruff_compare="all")
    note(f"rules={rules!r} level={level} trump={trump}")
    cctx, octx = Context(rules, level, trump), OracleContext(rules, level, trump)
    plays = data.draw(ruffed_throw(octx, decks))
    if data.draw(st.booleans()):
        # three ruffs from a narrow band of trumps: the ruffs have several splits and
        # beat some of the winner's but not others, so the split kept decides
        shapes = [c[:2] for c in octx.decompose(plays[0])]
        trumps = sorted({octx.strength(k) for k in range(NUM_KINDS) if octx.is_trump(k)})
        lo = data.draw(st.sampled_from(trumps))
        avail = tuple(
            c if octx.is_trump(k) and lo <= octx.strength(k) < lo + 5 else 0
            for k, c in enumerate(full(octx))
        )
        plays = plays[:1]
        for _ in range(3):
            p = data.draw(shaped_group(octx, 4, shapes, avail))
            if data.draw(st.booleans()):
                p = tuple([0] * NUM_KINDS)
            if sum(avail) < sum(plays[0]):
                break
            p = data.draw(filled(octx, p, minus(avail, p), sum(plays[0])))
            if sum(p) != sum(plays[0]):
                break
            avail = minus(avail, p)
            plays.append(p)
        if len(plays) < 3:
            return
    note(f"plays={[show(p) for p in plays]}")
    assert cctx.trick_winner([H(p) for p in plays]) == octx.trick_winner(plays)


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_all_splits_kept_split(decks):
    """ruff_compare ``all``: three trump ruffs of a plain throw, drawn from bands of trumps
    (fixed seed). About one position in 500 turns on which split the winner keeps (the
    hypothesis test above rarely reaches one); C and the oracle must agree on all."""
    import random

    rng = random.Random(decks)
    leads_ = ["D8 D8 DJ DQ", "D8 D8 D9 D9 DQ", "D8 D8 DQ DQ DK", "D8 D8 DJ DQ DK", "D8 D8 DK DK"]
    for _ in range(600):
        level, trump = rng.choice(["2", "5", "10"]), rng.choice("SHC")
        rules = PlayRules(decks=decks, max_tuple=decks, ruff_compare="all")
        octx = OracleContext(rules, level, trump)
        lead = octx.counts(rng.choice(leads_))
        n = sum(lead)
        trumps = sorted({octx.strength(k) for k in range(NUM_KINDS) if octx.is_trump(k)})
        lo, width = rng.choice(trumps), rng.choice([4, 6, 8, 30])
        pool = [k for k in range(NUM_KINDS) if octx.is_trump(k)
                and lo <= octx.strength(k) < lo + width for _ in range(decks)]
        if len(pool) < 3 * n:
            continue
        rng.shuffle(pool)
        plays = [lead]
        for j in range(3):
            c = [0] * NUM_KINDS
            for k in pool[j * n:(j + 1) * n]:
                c[k] += 1
            plays.append(tuple(c))
        got = Context(rules, level, trump).trick_winner([H(p) for p in plays])
        assert got == octx.trick_winner(plays), [show(p) for p in plays]


@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@FAST
def test_many_seats(decks, data):
    """§6/§7 at tables of 5 to 12 seats (finding friends): the winner among up to 12 plays,
    a throw against up to 11 other holdings."""
    cctx, octx = setup(data, decks)
    plays, lead, others = data.draw(big_table(octx, decks))
    note(f"plays={[show(p) for p in plays]} others={[show(h) for h in others]}")
    if len(plays) >= 2:
        assert cctx.trick_winner([H(p) for p in plays]) == octx.trick_winner(plays)
    valid, forced, options, blocker = octx.check_throw(lead, others)
    r = cctx.check_throw(H(lead), [H(h) for h in others])
    assert (r.valid, r.forced.counts if r.forced else None, r.blocker) == (valid, forced, blocker)
    assert [o.counts for o in r.forced_options] == options


@given(data=st.data())
@FAST
def test_bombs(data):
    """§4/§7 bombs on four decks: legal follows (a quad as a bomb) and trick winners."""
    cctx, octx = setup(data, 4)
    lead, hand, plays = data.draw(bomb_trick(octx))
    note(f"lead={show(lead)} hand={show(hand)} plays={[show(p) for p in plays]}")
    if sum(hand) >= sum(lead):
        want = octx.legal_follows(lead, hand)
        got = cctx.legal_follows(H(lead), H(hand), limit=100_000)
        assert {p.counts for p in got.plays} == want
        assert got.total == len(want)
    assert cctx.trick_winner([H(p) for p in plays]) == octx.trick_winner(plays)


@pytest.mark.parametrize("decks", DECKS)
@given(data=st.data())
@FAST
def test_rainbows(decks, data):
    """Rainbows (shengji.io compound formats): decomposition, following, throws, winner."""
    rules, level, trump, _ = data.draw(contexts(decks))
    rules = dataclasses.replace(rules, rainbow_min=data.draw(st.integers(4, 4 + decks)))
    cctx, octx = Context(rules, level, trump), OracleContext(rules, level, trump)
    note(f"rules={rules!r} level={level} trump={trump}")
    lead, hands, plays = data.draw(rainbow_case(octx))
    note(f"lead={show(lead)} hands={[show(h) for h in hands]} plays={[show(p) for p in plays]}")
    if sum(lead) == 0:
        return
    assert cctx.is_rainbow(H(lead)) == octx.is_rainbow(lead)
    if not octx.is_rainbow(lead):
        return
    got = [(c.width, c.length, c.cards.counts) for c in cctx.decompose(H(lead))]
    assert got == octx.decompose(lead)
    assert cctx.kitty_multiplier(H(lead)) == octx.kitty_multiplier(lead)
    for h in hands:
        if sum(h) >= sum(lead) and sum(h) <= sum(lead) + 4:
            want = octx.legal_follows(lead, h)
            res = cctx.legal_follows(H(lead), H(h), limit=100_000)
            assert {p.counts for p in res.plays} == want and res.total == len(want)
    valid, forced, options, blocker = octx.check_throw(lead, hands)
    r = cctx.check_throw(H(lead), [H(h) for h in hands])
    assert (r.valid, r.forced.counts if r.forced else None, r.blocker) == (valid, forced, blocker)
    assert [o.counts for o in r.forced_options] == options
    if len(plays) > 1:
        assert cctx.trick_winner([H(p) for p in plays]) == octx.trick_winner(plays)


@pytest.mark.parametrize("decks", [2, 3])
@given(data=st.data())
@FAST
def test_plays_of_different_sizes_raise(decks, data):
    cctx, octx = setup(data, decks)
    plays = data.draw(trick(octx, decks))
    short = list(plays[-1])
    k = next(i for i, c in enumerate(short) if c)
    short[k] -= 1
    plays = plays[:-1] + [tuple(short)]
    with pytest.raises(HandError):
        octx.trick_winner(plays)
    with pytest.raises(HandError):
        cctx.trick_winner([H(p) for p in plays])
