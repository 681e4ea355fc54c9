"""Build ``shengji/wasm/core.wasm``: the C core for WebAssembly (wasm32-wasi, a reactor).

The same sources as the cffi build (``build_core.py``), plus ``wasm_api.c`` (struct
accessors for JavaScript), compiled with clang and linked with wasi-libc. Only the public
API is exported; the module imports nothing. Beside it, ``core.wasm.sources`` records the
SHA-256 of every source it was built from: ``tests/test_wasm.py`` fails when the sources
changed and the shipped file was not rebuilt.

    python core_c/build_wasm.py            # rebuild (clang, lld, wasi-libc needed)
    python core_c/build_wasm.py --check    # exit 1 when core.wasm is stale

Debian/Ubuntu: ``apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32``
(``.ci/run`` does it). ``CLANG=clang-15`` picks another compiler.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE.parent / "shengji" / "wasm"
WASM = OUT_DIR / "core.wasm"
STAMP = OUT_DIR / "core.wasm.sources"

# the cffi build's sources (read from build_core.py: one list), then the JS accessors
SOURCES = [*re.findall(r'"core_c/(\w+\.c)"', (HERE / "build_core.py").read_text("utf-8")),
           "wasm_api.c"]
HEADERS = ["shengji_core.h", "sj_internal.h", "observe.h", "moves.h", "pyrandom.h"]

EXPORTS = [
    # the public API (shengji_core.h) that a frontend needs
    "sj_prepare", "sj_card", "sj_compare", "sj_decompose", "sj_is_tractor",
    "sj_check_follow", "sj_legal_follows", "sj_check_throw", "sj_trick_winner",
    "sj_kitty_multiplier", "sj_follow_code", "sj_decompose54", "sj_ncomp", "sj_winner_code",
    "sj_check_follows",
    # wasm_api.c
    "sjw_alloc", "sjw_free", "sjw_sizeof", "sjw_rules_set", "sjw_ladder",
    "sjw_pattern_shape", "sjw_rules_get", "sjw_lead_get", "sjw_lead_offset", "sjw_info_get",
    "sjw_throw_get",
]

# bulk memory: memset/memcpy as one instruction each (every engine since 2021 has it)
CFLAGS = ["--target=wasm32-wasi", "-O3", "-mbulk-memory", "-Wall", "-Wextra",
          "-mexec-model=reactor", "-fno-exceptions"]
# 1 MiB of stack: the core's recursion is bounded by the card count (216)
LDFLAGS = ["-Wl,--gc-sections", "-Wl,--strip-all", "-Wl,-z,stack-size=1048576",
           "-Wl,--initial-memory=4194304"]


def sources_digest() -> str:
    """SHA-256 over the names and bytes of every input of the build (this script too)."""
    h = hashlib.sha256()
    for name in sorted(SOURCES + HEADERS) + ["build_wasm.py"]:
        data = (HERE / name).read_bytes().replace(b"\r\n", b"\n")
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def recorded_digest() -> str | None:
    try:
        return STAMP.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError):
        return None


def _sysroot() -> list[str]:
    """Debian puts wasi-libc under /usr (include/wasm32-wasi, lib/wasm32-wasi)."""
    root = os.environ.get("WASI_SYSROOT")
    if root:
        return [f"--sysroot={root}"]
    for cand in ("/usr/share/wasi-sysroot", "/opt/wasi-sdk/share/wasi-sysroot"):
        if Path(cand, "include").is_dir():
            return [f"--sysroot={cand}"]
    return ["--sysroot=/usr"] if Path("/usr/include/wasm32-wasi").is_dir() else []


def build(out: Path = WASM) -> Path:
    clang = os.environ.get("CLANG") or shutil.which("clang") or shutil.which("clang-14")
    if not clang:
        sys.exit("build_wasm: clang not found (apt-get install clang lld wasi-libc "
                 "libclang-rt-14-dev-wasm32)")
    exports = [f"-Wl,--export={name}" for name in EXPORTS]
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "core.wasm"
        cmd = [clang, *CFLAGS, *_sysroot(), f"-I{HERE}",
               *[str(HERE / s) for s in SOURCES], *LDFLAGS, *exports, "-o", str(target)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"build_wasm: clang failed\n{' '.join(cmd)}\n{done.stderr}")
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(target, out)
    if out == WASM:
        STAMP.write_text(f"{sources_digest()}  sha256 of core_c sources (build_wasm.py)\n",
                         encoding="utf-8")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if core.wasm is stale")
    p.add_argument("-o", "--output", type=Path, default=WASM, help="where to write")
    args = p.parse_args(argv)
    if args.check:
        if recorded_digest() != sources_digest() or not WASM.is_file():
            print("core.wasm is stale: run python core_c/build_wasm.py", file=sys.stderr)
            return 1
        print("core.wasm is up to date")
        return 0
    out = build(args.output)
    print(f"{out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
