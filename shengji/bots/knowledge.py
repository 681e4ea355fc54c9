"""What one seat knows about the hidden cards, and deals sampled consistently with it.

Everything here reads only a ``SeatView`` (and, for the dealer, the cards it buried
itself): the cards nobody has shown are the decks minus the seat's hand, the cards
played face up and its own burial; a seat that did not follow the led effective suit
has none left (semantics §4: a seat holding cards of the led suit must play them).
Shape inferences (a seat that split a led pair holds no pair of that suit) are not
used: they depend on the following knobs and are rarely decisive.

``sample_world`` deals the unseen cards to the other seats (each gets exactly as many
as it holds) and to the kitty when this seat does not know it, never giving a seat a
card of a suit it has shown to be void of.
"""

from __future__ import annotations

from ..cards import NUM_KINDS

#: reshuffles before sampling by flow (rare: only heavily constrained deals need it)
MAX_TRIES = 12


def unseen_counts(view, copies, buried=None) -> list[int]:
    """54 counts of the cards this seat has not seen. ``copies``: how many of each kind
    the deck holds (``variant.composition.counts``, or one number for every kind);
    ``buried``: the seat's own burial."""
    hand, played = view.hand, view.played
    if isinstance(copies, int):
        copies = (copies,) * NUM_KINDS
    out = [copies[k] - hand[k] - played[k] for k in range(NUM_KINDS)]
    if buried is not None:
        out = [n - b for n, b in zip(out, buried, strict=True)]
    return [max(n, 0) for n in out]


def voids(view, eff) -> list[set]:
    """Per seat, the effective suits it has shown it no longer holds."""
    out: list[set] = [set() for _ in range(view.players)]
    tricks = view.tricks + ((view.trick,) if view.trick else ())
    for trick in tricks:
        suit = eff[trick[0][1][0]]
        for seat, cards in trick[1:]:
            for c in cards:
                if eff[c] != suit:
                    out[seat].add(suit)
                    break
    return out


class Holders:
    """The places hidden cards may be: each other seat (capacity = its hand size, its
    voids) and, when unknown to this seat, the kitty (no voids). ``seats[i]`` is the
    seat of holder i, or None for the kitty."""

    __slots__ = ("seats", "caps", "void", "pool", "eff")

    def __init__(self, view, eff, unseen: list[int], kitty_known: bool):
        v = voids(view, eff)
        self.eff = eff
        self.seats: list = []
        self.caps: list[int] = []
        self.void: list[frozenset] = []
        for s in range(view.players):
            if s != view.seat:
                self.seats.append(s)
                self.caps.append(view.hand_sizes[s])
                self.void.append(frozenset(v[s]))
        if not kitty_known and view.kitty_size:
            self.seats.append(None)
            self.caps.append(view.kitty_size)
            self.void.append(frozenset())
        self.pool = [k for k in range(NUM_KINDS) for _ in range(unseen[k])]

    @property
    def consistent(self) -> bool:
        return sum(self.caps) == len(self.pool)


def sample_world(holders: Holders, rng) -> list[list[int]]:
    """One deal of the hidden cards: a list of card ids per holder. Uniform shuffle,
    then swaps repair void violations; after MAX_TRIES failed repairs, a max-flow
    assignment of counts per suit (always finds one when the view is consistent)."""
    eff, caps, void = holders.eff, holders.caps, holders.void
    constrained = any(void)
    cards = holders.pool[:]
    for _ in range(MAX_TRIES):
        rng.shuffle(cards)
        hands, i = [], 0
        for c in caps:
            hands.append(cards[i:i + c])
            i += c
        if not constrained or _repair(hands, void, eff, rng):
            return hands
    return _flow_world(holders, rng)


def _repair(hands, void, eff, rng) -> bool:
    n = len(hands)
    order = list(range(n))
    for h in range(n):
        vh = void[h]
        if not vh:
            continue
        hand = hands[h]
        for i in range(len(hand)):
            x = hand[i]
            sx = eff[x]
            if sx not in vh:
                continue
            rng.shuffle(order)
            done = False
            for g in order:
                if g == h or sx in void[g]:
                    continue
                other = hands[g]
                js = [j for j, y in enumerate(other) if eff[y] not in vh]
                if js:
                    j = js[rng.randrange(len(js))]
                    hand[i], other[j] = other[j], x
                    done = True
                    break
            if not done:
                return False
    return True


def _flow_world(holders: Holders, rng) -> list[list[int]]:
    """Counts per (holder, suit) by max flow (suits → holders allowed them → capacity),
    holders tried in a random order; then each suit's shuffled cards dealt by count."""
    eff, caps, void = holders.eff, holders.caps, holders.void
    by_suit: dict[int, list[int]] = {}
    for c in holders.pool:
        by_suit.setdefault(eff[c], []).append(c)
    suits = sorted(by_suit)
    n = len(caps)
    flow = [[0] * n for _ in suits]
    left = caps[:]
    order = list(range(n))
    rng.shuffle(order)
    need = [len(by_suit[s]) for s in suits]

    def augment(si: int, seen: set) -> bool:
        # find a holder for one more card of suit index si (possibly moving others)
        for h in order:
            if suits[si] in void[h] or h in seen:
                continue
            seen.add(h)
            if left[h] > 0:
                left[h] -= 1
                flow[si][h] += 1
                return True
            for sj in range(len(suits)):
                if flow[sj][h] and sj != si and augment(sj, seen):
                    flow[sj][h] -= 1
                    flow[si][h] += 1
                    return True
        return False

    for si in range(len(suits)):
        for _ in range(need[si]):
            if not augment(si, set()):
                raise ValueError("no deal fits the voids this view shows")
    hands: list[list[int]] = [[] for _ in range(n)]
    for si, s in enumerate(suits):
        cards = by_suit[s][:]
        rng.shuffle(cards)
        i = 0
        for h in range(n):
            hands[h].extend(cards[i:i + flow[si][h]])
            i += flow[si][h]
    return hands
