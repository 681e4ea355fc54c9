"""Scoring and the next deal: the attackers' points with the kitty's bonus (抠底) and
failed-throw penalties, the variant's outcome (who rises, how far; docs/rules.md §9),
the levels, the match's winner, and the next deal's dealer. Then dealing starts again
(engine.dealing), or the match is over.
"""

from __future__ import annotations

from operator import mul

from .events import DealScored, Event, MatchOver, maker
from .phase import OVER, Phase, _cards_desc
from .tricks import _POINTS


class Scoring(Phase):
    """The end of a deal. State of the match (kept across deals): every seat's level,
    the deals played, the winner."""

    def _score(self, ev: list[Event], last_winner: int, winning: tuple[int, ...],
               lead: tuple[int, ...]) -> None:
        v = self.variant
        side = self.side
        self._tally_sides()
        kitty_points = sum(map(mul, _POINTS, self.buried))
        multiplier = bonus = 0
        if last_winner not in side:  # 抠底: the attackers took the kitty
            multiplier = int(v._kitty_multiplier(self.ctx, self._hand_obj(winning),
                                                  self._hand_obj(lead)))
            bonus = kitty_points * multiplier
        total = self.trick_points + bonus + self.penalty
        if not (v.settings.get("scoring") or {}).get("below_zero"):
            total = max(0, total)  # scoring.below_zero: shengji.io scores totals under 0
        rules = self.friend_rules
        outcome = v._score(total, rules is not None and bool(rules.short_handed(side)))
        self.sides_known = True  # the deal is over: every side is public
        assert self.dealer is not None  # a deal was played: its dealer is known
        next_dealer = self._seat_from_hook(v._next_dealer(self.dealer, outcome, side),
                                           "shengji_next_dealer")
        if outcome.next == "dealers":
            rising = side
        else:  # every attacker rises (with two teams: the other team)
            rising = tuple(s for s in range(self.players) if s not in side)
        if v._back_to_start(self.level, winning, last_winner not in side):
            for s in side:  # the jack rule: back to the start level, then this deal's rise
                self.levels[s] = self._start_levels[s]
        if outcome.rise:
            for s in rising:
                self.levels[s] = v.advance(self.levels[s], outcome.rise, s in side,
                                           self.level)
        self.deals_played += 1
        ev.append(_deal_scored(
            self.deal_number, self.dealer, self.trick_points, _cards_desc(self.buried),
            kitty_points, multiplier, bonus, self.penalty, total, outcome.next,
            outcome.rise, rising, self._levels_tuple(), next_dealer, side))
        winner = v._match_winner(self.team_levels(), outcome, self.dealer_team, side)
        if winner is not None:
            self.winner = winner
            ev.append(MatchOver(winner, self._levels_tuple(), self.deals_played))
        if winner is not None or (self.max_deals is not None
                                  and self.deals_played >= self.max_deals):
            self.phase = OVER
            self.to_act = None
            return
        self.dealer = next_dealer
        self.deal_number += 1
        self._start_deal(ev, attempt=0)


_deal_scored = maker(DealScored)
