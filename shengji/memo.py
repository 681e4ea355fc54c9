"""Bounded caches for hot look-ups: two generations of plain dicts.

A hit stays one ``dict.get`` on the current generation (an ``OrderedDict``'s is about
twice as slow; evicting a plain dict's oldest key with ``del d[next(iter(d))]`` rescans
the deleted slots before it: ~6 µs an eviction at 4,096 entries, ~100 µs at 65,536).
On a miss the caller looks in the previous generation, then computes, and stores with
:func:`remember`. When the current generation is full it replaces the previous one, so
what is in use survives a rotation and at most ``2 × size`` entries are ever kept.
The two dicts are never replaced (modules bind them once), only refilled.
"""

from __future__ import annotations


def remember(new: dict, old: dict, size: int, key, value):
    """Store ``key → value`` in ``new``; a full ``new`` first becomes ``old``."""
    if len(new) >= size:
        old.clear()
        old.update(new)
        new.clear()
    new[key] = value
    return value
