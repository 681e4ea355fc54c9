"""Dealing and declaring (phase ``deal``): the shuffle, the deal card by card, the
declarations of trump while it runs and right after it (docs/rules.md §7), take-backs
(declare.takeback), redeals of a deal nobody declared, and the trump, dealer and level
the deal is played with. Then the dealer takes the kitty (engine.exchange).

The declaration hooks are pure functions of their arguments: their results are kept in
caches the games of a variant share (``_declaration_caches``).
"""

from __future__ import annotations

import random
import weakref

from ..cards import BIG_JOKER, LITTLE_JOKER, NUM_KINDS, kind, level_name
from ..errors import ShengjiError
from ..model import Bid
from .actions import Declare, Pass, TakeBack, cards_text
from .events import BidTakenBack, CardDealt, DealStarted, Declared, Redealt, TrumpSet, maker
from .legal import Legal
from .phase import (
    DEALING,
    RULE_DECLARE,
    STEALING,
    Phase,
    _core,
    _pass,
    _passed,
    _tables,
)


class Dealing(Phase):
    """The deal and its declarations. State (reset by ``_start_deal``): the deck and how
    far it is dealt, the hands, the bids, who declined which offers, the take-back
    pending, the trump, the deal's level and its core ``Context``."""

    def _start_deal(self, ev: list, attempt: int) -> None:
        self._set_up_deal(ev, attempt)
        self._run_dealing(ev)

    def _set_up_deal(self, ev: list, attempt: int) -> None:
        """Shuffle and set up attempt ``attempt`` of this deal (0, or a redeal's)."""
        self._attempt = attempt
        self.phase = DEALING
        first = self.dealer if self.dealer is not None else 0
        self._first_seat = first
        # the dealer's level is the deal's; a first deal is played at seat 0's (every seat
        # starts at the same level)
        self.level = min(self.levels[first], self._top_level)
        # shuffle(deck, random.Random(that seed)), in C
        deck = list(_core().shuffled(f"{self.seed}:{self.deal_number}:{attempt}",
                                     self._unshuffled))
        if self.deal_order is not None:
            deck = self._ordered_deck(deck, attempt)
        self._deck = deck
        self._n_deal = self.hand_size * self.players
        self._dealt = 0
        self._seat_of_card = _deal_seats(self.players, first, self._n_deal)
        self._final: list[int] | None = None
        self.hands = [[0] * NUM_KINDS for _ in range(self.players)]
        self.hand_len = [0] * self.players
        self._bids: list[Bid] = []
        self._bid_version = 0
        self._set_bid_levels(self._own_level_rule and self.dealer is None)
        self._key_bids()
        self._ask_all_until = 0  # no bids yet: only a declaring card gives a seat options
        self._declined: list = [None] * self.players
        self._offer: tuple = ()
        self._takeback: int | None = None  # seat that may take back its declaration now
        # (seat, final): after it keeps, the seat asked at that moment is asked to declare
        self._then_ask: tuple | None = None
        self._took_back: set = set()       # seats that took one back this deal (once each)
        if attempt == 0:
            self._weak_redeals = 0  # declare.weak_hand_redeal: asked for this deal so far
        self.trump = None
        self.ctx = None  # type: ignore[assignment]  # no Context until the trump is set
        # the later phases' state, fresh for this deal
        self._start_exchange()
        self._start_sides()
        self._start_tricks()
        ev.append(_deal_started(self.deal_number, attempt, self.dealer, self.level,
                                self._levels_tuple(), first))

    def _set_bid_levels(self, own: bool) -> None:
        """The level each seat declares at: the deal's; with declare.own_level, while the
        dealer is not known, each seat's own (80fen 无庄局: each side at its level)."""
        top = self._top_level
        levels = [min(lv, top) for lv in self.levels] if own else [self.level] * self.players
        self._seat_level = levels
        self._seat_kinds = [_declarable(lv)[0] for lv in levels]
        tables = [_declarable(lv)[1] for lv in set(levels)]
        self._declaring = tables[0] if len(tables) == 1 else tuple(
            map(any, zip(*tables, strict=True)))
        self._level_key = tuple(levels) if own else self.level

    def _levels_tuple(self) -> tuple:
        return tuple(self.levels)

    def team_levels(self) -> dict:
        """{team: level}: a team's seats share one level."""
        return dict(zip(self.teams, self.levels, strict=True))

    def _run_dealing(self, ev: list) -> None:
        """Deal (see ``_deal_and_ask``) until a seat is to act or the trump is set. A deal
        nobody declared that is dealt again (seed 002, at most ``declare.redeal_limit``
        times) is dealt again here: a loop, not a call deeper for each redeal."""
        while self._deal_and_ask(ev):
            self._set_up_deal(ev, self._attempt + 1)

    def _deal_and_ask(self, ev: list) -> bool:
        """Deal cards until a seat has a new declaration to consider, then stop; after the
        last card ask every seat in play order, and after each declaration made then every
        other seat again, until all have passed; then settle trump. True when the deal is
        to be dealt again (nobody declared)."""
        deck, hands, hand_len = self._deck, self.hands, self.hand_len
        seats, dealt_events = self._seat_of_card, self._dealt_events
        # a seat's options change only when it gets a declaring card or the standing
        # declaration changes; otherwise it has nothing new to say. After a change each
        # seat is asked at its first card since: the next ``players`` cards go to every
        # seat once, so every card before ``_ask_all_until`` is a moment to ask.
        declaring, ask_all = self._declaring, self._ask_all_until
        append = ev.append
        n = self._n_deal
        # declare.takeback_while_standing: the seat whose declaration stands is asked at
        # each card it gets whether it keeps it (the bids change only by an action)
        holder = self._may_take_back()
        for i in range(self._dealt, n):
            card = deck[i]
            seat = seats[i]
            hands[seat][card] += 1
            hand_len[seat] += 1
            append(dealt_events[seat][card])  # CardDealt(seat, card), a shared record
            if seat == holder:
                self._dealt = i + 1
                self._offer_takeback(seat, False)
                return False
            if declaring[card] or i < ask_all:
                self._dealt = i + 1
                if self._ask(seat, False):
                    return False
        self._dealt = n
        if self._final is None:
            first, players = self._first_seat, self.players
            self._final = [(first + i) % players for i in range(players)]
        while self._final:
            seat = self._final.pop(0)
            if seat == self._may_take_back():
                self._offer_takeback(seat, True)
                return False
            if self._ask(seat, True):
                return False
        return self._finish_dealing(ev)

    def _may_take_back(self) -> int:
        """The seat that may take back its standing declaration whenever it is asked
        (declare.takeback_while_standing, once per seat and deal), else -1."""
        if self._while_standing_rule and self._bids:
            seat = self._bids[-1].seat
            if seat not in self._took_back:
                return seat
        return -1

    def _offer_takeback(self, seat: int, final: bool) -> None:
        """Ask ``seat`` to keep its standing declaration or take it back; when it keeps
        it, it is asked for a declaration as at that moment."""
        self._takeback = seat
        self._then_ask = (seat, final)
        self.to_act = seat

    def _bids_changed(self) -> None:
        """After a declaration is made or taken back."""
        self._bid_version += 1
        self._key_bids()
        # every seat is asked again at its next card (see _run_dealing)
        self._ask_all_until = self._dealt + self.players

    def _key_bids(self) -> None:
        """The deal's level and bids as a key of the declaration caches (Bids hash
        through Python code, these tuples of ints hash in C), and the declarations
        known for them."""
        self._bids_now = bids = tuple(self._bids)
        # the phase is part of the key: a theft round may judge by other rules
        self._bids_key = (self._level_key, self.phase,
                          *[(b.seat, b.cards, b.strength) for b in bids])
        # whether ``seat`` may show n of kind k is a pure function of (level, the deal's
        # bids, seat, k, n): it recurs from ask to ask, and from deal to deal
        self._options = self._declare_cache.setdefault(self._bids_key, {})

    def _ask(self, seat: int, final: bool) -> bool:
        offer = self._offers(seat)
        if not offer:
            return False
        declined = self._declined[seat]
        if (not final and declined is not None and declined[0] == self._bid_version
                and declined[1].issuperset([d.cards for d in offer])):
            return False
        self._offer = offer
        self.to_act = seat
        return True

    def _offers(self, seat: int) -> tuple:
        """The declarations ``seat`` may make now: its level cards and jokers, by kind in
        ``_bid_kinds`` order, then by count."""
        hand, options = self.hands[seat], self._options
        found = []
        for k in self._seat_kinds[seat]:  # (a plain loop: cheaper than any C iteration here)
            m = hand[k]
            if m:
                for n in range(1, m + 1):
                    d = options.get((seat, k, n), False)
                    if d is False:
                        d = self._declare_option(seat, k, n)
                    if d is not None:
                        found.append(d)
        return tuple(found)

    def _declare_option(self, seat: int, k: int, n: int) -> Declare | None:
        """May ``seat`` show ``n`` of kind ``k`` now (the Declare, else None)?"""
        level = self._seat_level[seat]
        cand = self._candidates.get((level, seat, k, n), False)
        if cand is False:
            bid = self._make_bid(seat, (k,) * n)
            # one kind, n copies: already in the order Declare keeps
            cand = self._candidates[(level, seat, k, n)] = \
                None if bid is None else (bid, Declare.trusted(seat, bid.cards))
        d = None
        if cand is not None:
            bids = self._bids_now
            if self.variant._overturns(bids[-1] if bids else None, cand[0], bids,
                                       self.phase):
                d = cand[1]
        self._options[(seat, k, n)] = d
        return d

    def _make_bid(self, seat: int, cards: tuple) -> Bid | None:
        level = self._seat_level[seat]
        key = (seat, cards, level)
        bid = self._bid_cache.get(key, False)
        if bid is False:
            ids = tuple(sorted(cards))
            strength = self._strength_cache.get((cards, level))
            if strength is None:
                strength = self.variant._strength(ids, level)
                self._strength_cache[(cards, level)] = strength
            bid = None
            if strength:
                trump = cards[-1] // 13 if cards[-1] < LITTLE_JOKER else None
                bid = Bid(seat, ids, trump, strength)
            self._bid_cache[key] = bid
        return bid

    def _may_overturn(self, bid: Bid) -> bool:
        key = (self._bids_key, bid.seat, bid.cards, bid.strength)
        ok = self._overturn_cache.get(key)
        if ok is None:
            bids = self._bids_now
            current = bids[-1] if bids else None
            ok = self._overturn_cache[key] = self.variant._overturns(current, bid, bids,
                                                                     self.phase)
        return ok

    def _finish_dealing(self, ev: list) -> bool:
        """Settle the trump and the dealer, then the exchange begins; True instead when
        nobody declared and the deal is dealt again."""
        v = self.variant
        kitty = tuple(self._deck[self._n_deal:])
        turned = None
        if self._bids:
            standing = self._bids[-1]
            trump, declarer = standing.trump, standing.seat
        else:
            out = v.no_declaration(self.deal_number, kitty, self.level, self._attempt)
            # seed 002 redeals a first deal nobody declared; declare.redeal_limit ends a
            # run of redeals whatever the hooks say: then the outcome's trump is played
            if out.redeal and self._attempt < self._redeal_limit:
                ev.append(Redealt(self.deal_number, self._attempt, kitty))
                return True
            trump, declarer, turned = out.trump, None, out.turned_card
        if self.dealer is None:
            dealer = v.first_dealer(tuple(self._bids),
                                    seed=f"{self.seed}:{self.deal_number}:{self._attempt}")
            self.dealer = dealer
            self.level = min(self.levels[dealer], self._top_level)
            self._set_bid_levels(False)
            self._key_bids()  # (a theft's declarations are judged at this level)
        self.trump = trump
        self.ctx = ctx = v._context(self.level, trump)
        self._eff, self._str, self._suit_kinds = _tables(ctx)
        self.dealer_team = self.teams[self.dealer]
        self._seat_sides()
        ev.append(_trump_set(trump, declarer, self.dealer, self.level, turned))
        if not self._start_redeal(kitty, ev):  # a weak hand may ask for a redeal first
            self._take_kitty(kitty, ev)  # the exchange begins
        return False

    def _ordered_deck(self, deck: list, attempt: int) -> list:
        assert self.deal_order is not None  # called only when there is one
        ordered = list(self.deal_order(self.deal_number, attempt, tuple(deck)))
        if sorted(ordered) != sorted(deck):
            raise ShengjiError(f"deal_order returned {len(ordered)} cards that are not an "
                               f"ordering of the {len(deck)} cards of the deck")
        return ordered

    def _declaring_listed(self) -> bool:
        """Is the listing of the seat to act Pass and the declarations offered (kind
        ``declare``)?"""
        return (self.phase == DEALING or self.phase == STEALING) and self._takeback is None

    def _declare_picked(self, seat: int, pick) -> tuple:
        """(action, events) of ``apply(legal[pick(to_deal, len(legal))])`` with ``legal``
        = ``legal_actions(seat)`` when ``_declaring_listed()``: the runner's path for a
        bot that answers declaration listings by index alone (``Bot.declare_index``).
        The same action, events and state, without the listing or a view."""
        offer = self._offer
        i = pick(self._n_deal - self._dealt if self.phase == DEALING else 0, len(offer) + 1)
        # the listing's item (a negative i counts back from its end)
        action = _pass(seat) if i == 0 else (_pass(seat), *offer)[i]
        plan = None if type(action) is Pass else self._make_bid(seat, action.cards)
        return action, self._perform(action, plan)

    def _list_dealing(self, seat: int) -> Legal:
        if self._takeback is not None:
            return Legal("takeback", seat, (Pass(seat), TakeBack(seat)))
        return Legal("declare", seat, (_pass(seat), *self._offer))

    def _check_dealing(self, action) -> Bid | None:
        """The Bid a declaration makes (Pass and TakeBack need no check past the
        dispatcher's)."""
        return self._check_declare(action) if isinstance(action, Declare) else None

    def _perform_dealing(self, action, bid: Bid | None, ev: list) -> None:
        if isinstance(action, Pass):
            then_ask = None
            if self._takeback is not None:  # keeps its declaration
                self._takeback = None
                then_ask, self._then_ask = self._then_ask, None
            else:
                self._decline(action.seat)
            ev.append(_passed(action.seat))
            if then_ask is not None and self._ask(*then_ask):
                return
            self._run_dealing(ev)
        elif isinstance(action, Declare):
            assert bid is not None  # _check_declare made the Declare's Bid
            self._add_bid(bid, ev)
            if self._final is not None:
                # after the last card every other seat may answer the new declaration,
                # also one that passed before (seed 003: the last one shown stands)
                self._final = [(bid.seat + i) % self.players
                               for i in range(1, self.players)]
            if self._takeback_rule and bid.seat not in self._took_back:
                self._takeback = bid.seat  # asked at once: keep it, or take it back
                self._then_ask = None
            else:
                self._run_dealing(ev)
        else:  # TakeBack
            bid = self._bids.pop()
            self._bids_changed()
            self._took_back.add(action.seat)
            self._takeback = self._then_ask = None
            ev.append(BidTakenBack(action.seat, bid.cards))
            if self._final is not None and self._dealt == self._n_deal:
                # after the last card the others answer the bid that stands again (the
                # same seats as after the declaration, when it is taken back at once)
                self._final = [(action.seat + i) % self.players
                               for i in range(1, self.players)]
            self._run_dealing(ev)

    def _decline(self, seat: int) -> None:
        """``seat`` passed on its offers: not asked again until they change."""
        # (the offers' cards: a set of tuples of ints hashes in C)
        self._declined[seat] = (self._bid_version, frozenset([d.cards for d in self._offer]))

    def _add_bid(self, bid: Bid, ev: list) -> None:
        self._bids.append(bid)
        self._bids_changed()
        ev.append(_declared(bid.seat, bid.cards, bid.trump, bid.strength))

    def _check_declare(self, action: Declare) -> Bid:
        seat = action.seat
        if not action.cards:
            self._refuse(f"seat {seat}: a declaration shows at least one card", "empty",
                         RULE_DECLARE)
        self._check_in_hand(action, "declare with", RULE_DECLARE)
        suits = {c // 13 for c in action.cards if c < LITTLE_JOKER}
        if len(suits) > 1 or (suits and any(c >= LITTLE_JOKER for c in action.cards)):
            self._refuse(f"seat {seat}: {cards_text(action.cards)} mixes suits; a declaration "
                         "shows one suit's level cards, or jokers only", "mixed", RULE_DECLARE)
        bid = self._make_bid(seat, action.cards)
        if bid is None:
            self._refuse(f"seat {seat}: {cards_text(action.cards)} cannot declare at level "
                         f"{level_name(self._seat_level[seat])}", "cannot_declare", RULE_DECLARE)
        if not self._may_overturn(bid):
            cur = self._bids[-1]
            self._refuse(f"seat {seat}: {cards_text(action.cards)} may not overturn seat "
                         f"{cur.seat}'s {cards_text(cur.cards)}", "cannot_overturn", RULE_DECLARE)
        return bid



_declared, _deal_started = maker(Declared), maker(DealStarted)
_trump_set = maker(TrumpSet)


#: per-game caches of pure hook results: a copy may share them
_SHARED_CACHES = frozenset({"_strength_cache", "_overturn_cache", "_declare_cache",
                            "_candidates", "_options", "_bid_cache"})
#: the hooks whose results those caches keep
_DECLARATION_HOOKS = ("shengji_declaration_strength", "shengji_may_overturn")
#: the caches start afresh past this many bids states (a simulation plays thousands of
#: deals with one variant; 2,000 deals make about 900 states of some 13 entries)
DECLARE_CACHE_STATES = 2048
_DECLARE_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _declaration_caches(variant) -> tuple:
    """The caches of pure declaration-hook results that the games of ``variant`` share
    (the same states recur from game to game, and simulations make a new Game every few
    deals): kept while the variant's declaration hooks are the same implementations (a
    plugin registered since starts new ones), started afresh when they grow past
    ``DECLARE_CACHE_STATES``."""
    hooks = tuple(h.function for name in _DECLARATION_HOOKS
                  for h in getattr(variant.pm.hook, name).get_hookimpls())
    held = _DECLARE_CACHES.get(variant)
    if held is None or held[0] != hooks or len(held[1][2]) > DECLARE_CACHE_STATES:
        held = _DECLARE_CACHES[variant] = (hooks, ({}, {}, {}, {}, {}))
    return held[1]


def shuffle(deck: list, rng: random.Random) -> None:
    """``rng.shuffle(deck)``, the same permutation from the same draws (CPython's
    Fisher-Yates over ``_randbelow_with_getrandbits``), without two Python calls per
    card; tests hold it equal to ``random.shuffle``. Defining it here also keeps the
    deals of a seed the same whatever Python's own shuffle becomes. A deal's shuffle
    is ``shengji.core.shuffled``, this in C (tests hold the two equal)."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _deal_seats(players: int, first: int, n: int) -> tuple:
    """The seat that gets each of the ``n`` dealt cards, ``first`` getting the first."""
    t = _SEATS.get((players, first, n))
    if t is None:
        t = _SEATS[(players, first, n)] = tuple((first + i) % players for i in range(n))
    return t


def _declarable(level: int) -> tuple:
    """(the kinds that declare at ``level``: its four level cards and the jokers, none
    at the NT level above A (13, played without trump); [kind] -> is it one of them)."""
    t = _DECLARABLE.get(level)
    if t is None:
        kinds = () if level > 12 else (
            tuple(kind(s, level) for s in range(4)) + (LITTLE_JOKER, BIG_JOKER))
        t = _DECLARABLE[level] = (kinds, tuple(k in kinds for k in range(NUM_KINDS)))
    return t


_DECLARABLE: dict = {}
_DEALT: dict = {}
_SEATS: dict = {}


def _dealt(players: int) -> tuple:
    """[seat][card] -> CardDealt(seat, card): events are frozen, so one record per
    (seat, card) serves every deal (dealing makes a hundred of them per deal)."""
    t = _DEALT.get(players)
    if t is None:
        t = _DEALT[players] = tuple(tuple(CardDealt(s, k) for k in range(NUM_KINDS))
                                    for s in range(players))
    return t
