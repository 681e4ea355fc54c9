"""The C play driver (engine.drive, core_c/drive.c) makes the game the per-play path
makes (issue 14).

The runner hands the plays of index-picking bots (the random bot) to the C driver. The
same matches played with the driver and with it switched off (``drive.ENABLED``) must
give identical actions, events, records and state — over every shipped variant and
house variant, finding friends at several table sizes, tables mixing random and
heuristic bots (the driver stops for a seat that is no index picker: the state it hands
over mid-trick is the per-play path's), failed throws the next player chooses for, a bot
that fails mid-deal, and variants whose play hooks are a plugin's (the driver is not
used).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shengji.bots import make_bot
from shengji.bots.random_bot import RandomBot
from shengji.engine import Game, drive, play
from shengji.engine.events import ThrowFailed
from shengji.engine.legal import FillerFollows
from shengji.variants import list_variants, load_variant

HOUSE = Path(__file__).parent / "cases" / "house"
#: every shipped variant, the house rules of the rule cases (those that change play:
#: follow protections, shorter tractors, failed throws, bombs, rainbows, ruffs ...), and
#: finding friends at several table sizes
TABLES = ([pytest.param(n, None, id=n) for n in list_variants(include_house=True)]
          + [pytest.param(str(p), None, id=f"cases/{p.stem}")
             for p in sorted(HOUSE.glob("*.yaml")) if not p.name.endswith(".cases.yaml")]
          + [pytest.param("finding-friends", p, id=f"finding-friends-{p}")
             for p in (5, 6, 8, 12)])


def _state(g: Game) -> dict:
    """Everything the play phase changes (beyond actions and events)."""
    return dict(
        phase=g.phase, to_act=g.to_act, leader=g.leader, trick_number=g.trick_number,
        hands=[list(h) for h in g.hands], hand_len=list(g.hand_len), played=list(g.played),
        captured=list(g.captured), penalties=list(g.penalties), penalty=g.penalty,
        trick_points=g.trick_points, tricks=g.tricks, trick=g.trick,
        trick_counts=g._trick_counts, trick_hands=[h._b for h in g._trick_hands],
        side=g.side, joined=g.joined, sides_known=g.sides_known, levels=list(g.levels),
        deals_played=g.deals_played, stamp=g._stamp, n_actions=len(g.actions),
        n_events=len(g.events))


class _Watching:
    """A bot asked through ``act`` (not an index picker) that notes the game's state
    each time it is asked: the state the driver handed over."""

    def __init__(self, bot, game, notes: list):
        self.bot, self.game, self.notes = bot, game, notes

    def act(self, view, legal):
        self.notes.append((_state(self.game), legal.kind, len(legal)))
        return self.bot.act(view, legal)


def _match(v, seed, kinds, deals: int, enabled: bool, monkeypatch, *, until=None):
    """Play a match (``kinds[seat % len(kinds)]`` bots); returns (game, notes, drives)."""
    monkeypatch.setattr(drive, "ENABLED", enabled)
    used = []
    real = drive.drive

    def counting(game, pickers):
        used.append(1)
        return real(game, pickers)

    monkeypatch.setattr(drive, "drive", counting)
    g = Game(v, seed, max_deals=deals)
    notes: list = []
    bots = []
    for s in range(v.players):
        kind = kinds[s % len(kinds)]
        bot = make_bot(kind, v, f"{seed}/{s}")
        bots.append(bot if kind == "random" else _Watching(bot, g, notes))
    if until is not None:
        bots = until(bots)
    play(g, bots)
    return g, notes, len(used)


def _same(a: Game, b: Game) -> None:
    assert a.actions == b.actions
    assert a.events == b.events
    assert a.to_dict() == b.to_dict()
    assert _state(a) == _state(b)


@pytest.mark.parametrize("name,players", TABLES)
def test_random_matches_are_the_per_play_paths(name, players, monkeypatch):
    v = load_variant(name, players=players)
    for seed in ("d0", "d1"):
        old, _, n_old = _match(v, seed, ["random"], 2, False, monkeypatch)
        new, _, n_new = _match(v, seed, ["random"], 2, True, monkeypatch)
        _same(old, new)
        assert n_old == 0
        # the driver ran, except where throws are judged by what each seat has seen
        assert (n_new > 0) == (v.play_rules.throw_check == "holdings")


@pytest.mark.parametrize("name,players", [("two-deck-80", None), ("three-deck-titanic", None),
                                          ("one-deck-40", None), ("finding-friends", 6)])
def test_mixed_tables_hand_over_the_per_play_state(name, players, monkeypatch):
    v = load_variant(name, players=players)
    for kinds in (["random", "heuristic"], ["random", "random", "heuristic"]):
        old, notes_old, _ = _match(v, "mix", kinds, 1, False, monkeypatch)
        new, notes_new, n_new = _match(v, "mix", kinds, 1, True, monkeypatch)
        _same(old, new)
        # at every decision of the heuristic seats (mid-trick ones included) the state
        # and the listing are the per-play path's
        assert notes_old == notes_new
        assert any(st["trick"] for st, kind, _ in notes_new if kind == "follow")
        assert n_new > 0


def test_a_failed_throw_the_next_player_chooses_for(monkeypatch):
    v = load_variant(HOUSE / "next-player-chooses.yaml")
    chosen = 0
    for seed in range(6):
        old, _, _ = _match(v, f"t{seed}", ["random"], 2, False, monkeypatch)
        new, _, _ = _match(v, f"t{seed}", ["random"], 2, True, monkeypatch)
        _same(old, new)
        chosen += sum(1 for e in new.events if type(e) is ThrowFailed and e.chooser is not None)
        failed = sum(1 for e in new.events if type(e) is ThrowFailed and e.chooser is None)
    assert chosen > 0 and failed >= 0  # the driver stopped for the chooser and went on


def test_failed_throws_are_the_engines():
    # a built-in failed throw (one forced play) is settled in C: the record holds them
    v = load_variant("two-deck-80")
    g = Game(v, "throws", max_deals=6)
    play(g, [RandomBot(v, f"throws/{s}") for s in range(4)])
    assert any(type(e) is ThrowFailed for e in g.events)


class _Failing(RandomBot):
    """Picks by index, and fails at its n-th play."""

    def __init__(self, variant, seed, fail_at):
        super().__init__(variant, seed)
        self.left = fail_at

    def play_index(self, n):
        self.left -= 1
        if self.left == 0:
            raise RuntimeError("bot failed")
        return super().play_index(n)


def test_a_bot_failing_mid_deal_leaves_the_per_play_state(monkeypatch):
    v = load_variant("two-deck-80")
    games = []
    for enabled in (False, True):
        monkeypatch.setattr(drive, "ENABLED", enabled)
        g = Game(v, "fail", max_deals=1)
        bots = [_Failing(v, f"fail/{s}", 7 if s == 2 else 10**9) for s in range(4)]
        with pytest.raises(RuntimeError, match="bot failed"):
            play(g, bots)
        games.append(g)
    _same(*games)
    assert games[1].trick  # it failed mid-trick
    # and the game plays on from there
    for g in games:
        play(g, [RandomBot(v, f"on/{s}") for s in range(4)])
    _same(*games)


def test_picks_that_are_no_option_get_the_engines_answer(monkeypatch):
    v = load_variant("two-deck-80")

    class Wild(RandomBot):
        def play_index(self, n):
            return n  # one past the last

    out = []
    for enabled in (False, True):
        monkeypatch.setattr(drive, "ENABLED", enabled)
        g = Game(v, "wild", max_deals=1)
        with pytest.raises(IndexError):
            play(g, [Wild(v, f"w/{s}") for s in range(4)])
        out.append(g)
    _same(*out)


def test_not_used_when_a_plugin_settles_failed_throws_or_a_check_watches():
    import sys
    from pathlib import Path

    plugins = Path(__file__).parent / "plugins"
    sys.path.insert(0, str(plugins))
    try:
        import shengji_every_hook
    finally:
        sys.path.remove(str(plugins))
    v = load_variant("two-deck-80", plugins=[shengji_every_hook])
    g = Game(v, "p", max_deals=1)
    play(g, [RandomBot(v, s) for s in range(4)], stop_after_deals=0)
    while g.phase != "play":
        g.apply(RandomBot(v, "x").act(g.view(g.to_act), g.legal_actions()))
    assert not drive.usable(g)
    plain = Game(load_variant("two-deck-80"), "p", max_deals=1)
    while plain.phase != "play":
        plain.apply(RandomBot(v, "x").act(plain.view(plain.to_act), plain.legal_actions()))
    assert drive.usable(plain)


@pytest.mark.long
@pytest.mark.parametrize("name,players", [("two-deck-80", None), ("one-deck-40", None),
                                          ("three-deck-titanic", None), ("four-deck", None),
                                          ("constant-two", None), ("finding-friends", 5),
                                          ("finding-friends", 8),
                                          (str(HOUSE / "next-player-chooses.yaml"), None),
                                          (str(HOUSE / "bombs-any-suit.yaml"), None),
                                          (str(HOUSE / "rainbows.yaml"), None)])
def test_long_random_matches_are_the_per_play_paths(name, players, monkeypatch):
    v = load_variant(name, players=players)
    deals = 0
    m = 0
    while deals < 1000:
        old, _, _ = _match(v, f"long{m}", ["random"], 20, False, monkeypatch)
        new, _, _ = _match(v, f"long{m}", ["random"], 20, True, monkeypatch)
        _same(old, new)
        deals += new.deals_played
        m += 1


def _wide_follow(keep: int):
    """Two seats of 104 cards; the leader has led its whole suit and the follower holds
    ``keep`` cards of it: it fills with any of its other cards. (game, follower, count)."""
    v = load_variant({"extends": "four-deck", "name": "two-seat-four-deck", "players": 2,
                      "teams": [0, 1], "hand_size": 104, "play": {"throws": True}})
    g = Game(v, "wide", max_deals=1)
    while g.phase != "play":
        g.apply(RandomBot(v, "x").act(g.view(g.to_act), g.legal_actions()))
    lead, other = g.to_act, 1 - g.to_act
    eff = g._eff
    hl, ho = g.hands[lead], g.hands[other]
    suit = max(range(4), key=lambda s: sum(ho[k] for k in range(54) if eff[k] == s))
    # the follower keeps `keep` cards of the suit: the others change places with the
    # leader's cards of other suits
    spare = [k for k in range(54) if eff[k] != suit for _ in range(hl[k])]
    for k in range(54):
        while eff[k] == suit and ho[k] and sum(ho[j] for j in range(54)
                                                if eff[j] == suit) > keep:
            x = spare.pop()
            ho[k] -= 1
            hl[k] += 1
            hl[x] -= 1
            ho[x] += 1
    cards = tuple(k for k in range(53, -1, -1) if eff[k] == suit for _ in range(hl[k]))
    g._play_cards(lead, cards, [])
    held = [k for k in range(53, -1, -1) if eff[k] == suit for _ in range(ho[k])]
    pool = [0 if eff[k] == suit else c for k, c in enumerate(ho)]
    ways = FillerFollows(tuple(held), pool, len(cards) - len(held))
    assert g.to_act == other
    return g, other, ways._ways[0][ways.r]


def test_counts_past_the_drivers_range_are_left_to_the_engine():
    # more ways than 2^56: the driver makes no play (the runner then asks the engine)
    g, other, count = _wide_follow(1)
    assert count >= 2**56
    before = _state(g)
    assert drive.usable(g)
    assert drive.drive(g, [RandomBot(g.variant, "a").play_index] * 2) is False
    assert _state(g) == before


def test_large_counts_in_range_are_the_engines():
    # a follow among 2^32..2^56 ways: listed and unranked in C as the engine does
    for keep in range(2, 40):
        g, other, count = _wide_follow(keep)
        if 2**32 <= count < 2**56:
            break
    else:
        raise AssertionError("no position with a count in range")
    old, new = g.copy(), g.copy()
    a, b = RandomBot(g.variant, "big"), RandomBot(g.variant, "big")
    pickers: list = [None, None]
    pickers[other] = b.play_index
    assert drive.drive(new, pickers)
    while old.phase == "play" and old.to_act == other:
        old._play_picked(other, a.play_index)
    _same(old, new)


def test_more_follows_than_a_sequence_can_count_are_a_prefix():
    # past sys.maxsize ways len() of the filler follows would raise OverflowError: the
    # listing is its first sys.maxsize plays, ``total`` the true count, and a random bot
    # still plays (a two-seat four-deck table reaches ~10^20 ways)
    import sys

    g, other, count = _wide_follow(1)
    assert count > sys.maxsize
    legal = g.legal_actions(other)
    assert len(legal) == sys.maxsize and legal.total == count and legal.truncated
    assert g.can(legal[-1]) and g.can(legal[0])
    g._play_picked(other, RandomBot(g.variant, "huge").play_index)
    assert g.to_act != other or g.phase != "play"
