"""One learning seat against bots: a Gymnasium environment, and its vectorised form.

    from shengji.env.gym import ShengjiGymEnv, make_vec
    e = ShengjiGymEnv("two-deck-80", seat=0, opponents="heuristic")
    obs, info = e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.step(action)   # allowed by obs["action_mask"]

The learner plays ``seat`` with the actions of the PettingZoo environment it wraps
(``actions="cards"``: cards one at a time; ``"moves"``: whole moves, with
``obs["moves"]``); every other seat is a bot named by a spec (``random``,
``heuristic``, ``mc:budget=200``, ``learned`` ...): one spec for all of them, or a list
with one per other seat in seat order. A step applies the learner's action and then
lets the bots act until the learner is to act again or the episode ends; the reward is
the learner's, summed over those actions (``reward="levels"`` or ``"points"`` as in the
PettingZoo environment). ``reset(seed=...)`` seeds the deal and the bots, so a seed
replays the same episode for the same actions. An action the mask does not allow ends
the episode (``illegal="end"``, the default: reward ``illegal_reward``, -4, and
``info["illegal_action"]``), or raises ``IllegalAction`` (``illegal="raise"``).

``make_vec(n, ...)`` gives ``n`` of them as a Gymnasium vector environment
(``gymnasium.vector.SyncVectorEnv``, or ``AsyncVectorEnv`` with ``asynchronous=True``:
one process per environment), with Gymnasium's autoreset and batched dict
observations. Gymnasium's vector API rather than PettingZoo's parallel API because the
table is turn-based: only one seat acts at a time, so a "parallel" step of all seats
has nothing to batch, whereas many tables of one learning seat are exactly what
batched learners (PPO, DQN and DMC actors) consume.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from ..errors import ShengjiError
from .aec import ShengjiEnv


class ShengjiGymEnv(gym.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant="two-deck-80", *, seat: int = 0, opponents="random",
                 players: int | None = None,
                 actions: str = "cards", reward: str = "levels", deals: int = 1,
                 history: int | None = None, max_moves: int | None = None,
                 illegal: str = "end", illegal_reward: float = -4.0,
                 render_mode: str | None = None, skip_forced: bool = False):
        from ..bots import make_bot, parse_spec

        kw: dict[str, Any] = {"actions": actions, "reward": reward, "deals": deals,
              "render_mode": render_mode, "skip_forced": skip_forced, "players": players}
        if history is not None:
            kw["history"] = history
        if max_moves is not None:
            kw["max_moves"] = max_moves
        if illegal not in ("end", "raise"):
            raise ShengjiError(f"illegal {illegal!r}: choose end or raise")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.aec = ShengjiEnv(variant, **kw)
        self.variant = self.aec.variant
        n = self.variant.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ShengjiError(f"seat {seat!r}: choose 0..{n - 1}")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ShengjiError(f"opponents: {len(specs)} bot specs for {len(others)} other "
                               "seats (give one spec, or one per other seat)")
        for spec in specs:
            parse_spec(spec)  # a bad spec is a one-line error now, not at reset
        self._specs = dict(zip(others, specs, strict=True))
        self._make_bot = make_bot
        self.aec.external_seats = frozenset(others)
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode
        self.bots: dict = {}
        self._over = False

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None:  # Gymnasium's generator (seeded once) draws the episode's seed
            seed = int(self.np_random.integers(2**63))
        self.aec.reset(seed=seed)
        self._over = False
        self.bots = {s: self._make_bot(spec, self.variant, f"gym:{seed}:{s}")
                     for s, spec in self._specs.items()}
        reward = self._bots_act()
        obs = self.aec.observe(self.agent)
        return obs, {"reward_before_first_move": reward}

    def _bots_act(self) -> float:
        """Let the bots act until the learner is to act or the episode ends; the
        learner's reward meanwhile."""
        aec = self.aec
        total = 0.0
        g = aec._game()
        while not g.over and g.to_act != self.seat:
            s = g.to_act
            assert s is not None  # a game not over has a seat to act
            action = self.bots[s].act(g.view(s), g.legal_actions(s))
            aec.act_engine(action)
            total += aec.rewards[self.agent]
        return total

    def step(self, action):
        aec = self.aec
        if aec.game is None or aec.game.over or self._over:
            raise ShengjiError("step after the episode ended: call reset()")
        a = int(action)
        dec = aec.decision
        if self.illegal == "end" and not dec.allows(a):
            # a masked-out action: the episode ends for the learner, reported as such
            self._over = True
            return (aec.observe(self.agent), self.illegal_reward, True, False,
                    {"illegal_action": a})
        aec.step(a)
        reward = aec.rewards[self.agent] + self._bots_act()
        terminated = aec.game.over
        return aec.observe(self.agent), float(reward), terminated, False, {}

    def action_masks(self) -> np.ndarray:
        """The mask as a bool array (the convention of maskable-PPO implementations)."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self):
        return self.aec.render()

    def close(self):
        pass


def make_vec(n: int, variant="two-deck-80", *, asynchronous: bool = False, **kwargs):
    """``n`` single-seat environments as one Gymnasium vector environment. Autoreset
    is Gymnasium's "same step" mode: the observation returned with ``terminated`` is
    already the next episode's (a mask to act on; the last one is in
    ``info["final_obs"]``)."""
    from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

    if not isinstance(n, int) or n < 1:
        raise ShengjiError(f"n {n!r}: needs a positive number of environments")
    fns = [lambda: ShengjiGymEnv(variant, **kwargs) for _ in range(n)]
    cls = AsyncVectorEnv if asynchronous else SyncVectorEnv
    return cls(fns, autoreset_mode=AutoresetMode.SAME_STEP)
