"""Plugin managers for variants: one ``PluginManager`` per Variant, never a global.

The built-in rules (``shengji.builtin_rules``) are registered first, ``trylast``; then the
variant's plugins (names from ``plugins:`` in its YAML, resolved as an entry point of group
``shengji.plugins`` or else as an importable module), then objects passed in by the
caller. Registration is strict: a hook that is not in ``shengji.hookspecs`` or an
argument the hookspec does not name is a VariantError naming the plugin.

Trust model (docs/variants.md "Trust"): a plugin is code, and a variant file that names
one is code too. Installing a package is the trust decision shengji relies on, so a
name in ``plugins:`` loads without asking only when it is an entry point of group
``shengji.plugins`` (or is named by a variant an installed package ships). Any other
module is imported only when explicitly allowed: ``--allow-plugin NAME`` on the command
line, ``SHENGJI_ALLOW_PLUGINS=NAME,...`` in the environment, ``allow_plugins(NAME)`` or
``load_variant(..., allow_plugins=[NAME])``. Nothing is imported before that decision.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import inspect
import os
from collections.abc import Iterable
from importlib.metadata import entry_points

import pluggy

from . import builtin_rules, hookspecs
from .errors import VariantError

PLUGIN_GROUP = "shengji.plugins"
HOOK_PREFIX = "shengji_"
#: environment variable: plugin modules allowed to be imported (comma/space separated)
ALLOW_ENV = "SHENGJI_ALLOW_PLUGINS"

#: modules allowed for this process (``--allow-plugin``), besides ALLOW_ENV
_allowed: set[str] = set()


def allow_plugins(names: Iterable[str]) -> None:
    """Allow these plugin modules to be imported by any variant loaded in this process
    (what ``--allow-plugin NAME`` does)."""
    if isinstance(names, str):
        names = [names]
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise VariantError(f"--allow-plugin: {name!r} is not a module name")
        _allowed.add(name.strip())


@contextlib.contextmanager
def allowing(names: Iterable[str]):
    """``allow_plugins(names)`` for the duration of a ``with`` block (one CLI command).
    The environment variable carries the allowance to worker processes (simulate
    --jobs, Ray), and is restored afterwards."""
    before, env = set(_allowed), os.environ.get(ALLOW_ENV)
    try:
        allow_plugins(names)
        if _allowed:
            os.environ[ALLOW_ENV] = ",".join(sorted(allowed_plugins()))
        yield
    finally:
        _allowed.clear()
        _allowed.update(before)
        if env is None:
            os.environ.pop(ALLOW_ENV, None)
        else:
            os.environ[ALLOW_ENV] = env


def allowed_plugins() -> set[str]:
    """Plugin modules allowed now: ``allow_plugins`` and the environment variable."""
    env = os.environ.get(ALLOW_ENV, "").replace(",", " ").split()
    return _allowed | set(env)


def hook_names() -> list[str]:
    """Every hook of ``shengji.hookspecs`` (its ``__all__`` minus the markers)."""
    return [n for n in hookspecs.__all__ if n.startswith(HOOK_PREFIX)]


class ShengjiPluginManager(pluggy.PluginManager):
    """A PluginManager that also treats any *function* named ``shengji_*`` as a hookimpl
    (as pytest does with ``pytest_*``), so a misspelt, unmarked hook is not silently
    ignored but reported as unknown."""

    def parse_hookimpl_opts(self, plugin, name):
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name.startswith(HOOK_PREFIX):
            method = getattr(plugin, name, None)
            if inspect.isroutine(method):
                opts = {}
        return opts


def new_manager() -> ShengjiPluginManager:
    pm = ShengjiPluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin_rules, name="shengji.builtin_rules")
    return pm


def resolve_plugin(name: str, where: str = "", trusted: bool = False):
    """A plugin name → the loaded object: an entry point of group ``shengji.plugins``
    with that name, else the module of that dotted path — imported only when ``trusted``
    or allowed (see the trust model above); otherwise a VariantError saying how to
    allow it."""
    prefix = f"{where}: " if where else ""
    if not isinstance(name, str) or not name:
        raise VariantError(f"{prefix}plugin {name!r}: a plugin is named by a string")
    for ep in entry_points(group=PLUGIN_GROUP):
        if ep.name == name:
            try:
                return ep.load()
            except Exception as e:  # a broken third-party package must not crash us
                raise VariantError(
                    f"{prefix}plugin {name!r}: entry point {ep.value!r} of group "
                    f"{PLUGIN_GROUP} failed to load: {type(e).__name__}: {e}"
                ) from e
    if not trusted and name not in allowed_plugins():
        raise VariantError(
            f"{prefix}plugin {name!r} is not trusted: plugins run code, so only entry points "
            f"of group {PLUGIN_GROUP} load by default; to run module {name!r}, pass "
            f"--allow-plugin {name} (or set {ALLOW_ENV}={name})"
        )
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and (name == e.name or name.startswith(e.name + ".")):
            raise VariantError(
                f"{prefix}plugin {name!r} not found: no module of that name and no entry "
                f"point of that name in group {PLUGIN_GROUP} (a plugin module must be "
                "importable: install it, or put its folder on PYTHONPATH)"
            ) from None
        raise VariantError(
            f"{prefix}plugin {name!r} failed to import: it needs module {e.name!r}, "
            "which is not installed"
        ) from e
    except Exception as e:
        raise VariantError(
            f"{prefix}plugin {name!r} failed to import: {type(e).__name__}: {e}"
        ) from e


def _check_hookimpls(pm: pluggy.PluginManager, plugin, label: str) -> None:
    """Reject unknown hooks and argument names the hookspec does not define, with a
    message that names the plugin, the hook and what is allowed."""
    known = hook_names()
    for attr in dir(plugin):
        if pm.parse_hookimpl_opts(plugin, attr) is None:
            continue
        if attr not in known:
            close = difflib.get_close_matches(attr, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise VariantError(
                f"{label}: {attr} is not a shengji hook{hint}; hooks are defined in "
                "shengji/hookspecs.py"
            )
        spec_args = list(inspect.signature(getattr(hookspecs, attr)).parameters)
        impl = getattr(plugin, attr)
        try:
            impl_args = [
                p.name
                for p in inspect.signature(impl).parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY, p.POSITIONAL_ONLY)
                and p.name not in ("self", "cls")
            ]
        except (TypeError, ValueError):
            continue  # let pluggy judge what inspect cannot read
        extra = [a for a in impl_args if a not in spec_args]
        if extra:
            raise VariantError(
                f"{label}: hook {attr} takes argument(s) {', '.join(extra)} that the hookspec "
                f"does not define (allowed: {', '.join(spec_args)})"
            )


def register(pm: pluggy.PluginManager, plugin, label: str, name: str | None = None) -> None:
    """Register one plugin strictly; every failure becomes a VariantError naming it."""
    _check_hookimpls(pm, plugin, label)
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as e:
        detail = " ".join(str(e).split())
        raise VariantError(f"{label}: invalid hook implementation: {detail}") from None
    except ValueError as e:  # pluggy: already registered
        raise VariantError(f"{label}: {e}") from None
