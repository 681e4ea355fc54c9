"""Abuse limits of the web server: how much one connection, one seat and one address may
ask of it. Every number is a field of ``Limits`` (``create_app(limits=Limits(...))``);
the defaults let people play and keep one client from starving the others.

Addresses are the peer address of the TCP connection. Behind a reverse proxy every
client has the proxy's address: run uvicorn with ``--proxy-headers`` there (see
docs/serving.md), or raise the per-address numbers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: messages one websocket may send per second on average, and in one burst
    msg_rate: float = 20.0
    msg_burst: int = 60
    #: refused messages over the rate before the connection is closed
    msg_dropped_close: int = 200
    #: seconds a websocket may stay open without joining a room (as a player or to watch)
    join_timeout: float = 15.0
    #: websockets at once: per seat (a phone and a laptop, reloads), per address, in all
    conns_per_seat: int = 4
    conns_per_address: int = 64
    max_connections: int = 4000
    #: spectators of one room
    watchers_per_room: int = 50
    #: rooms kept at once (finished or idle rooms are dropped first when full)
    max_rooms: int = 2000
    #: unfinished rooms one address may hold, and how fast it may create them
    rooms_per_address: int = 10
    room_rate: float = 1 / 3
    room_burst: int = 20
    #: joins that fail (no such room, wrong token) per address: a burst, then this rate
    failed_join_rate: float = 0.2
    failed_join_burst: int = 20
    #: public replays built per address (a replay already built is free)
    replay_rate: float = 1.0
    replay_burst: int = 20
    #: addresses whose buckets are remembered (the oldest are forgotten first)
    addresses_tracked: int = 100_000


class Bucket:
    """A token bucket: ``take()`` is True while the average rate and the burst allow."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: int, clock=time.monotonic):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = clock()

    def _refill(self, now: float | None) -> None:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def empty(self, now: float | None = None) -> bool:
        """True when ``take`` would refuse (nothing is taken)."""
        self._refill(now)
        return self.tokens < 1

    def take(self, now: float | None = None) -> bool:
        self._refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class PerAddress:
    """Buckets and counters kept per client address, bounded in number."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.conns: dict[str, int] = {}
        self._buckets: dict[tuple[str, str], Bucket] = {}

    def bucket(self, kind: str, address: str) -> Bucket:
        key = (kind, address)
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= self.limits.addresses_tracked:
                # forget the oldest (dicts keep insertion order); a full bucket again
                self._buckets.pop(next(iter(self._buckets)))
            lim = self.limits
            rate, burst = {"room": (lim.room_rate, lim.room_burst),
                           "join": (lim.failed_join_rate, lim.failed_join_burst),
                           "replay": (lim.replay_rate, lim.replay_burst)}[kind]
            b = self._buckets[key] = Bucket(rate, burst)
        return b

    def connect(self, address: str) -> bool:
        n = self.conns.get(address, 0)
        if n >= self.limits.conns_per_address:
            return False
        self.conns[address] = n + 1
        return True

    def disconnect(self, address: str) -> None:
        n = self.conns.get(address, 0) - 1
        if n > 0:
            self.conns[address] = n
        else:
            self.conns.pop(address, None)


#: descriptors kept free for the database, log files and listening sockets
SPARE_DESCRIPTORS = 64


def fit_to_descriptors(limits: Limits) -> tuple[Limits, str | None]:
    """``limits`` with ``max_connections`` within what this process may open.

    Each websocket holds a file descriptor; past the process's limit (often 1024) new
    connections fail with "too many open files" for everyone. The soft limit is raised
    toward the hard one when that is allowed; if the connections still do not fit, the
    cap is lowered and the returned note says so (None when nothing changed)."""
    try:
        import resource
    except ImportError:  # not on this platform: nothing to check
        return limits, None
    want = limits.max_connections + SPARE_DESCRIPTORS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return limits, None
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    except (ValueError, OSError):
        pass
    if soft >= want:
        return limits, None
    fitted = max(1, soft - SPARE_DESCRIPTORS)
    from dataclasses import replace

    return replace(limits, max_connections=fitted), (
        f"connections capped at {fitted} (the open-files limit is {soft}; "
        f"raise it with ulimit -n for more)")
