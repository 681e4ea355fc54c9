"""Errors raised by the engine when an action breaks a rule.

Both derive from ``shengji.errors.ShengjiError``; an illegal action never changes the
state (actions are verified before anything is applied).
"""

from __future__ import annotations

from ..errors import IllegalPlay, ShengjiError


class IllegalAction(ShengjiError):
    """An action that the rules do not allow now (wrong seat, wrong phase, a refused
    declaration, a burial of the wrong size, ...). ``reason`` is a short code and
    ``rule`` names the rule broken (with its docs/rules.md section)."""

    def __init__(self, message: str, reason: str = "illegal", rule: str = ""):
        super().__init__(message)
        self.reason = reason
        self.rule = rule


class IllegalPlayAction(IllegalAction, IllegalPlay):
    """A play (lead or follow) that breaks a play rule. ``reason`` is the core's follow
    reason (``must_follow_suit``, ``must_follow_shape``, ...) or an engine code
    (``not_in_hand``, ``several_suits``, ``no_throws``)."""

    def __init__(self, message: str, reason: str = "illegal", rule: str = ""):
        IllegalAction.__init__(self, message, reason, rule)
