"""The C-only column of benchmarks/bench_core.py keeps building against core_c/ (its
driver calls the core's entry points directly, so a changed signature must fail here,
not silently drop the column). Builds without optimisation and runs one call per
operation; nothing is timed or compared."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from shengji.core import Context, Hand
from shengji.rules import PlayRules

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.append(str(BENCH))

core_only = pytest.importorskip("core_only")


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                    reason="no C compiler")
def test_the_c_only_driver_builds_and_answers_every_operation():
    ctx = Context(PlayRules(decks=2), "10", "S")
    lead, hand, play = Hand("HA HA"), Hand("HK HK H3 SA"), Hand("HK HK")
    c = lambda h: h.counts  # noqa: E731
    jobs = core_only.Jobs()
    jobs.add("decompose", "decompose", [(ctx, [c(hand)])], repeat=1)
    jobs.add("check_follow", "check_follow", [(ctx, [c(lead), c(hand), c(play)])], repeat=1)
    jobs.add("legal_follows", "legal_follows", [(ctx, [c(lead), c(hand)])], repeat=1, arg=64)
    jobs.add("trick_winner", "trick_winner", [(ctx, [c(lead), c(play)])], repeat=1)
    jobs.add("check_throw", "check_throw", [(ctx, [c(Hand("HA HK")), c(hand)])], repeat=1)
    jobs.add("is_tractor", "is_tractor", [(ctx, [c(Hand("HA HA HK HK"))])], repeat=1)
    out = core_only.run(jobs, opt="-O0")
    assert sorted(out) == sorted(["decompose", "check_follow", "legal_follows",
                                  "trick_winner", "check_throw", "is_tractor"])
    assert all(r["n"] == 1 and r["median_us"] > 0 for r in out.values())
