"""The engine's cache of core Hands is bounded (issue 12: with 100,000 entries, each
holding a prepared lead, a simulate worker grew to ~118 MB over 30,000 deals)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import shengji.engine.tricks as tricks_mod
from shengji.bots import make_bot
from shengji.engine import Game


def _largest_while_playing(bot: str, seed: int, sizes) -> tuple:
    """Two two-deck deals of ``bot`` at every seat, one action at a time: (the game, the
    largest of ``sizes()`` seen after any action)."""
    game = Game("two-deck-80", seed=seed, max_deals=2)
    bots = [make_bot(bot, game.variant, seed=s) for s in range(game.players)]
    largest = 0
    while not game.over:
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
        largest = max(largest, *sizes())
    return game, largest


def test_hand_cache_stays_within_its_bound(monkeypatch):
    monkeypatch.setattr(tricks_mod, "HAND_CACHE_SIZE", 50)
    monkeypatch.setattr(tricks_mod, "_HAND_CACHE", {})
    monkeypatch.setattr(tricks_mod, "_HAND_CACHE_OLD", {})
    game, largest = _largest_while_playing(
        "random", 11, lambda: (len(tricks_mod._HAND_CACHE), len(tricks_mod._HAND_CACHE_OLD)))
    assert largest == 50  # filled, and never beyond
    # evicting changed nothing: the same seed with the full cache plays the same match
    monkeypatch.setattr(tricks_mod, "HAND_CACHE_SIZE", 4096)
    again = Game.replay("two-deck-80", 11, list(game.actions), max_deals=2)
    assert again.snapshot() == game.snapshot()


RSS_SCRIPT = """
import sys
from shengji.harness.simulation import simulate

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20

simulate("two-deck-80", ["random"] * 4, deals=500, seed=1, progress=False)
before = rss_mb()
simulate("two-deck-80", ["random"] * 4, deals=6000, seed=2, progress=False)
print(before, rss_mb())
"""


@pytest.mark.long
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_simulate_worker_memory_stays_flat():
    """6,000 deals after a 500-deal warm-up: the unbounded cache grew ~1.2 kB per new
    play (about 25 MB here); bounded, the worker stays within a few MB."""
    out = subprocess.run([sys.executable, "-c", RSS_SCRIPT], capture_output=True, text=True,
                         check=True, timeout=1800).stdout
    before, after = map(float, out.split())
    assert after - before < 12, f"resident memory grew from {before:.1f} to {after:.1f} MB"


def test_core_and_heuristic_caches_stay_within_their_bounds(monkeypatch):
    """The module caches of ``Hand.ids_desc`` and of the heuristic bot (a deal needs a
    few hundred entries; they used to grow to 65,536 and 50,000, ~20 and ~60 MB) keep
    two generations of their size, and shrinking them changes no decision."""
    import shengji.bots.cardsense as heur
    import shengji.core.hands as core

    def match():
        return _largest_while_playing(
            "heuristic", 5,
            lambda: (len(core._IDS_DESC), len(core._IDS_OLD), len(core._IDS_DISPLAY),
                     len(core._IDS_DISPLAY_OLD), len(heur._HANDS), len(heur._HANDS_OLD),
                     len(heur._CARDS), len(heur._CARDS_OLD),
                     *(len(e[1]) for e in heur._DECOMPOSED.values())))

    full, _ = match()
    for module, name in ((core, "IDS_DESC_SIZE"), (heur, "HANDS_SIZE"),
                         (heur, "DECOMPOSED_SIZE")):
        monkeypatch.setattr(module, name, 20)
    for module, name in ((core, "_IDS_DESC"), (core, "_IDS_OLD"), (core, "_IDS_DISPLAY"),
                         (core, "_IDS_DISPLAY_OLD"), (heur, "_HANDS"),
                         (heur, "_HANDS_OLD"), (heur, "_CARDS"), (heur, "_CARDS_OLD"),
                         (heur, "_DECOMPOSED")):
        monkeypatch.setattr(module, name, {})
    small, largest = match()
    assert largest == 20  # filled, and never beyond
    assert small.actions == full.actions and small.snapshot() == full.snapshot()
