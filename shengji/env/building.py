"""Decisions built card by card: the action encoding of the environments.

Every decision of the engine — a declaration or a pass, the burial, a lead (a throw
too), a follow, the choice of a forced play after a failed throw — is a multiset of
cards. The environments build it one card per step and then submit it:

- actions ``0..53`` add one card of that kind id (``shengji.cards``) to the cards being
  built;
- action ``DONE`` (54) submits them. Submitting nothing is a pass (declarations only);
- action ``TAKE_BACK`` (55) withdraws the declaration just made (variants with
  ``declare.takeback``; offered with ``DONE`` = keep it, right after declaring);
- actions ``CALL_ORDINAL + n - 1`` (56..59, n = 1..4) start a friend call "the n-th
  copy of the card that follows" (finding friends: the dealer's calls after burying,
  each an ordinal then a card, calls in descending (card, ordinal) order, then ``DONE``).

Cards are added in one canonical order, kind ids descending (the order of
``shengji.engine.actions.norm_cards``), so each multiset has exactly one sequence of
steps. The mask of a step is read from the *prefix-closed* legal set: card ``k`` is
allowed when the cards so far plus ``k`` begin (in that order) some legal decision, and
``DONE`` when the cards so far are one. Every mask therefore leads to a legal decision,
and every legal decision can be built — including every throw a seat may attempt and
every forced play a chooser may pick, which an index into a fixed list of plays could
not offer (a seat's possible throws and burials are far too many to list).

Legal sets come in a few forms, each with its own prefix test:

- ``Listed``: an explicit list (declarations, forced-play options, follows from the
  core, single-structure leads of variants without throws);
- ``Burial``: any ``count`` cards of the hand;
- ``OneSuit``: any non-empty cards of one effective suit (leads when throws exist: a
  throw that fails is still a legal attempt);
- ``Filler``: every card of the led suit the seat holds plus any ``r`` other cards
  (follows of a seat short in the led suit, semantics §4 step 2).
"""

from __future__ import annotations

from ..cards import NUM_KINDS
from ..engine.actions import Bury, ChooseForced, Declare, Pass, Play, RequestRedeal, TakeBack
from ..engine.legal import FillerFollows

#: the submit action; card actions are 0..NUM_KINDS-1
DONE = NUM_KINDS
#: withdraw the declaration just made
TAKE_BACK = NUM_KINDS + 1
#: friend calls: CALL_ORDINAL + n - 1 = "the n-th copy of" (n = 1..MAX_ORDINAL)
CALL_ORDINAL = NUM_KINDS + 2
MAX_ORDINAL = 4
N_ACTIONS = CALL_ORDINAL + MAX_ORDINAL

#: decision kinds, in the order of the observation's one-hot "decision" piece
KINDS = ("declare", "bury", "lead", "follow", "choose", "takeback", "call")
#: decisions shown in another kind's place, so that the observation and the actions keep
#: their sizes (issue 35): a weak hand's redeal request is, like a take-back, keep (DONE)
#: or the TAKE_BACK action
SLOT = {"redeal": "takeback"}


def seen_call(call: tuple[int, int]) -> tuple[int, int]:
    """A call as the observations show it: the other copy (ordinal 0, friends.other_copy)
    in the first copy's place (the first copy another seat plays)."""
    return (call[0] or 1, call[1])

#: follows are listed completely by the core up to this many (far beyond what play
#: reaches: a random card-by-card agent's follows stay under 120; past it the list is cut
#: and only the listed follows are offered)
FOLLOW_LIST_LIMIT = 200_000


class Listed:
    """An explicit list of legal multisets (tuples sorted by id, descending)."""

    __slots__ = ("alive",)

    def __init__(self, plays):
        self.alive = list(plays)

    def mask(self, prefix: list, counts: list) -> list:
        i = len(prefix)
        found = set()
        done = False
        for p in self.alive:
            if len(p) > i:
                found.add(p[i])
            else:
                done = True
        out = sorted(found)
        if done:
            out.append(DONE)
        return out

    def add(self, prefix: list, k: int) -> None:
        i = len(prefix)
        self.alive = [p for p in self.alive if len(p) > i and p[i] == k]


class Burial:
    """Any ``count`` cards of ``hand`` (54 counts); with ``limit`` (kinds, most), at most
    ``most`` of those kinds (the variant's ``bury`` settings)."""

    __slots__ = ("hand", "count", "limit")

    def __init__(self, hand, count: int, limit=None):
        self.hand = hand
        self.count = count
        self.limit = limit

    def mask(self, prefix: list, counts: list) -> list:
        need = self.count - len(prefix)
        if need == 0:
            return [DONE]
        if self.limit is not None:
            return self._limited(prefix, counts, need)
        hand = self.hand
        top = prefix[-1] if prefix else NUM_KINDS - 1
        # kind k is allowed when a card of it is free and the free cards at ids <= k are
        # enough to finish: from the first k where they are, every free kind up to top
        below = 0
        for first in range(top + 1):
            below += hand[first] - counts[first]
            if below >= need:
                break
        else:
            return []
        return [k for k in range(first, top + 1) if hand[k] > counts[k]]

    def _limited(self, prefix: list, counts: list, need: int) -> list:
        """The kinds that may come next when at most ``most`` restricted cards may be
        buried: a kind is allowed when, taking it, the free cards at ids below it can
        still finish the burial within the limit."""
        hand, (kinds, most) = self.hand, self.limit
        restricted = set(kinds)
        left = most - sum(counts[k] for k in restricted)
        top = prefix[-1] if prefix else NUM_KINDS - 1
        out = []
        free = free_r = 0  # free cards at ids < k: unrestricted, restricted
        for k in range(top + 1):
            spare = hand[k] - counts[k]
            is_r = k in restricted
            if spare > 0 and (not is_r or left > 0):
                # after taking one k: the rest from ids <= k
                rest_free = free + (0 if is_r else spare - 1)
                rest_r = free_r + (spare - 1 if is_r else 0)
                room = left - 1 if is_r else left
                if rest_free + min(rest_r, room) >= need - 1:
                    out.append(k)
            if spare > 0:
                if is_r:
                    free_r += spare
                else:
                    free += spare
        return out

    def add(self, prefix: list, k: int) -> None:
        pass


class OneSuit:
    """Any non-empty multiset of one effective suit from ``hand``."""

    __slots__ = ("hand", "eff")

    def __init__(self, hand, eff):
        self.hand = hand
        self.eff = eff

    def mask(self, prefix: list, counts: list) -> list:
        hand = self.hand
        if not prefix:
            return [k for k in range(NUM_KINDS) if hand[k]]
        eff = self.eff
        last = prefix[-1]
        suit = eff[last]
        out = [k for k in range(last + 1) if eff[k] == suit and hand[k] > counts[k]]
        out.append(DONE)
        return out

    def add(self, prefix: list, k: int) -> None:
        pass


class Filler:
    """All of ``base`` (the led suit's cards the seat holds) plus any ``r`` cards of
    ``pool`` (54 counts of the other cards)."""

    __slots__ = ("base", "pool", "r")

    def __init__(self, base: tuple, pool: list, r: int):
        b = [0] * NUM_KINDS
        for c in base:
            b[c] += 1
        self.base = b
        self.pool = pool
        self.r = r

    def mask(self, prefix: list, counts: list) -> list:
        base, pool = self.base, self.pool
        top = prefix[-1] if prefix else NUM_KINDS - 1
        used = sum(counts[k] for k in range(NUM_KINDS) if pool[k])
        need_fill = self.r - used
        # the highest base kind still to come: no card below it may be added first
        high_base = -1
        for k in range(top, -1, -1):
            if base[k] > counts[k]:
                high_base = k
                break
        out = []
        fill_below = 0  # free pool cards at ids <= k
        for k in range(top + 1):
            free = pool[k] - counts[k] if pool[k] else 0
            fill_below += free
            if k < high_base:
                continue
            if base[k] > counts[k]:
                if fill_below >= need_fill:
                    out.append(k)
            elif free > 0 and need_fill > 0 and fill_below >= need_fill:
                out.append(k)
        if high_base < 0 and need_fill == 0:
            out.append(DONE)
        return out

    def add(self, prefix: list, k: int) -> None:
        pass


class KeepOrTakeBack:
    """Right after declaring (``declare.takeback``): keep it (``DONE``) or take it back."""

    __slots__ = ()

    def mask(self, prefix: list, counts: list) -> list:
        return [DONE, TAKE_BACK]

    def add(self, prefix: list, k: int) -> None:
        raise ValueError("no cards to choose when keeping or taking back a declaration")


class Calls:
    """Finding friends: ``count`` distinct calls among ``allowed`` ((ordinal, card)),
    each built as its ordinal action then its card, in descending (card, ordinal) order."""

    __slots__ = ("allowed", "count", "chosen", "pending")

    def __init__(self, allowed, count: int):
        # ascending (card, ordinal): a call's index is how many calls rank below it
        # (the other copy, ordinal 0, has no action: an agent calls by ordinal)
        self.allowed = sorted({c for c in allowed if c[0]}, key=lambda c: (c[1], c[0]))
        if any(n > MAX_ORDINAL for n, _ in self.allowed):
            raise ValueError(f"friend calls beyond the {MAX_ORDINAL}th copy of a card have "
                             "no action (decks of more than four packs)")
        self.count = count
        self.chosen: list = []
        self.pending: int | None = None  # an ordinal waiting for its card

    def _feasible(self):
        need = self.count - len(self.chosen)
        last = (self.chosen[-1][1], self.chosen[-1][0]) if self.chosen else None
        for i, (n, c) in enumerate(self.allowed):
            if i >= need - 1 and (last is None or (c, n) < last):
                yield n, c

    def mask(self, prefix: list, counts: list) -> list:
        if self.pending is not None:
            return sorted({c for n, c in self._feasible() if n == self.pending})
        if len(self.chosen) == self.count:
            return [DONE]
        return sorted({CALL_ORDINAL + n - 1 for n, _ in self._feasible()})

    def add(self, prefix: list, a: int) -> None:
        if a >= CALL_ORDINAL:
            self.pending = a - CALL_ORDINAL + 1
        else:
            self.chosen.append((self.pending, a))
            self.pending = None


class Decision:
    """The decision of the seat to act, built card by card.

    ``kind`` is one of ``KINDS``; ``mask()`` lists the allowed action ids (ascending);
    ``step(a)`` adds a card and returns None, or on ``DONE`` returns the engine action
    the built cards stand for.
    """

    __slots__ = ("kind", "seat", "legal", "cards", "counts", "_set", "_options", "_mask")

    def __init__(self, game, seat: int):
        self.seat = seat
        self.cards: list[int] = []
        self.counts = [0] * NUM_KINDS
        self._options: tuple[tuple[int, ...], ...] | None = None
        self._mask: list[int] | None = None
        legal = game.legal_actions(seat)
        kind = legal.kind
        s: Listed | Burial | OneSuit | Filler | KeepOrTakeBack | Calls
        if kind == "declare":
            s = Listed([() if type(a) is Pass else a.cards for a in legal])
        elif kind == "bury":
            s = Burial(game.hands[seat], legal.count, legal.limit)
        elif kind == "lead":
            if game.rules.throws:
                s = OneSuit(game.hands[seat], game._eff)
            else:
                s = Listed([a.cards for a in legal])
        elif kind == "follow":
            items = legal._items
            if isinstance(items, FillerFollows):
                pool = [0] * NUM_KINDS
                for k, c in zip(items.kinds, items.caps, strict=True):
                    pool[k] = c
                s = Filler(items.base, pool, items.r)
            else:
                if legal.truncated:
                    legal = game.legal_actions(seat, limit=FOLLOW_LIST_LIMIT)
                s = Listed([a.cards for a in legal])
        elif kind == "choose":
            self._options = tuple(tuple(o) for o in game._choice[1])
            s = Listed(sorted(set(self._options)))
        elif kind == "takeback" or kind == "redeal":
            s = KeepOrTakeBack()
        elif kind == "call":
            s = Calls([c for a in legal for c in a.calls], legal.count)
        else:
            raise ValueError(f"seat {seat} has no decision to build ({kind})")
        self.kind = kind
        self._set = s

    def mask(self) -> list:
        m = self._mask
        if m is None:
            m = self._mask = self._set.mask(self.cards, self.counts)
        return m

    def allows(self, a: int) -> bool:
        return a in self.mask()

    def step(self, a: int):
        """Apply action ``a`` (already checked with ``allows``)."""
        if a == DONE:
            return self.action()
        if a == TAKE_BACK:  # (a weak hand's redeal request takes the same action)
            return RequestRedeal(self.seat) if self.kind == "redeal" else TakeBack(self.seat)
        self._set.add(self.cards, a)
        self._mask = None
        if self.kind == "call":
            return None  # the calls are kept by the set, not as cards
        self.cards.append(a)
        self.counts[a] += 1
        return None

    def action(self):
        """The engine action of the cards built so far."""
        cards = tuple(self.cards)
        seat, kind = self.seat, self.kind
        if kind == "lead" or kind == "follow":
            return Play.trusted(seat, cards)
        if kind == "declare":
            return Declare(seat, cards) if cards else Pass(seat)
        if kind == "takeback" or kind == "redeal":
            return Pass(seat)
        if kind == "call":
            from ..engine.actions import CallFriends  # finding-friends engines only

            return CallFriends(seat, tuple(self._set.chosen))
        if kind == "bury":
            return Bury(seat, cards)
        return ChooseForced(seat, self._options.index(cards))


def decision_holding(game, built) -> Decision:
    """The decision of ``game``'s seat to act with the cards ``built`` already added: a
    play half built in C (``cplay``) handed back to the Python path."""
    assert game.to_act is not None
    dec = Decision(game, game.to_act)
    for c in built:
        dec.step(c)
    return dec


def actions_for(action) -> list[int]:
    """The steps that build an engine action (the inverse of ``Decision``)."""
    if isinstance(action, ChooseForced):
        raise ValueError("a forced-play choice is built from its option's cards")
    if isinstance(action, TakeBack):
        return [TAKE_BACK]
    calls = getattr(action, "calls", None)
    if calls is not None:
        ordered = sorted(calls, key=lambda c: (c[1], c[0]), reverse=True)
        return [a for n, c in ordered for a in (CALL_ORDINAL + n - 1, c)] + [DONE]
    cards = getattr(action, "cards", ())
    return [*sorted(cards, reverse=True), DONE]
