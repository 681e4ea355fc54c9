"""``shengji conformance PATH...`` runs rule-case files; ``--variant NAME|PATH`` runs the
all-variants suite against one variant (a built-in or a house-rule file).

Prints one line per failure and closes with ``N passed, N failed``; exit status 1 when
anything failed (2 for a usage problem, as every shengji command).
"""

from __future__ import annotations

import json
import sys

from ..conformance.report import Report
from ..conformance.runner import iter_results, summary
from ..progress import Progress, add_progress_argument
from . import add_seats_argument


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "conformance",
        help="check a variant against rule-case files or the all-variants suite",
        description="Run *.cases.yaml rule-case files (files or folders), or with --variant "
        "the all-variants suite (random deals, invariants, JSON round trips, replay) "
        "against one variant.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="case files or folders of them")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME|PATH",
        help="run the all-variants suite against this variant (repeatable)",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        metavar="N",
        help="random deals per variant for --variant (default: the suite's)",
    )
    p.add_argument("--seed", type=int, default=0, help="first random seed for --variant")
    p.add_argument(
        "--engine",
        default="python",
        metavar="python|wasm|cmd:PROGRAM",
        help="who judges the play kinds (compare, tractor, decompose, follow, winner, throw, "
        "kitty_multiplier): the Python/C core (default), core.wasm through Node (wasm), or any "
        "program speaking the JSON-lines protocol of docs/conformance.md (cmd:PROGRAM); the "
        "other kinds run on the Python core and are reported as such",
    )
    p.add_argument("--engine-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="time limit of one engine answer (default 10)")
    add_seats_argument(p)
    p.add_argument("-v", "--verbose", action="store_true", help="also list passing checks")
    p.add_argument("--json", action="store_true",
                   help="print the report as one JSON object (totals, per case file what the "
                   "engine judged, declined and never received, every failure) instead of "
                   "lines")
    add_progress_argument(p)
    p.set_defaults(func=run, _parser=p)


def run(args) -> int:
    if not args.paths and not args.variant:
        args._parser.error("give case files/folders, or --variant NAME|PATH")
    if args.deals is not None and args.deals < 0:
        args._parser.error(f"--deals {args.deals}: needs 0 or more deals")
    if args.engine_timeout <= 0:
        args._parser.error(f"--engine-timeout {args.engine_timeout}: needs a positive time")
    out = sys.stdout
    from ..conformance.engines import make_engine
    from ..errors import ShengjiError

    try:
        engine = make_engine(args.engine, args.engine_timeout)
    except ShengjiError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        return _run(args, out, engine)
    finally:
        if engine is not None:
            engine.close()


def _run(args, out, engine) -> int:
    report = Report(engine.name if engine is not None else None)
    # a counter of checks (no total: cases are counted as their files load); it draws
    # only after a second, so a small folder shows nothing even on a terminal
    bar = Progress(None, "checks", enabled=args.progress, delay=1.0)

    def show(status: str, line: str) -> None:
        bar.update(1)
        if args.json:
            return
        if status == "failed":
            bar.write(line, file=out)
        elif args.verbose:
            bar.write(f"{'ok  ' if status == 'passed' else 'xfail'} {line}", file=out)

    for r in iter_results(args.paths, engine=engine):
        status = report.add_case(r)
        if r.status == "xfailed":
            show(status, f"{r.case.where}: {r.case.xfail}")
        else:
            show(status, r.case.where if r.passed else r.line())  # file problems: no case
    if args.variant:
        from ..conformance.suite import SuiteConfig, run_suite

        config = SuiteConfig(seed=args.seed, engine=engine)
        if args.deals is not None:
            config = SuiteConfig(seed=args.seed, deals=args.deals, engine=engine)
        for ref in args.variant:
            for check in run_suite(ref, config, players=args.seats):
                show(report.add_check(check), check.where if check.passed else check.line())
    bar.close()
    totals = report.totals()
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1), file=out)
    else:
        for line in report.engine_lines():
            print(line, file=out)
        print(summary(totals["passed"], totals["failed"], totals["xfailed"]), file=out)
    return 1 if totals["failed"] else 0
