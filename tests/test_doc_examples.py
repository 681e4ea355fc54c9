"""Every Python example in README.md and docs/ runs (issue 22), so none can rot.

The extractor takes each fenced block marked ```python, in order, and runs a document's
blocks one after another in one namespace (a later block may use an earlier one's
names), in a temporary folder. A block with ``>>>`` prompts is a doctest: its shown
results are checked. A block that lists signatures rather than code is fenced ```text
(or ```pyi), not ```python.

What a document takes as given is set up here, explicitly: the files its examples open
(``FILES``; a ```yaml block whose first line is ``# NAME.yaml`` is written there too) and
the objects they pass in (``SETUP``). A new document with Python examples is picked up
by itself.
"""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)

#: files the examples open by name (a house file, a table for finding friends)
FILES = {
    "my-rules.yaml": "extends: two-deck-80\npenalties:\n  failed_throw: 10\n",
    "my-table.yaml": "extends: finding-friends\n",
}
#: objects a document's examples take as given, by document
SETUP = {
    # "extra plugin objects": a module of hook implementations, as a plugin author writes
    "docs/variants.md": "import types\nmy_module = types.ModuleType('my_module')\n",
}


def blocks(path: Path) -> list[tuple[int, str, str]]:
    """(line, language, code) of every fenced block."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
            for m in FENCE.finditer(text)]


def python_documents() -> list[Path]:
    return [p for p in DOCUMENTS if any(lang == "python" for _, lang, _ in blocks(p))]


def test_the_extractor_finds_the_examples():
    names = {p.relative_to(ROOT).as_posix() for p in python_documents()}
    assert {"README.md", "docs/rl.md", "docs/variants.md"} <= names
    assert len(blocks(ROOT / "README.md")) >= 5


@pytest.mark.parametrize("path", python_documents(),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_examples_run(path, tmp_path, monkeypatch):
    name = path.relative_to(ROOT).as_posix()
    monkeypatch.chdir(tmp_path)
    for file, text in FILES.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    found = blocks(path)
    for _, lang, code in found:
        first = code.split("\n", 1)[0].strip()
        if lang == "yaml" and re.fullmatch(r"#\s*[\w.-]+\.yaml", first):
            (tmp_path / first.lstrip("# ").strip()).write_text(code, encoding="utf-8")
    namespace: dict = {"__name__": f"example:{name}"}
    exec(SETUP.get(name, ""), namespace)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, lang, code in found:
        if lang != "python":
            continue
        where = f"{name}:{line}"
        if re.search(r"^\s*>>> ", code, re.M):
            test = doctest.DocTestParser().get_doctest(code, namespace, where, str(path), line)
            result = runner.run(test, out=lambda s: print(s, end=""), clear_globs=False)
            assert result.failed == 0, f"{where}: {result.failed} doctest example(s) failed"
        else:
            try:
                exec(compile(code, where, "exec"), namespace)
            except Exception as e:
                raise AssertionError(f"{where}: the example raises {type(e).__name__}: {e}") \
                    from e
    assert os.getcwd() == str(tmp_path)
