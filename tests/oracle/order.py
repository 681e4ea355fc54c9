"""Card order of docs/semantics.md §2, built by walking the ranks literally.

Strengths start at 0 for the lowest card of each effective suit; only their order and
adjacency (difference exactly 1) carry meaning, so the C core may use other numbers.
"""

from __future__ import annotations

from shengji.cards import BIG_JOKER, LITTLE_JOKER, NUM_KINDS, kind

TRUMP = 4


def build_order(rules, level: int, trump: int | None) -> tuple[list[int], list[int]]:
    """→ (effective suit per kind, strength per kind)."""
    # level 13 (NT above A) has no level cards: no rank is special for it
    level_ranks = [level] if level < 13 else []
    special = set(rules.constant_ranks) | set(level_ranks)
    suit = [0] * NUM_KINDS
    strength = [0] * NUM_KINDS

    def plain_ranks(s: int, eff: int) -> int:
        # ranks 2..A upward; a level/constant rank is skipped and, without bridging,
        # leaves a gap between the plain ranks around it (+2 instead of +1). A skipped
        # rank at either end has no plain neighbour beyond it, so it leaves no gap
        # (read of §2 "each next rank is +1", agreed with the C core).
        v, gap, seen = 0, False, False
        for r in range(13):
            if r in special:
                gap = seen and not rules.tractor_bridges_level_gap
                continue
            v += 1 if gap else 0
            gap, seen = False, True
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
    for r in sorted(set(rules.constant_ranks) - set(level_ranks)) + level_ranks:
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
