"""A scoring table that gives an impossible result: once the attackers reach 120 points
it reports a *negative* rise (levels only rise, docs/rules.md §8)."""

from shengji.hookspecs import hookimpl
from shengji.model import ScoreOutcome


@hookimpl
def shengji_score_deal(variant, attacker_points):
    if attacker_points >= 120:
        return ScoreOutcome("attackers", -1)
    return None  # below 120 the variant's own table answers
