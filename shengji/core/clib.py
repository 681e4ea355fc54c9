"""The compiled rules core's ``ffi, lib`` (shengji._core, built by cffi from core_c/):
the one import of it that the core package's modules share."""

try:
    from shengji._core import ffi, lib
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "shengji's C core (shengji._core) is not built: run `pip install .` "
        "(or `pip install -e .`) in the shengji source tree to compile it"
    ) from exc

__all__ = ["ffi", "lib"]
