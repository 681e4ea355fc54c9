"""What raising the four-copies limit to eight packs costs at one to four packs (issue 28
item 7, docs/semantics.md §11).

    python benchmarks/eight_packs_cost.py [--base REV] [--runs 9] [--callgrind]

Builds ``core_c/valgrind_driver.c`` (every entry point and playouts, one to four packs)
with ``-O2`` twice: against the C core of git revision REV (default: the last commit
before the raise) and against the working tree's ``core_c/``; checks that both print the
same checksum (one to four packs unchanged, bit for bit), then times them in alternation
(CPU seconds, medians and bests) and, with ``--callgrind``, counts their instructions (no
machine load disturbs that figure; a few minutes). Not a test.
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORE_C = HERE.parent / "core_c"
#: the last commit with the four-pack core (the raise came in the commit after it)
BEFORE_RAISE = "bb1d881"


def _build(root: Path, name: str) -> Path:
    sources = re.findall(r'"core_c/(\w+\.c)"',
                         (root / "core_c" / "build_core.py").read_text("utf-8"))
    exe = root / name
    subprocess.run(["gcc", "-O2", "-Icore_c", "core_c/valgrind_driver.c",
                    *(f"core_c/{s}" for s in sources), "-o", str(exe)], cwd=root, check=True)
    return exe


def _cpu(exe: Path) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before, out.strip()


def _instructions(exe: Path, tmp: Path) -> int:
    log = subprocess.run(["valgrind", "--tool=callgrind",
                          f"--callgrind-out-file={tmp / (exe.name + '.cg')}", str(exe)],
                         capture_output=True, text=True, check=True).stderr
    return int(re.search(r"Collected : (\d+)", log).group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BEFORE_RAISE, help="git revision of the four-pack core")
    ap.add_argument("--runs", type=int, default=9, help="alternating runs of each build")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions")
    args = ap.parse_args(argv)
    if not shutil.which("gcc") or not shutil.which("git"):
        sys.exit("needs gcc and git")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        exes = {}
        for name in ("base", "eight"):
            root = tmp / name
            if name == "eight":
                shutil.copytree(CORE_C, root / "core_c")
            else:
                root.mkdir()
                tar = subprocess.run(["git", "archive", args.base, "core_c"], cwd=CORE_C.parent,
                                     capture_output=True, check=False)
                if tar.returncode:
                    sys.exit(f"git archive {args.base}: {tar.stderr.decode().strip()}")
                subprocess.run(["tar", "-x"], input=tar.stdout, cwd=root, check=True)
            exes[name] = _build(root, name)
        times: dict[str, list[float]] = {"base": [], "eight": []}
        sums = set()
        for _ in range(args.runs):
            for name, exe in exes.items():
                t, out = _cpu(exe)
                times[name].append(t)
                sums.add(out)
        if len(sums) != 1:
            sys.exit(f"the two builds disagree: {sorted(sums)}")
        med = {k: statistics.median(v) for k, v in times.items()}
        best = {k: min(v) for k, v in times.items()}
        print(f"same output ({sums.pop()}), {args.runs} alternating runs each")
        print(f"CPU s median {med['base']:.3f} -> {med['eight']:.3f} "
              f"(x{med['eight'] / med['base']:.3f}); best {best['base']:.3f} -> "
              f"{best['eight']:.3f} (x{best['eight'] / best['base']:.3f})")
        if args.callgrind:
            if not shutil.which("valgrind"):
                sys.exit("--callgrind needs valgrind")
            ir = {k: _instructions(exe, tmp) for k, exe in exes.items()}
            print(f"instructions {ir['base']:,} -> {ir['eight']:,} "
                  f"({100 * (ir['eight'] / ir['base'] - 1):+.2f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
