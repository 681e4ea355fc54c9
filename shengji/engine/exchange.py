"""The exchange (phases ``bury`` and ``steal``): the dealer takes the kitty and buries
as many cards (docs/rules.md §8); with kitty theft (炒地皮, declare.kitty_theft) every
other seat in turn may then overturn the declaration, take the buried cards and bury in
its turn (with declare.theft_burier_bids the seat that buried is asked first: a
reinforcement of its own stands, another trump takes the kitty back). Then the dealer
calls friends (engine.calling) or leads (engine.tricks).
"""

from __future__ import annotations

from ..cards import NUM_KINDS, point_value
from ..model import Bid
from .actions import Bury, Declare, Pass, cards_text
from .events import Buried, KittyTaken, TrumpSet, maker
from .legal import Legal
from .phase import (
    BURYING,
    CALLING,
    RULE_BURY,
    RULE_BURY_LIMIT,
    STEALING,
    Phase,
    _cards_desc,
    _pass,
    _passed,
    _tables,
)


class Exchange(Phase):
    """The kitty's burial and its theft. State (reset by ``_start_exchange``): the kitty
    as taken, the cards buried (counts), the seats still to be asked in a theft round."""

    def _start_exchange(self) -> None:
        self.kitty: tuple = ()
        self.buried = [0] * NUM_KINDS
        self._steal_queue: list = []  # seats still to be asked in a theft round
        self._burier: int | None = None  # the seat that buried last

    def _take_kitty(self, kitty: tuple, ev: list) -> None:
        """The dealer takes the kitty dealt aside, and buries next."""
        self.kitty = kitty
        dealer = self.dealer
        assert dealer is not None  # the trump is set: the dealer is known
        ev.append(_kitty_taken(dealer, tuple(sorted(kitty, reverse=True))))
        hand = self.hands[dealer]
        for c in kitty:
            hand[c] += 1
        self.hand_len[dealer] += len(kitty)
        self.phase = BURYING
        self.to_act = self.dealer

    # ---------------------------------------------------------------------- burying

    def _list_bury(self, seat: int) -> Legal:
        legal = Legal("bury", seat, (), count=self.kitty_size)
        legal.limit = self._bury_limit(seat)
        return legal

    def _bury_limit(self, seat: int) -> tuple[tuple[int, ...], int] | None:
        """The bury settings for ``seat`` now (see ``bury_limit``)."""
        called = () if seat == self.dealer else tuple(card for _, card in self.calls)
        return bury_limit(self._bury_rule, self._eff, self.hands[seat], self.kitty_size,
                          called)

    def _check_bury(self, action: Bury) -> None:
        self._check_in_hand(action, "bury", RULE_BURY)
        if len(action.cards) != self.kitty_size:
            self._refuse(f"seat {action.seat} must bury exactly {self.kitty_size} cards, "
                         f"not {len(action.cards)}", "wrong_count", RULE_BURY)
        limit = self._bury_limit(action.seat)
        if limit is not None:
            kinds, most = limit
            held = [c for c in action.cards if c in kinds]
            if len(held) > most:
                self._refuse(f"seat {action.seat} cannot bury {cards_text(held)}: at most "
                             f"{most} of {cards_text(kinds)}", "restricted_burial",
                             RULE_BURY_LIMIT)

    def _perform_bury(self, action: Bury, plan: None, ev: list) -> None:
        hand = self.hands[action.seat]
        for c in action.cards:
            hand[c] -= 1
            self.buried[c] += 1
        self.hand_len[action.seat] -= len(action.cards)
        self._seat_hands[action.seat] = None
        ev.append(_buried(action.seat, action.cards))
        self._burier = action.seat  # it alone has seen the kitty (play.throw_check)
        if (self._calls_first and self._friends is None and self.friend_rules is not None
                and self.friend_rules.calls):
            # friends.calls_before_theft (Ran's table): the dealer calls, then the theft
            self.phase = CALLING
            self.to_act = self.dealer
            return
        if self._theft_rule and self._bids:
            self._begin_theft(action.seat, ev)
            return
        self._start_play()

    def _begin_theft(self, burier: int, ev: list) -> None:
        """炒地皮: every other seat, in play order after the one who buried, may overturn
        and take the kitty (not after a trump nobody declared: shengji.io allows no theft
        of an automatic bid)."""
        self.phase = STEALING
        self._key_bids()  # a theft round's declarations: declare.theft may differ
        self._burier = burier
        self._steal_queue = [(burier + i) % self.players for i in range(1, self.players)]
        if self._theft_burier_rule:
            # declare.theft_burier_bids: the seat that just buried is asked first
            # (shengji.io test_kitty_stealing_bid_sequence: the landlord reinforces
            # after finalizing its exchange)
            self._steal_queue.insert(0, burier)
        self._run_stealing(ev)

    # ---------------------------------------------------------------- kitty theft

    def _list_stealing(self, seat: int) -> Legal:
        """Pass, or a declaration that overturns the standing one (offered as while
        dealing)."""
        return Legal("declare", seat, (_pass(seat), *self._offer))

    def _check_stealing(self, action) -> Bid | None:
        return self._check_declare(action) if isinstance(action, Declare) else None

    def _perform_stealing(self, action, bid: Bid | None, ev: list) -> None:
        if isinstance(action, Pass):
            self._decline(action.seat)
            ev.append(_passed(action.seat))
            self._run_stealing(ev)
        elif bid is None:
            raise AssertionError("a declaration is checked before it is performed")
        elif action.seat == self._burier and bid.trump == self.trump:
            # the burier's own declaration keeping the trump (a reinforcement) stands
            # without taking the kitty again; the other seats are asked next
            self._add_bid(bid, ev)
            self._run_stealing(ev)
        else:  # a Declare: it overturns the standing declaration
            assert bid is not None  # _check_declare made the Declare's Bid
            self._add_bid(bid, ev)
            self._steal(bid, ev)

    def _run_stealing(self, ev: list) -> None:
        """Ask the next seat that holds a declaration the rules accept now; when every
        other seat has passed, the dealer leads."""
        while self._steal_queue:
            seat = self._steal_queue.pop(0)
            offer = self._offers(seat)
            if offer:
                self._offer = offer
                self.to_act = seat
                return
        self._start_play()

    def _steal(self, bid: Bid, ev: list) -> None:
        """The declaration stands: its suit is trump, and its seat takes the buried kitty
        and buries as many cards. The dealer, and so the sides, do not change."""
        seat, v = bid.seat, self.variant
        self.trump = bid.trump
        self.ctx = ctx = v._context(self.level, bid.trump)
        self._eff, self._str, self._suit_kinds = _tables(ctx)
        self.kitty = _cards_desc(self.buried)
        assert self.dealer is not None  # a burial was made: the dealer is known
        ev.append(TrumpSet(bid.trump, seat, self.dealer, self.level, None))
        ev.append(KittyTaken(seat, self.kitty))
        hand = self.hands[seat]
        for c in self.kitty:
            hand[c] += 1
        self.buried = [0] * NUM_KINDS
        self.hand_len[seat] += len(self.kitty)
        self._seat_hands[seat] = None
        self.phase = BURYING
        self.to_act = seat


def bury_limit(rule: dict, eff: list[int], hand: list[int], kitty_size: int,
               called: tuple[int, ...]) -> tuple[tuple[int, ...], int] | None:
    """What the kitty may hold (variant key ``bury``) for a hand of 54 counts, ``eff``
    the deal's effective suit of each kind (4: trumps) and ``called`` the cards called
    when the seat burying is not the dealer: (the kinds restricted, the most of them it
    may bury — as many as its other cards cannot make up), or None when nothing is."""
    kinds: set[int] = set()
    if not rule["points"]:
        kinds.update(k for k in range(NUM_KINDS) if _POINTS[k])
    if not rule["trumps"]:
        kinds.update(k for k in range(NUM_KINDS) if eff[k] == 4)
    if not rule["called_cards"]:
        kinds.update(called)  # Ran's 炒地皮: a thief may not bury a called card
    if not kinds:
        return None
    others = sum(n for k, n in enumerate(hand) if k not in kinds)
    return tuple(sorted(kinds, reverse=True)), max(0, kitty_size - others)


_kitty_taken, _buried = maker(KittyTaken), maker(Buried)
_POINTS = [point_value(k) for k in range(NUM_KINDS)]
