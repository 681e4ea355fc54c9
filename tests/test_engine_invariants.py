"""Random (and mixed random/heuristic) deals of every variant, built-in and house, with
the issue's invariants checked after every action (see engine_helpers).

Every built-in variant plays 50 random deals in the default run and 2,000 more in the
long run (``pytest --long``; SHENGJI_ENGINE_DEALS sets that number); the mixed-bot and
house-rule runs are smaller because the heuristic bot is slower, and scaled (tests/tiers.py:
a few deals by default, SHENGJI_ENGINE_MIXED_DEALS under --long, default 250).
"""

from __future__ import annotations

import os

import pytest
from engine_helpers import run_checked
from tiers import depth

from shengji.bots import make_bot
from shengji.engine import Game
from shengji.variants import list_variants, load_variant

QUICK_DEALS = 50
RANDOM_DEALS = int(os.environ.get("SHENGJI_ENGINE_DEALS", "2000"))
DEALS = depth(60, 250, env="SHENGJI_ENGINE_MIXED_DEALS")
BUILTIN = list_variants()
HOUSE = [n for n in list_variants(include_house=True) if n not in BUILTIN]


def _play(name: str, deals: int, lineup, prefix: str = "inv") -> int:
    v = load_variant(name)
    played = 0
    seed = 0
    while played < deals:
        # consecutive deals of one match (levels, dealers and trumps change between them)
        n = min(10, deals - played)
        game = Game(v, f"{prefix}/{seed}", max_deals=n)
        bots = [make_bot(lineup[s % len(lineup)], v, f"{prefix}/{seed}/{s}")
                for s in range(v.players)]
        run_checked(game, bots)
        assert game.deals_played == n or game.winner is not None, "every deal ends"
        played += game.deals_played
        seed += 1
    return played


@pytest.mark.parametrize("name", BUILTIN)
def test_random_deals_keep_invariants(name):
    """Every built-in variant: random deals, invariants after every action."""
    assert _play(name, QUICK_DEALS, ["random"]) == QUICK_DEALS


@pytest.mark.long
@pytest.mark.parametrize("name", BUILTIN)
def test_many_random_deals_keep_invariants(name):
    """The same over thousands of deals per variant (issue 4: a few thousand)."""
    assert _play(name, RANDOM_DEALS, ["random"], "inv-long") == RANDOM_DEALS


@pytest.mark.scaled
@pytest.mark.parametrize("name", BUILTIN)
def test_mixed_bot_deals_keep_invariants(name):
    """The heuristic bot only ever plays legal actions too."""
    _play(name, max(DEALS // 6, 10), ["heuristic", "random"])


@pytest.mark.scaled
@pytest.mark.parametrize("name", HOUSE)
def test_house_variant_deals_keep_invariants(name):
    """House rules (seed 002's chooser and penalty, seed 003's scoring, ...)."""
    _play(name, max(DEALS // 3, 10), ["random", "heuristic"])


def test_match_to_the_end():
    """A whole match ends with a winner (seed 000: the first side to pass A)."""
    v = load_variant("two-deck-80")
    game = Game(v, "whole-match")
    bots = [make_bot("heuristic" if s % 2 else "random", v, s) for s in range(v.players)]
    run_checked(game, bots)
    assert game.winner is not None
    assert max(game.levels) > 12
