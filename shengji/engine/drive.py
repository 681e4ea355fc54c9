"""The play phase of index-picking bots, run in C (core_c/drive.c): the play driver.

A bot that chooses its plays by index alone (``Bot.play_index``, e.g. the random bot)
needs nothing from the engine per play but the number of plays listed. The runner hands
such a stretch of the play phase to the C driver: one C state is filled from the
``Game``; each decision is listed in C exactly as the engine lists it (the same order,
the same count), the seat's own ``play_index(n)`` picks, and C applies the play (hands,
the trick, a throw's check and the built-in failed-throw outcome, the trick's winner and
points). One C call and one pick per play. When C stops — the deal's last trick is done,
the next seat is not an index picker, or the next step is one only Python can take (a
failed throw the next seat must choose for, a called card of finding friends, a count
too large for C) — the
game gets, in bulk, exactly the actions, events and state the per-play path
(``Game._play_picked``) would have made, and the runner carries on from there.

Used only when that is exact: no ``check`` callback in the runner (it sees every action),
the variant's plugins do not implement ``shengji_failed_throw`` (the C driver knows the
built-in behaviour only), throws are judged by the holdings (``play.throw_check:
unseen`` needs what each seat has seen), and the game is a plain ``Game``. Finding
friends: while calls are open, a play holding a called card is left to the engine (it
counts the copy and may change the sides: the driver stops with the pick, the engine
applies it, and the runner hands the rest back to the driver with the new sides).
``ENABLED = False`` forces the per-play path (the differential tests compare the two).
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from ..cards import NUM_KINDS
from ..errors import ShengjiError
from . import tricks
from .actions import Play
from .events import ThrowFailed
from .game import Game
from .legal import _SINGLE_PLAYS
from .phase import PLAYING
from .tricks import _played, _trick_won

#: False: the runner never uses the driver (tests compare it with the per-play path)
ENABLED = True

# cffi's FFI and compiled lib (untyped: the core has no stubs), loaded on first use
_ffi: Any = None
_lib: Any = None
_DRIVE_STOP = _DRIVE_END = _DRIVE_PENDING = 0
_LOG_PLAY = _LOG_TRICK = 0  # the log's records (core_c/drive.c)
_HOOKS = ("shengji_failed_throw",)
_SINGLES = tuple((k,) for k in range(NUM_KINDS))
#: Played events of single cards, shared (events are frozen, like the engine's shared
#: CardDealt records): key (trick << 11) | (seat << 7) | (card << 1) | lead
_PLAYED_SINGLES: dict = {}
_PLAYED_CACHE_SIZE = 1 << 16


def _load() -> bool:
    global _ffi, _lib, _DRIVE_STOP, _DRIVE_END, _DRIVE_PENDING, _LOG_PLAY, _LOG_TRICK
    try:
        from .._core import ffi, lib
    except ImportError:  # no C core: the per-play path
        return False
    _ffi, _lib = ffi, lib
    _DRIVE_STOP, _DRIVE_END, _DRIVE_PENDING = (lib.SJ_DRIVE_STOP, lib.SJ_DRIVE_END,
                                               lib.SJ_DRIVE_PENDING)
    _LOG_PLAY, _LOG_TRICK = lib.SJ_DRIVE_LOG_PLAY, lib.SJ_DRIVE_LOG_TRICK
    return True


def usable(game) -> bool:
    """May the driver play ``game``'s next decisions (see the module's docstring)?"""
    if not ENABLED or type(game) is not Game or game.phase != PLAYING:
        return False
    if game._play_takeback_rule:  # (the driver keeps no take-back of the last play)
        return False
    if game.rules.throw_check != "holdings":  # (it lists every whole-suit throw)
        return False
    if not 2 <= game.players <= 12 or not 1 <= tricks.FOLLOW_LIMIT <= 120:
        return False
    if _lib is None and not _load():
        return False
    return game.variant._plugin_hook(_HOOKS) is None


def start_state(st, game, pickers: int) -> int:
    """Fill the driver state ``st`` (an ``sj_drive *``) from ``game`` at a decision of its
    play; ``pickers``: the bit mask of the seats the caller answers for. Returns the
    failed-throw penalty. Shared by ``drive`` and the research env's C play phase."""
    if _ffi is None and not _load():
        raise RuntimeError("the play driver needs the C core")
    m = game.players
    st.players = m
    st.pickers = pickers
    st.side = sum(1 << s for s in game.side)
    st.throws = bool(game.rules.throws)
    penalties = game.variant.settings["penalties"]
    st.throw_penalty = penalty = penalties["failed_throw"]
    st.throw_penalty_per_card = penalties["failed_throw_per_card"]
    st.follow_limit = tricks.FOLLOW_LIMIT
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
    _ffi.memmove(st.hands, b"".join(map(bytes, game.hands)), m * NUM_KINDS)
    if trick:
        _ffi.memmove(st.trick, game._trick_counts, len(trick) * NUM_KINDS)
    st.played[0:NUM_KINDS] = game.played
    tracker = game._friends
    if tracker is not None and not game.sides_known:
        # the called cards still open: a play of one goes to the engine (FriendTracker)
        for (_, card), done in zip(tracker.calls, tracker.done, strict=True):
            if not done:
                st.watch[card] = 1
    return penalty


def drive(game, pickers: list) -> bool:
    """Play ``game`` on through the C driver while the seat to act has a picker
    (``pickers[seat]``: its ``play_index``, or None). Returns False when it made no play
    (the caller takes the decision through the per-play path)."""
    m = game.players
    st = _ffi.new("sj_drive *")
    penalty = start_state(st, game, sum(1 << s for s in range(m) if pickers[s] is not None))
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
    """Give ``game`` what the C driver did (its log, core_c/drive.c): actions, events,
    state. Returns the number of actions."""
    n_words = st.log_len
    if not n_words:
        return 0
    words = _ffi.buffer(st.log, n_words * 4)
    it = iter(memoryview(bytes(words)).cast("I"))
    actions, events = game.actions, game.events
    n0 = len(actions)
    add_action, add_event = actions.append, events.append
    trick = game._trick
    add_play = trick.append
    new_tricks: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
    tp = game.trick_points
    side = game.side
    trusted = Play.trusted
    cache = _PLAYED_SINGLES
    if len(cache) > _PLAYED_CACHE_SIZE:
        cache.clear()
    plays, seat_singles, _ = _single_tables()
    last: int | None = None  # the winner's place in the last trick ended
    for w in it:
        if w < _LOG_PLAY:  # a single card: (trick << 11) | (seat << 7) | (card << 1) | lead
            # Played events are frozen: one record per (trick, seat, card, lead) serves
            event = cache.get(w)
            if event is None:
                b = w >> 7 & 15
                event = cache[w] = _played(b, _SINGLES[w >> 1 & 63], w >> 11, bool(w & 1))
            add_event(event)
            i = w >> 1 & 1023
            add_action(plays[i])
            add_play(seat_singles[i])
            continue
        kind = w & 0xff000000
        if kind == _LOG_TRICK:
            winner = trick[w >> 16 & 255][0]
            points = w & 0xffff
            if winner not in side:
                tp += points
            add_event(_trick_won(game.trick_number + len(new_tricks), winner, points, tp))
            new_tricks.append(tuple(trick))
            last = w >> 16 & 255
            trick = []
            add_play = trick.append
            continue
        b = w >> 16 & 255
        cards = tuple(islice(it, w & 0x7fff))
        tn = game.trick_number + len(new_tricks)
        if kind == _LOG_PLAY:
            add_action(trusted(b, cards))
            add_event(_played(b, cards, tn, bool(w & 0x8000)))
            add_play((b, cards))
            continue
        # a failed throw (cards: the attempt); the forced play is the next record
        forced = next(it)
        fcards: tuple[int, ...]
        if forced < _LOG_PLAY:
            fcards = _SINGLES[forced >> 1 & 63]
        else:
            fcards = tuple(islice(it, forced & 0x7fff))
        add_action(trusted(b, cards))
        add_event(ThrowFailed(b, cards, (fcards,), None, penalty + st.throw_penalty_per_card
                              * (len(cards) - len(fcards))))
        add_event(_played(b, fcards, tn, True))
        add_play((b, fcards))
    m = game.players
    done = len(actions) - n0
    game._stamp += done
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
        t = new_tricks[-1]
        assert last is not None  # the deal ended with a trick
        ev: list = []
        game._score(ev, t[last][0], t[last][1], t[0][1])
        events.extend(ev)
    return done


def logged_plays(st, start: int = 0) -> tuple[list, int]:
    """The plays in the driver's log (``st``) from word ``start`` (a record's first) on,
    which no game has been given yet, read without changing anything: (seat, the cards
    played, a lead, the attempt of a failed throw or None), in order, and how many
    events ``_materialise`` will make of those records."""
    n_words = st.log_len
    if n_words <= start:
        return [], 0
    if _ffi is None and not _load():
        raise RuntimeError("the play driver needs the C core")
    words = _ffi.buffer(st.log, n_words * 4)[start * 4:]
    it = iter(memoryview(bytes(words)).cast("I"))
    out: list[tuple[int, tuple[int, ...], bool, tuple[int, ...] | None]] = []
    events = 0
    for w in it:
        events += 1
        if w < _LOG_PLAY:  # a single card
            out.append((w >> 7 & 15, _SINGLES[w >> 1 & 63], bool(w & 1), None))
            continue
        kind = w & 0xff000000
        if kind == _LOG_TRICK:
            continue
        cards = tuple(islice(it, w & 0x7fff))
        if kind == _LOG_PLAY:
            out.append((w >> 16 & 255, cards, bool(w & 0x8000), None))
            continue
        forced = next(it)  # a failed throw (and its forced play, the next record)
        events += 1
        fcards = _SINGLES[forced >> 1 & 63] if forced < _LOG_PLAY else tuple(
            islice(it, forced & 0x7fff))
        out.append((w >> 16 & 255, fcards, True, cards))
    return out, events


def _single_tables() -> tuple:
    """[seat << 6 | card] -> the shared Play of that single, and (seat, (card,))."""
    global _TABLES
    if _TABLES is None or _TABLES[2] != len(_SINGLE_PLAYS):
        plays: list = [None] * 1024
        seat_singles: list = [None] * 1024
        for s, row in _SINGLE_PLAYS.items():
            if s < 16:
                for k in range(NUM_KINDS):
                    plays[s << 6 | k] = row[k]
                    seat_singles[s << 6 | k] = (s, _SINGLES[k])
        _TABLES = (plays, seat_singles, len(_SINGLE_PLAYS))
    return _TABLES


_TABLES: tuple[list, list, int] | None = None
