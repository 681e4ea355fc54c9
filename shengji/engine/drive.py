"""The play phase of index-picking bots, run in C (core_c/drive.c): the play driver.

A bot that chooses its plays by index alone (``Bot.play_index``, e.g. the random bot)
needs nothing from the engine per play but the number of plays listed. The runner hands
such a stretch of the play phase to the C driver: one C state is filled from the
``Game``; each decision is listed in C exactly as the engine lists it (the same order,
the same count), the seat's own ``play_index(n)`` picks, and C applies the play (hands,
the trick, a throw's check and the built-in failed-throw outcome, the trick's winner and
points). One C call and one pick per play. When C stops — the deal's last trick is done,
the next seat is not an index picker, or the next step is one only Python can take (a
failed throw the next seat must choose for, a listing too large for C's buffers) — the
game gets, in bulk, exactly the actions, events and state the per-play path
(``Game._play_picked``) would have made, and the runner carries on from there.

Used only when that is exact: no ``check`` callback in the runner (it sees every action),
the variant's plugins do not implement ``shengji_failed_throw`` (the C driver knows the
built-in behaviour only), the sides are known (finding friends: until every call is
fulfilled the engine counts the called copies; the driver stops and the per-play path
plays on), and the game is a plain ``Game``. ``ENABLED = False`` forces the per-play
path (the differential tests compare the two).
"""

from __future__ import annotations

from ..cards import NUM_KINDS
from ..errors import ShengjiError
from .actions import Play
from .events import ThrowFailed
from .legal import _SINGLE_PLAYS

#: False: the runner never uses the driver (tests compare it with the per-play path)
ENABLED = True

_ffi = _lib = None
_DRIVE_STOP = _DRIVE_END = _DRIVE_PENDING = 0
_HOOKS = ("shengji_failed_throw",)
_BUILTIN: dict = {}  # Variant -> may the driver run it (its play hooks the built-in ones)
_SINGLES = tuple((k,) for k in range(NUM_KINDS))


def _load() -> bool:
    global _ffi, _lib, _DRIVE_STOP, _DRIVE_END, _DRIVE_PENDING
    try:
        from .._core import ffi, lib
    except ImportError:  # no C core: the per-play path
        return False
    _ffi, _lib = ffi, lib
    _DRIVE_STOP, _DRIVE_END, _DRIVE_PENDING = (lib.SJ_DRIVE_STOP, lib.SJ_DRIVE_END,
                                               lib.SJ_DRIVE_PENDING)
    return True


def _builtin_hooks(variant) -> bool:
    ok = _BUILTIN.get(variant)
    if ok is None:
        ok = _BUILTIN[variant] = not any(
            hasattr(p, h) for p in getattr(variant, "plugins", ()) for h in _HOOKS)
    return ok


def usable(game) -> bool:
    """May the driver play ``game``'s next decisions (see the module's docstring)?"""
    from . import game as game_mod

    if not ENABLED or type(game) is not game_mod.Game or game.phase != game_mod.PLAYING:
        return False
    if game._friends is not None and not game.sides_known:
        return False
    if not 2 <= game.players <= 12 or not 1 <= game_mod.FOLLOW_LIMIT <= 120:
        return False
    if _lib is None and not _load():
        return False
    return _builtin_hooks(game.variant)


def drive(game, pickers: list) -> bool:
    """Play ``game`` on through the C driver while the seat to act has a picker
    (``pickers[seat]``: its ``play_index``, or None). Returns False when it made no play
    (the caller takes the decision through the per-play path)."""
    from . import game as game_mod

    m = game.players
    st = _ffi.new("sj_drive *")
    st.players = m
    st.pickers = sum(1 << s for s in range(m) if pickers[s] is not None)
    side = game.side
    st.side = sum(1 << s for s in side)
    st.throws = bool(game.rules.throws)
    st.throw_penalty = penalty = game.variant.settings["penalties"]["failed_throw"]
    st.follow_limit = game_mod.FOLLOW_LIMIT
    st.to_act = game.to_act
    st.leader = game.leader
    trick = game._trick
    st.n_trick = len(trick)
    st.trick_number = game.trick_number
    st.trick_points = game.trick_points
    st.penalty = game.penalty
    st.captured[0:m] = game.captured
    st.penalties[0:m] = game.penalties
    st.hand_len[0:m] = game.hand_len
    _ffi.memmove(st.hands, bytes([c for h in game.hands for c in h]), m * NUM_KINDS)
    if trick:
        _ffi.memmove(st.trick, game._trick_counts, len(trick) * NUM_KINDS)
    st.played[0:NUM_KINDS] = game.played
    r = game.ctx._r
    step = _lib.sj_drive_step
    rc = _lib.sj_drive_start(r, st)
    pick = None
    try:
        while rc > 0:
            pick = pickers[rc & 15](rc >> 4)
            try:
                rc = step(r, st, pick)
            except (TypeError, OverflowError):  # not an int64 pick: the engine answers it
                rc = _DRIVE_PENDING
    finally:
        # whatever happens (a bot's exception included), the game gets what was played
        done = _materialise(game, st, penalty, rc == _DRIVE_END)
    if rc == _DRIVE_PENDING:
        # the pick stands; the engine applies it (a throw the next seat must choose for,
        # or a pick that is no option: the engine's own error)
        game._play_picked(game.to_act, lambda n, i=pick: i)
        return True
    if rc < 0 and rc != _DRIVE_END:
        raise ShengjiError(f"play driver: rules core error {rc}")
    return done > 0


def _materialise(game, st, penalty: int, ended: bool) -> int:
    """Give ``game`` what the C driver did: actions, events, state. Returns the number of
    actions."""
    log = bytes(_ffi.buffer(st.log, st.log_len))
    if not log:
        return 0
    from .game import _played, _trick_won

    actions, events = game.actions, game.events
    n0 = len(actions)
    trick = game._trick
    new_tricks = []
    tn = game.trick_number
    tp = game.trick_points
    side = game.side
    singles = _SINGLE_PLAYS
    trusted = Play.trusted
    throw = None
    i, end = 0, len(log)
    while i < end:
        b = log[i]
        if b < 64:  # a play
            n = log[i + 1]
            if n == 1:
                k = log[i + 2]
                cards = _SINGLES[k]
                action = singles[b][k]
            else:
                cards = tuple(log[i + 2:i + 2 + n])
                action = trusted(b, cards)
            i += 2 + n
            if throw is None:
                actions.append(action)
            else:  # the forced play of a failed throw: its action was the attempt
                actions.append(trusted(b, throw))
                events.append(ThrowFailed(b, throw, (cards,), None, penalty))
                throw = None
            events.append(_played(b, cards, tn, not trick))
            trick.append((b, cards))
        elif b == 64:  # a trick's end
            winner = trick[log[i + 1]][0]
            points = log[i + 2] | log[i + 3] << 8
            i += 4
            if winner not in side:
                tp += points
            events.append(_trick_won(tn, winner, points, tp))
            new_tricks.append(tuple(trick))
            trick = []
            tn += 1
        else:  # a failed throw; its forced play is the next record
            n = log[i + 1]
            throw = tuple(log[i + 2:i + 2 + n])
            i += 2 + n
    m = game.players
    game._stamp += len(actions) - n0
    game._legal = None
    hands = bytes(_ffi.buffer(st.hands, m * NUM_KINDS))
    for s in range(m):
        game.hands[s][:] = hands[s * NUM_KINDS:(s + 1) * NUM_KINDS]
        game._seat_hands[s] = None
    game.hand_len[:] = st.hand_len[0:m]
    game.played[:] = st.played[0:NUM_KINDS]
    game.captured[:] = st.captured[0:m]
    game.penalties[:] = st.penalties[0:m]
    game.penalty = st.penalty
    game.trick_points = st.trick_points
    game.trick_number = st.trick_number
    game.leader = st.leader
    game.to_act = st.to_act
    if new_tricks:
        game._tricks = game._tricks + tuple(new_tricks)
    game._trick = trick
    hand_obj = game._hand_obj
    hs = game._trick_hands = [hand_obj(c) for _, c in trick]
    game._trick_counts = b"".join([h._b for h in hs])
    if ended:
        last = new_tricks[-1]
        idx = log[end - 3]  # the last record: the last trick's end
        ev: list = []
        game._score(ev, last[idx][0], last[idx][1], last[0][1])
        events.extend(ev)
    return len(actions) - n0
