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

Speed: a decision reads each view field once, judges singles led (most tricks) in
Python from the context's suit and strength tables (the core's rule for one card each,
semantics §7), keeps the core ``Hand`` of every play it asks the core about, and
answers "could the unseen cards beat this?" from per-suit strength lists built once
per decision. The context's suit and strength tables (and each suit's kinds) are
shared by every bot of the variant; leads are judged on their card ids
(``Legal.cards()``), only the chosen one becomes a ``Play``; the winners of a
multi-card follow are judged in one C call; a forced follow (one legal play) is
answered at once; and the runner hands the bot its built view (``reads_view``).
"""

from __future__ import annotations

from operator import sub

from ..cards import LITTLE_JOKER, NUM_KINDS, card_str, point_value, rank_of
from ..engine.actions import Bury, Play
from .base import Bot, register
from .calls import ally, joining_cards, spending_cards
from .cardsense import (  # noqa: F401  (single_winner, single_follows: public here too)
    TRUMP,
    _cards_of,
    _components,
    _hand,
    _one_suit,
    _shape,
    _suit_desc,
    _Unseen,
    single_follows,
    single_winner,
)

#: share of the hand that must be trumps to declare while dealing / after the last card
DECLARE_SHARE = 0.38
FINAL_DECLARE_SHARE = 0.26
#: follow candidates judged one by one; beyond this a sample is judged
MAX_JUDGED = 120
#: a seat short of the led suit completes its play with any other cards (often
#: thousands of choices): this many drawn ones are judged along with the built discards
#: of ``_filler_candidates`` (the cheapest, the richest, the lowest ruffs)
FILLER_SAMPLE = 12
_POINTS = [point_value(k) for k in range(NUM_KINDS)]
#: (context, effective suit and strength of every kind) by the context's identity
_TABLES: dict = {}


@register
class HeuristicBot(Bot):
    name = "heuristic"
    reads_view = True  # every decision reads it (engine.runner builds it at once)

    def __init__(self, variant, seed=0, **options):
        super().__init__(variant, seed, **options)
        self._tables: dict = {}
        self._buried = (None, (0,) * NUM_KINDS)
        self._copies = tuple(variant.composition.counts)
        self._voids = None  # [deal key, completed tricks read, opponents' voids]
        self._joining: tuple = ()  # called cards that would make this seat a friend now
        self._spending: dict = {}  # the dealer's cards that would use up its own call

    # ------------------------------------------------------------------ dispatch

    def act(self, view, legal):
        return self._decide(view, legal, True)[0]

    def advise(self, view, legal):
        return self._decide(view, legal, False)

    def _decide(self, view, legal, remember: bool):
        kind = legal.kind
        calls = kind in ("lead", "follow") and view.calls
        self._joining = joining_cards(view, self.variant.friend_rules) if calls else ()
        self._spending = spending_cards(view, self.variant.friend_rules) if calls else {}
        if kind == "declare":
            return self._declare(view, legal)
        if kind == "bury":
            return self._bury(view, legal, remember)
        if kind == "lead":
            return self._lead(view, legal)
        if kind == "follow":
            return self._follow(view, legal)
        if kind == "choose":
            return self._choose(view, legal)
        if kind == "call":
            return self._call(view, legal)
        return legal[0], ""

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

        # a copy this seat buried is never played: a call counting on it finds nobody
        buried = self._buried[1] if self._buried[0] == (view.deal_number, view.seat) else None

        def want(call):
            ordinal, card = call
            aim = view.hand[card] + 1 if rules.dealer_copies_count else 1
            dead = buried is not None and ordinal > self._copies[card] - buried[card] - (
                0 if rules.dealer_copies_count else view.hand[card])
            return (not dead, ordinal == aim, st[card], -suit_len[eff[card]], -ordinal)

        chosen, cards = [], set()
        singles = sorted((a.calls[0] for a in legal), key=want, reverse=True)
        for call in singles:
            if call[1] not in cards and len(chosen) < legal.count:
                chosen.append(call)
                cards.add(call[1])
        for call in singles:  # too few distinct cards: other copies of the same ones
            if call not in chosen and len(chosen) < legal.count:
                chosen.append(call)
        return (CallFriends(view.seat, tuple(chosen)),
                "top cards of plain suits, each past the copies the dealer holds, short suits "
                "first")

    # ------------------------------------------------------------------ helpers

    def _ctx(self, view):
        key = (view.level, view.trump)
        t = self._tables.get(key)
        if t is None:
            ctx = self.variant.context(view.level, view.trump)
            # shared by every bot of the variant (the variant keeps its contexts; the
            # tables are never changed)
            t = _TABLES.get(id(ctx))
            if t is None or t[0] is not ctx:
                if len(_TABLES) > 256:
                    _TABLES.clear()
                eff = [ctx.effective_suit(k) for k in range(NUM_KINDS)]
                st = [ctx.strength(k) for k in range(NUM_KINDS)]
                t = _TABLES[id(ctx)] = (ctx, eff, st)
            self._tables[key] = t
        return t

    def _unseen(self, view) -> list[int]:
        buried = self._buried[1] if self._buried[0] == (view.deal_number, view.dealer) else None
        out = list(map(sub, map(sub, self._copies, view.hand), view.played))
        if buried:
            out = list(map(sub, out, buried))
        if min(out) < 0:
            out = [max(n, 0) for n in out]
        return out

    def _same_side(self, view, a: int, b: int) -> bool:
        """Seats known to play on one side this deal (an unfound friend is not known) —
        and, for a seat about to join the dealer's side (finding friends: it holds the
        called copy that comes next), the dealer's side."""
        same = view.same_side(a, b)
        if same is not None:
            return same
        if self._joining:
            me, side = view.seat, view.side
            return (a == me and b in side) or (b == me and a in side)
        return False

    def _winner(self, ctx, eff, st, plays) -> int:
        if len(plays[0]) == 1:
            return single_winner(plays, eff, st)
        return ctx.trick_winner([_hand(p) for p in plays])

    def _cost(self, cards, eff, st) -> int:
        """How much a play spends: trumps and high cards are expensive."""
        return sum(st[c] + (40 if eff[c] == TRUMP else 0) for c in cards)

    # ------------------------------------------------------------------ declaring

    def _declare(self, view, legal):
        if len(legal) == 1:
            return legal[0], "nothing to declare"
        bids = view.bids
        seat = view.seat
        if bids and bids[-1].seat != seat and self._same_side(view, bids[-1].seat, seat):
            return legal[0], "never overturn the partner"
        hand = view.hand
        held = sum(hand)
        final = view.to_deal == 0
        level = view.level
        best, best_share = None, 0.0
        for action in list(legal)[1:]:
            c = action.cards[0]
            suit = None if c >= LITTLE_JOKER else c // 13
            trumps = sum(n for k, n in enumerate(hand)
                         if n and (k >= LITTLE_JOKER or rank_of(k) == level
                                   or (suit is not None and k // 13 == suit)))
            share = trumps / max(held, 1)
            if share > best_share or (share == best_share and best is not None
                                      and len(action.cards) > len(best.cards)):
                best, best_share = action, share
        if bids and bids[-1].seat == seat:
            # reinforcing my own bid is always worth it
            for action in list(legal)[1:]:
                if action.cards[0] == max(bids[-1].cards):
                    return action, "reinforce my own declaration"
        need = FINAL_DECLARE_SHARE if final else DECLARE_SHARE
        if best is not None and best_share >= need and (final or held >= 6):
            return best, f"{best_share:.0%} of my cards would be trumps"
        return legal[0], "too few trumps to declare"

    # ------------------------------------------------------------------ burying

    def bury_order(self, view) -> list[int]:
        """The hand's cards, the first to bury first: side cards before trumps, no
        points, singles before pairs, not a suit's top card, short suits, low cards."""
        ctx, eff, st = self._ctx(view)
        hand = view.hand
        suit_len = [0] * 5
        for k, n in enumerate(hand):
            suit_len[eff[k]] += n
        cards = [k for k, n in enumerate(hand) for _ in range(n)]
        top: dict[int, int] = {}  # effective suit → its highest strength held
        for k in range(NUM_KINDS):
            top[eff[k]] = max(top.get(eff[k], -1), st[k])

        def keep_value(k):
            return (eff[k] == TRUMP, point_value(k) > 0, hand[k] >= 2,
                    st[k] == top[eff[k]], suit_len[eff[k]], st[k])

        cards.sort(key=keep_value)
        return cards

    def _bury(self, view, legal, remember: bool = True):
        chosen = legal.burial(self.bury_order(view))
        if remember:
            counts = [0] * NUM_KINDS
            for c in chosen:
                counts[c] += 1
            self._buried = ((view.deal_number, view.seat), tuple(counts))
        return Bury(view.seat, chosen), "bury low non-point side cards of short suits"

    # ------------------------------------------------------------------ leading

    def _lead(self, view, legal):
        ctx, eff, st = self._ctx(view)
        unseen = _Unseen(self._unseen(view), eff, st)
        voids = self._opponent_voids(view, eff)
        hand = view.hand
        seat = view.seat
        for k in self._joining:
            if not unseen.beatable((k,), 1, 1) and (eff[k] == TRUMP or eff[k] not in voids):
                return (Play(seat, (k,)),
                        f"lead the called {card_str(k)}: join the dealer's side with a winner")
        # the dealer keeps the cards of its own open calls while another lead is as good
        spending = self._spending

        def spends(cards):
            return bool(spending) and any(c in spending for c in cards)

        # per effective suit: the kinds held (ids descending, as the listing has them)
        desc = _suit_desc(eff)
        held = [[k for k in ks if hand[k]] for ks in desc]
        suit_size = [sum([hand[k] for k in ks]) for ks in held]
        # throws: every component of a suit that nobody can beat, played at once
        rules = self.variant.play_rules
        if rules.throws:
            best_throw = None
            for suit in range(5):
                if suit in voids and suit != TRUMP:
                    continue
                if suit == TRUMP and not rules.trump_throws:
                    continue  # play.trump_throws: false refuses them
                if suit_size[suit] < 2:
                    continue
                # a throw needs two unbeatable components: a single is unbeatable only
                # if no unseen card of the suit is higher; wider ones need two copies
                top = unseen.levels(suit, 1)
                top = top[-1] if top else -1
                kinds = held[suit]
                if sum(1 for k in kinds if hand[k] >= 2 or st[k] >= top) < 2:
                    continue
                cards = tuple([k for k in kinds for _ in range(hand[k])])
                good = []
                for cc, width, length in _components(ctx, cards):
                    if not unseen.beatable(cc, width, length) and not spends(cc):
                        good.extend(cc)
                if (len(good) >= 2 and (best_throw is None or len(good) > len(best_throw))
                        and len(_components(ctx, tuple(good))) > 1):
                    best_throw = good
            if best_throw and rules.throw_check != "holdings" and tuple(
                    sorted(best_throw, reverse=True)) not in set(legal.cards()):
                best_throw = None  # play.throw_check: unseen: only the engine's own listing
            if best_throw:
                return Play(seat, tuple(best_throw)), "a throw nobody can beat"
        best, best_key = None, None
        listed = legal.cards()  # card ids only: the one Play chosen is read at the end
        for i, cards in enumerate(listed):
            c0 = cards[0]
            suit = eff[c0]
            if suit != TRUMP and suit in voids:
                continue
            n = len(cards)
            key = (not spends(cards), suit != TRUMP, n,
                   _POINTS[c0] if n == 1 else sum(_POINTS[c] for c in cards))
            if best_key is not None and key <= best_key:
                continue  # cannot be preferred (the first of equals stays)
            if n == 1:
                if unseen.beatable(cards, 1, 1):
                    continue
            else:
                # only a whole suit may be listed as several structures (engine.legal)
                if (c0 != cards[-1] and n == suit_size[suit]
                        and len(_components(ctx, cards)) > 1):
                    continue  # a listed whole-suit throw that is not safe
                w, length = _shape(cards)
                if unseen.beatable(cards, w, length):
                    continue
            best, best_key = i, key
        if best is not None:
            spent = [spending[c] for c in dict.fromkeys(listed[best]) if c in spending]
            return legal[best], "nobody can beat this lead" + (
                f" (it uses up your own call of {', '.join(spent)})" if spent else "")
        # nothing safe: a low single of a short side suit (never a point card if avoidable)
        suit_len = suit_size
        singles = [i for i, cards in enumerate(listed) if len(cards) == 1]
        pool = singles or range(len(listed))

        def low(i):
            c = listed[i][0]
            return (spends(listed[i]), eff[c] == TRUMP, _POINTS[c] > 0, suit_len[eff[c]], st[c])

        return legal[min(pool, key=low)], "nothing is safe: lead low in a short side suit"

    def _opponent_voids(self, view, eff) -> set:
        """Effective suits some opponent has shown out of (so a lead there may be ruffed).
        Completed tricks are read once per deal (kept between decisions)."""
        seat = view.seat
        tricks = view.tricks
        key = (view.deal_number, view.dealer, view.level, view.trump, seat,
               tricks[0] if tricks else None, view.side, bool(self._joining))
        known = self._voids
        if known is None or known[0] != key or known[1] > len(tricks):
            known = self._voids = [key, 0, set()]
        voids = known[2]
        new = tricks[known[1]:]
        known[1] = len(tricks)
        trick = view.trick
        if trick:
            voids = set(voids)  # the current trick may change; keep it out of the cache
            new = new + (trick,)
        for t in new:
            lead_suit = eff[t[0][1][0]]
            if lead_suit in voids:
                continue
            for s, cards in t[1:]:
                if not self._same_side(view, s, seat) and any(eff[c] != lead_suit
                                                               for c in cards):
                    voids.add(lead_suit)
                    break
        return voids

    # ------------------------------------------------------------------ following

    def _follow(self, view, legal):
        if len(legal) == 1 and legal.total == 1:
            # every rule of thumb below would pick it (about a third of all follows)
            return legal[0], "the only legal play"
        ctx, eff, st = self._ctx(view)
        trick = view.trick
        if len(trick[0][1]) == 1:
            return self._follow_single(view, legal, trick, eff, st)
        seat = view.seat
        plays = [cards for _, cards in trick]
        seats = [s for s, _ in trick]
        n_after = view.players - len(plays) - 1
        trick_points = sum(_POINTS[c] for p in plays for c in p)
        win_idx = self._winner(ctx, eff, st, plays) if len(plays) > 1 else 0
        partner_winning = self._same_side(view, seats[win_idx], seat)
        fillers = self._filler_candidates(view, plays[0], eff, st)
        if fillers and len(legal) > FILLER_SAMPLE:
            # short of the led suit: the built discards are the cheapest, the richest and
            # the lowest ruffs; a few drawn completions besides
            options = [legal[i] for i in sorted(self.rng.sample(range(len(legal)),
                                                                FILLER_SAMPLE))]
        elif len(legal) > MAX_JUDGED:
            options = [legal[i] for i in sorted(self.rng.sample(range(len(legal)),
                                                                MAX_JUDGED))]
        else:
            options = list(legal)
        options.extend(fillers)
        unseen = None

        def pts(a):
            return sum(_POINTS[c] for c in a.cards)

        def cost(a):
            return sum(st[c] + (40 if eff[c] == TRUMP else 0) for c in a.cards)

        if partner_winning:
            win_cards = plays[win_idx]
            w, length = _shape(win_cards) if len(set(win_cards)) <= 2 else (1, 1)
            if n_after == 0:
                safe = True
            else:
                unseen = _Unseen(self._unseen(view), eff, st)
                safe = (len(_components(ctx, win_cards)) == 1
                        and not unseen.beatable(win_cards, w, length))
            who = ally(view, seats[win_idx])
            if safe:
                return (max(options, key=lambda a: (pts(a), -cost(a))),
                        f"{who} wins safely: add points")
            return min(options, key=lambda a: (pts(a), cost(a))), \
                f"{who} may be beaten: play low"
        me = len(plays)
        if len(plays[0]) == 1:
            winners = [a for a in options if single_winner(plays + [a.cards], eff, st) == me]
        else:
            # a play of several effective suits never wins (semantics §7): ask the core
            # only about one-suit plays
            hands = [_hand(p) for p in plays]
            one_suit = [a for a in options if _one_suit(a.cards, eff)]
            if one_suit:  # one C call for all of them
                won = ctx.trick_winners([hands + [_hand(a.cards)] for a in one_suit])
                winners = [a for a, w in zip(one_suit, won, strict=True) if w == me]
            else:
                winners = []
        if winners:
            lead_parts = None

            def sure(a):
                nonlocal unseen, lead_parts
                if n_after == 0:
                    return True
                if lead_parts is None:
                    lead_parts = len(_components(ctx, plays[0]))
                if lead_parts > 1:
                    return False
                w, length = _shape(a.cards) if len(set(a.cards)) <= 2 else (1, 1)
                if unseen is None:
                    unseen = _Unseen(self._unseen(view), eff, st)
                return not unseen.beatable(a.cards, w, length)

            safe_winners = [a for a in winners if sure(a)]
            if safe_winners:
                return (min(safe_winners, key=lambda a: (cost(a) - 2 * pts(a))),
                        "win the trick safely and cheaply")
            if trick_points >= 10:
                return (min(winners, key=lambda a: (cost(a) - 2 * pts(a))),
                        f"fight for {trick_points} points")
        return min(options, key=lambda a: (pts(a), cost(a))), "cannot win it: play low"

    def _follow_single(self, view, legal, trick, eff, st):
        """``_follow`` for a single card led (most tricks), on kind ids: the same rules
        of thumb, judged with the one-card trick rule (see ``single_winner``)."""
        seat = view.seat
        lead = trick[0][1][0]
        suit = eff[lead]
        win_seat, best, ruff = trick[0][0], st[lead], False
        points = _POINTS[lead]
        for s, (k,) in trick[1:]:
            ks, sk = eff[k], st[k]
            points += _POINTS[k]
            if ks == suit and not ruff and sk > best:
                win_seat, best = s, sk
            elif suit != TRUMP and ks == TRUMP and (not ruff or sk > best):
                win_seat, best, ruff = s, sk, True
        n_after = view.players - len(trick) - 1
        kinds = single_follows(view.hand, suit, eff)
        for k in self._joining:
            if k not in kinds:
                continue
            beats = ((eff[k] == suit and not ruff and st[k] > best)
                     or (suit != TRUMP and eff[k] == TRUMP and (not ruff or st[k] > best)))
            if beats or win_seat in view.side:
                return (Play.trusted(seat, (k,)),
                        f"play the called {card_str(k)}: join the dealer's side"
                        + (" and win the trick" if beats else " on its winning trick"))

        def cost(k):
            return st[k] + (40 if eff[k] == TRUMP else 0)

        def play(k):
            return Play.trusted(seat, (k,))

        top = None  # highest unseen strength per effective suit, when needed

        def beatable(k):
            nonlocal top
            if top is None:
                top = [-1] * 5
                for j, n in enumerate(self._unseen(view)):
                    if n and st[j] > top[eff[j]]:
                        top[eff[j]] = st[j]
            return top[eff[k]] > st[k]

        if self._same_side(view, win_seat, seat):
            who = ally(view, win_seat)
            if n_after == 0 or not beatable(next(k for s, (k,) in trick if s == win_seat)):
                return (play(max(kinds, key=lambda k: (_POINTS[k], -cost(k)))),
                        f"{who} wins safely: add points")
            return play(min(kinds, key=lambda k: (_POINTS[k], cost(k)))), \
                f"{who} may be beaten: play low"
        winners = [k for k in kinds
                   if (eff[k] == suit and not ruff and st[k] > best)
                   or (suit != TRUMP and eff[k] == TRUMP and (not ruff or st[k] > best))]
        if winners:
            safe = [k for k in winners if n_after == 0 or not beatable(k)]
            if safe:
                return (play(min(safe, key=lambda k: cost(k) - 2 * _POINTS[k])),
                        "win the trick safely and cheaply")
            if points >= 10:
                return (play(min(winners, key=lambda k: cost(k) - 2 * _POINTS[k])),
                        f"fight for {points} points")
        return (play(min(kinds, key=lambda k: (_POINTS[k], st[k] + (40 if eff[k] == TRUMP
                                                                    else 0)))),
                "cannot win it: play low")

    def _filler_candidates(self, view, lead, eff, st) -> list:
        """Short of the led suit, any other cards complete the play (semantics §4 step
        2): offer the cheapest discard, the richest discard and the lowest trumps, which
        a sample of a long list would likely miss."""
        suit = eff[lead[0]]
        hand = view.hand
        held = sum(n for k, n in enumerate(hand) if n and eff[k] == suit)
        r = len(lead) - held
        if r <= 0:
            return []
        base = [k for k in range(NUM_KINDS) if eff[k] == suit for _ in range(hand[k])]
        others = [k for k in range(NUM_KINDS) if eff[k] != suit for _ in range(hand[k])]
        cheap = sorted(others, key=lambda k: (_POINTS[k], eff[k] == TRUMP, st[k]))
        rich = sorted(others, key=lambda k: (-_POINTS[k], eff[k] == TRUMP, st[k]))
        out = [base + cheap[:r], base + rich[:r]]
        trumps = sorted((k for k in others if eff[k] == TRUMP), key=lambda k: st[k])
        if not base and len(trumps) >= r:
            out.append(trumps[:r])
            # pairs of trumps too, for a led pair or tractor (a ruff must match the shape)
            pairs = [k for k in dict.fromkeys(trumps) if hand[k] >= 2]
            if r % 2 == 0 and len(pairs) * 2 >= r:
                out.append([k for k in pairs[: r // 2] for _ in range(2)])
        # card ids from the hand: the Play is made as the engine makes its own
        seat = view.seat
        return [Play.trusted(seat, tuple(sorted(c, reverse=True))) for c in out]

    # ------------------------------------------------------------------ failed throws

    def _choose(self, view, legal):
        # the thrower must play one option and will lose it: pick the one worth most
        options = view.forced_options
        return (max(legal, key=lambda a: (sum(_POINTS[c] for c in options[a.option]),
                                          len(options[a.option]))),
                "make the thrower give up the most points")
