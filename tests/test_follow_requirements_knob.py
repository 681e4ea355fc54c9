"""play.follow_requirements (docs/semantics.md §4): its checks and its way to the core.
What it decides is held to the oracle by tests/test_differential.py and to shengji.io by
the house cases."""

from __future__ import annotations

import pytest

from shengji.core import Context, ffi, lib
from shengji.errors import RulesError, VariantError
from shengji.rules import PlayRules
from shengji.variants import load_variant


def test_the_default_is_the_seeds():
    assert PlayRules(decks=3).follow_requirements == "seeds"


@pytest.mark.parametrize("kw, words", [
    ({"decks": 2, "follow_requirements": "shengjiio"},
     ["follow_requirements", "seeds, shengji_io"]),
    ({"decks": 2, "follow_requirements": 1}, ["follow_requirements"]),
])
def test_bad_settings_are_refused_by_name(kw, words):
    with pytest.raises(RulesError) as e:
        PlayRules(**kw)
    assert all(w in str(e.value) for w in words), str(e.value)


def test_a_variant_file_names_the_key():
    with pytest.raises((RulesError, VariantError)) as e:
        load_variant({"extends": "two-deck-80", "name": "x",
                      "play": {"follow_requirements": "both"}})
    assert "play.follow_requirements" in str(e.value), str(e.value)
    v = load_variant({"extends": "two-deck-80", "name": "x",
                      "play": {"follow_requirements": "shengji_io"}})
    assert v.play_rules.follow_requirements == "shengji_io"


def test_the_knob_reaches_the_core_and_the_core_checks_it():
    ctx = Context(PlayRules(decks=3, follow_requirements="shengji_io"), "9", "S")
    assert ctx._r.follow_requirements == lib.SJ_FOLLOWREQ_SHENGJI_IO
    r = ffi.new("sj_rules *")
    ffi.memmove(r, ctx._r, ffi.sizeof("sj_rules"))
    err = ffi.new("sj_err *")
    for value, ok in [(0, True), (1, True), (2, False), (-1, False)]:
        r.follow_requirements = value
        rc = lib.sj_prepare(r, err)
        assert (rc == 0) is ok, value
        if not ok:
            assert rc == lib.SJ_ERR_RULES and err.a == lib.SJ_RF_FOLLOW_REQUIREMENTS
