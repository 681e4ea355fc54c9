"""Running rule cases: one ``CaseResult`` per case, never an exception.

A case passes when the engine's answer equals ``expect``, or, for ``expect: error``, when
the engine rejects the input with its input-error type (CardError / HandError). Anything
else — a wrong answer, another error, a crash of the engine, a malformed case — is a
failure whose ``got`` says what happened.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import ShengjiError
from .casefile import ERROR, Case, CaseFileError, find_case_files, load_case_file
from .engines import covers as engine_covers
from .kinds import INPUT_ERRORS, JUDGES, canonical, expected_form, matches, shown


@dataclass(frozen=True)
class CaseResult:
    case: Case
    #: did the engine's answer match ``expect``?
    ok: bool
    expected: Any
    got: Any
    #: a one-line explanation when the case could not be judged (malformed, bad variant)
    problem: str | None = None
    #: who judged it: "python" (the built-in judges), or the --engine's name
    judged_by: str = "python"
    #: the engine's reason when it declined the case (``unsupported``): then judged here
    declined: str | None = None

    @property
    def status(self) -> str:
        """passed, failed, xfailed (a case marked ``xfail`` that fails) or xpassed (one
        that passes now: a failure, so the stale note gets removed)."""
        if self.problem or not self.case.xfail:
            return "passed" if self.ok and not self.problem else "failed"
        return "xpassed" if self.ok else "xfailed"

    @property
    def passed(self) -> bool:
        """False only for what must be reported as a failure."""
        return self.status in ("passed", "xfailed")

    def line(self) -> str:
        """The failure line: file, id, expected, got."""
        if self.problem:
            return f"{self.case.where}: {self.problem}"
        if self.status == "xpassed":
            note = self.case.xfail
            return f"{self.case.where}: passes now but is marked xfail ({note}); remove the note"
        src = f"  [{self.case.source}]" if self.case.source else ""
        return f"{self.case.where}: expected {flow(self.expected)}, got {flow(self.got)}{src}"


def flow(value) -> str:
    """A value on one line, in the YAML notation of the case files."""
    if isinstance(value, _Raised):
        return str(value)
    text = yaml.safe_dump(
        value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10**6
    )
    return text.strip().removesuffix("...").strip()


class _Raised:
    """An error the engine raised, as a 'got' value."""

    def __init__(self, exc: BaseException, crash: bool = False):
        self.exc = exc
        self.crash = crash

    def __str__(self) -> str:
        name = type(self.exc).__name__
        if self.crash:
            where = traceback.extract_tb(self.exc.__traceback__)[-1:]
            at = f" at {Path(where[0].filename).name}:{where[0].lineno}" if where else ""
            return f"crash {name}{at}: {self.exc}"
        return f"error {name}: {self.exc}"


class VariantCache:
    """Variants by reference, resolved relative to the case file; loaded once."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int | None], Any] = {}

    def get(self, ref: str, case_file: Path, players: int | None = None):
        from ..variants import load_variant

        key = (_variant_key(ref, case_file), players)
        if key not in self._cache:
            try:
                self._cache[key] = load_variant(key[0], players=players)
            except Exception as e:  # noqa: BLE001 - reported as the case's problem
                self._cache[key] = e
        found = self._cache[key]
        if isinstance(found, Exception):
            raise _VariantProblem(f"variant {ref!r}: {found}") from None
        return found


class _VariantProblem(Exception):
    pass


def _variant_key(ref: str, case_file: Path) -> str:
    """What ``load_variant`` gets for a case's ``variant``: a ``.yaml`` name or an existing
    file is a path relative to the case file; anything else a registered name, which may
    contain a slash (``house/turn-kitty``, docs/conformance.md) — an unknown one is reported
    with the list of known names."""
    local = case_file.parent / ref
    if ref.endswith((".yaml", ".yml")) or local.is_file():
        return str(local.resolve())
    return ref


def run_case(case: Case, variants: VariantCache | None = None, engine=None) -> CaseResult:
    if case.problem:
        return CaseResult(case, False, case.expect, None, problem=case.problem)
    variants = variants or VariantCache()
    assert case.variant is not None  # read_cases made a missing variant a problem
    try:
        variant = variants.get(case.variant, case.file, case.players)
    except _VariantProblem as e:
        return CaseResult(case, False, case.expect, None, problem=str(e))
    if case.expect == ERROR:
        expected: Any = ERROR
    else:
        try:
            expected = expected_form(case)
        except ShengjiError as e:
            return CaseResult(case, False, case.expect, None, problem=f"expect: {e}")
    judged_by = "python"
    if engine is not None and engine_covers(case, variant):
        judged_by = engine.name
        asked = _ask_engine(engine, case, variant, expected, variants)
        if isinstance(asked, CaseResult):
            return asked
        got = asked
    else:
        try:
            got = JUDGES[case.kind](variant, case)
        except INPUT_ERRORS as e:
            if expected == ERROR:
                return CaseResult(case, True, ERROR, ERROR)
            return CaseResult(case, False, expected, _Raised(e))
        except ShengjiError as e:
            return CaseResult(case, False, expected, _Raised(e))
        except Exception as e:  # noqa: BLE001 - an engine crash is a failing case, not a crash here
            return CaseResult(case, False, expected, _Raised(e, crash=True))
    if expected == ERROR:
        return CaseResult(case, False, ERROR, got, judged_by=judged_by)
    if (
        case.kind in ("declare", "bidding")
        and "accepted" in expected
        and len(expected["accepted"]) != len(got["accepted"])
    ):
        return CaseResult(
            case,
            False,
            expected,
            got,
            problem=f"expect.accepted: {len(expected['accepted'])} values for "
            f"{len(got['accepted'])} steps",
        )
    exp, shown_got = shown(case, expected, got)
    return CaseResult(case, matches(case, expected, got), exp, shown_got, judged_by=judged_by)


def _ask_engine(engine, case: Case, variant, expected, variants):
    """The engine's answer to a case in the judges' form, or the CaseResult of an input
    error it reported or of its failure (crash, time limit, garbage)."""
    from .engines import EngineError, request

    name = engine.name
    try:
        if case.kind in ("winner", "throw"):  # the case's form, checked as the judges do
            n = len(case.value["plays"]) if case.kind == "winner" else len(case.value["others"]) + 1
            if n != variant.players:
                raise ShengjiError(f"{case.kind}: {n} plays/holdings given, but variant "
                                   f"{variant.name} seats {variant.players} players")
        got = engine.ask(request(case, variant))
    except EngineError as e:
        return CaseResult(case, False, expected, _Raised(e), judged_by=name)
    except ShengjiError as e:
        if expected == ERROR:
            return CaseResult(case, True, ERROR, ERROR, judged_by=name)
        return CaseResult(case, False, expected, _Raised(e), judged_by=name)
    if "unsupported" in got:  # run as today, reported as such
        result = run_case(case, variants)
        return CaseResult(result.case, result.ok, result.expected, result.got, result.problem,
                          judged_by=f"python ({name}: unsupported)",
                          declined=str(got["unsupported"]) or "no reason given")
    if "error" in got:
        if expected == ERROR:
            return CaseResult(case, True, ERROR, ERROR, judged_by=name)
        return CaseResult(case, False, expected, f"error from {name}: {got['error']}",
                          judged_by=name)
    answer = got["answer"]
    try:
        if case.kind == "decompose":
            answer = [canonical(c) for c in answer]
        elif case.kind == "throw":
            answer = dict(answer)
            answer.pop("blocker", None)
            if answer.get("forced") is not None:
                answer["forced"] = canonical(answer["forced"])
            if "forced_options" in answer:
                answer["forced_options"] = [canonical(c) for c in answer["forced_options"]]
    except (ShengjiError, TypeError, ValueError, AttributeError) as e:
        return CaseResult(case, False, expected, f"garbage answer from {name}: {answer!r:.80} "
                          f"({e})", judged_by=name)
    return answer


@dataclass(frozen=True)
class FileProblem:
    """A case file that could not be read at all (counted as one failure)."""

    path: Path
    message: str

    passed = False
    status = "failed"

    def line(self) -> str:
        return self.message


def iter_results(paths: Iterable, variants: VariantCache | None = None,
                 engine=None) -> Iterator:
    """Results of every case in the files / folders given, in file order; unreadable
    files give one FileProblem each."""
    variants = variants or VariantCache()
    for path in find_case_files(paths):
        try:
            cf = load_case_file(path)
        except CaseFileError as e:
            yield FileProblem(path, str(e))
            continue
        for case in cf.cases:
            yield run_case(case, variants, engine)


def summary(passed: int, failed: int, xfailed: int = 0) -> str:
    """The closing line ``N passed, N failed`` (known failures, if any, appended)."""
    tail = f", {xfailed} xfailed" if xfailed else ""
    return f"{passed} passed, {failed} failed{tail}"


__all__ = [
    "CaseResult",
    "FileProblem",
    "VariantCache",
    "run_case",
    "iter_results",
    "summary",
    "flow",
    "CaseFileError",
]
