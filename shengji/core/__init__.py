"""Python face of the C rules core (docs/semantics.md §10).

This package is the only importer of the compiled ``ffi, lib`` (``shengji.core.clib``).
Its modules, along the seams of the work:

- ``hands``     — ``Hand`` (54 counts in a ``bytes`` the C functions read in place) and
                  the parsing of cards, ids and counts into it;
- ``results``   — what judgements return: ``FollowResult``/``FollowReason``,
                  ``Decomposition`` of ``Component``, ``HandList``, ``LegalFollows``,
                  ``ThrowResult``;
- ``crules``    — the C rules struct built from ``PlayRules`` (policies by name);
- ``context``   — ``Context``: one deal's rules, and every judgement of plays under
                  them, its errors turned into ``CardError`` / ``HandError`` /
                  ``RulesError`` naming the card and the rule;
- ``positions`` — play-phase positions for the C playouts (``shengji.playout``), and
                  ``shuffled``, the engine's deal shuffle in C.

Everything public stays importable from here (``from shengji.core import Context``).
"""

from .clib import ffi, lib
from .context import Context
from .hands import (
    _IDS_DESC,
    _IDS_DISPLAY,
    _IDS_DISPLAY_OLD,
    _IDS_OLD,
    IDS_DESC_SIZE,
    Hand,
    _hand,
    as_hand,
)
from .positions import _position_eval, _position_playout, _position_playouts, shuffled
from .results import (
    Component,
    Decomposition,
    FollowReason,
    FollowResult,
    HandList,
    LegalFollows,
    ThrowResult,
)

__all__ = [
    "Context",
    "Hand",
    "Component",
    "Decomposition",
    "FollowResult",
    "FollowReason",
    "LegalFollows",
    "HandList",
    "ThrowResult",
    "as_hand",
    "shuffled",
    "ffi",
    "lib",
    # (private names other modules of shengji use, kept where they were)
    "_hand", "_position_eval", "_position_playout", "_position_playouts",
    "_IDS_DESC", "_IDS_OLD", "_IDS_DISPLAY", "_IDS_DISPLAY_OLD", "IDS_DESC_SIZE",
]
