"""The engine's fast paths give what the slow ones give (issue 14).

- leads are listed in C (``Context._listed_leads``) in exactly the order of the Python
  reference ``engine.legal.lead_structures`` (the random bot picks by index, so the
  order is behaviour);
- an action read from the ``Legal`` the game just listed is applied without being
  checked again; anything else (another listing, a stale one, an action built by hand)
  is checked as before;
- the runner's ``LazyView`` answers ``seat``, ``to_deal`` and ``hand`` without
  building the view, with the view's values; a bot that says ``reads_view`` gets the
  ``SeatView`` itself, and decides the same;
- the engine's shuffle is ``random.shuffle``'s permutation;
- ``Legal.cards()`` (card ids without Play actions) reads what the actions hold, and a
  filler listing's unranking gives every completion exactly once;
- a bot that picks its plays by index (``Bot.play_index``: the random bot) is asked
  directly by the runner, and the game is the one ``act`` makes, action for action and
  event for event; the random bot's draw is ``randrange``'s.
"""

from __future__ import annotations

import random

import pytest

from shengji.bots import make_bot
from shengji.bots.random_bot import RandomBot, randbelow
from shengji.engine import Game, IllegalAction, play
from shengji.engine.actions import Play
from shengji.engine.game import shuffle
from shengji.engine.legal import lead_structures
from shengji.engine.runner import LazyView, _by_index
from shengji.variants import list_variants, load_variant

VARIANTS = list_variants(include_house=True)


def _decisions(name: str, seed: str, deals: int = 2):
    """(game, seat) at every decision of a few random deals (the game moves on after)."""
    v = load_variant(name)
    g = Game(v, seed, max_deals=deals)
    bots = [make_bot("random", v, f"{seed}/{s}") for s in range(v.players)]
    while not g.over:
        s = g.to_act
        yield g, s
        g.apply(bots[s].act(LazyView(g, s), g.legal_actions(s)))


@pytest.mark.parametrize("name", VARIANTS)
def test_leads_listed_in_c_equal_the_reference(name):
    checked = 0
    for g, s in _decisions(name, "fast-leads"):
        if g.phase == "play" and not g.trick:
            want = lead_structures(g, s)
            got = g.ctx._listed_leads(bytes(g.hands[s]), g.rules.throws)
            assert tuple(h.ids_desc() for h in got) == want
            listed = [a.cards for a in g.legal_actions(s)]
            if g.rules.throw_check == "unseen":
                # play.throw_check: unseen (house/ejfn) leaves out the whole-suit throws
                # unseen cards could beat, in order; each of them is refused when tried
                assert listed == [w for w in want if w in listed]
                for w in set(want) - set(listed):
                    with pytest.raises(IllegalAction) as e:
                        g.verify(Play(s, w))
                    assert e.value.reason == "beatable_throw"
            else:
                assert listed == list(want)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("name", ["two-deck-80", "one-deck-40", "house/kitty-theft"])
def test_lazy_view_shortcuts_are_the_views_fields(name):
    for g, s in _decisions(name, "fast-view", deals=1):
        lazy, view = LazyView(g, s), g.view(s)
        assert (lazy.seat, lazy.to_deal, lazy.hand) == (view.seat, view.to_deal, view.hand)
        assert lazy.phase == view.phase and lazy.seat == s  # and the rest, built on use


def test_listed_actions_skip_the_check_and_others_do_not(monkeypatch):
    v = load_variant("two-deck-80")
    g = Game(v, "fast-trust", max_deals=1)
    bots = [make_bot("random", v, s) for s in range(4)]
    while g.phase != "play":
        s = g.to_act
        g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    checked = []
    real = Game._check
    monkeypatch.setattr(Game, "_check", lambda self, a: checked.append(a) or real(self, a))
    seat = g.to_act
    legal = g.legal_actions(seat)
    listed = legal[0]
    g.apply(listed)
    assert checked == []  # read from the listing of this very state
    # a stale listing's action is checked (and here refused: not this seat's turn)
    with pytest.raises(IllegalAction):
        g.apply(legal[1])
    assert checked == [legal[1]]
    # an equal action built by hand is checked too
    nxt = g.to_act
    mine = Play(nxt, g.legal_actions(nxt)[0].cards)
    g.apply(mine)
    assert checked[-1] is mine
    # a copy of the game in the listed state trusts that listing as well
    s = g.to_act
    legal = g.legal_actions(s)
    twin = g.copy()
    twin.apply(legal[0])
    g.apply(legal[-1])
    assert checked[-1] is mine and twin.events[-1].cards == legal[0].cards


def test_shuffle_is_randoms():
    for seed in range(500):
        for n in (1, 2, 54, 108, 216):
            a, b = list(range(n)), list(range(n))
            random.Random(f"{seed}").shuffle(a)
            shuffle(b, random.Random(f"{seed}"))
            assert a == b


def test_c_shuffle_is_the_python_one():
    """core.shuffled (core_c/shuffle.c: MT19937 seeded as random.Random(str) seeds it)
    gives shuffle's permutation: many seeds (empty, long, non-ASCII, the engine's
    "seed:deal:attempt" form) and deck sizes (0 to past 255 cards of ids < 256)."""
    from shengji.core import shuffled

    seeds = [f"{s}" for s in range(300)] + ["", "x" * 300, "é中文🂡", "bench/3:17:0", "-1:0:2"]
    for seed in seeds:
        for n in (0, 1, 2, 3, 7, 54, 108, 162, 216, 300):
            cards = [i % 54 for i in range(n)]
            expected = list(cards)
            shuffle(expected, random.Random(seed))
            assert list(shuffled(seed, bytes(cards))) == expected, (seed, n)


def test_builtin_only_hooks_are_called_directly_and_plugins_still_win():
    from shengji.hookspecs import hookimpl
    from shengji.model import ScoreOutcome

    v = load_variant("two-deck-80")
    assert "shengji_score_deal" in v._direct  # only the built-in serves it
    plain = v.score_deal(0)
    assert plain == v.hook.shengji_score_deal(variant=v, attacker_points=0,
                                              short_handed=False)  # as pluggy

    class Plugin:
        @hookimpl(tryfirst=True)
        def shengji_score_deal(self, variant, attacker_points):
            return ScoreOutcome("attackers", 9)

    v.pm.register(Plugin())  # registered after the variant was built
    assert v.score_deal(0) == ScoreOutcome("attackers", 9) != plain


def test_declaration_caches_are_shared_until_a_plugin_changes_the_hooks():
    """The games of one variant share the declaration hooks' results (a simulation makes
    a Game every few deals); a plugin registered since gets fresh ones."""
    from shengji.engine.game import _declaration_caches
    from shengji.hookspecs import hookimpl

    v = load_variant("two-deck-80")

    def singles_declared(seed):
        g = Game(v, seed, max_deals=3)
        play(g, [make_bot("random", v, f"{seed}/{s}") for s in range(v.players)])
        return [e for e in g.events if type(e).__name__ == "Declared" and len(e.cards) == 1]

    assert singles_declared("shared") and Game(v, 1)._declare_cache is Game(v, 2)._declare_cache
    before = _declaration_caches(v)

    class PairsOnly:
        @hookimpl(tryfirst=True)
        def shengji_declaration_strength(self, variant, cards, level):
            return () if len(cards) == 1 else None  # a single never declares

    v.pm.register(PairsOnly())
    assert _declaration_caches(v) is not before
    assert not singles_declared("shared")


def test_listed_friend_calls_are_still_checked():
    """The calls listed are single calls; with two friends to call, one of them alone is
    not a legal action, so it is checked (and refused) like any other."""
    v = load_variant("finding-friends", players=6)  # calls: auto = 6 // 2 - 1 = 2
    g = Game(v, "fast-calls", max_deals=1)
    bots = [make_bot("random", v, s) for s in range(v.players)]
    while g.phase != "call":
        s = g.to_act
        g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    legal = g.legal_actions(g.to_act)
    assert legal.kind == "call" and legal.count == 2
    with pytest.raises(IllegalAction):
        g.apply(legal[0])


@pytest.mark.parametrize("name", ["two-deck-80", "one-deck-40", "three-deck-titanic",
                                  "finding-friends", "house/kitty-theft"])
def test_legal_cards_are_the_listed_plays_cards(name):
    kinds = set()
    for g, s in _decisions(name, "fast-cards", deals=1):
        legal = g.legal_actions(s)
        if legal.kind in ("lead", "follow"):
            if len(legal) <= 3000:
                assert legal.cards() == [a.cards for a in legal]
                kinds.add(type(legal._items).__name__)
        elif legal.kind != "none":
            with pytest.raises(ValueError, match="holds no plays"):
                legal.cards()
    assert {"HandList", "list"} <= kinds  # the core's listings and the engine's own


def test_filler_follows_unrank_every_completion_once():
    from itertools import combinations_with_replacement

    from shengji.engine.legal import FillerFollows

    rng = random.Random(3)
    for _ in range(40):
        pool = [rng.choice((0, 0, 0, 1, 2, 3)) for _ in range(54)]
        r = rng.randrange(1, 5)
        if sum(pool) < r:
            continue
        base = (53, 20)
        f = FillerFollows(base, pool, r)
        # every multiset of r cards the pool allows, by brute force
        cards = [k for k in range(54) for _ in range(pool[k])]
        want = {tuple(sorted(base + c, reverse=True))
                for c in combinations_with_replacement(sorted(set(cards)), r)
                if all(c.count(k) <= pool[k] for k in set(c))}
        got = [f[i] for i in range(len(f))]
        assert len(got) == len(set(got)) == len(want) and set(got) == want
        assert [f[i] for i in range(-3, 0)] == got[-3:]


def test_bots_that_read_every_view_get_it_built():
    from shengji.engine.runner import play
    from shengji.engine.view import SeatView

    v = load_variant("two-deck-80")

    class Spy:
        def __init__(self, bot, reads):
            self.bot, self.reads_view, self.seen = bot, reads, set()

        def act(self, view, legal):
            self.seen.add(type(view))
            return self.bot.act(view, legal)

    records = []
    for reads in (True, False):
        g = Game(v, "reads-view", max_deals=1)
        bots = [Spy(make_bot("heuristic", v, s), reads) for s in range(4)]
        play(g, bots)
        assert {t for b in bots for t in b.seen} == ({SeatView} if reads else {LazyView})
        records.append(g.actions)
    assert records[0] == records[1]
    assert make_bot("heuristic", v).reads_view and make_bot("mc", v).reads_view
    assert not make_bot("random", v).reads_view


class _ActsOnly(RandomBot):
    """The random bot, asked through ``act`` only (it overrides ``act``)."""

    def act(self, view, legal):
        return super().act(view, legal)


@pytest.mark.parametrize("name", VARIANTS)
def test_plays_by_index_are_the_plays_act_makes(name):
    """The runner's paths for plays and declarations by index (Bot.play_index,
    Bot.declare_index) give the game that asking ``act`` gives."""
    v = load_variant(name)
    for method in ("play_index", "declare_index"):
        assert _by_index(make_bot("random", v), method) is not None
        assert _by_index(_ActsOnly(v), method) is None  # an overridden act is always asked
    for seed in ("a", "b"):
        games = []
        for cls in (RandomBot, _ActsOnly):
            g = Game(v, seed, max_deals=2)
            seen: list = []
            play(g, [cls(v, f"{seed}/{s}") for s in range(v.players)],
                 check=lambda game, action, events, seen=seen: seen.append((action, events)))
            # check saw each action with the events it caused, as the history has them
            assert [a for a, _ in seen] == g.actions
            caused = [e for _, ev in seen for e in ev]
            assert caused == g.events[len(g.events) - len(caused):]
            games.append((g.actions, g.events, g.levels, g.deals_played))
        assert games[0] == games[1]


def test_randbelow_is_randrange():
    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 7, 8, 13, 64, 100, 120, 1000, 2**40 + 3):
            assert [randbelow(a, n) for _ in range(50)] == [b.randrange(n) for _ in range(50)]
    bot, rng = RandomBot(load_variant("two-deck-80"), "x"), random.Random("bot:x")
    for n in (1, 2, 3, 7, 64, 120, 2**40 + 3) * 20:
        assert bot.play_index(n) == rng.randrange(n)
