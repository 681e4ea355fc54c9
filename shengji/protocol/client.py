"""The bot adapter: any ``shengji.bots`` bot plays through the protocol.

``ProtocolBot(bot, seat).act(state_message) -> action object``: it rebuilds the SeatView
and the legal actions from the JSON message (nothing else), asks the bot, and encodes
its answer; ``advise(state_message) -> (action object, reason)`` asks for advice
(hints). The same adapter serves a bot inside the server and a bot client on the other
end of a websocket (benchmarks/load_server.py).
"""

from __future__ import annotations

from .messages import ProtocolError, decode_legal, decode_view, encode_action


class ProtocolBot:
    def __init__(self, bot, seat: int):
        self.bot = bot
        self.seat = seat

    def act(self, state: dict) -> dict:
        view, legal = self._decode(state)
        return encode_action(self.bot.act(view, legal))

    def advise(self, state: dict) -> tuple[dict, str]:
        """(action object, reason): what the bot would do in this state, and why."""
        view, legal = self._decode(state)
        action, reason = self.bot.advise(view, legal)
        return encode_action(action), reason

    def _decode(self, state: dict):
        if state.get("seat") != self.seat or state.get("legal") is None:
            raise ProtocolError("not_your_turn", f"bot at seat {self.seat} was asked to act "
                                                 "without a turn")
        return decode_view(state["view"]), decode_legal(state["legal"], self.seat)
