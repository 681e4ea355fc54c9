"""The wheel needs no compiler (issue 22): ``python -m build`` makes an sdist and, from
it, a wheel; the wheel goes into a fresh venv whose PATH has no ``cc`` or ``gcc`` and
whose ``CC`` is a program that fails; there ``shengji simulate``, ``shengji variants
check`` on a house file and ``shengji serve`` (the page fetched) all work. The sdist is
checked to build the same wheel as the source tree.

Long (two builds of the C core, ~2 minutes on a loaded 2-core machine): ``pytest --long
tests/test_wheel.py``; ``.ci/run`` runs it with the other long tests. Builds run without
isolation (``--no-isolation``: setuptools, wheel and cffi come from the running
environment), so the test needs no network.
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from importlib.metadata import version as dist_version
from pathlib import Path

import pytest

pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parent.parent

HOUSE = """\
description: "two-deck-80, kitty by table, 10-point failed-throw penalty"
extends: two-deck-80
play:
  kitty: table
penalties:
  failed_throw: 10
"""


def _build(args: list[str], out: Path) -> None:
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "-o", str(out), *args],
                   check=True, capture_output=True, timeout=900)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """``python -m build``: the sdist, then the wheel built from the unpacked sdist."""
    out = tmp_path_factory.mktemp("dist")
    _build([str(ROOT)], out)
    return out


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern} in {folder}: {found}"
    return found[0]


def _contents(wheel: Path) -> dict[str, str]:
    """Name -> sha256 of every file but the metadata's RECORD."""
    with zipfile.ZipFile(wheel) as z:
        return {n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist()
                if not n.endswith(".dist-info/RECORD")}


def test_wheel_carries_the_core_and_every_data_file(dist):
    wheel = _one(dist, "shengji-*.whl")
    # the core is built on the stable ABI: one wheel per platform for CPython >= 3.10
    assert "-cp310-abi3-" in wheel.name
    names = set(_contents(wheel))
    assert any(n.startswith("shengji/_core.") and n.endswith((".so", ".pyd")) for n in names)
    for f in ("shengji/schema/variant.schema.json", "shengji/frontends/web/static/index.html",
              "shengji/frontends/web/static/app.js", "shengji/variants/builtin/two-deck-80.yaml",
              "shengji/variants/builtin/house/turn-kitty.yaml"):
        assert f in names, f
    # every built-in variant and house file of the tree
    for y in (ROOT / "variants").rglob("*.yaml"):
        assert f"shengji/variants/builtin/{y.relative_to(ROOT / 'variants').as_posix()}" in names
    for w in (ROOT / "shengji").rglob("*.wasm"):
        assert w.relative_to(ROOT).as_posix() in names


def test_the_sdist_builds_the_same_wheel(dist, tmp_path):
    """The wheel built from the source tree holds the same files, byte for byte but the
    compiled core (whose bytes may carry build paths), as the one built from the sdist."""
    from_sdist = _contents(_one(dist, "shengji-*.whl"))
    tree = tmp_path / "tree"
    _build(["--wheel", str(ROOT)], tree)
    from_tree = _contents(_one(tree, "shengji-*.whl"))
    assert set(from_sdist) == set(from_tree)
    differ = {n for n in from_sdist if from_sdist[n] != from_tree[n]}
    assert all(n.startswith("shengji/_core.") for n in differ), differ


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _see_these_packages(python: Path) -> None:
    """Make the running environment's site-packages folders importable from ``python``
    (a new venv's interpreter), after its own."""
    dirs = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")
            and Path(p).is_dir()]
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    inner = subprocess.run([str(python), "-c", ask], check=True, capture_output=True,
                           text=True).stdout.strip()
    (Path(inner) / "zz_running_env.pth").write_text("\n".join(dirs) + "\n", encoding="utf-8")


def test_the_wheel_installs_and_runs_without_a_compiler(dist, tmp_path):
    wheel, sdist = _one(dist, "shengji-*.whl"), _one(dist, "shengji-*.tar.gz")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    vbin = venv / ("Scripts" if os.name == "nt" else "bin")
    # the running environment's packages supply the dependencies (cffi, PyYAML, starlette,
    # setuptools for the sdist, ...) so that nothing is downloaded. `venv
    # --system-site-packages` would not do: made from a virtual environment's Python it
    # sees the base interpreter's packages, not that environment's. A .pth line after the
    # new venv's own site-packages: shengji itself comes only from the wheel (checked
    # below; a path line does not run the .pth files there, so no editable install leaks)
    _see_these_packages(vbin / "python")
    nocc = tmp_path / "nocc"
    nocc.write_text("#!/bin/sh\necho 'no C compiler here' >&2\nexit 1\n")
    nocc.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "SHENGJI", "VIRTUAL_ENV", "PIP_"))}
    env.update(PATH=str(vbin), CC=str(nocc), CXX=str(nocc), LDSHARED=str(nocc),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1")
    work = tmp_path / "work"  # not the source tree: `import shengji` must find the wheel's
    work.mkdir()

    def run(*args: str, timeout: float = 300, check: bool = True):
        return subprocess.run(list(args), cwd=work, env=env, capture_output=True, text=True,
                              timeout=timeout, check=check)

    # no compiler can be found here: building the sdist fails ...
    for cc in ("cc", "gcc", "clang"):
        assert not (vbin / cc).exists()
    broken = run(str(vbin / "pip"), "install", "--no-index", "--no-build-isolation",
                 "--no-deps", "--target", str(tmp_path / "t"), str(sdist), check=False)
    assert broken.returncode != 0 and "no C compiler here" in broken.stdout + broken.stderr
    # ... and the wheel installs and runs
    run(str(vbin / "pip"), "install", "--no-index", "--force-reinstall", "--no-deps",
        str(wheel))
    where = run(str(vbin / "python"), "-c", "import shengji; print(shengji.__file__)").stdout
    assert Path(where.strip()).is_relative_to(venv), where
    shengji = str(vbin / "shengji")

    out = run(shengji, "--version").stdout.strip()
    assert out == f"shengji {dist_version('shengji')}" == f"shengji {wheel.name.split('-')[1]}"

    sim = run(shengji, "simulate", "--deals", "20", "--seed", "1", "--no-progress")
    assert "20" in sim.stdout and "two-deck-80" in sim.stdout, sim.stdout

    house = work / "my-house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    check = run(shengji, "variants", "check", str(house))
    assert "my-house" in check.stdout + check.stderr, check

    port = _free_port()
    server = subprocess.Popen([shengji, "serve", "--port", str(port)], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        page = None
        deadline = time.monotonic() + 120
        while page is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    page = r.read().decode("utf-8")
            except OSError:
                assert server.poll() is None, server.stdout.read()
                time.sleep(0.5)
        assert page is not None, "the server never answered"
        assert "<html" in page.lower()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=5) as r:
            assert b"two-deck-80" in r.read()
    finally:
        server.terminate()
        server.wait(timeout=30)
