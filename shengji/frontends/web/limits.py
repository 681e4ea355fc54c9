"""Abuse limits of the web server: how much one connection, one seat and one address may
ask of it. Every number is a field of ``Limits`` (``create_app(limits=Limits(...))``);
the defaults let people play and keep one client from starving the others.

Addresses are the peer address of the TCP connection. Behind a reverse proxy every
client has the proxy's address: run uvicorn with ``--proxy-headers`` there (see
docs/serving.md), or raise the per-address numbers.
"""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass


def address_key(address: str) -> str:
    """What the per-address limits count: the IPv4 address, or the /64 network of an
    IPv6 one (one subscriber usually holds a whole /64, so counting single IPv6 addresses
    would give one attacker 2**64 of them). Anything else (a Unix socket, "?") as is."""
    if ":" not in address:  # IPv4 as the socket gives it (or not an address at all)
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return address


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
    #: chat lines of one room, whoever says them: a second, and in one burst
    chat_rate: float = 5.0
    chat_burst: int = 20
    #: a websocket's outgoing queue (outbox.py): messages and characters waiting, and
    #: seconds one send may wait for the client to read; past any of them the client is
    #: cut off (a player's seat waits for their token)
    send_queue: int = 256
    send_queue_chars: int = 1 << 20
    send_timeout: float = 10.0
    #: bytes a websocket's socket buffers (the kernel's send buffer, asyncio's write
    #: buffer) hold for a client that does not read (conns.py); None: the system's sizes
    send_buffer: int | None = 256 * 1024
    #: rooms kept at once (finished or idle rooms are dropped first when full)
    max_rooms: int = 2000
    #: unfinished rooms one address may hold, and how fast it may create them
    rooms_per_address: int = 10
    room_rate: float = 1 / 3
    room_burst: int = 20
    #: seconds a room nobody has joined is kept once the room cap is reached
    unjoined_seconds: float = 120.0
    #: seconds a room whose connected people all stay silent is kept in memory (reclaim.py)
    idle_room_seconds: float = 1800.0
    #: the share of max_rooms kept for addresses holding fewer than rooms_when_crowded
    #: rooms (admission.py: joined rooms never make way, so a flood of them could fill
    #: the table)
    rooms_reserved_share: float = 0.25
    rooms_when_crowded: int = 2
    #: lookups by room code that find nothing (a join, a spectator, GET .../replay) and
    #: joins with a wrong token, per address: a burst, then this rate
    failed_join_rate: float = 0.2
    failed_join_burst: int = 20
    #: public replays built per address (a replay already built is free)
    replay_rate: float = 1.0
    replay_burst: int = 20
    #: addresses whose buckets are remembered (the oldest are forgotten first)
    addresses_tracked: int = 100_000
    #: raw TCP connections (below HTTP and websockets; conns.py): seconds to send a
    #: request's headers (from the connection or the last response), then its body;
    #: bytes of headers; seconds an idle keep-alive connection is kept (uvicorn's own)
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    max_header_bytes: int = 65536
    keep_alive: float = 5.0
    #: raw TCP connections at once, per address and in all (sized to the open-files
    #: limit by fit_to_descriptors)
    sockets_per_address: int = 256
    max_sockets: int = 8_000
    #: the share of max_sockets (and of max_connections, the websockets) kept for
    #: addresses holding fewer than sockets_when_crowded (a browser opens about six):
    #: forty addresses at their caps would otherwise fill the total
    sockets_reserved_share: float = 0.125
    sockets_when_crowded: int = 16


def kept_for_others(taken: int, cap: int, held: int, share: float, crowded: int) -> bool:
    """True when an address holding ``held`` of a cap of ``cap`` (``taken`` in all) may
    not take another: the last ``share`` of the cap is kept for addresses holding fewer
    than ``crowded``, so that the biggest holders cannot leave a newcomer nothing."""
    return held >= crowded and cap - taken <= int(cap * share)


class Bucket:
    """A token bucket: ``take()`` is True while the average rate and the burst allow."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
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

    def in_credit(self, now: float | None = None) -> bool:
        """True while anything is left (a bucket of costs: see ``spend``)."""
        self._refill(now)
        return self.tokens > 0

    def spend(self, amount: float, now: float | None = None) -> None:
        """Take what something cost, once it is known: the bucket may go into debt (down
        to minus its burst), and refills from there."""
        self._refill(now)
        self.tokens = max(-float(self.burst), self.tokens - amount)


class PerAddress:
    """Buckets and counters kept per client address, bounded in number."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.conns: dict[str, int] = {}
        self._buckets: dict[tuple[str, str], Bucket] = {}

    def bucket(self, kind: str, address: str) -> Bucket:
        key = (kind, address_key(address))
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

    def connect(self, address: str, total: int = 0) -> bool:
        """Count a websocket of ``address`` (``total``: the websockets open now); False
        over the per-address cap, or in the share of the total kept for others."""
        address = address_key(address)
        n = self.conns.get(address, 0)
        lim = self.limits
        if n >= lim.conns_per_address or kept_for_others(
                total, lim.max_connections, n, lim.sockets_reserved_share,
                lim.sockets_when_crowded):
            return False
        self.conns[address] = n + 1
        return True

    def disconnect(self, address: str) -> None:
        address = address_key(address)
        n = self.conns.get(address, 0) - 1
        if n > 0:
            self.conns[address] = n
        else:
            self.conns.pop(address, None)


#: descriptors kept free for the database, log files and listening sockets
SPARE_DESCRIPTORS = 64


def fit_to_descriptors(limits: Limits) -> tuple[Limits, str | None]:
    """``limits`` with the socket caps well inside what this process may open.

    Every TCP connection holds a file descriptor; past the process's limit (often 1024)
    ``accept`` fails with "too many open files" and everyone's request is reset. The soft
    limit is raised to the hard one (or to what the caps need, if the hard one is
    unlimited), then ``max_sockets`` is kept to half of it, less SPARE_DESCRIPTORS (the
    other half is slack: a socket being accepted and closed, the database, the logs),
    and the websocket and per-address caps within that. The returned note says what was
    lowered (None when nothing was)."""
    try:
        import resource
    except ImportError:  # not on this platform: nothing to check
        return limits, None
    want = 2 * limits.max_sockets + SPARE_DESCRIPTORS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        target = want if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= want:
        return limits, None
    sockets = max(2, (soft - SPARE_DESCRIPTORS) // 2)
    from dataclasses import replace

    fitted = replace(limits, max_sockets=sockets,
                     max_connections=min(limits.max_connections, sockets),
                     sockets_per_address=min(limits.sockets_per_address, sockets))
    return fitted, (f"connections capped at {sockets} (half the open-files limit of {soft}; "
                    f"raise it with ulimit -n for more)")
