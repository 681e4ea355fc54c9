"""A seat's view as one flat vector with named pieces (numpy).

Seats are *relative*: row 0 of every per-seat piece is the observing seat, row 1 the
next seat in play order, and so on, so a policy learnt at one seat reads the same at
any other. Counts are of card kinds (ids of ``shengji.cards``: 0..51 by suit and rank,
52 little joker, 53 big joker). ``Layout.split(vector)`` gives the pieces back by name
(views, no copy). The pieces (P = seats):

=============  =========  ==========================================================
piece          size       content
=============  =========  ==========================================================
decision       8          one-hot: declare, bury, lead, follow, choose, takeback, call,
                          (not my turn)
hand           54         the seat's cards (with the kitty while the dealer buries)
building       54         the cards chosen so far in this decision
played         P×54       the cards each seat has played face up this deal
trick          P×54       the current trick, by seat
buried         54         the cards this seat buried (the dealer, or a seat that
                          stole the kitty)
bid            54         the cards of the standing declaration
bid_seat       P+1        its seat (last: no declaration yet)
trump          6          suit 0..3, 4 no trump, 5 not settled yet
level          13         the rank played this deal (0 = "2" … 12 = "A")
dealer         P+1        the dealer (last: not known yet)
leader         P+1        the leader of the current trick (last: none)
partners       P          1 for the seats on this seat's side (itself included; fixed
                          teams — in finding friends only itself)
side           P          the seats known to be on the dealer's side (finding friends:
                          the dealer and the friends who have shown themselves)
calls          4×54       the dealer's friend calls (ordinal − 1, card); while the dealer
                          calls, the calls chosen so far
call_ordinal   4          the ordinal chosen for the call being built
hand_sizes     P          cards held by each seat
levels         2          this side's level, the highest other side's (0 = "2"; 13 = past A)
points         1          the attackers' points from tricks so far
to_deal        1          cards still to be dealt
trick_number   1          tricks completed this deal
captured       P          the card points each seat has taken in tricks this deal
side_points    2          the points taken by the seats known to be on the dealer's side,
                          and by the others
history        N×(P+1+54) the last N moves, the latest first (``history=N``, default 8;
                          0..64): the mover's seat (one-hot, relative), 1 for a
                          declaration (0 for a face-up play), the cards; empty rows zero
=============  =========  ==========================================================

Two encoders write the same vector: ``CEncoder`` builds it in the C core
(core_c/observe.c) from the state its tracker keeps, one call per observation;
``Encoder`` is the pure-Python reference the differential tests compare it with, used
when the C core is absent. ``make_encoder`` picks.
"""

from __future__ import annotations

import numpy as np

from ..cards import NUM_KINDS
from ..engine.events import Buried, DealStarted, Declared, Played, TrickWon
from .building import KINDS, MAX_ORDINAL, SLOT, seen_call

_TRUMP_NONE, _TRUMP_UNSET = 4, 5
_LEVEL_CAP = 13
#: moves in the observation's history by default, and at most
HISTORY = 8
MAX_HISTORY = 64


class Layout:
    """Offsets, shapes and upper bounds of the pieces for a variant."""

    def __init__(self, variant, history: int = HISTORY):
        from ..errors import ShengjiError

        if not isinstance(history, int) or not 0 <= history <= MAX_HISTORY:
            raise ShengjiError(f"history {history!r}: moves kept, 0..{MAX_HISTORY}")
        self.history = history
        p = variant.players
        comp = variant.composition
        d = comp.max_copies  # most copies of one card (packs, or jokers beyond them)
        if variant.friend_rules is not None and d > MAX_ORDINAL:
            # a call names "the n-th copy": the action space has n = 1..MAX_ORDINAL only
            from ..errors import VariantError

            raise VariantError(
                f"deck.packs: {comp.packs} packs ({d} copies of a card) with finding friends: "
                f"the RL environments' friend calls name the 1st..{MAX_ORDINAL}th copy only "
                f"(at most {MAX_ORDINAL} packs there; the engine plays up to 8)")
        rules = variant.play_rules
        if rules.throws and (not rules.trump_throws or rules.throw_check != "holdings"):
            # leads are built card by card from any cards of one suit (building.OneSuit)
            from ..errors import VariantError

            key = "trump_throws: false" if not rules.trump_throws else \
                f"throw_check: {rules.throw_check}"
            raise VariantError(
                f"play.{key}: the RL environments offer any cards of one suit as a lead and "
                "cannot yet tell the throws this refuses")
        total = comp.total
        self.players = p
        self.pieces = [
            ("decision", (len(KINDS) + 1,), 1),
            ("hand", (NUM_KINDS,), d),
            ("building", (NUM_KINDS,), d),
            ("played", (p, NUM_KINDS), d),
            ("trick", (p, NUM_KINDS), d),
            ("buried", (NUM_KINDS,), d),
            ("bid", (NUM_KINDS,), d),
            ("bid_seat", (p + 1,), 1),
            ("trump", (6,), 1),
            ("level", (13,), 1),
            ("dealer", (p + 1,), 1),
            ("leader", (p + 1,), 1),
            ("partners", (p,), 1),
            ("side", (p,), 1),
            ("calls", (MAX_ORDINAL, NUM_KINDS), 1),
            ("call_ordinal", (MAX_ORDINAL,), 1),
            ("hand_sizes", (p,), total),
            ("levels", (2,), _LEVEL_CAP),
            ("points", (1,), comp.points),
            ("to_deal", (1,), total),
            ("trick_number", (1,), total),
            ("captured", (p,), comp.points),
            ("side_points", (2,), comp.points),
            ("history", (history, p + 1 + NUM_KINDS), d),
        ]
        self.slices = {}
        high = []
        at = 0
        for name, shape, hi in self.pieces:
            n = int(np.prod(shape))
            self.slices[name] = (at, at + n, shape)
            high += [hi] * n
            at += n
        self.size = at
        self.high = np.array(high, dtype=np.float32)
        self.low = np.zeros(at, dtype=np.float32)

    def split(self, vector) -> dict:
        """The named pieces of an observation vector (views)."""
        return {name: vector[a:b].reshape(shape) for name, (a, b, shape) in self.slices.items()}


class Tracker:
    """What the encoder needs beyond the engine's state, kept from the events: each
    seat's face-up plays this deal, the current trick by seat, the dealer's burial."""

    __slots__ = ("played", "trick", "buried", "buried_by", "moves")

    def __init__(self, players: int):
        self.played = np.zeros((players, NUM_KINDS), dtype=np.float32)
        self.trick = np.zeros((players, NUM_KINDS), dtype=np.float32)
        self.buried = np.zeros((players, NUM_KINDS), dtype=np.float32)  # by the seat
        self.buried_by = None  # the seat whose burial is the kitty now
        self.moves: list = []  # (seat, 1 declaration / 0 play, cards), the last MAX_HISTORY

    def copy(self) -> Tracker:
        t = Tracker.__new__(Tracker)
        t.played, t.trick, t.buried = self.played.copy(), self.trick.copy(), self.buried.copy()
        t.buried_by = self.buried_by
        t.moves = self.moves[:]
        return t

    def __deepcopy__(self, memo):
        return self.copy()

    def update(self, events) -> None:
        for ev in events:
            t = type(ev)
            if t is Played:
                row_p, row_t = self.played[ev.seat], self.trick[ev.seat]
                for c in ev.cards:
                    row_p[c] += 1
                    row_t[c] += 1
                self._move(ev.seat, 0, ev.cards)
            elif t is Declared:
                self._move(ev.seat, 1, ev.cards)
            elif t is TrickWon:
                self.trick.fill(0)
            elif t is Buried:
                self.buried_by = ev.seat
                row = self.buried[ev.seat]
                for c in ev.cards:
                    row[c] += 1
            elif t is DealStarted:
                self.played.fill(0)
                self.trick.fill(0)
                self.buried.fill(0)
                self.buried_by = None
                self.moves = []

    def _move(self, seat, kind, cards) -> None:
        moves = self.moves
        moves.append((seat, kind, cards))
        if len(moves) > 2 * MAX_HISTORY:
            del moves[:-MAX_HISTORY]


class Encoder:
    """Encodes ``(game, seat, decision)`` as the flat observation vector of ``Layout``."""

    def __init__(self, variant, history: int = HISTORY):
        self.layout = lay = Layout(variant, history)
        p = lay.players
        self.players = p
        self.order = [np.array([(s + i) % p for i in range(p)]) for s in range(p)]
        self._order = [[(s + i) % p for i in range(p)] for s in range(p)]
        self._s = {name: (a, b) for name, (a, b, _) in lay.slices.items()}
        self._sides: dict = {}
        s = self._s
        (self._decision, _), (self._hand, self._hand_end) = s["decision"], s["hand"]
        (self._building, self._building_end) = s["building"]
        (self._played, self._played_end), (self._trick, self._trick_end) = \
            s["played"], s["trick"]
        (self._buried, self._buried_end) = s["buried"]

    def _partners(self, teams: tuple, seat: int) -> tuple:
        """This seat's side in relative order (0/1 per seat) and the other sides' seats."""
        key = (teams, seat)
        got = self._sides.get(key)
        if got is None:
            mine = teams[seat]
            order = self._order[seat]
            got = self._sides[key] = ([1.0 if teams[o] == mine else 0.0 for o in order],
                                      [o for o in order if teams[o] != mine])
        return got

    def encode(self, game, seat: int, decision, tracker: Tracker) -> np.ndarray:
        s = self._s
        p = self.players
        out = np.zeros(self.layout.size, dtype=np.float32)
        out[self._decision + (KINDS.index(SLOT.get(decision.kind, decision.kind))
                              if decision is not None else len(KINDS))] = 1
        out[self._hand:self._hand_end] = game.hands[seat]
        if decision is not None and decision.cards:
            out[self._building:self._building_end] = decision.counts
        order = self.order[seat]
        out[self._played:self._played_end] = tracker.played[order].reshape(-1)
        if game._trick:
            out[self._trick:self._trick_end] = tracker.trick[order].reshape(-1)
        if tracker.buried_by is not None:
            out[self._buried:self._buried_end] = tracker.buried[seat]

        def rel(x):
            return p if x is None else (x - seat) % p

        bids = game._bids
        if bids:
            bid = bids[-1]
            a = s["bid"][0]
            for c in bid.cards:
                out[a + c] += 1
            out[s["bid_seat"][0] + rel(bid.seat)] = 1
        else:
            out[s["bid_seat"][0] + p] = 1
        dealing = game.phase == "deal"  # (a kitty theft re-declares with trump settled)
        trump = _TRUMP_UNSET if dealing else (_TRUMP_NONE if game.trump is None else game.trump)
        out[s["trump"][0] + trump] = 1
        out[s["level"][0] + game.level] = 1
        out[s["dealer"][0] + rel(game.dealer)] = 1
        out[s["leader"][0] + rel(game.leader if not dealing else None)] = 1
        partners, others = self._partners(game.teams, seat)
        a, b = s["partners"]
        out[a:b] = partners
        a = s["side"][0]
        for o in getattr(game, "side", ()):
            out[a + (o - seat) % p] = 1
        calls = getattr(game, "calls", ())
        if decision is not None and decision.kind == "call":
            calls = decision._set.chosen
            if decision._set.pending is not None:
                out[s["call_ordinal"][0] + decision._set.pending - 1] = 1
        a = s["calls"][0]
        for n, c in map(seen_call, calls):
            out[a + (n - 1) * NUM_KINDS + c] = 1
        a, b = s["hand_sizes"]
        hand_len = game.hand_len
        out[a:b] = [hand_len[o] for o in self._order[seat]]
        levels = game.levels  # per seat
        a = s["levels"][0]
        out[a] = min(levels[seat], _LEVEL_CAP)
        out[a + 1] = min(max([levels[o] for o in others], default=0), _LEVEL_CAP)
        out[s["points"][0]] = game.trick_points
        out[s["to_deal"][0]] = game._n_deal - game._dealt if dealing else 0
        out[s["trick_number"][0]] = game.trick_number
        a = s["captured"][0]
        side = set(getattr(game, "side", ()))
        sides = [0, 0]
        for i, o in enumerate(self._order[seat]):
            out[a + i] = game.captured[o]
            sides[o not in side] += game.captured[o]
        out[s["side_points"][0]:s["side_points"][1]] = sides
        a = s["history"][0]
        width = p + 1 + NUM_KINDS
        moves, n = tracker.moves, self.layout.history
        for j, (mover, kind, cards) in enumerate(reversed(moves[max(len(moves) - n, 0):])):
            row = a + j * width
            out[row + (mover - seat) % p] = 1
            out[row + p] = kind
            for c in cards:
                out[row + p + 1 + c] += 1
        return out

    def encode_into(self, game, seat: int, decision, tracker: Tracker, out) -> None:
        out[:] = self.encode(game, seat, decision, tracker)

    def new_tracker(self) -> Tracker:
        return Tracker(self.players)

