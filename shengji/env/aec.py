"""The PettingZoo AEC environment of a shengji variant (docs/rl.md).

Agents are ``player_0 … player_{N-1}``, one per seat of the variant. The action space
is ``Discrete(60)`` for every agent (``shengji.env.building``: add a card of kind 0..53,
54 = submit, 55 = take a declaration back, 56..59 = a friend call's ordinal), and every
observation is a dict

- ``observation``: the seat's view as a float32 vector (``shengji.env.observation``);
- ``action_mask``: int8, 1 for the actions allowed now (all zero when not to act).

An episode is ``deals`` deals of one match (default 1) from the seed given to
``reset``; ``players=N`` plays the variant at another table size (its ``by_players``
entry, as ``--seats``). Rewards (``reward=``):

- ``"levels"`` (default): at the end of each deal, the levels the seat's side gained
  minus the levels the other side gained (+rise for the rising side, −rise for the
  others; zero-sum when the sides are the same size);
- ``"points"``: after every step that changes the attackers' points or the sides (a
  trick won, a friend joining, the deal's end), each seat gets what makes its rewards
  of the deal so far add up to +the attackers' points for an attacker, −them for the
  dealer's side, as the sides are known then; so a deal sums to ±the attackers' total
  the scoring saw (kitty bonus, penalties) by the final sides (docs/rl.md "Rewards").

``skip_forced=True`` takes every action that is the only one allowed (the submit after
the last card of a play, a card no other can replace) for the seat to act, so a step
always offers a choice: about half the card-by-card steps of a deal go. Rewards those
steps earn add to the step's, and to each agent's cumulative reward as usual.

``view_in_info=True`` adds the structured view (``shengji.engine.SeatView``) to the
acting seat's ``info["view"]``; ``env.view(agent)`` gives any seat's at any time.
"""

from __future__ import annotations

import operator
import os
import random
from typing import TYPE_CHECKING, Any, Union

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - exercised without the extra
    from ..errors import ShengjiError

    raise ShengjiError(
        f"shengji.env needs the 'rl' extra ({e.name} is missing): pip install 'shengji[rl]'"
    ) from None

from ..cards import NUM_KINDS
from ..engine.actions import Play
from ..engine.errors import IllegalAction
from ..engine.events import DealScored, FriendJoined, TrickWon
from ..engine.game import Game
from ..engine.phase import PLAYING
from ..errors import ShengjiError
from .building import DONE, N_ACTIONS, Decision, decision_holding
from .cmoves import SAMPLE, CMoves, MovesHandout
from .cobserve import make_encoder
from .cplay import END as _DRIVE_END
from .cplay import ILLEGAL as SJ_BUILD_ILLEGAL
from .cplay import PENDING as _DRIVE_PENDING
from .cplay import PYTHONS, TRICK_ENDED, CPlay, Handout
from .moves import MAX_MOVES, MOVE_FEATURES, MoveDecision
from .observation import HISTORY
from .ordering import AgentIterable, before_reset, before_reset_error, stand_in, step_after_done

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.events import Event
    from ..engine.view import SeatView
    from ..variants import Variant

#: what names a variant: a loaded Variant, a name, or a YAML path
VariantRef = Union["Variant", str, "os.PathLike[str]"]

REWARDS = ("levels", "points")
#: the mask's dtype, made once (numpy resolves ``dtype=np.int8`` at every call)
_INT8 = np.dtype(np.int8)
ACTIONS = ("cards", "moves")


@stand_in  # the episode's attributes raise PettingZoo's AttributeError before reset
class ShengjiEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    metadata: dict[str, Any] = {"name": "shengji_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, variant: VariantRef = "two-deck-80", *, players: int | None = None,
                 deals: int = 1,
                 reward: str = "levels", view_in_info: bool = False,
                 render_mode: str | None = None, history: int = HISTORY,
                 actions: str = "cards", max_moves: int = MAX_MOVES,
                 skip_forced: bool = False) -> None:
        super().__init__()
        from ..errors import ShengjiError
        from ..variants import Variant, load_variant

        if isinstance(variant, Variant) and players is None:
            self.variant = variant
        else:
            self.variant = load_variant(variant, players=players)
        if reward not in REWARDS:
            raise ShengjiError(f"reward {reward!r}: choose one of {', '.join(REWARDS)}")
        if not isinstance(deals, int) or deals < 1:
            raise ShengjiError(f"deals {deals!r}: needs a positive number")
        if actions not in ACTIONS:
            raise ShengjiError(f"actions {actions!r}: choose cards or moves")
        if not isinstance(max_moves, int) or max_moves < 2:
            raise ShengjiError(f"max_moves {max_moves!r}: needs a number of at least 2")
        if not isinstance(skip_forced, bool):
            raise ShengjiError(f"skip_forced {skip_forced!r}: needs True or False")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ShengjiError(f"render_mode {render_mode!r}: choose ansi or human")
        self.deals = deals
        self.skip_forced = skip_forced
        self.moves_mode = actions == "moves"
        self.max_moves = max_moves
        self.reward_mode = reward
        #: a C play step's flags that need _step_c: the next decision Python's (or its
        #: moves' sample), a reward
        self._c_slow = PYTHONS | SAMPLE | (TRICK_ENDED if reward == "points" else 0)
        self.view_in_info = view_in_info
        self.render_mode = render_mode
        self.encoder = make_encoder(self.variant, history)
        self.layout = self.encoder.layout
        n = self.variant.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_act = max_moves if self.moves_mode else N_ACTIONS
        self.n_actions = n_act
        obs: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(self.layout.low, self.layout.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), dtype=np.int8),
        }
        if self.moves_mode:  # each listed move's features (shengji.env.moves)
            obs["moves"] = spaces.Box(0.0, float(self.variant.composition.points + 2 *
                                                 NUM_KINDS),
                                      (max_moves, MOVE_FEATURES), dtype=np.float32)
        obs_space = spaces.Dict(obs)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._no_moves = np.zeros((max_moves, MOVE_FEATURES), dtype=np.float32)
        self._rng = random.Random()
        #: seats whose decisions come from act_engine (bots): not listed, no mask
        self.external_seats: frozenset[int] = frozenset()
        self._gm: Game | None = None
        self._decision: Decision | MoveDecision | None = None
        #: the play phase run in C (cplay.CPlay; whole moves: cmoves.CMoves), None on the
        #: Python path
        self._cp: CPlay | None = None
        self._c_play = CMoves if self.moves_mode else CPlay
        #: the arrays the C play phase's observations are written into (cplay.Handout)
        self._handout: Handout | MovesHandout = (
            MovesHandout(self.layout.size, max_moves) if self.moves_mode
            else Handout(self.layout.size))
        #: PettingZoo's order checks (shengji.env.ordering): set by env(), not raw_env()
        self._ordered = False
        self._has_reset = False
        self._has_updated = False

    @property
    def num_agents(self) -> int:
        agents = self.__dict__.get("agents")
        if agents is None:  # (the episode's attributes before reset: ordering.stand_in)
            raise before_reset_error("num_agents")
        return len(agents)

    # the Game and the Decision, read from outside: the C play phase (cplay) hands its
    # state over to them first, so they are exactly the per-step path's
    def _game_now(self) -> Game:
        """The game as it stands (inside: the C play phase, if any, not handed over)."""
        g = self._gm
        if g is None:
            raise ShengjiError("no episode yet: call reset() first")
        return g

    def _game(self) -> Game:
        """The episode's game (up to date); a clear error before the first ``reset``."""
        g = self.game
        if g is None:
            raise ShengjiError("no episode yet: call reset() first")
        return g

    @property
    def game(self) -> Game | None:
        if self._cp is not None:
            self._drop_c()
        return self._gm

    @game.setter
    def game(self, value: Game | None) -> None:
        self._cp = None
        self._gm = value

    @property
    def decision(self) -> Decision | MoveDecision | None:
        if self._cp is not None:
            self._drop_c()
        return self._decision

    @decision.setter
    def decision(self, value: Decision | MoveDecision | None) -> None:
        if self._cp is not None:
            self._drop_c()
        self._decision = value

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = self._has_updated = True
        if seed is not None:
            self._rng.seed(f"shengji-env:{seed}")
        game_seed = self._rng.getrandbits(64)
        self._cp = None
        self._rewarded = True
        self._gm = Game(self.variant, game_seed, max_deals=self.deals)
        self.tracker = self.encoder.new_tracker()
        self.tracker.update(self._gm.events)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._got = [0] * len(self.possible_agents)
        self._next_decision()
        if self.skip_forced:
            self._take_forced()

    def _next_decision(self) -> None:
        g = self._gm
        assert g is not None
        if g.over:
            self._decision = None
            self.terminations = dict.fromkeys(self.agents, True)
            return
        seat = g.to_act
        assert seat is not None  # a game not over has a seat to act
        self.agent_selection = self.possible_agents[seat]
        if seat in self.external_seats:  # decided by act_engine: nothing to list
            self._decision = None
            return
        if g.phase == PLAYING and self._c_play.usable(self, g):
            cp = (CMoves(g, self.tracker, self.encoder, self.max_moves) if self.moves_mode
                  else CPlay(g, self.tracker, self.encoder))
            if cp.open():  # the play phase goes on in C (cplay)
                self._cp = cp
                self._decision = None
                return
        self._decision = (MoveDecision.of_game(g, seat, self.max_moves)
                          if self.moves_mode
                          else Decision(g, seat))
        if self.view_in_info:
            self.infos[self.agent_selection] = {"view": g.view(seat)}

    def step(self, action: int | None) -> None:
        cp = self._cp
        if cp is not None and action is not None:  # the play phase in C (cplay): an
            self._has_updated = True              # episode under way, no agent done
            agent = self.agent_selection
            a = action if type(action) is int else _action_number(agent, action)
            if not 0 <= a < self.n_actions:
                rc = SJ_BUILD_ILLEGAL
            elif self.skip_forced:  # the forced actions after it too, in C (cplay)
                rc = cp._forced(cp.r, cp.st, cp.o, cp.b, a, self._c_slow)
            else:
                rc = cp._step(cp.r, cp.st, cp.o, cp.b, a)
            if rc >= 0 and not rc & self._c_slow:
                # a card added or a play made, no reward: nothing to add up once the
                # rewards are zero
                self._cumulative_rewards[agent] = 0.0
                if self._rewarded:
                    self._rewarded = False
                    for k in self.rewards:
                        self.rewards[k] = 0.0
                if rc:
                    self.agent_selection = self.possible_agents[cp.st.to_act]
                return None
            self._step_c(cp, agent, a, rc)
            if self.skip_forced:
                self._take_forced()
            return None
        if not self._has_reset:
            if self._ordered:
                before_reset["step"]()
            self._game()  # a clear error before the first reset
        if self._ordered:
            self._has_updated = True
            if not self.agents:
                step_after_done()
                return
        elif not self.agents:  # raw_env: no warning and return, but no KeyError either
            raise IllegalAction("step() after the game ended (every agent is done): "
                                "call reset()", "masked_action")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        dec = self._decision
        if action is None or (dec is None and cp is None):
            raise IllegalAction(f"{agent}: step() needs an action number here (None is for "
                                "a finished agent; a seat in external_seats acts through "
                                "act_engine)", "masked_action")
        a = action if type(action) is int else _action_number(agent, action)
        assert dec is not None  # (the C play phase, cp, is handled above)
        if not dec.allows(a):
            raise IllegalAction(
                f"{agent}: action {a} is not allowed now (allowed: {dec.mask()})",
                "masked_action")
        self._cumulative_rewards[agent] = 0.0
        self._step_python(agent, dec, a)
        if self.skip_forced:
            self._take_forced()

    def _step_python(self, agent: str, dec: Decision | MoveDecision, a: int) -> None:
        """A step on the per-step Python path: action ``a``, allowed, of ``agent``."""
        if self._rewarded:  # (zero already: nothing to reset)
            self._rewarded = False
            for k in self.rewards:
                self.rewards[k] = 0.0
        engine_action = dec.moves[a] if isinstance(dec, MoveDecision) else dec.step(a)
        if engine_action is not None:
            self._rewarded = True  # the action's events may reward
            self._apply(agent, engine_action)
            self._accumulate_rewards()
        # (a card added: every reward zero, nothing to add up)
        if self.render_mode == "human" and engine_action is not None:
            print(self.render())

    def _step_c(self, cp: CPlay, agent: str, a: int, rc: int, forced: bool = False) -> None:
        """A step of the play phase in C (cplay) past adding a card (``rc``: the C
        step's answer): the same state, observations and rewards as the per-step path.
        ``forced``: a step ``skip_forced`` took (the agent has not seen its rewards)."""
        if rc == SJ_BUILD_ILLEGAL:
            raise IllegalAction(
                f"{agent}: action {a} is not allowed now (allowed: {cp.legal()})",
                "masked_action")
        if not forced:
            self._cumulative_rewards[agent] = 0.0
        for k in self.rewards:
            self.rewards[k] = 0.0
        self._rewarded = True
        if rc > 0:  # a play made
            if rc & TRICK_ENDED and self.reward_mode == "points":
                self._c_trick_reward(cp)
            self.agent_selection = self.possible_agents[cp.st.to_act]
            # the next decision only Python lists (or, whole moves, its sample)
            if rc & PYTHONS or (rc & SAMPLE and not cp.sample()):
                self._leave_c()
                self._next_decision()
        elif rc == _DRIVE_END:  # the deal's last trick: the engine scores it
            # the seat that played last (the forced steps C took after ``a`` too), as
            # the per-step path leaves it
            self.agent_selection = self.possible_agents[cp.st.to_act]
            if self.reward_mode == "points":
                self._c_trick_reward(cp)
            rest = cp.finish()  # the scoring's events, and the next deal's
            self._cp = None
            self.tracker.game = None
            self.tracker.update(rest)
            self._reward(rest)
            self._next_decision()
        elif rc == _DRIVE_PENDING:  # a play only the engine applies: it does
            seat = cp.st.to_act
            cards = tuple(cp.built())
            self._leave_c()
            self._apply(agent, Play.trusted(seat, cards))
        elif rc < 0:
            raise ValueError(f"play phase in C: rules core error {rc}")
        self._accumulate_rewards()

    def _take_forced(self) -> None:
        """``skip_forced``: while the seat to act has one allowed action, take it, as a
        step of that seat's. The agent's cumulative reward is not reset (it has not seen
        it yet) and ``rewards`` sums the caller's step and these."""
        while True:
            cp = self._cp
            if cp is not None:  # the play phase in C: the forced actions taken in C
                agent = self.agent_selection
                rc = cp._forced(cp.r, cp.st, cp.o, cp.b, -1, self._c_slow)
                if rc >= 0 and not rc & self._c_slow:  # C stopped at a choice
                    if rc:
                        self.agent_selection = self.possible_agents[cp.st.to_act]
                    return
                before = self.rewards.copy() if self._rewarded else None
                self._step_c(cp, agent, -1, rc, forced=True)
            else:
                dec = self._decision
                if dec is None or self._gm is None or self._gm.over:
                    return
                allowed = dec.mask()
                if len(allowed) != 1:
                    return
                before = self.rewards.copy() if self._rewarded else None
                self._step_python(self.agent_selection, dec, allowed[0])
            if before is not None:  # the rewards of the steps before this one
                rewards = self.rewards
                for k, v in before.items():
                    rewards[k] += v
                self._rewarded = True

    def _c_trick_reward(self, cp: CPlay) -> None:
        """``reward="points"`` after a trick played in C (as ``_reward`` of TrickWon)."""
        self._settle(cp.st.trick_points, self._game_now().side)

    def _leave_c(self) -> None:
        """Hand the C play phase over to the Game (the Python path takes the next step)."""
        cp = self._cp
        assert cp is not None
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
        g = self._game_now()
        assert g.to_act is not None  # C hands over at a decision
        self._decision = (MoveDecision.of_game(g, g.to_act, self.max_moves) if self.moves_mode
                          else decision_holding(g, built))

    def _apply(self, agent: str, engine_action: Action) -> None:
        events = self._game_now().apply(engine_action)
        self.tracker.update(events)
        self._reward(events)
        if self.view_in_info:
            self.infos[agent] = {}
        self._next_decision()

    def act_engine(self, engine_action: Action) -> None:
        """Apply an engine action (``shengji.engine.actions``) for the seat to act, as
        one step: how the single-agent wrapper lets bots play the seats listed in
        ``external_seats`` (their decisions are not listed). Checked by the engine."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        for k in self.rewards:
            self.rewards[k] = 0.0
        self._rewarded = True
        self._apply(agent, engine_action)
        self._accumulate_rewards()
        if self.skip_forced:
            self._take_forced()

    def _reward(self, events: list[Event]) -> None:
        g = self._game_now()
        teams = g.teams
        agents = self.possible_agents
        rewards = self.rewards
        ev: Any  # dispatched on type(ev) below, which mypy does not narrow through ``t``
        if self.reward_mode == "levels":
            for ev in events:
                if type(ev) is DealScored and ev.rise:
                    for s in range(len(teams)):
                        rewards[agents[s]] += ev.rise if s in ev.rising else -ev.rise
            return
        scored = None
        moved = False  # the attackers' points or the sides changed
        for ev in events:
            t = type(ev)
            if t is DealScored:
                scored = ev
            elif t is TrickWon or t is FriendJoined:
                moved = True
        if scored is not None:  # the deal's end: its total, its final sides
            self._settle(scored.attacker_points, scored.side)
            self._got = [0] * len(teams)  # (a next deal starts from nothing)
        elif moved:
            self._settle(g.trick_points, g.side)

    def _settle(self, points: int, side: tuple[int, ...]) -> None:
        """``reward="points"``: give each seat what makes its rewards of the deal so far
        add up to its side's share of the attackers' ``points``: +points for an
        attacker, −points for the dealer's ``side`` as it is known now (docs/rl.md
        "Rewards": a hidden friend's rewards are settled when it joins)."""
        got = self._got
        rewards = self.rewards
        agents = self.possible_agents
        for s in range(len(got)):
            target = -points if s in side else points
            if target != got[s]:
                rewards[agents[s]] += target - got[s]
                got[s] = target

    #: reward="points": each seat's rewards of the deal so far (``_settle``)
    _got: list[int] = []
    # ------------------------------------------------------------------ observing

    def last(self, observe: bool = True
             ) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, the C play phase's observation asked directly (a step's hot path)."""
        agent = self.agent_selection
        cp = self._cp
        obs: dict[str, Any] | None
        if cp is not None and observe:  # (as observe below)
            obs = self._handout.observe(cp, self._seat[agent])
        else:
            obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        cp = self._cp
        if cp is not None:  # written by C
            return self._handout.observe(cp, seat)
        if self._ordered and not self._has_reset:
            before_reset["observe"]()
        g = self._game_now()
        dec = self._decision if g.to_act == seat and not g.over else None
        vec = self.encoder.encode(g, seat, dec, self.tracker)
        if self.moves_mode:
            mask = np.zeros(self.n_actions, dtype=np.int8)
            if isinstance(dec, MoveDecision):  # (in moves mode: the decision, or None)
                mask[:len(dec.moves)] = 1
                moves = dec.features(self.max_moves).copy()  # the caller's own
            else:
                moves = self._no_moves.copy()
            return {"observation": vec, "action_mask": mask, "moves": moves}
        if dec is None:
            return {"observation": vec,
                    "action_mask": np.zeros(self.n_actions, _INT8)}
        allowed = bytearray(self.n_actions)  # (cheaper than numpy's fancy indexing)
        for a in dec.mask():
            allowed[a] = 1
        return {"observation": vec, "action_mask": np.frombuffer(allowed, _INT8)}

    def view(self, agent: str) -> SeatView:
        """The structured view of ``agent``'s seat (``shengji.engine.SeatView``)."""
        return self._game().view(self._seat[agent])

    def render(self) -> str | None:
        if self._ordered and not self._has_reset:
            before_reset["render"]()
        if self.render_mode is None:
            return None
        g = self._game()
        lines = [f"deal {g.deal_number}  phase {g.phase}  level {g.level}  trump {g.trump}"
                 f"  attackers' points {g.trick_points}"]
        from ..cards import format_counts
        from ..engine.actions import cards_text

        for s in range(g.players):
            mark = "*" if s == g.to_act else " "
            lines.append(f"{mark} player_{s}: {format_counts(g.hands[s])}")
        if g.trick:
            lines.append("trick: " + "  ".join(
                f"player_{s}: {cards_text(c)}" for s, c in g.trick))
        if self.decision is not None and self.decision.cards:
            lines.append(f"building: {cards_text(self.decision.cards)}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def state(self) -> Any:
        if self._ordered and not self._has_reset:
            before_reset["state"]()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        if self._ordered and not self._has_reset:
            before_reset["agent_iter"]()
        return AgentIterable(self, max_iter, self._ordered)


def _action_number(agent: str, action: Any) -> int:
    """An action given as another integer type (numpy's, bool): its number; anything
    else (a float, an array, a string) is refused, never rounded (as PettingZoo's
    AssertOutOfBoundsWrapper refuses what ``Discrete`` does not contain)."""
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalAction(f"{agent}: action {action!r} is not an action number (an "
                            "integer allowed by the mask)", "masked_action") from None


def raw_env(variant: VariantRef = "two-deck-80", **kwargs: Any) -> ShengjiEnv:
    """The environment without PettingZoo's wrappers (fastest)."""
    return ShengjiEnv(variant, **kwargs)


def env(variant: VariantRef = "two-deck-80", **kwargs: Any) -> ShengjiEnv:
    """The environment with PettingZoo's order checks (the usual entry): the checks of
    ``OrderEnforcingWrapper``, with its errors, made by the environment itself
    (``shengji.env.ordering``) rather than by a wrapper forwarding every call."""
    e = ShengjiEnv(variant, **kwargs)
    e._ordered = True
    return e


__all__ = ["ShengjiEnv", "env", "raw_env", "DONE", "N_ACTIONS"]
