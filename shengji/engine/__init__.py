"""The game engine: a match state machine with verified actions, frozen events, per-seat
views, JSON round trips and replay from (variant, seed, actions).

    from shengji.engine import Game, Play
    g = Game("two-deck-80", seed=1)
    seat = g.to_act
    legal = g.legal_actions(seat)      # see shengji.engine.legal
    events = g.apply(legal[0])
    view = g.view(seat)                # what that seat may know
"""

from .actions import (
    Action,
    Bury,
    CallFriends,
    ChooseForced,
    Declare,
    Pass,
    Play,
    RequestRedeal,
    TakeBack,
    action_from_dict,
)
from .errors import IllegalAction, IllegalPlayAction
from .events import (
    BidTakenBack,
    Buried,
    CardDealt,
    DealScored,
    DealStarted,
    Declared,
    Event,
    ForcedChosen,
    FriendJoined,
    FriendsCalled,
    KittyTaken,
    MatchOver,
    Passed,
    Played,
    PlayTakenBack,
    RedealAsked,
    Redealt,
    ThrowFailed,
    TrickWon,
    TrumpSet,
    event_from_dict,
)
from .game import BURYING, CALLING, CHOOSING, DEALING, OVER, PLAYING, REDEALING, STEALING, Game
from .legal import Legal
from .runner import play
from .view import SeatView

__all__ = [
    "Action", "Bury", "CallFriends", "ChooseForced", "Declare", "Pass", "Play", "TakeBack",
    "RequestRedeal", "action_from_dict",
    "IllegalAction", "IllegalPlayAction",
    "Event", "DealStarted", "CardDealt", "Declared", "Passed", "Redealt", "TrumpSet",
    "BidTakenBack", "KittyTaken", "Buried", "ThrowFailed", "ForcedChosen", "Played", "TrickWon",
    "FriendsCalled", "FriendJoined", "PlayTakenBack", "RedealAsked",
    "DealScored", "MatchOver", "event_from_dict",
    "Game", "Legal", "SeatView", "play",
    "DEALING", "STEALING", "REDEALING", "BURYING", "CALLING", "PLAYING", "CHOOSING", "OVER",
]
