"""``Context``: the rules of one deal (PlayRules, level, trump), prepared once in C, and
every judgement of plays under them: effective suits and strengths, decompositions,
following (semantics §4-§5), throws, trick winners, the kitty multiplier. Errors of the
core become ``CardError`` / ``HandError`` / ``RulesError`` naming the card and the rule.
Hot paths (``check_follow`` with prepared ``Hand``s) allocate nothing: the lead's
decomposition is cached on the lead ``Hand``; error details are fetched with a second
call only when something is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from ..cards import (
    NUM_KINDS,
    SUITS,
    card_str,
    parse_cards,
)
from ..errors import CardError, HandError, RulesError, ShengjiError
from ..rules import (
    PlayRules,
    pattern_str,
    shape_str,
)
from .clib import ffi, lib
from .crules import _RULE_FIELDS, _build_rules, _hold_only, _parse_level, _parse_trump
from .hands import (
    _IS_ZERO,
    Cards,
    Hand,
    _groups,
    _hand,
    _hand_list,
    _join,
    _new,
    _to_hand,
    as_hand,
)
from .results import (
    _COMPARE,
    _FOLLOW_OK,
    _NOT_IN_HAND,
    _REASONS,
    Decomposition,
    FollowResult,
    HandList,
    LegalFollows,
    ThrowResult,
    _joined,
)

_NULL = ffi.NULL
# the hot calls take only the arguments that vary (core_c/batch.c): each argument
# crossing into C costs about 15 ns
_c_follow_code = lib.sj_follow_code
_c_decompose54 = lib.sj_decompose54
_c_winner_code = lib.sj_winner_code
_c_ncomp = lib.sj_ncomp
_new_lead = ffi.new_allocator(should_clear_after_alloc=False)

_SUIT_NAMES = tuple(SUITS) + ("trump", "rainbow")
#: prepared contexts kept (a match uses a few dozen; fuzzing makes thousands)
_CONTEXT_CACHE = 2048
_ARG_NAMES = {
    lib.SJ_ARG_LEAD: "lead",
    lib.SJ_ARG_HAND: "hand",
    lib.SJ_ARG_PLAY: "play",
    lib.SJ_ARG_OTHERS: "others",
    lib.SJ_ARG_PLAYS: "plays",
    lib.SJ_ARG_RULES: "rules",
}


class Context:
    """The rules of one deal: (PlayRules, level rank, trump suit or None). Prepared once
    (the C struct is built and cached per key); frozen and hashable."""

    __slots__ = ("rules", "level", "trump", "_key", "_hash", "_r", "_esuit", "_strength",
                 "_frozen")
    rules: PlayRules
    level: int  # rank index 0..12
    trump: int | None  # suit 0..3, None for no trump
    _key: tuple[PlayRules, int, int | None]
    _hash: int
    _r: Any  # the prepared C struct (cffi)
    _esuit: tuple[int, ...]
    _strength: tuple[int, ...]
    _frozen: bool
    _cache: dict[tuple[PlayRules, int, int | None], Context] = {}

    def __new__(cls, rules: PlayRules, level: int | str,
                trump: int | str | None = None) -> Context:
        if not isinstance(rules, PlayRules):
            raise RulesError(f"rules: expected a PlayRules, got {type(rules).__name__}")
        lv, tr = _parse_level(level), _parse_trump(trump)
        key = (rules, lv, tr)
        ctx = cls._cache.get(key)
        if ctx is not None:
            return ctx
        ctx = object.__new__(cls)
        r = _build_rules(rules, lv, tr)
        if len(cls._cache) >= _CONTEXT_CACHE:
            # each prepared struct is ~50 kB: forget the oldest rather than grow forever
            del cls._cache[next(iter(cls._cache))]
        for name, value in (
            ("rules", rules),
            ("level", lv),
            ("trump", tr),
            ("_key", key),
            ("_hash", hash(key)),  # PlayRules hash field by field: once, not per look-up
            ("_r", r),
            ("_esuit", tuple(r.esuit[0:NUM_KINDS])),
            ("_strength", tuple(r.strength[0:NUM_KINDS])),
            ("_frozen", True),
        ):
            object.__setattr__(ctx, name, value)
        cls._cache[key] = ctx
        return ctx

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # everything happens in __new__ (cached)
        pass

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("Context is frozen")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Context) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        trump = "none" if self.trump is None else SUITS[self.trump]
        return f"Context(level={card_str(self.level)[1:]}, trump={trump}, rules={self.rules!r})"

    def __reduce__(self) -> tuple[type[Context], tuple[PlayRules, int, int | None]]:
        return (Context, (self.rules, self.level, self.trump))

    # ---------------------------------------------------------------- errors

    def _raise(self, err: Any, hands: Any = None) -> None:
        """Turn a filled sj_err into the typed error (hands: the Python groups named)."""
        code = err.code
        what = _ARG_NAMES.get(err.which, "cards")
        if err.index >= 0 and err.which in (lib.SJ_ARG_OTHERS, lib.SJ_ARG_PLAYS):
            what = f"{what}[{err.index}]"
        card = card_str(err.card) if 0 <= err.card < NUM_KINDS else None
        if code == lib.SJ_ERR_COPIES:
            raise HandError(
                f"{what}: {err.count} copies of {card} but {_hold_only(self.rules, err.card)}"
            )
        if code == lib.SJ_ERR_EMPTY:
            raise HandError(f"{what}: empty lead (a lead needs at least one card)")
        if code == lib.SJ_ERR_MIXED:
            a, b = _SUIT_NAMES[err.a], _SUIT_NAMES[err.b]
            raise HandError(
                f"{what}: cards of two suits ({a} and {b}, e.g. {card}) cannot be led together: "
                "a lead is of one suit, all trumps counting as one suit"
            )
        if code == lib.SJ_ERR_SIZE:
            raise HandError(
                f"{what}: {err.count} cards but the lead has {err.a}: every play of a trick has "
                "as many cards as the lead"
            )
        if code == lib.SJ_ERR_NOT_IN_HAND:
            raise HandError(f"{what}: {card} is not in the hand")
        if code == lib.SJ_ERR_KIND:
            raise CardError(f"{what}: not a card id (expected 0..53)")
        if code == lib.SJ_ERR_LIMIT:
            raise ShengjiError(f"{what}: the rules core's search budget was exhausted")
        if code == lib.SJ_ERR_RULES:
            raise RulesError(f"{_RULE_FIELDS.get(err.a, 'rules')}: rejected by the rules core")
        raise ShengjiError(f"{what}: rules core error {code}")

    def _call_failed(self, fn: Callable[..., Any], *args: Any) -> None:
        """Re-run a failed call with an error struct to learn what was wrong."""
        err = ffi.new("sj_err *")
        fn(*args, err)
        self._raise(err)

    def _lead(self, lead: Hand) -> Any:
        """The prepared decomposition of a lead, cached on the lead Hand."""
        if lead._lctx is self:
            return lead._lead
        pl = _new_lead("sj_lead *")  # sj_decompose clears it itself
        if _c_decompose54(self._r, lead._b, pl) < 0:
            self._call_failed(lib.sj_decompose, self._r, lead._b, NUM_KINDS, pl)
        lead._lead = pl
        lead._lctx = self
        return pl

    # ---------------------------------------------------------------- single cards

    def _card(self, card: int | str) -> int:
        if isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < NUM_KINDS:
                raise CardError(f"not a card id: {card!r} (expected 0..53)")
            return card
        ids = parse_cards([card]) if isinstance(card, str) else parse_cards(card)  # type: ignore[arg-type]  # noqa: E501
        if len(ids) != 1:
            raise CardError(f"expected one card, got {card!r}")
        return ids[0]

    def effective_suit(self, card: int | str) -> int:
        """0..3 for a plain suit, 4 for trumps."""
        return self._esuit[self._card(card)]

    def is_trump(self, card: int | str) -> bool:
        return self._esuit[self._card(card)] == 4

    def strength(self, card: int | str) -> int:
        """Comparable only within one effective suit (semantics §2)."""
        return self._strength[self._card(card)]

    def compare(self, a: int | str, b: int | str) -> str:
        """``a`` led first, then ``b``: "higher" (a stays ahead), "lower", "equal" (a,
        first played, stays ahead) or "unrelated" (two different plain suits)."""
        return _COMPARE[lib.sj_compare(self._r, self._card(a), self._card(b))]

    # ---------------------------------------------------------------- structures

    def decompose(self, cards: Cards) -> Decomposition:
        """Components of a lead, best first (semantics §3): a ``Decomposition``, the list
        of ``Component``s made when first read (its ``len`` needs none of them)."""
        lead = cards if type(cards) is Hand else _to_hand(cards, "lead")
        if lead._lctx is self:
            n = lead._lead.ncomp
        else:
            n = _c_ncomp(self._r, lead._b)
            if n < 0:
                pl = _new_lead("sj_lead *")
                self._call_failed(lib.sj_decompose, self._r, lead._b, NUM_KINDS, pl)
        d = _new(Decomposition)
        d._ctx = self
        d._hand = lead
        d._n = n
        d._items = None
        return d

    def is_rainbow(self, cards: Cards) -> bool:
        """Is this lead a rainbow (semantics §3: one rank from all four suits, when the
        rules have rainbows)?"""
        h = as_hand(cards)
        if not self.rules.rainbow_min or len(h) == 0:
            return False
        if len({self._esuit[k] for k in range(NUM_KINDS) if h._b[k]}) < 2:
            return False
        try:
            return bool(self._lead(h).esuit == lib.SJ_RAINBOW)
        except HandError:
            return False

    def is_tractor(self, cards: Cards) -> bool:
        h = as_hand(cards)
        rc: int = lib.sj_is_tractor(self._r, h._b, NUM_KINDS, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_is_tractor, self._r, h._b, NUM_KINDS)
        return rc == 1

    # ---------------------------------------------------------------- following

    def check_follow(self, lead: Cards, hand: Cards, play: Cards) -> FollowResult:
        """Is ``play`` (taken from ``hand``) a legal follow to ``lead``? (semantics §4)

        A play that is not in the hand is an input error (HandError), not a reason."""
        if type(lead) is not Hand:
            lead = _to_hand(lead, "lead")
        if type(hand) is not Hand:
            hand = _to_hand(hand, "hand")
        if type(play) is not Hand:
            play = _to_hand(play, "play")
        pl = lead._lead if lead._lctx is self else self._lead(lead)
        rc = _c_follow_code(self._r, pl, hand._b, play._b)
        if rc == 0:
            return _FOLLOW_OK
        if rc > _NOT_IN_HAND:  # a verdict; its sentence is made if asked for
            res = _new(FollowResult)
            res.ok = False
            res.reason = _REASONS[rc]
            res._detail = None
            res._why = (self, pl, hand, play)
            return res
        self._follow_detail(pl, hand, play)  # raises the input error
        raise AssertionError("unreachable")  # pragma: no cover

    def check_follows(self, lead: Cards, hand: Cards, plays: Sequence[Cards]) -> list[bool]:
        """``[check_follow(lead, hand, p).ok for p in plays]`` in one C call: is each of
        ``plays`` a legal follow? (Ask ``check_follow`` for the reason of one that is not.)
        A play that is not in the hand is an input error, as in ``check_follow``."""
        lead = lead if type(lead) is Hand else _to_hand(lead, "lead")
        hand = hand if type(hand) is Hand else _to_hand(hand, "hand")
        b = _joined(plays)
        if b is None:
            plays = _hand_list(plays, "plays")
            b = _join(plays)
        m = len(b) // NUM_KINDS
        pl = lead._lead if lead._lctx is self else self._lead(lead)
        out = ffi.new("uint8_t[]", m or 1)
        at = ffi.new("int32_t *")
        if lib.sj_check_follows(self._r, pl, hand._b, b, m, out, at) < 0:
            self._named(f"plays[{at[0]}]", self.check_follow, lead, hand, plays[at[0]])
        codes = ffi.buffer(out, m)[:]
        if _NOT_IN_HAND in codes:  # raises, naming the play
            i = codes.index(_NOT_IN_HAND)
            self._named(f"plays[{i}]", self.check_follow, lead, hand, plays[i])
        return list(map(_IS_ZERO, codes))

    def _named(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Call ``fn``; an error it raises is re-raised with ``what`` named first."""
        try:
            return fn(*args)
        except ShengjiError as exc:
            msg = str(exc)
            msg = what + msg[4:] if msg.startswith("play:") else f"{what}: {msg}"
            raise type(exc)(msg) from None

    def _follow_detail(self, pl: Any, hand: Hand, play: Hand) -> str:
        """The sentence of a failed follow; raises the input error of an invalid one."""
        info = ffi.new("sj_follow_info *")
        err = ffi.new("sj_err *")
        rc = lib.sj_check_follow(self._r, pl, hand._b, NUM_KINDS, play._b, NUM_KINDS, info, err)
        if rc < 0:
            self._raise(err)
        suit = _SUIT_NAMES[pl.esuit]
        if rc == lib.SJ_NOT_IN_HAND:
            raise HandError(f"play: {card_str(info.card)} is not in the hand")
        if rc == lib.SJ_WRONG_COUNT:
            detail = f"the lead has {pl.n} card(s) but the play has {info.count}"
        elif rc == lib.SJ_MUST_FOLLOW_SUIT:
            if info.count >= pl.n:
                detail = (
                    f"must follow suit: the hand holds {info.count} {suit} card(s), so all "
                    f"{pl.n} cards played must be {suit}"
                )
            else:
                detail = (
                    f"must follow suit: the hand holds {info.count} {suit} card(s) and all of "
                    "them must be played"
                )
        elif pl.esuit == lib.SJ_RAINBOW:
            sizes = " + ".join(str(pl.comps[i].w) for i in range(pl.ncomp))
            detail = (f"must follow the rainbow: the hand holds cards of one rank for each "
                      f"part ({sizes} cards), so the play must have them too")
        else:
            detail = "must follow shape"
            if info.comp >= 0:  # the component and the pattern it requires
                cp = pl.comps[info.comp]
                pattern = tuple(
                    (info.pattern.shapes[j].w, info.pattern.shapes[j].len)
                    for j in range(info.pattern.n_shapes)
                )
                detail = (
                    f"must follow shape: component {info.comp + 1} of the lead "
                    f"({shape_str((cp.w, cp.len))}) requires {pattern_str(pattern)} "
                    "from the suit, which the hand holds"
                )
        return detail

    def legal_follows(self, lead: Cards, hand: Cards, limit: int = 10_000) -> LegalFollows:
        """Every legal follow (as distinct multisets), at most ``limit`` of them, and the
        true total (semantics §5). Within a budget of work (well under a second): past
        it, the follows met so far, never none, with ``exact`` False."""
        lead, hand = as_hand(lead, "lead"), as_hand(hand, "hand")
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise HandError(f"limit: {limit!r} is not a non-negative integer")
        pl = lead._lead if lead._lctx is self else self._lead(lead)
        limit = min(limit, 2**31 // NUM_KINDS - 1)
        # a small buffer first; a second call only when more follows are wanted
        cap = min(limit, 64)
        counts = ffi.new("uint64_t[2]")  # [written, total]
        n_out = ffi.cast("int32_t *", counts)
        total = counts + 1
        exact = ffi.new("int32_t *")
        while True:
            out = _new_lead("uint8_t[]", max(cap, 1) * NUM_KINDS)  # not cleared
            args = (self._r, pl, hand._b, NUM_KINDS, out, cap * NUM_KINDS, n_out, total,
                    exact)
            if lib.sj_legal_follows(*args, _NULL):
                self._call_failed(lib.sj_legal_follows, *args)
            got = n_out[0]
            if got == min(limit, total[0]) or (not exact[0] and got < cap):
                break  # all that was asked, or what the budget allowed
            cap = min(limit, max(total[0], 2 * cap))
        return LegalFollows(HandList(ffi.buffer(out, n_out[0] * NUM_KINDS)[:]), total[0],
                            bool(exact[0]))

    # ---------------------------------------------------------------- throws, tricks

    def check_throw(self, lead: Cards, others: Iterable[Cards]) -> ThrowResult:
        """Is a throw valid against the other players' holdings (semantics §6)?"""
        lead = as_hand(lead, "lead")
        others = _hand_list(others, "others")
        if len(others) > 64:
            raise HandError(f"others: {len(others)} holdings, at most 64")
        pl = self._lead(lead)
        res = ffi.new("sj_throw_result *")
        args = (self._r, pl, _join(others), len(others) * NUM_KINDS, len(others), res)
        if lib.sj_check_throw(*args, _NULL):
            self._call_failed(lib.sj_check_throw, *args)
        if res.valid:
            return ThrowResult(True, None, [], None)
        options = [_hand(ffi.buffer(res.options[o])[:]) for o in range(res.n_options)]
        blocker = res.blocker if res.blocker >= 0 else None
        return ThrowResult(False, options[0], options, blocker)

    def trick_winner(self, plays: Sequence[Cards]) -> int:
        """Index of the winning play; plays in play order, the lead first (semantics §7)."""
        t = type(plays)
        if t is list or t is tuple:  # _joined(plays), inlined: the hot path
            try:
                b = b"".join([p._b for p in plays])  # type: ignore[union-attr]
            except (AttributeError, TypeError):
                b = None
            m = len(plays)
            # 54 counts per play: the C call reads exactly that many
            if b is not None and len(b) == NUM_KINDS * m:
                rc: int = _c_winner_code(self._r, b, m)
                if rc >= 0:
                    return rc
        plays = _hand_list(plays, "plays")
        if not 2 <= len(plays) <= 64:
            raise HandError(f"plays: a trick needs 2..64 plays, got {len(plays)}")
        args = (self._r, _join(plays), len(plays) * NUM_KINDS, len(plays))
        rc = lib.sj_trick_winner(*args, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_trick_winner, *args)
        return rc

    def _winner_of(self, plays: bytes, m: int) -> int:
        """``trick_winner`` of ``m`` plays given as their counts one after another (the
        engine keeps a trick's that way)."""
        if len(plays) == m * NUM_KINDS:
            rc: int = _c_winner_code(self._r, plays, m)
            if rc >= 0:
                return rc
        return self.trick_winner(HandList(plays))

    def trick_winners(self, tricks: Iterable[Sequence[Cards]]) -> list[int]:
        """``[trick_winner(t) for t in tricks]`` in one C call (every trick under these
        rules; a trick is a list of plays, the lead first)."""
        t = type(tricks)
        b = None
        if t is list or t is tuple:
            sizes = [len(x) for x in tricks]
            try:
                b = b"".join([_join(x) for x in tricks])  # type: ignore[arg-type]
            except (AttributeError, TypeError):
                b = None
            if b is not None and len(b) != NUM_KINDS * sum(sizes):
                b = None
        if b is None:  # not all Hands: convert (and check) them
            tricks = [_hand_list(x, f"tricks[{i}]")
                      for i, x in enumerate(_groups(tricks, "tricks"))]
            sizes = [len(x) for x in tricks]
            b = b"".join([_join(x) for x in tricks])  # type: ignore[arg-type]
        n = len(sizes)
        out = ffi.new("uint8_t[]", n or 1)
        at = ffi.new("int32_t *")
        if lib.sj_trick_winners(self._r, b, sizes, n, out, at) < 0:
            self._named(f"tricks[{at[0]}]", self.trick_winner, tricks[at[0]])  # type: ignore[index]
        return list(ffi.buffer(out, n)[:])

    def _listed_leads(self, counts: bytes, throws: bool) -> HandList:
        """The leads shengji.engine lists for a hand of 54 ``counts``, in its order (the
        reference: ``engine.legal.lead_structures``), from one C call (core_c/batch.c)."""
        if type(counts) is not bytes or len(counts) != NUM_KINDS:
            raise HandError(f"hand: expected {NUM_KINDS} counts as bytes")
        cap = 64
        while True:
            out = _new_lead("uint8_t[]", cap * NUM_KINDS)  # not cleared
            n = lib.sj_lead_list(self._r, counts, throws, out, cap)
            if n < 0:
                raise HandError(f"hand: rules core error {n} listing leads")
            if n <= cap:
                return HandList(ffi.buffer(out, n * NUM_KINDS)[:])
            cap = n

    def kitty_multiplier(self, play: Cards, lead: Cards | None = None) -> int:
        """Kitty multiplier of the last trick's winning play (semantics §8)."""
        play = as_hand(play, "play")
        pl = _NULL if lead is None else self._lead(as_hand(lead, "lead"))
        args = (self._r, play._b, NUM_KINDS, pl)
        rc: int = lib.sj_kitty_multiplier(*args, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_kitty_multiplier, *args)
        return rc
