"""Play (phases ``play`` and ``choose``): leads, follows and throws, a failed throw's
forced play (chosen by the next seat where the variant says so), the tricks, their
winners and points (docs/rules.md §4-§5, docs/semantics.md). The last trick ends the
deal: scoring (engine.scoring).

The core judges plays (``shengji.core``); the engine keeps the core Hands of plays in a
bounded cache (``HAND_CACHE_SIZE``). The C play driver (engine.drive) runs stretches of
this phase for index-picking bots and hands back exactly this module's state.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

from ..cards import NUM_KINDS, point_value
from ..errors import HandError, VariantError
from ..memo import remember
from .actions import Action, ChooseForced, Play, TakeBack, cards_text
from .events import ForcedChosen, Played, PlayTakenBack, ThrowFailed, TrickWon, maker
from .legal import _SINGLE_PLAYS, FillerFollows, Legal
from .phase import (
    CHOOSING,
    PLAYING,
    RULE_CHOOSE,
    RULE_FOLLOW,
    RULE_LEAD,
    RULE_PLAY_TAKEBACK,
    Phase,
    PlayPlan,
    _core,
    _ids,
)

if TYPE_CHECKING:
    from ..core import Hand

#: followers' legal plays are enumerated up to this many (the core reports the total)
FOLLOW_LIMIT = 120


class Playing(Phase):
    """Tricks. State (reset by ``_start_tricks``): cards played (counts), the trick in
    progress (plays, their core Hands and counts), the tricks done, the leader, each
    seat's captured points and failed-throw penalties, the attackers' points and the net
    penalty, a forced play awaiting its choice, and each seat's core Hand (made lazily)."""

    def _start_tricks(self) -> None:
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
        #: a failed throw whose forced play is being chosen: (thrower, options, (penalty
        #: per card taken back, cards attempted))
        self._choice: tuple[int, tuple[tuple[int, ...], ...], tuple[int, int]] | None = None
        # table.play_takeback: (seat, cards, the friend tracker before the play) of the
        # play its seat may still take back (before the next seat acts), else None
        self._undo: tuple | None = None

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
            items = self._leads(seat)
            cards = items.ids_at(pick(len(items)))
            action = Play.trusted(seat, cards)
            return action, self._perform(action, self._play_plan(seat, cards))
        legal = self._list_play(seat, None)
        action = legal[pick(len(legal))]
        return action, self._perform(action, None)  # a listed follow needs no plan

    def _list_play(self, seat: int, limit: int | None) -> Legal:
        """A lead's or a follow's listing (a single led is listed by
        ``Game.legal_actions`` itself)."""
        if not self._trick:
            # lead_structures' listing, made in C (tests hold the two equal)
            return Legal("lead", seat, self._leads(seat))
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

    def _play_plan(self, seat: int, cards: tuple) -> PlayPlan:
        """(components of a lead that may be a throw, else None; the play's core Hand)."""
        play = self._hand_obj(cards)
        # (max_tuple: PlayRules.__post_init__ fills it in; read as is on this hot path)
        if self._trick or (len(cards) <= self.rules.max_tuple  # type: ignore[operator]
                           and cards[0] == cards[-1]):
            return None, play  # a follow; a lead of one card or one tuple
        try:
            comps = self.ctx.decompose(play)
        except HandError as e:
            self._refuse(f"seat {seat} cannot lead {cards_text(cards)}: {e}",
                         "several_suits", RULE_LEAD, True)
        if len(comps) > 1:
            if not self.rules.throws:
                self._refuse(f"seat {seat} cannot lead {cards_text(cards)}: it is "
                             f"{len(comps)} combinations and this variant has no throws "
                             "(甩牌)", "no_throws", RULE_LEAD, True)
            self._check_throw_allowed(seat, cards, play)
        return comps, play

    def _check_throw_allowed(self, seat: int, cards: tuple, play) -> None:
        """play.trump_throws and play.throw_check: unseen refuse a throw before it is
        made (ejfn/Tractor: no trump throws; a throw must be unbeatable by every card its
        thrower cannot see)."""
        rules = self.rules
        if not rules.trump_throws and all(self._eff[c] == _TRUMP for c in cards):
            self._refuse(f"seat {seat} cannot lead {cards_text(cards)}: this variant has no "
                         "throws in trumps", "no_trump_throws", RULE_LEAD, True)
        if rules.throw_check == "unseen" and self._unseen_beat(seat, cards, play):
            self._refuse(f"seat {seat} cannot lead {cards_text(cards)}: cards you cannot see "
                         "could beat a part of it, and this variant allows only throws no "
                         "unseen card can beat", "beatable_throw", RULE_LEAD, True)

    def _unseen_beat(self, seat: int, cards: tuple, play) -> bool:
        """play.throw_check: unseen. Could the cards ``seat`` cannot see (not in its hand,
        not played, not the kitty it buried) beat a part of the throw? Never when every
        other seat has shown itself void in the throw's suit (it did not follow it)."""
        eff = self._eff
        suit = eff[cards[0]]
        if any(eff[c] != suit for c in cards):
            return False  # a rainbow: judged by the holdings (its own rule, semantics §6)
        void = self._shown_void(suit)
        if all(s in void for s in range(self.players) if s != seat):
            return False
        hand, played, buried = self.hands[seat], self.played, self.buried
        assert self.rules.copies is not None  # PlayRules fills it in
        unseen = [c - hand[k] - played[k] - (buried[k] if seat == self._burier else 0)
                  for k, c in enumerate(self.rules.copies)]
        return not self.ctx.check_throw(play, [_Hand()._trusted(unseen)]).valid

    def _shown_void(self, suit: int) -> set[int]:
        """The seats that followed a lead of ``suit`` with a card of another suit (so hold
        none of it: semantics §4 step 2)."""
        eff, void = self._eff, set()
        for trick in (*self._tricks, tuple(self._trick)):
            if not trick or any(eff[c] != suit for c in trick[0][1]):
                continue
            for s, cs in trick[1:]:
                if any(eff[c] != suit for c in cs):
                    void.add(s)
        return void

    def _leads(self, seat: int):
        """The leads listed for ``seat`` (lead_structures' order, made in C), without the
        whole-suit throws play.throw_check: unseen refuses."""
        items = self.ctx._listed_leads(bytes(self.hands[seat]), self.rules.throws)
        if not self.rules.throws or self.rules.throw_check != "unseen":
            return items
        kept, widest = [], self.rules.max_tuple or 1
        for i in range(len(items)):
            cards = items.ids_at(i)
            if len(cards) == 1 or (cards[0] == cards[-1] and len(cards) <= widest):
                kept.append(cards)
                continue
            if len(self.ctx.decompose(items[i])) < 2 or not self._unseen_beat(
                    seat, cards, items[i]):
                kept.append(cards)
        return _Listed(kept)

    def _check_play(self, action: Play) -> PlayPlan:
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

    # ---------------------------------------------------------------------- tricks

    def _perform_play(self, action: Play, plan: PlayPlan | None, ev: list) -> None:
        if type(action) is TakeBack:
            self._take_back_play(ev)
        elif plan is None:  # a follow the game listed
            self._play_cards(action.seat, action.cards, ev)
        else:
            self._do_play(action, plan, ev)

    def _do_play(self, action: Play, plan: PlayPlan, ev: list) -> None:
        seat, cards = action.seat, action.cards
        play: Hand | None
        comps, play = plan
        if comps is not None and len(comps) > 1:  # a throw: is every part unbeatable?
            others = [self._hand_of((seat + i) % self.players) for i in range(1, self.players)]
            res = self.ctx.check_throw(play, others)
            if not res.valid:
                ft = self.variant._failed_throw(res, seat, play)
                options = tuple(_ids(o) for o in ft.options)
                self._check_options(options, cards, ft.chooser)
                self._check_penalty(ft)
                chooser = ft.chooser if len(options) > 1 else None
                # per card taken back: known now when one play is forced, else once chosen
                penalty = ft.penalty if chooser is not None else \
                    ft.penalty + ft.penalty_per_card * (len(cards) - len(options[0]))
                ev.append(ThrowFailed(seat, cards, options, chooser, penalty))
                self._charge(seat, penalty)
                if chooser is not None:
                    self.phase = CHOOSING
                    self.to_act = chooser
                    self._choice = (seat, options, (ft.penalty_per_card, len(cards)))
                    self._undo = None
                    return
                cards, play = options[0], None
                self._play_cards(seat, cards, ev, play)
                self._undo = None  # a failed throw stands: shown, its penalty given
                return
        self._play_cards(seat, cards, ev, play)

    def _play_cards(self, seat: int, cards: tuple, ev: list, play=None) -> None:
        hand, played = self.hands[seat], self.played
        self._seat_hands[seat] = None
        for c in cards:
            hand[c] -= 1
            played[c] += 1
        self.hand_len[seat] -= len(cards)
        ev.append(_played(seat, cards, self.trick_number, not self._trick))
        # table.play_takeback: what taking this play back restores (always None without it)
        undo: tuple | None = (seat, cards, None) if self._play_takeback_rule else None
        if self._friends is not None and not self.sides_known:
            if undo:
                joined = self.joined
                undo = (seat, cards, self._friends.copy())
            self._count_friends(seat, cards, ev)
            if undo and self.joined != joined:
                undo = None  # a friend joined: public, and not undone
        self._trick.append((seat, cards))
        if play is None:
            play = self._hand_obj(cards)
        self._trick_hands.append(play)
        self._trick_counts += play._b  # the trick as the core reads it, kept as it grows
        if len(self._trick) < self.players:
            self.to_act = (seat + 1) % self.players
            self._undo = undo
            return
        self._undo = None  # the last play completes the trick at once
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

    # --------------------------------------------------------- taking back a play

    def _check_play_takeback(self, action: Action) -> None:
        """table.play_takeback (shengji.io PlayTakebackPolicy::AllowPlayTakeback): the
        seat that played last may take its play back before the next seat acts."""
        seat = action.seat
        if not self._play_takeback_rule:
            self._refuse(f"seat {seat}: this table does not allow taking back a play",
                         "no_takeback", RULE_PLAY_TAKEBACK, True)
        if self._undo is None or self._undo[0] != seat:
            self._refuse(f"seat {seat}: no play of yours to take back now (only the last "
                         "play of a trick in progress, before the next seat acts; not a "
                         "failed throw, nor a play a friend joined by)", "nothing_to_take_back",
                         RULE_PLAY_TAKEBACK, True)

    def _take_back_play(self, ev: list) -> None:
        """The last play goes back to its seat's hand, and that seat is to act again."""
        assert self._undo is not None  # (checked by _check_play_takeback)
        seat, cards, friends = self._undo
        self._undo = None
        self._trick.pop()
        play = self._trick_hands.pop()
        self._trick_counts = self._trick_counts[:len(self._trick_counts) - len(play._b)]
        hand, played = self.hands[seat], self.played
        for c in cards:
            hand[c] += 1
            played[c] -= 1
        self.hand_len[seat] += len(cards)
        self._seat_hands[seat] = None
        if friends is not None:
            self._friends = friends.copy()  # the copies counted before the play
        self.to_act = seat
        ev.append(PlayTakenBack(seat, cards, self.trick_number))

    def _charge(self, seat: int, penalty: int) -> None:
        """A failed throw's penalty: to the side that did not throw."""
        self.penalties[seat] += penalty
        self.penalty += penalty if seat in self.side else -penalty

    def _check_penalty(self, ft) -> None:
        for name in ("penalty", "penalty_per_card"):
            v = getattr(ft, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise VariantError(f"variant {self.variant.name}: hook shengji_failed_throw "
                                   f"gave {name} {v!r}, not an integer")

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


    # ----------------------------------------------------------- a forced play's choice

    def _list_choose(self, seat: int) -> Legal:
        assert self._choice is not None  # (the choose phase)
        n = len(self._choice[1])
        return Legal("choose", seat, tuple(ChooseForced(seat, i) for i in range(n)))

    def _check_choose(self, action: ChooseForced) -> None:
        assert self._choice is not None  # (the choose phase)
        n = len(self._choice[1])
        if not (isinstance(action.option, int) and 0 <= action.option < n):
            self._refuse(f"seat {action.seat}: forced-play option {action.option!r} does "
                         f"not exist (0..{n - 1})", "no_such_option", RULE_CHOOSE)

    def _perform_choose(self, action: ChooseForced, plan: None, ev: list) -> None:
        assert self._choice is not None  # (the choose phase)
        leader, options, (per_card, attempted) = self._choice
        self._choice = None
        self.phase = PLAYING
        chosen = options[action.option]
        penalty = per_card * (attempted - len(chosen))  # the cards this choice takes back
        ev.append(ForcedChosen(action.seat, action.option, penalty))
        self._charge(leader, penalty)
        self._play_cards(leader, chosen, ev)
        self._undo = None  # a failed throw stands


class _Listed(list):
    """Leads as card-id tuples, read as a core HandList is (``ids_at``)."""

    def ids_at(self, i: int) -> tuple[int, ...]:
        return self[i]


_TRUMP = 4  # the effective suit of trumps
_POINTS = [point_value(k) for k in range(NUM_KINDS)]
_KINDS = range(NUM_KINDS)
_played, _trick_won = maker(Played), maker(TrickWon)

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
