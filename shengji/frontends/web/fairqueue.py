"""Turns at one worker (the rules checker, the preview player) shared fairly between
addresses.

One turn runs at a time. The next turn goes to the waiting address that was served
longest ago (one never served first; ties in order of arrival), so an address that
floods the queue waits behind everyone it has already been served before. An address
may hold ``per_address`` places (running or waiting), more are refused
(``rate_limited``). At most ``capacity`` wait: when the queue is full, a newcomer
served less recently than the most recently served address waiting takes that one's
place (it is refused ``busy``); otherwise the newcomer is refused ``busy``. So twelve
addresses that keep the queue full cannot keep a thirteenth out.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import OrderedDict

from ...protocol import ProtocolError
from .limits import address_key

#: addresses whose last turn is remembered (the oldest are forgotten first)
REMEMBERED = 10_000


class _Place:
    __slots__ = ("address", "order", "granted", "future")

    def __init__(self, address: str, order: int, future: asyncio.Future):
        self.address, self.order, self.future = address, order, future
        self.granted = False


class FairQueue:
    def __init__(self, capacity: int, per_address: int = 1, what: str = "requests"):
        self.capacity, self.per_address, self.what = capacity, per_address, what
        self._waiting: list[_Place] = []
        self._running = False
        self._held: dict[str, int] = {}
        self._served: OrderedDict[str, float] = OrderedDict()
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def full_for(self, address: str) -> bool:
        """Does ``address`` hold all its places (a turn would be refused at once)?"""
        return self._held.get(address_key(address), 0) >= self.per_address

    def _rank(self, place: _Place) -> tuple:
        return self._served.get(place.address, float("-inf")), place.order

    @contextlib.asynccontextmanager
    async def turn(self, address: str):
        """``async with queue.turn(address):`` the body runs when this address's turn
        comes (or ProtocolError ``rate_limited`` / ``busy``)."""
        address = address_key(address)
        held = self._held.get(address, 0)
        if held >= self.per_address:
            raise ProtocolError("rate_limited", f"{held} of your {self.what} are queued or "
                                                "running already; wait for them")
        place = _Place(address, next(self._order), asyncio.get_running_loop().create_future())
        if self._running or self._waiting:
            self._enqueue(place)  # or busy
        else:
            self._grant(place)
        self._held[address] = held + 1
        try:
            if not place.granted:
                await place.future   # granted, or busy (displaced by a newcomer)
            yield
        finally:
            n = self._held.get(address, 1) - 1
            if n:
                self._held[address] = n
            else:
                self._held.pop(address, None)
            if place.granted:
                self._running = False
                self._next()
            elif place in self._waiting:  # cancelled while waiting
                self._waiting.remove(place)

    def _enqueue(self, place: _Place) -> None:
        if len(self._waiting) >= self.capacity:
            worst = max(self._waiting, key=self._rank)
            if self._rank(place) >= self._rank(worst):
                raise ProtocolError("busy", f"{self.what} are queued up; try again in a "
                                            "minute")
            self._waiting.remove(worst)
            worst.future.set_exception(ProtocolError(
                "busy", f"{self.what} are queued up and others had less of them; try "
                        "again in a minute"))
        self._waiting.append(place)

    def _grant(self, place: _Place) -> None:
        self._running = place.granted = True
        self._served[place.address] = time.monotonic()
        self._served.move_to_end(place.address)
        if len(self._served) > REMEMBERED:
            self._served.popitem(last=False)
        if not place.future.done():
            place.future.set_result(None)

    def _next(self) -> None:
        if self._waiting:
            place = min(self._waiting, key=self._rank)
            self._waiting.remove(place)
            self._grant(place)
