"""The sides and finding friends (找朋友, phase ``call``): who plays on the dealer's
side. With fixed teams the dealer's team; with finding friends the dealer alone until
the called cards are played: after the burial the dealer calls (docs/variants.md
``friends``), and each play of a called copy may make its player a friend
(``shengji.friends.FriendTracker`` keeps the count). What happens when a call is
fulfilled is ``_count_friends``.
"""

from __future__ import annotations

from ..friends import FriendTracker, allowed_calls, calls_problem, calls_text
from .actions import CallFriends
from .events import Event, FriendJoined, FriendsCalled
from .legal import Legal
from .phase import CALLING, PLAYING, RULE_CALL, Phase


class Calling(Phase):
    """The sides of the deal. State (reset by ``_start_sides``): ``side`` (the dealer's
    side, dealer first; public), ``sides_known``, the calls made and who fulfilled them,
    and the friend tracker."""

    def _start_sides(self) -> None:
        self.side = ()
        self.sides_known = self.friend_rules is None
        self.calls = ()
        self.joined = ()
        self._friends = None

    def _seat_sides(self) -> None:
        """The sides as the deal begins, once the dealer is known."""
        # the dealer first, then the teammates in play order
        n, d = self.players, self.dealer
        assert d is not None  # called once the dealer is known
        order = [(d + i) % n for i in range(n)]
        if self.friend_rules is None:
            self.side = tuple(s for s in order if self.teams[s] == self.dealer_team)
        else:  # finding friends: the dealer alone until a called card is played
            self.side = (d,)

    def _start_play(self) -> None:
        """After the exchange: the dealer calls friends (if the variant has calls), then
        leads the first trick."""
        if self.friend_rules is not None and self._friends is None:
            assert self.dealer is not None  # after the exchange: the dealer is known
            if self.friend_rules.calls:
                self.phase = CALLING  # the dealer calls friends once the kitty is buried
                self.to_act = self.dealer
                return
            self._friends = FriendTracker((), self.dealer, self.friend_rules)
            self.sides_known = True
        self.phase = PLAYING
        self.leader = self.to_act = self.dealer

    def _list_call(self, seat: int) -> Legal:
        # every single call allowed; the dealer makes ``count`` distinct ones at once
        rules = self.friend_rules
        assert rules is not None  # the call phase exists in finding friends only
        singles = allowed_calls(rules, self.ctx, self.composition.counts, self.level,
                                self.hands[seat])
        return Legal("call", seat, tuple(CallFriends(seat, (c,)) for c in singles),
                     count=rules.calls)

    def _check_call(self, action: CallFriends) -> None:
        assert self.friend_rules is not None  # the call phase: finding friends only
        problem = calls_problem(action.calls, self.friend_rules, self.ctx,
                                self.composition.counts, self.level, self.hands[action.seat])
        if problem:
            self._refuse(f"seat {action.seat} cannot call {', '.join(calls_text(action.calls))}"
                         f": {problem}", "bad_call", RULE_CALL)

    def _perform_call(self, action: CallFriends, plan: None, ev: list[Event]) -> None:
        self.calls = action.calls
        assert self.dealer is not None and self.friend_rules is not None  # (the call phase)
        self._friends = FriendTracker(action.calls, self.dealer, self.friend_rules)
        ev.append(FriendsCalled(action.seat, action.calls))
        if self._calls_first and self._theft_rule and self._bids:
            assert self._burier is not None  # the calls follow the dealer's first burial
            self._begin_theft(self._burier, ev)  # friends.calls_before_theft
            return
        self._start_play()

    def _count_friends(self, seat: int, cards: tuple[int, ...], ev: list[Event]) -> None:
        """A play of called copies: who joins (public from now on)."""
        f = self._friends
        assert f is not None  # asked only once the calls are made
        joins = f.play(seat, cards)
        if not joins:
            return
        for who, call, card, already in joins:
            ev.append(FriendJoined(who, call, card, already))
        self.side = tuple(f.side)
        self.joined = tuple(f.joined)
        self.sides_known = f.resolved
        self._tally_sides()  # the points a friend won before joining now count for its side

    def _tally_sides(self) -> None:
        """The attackers' trick points and the net failed-throw penalty by the sides as
        they stand (a friend's earlier tricks count for the dealer's side)."""
        side, captured, penalties = self.side, self.captured, self.penalties
        self.trick_points = sum(captured) - sum([captured[s] for s in side])
        self.penalty = 2 * sum([penalties[s] for s in side]) - sum(penalties)
