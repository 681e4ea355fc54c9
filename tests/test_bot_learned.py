"""The learned bot (shengji.bots.learned): the shipped checkpoint plays in the arena and
the simulator; only shipped checkpoint names and its own table size are accepted."""

import pytest

from shengji.bots import make_bot
from shengji.errors import ShengjiError
from shengji.harness.arena import arena
from shengji.variants import load_variant

pytest.importorskip("numpy")


def test_learned_bot_plays_in_arena_and_simulate():
    from shengji.harness.simulation import simulate

    s = arena("two-deck-80", ["learned", "random"], boards=2, progress=False)
    assert s["pairs"][0]["deals"] == 4
    simulate("two-deck-80", ["learned", "random", "learned", "random"], deals=2,
             progress=False)
    with pytest.raises(ShengjiError, match="no shipped model"):
        make_bot("learned:model=../../etc/passwd", load_variant("two-deck-80"))
    with pytest.raises(ShengjiError, match="trained for 4 seats"):
        make_bot("learned", load_variant("finding-friends"))
