"""The hooks: meta-tests (every hookspec documented, implemented by the built-ins trylast,
described in docs/variants.md, and tested here), and plugins overriding rules without
touching the core, including a plugin that lives outside the package."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from shengji import builtin_rules, hookspecs
from shengji.errors import ArgumentError
from shengji.model import Bid, FailedThrow, NoBidOutcome, ScoreOutcome
from shengji.plugins import hook_names
from shengji.rules import PlayRules
from shengji.variants import load_variant

TESTS = Path(__file__).resolve().parent
DOCS = TESTS.parent / "docs" / "variants.md"
PLUGINS = TESTS / "plugins"


@pytest.fixture(autouse=True)
def _plugins_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(PLUGINS))


# --- meta-tests ----------------------------------------------------------------------------


def test_hookspecs_module_lists_exactly_its_hooks():
    defined = {n for n, f in vars(hookspecs).items() if n.startswith("shengji_") and callable(f)}
    assert defined == set(hook_names())
    assert len(defined) >= 12


@pytest.mark.parametrize("name", hook_names())
def test_hookspec_documented(name):
    """Each docstring names every argument and says how results combine."""
    spec = getattr(hookspecs, name)
    doc = inspect.getdoc(spec) or ""
    assert len(doc.splitlines()[0]) > 10, f"{name}: no summary line"
    for arg in inspect.signature(spec).parameters:
        assert re.search(rf"\b{arg}\b", doc), f"{name}: argument {arg} undocumented"
    assert "First non-None result wins" in doc or "first non-None" in doc.lower()
    opts = spec.shengji_spec
    assert opts["firstresult"] is True  # every hook decides one rule


@pytest.mark.parametrize("name", hook_names())
def test_hook_has_builtin_trylast_implementation(name):
    impl = getattr(builtin_rules, name)
    assert impl.shengji_impl["trylast"] is True


@pytest.mark.parametrize("name", hook_names())
def test_hook_in_user_docs(name):
    assert name in DOCS.read_text(encoding="utf-8"), f"{name} missing from docs/variants.md"


@pytest.mark.parametrize("name", hook_names())
def test_hook_has_a_test(name):
    """datasette's rule: an untested hook fails the build. A hook counts as tested when
    a test function in tests/test_hooks*.py names it."""
    source = "".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_hooks*.py"))
    assert re.search(rf"def test_{name}\b", source), f"no test_{name} in tests/test_hooks*.py"


def test_one_plugin_manager_per_variant():
    a, b = load_variant("two-deck-80"), load_variant("two-deck-80")
    assert a.pm is not b.pm
    assert builtin_rules in a.pm.get_plugins()


# --- a plugin outside the package changes a rule ------------------------------------


def test_outside_plugin_changes_the_scoring_table(tmp_path):
    """tests/plugins/shengji_flat_scoring.py, named in a house-rule file: half the points
    decide. The core is not touched; the variant's hook relay answers."""
    plain = load_variant("two-deck-80")
    (tmp_path / "flat.yaml").write_text(
        "extends: two-deck-80\nplugins: [shengji_flat_scoring]\n", encoding="utf-8"
    )
    flat = load_variant(tmp_path / "flat.yaml", allow_plugins=["shengji_flat_scoring"])
    assert plain.score_deal(90) == ScoreOutcome("attackers", 0)
    assert flat.score_deal(90) == ScoreOutcome("dealers", 1)
    assert flat.score_deal(140) == ScoreOutcome("attackers", 2)
    assert flat.play_rules == plain.play_rules  # the play rules (what the core sees) are equal
    assert flat.settings["plugins"] == ["shengji_flat_scoring"]


def test_outside_plugin_used_by_the_engine():
    """Whole deals with the plugin registered: the engine scores every deal with it."""
    engine = pytest.importorskip("shengji.engine")
    bots = pytest.importorskip("shengji.bots")
    import shengji_flat_scoring as flat

    v = load_variant("two-deck-80", plugins=[flat])
    game = engine.Game(v, seed=7)
    players = [bots.make_bot("random", v, seed=s) for s in range(v.players)]
    scored = []

    def collect(game, action, events):
        scored.extend(e for e in events if isinstance(e, engine.DealScored))

    engine.play(game, players, stop_after_deals=3, check=collect)
    assert len(scored) == 3
    for ev in scored:
        expected = flat.shengji_score_deal(v, ev.attacker_points)
        assert (ev.next_side, ev.rise) == (expected.next, expected.rise)


def test_plugin_registered_as_entry_point(monkeypatch, tmp_path):
    import shengji_flat_scoring

    import shengji.plugins as plugins_mod

    class EP:
        name, value = "flat", "shengji_flat_scoring"

        def load(self):
            return shengji_flat_scoring

    monkeypatch.setattr(
        plugins_mod, "entry_points",
        lambda group: [EP()] if group == plugins_mod.PLUGIN_GROUP else [],
    )
    (tmp_path / "ep.yaml").write_text("extends: two-deck-80\nplugins: [flat]\n")
    assert load_variant(tmp_path / "ep.yaml").score_deal(90) == ScoreOutcome("dealers", 1)


def test_plugins_accumulate_through_extends(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: two-deck-80\nplugins: [shengji_flat_scoring]\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nstart_level: 4\n")
    v = load_variant(tmp_path / "b.yaml", allow_plugins=["shengji_flat_scoring"])
    assert v.settings["plugins"] == ["shengji_flat_scoring"]
    assert v.score_deal(90) == ScoreOutcome("dealers", 1)


# --- each hook: the built-in answer, and a plugin's answer wins ---------------------------


@pytest.fixture(scope="module")
def every():
    import sys

    sys.path.insert(0, str(PLUGINS))
    try:
        import shengji_every_hook
    finally:
        sys.path.remove(str(PLUGINS))
    return load_variant("two-deck-80", plugins=[shengji_every_hook])


@pytest.fixture(scope="module")
def plain():
    return load_variant("two-deck-80")


def test_shengji_play_rules(plain, every):
    assert isinstance(plain.play_rules, PlayRules) and plain.play_rules.throws is True
    assert every.play_rules.throws is False


def test_shengji_following_priorities(plain, tmp_path):
    assert plain.hook.shengji_following_priorities(variant=plain) == {}

    class Ladders:
        def shengji_following_priorities(self, variant):
            return {"pair": ["singles"]}

    v = load_variant("two-deck-80", plugins=[Ladders()])
    assert v.play_rules.ladder_for((2, 1)) == ((),)  # fed into PlayRules for the core
    assert plain.play_rules.ladder_for((2, 1)) == (((2, 1),), ())


def test_shengji_declaration_strength(plain, every):
    assert plain.declaration_strength("H10 H10", "10") == (2, 0)
    assert plain.declaration_strength("H9", "10") == ()
    assert every.declaration_strength("H9", "10") == (1, 99)


def test_shengji_may_overturn(plain, every):
    first = Bid(seat=0, cards=(21,), trump=1, strength=(1, 0))
    pair = Bid(seat=1, cards=(8, 8), trump=0, strength=(2, 0))
    assert plain.may_overturn(None, first) is True
    assert plain.may_overturn(first, pair) is True
    assert every.may_overturn(first, pair) is False  # only seat 3 may, in that plugin


def test_shengji_may_overturn_is_told_the_phase():
    """issue 35: the hook hears whether a declaration is made while dealing or in a theft
    round (炒地皮), so a house rule may judge the two differently."""
    from shengji.engine import Bury, Game

    phases = set()

    class Listens:
        @staticmethod
        def shengji_may_overturn(phase):
            phases.add(phase)

    v = load_variant("house/kitty-theft", plugins=[Listens])
    phases.clear()  # (loading asks it while dealing: may a declaration ever stand?)
    pair = Bid(seat=1, cards=(8, 8), trump=0, strength=(2, 0))
    assert v.may_overturn(None, pair, (), "steal") is True and phases == {"steal"}
    with pytest.raises(ArgumentError, match="phase"):
        v.may_overturn(None, pair, (), "play")
    for seed in range(20):  # until a deal with a theft round offered
        phases.clear()
        g = Game(v, seed, first_dealer=0)
        declared = False
        while g.phase != "bury":  # one declaration, the first offered
            legal = g.legal_actions()
            declare = not declared and legal.kind == "declare" and len(legal) > 1
            declared = declared or declare
            g.apply(legal[1] if declare else legal[0])
        g.apply(Bury(0, tuple(k for k, n in enumerate(g.hands[0]) for _ in range(n))[:8]))
        if g.phase == "steal":
            assert phases == {"deal", "steal"}
            return
    pytest.fail("no theft round in 20 deals")


def test_shengji_no_declaration(plain, every):
    assert plain.no_declaration(1, "S3 H4", "2") == NoBidOutcome(trump=None)
    assert every.no_declaration(1, "S3 H4", "2") == NoBidOutcome(trump=2)


def test_shengji_failed_throw(plain, every):
    class Result:
        forced, forced_options, blocker = (4,), [], 0

    assert plain.failed_throw(Result, 1) == FailedThrow(options=((4,),), chooser=None)
    assert every.failed_throw(Result, 1) == FailedThrow(options=((1,),), chooser=1, penalty=77)


def test_shengji_kitty_multiplier(plain, every):
    class FakeContext:  # the built-in asks the core's Context; a stand-in records it
        def kitty_multiplier(self, play, lead):
            return 4 if lead == "lead" else 1

    assert plain.kitty_multiplier(FakeContext(), "play", "lead") == 4
    assert every.kitty_multiplier(FakeContext(), "play", "lead") == 5


def test_shengji_kitty_multiplier_with_the_core(plain):
    pytest.importorskip("shengji.core")
    ctx = plain.context("10", "S")
    # seed 000: 4455 → 16; AKQJ thrown → 2
    assert plain.kitty_multiplier(ctx, "H4 H4 H5 H5", None) == 16
    assert plain.kitty_multiplier(ctx, "HA HK HQ HJ", None) == 2


def test_shengji_score_deal(plain, every):
    assert plain.score_deal(0) == ScoreOutcome("dealers", 3)
    assert every.score_deal(0) == ScoreOutcome("attackers", 7)


def test_shengji_next_dealer(plain, every):
    assert plain.next_dealer(0, ScoreOutcome("dealers", 1)) == 2
    assert every.next_dealer(0, ScoreOutcome("dealers", 1)) == 3


def test_shengji_first_dealer(plain, every):
    bid = Bid(seat=2, cards=(21,), trump=1, strength=(1, 0))
    assert plain.first_dealer([bid]) == 2
    assert every.first_dealer([bid]) == 3


def test_shengji_start_level(plain, every):
    assert plain.start_level() == 0
    assert every.start_level() == 5


def test_shengji_advance(plain, every):
    assert plain.advance(3, 2, defending=False) == 5
    assert every.advance(3, 2, defending=False) == 4


def test_shengji_dealers_back_to_start(plain, every):
    assert plain.dealers_back_to_start(9, "SJ", attackers_won=True) is False
    assert every.dealers_back_to_start(9, "SJ", attackers_won=True) is True


def test_shengji_match_winner(plain, every):
    out = ScoreOutcome("dealers", 1)
    assert plain.match_winner({0: 3, 1: 4}, out, 0) is None
    assert every.match_winner({0: 3, 1: 4}, out, 0) == 1


def test_plugin_returning_none_falls_back_to_builtin():
    class Abstains:
        def shengji_score_deal(self, variant, attacker_points):
            return None

    v = load_variant("two-deck-80", plugins=[Abstains()])
    assert v.score_deal(0) == ScoreOutcome("dealers", 3)
