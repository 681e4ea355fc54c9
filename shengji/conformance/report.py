"""What ``shengji conformance`` says at the end: totals, and with ``--engine`` per case
file how many cases the engine judged, declined (with the reasons it gave) and never
received (kinds it is not asked, or a plugin changing the answer); ``--json`` writes the
same as one JSON object (docs/conformance.md, "The runner's report").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FileReport:
    """One case file's counts."""

    path: str
    passed: int = 0
    failed: int = 0
    xfailed: int = 0
    #: cases the engine answered (right or wrong)
    judged: int = 0
    #: the engine's reason → ids of the cases it declined with it (judged here instead)
    declined: dict[str, list[str]] = field(default_factory=dict)
    #: kind → cases never sent to the engine (run on the Python core)
    never_sent: dict[str, int] = field(default_factory=dict)

    @property
    def declined_count(self) -> int:
        return sum(len(ids) for ids in self.declined.values())

    def line(self) -> str:
        sent = sum(self.never_sent.values())
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.never_sent.items()))
        text = (f"  {self.path}: {self.judged} judged, {self.declined_count} declined, "
                f"{sent} never sent" + (f" ({kinds})" if kinds else ""))
        for reason, ids in self.declined.items():
            text += f"\n    declined {len(ids)}: {reason}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "passed": self.passed, "failed": self.failed,
                "xfailed": self.xfailed, "judged": self.judged,
                "declined": [{"reason": r, "cases": ids} for r, ids in self.declined.items()],
                "never_sent": dict(sorted(self.never_sent.items()))}


class Report:
    """Counts of a run, by case file; failures as lines and as data."""

    def __init__(self, engine: str | None = None):
        self.engine = engine
        self.files: dict[str, FileReport] = {}
        self.checks = {"passed": 0, "failed": 0, "xfailed": 0}  # the all-variants suite
        self.failures: list[dict[str, Any]] = []

    def add_case(self, result) -> str:
        """Count one CaseResult (or FileProblem); its status."""
        case = getattr(result, "case", None)
        path = str(case.file if case is not None else result.path)
        report = self.files.setdefault(path, FileReport(path))
        status = "xfailed" if result.status == "xfailed" else (
            "passed" if result.passed else "failed")
        setattr(report, status, getattr(report, status) + 1)
        if case is not None and self.engine is not None and not result.problem:
            if result.declined is not None:
                report.declined.setdefault(result.declined, []).append(case.id)
            elif result.judged_by == self.engine:
                report.judged += 1
            else:
                report.never_sent[case.kind] = report.never_sent.get(case.kind, 0) + 1
        if status == "failed":
            self.failures.append({
                "file": path, "case": case.id if case is not None else None,
                "kind": case.kind if case is not None else None,
                "judged_by": getattr(result, "judged_by", None),
                "expected": _plain(getattr(result, "expected", None)),
                "got": _plain(getattr(result, "got", None)), "line": result.line()})
        return status

    def add_check(self, check) -> str:
        status = "passed" if check.passed else "failed"
        self.checks[status] += 1
        if not check.passed:
            self.failures.append({"check": check.where, "line": check.line()})
        return status

    def totals(self) -> dict[str, int]:
        out = dict(self.checks)
        for f in self.files.values():
            out["passed"] += f.passed
            out["failed"] += f.failed
            out["xfailed"] += f.xfailed
        return out

    def engine_lines(self) -> list[str]:
        """Per file, then all files: what the engine judged, declined, never received."""
        if self.engine is None or not self.files:
            return []
        files = self.files.values()
        judged = sum(f.judged for f in files)
        declined = sum(f.declined_count for f in files)
        kinds: dict[str, int] = {}
        for f in files:
            for k, n in f.never_sent.items():
                kinds[k] = kinds.get(k, 0) + n
        rest = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        return ([f"engine {self.engine}, per case file:"] + [f.line() for f in files]
                + [f"engine {self.engine}: {judged} cases judged by it, {declined} declined "
                   f"(run on the Python core), {sum(kinds.values())} never sent (run on "
                   f"the Python core{': ' + rest if rest else ''})"])

    def to_json(self) -> dict[str, Any]:
        return {"engine": self.engine, **self.totals(),
                "files": [f.to_json() for f in self.files.values()],
                "failures": self.failures}


def _plain(value):
    """A value JSON can carry (an error the engine raised becomes its text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)
