"""Bidding knobs of issue 28 in the engine's flow: the burier bidding in the theft round
(declare.theft_burier_bids, shengji.io core/src/game_state/mod.rs
test_kitty_stealing_bid_sequence). The rules themselves are rule cases in
tests/cases/house/ (theft-burier-bids); these tests hold the engine to them."""

from __future__ import annotations

from engine_helpers import check_conservation, run_checked

from shengji.bots import make_bot
from shengji.engine import (
    BidTakenBack,
    Buried,
    Bury,
    Declare,
    Declared,
    Game,
    KittyTaken,
    Pass,
    TakeBack,
)
from shengji.variants import load_variant

THEFT = {"extends": "two-deck-80", "declare": {"kitty_theft": True}}
BURIER = {"extends": "two-deck-80", "declare": {"kitty_theft": True, "theft_burier_bids": True}}


def _bury_first(game):
    legal = game.legal_actions()
    hand = [k for k, n in enumerate(game.hands[game.to_act]) for _ in range(n)]
    game.apply(Bury(game.to_act, tuple(hand[:legal.count])))


def _to_theft(v, seed):
    """Declare the first chance while nobody has, else pass, up to the theft round."""
    game = Game(v, seed)
    for _ in range(10_000):
        if game.phase in ("steal", "play"):
            return game
        legal = game.legal_actions()
        if legal.kind == "bury":
            _bury_first(game)
        else:
            game.apply(legal[1] if legal.kind == "declare" and len(legal) > 1
                       and not game.bids else legal[0])
    raise AssertionError("never reached")


def _burier_asked(v):
    """Games in the theft round whose burier (the dealer) is asked first, with a
    declaration keeping the trump on offer (a reinforcement), and with one changing it."""
    keeps = changes = None
    for seed in range(200):
        game = _to_theft(v, seed)
        if game.phase != "steal" or game.to_act != game.dealer:
            continue
        for a in list(game.legal_actions())[1:]:
            bid = game._make_bid(a.seat, a.cards)
            if bid.trump == game.trump and keeps is None:
                keeps = (game.copy(), a)
            elif bid.trump != game.trump and changes is None:
                changes = (game.copy(), a)
        if keeps and changes:
            return keeps, changes
    raise AssertionError(f"no scenario: {keeps} {changes}")


def test_the_burier_is_asked_first_only_under_the_knob():
    off = on = 0
    for seed in range(40):
        base, knob = _to_theft(load_variant(THEFT), seed), _to_theft(load_variant(BURIER), seed)
        if base.phase == "steal":
            holder = next(e.seat for e in reversed(base.events) if isinstance(e, Buried))
            assert base.to_act != holder
            off += 1
        if knob.phase == "steal":
            holder = next(e.seat for e in reversed(knob.events) if isinstance(e, Buried))
            on += knob.to_act == holder
    assert off and on


def test_a_reinforcement_stands_without_the_kitty_then_the_others_are_asked():
    (game, action), _ = _burier_asked(load_variant(BURIER))
    dealer, trump = game.dealer, game.trump
    events = game.apply(action)
    assert [type(e) for e in events[:1]] == [Declared]
    assert not any(isinstance(e, KittyTaken) for e in events)
    assert game.bids[-1].seat == dealer and game.trump == trump
    assert game.phase == "play" or (game.phase == "steal" and game.to_act != dealer)
    check_conservation(game)


def test_another_trump_takes_the_kitty_back():
    _, (game, action) = _burier_asked(load_variant(BURIER))
    dealer = game.dealer
    events = game.apply(action)
    assert isinstance(events[-1], KittyTaken) and events[-1].seat == dealer
    assert game.phase == "bury" and game.to_act == dealer
    assert game.trump == game.bids[-1].trump
    _bury_first(game)  # and the round starts again, the burier first
    assert game.phase == "play" or game.to_act == dealer or game.phase == "steal"
    check_conservation(game)


def test_burier_games_keep_the_invariants_and_replay():
    v = load_variant(BURIER)
    asked = 0
    for seed in range(10):
        game = Game(v, seed, max_deals=2)
        bots = [make_bot(["random", "heuristic"][s % 2], v, f"b/{seed}/{s}") for s in range(4)]
        run_checked(game, bots)
        for e, after in zip(game.events, game.events[1:], strict=False):
            # the burier answers first: its Pass or Declared follows its Buried
            asked += isinstance(e, Buried) and getattr(after, "seat", None) == e.seat
        assert Game.replay(v, seed, game.actions, max_deals=2).snapshot() == game.snapshot()
    assert asked > 0


# ------------------------------------------------ take-back while the declaration stands

STANDING = {"extends": "two-deck-80", "declare": {"takeback_while_standing": True}}


def _later_prompt(v, seed):
    """Declare the first chance, keep it at once; stop at the first later take-back
    prompt (None if the deal ends first)."""
    game = Game(v, seed)
    for _ in range(10_000):
        if game.phase != "deal":
            return None
        legal = game.legal_actions()
        if legal.kind == "takeback":
            if game.actions and isinstance(game.actions[-1], Declare):
                game.apply(legal[0])  # kept at once
                continue
            return game
        game.apply(legal[1] if legal.kind == "declare" and len(legal) > 1
                   and not game.bids else legal[0])
    raise AssertionError("never reached")


def test_while_standing_the_holder_is_asked_later_and_may_take_back():
    v = load_variant(STANDING)
    game = next(g for g in (_later_prompt(v, s) for s in range(20)) if g is not None)
    seat = game.to_act
    assert game.bids[-1].seat == seat and list(game.legal_actions()) == [Pass(seat),
                                                                          TakeBack(seat)]
    before = game.bids[:-1]
    events = game.apply(TakeBack(seat))
    assert isinstance(events[0], BidTakenBack) and game.bids == before
    # once per seat and deal: never asked again this deal
    while game.phase == "deal":
        legal = game.legal_actions()
        assert not (legal.kind == "takeback" and game.to_act == seat)
        game.apply(legal[0])


def test_plain_takeback_asks_only_right_after():
    v = load_variant({"extends": "two-deck-80", "declare": {"takeback": True}})
    assert all(_later_prompt(v, s) is None for s in range(20))


def test_while_standing_games_keep_the_invariants_and_replay():
    v = load_variant(STANDING)
    taken = 0
    for seed in range(8):
        game = Game(v, seed, max_deals=2)
        bots = [make_bot(["random", "heuristic"][s % 2], v, f"w/{seed}/{s}") for s in range(4)]
        run_checked(game, bots)
        taken += sum(isinstance(e, BidTakenBack) for e in game.events)
        assert Game.replay(v, seed, game.actions, max_deals=2).snapshot() == game.snapshot()
    assert taken > 0
