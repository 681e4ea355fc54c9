"""Conformance: rule-case files (``*.cases.yaml``, docs/conformance.md), their runner,
the pytest plugin that collects them, and the all-variants suite (``suite``).

    from shengji.conformance import iter_results, load_case_file, run_case
    for r in iter_results(["tests/cases"]):
        if not r.passed:
            print(r.line())
"""

from .casefile import Case, CaseFile, CaseFileError, find_case_files, load_case_file
from .runner import CaseResult, FileProblem, VariantCache, iter_results, run_case, summary

__all__ = [
    "Case",
    "CaseFile",
    "CaseFileError",
    "CaseResult",
    "FileProblem",
    "VariantCache",
    "find_case_files",
    "iter_results",
    "load_case_file",
    "run_case",
    "summary",
]
