"""Where independent units of work run: this process, local processes, or a Ray cluster.

A *mapper* is a callable ``mapper(fn, tasks)`` that yields ``fn(task)`` for every task,
**in task order**, wherever it computes them; ``mapper.workers`` says how many run at
once and ``mapper.backend`` names it. ``shengji simulate`` (and anything else that cuts
its work into seeded units: results depend on the unit, never on where it ran) takes
one, so the same seed gives the same results on every backend.

    local_mapper(jobs)            # multiprocessing (fork), or this process for jobs=1
    ray_mapper(address, cpus)     # Ray: a cluster at ``address``, or a local Ray

Ray ships each task as ``(fn, [unit tasks])`` batches (docs/scaling.md): the function is
a module-level function imported on the worker (shengji must be installed there), the
unit tasks are small tuples (variant name, players, seed, unit index), and the results
are the units' summaries, reduced by the caller as they arrive.
"""

from __future__ import annotations

import os
import socket

from .errors import ShengjiError

#: batches per Ray worker: enough for load balancing at the tail, few enough that the
#: per-task overhead stays small next to the work
BATCHES_PER_WORKER = 8
MAX_UNITS_PER_BATCH = 16
#: seconds to wait for a Ray head to answer before giving up with a clear error
CONNECT_TIMEOUT = 5.0


class _Serial:
    backend, workers = "local", 1

    def __call__(self, fn, tasks):
        return map(fn, tasks)


class _Processes:
    backend = "local"

    def __init__(self, jobs: int):
        self.workers = jobs

    def __call__(self, fn, tasks):
        import multiprocessing as mp

        with mp.get_context("fork").Pool(self.workers) as pool:
            yield from pool.imap(fn, tasks, chunksize=1)


def local_mapper(jobs: int = 1):
    """``jobs`` worker processes on this machine (1: this process)."""
    if jobs < 1:
        raise ShengjiError(f"--jobs {jobs}: needs at least 1 process")
    return _Serial() if jobs == 1 else _Processes(jobs)


def _run_batch(fn, batch):
    return [fn(t) for t in batch]


class RayMapper:
    """Tasks on Ray, in batches, results yielded in task order."""

    backend = "ray"

    def __init__(self, ray, address: str | None, workers: int, batch: int | None = None,
                 started: bool = False):
        self.ray = ray
        self.address = address
        self.workers = workers
        self.batch = batch
        self.started = started  # this mapper started Ray (and shuts it down on close)
        self._remote = ray.remote(_run_batch)

    def __call__(self, fn, tasks):
        ray = self.ray
        tasks = list(tasks)
        size = self.batch or max(1, min(MAX_UNITS_PER_BATCH,
                                        len(tasks) // (self.workers * BATCHES_PER_WORKER)))
        batches = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        # fn travels by reference (module and name): the worker imports it
        # keep a bounded number in flight: a big run never floods the scheduler
        window = max(2 * self.workers, 4)
        refs = [self._remote.remote(fn, b) for b in batches[:window]]
        nxt = len(refs)
        for i in range(len(batches)):
            yield from ray.get(refs[i])
            refs[i] = None  # drop the result from the object store
            if nxt < len(batches):
                refs.append(self._remote.remote(fn, batches[nxt]))
                nxt += 1

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def import_ray():
    try:
        import ray
    except ImportError:
        raise ShengjiError("--ray needs Ray, which is not installed: "
                           "pip install 'shengji[ray]'") from None
    return ray


def _check_address(address: str) -> None:
    """Fail fast, in one line, when nothing answers at ``host:port`` (ray.init would
    otherwise retry for a long time)."""
    if address in ("auto", "local"):
        return
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise ShengjiError(f"--ray {address}: not an address (expected HOST:PORT, "
                           "ray://HOST:PORT or auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT):
            pass
    except OSError as e:
        raise ShengjiError(f"--ray {address}: no Ray cluster answers there "
                           f"({e.strerror or e}); start one with `ray start --head` "
                           "or check the address") from None


def init_ray(address: str | None = None, cpus: int | None = None):
    """Ray, joined to the cluster at ``address`` (``HOST:PORT`` of a head started with
    ``ray start --head``, ``ray://HOST:PORT`` for Ray Client, or ``auto`` for the
    cluster this machine belongs to), else a local Ray with ``cpus`` CPUs (default: all
    of this machine's); an already initialised Ray as it is. Returns ``(ray, started)``:
    whether this call started it (its caller shuts it down). Errors are one line."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        import logging

        opts = dict(include_dashboard=False, logging_level=logging.WARNING,
                    log_to_driver=False, configure_logging=True)
        if address:
            _check_address(address)
            try:
                ray.init(address=address, **opts)
            except Exception as e:  # noqa: BLE001 - Ray raises many kinds here
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                hint = ""
                if os.environ.get("RAY_AUTH_MODE") != "token":
                    # clusters started by `ray start` (Ray >= 2.59) want their token
                    hint = ("; if the cluster uses token authentication, set "
                            "RAY_AUTH_MODE=token with its token in ~/.ray/auth_token or "
                            "RAY_AUTH_TOKEN")
                raise ShengjiError(f"--ray {address}: cannot join the Ray cluster "
                                   f"({first}){hint}") from None
        else:
            ray.init(num_cpus=cpus or os.cpu_count() or 1, **opts)
        started = True
    return ray, started


def ray_mapper(address: str | None = None, cpus: int | None = None,
               batch: int | None = None) -> RayMapper:
    """A mapper on Ray (``init_ray``: the cluster at ``address``, else a local Ray with
    ``cpus`` CPUs). An already initialised Ray is used as it is."""
    ray, started = init_ray(address, cpus)
    workers = int(ray.cluster_resources().get("CPU", 1))
    return RayMapper(ray, address, workers, batch=batch, started=started)


def mapper_for(ray: str | None, jobs: int | None):
    """The mapper a command's ``--ray [ADDRESS]`` and ``--jobs N`` ask for: local
    processes, or Ray (a cluster at the address; a local Ray of ``jobs`` CPUs)."""
    if ray is None:
        return local_mapper(jobs or 1)
    if ray and jobs is not None:
        raise ShengjiError(f"--jobs {jobs} with --ray {ray}: the cluster's CPUs are used; "
                           "--jobs sets the CPUs of a local Ray only")
    return ray_mapper(ray or None, cpus=jobs)


def add_arguments(parser, what: str) -> None:
    """``--jobs``, ``--ray [ADDRESS]`` and ``--plot FILE.png`` of simulate and arena."""
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes (default 1); with --ray and no address, the "
                             "CPUs of the local Ray (default: all)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="run on Ray: the cluster at ADDRESS (HOST:PORT of `ray start "
                             "--head`, ray://HOST:PORT, or auto), or a local Ray when no "
                             "address is given (the ray extra; docs/scaling.md)")
    parser.add_argument("--plot", metavar="FILE.png",
                        help=f"draw {what} into FILE.png (the plot extra: matplotlib)")
