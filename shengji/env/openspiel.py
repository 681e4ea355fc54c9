"""The OpenSpiel game ``shengji`` (Python-game API; docs/rl.md).

    import pyspiel
    import shengji.env.openspiel          # registers the game
    game = pyspiel.load_game("shengji", {"variant": "two-deck-80"})

One game is one deal of the variant, as OpenSpiel's card games are one deal: the
chance player first orders the deck one card at a time (outcome = a kind id, with the
probability of its remaining copies), then the engine deals that deck with declarations,
the kitty and the tricks, and the deal is scored. Players act with the card-by-card
actions of ``shengji.env.building`` (0..53 add a card, 54 submits, 55 takes a
declaration back, 56..59 a friend call's ordinal), so a game's ``num_distinct_actions``
is 60 whatever the variant. With the parameter ``actions="moves"`` they pick one of the
legal whole moves instead (``shengji.env.moves``: ``max_moves`` distinct actions, the
moves' features after the observation vector in the tensors). With ``skip_forced=True``
an action that is the only one allowed is applied by the state itself (as the PettingZoo
environment's option): no decision node has a single legal action, and a state's
``history()`` holds the players' choices (replaying it takes the same forced actions).

Returns are the levels of the deal: +rise for each seat of the side that rose, −rise for
the others (general sum in OpenSpiel's terms: zero-sum only when the sides are the same
size). Information states: each seat's own private events (its cards as dealt, the kitty
it took, what it buried) and every public event, in order, plus the cards it has chosen
so far in its current decision, as text and as a fixed-size tensor
(``shengji.env.infostate``); observations: the vector of ``shengji.env.observation``
and a short text of the view. ``resample_from_infostate`` deals the cards the player
cannot see at random among their holders, keeping what is public (cards declared and
not yet played stay with their seat; a seat that failed to follow a suit gets none of
it), which is what information-set MCTS needs.
"""

from __future__ import annotations

import random

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised without the extra
    from ..errors import ShengjiError

    raise ShengjiError(
        f"shengji.env.openspiel needs OpenSpiel ({e.name} is missing): pip install open_spiel"
    ) from None

from ..cards import NUM_KINDS, card_str
from ..engine.actions import Play, cards_text
from ..engine.drive import logged_plays
from ..engine.events import DealScored
from ..engine.game import Game
from ..engine.phase import PLAYING
from . import cplay
from .building import CALL_ORDINAL, DONE, N_ACTIONS, TAKE_BACK, Calls, Decision, decision_holding
from .cobserve import make_encoder
from .infostate import InfoLayout, InfoRows
from .moves import MAX_MOVES, MOVE_FEATURES, MoveDecision
from .resample import cards_of as _cards
from .resample import resample

SHORT_NAME = "shengji"
DEFAULT_VARIANT = "two-deck-80"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Shengji (升级) deal",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=12,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    # players 0: the variant's own seat count; actions "cards" or "moves" (whole moves,
    # shengji.env.moves: up to max_moves listed, their features in the observation)
    parameter_specification={"variant": DEFAULT_VARIANT, "players": 0, "actions": "cards",
                             "max_moves": MAX_MOVES, "skip_forced": False},
)


class FixedDeck:
    """The engine's ``deal_order``: the chance player's deck for the deal (picklable).
    A redeal (a variant that redeals when nobody declares) uses the engine's shuffle,
    seeded from that deck, so the game stays a function of its history."""

    __slots__ = ("deck",)

    def __init__(self, deck: tuple):
        self.deck = deck

    def __call__(self, deal: int, attempt: int, deck: tuple) -> tuple:
        return self.deck if attempt == 0 else deck

    def __reduce__(self):
        return (FixedDeck, (self.deck,))


def _max_rise(variant) -> int:
    """The largest rise the scoring can give: over every attacker total up to the deck's
    points plus the richest kitty at the largest multiplier plus a failed-throw penalty
    at every trick (far beyond play, but a bound)."""
    from ..cards import point_value

    r = variant.play_rules
    counts = variant.composition.counts
    points = sorted((point_value(k) for k in range(NUM_KINDS) for _ in range(counts[k])),
                    reverse=True)
    multiplier = max(r.kitty_cap, *r.kitty_table, 2 * variant.hand_size)
    penalty = abs(int(variant.settings.get("penalties", {}).get("failed_throw", 0) or 0))
    top = sum(points) + sum(points[:variant.kitty_size]) * multiplier \
        + penalty * variant.hand_size
    return max(1, max(variant.score_deal(p).rise for p in range(0, top + 1)))


class ShengjiGame(pyspiel.Game):
    def __init__(self, params=None):
        from ..variants import load_variant

        params = dict(params or {})
        self.variant_ref = params.get("variant", DEFAULT_VARIANT)
        players = int(params.get("players", 0) or 0)
        self.actions = str(params.get("actions", "cards"))
        self.max_moves = int(params.get("max_moves", MAX_MOVES))
        if self.actions not in ("cards", "moves") or self.max_moves < 2:
            raise ValueError(f"actions={self.actions!r}, max_moves={self.max_moves}: actions "
                             "is cards or moves, max_moves at least 2")
        self.moves_mode = self.actions == "moves"
        self.skip_forced = params.get("skip_forced", False)
        if not isinstance(self.skip_forced, bool):
            raise ValueError(f"skip_forced={self.skip_forced!r}: True or False")
        self.variant = v = load_variant(self.variant_ref, players=players or None)
        self.deck_size = v.composition.total
        rise = _max_rise(v)
        # chance: the deck; dealing: at most one ask per dealt card plus a final round, a
        # declaration built card by card (up to ten redeals of passes on top); the burial;
        # every card played plus a submit per play; forced choices after failed throws
        asks = v.hand_size * v.players + v.players
        longest = (self.deck_size + (v.composition.max_copies + 1) * asks + 10 * asks
                   + v.kitty_size + 1 + 2 * self.deck_size + 2 * self.deck_size)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.max_moves if self.moves_mode else N_ACTIONS,
            max_chance_outcomes=NUM_KINDS,
            num_players=v.players,
            min_utility=float(-rise),
            max_utility=float(rise),
            max_game_length=longest,
        )
        super().__init__(_GAME_TYPE, info, {"variant": self.variant_ref, "players": players,
                                            "actions": self.actions,
                                            "max_moves": self.max_moves,
                                            "skip_forced": self.skip_forced})
        self.encoder = make_encoder(v)
        self.info_layout = InfoLayout(v)

    def new_initial_state(self):
        return ShengjiState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return ShengjiObserver(self, iig_obs_type, params)


class ShengjiState(pyspiel.State):
    """A deal in progress. In the play phase (card-by-card actions) the decisions run in
    C (``shengji.env.cplay.CPlay``, as in the PettingZoo environment): the ``Game``
    falls behind and gets C's plays in bulk at the deal's end, before a step only Python
    takes, and whenever ``game`` or ``decision`` is read from outside. The information
    state's text and rows (``log``, ``info``) follow the game's events only when read."""

    def __init__(self, game: ShengjiGame):
        super().__init__(game)
        self.deck: list[int] = []
        self.remaining = list(game.variant.composition.counts)
        self._left = game.deck_size  # cards the chance player has still to place
        self._gm: Game | None = None
        self._decision: Decision | MoveDecision | None = None
        #: the play phase in C, or None (a clone's or unpickled copy: linked on first use)
        self._cp: cplay.CPlay | None = None
        self.tracker = game.encoder.new_tracker()
        self._log = _InfoLog(game.variant.players)
        self._info = InfoRows(game.variant.players)
        #: the game's events that _log and _info have taken in
        self._seen_log = self._seen_info = 0
        self._returns = [0.0] * game.variant.players
        #: the game's skip_forced (kept here: get_game() is a call into pyspiel)
        self._skip = game.skip_forced

    @property
    def _g(self) -> ShengjiGame:
        return self.get_game()  # not kept in __dict__: clones and pickles copy that

    # read from outside: the C play phase, if any, hands its state over first, so they
    # are exactly the per-step path's
    @property
    def game(self) -> Game | None:
        if self._cp is not None:
            self._drop_c()
        return self._gm

    @property
    def decision(self) -> Decision | MoveDecision | None:
        if self._cp is not None:
            self._drop_c()
        return self._decision

    @property
    def log(self) -> _InfoLog:
        events = self._events_since(self._seen_log)
        if events:
            self._seen_log += len(events)
            self._log.update(events)
        return self._log

    @property
    def info(self) -> InfoRows:
        events = self._events_since(self._seen_info)
        if events:
            self._seen_info += len(events)
            self._info.update(events)
        return self._info

    def _info_now(self) -> InfoRows:
        """``info`` without handing C's plays to the game: the rows of the plays C has
        logged since are read from its log (``drive.logged_plays``) and counted as the
        game events they will become (``_seen_info`` runs ahead of the game's events
        until C hands them over; ``CPlay.info_words``: the log words read)."""
        cp = self._cp
        if cp is None:
            return self.info
        if cp.game is None:  # a clone's or unpickled copy
            self._link(cp)
        g = self._gm
        assert g is not None  # C plays a dealt deal
        if not cp.info_words and self._seen_info < len(g.events):
            self._info.update(g.events[self._seen_info:])
            self._seen_info = len(g.events)
        plays, events = logged_plays(cp.st, cp.info_words)
        if events:
            self._info.add_plays(plays, cp.penalty)
            self._seen_info += events
            cp.info_words = cp.st.log_len
        return self._info

    def _events_since(self, seen: int) -> list:
        """The game's events from the ``seen``-th on, for the information state's text or
        rows (each takes them in when read). C's plays go to the game first
        (``CPlay.flush``); C keeps the play phase."""
        cp = self._cp
        if cp is not None:
            if cp.game is None:  # a clone's or unpickled copy
                self._link(cp)
            cp.flush()
        g = self._gm
        return g.events[seen:] if g is not None else []

    def _building(self, player: int) -> tuple[tuple[int, ...], int]:
        """The cards ``player`` has chosen so far in its current decision (friend calls:
        each card counted by its ordinal) and the ordinal waiting for its card (0: none),
        read without handing C's play phase over."""
        cp = self._cp
        if cp is not None:
            return (tuple(cp.built()), 0) if player == cp.st.to_act else ((), 0)
        dec = self._decision
        if dec is None or dec.seat != player:
            return (), 0
        calls = dec._set
        if dec.kind == "call" and isinstance(calls, Calls):  # the calls chosen so far
            # (a move decision lists whole calls: none chosen, none waiting)
            return tuple(c for n, c in calls.chosen for _ in range(n)), calls.pending or 0
        return tuple(dec.cards), 0

    # ------------------------------------------------------------------ the API

    def information_state_tensor(self, player=None):
        """pyspiel's ``information_state_tensor``: the perfect-recall observer's tensor as
        a list of floats, made from a list kept per seat (``InfoRows.as_list``) rather
        than by pyspiel converting 33,000 floats one by one at every call."""
        g = self._g
        if player is None:
            player = self.current_player()
        if type(player) is not int or not 0 <= player < g.variant.players:
            return super().information_state_tensor(player)  # pyspiel's own error
        out = self._info_now().as_list(g.info_layout, player, *self._building(player))
        if g.moves_mode:  # each listed move's features follow
            moves = np.zeros(g.max_moves * MOVE_FEATURES, np.float32)
            dec = self.decision
            if isinstance(dec, MoveDecision) and dec.seat == player and not self._gm.over:
                moves[:] = dec.features(g.max_moves).reshape(-1)
            out = out + moves.tolist()  # (a new list: the kept one keeps its length)
        return out

    def current_player(self):
        cp = self._cp
        if cp is not None:
            return cp.st.to_act
        g = self._gm
        if g is None:
            return pyspiel.PlayerId.CHANCE
        if g.over:
            return pyspiel.PlayerId.TERMINAL
        return g.to_act

    def _legal_actions(self, player):
        cp = self._cp
        if cp is not None:  # the C decision's mask
            if player != cp.st.to_act:
                return []
            return cp.legal()
        g = self._gm
        if g is None or g.over or player != g.to_act:
            return []
        assert self._decision is not None  # a seat to act has its decision listed
        return list(self._decision.mask())

    def chance_outcomes(self):
        left = self._left
        return [(k, n / left) for k, n in enumerate(self.remaining) if n]

    def _apply_action(self, action):
        action = int(action)
        cp = self._cp
        if cp is not None:  # the play phase in C (cplay)
            if cp.game is None:  # a clone's or unpickled copy
                self._link(cp)
            if not 0 <= action < N_ACTIONS:
                rc = cplay.ILLEGAL
            elif self._skip:  # the forced actions after it too, in C
                rc = cplay.step_forced(cp.r, cp.st, cp.o, cp.b, action, cplay.PYTHONS)
                if rc >= 0 and not rc & cplay.PYTHONS:
                    return  # C stopped at a choice
            else:
                rc = cp._step(cp.r, cp.st, cp.o, cp.b, action)
            if rc:  # (0: a card added)
                self._step_c(cp, action, rc)
                if self._skip:
                    self._take_forced()
            return
        if self._gm is None:
            if not 0 <= action < len(self.remaining):
                raise ValueError(f"chance outcome {action}: not a card kind "
                                 f"(0..{len(self.remaining) - 1})")
            if not self.remaining[action]:
                raise ValueError(f"chance outcome {action}: no copy of {card_str(action)} left")
            self.deck.append(action)
            self.remaining[action] -= 1
            self._left -= 1
            if not self._left:
                deck = tuple(self.deck)
                self._gm = Game(self._g.variant, bytes(deck).hex(), max_deals=1,
                                deal_order=FixedDeck(deck))
                self._absorb(self._gm.events)
                self._next()
                if self._skip:
                    self._take_forced()
            return
        dec = self._decision
        assert dec is not None  # the deal is dealt and not over: a decision is listed
        if not dec.allows(action):
            raise ValueError(f"player {dec.seat}: action {action} is not legal "
                             f"(legal: {dec.mask()})")
        self._take(dec, action)
        if self._skip:
            self._take_forced()

    def _take(self, dec: Decision | MoveDecision, action: int) -> None:
        """Action ``action`` (allowed) of the decision listed in Python."""
        engine_action = dec.moves[action] if isinstance(dec, MoveDecision) else dec.step(action)
        if engine_action is not None:
            assert self._gm is not None  # a decision is listed: the deal is dealt
            self._absorb(self._gm.apply(engine_action))
            self._next()

    def _take_forced(self) -> None:
        """``skip_forced``: while the player to act has one legal action, apply it."""
        while True:
            cp = self._cp
            if cp is not None:  # in C: the forced actions taken there
                if cp.game is None:  # a clone's or unpickled copy
                    self._link(cp)
                rc = cplay.step_forced(cp.r, cp.st, cp.o, cp.b, -1, cplay.PYTHONS)
                if rc >= 0 and not rc & cplay.PYTHONS:
                    return  # C stopped at a choice
                self._step_c(cp, -1, rc)
                continue
            g, dec = self._gm, self._decision
            if g is None or g.over or dec is None:
                return
            allowed = dec.mask()
            if len(allowed) != 1:
                return
            self._take(dec, allowed[0])

    def _step_c(self, cp: cplay.CPlay, action: int, rc: int) -> None:
        """A step of the play phase in C past adding a card (``rc``: the C step's answer):
        the same state as the per-step path's."""
        if rc == cplay.ILLEGAL:
            raise ValueError(f"player {cp.st.to_act}: action {action} is not legal "
                             f"(legal: {cp.legal()})")
        if rc > 0:  # a play made; C lists the next decision unless it is Python's
            if rc & cplay.PYTHONS:
                self._leave_c()
                self._next()
        elif rc == cplay.END:  # the deal's last trick: the engine scores it
            rest = cp.finish()  # the tracker followed the plays in C: the scoring's left
            self._cp = None
            self.tracker.game = None  # the tracker's game fields: set again from the game
            self._absorb(rest)
            self._next()
        elif rc == cplay.PENDING:  # a play only the engine applies: it does
            seat = cp.st.to_act
            cards = tuple(cp.built())
            self._leave_c()
            assert self._gm is not None
            self._absorb(self._gm.apply(Play.trusted(seat, cards)))
            self._next()
        else:
            raise ValueError(f"play phase in C: rules core error {rc}")

    def _link(self, cp: cplay.CPlay) -> None:
        assert self._gm is not None  # C plays a dealt deal
        cp.link(self._gm, self.tracker)
        self.tracker.game = None  # the copy's tracker: its game fields set by C

    def _leave_c(self) -> None:
        """Hand the C play phase over to the Game (the Python path takes the next step)."""
        cp = self._cp
        assert cp is not None
        if cp.game is None:
            self._link(cp)
        cp.flush()
        self._cp = None
        self.tracker.game = None  # the tracker's game fields: set again from the game

    def _drop_c(self) -> None:
        """Leave the C play phase mid-decision: the Game and a Decision holding the cards
        built so far, exactly what the per-step path would have."""
        cp = self._cp
        assert cp is not None
        built = cp.built()
        self._leave_c()
        assert self._gm is not None
        self._decision = decision_holding(self._gm, built)

    def _absorb(self, events) -> None:
        self.tracker.update(events)
        players = self._g.variant.players
        for ev in events:
            if type(ev) is DealScored and ev.rise:
                for s in range(players):
                    self._returns[s] += ev.rise if s in ev.rising else -ev.rise

    def _next(self) -> None:
        g = self._gm
        assert g is not None and self._cp is None  # called once the deal is dealt
        if g.over:
            self._decision = None
        elif self._g.moves_mode:
            assert g.to_act is not None  # not over: a seat to act
            self._decision = MoveDecision.of_game(g, g.to_act, self._g.max_moves)
        else:
            assert g.to_act is not None
            if g.phase == PLAYING and cplay.playable(g, self.tracker):
                cp = cplay.CPlay(g, self.tracker, self._g.encoder)
                if cp.open():  # the play phase goes on in C
                    self._cp = cp
                    self._decision = None
                    return
            self._decision = Decision(g, g.to_act)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deck:{card_str(action)}"
        if self._g.moves_mode:
            dec = self.decision
            if isinstance(dec, MoveDecision) and 0 <= action < len(dec.moves):
                return f"move {action}: {dec.moves[action]}"
            return f"move {action}"
        if action == DONE:
            return "done"
        if action >= CALL_ORDINAL:
            return f"call #{action - CALL_ORDINAL + 1}"
        return "take back" if action == TAKE_BACK else card_str(action)

    def is_terminal(self):
        if self._cp is not None:  # (the game behind C is never over: C hands the end over)
            return False
        return self._gm is not None and self._gm.over

    def returns(self):
        return list(self._returns)

    def __str__(self):
        if self.game is None:
            return f"shuffling: {len(self.deck)} of {self._g.deck_size} cards placed"
        g = self.game
        lines = [f"phase {g.phase}; level {card_str(g.level)[1:]}; trump {g.trump}; "
                 f"dealer {g.dealer}; to act {g.to_act}; attackers' points {g.trick_points}"]
        for s, hand in enumerate(g.hands):
            lines.append(f"seat {s}: {cards_text(_cards(hand))}")
        if g.trick:
            lines.append("trick: " + "; ".join(f"{s} {cards_text(c)}" for s, c in g.trick))
        if self.decision is not None and self.decision.cards:
            lines.append(f"building: {cards_text(self.decision.cards)}")
        return "\n".join(lines)

    # --------------------------------------------------------------- search support

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state the player cannot tell from this one: the cards hidden from it dealt
        again at random (see the module doc)."""
        return resample(self, int(player_id), random.Random(_sampler_seed(probability_sampler)))


def _sampler_seed(sampler):
    # OpenSpiel passes a sampler object; its draws are not needed to pick a deal here,
    # but one draw keeps different calls apart
    if sampler is None:
        return None
    try:
        return int(sampler() * 2**53)
    except Exception:  # noqa: BLE001 - any sampler shape: fall back to fresh entropy
        return None


class _InfoLog:
    """Each seat's information-state text, kept incrementally from the events: the
    seat's private events as they are, the others' private events redacted."""

    __slots__ = ("parts",)

    def __init__(self, players: int):
        self.parts: list[list[str]] = [[] for _ in range(players)]

    def __deepcopy__(self, memo):
        new = _InfoLog.__new__(_InfoLog)
        new.parts = [p[:] for p in self.parts]
        return new

    def update(self, events) -> None:
        for ev in events:
            owner = ev.private_to
            if owner is None:
                text = _event_text(ev)
                for p in self.parts:
                    p.append(text)
            else:
                hidden = _event_text(ev.redacted())
                for s, p in enumerate(self.parts):
                    p.append(_event_text(ev) if s == owner else hidden)


def _event_text(ev) -> str:
    d = ev.to_dict()
    kind = d.pop("type", type(ev).__name__)
    return kind + "(" + ",".join(f"{k}={v}" for k, v in d.items()) + ")\n"


class ShengjiObserver:
    """OpenSpiel's PyObserver: the observation vector, or the information state text."""

    def __init__(self, game: ShengjiGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        layout = game.info_layout if self.perfect_recall else game.encoder.layout
        n_moves = game.max_moves * MOVE_FEATURES if game.moves_mode else 0
        self.tensor = np.zeros(layout.size + n_moves, np.float32)
        self.dict = layout.split(self.tensor[:layout.size])
        # whole-move mode: each listed move's features follow (shengji.env.moves)
        self.moves = self.tensor[layout.size:].reshape(-1, MOVE_FEATURES)
        if game.moves_mode:
            self.dict["moves"] = self.moves
        # the play phase in C writes the observation vector here (cplay.CPlay)
        self._c_out = None if cplay.ffi is None or self.perfect_recall else \
            cplay.ffi.from_buffer("float[]", self.tensor)

    def set_from(self, state: ShengjiState, player: int):
        if self.perfect_recall:  # the information-state tensor (shengji.env.infostate)
            state._info_now().tensor(self.game.info_layout, player,
                                     *state._building(player),
                                     out=self.tensor[:self.game.info_layout.size])
            self._set_moves(state, player)
            return
        cp = state._cp
        if cp is not None:  # the play phase in C: the vector written by C
            if cp.game is None:  # a clone's or unpickled copy
                state._link(cp)
            rc = cp._obs(cp.o, cp.st, cp.b, player, self._c_out, cp.size, cp._mask,
                         N_ACTIONS)
            if rc:
                raise ValueError(f"observation core: error {rc}")
            return
        g = state._gm
        if g is None:
            self.tensor.fill(0)
            return
        dec = state._decision if g.to_act == player and not g.over else None
        size = self.game.encoder.layout.size
        self.game.encoder.encode_into(g, player, dec, state.tracker, self.tensor[:size])
        self._set_moves(state, player)

    def _set_moves(self, state: ShengjiState, player: int) -> None:
        if not self.game.moves_mode:
            return
        dec = state.decision
        g = state.game
        # (in moves mode the decision is a MoveDecision, or None)
        if not isinstance(dec, MoveDecision) or g is None or g.over or dec.seat != player:
            self.moves.fill(0)
        else:
            self.moves[:] = dec.features(self.game.max_moves)

    def string_from(self, state: ShengjiState, player: int) -> str:
        dec = state.decision
        building = ""
        if dec is not None and dec.seat == player and dec.cards:
            building = f"building {cards_text(dec.cards)}\n"
        if self.perfect_recall:
            if state.game is None:
                return f"seat {player}\n"
            return f"seat {player}\n" + "".join(state.log.parts[player]) + building
        if state.game is None:
            return f"seat {player}; shuffling"
        g = state.game
        trick = "; ".join(f"{s} {cards_text(c)}" for s, c in g.trick)
        return (f"seat {player}; phase {g.phase}; to act {g.to_act}; "
                f"hand {cards_text(_cards(g.hands[player]))}; trick {trick}; "
                f"trump {g.trump if g.phase != 'deal' else '?'}; "
                f"points {g.trick_points}\n{building}")


pyspiel.register_game(_GAME_TYPE, ShengjiGame)
