"""Reinforcement-learning environments on the engine (the ``rl`` extra).

    from shengji.env import env           # PettingZoo AEC environment (docs/rl.md)
    e = env("two-deck-80")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        ...
        e.step(action)                    # an action id allowed by obs["action_mask"]

    import shengji.env.openspiel          # registers the OpenSpiel game "shengji"

Modules: ``building`` (the card-by-card action encoding, shared by both),
``observation`` (the seat's view as one flat vector with named pieces), ``aec`` (the
PettingZoo environment; ``ordering``: PettingZoo's order checks it makes itself for
``env()``), ``openspiel`` (the OpenSpiel game). Only ``aec`` needs
PettingZoo and only ``openspiel`` needs OpenSpiel; both need numpy.
"""

from __future__ import annotations

from typing import Any

_LAZY = {"ShengjiEnv": "aec", "env": "aec", "raw_env": "aec"}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'shengji.env' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{mod}"), name)


__all__ = ["ShengjiEnv", "env", "raw_env"]
