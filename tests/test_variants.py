"""The built-in variants against their seeds: deal sizes, declarations, scoring tables,
dealers, levels; plus extends, house rules, entry points and packaging data."""

from __future__ import annotations

from pathlib import Path

import pytest

from shengji import variants as variants_pkg
from shengji.cards import parse_cards, parse_suit
from shengji.model import ScoreOutcome
from shengji.rules import parse_pattern, parse_shape
from shengji.variants import Variant, list_variants, load_variant

BUILTINS = ["one-deck-40", "two-deck-80", "three-deck-titanic", "four-deck", "constant-two",
            "finding-friends"]
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def v2():
    return load_variant("two-deck-80")


def test_builtin_names_fixed_and_listed():
    n = len(BUILTINS)
    assert list_variants()[:n] == BUILTINS
    assert all(x.startswith("house/") for x in list_variants(include_house=True)[n:])
    assert len(list_variants(include_house=True)) >= n + 3


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_loads_and_deals_every_card(name):
    v = load_variant(name)
    assert isinstance(v, Variant) and v.name == name
    assert v.players * v.hand_size + v.kitty_size == v.composition.total
    # fixed partners opposite; finding friends: every seat its own team (its own level)
    assert v.teams == ((0, 1, 0, 1) if v.friend_rules is None else tuple(range(v.players)))
    assert v.play_rules.decks == v.decks


@pytest.mark.parametrize(
    "name, decks, hand, kitty",
    [  # seed 002/003: 1 deck 12 + 6; 2 decks 25 + 8; 3 decks 39 + 6; 4 decks 52 + 8
        ("one-deck-40", 1, 12, 6),
        ("two-deck-80", 2, 25, 8),
        ("three-deck-titanic", 3, 39, 6),
        ("four-deck", 4, 52, 8),
    ],
)
def test_deal_sizes_seed_002_003(name, decks, hand, kitty):
    v = load_variant(name)
    assert (v.decks, v.hand_size, v.kitty_size) == (decks, hand, kitty)


def test_play_rules_per_variant():
    one = load_variant("one-deck-40").play_rules
    assert one.max_tuple == 1  # seed 002: one deck has singles only
    four = load_variant("four-deck").play_rules  # seed 003
    assert (four.tractors, four.throws, four.must_break_tuples, four.max_tuple) == (
        False, False, False, 4,
    )
    assert four.kitty == "table" and four.kitty_table[:4] == (2, 4, 6, 8)
    assert four.ladder_for((4, 1)) == tuple(
        parse_pattern(p) for p in ["quad", "triple", "pair + pair", "pair", "singles"]
    )
    assert load_variant("constant-two").play_rules.constant_ranks == (0,)  # 2為常主


def test_three_deck_following_is_seed_001():
    """seed 001: Titanic > two triples > tractor + two singles > triple + pair + single >
    triple + three singles > two pairs + two singles > pair + four singles > six singles."""
    ladder = load_variant("three-deck-titanic").play_rules.ladder_for((3, 2))
    expected = [
        [(3, 2)], [(3, 1), (3, 1)], [(2, 2)], [(3, 1), (2, 1)], [(3, 1)],
        [(2, 1), (2, 1)], [(2, 1)], [],
    ]
    assert [list(p) for p in ladder] == expected
    triple = load_variant("three-deck-titanic").play_rules.ladder_for((3, 1))
    assert [list(p) for p in triple] == [[(3, 1)], [(2, 1)], []]


def test_house_titanic_follows_seed_000_and_inherits_the_rest():
    """seed 000: 泰坦尼克 > 一副拖拉機 + 任意兩張 > 兩副三同張 > ..."""
    v = load_variant("house/titanic-tractor-first")
    ladder = v.play_rules.ladder_for((3, 2))
    assert ladder[:3] == ((parse_shape("titanic"),), ((2, 2),), ((3, 1), (3, 1)))
    assert v.play_rules.ladder_for((3, 1)) == load_variant(
        "three-deck-titanic"
    ).play_rules.ladder_for((3, 1))
    assert v.decks == 3 and v.play_rules.kitty == "power"


# --- scoring ----------------------------------------------------------------------------

D, A = "dealers", "attackers"


def _score(v, p):
    out = v.score_deal(p)
    return (out.next, out.rise)


@pytest.mark.parametrize(
    "points, expected",
    [  # seed 000, 記分規則 (two decks)
        (0, (D, 3)), (5, (D, 2)), (35, (D, 2)), (40, (D, 1)), (75, (D, 1)),
        (80, (A, 0)), (115, (A, 0)), (120, (A, 1)), (155, (A, 1)), (160, (A, 2)),
        (195, (A, 2)), (200, (A, 3)), (235, (A, 3)), (240, (A, 4)), (280, (A, 5)), (320, (A, 6)),
    ],
)
def test_two_deck_table_seed_000(v2, points, expected):
    assert _score(v2, points) == expected


@pytest.mark.parametrize(
    "points, expected",
    [  # seed 000: one deck, 20-point steps (take over at 40)
        (0, (D, 3)), (15, (D, 2)), (20, (D, 1)), (35, (D, 1)), (40, (A, 0)),
        (60, (A, 1)), (80, (A, 2)), (100, (A, 3)),
    ],
)
def test_one_deck_table_seed_000(points, expected):
    assert _score(load_variant("one-deck-40"), points) == expected


@pytest.mark.parametrize(
    "points, expected",
    [  # seed 000, 三副牌記分: 0 大光 +3, < 60 小光 +2, else +1; 120 上臺; 180 +1; 240 +2
        (0, (D, 3)), (55, (D, 2)), (60, (D, 1)), (115, (D, 1)), (120, (A, 0)),
        (175, (A, 0)), (180, (A, 1)), (240, (A, 2)), (300, (A, 3)),
    ],
)
def test_three_deck_table_seed_000(points, expected):
    assert _score(load_variant("three-deck-titanic"), points) == expected


@pytest.mark.parametrize(
    "points, expected",
    [
        (0, (D, 3)), (75, (D, 2)), (80, (D, 1)), (155, (D, 1)), (160, (A, 0)),
        (240, (A, 1)), (320, (A, 2)), (400, (A, 3)),
    ],
)
def test_four_deck_table_extends_the_pattern_with_80_point_steps(points, expected):
    assert _score(load_variant("four-deck"), points) == expected


@pytest.mark.parametrize(
    "points, expected",
    [  # seed 003, 胜负判定 (two decks): 80-119 attackers +1, 120-159 +2, +1 per 40
        (0, (D, 3)), (35, (D, 2)), (40, (D, 1)), (80, (A, 1)), (120, (A, 2)),
        (160, (A, 3)), (200, (A, 4)),
    ],
)
def test_house_seed_003_two_deck_table(points, expected):
    assert _score(load_variant("house/forty-point-steps"), points) == expected


@pytest.mark.parametrize(
    "points, expected",
    [  # seed 003 one deck: 0 → +2; < 40 +1; 40-79 take over; 80-95 +1; 100 +2
        (0, (D, 2)), (35, (D, 1)), (40, (A, 0)), (75, (A, 0)), (80, (A, 1)),
        (95, (A, 1)), (100, (A, 2)),
    ],
)
def test_house_seed_003_one_deck_table(points, expected):
    assert _score(load_variant("house/one-deck-steep-table"), points) == expected


# --- declarations ------------------------------------------------------------------------


def _declare(v, level, *steps):
    accepted, bid = v.declare([{"seat": s, "cards": c} for s, c in steps], level)
    trump = "none" if bid is None or bid.trump is None else "SHCD"[bid.trump]
    return accepted, trump, None if bid is None else bid.seat


def test_two_deck_declarations_seed_000_002(v2):
    # seed 000: the first level card shown names the suit; a pair of another suit overturns
    assert _declare(v2, "10", (0, "H10"), (1, "S10 S10")) == ([True, True], "S", 1)
    # 自保: the declarer reinforces; after it only a joker pair overturns (seed 002)
    assert _declare(v2, "10", (0, "H10"), (0, "H10 H10"), (1, "S10 S10"), (3, "LJ LJ")) == (
        [True, True, False, True], "none", 3,
    )
    # 自反: the declarer overturns himself with a pair of another suit
    assert _declare(v2, "10", (0, "H10"), (0, "C10 C10")) == ([True, True], "C", 0)
    # big-joker pair beats small-joker pair, not the other way round (seed 002)
    assert _declare(v2, "10", (1, "LJ LJ"), (2, "BJ BJ"), (3, "LJ LJ")) == (
        [True, True, False], "none", 2,
    )
    # a single joker cannot declare; a non-level card cannot either
    assert _declare(v2, "10", (0, "BJ"), (1, "HJ")) == ([False, False], "none", None)
    # a pair of the same suit by another seat is not an overturn (反主 is another suit)
    assert _declare(v2, "10", (0, "H10"), (1, "H10 H10")) == ([True, False], "H", 0)


def test_three_deck_ladder_seed_000():
    """單張 < 兩張 < 兩張王 < 三張 < 三張王; nobody shows the same or a lower step."""
    v = load_variant("three-deck-titanic")
    s = lambda cards: v.declaration_strength(cards, "10")  # noqa: E731
    ladder = [s("H10"), s("S10 S10"), s("LJ LJ"), s("C10 C10 C10"), s("BJ BJ BJ")]
    assert ladder == sorted(ladder) and len(set(ladder)) == 5
    assert s("LJ LJ") == s("BJ BJ")  # one step: "two jokers"
    assert _declare(v, "10", (0, "H10 H10"), (1, "S10 S10"), (2, "D10 D10 D10")) == (
        [True, False, True], "D", 2,
    )
    assert _declare(v, "10", (0, "LJ LJ"), (1, "BJ BJ"), (2, "S10 S10 S10")) == (
        [True, False, True], "S", 2,
    )


def test_four_deck_declarations_seed_003():
    v = load_variant("four-deck")
    assert v.declaration_strength("H2", "2") == ()  # 三副牌以上亮主時最少需要亮一對
    # seed 003's example: 2 ♥2 shown; 2 jokers → no trump, or 3 ♣2 → clubs
    assert _declare(v, "2", (0, "H2 H2"), (1, "LJ LJ")) == ([True, True], "none", 1)
    assert _declare(v, "2", (0, "H2 H2"), (1, "C2 C2 C2")) == ([True, True], "C", 1)
    assert _declare(v, "2", (0, "H2 H2"), (1, "C2 C2")) == ([True, False], "H", 0)


def test_one_deck_declarations():
    v = load_variant("one-deck-40")
    assert v.declaration_strength("S5", "5") == (1, 0)
    assert v.declaration_strength("BJ", "5") == ()  # 一副牌亮主不能亮花 (seed 003)
    assert _declare(v, "5", (0, "S5"), (1, "H5")) == ([True, False], "S", 0)


def test_declaration_with_more_copies_than_decks_is_an_input_error(v2):
    from shengji.errors import CardError

    with pytest.raises(CardError, match="H10"):
        v2.declaration_strength("H10 H10 H10", "10")


def test_no_declaration_and_first_dealer(v2):
    kitty = parse_cards("D3 S4 H5 C6 D7 S8 H9 CJ")
    assert v2.no_declaration(0, kitty, "2").trump is None  # seed 000: 打無主
    house = load_variant("house/turn-kitty")  # seed 002
    assert house.no_declaration(0, kitty, "2").redeal is True
    later = house.no_declaration(3, kitty, "2")
    assert (later.trump, later.turned_card, later.redeal) == (parse_suit("D"), kitty[0], False)
    _, first = v2.declare([(2, "H10")], "10")
    _, second = v2.declare([(2, "H10"), (1, "S10 S10")], "10")
    assert v2.first_dealer([first, second]) == 2  # 先亮者為莊家 (seed 000)
    assert v2.first_dealer([]) == 0  # nobody declared: the seat dealt first (stated rule)
    assert house.no_declaration(0, kitty, "2", redeals=10).redeal is False  # redeal_limit


# --- dealers, levels, the end of the match ---------------------------------------------


def test_next_dealer_seed_000(v2):
    hold, lose = ScoreOutcome(D, 1), ScoreOutcome(A, 0)
    assert [v2.next_dealer(d, hold) for d in range(4)] == [2, 3, 0, 1]  # 由其對家當莊家
    assert [v2.next_dealer(d, lose) for d in range(4)] == [1, 2, 3, 0]  # 莊家的下家
    # seed 003 (抢庄) also hands the deal to the partner (issue 10 fixed the house file)
    assert load_variant("house/one-deck-steep-table").next_dealer(1, hold) == 3
    keep = load_variant({"extends": "one-deck-40", "next_dealer": {"hold": "dealer"}})
    assert keep.next_dealer(1, hold) == 1


def test_start_levels():
    assert load_variant("two-deck-80").start_level() == 0  # 从打 2 开始
    assert load_variant("constant-two").start_level() == 1  # 2 is always trump: start at 3


def test_match_winner(v2):
    out = ScoreOutcome(A, 2)
    assert v2.match_winner({0: 12, 1: 11}, out, dealer_team=0) is None
    assert v2.match_winner({0: 12, 1: 13}, out, dealer_team=0) == 1  # passed A
    # must win A as dealers: the rise, not the winner check, holds the attackers at A
    strict = load_variant("house/titanic-tractor-first")
    assert strict.advance(11, 2, defending=False) == 12  # attackers stop on A
    assert strict.advance(12, 3, defending=False) == 12
    assert strict.advance(11, 3, defending=True) == 12  # dealers from K stop on A too
    assert strict.advance(12, 1, defending=True) == 13  # holding at A passes it
    assert strict.match_winner({0: 13, 1: 5}, ScoreOutcome(D, 1), dealer_team=0) == 0
    assert v2.advance(11, 3, defending=False) == 14  # no must-defend level (seeds)


def test_failed_throw_penalty_and_chooser():
    class Result:  # the shape of the core's ThrowResult
        forced = (5,)
        forced_options = [(5,), (3, 3)]
        blocker = 1

    v = load_variant("house/turn-kitty")  # seed 002: the next player chooses; penalty
    ft = v.failed_throw(Result, leader=3)
    assert (ft.options, ft.chooser, ft.penalty) == (((5,), (3, 3)), 0, 10)
    Result.forced_options = []
    ft = load_variant("two-deck-80").failed_throw(Result, leader=3)
    assert (ft.options, ft.chooser, ft.penalty) == (((5,),), None, 0)


# --- extends, sources ------------------------------------------------------------------


def test_extends_path_and_name(tmp_path):
    (tmp_path / "base.yaml").write_text("extends: two-deck-80\nplay: {kitty: power}\n")
    (tmp_path / "top.yaml").write_text(
        "extends: base.yaml\nstart_level: 5\ndeclare: {overturn: false}\n"
    )
    v = load_variant(tmp_path / "top.yaml")
    assert v.name == "top" and v.files[-1] == tmp_path / "top.yaml" and len(v.files) == 3
    assert v.play_rules.kitty == "power" and v.start_level() == 3
    assert v.settings["declare"]["overturn"] is False
    assert v.settings["declare"]["reinforce"] is True  # merged key by key
    assert _declare(v, "5", (0, "H5"), (1, "S5 S5")) == ([True, False], "H", 0)


def test_constant_two_inherits_two_deck(v2):
    v = load_variant("constant-two")
    assert v.settings["scoring"] == v2.settings["scoring"]
    assert v.files[0].name == "two-deck-80.yaml"


def test_variant_from_mapping():
    v = load_variant({"extends": "one-deck-40", "start_level": "4"}, name="mine")
    assert (v.name, v.decks, v.start_level()) == ("mine", 1, 2)


def test_entry_point_variants(monkeypatch, tmp_path):
    path = tmp_path / "ep.yaml"
    path.write_text("extends: two-deck-80\nstart_level: 7\n")

    class EP:
        def __init__(self, name, obj):
            self.name, self.value, self._obj = name, f"pkg:{name}", obj

        def load(self):
            return self._obj

    eps = [EP("from-file", str(path)), EP("from-map", lambda: {"extends": "four-deck"})]
    monkeypatch.setattr(
        variants_pkg.registry, "entry_points",
        lambda group: eps if group == variants_pkg.VARIANT_GROUP else [],
    )
    assert list_variants()[-2:] == ["from-file", "from-map"]
    assert load_variant("from-file").start_level() == 5
    assert load_variant("from-map").decks == 4


def test_builtin_files_are_the_repository_variants_folder():
    assert variants_pkg.builtin_dir() == (REPO / "variants").resolve()
    names = sorted(p.stem for p in (REPO / "variants").glob("*.yaml"))
    assert names == sorted(BUILTINS)


def test_context_is_cached_per_level_and_trump(v2):
    pytest.importorskip("shengji.core")
    ctx = v2.context("10", "S")
    assert ctx is v2.context("10", "S")
    assert ctx.is_trump(parse_cards("H10")[0])
