"""The differences from shengji.io that remain with every knob set as it plays
(docs/semantics.md §11, "What the run still finds"): one shrunk position per class, each
with our answer pinned. shengji.io's answer (its crate at 71f8d43, through
benchmarks/shengjiio_diff.py's driver) is in each comment; the crate is not needed here.
A change that flips one of these answers must update §11 with it.

The four follow classes are reproduced by ``play.follow_requirements: shengji_io``
(docs/semantics.md §4): under it each position gets shengji.io's answer."""

import pytest

from shengji.core import Context, Hand
from shengji.variants import load_variant

# benchmarks/shengjiio_diff.py's FIXED_PLAY: the knobs always set as shengji.io plays
SHENGJI_IO = {"failed_throw": "first_blocker", "shorter_tractors": True, "tractors": True,
              "throws": True, "tractor_bridges_level_gap": True, "genuine_tuples": True,
              "tractors_first": True, "decomposition": "shengji_io"}
TABLE = {2: (25, 8), 3: (39, 6)}


def _ctx(decks, level, trump, **play):
    hand, kitty = TABLE[decks]
    v = load_variant({"name": "shengji-io", "decks": decks, "hand_size": hand,
                      "kitty_size": kitty, "play": {**SHENGJI_IO, **play}})
    return Context(v.play_rules, level, trump)


FOLLOWS = [
    # LongerTuplesProtected drops a requirement (shengji.io bug): shengji.io accepts
    pytest.param(3, "9", "S", {"follow_protection": "both", "tractor_min_length": 3},
                 "H2 H2 H2 H3 H3", "H8 HJ HJ HJ HQ HQ HQ", "H8 HJ HJ HQ HQ", False, True,
                 id="protection-drops-requirement"),
    # the genuine-tuple guard reads the hand minus the play (shengji.io bug): it refuses,
    # and accepts the same play under NoProtections
    pytest.param(3, "4", "C", {"follow_protection": "longer_tuples"},
                 "SQ SQ SK SA", "S7 S7 S7 S8 S8 S8", "S7 S7 S7 S8", True, False,
                 id="guard-on-hand-minus-play"),
    # mixed-width adjacent units: shengji.io refuses, asking S9 S9 S9 S10 S10
    pytest.param(3, "6", None, {"follow_protection": "longer_tuples", "rainbow_min": 5},
                 "S3 S3 S3 S4 S4 S4", "S5 S9 S9 S9 S10 S10 SA SA", "S5 S9 S9 S9 SA SA", True,
                 False, id="mixed-width-run"),
    # one component after another: shengji.io refuses, asking CK CK as well
    pytest.param(3, "K", "S", {"follow_protection": "tractor_on_tractor", "rainbow_min": 4},
                 "S8 S8 S8 S9 S9 S9 S10 S10 S10 HK HK HK",
                 "S7 S7 SJ SJ SA CK CK DK DK DK LJ LJ LJ BJ",
                 "S7 S7 SJ SJ SA DK DK DK LJ LJ LJ BJ", True, False, id="components-in-turn"),
]


@pytest.mark.parametrize("decks,level,trump,play,lead,hand,cards,ours,sio", FOLLOWS)
def test_follow_differences_pinned(decks, level, trump, play, lead, hand, cards, ours, sio):
    ctx = _ctx(decks, level, trump, **play)
    assert ctx.check_follow(Hand(lead), Hand(hand), Hand(cards)).ok is ours


@pytest.mark.parametrize("decks,level,trump,play,lead,hand,cards,ours,sio", FOLLOWS)
def test_follow_differences_under_the_knob(decks, level, trump, play, lead, hand, cards,
                                           ours, sio):
    # play.follow_requirements: shengji_io gives shengji.io's answer on each
    ctx = _ctx(decks, level, trump, follow_requirements="shengji_io", **play)
    assert ctx.check_follow(Hand(lead), Hand(hand), Hand(cards)).ok is sio
    follows = ctx.legal_follows(Hand(lead), Hand(hand))
    assert (Hand(cards).counts in {p.counts for p in follows.plays}) is sio


def test_rainbow_first_blocker_forces_the_lowest_beaten_rank():
    """Was a bug of ours (§11): shengji.io's rainbow units are in rank order
    (trick.rs try_rainbow_format), so its first blocker forces the lowest beaten rank,
    `S2 H2 C2 D2 D2` here, whatever its size; we forced the unit of the fewest cards."""
    ctx = _ctx(2, "9", None, follow_protection="tractor_on_tractor", rainbow_min=4)
    res = ctx.check_throw(Hand("S2 H2 C2 D2 D2 S8 H8 C8 D8"), [Hand("SK SK HK CK DK")])
    assert not res.valid
    assert str(res.forced) == str(Hand("S2 H2 C2 D2 D2"))
    # with units of equal size the rank decides too
    res = ctx.check_throw(Hand("S2 H2 C2 D2 S8 H8 C8 D8 D8"), [Hand("SK SK HK CK DK")])
    assert str(res.forced) == str(Hand("S2 H2 C2 D2"))
