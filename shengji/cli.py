"""The ``shengji`` command. Each subcommand lives in ``shengji/commands/<name>.py`` and
exposes ``add_parser(subparsers)``, which registers its parser with ``func=run``.

Every command (and subcommand) takes ``--allow-plugin NAME`` (repeatable): the plugin
modules a variant file may import for this run (docs/variants.md "Trust").

Errors of the library (``ShengjiError``) are printed as one clear message with exit
status 2; they never reach the user as a traceback. Output piped into a reader that
stops early (``shengji conformance -v tests/cases | head``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from .errors import ShengjiError
from .plugins import ALLOW_ENV, allowing

COMMANDS = ("variants", "conformance", "simulate", "arena", "play", "watch", "replay",
            "serve")


def version() -> str:
    """The installed distribution's version (the package's own when not installed)."""
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version
        return dist_version("shengji")
    except PackageNotFoundError:
        from . import __version__
        return __version__


class _Parser(argparse.ArgumentParser):
    """No abbreviated options: with both ``--players`` and ``--players-count``, argparse
    would read a mistyped ``--player`` as whichever it likes, and an error about the
    wrong option follows."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="shengji", description="Rules-as-data engine for 升级 / Tractor / 80分 and variants."
    )
    parser.add_argument("--version", action="version", version=f"shengji {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"shengji.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"shengji.commands.{name}":
                raise
            continue  # command not built yet
        module.add_parser(sub)
    _add_allow_plugin(parser, top=True)
    return parser


ALLOW_HELP = (f"let variant files import the plugin module NAME (repeatable; plugins run code; "
              f"also {ALLOW_ENV}=NAME,...)")


def _add_allow_plugin(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """``--allow-plugin`` on the parser and every subcommand's parser, so it can be given
    where it reads naturally (``shengji variants check --allow-plugin my_rules f.yaml``)."""
    parser.add_argument("--allow-plugin", action="append", metavar="NAME", dest="allow_plugin",
                        default=[] if top else argparse.SUPPRESS, help=ALLOW_HELP)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _add_allow_plugin(sub)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        with allowing(getattr(args, "allow_plugin", None) or []):
            return int(args.func(args) or 0)
    except ShengjiError as e:
        print(f"shengji {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output went away; point stdout at devnull so that the
        # interpreter's final flush does not fail again (Python docs, "SIGPIPE")
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141


if __name__ == "__main__":
    sys.exit(main())
