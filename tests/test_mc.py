"""The Monte-Carlo bot (``mc``) and its pieces: bot specs and their errors, the C
evaluation of candidate plays, the sampling of hidden cards, and what the bot may know."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from shengji.bots import BOTS, describe, make_bot, parse_spec
from shengji.bots.knowledge import Holders, sample_world, unseen_counts, voids
from shengji.bots.mc import Budget
from shengji.cards import NUM_KINDS, point_value
from shengji.engine import Game
from shengji.engine.runner import LazyView
from shengji.errors import HandError, ShengjiError
from shengji.playout import Position, evaluate, playout, playouts
from shengji.variants import load_variant

sys.path.insert(0, str(Path(__file__).parent))
from test_playout import to_play_phase  # noqa: E402

SMALL = "mc:budget=120"


@pytest.fixture(scope="module")
def v80():
    return load_variant("two-deck-80")


# ------------------------------------------------------------------ specs and errors


def test_specs_parse_options_and_describe_defaults(v80):
    cls, opts = parse_spec("mc:budget=250ms:policy=random:cap=5")
    assert cls is BOTS["mc"] and opts == {"budget": Budget(ms=250), "policy": "random",
                                          "cap": 5}
    assert describe("mc:budget=300") == {"name": "mc", "budget": "300", "policy": "greedy",
                                         "cap": 12, "bury": "search", "alloc": "halving"}
    assert describe("heuristic") == {"name": "heuristic"}
    bot = make_bot("mc:budget=40", v80, seed=1)
    assert bot.config["budget"] == Budget(playouts=40)


@pytest.mark.parametrize("spec,message", [
    ("mcts", "unknown bot 'mcts'; bots: random, heuristic, mc"),
    ("mc:budgt=5",
     "unknown option 'budgt' for bot 'mc'; options: budget, policy, cap, bury, alloc"),
    ("heuristic:budget=5", "unknown option 'budget' for bot 'heuristic'; options: none"),
    ("mc:budget=lots", "bot 'mc': budget=lots: a number of playouts"),
    ("mc:budget=0", "bot 'mc': budget=0"),
    ("mc:policy=clever", "bot 'mc': policy=clever: one of random, greedy"),
    ("mc:cap", "option 'cap' needs a value"),
])
def test_bad_specs_are_one_line_naming_the_bots(v80, spec, message):
    with pytest.raises(ShengjiError) as e:
        make_bot(spec, v80)
    assert message in str(e.value) and "\n" not in str(e.value)
    if "unknown bot" in message:
        assert all(name in str(e.value) for name in ("random", "heuristic", "mc"))


# ------------------------------------------------------------------ the C evaluation


def _copy(game):
    return Game.replay(game.variant, game.seed, game.actions, max_deals=game.max_deals)


def _world(game):
    kitty = sum(point_value(k) * n for k, n in enumerate(game.buried))
    return [tuple(h) for h in game.hands], kitty


@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40", "three-deck-titanic"])
def test_evaluate_without_plays_is_the_plain_playout(variant):
    g = to_play_phase(load_variant(variant), 4, 9)
    pos = Position.from_game(g)
    assert list(evaluate(pos, [_world(g)], [], 25, seed=77)) == list(playouts(pos, 25, 77).totals)


@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40"])
def test_evaluate_a_play_is_the_playout_after_it(variant):
    """Playout j after candidate k is the random playout of the position the engine
    reaches by making that play (the forced play draws nothing)."""
    v = load_variant(variant)
    checked = 0
    for seed, extra in ((1, 0), (2, 5), (3, 14), (5, 2)):
        g = to_play_phase(v, seed, extra)
        pos = Position.from_game(g)
        plays = [a.cards for a in g.legal_actions()][:6]
        # throws may fail against the hidden hands: the engine would then ask for a choice
        plays = [p for p in plays if len(g.ctx.decompose(p)) == 1]
        res = evaluate(pos, [_world(g)], plays, 3, seed=11)
        for k, cards in enumerate(plays):
            after = _copy(g)
            from shengji.engine import Play
            after.apply(Play(g.to_act, cards))
            if after.phase != "play":
                continue
            for j in range(3):
                assert res[k * 3 + j] == playout(Position.from_game(after), 11 + j).total
                checked += 1
    assert checked > 20


def test_evaluate_refuses_plays_the_seat_cannot_make(v80):
    g = to_play_phase(v80, 2, 1)  # a follow is due
    assert g.trick, "a trick in progress"
    pos = Position.from_game(g)
    hand = g.hands[g.to_act]
    missing = next(k for k in range(NUM_KINDS) if not hand[k])
    with pytest.raises(HandError, match="not a legal first play"):
        evaluate(pos, [_world(g)], [(missing,)], 1)
    lead_suit = g.ctx.effective_suit(g.trick[0][1][0])
    off = [k for k in range(NUM_KINDS) if hand[k] and g.ctx.effective_suit(k) != lead_suit]
    on = [k for k in range(NUM_KINDS) if hand[k] and g.ctx.effective_suit(k) == lead_suit]
    if on and off and len(g.trick[0][1]) == 1:
        with pytest.raises(HandError, match="not a legal first play"):
            evaluate(pos, [_world(g)], [(off[0],)], 1)
    with pytest.raises(HandError, match="policy"):
        evaluate(pos, [_world(g)], [], 1, policy="smart")


def test_greedy_policy_plays_whole_deals(v80):
    for seed in range(4):
        g = to_play_phase(v80, seed, 3 * seed)
        pos = Position.from_game(g)
        a = evaluate(pos, [_world(g)] * 3, [], 20, seed=5, policy="greedy")
        b = evaluate(pos, [_world(g)] * 3, [], 20, seed=5, policy="greedy")
        assert list(a) == list(b) and len(a) == 60
        assert all(0 <= t <= 1000 for t in a)


# ------------------------------------------------------------------ hidden cards


def _games_with_voids(variant, n):
    """Views of games in mid-play where some seat has shown a void."""
    found = []
    for seed in range(60):
        g = Game(variant, f"voids/{seed}")
        bots = [make_bot("random", g.variant, f"{seed}/{s}") for s in range(g.players)]
        while not g.over and g.deals_played == 0:
            s = g.to_act
            if g.phase == "play" and g.trick_number >= 6:
                view = g.view(s)
                eff = [g.ctx.effective_suit(k) for k in range(NUM_KINDS)]
                if any(voids(view, eff)):
                    found.append((g, view, eff))
                    break
            g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
        if len(found) >= n:
            break
    return found


@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40"])
def test_worlds_respect_voids_and_hand_sizes(variant):
    cases = _games_with_voids(load_variant(variant), 6)
    assert len(cases) >= 3
    rng = random.Random(3)
    for g, view, eff in cases:
        dealer = view.seat == g.dealer
        buried = tuple(g.buried) if dealer else None
        unseen = unseen_counts(view, g.variant.composition.counts, buried)
        holders = Holders(view, eff, unseen, kitty_known=dealer)
        assert holders.consistent
        shown = voids(view, eff)
        for _ in range(200):
            hands = sample_world(holders, rng)
            dealt = [0] * NUM_KINDS
            for i, seat in enumerate(holders.seats):
                cards = hands[i]
                if seat is None:
                    assert len(cards) == g.kitty_size
                else:
                    assert len(cards) == view.hand_sizes[seat]
                    assert not any(eff[c] in shown[seat] for c in cards), \
                        f"seat {seat} got a card of a suit it is void in"
                for c in cards:
                    dealt[c] += 1
            assert dealt == unseen


def test_flow_fallback_respects_voids(monkeypatch):
    """With the shuffle-and-repair route disabled, the max-flow route deals validly."""
    import shengji.bots.knowledge as kn

    monkeypatch.setattr(kn, "MAX_TRIES", 0)
    cases = _games_with_voids(load_variant("two-deck-80"), 3)
    rng = random.Random(5)
    for g, view, eff in cases:
        unseen = unseen_counts(view, g.variant.composition.counts, None)
        holders = Holders(view, eff, unseen, kitty_known=False)
        shown = voids(view, eff)
        for _ in range(50):
            hands = kn.sample_world(holders, rng)
            for i, seat in enumerate(holders.seats):
                assert len(hands[i]) == holders.caps[i]
                if seat is not None:
                    assert not any(eff[c] in shown[seat] for c in hands[i])


# ------------------------------------------------------------------ what the bot knows


def _scrambled(game, seat):
    """The same game with every card this seat cannot see dealt differently."""
    g = _copy(game)
    others = [s for s in range(g.players) if s != seat]
    pool = [k for s in others for k in range(NUM_KINDS) for _ in range(g.hands[s][k])]
    hide_kitty = seat != g.dealer
    if hide_kitty:
        pool += [k for k in range(NUM_KINDS) for _ in range(g.buried[k])]
    random.Random(9).shuffle(pool)
    for s in others:
        n = g.hand_len[s]
        g.hands[s] = [0] * NUM_KINDS
        for k in pool[:n]:
            g.hands[s][k] += 1
        pool = pool[n:]
    if hide_kitty:
        g.buried = [0] * NUM_KINDS
        for k in pool:
            g.buried[k] += 1
    g._seat_hands = [None] * g.players
    return g


def _decision_points(variant, n, seed="know"):
    g = Game(variant, seed, max_deals=1)
    bots = [make_bot("heuristic", g.variant, s) for s in range(g.players)]
    points = []
    while not g.over:
        s = g.to_act
        legal = g.legal_actions(s)
        if g.phase == "play" and len(legal) > 1 and g.trick_number % 3 == 1:
            points.append(_copy(g))
        g.apply(bots[s].act(g.view(s), legal))
    return points[:n]


def test_decisions_depend_only_on_the_view(v80):
    points = _decision_points(v80, 8)
    assert len(points) == 8
    searched = 0
    for g in points:
        seat = g.to_act
        scrambled = _scrambled(g, seat)
        assert scrambled.view(seat) == g.view(seat)
        assert [scrambled.hands[s] for s in range(g.players) if s != seat] != \
            [g.hands[s] for s in range(g.players) if s != seat]
        bot_a, bot_b = make_bot(SMALL, v80, 3), make_bot(SMALL, v80, 3)
        a = bot_a.act(LazyView(g, seat), g.legal_actions(seat))
        b = bot_b.act(LazyView(scrambled, seat), scrambled.legal_actions(seat))
        assert a == b
        if bot_a.last is not None:
            searched += 1
            assert bot_a.last["means"] == bot_b.last["means"]  # the very same search
    assert searched >= 4  # most points ran a real search, not a single candidate


def test_burial_depends_only_on_the_view():
    """The searched burial, with the other seats' hands scrambled: the same burial."""
    v = load_variant("one-deck-40")
    for seed in range(3):
        g = Game(v, f"bury-view/{seed}", max_deals=1)
        others = [make_bot("random", v, s) for s in range(4)]
        while g.phase != "bury":
            s = g.to_act
            g.apply(others[s].act(g.view(s), g.legal_actions(s)))
        seat = g.to_act
        scrambled = _scrambled(g, seat)
        assert scrambled.view(seat) == g.view(seat)
        assert [scrambled.hands[s] for s in range(4) if s != seat] != \
            [g.hands[s] for s in range(4) if s != seat]
        a, ra = make_bot("mc:budget=200", v, 5).advise(LazyView(g, seat),
                                                        g.legal_actions(seat))
        b, rb = make_bot("mc:budget=200", v, 5).advise(LazyView(scrambled, seat),
                                                        scrambled.legal_actions(seat))
        assert a == b and ra == rb


def test_same_seed_same_decisions_and_advice(v80):
    for g in _decision_points(v80, 5, seed="again"):
        seat = g.to_act
        bots = [make_bot(SMALL, v80, 7) for _ in range(2)]
        first = bots[0].act(g.view(seat), g.legal_actions(seat))
        assert bots[1].act(g.view(seat), g.legal_actions(seat)) == first
        action, reason = bots[0].advise(g.view(seat), g.legal_actions(seat))
        assert action == first and reason


def test_whole_deals_replay_identically(v80):
    def run():
        g = Game(v80, "mc-deal", max_deals=1)
        bots = [make_bot(SMALL if s % 2 == 0 else "heuristic", v80, s) for s in range(4)]
        from shengji.engine.runner import play
        play(g, bots)
        return g.actions

    assert run() == run()


@pytest.mark.parametrize("variant", ["one-deck-40", "three-deck-titanic", "four-deck"])
def test_mc_plays_legal_deals_in_other_variants(variant):
    v = load_variant(variant)
    g = Game(v, "mc-variants", max_deals=1)
    bots = [make_bot("mc:budget=60" if s % 2 else "random", v, s) for s in range(v.players)]
    while not g.over:
        s = g.to_act
        action = bots[s].act(g.view(s), g.legal_actions(s))
        assert g.can(action)
        g.apply(action)


def test_time_budget_spends_about_its_time(v80):
    import time

    g = _decision_points(v80, 1, seed="time")[0]
    seat = g.to_act
    bot = make_bot("mc:budget=30ms", v80, 1)
    t = time.perf_counter()
    bot.act(g.view(seat), g.legal_actions(seat))
    assert time.perf_counter() - t < 5  # a round may overrun the budget, not run away
    assert bot.last["worlds"] >= 8


@pytest.mark.parametrize("alloc", ["halving", "uniform"])
def test_a_playout_budget_is_kept(v80, alloc):
    for g in _decision_points(v80, 4, seed="budget"):
        seat = g.to_act
        bot = make_bot(f"mc:budget=400:alloc={alloc}", v80, 2)
        bot.act(g.view(seat), g.legal_actions(seat))
        if bot.last is None:
            continue  # one sensible play: no search
        k = len(bot.last["candidates"])
        assert bot.last["playouts"] <= 400 + k  # rounding gives each candidate at least one
        assert bot.last["playouts"] >= 400 // 2


@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40"])
def test_searched_burials_are_legal_and_reproducible(variant):
    v = load_variant(variant)
    found = 0
    for seed in range(3):
        g = Game(v, f"bury/{seed}", max_deals=1)
        others = [make_bot("random", v, s) for s in range(4)]
        while g.phase != "bury":
            s = g.to_act
            g.apply(others[s].act(g.view(s), g.legal_actions(s)))
        seat = g.to_act
        a = make_bot("mc:budget=200", v, 4)
        b = make_bot("mc:budget=200", v, 4)
        first, reason = a.advise(g.view(seat), g.legal_actions(seat))
        assert g.can(first) and "burial" in reason
        assert b.act(g.view(seat), g.legal_actions(seat)) == first
        assert b._buried[1] == tuple(first.cards.count(k) for k in range(NUM_KINDS))
        assert a._buried is None  # advice leaves no memory
        found += 1
    assert found == 3


def test_finding_friends_playouts_let_the_called_copies_decide():
    """With calls open, the search's position carries the calls as this seat has seen
    them counted and every seat's points so far; the playouts say who joined."""
    from shengji.playout import FriendsState

    v = load_variant("finding-friends")
    g = Game(v, "mc-friends", max_deals=1)
    bots = [make_bot("heuristic", v, s) for s in range(v.players)]
    seen = 0
    while not g.over and seen < 3:
        s = g.to_act
        view = g.view(s)
        legal = g.legal_actions(s)
        if legal.kind in ("lead", "follow") and not view.sides_known and view.tricks:
            bot = make_bot("mc:budget=80", v, 1)
            base = bot._position(view, g.ctx)
            assert isinstance(base.friends, FriendsState) and base.friends.calls == view.calls
            assert sum(base.captured) == sum(point_value(c) for t in view.tricks
                                             for _, cards in t for c in cards)
            assert g.can(bot.act(view, legal))
            seen += 1
        g.apply(bots[s].act(view, legal))
    assert seen == 3
