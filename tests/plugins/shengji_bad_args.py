"""Broken on purpose: the hookimpl names an argument the hookspec does not have."""

from shengji.hookspecs import hookimpl


@hookimpl
def shengji_score_deal(variant, points):
    return None
