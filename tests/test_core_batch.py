"""The cheap forms of the core's Python face (issue 14): batch entry points agree with
the single calls (and with the oracle), lazy results (``Decomposition``, a failed
``FollowResult``'s detail) equal the eager ones, and the card-text fast paths parse
exactly as the full parser does."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from strategies import contexts, follow_case, trick
from tiers import depth

from shengji import cards
from shengji.cards import format_counts
from shengji.core import Context, Decomposition, FollowResult, Hand
from shengji.errors import CardError, HandError
from shengji.rules import PlayRules

# bounded by default, deeper under --long (tests/tiers.py)
pytestmark = pytest.mark.scaled
SOME = settings(max_examples=depth(15, 80), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
L10S = Context(PlayRules(decks=2), "10", "S")


def H(counts):
    return Hand.from_counts(counts)


def show(counts):
    return format_counts(counts) or "(none)"


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
@given(data=st.data())
@SOME
def test_check_follows_is_check_follow_per_play(decks, data):
    rules, level, trump, octx = data.draw(contexts(decks))
    ctx = Context(rules, level, trump)
    lead, hand = data.draw(follow_case(octx, decks))
    from oracle.follow import sub_multisets

    plays = list(sub_multisets(hand, sum(lead)))
    picked = data.draw(st.lists(st.sampled_from(plays), max_size=12)) if plays else []
    note(f"lead={show(lead)} hand={show(hand)} plays={[show(p) for p in picked]}")
    got = ctx.check_follows(H(lead), H(hand), [H(p) for p in picked])
    assert got == [ctx.check_follow(H(lead), H(hand), H(p)).ok for p in picked]
    assert got == [octx.check_follow(lead, hand, p)[0] for p in picked]
    # every legal follow passes
    legal = ctx.legal_follows(H(lead), H(hand), limit=50).plays
    assert all(ctx.check_follows(H(lead), H(hand), legal))


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
@given(data=st.data())
@SOME
def test_trick_winners_is_trick_winner_per_trick(decks, data):
    rules, level, trump, octx = data.draw(contexts(decks))
    ctx = Context(rules, level, trump)
    tricks = [data.draw(trick(octx, decks)) for _ in range(data.draw(st.integers(0, 5)))]
    hands = [[H(p) for p in t] for t in tricks]
    want = [octx.trick_winner(t) for t in tricks]
    assert ctx.trick_winners(hands) == want
    assert [ctx.trick_winner(t) for t in hands] == want
    # card texts are converted, as by trick_winner
    assert ctx.trick_winners([[show(p) for p in t] for t in tricks]) == want


def test_batch_errors_name_the_group():
    hand = Hand("HK HK HQ H3 SA")
    assert L10S.check_follows("HA HA", hand, []) == []
    assert L10S.check_follows("HA HA", hand, ["HK HK", "HK H3", "HQ SA"]) == [True, False, False]
    with pytest.raises(HandError, match=r"^plays\[1\]: HJ is not in the hand"):
        L10S.check_follows("HA HA", hand, ["HK HK", "HJ HK"])
    assert L10S.check_follows("HA HA", hand, ["HK HK HQ"]) == [False]  # wrong_count
    with pytest.raises(CardError, match=r"^plays\[1\]"):
        L10S.check_follows("HA HA", hand, ["HK HK", None])
    assert L10S.trick_winners([]) == []
    assert L10S.trick_winners([["HA", "HK"], ["C3 C3", "S4 S4"]]) == [0, 1]  # a ruff
    with pytest.raises(HandError, match=r"^tricks\[1\]: plays: a trick needs 2\.\.64 plays"):
        L10S.trick_winners([["HA", "HK"], ["HA"]])
    with pytest.raises(HandError, match=r"^tricks\[0\]: plays\[1\]"):
        L10S.trick_winners([["HA HA", "HK"]])
    with pytest.raises(HandError, match=r"^tricks: expected a list"):
        L10S.trick_winners(None)


def test_trick_winner_fast_path_is_safe():
    """The fast path reads each Hand's 54 bytes; anything else takes the checked path."""
    class Fake:
        _b = b"\x01" * 10  # not 54 counts: must never reach C as if it were

    with pytest.raises(CardError):
        L10S.trick_winner([Hand("HA"), Fake()])
    assert L10S.trick_winner((Hand("H3"), "HA")) == 1
    assert L10S.trick_winner(iter([Hand("H3"), Hand("H4")])) == 1


def test_decomposition_is_its_list():
    hand = Hand("HA HA HK HK H9 H9 H8 H4 H4")
    d = L10S.decompose(hand)
    assert isinstance(d, Decomposition) and len(d) == 4
    comps = list(d)
    assert d == comps and comps == d and d == L10S.decompose(str(hand))
    assert d[0].shape == (2, 2) and d[-1].shape == (1, 1) and d[1:3] == comps[1:3]
    assert repr(d) == repr(comps) and pickle.loads(pickle.dumps(d)) == comps
    assert d != comps[:2] and d != tuple(comps)
    # a cached lead (the hand prepared by check_follow) gives the same answer
    L10S.check_follow(hand, "HQ HQ HJ HJ H7 H7 H3 H2 H2", "HQ HQ HJ HJ H7 H7 H3 H2 H2")
    assert L10S.decompose(hand) == comps and len(L10S.decompose(hand)) == 4
    # one hand under two contexts: 99 77 is two pairs at level 10, a tractor at level 8
    pairs = Hand("H9 H9 H7 H7")
    two = L10S.decompose(pairs)
    one = Context(PlayRules(decks=2), "8", None).decompose(pairs)
    assert len(two) == 2 and len(one) == 1  # both before either is read
    assert [c.shape for c in one] == [(2, 2)] and [c.shape for c in two] == [(2, 1)] * 2


def test_failed_follow_detail_is_lazy_and_equal():
    bad = L10S.check_follow("HA HA", "HK HK HQ HQ H3 SA", "HK H3")
    assert bad._detail is None  # nothing worked out yet
    assert not bad.ok and bad.reason == "must_follow_shape"
    ok, reason, detail = bad
    assert "pair" in detail and bad.detail == detail and bad[2] == detail
    assert bad == FollowResult(False, "must_follow_shape", detail)
    assert bad == (False, "must_follow_shape", detail) and len(bad) == 3
    assert hash(bad) == hash((False, "must_follow_shape", detail))
    assert bad._asdict() == {"ok": False, "reason": "must_follow_shape", "detail": detail}
    assert "must follow shape" in repr(bad)
    good = L10S.check_follow("HA HA", "HK HK", "HK HK")
    assert good == FollowResult(True, "ok", "") and tuple(good) == (True, "ok", "")


def test_every_fast_token_parses_as_the_full_parser():
    for token, k in cards._TOKEN_IDS.items():
        assert cards.parse_card(token) == k
    # spellings outside the table still parse (the full parser), and errors are the same
    assert cards.parse_cards([" HA ", "♥10"]) == [cards.parse_card("HA"), 21]
    assert cards.parse_cards("ha,h10  ♠t") == [25, 21, 8]
    with pytest.raises(CardError, match="malformed card 'HX'"):
        cards.parse_cards("HA HX")
    with pytest.raises(CardError, match="malformed card 'HX'"):
        cards.parse_cards("HA HX")  # a failed text is not cached


def test_hand_text_cache_returns_fresh_values():
    a = cards.parse_cards("HA HK")
    a.append(3)
    assert cards.parse_cards("HA HK") == [25, 24]
    assert Hand("HA HA") == Hand("HA HA") and len(Hand("HA HA")) == 2
    with pytest.raises(HandError, match="3 copies of HA but 2 deck"):
        Hand("HA HA HA", decks=2)
    assert Hand("HA HA HA").counts[25] == 3  # the cached counts did not keep the error
    with pytest.raises(HandError, match="11 copies of HA but at most 10"):
        Hand("HA " * 11)
    with pytest.raises(HandError, match="300 copies"):
        Hand([25] * 300)


def test_from_counts_fast_path_keeps_the_checks():
    c = [0] * 54
    c[25] = 2
    assert Hand.from_counts(c) == Hand("HA HA") == Hand.from_counts(tuple(c), decks=2)
    for bad in ([True] + [0] * 53, [-1] + [0] * 53, [11] + [0] * 53, [0] * 53, [1.0] + [0] * 53):
        with pytest.raises(HandError):
            Hand.from_counts(bad)
    with pytest.raises(HandError, match="3 copies of HA but 2 deck"):
        Hand.from_counts([0] * 25 + [3] + [0] * 28, decks=2)


def test_legal_follows_are_a_lazy_list_of_hands():
    res = L10S.legal_follows("HA HA", "C3 C4 D5 D6")
    plays = res.plays
    assert res.total == 6 and len(plays) == 6
    as_list = list(plays)
    assert all(isinstance(p, Hand) and len(p) == 2 for p in as_list)
    assert plays == as_list and as_list == plays and plays == L10S.legal_follows(
        "HA HA", "C3 C4 D5 D6").plays
    assert plays[0] == as_list[0] and plays[-1] == as_list[-1] and plays[1:3] == as_list[1:3]
    assert Hand("C3 C4") in plays and Hand("C3 C3") not in plays and "C3 C4" not in plays
    assert set(plays) == set(as_list) and pickle.loads(pickle.dumps(plays)) == as_list
    with pytest.raises(IndexError):
        plays[6]
    assert "HandList" in repr(plays) and plays != as_list[:-1]
    assert L10S.legal_follows("HA HA", "C3 C4 D5 D6", limit=0).plays == []
    assert [plays.ids_at(i) for i in range(6)] == [p.ids_desc() for p in as_list]
    assert plays.ids_at(-1) == as_list[-1].ids_desc() and plays.ids_at(0)[0] >= plays.ids_at(0)[1]
    with pytest.raises(IndexError):
        plays.ids_at(6)
