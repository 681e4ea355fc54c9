"""``shengji conformance PATH...`` runs rule-case files; ``--variant NAME|PATH`` runs the
all-variants suite against one variant (a built-in or a house-rule file).

Prints one line per failure and closes with ``N passed, N failed``; exit status 1 when
anything failed (2 for a usage problem, as every shengji command).
"""

from __future__ import annotations

import sys

from ..conformance.runner import iter_results, summary


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
    p.add_argument("-v", "--verbose", action="store_true", help="also list passing checks")
    p.set_defaults(func=run, _parser=p)


def run(args) -> int:
    if not args.paths and not args.variant:
        args._parser.error("give case files/folders, or --variant NAME|PATH")
    if args.deals is not None and args.deals < 0:
        args._parser.error(f"--deals {args.deals}: needs 0 or more deals")
    out = sys.stdout
    passed = failed = xfailed = 0
    for r in iter_results(args.paths):
        if r.status == "xfailed":
            xfailed += 1
            if args.verbose:
                print(f"xfail {r.case.where}: {r.case.xfail}", file=out)
        elif r.passed:
            passed += 1
            if args.verbose:
                print(f"ok   {r.case.where}", file=out)
        else:
            failed += 1
            print(r.line(), file=out)
    for ref in args.variant:
        from ..conformance.suite import SuiteConfig, run_suite

        config = SuiteConfig(seed=args.seed)
        if args.deals is not None:
            config = SuiteConfig(seed=args.seed, deals=args.deals)
        for check in run_suite(ref, config):
            if check.passed:
                passed += 1
                if args.verbose:
                    print(f"ok   {check.where}", file=out)
            else:
                failed += 1
                print(check.line(), file=out)
    print(summary(passed, failed, xfailed), file=out)
    return 1 if failed else 0
