"""The C core as WebAssembly: ``core.wasm`` (built from core_c/ by core_c/build_wasm.py,
shipped as package data) and ``core.mjs``, its JavaScript module (browser and Node).

``engine.mjs`` is a conformance engine speaking the JSON-lines protocol of
docs/conformance.md (``shengji conformance --engine wasm``); ``rules_json`` is the JSON
form of ``PlayRules`` that the module and that protocol take.
"""

from __future__ import annotations

import shutil
from dataclasses import fields
from pathlib import Path

HERE = Path(__file__).resolve().parent
WASM = HERE / "core.wasm"
MODULE = HERE / "core.mjs"
ENGINE = HERE / "engine.mjs"
SOURCES_STAMP = HERE / "core.wasm.sources"


def rules_json(rules) -> dict:
    """A ``PlayRules`` as plain JSON data: every field by its name (tuples as lists;
    ``following`` as ``[[w, len], [[[w, len], ...], ...]]``). ``PlayRules(**data)`` reads
    it back; ``core.mjs`` takes it as it is."""

    def plain(v):
        return [plain(x) for x in v] if isinstance(v, (tuple, list)) else v

    return {f.name: plain(getattr(rules, f.name)) for f in fields(rules) if f.name != "extra"}


def node() -> str | None:
    """The Node.js executable (``node`` or ``nodejs`` on the PATH), or None."""
    return shutil.which("node") or shutil.which("nodejs")
