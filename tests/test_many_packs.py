"""Five to ten packs end to end (issue 28 item 7, issue 35's rule 11, docs/semantics.md
§11): deals of the six-pack house variant, of finding friends at ten seats on five packs
and of a ten-pack table keep the engine's invariants; what cannot follow yet refuses
clearly (the RL environments' friend calls); the limits are ten packs, not eleven."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import run_checked

from shengji.bots import make_bot
from shengji.cards import MAX_DECKS
from shengji.core import Context
from shengji.engine import Game
from shengji.errors import HandError, RulesError, VariantError
from shengji.rules import PlayRules
from shengji.variants import load_variant

SIX = Path(__file__).parent / "cases" / "house" / "six-packs.yaml"
TEN_FRIENDS = """\
extends: finding-friends
players: 10
by_players:
  10: {deck: {packs: 5, big_jokers: 5, little_jokers: 5}, hand_size: 26, kitty_size: 10}
"""


def _play(v, seed, deals=2):
    game = Game(v, seed, max_deals=deals)
    bots = [make_bot("heuristic" if s % 2 else "random", v, f"{seed}/{s}")
            for s in range(v.players)]
    run_checked(game, bots)
    return game


def test_six_packs_deals_keep_invariants():
    v = load_variant(SIX)
    assert v.decks == 6 and v.play_rules.max_tuple == 6
    assert max(v.composition.counts) == 6
    game = _play(v, "six-packs")
    assert game.deals_played == 2


def test_finding_friends_ten_seats_five_packs(tmp_path):
    path = tmp_path / "ten.yaml"
    path.write_text(TEN_FRIENDS)
    v = load_variant(path)
    assert (v.players, v.decks, max(v.composition.counts)) == (10, 5, 5)
    game = _play(v, "ten-friends", deals=1)
    assert game.deals_played == 1


def test_rl_env_refuses_friend_calls_beyond_four_packs(tmp_path):
    """The RL action space names the 1st..4th copy of a card only: finding friends at
    five packs is refused up front, naming deck.packs, not mid-game."""
    pytest.importorskip("pettingzoo")
    from shengji.env.aec import raw_env

    path = tmp_path / "ten.yaml"
    path.write_text(TEN_FRIENDS)
    with pytest.raises(VariantError, match=r"deck\.packs: 5 packs .*1st\.\.4th copy"):
        raw_env(str(path))
    raw_env(SIX)  # fixed teams: no friend calls, six packs are fine


def test_limits_are_ten_packs():
    """tractor_private (Ran's table) plays up to ten packs (Game.java setNumDecks refuses
    more): the core takes ten copies of a card, not eleven."""
    assert MAX_DECKS == 10
    PlayRules(decks=10, max_tuple=10, tractor_min_width=10)
    with pytest.raises(RulesError, match="decks"):
        PlayRules(decks=11)
    with pytest.raises(RulesError, match="tractor_min_width"):
        PlayRules(decks=10, tractor_min_width=11)
    with pytest.raises(VariantError, match="decks"):
        load_variant({"extends": "two-deck-80", "decks": 11, "hand_size": 148, "kitty_size": 2})
    ctx = Context(PlayRules(decks=10), 0, 0)
    assert ctx.decompose("HA " * 10)[0].width == 10
    with pytest.raises(HandError, match="11 copies of HA"):
        ctx.decompose("HA " * 11)


def test_ten_packs_deals_keep_invariants():
    """A four-seat table on ten packs (135 cards each): decuples, tractors of them, the
    follows and throws of such hands, two deals of random and heuristic bots."""
    v = load_variant({"extends": "two-deck-80", "decks": 10, "hand_size": 133,
                      "kitty_size": 8})
    assert v.decks == 10 and v.play_rules.max_tuple == 10
    game = _play(v, "ten-packs", deals=1)
    assert game.deals_played == 1


@pytest.mark.parametrize("seats, packs, kitty", [(10, 5, 10), (11, 5, 6), (12, 6, 12)])
def test_shengji_io_friends_above_nine_seats(seats, packs, kitty):
    """shengji.io's default: players / 2 full packs; the kitty is what is left over, raised
    by the player count until it holds at least 5 (core/src/settings.rs,
    game_state/initialize_phase.rs)."""
    v = load_variant("house/finding-friends-shengji-io", players=seats)
    assert (v.decks, v.kitty_size) == (packs, kitty)
    assert v.players * v.hand_size + v.kitty_size == packs * 54
    assert _play(v, f"io-{seats}", deals=1).deals_played == 1
