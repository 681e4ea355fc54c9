"""A weak hand asks for a redeal (phase ``redeal``, declare.weak_hand_redeal; 80fen
完全造反): once the trump is known and before the dealer takes the kitty, each seat of
the dealer's opponents whose hand is weak — at most ``points`` points, or at most
``trumps`` trumps — is asked in play order after the dealer; the first that asks has the
deal dealt again, with the dealer kept or contested again by the declarations. At most
``limit`` such redeals in one deal; then the deal is played (engine.exchange).
"""

from __future__ import annotations

from operator import mul

from .actions import Pass, RequestRedeal
from .events import RedealAsked
from .legal import Legal
from .phase import REDEALING, Phase, _pass, _passed, _per_seat
from .tricks import _POINTS


class Redealing(Phase):
    """The weak hands' requests. State (reset by ``_start_redeal``): the seats still to
    be asked, the kitty set aside meanwhile."""

    def _weak_seats(self) -> list[int]:
        """The dealer's opponents, in play order after the dealer, whose hand may ask."""
        rule = self._weak_rule
        if rule is None or self._weak_redeals >= rule["limit"]:
            return []
        n, dealer = self.players, self.dealer
        assert dealer is not None  # asked once the trump and the dealer are known
        return [seat for seat in ((dealer + i) % n for i in range(1, n))
                if seat not in self.side and weak_hand(rule, self._eff, self.hands[seat])]

    def _start_redeal(self, kitty: tuple, ev: list) -> bool:
        """Ask the weak hands, if any (True); else the dealer takes the kitty at once."""
        seats = self._weak_seats()
        if not seats:
            return False
        self.phase = REDEALING
        self._redeal_queue = seats
        self._redeal_kitty = kitty
        self.to_act = seats[0]
        return True

    def _list_redeal(self, seat: int) -> Legal:
        return Legal("redeal", seat, (_pass(seat), _request(seat)))

    def _check_redeal(self, action) -> None:
        """Pass or RequestRedeal by the seat asked: the dispatcher checked both."""
        return None

    def _perform_redeal(self, action, plan: None, ev: list) -> None:
        queue = self._redeal_queue
        queue.pop(0)
        if isinstance(action, Pass):
            ev.append(_passed(action.seat))
            if queue:
                self.to_act = queue[0]
                return
            self._take_kitty(self._redeal_kitty, ev)
            return
        assert isinstance(action, RequestRedeal)
        self._weak_redeals += 1
        ev.append(RedealAsked(action.seat, self.deal_number, self._attempt))
        assert self._weak_rule is not None  # a weak-hand request is only offered under the rule
        if self._weak_rule["dealer"] == "contested":
            self.dealer = None  # declared for again, as in a first deal
        self._start_deal(ev, self._attempt + 1)


def weak_hand(rule: dict, eff: list[int], hand: list[int]) -> bool:
    """May a hand of 54 counts ask for a redeal (declare.weak_hand_redeal), ``eff`` the
    deal's effective suit of each kind (4: trumps)? At most ``points`` points, or at
    most ``trumps`` trumps (80fen: 15 points, 3 trumps)."""
    most_points, most_trumps = rule["points"], rule["trumps"]
    if most_points is not None and sum(map(mul, _POINTS, hand)) <= most_points:
        return True
    return most_trumps is not None and sum(c for k, c in enumerate(hand)
                                           if eff[k] == 4) <= most_trumps


#: RequestRedeal(seat), one shared record per seat
_request = _per_seat(RequestRedeal)
