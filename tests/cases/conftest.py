"""Collect the rule cases here even when shengji runs from a source checkout that was
never pip-installed (so its pytest11 entry point is not registered). When the entry point
is active it does the work and this conftest stands aside, so no case is collected twice."""

from shengji.conformance import pytest_plugin


def _fallback(config) -> bool:
    return not config.pluginmanager.has_plugin("shengji")


def pytest_configure(config):
    if _fallback(config) and not config.pluginmanager.has_plugin("shengji-case-tally"):
        pytest_plugin.pytest_configure(config)


def pytest_collect_file(file_path, parent):
    if _fallback(parent.config):
        return pytest_plugin.pytest_collect_file(file_path, parent)
    return None
