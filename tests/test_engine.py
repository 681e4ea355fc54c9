"""The engine's state machine, rule by rule (each test names its seed and rule)."""

from __future__ import annotations

import json

import pytest
from engine_helpers import check_conservation

from shengji.bots import make_bot
from shengji.cards import BIG_JOKER, LITTLE_JOKER, NUM_KINDS, kind, parse_cards, parse_suit
from shengji.core import Hand
from shengji.engine import (
    Bury,
    CardDealt,
    ChooseForced,
    Declare,
    Declared,
    ForcedChosen,
    Game,
    IllegalAction,
    IllegalPlayAction,
    KittyTaken,
    Pass,
    Play,
    Played,
    Redealt,
    ThrowFailed,
    TrumpSet,
    action_from_dict,
    event_from_dict,
)
from shengji.errors import IllegalPlay, ShengjiError
from shengji.variants import load_variant

V80 = "two-deck-80"


@pytest.fixture(scope="module")
def v80():
    return load_variant(V80)


def always_pass(game):
    """Pass every declaration; play randomly otherwise (a fixed-seed random bot)."""
    bot = make_bot("random", game.variant, "pass")

    def act(view, legal):
        return legal[0] if legal.kind == "declare" else bot.act(view, legal)

    return act


def first_offer(game):
    bot = make_bot("random", game.variant, "first")

    def act(view, legal):
        return legal[1] if legal.kind == "declare" and len(legal) > 1 else (
            legal[0] if legal.kind == "declare" else bot.act(view, legal))

    return act


def advance(game, act, until):
    """Apply ``act``'s choices until ``until(game)`` holds (or the game ends)."""
    while not game.over and not until(game):
        seat = game.to_act
        game.apply(act(game.view(seat), game.legal_actions(seat)))


def random_act(game, seed="r"):
    bots = [make_bot("random", game.variant, f"{seed}/{s}") for s in range(game.players)]
    return lambda view, legal: bots[view.seat].act(view, legal)


def set_hands(game, hands: dict) -> None:
    """Give seats chosen cards (a test scenario; conservation is not kept)."""
    for seat, text in hands.items():
        counts = [0] * NUM_KINDS
        for c in parse_cards(text):
            counts[c] += 1
        game.hands[seat] = counts
        game.hand_len[seat] = sum(counts)
        game._seat_hands[seat] = None


def level_cards(game) -> list:
    """The deal's level cards, one per suit (♠ ♥ ♣ ♦), in the order of the offers."""
    return [kind(s, game.level) for s in range(4)]


def declaring_kinds(game) -> list:
    """The kinds that may declare at the deal's level: its level cards and the jokers."""
    return level_cards(game) + [LITTLE_JOKER, BIG_JOKER]


def to_play_phase(name, seed, act_factory=always_pass):
    game = Game(name, seed)
    advance(game, act_factory(game), lambda g: g.phase == "play")
    return game


# ---------------------------------------------------------------------------- dealing


def test_cards_dealt_one_at_a_time_in_play_order(v80):
    """seed 000 亮牌規則 (在發牌過程中): one card at a time, in play order."""
    game = Game(v80, 7)
    advance(game, always_pass(game), lambda g: g.phase != "deal")
    dealt = [e for e in game.events if isinstance(e, CardDealt)]
    n = v80.hand_size * v80.players
    assert len(dealt) == n
    first = game.events[0].first_seat
    assert [e.seat for e in dealt] == [(first + i) % v80.players for i in range(n)]
    kitty = [e for e in game.events if isinstance(e, KittyTaken)][0]
    assert len(kitty.cards) == v80.kitty_size


def test_decisions_only_with_an_acceptable_bid(v80):
    """RULES §7: a seat is asked only when it holds a bid the hooks accept now."""
    game = Game(v80, 11)
    act = random_act(game, "bids")
    asked = 0
    while game.phase == "deal":
        seat = game.to_act
        legal = game.legal_actions(seat)
        assert legal.kind == "declare" and isinstance(legal[0], Pass)
        assert len(legal) > 1, "asked without anything to declare"
        standing = game.bids[-1] if game.bids else None
        for d in list(legal)[1:]:
            bid = v80.bid(seat, d.cards, game.level)
            assert bid.strength and v80.may_overturn(standing, bid)
        asked += 1
        game.apply(act(game.view(seat), legal))
    assert asked > 0


def test_first_declarer_deals_and_names_trump(v80):
    """seed 000: the first level card shown names the trump; the first declarer deals."""
    game = Game(v80, 3)
    advance(game, first_offer(game), lambda g: g.phase != "deal")
    declared = [e for e in game.events if isinstance(e, Declared)]
    assert declared, "somebody held a level card"
    trump_set = [e for e in game.events if isinstance(e, TrumpSet)][0]
    assert game.dealer == declared[0].seat
    assert trump_set.trump == declared[-1].trump == game.trump


def test_nobody_declares_means_no_trump(v80):
    """seed 000: 若發牌結束仍無人亮牌，則打無主 (and seat 0 deals the first deal)."""
    game = Game(v80, 5)
    advance(game, always_pass(game), lambda g: g.phase != "deal")
    assert game.trump is None and game.dealer == 0 and not game.bids


def test_refused_declarations_name_the_rule_and_change_nothing(v80):
    game = Game(v80, 2)
    seat = game.to_act
    before = game.snapshot()
    level_card = [k for k in level_cards(game) if game.hands[seat][k] == 0][0]
    with pytest.raises(IllegalAction) as e:
        game.apply(Declare(seat, (level_card,)))
    assert e.value.reason == "not_in_hand" and "docs/rules.md §7" in e.value.rule
    held = [k for k in range(NUM_KINDS) if game.hands[seat][k] and k not in declaring_kinds(game)]
    with pytest.raises(IllegalAction) as e:
        game.apply(Declare(seat, (held[0],)))
    assert e.value.reason == "cannot_declare"
    with pytest.raises(IllegalAction) as e:
        game.apply(Pass((seat + 1) % 4))
    assert e.value.reason == "not_your_turn"
    with pytest.raises(IllegalAction) as e:
        game.apply(Bury(seat, ()))
    assert e.value.reason == "wrong_phase"
    assert game.snapshot() == before


def test_overturn_needs_a_stronger_bid(v80):
    """seed 002: after a single level card, another single of another suit may not
    overturn; the engine asks the variant's may_overturn."""
    for seed in range(40):
        game = Game(v80, seed)
        act = first_offer(game)
        while game.phase == "deal" and not game.bids:
            game.apply(act(game.view(game.to_act), game.legal_actions(game.to_act)))
        if game.phase != "deal" or len(game.bids[0].cards) != 1:
            continue
        first = game.bids[0]
        advance(game, always_pass(game), lambda g, first=first: g.phase != "deal" or (
            g.to_act != first.seat and any(
                g.hands[g.to_act][k] for k in level_cards(g) if k != first.cards[0])))
        if game.phase != "deal":
            continue
        seat = game.to_act
        other = next(k for k in level_cards(game) if k != first.cards[0] and game.hands[seat][k])
        before = game.snapshot()
        with pytest.raises(IllegalAction) as e:
            game.apply(Declare(seat, (other,)))
        assert e.value.reason == "cannot_overturn"
        assert game.snapshot() == before
        return
    pytest.fail("no scenario found")


def test_first_deal_redealt_when_nobody_declares():
    """seed 002: 第一副牌局若無人亮主則重新發牌 (house/turn-kitty)."""
    game = Game("house/turn-kitty", 4)
    advance(game, always_pass(game), lambda g: any(isinstance(e, Redealt) for e in g.events))
    starts = [e for e in game.events if type(e).__name__ == "DealStarted"]
    assert [s.attempt for s in starts] == [0, 1] and starts[1].deal == 0
    check_conservation(game)


def test_after_the_last_card_a_new_declaration_reopens_the_round():
    """issue 10, decided from seed 003 (在發牌結束後, 每方都可以根據牌情翻出級牌, 最後翻出
    的級牌花色即為主花色): a seat that passed after the last card is asked again when a
    later seat declares, and the round ends only when all others have passed."""
    game = Game(V80, 0)
    while game.view(game.to_act).to_deal:  # until the last card is dealt
        game.apply(Pass(game.to_act))
    first = game.to_act
    assert len(game.legal_actions(first)) > 1  # it could declare, and passes
    game.apply(Pass(first))
    bidder = game.to_act
    game.apply(game.legal_actions(bidder)[1])
    asked = []
    while game.phase == "deal":
        asked.append(game.to_act)
        assert game.to_act != bidder
        game.apply(Pass(game.to_act))
    assert first in asked
    assert asked == sorted(asked, key=lambda s: (s - bidder) % game.players)
    assert game.trump == game.bids[-1].trump and game.bids[-1].seat == bidder


def test_a_run_of_redeals_ends_by_the_redeal_limit():
    """issue 10: seats that never declare used to redeal until the engine raised; after
    declare.redeal_limit redeals the deal is played by when_nobody (turn the kitty) with
    the seat dealt first as dealer (declare.nobody_first_dealer)."""
    game = Game("house/turn-kitty", 4)
    limit = game.variant.settings["declare"]["redeal_limit"]
    advance(game, always_pass(game), lambda g: g.phase != "deal")
    starts = [e for e in game.events if type(e).__name__ == "DealStarted"]
    assert [s.attempt for s in starts] == list(range(limit + 1))
    assert sum(isinstance(e, Redealt) for e in game.events) == limit
    ts = [e for e in game.events if isinstance(e, TrumpSet)][-1]
    assert ts.declarer is None and ts.dealer == 0 and ts.turned_card == game.kitty[0]
    assert game.phase == "bury" and game.to_act == 0
    check_conservation(game)


def test_redeals_are_a_loop_not_a_call_deeper_for_each():
    """issue 34: a run of redeals dealt each one a call deeper (_finish_dealing →
    _start_deal), and 1,000 of them ended in RecursionError. Eight packs, declarations of
    all eight copies only and no jokers: nobody declares, 20 redeals; dealing them needs
    no deeper stack than one deal."""
    import inspect
    import sys

    v = load_variant({"extends": "finding-friends", "players": 12,
                      "deck": {"packs": 8, "big_jokers": 8, "little_jokers": 8},
                      "hand_size": 35, "kitty_size": 12,
                      "declare": {"first_deal_redeal": True, "redeal_limit": 20,
                                  "min_level_cards": 8, "jokers": {"allowed": False}}})
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 30)  # a deal needs 10 frames
    try:
        game = Game(v, 1)
    finally:
        sys.setrecursionlimit(limit)
    assert sum(isinstance(e, Redealt) for e in game.events) == 20
    assert game.phase != "deal"


@pytest.mark.parametrize("limit", [0, 2])
def test_redeal_limit_is_a_setting(limit):
    v = load_variant({"extends": "house/turn-kitty", "declare": {"redeal_limit": limit}})
    game = Game(v, 4)
    advance(game, always_pass(game), lambda g: g.phase != "deal")
    assert sum(isinstance(e, Redealt) for e in game.events) == limit


def test_nobody_first_dealer_random_is_drawn_from_the_seed():
    v = load_variant({"extends": "two-deck-80", "declare": {"nobody_first_dealer": "random"}})
    dealers = set()
    for seed in range(12):
        game = Game(v, seed)
        advance(game, always_pass(game), lambda g: g.phase != "deal")
        again = Game(v, seed)
        advance(again, always_pass(again), lambda g: g.phase != "deal")
        assert game.dealer == again.dealer
        dealers.add(game.dealer)
    assert len(dealers) > 1


def test_later_deal_turns_the_kitty():
    """seed 002: 若抓完牌後無人亮主，通常會翻底牌的第一張牌來決定主牌花色."""
    game = Game("house/turn-kitty", 9)
    advance(game, first_offer(game), lambda g: g.deal_number == 1)
    advance(game, always_pass(game), lambda g: g.phase != "deal")
    ts = [e for e in game.events if isinstance(e, TrumpSet)][-1]
    assert ts.declarer is None and ts.turned_card == game.kitty[0]
    assert ts.trump == (None if ts.turned_card >= 52 else ts.turned_card // 13)


# ---------------------------------------------------------------------------- kitty


def test_dealer_takes_and_buries_the_kitty(v80):
    """RULES §8: the dealer takes the kitty and buries as many cards."""
    game = Game(v80, 8)
    advance(game, always_pass(game), lambda g: g.phase == "bury")
    dealer = game.dealer
    assert game.to_act == dealer and game.hand_len[dealer] == v80.hand_size + v80.kitty_size
    assert game.view(dealer).kitty is not None
    before = game.snapshot()
    hand = [k for k in range(NUM_KINDS) for _ in range(game.hands[dealer][k])]
    with pytest.raises(IllegalAction) as e:
        game.apply(Bury(dealer, tuple(hand[:v80.kitty_size - 1])))
    assert e.value.reason == "wrong_count" and "buries" in e.value.rule
    missing = next(k for k in range(NUM_KINDS) if game.hands[dealer][k] == 0)
    with pytest.raises(IllegalAction) as e:
        game.apply(Bury(dealer, (missing,) + tuple(hand[:v80.kitty_size - 1])))
    assert e.value.reason == "not_in_hand"
    assert game.snapshot() == before
    game.apply(Bury(dealer, tuple(hand[:v80.kitty_size])))
    assert game.phase == "play" and game.to_act == dealer
    assert game.view(dealer).kitty is None, "the buried kitty is hidden, even from the dealer"


# ---------------------------------------------------------------------------- playing


def test_follow_suit_is_enforced(v80):
    """seed 000 出牌規則: a follower must follow the led suit; the error names the rule."""
    for seed in range(20):
        game = to_play_phase(V80, seed)
        act = random_act(game)

        def scenario(g):
            if g.phase != "play" or not g.trick:
                return False
            eff = g.ctx.effective_suit
            suit = eff(g.trick[0][1][0])
            h = g.hands[g.to_act]
            return len(g.trick[0][1]) == 1 and any(h[k] and eff(k) == suit for k in range(54)) \
                and any(h[k] and eff(k) != suit for k in range(54))

        advance(game, act, scenario)
        if game.over:
            continue
        seat = game.to_act
        eff = game.ctx.effective_suit
        suit = eff(game.trick[0][1][0])
        off = next(k for k in range(NUM_KINDS) if game.hands[seat][k] and eff(k) != suit)
        before = game.snapshot()
        with pytest.raises(IllegalPlayAction) as e:
            game.apply(Play(seat, (off,)))
        assert isinstance(e.value, IllegalPlay)
        assert e.value.reason == "must_follow_suit" and "seed 000" in e.value.rule
        assert game.snapshot() == before
        assert not game.can(Play(seat, (off,)))
        return
    pytest.fail("no scenario found")


def test_leads_of_several_suits_are_refused(v80):
    game = to_play_phase(V80, 1)
    seat = game.to_act
    h = game.hands[seat]
    eff = game.ctx.effective_suit
    a = next(k for k in range(NUM_KINDS) if h[k] and eff(k) != 4)
    b = next(k for k in range(NUM_KINDS) if h[k] and eff(k) != eff(a))
    with pytest.raises(IllegalPlayAction) as e:
        game.verify(Play(seat, (a, b)))
    assert e.value.reason == "several_suits"


def test_four_decks_have_no_throws():
    """seed 003: four decks have no tractors and no throws."""
    game = to_play_phase("four-deck", 2)
    seat = game.to_act
    h = game.hands[seat]
    suit_cards = {}
    for k in range(NUM_KINDS):
        if h[k]:
            suit_cards.setdefault(game.ctx.effective_suit(k), []).append(k)
    kinds = next(ks for ks in suit_cards.values() if len(ks) >= 2)
    with pytest.raises(IllegalPlayAction) as e:
        game.verify(Play(seat, (kinds[0], kinds[1])))
    assert e.value.reason == "no_throws"
    assert all(len(set(a.cards)) == 1 for a in game.legal_actions(seat))


def _no_trump_lead_scenario(name, seed, act_factory):
    game = to_play_phase(name, seed, act_factory)
    suit = next(s for s in range(4) if s != game.trump)
    return game, "SHCD"[suit]


@pytest.mark.parametrize("outside,forced", [("J", "9"), ("Q Q", "4 4"), ("5 5", "4 4")])
def test_failed_throw_plays_the_lowest_beaten_part(v80, outside, forced):
    """seed 000: trying 98844, if someone holds the J the leader must play the 9; if
    someone holds QQ or 55, the 44 (semantics §6: the lowest beaten component)."""
    game, s = _no_trump_lead_scenario(V80, 6, always_pass)
    leader = game.to_act
    others = [(leader + i) % 4 for i in (1, 2, 3)]
    held = " ".join(f"{s}{r}" for r in outside.split())
    set_hands(game, {leader: f"{s}9 {s}8 {s}8 {s}4 {s}4 BJ", others[0]: f"{s}3 BJ LJ LJ",
                     others[1]: f"{held} {s}6 {s}7 {s}3", others[2]: "LJ"})
    events = game.apply(Play(leader, f"{s}9 {s}8 {s}8 {s}4 {s}4"))
    want = tuple(sorted(parse_cards(" ".join(f"{s}{r}" for r in forced.split())), reverse=True))
    failed = [e for e in events if isinstance(e, ThrowFailed)]
    assert failed and failed[0].options == (want,)
    played = [e for e in events if isinstance(e, Played)][0]
    assert played.cards == want and played.lead
    assert game.hand_len[leader] == 6 - len(want) and game.to_act == others[0]


def test_failed_throw_the_next_player_chooses():
    """seed 002: throwing Q44 when others hold a higher single and a higher pair, the next
    player picks the forced play; the thrower's side loses the penalty (10 points)."""
    game, s = _no_trump_lead_scenario("house/turn-kitty", 3, first_offer)
    leader = game.to_act
    nxt = (leader + 1) % 4
    set_hands(game, {leader: f"{s}Q {s}4 {s}4 BJ", nxt: f"{s}K {s}5 {s}5 LJ",
                     (leader + 2) % 4: "SA SA HA HA", (leader + 3) % 4: "CA CA DA DA"})
    events = game.apply(Play(leader, f"{s}Q {s}4 {s}4"))
    failed = events[-1]
    assert isinstance(failed, ThrowFailed) and failed.chooser == nxt and failed.penalty == 10
    assert set(failed.options) == {tuple(parse_cards(f"{s}Q")), tuple(parse_cards(f"{s}4 {s}4"))}
    assert game.phase == "choose" and game.to_act == nxt
    assert len(game.legal_actions(nxt)) == 2
    with pytest.raises(IllegalAction):
        game.apply(ChooseForced(nxt, 5))
    pick = failed.options.index(tuple(parse_cards(f"{s}4 {s}4")))
    events = game.apply(ChooseForced(nxt, pick))
    assert isinstance(events[0], ForcedChosen)
    assert events[1].cards == tuple(parse_cards(f"{s}4 {s}4"))
    dealer_side = game.teams[leader] == game.dealer_team
    assert game.penalty == (10 if dealer_side else -10)


def test_listed_leads_are_single_structures_or_whole_suits(v80):
    """Leads offered: every single, tuple and tractor; the rest are whole-suit throws."""
    game = to_play_phase(V80, 12)
    act = random_act(game, "leads")
    checked = 0
    while not game.over and checked < 60:
        seat = game.to_act
        legal = game.legal_actions(seat)
        if legal.kind == "lead":
            checked += 1
            h = game.hands[seat]
            singles = {a.cards for a in legal if len(a.cards) == 1}
            assert singles == {(k,) for k in range(NUM_KINDS) if h[k]}
            for a in legal:
                comps = game.ctx.decompose(a.cards)
                if len(comps) > 1:
                    eff = game.ctx.effective_suit
                    suit = eff(a.cards[0])
                    assert sorted(a.cards) == sorted(
                        k for k in range(NUM_KINDS) if eff(k) == suit for _ in range(h[k]))
                assert game.can(a)
        game.apply(act(game.view(seat), legal))


@pytest.mark.parametrize("name", ["two-deck-80", "three-deck-titanic", "four-deck"])
def test_listed_follows_equal_the_core(name):
    """The engine's exact shortcuts (semantics §4 step 2) list what the core lists."""
    game = to_play_phase(name, 21)
    act = random_act(game, "follows")
    checked = 0
    while not game.over and checked < 150:
        seat = game.to_act
        legal = game.legal_actions(seat)
        if legal.kind == "follow" and len(legal) <= 3000:
            core = game.ctx.legal_follows(game.trick[0][1], Hand.from_counts(game.hands[seat]),
                                          limit=5000)
            if core.total <= 5000:
                mine = {a.cards for a in legal}
                assert len(mine) == len(legal) == core.total
                assert mine == {tuple(sorted(h.cards(), reverse=True)) for h in core.plays}
                checked += 1
        game.apply(act(game.view(seat), legal))
    assert checked > 20


def test_not_your_turn_lists_nothing(v80):
    game = to_play_phase(V80, 4)
    other = (game.to_act + 1) % 4
    assert game.legal_actions(other).kind == "none" and len(game.legal_actions(other)) == 0


# ---------------------------------------------------------------------- replay & JSON


def _played_game(seed, deals=2):
    v = load_variant(V80)
    game = Game(v, seed, max_deals=deals)
    bots = [make_bot("heuristic" if s % 2 else "random", v, f"{seed}/{s}") for s in range(4)]
    act = lambda view, legal: bots[view.seat].act(view, legal)  # noqa: E731
    advance(game, act, lambda g: False)
    return game


def test_replay_reproduces_the_state_exactly():
    game = _played_game(31)
    again = Game.replay(V80, 31, game.actions, max_deals=2)
    assert again.events == game.events
    assert again.snapshot() == game.snapshot()
    other = Game(V80, 32, max_deals=2)
    assert other.events[:40] != game.events[:40], "another seed deals other cards"


def test_replay_of_a_wrong_action_raises():
    game = _played_game(33, deals=1)
    actions = list(game.actions)
    actions[5], actions[6] = actions[6], actions[5]
    with pytest.raises(IllegalAction):
        Game.replay(V80, 33, actions, max_deals=1)


@pytest.mark.parametrize("stop", ["deal", "bury", "play", "over"])
def test_json_round_trip(stop):
    game = Game(V80, 40, max_deals=1)
    act = random_act(game, "json")
    if stop == "play":
        advance(game, act, lambda g: g.phase == "play" and len(g.trick) == 2)
    else:
        advance(game, act, lambda g: g.phase == stop)
    text = json.dumps(game.to_dict(), ensure_ascii=False)
    back = Game.from_dict(json.loads(text))
    assert back.to_dict() == game.to_dict()
    assert back.events == game.events
    for e in game.events:
        assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e
    for a in game.actions:
        assert action_from_dict(json.loads(json.dumps(a.to_dict()))) == a


def test_edited_record_is_refused():
    game = _played_game(41, deals=1)
    data = game.to_dict()
    data["state"]["trick_points"] += 5
    with pytest.raises(ShengjiError, match="trick_points"):
        Game.from_dict(data)
    with pytest.raises(ShengjiError, match="malformed action"):
        action_from_dict({"type": "Fly", "seat": 0})


# ---------------------------------------------------------------------- privacy


def _other_seats_swapped(game, seat):
    """A copy whose other seats hold different cards (same counts): nothing public
    changes, so ``seat``'s view must not change either."""
    twin = Game.replay(game.variant, game.seed, game.actions, max_deals=game.max_deals)
    a, b = [s for s in range(game.players) if s != seat][:2]
    ka = next((k for k in range(NUM_KINDS) if twin.hands[a][k] and not twin.hands[b][k]), None)
    kb = next((k for k in range(NUM_KINDS) if twin.hands[b][k] and not twin.hands[a][k]), None)
    if ka is None or kb is None:
        return None
    twin.hands[a][ka] -= 1
    twin.hands[a][kb] += 1
    twin.hands[b][kb] -= 1
    twin.hands[b][ka] += 1
    return twin


def test_views_never_show_other_hands_or_the_buried_kitty():
    game = Game(V80, 50, max_deals=1)
    act = random_act(game, "privacy")
    checks = 0
    step = 0
    while not game.over:
        seat = game.to_act
        if step % 7 == 0:
            for viewer in range(game.players):
                view = game.view(viewer)
                assert view.hand == tuple(game.hands[viewer])
                if not (game.phase == "bury" and viewer == game.dealer):
                    assert view.kitty is None
                twin = _other_seats_swapped(game, viewer)
                if twin is not None and game.phase != "bury":
                    assert twin.view(viewer) == view
                    checks += 1
                for e in game.events_for(viewer):
                    if e.private_to is not None and e.private_to != viewer:
                        assert getattr(e, "card", None) is None
                        assert getattr(e, "cards", None) is None
        game.apply(act(game.view(seat), game.legal_actions(seat)))
        step += 1
    assert checks > 50
    dealer = game.dealer
    buried = [e for e in game.events if type(e).__name__ == "Buried"][0]
    public = game.events_for((dealer + 1) % 4)
    assert all(e.cards is None for e in public if type(e).__name__ == "Buried")
    assert buried.cards is not None


def test_view_to_dict_is_json():
    game = to_play_phase(V80, 52)
    d = game.view(game.to_act).to_dict()
    assert json.loads(json.dumps(d, ensure_ascii=False))["hand"]
    assert "hands" not in d


def test_suit_parse_sanity():
    # the scenario helpers rely on suit letters being S H C D = 0..3
    assert [parse_suit(c) for c in "SHCD"] == [0, 1, 2, 3]


def test_record_of_a_variant_file_replays(tmp_path):
    """A house-rule file outside the registry is named by its path in the record."""
    src = tmp_path / "mine.yaml"
    src.write_text("name: my-house\nextends: two-deck-80\npenalties:\n  failed_throw: 5\n",
                   encoding="utf-8")
    game = Game(load_variant(src), 3, max_deals=1)
    advance(game, random_act(game, "file"), lambda g: g.phase == "play")
    data = json.loads(json.dumps(game.to_dict()))
    assert data["variant"] == str(src)
    assert Game.from_dict(data).snapshot() == game.snapshot()


def test_a_plugin_naming_a_wrong_seat_is_a_variant_error():
    from shengji.errors import VariantError
    from shengji.hookspecs import hookimpl

    class BadDealer:
        @hookimpl
        def shengji_next_dealer(self, variant, dealer, outcome, players):
            return players + 3

    v = load_variant("two-deck-80", plugins=[BadDealer()])
    game = Game(v, 1, max_deals=2)
    with pytest.raises(VariantError, match=r"shengji_next_dealer returned (seat )?7"):
        advance(game, random_act(game, "bad"), lambda g: False)
