"""Wrong types at every public entry point raise a typed ShengjiError, never a bare Python
error (issue 12: ``Hand(None)``, ``Context.decompose(None)``, ...).

Each entry point is a one-argument call; hypothesis feeds it hostile values (None, bools,
floats, bytes, huge ints, nested lists, mappings, objects). A call may succeed when the
value happens to be acceptable (``Hand((1, 2))`` is two cards); it must never raise
anything but a ShengjiError subclass.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji import cards
from shengji.core import Context, Hand, as_hand
from shengji.errors import CardError, HandError, ShengjiError
from shengji.rules import PlayRules

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.builds(object),
)
#: hostile values: scalars, and shallow containers of them
HOSTILE = st.one_of(
    _scalars,
    st.lists(_scalars, max_size=4),
    st.tuples(_scalars, _scalars),
    st.dictionaries(st.text(max_size=3), _scalars, max_size=2),
    st.sets(st.integers(-3, 60), max_size=3),
)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CTX = Context(PlayRules(decks=2), "2", "S")
HAND = Hand("HA HA HK")

# ------------------------------------------------------------------ shengji.cards, core

CARDS_CALLS = {
    "kind(suit)": lambda x: cards.kind(x, 1),
    "kind(rank)": lambda x: cards.kind(1, x),
    "suit_of": cards.suit_of,
    "rank_of": cards.rank_of,
    "parse_suit": cards.parse_suit,
    "parse_rank": cards.parse_rank,
    "parse_card": cards.parse_card,
    "card_str": cards.card_str,
    "parse_cards": cards.parse_cards,
    "counts_of": cards.counts_of,
    "counts_of(decks)": lambda x: cards.counts_of([1], x),
    "format_counts": cards.format_counts,
    "point_value": cards.point_value,
    "full_deck_counts": cards.full_deck_counts,
    "card_id": cards.card_id,
}

CORE_CALLS = {
    "Hand": Hand,
    "Hand(decks)": lambda x: Hand("HA", x),
    "Hand.from_counts": Hand.from_counts,
    "Hand.from_counts(decks)": lambda x: Hand.from_counts([0] * 54, x),
    "Hand +": lambda x: HAND + x,
    "Hand -": lambda x: HAND - x,
    "Hand <=": lambda x: HAND <= x,
    "in Hand": lambda x: x in HAND,
    "as_hand": as_hand,
    "Context(rules)": lambda x: Context(x, 2),
    "Context(level)": lambda x: Context(PlayRules(), x),
    "Context(trump)": lambda x: Context(PlayRules(), 2, x),
    "effective_suit": CTX.effective_suit,
    "is_trump": CTX.is_trump,
    "strength": CTX.strength,
    "compare(a)": lambda x: CTX.compare(x, "HA"),
    "compare(b)": lambda x: CTX.compare("HA", x),
    "decompose": CTX.decompose,
    "is_tractor": CTX.is_tractor,
    "check_follow(lead)": lambda x: CTX.check_follow(x, "HA HK", "HA"),
    "check_follow(hand)": lambda x: CTX.check_follow("HA", x, "HA"),
    "check_follow(play)": lambda x: CTX.check_follow("HA", "HA HK", x),
    "legal_follows(lead)": lambda x: CTX.legal_follows(x, "HA HK"),
    "legal_follows(hand)": lambda x: CTX.legal_follows("HA", x),
    "legal_follows(limit)": lambda x: CTX.legal_follows("HA", "HA HK", x),
    "check_throw(lead)": lambda x: CTX.check_throw(x, ["HQ"]),
    "check_throw(others)": lambda x: CTX.check_throw("HA HK", x),
    "check_throw(others[0])": lambda x: CTX.check_throw("HA HK", [x]),
    "trick_winner": CTX.trick_winner,
    "trick_winner(plays[1])": lambda x: CTX.trick_winner(["HA", x]),
    "kitty_multiplier(play)": CTX.kitty_multiplier,
    "kitty_multiplier(lead)": lambda x: CTX.kitty_multiplier("HA", x),
}


def _only_typed_errors(call, value) -> None:
    try:
        call(value)
    except ShengjiError:
        pass


@pytest.mark.parametrize("name", sorted(CARDS_CALLS))
@FUZZ
@given(value=HOSTILE)
def test_cards_entry_points_raise_typed_errors(name, value):
    _only_typed_errors(CARDS_CALLS[name], value)


@pytest.mark.parametrize("name", sorted(CORE_CALLS))
@FUZZ
@given(value=HOSTILE)
def test_core_entry_points_raise_typed_errors(name, value):
    _only_typed_errors(CORE_CALLS[name], value)


# the examples of issue 12, each with the one-line error expected
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: Hand(None), CardError,
         "cards: expected a string such as 'HA HA HK' or a list of card tokens or ids, "
         "got NoneType None"),
        (lambda: CTX.decompose(None), CardError,
         "lead: expected a string such as 'HA HA HK' or a list of card tokens or ids, "
         "got NoneType None"),
        (lambda: CTX.check_follow("HA", 7.5, "HA"), CardError,
         "hand: expected a string such as 'HA HA HK' or a list of card tokens or ids, "
         "got float 7.5"),
        (lambda: CTX.trick_winner(None), HandError,
         "plays: expected a list of card groups, got NoneType None"),
        (lambda: CTX.check_throw("HA", ["HK", b"HQ"]), CardError,
         "others[1]: expected a string such as 'HA HA HK' or a list of card tokens or ids, "
         "got bytes b'HQ'"),
        (lambda: Hand("HA", decks=1.5), HandError,
         "decks: expected an integer 1..4, got float 1.5"),
        (lambda: Hand.from_counts(None), HandError,
         "counts: expected 54 card counts, got NoneType"),
        (lambda: Hand([1.5]), CardError, "a card must be a string token, got float 1.5"),
        (lambda: CTX.legal_follows("HA", "HK", limit=True), HandError,
         "limit: True is not a non-negative integer"),
        (lambda: cards.point_value(None), CardError,
         "card id: expected an integer 0..53, got NoneType None"),
        (lambda: cards.suit_of(54), CardError, "card id: 54 out of range 0..53"),
        (lambda: cards.kind("H", 3), CardError,
         "suit index: expected an integer 0..3, got str 'H'"),
        (lambda: cards.format_counts([0] * 53), CardError,
         "counts: 53 values, expected 54 (one per card kind)"),
        (lambda: cards.counts_of([1, None]), CardError,
         "cards: card id: expected an integer 0..53, got NoneType None"),
        (lambda: cards.full_deck_counts(None), CardError,
         "decks: expected an integer 1..4, got NoneType None"),
        (lambda: cards.parse_suit(0), CardError,
         "unknown suit 0: a suit is a string, one of S H C D"),
    ],
)  # fmt: skip
def test_wrong_types_one_line_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_well_typed_calls_unchanged():
    """The checks sit beside the fast path: ordinary values behave as before."""
    assert cards.point_value(cards.parse_card("HK")) == 10
    assert cards.suit_of(cards.BIG_JOKER) is None and cards.rank_of(14) == 1
    assert Hand((1, 2)) == Hand("S3 S4") and Hand(HAND) == HAND
    assert Hand("HA", decks=1).counts == Hand("HA").counts
    assert cards.card_str(53) == "BJ" and cards.point_value(3) == 5
