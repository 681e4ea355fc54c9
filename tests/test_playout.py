"""The C playout (shengji.playout) against its Python reference driving shengji.engine:
the same seeded random policy must give identical points, multipliers, penalties and
trick winners, from the start of the play phase and from positions inside a trick."""

import random
from pathlib import Path

import pytest

from shengji.bots import make_bot
from shengji.cards import parse_card
from shengji.core import Context, Hand
from shengji.engine import Game
from shengji.errors import HandError, RulesError, ShengjiError, VariantError
from shengji.playout import (
    FriendsState,
    Position,
    SplitMix64,
    lead_key,
    playout,
    playouts,
    reference_playout,
)
from shengji.rules import PlayRules
from shengji.variants import load_variant

HOUSE = Path(__file__).resolve().parent.parent / "variants" / "house"
CASES_HOUSE = Path(__file__).resolve().parent / "cases" / "house"
VARIANTS = [
    "two-deck-80",
    "one-deck-40",
    "three-deck-titanic",
    "four-deck",
    "constant-two",
    str(HOUSE / "turn-kitty.yaml"),  # next player chooses, penalties, all_components
    str(HOUSE / "titanic-tractor-first.yaml"),  # power kitty
    str(HOUSE / "forty-point-steps.yaml"),
    # the play knobs of issue 10 (house files of tests/cases/house)
    str(CASES_HOUSE / "bombs-any-suit.yaml"),
    str(CASES_HOUSE / "bombs-follow-suit.yaml"),
    str(CASES_HOUSE / "first-blocker.yaml"),
    str(CASES_HOUSE / "shorter-tractors-seed002.yaml"),
    str(CASES_HOUSE / "follow-protection-suit-only.yaml"),
    str(CASES_HOUSE / "quad-tractor-on-tractor.yaml"),
    str(CASES_HOUSE / "six-packs.yaml"),  # sextuples and wider tractors (issue 28 item 7)
]


def to_play_phase(variant, seed, extra_actions=0):
    """A game of ``variant`` in its play phase, random bots having declared and buried,
    and ``extra_actions`` random plays made after that (still in the play phase)."""
    g = Game(variant, seed)
    bots = [make_bot("random", g.variant, f"{seed}/{s}") for s in range(g.players)]
    while g.phase != "play":
        s = g.to_act
        g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    rng = random.Random(seed)
    deal = g.deal_number
    done = 0
    while done < extra_actions or g.phase != "play":
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        done += 1
        if g.deal_number != deal:  # played out: start again with fewer plays
            return to_play_phase(variant, seed, extra_actions // 2)
    return g


def test_splitmix_known_values():
    """splitmix64 from seed 0: the reference values of the published generator."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
def test_c_playout_equals_engine_reference(variant):
    v = load_variant(variant)
    checked = 0
    for seed in range(6):
        for extra in (0, 7, 30):
            g = to_play_phase(v, seed, extra)
            pos = Position.from_game(g)
            c = playout(pos, seed * 1000 + extra)
            py = reference_playout(g, seed * 1000 + extra)
            assert c == py, (variant, seed, extra)
            checked += 1
    assert checked == 18


def test_batch_equals_single_playouts():
    g = to_play_phase(load_variant("two-deck-80"), 3)
    pos = Position.from_game(g)
    batch = playouts(pos, 20, seed=100)
    singles = [playout(pos, 100 + i) for i in range(20)]
    assert list(batch.totals) == [r.total for r in singles]
    assert list(batch.trick_points) == [r.trick_points for r in singles]
    assert list(batch.multipliers) == [r.multiplier for r in singles]
    # different seeds play different deals
    assert len({r.winners for r in singles}) > 1


def test_results_are_consistent():
    g = to_play_phase(load_variant("two-deck-80"), 5)
    pos = Position.from_game(g)
    for seed in range(50):
        r = playout(pos, seed)
        assert 1 <= len(r.winners) <= 25 and r.last_winner == r.winners[-1]
        assert 0 <= r.trick_points <= 200 and r.trick_points % 5 == 0
        attackers_last = g.teams[r.last_winner] != g.dealer_team
        assert (r.multiplier > 0) == attackers_last
        assert r.kitty_bonus == r.multiplier * pos.kitty_points
        assert r.total == max(0, r.trick_points + r.kitty_bonus + r.penalty)


def test_lead_key_orders_structures_then_throw():
    ctx = Context(PlayRules(decks=2), "10", "S")
    leads = [("HA",), ("H9", "H9", "HJ", "HJ"), ("H3", "H3"), ("H3",), ("HA", "HK", "H3")]
    from shengji.cards import parse_cards

    keys = sorted(leads, key=lambda c: lead_key(ctx, tuple(parse_cards(c))))
    assert keys == [("H3",), ("HA",), ("H3", "H3"), ("H9", "H9", "HJ", "HJ"),
                    ("HA", "HK", "H3")]  # fmt: skip


def test_hand_made_position():
    """A position without an engine: a last trick of one card each."""
    ctx = Context(PlayRules(decks=2), "2", "S")
    pos = Position(ctx, ["HA", "HK", "S3", "H5"], leader=0, dealer_team=0, kitty_points=25)
    r = playout(pos, 1)
    # S3 (seat 2, the dealer side) ruffs: HK and H5 are the attackers' 15 points
    assert r.winners == (2,) and r.trick_points == 0 and r.multiplier == 0
    pos = Position(ctx, ["HA", "HK", "S3", "H5"], leader=0, dealer_team=0, teams=[1, 1, 0, 0],
                   kitty_points=25)
    r = playout(pos, 1)
    assert r.trick_points == 0 and r.multiplier == 0  # seat 2 is still the dealer side
    pos = Position(ctx, ["H4", "HK", "H3", "H5"], leader=0, dealer_team=0, kitty_points=25)
    r = playout(pos, 1)
    assert r.winners == (1,) and r.trick_points == 15 and r.multiplier == 2
    assert r.kitty_bonus == 50 and r.total == 65


def test_trick_in_progress():
    ctx = Context(PlayRules(decks=2), "2", "S")
    pos = Position(ctx, ["H4", "HK", "", ""], leader=2, dealer_team=0,
                   trick=["H3", "H5"], kitty_points=0)
    r = playout(pos, 0)
    assert r.winners == (1,) and r.trick_points == 15


@pytest.mark.parametrize("kwargs, error", [
    (dict(hands=["HA", "HK H2", "S3", "H5"], leader=0), HandError),  # sizes do not fit
    (dict(hands=["HA HA HA", "", "", ""], leader=0), HandError),  # 3 copies, 2 decks
    (dict(hands=["HA", "HA", "HA", "HK"], leader=0), HandError),  # 3 copies across hands
    (dict(hands=["", "", "", ""], leader=0), HandError),          # nothing to play
    (dict(hands=["HA", "HK", "S3", "H5"], leader=4), HandError),
    (dict(hands=["HA", "HK", "S3", "H5"], leader=0, trick=["H2"]), HandError),
    (dict(hands=["HA", "HK", "", ""], leader=2, trick=["H2 S2", "H3 H4"]), HandError),
    (dict(hands=["HA"] * 9, leader=0), HandError),
    (dict(hands=["HA", "HK", "S3", "H5"], leader=0, kitty_points=10**7), HandError),
    (dict(hands=["HA", "HK", "S3", "H5"], leader=0, dealer_team=7), HandError),
])  # fmt: skip
def test_bad_positions_raise_typed_errors(kwargs, error):
    ctx = Context(PlayRules(decks=2), "2", "S")
    kwargs.setdefault("dealer_team", 0)
    with pytest.raises(error):
        playout(Position(ctx, **kwargs), 0)


def test_bad_arguments():
    ctx = Context(PlayRules(decks=2), "2", "S")
    pos = Position(ctx, ["HA", "HK", "S3", "H5"], leader=0, dealer_team=0)
    with pytest.raises(HandError):
        playout(pos, "seed")
    with pytest.raises(HandError):
        playouts(pos, -1)
    with pytest.raises(RulesError):
        Position("ctx", ["HA"] * 4, leader=0, dealer_team=0)
    assert len(playouts(pos, 0).totals) == 0
    assert playout(pos, -1) == playout(pos, 2**64 - 1)  # seeds are taken modulo 2**64


def test_from_game_outside_play_phase():
    g = Game("two-deck-80", 1)
    with pytest.raises(RulesError):
        Position.from_game(g)
    with pytest.raises(RulesError):
        reference_playout(g, 0)


def test_from_game_refuses_plugin_hooks():
    class KittyPlugin:
        @staticmethod
        def shengji_kitty_multiplier(variant, context, play, lead):
            return 3

    from shengji.hookspecs import hookimpl

    KittyPlugin.shengji_kitty_multiplier = hookimpl(KittyPlugin.shengji_kitty_multiplier)
    v = load_variant("two-deck-80", plugins=[KittyPlugin])
    g = to_play_phase(v, 1)
    with pytest.raises(VariantError):
        Position.from_game(g)


def test_errors_are_shengji_errors():
    assert issubclass(HandError, ShengjiError) and issubclass(VariantError, ShengjiError)
    assert Hand("HA") is not None


@pytest.mark.parametrize("bombs", ["any_suit", "follow_suit"])
def test_c_playout_equals_engine_reference_with_frequent_bombs(bombs):
    # four short packs (J Q K A) between two players, with tractors: every kind has four
    # copies among few kinds, so quads and four-card leads are common, and bombs that only
    # the bomb rule lets follow come up in most deals
    v = load_variant({"extends": "four-deck", "name": f"bombs-{bombs}", "players": 2,
                      "teams": [0, 1], "deck": {"packs": 4, "lowest_rank": "J"},
                      "hand_size": 36, "kitty_size": 0,
                      "play": {"bombs": bombs, "throws": True, "tractors": True}})
    quads_held = 0
    for seed in range(8):
        for extra in (0, 5):
            g = to_play_phase(v, seed, extra)
            quads_held += sum(1 for h in g.hands for c in h if c == 4)
            pos = Position.from_game(g)
            c = playout(pos, seed * 1000 + extra)
            py = reference_playout(g, seed * 1000 + extra)
            assert c == py, (bombs, seed, extra)
    assert quads_held > 10


@pytest.mark.parametrize("players, packs, hand, kitty", [(5, 2, 20, 8), (6, 3, 26, 6),
                                                         (8, 4, 26, 8), (12, 4, 17, 12)])
def test_c_playout_equals_engine_reference_at_n_seats(players, packs, hand, kitty):
    # fixed partnerships around a bigger table (seats alternate between two teams, an odd
    # table leaves one more attacker): the C playout's winners and points by seat
    v = load_variant({"extends": "two-deck-80", "name": f"seats-{players}", "decks": packs,
                      "players": players, "teams": [s % 2 for s in range(players)],
                      "hand_size": hand, "kitty_size": kitty,
                      "play": {"max_tuple": min(packs, 3)}})
    for seed in range(3):
        for extra in (0, 2 * players + 1):
            g = to_play_phase(v, seed, extra)
            pos = Position.from_game(g)
            c = playout(pos, seed * 1000 + extra)
            py = reference_playout(g, seed * 1000 + extra)
            assert c == py, (players, seed, extra)
            assert len(c.side) < players


def _friends_position(hands, calls, *, dealer=0, join_twice=True, dealer_copies=True,
                      side=None, trick=()):
    ctx = Context(PlayRules(decks=2), "10", "S")
    fr = FriendsState(dealer, tuple(calls), (0,) * len(calls), (False,) * len(calls),
                      tuple(side or (dealer,)), join_twice, dealer_copies)
    return Position(ctx, [Hand(h) for h in hands], dealer, 0, friends=fr, kitty_points=10,
                    trick=[Hand(p) for p in trick])


def test_friends_called_copy_joins_its_player():
    # one card each: seat 2 plays the first HA and joins the dealer (seat 0)
    pos = _friends_position(["H3", "H4", "HA", "H5"], [(1, parse_card("HA"))])
    res = playout(pos, 0)
    assert res.side == (0, 2) and res.last_winner == 2
    assert res.trick_points == 0 and res.multiplier == 0  # the side took the last trick


def test_friends_second_copy_and_the_dealers_own_copies():
    ha = parse_card("HA")
    hands = ["HA", "H4", "HA", "C2"]
    # "2 HA": the dealer's HA is the first copy, seat 2's the second
    assert playout(_friends_position(hands, [(2, ha)]), 1).side == (0, 2)
    # the dealer's copies do not count: seat 2's HA is the first, the call stays open
    assert playout(_friends_position(hands, [(2, ha)], dealer_copies=False), 1).side == (0,)


def test_friends_join_twice_uses_the_call_up_or_passes_it_on():
    ha = parse_card("HA")
    hands = ["H3", "HA", "H6", "HA"]
    # seat 1 is already a friend; its HA is the first copy of the call "1 HA"
    used = playout(_friends_position(hands, [(1, ha)], side=(0, 1), join_twice=True), 3)
    passed = playout(_friends_position(hands, [(1, ha)], side=(0, 1), join_twice=False), 3)
    assert used.side == (0, 1)          # the call is spent: the dealer stays short-handed
    assert passed.side == (0, 1, 3)     # the call passes to seat 3's HA


def test_friends_points_count_for_the_side_at_the_end():
    # the dealer led H2; seat 1 wins the trick (HK: 10 points) as an attacker, then leads
    # the called CA and joins: its 10 points count for the dealer's side at the end
    hands = ["S3", "HK CA", "H3 C3", "H4 C4"]
    joined = playout(_friends_position(hands, [(1, parse_card("CA"))], trick=["H2"]), 5)
    assert joined.side == (0, 1) and joined.winners == (1, 0)
    assert joined.trick_points == 0
    other = playout(_friends_position(hands, [(1, parse_card("DA"))], trick=["H2"]), 5)
    assert other.side == (0,) and other.trick_points == 10


FRIENDS_TABLES = [
    ("finding-friends", 5), ("finding-friends", 6), ("finding-friends", 8),
    ("finding-friends", 12), (str(HOUSE / "finding-friends-6p-3packs.yaml"), None),
    ({"extends": "finding-friends", "name": "ff-no-double-join",
      "friends": {"join_twice": False, "dealer_copies_count": False}}, 7),
    ({"extends": "finding-friends", "name": "ff-penalties", "penalties": {"failed_throw": 10},
      "play": {"failed_throw": "first_blocker"}}, 9),
]


@pytest.mark.parametrize("variant, players", FRIENDS_TABLES,
                         ids=lambda x: str(x)[-30:] if not isinstance(x, dict) else x["name"])
def test_c_playout_equals_engine_reference_finding_friends(variant, players):
    # the calls are made, friends join as called copies are played (issue 11): from the
    # start of the play phase and from inside it, the C playout and the engine agree on
    # every trick, the side at the end and the points
    v = load_variant(variant, players=players)
    open_calls = joined = 0
    for seed in range(4):
        for extra in (0, v.players + 1, 4 * v.players):
            g = to_play_phase(v, seed, extra)
            pos = Position.from_game(g)
            open_calls += pos.friends is not None
            c = playout(pos, seed * 1000 + extra)
            py = reference_playout(g, seed * 1000 + extra)
            assert c == py, (variant, players, seed, extra)
            joined += len(c.side) > 1
    assert open_calls >= 6 and joined >= 4
