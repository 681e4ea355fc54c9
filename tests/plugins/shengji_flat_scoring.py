"""A house rule the scoring table cannot express as rows: half the deal's points decide.

Attackers with at least half of all points (100 per deck) take over and rise one level
per further 20 points per deck, at least one; otherwise the dealers rise one level.
"""

from shengji.hookspecs import hookimpl
from shengji.model import ScoreOutcome


@hookimpl
def shengji_score_deal(variant, attacker_points):
    half = 50 * variant.decks
    if attacker_points >= half:
        extra = (attacker_points - half) // (20 * variant.decks)
        return ScoreOutcome(next="attackers", rise=1 + extra)
    return ScoreOutcome(next="dealers", rise=1)
