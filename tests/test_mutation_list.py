"""benchmarks/mutation.py's mutants still apply: each one's text occurs exactly once in
its C file. A change to the core that rewrites a mutated line would otherwise surface
only when someone reruns the (long) mutation check, which stops at the stale mutant."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutation", ROOT / "benchmarks" / "mutation.py")
mutation = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutation)


@pytest.mark.parametrize("mid", sorted(mutation.MUTANTS))
def test_mutant_text_occurs_once(mid):
    fname, old, new, _why = mutation.MUTANTS[mid]
    text = (ROOT / "core_c" / fname).read_text()
    assert text.count(old) == 1, f"{mid}: {old!r} occurs {text.count(old)} times in {fname}"
    assert old != new
