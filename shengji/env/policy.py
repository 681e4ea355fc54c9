"""Any policy at the table: a callable ``(observation, mask) -> action`` as a bot.

    from shengji.env.policy import policy_bot
    spec = policy_bot(my_policy, name="mine")          # registers the bot spec "mine"
    # now: make_bot("mine", variant), arena(variant, ["mine", "heuristic"]), the terminal
    # and the web server's seats, simulate with --jobs 1

The callable gets what the environments give a learner — ``observation`` is the dict of
``shengji.env`` (``"observation"``: the vector, ``"action_mask"``, and with
``actions="moves"`` the ``"moves"`` features) built from the bot's ``SeatView``
(``shengji.env.viewobs``) — and the mask again as its second argument; it returns an
action id the mask allows. With ``actions="moves"`` (the default) one call makes the
decision (the listed move of that index); with ``actions="cards"`` the bot builds the
decision card by card as the environment does, one call per step. An action the mask
does not allow is a one-line ``ShengjiError`` naming the bot and the action.

From the command line a policy is named by the bot spec ``policy:fn=MODULE.NAME`` (the
callable ``NAME`` of module ``MODULE``), which imports ``MODULE`` only when it is allowed
as plugins are (``--allow-plugin MODULE`` / ``SHENGJI_ALLOW_PLUGINS``): importing runs
its code.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import numpy as np

from ..bots.base import Bot, register
from ..cards import NUM_KINDS
from ..errors import ShengjiError
from .building import N_ACTIONS, Decision
from .moves import MAX_MOVES, MoveDecision
from .observation import HISTORY
from .viewobs import SeatMemory, ViewEncoder

if TYPE_CHECKING:
    from ..engine import Action, Legal, SeatView


class _Seen:
    """What ``building.Decision`` reads of a game, from a seat's view and legal actions."""

    def __init__(self, view, legal, variant):
        self._legal = legal
        self.hands = {view.seat: list(view.hand)}
        self.rules = variant.play_rules
        self._eff = None
        if view.trump_set:
            ctx = variant.context(view.level, view.trump)
            self._eff = [ctx.effective_suit(k) for k in range(NUM_KINDS)]
        self._choice = (view.seat, tuple(tuple(o) for o in view.forced_options))

    def legal_actions(self, seat, limit=None):
        return self._legal


class PolicyBot(Bot):
    """A bot that asks ``policy(observation, mask)`` (see the module doc)."""

    name = "policy-adapter"
    options: dict = {}

    def __init__(self, variant, seed=0, *, policy=None, actions: str = "moves",
                 history: int = HISTORY, max_moves: int = MAX_MOVES, label: str = "policy"):
        super().__init__(variant, seed)
        if not callable(policy):
            raise ShengjiError(f"bot {label!r}: the policy must be callable "
                               f"(observation, mask) -> action, not {type(policy).__name__}")
        if actions not in ("moves", "cards"):
            raise ShengjiError(f"bot {label!r}: actions {actions!r}: choose moves or cards")
        self.policy = policy
        self.actions = actions
        self.max_moves = max_moves
        self.label = label
        self.encoder = ViewEncoder(variant, history)
        self.layout = self.encoder.layout
        self.memory = SeatMemory()
        self.decisions = 0

    def _ask(self, obs: dict, mask: np.ndarray) -> int:
        a = self.policy(obs, mask)
        try:
            a = int(a)
        except (TypeError, ValueError):
            raise ShengjiError(f"bot {self.label!r}: the policy returned {a!r}, not an "
                               "action id") from None
        if not 0 <= a < len(mask) or not mask[a]:
            raise ShengjiError(f"bot {self.label!r}: action {a} is not allowed by the mask "
                               f"(allowed: {np.flatnonzero(mask).tolist()[:20]})")
        return a

    def act(self, view: SeatView, legal: Legal) -> Action:
        self.memory.see(view)
        self.decisions += 1
        vec = self.encoder.encode(view, legal.kind, self.memory)
        if self.actions == "moves":
            dec = MoveDecision(view, legal, self.variant, f"{self.seed}:{self.decisions}",
                               self.max_moves)
            mask = np.zeros(self.max_moves, dtype=np.int8)
            mask[:len(dec.moves)] = 1
            obs = {"observation": vec, "action_mask": mask, "moves": dec.features().copy()}
            action = dec.moves[self._ask(obs, mask)]
        else:
            action = self._build(view, legal, vec)
        if legal.kind == "bury":
            self.memory.bury(action.cards)
        return action

    def _build(self, view, legal, vec):
        """Card by card, as the environment builds it (``shengji.env.building``)."""
        dec = Decision(_Seen(view, legal, self.variant), view.seat)
        s = self.layout.slices
        b0, b1, _ = s["building"]
        c0, c1, _ = s["calls"]
        o0, o1, _ = s["call_ordinal"]
        while True:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
            mask[dec.mask()] = 1
            vec = vec.copy()
            vec[b0:b1] = dec.counts
            if dec.kind == "call":
                vec[c0:c1] = 0
                for n, c in dec._set.chosen:
                    vec[c0 + (n - 1) * NUM_KINDS + c] = 1
                vec[o0:o1] = 0
                if dec._set.pending:
                    vec[o0 + dec._set.pending - 1] = 1
            a = self._ask({"observation": vec, "action_mask": mask}, mask)
            action = dec.step(a)
            if action is not None:
                return action


_REGISTERED: dict = {}


def policy_bot(policy, name: str | None = None, **options) -> str:
    """Register ``policy`` as a bot spec (default name: ``policy-<its name>``) and return
    the spec. ``options``: ``actions`` ("moves"/"cards"), ``history``, ``max_moves``."""
    name = name or f"policy-{getattr(policy, '__name__', 'anonymous')}"
    if not name or ":" in name or any(c.isspace() for c in name):
        raise ShengjiError(f"bot name {name!r}: one word without ':'")
    from ..bots.base import BOTS

    if name in BOTS and _REGISTERED.get(name) is None:
        raise ShengjiError(f"bot name {name!r} is taken by a built-in bot")

    class _Named(PolicyBot):
        def __init__(self, variant, seed=0):
            super().__init__(variant, seed, policy=policy, label=name, **options)

    _Named.name = name
    _Named.__name__ = f"PolicyBot[{name}]"
    _REGISTERED[name] = _Named
    register(_Named)
    return name


def load_callable(ref: str):
    """``MODULE.NAME`` -> the callable, importing MODULE only if allowed as a plugin."""
    from ..plugins import allowed_plugins

    module, _, attr = ref.rpartition(".")
    if not module or not attr:
        raise ShengjiError(f"policy fn={ref!r}: name it MODULE.NAME")
    if module not in allowed_plugins():
        raise ShengjiError(f"policy fn={ref!r}: module {module!r} is not allowed; allow it "
                           f"with --allow-plugin {module} (importing it runs its code)")
    try:
        fn = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ShengjiError(f"policy fn={ref!r}: {e}") from None
    if not callable(fn):
        raise ShengjiError(f"policy fn={ref!r}: {type(fn).__name__} is not callable")
    return fn


__all__ = ["PolicyBot", "load_callable", "policy_bot"]
