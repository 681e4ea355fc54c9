"""The play knobs of issue 10 through the engine: a rainbow led and followed, bombs in the
follow listing, a failed throw's penalty once per attempt (semantics §3-§7; the core's
own answers are held to the oracle by tests/test_differential.py)."""

from test_engine import set_hands, to_play_phase

from shengji.cards import parse_cards
from shengji.engine import Play
from shengji.engine.events import ThrowFailed, TrickWon
from shengji.variants import load_variant


def _cards(text):
    return tuple(parse_cards(text))


def _variant(play, penalty=0, base="two-deck-80"):
    return load_variant({"extends": base, "name": "knobs", "play": play,
                         "penalties": {"failed_throw": penalty}})


def _at_lead(variant, hands):
    g = to_play_phase(variant, 3)
    g.level = 8  # playing 10
    hands = {(g.leader + i) % g.players: h for i, h in enumerate(hands)}
    set_hands(g, hands)
    return g


def test_rainbow_led_followed_and_won_by_the_highest_rank():
    v = _variant({"rainbow_min": 4})
    g = _at_lead(v, ["S5 H5 C5 D5 H3", "H9 H9 C9 S9 H2", "HA HK HQ HJ C3", "D2 D2 C2 H2 D3"])
    leader = g.leader
    assert g.can(Play(leader, _cards("S5 H5 C5 D5")))
    g.apply(Play(leader, _cards("S5 H5 C5 D5")))
    seat = g.to_act
    legal = g.legal_actions(seat)
    # the hand holds four 9s: every legal follow gives four cards of one rank
    assert legal.kind == "follow" and len(legal) == 1
    assert sorted(legal[0].cards) == sorted(_cards("H9 H9 C9 S9"))
    assert not g.can(Play(seat, _cards("H9 H9 C9 H2")))
    events = []
    for text in ("H9 H9 C9 S9", "HA HK HQ HJ", "D2 D2 C2 H2"):
        events += g.apply(Play(g.to_act, _cards(text)))
    won = [e for e in events if isinstance(e, TrickWon)][0]
    assert won.seat == (leader + 1) % g.players


def test_rainbow_refused_without_the_knob():
    g = _at_lead(_variant({}), ["S5 H5 C5 D5 H3", "H9 H8 H7 H6 H2", "C3 C4 C6 C7 C8",
                               "D2 D3 D4 D6 D7"])
    assert not g.can(Play(g.leader, _cards("S5 H5 C5 D5")))


def test_bombs_any_suit_listed_when_short_in_the_led_suit():
    v = _variant({"bombs": "any_suit", "throws": True}, base="four-deck")
    g = _at_lead(v, ["HA HA HA HK H5", "C7 C7 C7 C7 H9", "H3 H3 H3 H2 C2", "D2 D3 D4 D6 D7"])
    g.apply(Play(g.leader, _cards("HA HA HA HK")))  # a throw nobody beats
    legal = g.legal_actions(g.to_act)
    plays = {tuple(sorted(a.cards)) for a in legal}
    assert tuple(sorted(_cards("C7 C7 C7 C7"))) in plays  # the bomb, though H9 is held
    assert all(_cards("H9")[0] in p or len(set(p)) == 1 for p in plays)
    events = []
    leader = g.leader
    for text in ("C7 C7 C7 C7", "H3 H3 H3 H2", "D2 D3 D4 D6"):
        events += g.apply(Play(g.to_act, _cards(text)))
    won = [e for e in events if isinstance(e, TrickWon)][0]
    assert won.seat == (leader + 1) % g.players  # the bomb beats the unbeaten throw


def test_failed_throw_costs_the_penalty_once_per_attempt():
    """shengji.io ThrowPenalty::TenPointsPerAttempt: a throw failing in several parts
    still costs one penalty (docs/variants.md penalties.failed_throw)."""
    v = _variant({"failed_throw": "first_blocker"}, penalty=10)
    g = _at_lead(v, ["H9 H8 H4 H4 C2 C3", "HQ HQ HJ C4 C5 C6", "D2 D3 D4 D6 D7 D8",
                     "S2 S3 S4 S6 S7 S8"])
    before = g.penalty
    events = g.apply(Play(g.leader, _cards("H9 H8 H4 H4")))
    failed = [e for e in events if isinstance(e, ThrowFailed)]
    assert len(failed) == 1 and failed[0].penalty == 10
    assert failed[0].options == (_cards("H8"),)  # the first blocker's smallest part
    side = 1 if g.teams[g.leader] == g.dealer_team else -1
    assert g.penalty - before == side * 10
