"""``heuristic``: a rule-based player, using only its view, the legal actions and the
core's public judgements (strength, suit, trick winner) under the deal's context.

Rules of thumb, in order of use:
- declare when the bid's suit would make a large share of the hand trumps;
- bury low, non-point, non-trump cards, keeping pairs and aces, shortest suits first;
- lead unbeatable throws, then unbeatable structures, else a low card of a short suit;
- follow: give points to a partner who is winning safely; win point tricks (ruffing
  when void) with the cheapest winning play; otherwise play low, keeping high trumps.

"Unbeatable" is judged against the cards this seat has not seen (not in its hand, not
played, not buried by itself).
"""

from __future__ import annotations

from ..cards import LITTLE_JOKER, NUM_KINDS, point_value, rank_of
from ..engine.actions import Bury, Play
from .base import Bot, register

TRUMP = 4
#: share of the hand that must be trumps to declare while dealing / after the last card
DECLARE_SHARE = 0.38
FINAL_DECLARE_SHARE = 0.26
#: follow candidates judged one by one; beyond this a sample is judged
MAX_JUDGED = 120


@register
class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, variant, seed=0):
        super().__init__(variant, seed)
        self._tables: dict = {}
        self._buried = (None, (0,) * NUM_KINDS)

    # ------------------------------------------------------------------ dispatch

    def act(self, view, legal):
        kind = legal.kind
        if kind == "declare":
            return self._declare(view, legal)
        if kind == "bury":
            return self._bury(view, legal)
        if kind == "lead":
            return self._lead(view, legal)
        if kind == "follow":
            return self._follow(view, legal)
        if kind == "choose":
            return self._choose(view, legal)
        if kind == "call":
            return self._call(view, legal)
        return legal[0]

    # ------------------------------------------------------------------ calling friends

    def _call(self, view, legal):
        """Finding friends: call the top cards of plain suits, each at the copy after
        the ones the dealer holds (so the dealer's own copies do not use the call up),
        in suits the dealer is short of first (a friend there helps most)."""
        from ..engine.actions import CallFriends

        rules = self.variant.friend_rules
        _, eff, st = self._ctx(view)
        suit_len = [0] * 5
        for k, n in enumerate(view.hand):
            suit_len[eff[k]] += n

        def want(call):
            ordinal, card = call
            aim = view.hand[card] + 1 if rules.dealer_copies_count else 1
            return (ordinal == aim, st[card], -suit_len[eff[card]], -ordinal)

        chosen, cards = [], set()
        singles = sorted((a.calls[0] for a in legal), key=want, reverse=True)
        for call in singles:
            if call[1] not in cards and len(chosen) < legal.count:
                chosen.append(call)
                cards.add(call[1])
        for call in singles:  # too few distinct cards: other copies of the same ones
            if call not in chosen and len(chosen) < legal.count:
                chosen.append(call)
        return CallFriends(view.seat, tuple(chosen))

    # ------------------------------------------------------------------ helpers

    def _ctx(self, view):
        key = (view.level, view.trump)
        t = self._tables.get(key)
        if t is None:
            ctx = self.variant.context(view.level, view.trump)
            eff = [ctx.effective_suit(k) for k in range(NUM_KINDS)]
            st = [ctx.strength(k) for k in range(NUM_KINDS)]
            t = self._tables[key] = (ctx, eff, st)
        return t

    def _unseen(self, view) -> list[int]:
        copies = self.variant.composition.counts
        buried = self._buried[1] if self._buried[0] == (view.deal_number, view.dealer) else None
        out = []
        for k in range(NUM_KINDS):
            n = copies[k] - view.hand[k] - view.played[k] - (buried[k] if buried else 0)
            out.append(max(n, 0))
        return out

    def _cost(self, cards, eff, st) -> int:
        """How much a play spends: trumps and high cards are expensive."""
        return sum(st[c] + (40 if eff[c] == TRUMP else 0) for c in cards)

    # ------------------------------------------------------------------ declaring

    def _declare(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        bids = view.bids
        if bids and bids[-1].seat != view.seat and view.same_side(bids[-1].seat, view.seat):
            return legal[0]  # never overturn the partner
        held = sum(view.hand)
        final = view.to_deal == 0
        best, best_share = None, 0.0
        for action in list(legal)[1:]:
            c = action.cards[0]
            suit = None if c >= LITTLE_JOKER else c // 13
            trumps = sum(n for k, n in enumerate(view.hand)
                         if n and (k >= LITTLE_JOKER or rank_of(k) == view.level
                                   or (suit is not None and k // 13 == suit)))
            share = trumps / max(held, 1)
            if share > best_share or (share == best_share and best is not None
                                      and len(action.cards) > len(best.cards)):
                best, best_share = action, share
        if bids and bids[-1].seat == view.seat:
            # reinforcing my own bid is always worth it
            for action in list(legal)[1:]:
                if action.cards[0] == max(bids[-1].cards):
                    return action
        need = FINAL_DECLARE_SHARE if final else DECLARE_SHARE
        if best is not None and best_share >= need and (final or held >= 6):
            return best
        return legal[0]

    # ------------------------------------------------------------------ burying

    def _bury(self, view, legal):
        ctx, eff, st = self._ctx(view)
        hand = view.hand
        suit_len = [0] * 5
        for k, n in enumerate(hand):
            suit_len[eff[k]] += n
        cards = [k for k, n in enumerate(hand) for _ in range(n)]
        top = {}
        for k in range(NUM_KINDS):
            top[eff[k]] = max(top.get(eff[k], -1), st[k])

        def keep_value(k):
            return (eff[k] == TRUMP, point_value(k) > 0, hand[k] >= 2,
                    st[k] == top[eff[k]], suit_len[eff[k]], st[k])

        cards.sort(key=keep_value)
        chosen = tuple(cards[:legal.count])
        counts = [0] * NUM_KINDS
        for c in chosen:
            counts[c] += 1
        self._buried = ((view.deal_number, view.seat), tuple(counts))
        return Bury(view.seat, chosen)

    # ------------------------------------------------------------------ leading

    def _beatable(self, cards, unseen, eff, st, w: int, length: int) -> bool:
        """Could the unseen cards hold a structure of this shape above ``cards``?"""
        suit = eff[cards[0]]
        top = max(st[c] for c in cards)
        if length == 1:
            return any(unseen[k] >= w and eff[k] == suit and st[k] > top for k in range(NUM_KINDS))
        have = sorted({st[k] for k in range(NUM_KINDS) if unseen[k] >= w and eff[k] == suit})
        run = 0
        prev = None
        for s in have:
            run = run + 1 if prev is not None and s == prev + 1 else 1
            prev = s
            if run >= length and s > top:
                return True
        return False

    def _shape(self, cards) -> tuple[int, int]:
        kinds = {}
        for c in cards:
            kinds[c] = kinds.get(c, 0) + 1
        w = min(kinds.values())
        return w, len(kinds)

    def _lead(self, view, legal):
        ctx, eff, st = self._ctx(view)
        unseen = self._unseen(view)
        voids = self._opponent_voids(view, eff)
        hand = view.hand
        rules = self.variant.play_rules
        # throws: every component of a suit that nobody can beat, played at once
        if rules.throws:
            best_throw = None
            for suit in range(5):
                if suit in voids and suit != TRUMP:
                    continue
                cards = [k for k in range(NUM_KINDS) if hand[k] and eff[k] == suit
                         for _ in range(hand[k])]
                if len(cards) < 2:
                    continue
                good = []
                for comp in ctx.decompose(cards):
                    cc = comp.cards.cards()
                    if not self._beatable(cc, unseen, eff, st, comp.width, comp.length):
                        good.extend(cc)
                if good and (best_throw is None or len(good) > len(best_throw)):
                    best_throw = good
            if best_throw and len(best_throw) >= 2 and len(ctx.decompose(best_throw)) > 1:
                return Play(view.seat, tuple(best_throw))
        best, best_key = None, None
        for action in legal:
            cards = action.cards
            suit = eff[cards[0]]
            if len(set(cards)) > 1 and len(ctx.decompose(cards)) > 1:
                continue  # a listed whole-suit throw that is not safe
            w, length = self._shape(cards)
            if self._beatable(cards, unseen, eff, st, w, length):
                continue
            if suit != TRUMP and suit in voids:
                continue
            key = (suit != TRUMP, len(cards), sum(point_value(c) for c in cards))
            if best_key is None or key > best_key:
                best, best_key = action, key
        if best is not None:
            return best
        # nothing safe: a low single of a short side suit (never a point card if avoidable)
        suit_len = [0] * 5
        for k, n in enumerate(hand):
            suit_len[eff[k]] += n
        singles = [a for a in legal if len(a.cards) == 1]
        pool = singles or list(legal)

        def low(a):
            c = a.cards[0]
            return (eff[c] == TRUMP, point_value(c) > 0, suit_len[eff[c]], st[c])

        return min(pool, key=low)

    def _opponent_voids(self, view, eff) -> set:
        """Effective suits some opponent has shown out of (so a lead there may be ruffed)."""
        voids = set()
        for trick in view.tricks + ((view.trick,) if view.trick else ()):
            lead_suit = eff[trick[0][1][0]]
            for seat, cards in trick[1:]:
                if not view.same_side(seat, view.seat) and any(eff[c] != lead_suit for c in cards):
                    voids.add(lead_suit)
        return voids

    # ------------------------------------------------------------------ following

    def _follow(self, view, legal):
        ctx, eff, st = self._ctx(view)
        plays = [cards for _, cards in view.trick]
        seats = [s for s, _ in view.trick]
        n_after = view.players - len(plays) - 1
        trick_points = sum(point_value(c) for p in plays for c in p)
        win_idx = ctx.trick_winner(plays) if len(plays) > 1 else 0
        partner_winning = bool(view.same_side(seats[win_idx], view.seat))
        if len(legal) > MAX_JUDGED:
            options = [legal[i] for i in sorted(self.rng.sample(range(len(legal)), MAX_JUDGED))]
        else:
            options = list(legal)
        options.extend(self._filler_candidates(view, plays[0], eff, st))
        unseen = self._unseen(view)

        def pts(a):
            return sum(point_value(c) for c in a.cards)

        def cost(a):
            return self._cost(a.cards, eff, st)

        if partner_winning:
            win_cards = plays[win_idx]
            w, length = self._shape(win_cards) if len(set(win_cards)) <= 2 else (1, 1)
            safe = n_after == 0 or (len(ctx.decompose(win_cards)) == 1 and not self._beatable(
                win_cards, unseen, eff, st, w, length))
            if safe:
                return max(options, key=lambda a: (pts(a), -cost(a)))
            return min(options, key=lambda a: (pts(a), cost(a)))
        me = len(plays)
        winners = [a for a in options if ctx.trick_winner(plays + [a.cards]) == me]
        if winners:
            def sure(a):
                if n_after == 0:
                    return True
                if len(ctx.decompose(plays[0])) > 1:
                    return False
                w, length = self._shape(a.cards) if len(set(a.cards)) <= 2 else (1, 1)
                return not self._beatable(a.cards, unseen, eff, st, w, length)

            safe_winners = [a for a in winners if sure(a)]
            if safe_winners:
                return min(safe_winners, key=lambda a: (cost(a) - 2 * pts(a)))
            if trick_points >= 10:
                return min(winners, key=lambda a: (cost(a) - 2 * pts(a)))
        return min(options, key=lambda a: (pts(a), cost(a)))

    def _filler_candidates(self, view, lead, eff, st) -> list:
        """Short of the led suit, any other cards complete the play (semantics §4 step
        2): offer the cheapest discard, the richest discard and the lowest trumps, which
        a sample of a long list would likely miss."""
        suit = eff[lead[0]]
        hand = view.hand
        base = [k for k in range(NUM_KINDS) if eff[k] == suit for _ in range(hand[k])]
        r = len(lead) - len(base)
        if r <= 0:
            return []
        others = [k for k in range(NUM_KINDS) if eff[k] != suit for _ in range(hand[k])]
        cheap = sorted(others, key=lambda k: (point_value(k), eff[k] == TRUMP, st[k]))
        rich = sorted(others, key=lambda k: (-point_value(k), eff[k] == TRUMP, st[k]))
        out = [base + cheap[:r], base + rich[:r]]
        trumps = sorted((k for k in others if eff[k] == TRUMP), key=lambda k: st[k])
        if not base and len(trumps) >= r:
            out.append(trumps[:r])
            # pairs of trumps too, for a led pair or tractor (a ruff must match the shape)
            pairs = [k for k in dict.fromkeys(trumps) if hand[k] >= 2]
            if r % 2 == 0 and len(pairs) * 2 >= r:
                out.append([k for k in pairs[: r // 2] for _ in range(2)])
        return [Play(view.seat, tuple(c)) for c in out]

    # ------------------------------------------------------------------ failed throws

    def _choose(self, view, legal):
        # the thrower must play one option and will lose it: pick the one worth most
        options = view.forced_options
        return max(legal, key=lambda a: (sum(point_value(c) for c in options[a.option]),
                                         len(options[a.option])))

