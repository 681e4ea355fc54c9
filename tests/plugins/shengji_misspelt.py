"""Broken on purpose: a misspelt hook name."""

from shengji.hookspecs import hookimpl


@hookimpl
def shengji_scor_deal(variant, attacker_points):
    return None
