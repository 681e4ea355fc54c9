"""Advancement in the engine (issue 10): must-defend levels, the no-trump level above A,
the jack rule. The rules are rule cases in tests/cases/house/ (defend-points,
no-trump-rank, jack-rule); these tests hold whole matches to them."""

from __future__ import annotations

from engine_helpers import run_checked

from shengji.bots import make_bot
from shengji.engine import DealScored, Game, TrumpSet
from shengji.variants import load_variant

#: the dealers always hold and rise one level (a table for driving levels up)
HOLD = {"step": 40, "table": [{"below": 100000, "next": "dealers", "rise": 1}]}


def _bots(v, tag):
    return [make_bot(["random", "heuristic"][s % 2], v, f"{tag}/{s}") for s in range(v.players)]


def test_a_deal_at_the_no_trump_level():
    """shengji.io MaxRank::NoTrump: A rises to NT; an NT deal has no declarations, no
    trump and no level cards; defending it wins the match."""
    v = load_variant({"extends": "two-deck-80", "start_level": "A", "scoring": HOLD,
                      "match_end": {"last_level": "NT"}})
    game = Game(v, 1)
    run_checked(game, _bots(v, "nt"))
    scored = [e for e in game.events if isinstance(e, DealScored)]
    sets = [e for e in game.events if isinstance(e, TrumpSet)]
    assert [e.level for e in sets] == [12, 13]
    assert sets[1].trump is None and sets[1].declarer is None
    deal_two = game.events.index(sets[0]) + 1
    assert not any(type(e).__name__ in ("Declared", "Passed") for e in game.events[deal_two:])
    assert len(scored) == 2 and game.winner == game.teams[scored[0].dealer]
    assert max(game.levels) == 14  # past NT


def test_without_nt_a_is_the_last_level():
    v = load_variant({"extends": "two-deck-80", "start_level": "A", "scoring": HOLD})
    game = Game(v, 1)
    run_checked(game, _bots(v, "a"))
    assert game.deals_played == 1 and game.winner is not None


def test_must_defend_levels_hold_a_match_to_them():
    """shengji.io DefendPoints: no side's level ever jumps over 5, 10, K or A, and a
    side leaves one only by holding the deal at it."""
    v = load_variant({"extends": "two-deck-80", "match_end": {"as_dealer": True},
                      "advancement": {"must_defend": ["5", "10", "K"]}})
    stops = {3, 8, 11, 12}
    seen = 0
    for seed in range(6):
        game = Game(v, seed, max_deals=12)
        run_checked(game, _bots(v, f"d{seed}"))
        before = [v.start_level()] * v.players
        for e in game.events:
            if isinstance(e, DealScored):
                for s in range(v.players):
                    lo, hi = before[s], e.levels[s]
                    for stop in stops:
                        if lo <= stop < hi:  # passed a must-defend level this deal
                            assert lo == stop and s in e.side and e.next_side == "dealers"
                            seen += 1
                before = list(e.levels)
    assert seen > 0


def test_the_jack_rule_in_a_match():
    """shengji.io SingleJack: playing J, the attackers win the last trick with one jack:
    the dealers' side is back at the start level (2; here 10), then this deal's rise."""
    v = load_variant({"extends": "two-deck-80", "start_level": "10", "scoring": HOLD,
                      "advancement": {"jack_rule": True}})
    for seed in range(300):
        game = Game(v, seed, max_deals=2)
        run_checked(game, _bots(v, f"j{seed}"))
        scored = [e for e in game.events if isinstance(e, DealScored)][-1]
        last = [e for e in game.events if type(e).__name__ == "Played"][-game.players:]
        won = [e for e in game.events if type(e).__name__ == "TrickWon"][-1]
        play = next(p.cards for p in last if p.seat == won.seat)
        assert game.level == 9  # the second deal was played at J
        if won.seat not in scored.side and len(play) == 1 and play[0] % 13 == 9:
            assert all(scored.levels[s] == 8 + 1 for s in scored.side)  # 10, then +1
            return
        assert all(scored.levels[s] == 10 for s in scored.side)  # J + 1 = Q
    raise AssertionError("no deal of 300 ended with the attackers' single jack")


def test_a_huge_rise_is_worked_out_not_stepped():
    """shengji_advance with no must-defend level on the way: the whole rise, at once
    (it used to step 10**30 times: tests/test_api_types.py's hostile values hung)."""
    from shengji.variants import load_variant

    v = load_variant("two-deck-80")
    assert v.advance(3, 10**30, True) == 3 + 10**30


def test_totals_below_zero_are_scored_under_the_knob():
    """scoring.below_zero (shengji.io scoring.rs): a deal whose failed-throw penalties
    take the attackers below zero is scored at its true total, one more level per step
    below; without the knob the same deal is scored at 0."""
    base = {"extends": "two-deck-80", "play": {"throws": True},
            "penalties": {"failed_throw": 1000}}
    seen = 0
    for seed in range(40):
        totals = {}
        for knob in (False, True):
            v = load_variant({**base, "scoring": {"below_zero": knob}})
            game = Game(v, seed, max_deals=1)
            run_checked(game, [make_bot("random", v, f"bz{seed}/{s}") for s in range(4)])
            (ev,) = [e for e in game.events if isinstance(e, DealScored)]
            totals[knob] = ev
        raw = totals[True].trick_points + totals[True].kitty_bonus + totals[True].penalty
        assert totals[True].attacker_points == raw
        assert totals[False].attacker_points == max(0, raw)
        if raw < 0:
            seen += 1
            assert totals[False].rise == 3 and totals[False].next_side == "dealers"
            assert totals[True].next_side == "dealers"
            assert totals[True].rise == 3 + (0 - raw) // 40
        if seen >= 2:
            break
    assert seen, "no deal went below zero: raise the penalty or the seeds"
