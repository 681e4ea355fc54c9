"""pytest plugin (entry point ``pytest11``): collect ``*.cases.yaml`` files, one test item
per case, so ``pytest path/to/cases`` works in any project that installs shengji.

A failing case reports its file, id, expected and got on one line, without a Python
traceback; a file that cannot be read is a collection error naming the file and key.
"""

from __future__ import annotations

import pytest

from .casefile import SUFFIX, CaseFileError, load_case_file
from .runner import VariantCache, run_case, summary


def pytest_collect_file(file_path, parent):
    if file_path.name.endswith(SUFFIX):
        return CaseFile.from_parent(parent, path=file_path)
    return None


def _shown_path(node) -> str:
    # files are loaded by absolute path (relative variant paths resolve from them);
    # failures show the path from the rootdir, as pytest does
    try:
        return str(node.path.relative_to(node.config.rootpath))
    except ValueError:
        return str(node.path)


def _variants(config) -> VariantCache:
    # one cache per test session: every file that names a variant shares its load
    cache = getattr(config, "_shengji_variants", None)
    if cache is None:
        cache = VariantCache()
        config._shengji_variants = cache
    return cache


class _Tally:
    """Counts rule cases for the closing line of docs/conformance.md (pytest's own closing
    line mixes them with every other test)."""

    def __init__(self) -> None:
        self.counts = {"passed": 0, "failed": 0, "xfailed": 0}

    def pytest_runtest_logreport(self, report):
        if ".cases.yaml::" not in report.nodeid:
            return
        if hasattr(report, "wasxfail"):
            self.counts["xfailed"] += 1
        elif report.when == "call" and report.passed:
            self.counts["passed"] += 1
        elif report.failed:
            self.counts["failed"] += 1

    def pytest_terminal_summary(self, terminalreporter):
        c = self.counts
        if any(c.values()):
            terminalreporter.write_line(
                f"shengji rule cases: {summary(c['passed'], c['failed'], c['xfailed'])}"
            )


def pytest_configure(config):
    config.pluginmanager.register(_Tally(), "shengji-case-tally")


class CaseFile(pytest.File):
    def collect(self):
        try:
            cf = load_case_file(self.path)
        except CaseFileError as e:
            raise self.CollectError(str(e)) from None
        for case in cf.cases:
            yield CaseItem.from_parent(self, name=case.id, case=case)


class CaseFailed(Exception):
    def __init__(self, line: str):
        super().__init__(line)
        self.line = line


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        if case.source:
            self.user_properties.append(("source", case.source))

    def runtest(self):
        result = run_case(self.case, _variants(self.config))
        if result.status == "xfailed":
            pytest.xfail(self.case.xfail)
        if not result.passed:
            raise CaseFailed(result.line())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailed):
            return excinfo.value.line.replace(str(self.path), _shown_path(self), 1)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.case.kind} case {self.case.id}"
