"""One writer per room: the lease a process holds on each room it serves, in the store
itself (both stores keep the same two tables).

- ``processes(owner, host, pid, expires)``: one row per running server process, its
  ``expires`` pushed ``LEASE_SECONDS`` ahead every ``LEASE_SECONDS / 3`` while the
  process's event loop runs.
- ``owners(room, owner)``: the process serving each room. A process takes a room (when
  it creates it, or restores it on first use) only if nobody holds it, it holds it
  itself, or its holder's ``processes`` row has expired. A room held by a live process
  is refused (``room_elsewhere``: the proxy sent the client to the wrong process).
- Every write of a room's actions, seats, settings or chat checks, in the same
  statement, that this process still owns the room (and locks the owner row against a
  takeover until the write commits). A process that lost a room (it stalled past its
  lease and another process took the room over) gets ``LeaseLost`` instead of a second
  version of the game; the ``(room, seq)`` primary key is the last line behind it.

A process that dies (SIGKILL, a crash) leaves its rows behind. Another host waits for
them to expire; a process started on the same host (same host name and boot) ends the
lease of every process of that host whose pid is gone at once, so a restarted server
takes its rooms back without waiting. A process that stops cleanly gives its rooms back.
"""

from __future__ import annotations

import os
import secrets
import socket

from ...errors import ShengjiError

#: seconds a process's lease lasts without being renewed; renewed every third of it
LEASE_SECONDS = 30.0


class RoomElsewhere(ShengjiError):
    """Another live process serves this room (the client was routed to the wrong one)."""

    code = "room_elsewhere"


def new_owner() -> str:
    """This process's name in the lease tables: random, never reused."""
    return secrets.token_hex(8)


def this_host() -> str:
    """The host name and this boot of it: a pid is only meaningful within one boot."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()} {boot}"


def gone(host: str, pid: int) -> bool:
    """True when a process row of ``host`` belongs to a process that is gone (only
    known for this host, and only when its boot can be told apart)."""
    if host != this_host() or host.endswith(" "):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False
