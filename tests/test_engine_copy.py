"""Game.copy / deepcopy / pickle (tree search and OpenSpiel clone states) and deal_order
(a chance player outside the engine chooses the cards)."""

import copy
import pickle
import random

import pytest

from shengji.bots import make_bot
from shengji.engine import Game
from shengji.errors import ShengjiError


def _step(g, bots):
    g.apply(bots[g.to_act].act(g.view(g.to_act), g.legal_actions()))


@pytest.mark.parametrize("variant", ["two-deck-80", "three-deck-titanic"])
def test_copies_are_independent_and_play_on_identically(variant):
    g = Game(variant, 11, max_deals=2)
    bots = [make_bot("random", g.variant, s) for s in range(g.players)]
    i = 0
    while not g.over:
        if i % 29 == 0:
            before = g.snapshot()
            for c in (g.copy(), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
                assert c.snapshot() == before and c.events == g.events
                mirror = [make_bot("random", g.variant, f"m{s}") for s in range(g.players)]
                for _ in range(7):
                    if c.over:
                        break
                    _step(c, mirror)
                assert g.snapshot() == before, "playing a copy changed the original"
        _step(g, bots)
        i += 1


def test_deal_order_chooses_the_cards():
    dealt = []

    def order(deal, attempt, deck):
        dealt.append((deal, attempt))
        return tuple(sorted(deck, reverse=True))  # big jokers first

    g = Game("two-deck-80", 0, max_deals=1, deal_order=order)
    assert dealt == [(0, 0)]
    seat0 = [e.card for e in g.events if type(e).__name__ == "CardDealt"][0]
    assert seat0 == 53


def test_deal_order_must_be_a_permutation():
    with pytest.raises(ShengjiError, match="not an ordering"):
        Game("two-deck-80", 0, deal_order=lambda d, a, deck: deck[:-1] + (0,))


def test_pickle_keeps_the_deal_order():
    g = Game("one-deck-40", 3, deal_order=_Reverse())
    rng = random.Random(0)
    while g.phase == "deal":
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    assert pickle.loads(pickle.dumps(g)).snapshot() == g.snapshot()


class _Reverse:
    def __call__(self, deal, attempt, deck):
        return tuple(reversed(deck))


def test_pickle_keeps_the_table_size():
    from shengji.variants import load_variant

    table = {"name": "pickle-seats", "players": 4,
             "by_players": {4: {"decks": 2, "hand_size": 25, "kitty_size": 8,
                                "teams": [0, 1] * 2},
                            6: {"deck": {"packs": 2, "big_jokers": 2, "little_jokers": 2},
                                "hand_size": 17, "kitty_size": 6, "teams": [0, 1] * 3}}}
    import os
    import tempfile

    import yaml

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.yaml")
        with open(path, "w") as f:
            yaml.safe_dump(table, f)
        g = Game(load_variant(path, players=6), 1, max_deals=1)
        while g.phase == "deal":
            g.apply(g.legal_actions()[0])
        back = pickle.loads(pickle.dumps(g))
        assert back.players == 6 and back.snapshot() == g.snapshot()
