"""Wrong types at every public entry point raise a typed ShengjiError, never a bare Python
error (issue 12: ``Hand(None)``, ``Context.decompose(None)``, ...): shengji.cards and
shengji.core, then rules.py, the variants API, the engine (Game, actions, events,
serial) and protocol message decoding (with the Table that speaks it).

Each entry point is a one-argument call; hypothesis feeds it hostile values (None, bools,
floats, bytes, huge ints, nested lists, mappings, objects). A call may succeed when the
value happens to be acceptable (``Hand((1, 2))`` is two cards); it must never raise
anything but a ShengjiError subclass, and where no value of that type can be meant (a
float, bytes, a bare object; None where the argument is not optional) it must raise one.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import depth

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
# bounded by default, deeper under --long (tests/tiers.py)
FUZZ = settings(max_examples=depth(15, 80), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

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


# ------------------------------------------------ rules, variants, engine, serial, protocol


def _wider_calls() -> dict:
    """Entry points above the core; built once (loading a variant takes a moment)."""
    from shengji import rules
    from shengji.bots import make_bot
    from shengji.engine import (
        Bury,
        ChooseForced,
        Declare,
        Game,
        Pass,
        Play,
        action_from_dict,
        event_from_dict,
        serial,
    )
    from shengji.model import ScoreOutcome
    from shengji.protocol import messages
    from shengji.protocol.table import Table
    from shengji.variants import list_variants, load_variant

    v = load_variant("two-deck-80")
    game = Game(v, 1)
    table = Table("two-deck-80", 1)
    out = ScoreOutcome("attackers", 1)
    return {
        # rules.py (PlayRules's own fields: tests/test_core_errors.py)
        "parse_shape": rules.parse_shape,
        "shape_str": rules.shape_str,
        "parse_pattern": rules.parse_pattern,
        "pattern_str": rules.pattern_str,
        "pattern_cards": rules.pattern_cards,
        "default_ladder(lead)": lambda x: rules.default_ladder(x, 2),
        "default_ladder(max_tuple)": lambda x: rules.default_ladder((2, 2), x),
        "PlayRules.from_mapping": rules.PlayRules.from_mapping,
        "PlayRules(decks)": lambda x: rules.PlayRules(decks=x),
        "PlayRules(following)": lambda x: rules.PlayRules(following=x),
        "PlayRules.ladder_for": rules.PlayRules().ladder_for,
        "PlayRules.shape_exists": rules.PlayRules().shape_exists,
        # the variants API
        "load_variant": load_variant,
        "load_variant(plugins)": lambda x: load_variant("two-deck-80", plugins=x),
        "load_variant(allow_plugins)": lambda x: load_variant("two-deck-80", allow_plugins=x),
        "list_variants": list_variants,
        "Variant.context(level)": lambda x: v.context(x, None),
        "Variant.context(trump)": lambda x: v.context(2, x),
        "Variant.declaration_strength": lambda x: v.declaration_strength(x, 2),
        "Variant.bid(seat)": lambda x: v.bid(x, "H2", 0),
        "Variant.may_overturn": lambda x: v.may_overturn(None, x),
        "Variant.declare": lambda x: v.declare(x, 0),
        "Variant.no_declaration": lambda x: v.no_declaration(x, "HA HK", 0),
        "Variant.first_dealer": v.first_dealer,
        "Variant.failed_throw": lambda x: v.failed_throw(x, 0),
        "Variant.kitty_multiplier": lambda x: v.kitty_multiplier(x, "HA"),
        "Variant.score_deal": v.score_deal,
        "Variant.next_dealer": lambda x: v.next_dealer(x, out),
        "Variant.match_winner": lambda x: v.match_winner(x, out, 0),
        "Variant.advance(level)": lambda x: v.advance(x, 1, True),
        "Variant.advance(rise)": lambda x: v.advance(3, x, True),
        "Variant.dealers_back_to_start": lambda x: v.dealers_back_to_start(x, "HJ", True),
        # bots
        "make_bot(variant)": lambda x: make_bot("heuristic", x, 1),
        "make_bot(seed)": lambda x: make_bot("random", v, x),
        # the engine
        "Game(variant)": lambda x: Game(x, 1),
        "Game(seed)": lambda x: Game(v, x),
        "Game(max_deals)": lambda x: Game(v, 1, max_deals=x),
        "Game.legal_actions": game.legal_actions,
        "Game.can": game.can,
        "Game.apply": lambda x: game.copy().apply(x),
        "Game.view": game.view,
        "Game.events_for": game.events_for,
        "Game.replay": lambda x: Game.replay(v, 1, x),
        "Pass": Pass,
        "Play(seat)": lambda x: Play(x, "HA"),
        "Play(cards)": lambda x: Play(0, x),
        "Declare": lambda x: Declare(0, x),
        "Bury": lambda x: Bury(0, x),
        "ChooseForced": lambda x: ChooseForced(0, x),
        "action_from_dict": action_from_dict,
        "event_from_dict": event_from_dict,
        "serial.loads": serial.loads,
        "serial.load": serial.load,
        "Game.from_dict": Game.from_dict,
        # protocol messages and the table that speaks them
        "parse_message": messages.parse_message,
        "check_message": messages.check_message,
        "check_action": messages.check_action,
        "decode_action": lambda x: messages.decode_action(x, 0),
        "decode_view": messages.decode_view,
        "decode_legal": lambda x: messages.decode_legal(x, 0),
        "trump_name": messages.trump_name,
        "rank_name": messages.rank_name,
        "Table(variant)": lambda x: Table(x, 1),
        "Table.state": table.state,
        "Table.state(since)": lambda x: table.state(0, x),
        "Table.events(since)": lambda x: table.events(0, x),
        "Table.replay": lambda x: table.replay(0, x),
        "Table.act": lambda x: table.act(0, x),
        "Table.advice": lambda x: table.advice(0, x),
    }


_WIDER: dict = {}


def wider(name: str):
    if not _WIDER:
        _WIDER.update(_wider_calls())
    return _WIDER[name]


WIDER_NAMES = [
    "parse_shape", "shape_str", "parse_pattern", "pattern_str", "pattern_cards",
    "default_ladder(lead)", "default_ladder(max_tuple)", "PlayRules.from_mapping",
    "PlayRules(decks)", "PlayRules(following)", "PlayRules.ladder_for",
    "PlayRules.shape_exists", "load_variant", "load_variant(plugins)",
    "load_variant(allow_plugins)", "list_variants", "Variant.context(level)",
    "Variant.context(trump)", "Variant.declaration_strength", "Variant.bid(seat)",
    "Variant.may_overturn", "Variant.declare", "Variant.no_declaration",
    "Variant.first_dealer", "Variant.failed_throw", "Variant.kitty_multiplier",
    "Variant.score_deal", "Variant.next_dealer", "Variant.match_winner",
    "Variant.advance(level)", "Variant.advance(rise)", "Variant.dealers_back_to_start",
    "make_bot(variant)", "make_bot(seed)", "Game(variant)",
    "Game(seed)", "Game(max_deals)", "Game.legal_actions", "Game.can", "Game.apply",
    "Game.view", "Game.events_for", "Game.replay", "Pass", "Play(seat)", "Play(cards)",
    "Declare", "Bury", "ChooseForced", "action_from_dict", "event_from_dict",
    "serial.loads", "serial.load", "Game.from_dict", "parse_message", "check_message",
    "check_action", "decode_action", "decode_view", "decode_legal", "trump_name",
    "rank_name", "Table(variant)", "Table.state", "Table.state(since)",
    "Table.events(since)", "Table.replay", "Table.act", "Table.advice",
]  # fmt: skip


def test_every_wider_entry_point_is_listed():
    assert sorted(WIDER_NAMES) == sorted(_wider_calls())


@pytest.mark.parametrize("name", WIDER_NAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=HOSTILE)
def test_wider_entry_points_raise_typed_errors(name, value):
    _only_typed_errors(wider(name), value, name)


@pytest.mark.parametrize(
    "name, value, error, message",
    [
        ("shape_str", None, "RulesError", "unknown shape None: expected one of single, pair, "),
        ("Variant.next_dealer", "0", "ArgumentError", "dealer: expected an integer, got str '0'"),
        ("Variant.next_dealer", 7, "ArgumentError", "dealer: 7 is out of range (0..3)"),
        ("Variant.declare", 5, "ArgumentError", "steps: expected a list, got int 5"),
        ("Variant.context(level)", [2], "ArgumentError", "level: expected int or str, got list"),
        ("Game.view", None, "ArgumentError", "seat: expected an integer, got NoneType None"),
        ("Game.legal_actions", 99, "ArgumentError", "seat: 99 is out of range (0..3)"),
        ("Game.legal_actions", "x", "ArgumentError", "seat: expected an integer, got str 'x'"),
        ("Variant.advance(level)", "x", "ArgumentError", "level: expected an integer, got str"),
        ("Variant.advance(rise)", -1, "ArgumentError", "rise: -1 is out of range (at least 0)"),
        ("make_bot(variant)", None, "ArgumentError", "variant: expected a Variant "),
        ("make_bot(seed)", 1.5, "ArgumentError", "seed: expected an integer or a string, got "),
        ("Game.replay", 5, "ArgumentError", "actions: expected a list of actions, got int 5"),
        ("Game(seed)", 1.5, "ArgumentError", "Game: seed must be an integer or a string, got "),
        ("event_from_dict", None, "RecordError", "event record: expected an object with a "),
        ("serial.load", None, "RecordError", "game record: expected a file path, got NoneType"),
        ("parse_message", None, "ProtocolError", "a message is JSON text, not NoneType"),
        ("decode_view", {"seat": 0}, "ProtocolError", "view: missing key 'players'"),
        ("decode_legal", {"kind": "lead"}, "ProtocolError", "legal: missing key 'actions'"),
        ("Table.events(since)", "x", "ArgumentError", "since: expected an event index, got 'x'"),
        ("load_variant", 5, "ArgumentError", "variant: expected a name, a YAML path, a "),
    ],
)  # fmt: skip
def test_wider_wrong_types_one_line_errors(name, value, error, message):
    with pytest.raises(ShengjiError) as info:
        wider(name)(value)
    assert type(info.value).__name__ == error
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


#: entry points that take any value by design
ANY_VALUE = {
    "list_variants",  # include_house: a flag, read by its truth
    "Game.can",  # a question: False for whatever is not a legal action now
}
#: entry points whose argument is optional: None is a legal value there
NONE_OK = {
    "counts_of(decks)", "Hand(decks)", "Hand.from_counts(decks)", "Context(trump)",
    "kitty_multiplier(lead)", "Variant.context(trump)", "Game(max_deals)",
    "Game.legal_actions", "Game.events_for", "decode_legal", "trump_name", "Table.state",
    "Table.state(since)",
}  # fmt: skip


def _due(name: str, value) -> bool:
    """Must this value be refused with a typed error? No entry point takes a float, bytes
    or a bare object, nor None unless its argument is optional."""
    if name in ANY_VALUE:
        return False
    if value is None:
        return name not in NONE_OK
    return isinstance(value, (float, bytes)) or type(value) is object


def _only_typed_errors(call, value, name: str = "") -> None:
    if name and _due(name, value):
        with pytest.raises(ShengjiError):
            call(value)
        return
    try:
        call(value)
    except ShengjiError:
        pass


@pytest.mark.parametrize("name", sorted(CARDS_CALLS))
@FUZZ
@given(value=HOSTILE)
def test_cards_entry_points_raise_typed_errors(name, value):
    _only_typed_errors(CARDS_CALLS[name], value, name)


@pytest.mark.parametrize("name", sorted(CORE_CALLS))
@FUZZ
@given(value=HOSTILE)
def test_core_entry_points_raise_typed_errors(name, value):
    _only_typed_errors(CORE_CALLS[name], value, name)


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
         "decks: expected an integer 1..10, got float 1.5"),
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
         "decks: expected an integer 1..10, got NoneType None"),
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


@pytest.mark.parametrize("kwargs, message", [
    ({"deals": "x"}, "deals: expected a number 0, 1, ..., got str 'x'"),
    ({"deals": 2.0}, "deals: expected a number 0, 1, ..., got float 2.0"),
    ({"deals": 1, "players": None}, "players: expected a list of bot names, one per seat, got "
                                    "NoneType None"),
    ({"deals": 1, "players": "random"}, "players: expected a list of bot names, one per "
                                        "seat, got str 'random'"),
    ({"deals": 1, "jobs": -1}, "jobs: expected a number 0, 1, ..., got int -1"),
])  # fmt: skip
def test_simulate_arguments_one_line_errors(kwargs, message):
    from shengji.errors import ArgumentError
    from shengji.harness.simulation import simulate

    players = kwargs.pop("players", ["random"] * 4)
    with pytest.raises(ArgumentError) as info:
        simulate("two-deck-80", players, progress=False, **kwargs)
    assert str(info.value) == message
