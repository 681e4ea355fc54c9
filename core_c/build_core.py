"""cffi builder of ``shengji._core`` (out-of-line API mode).

The declarations cffi sees are ``shengji_core_cdef.h``; ``set_source`` includes the real
``shengji_core.h`` so the C compiler checks every declaration (and cffi checks struct
layouts) against it. Run by setuptools through ``setup.py``'s ``cffi_modules``; nothing
is compiled at import time.
"""

import os
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent

# SHENGJI_CFLAGS replaces the optimisation flags (the sanitizer build, tox -e asan)
_CFLAGS = ["-O2", "-Wall", "-Wextra"]
if os.environ.get("SHENGJI_CFLAGS"):
    _CFLAGS = ["-Wall", "-Wextra", *os.environ["SHENGJI_CFLAGS"].split()]
if sys.platform == "win32" and not os.environ.get("SHENGJI_CFLAGS"):
    _CFLAGS = ["/O2"]  # MSVC (cibuildwheel's Windows wheels): no GCC-style warning flags
_LDFLAGS = [f for f in _CFLAGS if f.startswith("-fsanitize")]

ffibuilder = FFI()
ffibuilder.cdef((HERE / "shengji_core_cdef.h").read_text(encoding="utf-8"))
# the environments' observation builder (observe.c) and whole moves (moves.c) have their
# own headers and cdefs
ffibuilder.cdef((HERE / "observe_cdef.h").read_text(encoding="utf-8"))
ffibuilder.cdef((HERE / "moves_cdef.h").read_text(encoding="utf-8"))
ffibuilder.set_source(
    "shengji._core",
    '#include "shengji_core.h"\n#include "observe.h"\n#include "moves.h"',
    # relative to the project root, where setuptools runs the build
    sources=["core_c/order.c", "core_c/shapes.c", "core_c/follow.c", "core_c/trick.c",
             "core_c/playout.c", "core_c/greedy.c", "core_c/search.c", "core_c/batch.c",
             "core_c/rainbow.c", "core_c/drive.c", "core_c/shuffle.c",
             "core_c/observe.c", "core_c/sio_follow.c", "core_c/pack.c",
             "core_c/moves.c"],
    include_dirs=["core_c"],
    extra_compile_args=_CFLAGS,
    extra_link_args=_LDFLAGS,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
