"""``learned``: a policy trained in the environments, and ``policy``: any policy callable.

``learned`` plays a checkpoint (``shengji/bots/data/*.npz`` are shipped; made by the
trainers ``shengji.env.distill`` and ``shengji.env.dmc``; docs/rl.md): a Q(s, a) network
scores the seat's legal whole moves (``shengji.env.moves``) and the bot takes the best,
NumPy alone (the ``rl`` extra). ``learned:model=NAME`` picks a shipped checkpoint by
name, ``learned:model=PATH`` (a path: it holds a ``/`` or ends in ``.npz``) any
checkpoint file; a file that is not one is a one-line error naming it. Bot specs are
the operator's input (the command line, a Python caller): the server never takes one
from a client. The checkpoint fixes the table size it was trained for; any variant of
that size can use it. ``max_moves`` lists that many moves at most (default: as the
checkpoint was trained).

``policy:fn=MODULE.NAME`` plays the callable ``NAME`` of ``MODULE``
(``(observation, mask) -> action``, ``shengji.env.policy``), imported only when MODULE
is allowed as a plugin (``--allow-plugin MODULE``).
"""

from __future__ import annotations

import os
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..errors import ShengjiError
from .base import Bot, Option, int_range, register

if TYPE_CHECKING:
    from ..engine import Action, Legal, SeatView
    from ..env.qnet import QNet
    from ..variants import Variant

#: the model when none is named: the shipped checkpoint trained for the variant (by
#: name and table size), else one trained for its table size, else this one
DEFAULT_MODEL = "two-deck-80"
#: max_moves accepted in a bot spec
MOVES_RANGE = (2, 4096)


def _shipped() -> list[str]:
    data = resources.files(__package__) / "data"
    try:
        return sorted(p.name[:-4] for p in data.iterdir() if p.name.endswith(".npz"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _is_path(text: str) -> bool:
    return "/" in text or os.sep in text or text.endswith(".npz")


def _model(text: str) -> str:
    if _is_path(text):
        return text
    names = _shipped()
    if text not in names:
        raise ValueError(f"no shipped model {text!r} (shipped: {', '.join(names) or 'none'}; "
                         "or a checkpoint's path, e.g. ./mine.npz)")
    return text


_max_moves = int_range(*MOVES_RANGE, what="moves listed at most")


def _actions(text: str) -> str:
    if text not in ("moves", "cards"):
        raise ValueError("choose moves or cards")
    return text


def _need_numpy(name: str) -> None:
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise ShengjiError(f"bot {name!r} needs numpy: pip install 'shengji[rl]'") from None


#: loaded networks: a shipped name, or (a file's absolute path, its modification time)
_NETS: dict[object, QNet] = {}


def load_model(model: str) -> QNet:
    """The network of ``learned:model=...``: a shipped name or a checkpoint's path
    (``CheckpointError``, one line, when the file is not one)."""
    from ..env.qnet import QNet

    key: object = model
    if _is_path(model):
        path = os.path.abspath(model)
        try:
            key = (path, os.stat(path).st_mtime_ns)
        except OSError:
            key = (path, None)
    net = _NETS.get(key)
    if net is None:
        if _is_path(model):
            net = QNet.load(model)
        else:
            ref = resources.files(__package__) / "data" / f"{model}.npz"
            with resources.as_file(ref) as shipped:
                net = QNet.load(shipped)
        _NETS[key] = net
    return net


def default_model(variant: Variant) -> str:
    """The shipped checkpoint for ``variant``: trained on it at its table size, else on
    another variant of that size, else ``DEFAULT_MODEL``."""
    names = _shipped()
    metas = {n: load_model(n).meta for n in names}
    for same_name in (True, False):
        for n in names:
            m = metas[n]
            if m["players"] == variant.players and (not same_name or
                                                    m.get("variant") == variant.name):
                return n
    return DEFAULT_MODEL


@register
class LearnedBot(Bot):
    name = "learned"
    options = {"model": Option(_model, "", "a shipped checkpoint by name (default: the one "
                                           "trained for this variant or table size), or a "
                                           "checkpoint file's path"),
               "max_moves": Option(_max_moves, 0, "moves listed at most (default: as the "
                                                  "checkpoint was trained)")}

    def __init__(self, variant: Variant, seed: int | str = 0, **options: Any) -> None:
        super().__init__(variant, seed, **options)
        _need_numpy(self.name)
        from ..env.policy import PolicyBot

        model = self.config["model"] or default_model(variant)
        net = load_model(model)
        meta = net.meta
        if meta["players"] != variant.players:
            raise ShengjiError(f"bot 'learned:model={model}': trained for {meta['players']} "
                               f"seats; this table has {variant.players}")
        self.net = net
        self._inner = PolicyBot(variant, seed, policy=lambda obs, mask: net.best(obs),
                                max_moves=self.config["max_moves"] or meta["max_moves"],
                                history=meta["history"], label=self.name)
        if self._inner.layout.size != meta["obs_size"]:
            raise ShengjiError(f"bot 'learned:model={model}': trained on observations of "
                               f"{meta['obs_size']} floats; this variant's are "
                               f"{self._inner.layout.size}")

    def act(self, view: SeatView, legal: Legal) -> Action:
        return self._inner.act(view, legal)


@register
class PolicySpecBot(Bot):
    name = "policy"
    options = {"fn": Option(str, "", "the policy MODULE.NAME: a callable (observation, mask)"
                                     " -> action; MODULE must be allowed (--allow-plugin)"),
               "actions": Option(_actions, "moves", "moves (whole moves) or cards"),
               "max_moves": Option(_max_moves, 256, "whole moves listed at most")}

    def __init__(self, variant: Variant, seed: int | str = 0, **options: Any) -> None:
        super().__init__(variant, seed, **options)
        if not self.config["fn"]:
            raise ShengjiError("bot 'policy' needs fn=MODULE.NAME (a callable "
                               "(observation, mask) -> action)")
        _need_numpy(self.name)
        from ..env.policy import PolicyBot, load_callable

        self._inner = PolicyBot(variant, seed, policy=load_callable(self.config["fn"]),
                                actions=self.config["actions"],
                                max_moves=self.config["max_moves"], label=self.name)

    def act(self, view: SeatView, legal: Legal) -> Action:
        return self._inner.act(view, legal)
