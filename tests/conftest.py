"""Shared test setup: make ``tests/`` importable (``import oracle``, ``import strategies``),
and the ``long`` marker.

Tests marked ``@pytest.mark.long`` (thousands of deals per variant, the coverage-guided
fuzz run, long differential hunts) are skipped by the default ``pytest`` so that it stays
a few minutes on a 2-core machine; ``pytest --long`` (or ``SHENGJI_LONG=1``) runs them
too, and ``.ci/run`` does. Modules read ``LONG`` to choose their depth.
"""

import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

#: True when the long runs are asked for (``--long`` or SHENGJI_LONG=1)
LONG = os.environ.get("SHENGJI_LONG") == "1"


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the long tests (marked 'long'); same as SHENGJI_LONG=1")


def pytest_configure(config):
    global LONG
    if config.getoption("--long"):
        os.environ["SHENGJI_LONG"] = "1"
        LONG = True
    config.addinivalue_line(
        "markers", "long: a long run (thousands of deals, fuzzing); needs --long or SHENGJI_LONG=1")


def pytest_collection_modifyitems(config, items):
    if LONG:
        return
    skip = pytest.mark.skip(reason="long run: use pytest --long (or SHENGJI_LONG=1)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    """The browser test's skip said in one line, not only in the skip count: it needs
    Debian's chromium (README, "Development"; .ci/run installs it)."""
    for report in terminalreporter.stats.get("skipped", []):
        # the module's own skip (its collection), not the skips of its long tests
        if report.nodeid.endswith("test_browser.py"):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            terminalreporter.write_line(
                f"browser test skipped: {reason.removeprefix('Skipped: ')}; "
                "Playwright's own browser download is not used (README)",
                yellow=True)
            return
