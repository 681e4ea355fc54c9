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
from hypothesis import settings

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

# every message the web server sends in these tests is checked against the protocol's
# JSON Schema (shengji/protocol/schema.py); the summary says how many, a mismatch fails
os.environ.setdefault("SHENGJI_PROTOCOL_CHECK", "1")

# CI draws the same examples every run (HYPOTHESIS_PROFILE=ci, set by .ci/run), so a red
# CI is reproducible and never a roll of the dice; a developer's run draws fresh ones
# (the default profile) and keeps hunting. A fresh find becomes an @example.
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

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


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL cluster per test process (so one per pytest-xdist
    worker), started on first use; tests/servers.py. Skipped, with one line, where
    PostgreSQL or asyncpg is missing."""
    import servers

    reason = servers.missing_postgres()
    if reason:
        pytest.skip(f"{POSTGRES_SKIP}{reason}")
    cluster = servers.PgCluster()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def store_db(request, tmp_path) -> str:
    """A fresh database of each store, as ``--db`` takes it: an SQLite file, a database
    of the worker's PostgreSQL cluster (the test's name then says ``postgres``)."""
    if request.param == "sqlite":
        return str(tmp_path / "rooms.sqlite3")
    return request.getfixturevalue("pg_cluster").database()


#: how the PostgreSQL tests' skip reason starts (the summary line below finds it)
POSTGRES_SKIP = "PostgreSQL tests skipped: "


def pytest_sessionfinish(session, exitstatus):
    """A server message that does not match the protocol schema fails the run."""
    from shengji.protocol.schema import CHECKER
    if CHECKER is not None and CHECKER.failures and session.exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    from shengji.protocol.schema import CHECKER
    if CHECKER is not None and CHECKER.checked:
        terminalreporter.write_line(
            f"protocol schema: {CHECKER.checked} server messages checked, "
            f"{len(CHECKER.failures)} not matching", red=bool(CHECKER.failures))
        for problem in CHECKER.failures[:10]:
            terminalreporter.write_line(f"  {problem}", red=True)
    _browser_skip_line(terminalreporter)
    _postgres_skip_line(terminalreporter)


def _postgres_skip_line(terminalreporter):
    """The PostgreSQL tests' skip said once, in one line (tests/servers.py)."""
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(POSTGRES_SKIP):
            terminalreporter.write_line(reason, yellow=True)
            return


def _browser_skip_line(terminalreporter):
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
