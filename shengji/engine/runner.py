"""Drive a game with one bot per seat (bots see only their view and the legal actions).

A bot gets a ``LazyView`` (the view built on first use), or the ``SeatView`` itself when
its class says ``reads_view = True`` (it reads the view at every decision, so the proxy
would only add its own cost: about a tenth of a heuristic deal)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from . import drive
from .errors import IllegalAction

if TYPE_CHECKING:
    from .actions import Action
    from .events import Event
    from .game import Game
    from .legal import Legal
    from .view import SeatView


class Actor(Protocol):
    """What ``play`` drives: a ``shengji.bots.Bot``, or anything with its ``act``."""

    def act(self, view: SeatView, legal: Legal) -> Action: ...


class LazyView:
    """The seat's ``SeatView``, built on first use. Many decisions (a random bot's plays)
    never read the view, and building one is a good part of a decision's cost. It is
    built from the state at the moment of first use, so a bot must read it inside
    ``act`` (as it naturally does), not keep the proxy for later. On first use the
    view's fields are copied onto the proxy, so later reads cost what a plain
    attribute read costs."""

    def __init__(self, game: Game, seat: int) -> None:
        self._game, self._seat = game, seat

    # what a random bot reads, answered without building the view (tests hold these to
    # SeatView's fields): the seat, the cards still to deal, the hand
    @property
    def seat(self) -> int:
        return self._seat

    @property
    def to_deal(self) -> int:
        g = self._game
        return g._n_deal - g._dealt if g.phase == "deal" else 0

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._game.hands[self._seat])

    def __getattr__(self, name: str) -> Any:
        # only reached for names not copied yet: the first read, or a method/property
        view = self.__dict__.get("_view")
        if view is None:
            view = self._game.view(self._seat)
            d = self.__dict__
            d["_view"] = view
            for f in _VIEW_FIELDS:
                d[f] = getattr(view, f)
        value = getattr(view, name)
        if callable(value):  # a method (same_side): bound once, then read as a field
            self.__dict__[name] = value
        return value


def _view_fields() -> tuple[str, ...]:
    from dataclasses import fields

    from .view import SeatView
    return tuple(f.name for f in fields(SeatView))


_VIEW_FIELDS = _view_fields()


def _by_index(bot: Actor, name: str) -> Callable[..., int] | None:
    """``bot.<name>`` (``play_index`` or ``declare_index``) when the class that defines
    the bot's ``act`` defines it too (see ``Bot.play_index``), else None: the bot is
    asked through ``act``."""
    for cls in type(bot).__mro__:
        if "act" in cls.__dict__:
            picker: Callable[..., int] | None = (getattr(bot, name)
                                                 if cls.__dict__.get(name) is not None else None)
            return picker
    return None


def play(game: Game, bots: Sequence[Actor], *, stop_after_deals: int | None = None,
         check: Callable[[Game, Action, list[Event]], object] | None = None) -> None:
    """Let ``bots[seat]`` act whenever ``seat`` is to act until the match is over (or
    ``stop_after_deals`` more deals have been scored). ``check(game, action, events)`` is
    called after every action (invariant tests hook in here)."""
    target = None if stop_after_deals is None else game.deals_played + stop_after_deals
    pickers = [_by_index(bots[s], "play_index") for s in range(game.players)]
    declarers = [_by_index(bots[s], "declare_index") for s in range(game.players)]
    play_picked, declare_picked = game._play_picked, game._declare_picked
    # index pickers' plays run in the C play driver (engine.drive) when that is exact;
    # a check callback must see every action, so it keeps the per-play path
    driven = check is None and any(p is not None for p in pickers)
    # a bot that reads the view at every decision gets it built at once (the proxy
    # would only add its own cost)
    eager = [bool(getattr(bots[s], "reads_view", False)) for s in range(game.players)]
    while game.phase != "over" and (target is None or game.deals_played < target):
        seat = game.to_act
        assert seat is not None  # a match not over has a seat to act
        pick = pickers[seat]
        try:
            if pick is not None and game.phase == "play":
                # the bot chooses its plays by index alone: no listing objects, no view
                if driven and drive.usable(game) and drive.drive(game, pickers):
                    continue
                action, events = play_picked(seat, pick)
            elif declarers[seat] is not None and game._declaring_listed():
                # likewise a declaration: no listing, no view
                action, events = declare_picked(seat, declarers[seat])
            else:
                legal = game.legal_actions(seat)
                view = game.view(seat) if eager[seat] else LazyView(game, seat)
                # (a LazyView reads as the SeatView it builds)
                action = bots[seat].act(view, legal)  # type: ignore[arg-type]
                events = game.apply(action)
        except IllegalAction as e:
            raise IllegalAction(f"bot {type(bots[seat]).__name__} at seat {seat}: {e}",
                                e.reason, e.rule) from e
        if check is not None:
            check(game, action, events)
