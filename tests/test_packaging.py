"""Packaging facts that need no build: one version everywhere, and every data file in the
package tree matched by a package-data glob (so a new data file, such as the WebAssembly
core, cannot silently be left out of the wheels). The wheel itself is built and installed
without a compiler in tests/test_wheel.py (long)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version as dist_version
from pathlib import Path

import shengji

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest's own dependency
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "shengji"
#: files in the package tree that are build products or caches, not data
NOT_DATA = re.compile(r"(\.py|\.pyc|\.so|\.pyd|\.dylib|\.o)$|(^|/)__pycache__/")


def changelog_version() -> str:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.search(r"^## \[(\d+\.\d+\.\d+[^\]]*)\]", text, re.M).group(1)


def test_one_version_for_metadata_cli_and_changelog():
    out = subprocess.run([sys.executable, "-m", "shengji", "--version"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == f"shengji {shengji.__version__}"
    # the installed metadata (reinstall after a version bump: pip install -e .)
    assert dist_version("shengji") == shengji.__version__
    assert changelog_version() == shengji.__version__


def test_version_is_declared_once():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "shengji.__version__"}


def _package_dir(name: str) -> Path:
    return ROOT.joinpath(*name.split("."))


def test_every_data_file_is_package_data():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]
    matched: set[Path] = set()
    for package, patterns in globs.items():
        base = _package_dir(package)
        for pattern in patterns:
            matched.update(p.resolve() for p in base.glob(pattern) if p.is_file())
    data = {p.resolve() for p in PKG.rglob("*")
            if p.is_file() and not NOT_DATA.search(p.relative_to(PKG).as_posix())}
    missing = sorted(str(p) for p in data - matched)
    assert not missing, f"data files no package-data glob in pyproject.toml carries: {missing}"
    # the files the issue names are among them
    names = {p.name for p in matched}
    assert {"variant.schema.json", "index.html", "two-deck-80.yaml", "turn-kitty.yaml"} <= names


def test_wasm_globs_catch_a_core_wasm(tmp_path):
    """The WebAssembly core may land anywhere under the package (static/ or its own
    folder): the globs must match it before it exists."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]
    for where in ("frontends/web/static/core.wasm", "frontends/web/static/wasm/core.wasm",
                  "wasm/core.wasm"):
        f = tmp_path / "shengji" / where
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"\0asm")
        hits = {p for package, patterns in globs.items() for pattern in patterns
                for p in (tmp_path.joinpath(*package.split("."))).glob(pattern)}
        assert f in hits, where
        f.unlink()


def test_py_typed_ships_and_the_hook_specifications_are_typed():
    import inspect

    from shengji import hookspecs

    assert (PKG / "py.typed").is_file()
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]
    assert "py.typed" in globs["shengji"]
    for name in hookspecs.__all__:
        if not name.startswith("shengji_"):
            continue
        sig = inspect.signature(getattr(hookspecs, name))
        assert sig.return_annotation is not inspect.Signature.empty, name
        assert sig.return_annotation.endswith("| None"), name  # None defers
        for p in sig.parameters.values():
            assert p.annotation is not inspect.Signature.empty, f"{name}({p.name})"
