"""Bidding knobs in the engine (issue 10): take-back, kitty theft (炒地皮), the kitty flip
by level, and the bid policies as the engine offers them. The rules themselves are
stated as rule cases in tests/cases/house/ (kitty-theft, bid-*, jokers-*, ...); these
tests hold the engine's flow to them."""

from __future__ import annotations

import pytest
from engine_helpers import check_conservation, run_checked

from shengji.bots import make_bot
from shengji.engine import (
    BidTakenBack,
    Bury,
    Declare,
    Declared,
    Game,
    IllegalAction,
    KittyTaken,
    Pass,
    TakeBack,
    TrumpSet,
    action_from_dict,
)
from shengji.variants import load_variant

THEFT = {"extends": "two-deck-80", "declare": {"kitty_theft": True}}
TAKEBACK = {"extends": "two-deck-80", "declare": {"takeback": True}}


def _until(game, want, choose=lambda g, legal: legal[0]):
    """Apply ``choose(game, legal)`` (default: the first listed action) until ``want``."""
    for _ in range(10_000):
        if want(game):
            return game
        legal = game.legal_actions()
        if legal.kind == "bury":
            hand = [k for k, n in enumerate(game.hands[game.to_act]) for _ in range(n)]
            game.apply(Bury(game.to_act, tuple(hand[:legal.count])))
        else:
            game.apply(choose(game, legal))
    raise AssertionError("never reached")


def _first_declare(game, legal):
    return legal[1] if legal.kind == "declare" and len(legal) > 1 else legal[0]


# ---------------------------------------------------------------------------- take-back


def test_takeback_is_offered_at_once_and_restores_the_standing_bid():
    game = Game(load_variant(TAKEBACK), 3)
    _until(game, lambda g: g.legal_actions().kind == "declare" and len(g.legal_actions()) > 1)
    seat = game.to_act
    before = game.bids
    game.apply(game.legal_actions()[1])
    legal = game.legal_actions()
    assert game.to_act == seat and legal.kind == "takeback"
    assert list(legal) == [Pass(seat), TakeBack(seat)]
    with pytest.raises(IllegalAction) as e:
        game.apply(Declare(seat, game.bids[-1].cards))
    assert e.value.reason == "wrong_phase" and "takeback" in e.value.rule
    events = game.apply(TakeBack(seat))
    assert isinstance(events[0], BidTakenBack) and events[0].seat == seat
    assert game.bids == before
    assert game.events_for((seat + 1) % 4)[-len(events)] == events[0]  # public


def test_takeback_once_per_seat_and_deal():
    game = Game(load_variant(TAKEBACK), 3)
    took = set()
    for _ in range(5000):
        if game.phase != "deal":
            break
        legal = game.legal_actions()
        if legal.kind == "takeback":
            assert game.to_act not in took
            took.add(game.to_act)
            game.apply(legal[1])
        else:
            game.apply(_first_declare(game, legal))
    assert took and game.phase == "bury"
    assert sum(isinstance(e, BidTakenBack) for e in game.events) == len(took)


def test_takeback_off_by_default():
    game = Game("two-deck-80", 3)
    _until(game, lambda g: g.legal_actions().kind == "declare" and len(g.legal_actions()) > 1)
    seat = game.to_act
    game.apply(game.legal_actions()[1])
    assert game.legal_actions().kind != "takeback" or game.to_act != seat
    assert not any(isinstance(a, TakeBack) for a in game.legal_actions())


def test_takeback_record_round_trip():
    a = TakeBack(2)
    assert action_from_dict(a.to_dict()) == a
    game = Game(load_variant(TAKEBACK), 3)
    _until(game, lambda g: g.legal_actions().kind == "takeback", _first_declare)
    game.apply(game.legal_actions()[1])
    again = Game.from_dict(game.to_dict(), variant=load_variant(TAKEBACK))
    assert again.snapshot() == game.snapshot()


# ---------------------------------------------------------------------------- kitty theft


def _declare_once(game, legal):
    """Declare the first chance while nobody has, then pass (leaves room to steal)."""
    return legal[1] if legal.kind == "declare" and len(legal) > 1 and not game.bids else (
        legal[0])


def _theft_game(seed=5):
    """A theft game at the steal phase where some seat can overturn."""
    v = load_variant(THEFT)
    for s in range(seed, seed + 40):
        game = Game(v, s)
        _until(game, lambda g: g.phase in ("steal", "play"), _declare_once)
        if game.phase == "steal":
            return game
    raise AssertionError("no theft scenario")


def test_after_the_burial_other_seats_may_steal():
    game = _theft_game()
    dealer, seat = game.dealer, game.to_act
    assert seat != dealer and game.legal_actions().kind == "declare"
    buried = [k for k in range(54) for _ in range(game.buried[k])]
    bid = game.legal_actions()[1]
    events = game.apply(bid)
    kinds = [type(e) for e in events]
    assert kinds == [Declared, TrumpSet, KittyTaken]
    assert events[1].declarer == seat and events[1].dealer == dealer  # the dealer stays
    assert game.trump == game.bids[-1].trump and game.dealer == dealer
    assert game.phase == "bury" and game.to_act == seat
    assert sorted(events[2].cards) == sorted(buried)
    view = game.view(seat)
    assert sorted(view.kitty) == sorted(buried)  # the stealer sees what it took
    assert game.view(dealer).kitty is None
    assert [e.cards for e in game.events_for(dealer) if isinstance(e, KittyTaken)][-1] is None
    check_conservation(game)


def test_the_holder_is_not_asked_and_the_dealer_leads():
    game = _theft_game()
    holder = next(e.seat for e in reversed(game.events) if type(e).__name__ == "Buried")
    asked = []
    while game.phase == "steal":
        asked.append(game.to_act)
        game.apply(Pass(game.to_act))
    assert holder not in asked
    assert game.phase == "play" and game.to_act == game.dealer == game.leader


def test_no_theft_after_an_undeclared_trump():
    game = Game(load_variant(THEFT), 4)
    _until(game, lambda g: g.phase != "deal", lambda g, legal: legal[0])  # nobody declares
    assert not game.bids and game.phase == "bury"
    hand = [k for k, n in enumerate(game.hands[game.to_act]) for _ in range(n)]
    game.apply(Bury(game.to_act, tuple(hand[:game.kitty_size])))
    assert game.phase == "play"


def test_theft_games_keep_the_invariants():
    v = load_variant({"extends": "two-deck-80",
                      "declare": {"kitty_theft": True, "takeback": True}})
    stolen = 0
    for seed in range(12):
        game = Game(v, seed, max_deals=2)
        bots = [make_bot(["random", "heuristic"][s % 2], v, f"t/{seed}/{s}") for s in range(4)]
        run_checked(game, bots)
        stolen += sum(isinstance(e, KittyTaken) for e in game.events) - game.deals_played
        replay = Game.replay(v, seed, game.actions, max_deals=2)
        assert replay.snapshot() == game.snapshot()
    assert stolen > 0


# ------------------------------------------------------------------ policies as offered


def test_offers_follow_equal_count_policy():
    """The engine offers exactly what the bid policy accepts (bid-higher-suit cases):
    every declaration a seat could make from its hand while a pair stands is offered if
    and only if ``may_overturn`` accepts it."""
    v = load_variant({"extends": "two-deck-80",
                      "declare": {"equal_count": "jokers_or_higher_suit"}})
    checked = accepted = 0
    for seed in range(8):
        game = Game(v, seed)
        _until(game, lambda g: any(len(b.cards) == 2 for b in g.bids) or g.phase != "deal",
               _first_declare)
        if game.phase != "deal":
            continue
        for seat in range(4):
            offers = {o.cards for o in game._offers(seat)}
            hand = game.hands[seat]
            for k in game._seat_kinds[seat]:
                for n in range(1, hand[k] + 1):
                    bid = game._make_bid(seat, (k,) * n)
                    want = bid is not None and v.may_overturn(game.bids[-1], bid, game.bids)
                    assert (bid is not None and bid.cards in offers) == want, (seed, seat, k, n)
                    checked += 1
                    accepted += want
    # the loops ran, and both answers occurred
    assert checked > accepted > 0


def test_terminal_keeps_or_takes_back(tmp_path):
    """The terminal offers the take-back prompt and understands its hints."""
    import io

    from shengji.frontends.terminal import play

    class Second:
        def __init__(self, out):
            self.out = out

        def readline(self):
            hints = [ln for ln in self.out.getvalue().splitlines() if "hints: " in ln]
            # the prompt numbers its hints ("#0 pass | #1 ♠2"): keep what is typed
            options = [h.split(" ", 1)[1] for h in hints[-1].split("hints: ", 1)[1].split(" | ")]
            return (options[1] if options[0] == "pass" and len(options) > 1
                    else options[0]) + "\n"

    for seed in range(10):
        out = io.StringIO()
        assert play("house/kitty-theft", 0, seed, deals=1, inp=Second(out), out=out) == 0
        text = out.getvalue()
        if "take it back" in text:
            assert "refused" not in text and "--- Deal 1 result ---" in text
            return
    raise AssertionError("seat 0 never declared")
