"""The protocol's additions to what the engine says: a failed throw explained in cards
(who could beat which part, with what) at the moment it fails, points in the deck and
points played, and the spectator's view."""

from __future__ import annotations

from shengji.cards import parse_cards, point_value
from shengji.engine import Game
from shengji.protocol import Table


def failed_throws(n: int, variant: str = "two-deck-80"):
    """(table, event index) of the first ``n`` failed throws of random-bot deals."""
    found = []
    for seed in range(500):
        t = Table(variant, seed, bots={s: "random" for s in range(4)}, max_deals=1)
        t.run_bots()
        found += [(t, i) for i, e in enumerate(t.game.events)
                  if type(e).__name__ == "ThrowFailed"]
        if len(found) >= n:
            return found[:n]
    raise AssertionError("too few failed throws")


def test_a_failed_throw_names_the_part_beaten_and_the_cards_that_beat_it():
    for table, i in failed_throws(12):
        e = table.game.events[i]
        d = table.events(e.seat, i)[0]
        assert d["type"] == "ThrowFailed" and d["blocker"] != e.seat
        beaten, by = parse_cards(d["beaten"]), parse_cards(d["beaten_by"])
        assert sorted(beaten) == sorted(c for c in beaten if c in e.attempted)
        assert len(by) == len(beaten)
        # replay to the moment of the throw: the blocker held those cards, and they win
        g = Game(table.game.variant, table.seed, max_deals=1)
        for a in table.game.actions:
            hand = list(g.hands[d["blocker"]])
            g.apply(a)
            if len(g.events) > i:
                break
        assert all(hand[c] >= by.count(c) for c in set(by))
        assert g.ctx.trick_winner([beaten, by]) == 1
        # every seat, spectators too, hears the same explanation
        assert table.events(None, i)[0]["beaten_by"] == d["beaten_by"]


def test_explanations_survive_a_restore():
    table, i = failed_throws(1)[0]
    again = Table(table.game.variant, table.seed, max_deals=1, actions=table.game.actions)
    assert again.events(0, i) == table.events(0, i)


def test_views_carry_the_deck_points_and_the_points_played():
    t = Table("two-deck-80", 3, bots={s: "random" for s in range(1, 4)})
    for _ in range(60):
        if not t.run_bots():
            st = t.state(0)
            if st["legal"] is None:
                break
            legal = st["legal"]
            action = legal["actions"][0] if legal["actions"] else {
                "type": "Bury", "cards": " ".join(st["view"]["hand"].split()[:legal["count"]])}
            t.act(0, action)
    v = t.state(0)["view"]
    assert v["points_total"] == 200
    assert v["points_out"] == sum(point_value(c) for c in parse_cards(v["played"]))


def test_a_spectator_view_has_no_hand():
    t = Table("two-deck-80", 5, bots={s: "random" for s in range(4)}, max_deals=1)
    t.run_bots(limit=40)
    st = t.state(None, since=0)
    assert st["seat"] is None and st["legal"] is None
    assert st["view"]["hand"] == "" and st["view"]["kitty"] is None
    assert all(e["card"] is None for e in st["events"] if e["type"] == "CardDealt")
