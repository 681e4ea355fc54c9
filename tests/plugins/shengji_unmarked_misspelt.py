"""Broken on purpose: a misspelt hook without the @hookimpl marker (still caught)."""


def shengji_next_dealr(variant, dealer, outcome, players):
    return 0
