"""Random house rules drawn from the schema itself (issue 27): every enum, switch and
bounded integer of shengji/schema/variant.schema.json, a few at a time, on top of an
offered base. The loader accepts them or refuses them with errors that name keys (never
a crash); accepted rules survive the page's round trip — the short file (`extends` plus
what differs) resolves to the same rules text and fingerprint, and the stored text
rebuilds them."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tiers import depth

from shengji.variants import load_variant
from shengji.variants.files import schema
from shengji.variants.house import (
    HouseRulesError,
    canonical_text,
    check_house,
    fingerprint,
    rules_variant,
)

BASES = ("two-deck-80", "one-deck-40", "three-deck-titanic", "finding-friends")


@functools.cache
def bases():
    return {name: load_variant(name) for name in BASES}


def _deref(node):
    while "$ref" in node:
        node = schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _value(sub):
    """A strategy for one schema value: an enum, a switch, a bounded integer, or a list
    of those as long as the schema allows (None: a value not drawn)."""
    sub = _deref(sub)
    if "enum" in sub:
        return st.sampled_from(sub["enum"])
    if sub.get("type") == "boolean":
        return st.booleans()
    if sub.get("type") == "integer" and "minimum" in sub:
        return st.integers(sub["minimum"], sub.get("maximum", sub["minimum"] + 50))
    if sub.get("type") == "array" and "items" in sub:
        item = _value(sub["items"])
        if item is not None:
            return st.lists(item, min_size=sub.get("minItems", 0),
                            max_size=sub.get("maxItems", sub.get("minItems", 0) + 4))
    return None


def _leaves(node, path=()):
    for key, sub in (_deref(node).get("properties") or {}).items():
        sub = _deref(sub)
        if sub.get("properties"):
            yield from _leaves(sub, path + (key,))
        elif key != "plugins" and (value := _value(sub)) is not None:
            yield path + (key,), value


LEAVES = dict(_leaves(schema()))


def test_the_schema_gives_many_settings():
    assert len(LEAVES) >= 45 and ("play", "bombs") in LEAVES and ("declare", "takeback") in LEAVES
    assert {("teams",), ("play", "constant_ranks"), ("advancement", "must_defend")} <= set(LEAVES)


@st.composite
def house_files(draw):
    keys = draw(st.lists(st.sampled_from(sorted(LEAVES)), min_size=1, max_size=4, unique=True))
    data: dict = {"extends": draw(st.sampled_from(BASES))}
    for path in keys:
        node = data
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = draw(LEAVES[path])
    return data


@pytest.mark.scaled  # bounded by default, deeper under --long (tests/tiers.py)
@settings(max_examples=depth(12, 80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(house_files())
# found by this test: the short file wrote `{deck: null}` (flow style after a block head,
# and no deck at all), or a deck without the `decks` it took its packs from
@example({"extends": "finding-friends", "decks": 2})
@example({"extends": "one-deck-40", "decks": 1, "deck": {"lowest_rank": 2}})
@example({"extends": "finding-friends", "deck": {"big_jokers": 2}, "decks": 2})
@example({"extends": "two-deck-80", "deck": {"lowest_rank": ["2", "5"]}, "hand_size": 22})
@example({"extends": "two-deck-80", "play": {"throws": False}})
def test_random_schema_settings_round_trip(data):
    import yaml

    text = yaml.safe_dump(data, sort_keys=False)
    try:
        h = check_house(text, bases())
    except HouseRulesError as e:
        assert e.errors and all(isinstance(x["key"], str) and x["message"] for x in e.errors)
        return
    again = check_house(h.house, bases(), players=h.players)
    assert again.text == h.text and again.fingerprint == h.fingerprint
    assert fingerprint(canonical_text(rules_variant(h.text).settings)) == h.fingerprint


# ---------------------------------------------------------------- what the engine can play

#: issue 34: accepted, then room creation recursed through a thousand redeals (the schema
#: now stops redeal_limit at 20, and redeals are a loop)
REDEALS = {"extends": "finding-friends", "players": 12,
           "deck": {"packs": 8, "big_jokers": 8, "little_jokers": 8}, "hand_size": 35,
           "kitty_size": 12, "declare": {"first_deal_redeal": True, "redeal_limit": 20,
                                         "min_level_cards": 8, "jokers": {"allowed": False}}}


def _room_deals(data, seed) -> None:
    """Issue 34, item 3: validation matches what the engine can play. Rules drawn from
    the schema are checked as the web checks them; rules it accepts make a room (the
    lobby's, with its seats and table) in which bots play a whole deal."""
    import asyncio

    import yaml

    from shengji.bots import make_bot
    from shengji.engine.runner import play
    from shengji.frontends.web.lobby import Lobby

    try:
        house = check_house(yaml.safe_dump(data, sort_keys=False), bases())
    except HouseRulesError:
        return
    lobby = Lobby(variants=dict(bases()), bot_delay=0)
    room = asyncio.run(lobby.create(house.base, seed=seed, house=house,
                                    players=house.players))
    game = room.table.game
    bots = [make_bot("random", house.variant, seed=f"{seed}/{s}") for s in range(game.players)]
    play(game, bots, stop_after_deals=1)
    assert game.deals_played == 1 or game.over


PLAYABLE = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=12, **PLAYABLE)
@given(house_files(), st.integers(0, 2 ** 32))
@example(REDEALS, 7)
def test_rules_the_check_accepts_make_a_room_that_deals(data, seed):
    _room_deals(data, seed)


@pytest.mark.long
@settings(max_examples=300, **PLAYABLE)
@given(house_files(), st.integers(0, 2 ** 32))
def test_many_rules_the_check_accepts_make_a_room_that_deals(data, seed):
    _room_deals(data, seed)
