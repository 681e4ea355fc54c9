"""Drive a game with one bot per seat (bots see only their view and the legal actions)."""

from __future__ import annotations

from .errors import IllegalAction


def play(game, bots, *, stop_after_deals: int | None = None, check=None) -> None:
    """Let ``bots[seat]`` act whenever ``seat`` is to act until the match is over (or
    ``stop_after_deals`` more deals have been scored). ``check(game, action, events)`` is
    called after every action (invariant tests hook in here)."""
    target = None if stop_after_deals is None else game.deals_played + stop_after_deals
    while not game.over and (target is None or game.deals_played < target):
        seat = game.to_act
        legal = game.legal_actions(seat)
        action = bots[seat].act(game.view(seat), legal)
        try:
            events = game.apply(action)
        except IllegalAction as e:
            raise IllegalAction(f"bot {type(bots[seat]).__name__} at seat {seat}: {e}",
                                e.reason, e.rule) from e
        if check is not None:
            check(game, action, events)
