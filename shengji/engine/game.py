"""The match state machine: deal (with declarations) → kitty → tricks → score → next deal.

One ``Game`` is a whole match of one variant from one seed. It advances on its own
through everything that needs no decision (shuffling, dealing cards, resolving tricks,
scoring) and stops whenever a seat must act; ``to_act`` names that seat and
``legal_actions(seat)`` lists what it may do. Every action is checked first
(``verify`` raises, ``can`` answers yes/no) and only then applied — except one read from
the listing the game made for its present state, which is legal by construction;
``apply`` returns the frozen events it caused, and ``events`` is the whole history.

Rules come only from the variant (its settings and hooks) and the core; the engine has
no knowledge of any variant by name. Seats are 0..players-1 in play order.
"""

from __future__ import annotations

import os
import random
import weakref
from collections.abc import Iterable
from itertools import chain, compress, repeat
from operator import mul

from ..cards import BIG_JOKER, LITTLE_JOKER, NUM_KINDS, card_str, kind, level_name, point_value
from ..deck import deal_error
from ..errors import ArgumentError, HandError, ShengjiError, VariantError, check_int
from ..friends import FriendTracker, allowed_calls, calls_problem, calls_text
from ..memo import remember
from ..model import Bid
from .actions import (
    Action,
    Bury,
    CallFriends,
    ChooseForced,
    Declare,
    Pass,
    Play,
    TakeBack,
    cards_text,
    norm_cards,
)
from .errors import IllegalAction, IllegalPlayAction
from .events import (
    BidTakenBack,
    Buried,
    CardDealt,
    DealScored,
    DealStarted,
    Declared,
    ForcedChosen,
    FriendJoined,
    FriendsCalled,
    KittyTaken,
    MatchOver,
    Passed,
    Played,
    Redealt,
    ThrowFailed,
    TrickWon,
    TrumpSet,
    maker,
)
from .legal import _SINGLE_PLAYS, FillerFollows, Legal, _single_play

#: phases of the state machine
DEALING, BURYING, PLAYING, CHOOSING, OVER = "deal", "bury", "play", "choose", "over"
#: finding friends (找朋友): after burying, the dealer calls cards
CALLING = "call"
#: kitty theft (炒地皮, declare.kitty_theft): after a burial the other seats may overturn
STEALING = "steal"

RULE_DECLARE = "docs/rules.md §7 (declaring trump while dealing, seed 000 亮牌規則)"
RULE_BURY = "docs/rules.md §8 (the dealer buries as many cards as the kitty held)"
RULE_LEAD = "docs/rules.md §4 (leading and throws, seed 000 出牌規則)"
RULE_FOLLOW = "docs/rules.md §5 (following suit and shape, seed 000 出牌規則)"
RULE_TURN = "docs/rules.md §4 (play order: the trick's leader, then each next seat)"
RULE_CHOOSE = "docs/rules.md §4 (failed throw: the next player chooses the forced play, seed 002)"
RULE_CALL = "docs/variants.md friends (finding friends: the dealer's calls after burying)"
RULE_TAKEBACK = "docs/variants.md declare.takeback (right after declaring, keep it or take it back)"


def _ids(cards) -> tuple[int, ...]:
    """Kind ids of whatever a hook returned (a core Hand, ids or tokens)."""
    if hasattr(cards, "cards") and callable(cards.cards):
        cards = cards.cards()
    return norm_cards(tuple(cards) if not isinstance(cards, str) else cards)


def _count(cards: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


class Game:
    """A match of one variant, from one seed.

    ``Game(variant, seed)``: ``variant`` is a loaded ``Variant`` or a name/path for
    ``shengji.variants.load_variant``; ``seed`` an int or str. ``max_deals`` stops the
    match (phase ``over``, ``winner`` None) after that many deals have been scored.
    ``deal_order(deal_number, attempt, deck)``, when given, returns the order in which
    ``deck`` (the seeded shuffle, a tuple of kind ids) is dealt: a permutation of it.
    It lets a chance player outside the engine choose the cards (the OpenSpiel game);
    it must be picklable for the game to pickle.
    """

    def __init__(self, variant, seed: int | str = 0, *, max_deals: int | None = None,
                 deal_order=None):
        from ..variants import Variant, load_variant  # late: variants import the core

        _check_game_args(seed, max_deals)
        if isinstance(variant, (str, os.PathLike)):
            self.variant_ref = str(variant)
            variant = load_variant(variant)
        elif isinstance(variant, Variant):
            self.variant_ref = _variant_ref(variant)
        else:
            raise ShengjiError(f"Game: variant must be a Variant, a variant name or a YAML path, "
                               f"got {type(variant).__name__} {variant!r:.40}")
        self.variant = v = variant
        self.seed = seed
        self.max_deals = max_deals
        self.deal_order = deal_order
        self.players = v.players
        self.teams = tuple(v.teams)
        if len(self.teams) != self.players:
            raise VariantError(f"variant {v.name}: teams lists {len(self.teams)} seats "
                               f"but the variant has {self.players} players")
        self.decks = v.decks
        self.composition = v.composition
        self.hand_size = v.hand_size
        self.kitty_size = v.kitty_size
        problem = deal_error(self.players, self.hand_size, self.kitty_size, self.composition)
        if problem:
            raise VariantError(f"variant {v.name}: {problem}")
        self.rules = v.play_rules
        self._unshuffled = bytes(self.composition.cards())  # shuffled for each deal
        self._dealt_events = _dealt(self.players)
        for s in range(self.players):
            _single_play(s, 0)  # the seats' shared single Plays exist from now on
        declare = v.settings["declare"]
        self._redeal_limit = declare["redeal_limit"]
        self._takeback_rule = declare["takeback"]
        self._theft_rule = declare["kitty_theft"]
        #: the highest level a deal is played at (A, or NT above it: docs/variants.md)
        self._top_level = v.top_level
        #: table options that hide facts from the seat views (docs/variants.md `table:`)
        self.table_rules = v.settings["table"]
        self.team_ids = tuple(dict.fromkeys(self.teams))
        #: level of every seat (a team's seats always share theirs: they rise together)
        self._start_level = v.start_level()
        self.levels = [self._start_level] * self.players
        # the declaration hooks are pure functions of their arguments: their results are
        # kept, shared by the variant's games (_declaration_caches):
        # (cards, level) -> strength; (bids key, seat, cards, strength) -> may overturn;
        # bids key -> {(seat, kind, n): Declare | None}; (level, seat, kind, n) ->
        # (Bid, Declare) | None; (seat, cards, level) -> Bid | None (all frozen records)
        (self._strength_cache, self._overturn_cache, self._declare_cache, self._candidates,
         self._bid_cache) = _declaration_caches(v)
        self.actions: list[Action] = []
        self.events: list = []
        self.deal_number = 0
        self.deals_played = 0
        self.dealer: int | None = None  # decided by the declarations in the first deal
        #: seats on the dealer's side this deal, dealer first (the dealer's team); public
        self.side: tuple = ()
        #: is every seat's side public? (always, with fixed teams)
        self.sides_known = True
        #: finding friends: the rules of the calls (None: fixed teams)
        self.friend_rules = v.friend_rules
        #: this deal's calls ((ordinal, card), ...) and who fulfilled them ((seat, call), ...)
        self.calls: tuple = ()
        self.joined: tuple = ()
        self._friends: FriendTracker | None = None
        self.winner = None
        self.phase = DEALING
        self.to_act: int | None = None
        self._stamp = 0      # changes with every applied action
        self._legal = None   # the Legal last listed for the seat to act
        self._start_deal(self.events, attempt=0)

    # ------------------------------------------------------------------ public API

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int | None = None, *, limit: int | None = None) -> Legal:
        """What ``seat`` (default: the seat to act) may do now. See ``engine.legal``.
        ``limit`` bounds the follows listed from the core (default ``FOLLOW_LIMIT``);
        ``Legal.total`` is the true count either way."""
        to_act = self.to_act
        if seat is None:
            seat = to_act
        if seat != to_act or self.phase == OVER:
            if seat is not None:  # a seat that is not to act has nothing to do; no seat 99
                self._seat_arg(seat)
            return Legal("none", seat, ())
        trick = self._trick
        if self.phase == PLAYING and trick and len(trick[0][1]) == 1:
            # a single led (the commonest decision)
            legal = Legal("follow", seat, self._single_follows(seat, trick), None, 1,
                          self._stamp)  # kind ids: singles
        else:
            legal = self._listed(seat, limit)
            if legal.kind != "call":  # the calls listed are parts of a call, not calls
                legal._stamp = self._stamp
        # what is read from this listing is known legal while the state stays as it is
        # (apply compares the stamp): those actions are not checked again
        self._legal = legal
        return legal

    def _single_follows(self, seat: int, trick) -> list:
        """The kinds ``seat`` may follow a single lead with: those of the led suit it holds,
        else any it holds (kind ids, in id order)."""
        hand = self.hands[seat]
        kinds = self._suit_kinds[self._eff[trick[0][1][0]]]
        return list(compress(kinds, map(hand.__getitem__, kinds))) or list(
            compress(_KINDS, hand))

    def _play_picked(self, seat: int, pick) -> tuple:
        """(action, events) of ``apply(legal[pick(len(legal))])`` with ``legal`` =
        ``legal_actions(seat)``, for the seat to act in the play phase: the runner's path
        for a bot that chooses its plays by index alone (``Bot.play_index``). A follow of
        a single lead is made without the listing's objects: the same action (the shared
        Play of that card), events and state."""
        trick = self._trick
        if trick and len(trick[0][1]) == 1:
            kinds = self._single_follows(seat, trick)
            action = _SINGLE_PLAYS[seat][kinds[pick(len(kinds))]]  # made by __init__
            self._stamp += 1
            self._legal = None
            self.actions.append(action)
            ev: list = []
            self._play_cards(seat, action.cards, ev)
            self.events.extend(ev)
            return action, ev
        if not trick:  # a lead: the listing's cards, and the plan apply would make
            items = self.ctx._listed_leads(bytes(self.hands[seat]), self.rules.throws)
            cards = items.ids_at(pick(len(items)))
            action = Play.trusted(seat, cards)
            return action, self._perform(action, self._play_plan(seat, cards))
        legal = self._listed(seat, None)
        action = legal[pick(len(legal))]
        return action, self._perform(action, None)  # a listed follow needs no plan

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

    def _listed(self, seat: int, limit: int | None) -> Legal:
        if self.phase == DEALING or self.phase == STEALING:
            if self._takeback is not None:
                return Legal("takeback", seat, (Pass(seat), TakeBack(seat)))
            return Legal("declare", seat, (_pass(seat), *self._offer))
        if self.phase == BURYING:
            return Legal("bury", seat, (), count=self.kitty_size)
        if self.phase == CALLING:
            # every single call allowed; the dealer makes ``count`` distinct ones at once
            singles = allowed_calls(self.friend_rules, self.ctx, self.composition.counts,
                                    self.level)
            return Legal("call", seat, tuple(CallFriends(seat, (c,)) for c in singles),
                         count=self.friend_rules.calls)
        if self.phase == CHOOSING:
            n = len(self._choice[1])
            return Legal("choose", seat, tuple(ChooseForced(seat, i) for i in range(n)))
        if not self._trick:
            # lead_structures' listing, made in C (tests hold the two equal)
            return Legal("lead", seat, self.ctx._listed_leads(bytes(self.hands[seat]),
                                                              self.rules.throws))
        lead = self._trick[0][1]
        n = len(lead)
        hand, eff = self.hands[seat], self._eff
        suit = eff[lead[0]]
        in_suit = [k for k in self._suit_kinds[suit] if hand[k]]
        # shortcuts where semantics §4 leaves no shape to judge: a single led (in
        # legal_actions), or a hand with no more cards of the led suit than were led
        # (tests hold them to the core's enumeration)
        held = sum(hand[k] for k in in_suit)
        # (bombs: any_suit lets a bomb of another suit follow too, and a rainbow lead has
        # no suit to follow: the core lists those)
        if held <= n and not (self.rules.bombs == "any_suit" and n >= 4
                              and any(c >= n for c in hand)) and not self._rainbow_led():
            base = tuple(k for k in in_suit for _ in range(hand[k]))  # by id, descending
            if held == n:
                return Legal("follow", seat, [base], count=n)
            pool = [0 if eff[k] == suit else c for k, c in enumerate(hand)]
            return Legal("follow", seat, FillerFollows(base, pool, n - held), count=n)
        res = self.ctx.legal_follows(self._trick_hands[0], self._hand_of(seat),
                                     limit=FOLLOW_LIMIT if limit is None else limit)
        return Legal("follow", seat, res.plays, total=res.total, count=n)

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` (``IllegalPlayAction`` for plays) naming the rule if
        ``action`` is not allowed now. Never changes the state."""
        self._check(action)

    def apply(self, action: Action) -> list:
        """Verify, then perform ``action``; return the events it caused (also appended to
        ``events``). The game then runs on to the next decision. An action read from
        the ``Legal`` this state listed is known legal and is not checked again."""
        legal = self._legal
        # (``legal`` is the default of get: a missing id must not match ``apply(None)``)
        if legal is not None and legal._stamp == self._stamp \
                and legal._given.get(id(action), legal) is action:
            plan = self._plan(action)
        else:
            plan = self._check(action)
        return self._perform(action, plan)

    def _perform(self, action: Action, plan) -> list:
        """Apply an action known legal (``plan``: what ``_check`` returned for it)."""
        self._stamp += 1
        self._legal = None
        ev: list = []
        self.actions.append(action)
        if type(action) is Play:
            if plan is None:  # a follow the game listed
                self._play_cards(action.seat, action.cards, ev)
            else:
                self._do_play(action, plan, ev)
        elif isinstance(action, Pass):
            if self._takeback is not None:  # keeps the declaration just made
                self._takeback = None
            else:
                # (the offers' cards: a set of tuples of ints hashes in C)
                self._declined[action.seat] = (self._bid_version,
                                               frozenset([d.cards for d in self._offer]))
            ev.append(_passed(action.seat))
            self._run_stealing(ev) if self.phase == STEALING else self._run_dealing(ev)
        elif isinstance(action, Declare):
            bid = plan
            self._bids.append(bid)
            self._bids_changed()
            ev.append(_declared(bid.seat, bid.cards, bid.trump, bid.strength))
            if self.phase == STEALING:
                self._steal(bid, ev)
            else:
                if self._final is not None:
                    # after the last card every other seat may answer the new declaration,
                    # also one that passed before (seed 003: the last one shown stands)
                    self._final = [(bid.seat + i) % self.players
                                   for i in range(1, self.players)]
                if self._takeback_rule and bid.seat not in self._took_back:
                    self._takeback = bid.seat  # asked at once: keep it, or take it back
                else:
                    self._run_dealing(ev)
        elif isinstance(action, TakeBack):
            bid = self._bids.pop()
            self._bids_changed()
            self._took_back.add(action.seat)
            self._takeback = None
            ev.append(BidTakenBack(action.seat, bid.cards))
            self._run_dealing(ev)
        elif isinstance(action, Bury):
            self._do_bury(action, ev)
        elif isinstance(action, CallFriends):
            self._do_call(action, ev)
        elif isinstance(action, ChooseForced):
            leader, options, _ = self._choice
            self._choice = None
            self.phase = PLAYING
            ev.append(ForcedChosen(action.seat, action.option))
            self._play_cards(leader, options[action.option], ev)
        else:
            self._do_play(action, plan, ev)
        self.events.extend(ev)
        return ev

    # --------------------------------------------------------------- checking actions

    def _plan(self, action: Action):
        """What ``_check`` returns for an action the game listed itself (known legal)."""
        t = type(action)
        if t is Play:
            # a follow needs no plan; a lead may be a throw
            return None if self._trick else self._play_plan(action.seat, action.cards)
        if t is Declare:
            return self._make_bid(action.seat, action.cards)
        return None

    def _play_plan(self, seat: int, cards: tuple):
        """(components of a lead that may be a throw, else None; the play's core Hand)."""
        play = self._hand_obj(cards)
        if self._trick or (len(cards) <= self.rules.max_tuple and cards[0] == cards[-1]):
            return None, play  # a follow; a lead of one card or one tuple
        try:
            comps = self.ctx.decompose(play)
        except HandError as e:
            self._refuse(f"seat {seat} cannot lead {cards_text(cards)}: {e}",
                         "several_suits", RULE_LEAD, True)
        if len(comps) > 1 and not self.rules.throws:
            self._refuse(f"seat {seat} cannot lead {cards_text(cards)}: it is "
                         f"{len(comps)} combinations and this variant has no throws (甩牌)",
                         "no_throws", RULE_LEAD, True)
        return comps, play

    def _refuse(self, msg: str, reason: str, rule: str, play: bool = False):
        cls = IllegalPlayAction if play else IllegalAction
        raise cls(msg, reason, rule)

    def _check(self, action: Action):
        t = type(action)
        if t is Play and self.phase == PLAYING and action.seat == self.to_act:
            return self._check_play(action)  # the common case, first
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}", "not_an_action", "")
        name = t.__name__
        if self.phase == OVER:
            self._refuse(f"{name} by seat {action.seat}: the match is over", "match_over", "")
        if action.seat != self.to_act:
            self._refuse(
                f"{name} by seat {action.seat}: it is seat {self.to_act}'s turn "
                f"({self.phase} phase)", "not_your_turn", RULE_TURN, isinstance(action, Play))
        expected, rule = _EXPECTED[self.phase], RULE_TURN
        if self._takeback is not None:
            expected, rule = (Pass, TakeBack), RULE_TAKEBACK
        if not isinstance(action, expected):
            self._refuse(
                f"{name} by seat {action.seat}: in the {self.phase} phase only "
                f"{' or '.join(c.__name__ for c in expected)} is possible now", "wrong_phase",
                rule)
        if isinstance(action, Declare):
            return self._check_declare(action)
        if isinstance(action, Bury):
            self._check_in_hand(action, "bury", RULE_BURY)
            if len(action.cards) != self.kitty_size:
                self._refuse(f"seat {action.seat} must bury exactly {self.kitty_size} cards, "
                             f"not {len(action.cards)}", "wrong_count", RULE_BURY)
            return None
        if isinstance(action, CallFriends):
            problem = calls_problem(action.calls, self.friend_rules, self.ctx,
                                    self.composition.counts, self.level)
            if problem:
                self._refuse(f"seat {action.seat} cannot call {', '.join(calls_text(action.calls))}"
                             f": {problem}", "bad_call", RULE_CALL)
            return None
        if isinstance(action, ChooseForced):
            n = len(self._choice[1])
            if not (isinstance(action.option, int) and 0 <= action.option < n):
                self._refuse(f"seat {action.seat}: forced-play option {action.option!r} does "
                             f"not exist (0..{n - 1})", "no_such_option", RULE_CHOOSE)
            return None
        if isinstance(action, Play):
            return self._check_play(action)
        return None

    def _check_in_hand(self, action, what: str, rule: str, play: bool = False) -> None:
        hand = self.hands[action.seat]
        cards = action.cards
        for k in set(cards):
            n = cards.count(k)
            if n > hand[k]:
                self._refuse(
                    f"seat {action.seat} cannot {what} {cards_text(action.cards)}: it holds "
                    f"{hand[k]} of {card_str(k)}, not {n}", "not_in_hand", rule, play)

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
                         f"{level_name(self.level)}", "cannot_declare", RULE_DECLARE)
        if not self._may_overturn(bid):
            cur = self._bids[-1]
            self._refuse(f"seat {seat}: {cards_text(action.cards)} may not overturn seat "
                         f"{cur.seat}'s {cards_text(cur.cards)}", "cannot_overturn", RULE_DECLARE)
        return bid

    def _check_play(self, action: Play):
        seat, cards = action.seat, action.cards
        if not cards:
            self._refuse(f"seat {seat}: a play needs at least one card", "empty", RULE_LEAD, True)
        self._check_in_hand(action, "play", RULE_FOLLOW if self._trick else RULE_LEAD, True)
        if not self._trick:
            return self._play_plan(seat, cards)
        play = self._hand_obj(cards)
        lead = self._trick[0][1]
        n = len(lead)
        if len(cards) == n:
            # semantics §4 step 2 settles these without shape: accept them here
            eff = self._eff
            suit = eff[lead[0]]
            hand = self.hands[seat]
            held = sum([hand[k] for k in self._suit_kinds[suit]])
            in_play = sum(1 for c in cards if eff[c] == suit)
            if ((held <= n and in_play == held) or (n == 1 and in_play == 1)) \
                    and not self._rainbow_led():
                return None, play
        res = self.ctx.check_follow(self._trick_hands[0], self._hand_of(seat), play)
        if not res.ok:
            detail = f": {res.detail}" if res.detail else ""
            self._refuse(f"seat {seat} cannot follow {cards_text(lead)} with "
                         f"{cards_text(cards)} ({res.reason}{detail})", res.reason,
                         RULE_FOLLOW, True)
        return None, play

    # --------------------------------------------------------------------- dealing

    def _start_deal(self, ev: list, attempt: int) -> None:
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
        self._key_bids()
        self._ask_all_until = 0  # no bids yet: only a declaring card gives a seat options
        self._declined: list = [None] * self.players
        self._offer: tuple = ()
        self._takeback: int | None = None  # seat that may take back its declaration now
        self._took_back: set = set()       # seats that took one back this deal (once each)
        self._steal_queue: list = []       # seats still to be asked in a theft round
        self._bid_kinds, self._declaring = _declarable(self.level)
        self.trump = None
        self.ctx = None
        self.kitty: tuple = ()
        self.buried = [0] * NUM_KINDS
        self.played = [0] * NUM_KINDS
        self._trick: list = []
        self._trick_hands: list = []   # core Hands of the trick's plays (the lead first)
        self._trick_counts = b""       # their counts, one after another
        self._seat_hands: list = [None] * self.players  # core Hand per seat, None = stale
        self._tricks: tuple = ()
        self.trick_number = 0
        self.leader = None
        self.trick_points = 0
        self.captured = [0] * self.players   # trick points won by each seat
        self.penalties = [0] * self.players  # failed-throw penalties each seat incurred
        self.penalty = 0
        self.side = ()
        self.sides_known = self.friend_rules is None
        self.calls = ()
        self.joined = ()
        self._friends = None
        self._choice = None
        ev.append(_deal_started(self.deal_number, attempt, self.dealer, self.level,
                                self._levels_tuple(), first))
        self._run_dealing(ev)

    def _levels_tuple(self) -> tuple:
        return tuple(self.levels)

    def team_levels(self) -> dict:
        """{team: level}: a team's seats share one level."""
        return dict(zip(self.teams, self.levels, strict=True))

    def _run_dealing(self, ev: list) -> None:
        """Deal cards until a seat has a new declaration to consider, then stop; after the
        last card ask every seat in play order, and after each declaration made then every
        other seat again, until all have passed; then settle trump."""
        deck, hands, hand_len = self._deck, self.hands, self.hand_len
        seats, dealt_events = self._seat_of_card, self._dealt_events
        # a seat's options change only when it gets a declaring card or the standing
        # declaration changes; otherwise it has nothing new to say. After a change each
        # seat is asked at its first card since: the next ``players`` cards go to every
        # seat once, so every card before ``_ask_all_until`` is a moment to ask.
        declaring, ask_all = self._declaring, self._ask_all_until
        append = ev.append
        n = self._n_deal
        for i in range(self._dealt, n):
            card = deck[i]
            seat = seats[i]
            hands[seat][card] += 1
            hand_len[seat] += 1
            append(dealt_events[seat][card])  # CardDealt(seat, card), a shared record
            if declaring[card] or i < ask_all:
                self._dealt = i + 1
                if self._ask(seat, False):
                    return
        self._dealt = n
        if self._final is None:
            first, players = self._first_seat, self.players
            self._final = [(first + i) % players for i in range(players)]
        while self._final:
            seat = self._final.pop(0)
            if self._ask(seat, True):
                return
        self._finish_dealing(ev)

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
        self._bids_key = (self.level, *[(b.seat, b.cards, b.strength) for b in bids])
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
        for k in self._bid_kinds:  # (a plain loop: cheaper than any C iteration here)
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
        level = self.level
        cand = self._candidates.get((level, seat, k, n), False)
        if cand is False:
            bid = self._make_bid(seat, (k,) * n)
            # one kind, n copies: already in the order Declare keeps
            cand = self._candidates[(level, seat, k, n)] = \
                None if bid is None else (bid, Declare.trusted(seat, bid.cards))
        d = None
        if cand is not None:
            bids = self._bids_now
            if self.variant._overturns(bids[-1] if bids else None, cand[0], bids):
                d = cand[1]
        self._options[(seat, k, n)] = d
        return d

    def _make_bid(self, seat: int, cards: tuple) -> Bid | None:
        key = (seat, cards, self.level)
        bid = self._bid_cache.get(key, False)
        if bid is False:
            ids = tuple(sorted(cards))
            strength = self._strength_cache.get((cards, self.level))
            if strength is None:
                strength = self.variant._strength(ids, self.level)
                self._strength_cache[(cards, self.level)] = strength
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
            ok = self._overturn_cache[key] = self.variant._overturns(current, bid, bids)
        return ok

    def _finish_dealing(self, ev: list) -> None:
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
                self._start_deal(ev, self._attempt + 1)
                return
            trump, declarer, turned = out.trump, None, out.turned_card
        if self.dealer is None:
            dealer = v.first_dealer(tuple(self._bids),
                                    seed=f"{self.seed}:{self.deal_number}:{self._attempt}")
            self.dealer = dealer
            self.level = min(self.levels[dealer], self._top_level)
            self._key_bids()  # (a theft's declarations are judged at this level)
        self.trump = trump
        self.ctx = ctx = v._context(self.level, trump)
        self._eff, self._str, self._suit_kinds = _tables(ctx)
        self.dealer_team = self.teams[self.dealer]
        # the dealer first, then the teammates in play order
        n, d = self.players, self.dealer
        order = [(d + i) % n for i in range(n)]
        if self.friend_rules is None:
            self.side = tuple(s for s in order if self.teams[s] == self.dealer_team)
        else:  # finding friends: the dealer alone until a called card is played
            self.side = (d,)
        self.kitty = kitty
        ev.append(_trump_set(trump, declarer, self.dealer, self.level, turned))
        ev.append(_kitty_taken(self.dealer, tuple(sorted(kitty, reverse=True))))
        hand = self.hands[self.dealer]
        for c in kitty:
            hand[c] += 1
        self.hand_len[self.dealer] += len(kitty)
        self.phase = BURYING
        self.to_act = self.dealer

    def _do_bury(self, action: Bury, ev: list) -> None:
        hand = self.hands[action.seat]
        for c in action.cards:
            hand[c] -= 1
            self.buried[c] += 1
        self.hand_len[action.seat] -= len(action.cards)
        self._seat_hands[action.seat] = None
        ev.append(_buried(action.seat, action.cards))
        if self._theft_rule and self._bids:
            # 炒地皮: every other seat, in play order after the one who buried, may
            # overturn and take the kitty (not after a trump nobody declared: shengji.io
            # allows no theft of an automatic bid)
            self.phase = STEALING
            self._steal_queue = [(action.seat + i) % self.players
                                 for i in range(1, self.players)]
            self._run_stealing(ev)
            return
        self._start_play()

    def _start_play(self) -> None:
        if self.friend_rules is not None and self._friends is None:
            if self.friend_rules.calls:
                self.phase = CALLING  # the dealer calls friends once the kitty is buried
                self.to_act = self.dealer
                return
            self._friends = FriendTracker((), self.dealer, self.friend_rules)
            self.sides_known = True
        self.phase = PLAYING
        self.leader = self.to_act = self.dealer

    def _do_call(self, action: CallFriends, ev: list) -> None:
        self.calls = action.calls
        self._friends = FriendTracker(action.calls, self.dealer, self.friend_rules)
        ev.append(FriendsCalled(action.seat, action.calls))
        self._start_play()

    def _count_friends(self, seat: int, cards: tuple, ev: list) -> None:
        """A play of called copies: who joins (public from now on)."""
        f = self._friends
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

    # ---------------------------------------------------------------------- tricks

    def _do_play(self, action: Play, plan, ev: list) -> None:
        seat, cards = action.seat, action.cards
        comps, play = plan
        if comps is not None and len(comps) > 1:  # a throw: is every part unbeatable?
            others = [self._hand_of((seat + i) % self.players) for i in range(1, self.players)]
            res = self.ctx.check_throw(play, others)
            if not res.valid:
                ft = self.variant._failed_throw(res, seat)
                options = tuple(_ids(o) for o in ft.options)
                self._check_options(options, cards, ft.chooser)
                chooser = ft.chooser if len(options) > 1 else None
                ev.append(ThrowFailed(seat, cards, options, chooser, ft.penalty))
                # the penalty goes to the side that did not throw
                self.penalties[seat] += ft.penalty
                self.penalty += ft.penalty if seat in self.side else -ft.penalty
                if chooser is not None:
                    self.phase = CHOOSING
                    self.to_act = chooser
                    self._choice = (seat, options, ft.penalty)
                    return
                cards, play = options[0], None
        self._play_cards(seat, cards, ev, play)

    def _play_cards(self, seat: int, cards: tuple, ev: list, play=None) -> None:
        hand, played = self.hands[seat], self.played
        self._seat_hands[seat] = None
        for c in cards:
            hand[c] -= 1
            played[c] += 1
        self.hand_len[seat] -= len(cards)
        ev.append(_played(seat, cards, self.trick_number, not self._trick))
        if self._friends is not None and not self.sides_known:
            self._count_friends(seat, cards, ev)
        self._trick.append((seat, cards))
        if play is None:
            play = self._hand_obj(cards)
        self._trick_hands.append(play)
        self._trick_counts += play._b  # the trick as the core reads it, kept as it grows
        if len(self._trick) < self.players:
            self.to_act = (seat + 1) % self.players
            return
        trick = self._trick
        idx = self.ctx._winner_of(self._trick_counts, len(trick))
        winner = trick[idx][0]
        points = sum([_POINTS[c] for _, cs in trick for c in cs])
        self.captured[winner] += points
        if winner not in self.side:
            self.trick_points += points
        ev.append(_trick_won(self.trick_number, winner, points, self.trick_points))
        self._tricks = self._tricks + (tuple(trick),)
        self._trick = []
        self._trick_hands = []
        self._trick_counts = b""
        if self.hand_len[winner] == 0:
            self._score(ev, winner, trick[idx][1], trick[0][1])
            return
        self.trick_number += 1
        self.leader = self.to_act = winner

    # --------------------------------------------------------------------- scoring

    def _score(self, ev: list, last_winner: int, winning: tuple, lead: tuple) -> None:
        v = self.variant
        side = self.side
        self._tally_sides()
        kitty_points = sum(map(mul, _POINTS, self.buried))
        multiplier = bonus = 0
        if last_winner not in side:  # 抠底: the attackers took the kitty
            multiplier = int(v._kitty_multiplier(self.ctx, self._hand_obj(winning),
                                                  self._hand_obj(lead)))
            bonus = kitty_points * multiplier
        total = max(0, self.trick_points + bonus + self.penalty)
        rules = self.friend_rules
        outcome = v._score(total, rules is not None and bool(rules.short_handed(side)))
        self.sides_known = True  # the deal is over: every side is public
        next_dealer = self._seat_from_hook(v._next_dealer(self.dealer, outcome, side),
                                           "shengji_next_dealer")
        if outcome.next == "dealers":
            rising = side
        else:  # every attacker rises (with two teams: the other team)
            rising = tuple(s for s in range(self.players) if s not in side)
        if v._back_to_start(self.level, winning, last_winner not in side):
            for s in side:  # the jack rule: back to the start level, then this deal's rise
                self.levels[s] = self._start_level
        if outcome.rise:
            for s in rising:
                self.levels[s] = v.advance(self.levels[s], outcome.rise, s in side)
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

    # --------------------------------------------------------------------- helpers

    def _ordered_deck(self, deck: list, attempt: int) -> list:
        ordered = list(self.deal_order(self.deal_number, attempt, tuple(deck)))
        if sorted(ordered) != sorted(deck):
            raise ShengjiError(f"deal_order returned {len(ordered)} cards that are not an "
                               f"ordering of the {len(deck)} cards of the deck")
        return ordered

    def _seat_from_hook(self, seat, hook: str) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise VariantError(f"variant {self.variant.name}: hook {hook} returned seat "
                               f"{seat!r}; seats are 0..{self.players - 1}")
        return seat

    def _check_options(self, options: tuple, attempted: tuple, chooser) -> None:
        """A forced play must be part of the attempted throw (docs/rules.md §4)."""
        if not options:
            raise VariantError(f"variant {self.variant.name}: hook shengji_failed_throw "
                               "gave no forced play")
        for o in options:
            if not o or any(o.count(c) > attempted.count(c) for c in set(o)):
                raise VariantError(
                    f"variant {self.variant.name}: hook shengji_failed_throw forces "
                    f"{cards_text(o)}, which is not part of the throw {cards_text(attempted)}")
        if len(options) > 1 and chooser is not None:
            self._seat_from_hook(chooser, "shengji_failed_throw")

    def _rainbow_led(self) -> bool:
        """The trick's lead spans several effective suits: a rainbow (semantics §3)."""
        if not self.rules.rainbow_min or not self._trick:
            return False
        eff = self._eff
        lead = self._trick[0][1]
        return any(eff[c] != eff[lead[0]] for c in lead)

    def _hand_obj(self, cards: tuple):
        h = _HAND_CACHE.get(cards)
        if h is None:
            h = _HAND_CACHE_OLD.get(cards)
            if h is None:
                counts = [0] * NUM_KINDS
                for c in cards:  # the engine's own card ids: no parsing, no checks
                    counts[c] += 1
                h = _Hand()._trusted(counts)
            remember(_HAND_CACHE, _HAND_CACHE_OLD, HAND_CACHE_SIZE, cards, h)
        return h

    def _hand_of(self, seat: int):
        h = self._seat_hands[seat]
        if h is None:  # the engine's counts are valid: no checks
            h = self._seat_hands[seat] = _Hand()._trusted(self.hands[seat])
        return h

    @property
    def trick(self) -> tuple:
        """The current trick: ((seat, cards), ...) in play order."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple:
        """Completed tricks of this deal, each ((seat, cards), ...)."""
        return self._tricks

    @property
    def bids(self) -> tuple:
        return tuple(self._bids)

    # views, serialisation and replay live in their own modules
    def view(self, seat: int):
        from .view import view_of
        return view_of(self, self._seat_arg(seat))

    def events_for(self, seat: int | None, since: int = 0) -> list:
        """The history (from index ``since``) as ``seat`` may see it now: others' private
        cards hidden, and what the variant's ``table`` options hide (engine.view);
        ``seat`` None: as a spectator sees it (nobody's private cards)."""
        from .view import events_seen
        if type(since) is not int:
            check_int(since, "since")
        return events_seen(self, None if seat is None else self._seat_arg(seat), since)

    def _seat_arg(self, seat, what: str = "seat") -> int:
        if type(seat) is not int or not 0 <= seat < self.players:
            check_int(seat, what, 0, self.players - 1)
        return seat

    def snapshot(self) -> dict:
        from .serial import snapshot
        return snapshot(self)

    def to_dict(self) -> dict:
        from .serial import game_to_dict
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict, variant=None) -> Game:
        from .serial import game_from_dict
        return game_from_dict(data, variant)

    @classmethod
    def replay(cls, variant, seed, actions, *, max_deals: int | None = None,
               deal_order=None) -> Game:
        """Rebuild a game from (variant, seed, actions); raises IllegalAction if an action
        does not fit."""
        if isinstance(actions, (str, bytes, dict)) or not isinstance(actions, Iterable):
            raise ArgumentError(f"actions: expected a list of actions, got "
                                f"{type(actions).__name__} {actions!r:.40}")
        g = cls(variant, seed, max_deals=max_deals, deal_order=deal_order)
        for a in actions:
            g.apply(a)
        return g

    def copy(self) -> Game:
        """An independent copy of the match, cheap enough for tree search: the variant,
        contexts, caches of pure hook results, actions and events (all immutable) are
        shared; every mutable container of the state is copied one level deep (hands are
        lists of lists)."""
        new = object.__new__(type(self))
        d = new.__dict__
        for name, value in self.__dict__.items():
            t = type(value)
            if t is list:
                value = [x[:] if type(x) is list else x for x in value]
            elif t is dict and name not in _SHARED_CACHES:
                value = value.copy()
            elif t is FriendTracker:
                value = value.copy()
            d[name] = value
        return new

    def __deepcopy__(self, memo) -> Game:
        return self.copy()

    def __reduce__(self):
        # pickled as its record: (variant, table size, seed, actions), rebuilt by replay
        return (_unpickle, (self.variant_ref, self.seed, self.max_deals, self.deal_order,
                            tuple(self.actions), self.players))


def _check_game_args(seed, max_deals) -> None:
    """Types at the boundary (a saved game's fields arrive here): one line, not a
    TypeError deep in the deal."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ShengjiError(f"Game: seed must be an integer or a string, got "
                           f"{type(seed).__name__} {seed!r:.40}")
    if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int)
                                  or max_deals < 1):
        raise ShengjiError(f"Game: max_deals must be a number of deals (1 or more) or None, "
                           f"got {max_deals!r:.40}")


def _unpickle(variant_ref, seed, max_deals, deal_order, actions, players=None) -> Game:
    from ..variants import load_variant

    return Game.replay(load_variant(variant_ref, players=players), seed, actions,
                       max_deals=max_deals, deal_order=deal_order)


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


def _variant_ref(variant) -> str:
    """How a record names a loaded variant: its registered name when that name loads
    this very file, else its file path (a variant built from a mapping keeps its name;
    replaying it needs the Variant passed in). Remembered per Variant: finding the name
    scans the variant directories, and simulations make a Game every few deals."""
    ref = _REFS.get(variant)
    if ref is None:
        ref = _REFS[variant] = _find_ref(variant)
    return ref


_REFS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _find_ref(variant) -> str:
    from ..variants.registry import find

    src = find(variant.name)
    if src is not None and (variant.path is None or src.path == variant.path):
        return variant.name
    return str(variant.path) if variant.path else variant.name


_TABLES: dict = {}
_POINTS = [point_value(k) for k in range(NUM_KINDS)]
_KINDS = range(NUM_KINDS)
_played, _trick_won = maker(Played), maker(TrickWon)
_EXPECTED = {DEALING: (Declare, Pass), STEALING: (Declare, Pass), BURYING: (Bury,),
             CALLING: (CallFriends,),
             PLAYING: (Play,), CHOOSING: (ChooseForced,)}


def _tables(ctx) -> tuple:
    """Per context: effective suit and strength of each kind, and the kinds of each
    effective suit (4 = trumps), high kind ids first."""
    t = _TABLES.get(ctx)
    if t is None:
        eff = [ctx.effective_suit(k) for k in range(NUM_KINDS)]
        strength = [ctx.strength(k) for k in range(NUM_KINDS)]
        kinds = [[k for k in range(NUM_KINDS - 1, -1, -1) if eff[k] == s] for s in range(5)]
        t = _TABLES[ctx] = (eff, strength, kinds)
    return t


_DEALT: dict = {}
_SEATS: dict = {}
_declared, _deal_started, _deal_scored = maker(Declared), maker(DealStarted), maker(DealScored)
_trump_set, _kitty_taken, _buried = maker(TrumpSet), maker(KittyTaken), maker(Buried)
_KINDS_DESC = range(NUM_KINDS - 1, -1, -1)


def _cards_desc(counts) -> tuple:
    """The cards of 54 counts, ids descending."""
    return tuple(chain.from_iterable(map(repeat, _KINDS_DESC, reversed(counts))))


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


def _per_seat(cls):
    """``seat -> cls(seat)``, one record per seat: actions and events are frozen, so one
    serves every listing and every deal."""
    made: dict = {}

    def of(seat: int):
        r = made.get(seat)
        if r is None:
            r = made[seat] = cls(seat)
        return r

    return of


#: Pass(seat) and Passed(seat), shared records
_pass, _passed = _per_seat(Pass), _per_seat(Passed)


def _dealt(players: int) -> tuple:
    """[seat][card] -> CardDealt(seat, card): events are frozen, so one record per
    (seat, card) serves every deal (dealing makes a hundred of them per deal)."""
    t = _DEALT.get(players)
    if t is None:
        t = _DEALT[players] = tuple(tuple(CardDealt(s, k) for k in range(NUM_KINDS))
                                    for s in range(players))
    return t


#: core Hands of plays, by card tuple (Hands are immutable; most plays recur). A Hand
#: that led a trick also keeps its prepared lead (~1 kB), so the cache is bounded: with
#: 100,000 entries each simulate worker grew to ~118 MB over 30,000 deals (issue 12).
#: A deal makes a few hundred distinct plays; the common ones (singles, pairs) recur
#: across deals and stay in the most recent few thousand: two generations of
#: HAND_CACHE_SIZE (``shengji.memo``; evicting the oldest key of one dict rescanned
#: the deleted slots, ~6 µs a miss).
HAND_CACHE_SIZE = 2048
_HAND_CACHE: dict = {}
_HAND_CACHE_OLD: dict = {}


def _Hand():
    global _Hand_class
    if _Hand_class is None:
        _Hand_class = _core().Hand
    return _Hand_class


_Hand_class = None


def _core():
    global _core_module
    if _core_module is None:
        from .. import core  # imported late: the engine module loads without the C core

        _core_module = core
    return _core_module


_core_module = None


#: followers' legal plays are enumerated up to this many (the core reports the total)
FOLLOW_LIMIT = 120
