"""Card order of docs/semantics.md §2, built by walking the ranks literally.

Strengths start at 0 for the lowest card of each effective suit; only their order and
adjacency (difference exactly 1) carry meaning, so the C core may use other numbers.
"""

from __future__ import annotations

from shengji.cards import BIG_JOKER, LITTLE_JOKER, NUM_KINDS, kind

TRUMP = 4


def build_order(rules, level: int, trump: int | None) -> tuple[list[int], list[int]]:
    """→ (effective suit per kind, strength per kind)."""
    special = set(rules.constant_ranks) | {level}
    suit = [0] * NUM_KINDS
    strength = [0] * NUM_KINDS

    def plain_ranks(s: int, eff: int) -> int:
        # ranks 2..A upward; a level/constant rank is skipped and, without bridging,
        # still occupies a slot so its neighbours are not adjacent
        v = 0
        for r in range(13):
            if r in special:
                if not rules.tractor_bridges_level_gap:
                    v += 1
                continue
            suit[kind(s, r)] = eff
            strength[kind(s, r)] = v
            v += 1
        return v

    for s in range(4):
        if s != trump:
            plain_ranks(s, s)
    v = plain_ranks(trump, TRUMP) if trump is not None else 0
    # constant ranks (ascending), then the level rank: off-suit copies share one strength,
    # the trump-suit copy is one above them
    for r in sorted(set(rules.constant_ranks) - {level}) + [level]:
        for s in range(4):
            if s != trump:
                suit[kind(s, r)] = TRUMP
                strength[kind(s, r)] = v
        v += 1
        if trump is not None:
            suit[kind(trump, r)] = TRUMP
            strength[kind(trump, r)] = v
            v += 1
    suit[LITTLE_JOKER] = suit[BIG_JOKER] = TRUMP
    strength[LITTLE_JOKER] = v
    strength[BIG_JOKER] = v + 1
    return suit, strength
