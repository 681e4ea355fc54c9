"""The play phase of the card-by-card environments, run in C (core_c/observe.c, drive.c).

In the play phase every step of the PettingZoo environment (``aec.ShengjiEnv``) and of
the OpenSpiel game (``openspiel.ShengjiState``) would otherwise go through the Python
engine: the decision's mask (``building.Decision``), the engine's action, its events, the
tracker and the observation. ``CPlay`` keeps that
stretch in C instead: the play driver's state (``sj_drive``, filled from the ``Game`` as
``shengji.engine.drive`` fills it), the observation tracker (``sj_obs``) and the
decision being built (``sj_build``: the same prefix-closed masks as ``building.py``).
One C call per step and one per observation.

The ``Game`` falls behind while C plays; ``flush`` gives it, in bulk, exactly the
actions, events and state the per-step path would have made (``drive._materialise``).
The environment flushes at the deal's end, before any step only Python can take (a
failed throw the next seat chooses for, a called card of finding friends, a follow list
longer than C keeps), and whenever its ``game`` or ``decision`` is read from outside.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..cards import NUM_KINDS
from ..engine import drive as _drive
from ..engine.events import TrickWon
from ..engine.phase import PLAYING
from .building import N_ACTIONS, seen_call

try:
    from .._core import ffi, lib
except ImportError:  # pragma: no cover - no C core: the Python path only
    ffi = lib = None

#: False: the environments never use the C play phase (the tests compare both paths)
ENABLED = True

#: an object's reference count (CPython's): None elsewhere, where ``Handout`` copies
_refs = sys.getrefcount if sys.implementation.name == "cpython" else None

#: dtypes made once (numpy resolves ``dtype=np.int8`` at every call)
_FLOAT32, _INT8 = np.dtype(np.float32), np.dtype(np.int8)

#: skip_forced (openspiel.py; aec.py asks the C state's own, ``CPlay._forced``): a step
#: (or none: -1) and every action after it that is the only one allowed, in one C call
#: (sj_build_step_forced)
step_forced: Any = lib.sj_build_step_forced if lib is not None else None

PLAYED, TRICK_ENDED, PYTHONS = 1, 2, 4
#: sj_build_step's other answers (observe.h, shengji_core.h)
END, PENDING, ILLEGAL = (lib.SJ_DRIVE_END, lib.SJ_DRIVE_PENDING,
                         lib.SJ_BUILD_ILLEGAL) if lib is not None else (-100, -101, -102)


class CPlay:
    """The C state of one environment's play phase (see the module's docstring)."""

    __slots__ = ("st", "b", "o", "r", "game", "penalty", "size", "info_words", "_step",
                 "_forced", "_obs", "_out", "_mask", "_out_np", "_mask_np", "_legal_np")

    def __init__(self, game, tracker, encoder, pickers: int = 0) -> None:
        self.game = game
        self.o = tracker.o
        self.r = game.ctx._r
        self.size = encoder.size
        #: words of the log an OpenSpiel state's information state has read (zero again
        #: when the log is handed to the game)
        self.info_words = 0
        st = self.st = ffi.new("sj_drive *")
        self._buffers()
        # pickers 0: nothing listed by the driver, the env builds each play (whole-move
        # mode, cmoves.CMoves: every seat, the driver lists each decision)
        self.penalty = _drive.start_state(st, game, pickers)
        rc = lib.sj_drive_start(self.r, st)
        if rc < 0:
            raise ValueError(f"play driver: rules core error {rc}")
        # the tracker's game fields, as the encoder sets them (the calls: the game's)
        o = self.o
        encoder._sync(game, o)
        calls = game.calls
        o.call_pending = 0
        o.n_calls = len(calls)
        if calls:
            o.calls[0:2 * len(calls)] = [x for call in map(seen_call, calls) for x in call]

    def _buffers(self) -> None:
        self.b = ffi.new("sj_build *")
        self._step = lib.sj_build_step
        self._forced = lib.sj_build_step_forced
        self._obs = lib.sj_build_observe
        # C writes each observation here; the caller gets copies (its own arrays)
        self._out = ffi.new("float[]", self.size)
        self._mask = ffi.new("int8_t[]", N_ACTIONS)
        self._out_np = np.frombuffer(ffi.buffer(self._out), dtype=np.float32)
        self._mask_np = np.frombuffer(ffi.buffer(self._mask), dtype=np.int8)
        self._legal_np = np.frombuffer(ffi.buffer(self.b.mask), dtype=np.uint8)

    @staticmethod
    def usable(env, game) -> bool:
        """May ``env``'s next decisions be played in C?"""
        return (not env.moves_mode and not env.external_seats and not env.view_in_info
                and env.render_mode is None and playable(game, env.tracker))

    def open(self) -> bool:
        """List the decision of the seat to act; False when only Python can list it."""
        rc = lib.sj_build_open(self.r, self.st, self.b)
        if rc < 0:
            raise ValueError(f"play phase in C: rules core error {rc}")
        return rc == 1

    def sample(self) -> bool:
        """Whole-move mode's (``cmoves.CMoves``): card by card nothing is sampled."""
        return False

    def step(self, a: int) -> int:
        """``sj_build_step``'s answer to action ``a`` (flags, or a negative code)."""
        return self._step(self.r, self.st, self.o, self.b, a)

    def observe(self, seat: int) -> dict:
        rc = self._obs(self.o, self.st, self.b, seat, self._out, self.size, self._mask,
                       N_ACTIONS)
        if rc:
            raise ValueError(f"observation core: error {rc}")
        return {"observation": self._out_np.copy(), "action_mask": self._mask_np.copy()}

    def legal(self) -> list:
        """The actions allowed now, ascending (read from a view of the C mask)."""
        return self._legal_np.nonzero()[0].tolist()

    def built(self) -> list:
        """The cards built so far, in the order they were added (ids descending)."""
        if not self.b.n:
            return []
        counts = bytes(self.b.counts)
        return [k for k in range(NUM_KINDS - 1, -1, -1) for _ in range(counts[k])]

    def flush(self, ended: bool = False) -> None:
        """Give the Game what C played since the last flush."""
        st = self.st
        if st.log_len:
            _drive._materialise(self.game, st, self.penalty, ended)
            st.log_len = 0
            self.info_words = 0

    def finish(self) -> list:
        """At the deal's end: flush, and the game's events C did not follow (those after
        the last trick: the scoring's, and the next deal's)."""
        game = self.game
        n0 = len(game.events)
        self.flush(ended=True)
        events = game.events
        i = len(events) - 1
        while type(events[i]) is not TrickWon:
            i -= 1
        return events[max(i + 1, n0):]

    # copies (the OpenSpiel game's states are cloned attribute by attribute, and
    # pickled; copy.deepcopy goes through __reduce__ too): the C structs alone, tied by
    # ``link`` to the copy's own game and tracker (copied with them) before any use
    def link(self, game, tracker) -> None:
        self.game = game
        self.o = tracker.o
        self.r = game.ctx._r

    def __reduce__(self):
        return (_unpickled, (bytes(ffi.buffer(self.st)), bytes(ffi.buffer(self.b)),
                             self.penalty, self.size, self.info_words))


class Handout:
    """Arrays for C to write a seat's observation and mask straight into, handed to the
    caller and written again only once nothing outside holds them: CPython's reference
    count back at what the pool alone holds (a dict, a view, a memoryview or a tensor
    sharing the memory each hold a reference). So an observation handed out never
    changes under the caller, and the usual loop (observe, act, observe again) gets
    C's vector and mask without the copies ``CPlay.observe`` makes. When every pair of
    the pool is held, a new pair takes the place of one (in turn): a caller keeping
    some observations does not leave the pool held for good. On another Python than
    CPython: ``CPlay.observe``."""

    __slots__ = ("pairs", "free", "size", "turn")

    #: pairs kept: the caller's last observation and the one before it may be held
    POOL = 3

    def __init__(self, size: int) -> None:
        self.size = size
        self.turn = 0
        self.pairs: list = []
        self.free: tuple | None = None
        if _refs is not None and ffi is not None:
            self.pairs = [self._pair(size) for _ in range(self.POOL)]
            for p in self.pairs[:1]:  # the counts of a pair nothing else holds (the
                self.free = (_refs(p[0]), _refs(p[1]))  # same expression as observe's)

    @staticmethod
    def _pair(size: int) -> tuple:
        vec = np.empty(size, _FLOAT32)
        mask = np.empty(N_ACTIONS, _INT8)
        return vec, mask, ffi.from_buffer("float[]", vec), ffi.from_buffer("int8_t[]", mask)

    def observe(self, cp: CPlay, seat: int) -> dict:
        """``cp.observe(seat)``, written into a pair nobody else holds."""
        free, refs = self.free, _refs
        if free is None or refs is None:
            return cp.observe(seat)
        f_vec, f_mask = free
        for p in self.pairs:
            if refs(p[0]) == f_vec and refs(p[1]) == f_mask:
                break
        else:  # all held: a new pair in the place of one
            p = self._pair(self.size)
            self.pairs[self.turn] = p
            self.turn = (self.turn + 1) % self.POOL
        rc = cp._obs(cp.o, cp.st, cp.b, seat, p[2], cp.size, p[3], N_ACTIONS)
        if rc:
            raise ValueError(f"observation core: error {rc}")
        return {"observation": p[0], "action_mask": p[1]}


def _unpickled(st: bytes, b: bytes, penalty: int, size: int, info_words: int = 0) -> CPlay:
    """A pickled ``CPlay`` (not linked: see ``CPlay.link``); sizes checked."""
    if len(st) != ffi.sizeof("sj_drive") or len(b) != ffi.sizeof("sj_build"):
        raise ValueError("pickled play phase in C: struct sizes differ from this core's")
    cp = CPlay.__new__(CPlay)
    cp.game = cp.o = cp.r = None
    cp.penalty, cp.size, cp.info_words = penalty, size, info_words
    cp.st = ffi.new("sj_drive *")
    cp._buffers()
    ffi.memmove(cp.st, st, len(st))
    ffi.memmove(cp.b, b, len(b))
    return cp


def playable(game, tracker) -> bool:
    """May ``game``'s next decisions be played in C, as far as the game and the tracker
    go (``CPlay.usable`` adds the environment's own conditions)?"""
    return (ENABLED and lib is not None and hasattr(tracker, "o") and game.phase == PLAYING
            and game.to_act is not None and _drive.usable(game))
