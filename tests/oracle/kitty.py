"""Kitty multiplier (§8): the largest value over the winning play's components."""

from __future__ import annotations


def component_value(rules, w: int, ln: int) -> int:
    policy = rules.kitty
    if policy == "exponential":
        return min(2 ** (w * ln), rules.kitty_cap)
    if policy == "power":
        return 2 * w**ln
    if policy == "twice_size":
        return 2 * w * ln
    # table: single, pair, triple, quad, tractor of pairs, tractor of triples; §8 does
    # not name a tractor of quads (four decks with tractors on): it takes the
    # tractor-of-triples entry (reported as a gap in the contract)
    single, pair, triple, quad, tractor, titanic = rules.kitty_table
    if ln == 1:  # a rainbow unit of more than four cards counts as a quad
        return {1: single, 2: pair, 3: triple, 4: quad}[min(w, 4)]
    return tractor if w == 2 else titanic


def whole_value(rules, shapes) -> int:
    """kitty_throw ``whole``: the policy's formula read over every component at once."""
    cards = sum(w * ln for w, ln in shapes)
    if rules.kitty == "exponential":
        return min(2**cards, rules.kitty_cap)
    if rules.kitty == "twice_size":
        return 2 * cards
    product = 2  # power: 2 x the product of w^len (two packs: 2^(pairs + 1))
    for w, ln in shapes:
        product *= w**ln
    return product


def kitty_multiplier(ctx, play, lead=None):
    from .rainbow import groups

    rb = groups(ctx, lead if lead is not None else play)
    if rb is not None:  # rainbow units: their cards as the width, length 1
        shapes = [(n, 1) for _, n, _ in rb]
    else:
        _, comps = ctx.lead_components(lead if lead is not None else play)
        shapes = [(w, ln) for w, ln, _ in comps]
    if ctx.rules.kitty_throw == "whole":
        return min(whole_value(ctx.rules, shapes), 2**31 - 1)
    return max(component_value(ctx.rules, w, ln) for w, ln in shapes)
