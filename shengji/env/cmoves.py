"""Whole-move mode's play phase in C (core_c/moves.c, drive.c): ``CMoves``.

In ``actions="moves"`` every play decision would otherwise list its moves in Python
(``moves.MoveDecision``: the engine's listing, each move's feature row) and apply the
chosen one through the engine. ``CMoves`` keeps the play phase in C as ``cplay.CPlay``
does card by card: the play driver's state (``sj_drive``, every seat a picker, so the
driver lists each decision as the engine lists it), the observation tracker (``sj_obs``)
and the listed moves with their features (``sj_moves``). A step is one C call (the move
applied, the next decision listed), an observation one more. The moves and features are
``MoveDecision``'s — the same moves in the same order, the same sample of a list longer
than ``max_moves`` (CPython's ``random.Random(...).sample`` drawn in C, from the seed
``MoveDecision.of_game`` uses), the same features — which tests/test_env_moves_c.py
holds step by step.

The ``Game`` is brought up to date as with ``CPlay`` (``flush``, ``finish``). Python
lists a decision C does not hold (more moves than ``SJ_MOVES_ROWS``, a follow list the
driver leaves to the engine) and applies a move only the engine can (a called card of
finding friends, a failed throw with several forced plays).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..cards import NUM_KINDS
from ..core.positions import seed_key
from .cplay import CPlay, _refs, ffi, lib, playable

#: sj_moves_step's flag: the listing waits for its sample
SAMPLE = lib.SJ_MOVES_SAMPLE if lib is not None else 8
#: moves C lists at most
ROWS = lib.SJ_MOVES_ROWS if lib is not None else 256
MOVE_FEATURES = 70

_FLOAT32, _INT8 = np.dtype(np.float32), np.dtype(np.int8)


def _c_samples_agree() -> bool:
    """Does C's replica of ``random.Random(seed).sample(range(n), k)`` draw what this
    Python draws (CPython 3.11's algorithm; another version might differ)? Checked once:
    when not, a sampled listing is left to Python."""
    if lib is None:
        return False
    for seed, n, k in (("probe", 33, 8), ("probe", 300, 64), ("probe", 10**12, 256),
                       ("probe", 40, 5)):
        key = seed_key(seed)
        out = ffi.new("int64_t[]", k)
        if lib.sj_py_sample(key, len(key), n, k, out) != 0 or \
                list(out) != random.Random(seed).sample(range(n), k):
            return False
    return True


#: C's samples are CPython's (set on first use)
_AGREE: list = []


def samples_in_c() -> bool:
    if not _AGREE:
        _AGREE.append(_c_samples_agree())
    return _AGREE[0]


class CMoves(CPlay):
    """The C state of one environment's play phase in whole-move mode."""

    __slots__ = ("stamp0", "max_moves", "_forced")

    def __init__(self, game, tracker, encoder, max_moves: int) -> None:
        self.max_moves = max_moves
        self.stamp0 = game._stamp
        super().__init__(game, tracker, encoder, pickers=(1 << game.players) - 1)
        self.b.max_moves = max_moves
        self.b.sides_known = bool(game.sides_known)

    @staticmethod
    def usable(env, game) -> bool:
        """May ``env``'s next decisions be played in C (whole-move mode)?"""
        return (env.moves_mode and env.max_moves <= ROWS and not env.external_seats
                and not env.view_in_info and env.render_mode is None
                and playable(game, env.tracker))

    def _buffers(self) -> None:
        self.b = ffi.new("sj_moves *")
        self._step = lib.sj_moves_step
        self._forced = lib.sj_moves_step_forced
        self._obs = lib.sj_moves_observe

    def open(self) -> bool:
        """List the decision of the seat to act; False when only Python can list it."""
        rc = lib.sj_moves_open(self.r, self.st, self.b)
        if rc < 0:
            raise ValueError(f"whole moves in C: rules core error {rc}")
        return rc == 1 or (rc == SAMPLE and self.sample())

    def sample(self) -> bool:
        """List the sample of a decision with more moves than ``max_moves``, as
        ``MoveDecision.of_game`` samples it; False when Python must (see
        ``samples_in_c``)."""
        if not samples_in_c():
            return False
        game = self.game
        key = seed_key(f"moves:{game.seed}:{self.stamp0 + self.b.plays}:{self.st.to_act}")
        rc = lib.sj_moves_sample(self.r, self.st, self.b, key, len(key))
        if rc != 1:
            raise ValueError(f"whole moves in C: rules core error {rc}")
        return True

    def observe(self, seat: int) -> dict:
        """The observation dict of ``seat`` (the caller's own arrays)."""
        vec = np.empty(self.size, _FLOAT32)
        mask = np.empty(self.max_moves, _INT8)
        moves = np.zeros((self.max_moves, MOVE_FEATURES), _FLOAT32)
        self._observe_into(seat, vec, mask, moves, 0)
        return {"observation": vec, "action_mask": mask, "moves": moves}

    def _observe_into(self, seat: int, vec, mask, moves, dirty: int) -> None:
        rc = self._obs(self.o, self.st, self.b, seat, ffi.from_buffer("float[]", vec),
                       self.size, ffi.from_buffer("int8_t[]", mask), self.max_moves,
                       ffi.from_buffer("float[]", moves), self.max_moves, dirty)
        if rc:
            raise ValueError(f"observation core: error {rc}")

    def legal(self) -> list:
        return list(range(self.b.n))

    def built(self) -> list:
        """The cards of the move chosen last (a move only the engine applies), ids
        descending."""
        row = self.b.rows[self.b.chosen]
        return [k for k in range(NUM_KINDS - 1, -1, -1) for _ in range(row[k])]

    def __reduce__(self):
        raise TypeError("whole-move mode's C play phase is not pickled (the environment's "
                        "state is not either)")


class MovesHandout:
    """``cplay.Handout`` for whole-move mode: the observation, mask and move features
    written by C straight into arrays handed out earlier that nothing outside holds any
    more (CPython's reference counts), with the number of feature rows each array may
    still hold, so that C zeroes only those."""

    __slots__ = ("triples", "free", "size", "max_moves", "turn")

    POOL = 3

    def __init__(self, size: int, max_moves: int) -> None:
        self.size = size
        self.max_moves = max_moves
        self.turn = 0
        self.triples: list = []
        self.free: tuple | None = None
        if _refs is not None and ffi is not None:
            self.triples = [self._triple() for _ in range(self.POOL)]
            t = self.triples[0]
            self.free = (_refs(t[0]), _refs(t[1]), _refs(t[2]))

    def _triple(self) -> list:
        vec = np.empty(self.size, _FLOAT32)
        mask = np.empty(self.max_moves, _INT8)
        moves = np.zeros((self.max_moves, MOVE_FEATURES), _FLOAT32)
        return [vec, mask, moves, ffi.from_buffer("float[]", vec),
                ffi.from_buffer("int8_t[]", mask), ffi.from_buffer("float[]", moves), 0]

    def observe(self, cp: Any, seat: int) -> dict:
        free, refs = self.free, _refs
        if free is None or refs is None:
            return cp.observe(seat)
        f_vec, f_mask, f_moves = free
        for t in self.triples:
            if refs(t[0]) == f_vec and refs(t[2]) == f_moves and refs(t[1]) == f_mask:
                break
        else:  # all held: a new triple in the place of one
            t = self._triple()
            self.triples[self.turn] = t
            self.turn = (self.turn + 1) % self.POOL
        m = cp.b
        st = cp.st
        rc = cp._obs(cp.o, st, m, seat, t[3], cp.size, t[4], self.max_moves, t[5],
                     self.max_moves, t[6])
        if rc:
            raise ValueError(f"observation core: error {rc}")
        t[6] = m.n if seat == st.to_act else 0
        return {"observation": t[0], "action_mask": t[1], "moves": t[2]}
