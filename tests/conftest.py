"""Shared test setup: make ``tests/`` importable (``import oracle``, ``import strategies``),
the ``long`` marker, the browser fixtures, and the session's totals under pytest-xdist.

Tests marked ``@pytest.mark.long`` (thousands of deals per variant, the coverage-guided
fuzz run, long differential hunts) are skipped by the default ``pytest`` so that it stays
a few minutes on a 2-core machine; ``pytest --long`` (or ``SHENGJI_LONG=1``) runs them
too, and ``.ci/run`` does. Modules read ``LONG`` to choose their depth.

The suite runs in parallel (pytest-xdist, ``-n auto`` in pyproject.toml): every test owns
its port (bound to 0), its temporary folder and its database file, so any worker and any
order will do. Each worker starts one Chromium, shared by the browser tests it runs
(``browser``; a test gets a fresh context from ``page`` or ``phone``). The totals the run
ends with (rule cases, server messages checked against the protocol schema) are summed
over the workers.
"""

import asyncio
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
    config.addinivalue_line(
        "markers", "scaled: runs in both tiers, bounded by default and at depth under --long "
        "(its size from tiers.depth); counts as long under --long")


def pytest_collection_modifyitems(config, items):
    if LONG:
        for item in items:  # at depth now: part of the long run (-m long)
            if "scaled" in item.keywords:
                item.add_marker(pytest.mark.long)
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


def _protocol_counts() -> tuple[int, list[str], int]:
    """This process's schema checks: (messages checked, the first problems, problems)."""
    from shengji.protocol.schema import CHECKER
    if CHECKER is None:
        return 0, [], 0
    return CHECKER.checked, list(CHECKER.failures[:10]), len(CHECKER.failures)


#: the workers' schema checks, gathered by the controller (pytest-xdist)
_WORKERS: list[tuple[int, list[str], int]] = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist: a worker finished; keep its counts for the closing lines."""
    out = getattr(node, "workeroutput", {})
    if "protocol_checked" in out:
        _WORKERS.append((out["protocol_checked"], out["protocol_problems"],
                         out["protocol_failed"]))


def _protocol_totals() -> tuple[int, list[str], int]:
    checked, problems, failed = _protocol_counts()
    for w_checked, w_problems, w_failed in _WORKERS:
        checked += w_checked
        problems += w_problems
        failed += w_failed
    return checked, problems, failed


def pytest_sessionfinish(session, exitstatus):
    """A server message that does not match the protocol schema fails the run. A worker
    hands its counts to the controller, which says them once for the whole run."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        checked, problems, failed = _protocol_counts()
        workeroutput.update(protocol_checked=checked, protocol_problems=problems,
                            protocol_failed=failed)
        return
    if _protocol_totals()[2] and session.exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    checked, problems, failed = _protocol_totals()
    if checked:
        terminalreporter.write_line(
            f"protocol schema: {checked} server messages checked, "
            f"{failed} not matching", red=bool(failed))
        for problem in problems[:10]:
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
    """The browser tests' skip said in one line, not only in the skip count: they need
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


# ---------------------------------------------------------------- the browser

#: the Playwright driver of this process while a browser test has needed it
_PLAYWRIGHT: dict = {}


@pytest.fixture(scope="session")
def browser():
    """One Chromium for this process (each xdist worker has its own, with its own
    temporary profile), started by the first browser test and shared by the rest."""
    from browsertools import ARGS, CHROMIUM

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium package)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the playwright package is missing")
    pw = sync_api.sync_playwright().start()
    _PLAYWRIGHT["loop"] = asyncio._get_running_loop()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _PLAYWRIGHT["loop"] = asyncio._get_running_loop()
        yield b
        b.close()
    finally:
        pw.stop()
        _PLAYWRIGHT.clear()


@pytest.fixture(autouse=True)
def _hide_the_browsers_event_loop(request):
    """Between its calls, Playwright's sync API leaves its event loop marked as running in
    this thread; a later test of the same worker that runs asyncio (``asyncio.run``) would
    be refused. Tests without the browser run with no loop marked."""
    loop = _PLAYWRIGHT.get("loop")
    if loop is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture()
def page(browser):
    """A desktop-sized page with its own cookies and storage: a new context's, or one an
    earlier test of this worker gave back reset (browsertools.done)."""
    from browsertools import done, new_page

    pg = new_page(browser)
    yield pg
    done(pg)


@pytest.fixture()
def phone(browser):
    """A phone-sized (390×844, touch) page, new or given back reset as ``page`` is."""
    from browsertools import done, new_page

    pg = new_page(browser, phone=True)
    yield pg
    done(pg)
