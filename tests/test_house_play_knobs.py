"""The engine under issue 35's play knobs of real tables' house rules: throws refused
before they are made (play.trump_throws: false, play.throw_check: unseen — ejfn/Tractor),
the failed-throw penalty per card taken back (penalties.failed_throw_per_card — Pagat,
as ChannonTian/80fen docs/RULES.md §K reports it), and the lead a plugin's
shengji_failed_throw receives. The core's judgements of the other knobs are held to the
oracle by tests/test_differential_house.py and to their sources by tests/cases/house."""

from __future__ import annotations

import pytest
from test_engine import always_pass, first_offer, set_hands

from shengji.bots import make_bot
from shengji.cards import NUM_KINDS, parse_cards
from shengji.engine import (
    ChooseForced,
    ForcedChosen,
    Game,
    IllegalAction,
    Play,
    ThrowFailed,
    runner,
)
from shengji.hookspecs import hookimpl
from shengji.variants import load_variant


def _game(play=None, penalties=None, base="two-deck-80", seed=6, act=always_pass):
    settings = {"extends": base}
    if play:
        settings["play"] = play
    if penalties:
        settings["penalties"] = penalties
    game = Game(load_variant(settings), seed)
    while game.phase != "play":
        seat = game.to_act
        game.apply(act(game)(game.view(seat), game.legal_actions(seat)))
    return game


def _plain_suit(game) -> str:
    return "SHCD"[next(s for s in range(4) if s != game.trump)]


def _cards(text) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text), reverse=True))


def test_a_trump_throw_is_refused_and_not_listed():
    """ejfn/Tractor multiComboValidation.ts: multi-combos from non-trump suits only."""
    game = _game({"trump_throws": False})
    leader = game.to_act
    set_hands(game, {leader: "BJ BJ LJ H3 D4", (leader + 1) % 4: "C5 C6",
                     (leader + 2) % 4: "C7 C8", (leader + 3) % 4: "C9 C10"})
    with pytest.raises(IllegalAction) as e:
        game.verify(Play(leader, "BJ BJ LJ"))
    assert e.value.reason == "no_trump_throws"
    leads = {a.cards for a in game.legal_actions(leader)}
    assert _cards("BJ BJ LJ") not in leads and _cards("BJ BJ") in leads
    # a plain suit may still be thrown; the base lists and allows the trump throw
    base = _game()
    set_hands(base, {base.to_act: "BJ BJ LJ H3 D4"})
    assert _cards("BJ BJ LJ") in {a.cards for a in base.legal_actions(base.to_act)}


def test_throw_check_unseen_refuses_what_unseen_cards_could_beat():
    """ejfn/Tractor multiComboValidation.ts: a pair held apart by two seats (unseen to the
    thrower) could beat the thrown pair: refused, no forced play, no penalty."""
    game = _game({"throw_check": "unseen"}, {"failed_throw": 10})
    leader = game.to_act
    s = _plain_suit(game)
    set_hands(game, {leader: f"{s}Q {s}Q {s}A BJ", (leader + 1) % 4: f"{s}K LJ",
                     (leader + 2) % 4: f"{s}K LJ", (leader + 3) % 4: "BJ LJ"})
    throw = Play(leader, f"{s}Q {s}Q {s}A")
    with pytest.raises(IllegalAction) as e:
        game.verify(throw)
    assert e.value.reason == "beatable_throw"
    assert _cards(f"{s}Q {s}Q {s}A") not in {a.cards for a in game.legal_actions(leader)}
    assert game.penalty == 0 and game.hand_len[leader] == 4
    # judged by the holdings (the base), nobody holds KK: the throw stands
    base = _game({}, {"failed_throw": 10})
    ld = base.to_act
    set_hands(base, {ld: f"{s}Q {s}Q {s}A BJ", (ld + 1) % 4: f"{s}K LJ",
                     (ld + 2) % 4: f"{s}K LJ", (ld + 3) % 4: "BJ LJ"})
    events = base.apply(Play(ld, f"{s}Q {s}Q {s}A"))
    assert not any(isinstance(e, ThrowFailed) for e in events)


def test_throw_check_unseen_counts_what_the_thrower_has_seen():
    """Cards played and the kitty the thrower buried are seen; when every other seat has
    shown itself void in the suit, any throw of it stands (ejfn: allOpponentsVoid)."""
    game = _game({"throw_check": "unseen"})
    leader = game.to_act
    s = _plain_suit(game)
    copies = game.rules.copies
    k = parse_cards(f"{s}K")[0]
    # both kings seen: one played, one in the kitty the leader buried (as dealer)
    assert game._burier == game.dealer
    set_hands(game, {leader: f"{s}Q {s}Q {s}A BJ"})
    game.played[k] = 1
    game.buried[:] = [0] * NUM_KINDS
    game.buried[k] = copies[k] - 1
    higher = [c for c in range(NUM_KINDS) if game.ctx.effective_suit(c) ==
              game.ctx.effective_suit(k) and game.ctx.strength(c) > game.ctx.strength(k)]
    for c in higher:  # the aces: the leader's own and one more, seen played
        game.played[c] = copies[c] - game.hands[leader][c]
    if leader == game.dealer:
        game.verify(Play(leader, f"{s}Q {s}Q {s}A"))  # nothing unseen beats it
    game.buried[k] = 0  # the king pair is now unseen
    game.played[k] = 0
    with pytest.raises(IllegalAction):
        game.verify(Play(leader, f"{s}Q {s}Q {s}A"))
    # every other seat showed itself void in the suit: a trick led in it, followed off-suit
    lead = tuple(parse_cards(f"{s}3"))
    game._tricks = (((leader, lead),) + tuple(
        ((leader + i) % 4, tuple(parse_cards("BJ"))) for i in (1, 2, 3)),)
    game.verify(Play(leader, f"{s}Q {s}Q {s}A"))


@pytest.mark.parametrize("forced,back", [("9", 4), ("4 4", 3)])
def test_the_penalty_per_card_taken_back(forced, back):
    """Pagat (ChannonTian/80fen docs/RULES.md §K): 10 points per card taken back, on top of
    the per-attempt penalty; charged to the thrower's side."""
    game = _game(penalties={"failed_throw": 5, "failed_throw_per_card": 10})
    leader = game.to_act
    s = _plain_suit(game)
    outside = "J" if forced == "9" else "5 5"
    held = " ".join(f"{s}{r}" for r in outside.split())
    set_hands(game, {leader: f"{s}9 {s}8 {s}8 {s}4 {s}4 BJ", (leader + 1) % 4: "BJ LJ LJ",
                     (leader + 2) % 4: f"{held} {s}6 {s}7", (leader + 3) % 4: "LJ"})
    events = game.apply(Play(leader, f"{s}9 {s}8 {s}8 {s}4 {s}4"))
    failed = next(e for e in events if isinstance(e, ThrowFailed))
    assert failed.options == (_cards(" ".join(f"{s}{r}" for r in forced.split())),)
    assert failed.penalty == 5 + 10 * back
    assert game.penalties[leader] == 5 + 10 * back
    dealer_side = leader in game.side
    assert game.penalty == (1 if dealer_side else -1) * (5 + 10 * back)


def test_the_penalty_per_card_comes_with_the_choice():
    """seed 002's chooser with a per-card penalty: the attempt's penalty when the throw
    fails, the cards the chosen option takes back when it is chosen (ForcedChosen)."""
    game = _game(penalties={"failed_throw": 10, "failed_throw_per_card": 10},
                 base="house/turn-kitty", seed=3, act=first_offer)
    leader = game.to_act
    nxt = (leader + 1) % 4
    s = _plain_suit(game)
    set_hands(game, {leader: f"{s}Q {s}4 {s}4 BJ", nxt: f"{s}K {s}5 {s}5 LJ",
                     (leader + 2) % 4: "SA SA HA HA", (leader + 3) % 4: "CA CA DA DA"})
    failed = game.apply(Play(leader, f"{s}Q {s}4 {s}4"))[-1]
    assert isinstance(failed, ThrowFailed) and failed.chooser == nxt and failed.penalty == 10
    single = failed.options.index(_cards(f"{s}Q"))
    chosen = game.apply(ChooseForced(nxt, single))[0]
    assert isinstance(chosen, ForcedChosen) and chosen.penalty == 20  # two cards back
    assert game.penalties[leader] == 30


def test_a_plugin_failed_throw_receives_the_lead():
    """issue 35's defect: shengji_failed_throw is given the throw attempted."""
    seen = []

    class Plugin:
        @hookimpl
        def shengji_failed_throw(self, variant, result, leader, players, lead):
            seen.append(tuple(lead.cards()))
            return None  # the built-in decides

    v = load_variant("two-deck-80", plugins=[Plugin()])
    game = Game(v, 6)
    while game.phase != "play":
        seat = game.to_act
        game.apply(always_pass(game)(game.view(seat), game.legal_actions(seat)))
    leader = game.to_act
    s = _plain_suit(game)
    set_hands(game, {leader: f"{s}9 {s}4 {s}4 BJ", (leader + 1) % 4: f"{s}J LJ LJ",
                     (leader + 2) % 4: "BJ LJ", (leader + 3) % 4: "LJ"})
    game.apply(Play(leader, f"{s}9 {s}4 {s}4"))
    assert seen == [_cards(f"{s}9 {s}4 {s}4")]


@pytest.mark.parametrize("play,penalties", [
    ({"trump_throws": False}, None),
    ({"throw_check": "unseen"}, None),
    ({}, {"failed_throw": 10, "failed_throw_per_card": 10}),
])
def test_whole_deals_under_the_knobs(play, penalties):
    """Two deals of random and heuristic bots (the C play driver where it is exact, the
    per-play path where throw_check is unseen): every action is legal, the deals score."""
    settings = {"extends": "two-deck-80", "play": play, **(
        {"penalties": penalties} if penalties else {})}
    v = load_variant(settings)
    bots = [make_bot("heuristic" if s % 2 else "random", v, f"k{s}") for s in range(4)]
    game = Game(v, "house-knobs")
    runner.play(game, bots, stop_after_deals=2)
    assert game.deals_played == 2
