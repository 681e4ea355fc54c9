"""Protocol v1: messages round-trip, bots play through it unchanged, refusals are typed and
change nothing, and a seat's messages hold only what that seat may know."""

from __future__ import annotations

import json

import pytest

from shengji.bots import make_bot
from shengji.cards import format_counts
from shengji.engine import Game, play
from shengji.errors import ShengjiError
from shengji.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    Table,
    decode_action,
    decode_view,
    encode_view,
    parse_message,
)

BOTS4 = {s: "heuristic" for s in range(4)}


def bot_table(seed=1, variant="two-deck-80", bots=BOTS4) -> Table:
    return Table(variant, seed, bots=bots, max_deals=1)


def test_view_round_trips_through_json():
    t = bot_table()
    checked = 0
    while t.step_bot():
        for seat in range(4):
            view = t.game.view(seat)
            text = json.dumps(encode_view(view, t.variant))
            assert decode_view(json.loads(text)) == view
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40", "three-deck-titanic"])
def test_bots_through_the_protocol_play_as_bots_on_the_engine(variant):
    """The adapter loses nothing: the same bots make the same choices either way."""
    t = Table(variant, 5, bots={s: "heuristic" for s in range(4)}, max_deals=1)
    t.run_bots()
    g = Game(variant, 5, max_deals=1)
    play(g, [make_bot("heuristic", g.variant, seed=f"5:{s}") for s in range(4)])
    assert t.over and g.over
    assert [a.to_dict() for a in t.game.actions] == [a.to_dict() for a in g.actions]


def test_state_message_is_plain_json_and_legal_only_for_the_seat_to_act():
    t = bot_table(bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    t.run_bots()
    assert t.game.to_act == 0
    msg = t.state(0, since=0)
    assert json.loads(json.dumps(msg)) == msg
    assert msg["legal"]["actions"]
    assert msg["view"]["hand"] == format_counts(t.game.hands[0])
    for seat in (1, 2, 3):
        assert t.state(seat)["legal"] is None


def test_hand_groups_are_in_trump_order():
    t = bot_table(bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    while t.game.phase == "deal":
        t.act(t.game.to_act, {"type": "Pass"}) if t.game.to_act == 0 else t.step_bot()
    v = t.state(0)["view"]
    ctx = t.variant.context(t.game.level, t.game.trump)
    groups = v["hand_groups"]
    assert groups[0]["suit"] == "trump" or not any(
        ctx.is_trump(k) for k, n in enumerate(t.game.hands[0]) if n)
    from shengji.cards import parse_cards
    for g in groups:
        ids = parse_cards(g["cards"])
        strengths = [ctx.strength(k) for k in ids]
        assert strengths == sorted(strengths, reverse=True)
    assert sorted(sum((parse_cards(g["cards"]) for g in groups), [])) == sorted(
        k for k, n in enumerate(t.game.hands[0]) for _ in range(n))


# ---------------------------------------------------------------- what a seat may see

def test_a_seat_never_sees_other_hands_or_the_buried_kitty():
    t = bot_table(seed=3)
    cursors = [0] * 4
    saw_bury = False
    while not t.over:
        for seat in range(4):
            msg = t.state(seat, since=cursors[seat])
            cursors[seat] = msg["event_index"]
            v = msg["view"]
            assert v["hand"] == format_counts(t.game.hands[seat])
            if v["kitty"] is not None:
                assert seat == t.game.dealer and v["phase"] == "bury"
            for e in msg["events"]:
                if e["type"] == "CardDealt" and e["seat"] != seat:
                    assert e["card"] is None
                if e["type"] in ("KittyTaken", "Buried") and e["seat"] != seat:
                    assert e["cards"] is None
                    saw_bury = saw_bury or e["type"] == "Buried"
            text = json.dumps(msg)
            for other in range(4):
                if other != seat:
                    assert f'"hand": "{format_counts(t.game.hands[other])}"' not in text or \
                        not t.game.hand_len[other]
        t.step_bot()
    assert saw_bury


def test_replay_only_of_a_finished_deal_and_without_secrets():
    t = bot_table(seed=2, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    t.run_bots()
    with pytest.raises(ProtocolError) as e:
        t.replay(0, 0)
    assert e.value.code == "not_finished"
    t.set_bot(0, "heuristic")
    t.run_bots()
    r = t.replay(1, 0)
    assert r["type"] == "replay" and r["deal"] == 0
    assert not any(e["type"] == "CardDealt" for e in r["events"])
    for e in r["events"]:
        if e["type"] in ("KittyTaken", "Buried") and e["seat"] != 1:
            assert e["cards"] is None
    assert sum(len(p.split()) for p in r["played"]) == 4 * t.game.hand_size


# ---------------------------------------------------------------- refusals

@pytest.mark.parametrize("text, code", [
    ("not json", "bad_json"),
    (b"\xff\xfe", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": 3}', "unknown_type"),
    ('{"type": "join", "protocol": 2}', "bad_message"),
    ('{"type": "join", "protocol": true, "room": "A"}', "bad_message"),
    ('{"type": "join", "protocol": 2, "room": "A", "extra": 1}', "bad_message"),
    ('{"type": "action", "token": "t"}', "bad_message"),
    ('{"type": "action", "token": "t", "action": []}', "bad_message"),
    ('{"type": "action", "token": "t", "action": {"type": "Fly"}}', "bad_action"),
    ('{"type": "action", "token": "t", "action": {"type": "Play"}}', "bad_action"),
    ('{"type": "action", "token": "t", "action": {"type": "Play", "cards": 5}}', "bad_action"),
    ('{"type": "action", "token": "t", "action": {"type": "Pass", "cards": "HA"}}', "bad_action"),
    ('{"type": "action", "token": "t", "action": {"type": "ChooseForced", "option": "1"}}',
     "bad_action"),
    ('{"type": "replay", "token": "t", "deal": 1.5}', "bad_message"),
    ('{"type": "ping", "x": "' + "a" * 40 + '"}', "bad_message"),
])
def test_malformed_messages_are_refused_with_a_code(text, code):
    with pytest.raises(ProtocolError) as e:
        parse_message(text)
    assert e.value.code == code
    assert str(e.value)


def test_oversized_message_is_refused_before_parsing():
    text = json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_BYTES})
    with pytest.raises(ProtocolError) as e:
        parse_message(text)
    assert e.value.code == "too_large"


def test_deeply_nested_json_is_refused_not_a_crash():
    with pytest.raises(ProtocolError):
        parse_message("[" * 4000 + "]" * 4000)


def test_action_for_another_seat_is_refused():
    with pytest.raises(ProtocolError) as e:
        decode_action({"type": "Pass", "seat": 2}, 0)
    assert e.value.code == "not_your_seat"


def _first_follow_with_wrong_card(t: Table):
    """Run the table until seat 0 must follow one card while holding the led suit."""
    while not t.over:
        t.run_bots()
        legal = t.game.legal_actions(0)
        if legal.kind == "follow" and legal.count == 1:
            ok = {a.cards for a in legal}
            bad = next((k for k, n in enumerate(t.game.hands[0]) if n and (k,) not in ok), None)
            if bad is not None:
                return bad
        t.act(0, t.state(0)["legal"]["actions"][0] if legal.kind != "bury" else
              {"type": "Bury", "cards": " ".join(t.state(0)["view"]["hand"].split()[:8])})
    return None


def test_illegal_action_is_refused_with_reason_and_rule_and_changes_nothing():
    t = bot_table(seed=4, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    bad = _first_follow_with_wrong_card(t)
    assert bad is not None
    from shengji.cards import card_str
    before = (t.game.snapshot(), len(t.game.actions), len(t.game.events))
    for action, code in [({"type": "Play", "cards": card_str(bad)}, "illegal"),
                         ({"type": "Play", "cards": "HX"}, "bad_cards"),
                         ({"type": "Play", "cards": ""}, "illegal"),
                         ({"type": "Pass"}, "illegal"),
                         ({"type": "Bury", "cards": "SA"}, "illegal")]:
        with pytest.raises(ProtocolError) as e:
            t.act(0, action)
        assert e.value.code == code, action
        assert (t.game.snapshot(), len(t.game.actions), len(t.game.events)) == before
    with pytest.raises(ProtocolError) as e:
        t.act(0, {"type": "Play", "cards": card_str(bad)})
    assert e.value.reason == "must_follow_suit"
    assert "docs/rules.md §5" in e.value.rule
    with pytest.raises(ProtocolError) as e:
        t.act(1, {"type": "Play", "cards": card_str(bad)})
    assert e.value.reason == "not_your_turn"
    assert isinstance(e.value, ShengjiError)


def test_no_such_seat():
    t = bot_table()
    for seat in (-1, 4, True, "0"):
        with pytest.raises(ProtocolError) as e:
            t.state(seat)
        assert e.value.code == "no_such_seat"


def test_friend_calls_are_listed_whole():
    """The dealer picks ``count`` of the calls: the list is never cut at the 200 plays a
    lead or follow list stops at (four full packs, trumps callable, no level cards:
    54 kinds x 4 copies = 216 calls)."""
    from shengji.engine.actions import CallFriends
    from shengji.engine.legal import Legal
    from shengji.friends import call_text
    from shengji.protocol.messages import LEGAL_LIMIT, encode_legal

    calls = [(o, k) for k in range(54) for o in range(1, 5)]
    legal = Legal("call", 0, tuple(CallFriends(0, (c,)) for c in calls), count=5)
    d = encode_legal(legal)
    assert len(calls) > LEGAL_LIMIT and not d["truncated"]
    assert [a["calls"] for a in d["actions"]] == [[call_text(c)] for c in calls]
