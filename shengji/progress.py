"""Progress bars on stderr, shown only when someone is watching.

Built on `tqdm <https://tqdm.github.io/>`_ (docs/progress.md says why tqdm rather than
rich). A bar is drawn only when it is asked for: ``enabled=None`` (the default
everywhere, and what the commands do without ``--progress``/``--no-progress``) means
*when the stream is a terminal*, so a redirected or piped stderr (``2>err.txt``, CI logs)
receives no carriage-return frames at all; ``True`` forces a bar, ``False`` forbids it.

    with Progress(total=500, what="deals") as bar:
        for result in results:
            bar.update(1)
            bar.write("a line for stdout")   # printed above the bar, not through it
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, TextIO


def wanted(enabled: bool | None, stream: TextIO | None = None) -> bool:
    """Whether to draw: ``enabled`` when given, else whether ``stream`` (stderr by
    default) is a terminal."""
    if enabled is not None:
        return bool(enabled)
    stream = stream if stream is not None else sys.stderr
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class Progress:
    """A progress bar of ``total`` units named ``what`` (``None``: a counter with a rate
    and no ETA). Unless forced (``enabled=True``), ``delay`` seconds pass before it first
    draws, so that short runs (a small folder of rule cases) show nothing. Disabled, it
    costs one attribute test per update and imports nothing."""

    def __init__(self, total: int | None, what: str, enabled: bool | None = None, *,
                 stream: TextIO | None = None, delay: float = 0.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = wanted(enabled, self.stream)
        self.total, self.what = total, what
        self._bar: Any = None
        if self.enabled:
            from tqdm import tqdm  # only when drawing: keeps `shengji` startup lean

            self._bar = tqdm(total=total, unit=" " + what, unit_scale=False, file=self.stream,
                             delay=0.0 if enabled else delay, dynamic_ncols=True,
                             leave=True)

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def write(self, line: str, file: TextIO | None = None) -> None:
        """Print ``line`` (to stdout by default) without tearing the bar."""
        file = file if file is not None else sys.stdout
        if self._bar is not None:
            self._bar.write(line, file=file)
        else:
            print(line, file=file)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def add_progress_argument(parser: Any) -> None:
    """``--progress``/``--no-progress`` on a command: force the bar on or off (default:
    only when stderr is a terminal). Sets ``args.progress`` to True, False or None."""
    import argparse

    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="force the progress bar on stderr on or off (default: shown "
                             "only when stderr is a terminal)")


__all__ = ["Progress", "add_progress_argument", "wanted"]
