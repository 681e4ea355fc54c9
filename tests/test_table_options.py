"""Table options that hide facts from the seat views (issue 10; shengji.io
hide_played_cards, hide_landlord_points): the hidden facts must be absent from the
engine's views and events and from the protocol's state messages."""

from __future__ import annotations

import json

import pytest

from shengji.bots import make_bot
from shengji.engine import Game, Played, TrickWon
from shengji.engine.actions import cards_text
from shengji.protocol import Table
from shengji.variants import load_variant

HIDE_CARDS = {"extends": "two-deck-80", "table": {"hide_played_cards": True}}
HIDE_POINTS = {"extends": "two-deck-80", "table": {"hide_dealer_points": True}}


def _play_until(game, tricks: int, plays_more: int = 0):
    bots = [make_bot("random", game.variant, f"t/{s}") for s in range(game.players)]
    while not (len(game.tricks) >= tricks and len(game.trick) >= plays_more):
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    return game


def _counts(tricks, current=()):
    counts = [0] * 54
    for trick in (*tricks, current):
        for _, cards in trick:
            for c in cards:
                counts[c] += 1
    return counts


def test_hidden_played_cards_are_absent_from_the_view():
    game = _play_until(Game(load_variant(HIDE_CARDS), 2), tricks=4, plays_more=2)
    for seat in range(4):
        view = game.view(seat)
        assert view.tricks == game.tricks[-1:]
        assert view.trick == game.trick
        assert list(view.played) == _counts(game.tricks[-1:], game.trick)
        assert list(view.played) != list(game.played)  # older tricks really are gone
        d = view.to_dict()
        assert len(d["tricks"]) == 1


def test_hidden_played_cards_are_absent_from_events_and_protocol():
    v = load_variant(HIDE_CARDS)
    game = _play_until(Game(v, 2), tricks=4, plays_more=1)
    seat = 1
    seen = game.events_for(seat)
    plays = [e for e in seen if isinstance(e, Played)]
    old = [e for e in plays if e.trick < 3]
    assert old and all(e.cards is None for e in old)
    assert all(e.cards is not None for e in plays if e.trick >= 3)
    table = Table(v, seed=2)
    table.game = game
    msg = json.loads(json.dumps(table.state(seat, since=0)))
    sent = [e for e in msg["events"] if e["type"] == "Played"]
    assert [e["cards"] for e in sent if e["trick"] < 3] == [None] * len(old)
    assert len(msg["view"]["tricks"]) == 1


def test_the_state_that_scores_a_deal_shows_its_last_trick():
    """With hide_played_cards the plays of the deal's last trick reach every seat with
    the DealScored they end in (the new deal has begun by then: its own tricks are not
    the ones shown); the deal's earlier tricks come face down, the seat's own too."""
    from shengji.engine import DealScored

    v = load_variant(HIDE_CARDS)
    game = Game(v, 2)
    bots = [make_bot("random", v, f"t/{s}") for s in range(4)]
    before = 0
    while not any(isinstance(e, DealScored) for e in game.events[before:]):
        seat = game.to_act
        before = len(game.events)
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    last = max(e.trick for e in game.events if isinstance(e, Played))
    for seat in range(4):
        plays = [e for e in game.events_for(seat, before) if isinstance(e, Played)]
        assert plays and all(e.cards is not None for e in plays)  # the last trick
        earlier = [e for e in game.events_for(seat) if isinstance(e, Played)]
        assert {e.trick for e in earlier if e.cards is not None} == {last}
        assert any(e.seat == seat and e.cards is None for e in earlier)


def test_base_variant_shows_every_played_card():
    game = _play_until(Game("two-deck-80", 2), tricks=4, plays_more=1)
    view = game.view(0)
    assert view.tricks == game.tricks and view.played == tuple(game.played)
    assert all(e.cards is not None for e in game.events_for(0) if isinstance(e, Played))
    assert all(e.points is not None for e in game.events_for(0) if isinstance(e, TrickWon))


@pytest.mark.parametrize("seat", range(4))
def test_dealer_points_are_absent(seat):
    v = load_variant(HIDE_POINTS)
    game = _play_until(Game(v, 6), tricks=12)
    dealers = game.teams[game.dealer]
    won = [e for e in game.events_for(seat) if isinstance(e, TrickWon)]
    assert {game.teams[e.seat] for e in won} == {0, 1}  # both sides won some
    for e in won:
        if game.teams[e.seat] == dealers:
            assert e.points is None
        else:
            assert e.points is not None
    true = [e for e in game.events if isinstance(e, TrickWon)]
    assert [e.attacker_points for e in won] == [e.attacker_points for e in true]
    table = Table(v, seed=6)
    table.game = game
    sent = [e for e in table.state(seat, since=0)["events"] if e["type"] == "TrickWon"]
    assert [e["points"] is None for e in sent] == [game.teams[e.seat] == dealers for e in true]


def test_hidden_facts_survive_a_game_record():
    v = load_variant({"extends": "two-deck-80",
                      "table": {"hide_played_cards": True, "hide_dealer_points": True}})
    game = _play_until(Game(v, 3), tricks=5)
    again = Game.from_dict(game.to_dict(), variant=v)
    assert again.events_for(2) == game.events_for(2)
    assert again.view(2) == game.view(2)


# ---- issue 28: table.hide_throw_halting_player, table.reveal_kitty_at_end (shengji.io
# settings.rs hide_throw_halting_player, should_reveal_kitty_at_end_of_game)

HIDE_HALTING = {"extends": "two-deck-80", "table": {"hide_throw_halting_player": True}}
KITTY_DOWN = {"extends": "two-deck-80", "table": {"reveal_kitty_at_end": False}}
SEATS_AND_SPECTATOR = (0, 1, 2, 3, None)


def _frames(v, seed: int):
    """A deal of random bots through the protocol's table, as the server sends it: after
    every action, each seat's and a spectator's ``state`` message since its cursor; then
    each one's replay of the deal. (table, {seat: [frames as parsed JSON]})"""
    table = Table(v, seed, bots={s: "random" for s in range(4)}, max_deals=1)
    cursors = dict.fromkeys(SEATS_AND_SPECTATOR, 0)
    frames: dict = {s: [] for s in SEATS_AND_SPECTATOR}
    while True:
        for s in SEATS_AND_SPECTATOR:
            msg = table.state(s, since=cursors[s])
            cursors[s] = msg["event_index"]
            frames[s].append(json.loads(json.dumps(msg)))
        if not table.step_bot():
            break
    for s in SEATS_AND_SPECTATOR:
        frames[s].append(json.loads(json.dumps(table.replay(s, 0))))
        frames[s].append({"events": [json.loads(json.dumps(e)) for e in table.events(s)]})
    return table, frames


def _sent(frames, kind):
    return [e for f in frames for e in f.get("events", []) if e["type"] == kind]


def test_the_halting_player_is_absent_from_every_frame():
    v, base = load_variant(HIDE_HALTING), load_variant("two-deck-80")
    checked = 0
    for seed in range(60):
        table, frames = _frames(v, seed)
        if not any(type(e).__name__ == "ThrowFailed" for e in table.game.events):
            continue
        for s in SEATS_AND_SPECTATOR:
            failed = _sent(frames[s], "ThrowFailed")
            assert failed and all("blocker" not in e and "beaten_by" not in e for e in failed)
            assert any("beaten" in e for e in failed)  # the part beaten is still told
        # the same deal at the base table names the blocker to everyone
        _, shown = _frames(base, seed)
        assert all("blocker" in e for s in SEATS_AND_SPECTATOR
                   for e in _sent(shown[s], "ThrowFailed") if "beaten" in e)
        checked += 1
        if checked == 3:
            return
    raise AssertionError("too few failed throws")


def test_the_kitty_stays_face_down_in_every_frame_but_the_buriers():
    v = load_variant(KITTY_DOWN)
    table, frames = _frames(v, 4)
    burier = [e.seat for e in table.game.events if type(e).__name__ == "Buried"][-1]
    scored = [e for e in table.game.events if type(e).__name__ == "DealScored"][0]
    for s in SEATS_AND_SPECTATOR:
        got = _sent(frames[s], "DealScored")
        assert got and all(e["kitty_points"] == scored.kitty_points for e in got)
        if s == burier:
            assert all(e["kitty"] == cards_text(scored.kitty) for e in got)
        else:
            assert all(e["kitty"] is None for e in got)
    # the base table turns it face up for everyone
    _, shown = _frames(load_variant("two-deck-80"), 4)
    assert all(e["kitty"] for s in SEATS_AND_SPECTATOR for e in _sent(shown[s], "DealScored"))
    # the engine's own events_for, from any cursor inside the deal
    for since in (0, len(table.game.events) - 3):
        for s in (0, 1, 2, 3, None):
            seen = [e for e in table.game.events_for(s, since)
                    if type(e).__name__ == "DealScored"]
            assert [e.kitty is None for e in seen] == [s != burier] * len(seen)
