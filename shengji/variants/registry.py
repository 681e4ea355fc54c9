"""Where variants come from: the built-in YAML files shipped with the package
(``variants/*.yaml``, with house-rule examples in ``variants/house/``) and third-party
packages' entry points of group ``shengji.variants``.

An entry point's object is a path to a YAML file (str, Path or importlib.resources
Traversable), a settings mapping, or a callable returning one of those.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import entry_points
from pathlib import Path
from typing import cast

from ..errors import VariantError

VARIANT_GROUP = "shengji.variants"
HOUSE = "house"

#: the built-ins, fixed names (issue 3); list_variants() lists them first, in this order
BUILTIN_ORDER = ("one-deck-40", "two-deck-80", "three-deck-titanic", "four-deck", "constant-two",
                 "finding-friends")


def builtin_dir() -> Path:
    """The installed copy of the repository's ``variants/`` folder. In a checkout
    ``shengji/variants/builtin`` is a symlink to it; a wheel holds a real copy."""
    # a regular package's files() is a real path (typeshed says only Traversable)
    folder = cast("os.PathLike[str]", resources.files("shengji.variants").joinpath("builtin"))
    return Path(os.fspath(folder)).resolve()


@dataclass(frozen=True)
class Source:
    """A named variant: a file, or a mapping from an entry point."""

    name: str
    kind: str  # "built-in", "house", "entry point"
    path: Path | None = None
    mapping: Mapping | None = None


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def builtin_sources() -> list[Source]:
    root = builtin_dir()
    found = {p.stem: Source(p.stem, "built-in", p) for p in _files(root)}
    order = [n for n in BUILTIN_ORDER if n in found] + sorted(set(found) - set(BUILTIN_ORDER))
    out = [found[n] for n in order]
    out += [Source(f"{HOUSE}/{p.stem}", "house", p) for p in _files(root / HOUSE)]
    return out


def entry_point_sources() -> list[Source]:
    out = []
    for ep in entry_points(group=VARIANT_GROUP):
        try:
            obj = ep.load()
            if callable(obj):
                obj = obj()
        except Exception as e:  # a broken third-party package must not crash listing
            raise VariantError(
                f"variant {ep.name!r}: entry point {ep.value!r} of group {VARIANT_GROUP} "
                f"failed to load: {type(e).__name__}: {e}"
            ) from e
        if isinstance(obj, Mapping):
            out.append(Source(ep.name, "entry point", mapping=obj))
        elif isinstance(obj, (str, os.PathLike)) or hasattr(obj, "read_text"):
            out.append(Source(ep.name, "entry point", path=Path(os.fspath(obj))))
        else:
            raise VariantError(
                f"variant {ep.name!r}: entry point {ep.value!r} gave a "
                f"{type(obj).__name__}; expected a YAML path or a settings mapping"
            )
    return out


def all_sources() -> list[Source]:
    return builtin_sources() + entry_point_sources()


def find(name: str) -> Source | None:
    """A built-in, house or entry-point variant by name (built-ins win a clash)."""
    for src in builtin_sources():
        if src.name == name:
            return src
    for src in entry_point_sources():
        if src.name == name:
            return src
    return None

