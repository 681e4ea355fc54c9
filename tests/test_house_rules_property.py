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


def _leaves(node, path=()):
    for key, sub in (_deref(node).get("properties") or {}).items():
        sub = _deref(sub)
        if sub.get("properties"):
            yield from _leaves(sub, path + (key,))
        elif "enum" in sub:
            yield path + (key,), st.sampled_from(sub["enum"])
        elif sub.get("type") == "boolean":
            yield path + (key,), st.booleans()
        elif sub.get("type") == "integer" and "minimum" in sub:
            hi = sub.get("maximum", sub["minimum"] + 50)
            yield path + (key,), st.integers(sub["minimum"], hi)


LEAVES = dict(_leaves(schema()))


def test_the_schema_gives_many_settings():
    assert len(LEAVES) >= 45 and ("play", "bombs") in LEAVES and ("declare", "takeback") in LEAVES


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
