"""What every phase of a deal shares: the phase names, the rules refusals cite, and the
base of the phase classes.

A ``Game`` (engine.game) is the one public face of a match; what happens in each phase
of a deal lives in that phase's module, as a class ``Game`` inherits from:

- ``engine.dealing``  — the deal and declarations (phase ``deal``), take-backs, trump;
- ``engine.exchange`` — the kitty: the burial (``bury``) and kitty theft (``steal``);
- ``engine.calling``  — finding friends: the dealer's calls (``call``), who joins;
- ``engine.tricks``   — tricks (``play``), throws and forced plays (``choose``);
- ``engine.scoring``  — the deal's score, levels, the next deal or the match's end.

Each phase class starts the state it owns (``_start_*``) and checks and performs the
actions of its phase; the state lives on the game (one object: ``Game.copy`` copies it
one level deep, the C play driver reads and writes it in bulk).
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import TYPE_CHECKING, NoReturn, TypeAlias

from ..cards import NUM_KINDS, card_str
from ..errors import VariantError
from .actions import Pass, cards_text, norm_cards
from .errors import IllegalAction, IllegalPlayAction
from .events import Passed

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from ..core import Context, Hand
    from ..core.results import Decomposition
    from ..deck import Composition
    from ..friends import Call, FriendRules, FriendTracker
    from ..model import Bid
    from ..rules import PlayRules
    from ..variants import Variant
    from .actions import Action, Declare
    from .events import CardDealt, Event
    from .legal import Legal

#: what checking a play hands to performing it: (the components of a lead that may be a
#: throw, else None; the play's core Hand). A follow the game listed itself has none.
PlayPlan: TypeAlias = "tuple[Decomposition | None, Hand]"

#: phases of the state machine
DEALING, BURYING, PLAYING, CHOOSING, OVER = "deal", "bury", "play", "choose", "over"
#: finding friends (找朋友): after burying, the dealer calls cards
CALLING = "call"
#: kitty theft (炒地皮, declare.kitty_theft): after a burial the other seats may overturn
STEALING = "steal"
#: a weak hand may ask for a redeal (declare.weak_hand_redeal) before the kitty is taken
REDEALING = "redeal"

RULE_DECLARE = "docs/rules.md §7 (declaring trump while dealing, seed 000 亮牌規則)"
RULE_BURY = "docs/rules.md §8 (the dealer buries as many cards as the kitty held)"
RULE_BURY_LIMIT = ("docs/variants.md bury (what the kitty may hold: no point cards, no "
                   "trumps, no called card by a thief; as few as the hand allows)")
RULE_LEAD = "docs/rules.md §4 (leading and throws, seed 000 出牌規則)"
RULE_FOLLOW = "docs/rules.md §5 (following suit and shape, seed 000 出牌規則)"
RULE_TURN = "docs/rules.md §4 (play order: the trick's leader, then each next seat)"
RULE_CHOOSE = "docs/rules.md §4 (failed throw: the next player chooses the forced play, seed 002)"
RULE_CALL = "docs/variants.md friends (finding friends: the dealer's calls after burying)"
RULE_PLAY_TAKEBACK = ("docs/variants.md table.play_takeback (the last play of a trick in "
                      "progress, before the next seat acts)")
RULE_TAKEBACK = ("docs/variants.md declare.takeback, takeback_while_standing (keep one's "
                 "declaration or take it back)")


class Phase:
    """The base of the phase classes: what they all read of the game, and refusals."""

    variant: Variant
    players: int
    phase: str
    to_act: int | None
    hands: list[list[int]]

    if TYPE_CHECKING:
        # The state the phases share, set by Game.__init__ and the phases' ``_start_*``,
        # and the methods one phase calls on another: declared here for the type checker
        # (each phase module is checked on its own against these names), absent at run
        # time so that nothing about the game object changes.
        seed: int | str
        max_deals: int | None
        deal_order: Callable[[int, int, tuple[int, ...]], Sequence[int]] | None
        teams: tuple[int, ...]
        team_ids: tuple[int, ...]
        decks: int
        composition: Composition
        hand_size: int
        kitty_size: int
        rules: PlayRules
        friend_rules: FriendRules | None
        table_rules: dict[str, Any]
        actions: list[Action]
        events: list[Event]
        deal_number: int
        deals_played: int
        dealer: int | None
        dealer_team: int
        level: int
        levels: list[int]
        trump: int | None
        #: the deal's core Context; None while dealing, before the trump is known (the
        #: phases that read it run after)
        ctx: Context
        _eff: list[int]
        _str: list[int]
        _suit_kinds: list[list[int]]
        hand_len: list[int]
        side: tuple[int, ...]
        sides_known: bool
        calls: tuple[Call, ...]
        joined: tuple[tuple[int, int], ...]
        _friends: FriendTracker | None
        winner: int | None
        trick_points: int
        penalty: int
        captured: list[int]
        penalties: list[int]
        buried: list[int]
        leader: int | None
        _top_level: int
        _start_levels: tuple[int, ...]
        _unshuffled: bytes
        _dealt_events: tuple[tuple[CardDealt, ...], ...]
        _redeal_limit: int
        _takeback_rule: str
        _theft_rule: str
        _theft_burier_rule: str
        _own_level_rule: bool
        _weak_rule: dict[str, Any] | None
        _weak_redeals: int
        _attempt: int
        _bury_rule: dict[str, Any]
        _calls_first: bool
        _burier: int | None
        _seat_level: list[int]
        _while_standing_rule: str
        _play_takeback_rule: bool
        # the declaration hooks' kept results (Game.__init__ names their keys)
        _strength_cache: dict[Any, Any]
        _overturn_cache: dict[Any, Any]
        _declare_cache: dict[Any, Any]
        _candidates: dict[Any, Any]
        _bid_cache: dict[Any, Any]
        _stamp: int
        _legal: Legal | None
        _seat_hands: list[Hand | None]
        _bids: list[Bid]
        # one phase's own state that the views read (engine/view.py takes a Phase)
        _n_deal: int
        _dealt: int
        kitty: tuple
        played: list[int]
        trick_number: int
        _trick: list
        _tricks: tuple
        _choice: tuple[int, tuple[tuple[int, ...], ...], tuple[int, int]] | None
        _undo: tuple | None

        def _perform(self, action: Action, plan: PlayPlan | Bid | None) -> list[Event]:
            raise NotImplementedError

        def _start_deal(self, ev: list[Event], attempt: int) -> None:
            raise NotImplementedError

        def _start_exchange(self) -> None:
            raise NotImplementedError

        def _start_sides(self) -> None:
            raise NotImplementedError

        def _start_tricks(self) -> None:
            raise NotImplementedError

        def _start_play(self) -> None:
            raise NotImplementedError

        def _levels_tuple(self) -> tuple[int, ...]:
            raise NotImplementedError

        def team_levels(self) -> dict[int, int]:
            raise NotImplementedError

        def _hand_obj(self, cards: tuple[int, ...]) -> Hand:
            raise NotImplementedError

        def _take_kitty(self, kitty: tuple[int, ...], ev: list[Event]) -> None:
            raise NotImplementedError

        def _seat_sides(self) -> None:
            raise NotImplementedError

        def _tally_sides(self) -> None:
            raise NotImplementedError

        def _count_friends(self, seat: int, cards: tuple[int, ...], ev: list[Event]) -> None:
            raise NotImplementedError

        def _score(self, ev: list[Event], last_winner: int, winning: tuple[int, ...],
                   lead: tuple[int, ...]) -> None:
            raise NotImplementedError

        def _offers(self, seat: int) -> tuple[Any, ...]:
            raise NotImplementedError

        def _decline(self, seat: int) -> None:
            raise NotImplementedError

        def _check_declare(self, action: Declare) -> Bid:
            raise NotImplementedError

        def _add_bid(self, bid: Bid, ev: list[Event]) -> None:
            raise NotImplementedError

        def _key_bids(self) -> None:
            raise NotImplementedError

        def _start_redeal(self, kitty: tuple[int, ...], ev: list[Event]) -> bool:
            raise NotImplementedError

        def _begin_theft(self, burier: int, ev: list[Event]) -> None:
            raise NotImplementedError

    def _refuse(self, msg: str, reason: str, rule: str, play: bool = False) -> NoReturn:
        cls = IllegalPlayAction if play else IllegalAction
        raise cls(msg, reason, rule)

    def _check_in_hand(self, action, what: str, rule: str, play: bool = False) -> None:
        hand = self.hands[action.seat]
        cards = action.cards
        for k in set(cards):
            n = cards.count(k)
            if n > hand[k]:
                self._refuse(
                    f"seat {action.seat} cannot {what} {cards_text(action.cards)}: it holds "
                    f"{hand[k]} of {card_str(k)}, not {n}", "not_in_hand", rule, play)

    def _seat_from_hook(self, seat, hook: str) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise VariantError(f"variant {self.variant.name}: hook {hook} returned seat "
                               f"{seat!r}; seats are 0..{self.players - 1}")
        return seat


def _ids(cards) -> tuple[int, ...]:
    """Kind ids of whatever a hook returned (a core Hand, ids or tokens)."""
    if hasattr(cards, "cards") and callable(cards.cards):
        cards = cards.cards()
    return norm_cards(tuple(cards) if not isinstance(cards, str) else cards)


_KINDS_DESC = range(NUM_KINDS - 1, -1, -1)


def _cards_desc(counts) -> tuple:
    """The cards of 54 counts, ids descending."""
    return tuple(chain.from_iterable(map(repeat, _KINDS_DESC, reversed(counts))))


_TABLES: dict[Context, tuple[list[int], list[int], list[list[int]]]] = {}


def _tables(ctx: Context) -> tuple[list[int], list[int], list[list[int]]]:
    """Per context: effective suit and strength of each kind, and the kinds of each
    effective suit (4 = trumps), high kind ids first."""
    t = _TABLES.get(ctx)
    if t is None:
        eff = [ctx.effective_suit(k) for k in range(NUM_KINDS)]
        strength = [ctx.strength(k) for k in range(NUM_KINDS)]
        kinds = [[k for k in range(NUM_KINDS - 1, -1, -1) if eff[k] == s] for s in range(5)]
        t = _TABLES[ctx] = (eff, strength, kinds)
    return t


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


def _core():
    global _core_module
    if _core_module is None:
        from .. import core  # imported late: the engine module loads without the C core

        _core_module = core
    return _core_module


_core_module = None
