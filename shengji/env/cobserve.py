"""The observation vector built in the C core (core_c/observe.c): ``CEncoder``.

The same vector as ``observation.Encoder`` (the Python reference; the differential
tests compare them), at a fraction of the cost: the tracker's state lives in one C
struct (``sj_obs``) that the events update, and each observation is one C call that
writes the whole vector. ``make_encoder`` picks this one when the C core is built.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import NUM_KINDS
from ..engine.events import Buried, CardDealt, DealStarted, Declared, Played, TrickWon
from .building import KINDS, SLOT, seen_call
from .observation import HISTORY, Encoder, Layout

try:
    from .._core import ffi, lib
except ImportError:  # pragma: no cover - no C core: the Python encoder
    ffi = lib = None

_NOT_TO_ACT = len(KINDS)
_KIND = {k: i for i, k in enumerate(KINDS)}
_ZERO = bytes(NUM_KINDS)


class CTracker:
    """The events' part of the observation state, kept in C (``sj_obs``)."""

    __slots__ = ("o", "game", "key")

    def __init__(self, players: int, history: int):
        # the game and state the struct's game fields are of: (its stamp, its event count)
        self.game: object = None
        self.key: tuple[int, int] | None = None
        o = self.o = ffi.new("sj_obs *")
        o.players = players
        o.history = history
        o.buried_by = -1

    @property
    def buried_by(self):
        """The seat whose burial is the kitty now (None: none), as ``Tracker``'s."""
        b = self.o.buried_by
        return None if b < 0 else b

    @property
    def played(self):
        """Each seat's face-up plays this deal (``played[seat][kind]``), as ``Tracker``'s."""
        return self.o.played

    def copy(self) -> CTracker:
        t = CTracker.__new__(CTracker)
        t.game = t.key = None
        t.o = ffi.new("sj_obs *")
        ffi.memmove(t.o, self.o, ffi.sizeof("sj_obs"))
        return t

    def __deepcopy__(self, memo):
        return self.copy()

    def __getstate__(self):
        return bytes(ffi.buffer(self.o))

    def __setstate__(self, state):
        self.game = self.key = None
        self.o = ffi.new("sj_obs *")
        ffi.memmove(self.o, state, len(state))

    def update(self, events) -> None:
        o = self.o
        for ev in events:
            t = type(ev)
            if t is CardDealt:  # the most frequent on the Python path: nothing to keep
                continue
            if t is Played:
                c = ev.cards
                _check(lib.sj_obs_move(o, ev.seat, 0, bytes(c), len(c)))
            elif t is TrickWon:
                lib.sj_obs_trick_end(o)
            elif t is Declared:
                c = ev.cards
                _check(lib.sj_obs_move(o, ev.seat, 1, bytes(c), len(c)))
            elif t is Buried:
                c = ev.cards or ()
                _check(lib.sj_obs_bury(o, ev.seat, bytes(c), len(c)))
            elif t is DealStarted:
                lib.sj_obs_deal_start(o)


def _check(rc: int) -> None:
    if rc:
        raise ValueError(f"observation core: error {rc}")


class CEncoder:
    """``Encoder``'s vector, written by ``sj_observe``."""

    def __init__(self, variant, history: int = HISTORY):
        self.layout = Layout(variant, history)
        self.players = variant.players
        self.history = history
        self.size = self.layout.size
        # encode's buffer, made on first use: C writes there and the caller gets a copy
        # (cheaper than wrapping a new array for C each time); not pickled
        self._buf: Any = None
        self._view: np.ndarray | None = None

    def __getstate__(self):
        return {**self.__dict__, "_buf": None, "_view": None}

    def new_tracker(self) -> CTracker:
        return CTracker(self.players, self.history)

    def encode(self, game, seat: int, decision, tracker: CTracker) -> np.ndarray:
        buf = self._buf
        if buf is None:
            buf = self._buf = ffi.new("float[]", self.size)
            self._view = np.frombuffer(ffi.buffer(buf), dtype=np.float32)
        self._write(game, seat, decision, tracker, buf)
        assert self._view is not None
        return self._view.copy()

    def encode_into(self, game, seat: int, decision, tracker: CTracker, out) -> None:
        if len(out) != self.size:
            raise ValueError(f"observation buffer of {len(out)}: needs {self.size}")
        self._write(game, seat, decision, tracker, ffi.from_buffer("float[]", out))

    def _write(self, game, seat: int, decision, tracker: CTracker, out) -> None:
        o = tracker.o
        if decision is None:
            o.decision = _NOT_TO_ACT
            calls, pending = game.calls, 0
        else:
            o.decision = _KIND[SLOT.get(decision.kind, decision.kind)]
            ffi.memmove(o.building, bytearray(decision.counts) if decision.cards else _ZERO,
                        NUM_KINDS)
            if decision.kind == "call":  # the calls chosen so far
                calls, pending = decision._set.chosen, decision._set.pending or 0
            else:
                calls, pending = game.calls, 0
        o.call_pending = pending
        o.n_calls = len(calls)
        if calls:
            o.calls[0:2 * len(calls)] = [x for call in map(seen_call, calls) for x in call]
        ffi.memmove(o.hand, bytearray(game.hands[seat]), NUM_KINDS)
        # the game's own fields change only with its actions: set once per action
        key = (game._stamp, len(game.events))
        if tracker.game is not game or tracker.key != key:
            tracker.game, tracker.key = game, key
            self._sync(game, o)
        _check(lib.sj_observe(o, seat, out, self.size))

    def _sync(self, game, o) -> None:
        m = self.players
        o.teams[0:m] = game.teams
        bids = game._bids
        if bids:
            bid = bids[-1]
            o.bid_seat = -1 if bid.seat is None else bid.seat
            counts = [0] * NUM_KINDS
            for c in bid.cards:
                counts[c] += 1
            ffi.memmove(o.bid, bytearray(counts), NUM_KINDS)
        else:
            o.bid_seat = -1
        o.dealing = game.phase == "deal"
        o.trump = 4 if game.trump is None else game.trump
        o.level = game.level
        o.dealer = -1 if game.dealer is None else game.dealer
        o.leader = -1 if game.leader is None else game.leader
        o.in_trick = len(game._trick)
        o.side = sum(1 << s for s in game.side)
        o.hand_len[0:m] = game.hand_len
        o.levels[0:m] = game.levels
        o.captured[0:m] = game.captured
        o.points = game.trick_points
        o.to_deal = game._n_deal - game._dealt
        o.trick_number = game.trick_number


def make_encoder(variant, history: int = HISTORY, *, c: bool | None = None):
    """The C encoder when the core is built (``c=False``: the Python reference)."""
    if c is None:
        c = lib is not None
    if c and lib is None:
        raise ValueError("the C core is not built: no C observation encoder")
    return CEncoder(variant, history) if c else Encoder(variant, history)
