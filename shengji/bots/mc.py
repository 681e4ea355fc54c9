"""``mc``: information-set Monte Carlo over the C playouts.

For every lead or follow with more than one choice:

1. **Candidates** — the legal plays (the engine's listing, which is the core's legal
   enumeration), reduced for big hands: follows that would be equally placed in the
   trick (winning it or not) with equal points keep their cheapest representative (and
   the strongest winner); leads keep every multi-card structure and each suit's
   highest, lowest and lowest point-free single. The heuristic's choice always stays
   and goes first; at most ``cap`` candidates are judged.
2. **Worlds** — deals of the unseen cards to the other seats (and to the kitty, unless
   this seat buried it), consistent with everything the seat has seen: cards played,
   its own hand and burial, and the suits a seat has shown out of
   (``shengji.bots.knowledge``).
3. **Playouts** — for each world and candidate, playouts in C from the position after
   that play (``shengji.playout.evaluate``: one C call per round, every candidate on
   the same random continuations), by the ``policy`` of the playouts: ``greedy`` by
   default (it beat ``random`` head to head: +0.22 levels per deal, 95% interval
   +0.07 to +0.36, 30 boards), ``random`` the documented uniform policy. With
   ``alloc=halving`` (the default) the budget is spent in rounds of successive
   halving: every candidate on a few worlds, then the better half on more, and so on;
   ``alloc=uniform`` gives every candidate the same share.
   Finding friends: the position carries the calls as counted from the plays seen and
   every seat's points so far; in each playout whoever plays a called copy joins (the
   core's friends playout), and each playout is valued for the side this seat ends on.
4. **Choice** — the candidate with the best mean outcome for this seat's side: the
   levels the deal's result gives (the variant's scoring table applied to the
   attackers' total: trick points, the kitty bonus, penalties), plus a small term in
   the points themselves so that a better score counts even within one band.

The ``budget`` is playouts per decision (``budget=1500``, the default; deterministic: the
same seed, view and options give the same decision) or milliseconds per decision
(``budget=100ms``: worlds are added in rounds until the time is spent, so decisions
depend on the machine's speed and are not reproducible).

Burying (``bury=search``, the default) plays out a few candidates over the same sampled
hands of the others: the heuristic's burial (low non-point side cards of short suits)
and, for each side suit short enough, the burial that voids it; it beat the heuristic's
burial head to head on one-deck-40 (+0.10 levels per deal, 95% interval +0.01 to
+0.19, 100 boards). Declaring and choosing a failed throw's forced play are the
heuristic's (``shengji.bots.heuristic``): declare when the bid makes many trumps, make
the thrower play its most valuable option.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..cards import NUM_KINDS, point_value
from ..engine.actions import Bury, Play
from ..errors import ShengjiError
from ..friends import FriendTracker
from ..playout import MAX_PLAYERS, POLICIES, FriendsState, Position, evaluate, friends_state
from .base import Bot, Option, int_range, register
from .heuristic import HeuristicBot
from .knowledge import Holders, sample_world, unseen_counts

TRUMP = 4
#: worlds evaluated per round of a time budget
ROUND_WORLDS = 8
#: most worlds per decision under a playout budget (more playouts per world beyond)
MAX_WORLDS = 160
#: follows judged when the engine lists more (a sample, plus the heuristic's)
FOLLOW_SAMPLE = 120


@dataclass(frozen=True)
class Budget:
    """Playouts per decision, or milliseconds per decision."""

    playouts: int = 0
    ms: float = 0.0

    @property
    def text(self) -> str:
        return f"{self.ms:g}ms" if self.ms else str(self.playouts)

    @classmethod
    def parse(cls, text: str) -> Budget:
        t = text.strip().lower()
        try:
            if t.endswith("ms"):
                ms = float(t[:-2])
                if not 1 <= ms <= 600_000:
                    raise ValueError
                return cls(ms=ms)
            n = int(t)
            if not 1 <= n <= 10_000_000:
                raise ValueError
            return cls(playouts=n)
        except ValueError:
            raise ValueError("a number of playouts (e.g. 2000) or milliseconds "
                             "(e.g. 100ms) per decision") from None


def _policy(text: str) -> str:
    if text not in POLICIES:
        raise ValueError(f"one of {', '.join(POLICIES)}")
    return text




def _alloc(text: str) -> str:
    if text not in ("halving", "uniform"):
        raise ValueError("halving or uniform")
    return text


def _bury(text: str) -> str:
    if text not in ("heuristic", "search"):
        raise ValueError("heuristic or search")
    return text


DEFAULT_BUDGET = Budget(playouts=1500)


@register
class MonteCarloBot(Bot):
    name = "mc"
    reads_view = True  # every decision reads it (engine.runner builds it at once)
    options = {
        "budget": Option(Budget.parse, DEFAULT_BUDGET,
                         "playouts per decision (1500) or milliseconds (100ms)"),
        "policy": Option(_policy, "greedy", "playout policy: random or greedy"),
        "cap": Option(int_range(1, 200), 12, "most candidate plays judged per decision"),
        "bury": Option(_bury, "search",
                       "burial: search (playouts over a few candidate burials) or "
                       "heuristic"),
        "alloc": Option(_alloc, "halving",
                        "how a playout budget is shared: halving (successive halving: the "
                        "better half of the candidates goes on each round) or uniform"),
    }

    def __init__(self, variant, seed=0, **options):
        super().__init__(variant, seed, **options)
        self.heuristic = HeuristicBot(variant, f"mc:{seed}")
        self._utility: dict = {}
        self._buried: tuple | None = None  # ((deal, dealer), counts) of my own burial
        self.last = None  # the last search: candidates, means, worlds (for reasons, tests)

    # ------------------------------------------------------------------ dispatch

    def act(self, view, legal):
        return self._decide(view, legal, remember=True)[0]

    def advise(self, view, legal):
        return self._decide(view, legal, remember=False)

    def _decide(self, view, legal, remember: bool):
        kind = legal.kind
        if kind in ("lead", "follow") and len(legal) > 0:
            found = self._search(view, legal)
            if found is not None:
                return found
        if kind == "bury":
            found = self._bury_search(view, legal) if self.config["bury"] == "search" else None
            action, reason = found or self.heuristic._decide(view, legal, remember)
            if remember:
                counts = [0] * NUM_KINDS
                for c in action.cards:
                    counts[c] += 1
                self._buried = ((view.deal_number, view.seat), tuple(counts))
            return action, reason
        action, reason = self.heuristic.advise(view, legal)
        return action, reason

    # ------------------------------------------------------------------ burying

    def _bury_search(self, view, legal):
        """Bury by playouts: the heuristic's burial and, for each side suit short enough,
        the burial that voids it (topped up in the heuristic's order), each played out
        from the first lead over the same sampled hands of the others."""
        v = self.variant
        m = view.players
        if m > MAX_PLAYERS or view.dealer != view.seat:
            return None
        ctx = v.context(view.level, view.trump)
        _, eff, st = self.heuristic._ctx(view)
        count = legal.count
        order = self.heuristic.bury_order(view)
        options = [tuple(sorted(legal.burial(order)))]
        for suit in range(4):
            cards = [c for c in order if eff[c] == suit]
            if 0 < len(cards) <= count:
                rest = [c for c in order if eff[c] != suit][:count - len(cards)]
                options.append(tuple(sorted(cards + rest)))
        # (the variant's bury settings: only the burials that keep to them)
        options = [o for o in dict.fromkeys(options) if legal.fits(o)]
        if len(options) == 1:
            return Bury(view.seat, options[0]), "the only burial worth trying"
        unseen = unseen_counts(view, v.composition.counts)
        holders = Holders(view, eff, unseen, kitty_known=True)
        if not holders.consistent:
            return None
        rng = random.Random(f"mc:{self.seed}:bury:{view.deal_number}:{tuple(view.hand)}")
        self._kitty_points = 0
        base = self._position(view, ctx)
        if base is None:
            return None
        # one decision per deal: twice the play budget, at most MAX_WORLDS worlds
        w = max(1, min(MAX_WORLDS, 2 * self.config["budget"].playouts // len(options)
                       if self.config["budget"].playouts else MAX_WORLDS))
        others = [self._world(view, holders, rng)[0] for _ in range(w)]
        seed = rng.getrandbits(63)
        me = view.seat * NUM_KINDS
        means = []
        for option in options:
            left = list(view.hand)
            for c in option:
                left[c] -= 1
            kp = sum(_POINTS[c] for c in option)
            worlds = [(bytes(b[:me]) + bytes(left) + bytes(b[me + NUM_KINDS:]), kp)
                      for b in others]
            values = self._values(view, base, worlds, [], 1, seed)
            means.append(sum(values) / len(values))
        best = max(range(len(options)), key=lambda i: (means[i], -i))
        what = "the heuristic's" if best == 0 else "a suit-voiding"
        return (Bury(view.seat, options[best]),
                f"{what} burial, best of {len(options)} over {w} sampled deals: expected "
                f"{means[best]:+.2f} for your side")

    # ------------------------------------------------------------------ search

    def _my_burial(self, view):
        own = getattr(view, "buried", None)
        if own is not None:
            return own
        if self._buried is not None and self._buried[0] == (view.deal_number, view.seat):
            return self._buried[1]
        return None

    def _search(self, view, legal):
        v = self.variant
        m = view.players
        if m > MAX_PLAYERS or view.trump_set is False or view.dealer is None:
            return None
        ctx = v.context(view.level, view.trump)
        _, eff, st = self.heuristic._ctx(view)
        key = (view.deal_number, view.trick_number, len(view.trick), view.seat,
               tuple(view.hand))
        rng = random.Random(f"mc:{self.seed}:{key}")
        prior, prior_reason = self.heuristic.advise(view, legal)
        candidates = self._candidates(view, legal, ctx, eff, st, prior, rng)
        if len(candidates) == 1:
            return Play(view.seat, candidates[0]), prior_reason or "the only sensible play"
        buried = self._my_burial(view) if view.dealer == view.seat else None
        unseen = unseen_counts(view, v.composition.counts, buried)
        holders = Holders(view, eff, unseen, kitty_known=buried is not None)
        if not holders.consistent:
            return None
        base = self._position(view, ctx)
        if base is None:
            return None
        cfg = self.config
        budget = cfg["budget"]
        k_n = len(candidates)
        plays = [_counts(c) for c in candidates]
        sums, counts = [0.0] * k_n, [0] * k_n
        pool: list = []  # worlds sampled so far (rounds reuse them)

        def worlds(n):
            while len(pool) < n:
                pool.append(self._world(view, holders, rng))
            return pool[:n]

        def run(alive, w, n_per):
            values = self._values(view, base, worlds(w), [plays[k] for k in alive], n_per,
                                  rng.getrandbits(63))
            a_n = len(alive)
            for j, k in enumerate(alive):
                s = 0.0
                for d in range(w):
                    i = (d * a_n + j) * n_per
                    s += sum(values[i:i + n_per])
                sums[k] += s
                counts[k] += w * n_per

        alive = list(range(k_n))
        if budget.ms:
            # rounds of fresh worlds, every candidate on each, until the time is spent
            deadline = time.perf_counter() + budget.ms / 1000
            while True:
                fresh = [self._world(view, holders, rng) for _ in range(ROUND_WORLDS)]
                pool.extend(fresh)
                values = self._values(view, base, fresh, plays, 1, rng.getrandbits(63))
                for i, x in enumerate(values):
                    sums[i % k_n] += x
                    counts[i % k_n] += 1
                if time.perf_counter() >= deadline:
                    break
        elif cfg["alloc"] == "uniform":
            per_play = max(budget.playouts // k_n, 1)
            w = min(per_play, MAX_WORLDS)
            run(alive, w, max(per_play // w, 1))
        else:
            # successive halving: equal shares of the budget per round, the better half
            # of the candidates goes on, each round on more worlds (the same ones first)
            rounds = max(1, (k_n - 1).bit_length())
            share = budget.playouts / rounds
            for r in range(rounds):
                w = max(1, int(share // len(alive)))
                n_per = max(1, w // MAX_WORLDS)
                run(alive, min(w, MAX_WORLDS), n_per)
                if r < rounds - 1:
                    alive.sort(key=lambda k: (-sums[k] / counts[k], k))
                    alive = sorted(alive[:(len(alive) + 1) // 2])
        means = [sums[k] / counts[k] if counts[k] else float("-inf") for k in range(k_n)]
        best = max(alive, key=lambda i: (means[i], -i))
        self.last = {"candidates": candidates, "means": means, "worlds": len(pool),
                     "playouts": sum(counts)}
        return Play(view.seat, candidates[best]), self._reason(view, candidates, means, best,
                                                               len(pool))

    def _world(self, view, holders, rng) -> tuple:
        """One sampled deal, packed for the C evaluation: (players * 54 counts, kitty
        points)."""
        hands = sample_world(holders, rng)
        buf = bytearray(view.players * NUM_KINDS)
        off = view.seat * NUM_KINDS
        buf[off:off + NUM_KINDS] = bytes(view.hand)
        kitty_points = self._kitty_points
        for i, seat in enumerate(holders.seats):
            if seat is None:
                kitty_points = sum(_POINTS[c] for c in hands[i])
                continue
            off = seat * NUM_KINDS
            for c in hands[i]:
                buf[off + c] += 1
        return bytes(buf), kitty_points

    def _position(self, view, ctx):
        v = self.variant
        m = view.players
        buried = self._my_burial(view) if view.dealer == view.seat else None
        self._kitty_points = (sum(point_value(k) * n for k, n in enumerate(buried))
                              if buried is not None else 0)
        hands = [view.hand] * m  # placeholders: every world brings its own hands
        trick = [cards for _, cards in view.trick]
        leader = view.trick[0][0] if view.trick else view.seat
        # the two sides of the deal as public now: the dealer's and the others
        teams = [0 if view.same_side(s, view.dealer) else 1 for s in range(m)]
        extra: dict = {"trick_points": view.trick_points}
        if view.calls and not view.sides_known:
            # finding friends with calls open: the playouts let the called copies decide
            # who joins, and count every seat's points for its side at the end
            extra = {"captured": self._captured(view, ctx),
                     "friends": self._friends_state(view)}
        try:
            return Position(ctx, [_as_hand(h) for h in hands], leader, 0, teams=teams,
                            trick=trick, throws=v.play_rules.throws,
                            throw_penalty=v.settings["penalties"]["failed_throw"],
                            throw_penalty_per_card=v.settings["penalties"][
                                "failed_throw_per_card"], **extra)
        except ShengjiError:  # a view the playout cannot represent: the heuristic decides
            return None

    def _friends_state(self, view) -> FriendsState:
        """The calls as counted from the plays this seat has seen (shengji.friends)."""
        rules = self.variant.friend_rules
        assert rules is not None  # asked only when the view has calls: finding friends
        t = FriendTracker(view.calls, view.dealer, rules)
        for trick in view.tricks + ((view.trick,) if view.trick else ()):
            for seat, cards in trick:
                t.play(seat, cards)
        return friends_state(view.dealer, t.calls, t.seen, t.done, t.side, rules)

    def _captured(self, view, ctx) -> list[int]:
        """Trick points each seat has won this deal (from the tricks it has seen)."""
        _, eff, st = self.heuristic._ctx(view)
        out = [0] * view.players
        for trick in view.tricks:
            plays = [cards for _, cards in trick]
            out[trick[self.heuristic._winner(ctx, eff, st, plays)][0]] += sum(
                _POINTS[c] for p in plays for c in p)
        return out

    # ------------------------------------------------------------------ utility

    def _values(self, view, base, worlds, plays, n_per, seed):
        """Each playout's value for this seat's side, in ``evaluate``'s order. With
        finding friends before every friend is found the side is read from each playout
        (who joined); otherwise it is fixed."""
        util = self._utility_table(view)
        policy = self.config["policy"]
        if base.friends is not None:
            totals, sides = evaluate(base, worlds, plays, n_per, seed, policy, sides=True)
            bit = 1 << view.seat
            return [-util(t) if side & bit else util(t) for t, side in zip(totals, sides,
                                                                          strict=True)]
        totals = evaluate(base, worlds, plays, n_per, seed, policy)
        if view.same_side(view.seat, view.dealer):
            return [-util(t) for t in totals]
        return [util(t) for t in totals]

    def _utility_table(self, view):
        """total → value for the attackers (levels from the scoring table, plus a small
        term in the points); the dealer's side counts it negated."""
        key = view.level
        f = self._utility.get(key)
        if f is None:
            scale = 1.0 / (100 * self.variant.decks)
            cache: dict = {}
            score = self.variant.score_deal

            def f(total, cache=cache):
                u = cache.get(total)
                if u is None:
                    out = score(total)
                    rise = out.rise if out.next == "attackers" else -out.rise
                    take = 0.5 if out.next == "attackers" else -0.5
                    u = cache[total] = rise + take + total * scale
                return u
            self._utility[key] = f
        return f

    # ------------------------------------------------------------------ candidates

    def _candidates(self, view, legal, ctx, eff, st, prior, rng) -> list[tuple]:
        cap = self.config["cap"]
        first = prior.cards if isinstance(prior, Play) else None
        if legal.kind == "follow":
            pool = self._follow_pool(view, legal, eff, st, rng)
        else:
            pool = [a.cards for a in legal]
        seen = set()
        out = []
        if first is not None:
            out.append(first)
            seen.add(first)
        if len(pool) + len(out) > cap:
            pool = (self._follow_reps(view, pool, ctx, eff, st) if legal.kind == "follow"
                    else self._lead_reps(view, pool, eff, st))
        for c in pool:
            if c not in seen:
                seen.add(c)
                out.append(c)
        return out[:cap]

    def _follow_pool(self, view, legal, eff, st, rng) -> list[tuple]:
        n = len(legal)
        if n > FOLLOW_SAMPLE:
            idx = sorted(rng.sample(range(n), FOLLOW_SAMPLE))
            pool = [legal[i].cards for i in idx]
        else:
            pool = [a.cards for a in legal]
        lead = view.trick[0][1]
        pool.extend(a.cards for a in self.heuristic._filler_candidates(view, lead, eff, st))
        return list(dict.fromkeys(pool))

    def _follow_reps(self, view, pool, ctx, eff, st) -> list[tuple]:
        """One cheapest play per (wins the trick now, points), and the strongest winner."""
        plays = [cards for _, cards in view.trick]
        me = len(plays)
        best: dict = {}
        strongest = None
        for cards in pool:
            wins = ctx.trick_winner(plays + [cards]) == me
            pts = sum(_POINTS[c] for c in cards)
            cost = sum(st[c] + (40 if eff[c] == TRUMP else 0) for c in cards)
            k = (wins, pts)
            if k not in best or cost < best[k][0]:
                best[k] = (cost, cards)
            if wins and (strongest is None or cost > strongest[0]):
                strongest = (cost, cards)
        reps = sorted(best.items(), key=lambda kv: (not kv[0][0], -kv[0][1], kv[1][0]))
        out = [cards for _, (_, cards) in reps]
        if strongest is not None:
            out.append(strongest[1])
        return out

    def _lead_reps(self, view, pool, eff, st) -> list[tuple]:
        """Multi-card structures (widest and longest first), then per suit the highest,
        the lowest and the lowest point-free single."""
        multi = [c for c in pool if len(c) > 1]
        multi.sort(key=lambda c: (-len(c), -max(st[x] for x in c)))
        singles: dict = {}
        for c in pool:
            if len(c) == 1:
                singles.setdefault(eff[c[0]], []).append(c)
        picks = []
        for suit in sorted(singles):
            ss = sorted(singles[suit], key=lambda c: st[c[0]])
            picks.append(ss[-1])
            picks.append(ss[0])
            free = [c for c in ss if not _POINTS[c[0]]]
            if free:
                picks.append(free[0])
        return multi + picks

    # ------------------------------------------------------------------ reasons

    def _reason(self, view, candidates, means, best, worlds) -> str:
        from ..engine.actions import cards_text

        order = sorted(range(len(means)), key=lambda i: -means[i])
        text = (f"best of {len(candidates)} plays over {worlds} sampled deals: expected "
                f"{means[best]:+.2f} for your side (levels, and a little for points)")
        runner = next((i for i in order if i != best), None)
        if runner is not None:
            text += f" (next: {cards_text(candidates[runner])} {means[runner]:+.2f})"
        return text


_POINTS = [point_value(k) for k in range(NUM_KINDS)]


def _counts(cards) -> bytes:
    c = bytearray(NUM_KINDS)
    for k in cards:
        c[k] += 1
    return bytes(c)


def _as_hand(counts):
    from ..core import Hand

    return Hand.from_counts(counts)
