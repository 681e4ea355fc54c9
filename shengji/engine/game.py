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

``Game`` is the public face and a dispatcher: what each phase lists, checks and does is
in that phase's module (engine.phase names them: dealing, exchange, calling, play,
scoring); ``_PHASES`` says which methods serve the phase in force.
"""


from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from ..deck import deal_error
from ..errors import ArgumentError, VariantError, check_int
from ..friends import FriendTracker
from . import record
from .actions import (
    Action,
    Bury,
    CallFriends,
    ChooseForced,
    Declare,
    Pass,
    Play,
    RequestRedeal,
    TakeBack,
)
from .calling import Calling
from .dealing import (
    _SHARED_CACHES,
    DECLARE_CACHE_STATES,
    Dealing,
    _dealt,
    _declaration_caches,
    shuffle,
)
from .errors import IllegalAction
from .exchange import Exchange
from .legal import Legal, _single_play
from .phase import (
    BURYING,
    CALLING,
    CHOOSING,
    DEALING,
    OVER,
    PLAYING,
    REDEALING,
    RULE_TAKEBACK,
    RULE_TURN,
    STEALING,
    PlayPlan,
)
from .redeal import Redealing
from .scoring import Scoring
from .tricks import FOLLOW_LIMIT, HAND_CACHE_SIZE, Playing, _played, _trick_won

if TYPE_CHECKING:
    from ..friends import Call
    from ..model import Bid
    from ..variants import Variant
    from .events import Event
    from .view import SeatView

#: ``deal_order(deal_number, attempt, deck) -> the order of deck's kind ids to deal``
DealOrder: TypeAlias = "Callable[[int, int, tuple[int, ...]], Sequence[int]]"

# names that moved to the phase modules, kept importable from here
__all__ = ["Game", "DEALING", "STEALING", "REDEALING", "BURYING", "CALLING", "PLAYING",
           "CHOOSING", "OVER", "FOLLOW_LIMIT", "HAND_CACHE_SIZE", "DECLARE_CACHE_STATES", "shuffle",
           "_declaration_caches", "_played", "_trick_won"]


class _Serves(NamedTuple):
    """What serves one phase: the actions it takes, and the names of the methods that
    list (seat, limit), check (action -> plan) and perform (action, plan, events)."""

    actions: tuple[type[Action], ...]
    listing: str
    check: str
    perform: str


#: the dispatcher's table: the phase in force -> its module's methods
_PHASES = {
    DEALING: _Serves((Declare, Pass), "_list_dealing", "_check_dealing", "_perform_dealing"),
    STEALING: _Serves((Declare, Pass), "_list_stealing", "_check_stealing",
                      "_perform_stealing"),
    REDEALING: _Serves((Pass, RequestRedeal), "_list_redeal", "_check_redeal",
                       "_perform_redeal"),
    BURYING: _Serves((Bury,), "_list_bury", "_check_bury", "_perform_bury"),
    CALLING: _Serves((CallFriends,), "_list_call", "_check_call", "_perform_call"),
    PLAYING: _Serves((Play,), "_list_play", "_check_play", "_perform_play"),
    CHOOSING: _Serves((ChooseForced,), "_list_choose", "_check_choose", "_perform_choose"),
}

#: what a phase's check hands to performing the action: a play's plan (engine.tricks), a
#: declaration's Bid (engine.dealing), or None (nothing to carry over)
Plan: TypeAlias = "PlayPlan | Bid | None"


class Game(Dealing, Redealing, Exchange, Calling, Playing, Scoring):
    """A match of one variant, from one seed.

    ``Game(variant, seed)``: ``variant`` is a loaded ``Variant`` or a name/path for
    ``shengji.variants.load_variant``; ``seed`` an int or str. ``max_deals`` stops the
    match (phase ``over``, ``winner`` None) after that many deals have been scored.
    ``deal_order(deal_number, attempt, deck)``, when given, returns the order in which
    ``deck`` (the seeded shuffle, a tuple of kind ids) is dealt: a permutation of it.
    It lets a chance player outside the engine choose the cards (the OpenSpiel game);
    it must be picklable for the game to pickle.
    """

    def __init__(self, variant: Variant | str | os.PathLike[str], seed: int | str = 0, *,
                 max_deals: int | None = None, deal_order: DealOrder | None = None,
                 start_levels: Sequence[int] | None = None,
                 first_dealer: int | None = None) -> None:
        from ..variants import Variant, load_variant  # late: variants import the core

        _check_game_args(seed, max_deals)
        if isinstance(variant, (str, os.PathLike)):
            self.variant_ref = str(variant)
            variant = load_variant(variant)
        elif isinstance(variant, Variant):
            self.variant_ref = _variant_ref(variant)
        else:
            raise ArgumentError(f"Game: variant must be a Variant, a variant name or a YAML path, "
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
        self._while_standing_rule = declare["takeback_while_standing"]
        self._takeback_rule = declare["takeback"] or self._while_standing_rule
        self._theft_rule = declare["kitty_theft"]
        self._theft_burier_rule = declare["theft_burier_bids"]
        self._own_level_rule = declare["own_level"]
        weak = declare["weak_hand_redeal"]
        #: declare.weak_hand_redeal when it can ever ask (a threshold set, a limit above 0)
        self._weak_rule = weak if (weak["limit"] and (weak["points"] is not None
                                                      or weak["trumps"] is not None)) else None
        #: bury: what the kitty may hold; friends.calls_before_theft
        self._bury_rule = v.settings["bury"]
        self._calls_first = bool(v.friend_rules and v.friend_rules.calls_before_theft
                                 and self._theft_rule)
        #: the highest level a deal is played at (A, or NT above it: docs/variants.md)
        self._top_level = v.top_level
        #: table options that hide facts from the seat views (docs/variants.md `table:`)
        self.table_rules = v.settings["table"]
        self._play_takeback_rule = self.table_rules["play_takeback"]
        self.team_ids = tuple(dict.fromkeys(self.teams))
        #: level of every seat (a team's seats always share theirs: they rise together)
        self._start_levels = v.start_levels()
        self.levels = list(self._start_levels)
        # the declaration hooks are pure functions of their arguments: their results are
        # kept, shared by the variant's games (_declaration_caches):
        # (cards, level) -> strength; (bids key, seat, cards, strength) -> may overturn;
        # bids key -> {(seat, kind, n): Declare | None}; (level, seat, kind, n) ->
        # (Bid, Declare) | None; (seat, cards, level) -> Bid | None (all frozen records)
        (self._strength_cache, self._overturn_cache, self._declare_cache, self._candidates,
         self._bid_cache) = _declaration_caches(v)
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self.deal_number = 0
        self.deals_played = 0
        self.dealer: int | None = None  # decided by the declarations in the first deal
        # a host's room controls (shengji.io): each seat's starting level, the first dealer
        self.start_levels = _start_levels(start_levels, self) if start_levels is not None \
            else None
        if self.start_levels is not None:
            self.levels = list(self.start_levels)
        self.first_dealer = _seat_arg(first_dealer, self.players, "first_dealer")
        if self.first_dealer is not None:
            self.dealer = self.first_dealer  # the first deal is dealt and played as any
        elif declare["first_dealer"] == "random":
            # drawn before the first card is dealt (80-fen-shengji firstDealer=random)
            self.dealer = v.first_dealer((), seed=f"{seed}:0:0")
        #: seats on the dealer's side this deal, dealer first (the dealer's team); public
        self.side: tuple[int, ...] = ()
        #: is every seat's side public? (always, with fixed teams)
        self.sides_known = True
        #: finding friends: the rules of the calls (None: fixed teams)
        self.friend_rules = v.friend_rules
        #: this deal's calls ((ordinal, card), ...) and who fulfilled them ((seat, call), ...)
        self.calls: tuple[Call, ...] = ()
        self.joined: tuple[tuple[int, int], ...] = ()
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
        assert seat is not None  # a match not over has a seat to act
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

    def _listed(self, seat: int, limit: int | None) -> Legal:
        """The listing of the phase in force for ``seat``, the seat to act."""
        if self.phase == PLAYING:
            return self._list_play(seat, limit)
        listing: Callable[[int], Legal] = getattr(self, _PHASES[self.phase].listing)
        return listing(seat)

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

    def apply(self, action: Action) -> list[Event]:
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

    def _perform(self, action: Action, plan: Plan) -> list[Event]:
        """Apply an action known legal (``plan``: what ``_check`` returned for it) by the
        phase in force."""
        self._stamp += 1
        self._legal = None
        ev: list[Event] = []
        self.actions.append(action)
        if type(action) is Play and self.phase == PLAYING:  # the common case, first
            if plan is None:  # a follow the game listed
                self._play_cards(action.seat, action.cards, ev)
            else:  # (a Play's plan is a PlayPlan: type() above is not narrowed to it)
                self._do_play(action, plan, ev)  # type: ignore[arg-type]
        else:
            getattr(self, _PHASES[self.phase].perform)(action, plan, ev)
        self.events.extend(ev)
        return ev

    def _plan(self, action: Action) -> Plan:
        """What ``_check`` returns for an action the game listed itself (known legal)."""
        # (isinstance would also match subclasses; mypy does not narrow ``t is Play``)
        t = type(action)
        if t is Play:
            # a follow needs no plan; a lead may be a throw
            return None if self._trick else self._play_plan(
                action.seat, action.cards)  # type: ignore[attr-defined]
        if t is Declare:
            return self._make_bid(action.seat, action.cards)  # type: ignore[attr-defined]
        return None

    def _check(self, action: Action) -> Plan:
        """Checks every phase shares (an action, the match on, the seat's turn, an action
        of this phase), then the phase's own; returns the plan for ``_perform``."""
        t = type(action)
        if t is Play and self.phase == PLAYING and action.seat == self.to_act:
            # the common case, first (a Play: mypy does not narrow ``t is Play``)
            return self._check_play(action)  # type: ignore[arg-type]
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}", "not_an_action", "")
        if t is TakeBack and self.phase == PLAYING:  # by the seat that played last
            self._check_play_takeback(action)
            return None
        name = t.__name__
        if self.phase == OVER:
            self._refuse(f"{name} by seat {action.seat}: the match is over", "match_over", "")
        if action.seat != self.to_act:
            self._refuse(
                f"{name} by seat {action.seat}: it is seat {self.to_act}'s turn "
                f"({self.phase} phase)", "not_your_turn", RULE_TURN, isinstance(action, Play))
        serves = _PHASES[self.phase]
        expected, rule = serves.actions, RULE_TURN
        if self._takeback is not None:
            expected, rule = (Pass, TakeBack), RULE_TAKEBACK
        if not isinstance(action, expected):
            self._refuse(
                f"{name} by seat {action.seat}: in the {self.phase} phase only "
                f"{' or '.join(c.__name__ for c in expected)} is possible now", "wrong_phase",
                rule)
        check: Callable[[Action], Plan] = getattr(self, serves.check)
        return check(action)

    @property
    def bids(self) -> tuple[Bid, ...]:
        return tuple(self._bids)

    # views, serialisation and replay live in their own modules
    def view(self, seat: int) -> SeatView:
        from .view import view_of
        return view_of(self, self._seat_arg(seat))

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """The history (from index ``since``) as ``seat`` may see it now: others' private
        cards hidden, and what the variant's ``table`` options hide (engine.view);
        ``seat`` None: as a spectator sees it (nobody's private cards)."""
        from .view import events_seen
        if type(since) is not int:
            check_int(since, "since")
        return events_seen(self, None if seat is None else self._seat_arg(seat), since)

    def _seat_arg(self, seat: object, what: str = "seat") -> int:
        if type(seat) is not int or not 0 <= seat < self.players:
            return check_int(seat, what, 0, self.players - 1)
        return seat

    def snapshot(self) -> dict[str, Any]:
        return record.snapshot(self)

    def to_dict(self) -> dict[str, Any]:
        return record.game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], variant: Variant | None = None) -> Game:
        game: Game = record.rebuild(cls, data, variant)
        return game

    @classmethod
    def replay(cls, variant: Variant | str | os.PathLike[str], seed: int | str,
               actions: Iterable[Action], *, max_deals: int | None = None,
               deal_order: DealOrder | None = None, start_levels: Sequence[int] | None = None,
               first_dealer: int | None = None) -> Game:
        """Rebuild a game from (variant, seed, actions); raises IllegalAction if an action
        does not fit."""
        if isinstance(actions, (str, bytes, dict)) or not isinstance(actions, Iterable):
            raise ArgumentError(f"actions: expected a list of actions, got "
                                f"{type(actions).__name__} {actions!r:.40}")
        g = cls(variant, seed, max_deals=max_deals, deal_order=deal_order,
                start_levels=start_levels, first_dealer=first_dealer)
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

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[Any, ...]]:
        # pickled as its record: (variant, table size, seed, actions), rebuilt by replay
        # rules that are no file (a table's house rules) travel as their settings
        ref = self.variant_ref if isinstance(self.variant.source, (str, os.PathLike)) \
            else dict(self.variant.settings)
        return (_unpickle, (ref, self.seed, self.max_deals, self.deal_order,
                            tuple(self.actions), self.players, self.start_levels,
                            self.first_dealer))


def _check_game_args(seed: object, max_deals: object) -> None:
    """Types at the boundary (a saved game's fields arrive here): one line, not a
    TypeError deep in the deal."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ArgumentError(f"Game: seed must be an integer or a string, got "
                           f"{type(seed).__name__} {seed!r:.40}")
    if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int)
                                  or max_deals < 1):
        raise ArgumentError(f"Game: max_deals must be a number of deals (1 or more) or None, "
                           f"got {max_deals!r:.40}")


def _unpickle(variant_ref: str | dict[str, Any], seed: int | str, max_deals: int | None,
              deal_order: DealOrder | None, actions: tuple[Action, ...],
              players: int | None = None, start_levels: Sequence[int] | None = None,
              first_dealer: int | None = None) -> Game:
    from ..variants import load_variant

    return Game.replay(load_variant(variant_ref, players=players), seed, actions,
                       max_deals=max_deals, deal_order=deal_order, start_levels=start_levels,
                       first_dealer=first_dealer)


def _seat_arg(seat: object, players: int, what: str) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ArgumentError(f"Game: {what}: {seat!r:.40} is not a seat 0..{players - 1}")
    return seat


def _start_levels(levels: object, game: Game) -> tuple[int, ...]:
    """Each seat's starting level (ranks 0..12, or '2'..'A'); a team's seats share one."""
    from ..cards import parse_rank

    if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
        raise ArgumentError(f"Game: start_levels: expected one level per seat, got "
                            f"{levels!r:.40}")
    out: list[int] = []
    for lv in levels:
        if isinstance(lv, int) and not isinstance(lv, bool) and 0 <= lv <= 12:
            out.append(lv)
        elif isinstance(lv, str):
            out.append(parse_rank(lv))
        else:
            raise ArgumentError(f"Game: start_levels: {lv!r:.40} is not a level 2..A")
    if len(out) != game.players:
        raise ArgumentError(f"Game: start_levels: {len(out)} levels for {game.players} seats")
    for team in set(game.teams):
        if len({out[s] for s in range(game.players) if game.teams[s] == team}) > 1:
            raise ArgumentError("Game: start_levels: partners share their level (the seats "
                                "of a team rise together)")
    return tuple(out)


def _variant_ref(variant: Variant) -> str:
    """How a record names a loaded variant: its registered name when that name loads
    this very file, else its file path (a variant built from a mapping keeps its name;
    replaying it needs the Variant passed in). Remembered per Variant: finding the name
    scans the variant directories, and simulations make a Game every few deals."""
    ref = _REFS.get(variant)
    if ref is None:
        ref = _REFS[variant] = _find_ref(variant)
    return ref


_REFS: weakref.WeakKeyDictionary[Variant, str] = weakref.WeakKeyDictionary()


def _find_ref(variant: Variant) -> str:
    from ..variants.registry import find

    src = find(variant.name)
    if src is not None and (variant.path is None or src.path == variant.path):
        return variant.name
    return str(variant.path) if variant.path else variant.name
