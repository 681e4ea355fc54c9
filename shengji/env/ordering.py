"""PettingZoo's order checks, built into the environment (``aec.env()``).

PettingZoo's ``OrderEnforcingWrapper`` forwards every attribute read and call of the
environment through Python-level ``__getattr__`` and an extra method frame; on a
card-by-card environment with about 220 steps a deal that cost as much as the
environment itself. ``env()`` instead returns the environment with ``_ordered`` set, and
its own methods make the wrapper's checks with one flag each, raising the wrapper's very
errors (PettingZoo's ``EnvLogger``): ``step``, ``observe``, ``render``, ``state`` and
``agent_iter`` before ``reset`` (AssertionError), the episode's attributes before
``reset`` (AttributeError naming the attribute: ``BeforeReset``), ``step`` once every
agent is done (a warning, nothing done) and a loop over ``agent_iter`` that does not
step (AssertionError).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pettingzoo.utils.env_logger import EnvLogger

#: what OrderEnforcingWrapper refuses to read before reset (``num_agents`` is a property
#: reading ``agents``: Python asks ``__getattr__`` for it when that fails)
BEFORE_RESET = frozenset({"rewards", "terminations", "truncations", "infos",
                          "agent_selection", "num_agents", "agents"})

before_reset = {
    "step": EnvLogger.error_step_before_reset,
    "observe": EnvLogger.error_observe_before_reset,
    "render": EnvLogger.error_render_before_reset,
    "state": EnvLogger.error_state_before_reset,
    "agent_iter": EnvLogger.error_agent_iter_before_reset,
}

step_after_done = EnvLogger.warn_step_after_terminated_truncated


class BeforeReset:
    """An episode attribute (``rewards``, ``agents`` ...) on the environment's class,
    standing in until ``reset`` sets the instance's own, which hides it (a non-data
    descriptor): read before, the wrapper's AttributeError naming it. A ``__getattr__``
    on the class would give the same errors, but CPython then reads every attribute of
    the environment the slow way (it specialises no attribute read on such a class:
    about 40 ns a read instead of 10, some 20 reads a step)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        raise before_reset_error(self.name)


def before_reset_error(name: str) -> AttributeError:
    return AttributeError(f"{name} cannot be accessed before reset")


def stand_in(cls: type) -> type:
    """``cls`` with a ``BeforeReset`` for each episode attribute it has no property
    for (``num_agents`` is one: the class's own property raises the error)."""
    for name in BEFORE_RESET:
        if not isinstance(getattr(cls, name, None), property):
            setattr(cls, name, BeforeReset(name))
    return cls


class AgentIterable:
    """``agent_iter``'s answer: each ``iter()`` a fresh loop over the agents to act, as
    PettingZoo's ``AECIterable``; checked (a step between agents) when ``ordered``."""

    __slots__ = ("env", "max_iter", "ordered")

    def __init__(self, env: Any, max_iter: int, ordered: bool) -> None:
        self.env, self.max_iter, self.ordered = env, max_iter, ordered

    def __iter__(self) -> Iterator[str]:
        return (_checked if self.ordered else _plain)(self.env, self.max_iter)


def _plain(env: Any, left: int) -> Iterator[str]:
    while env.agents and left > 0:
        left -= 1
        yield env.agent_selection


def _checked(env: Any, left: int) -> Iterator[str]:
    while env.agents and left > 0:
        left -= 1
        if not env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._has_updated = False
        yield env.agent_selection
