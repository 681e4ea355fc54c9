"""Bots: the random bot's choices, and the heuristic bot's rules of thumb on hand-made
positions (what the issue asks of it), under two-deck-80 playing 2 with ♠ trumps."""

from __future__ import annotations

from collections import Counter

import pytest

from shengji.bots import BOTS, make_bot
from shengji.cards import NUM_KINDS, parse_cards, point_value
from shengji.engine import Bury, Declare, Game, Pass, Play, SeatView
from shengji.engine.legal import Legal
from shengji.errors import ShengjiError
from shengji.variants import load_variant

LEVEL_2, SPADES = 0, 0


@pytest.fixture(scope="module")
def v80():
    return load_variant("two-deck-80")


def counts(text: str) -> tuple:
    c = [0] * NUM_KINDS
    for k in parse_cards(text):
        c[k] += 1
    return tuple(c)


def view(seat=3, phase="play", hand="", trick=(), played="", to_deal=0, bids=(),
         trump=SPADES, dealer=0, kitty=None, tricks=()):
    trick = tuple((s, tuple(sorted(parse_cards(c), reverse=True))) for s, c in trick)
    return SeatView(
        seat=seat, players=4, teams=(0, 1, 0, 1), phase=phase, to_act=seat, deal_number=0,
        dealer=dealer, level=LEVEL_2, levels=((0, LEVEL_2), (1, LEVEL_2)),
        trump=trump if phase != "deal" else None, trump_set=phase != "deal", to_deal=to_deal,
        bids=bids, hand=counts(hand), hand_sizes=(10, 10, 10, 10), kitty=kitty, kitty_size=8,
        leader=trick[0][0] if trick else seat, trick_number=3, trick=trick, tricks=tricks,
        played=counts(played), trick_points=0, forced_options=(),
    )


def follows(seat, *plays):
    return Legal("follow", seat, [tuple(sorted(parse_cards(p), reverse=True)) for p in plays],
                 count=len(parse_cards(plays[0])))


def test_registry_and_unknown_names(v80):
    assert {"random", "heuristic"} <= set(BOTS)
    with pytest.raises(ShengjiError, match="unknown bot 'nope'"):
        make_bot("nope", v80)


def test_random_bot_is_uniform_over_listed_actions(v80):
    bot = make_bot("random", v80, seed=1)
    legal = follows(3, "H6", "H7", "HK")
    picks = Counter(bot.act(view(hand="H6 H7 HK"), legal).cards for _ in range(3000))
    assert len(picks) == 3 and min(picks.values()) > 850


def test_random_bot_declares_sometimes(v80):
    bot = make_bot("random", v80, seed=2)
    legal = Legal("declare", 1, (Pass(1), Declare(1, "H2")))
    picks = Counter(type(bot.act(view(seat=1, phase="deal", hand="H2 S5", to_deal=50), legal))
                    for _ in range(1000))
    assert 100 < picks[Declare] < 500 and picks[Pass] > 500


def test_random_bot_buries_cards_it_holds(v80):
    bot = make_bot("random", v80, seed=3)
    hand = "SA SK SQ SJ S10 S9 S8 S7 S6 S5 S4 S3"
    action = bot.act(view(seat=0, phase="bury", hand=hand, kitty=()), Legal("bury", 0, (), count=8))
    assert isinstance(action, Bury) and len(action.cards) == 8
    assert all(c in parse_cards(hand) for c in action.cards)


# ------------------------------------------------------------------------- heuristic


def test_heuristic_declares_on_strong_trump_holdings(v80):
    bot = make_bot("heuristic", v80)
    legal = Legal("declare", 1, (Pass(1), Declare(1, "H2")))
    strong = view(seat=1, phase="deal", hand="H2 HA HK H9 H7 H5 LJ SA", to_deal=60)
    weak = view(seat=1, phase="deal", hand="H2 SA SK D9 D7 C5 C3 D4", to_deal=60)
    assert isinstance(bot.act(strong, legal), Declare)
    assert isinstance(bot.act(weak, legal), Pass)


def test_heuristic_never_overturns_its_partner(v80):
    from shengji.model import Bid

    bot = make_bot("heuristic", v80)
    partner_bid = (Bid(3, tuple(parse_cards("D2")), 3, (1, 0)),)
    legal = Legal("declare", 1, (Pass(1), Declare(1, "H2 H2")))
    v = view(seat=1, phase="deal", hand="H2 H2 HA HK H9 H7 H5 BJ", to_deal=0, bids=partner_bid)
    assert isinstance(bot.act(v, legal), Pass)


def test_heuristic_buries_low_non_point_cards(v80):
    bot = make_bot("heuristic", v80)
    hand = ("BJ LJ S2 SA SK SQ H2 HA HK H10 H5 C3 C4 C6 C7 C8 C9 D3 D4 D6 D7 D8 D9 DA DK "
            "D5 C5 CJ CQ HQ HJ H3 H4")
    action = bot.act(view(seat=0, phase="bury", hand=hand, kitty=()), Legal("bury", 0, (), count=8))
    assert len(action.cards) == 8
    assert not any(point_value(c) for c in action.cards), "no point cards in the kitty"
    trumps = set(parse_cards("BJ LJ S2 SA SK SQ H2"))
    assert not trumps & set(action.cards), "no trumps in the kitty"
    assert set(action.cards) <= set(parse_cards("C3 C4 C6 C7 C8 C9 D3 D4 D6 D7 D8 D9 CJ CQ "
                                                "HJ HQ H3 H4 DA")), "low cards first"


def test_heuristic_gives_points_to_a_winning_partner(v80):
    """Last to play, partner (seat 1) wins with ♥A: add the ♥K's 10 points."""
    bot = make_bot("heuristic", v80)
    v = view(seat=3, hand="HK H6 H7 D3", trick=((0, "H3"), (1, "HA"), (2, "H4")))
    assert bot.act(v, follows(3, "HK", "H6", "H7")).cards == tuple(parse_cards("HK"))


def test_heuristic_plays_low_when_losing(v80):
    bot = make_bot("heuristic", v80)
    v = view(seat=3, hand="HK H6 H7 D3", trick=((0, "HA"), (1, "H3"), (2, "H4")))
    assert bot.act(v, follows(3, "HK", "H6", "H7")).cards == tuple(parse_cards("H6"))


def test_heuristic_ruffs_a_point_trick_with_its_lowest_trump(v80):
    """Void in hearts, an opponent's ♥K (10 points) is winning: ruff, keeping BJ."""
    bot = make_bot("heuristic", v80)
    v = view(seat=3, hand="S3 BJ D4 D6", trick=((0, "H3"), (1, "H4"), (2, "HK")))
    legal = follows(3, "S3", "BJ", "D4", "D6")
    assert bot.act(v, legal).cards == tuple(parse_cards("S3"))


def test_heuristic_leads_an_unbeatable_throw(v80):
    """Both ♥A and a ♥K: nobody can beat the pair or the single, so throw them."""
    bot = make_bot("heuristic", v80)
    hand = "HA HA HK D3 D5 C7"
    game_like = view(seat=0, hand=hand)
    legal = Legal("lead", 0, tuple(tuple(sorted(parse_cards(p), reverse=True)) for p in
                                   ("HA", "HK", "HA HA", "D3", "D5", "C7", "HA HA HK")))
    action = bot.act(game_like, legal)
    assert isinstance(action, Play) and sorted(action.cards) == sorted(parse_cards("HA HA HK"))


def test_heuristic_plays_whole_deals_legally(v80):
    game = Game(v80, "bots", max_deals=2)
    bots = [make_bot("heuristic", v80, s) for s in range(4)]
    while not game.over:
        seat = game.to_act
        action = bots[seat].act(game.view(seat), game.legal_actions(seat))
        assert game.can(action)
        game.apply(action)


@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40", "three-deck-titanic",
                                     "house/turn-kitty"])
def test_heuristic_single_card_winner_is_the_cores(variant):
    """The heuristic judges one-card tricks in Python (semantics §7, one card each): it
    must name the winner the core names, under every trump and ruff rule."""
    import random

    from shengji.bots.heuristic import single_winner

    v = load_variant(variant)
    rng = random.Random(variant)
    checked = 0
    for level in range(0, 13, 4):
        for trump in (None, 0, 2):
            ctx = v.context(level, trump)
            eff = [ctx.effective_suit(k) for k in range(NUM_KINDS)]
            st = [ctx.strength(k) for k in range(NUM_KINDS)]
            for _ in range(150):
                plays = [(rng.randrange(NUM_KINDS),) for _ in range(rng.randint(2, 6))]
                if any(plays.count(p) > v.decks for p in plays):
                    continue
                assert single_winner(plays, eff, st) == ctx.trick_winner(plays), plays
                checked += 1
    assert checked > 1000


# ------------------------------------------------------------------------- finding friends


def ff_view(hand, trick, played="", seat=2, side=(0,), calls="1 HA"):
    from dataclasses import replace

    from shengji.friends import parse_calls

    return replace(view(seat=seat, hand=hand, trick=trick, played=played, dealer=0),
                   side=side, sides_known=False, calls=parse_calls(calls), joined=())


@pytest.fixture(scope="module")
def vff():
    return load_variant("finding-friends")


def test_hidden_friend_plays_the_called_card_on_the_dealers_trick(vff):
    """Finding friends (pagat Zhao Pengyou): the dealer leads ♥3 looking for the ♥A;
    the seat holding it plays it, joins and wins."""
    bot = make_bot("heuristic", vff)
    v = ff_view("HA H6 H7 D3", trick=((0, "H3"), (1, "H4")))
    action, reason = bot.advise(v, follows(2, "HA", "H6", "H7"))
    assert action.cards == tuple(parse_cards("HA")) and "called" in reason


def test_the_called_card_is_not_wasted_once_the_call_is_used_up(vff):
    """Call "1 HA" and a ♥A already played: this seat's ♥A makes nobody a friend."""
    bot = make_bot("heuristic", vff)
    done = ((((0, tuple(parse_cards("H2"))), (1, tuple(parse_cards("HA"))),
              (2, tuple(parse_cards("H5"))), (3, tuple(parse_cards("H8"))))),)
    v = ff_view("HA H6 H7 D3", trick=((0, "H3"), (1, "HK")), played="H2 HA H5 H8 H3 HK")
    from dataclasses import replace
    v = replace(v, tricks=done, side=(0, 1), joined=((1, 0),), sides_known=True)
    _, reason = bot.advise(v, follows(2, "HA", "H6", "H7"))
    assert "called" not in reason  # judged as any other card (here: the cheapest winner)


def test_hidden_friend_leads_the_called_winner(vff):
    bot = make_bot("heuristic", vff)
    v = ff_view("HA S3 D7 D3", trick=())
    legal = Legal("lead", 2, tuple(tuple(parse_cards(p)) for p in ("HA", "S3", "D7", "D3")))
    action, reason = bot.advise(v, legal)
    assert action.cards == tuple(parse_cards("HA")) and "join" in reason


def test_friends_deals_are_played_legally_by_every_bot(vff):
    from shengji.engine.runner import play

    for names in (["heuristic"] * 5, ["mc:budget=60", "heuristic"] * 2 + ["random"]):
        g = Game(vff, "ff-bots", max_deals=1)
        bots = [make_bot(names[s % len(names)], vff, s) for s in range(g.players)]
        play(g, bots)
        assert g.deals_played == 1


def test_heuristic_single_follows_are_the_engines():
    """The heuristic lists a single card's follows itself (semantics §4): the ones the
    engine offers, in its order (ties keep the first), in every variant."""
    from shengji.bots.heuristic import single_follows
    from shengji.variants import list_variants

    checked = 0
    for name in list_variants():
        g = Game(name, "singles", max_deals=1)
        bots = [make_bot("random", g.variant, s) for s in range(g.players)]
        while not g.over:
            s = g.to_act
            legal = g.legal_actions(s)
            if legal.kind == "follow" and len(g.trick[0][1]) == 1:
                eff = [g.ctx.effective_suit(k) for k in range(NUM_KINDS)]
                mine = single_follows(g.hands[s], eff[g.trick[0][1][0]], eff)
                assert mine == [a.cards[0] for a in legal]  # same kinds, same order
                checked += 1
            g.apply(bots[s].act(g.view(s), legal))
    assert checked > 100
