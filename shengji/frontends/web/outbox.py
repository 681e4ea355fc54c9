"""A connection's outgoing messages: a bounded queue drained by the connection's own task,
so that telling a room something never waits for one client.

A socket whose reader has stopped reading (a silent client, a phone gone to sleep) takes
data until the kernel's buffer and the transport's are full; after that a send waits for
ever. A room that awaited each connection's send in turn froze with it. Here a send only
appends to the connection's queue; one task per connection hands the messages to the
socket, each within ``send_timeout`` seconds. A queue past ``send_queue`` messages or
``send_queue_chars`` characters, or a send past its time, fails the connection:
``on_fail(reason)`` is called once (the web app aborts the socket, and the player's
seat waits for them to come back with its token) and later messages are dropped.
"""

from __future__ import annotations

import asyncio
from collections import deque


class Outbox:
    def __init__(self, send, close=None, *, max_messages: int, max_chars: int,
                 timeout: float, on_fail=None):
        self._send = send            # async send(text)
        self._close = close          # async close(code, reason), or None
        self.max_messages, self.max_chars, self.timeout = max_messages, max_chars, timeout
        self.on_fail = on_fail       # on_fail(reason), called once
        self._queue: deque[str] = deque()
        self._chars = 0
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()  # nothing queued, nothing being sent
        self._idle.set()
        self._task: asyncio.Task | None = None
        self._closing: tuple[int, str] | None = None
        self.failed: str | None = None

    def __len__(self) -> int:
        return len(self._queue)

    def put(self, text: str) -> None:
        """Queue one message (never waits). Over the bounds, the connection fails."""
        if self.failed is not None or self._closing is not None:
            return
        size = len(text)
        # one message larger than the bound still goes out alone
        if self._queue and (len(self._queue) >= self.max_messages
                            or self._chars + size > self.max_chars):
            self.fail(f"too slow: {len(self._queue)} messages waiting to be sent")
            return
        self._queue.append(text)
        self._chars += size
        self._wake_up()

    def close(self, code: int, reason: str) -> None:
        """Close the socket once what is queued is sent (never waits)."""
        if self.failed is None and self._closing is None:
            self._closing = (code, reason)
            self._wake_up()

    async def flush(self) -> None:
        """Wait until everything queued is sent (or the connection failed)."""
        if self._task is not None:
            await self._idle.wait()

    def fail(self, reason: str) -> None:
        if self.failed is not None:
            return
        self.failed = reason
        self._queue.clear()
        self._chars = 0
        self._idle.set()
        task = self._task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if self.on_fail is not None:
            self.on_fail(reason)

    def stop(self) -> None:
        """The connection is gone: the task ends, nothing more is sent (or kept)."""
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self.failed = self.failed or "closed"
        self._queue.clear()
        self._idle.set()

    def _wake_up(self) -> None:
        self._idle.clear()
        self._wake.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        queue = self._queue
        while True:
            if not queue:
                if self._closing is not None:
                    break
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            if not await self._timed(self._send(queue[0]), "a send"):
                return
            if queue:  # (fail() may have emptied it meanwhile)
                self._chars -= len(queue.popleft())
        if self._close is not None and not await self._timed(self._close(*self._closing),
                                                             "the close frame"):
            return
        self._idle.set()

    async def _timed(self, call, what: str) -> bool:
        """Await ``call`` within the timeout; False when the connection failed. (A timer
        that cancels this task, not wait_for, which on Python 3.10-3.11 may swallow a
        cancellation that meets a result.)"""
        handle = asyncio.get_running_loop().call_later(
            self.timeout, self.fail, f"too slow: {what} waited over {self.timeout:g} s")
        try:
            await call
        except Exception:  # noqa: BLE001  # the socket is gone (its reader notices too)
            self.fail("closed")
            return False
        finally:
            handle.cancel()
        return True
