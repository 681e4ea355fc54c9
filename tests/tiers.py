"""How far a test goes: a bounded size in the default run, the depth under ``--long``.

A test that checks the same thing in both tiers at two sizes (examples of a property
test, deals of a random run) is marked ``scaled`` and reads its size from ``depth``; the
default run keeps it quick, and ``pytest --long`` (which sets ``SHENGJI_LONG=1`` before
any test module is imported) runs it again at depth. ``pytest --long -m long`` (CI's
long run) includes the ``scaled`` tests.
"""

from __future__ import annotations

import os


def long_run() -> bool:
    """True under ``pytest --long`` (or SHENGJI_LONG=1)."""
    return os.environ.get("SHENGJI_LONG") == "1"


def depth(default: int, long: int, env: str | None = None) -> int:
    """``default`` in the default run, ``long`` under --long; ``env``, when set in the
    environment, overrides both (a longer hunt by hand, or the mutation check's size)."""
    if env and os.environ.get(env):
        return int(os.environ[env])
    return long if long_run() else default
