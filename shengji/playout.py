"""Random playouts of the play phase in C, and their Python reference.

A *position* is a deal in its play phase: every seat's cards, the trick in progress,
the points so far. ``playout(position, seed)`` plays it to the end of the deal in the C
core with the random policy below and returns the attackers' points and the kitty
multiplier; ``playouts(position, n, seed)`` runs ``n`` of them in one C call (playout
``i`` uses ``seed + i``). No Python runs per play.

The policy (shared word for word by ``reference_playout``, which drives
``shengji.engine.Game``):

- PRNG: splitmix64 seeded with the playout's seed; a draw ``x`` picks among ``n``
  choices the index ``(x * n) >> 64``.
- Lead: one draw among the lead actions the engine lists (``Game.legal_actions`` of kind
  ``lead``) ordered by ``lead_key``: effective suit 0..4, then every single structure by
  (width, length, bottom strength, kinds from the bottom up), then the whole suit (a
  throw). A failed throw forces the core's option; when the next player chooses among
  several, one more draw picks the option (in the core's order).
- Follow: one draw among all the legal follows in canonical order: their 54-count
  vectors in descending lexicographic order (kind 0's count first), bombs included.
- Points 5/10/K go to the seat that wins the trick, a failed throw's penalty to the seat
  that threw; at the end they count for the sides as they then stand (the dealer's side
  against the attackers, as the engine's ``captured``/``penalties``): the attackers'
  tricks, plus the penalties of dealer-side throwers, minus the attackers' own; the
  attackers taking the last trick score the kitty's points times the multiplier of the
  last trick's lead (semantics §8).
- Finding friends (``FriendsState``): the dealer's side starts as the dealer and the
  friends already found; every play (a lead, a forced part of a failed throw, a follow)
  counts the called copies it holds, its cards by kind id from the highest (the engine's
  order), each call on its own: the ordinal-th copy of a call's card joins its player to
  the side; a player already on the side uses the call up (``join_twice``) or lets it
  pass to the next copy; the dealer's copies count only with ``dealer_copies_count``.
  Seats 2..12 (``MAX_PLAYERS``), any teams.

The C playout implements the built-in ``shengji_failed_throw`` and
``shengji_kitty_multiplier`` hooks; ``Position.from_game`` refuses variants whose
plugins override them. A position with throws under ``play.throw_check: unseen`` is
refused too (``RulesError``): the policy lists every whole-suit throw, and what each seat
has seen is not part of a position (the mc bot then leaves the play to its heuristic).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import NamedTuple

from .cards import NUM_KINDS, point_value
from .core import Context, Hand, _position_eval, _position_playout, _position_playouts
from .errors import HandError, RulesError, VariantError

__all__ = [
    "MAX_PLAYERS",
    "FriendsState",
    "friends_state",
    "Position",
    "PlayoutResult",
    "Playouts",
    "SplitMix64",
    "POLICIES",
    "evaluate",
    "playout",
    "playouts",
    "reference_playout",
    "lead_key",
]

MAX_PLAYERS = 12
MAX_CALLS = 16
_MASK = (1 << 64) - 1
#: hooks the C playout implements itself (their built-in behaviour)
_PLAYOUT_HOOKS = ("shengji_failed_throw", "shengji_kitty_multiplier")


class PlayoutResult(NamedTuple):
    trick_points: int  # attackers' trick points at the end of the deal
    multiplier: int  # kitty multiplier, 0 when the dealer side took the last trick
    kitty_bonus: int
    penalty: int  # failed-throw penalties, to the attackers (may be negative)
    total: int  # max(0, trick_points + kitty_bonus + penalty): what the scoring table sees
    last_winner: int
    winners: tuple  # winning seat of each trick the playout finished
    failed_throws: int
    side: tuple = ()  # the dealer's side at the end, seats ascending


class Playouts(NamedTuple):
    """``n`` playouts: per-playout arrays (``array('i')``) of the totals, trick points and
    multipliers."""

    totals: array
    trick_points: array
    multipliers: array

    def mean_total(self) -> float:
        return sum(self.totals) / len(self.totals) if self.totals else 0.0


class FriendsState(NamedTuple):
    """Finding friends (找朋友) in a position: the dealer, the calls ((ordinal, card kind),
    ...) with the copies of each counted so far and whether it is fulfilled, the seats on
    the dealer's side now (the dealer included), and the variant's joining rules
    (shengji.friends.FriendRules: join_twice, dealer_copies_count)."""

    dealer: int
    calls: tuple
    seen: tuple
    done: tuple
    side: tuple
    join_twice: bool = True
    dealer_copies_count: bool = True


def friends_state(dealer: int, calls, seen, done, side, rules) -> FriendsState:
    """The FriendsState of calls counted so far (a ``FriendTracker``'s fields). A call of
    the other copy (ordinal 0, friends.other_copy) is played out as the first copy a seat
    other than the dealer plays: the dealer's copies then count for no call (the playout
    knows one such switch for all calls: an estimate when other calls are open too)."""
    other = any(o == 0 for o, _ in calls)
    return FriendsState(dealer, tuple((o or 1, c) for o, c in calls), tuple(seen), tuple(done),
                        tuple(side), rules.join_twice, rules.dealer_copies_count and not other)


def _check_friends(fr, m: int) -> FriendsState:
    if not isinstance(fr, FriendsState):
        raise HandError(f"friends: expected a FriendsState, got {type(fr).__name__}")
    if not (isinstance(fr.dealer, int) and 0 <= fr.dealer < m):
        raise HandError(f"friends.dealer: {fr.dealer!r} is not a seat 0..{m - 1}")
    if len(fr.calls) > MAX_CALLS or not len(fr.calls) == len(fr.seen) == len(fr.done):
        raise HandError(f"friends: {len(fr.calls)} calls (at most {MAX_CALLS}) need as many "
                        "seen counts and done flags")
    for (ordinal, card), seen in zip(fr.calls, fr.seen, strict=True):
        if not (isinstance(card, int) and 0 <= card < NUM_KINDS and isinstance(ordinal, int)
                and 1 <= ordinal <= 16 and isinstance(seen, int) and 0 <= seen <= ordinal):
            raise HandError(f"friends: call ({ordinal!r}, {card!r}) seen {seen!r} times "
                            "is not a call of the deal")
    if any(not (isinstance(s, int) and 0 <= s < m) for s in fr.side):
        raise HandError(f"friends.side: {fr.side!r} are not all seats 0..{m - 1}")
    return fr


def _counts(cards) -> tuple[int, ...]:
    return cards.counts if isinstance(cards, Hand) else Hand(cards).counts


class Position:
    """A play-phase position. ``hands[seat]`` and the plays of ``trick`` (in play order
    from ``leader``) are anything ``Hand()`` accepts; ``teams[seat]`` is a team id."""

    __slots__ = ("ctx", "players", "teams", "dealer_team", "leader", "hands", "trick",
                 "trick_points", "penalty", "kitty_points", "throws", "throw_penalty",
                 "throw_penalty_per_card", "captured", "penalties", "friends")
    # points by seat (set by name in __init__, below)
    captured: tuple[int, ...]
    penalties: tuple[int, ...]

    def __init__(self, ctx: Context, hands: Sequence, leader: int, dealer_team, *,
                 teams: Sequence | None = None, trick: Sequence = (), trick_points: int = 0,
                 penalty: int = 0, kitty_points: int = 0, throws: bool | None = None,
                 throw_penalty: int = 0, captured: Sequence | None = None,
                 penalties: Sequence | None = None, friends: FriendsState | None = None,
                 throw_penalty_per_card: int = 0):
        if not isinstance(ctx, Context):
            raise RulesError(f"ctx: expected a shengji.core.Context, got {type(ctx).__name__}")
        hands = list(hands)
        if not 2 <= len(hands) <= MAX_PLAYERS:
            raise HandError(f"hands: {len(hands)} seats, a playout takes 2..{MAX_PLAYERS}")
        self.ctx = ctx
        self.players = m = len(hands)
        self.hands = tuple(_counts(h) for h in hands)
        self.teams = tuple(teams) if teams is not None else tuple(s % 2 for s in range(m))
        if len(self.teams) != m:
            raise HandError(f"teams: {len(self.teams)} entries for {m} seats")
        if dealer_team not in self.teams:
            raise HandError(f"dealer_team: {dealer_team!r} is none of the seats' teams")
        self.dealer_team = dealer_team
        if not (isinstance(leader, int) and 0 <= leader < m):
            raise HandError(f"leader: {leader!r} is not a seat 0..{m - 1}")
        self.leader = leader
        self.trick = tuple(_counts(p) for p in trick)
        if len(self.trick) >= m:
            raise HandError(f"trick: {len(self.trick)} plays, a trick in progress has < {m}")
        for name in ("trick_points", "penalty", "kitty_points", "throw_penalty",
                     "throw_penalty_per_card"):
            value = locals()[name]
            if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 10**6:
                raise HandError(f"{name}: {value!r} is not a point count (|n| <= 1000000)")
        self.trick_points, self.penalty = trick_points, penalty
        self.kitty_points, self.throw_penalty = kitty_points, throw_penalty
        self.throw_penalty_per_card = throw_penalty_per_card
        self.throws = ctx.rules.throws if throws is None else bool(throws)
        if self.throws and ctx.rules.throw_check != "holdings":
            raise RulesError("throw_check: unseen: the playouts list every whole-suit throw "
                             "and judge it by the holdings; they cannot yet tell what a seat "
                             "has seen (play with throws=False, or no playouts)")
        # points by seat, counted for the sides at the end (trick_points/penalty above are
        # already the attackers'); with friends the sides change as called cards are played
        for name, value in (("captured", captured), ("penalties", penalties)):
            value = tuple(value) if value is not None else (0,) * m
            if len(value) != m or not all(isinstance(v, int) and not isinstance(v, bool)
                                          and 0 <= v <= 10**6 for v in value):
                raise HandError(f"{name}: {m} point counts 0..1000000 expected, got {value!r}")
            setattr(self, name, value)
        self.friends = None if friends is None else _check_friends(friends, m)

    @classmethod
    def from_game(cls, game) -> Position:
        """The position of an engine ``Game`` in its play phase (before a lead or during
        a trick)."""
        if game.phase != "play":
            raise RulesError(f"game: a playout starts in the play phase, not {game.phase!r}")
        v = game.variant
        hook = v._plugin_hook(_PLAYOUT_HOOKS)
        if hook is not None:
            raise VariantError(f"variant {v.name}: a plugin implements {hook}; the C playout "
                               "only knows the built-in behaviour of that hook")
        kitty_points = sum(point_value(k) * n for k, n in enumerate(game.buried) if n)
        # the sides as they stand now: the dealer's side (team, or dealer + friends found);
        # with calls still open, the playout lets the called copies decide the rest
        side = set(game.side)
        friends = None
        tracker = getattr(game, "_friends", None)
        if tracker is not None and not tracker.resolved:
            friends = friends_state(game.dealer, tracker.calls, tracker.seen, tracker.done,
                                    tracker.side, tracker.rules)
        return cls(
            game.ctx, [Hand.from_counts(h) for h in game.hands], game.leader,
            0, teams=[0 if s in side else 1 for s in range(game.players)],
            trick=[Hand(cards) for _, cards in game.trick], kitty_points=kitty_points,
            throws=game.rules.throws, throw_penalty=v.settings["penalties"]["failed_throw"],
            throw_penalty_per_card=v.settings["penalties"]["failed_throw_per_card"],
            captured=game.captured, penalties=game.penalties, friends=friends)

    def _fields(self) -> dict:
        teams = list(self.teams)
        ids = {t: i for i, t in enumerate(dict.fromkeys(teams))}
        return dict(
            players=self.players, teams=[ids[t] for t in teams],
            dealer_team=ids[self.dealer_team], leader=self.leader, n_trick=len(self.trick),
            hands=self.hands, trick=self.trick, trick_points=self.trick_points,
            penalty=self.penalty, kitty_points=self.kitty_points, throws=int(self.throws),
            throw_penalty=self.throw_penalty, throw_penalty_per_card=self.throw_penalty_per_card,
            captured=self.captured, penalties=self.penalties,
            friends=None if self.friends is None else self.friends._asdict())


def _seed(seed) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise HandError(f"seed: {seed!r} is not an integer")
    return seed & _MASK


def playout(position: Position, seed: int = 0) -> PlayoutResult:
    """Play ``position`` to the end of the deal with the random policy (in C)."""
    r = _position_playout(position.ctx, position._fields(), _seed(seed))
    return PlayoutResult(*r)


def playouts(position: Position, n: int, seed: int = 0) -> Playouts:
    """``n`` playouts in one C call; playout ``i`` uses ``seed + i``."""
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 2**31 - 1:
        raise HandError(f"n: {n!r} is not a number of playouts")
    totals, points, mults = _position_playouts(position.ctx, position._fields(), n,
                                                _seed(seed))
    return Playouts(totals, points, mults)


#: playout policies of ``evaluate``: "random" is the policy above; "greedy" (core_c/search.c)
#: leads a random single structure (never a throw) and follows with the best of a few
#: legal follows by a one-trick rule of thumb (win cheaply or add points to the own
#: side's winning trick; else keep points back and play the cheapest cards)
POLICIES = ("random", "greedy")


def evaluate(position: Position, worlds: Sequence, plays: Sequence, n: int, seed: int = 0,
             policy: str = "random", sides: bool = False):
    """Playouts for search, in one C call. Each world is ``(hands, kitty_points)``:
    every seat's cards (a sequence of 54-count sequences, or one ``bytes`` of
    ``players * 54`` counts) in place of ``position.hands``, and the points in that
    world's kitty. Each play (cards, or 54 counts) is a candidate first play of the seat
    to act (anything ``Hand()`` accepts, or ``bytes`` of 54 counts); the core checks it
    is held and legal in every world. For world ``d``, play
    ``k`` and playout ``j`` the result's entry ``(d * K + k) * n + j`` (``K`` = number of
    plays, 1 when none is given: plain playouts) is the attackers' total; playout ``j``
    of world ``d`` uses the seed ``seed + d * n + j`` for every play, so plays are
    compared on the same random continuations. With ``sides``, returns ``(totals,
    sides)``: ``sides`` at the same index is the dealer's side at the end of that playout
    as a bit mask of seats (finding friends: who joined)."""
    if policy not in POLICIES:
        raise HandError(f"policy: {policy!r} is not one of {', '.join(POLICIES)}")
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 2**20:
        raise HandError(f"n: {n!r} is not a number of playouts")
    m = position.players
    packed = []
    for d, world in enumerate(worlds):
        try:
            hands, kitty_points = world
        except (TypeError, ValueError):
            raise HandError(f"world {d}: expected (hands, kitty_points)") from None
        if not isinstance(hands, (bytes, bytearray)):
            if len(hands) != m:
                raise HandError(f"world {d}: {len(hands)} hands for {m} seats")
            if any(len(h) != NUM_KINDS for h in hands):
                raise HandError(f"world {d}: a hand is not 54 counts")
            try:
                hands = bytes(c for h in hands for c in h)
            except (TypeError, ValueError):
                raise HandError(f"world {d}: a count is not 0..255") from None
        if (not isinstance(kitty_points, int) or isinstance(kitty_points, bool)
                or not 0 <= kitty_points <= 10**6):
            raise HandError(f"world {d}: kitty_points {kitty_points!r} is not a point count")
        packed.append((bytes(hands), kitty_points))
    if not packed:
        raise HandError("worlds: at least one world")
    plays_b = [p if isinstance(p, (bytes, bytearray)) and len(p) == NUM_KINDS
               else bytes(_counts(p)) for p in plays]
    return _position_eval(position.ctx, position._fields(), packed, plays_b, n, _seed(seed),
                          policy, bool(sides))


# ------------------------------------------------------------------ the Python reference


class SplitMix64:
    """splitmix64, bit for bit the C core's playout PRNG."""

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return (self.next() * n) >> 64


def lead_key(ctx: Context, cards: tuple) -> tuple:
    """Sort key of a listed lead (``cards``: kind ids of one effective suit): single
    structures by (width, length, bottom strength, kinds bottom up), then the whole-suit
    throw; effective suit first."""
    rules = ctx.rules
    top = rules.max_tuple
    assert top is not None  # PlayRules.__post_init__ fills it in
    suit = ctx.effective_suit(cards[0])
    kinds = sorted(set(cards), key=lambda k: (ctx.strength(k), k))
    widths = {cards.count(k) for k in kinds}
    strengths = [ctx.strength(k) for k in kinds]
    w = cards.count(kinds[0])
    one_width = len(widths) == 1
    if one_width and len(kinds) == 1 and w <= top:
        return (suit, w, 1, strengths[0], tuple(kinds))
    run = all(b == a + 1 for a, b in zip(strengths, strengths[1:], strict=False))
    if (one_width and run and rules.tractors and w >= rules.tractor_min_width
            and w <= top and len(kinds) >= rules.tractor_min_length):
        return (suit, w, len(kinds), strengths[0], tuple(kinds))
    return (suit, 99)


def _vector(cards) -> tuple[int, ...]:
    c = [0] * NUM_KINDS
    for k in cards:
        c[k] += 1
    return tuple(c)


def _follows(game, legal) -> Sequence[tuple[int, ...]]:
    """Every legal follow (card tuples) in canonical order, or a lazy sequence already in
    that order (the engine's filler follows: kinds ascending, more copies first)."""
    from .engine.legal import FillerFollows

    items = legal._items
    if isinstance(items, FillerFollows):
        return items
    if legal.truncated:
        lead = Hand(game.trick[0][1])
        hand = Hand.from_counts(game.hands[legal.seat])
        plays = [tuple(h.cards()) for h in game.ctx.legal_follows(lead, hand,
                                                                  limit=legal.total).plays]
    else:
        plays = [a.cards for a in legal]
    return sorted(plays, key=_vector, reverse=True)


def reference_playout(game, seed: int = 0) -> PlayoutResult:
    """Play ``game`` (an engine ``Game`` in its play phase) to the end of its deal with
    the same random policy, through ``Game.legal_actions`` / ``Game.apply``. The game is
    played on (it ends in the next deal). Slow; the C playout's reference."""
    from .engine.actions import Play
    from .engine.events import DealScored, ThrowFailed, TrickWon

    if game.phase != "play":
        raise RulesError(f"game: a playout starts in the play phase, not {game.phase!r}")
    rng = SplitMix64(_seed(seed))
    winners, failed = [], 0
    while True:
        legal = game.legal_actions()
        seat = legal.seat
        if legal.kind == "lead":
            ctx = game.ctx
            leads = sorted((a.cards for a in legal), key=lambda c: lead_key(ctx, c))
            action = Play(seat, leads[rng.below(len(leads))])
        elif legal.kind == "follow":
            plays = _follows(game, legal)
            action = Play(seat, tuple(plays[rng.below(len(plays))]))
        elif legal.kind == "choose":
            action = legal[rng.below(len(legal))]
        else:
            raise RulesError(f"game: unexpected {legal.kind!r} decision during the play phase")
        for ev in game.apply(action):
            if isinstance(ev, TrickWon):
                winners.append(ev.seat)
            elif isinstance(ev, ThrowFailed):
                failed += 1
            elif isinstance(ev, DealScored):
                return PlayoutResult(ev.trick_points, ev.multiplier, ev.kitty_bonus,
                                     ev.penalty, ev.attacker_points, winners[-1],
                                     tuple(winners), failed, tuple(sorted(ev.side)))
