"""``learned``: a policy trained in the environments, and ``policy``: any policy callable.

``learned`` plays the checkpoint shipped with shengji (``shengji/bots/data/*.npz``, made
by the DMC trainer ``shengji.env.dmc``; docs/rl.md): a Q(s, a) network scores the
seat's legal whole moves (``shengji.env.moves``) and the bot takes the best, NumPy
alone (the ``rl`` extra). ``learned:model=NAME`` picks a shipped checkpoint by name;
only shipped names are accepted (a bot spec may come from a web client, so it never
names a file). The checkpoint fixes the table size it was trained for; any variant of
that size can use it.

``policy:fn=MODULE.NAME`` plays the callable ``NAME`` of ``MODULE``
(``(observation, mask) -> action``, ``shengji.env.policy``), imported only when MODULE
is allowed as a plugin (``--allow-plugin MODULE``).
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Any

from ..errors import ShengjiError
from .base import Bot, Option, register

if TYPE_CHECKING:
    from ..engine import Action, Legal, SeatView
    from ..env.qnet import QNet
    from ..variants import Variant

DEFAULT_MODEL = "two-deck-80"


def _shipped() -> list[str]:
    data = resources.files(__package__) / "data"
    try:
        return sorted(p.name[:-4] for p in data.iterdir() if p.name.endswith(".npz"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _model(text: str) -> str:
    names = _shipped()
    if text not in names:
        raise ValueError(f"no shipped model {text!r} (shipped: {', '.join(names) or 'none'})")
    return text


def _actions(text: str) -> str:
    if text not in ("moves", "cards"):
        raise ValueError("choose moves or cards")
    return text


def _need_numpy(name: str) -> None:
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise ShengjiError(f"bot {name!r} needs numpy: pip install 'shengji[rl]'") from None


_NETS: dict[str, QNet] = {}


@register
class LearnedBot(Bot):
    name = "learned"
    options = {"model": Option(_model, DEFAULT_MODEL, "a shipped checkpoint by name")}

    def __init__(self, variant: Variant, seed: int | str = 0, **options: Any) -> None:
        super().__init__(variant, seed, **options)
        _need_numpy(self.name)
        from ..env.policy import PolicyBot
        from ..env.qnet import QNet

        model = self.config["model"]
        net = _NETS.get(model)
        if net is None:
            ref = resources.files(__package__) / "data" / f"{model}.npz"
            with resources.as_file(ref) as path:
                net = _NETS[model] = QNet.load(path)
        meta = net.meta
        if meta["players"] != variant.players:
            raise ShengjiError(f"bot 'learned:model={model}': trained for {meta['players']} "
                               f"seats; this table has {variant.players}")
        self.net = net
        self._inner = PolicyBot(variant, seed, policy=lambda obs, mask: net.best(obs),
                                max_moves=meta["max_moves"], history=meta["history"],
                                label=self.name)

    def act(self, view: SeatView, legal: Legal) -> Action:
        return self._inner.act(view, legal)


@register
class PolicySpecBot(Bot):
    name = "policy"
    options = {"fn": Option(str, "", "the policy MODULE.NAME: a callable (observation, mask)"
                                     " -> action; MODULE must be allowed (--allow-plugin)"),
               "actions": Option(_actions, "moves", "moves (whole moves) or cards")}

    def __init__(self, variant: Variant, seed: int | str = 0, **options: Any) -> None:
        super().__init__(variant, seed, **options)
        if not self.config["fn"]:
            raise ShengjiError("bot 'policy' needs fn=MODULE.NAME (a callable "
                               "(observation, mask) -> action)")
        _need_numpy(self.name)
        from ..env.policy import PolicyBot, load_callable

        self._inner = PolicyBot(variant, seed, policy=load_callable(self.config["fn"]),
                                actions=self.config["actions"], label=self.name)

    def act(self, view: SeatView, legal: Legal) -> Action:
        return self._inner.act(view, legal)
