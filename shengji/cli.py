"""The ``shengji`` command. Each subcommand lives in ``shengji/commands/<name>.py`` and
exposes ``add_parser(subparsers)``, which registers its parser with ``func=run``.

Errors of the library (``ShengjiError``) are printed as one clear message with exit
status 2; they never reach the user as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import ShengjiError

COMMANDS = ("variants", "conformance", "simulate", "play", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shengji", description="Rules-as-data engine for 升级 / Tractor / 80分 and variants."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"shengji.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"shengji.commands.{name}":
                raise
            continue  # command not built yet
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except ShengjiError as e:
        print(f"shengji {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
