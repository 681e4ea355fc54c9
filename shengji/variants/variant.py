"""The Variant object: resolved settings, its own plugin manager, and one convenience
method per hook (what the engine and the conformance runner call).

Each method asks the hook relay and checks the answer's type, so a plugin returning
nonsense is a VariantError naming the hook rather than a crash deep in the engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, overload

from .. import plugins as plugin_mod
from ..cards import BIG_JOKER, LITTLE_JOKER, SUITS, level_name, parse_cards, parse_level, suit_of
from ..deck import Composition
from ..errors import ArgumentError, RulesError, ShengjiError, VariantError, check_int
from ..friends import FriendRules, fewest_calls
from ..model import Bid, FailedThrow, NoBidOutcome, ScoreOutcome
from ..rules import PlayRules
from .files import display_path
from .loading import Resolved, where_set

if TYPE_CHECKING:
    import pluggy

    from ..core import Context
    from ..hookspecs import HookVariant

T = TypeVar("T")
#: when a declaration is shown (hook shengji_may_overturn): while dealing, or in a theft round
PHASES = ("deal", "steal")


def _of_type(value: object, types: type | tuple[type, ...], what: str,
             none: bool = False) -> None:
    if (value is None and none) or isinstance(value, types):
        return
    names = " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
    raise ArgumentError(f"{what}: expected {names}{' or None' if none else ''}, got "
                        f"{type(value).__name__} {value!r:.40}")


def _items(value: object, what: str) -> list[Any]:
    """A list argument (any iterable but a string, bytes or mapping) as a list."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ArgumentError(f"{what}: expected a list, got {type(value).__name__} "
                            f"{value!r:.40}")
    return list(value)


def _level(level: int | str) -> int:
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 13:
        return level
    return parse_level(level)  # a rank, or NT (13)


class Variant:
    """One ruleset. Build it with ``shengji.variants.load_variant``."""

    def __init__(self, resolved: Resolved, extra_plugins: Iterable[object] = (),
                 allow_plugins: Iterable[str] = ()) -> None:
        self.name: str = resolved.name
        self.path: Path | None = resolved.path
        self.files = [f.path for f in resolved.files]
        self._vfiles = resolved.files  # with line numbers, for messages
        self.settings: dict[str, Any] = resolved.settings
        s = self.settings
        #: the cards shuffled (shengji.deck.Composition); ``decks`` is its number of packs
        self.composition = Composition.from_settings(s)
        self.decks: int = self.composition.packs
        self.players: int = s["players"]
        self.hand_size: int = s["hand_size"]
        self.kitty_size: int = s["kitty_size"]
        self.teams: tuple[int, ...] = tuple(s["teams"])
        #: finding friends (找朋友): the calls' rules at this table, else None (fixed teams)
        self.friend_rules: FriendRules | None = None
        if s.get("game_mode") == "finding_friends":
            try:
                self.friend_rules = FriendRules.from_settings(s, self.players)
            except VariantError as e:
                raise VariantError(f"{display_path(self.path)}: {e}") from None
        self._contexts: dict[tuple[int | str, int | str | None], Context] = {}
        #: what load_variant was given (reloading with another player count uses it)
        self.source: str | PathLike[str] | Mapping[str, Any] = resolved.path or s
        #: the player count given to load_variant (a CLI's --seats), else None
        self.players_override: int | None = None
        self.extra_plugins = tuple(extra_plugins)
        self.allow_plugins = tuple(allow_plugins)
        self.pm = plugin_mod.new_manager()
        self.plugins: list[object] = []  # loaded plugin objects, in registration order
        allowed = set(allow_plugins) | resolved.trusted_plugins
        for name, where in resolved.plugins:
            obj = plugin_mod.resolve_plugin(name, where, trusted=name in allowed)
            plugin_mod.register(self.pm, obj, f"{where}: plugin {name!r}", name=name)
            self.plugins.append(obj)
        for obj in self.extra_plugins:
            label = f"plugin {getattr(obj, '__name__', type(obj).__name__)!r}"
            plugin_mod.register(self.pm, obj, f"variant {self.name}: {label}")
            self.plugins.append(obj)
        self.hook = self.pm.hook
        self._direct = _direct_hooks(self.pm)
        # built now, so that a bad `play:` section fails at load time
        self.play_rules: PlayRules = self._build_play_rules()
        self._check_declarable()
        self._check_callable()

    def __repr__(self) -> str:
        return f"<Variant {self.name} ({display_path(self.path)})>"

    # --- calling hooks -----------------------------------------------------------------

    def _plugin_hook(self, hooks: Iterable[str]) -> str | None:
        """The first of ``hooks`` (hook names) that one of the variant's plugins
        implements; None when the built-in behaviour serves them all (what the C
        playout and the play driver can stand in for)."""
        for plugin in self.plugins:
            for hook in hooks:
                if hasattr(plugin, hook):
                    return hook
        return None

    @overload
    def _call(self, hook: str, expect: type[T], **kwargs: Any) -> T: ...
    @overload
    def _call(self, hook: str, expect: tuple[type, ...], **kwargs: Any) -> Any: ...

    def _call(self, hook: str, expect: type | tuple[type, ...], **kwargs: Any) -> Any:
        """Call a hook; wrap a plugin's own crash and check the result's type (the
        result is of ``expect``)."""
        try:
            direct = self._direct.get(hook)
            if direct is None:
                result = getattr(self.hook, hook)(variant=self, **kwargs)
            else:  # only the built-in implements it: call that (pluggy would, slower)
                impls, impl, argnames = direct
                if len(impls) == 1 and impls[0] is impl:
                    if argnames is None:  # it takes (variant, every argument of the spec)
                        result = impl.function(self, **kwargs)
                    else:
                        kwargs["variant"] = self
                        result = impl.function(*[kwargs[a] for a in argnames])
                else:  # a plugin registered since: pluggy again
                    del self._direct[hook]
                    result = getattr(self.hook, hook)(variant=self, **kwargs)
        except ShengjiError:
            raise
        except Exception as e:
            raise VariantError(
                f"variant {self.name}: hook {hook} raised {type(e).__name__}: {e}"
            ) from e
        if not isinstance(result, expect) or isinstance(result, bool) and expect is int:
            raise VariantError(
                f"variant {self.name}: hook {hook} returned {result!r}; expected "
                + (" or ".join(t.__name__ for t in expect) if isinstance(expect, tuple)
                   else expect.__name__)
            )
        return result

    def _build_play_rules(self) -> PlayRules:
        try:
            return self._call("shengji_play_rules", PlayRules)
        except RulesError as e:
            raise VariantError(self._where_play(str(e))) from None

    def _where_play(self, message: str) -> str:
        """A PlayRules error ('following.pair: ...') with the file and line of the key."""
        field, sep, rest = message.partition(": ")
        if sep and re.fullmatch(r"[a-z_]+(\.[\w ]+)?", field):
            key, _, shape = field.partition(".")
            path = ("play", key) + ((shape,) if shape else ())
            return f"{where_set(self._vfiles, path)}: {rest}"
        return f"{display_path(self.path)}: play: {message}"

    def _check_declarable(self) -> None:
        """Refuse a variant whose declaration hooks accept no bid at any level: its deals
        could never name trump or the first dealer by declaring (issue 10: such a
        variant used to redeal its first deal until the engine gave up)."""
        for level in range(13):
            kinds = [suit * 13 + level for suit in range(4)] + [LITTLE_JOKER, BIG_JOKER]
            for k in kinds:
                for n in range(1, self.composition.counts[k] + 1):  # what the deck holds
                    bid = self.bid(0, (k,) * n, level)
                    if bid.strength and self.may_overturn(None, bid):
                        return
        raise VariantError(
            f"{display_path(self.path)}: declare: no declaration is ever accepted (no group "
            "of level cards or jokers gets a strength that may stand on an empty table, at "
            "any level; hooks shengji_declaration_strength, shengji_may_overturn)"
        )

    def _check_callable(self) -> None:
        """Refuse finding friends whose dealer could be left with fewer cards to call than
        calls to make (issue 34: every rank constant, and the call phase had nothing to
        offer)."""
        rules = self.friend_rules
        if rules is None or not rules.calls:
            return
        n, level, trump = fewest_calls(rules, self.composition.counts,
                                       self.play_rules.constant_ranks)
        if n < rules.calls:
            raise VariantError(
                f"{display_path(self.path)}: friends.calls: {rules.calls} calls, and a deal "
                f"at level {level_name(level)} with trump "
                f"{'none' if trump is None else SUITS[trump]} leaves {n} cards that may be "
                f"called (constant_ranks, friends.may_call: {rules.may_call})")

    def context(self, level: int | str, trump: int | str | None) -> Context:
        """The core's Context for one deal (cached per level and trump)."""
        from ..core import Context  # imported late: the variant system works without C

        _of_type(level, (int, str), "level")
        _of_type(trump, (int, str), "trump", none=True)
        key = (level, trump)
        if key not in self._contexts:
            self._contexts[key] = Context(self.play_rules, level, trump)
        return self._contexts[key]

    def _context(self, level: int, trump: int | None) -> Context:
        """``context`` for the engine's own level and trump: no argument checks."""
        ctx = self._contexts.get((level, trump))
        return ctx if ctx is not None else self.context(level, trump)

    # --- declaring ---------------------------------------------------------------------

    def _cards(self, cards: str | Iterable[str] | Iterable[int],
               what: str = "declaration") -> tuple[int, ...]:
        ids = parse_cards(cards)
        self.composition.check(ids, what=what)
        return tuple(sorted(ids))

    def declaration_strength(self, cards: str | Iterable[str] | Iterable[int],
                             level: int | str) -> tuple[int, ...]:
        """Strength of showing ``cards`` at this level; ``()`` = they cannot declare."""
        return self._strength(self._cards(cards), _level(level))

    # The engine's entry points (``_strength``, ``_overturns``, ``_score``, ...): the same
    # hook calls and result checks as the public methods, for arguments the engine built
    # itself (kind ids sorted, seats in range, its own Bids): no argument checks.

    def _strength(self, cards: tuple[int, ...], level: int) -> tuple[int, ...]:
        return tuple(self._call("shengji_declaration_strength", tuple, cards=cards,
                                level=level))

    def bid(self, seat: int, cards: str | Iterable[str] | Iterable[int],
            level: int | str) -> Bid:
        """A Bid record for ``cards`` shown by ``seat`` (strength ``()`` if they cannot
        declare). Jokers name no trump; level cards name their suit."""
        self._seat(seat)
        ids = self._cards(cards)
        strength = self.declaration_strength(ids, level)
        trump = None if not ids or ids[0] in (LITTLE_JOKER, BIG_JOKER) else suit_of(ids[0])
        return Bid(seat=seat, cards=ids, trump=trump, strength=strength)

    def may_overturn(self, current_bid: Bid | None, new_bid: Bid,
                     bids: Sequence[Bid] | None = None, phase: str = "deal") -> bool:
        """``bids``: the deal's accepted bids so far (default: just ``current_bid``);
        ``phase``: ``deal`` (while dealing) or ``steal`` (a kitty-theft round)."""
        _of_type(current_bid, Bid, "current_bid", none=True)
        _of_type(new_bid, Bid, "new_bid")
        if phase not in PHASES:
            raise ArgumentError(f"phase: {phase!r:.40} is not one of {', '.join(PHASES)}")
        if bids is None:
            bids = () if current_bid is None else (current_bid,)
        for i, b in enumerate(_items(bids, "bids")):
            _of_type(b, Bid, f"bids[{i}]")
        return self._overturns(current_bid, new_bid, tuple(bids), phase)

    def _overturns(self, current_bid: Bid | None, new_bid: Bid,
                   bids: tuple[Bid, ...], phase: str = "deal") -> bool:
        return self._call("shengji_may_overturn", bool, current=current_bid, new=new_bid,
                          bids=bids, phase=phase)

    def declare(self, steps: Sequence[Any], level: int | str) -> tuple[list[bool], Bid | None]:
        """Judge declarations shown in order: ``steps`` are ``(seat, cards)`` pairs or
        ``{seat, cards}`` mappings. Returns (accepted per step, the standing bid)."""
        accepted: list[bool] = []
        bids: list[Bid] = []
        for i, step in enumerate(_items(steps, "steps")):
            if isinstance(step, Mapping) and "seat" in step and "cards" in step:
                seat, cards = step["seat"], step["cards"]
            elif isinstance(step, (tuple, list)) and len(step) == 2:
                seat, cards = step
            else:
                raise ArgumentError(f"steps[{i}]: expected (seat, cards) or {{seat, cards}}, "
                                    f"got {step!r:.40}")
            new = self.bid(seat, cards, level)
            ok = bool(new.strength) and self.may_overturn(bids[-1] if bids else None, new, bids)
            accepted.append(ok)
            if ok:
                bids.append(new)
        return accepted, (bids[-1] if bids else None)

    def no_declaration(self, deal_number: int, kitty: str | Iterable[str] | Iterable[int],
                       level: int | str,
                       redeals: int = 0) -> NoBidOutcome:
        check_int(deal_number, "deal_number", 0)
        check_int(redeals, "redeals", 0)
        return self._call(
            "shengji_no_declaration",
            NoBidOutcome,
            deal_number=deal_number,
            kitty=tuple(parse_cards(kitty)),
            level=_level(level),
            redeals=redeals,
        )

    def first_dealer(self, bids: Sequence[Bid], seed: str = "") -> int:
        bids = _items(bids, "bids")
        for i, b in enumerate(bids):
            _of_type(b, Bid, f"bids[{i}]")
        seat = self._call(
            "shengji_first_dealer", int, bids=list(bids), players=self.players, seed=str(seed)
        )
        if not 0 <= seat < self.players:
            self._bad_result("shengji_first_dealer", seat, f"a seat 0..{self.players - 1}")
        return seat

    # --- playing -------------------------------------------------------------------------

    def failed_throw(self, result: Any, leader: int, lead: Any = None) -> FailedThrow:
        if not all(hasattr(result, a) for a in ("forced", "forced_options", "blocker")):
            raise ArgumentError(f"result: expected a ThrowResult (forced, forced_options, "
                                f"blocker), got {type(result).__name__} {result!r:.40}")
        self._seat(leader, "leader")
        return self._failed_throw(result, leader, lead)

    def _failed_throw(self, result: Any, leader: int, lead: Any) -> FailedThrow:
        return self._call(
            "shengji_failed_throw", FailedThrow, result=result, leader=leader,
            players=self.players, lead=lead
        )

    def kitty_multiplier(self, context: Context, play: Any, lead: Any = None) -> int:
        if not callable(getattr(context, "kitty_multiplier", None)):
            raise ArgumentError(f"context: expected a core Context, got "
                                f"{type(context).__name__} {context!r:.40}")
        return self._kitty_multiplier(context, play, lead)

    def _kitty_multiplier(self, context: Context, play: Any, lead: Any) -> int:
        value = self._call(
            "shengji_kitty_multiplier", int, context=context, play=play, lead=lead
        )
        if value < 1:
            self._bad_result("shengji_kitty_multiplier", value, "a multiplier >= 1")
        return value

    # --- after the deal --------------------------------------------------------------------

    def score_deal(self, attacker_points: int, short_handed: bool = False) -> ScoreOutcome:
        """``short_handed``: finding friends, the dealer's side ended smaller than called."""
        check_int(attacker_points, "attacker_points", -(2**31), 2**31)
        return self._score(attacker_points, bool(short_handed))

    def _score(self, attacker_points: int, short_handed: bool) -> ScoreOutcome:
        outcome = self._call("shengji_score_deal", ScoreOutcome, attacker_points=attacker_points,
                             short_handed=short_handed)
        if outcome.next not in ("dealers", "attackers") or not (
            isinstance(outcome.rise, int) and outcome.rise >= 0
        ):
            self._bad_result("shengji_score_deal", outcome, "next dealers|attackers, rise >= 0")
        return outcome

    def next_dealer(self, dealer: int, outcome: ScoreOutcome, side: Sequence[int] = ()) -> int:
        """``side``: the dealer's side at the end of the deal (default: the dealer's team)."""
        self._seat(dealer, "dealer")
        _of_type(outcome, ScoreOutcome, "outcome")
        seats = tuple(self._seat(s, "side[]") for s in _items(side, "side"))
        seats = seats or tuple(s for s in range(self.players)
                               if self.teams[s] == self.teams[dealer])
        return self._next_dealer(dealer, outcome, seats)

    def _next_dealer(self, dealer: int, outcome: ScoreOutcome, side: tuple[int, ...]) -> int:
        seat = self._call(
            "shengji_next_dealer", int, dealer=dealer, outcome=outcome, players=self.players,
            side=side,
        )
        if not 0 <= seat < self.players:
            self._bad_result("shengji_next_dealer", seat, f"a seat 0..{self.players - 1}")
        return seat

    def start_level(self) -> int:
        """The lowest starting level (every seat's, unless levels start per team)."""
        return min(self.start_levels())

    def start_levels(self) -> tuple[int, ...]:
        """Each seat's starting level (hook shengji_start_level: one for all, or one per
        seat; the seats of a team share theirs)."""
        got = self._call("shengji_start_level", (int, tuple, list))
        levels = (got,) * self.players if isinstance(got, int) else tuple(got)
        if (len(levels) != self.players or any(isinstance(lv, bool) or not isinstance(lv, int)
                                                 or not 0 <= lv <= 12 for lv in levels)):
            self._bad_result("shengji_start_level", got,
                             f"a level rank 0..12, or one per seat ({self.players})")
        for s, t in enumerate(self.teams):
            if levels[s] != levels[self.teams.index(t)]:
                self._bad_result("shengji_start_level", got,
                                 "one level per team: the seats of a team rise together")
        return levels

    def _seat(self, seat: object, what: str = "seat") -> int:
        return check_int(seat, what, 0, self.players - 1)

    @property
    def top_level(self) -> int:
        """The highest level a deal is played at: A (12), or NT (13) when the match's
        last level is NT. A seat's level above it has passed the last level."""
        return max(12, parse_level(self.settings["match_end"]["last_level"]))

    def advance(self, level: int, rise: int, defending: bool,
                deal_level: int | None = None) -> int:
        """A seat's level after rising ``rise`` levels (hook shengji_advance);
        ``deal_level``: the deal's (the dealer's) level, default the seat's own."""
        check_int(level, "level", 0, 13)  # 2..A, or NT (13)
        check_int(rise, "rise", 0)
        if deal_level is None:
            deal_level = level
        check_int(deal_level, "deal_level", 0, 13)
        new = self._call("shengji_advance", int, level=level, rise=rise,
                         defending=bool(defending), deal_level=deal_level)
        # a rise never lowers a level, and goes at most ``rise`` levels, or (a ladder's
        # rung, advancement.ladder) up to just past the last level
        top = self.top_level
        if not level <= new <= max(level + rise, top + 1):
            self._bad_result("shengji_advance", new,
                             f"a level {level}..{max(level + rise, top + 1)}")
        if new > top and self.settings["match_end"]["cycle"]:
            new %= top + 1  # Ran's no-cap: past the last level, round again from 2
        return new

    def dealers_back_to_start(self, deal_level: int,
                              last_play: str | Iterable[str] | Iterable[int],
                              attackers_won: bool) -> bool:
        """Does the dealers' side fall back to the start level (the jack rule)?"""
        check_int(deal_level, "deal_level", 0, 13)
        return self._back_to_start(deal_level, tuple(parse_cards(last_play)),
                                   bool(attackers_won))

    def _back_to_start(self, deal_level: int, last_play: tuple[int, ...],
                       attackers_won: bool) -> bool:
        return self._call("shengji_dealers_back_to_start", bool, deal_level=deal_level,
                          last_play=last_play, attackers_won=attackers_won)

    def _bad_result(self, hook: str, result: object, expected: str) -> NoReturn:
        raise VariantError(
            f"variant {self.name}: hook {hook} returned {result!r}; expected {expected}"
        )

    def match_winner(self, levels: Mapping[int, int], outcome: ScoreOutcome, dealer_team: int,
                     side: Sequence[int] = ()) -> int | None:
        """``side``: the dealer's side (default: every seat of ``dealer_team``)."""
        _of_type(levels, Mapping, "levels")
        _of_type(outcome, ScoreOutcome, "outcome")
        check_int(dealer_team, "dealer_team", 0)
        seats = tuple(self._seat(s, "side[]") for s in _items(side, "side"))
        seats = seats or tuple(s for s, t in enumerate(self.teams) if t == dealer_team)
        return self._match_winner(dict(levels), outcome, dealer_team, seats)

    def _match_winner(self, levels: dict[int, int], outcome: ScoreOutcome, dealer_team: int,
                      side: tuple[int, ...]) -> int | None:
        winner: int | None = self._call(
            "shengji_match_winner",
            (int, type(None)),
            levels=levels,
            outcome=outcome,
            dealer_team=dealer_team,
            side=side,
        )
        return winner


if TYPE_CHECKING:  # a Variant is what the hook specifications promise a hook
    _VARIANT_FOR_HOOKS: type[HookVariant] = Variant


def _direct_hooks(pm: pluggy.PluginManager) -> dict[str, tuple[Any, Any, tuple[str, ...] | None]]:
    """hook name -> (its implementations list, the one implementation, its argument
    names or None when they are ``variant`` and the spec's own) for every ``shengji_``
    hook that only one plain implementation serves (the built-in behaviour, when no
    plugin overrides it): ``Variant._call`` calls that function as pluggy's
    ``_multicall`` would, without pluggy's per-call cost. The live list is kept so that
    a plugin registered later sends the hook through pluggy."""
    out: dict[str, tuple[Any, Any, tuple[str, ...] | None]] = {}
    for name in dir(pm.hook):
        if not name.startswith("shengji_"):
            continue
        caller = getattr(pm.hook, name)
        impls = getattr(caller, "_hookimpls", None)
        spec = getattr(caller, "spec", None)
        if impls is None or spec is None or len(impls) != 1 or not spec.opts.get("firstresult"):
            continue
        impl = impls[0]
        if impl.hookwrapper or impl.wrapper or not set(impl.argnames) <= set(spec.argnames):
            continue
        names = tuple(impl.argnames)
        argnames: tuple[str, ...] | None = names
        if names[:1] == ("variant",) and set(names[1:]) == set(spec.argnames) - {"variant"}:
            argnames = None  # called with the spec's keywords as they are
        out[name] = (impls, impl, argnames)
    return out
