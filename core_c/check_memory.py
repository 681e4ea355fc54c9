"""Memory checks of the C core: a sanitizer build and a valgrind run.

    python core_c/check_memory.py asan       # ASan + UBSan build, core tests under it
    python core_c/check_memory.py valgrind   # memcheck over the core tests and playouts

Both work on a private copy of the project (in a temporary directory), so the shared
checkout's extension is never replaced by an instrumented one. ``asan`` builds with
``-fsanitize=address,undefined -fno-omit-frame-pointer`` (UBSan made fatal), checks
that it catches a deliberate overflow, and runs the core tests with the ASan runtime
preloaded (CPython itself is not instrumented, so ``detect_leaks=0``), then
``SHENGJI_ASAN_FUZZ`` (100000) random inputs of the fuzz target. ``valgrind`` runs
memcheck (leaks included) over a C-only driver of every entry point and playout
(``valgrind_driver.c``), then over the core tests and playouts in Python
(``PYTHONMALLOC=malloc``, extension built ``-O1 -g``), failing on any error with a frame
in the core. Extra arguments go to pytest.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE_TESTS = [
    "tests/test_core_api.py",
    "tests/test_core_errors.py",
    "tests/test_core_batch.py",
    "tests/test_engine_fast_paths.py",
    "tests/test_engine_drive.py",
    "tests/test_differential.py",
    "tests/test_differential_packs.py",
    "tests/test_oracle.py",
    "tests/test_playout.py",
    "tests/test_fuzz.py::test_random_inputs",
    "tests/test_decomposition_knob.py",
    "tests/test_follow_requirements_knob.py",
    "tests/test_differential_sio_follow.py",
]
#: valgrind is ~50x slower: the two core test files, then playouts of every variant
VALGRIND_TESTS = ["tests/test_core_api.py", "tests/test_core_errors.py"]
PLAYOUT_DRIVER = """
import sys
sys.path.insert(0, "tests")
from test_playout import VARIANTS, to_play_phase
from shengji.playout import Position, playouts
from shengji.variants import load_variant
for name in VARIANTS:
    g = to_play_phase(load_variant(name), 1, 5)
    print(name, playouts(Position.from_game(g), 30, 1).mean_total())
"""
#: a deliberate overflow (a 10-byte buffer passed as 54 counts): the instrumented build
#: must catch it, or the check proves nothing
SELFTEST = """
import shengji._core, sys
from shengji import core
from shengji.core import Context
from shengji.rules import PlayRules
print("extension:", shengji._core.__file__, file=sys.stderr)
ctx = Context(PlayRules(decks=2), "2", "S")
buf = core.ffi.new("uint8_t[]", 10)
core.lib.sj_decompose(ctx._r, buf, 54, core.ffi.new("sj_lead *"), core.ffi.NULL)
"""
#: the core's C sources (as in build_core.py); the valgrind driver links them
CORE_SOURCES = re.findall(r'"core_c/(\w+\.c)"',
                          (Path(__file__).resolve().parent / "build_core.py").read_text("utf-8"))
SANITIZE = "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"


def copy_tree(dst: Path) -> None:
    for name in ("core_c", "shengji", "tests", "fuzz", "variants"):
        shutil.copytree(ROOT / name, dst / name, symlinks=True,
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", ".hypothesis"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dst / name)


def build(dst: Path, cflags: str) -> None:
    env = dict(os.environ, SHENGJI_CFLAGS=cflags)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=dst,
                   env=env, check=True, stdout=subprocess.DEVNULL)


def runtime(name: str) -> str:
    out = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True)
    path = out.stdout.strip()
    if not os.path.isabs(path):
        sys.exit(f"{name} not found: install gcc's sanitizer runtimes")
    return path


def asan(dst: Path, extra: list[str]) -> int:
    build(dst, SANITIZE)
    env = dict(os.environ,
               LD_PRELOAD=runtime("libasan.so"),
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
               SHENGJI_FUZZ_SECONDS="0")
    probe = subprocess.run([sys.executable, "-c", SELFTEST], cwd=dst, env=env,
                           capture_output=True, text=True)
    if probe.returncode == 0 or "AddressSanitizer" not in probe.stderr:
        print(probe.stderr[-2000:])
        print("asan: the instrumented build did not catch a deliberate overflow")
        return 1
    print("asan: self-test caught the deliberate overflow "
          f"({probe.stderr.splitlines()[0].removeprefix('extension: ')})")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CORE_TESTS, *extra]
    rc = subprocess.run(cmd, cwd=dst, env=env).returncode
    if rc:
        return rc
    # the fuzz target's random inputs under the sanitizers too
    n = os.environ.get("SHENGJI_ASAN_FUZZ", "100000")
    return subprocess.run([sys.executable, "fuzz/fuzz_core.py", "--random", n, "--seed", "3"],
                          cwd=dst, env=env).returncode


def core_errors(log: str) -> tuple[int, int]:
    """(errors with a frame in the core, all errors) of a memcheck log: CPython itself
    (a pyenv build, AVX string compares) reports some that are not ours."""
    blocks = re.split(r"==\d+== \n", log)
    errors = [b for b in blocks if re.search(r"==\d+== (Invalid|Conditional|Use of|Syscall|"
                                             r"Mismatched|Source and destination)", b)]
    names = "|".join(re.escape(n) for n in ["_core.abi3.so", *CORE_SOURCES])
    core = rf"\b(?:{names})"
    ours = [b for b in errors if re.search(core, b)]
    return len(ours), len(errors)


def valgrind(dst: Path, extra: list[str]) -> int:
    if not shutil.which("valgrind"):
        sys.exit("valgrind not found")
    # 1. the C driver: nothing but the core in the process, leaks checked too
    exe = dst / "valgrind_driver"
    subprocess.run(["gcc", "-O1", "-g", "-Wall", "-Icore_c", "core_c/valgrind_driver.c",
                    *(f"core_c/{name}" for name in CORE_SOURCES), "-o", str(exe)], cwd=dst,
                   check=True)
    rc = subprocess.run(["valgrind", "--error-exitcode=99", "--leak-check=full",
                         "--errors-for-leak-kinds=all", "--quiet", str(exe)], cwd=dst).returncode
    print(f"valgrind: C driver {'clean' if rc == 0 else f'FAILED (exit {rc})'}")
    if rc:
        return rc
    # 2. the Python core tests and playouts of every variant, extension built -O1 -g
    build(dst, "-O1 -g")
    env = dict(os.environ, PYTHONMALLOC="malloc")
    log = dst / "memcheck.log"
    subprocess.run(["valgrind", f"--log-file={log}", sys.executable, "-c", SELFTEST], cwd=dst,
                   env=env, capture_output=True)
    if core_errors(log.read_text(errors="replace"))[0] == 0:
        print("valgrind: the log filter missed a deliberate overflow in the core")
        return 1
    print("valgrind: self-test: the deliberate overflow is reported")
    total_ours = 0
    for name, cmd in (
        ("core tests", ["-m", "pytest", "-q", "-p", "no:cacheprovider", *VALGRIND_TESTS,
                        *extra]),
        ("playouts", ["-c", PLAYOUT_DRIVER]),
    ):
        log = dst / "memcheck.log"
        rc = subprocess.run(["valgrind", f"--log-file={log}", "--leak-check=no",
                             sys.executable, *cmd], cwd=dst, env=env).returncode
        text = log.read_text(errors="replace")
        ours, every = core_errors(text)
        if ours:
            print(text)
        total_ours += ours
        print(f"valgrind: {name}: exit {rc}, {ours} error(s) in the core "
              f"({every - ours} inside CPython itself, ignored)")
        if rc:
            return rc
    return 1 if total_ours else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("asan", "valgrind"):
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory(prefix=f"shengji-{argv[0]}-") as tmp:
        dst = Path(tmp)
        copy_tree(dst)
        rc = (asan if argv[0] == "asan" else valgrind)(dst, argv[1:])
    print(f"{argv[0]}: {'no errors' if rc == 0 else f'FAILED (exit {rc})'}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
