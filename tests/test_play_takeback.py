"""table.play_takeback (shengji.io core/src/game_state/play_phase.rs take_back_cards,
mechanics/src/trick.rs take_back: the last play, by its player, before the trick goes
on; PlayTakebackPolicy::AllowPlayTakeback): the engine's action, its event, the views,
records and replays, and the protocol's table."""

from __future__ import annotations

import random

import pytest
from engine_helpers import check_conservation

from shengji.engine import (
    Bury,
    FriendJoined,
    Game,
    IllegalAction,
    Play,
    PlayTakenBack,
    TakeBack,
    ThrowFailed,
)
from shengji.protocol import ProtocolError
from shengji.protocol.table import Table
from shengji.variants import load_variant

KNOB = {"extends": "two-deck-80", "table": {"play_takeback": True}}


def _to_play(game, rng):
    """Random legal actions up to the play phase."""
    while game.phase != "play":
        legal = game.legal_actions()
        if legal.kind == "bury":
            hand = [k for k, n in enumerate(game.hands[game.to_act]) for _ in range(n)]
            game.apply(Bury(game.to_act, tuple(rng.sample(hand, legal.count))))
        else:
            game.apply(legal[rng.randrange(len(legal))] if legal.kind != "call" else legal[0])
    return game


def _state(game):
    return ([h[:] for h in game.hands], game.trick, game.played[:], game.to_act,
            game.hand_len[:], game.trick_number, game.leader, game._trick_counts)


def test_the_last_play_is_taken_back_before_the_next_seat_acts():
    rng = random.Random(1)
    game = _to_play(Game(load_variant(KNOB), 1), rng)
    seat = game.to_act
    before = _state(game)
    lead = game.legal_actions()[0]
    game.apply(lead)
    assert game.view(seat).can_take_back
    assert not any(game.view(s).can_take_back for s in range(4) if s != seat)
    events = game.apply(TakeBack(seat))
    assert events == [PlayTakenBack(seat, lead.cards, game.trick_number)]
    assert _state(game) == before and not game.view(seat).can_take_back
    check_conservation(game)
    # a follow too; once the next seat has acted it stands
    game.apply(lead)
    nxt = game.to_act
    follow = game.legal_actions()[0]
    game.apply(follow)
    game.apply(TakeBack(nxt))
    assert game.to_act == nxt and len(game.trick) == 1
    game.apply(follow)
    with pytest.raises(IllegalAction) as e:
        game.apply(TakeBack(seat))
    assert e.value.reason == "nothing_to_take_back"
    with pytest.raises(IllegalAction) as e:  # nor a second time in a row
        game.apply(TakeBack(game.to_act))
    assert e.value.reason == "nothing_to_take_back"


def test_the_play_that_completes_a_trick_stands():
    game = _to_play(Game(load_variant(KNOB), 2), random.Random(2))
    for _ in range(4):
        last = game.to_act
        game.apply(game.legal_actions()[0])
    assert not game.trick and game.trick_number == 1
    with pytest.raises(IllegalAction) as e:
        game.apply(TakeBack(last))
    assert e.value.reason == "nothing_to_take_back"


def test_off_by_default():
    game = _to_play(Game("two-deck-80", 1), random.Random(1))
    seat = game.to_act
    game.apply(game.legal_actions()[0])
    assert not game.view(seat).can_take_back
    with pytest.raises(IllegalAction) as e:
        game.apply(TakeBack(seat))
    assert e.value.reason == "no_takeback"


@pytest.mark.parametrize("ref,players", [(KNOB, 4),
                                         ({"extends": "finding-friends",
                                           "table": {"play_takeback": True}}, 5)])
def test_games_with_take_backs_replay_identically(ref, players):
    """Random games where every play that may be is taken back once and played again
    differently: cards are conserved, records and replays give the same game."""
    v = load_variant(ref, players=players)
    taken = refused = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = Game(v, seed, max_deals=1)
        while not game.over:
            legal = game.legal_actions()
            if legal.kind == "bury":
                hand = [k for k, n in enumerate(game.hands[game.to_act]) for _ in range(n)]
                game.apply(Bury(game.to_act, tuple(rng.sample(hand, legal.count))))
                continue
            last = game.actions[-1] if game.actions else None
            again = len(game.actions) > 1 and isinstance(game.actions[-2], TakeBack)
            if (isinstance(last, Play) and game.phase == "play" and not again
                    and game.view(last.seat).can_take_back):
                game.apply(TakeBack(last.seat))
                taken += 1
                check_conservation(game)
                continue
            ev = game.apply(legal[rng.randrange(len(legal))] if legal.kind != "call"
                            else legal[0])
            if isinstance(game.actions[-1], Play) and any(
                    isinstance(e, (ThrowFailed, FriendJoined)) for e in ev):
                # a failed throw, or a play a friend joined by, stands
                assert not game.view(game.actions[-1].seat).can_take_back
                refused += 1
        assert Game.replay(v, seed, game.actions, max_deals=1).snapshot() == game.snapshot()
        assert Game.from_dict(game.to_dict(), variant=v).snapshot() == game.snapshot()
    assert taken > 20 and refused > 0


def test_the_table_takes_back_for_the_seat_that_played_last():
    table = Table(load_variant(KNOB), 3)
    rng = random.Random(3)
    _to_play(table.game, rng)
    seat = table.game.to_act
    play = table.game.legal_actions()[0]
    table.act(seat, play.to_dict())
    state = table.state(seat)
    assert state["view"]["can_take_back"] is True and state["legal"] is None
    assert table.state(None)["view"]["can_take_back"] is False  # a spectator
    other = table.game.to_act
    with pytest.raises(ProtocolError) as e:
        table.act(other, {"type": "TakeBack"})
    assert e.value.code == "illegal"
    first = table.act(seat, {"type": "TakeBack"})
    shown = table.events(other, first)
    assert shown[0]["type"] == "PlayTakenBack" and shown[0]["seat"] == seat
    assert table.state(seat)["legal"]["kind"] in ("lead", "follow")


def test_the_terminal_offers_the_take_back():
    """After each of its plays the terminal asks whether to keep it; 't' takes it back
    and the seat plays again (then keeps)."""
    import io

    from shengji.frontends.terminal import Terminal

    class Script:
        def __init__(self, out):
            self.out, self.taken = out, 0

        def readline(self):
            text = self.out.getvalue()
            if text.endswith("take it back (t) > "):
                self.taken += 1
                return "t\n" if self.taken == 1 else "\n"
            hints = [ln for ln in text.splitlines() if "hints: " in ln]
            return hints[-1].split("hints: ", 1)[1].split(" | ")[0].split(" ", 1)[0] + "\n"

    out = io.StringIO()
    table = Table(load_variant(KNOB), 0, max_deals=1)
    for s in range(1, 4):
        table.set_bot(s, "random")
    script = Script(out)
    assert Terminal(table, 0, script, out, False, "heuristic", False).run() == 0
    text = out.getvalue()
    assert "taken back: play again" in text and "refused" not in text
    assert sum(isinstance(e, PlayTakenBack) for e in table.game.events) == 1
