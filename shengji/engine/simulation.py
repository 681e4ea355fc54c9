"""Moved to ``shengji.harness.simulation`` (harnesses seat bots, so they stand above the
engine and the bots: docs/architecture.md "Layers"). This name is kept for old imports:
its attributes are looked up in the new module by name, on first use, so that the
engine imports nothing from a higher layer."""

import importlib


def __getattr__(name: str):
    return getattr(importlib.import_module("shengji.harness.simulation"), name)
