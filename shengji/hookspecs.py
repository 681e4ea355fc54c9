"""Every hook a variant plugin can implement, in one place (the model is pytest's
``hookspec.py``). Each hook is prefixed ``shengji_`` and takes the ``variant`` it serves
(a ``shengji.variants.Variant``: its resolved settings are ``variant.settings``; the
specifications name it by what a hook may read of it, ``HookVariant``, because the
Variant builds its plugin manager from this module).

How results combine is stated on each hook. Most hooks *decide one rule*: they are
``firstresult`` — the first non-None answer wins, and the built-in behaviour is registered
as a ``trylast`` plugin (``shengji.builtin_rules``) so any variant plugin overrides it.

Hot paths stay in C: these hooks run once per variant, per deal or per decision, and the
data they return (PlayRules, ladders) is handed to the core. No hook runs per card.

The specifications are typed, for plugin authors and their type checkers: annotate an
implementation with its specification's types, for example::

    @hookimpl
    def shengji_score_deal(variant: Variant, attacker_points: int,
                           short_handed: bool) -> ScoreOutcome | None: ...

An implementation takes any subset of the parameters (pluggy refuses one that names a
parameter its specification lacks); returning ``None`` defers to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:
    from .core import Context, Hand, ThrowResult
    from .deck import Composition
    from .friends import FriendRules
    from .model import Bid, FailedThrow, NoBidOutcome, ScoreOutcome
    from .rules import Ladder, PlayRules, Shape

PROJECT = "shengji"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

__all__ = [
    "hookspec",
    "hookimpl",
    "HookVariant",
    "shengji_play_rules",
    "shengji_following_priorities",
    "shengji_declaration_strength",
    "shengji_may_overturn",
    "shengji_no_declaration",
    "shengji_failed_throw",
    "shengji_kitty_multiplier",
    "shengji_score_deal",
    "shengji_next_dealer",
    "shengji_first_dealer",
    "shengji_start_level",
    "shengji_advance",
    "shengji_dealers_back_to_start",
    "shengji_match_winner",
]


class HookVariant(Protocol):
    """What a hook may read of the ``shengji.variants.Variant`` it serves (the Variant
    is one: the type checker holds it to this)."""

    name: str
    settings: dict[str, Any]  # resolved, after ``extends``
    composition: Composition
    decks: int
    players: int
    hand_size: int
    kitty_size: int
    teams: tuple[int, ...]  # teams[seat] -> team id
    friend_rules: FriendRules | None
    play_rules: PlayRules
    hook: pluggy.HookRelay  # the variant's hooks, to ask another one

    def context(self, level: int | str, trump: int | str | None) -> Context:
        """The core's Context for one deal (cached)."""
        ...


# --- rules handed to the C core (once per variant) ----------------------------------


@hookspec(firstresult=True)
def shengji_play_rules(variant: HookVariant) -> PlayRules | None:
    """Build the play-phase rules of the variant.

    :param variant: the Variant being assembled.
    :return: a ``shengji.rules.PlayRules``. First non-None result wins; the built-in
        implementation reads the ``play:`` settings and asks
        ``shengji_following_priorities`` for the ladders.
    """


@hookspec(firstresult=True)
def shengji_following_priorities(variant: HookVariant) -> Mapping[Shape | str, Ladder] | None:
    """Following priorities (跟牌优先级) as data.

    :param variant: the Variant.
    :return: a mapping ``{led shape: ladder}`` (shapes and patterns as in
        ``shengji.rules``); shapes not listed use the generated default ladder.
        First non-None result wins.
    """


# --- declaring trump while dealing (per declaration) --------------------------------


@hookspec(firstresult=True)
def shengji_declaration_strength(variant: HookVariant, cards: tuple[int, ...],
                                 level: int) -> tuple[int, ...] | None:
    """Strength of a declaration, or whether these cards can declare at all.

    :param variant: the Variant.
    :param cards: tuple of kind ids shown together (all of one declaration).
    :param level: the level rank (0..12) of the deal.
    :return: a tuple of ints (compared lexicographically, higher overturns lower), or
        ``()`` when the cards cannot declare (wrong rank, single joker, too few cards).
        First non-None result wins.
    """


@hookspec(firstresult=True)
def shengji_may_overturn(variant: HookVariant, current: Bid | None, new: Bid,
                         bids: Sequence[Bid], phase: str) -> bool | None:
    """May ``new`` replace the standing declaration ``current``?

    :param variant: the Variant.
    :param current: the standing ``shengji.model.Bid`` or None if nobody declared yet.
    :param new: the proposed ``Bid`` (its strength already computed).
    :param bids: every accepted ``Bid`` of the deal so far, in order (``current`` is the
        last), for rules that look at a seat's own earlier bid.
    :param phase: when the declaration is shown: ``"deal"`` while the cards are dealt
        and in the round after the last card, ``"steal"`` in a kitty-theft round after a
        burial (炒地皮, ``declare.kitty_theft``), where house rules often differ.
    :return: True to accept, False to refuse. Covers overturning (反主), reinforcing
        (自保, same seat and suit), overturning oneself (自反) and joker no-trump.
        First non-None result wins (built-in: the ``declare`` settings; in the
        ``steal`` phase those of ``declare.theft`` replace them).
    """


@hookspec(firstresult=True)
def shengji_no_declaration(variant: HookVariant, deal_number: int, kitty: Sequence[int],
                           level: int, redeals: int) -> NoBidOutcome | None:
    """What happens when the deal ends with no declaration.

    :param variant: the Variant.
    :param deal_number: 0 for the first deal of the match.
    :param kitty: the kitty's cards as kind ids, in the order they were set aside.
    :param level: the level rank of the deal.
    :param redeals: how many times this deal was already redealt in a row.
    :return: a ``shengji.model.NoBidOutcome`` (play no trump; a suit; or redeal).
        First non-None result wins. The engine redeals at most ``declare.redeal_limit``
        times in a row: past it, a redeal answer is played with its ``trump`` instead.
    """


# --- playing (per decision) -----------------------------------------------------------


@hookspec(firstresult=True)
def shengji_failed_throw(variant: HookVariant, result: ThrowResult, leader: int,
                         players: int, lead: Hand) -> FailedThrow | None:
    """Resolve a failed throw (甩牌失败).

    :param variant: the Variant.
    :param result: the core's ``ThrowResult`` (``forced``, ``forced_options``, ``blocker``).
    :param leader: seat of the thrower.
    :param players: number of seats.
    :param lead: the throw attempted (a ``Hand``): every card, so a penalty may count the
        cards a forced play takes back.
    :return: a ``shengji.model.FailedThrow``: the options, who chooses among several
        (a seat, or None when there is one option) and the penalty in points the other
        side gains: per attempt (``penalty``), and per card of the attempt the forced play
        leaves out (``penalty_per_card``; with several options, charged once one is
        chosen). First non-None result wins.
    """


@hookspec(firstresult=True)
def shengji_kitty_multiplier(variant: HookVariant, context: Context, play: Hand,
                             lead: Hand) -> int | None:
    """Kitty multiplier (抠底倍数) when the attackers win the last trick.

    :param variant: the Variant.
    :param context: the deal's ``shengji.core.Context``.
    :param play: the winning play (``Hand``); ``lead``: the trick's lead (``Hand``).
    :return: an int ≥ 1. First non-None result wins; the built-in asks the core.
    """


# --- after the deal / the match ---------------------------------------------------------


@hookspec(firstresult=True)
def shengji_score_deal(variant: HookVariant, attacker_points: int,
                       short_handed: bool) -> ScoreOutcome | None:
    """The scoring table: attackers' points → who deals next and how many levels rise.

    :param variant: the Variant (``variant.decks`` gives the deck count).
    :param attacker_points: the attackers' points including the kitty bonus and penalties.
    :param short_handed: finding friends: the dealer's side ended smaller than the dealer
        and every friend called (a call never fulfilled, or fulfilled by a seat already on
        the side); always False with fixed teams.
    :return: a ``shengji.model.ScoreOutcome``. First non-None result wins (built-in: the
        variant's table; a short-handed side that holds rises one more level with
        ``friends.bonus_level: smaller_side``, shengji.io ``BonusLevelPolicy``).
    """


@hookspec(firstresult=True)
def shengji_next_dealer(variant: HookVariant, dealer: int, outcome: ScoreOutcome, players: int,
                        side: Sequence[int]) -> int | None:
    """Dealer of the next deal.

    :param variant: the Variant.
    :param dealer: this deal's dealer seat.
    :param outcome: this deal's ``ScoreOutcome``.
    :param players: number of seats.
    :param side: the seats of the dealer's side at the end of the deal (the dealer's
        team, or the dealer and the friends who joined), dealer first.
    :return: a seat. First non-None result wins (built-in: dealers hold → the next seat
        after the dealer on the dealer's side, the partner; attackers take over → the
        next seat after the dealer that is not on it).
    """


@hookspec(firstresult=True)
def shengji_first_dealer(variant: HookVariant, bids: Sequence[Bid], players: int,
                         seed: str) -> int | None:
    """Dealer of the first deal, decided by the declarations (抢庄).

    :param variant: the Variant.
    :param bids: the accepted ``Bid`` records of the first deal, in order (empty when
        nobody declared).
    :param players: number of seats.
    :param seed: a string fixed by the game's seed and the deal, for a rule that draws.
    :return: a seat. First non-None result wins (built-in: ``declare.first_dealer`` —
        the first declarer, or the last one; with no bids ``declare.nobody_first_dealer``
        — the seat dealt first, or one drawn from ``seed``). With ``declare.first_dealer:
        random`` the engine asks before the first card is dealt (``bids`` empty) and the
        seat drawn deals whatever is declared; a redeal contested again
        (``declare.weak_hand_redeal.dealer: contested``) asks again after its bidding.
    """


@hookspec(firstresult=True)
def shengji_advance(variant: HookVariant, level: int, rise: int, defending: bool,
                    deal_level: int) -> int | None:
    """A seat's level after its side rises ``rise`` levels.

    :param variant: the Variant.
    :param level: the seat's level (0..12 = '2'..'A', 13 = NT when the last level is NT).
    :param rise: the levels the scoring table gives its side (≥ 1).
    :param defending: True when the seat is on the dealers' side (which held the deal).
    :param deal_level: the deal's level (the dealer's own); a teammate's may differ when
        levels are kept per seat (finding friends). Implementations may leave it out.
    :return: the new level, from ``level`` (no change) up to ``level + rise``, or further
        up to one past the last level (a ladder's rung); anything else is refused as a
        VariantError. Above the last level means the match is won, or with
        ``match_end.cycle`` that the seat goes round from 2 (the engine takes the level
        modulo the levels' count: A + 2 is 3). First non-None result wins (built-in: one
        level at a time, a must-defend level is passed only by the dealers on the first
        step — ``advancement.must_defend``, ``match_end.as_dealer`` — and NT only when the
        deal was played at NT; with ``advancement.ladder`` one rung per deal).
    """


@hookspec(firstresult=True)
def shengji_dealers_back_to_start(variant: HookVariant, deal_level: int, last_play: Sequence[int],
                                  attackers_won: bool) -> bool | None:
    """Does the dealers' side fall back to the start level (before this deal's rise)?

    :param variant: the Variant.
    :param deal_level: the level the deal was played at.
    :param last_play: the winning play of the last trick (kind ids).
    :param attackers_won: did the attackers win the last trick?
    :return: a bool. First non-None result wins (built-in: ``advancement.jack_rule``).
    """


@hookspec(firstresult=True)
def shengji_start_level(variant: HookVariant) -> int | Sequence[int] | None:
    """Level rank the sides start at (0 = '2'; constant-two variants start at '3').

    :param variant: the Variant.
    :return: an int 0..12 for every seat, or a sequence of one level per seat (the seats
        of a team sharing theirs). First non-None result wins (built-in: ``start_level``,
        a rank or a list per team or per seat).
    """


@hookspec(firstresult=True)
def shengji_match_winner(variant: HookVariant, levels: Mapping[int, int], outcome: ScoreOutcome,
                         dealer_team: int, side: Sequence[int]) -> int | None:
    """Has the match ended, and who won?

    :param variant: the Variant.
    :param levels: ``{team: level}`` after this deal's rises (may exceed 12: passed A);
        a team's seats share one level (in finding friends every seat is its own team).
    :param outcome: the deal's ``ScoreOutcome``.
    :param dealer_team: the dealer's team.
    :param side: the seats of the dealer's side at the end of the deal, dealer first.
    :return: the winning team, or None to play on. First non-None result wins
        (built-in: the first side to pass A).
    """
