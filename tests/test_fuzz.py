"""A bounded run of the fuzz target (fuzz/fuzz_core.py): arbitrary bytes through card
parsing, every core operation, the raw C entry points and the C playout must raise
nothing but ShengjiError subclasses. The coverage-guided run is long (``pytest --long``)
and counts inputs, not seconds, so a loaded machine cannot fail it; ``tox -e fuzz`` runs
it for longer."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tiers import depth

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "fuzz" / "fuzz_core.py"
#: inputs of the coverage-guided run (atheris, when installed)
RUNS = int(os.environ.get("SHENGJI_FUZZ_RUNS", "100000"))


@pytest.fixture(scope="module")
def target():
    spec = importlib.util.spec_from_file_location("fuzz_core", TARGET)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.scaled
def test_random_inputs(target):
    """Pure random bytes (no atheris needed), every layer: a thousand inputs by default,
    twenty thousand under --long (tests/tiers.py)."""
    n = depth(1000, 20_000)
    assert target.run_random(n, seed=7) == n


def test_target_reports_untyped_errors(target, monkeypatch):
    """The harness is able to fail: an error that is not a ShengjiError escapes."""

    def broken(d, ctx):
        raise KeyError("not a typed error")

    for name in ("api_layer", "raw_layer", "playout_layer"):
        monkeypatch.setattr(target, name, broken)
    with pytest.raises(KeyError):
        target.run_random(50, seed=1)


@pytest.mark.long
@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
def test_coverage_guided_run(tmp_path):
    """libFuzzer (atheris) over SHENGJI_FUZZ_RUNS inputs; a finding exits non-zero. No
    wall-clock limit: libFuzzer's own per-input timeout (60 s) reports a hang."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    proc = subprocess.run(
        [sys.executable, str(TARGET), f"-runs={RUNS}", "-timeout=60", "-rss_limit_mb=2048",
         f"-artifact_prefix={tmp_path}/", str(corpus)],
        capture_output=True, text=True, cwd=ROOT)
    tail = proc.stderr[-3000:]
    assert proc.returncode == 0, tail
    assert "Done" in tail or "DONE" in tail, tail
