"""The C-only column: build ``core_only.c`` against ``core_c/`` and time calls in it.

``Jobs`` collects calls (a ``shengji.core.Context`` and 54-count groups per call) under
a job name; ``run(jobs)`` writes them to a job file, compiles the driver (once per
process, in a temporary directory, with the compiler and optimisation flags the
extension is built with) and returns ``{name: {"median_us", "best_us", "n"}}``. The
rules travel as the raw ``sj_rules`` struct the Python side prepared, so the C driver
times exactly the rules the Python calls use (the driver refuses a struct of another
size, i.e. a ``core_c/`` other than the one the installed extension was built from).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import struct
import subprocess
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORE_C = HERE.parent / "core_c"


def _sources() -> list[str]:
    """The core's C files, as the extension's build lists them (core_c/build_core.py)."""
    return re.findall(r'"core_c/(\w+\.c)"', (CORE_C / "build_core.py").read_text("utf-8"))


OPS = {"decompose": 1, "check_follow": 2, "legal_follows": 3, "trick_winner": 4,
       "check_throw": 5, "is_tractor": 6}


class Unavailable(Exception):
    """No C compiler, or no core_c/ next to the benchmarks."""


class Jobs:
    def __init__(self) -> None:
        self._rules: dict = {}  # Context -> index
        self._rules_bytes: list[bytes] = []
        self.jobs: list[tuple] = []

    def _rules_index(self, ctx) -> int:
        i = self._rules.get(ctx)
        if i is None:
            from shengji.core import ffi

            i = self._rules[ctx] = len(self._rules_bytes)
            self._rules_bytes.append(ffi.buffer(ctx._r)[:])
        return i

    def add(self, name: str, op: str, calls, repeat: int = 7, arg: int = 0) -> None:
        """``calls``: (ctx, [54-count group, ...]) per call, groups as the op takes them."""
        packed = []
        for ctx, groups in calls:
            data = b"".join(bytes(g) for g in groups)
            if len(data) != 54 * len(groups):
                raise ValueError(f"{name}: a group is not 54 counts")
            packed.append((self._rules_index(ctx), len(groups), data))
        self.jobs.append((name, OPS[op], repeat, arg, packed))

    def to_bytes(self) -> bytes:
        from shengji.core import ffi

        out = [b"SJB1", struct.pack("=II", ffi.sizeof("sj_rules"), len(self._rules_bytes))]
        out += self._rules_bytes
        out.append(struct.pack("=I", len(self.jobs)))
        for name, op, repeat, arg, packed in self.jobs:
            raw = name.encode()
            out.append(struct.pack("=IIII", op, repeat, arg, len(raw)) + raw)
            out.append(struct.pack("=I", len(packed)))
            for rules, m, data in packed:
                out.append(struct.pack("=II", rules, m) + data)
        return b"".join(out)


_BINARY: dict = {}


def _compiler() -> list[str]:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    argv = shlex.split(cc)
    if not shutil.which(argv[0]):
        raise Unavailable(f"no C compiler ({argv[0]!r} not found)")
    return argv


def build(workdir: Path) -> Path:
    """Compile the driver and the core into ``workdir`` (-O2, like the extension)."""
    sources = _sources() if (CORE_C / "build_core.py").is_file() else []
    if not sources or not all((CORE_C / s).is_file() for s in sources):
        raise Unavailable(f"no core sources at {CORE_C}")
    exe = workdir / "core_only"
    cmd = [*_compiler(), "-O2", "-DNDEBUG", "-fwrapv", "-I", str(CORE_C), "-o", str(exe),
           str(HERE / "core_only.c"), *(str(CORE_C / s) for s in sources)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode:
        raise Unavailable("could not build the C-only driver:\n" + res.stderr.strip())
    return exe


def run(jobs: Jobs) -> dict:
    with tempfile.TemporaryDirectory(prefix="shengji-bench-") as tmp:
        tmp = Path(tmp)
        exe = build(tmp)
        job_file = tmp / "jobs.bin"
        job_file.write_bytes(jobs.to_bytes())
        res = subprocess.run([str(exe), str(job_file)], capture_output=True, text=True)
    if res.returncode:
        raise RuntimeError("C-only driver failed: " + res.stderr.strip())
    out = {}
    for line in res.stdout.splitlines():
        name, n, median, best, _ = line.split()
        out[name] = {"n": int(n), "median_us": float(median) / 1000,
                     "best_us": float(best) / 1000}
    return out
