"""House rules of real tables (issue 35) as the engine plays them: each new key in a Game,
its decision in the legal actions and the protocol, and its source.

Sources: StarsThu2016/tractor_private ("Ran's house rules", Game.java), ejfn/Tractor
(docs/GAME_RULES.md, src/types/trumpDeclaration.ts), ChannonTian/80fen docs/RULES.md and
tonyyunyang/80-fen-shengji docs/rules.md. The rule cases of each key are in
tests/cases/house/ (one file per key, failing on the variant it extends)."""

from __future__ import annotations

import pytest

from shengji.builtin_rules import drawn_seat
from shengji.cards import rank_of
from shengji.engine import Bury, Game, Pass, RequestRedeal
from shengji.engine.errors import IllegalAction
from shengji.engine.events import DealStarted, Declared, RedealAsked, TrumpSet
from shengji.errors import VariantError
from shengji.protocol.messages import decode_action, decode_legal, encode_legal
from shengji.variants import load_variant


def _house(tmp_path, text: str, name: str = "h"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return load_variant(path)


def _pass_until(game: Game, phases: tuple[str, ...], declare: int = 0,
                once: bool = False) -> None:
    """Pass (or the first listed action; with ``declare`` the declaration offered at that
    index, -1 the strongest; with ``once`` only the first time one is offered) until the
    game reaches one of ``phases``."""
    for _ in range(5000):
        if game.phase in phases:
            return
        legal = game.legal_actions()
        pick = declare if declare and legal.kind == "declare" and len(legal) > 1 else 0
        if pick and once:
            declare = 0
        if legal.kind == "bury":
            game.apply(Bury(legal.seat, legal.burial(_cards(game.hands[legal.seat]))))
        else:
            game.apply(legal[pick])
    raise AssertionError(f"never reached {phases}")


def _cards(counts) -> list[int]:
    return [k for k, n in enumerate(counts) for _ in range(n)]


# --- declare.first_dealer: random ------------------------------------------------------


def test_first_dealer_random_is_drawn_before_the_first_card(tmp_path):
    # tonyyunyang/80-fen-shengji docs/rules.md: a seeded cut chooses the first dealer
    # before dealing; declarations choose trump without changing that dealer
    v = _house(tmp_path, "extends: two-deck-80\ndeclare: {first_dealer: random}\n")
    for seed in range(4):
        g = Game(v, seed)
        started = next(e for e in g.events if isinstance(e, DealStarted))
        assert started.dealer == drawn_seat(f"{seed}:0:0", 4)
        _pass_until(g, ("bury",))
        assert g.dealer == started.dealer
    base = Game("two-deck-80", 0)
    assert next(e for e in base.events if isinstance(e, DealStarted)).dealer is None


# --- start_level per team, declare.own_level -------------------------------------------


def test_start_levels_per_team_and_per_seat(tmp_path):
    per_team = _house(tmp_path, 'extends: two-deck-80\nstart_level: ["5", "2"]\n')
    assert Game(per_team, 1).levels == [3, 0, 3, 0]
    per_seat = _house(tmp_path, 'extends: two-deck-80\nstart_level: ["3", "4", "3", "4"]\n',
                      "s")
    assert per_seat.start_levels() == (1, 2, 1, 2) and per_seat.start_level() == 1
    with pytest.raises(VariantError, match="partners share their level"):
        _house(tmp_path, 'extends: two-deck-80\nstart_level: ["3", "4", "5", "4"]\n', "x")
    with pytest.raises(VariantError, match="one per team"):
        _house(tmp_path, 'extends: two-deck-80\nstart_level: ["3", "4", "5"]\n', "y")


def test_own_level_each_side_declares_its_level_cards(tmp_path):
    # ChannonTian/80fen docs/RULES.md §F 无庄局: each side declares at its own level, and
    # the deal is played at the level of the side that won the declaring
    v = _house(tmp_path, 'extends: two-deck-80\nstart_level: ["5", "2"]\n'
                         "declare: {own_level: true, first_dealer: last_declarer}\n")
    declared = 0
    for seed in range(6):
        g = Game(v, seed)
        _pass_until(g, ("bury",), declare=-1)
        levels = [3, 0, 3, 0]
        for e in g.events:
            if isinstance(e, Declared) and e.trump is not None:
                declared += 1
                assert rank_of(e.cards[0]) == levels[e.seat], (seed, e)
        trump_set = next(e for e in g.events if isinstance(e, TrumpSet))
        assert trump_set.level == levels[trump_set.dealer]
    assert declared


# --- advancement.ladder, match_end.cycle, the advance limit --------------------------------


def test_ladder_and_cycle_in_a_match(tmp_path):
    ladder = _house(tmp_path, 'extends: two-deck-80\nadvancement: {ladder: ["2", "5", "10", '
                              '"K", "A"]}\n')
    assert [ladder.advance(lv, 1, True) for lv in (0, 3, 8, 11, 12)] == [3, 8, 11, 12, 13]
    cycle = _house(tmp_path, "extends: two-deck-80\nmatch_end: {cycle: true}\n", "c")
    assert cycle.advance(12, 1, True) == 0 and cycle.advance(11, 3, False) == 1
    assert cycle.match_winner({0: 12, 1: 4}, cycle.score_deal(0), 0) is None
    g = Game(cycle, 3, max_deals=2)
    from shengji.bots import make_bot
    from shengji.engine import play

    play(g, [make_bot("random", cycle, seed=s) for s in range(4)])
    assert g.deals_played == 2 and all(0 <= lv <= 12 for lv in g.levels)


def test_the_advance_limit_is_stated_and_kept(tmp_path):
    # docs/variants.md, hookspecs.shengji_advance: level..level+rise, or up to one past the
    # last level; anything else is the plugin's error, named
    class Beyond:
        @staticmethod
        def shengji_advance(level, rise):
            return level + rise + 20

    v = load_variant("two-deck-80", plugins=[Beyond])
    with pytest.raises(VariantError, match=r"shengji_advance returned 25; expected a level "
                                           r"3\.\.13"):
        v.advance(3, 2, True)


# --- declare.weak_hand_redeal -----------------------------------------------------------


def _weak(tmp_path, dealer: str = "kept", limit: int = 2):
    # a threshold every hand meets: each of the dealer's opponents is asked
    return _house(tmp_path, "extends: two-deck-80\ndeclare: {first_dealer: random, "
                            f"weak_hand_redeal: {{points: 200, trumps: null, limit: {limit}, "
                            f"dealer: {dealer}}}}}\n", f"w{dealer}{limit}")


def test_a_weak_hand_is_asked_and_may_redeal(tmp_path):
    # ChannonTian/80fen docs/RULES.md §F: only the dealer's opponents are asked, in play
    # order from the dealer's next seat; the first to ask has the cards dealt again
    g = Game(_weak(tmp_path), 5)
    _pass_until(g, ("redeal",))
    dealer = g.dealer
    assert g.to_act == (dealer + 1) % 4
    legal = g.legal_actions()
    assert legal.kind == "redeal" and list(legal) == [Pass(g.to_act), RequestRedeal(g.to_act)]
    g.apply(Pass(g.to_act))
    assert g.phase == "redeal" and g.to_act == (dealer + 3) % 4  # the partner is skipped
    events = g.apply(RequestRedeal(g.to_act))
    assert isinstance(events[0], RedealAsked) and events[0].seat == (dealer + 3) % 4
    again = next(e for e in events if isinstance(e, DealStarted))
    assert again.attempt == 1 and again.dealer == dealer  # dealer: kept
    # the limit (2): after two redeals the deal is played
    _pass_until(g, ("redeal",))
    g.apply(RequestRedeal(g.to_act))
    _pass_until(g, ("redeal", "bury"))
    assert g.phase == "bury"
    # a record replays it
    assert Game.replay(g.variant, 5, g.actions).to_dict() == g.to_dict()


def test_a_contested_redeal_is_declared_for_again(tmp_path):
    # ChannonTian/80fen docs/RULES.md §F 完全造反: the new deal has no dealer yet
    g = Game(_weak(tmp_path, "contested"), 5)
    _pass_until(g, ("redeal",))
    events = g.apply(RequestRedeal(g.to_act))
    assert next(e for e in events if isinstance(e, DealStarted)).dealer is None


def test_no_redeal_request_without_the_rule():
    g = Game("two-deck-80", 5)
    _pass_until(g, ("bury",))
    assert "redeal" not in {type(e).__name__ for e in g.events}
    with pytest.raises(IllegalAction):
        g.apply(RequestRedeal(g.to_act))


def test_a_redeal_request_through_the_protocol(tmp_path):
    g = Game(_weak(tmp_path), 5)
    _pass_until(g, ("redeal",))
    legal = g.legal_actions()
    sent = encode_legal(legal)
    assert sent["kind"] == "redeal"
    assert [a["type"] for a in sent["actions"]] == ["Pass", "RequestRedeal"]
    assert list(decode_legal(sent, legal.seat)) == list(legal)
    assert decode_action({"type": "RequestRedeal"}, legal.seat) == RequestRedeal(legal.seat)


# --- bury (what the kitty may hold) --------------------------------------------------------


def test_a_burial_keeps_to_the_bury_settings(tmp_path):
    # ChannonTian/80fen docs/RULES.md §J (有些房规禁止扣分或禁止扣主)
    v = _house(tmp_path, "extends: two-deck-80\nbury: {points: false, trumps: false}\n")
    g = Game(v, 2)
    _pass_until(g, ("bury",))
    seat, legal = g.to_act, g.legal_actions()
    kinds, most = legal.limit
    hand = _cards(g.hands[seat])
    restricted = [c for c in hand if c in kinds]
    others = [c for c in hand if c not in kinds]
    assert most == max(0, legal.count - len(others))
    sent = encode_legal(legal)
    assert sent["restricted_max"] == most and decode_legal(sent, seat).limit == legal.limit
    if restricted and len(others) >= legal.count - 1:
        bad = tuple(restricted[:most + 1] + others[:legal.count - most - 1])
        with pytest.raises(IllegalAction) as e:
            g.apply(Bury(seat, bad))
        assert e.value.reason == "restricted_burial"
    g.apply(Bury(seat, legal.burial(restricted + others)))  # restricted first: passed over
    assert sum(g.buried[k] for k in kinds) <= most


# --- friends.calls_before_theft, bury.called_cards, friends.other_copy --------------------


def test_calls_before_the_theft_and_a_thief_keeps_the_called_cards(tmp_path):
    # StarsThu2016/tractor_private Game.java: DECLARE_FRIEND right after the starter's
    # kitty, then the Chao-Di-Pi rounds; a thief may not bury a called card
    v = _house(tmp_path, "extends: finding-friends\ndeclare: {kitty_theft: true}\n"
                         "friends: {calls_before_theft: true}\nbury: {called_cards: false}\n")
    for seed in range(100):  # (until a deal with a theft: most have none)
        g = Game(v, seed)
        _pass_until(g, ("bury",), declare=1, once=True)  # one weak declaration
        if not g.bids:
            continue
        dealer = g.dealer
        assert g.legal_actions().limit is None  # the dealer buries what it likes
        g.apply(Bury(dealer, g.legal_actions().burial(_cards(g.hands[dealer]))))
        assert g.phase == "call" and g.to_act == dealer
        call = g.legal_actions()
        g.apply(type(call[0])(dealer, tuple(c.calls[0] for c in call[:call.count])))
        assert g.phase in ("steal", "play")
        while g.phase == "steal":
            legal = g.legal_actions()
            g.apply(legal[-1])  # steal whenever one may
        if g.phase == "bury":  # a thief
            called = {card for _, card in g.calls}
            assert g.to_act != dealer and called <= set(g.legal_actions().limit[0])
            return
    pytest.fail("no seed with a theft")


def test_the_other_copy_is_offered_for_a_card_held_once(tmp_path):
    # StarsThu2016/tractor_private Game.java makeFindAFriendDeclaration: OTHER needs the card
    v = _house(tmp_path, "extends: finding-friends\nfriends: {other_copy: true}\n")
    g = Game(v, 4)
    _pass_until(g, ("call",))
    hand = g.hands[g.dealer]
    others = {card for a in g.legal_actions() for o, card in a.calls if o == 0}
    assert others == {k for k in range(54) if hand[k] == 1
                      and g.ctx.effective_suit(k) != 4}


# --- the phase of shengji_may_overturn -------------------------------------------------------


def test_a_theft_round_judges_with_the_theft_rules(tmp_path):
    # StarsThu2016/tractor_private Game.java: "You cannot strengthen your declare in the
    # Chao-Di-Pi phase" — the engine asks shengji_may_overturn with phase "steal"
    v = _house(tmp_path, "extends: house/kitty-theft\ndeclare: {takeback: false, "
                         "theft: {reinforce: false, self_overturn: false}}\n")
    seen = 0
    for seed in range(60):
        g = Game(v, seed, first_dealer=0)  # a dealer known: another seat may declare
        _pass_until(g, ("bury",), declare=1, once=True)
        if not g.bids:
            continue
        g.apply(Bury(g.dealer, g.legal_actions().burial(_cards(g.hands[g.dealer]))))
        bid = g.bids[-1]
        if g.phase != "steal" or bid.seat == g.dealer:
            continue
        assert all(o.cards[0] != bid.cards[0] for o in g._offers(bid.seat))
        if g.hands[bid.seat][bid.cards[0]]:
            seen += 1  # it holds another copy: while dealing it could reinforce
            assert g._make_bid(bid.seat, bid.cards * 2) is not None
    assert seen
