"""The card-by-card action encoding (shengji.env.building): every mask leads to a legal
decision, every legal decision can be built, nothing else can (prefix-closed sets)."""

import itertools
import os
import random

import pytest

from shengji.cards import NUM_KINDS
from shengji.engine import Game, Play
from shengji.env.building import DONE, Burial, Decision, Filler, actions_for
from shengji.variants import list_variants

VARIANTS = ["two-deck-80", "one-deck-40", "three-deck-titanic", "four-deck", "constant-two",
            "finding-friends"]


def _long():
    return os.environ.get("SHENGJI_LONG") == "1"  # pytest --long (tests/conftest.py)


def built(dec, budget=20_000):
    """Every action the builder can submit from its current state (DFS over the masks), or
    None past ``budget`` nodes. Each path must end in a submission: no dead ends."""
    out = set()
    nodes = 0

    def walk(d):
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise OverflowError
        m = d.mask()
        assert m, f"dead end after {d.cards} ({d.kind})"
        assert m == sorted(set(m))
        for a in m:
            if a == DONE:
                out.add(d.action())
            else:
                assert d.cards == [] or a <= d.cards[-1], "cards come in descending id order"
                child = _clone(d)
                child.step(a)
                walk(child)

    try:
        walk(dec)
    except OverflowError:
        return None
    return out


def _clone(d):
    import copy

    c = copy.copy(d)
    c.cards = list(d.cards)
    c.counts = list(d.counts)
    c._mask = None
    s = copy.copy(d._set)
    if hasattr(s, "alive"):
        s.alive = list(s.alive)
    c._set = s
    return c


def truth(game, seat, kind):
    """The legal decisions by brute force (small cases only), or None if too many."""
    if kind in ("declare", "choose"):
        return set(game.legal_actions(seat))
    if kind == "follow":
        legal = game.legal_actions(seat, limit=10**6)
        return set(legal)
    hand = game.hands[seat]
    if kind == "lead":
        out = set()
        eff = game._eff
        for suit in range(5):
            kinds = [k for k in range(NUM_KINDS) if hand[k] and eff[k] == suit]
            if not kinds:
                continue
            ranges = [range(hand[k] + 1) for k in kinds]
            n = 1
            for r in ranges:
                n *= len(r)
            if n > (5000 if _long() else 400):
                return None
            for combo in itertools.product(*ranges):
                cards = tuple(k for k, c in zip(kinds, combo, strict=True) for _ in range(c))
                if cards and game.can(Play(seat, cards)):
                    out.add(Play(seat, cards))
        return out
    return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_build_exactly_the_legal_decisions(variant):
    rng = random.Random(variant)
    checked = {k: 0 for k in ("declare", "bury", "lead", "follow", "choose")}
    for seed in range(3 if _long() else 1):
        g = Game(variant, seed, max_deals=1)
        while not g.over:
            seat = g.to_act
            dec = Decision(g, seat)
            if dec.kind not in ("bury", "call"):  # (built() walks card actions only)
                got = built(dec, 20_000 if _long() else 3_000)
                want = truth(g, seat, dec.kind)
                if got is not None and want is not None:
                    assert got == want, (variant, seed, dec.kind)
                    checked[dec.kind] += 1
            # a random walk on the masks gives a legal action
            while True:
                a = rng.choice(dec.mask())
                action = dec.step(a)
                if action is not None:
                    break
            assert g.can(action), (dec.kind, action)
            g.apply(action)
    assert checked["declare"] and checked["lead"] and checked["follow"]


def test_burial_builds_every_choice_of_count_cards():
    hand = [0] * NUM_KINDS
    for k, n in ((3, 2), (7, 1), (20, 3), (53, 1)):
        hand[k] = n
    cards = [k for k in range(NUM_KINDS) for _ in range(hand[k])]

    class G:  # what Decision reads for a burial
        pass

    dec = Decision.__new__(Decision)
    dec.seat, dec.kind, dec.cards, dec.counts = 0, "bury", [], [0] * NUM_KINDS
    dec._set, dec._options, dec._mask = Burial(hand, 3), None, None
    got = {a.cards for a in built(dec)}
    want = {tuple(sorted(c, reverse=True)) for c in itertools.combinations(cards, 3)}
    assert got == want


def test_filler_builds_all_suit_cards_plus_any_r_others():
    base = (30, 30, 12)
    pool = [0] * NUM_KINDS
    for k, n in ((40, 2), (5, 1), (0, 1), (52, 1)):
        pool[k] = n
    dec = Decision.__new__(Decision)
    dec.seat, dec.kind, dec.cards, dec.counts = 0, "follow", [], [0] * NUM_KINDS
    dec._set, dec._options, dec._mask = Filler(base, pool, 2), None, None
    got = {a.cards for a in built(dec)}
    others = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    want = {tuple(sorted(base + c, reverse=True)) for c in itertools.combinations(others, 2)}
    assert got == want


def test_actions_for_is_the_inverse_of_building():
    g = Game("two-deck-80", 5, max_deals=1)
    while g.phase != "play":
        g.apply(g.legal_actions()[0] if g.phase == "deal" else _bury(g))
    legal = g.legal_actions()
    for action in list(legal)[:20]:
        dec = Decision(g, g.to_act)
        out = None
        for a in actions_for(action):
            assert dec.allows(a)
            out = dec.step(a)
        assert out == action


def _bury(g):
    from shengji.engine import Bury

    cards = [k for k, n in enumerate(g.hands[g.to_act]) for _ in range(n)]
    return Bury(g.to_act, tuple(cards[: g.kitty_size]))


def test_every_builtin_variant_is_covered():
    names = {v for v in list_variants() if not v.startswith("house/")}
    assert set(VARIANTS) >= names, names - set(VARIANTS)
