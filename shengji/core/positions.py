"""Positions of the play phase for the C playouts and search (shengji/playout.py is the
public face: these fill the C position struct and read its results), and ``shuffled``,
the engine's deal shuffle in C.
"""

from __future__ import annotations

from hashlib import sha512

from ..cards import (
    NUM_KINDS,
    card_str,
)
from ..errors import ArgumentError, HandError, ShengjiError
from .clib import ffi, lib
from .context import Context
from .crules import _hold_only


def seed_key(seed: str) -> bytes:
    """What ``random.Random(seed)`` seeds MT19937 with, for a str ``seed``: the integer of
    its UTF-8 bytes and their SHA-512 (big-endian), as 32-bit words least significant
    first (at least one), little-endian bytes: the key of core_c/pyrandom.h."""
    raw = seed.encode()
    n = int.from_bytes(raw + sha512(raw).digest(), "big")
    return n.to_bytes(max(4, (n.bit_length() + 31) // 32 * 4), "little")


def shuffled(seed: str, cards: bytes) -> bytearray:
    """``cards`` (kind ids) in the order ``shengji.engine.dealing.shuffle`` puts them with
    ``random.Random(seed)``, ``seed`` a str: the same permutation, computed in C
    (core_c/shuffle.c)."""
    if not isinstance(seed, str) or not isinstance(cards, (bytes, bytearray)):
        raise ArgumentError(f"shuffled(seed, cards): a str and bytes, not "
                            f"{type(seed).__name__} and {type(cards).__name__}")
    key = seed_key(seed)
    out = bytearray(cards)
    if lib.sj_shuffle(key, len(key), ffi.from_buffer(out), len(out)) != lib.SJ_OK:
        raise ShengjiError("sj_shuffle: bad arguments")  # not reached: the sizes are ours
    return out


def _position(ctx: Context, f: dict):
    pos = ffi.new("sj_position *")
    pos.players = f["players"]
    for i, t in enumerate(f["teams"]):
        pos.teams[i] = t
    pos.dealer_team = f["dealer_team"]
    pos.leader = f["leader"]
    pos.n_trick = f["n_trick"]
    for i, h in enumerate(f["hands"]):
        pos.hands[i] = list(h)
    for i, p in enumerate(f["trick"]):
        pos.trick[i] = list(p)
    for name in ("trick_points", "penalty", "kitty_points", "throws", "throw_penalty",
                 "throw_penalty_per_card"):
        setattr(pos, name, f[name])
    for i, (c, p) in enumerate(zip(f["captured"], f["penalties"], strict=True)):
        pos.captured[i], pos.penalties[i] = c, p
    fr = f["friends"]
    if fr is not None:  # finding friends: the calls as they stand
        pos.friends = 1
        pos.dealer = fr["dealer"]
        for s in fr["side"]:
            pos.on_side[s] = 1
        pos.n_calls = len(fr["calls"])
        for i, ((ordinal, card), seen, done) in enumerate(
                zip(fr["calls"], fr["seen"], fr["done"], strict=True)):
            pos.call_ordinal[i], pos.call_card[i] = ordinal, card
            pos.call_seen[i], pos.call_done[i] = seen, int(done)
        pos.join_twice = int(fr["join_twice"])
        pos.dealer_copies_count = int(fr["dealer_copies_count"])
    return pos


def _playout_error(ctx: Context, err) -> None:
    code = err.code
    if err.which != lib.SJ_ARG_POSITION:
        ctx._raise(err)
    card = card_str(err.card) if 0 <= err.card < NUM_KINDS else None
    if code == lib.SJ_ERR_COPIES:
        raise HandError(f"position: {err.count} copies of {card} in the hands and the trick, "
                        f"but {_hold_only(ctx.rules, err.card)}")
    if code == lib.SJ_ERR_SIZE:
        raise HandError(f"position: seat/play {err.index} holds {err.count} cards, which does "
                        "not fit the others (every seat plays the same number of cards per trick)")
    if code == lib.SJ_ERR_EMPTY:
        raise HandError("position: nothing left to play (empty hands or an empty play)")
    if code == lib.SJ_ERR_ARG:
        raise HandError(f"position: a field is out of range ({err.count})")
    if code == lib.SJ_ERR_LIMIT:
        raise ShengjiError("position: the rules core's search budget was exhausted")
    if code in (lib.SJ_ERR_MIXED, lib.SJ_ERR_KIND):
        raise HandError("position: the trick's lead is not of one suit")
    raise ShengjiError(f"position: rules core error {code}")


def _position_playout(ctx: Context, f: dict, seed: int) -> tuple:
    pos = _position(ctx, f)
    res = ffi.new("sj_playout_result *")
    err = ffi.new("sj_err *")
    if lib.sj_playout(ctx._r, pos, seed, res, err):
        _playout_error(ctx, err)
    n = min(res.tricks, lib.SJ_MAXCARDS)
    side = tuple(s for s in range(f["players"]) if res.side >> s & 1)
    return (res.trick_points, res.multiplier, res.kitty_bonus, res.penalty, res.total,
            res.last_winner, tuple(res.winners[0:n]), res.failed_throws, side)


def _position_playouts(ctx: Context, f: dict, n: int, seed: int) -> tuple:
    from array import array

    pos = _position(ctx, f)
    bufs = [ffi.new("int32_t[]", max(n, 1)) for _ in range(3)]
    err = ffi.new("sj_err *")
    if lib.sj_playout_batch(ctx._r, pos, seed, n, *bufs, err):
        _playout_error(ctx, err)
    return tuple(array("i", ffi.buffer(b, 4 * n)[:]) for b in bufs)


#: playout policies by name, as the core codes them
_POLICIES = {"random": lib.SJ_POLICY_RANDOM, "greedy": lib.SJ_POLICY_GREEDY}


def _position_eval(ctx: Context, f: dict, worlds: list, plays: list, n: int, seed: int,
                   policy: str, sides: bool = False):
    """``worlds``: (hands as one bytes of players*54 counts, kitty points) each; ``plays``:
    54-count bytes each. Returns the totals, world-major then play then playout (with
    ``sides``: and each playout's final dealer side as a seat bit mask)."""
    from array import array

    base = _position(ctx, f)
    d_n, k_n = len(worlds), len(plays)
    arr = ffi.new("sj_position[]", d_n)
    size = ffi.sizeof("sj_position")
    hands_len = f["players"] * NUM_KINDS
    for d, (hands, kitty_points) in enumerate(worlds):
        p = arr + d
        ffi.memmove(p, base, size)
        if len(hands) != hands_len:
            raise HandError(f"world {d}: {len(hands)} counts, expected {hands_len}")
        ffi.memmove(p.hands, hands, hands_len)
        p.kitty_points = kitty_points
    buf = ffi.new("uint8_t[]", max(k_n, 1) * NUM_KINDS)
    for k, play in enumerate(plays):
        if len(play) != NUM_KINDS:
            raise HandError(f"play {k}: {len(play)} counts, expected {NUM_KINDS}")
        ffi.memmove(buf + k * NUM_KINDS, play, NUM_KINDS)
    count = d_n * max(k_n, 1) * n
    out = ffi.new("int32_t[]", max(count, 1))
    side_out = ffi.new("uint32_t[]", max(count, 1)) if sides else ffi.NULL
    err = ffi.new("sj_err *")
    if lib.sj_playout_eval(ctx._r, arr, d_n, buf, k_n, n, seed, _POLICIES[policy], out,
                           side_out, err):
        if err.which == lib.SJ_ARG_PLAY:
            card = card_str(err.card) if 0 <= err.card < NUM_KINDS else "?"
            raise HandError(f"play {err.index} is not a legal first play of the seat to act "
                            f"(core error {err.code}, card {card})")
        _playout_error(ctx, err)
    totals = array("i", ffi.buffer(out, 4 * count)[:])
    if sides:
        return totals, array("I", ffi.buffer(side_out, 4 * count)[:])
    return totals
