"""The oracle's reading of shengji.io's follow check (tests/oracle/sio_follow.py,
``play.follow_requirements: shengji_io``): its listings against the orders shengji.io's
crate asserts in its own tests (rbtying/shengji 71f8d43, mechanics/src/ordered_card.rs,
``mod tests``), and against orders printed by the crate's public functions
(``full_decomposition_ordering``, ``subsequent_decomposition_ordering``, called from a
small program built against shengji-mechanics at that commit); then the follow check on
the shrunk positions of docs/semantics.md §11, each answer the crate's
(``TrickFormat::is_legal_play``, through benchmarks/shengjiio_diff.py's driver)."""

from pathlib import Path

import pytest
from oracle import OracleContext
from oracle.sio_follow import (
    MAX_TUPLES,
    adjacent_assignments,
    can_supply,
    full_ordering,
    sequential_groupings,
    subsequent_ordering,
    tuple_partitions,
)

from shengji.conformance.casefile import load_case_file
from shengji.errors import ShengjiError
from shengji.variants import load_variant


def reqs(text):
    """"4-3 1" -> [(4, 3), (1,)]: units by spaces, a run's widths by dashes."""
    return [tuple(int(w) for w in unit.split("-")) for unit in text.split()]


def listing(*texts):
    return [reqs(t) for t in texts]


def test_tuple_partitions_as_the_crate_lists_them():
    # ordered_card.rs doc comment and test_find_tuple_partitions
    assert tuple_partitions(4) == [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    assert tuple_partitions(6) == [(6,), (5, 1), (4, 2), (4, 1, 1), (3, 3), (3, 2, 1),
                                   (3, 1, 1, 1), (2, 2, 2), (2, 2, 1, 1), (2, 1, 1, 1, 1),
                                   (1, 1, 1, 1, 1, 1)]


def test_adjacent_assignments_as_the_crate_lists_them():
    # test_compute_adjacent_assignments(4): the stable sort keeps the growth order in ties
    assert adjacent_assignments(4) == [
        [[0, 1, 2, 3]], [[0, 1, 2], [3]], [[0, 1, 3], [2]], [[0, 2, 3], [1]],
        [[0], [1, 2, 3]], [[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]],
        [[0, 1], [2], [3]], [[0, 2], [1], [3]], [[0], [1, 2], [3]], [[0, 3], [1], [2]],
        [[0], [1, 3], [2]], [[0], [1], [2, 3]], [[0], [1], [2], [3]]]


def test_sequential_groupings_of_a_triple_and_two_pairs():
    # The doc comment of group_into_sequential_tuples lists six groupings of [3, 2, 2]; the
    # code also gives [[3], [2, 2]] (the assignment [0], [1, 2]: each run of one width is
    # kept as it is), which the crate's own test of subsequent_decomposition_ordering
    # ([[4, 4]] -> "[3], [2, 2], [1]") and full_decomposition_ordering(7) confirm.
    assert sequential_groupings((3, 2, 2)) == listing(
        "3-2-2", "2-3-2", "2-2-3", "3-2 2", "2-3 2", "3 2-2", "3 2 2")
    assert reqs("3 2-2") in full_ordering(7)


def test_full_ordering_as_the_crate_lists_it():
    # test_full_decomposition_ordering
    assert full_ordering(5) == listing(
        "5", "4 1", "3-2", "2-3", "3 2", "3 1 1", "2-2 1", "2 2 1", "2 1 1 1", "1 1 1 1 1")
    assert full_ordering(6) == listing(
        "6", "5 1", "4-2", "2-4", "4 2", "4 1 1", "3-3", "3 3", "3-2 1", "2-3 1", "3 2 1",
        "3 1 1 1", "2-2-2", "2-2 2", "2 2 2", "2-2 1 1", "2 2 1 1", "2 1 1 1 1",
        "1 1 1 1 1 1")


FOUR_FOUR = listing(
    "4 4", "4-3 1", "3-4 1", "4 3 1", "4-2-2", "2-4-2", "2-2-4", "4-2 2", "2-4 2", "4 2-2",
    "4 2 2", "4-2 1 1", "2-4 1 1", "4 2 1 1", "4 1 1 1 1", "3-3-2", "3-2-3", "2-3-3",
    "3-3 2", "3-2 3", "3 2-3", "3 3 2", "3-3 1 1", "3 3 1 1", "3-2-2 1", "2-3-2 1",
    "2-2-3 1", "3-2 2 1", "2-3 2 1", "3 2-2 1", "3 2 2 1", "3-2 1 1 1", "2-3 1 1 1",
    "3 2 1 1 1", "3 1 1 1 1 1", "2-2-2-2", "2-2-2 2", "2-2 2-2", "2-2 2 2", "2 2 2 2",
    "2-2-2 1 1", "2-2 2 1 1", "2 2 2 1 1", "2-2 1 1 1 1", "2 2 1 1 1 1", "2 1 1 1 1 1 1",
    "1 1 1 1 1 1 1 1")


@pytest.mark.parametrize("new_adjacency", [True, False])
def test_subsequent_ordering_as_the_crate_asserts(new_adjacency):
    # test_subsequent_decomposition_ordering
    f = lambda units: subsequent_ordering(reqs(units), new_adjacency)  # noqa: E731
    assert f("1") == []
    assert f("2") == listing("1 1")
    assert f("3") == listing("2 1", "1 1 1")
    four = ["3 1", "2-2", "2 2", "2 1 1", "1 1 1 1"]
    assert f("4") == listing(*(four if new_adjacency else four[:1] + four[2:]))
    assert f("2-2") == listing("2 2", "2 1 1", "1 1 1 1")
    assert f("2 2") == listing("2 1 1", "1 1 1 1")
    assert f("4-4") == FOUR_FOUR  # a led run may always be cut into runs
    assert f("2-2 3 2") == listing("3 2 2 2", "3 2 2 1 1", "2 2 2 1 1 1", "2 2 1 1 1 1 1",
                                   "2 1 1 1 1 1 1 1", "1 1 1 1 1 1 1 1 1")


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_subsequent_ordering_of_triples_steps_one_unit_at_a_time(n):
    # the crate's loop over i in 1..25, all-3s: each step turns the first 3 into 2 + 1 and
    # then that 2 into 1 + 1, the units re-sorted descending
    got = subsequent_ordering([(3,)] * n, True)
    expected = [(3,)] * (n - 1) + [(2,), (1,)]
    for r in got:
        assert r == expected
        v = expected.pop(0)
        v = (v[0] - 1,)
        idx = max((i for i, z in enumerate(expected) if z == v), default=None)
        if idx is None:
            assert r is got[-1]
            break
        expected.insert(idx, v)
        expected.append((1,))


def test_subsequent_ordering_printed_by_the_crate():
    # subsequent_decomposition_ordering as the crate prints it (see the module docstring)
    assert subsequent_ordering(reqs("2-2 3"), True) == listing(
        "3 2 2", "3 2 1 1", "2 2 1 1 1", "2 1 1 1 1 1", "1 1 1 1 1 1 1")
    # a triple and a three-triple tractor, in from_cards' order (the smaller unit first):
    # the tractor has the longer queue, so it is cut first
    got = subsequent_ordering(reqs("3 3-3-3"), False)
    assert got[:6] == listing("3-3 3 3", "3 3 3 3", "3-3-2 3 1", "3-2-3 3 1", "3 2-3-3 1",
                              "3-3 3 2 1")
    assert len(got) == 50 and got[-1] == reqs("1 " * 12)


def test_a_unit_past_the_listing_budget_is_a_typed_error():
    assert len(full_ordering(2 * MAX_TUPLES)) > 0  # eight pairs: listed
    with pytest.raises(ShengjiError, match="budget"):
        sequential_groupings((2,) * (MAX_TUPLES + 1))


# -- the follow check -----------------------------------------------------------------------

SHENGJI_IO = {"failed_throw": "first_blocker", "shorter_tractors": True, "tractors": True,
              "throws": True, "tractor_bridges_level_gap": True, "genuine_tuples": True,
              "tractors_first": True, "decomposition": "shengji_io"}
TABLE = {2: (25, 8), 3: (39, 6), 4: (52, 8)}


def _oracle(decks, level, trump, knob, **play):
    hand, kitty = TABLE[decks]
    if knob:
        play["follow_requirements"] = "shengji_io"
    v = load_variant({"name": "shengji-io", "decks": decks, "hand_size": hand,
                      "kitty_size": kitty, "play": {**SHENGJI_IO, **play}})
    return OracleContext(v.play_rules, level, trump)


# (decks, level, trump, play settings, lead, hand, play, shengji.io's answer); the
# default reading (§4) answers the other way on each
POSITIONS = [
    pytest.param(3, "9", "S", {"follow_protection": "both", "tractor_min_length": 3},
                 "H2 H2 H2 H3 H3", "H8 HJ HJ HJ HQ HQ HQ", "H8 HJ HJ HQ HQ", True,
                 id="protection-drops-requirement"),
    pytest.param(2, "10", "H", {"follow_protection": "longer_tuples"},
                 "S3 S3 S5", "S7 S7 S9 S9 SJ SJ", "S7 S9 SJ", True,
                 id="protection-drops-requirement-two-decks"),
    pytest.param(3, "4", "C", {"follow_protection": "longer_tuples"},
                 "SQ SQ SK SA", "S7 S7 S7 S8 S8 S8", "S7 S7 S7 S8", False,
                 id="guard-on-hand-minus-play"),
    pytest.param(3, "6", None, {"follow_protection": "longer_tuples", "rainbow_min": 5},
                 "S3 S3 S3 S4 S4 S4", "S5 S9 S9 S9 S10 S10 SA SA", "S5 S9 S9 S9 SA SA",
                 False, id="mixed-width-run"),
    pytest.param(3, "9", "H", {"follow_protection": "none"},
                 "S5 S5 S5 S4 S4 S4", "SQ SQ S8 S8 S8 S7 S7", "SQ SQ S8 S8 S8 S7", False,
                 id="mixed-width-titanic-issue-28"),
    pytest.param(3, "K", "S", {"follow_protection": "tractor_on_tractor", "rainbow_min": 4},
                 "S8 S8 S8 S9 S9 S9 S10 S10 S10 HK HK HK",
                 "S7 S7 SJ SJ SA CK CK DK DK DK LJ LJ LJ BJ",
                 "S7 S7 SJ SJ SA DK DK DK LJ LJ LJ BJ", False, id="components-in-turn"),
    pytest.param(3, "K", "H", {"follow_protection": "none"},
                 "H4 HK HK HK DK DK DK LJ LJ LJ",
                 "SK SK H5 H9 H9 H9 H10 H10 H10 HJ HJ BJ",
                 "SK SK H9 H9 H9 H10 H10 H10 HJ BJ", False, id="requirement-across-components"),
    pytest.param(4, "9", None, {"follow_protection": "none"},
                 "HA HA HK HK HJ HJ HJ", "HA H6 H6 H6 H5 H5 H4 H4", "HA H6 H6 H5 H5 H4 H4",
                 False, id="tractor-and-triple-issue-28-item-6"),
]


@pytest.mark.parametrize("decks,level,trump,play,lead,hand,cards,sio", POSITIONS)
def test_follow_check_gives_shengji_ios_answer(decks, level, trump, play, lead, hand,
                                               cards, sio):
    assert _oracle(decks, level, trump, True, **play).check_follow(lead, hand, cards)[0] is sio
    base = _oracle(decks, level, trump, False, **play)
    assert base.check_follow(lead, hand, cards)[0] is not sio


def test_legal_follows_under_the_knob_hold_the_run_the_hand_has():
    # mixed-width-run: every legal follow holds the triple-and-pair run S9 S9 S9 S10 S10
    o = _oracle(3, "6", None, True, follow_protection="longer_tuples", rainbow_min=5)
    follows = o.legal_follows("S3 S3 S3 S4 S4 S4", "S5 S9 S9 S9 S10 S10 SA SA")
    run = o.counts("S9 S9 S9 S10 S10")
    assert follows and all(all(p >= r for p, r in zip(f, run, strict=True)) for f in follows)


def test_can_supply_protected_takes_whole_tuples_only():
    o = _oracle(3, "9", "S", True)
    held = {k: c for k, c in enumerate(o.counts("H8 HJ HJ HJ HQ HQ HQ")) if c}
    assert can_supply(o, held, reqs("2 1"), protected=False)
    assert not can_supply(o, held, reqs("2 1"), protected=True)  # no exact pair held
    assert can_supply(o, held, reqs("3-3 1"), protected=True)
    assert can_supply(o, held, reqs("2-2"), protected=False)  # HJ HJ HQ HQ, adjacent
    assert not can_supply(o, held, reqs("2-2 2"), protected=False)


# -- the house case files, read by the oracle ---------------------------------------------

HOUSE = Path(__file__).parent / "cases" / "house"
HOUSE_FOLLOWS = [
    pytest.param(path, case, id=f"{path.name}::{case.id}")
    for path in sorted(HOUSE.glob("follow-requirements-shengji-io*.cases.yaml"))
    for case in load_case_file(path).cases
]


@pytest.mark.parametrize("path,case", HOUSE_FOLLOWS)
def test_house_cases_hold_in_the_oracle(path, case):
    # every expect of these files was checked against shengji.io's crate; the oracle,
    # written apart from the C core, must give it too
    rules = load_variant(str(path.parent / case.variant)).play_rules
    assert rules.follow_requirements == "shengji_io"
    o = OracleContext(rules, case.level, case.trump if case.trump is not None else "none")
    v = case.value
    ok, _ = o.check_follow(v["lead"], v["hand"], v["play"])
    assert ("legal" if ok else "illegal") == case.expect
