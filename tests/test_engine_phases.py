"""The engine as phases: Game dispatches to the phase in force (engine.game._PHASES), and
each phase's methods live in that phase's module."""

import pytest

from shengji.engine import Game, calling, dealing, exchange, redeal, scoring, tricks
from shengji.engine.game import _PHASES
from shengji.errors import ArgumentError

#: the module that owns each phase's actions
OWNER = {"deal": dealing, "redeal": redeal, "steal": exchange, "bury": exchange,
         "call": calling, "play": tricks, "choose": tricks}


def test_every_phase_is_served_by_its_own_module():
    assert set(_PHASES) == set(OWNER)
    for phase, serves in _PHASES.items():
        for name in (serves.listing, serves.check, serves.perform):
            method = getattr(Game, name)
            assert method.__module__ == OWNER[phase].__name__, (phase, name)


def test_scoring_and_the_next_deal_live_in_scoring():
    assert Game._score.__module__ == scoring.__name__
    assert Game._start_deal.__module__ == dealing.__name__


@pytest.mark.parametrize("bad", [3.5, None, ["two-deck-80"]])
def test_a_variant_that_is_no_variant_is_an_argument_error(bad):
    with pytest.raises(ArgumentError, match="Game: variant must be"):
        Game(bad, 1)


@pytest.mark.parametrize("kw", [{"seed": 1.5}, {"seed": True}, {"max_deals": 0},
                                {"max_deals": "2"}])
def test_bad_seed_or_max_deals_is_an_argument_error(kw):
    with pytest.raises(ArgumentError, match="Game: "):
        Game("two-deck-80", **{"seed": 1, **kw})
