"""Seats, deck compositions and levels as data (issue 11): tables of 2..12 seats,
packs with any number of jokers or short packs, a level per seat.

Sources: pagat "Zhao Pengyou" (packs, jokers and cards each per player count);
shengji.io mechanics/src/deck.rs (short packs: a lowest rank kept, either joker left out).
"""

from __future__ import annotations

import pytest
from engine_helpers import run_checked

from shengji.bots import make_bot
from shengji.cards import BIG_JOKER, LITTLE_JOKER, parse_card
from shengji.deck import Composition, deal_error
from shengji.engine import DealScored, DealStarted, Game
from shengji.errors import CardError, VariantError
from shengji.rules import PlayRules
from shengji.variants import load_variant

#: pagat's table: players → (packs, red jokers, black jokers, cards each); kitty = the rest
PAGAT = {5: (2, 2, 2, 20), 6: (2, 2, 2, 17), 7: (2, 0, 0, 14), 8: (3, 2, 0, 19),
         9: (3, 3, 0, 17), 10: (3, 0, 0, 15), 11: (3, 2, 2, 14), 12: (4, 2, 0, 17)}


def fixed(players: int, teams, deck: dict, hand: int, kitty: int, **extra) -> dict:
    return {"extends": "two-deck-80", "name": f"fixed-{players}", "players": players,
            "teams": list(teams), "deck": deck, "hand_size": hand, "kitty_size": kitty,
            **extra}


# ---------------------------------------------------------------------- compositions

def test_full_packs_are_what_decks_means():
    c = Composition.from_settings({"decks": 2})
    assert c == Composition.full(2) and c.is_full
    assert c.total == 108 and c.points == 200 and c.max_copies == 2
    assert c.counts == (2,) * 54
    assert load_variant("two-deck-80").composition == c


@pytest.mark.parametrize("players", sorted(PAGAT))
def test_pagat_table_adds_up(players):
    """pagat Zhao Pengyou: every row deals out with a kitty of six (or eight) cards."""
    packs, red, black, each = PAGAT[players]
    c = Composition(packs, red, black)
    kitty = c.total - players * each
    assert kitty in (6, 8)
    assert deal_error(players, each, kitty, c) is None
    assert c.counts[BIG_JOKER] == red and c.counts[LITTLE_JOKER] == black
    assert c.points == 100 * packs


def test_short_packs_keep_the_lowest_rank_up():
    """shengji.io deck.rs: a pack from 5 up has 42 cards and still 100 points."""
    c = Composition.from_settings({"deck": {"packs": 1, "lowest_rank": "5"}})
    assert c.total == 42 and c.points == 100
    assert c.counts[parse_card("S4")] == 0 and c.counts[parse_card("S5")] == 1
    jacks = Composition(1, 0, 0, lowest_rank=9)
    assert jacks.total == 16 and jacks.points == 40  # J Q K A: the kings only
    assert "from 5 up" in c.describe()


def test_a_lowest_rank_per_pack():
    """shengji.io deck.rs: each special deck has its own ``min``; the deck is the packs'
    cards together, so a rank has as many copies as the packs that hold it."""
    c = Composition.from_settings({"deck": {"packs": 3, "lowest_rank": ["2", "5", "J"]}})
    assert c.pack_lows == (0, 3, 9) and c.total == 54 + 42 + 18
    assert [c.counts[parse_card(x)] for x in ("S2", "S4", "S5", "S10", "SJ", "SA", "BJ")] == \
        [1, 1, 2, 2, 3, 3, 3]
    assert c.points == 100 + 100 + 40 and c.max_copies == 3
    assert "from 2/5/J up" in c.describe()
    assert c.to_dict()["lowest_rank"] == ["2", "5", "J"]
    assert Composition.from_settings({"deck": c.to_dict()}) == c
    # the packs may be named by the list alone; equal ranks are the one-rank form
    same = Composition.from_settings({"deck": {"lowest_rank": ["5", "5"]}})
    assert same == Composition(2, 2, 2, 3)
    assert Composition(2, 2, 2, (0, 0)).is_full


@pytest.mark.parametrize("low, message", [
    (["2"], "1 rank.s. for 2 pack"),
    (["2", "5", "7"], "3 rank.s. for 2 pack"),
    ([], "empty"),
    (["2", "Z"], "Z"),
    (["2", None], "null"),
    (["2", "NT"], "NT"),
])
def test_bad_pack_ranks_name_the_key(low, message):
    with pytest.raises(VariantError, match=message) as e:
        load_variant(fixed(4, [0, 1] * 2, {"packs": 2, "lowest_rank": low}, 22, 8))
    assert "lowest_rank" in str(e.value) and "\n" not in str(e.value)


def test_mixed_packs_reach_the_core_the_bots_and_the_page():
    """Everything that counts the deck reads the per-kind copies: the core's limits,
    the bots' unseen cards, the page's points total, the deal itself."""
    from shengji.bots.knowledge import unseen_counts
    from shengji.protocol.messages import points_total

    v = load_variant(fixed(4, [0, 1] * 2, {"packs": 2, "lowest_rank": ["2", "5"]}, 22, 8))
    assert v.play_rules.copies == v.composition.counts and v.play_rules.decks == 2
    assert points_total(v) == 200
    game = Game(v, "mixed", max_deals=1)
    assert sorted(game._unshuffled) == sorted(v.composition.cards())
    view = game.view(0)
    unseen = unseen_counts(view, v.composition.counts)
    assert unseen[parse_card("S3")] == 1 - view.hand[parse_card("S3")]
    with pytest.raises(CardError, match="2 copies of S3"):
        v.composition.check([parse_card("S3")] * 2)


def test_composition_limits_card_groups():
    c = Composition(3, 2, 0)  # pagat's 8 players
    assert c.check([BIG_JOKER, BIG_JOKER]) is not None
    with pytest.raises(CardError, match="of LJ but the deck .* holds 0"):
        c.check([LITTLE_JOKER])
    with pytest.raises(CardError, match="3 copies of BJ"):
        c.check([BIG_JOKER] * 3)
    v = load_variant(fixed(8, [0, 1] * 4, {"packs": 3, "big_jokers": 2, "little_jokers": 0},
                           19, 6))
    with pytest.raises(CardError, match="LJ"):
        v.bid(0, "LJ LJ", "2")


@pytest.mark.parametrize("deck, message", [
    ({"packs": 5}, "packs"),
    ({"packs": 2, "big_jokers": 3}, "big_jokers: 3 with 2 pack"),
    ({"packs": 2, "little_jokers": -1}, "little_jokers"),
    ({"packs": 2, "jokers": 1}, "jokers"),
])
def test_bad_compositions_are_one_line_errors(deck, message):
    with pytest.raises(VariantError, match=message) as e:
        load_variant(fixed(4, [0, 1, 0, 1], deck, 25, 8))
    assert "\n" not in str(e.value)


def test_a_deal_that_does_not_add_up_names_the_numbers():
    with pytest.raises(VariantError) as e:
        load_variant(fixed(6, [0, 1] * 3, {"packs": 3, "big_jokers": 2, "little_jokers": 0},
                           26, 6))
    msg = str(e.value)
    assert "6 players × 26 cards + 6 kitty = 162 cards" in msg
    assert "3 packs + 2 big jokers" in msg and "has 158" in msg and "\n" not in msg


def test_decks_and_deck_must_agree():
    with pytest.raises(VariantError, match="decks: 2 but deck: packs: 3"):
        load_variant({**fixed(6, [0, 1] * 3, {"packs": 3}, 26, 6), "decks": 2})


def test_play_rules_carry_the_per_kind_copies():
    assert PlayRules(decks=2).copies == (2,) * 54
    v = load_variant(fixed(8, [0, 1] * 4, {"packs": 3, "big_jokers": 2, "little_jokers": 0},
                           19, 6))
    assert v.play_rules.decks == 3
    assert v.play_rules.copies == v.composition.counts
    assert v.play_rules.copies[LITTLE_JOKER] == 0


# ---------------------------------------------------------------------- seats

def test_players_beyond_twelve_are_refused():
    with pytest.raises(VariantError, match="players"):
        load_variant(fixed(13, [0, 1] * 6 + [0], {"packs": 4}, 16, 8))


def test_odd_tables_need_their_teams():
    with pytest.raises(VariantError, match="5 players cannot sit in two alternating teams"):
        load_variant({"decks": 2, "players": 5, "hand_size": 20, "kitty_size": 8})


def test_even_tables_default_to_alternating_teams():
    v = load_variant({"decks": 3, "players": 6, "hand_size": 26, "kitty_size": 6})
    assert v.teams == (0, 1, 0, 1, 0, 1)


def test_by_players_table_and_a_player_count_override():
    table = {"by_players": {p: {"deck": {"packs": packs, "big_jokers": red,
                                         "little_jokers": black},
                                "hand_size": each,
                                "kitty_size": 52 * packs + red + black - p * each,
                                "teams": list(range(p))}
                            for p, (packs, red, black, each) in PAGAT.items()},
             "players": 5, "name": "table"}
    v = load_variant(table)
    assert (v.players, v.hand_size, v.kitty_size, v.decks) == (5, 20, 8, 2)
    v9 = load_variant(table, players=9)
    assert (v9.players, v9.hand_size, v9.kitty_size) == (9, 17, 6)
    assert v9.composition == Composition(3, 3, 0)
    assert load_variant(v, players=12).composition == Composition(4, 2, 0)
    with pytest.raises(VariantError, match="players: 4: this variant seats 5, 6, 7"):
        load_variant(table, players=4)
    # a key the file sets itself wins over the table
    own = load_variant({**table, "players": 6, "deck": {"packs": 3, "big_jokers": 0,
                                                        "little_jokers": 0},
                        "hand_size": 25})
    assert (own.hand_size, own.kitty_size, own.decks) == (25, 6, 3)


@pytest.mark.parametrize("players, teams, deck, hand, kitty", [
    (2, [0, 1], {"packs": 1}, 24, 6),
    (3, [0, 1, 2], {"packs": 1}, 16, 6),
    (6, [0, 1] * 3, {"packs": 3}, 26, 6),
    (8, [0, 1] * 4, {"packs": 3, "big_jokers": 2, "little_jokers": 0}, 19, 6),
    (12, [0, 1] * 6, {"packs": 4, "big_jokers": 2, "little_jokers": 0}, 17, 6),
    (6, [0, 1] * 3, {"packs": 2, "lowest_rank": "5", "big_jokers": 2, "little_jokers": 0},
     13, 4),
    (4, [0, 1] * 2, {"packs": 3, "lowest_rank": ["2", "5", "J"]}, 27, 6),
])
def test_tables_of_any_size_play_whole_deals(players, teams, deck, hand, kitty):
    """Random and heuristic bots, every action checked (cards conserved with the
    composition, every play legal by the core, every deal ends)."""
    v = load_variant(fixed(players, teams, deck, hand, kitty))
    game = Game(v, f"seats/{players}", max_deals=2)
    bots = [make_bot("heuristic" if s % 3 == 1 else "random", v, f"s/{s}")
            for s in range(players)]
    run_checked(game, bots)
    assert game.deals_played == 2 or game.winner is not None
    started = [e for e in game.events if isinstance(e, DealStarted)]
    assert all(len(e.levels) == players for e in started)


def test_levels_are_per_seat_and_a_team_rises_together():
    v = load_variant(fixed(6, [0, 1] * 3, {"packs": 3}, 26, 6))
    game = Game(v, "levels", max_deals=6)
    run_checked(game, [make_bot("random", v, s) for s in range(6)])
    scored = [e for e in game.events if isinstance(e, DealScored)]
    assert scored
    for e in scored:
        assert len(e.levels) == 6
        for s in range(6):
            assert e.levels[s] == e.levels[s % 2]  # teammates share their level
        assert set(e.side) == {s for s in range(6) if s % 2 == e.dealer % 2}
        assert e.side[0] == e.dealer
        risen = set(e.rising)
        assert risen == set(e.side) if e.next_side == "dealers" else risen.isdisjoint(e.side)
    starts = [e for e in game.events if isinstance(e, DealStarted) and e.dealer is not None]
    for e in starts:  # the dealer's level is the deal's level
        assert e.level == min(e.levels[e.dealer], 12)
    assert game.view(3).levels == tuple(game.levels)


def test_levels_the_short_pack_lacks_are_played_without_level_cards():
    """A short pack whose lowest rank is above the level (two packs from 5 up, levels 2,
    3, 4): shengji.io plays such a level (deck.rs ``includes_number``; player.rs
    ``advance`` never skips a rank): the deal has no level cards, only jokers declare, and
    seats rise through the missing ranks level by level. tests/cases/house/
    short-pack-absent-level.cases.yaml holds the rule cases."""
    from shengji.cards import rank_of
    from shengji.engine import CardDealt, Declared

    v = load_variant(fixed(4, [0, 1] * 2, {"packs": 2, "lowest_rank": "5"}, 20, 4))
    absent_deals = declared = 0
    for seed in range(4):
        game = Game(v, f"absent/{seed}", max_deals=6)
        run_checked(game, [make_bot("random", v, f"a/{seed}/{s}") for s in range(4)])
        level = None
        for e in game.events:
            if isinstance(e, DealStarted):
                level = e.level
                absent_deals += level < 3
                starts = e.levels
            elif isinstance(e, Declared) and level is not None and level < 3:
                declared += 1
                assert all(c in (BIG_JOKER, LITTLE_JOKER) for c in e.cards), e
            elif isinstance(e, CardDealt):
                assert e.card >= 52 or rank_of(e.card) >= 3  # no 2, 3 or 4 is dealt
            elif isinstance(e, DealScored):
                for s in range(4):  # every rank counts: 2 -> 3 -> 4 -> 5, none skipped
                    assert e.levels[s] - starts[s] == (e.rise if s in e.rising else 0)
    assert absent_deals >= 4 and declared >= 1
