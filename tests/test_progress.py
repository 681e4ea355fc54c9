"""Progress bars (shengji/progress.py, issue 22): on stderr only when it is a terminal,
``--progress``/``--no-progress`` to force. A redirected stderr gets no frames."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

from shengji.progress import Progress, wanted

ROOT = Path(__file__).resolve().parent.parent
SHENGJI = [sys.executable, "-m", "shengji"]


def _frames(text: str) -> bool:
    """tqdm's frames: carriage returns, or its rate display."""
    return "\r" in text or "deals/s" in text or "checks/s" in text


def test_simulate_500_deals_into_a_file_leaves_no_frames(tmp_path):
    """The issue's check: ``shengji simulate --deals 500 2>err.txt``."""
    err = tmp_path / "err.txt"
    with open(err, "w") as f:
        subprocess.run([*SHENGJI, "simulate", "--deals", "500"], cwd=ROOT, stderr=f,
                       stdout=subprocess.DEVNULL, check=True, timeout=300)
    assert err.read_text() == ""


def test_progress_forces_the_bar_into_a_file(tmp_path):
    err = tmp_path / "err.txt"
    with open(err, "w") as f:
        subprocess.run([*SHENGJI, "simulate", "--deals", "30", "--progress"], cwd=ROOT,
                       stderr=f, stdout=subprocess.DEVNULL, check=True, timeout=300)
    text = err.read_text()
    assert _frames(text) and "30/30" in text


def _on_a_terminal(*args: str) -> str:
    """Run ``shengji ARGS`` with stderr on a pseudo-terminal; what it drew there."""
    primary, secondary = pty.openpty()
    # a terminal 100 columns wide (a fresh pseudo-terminal has none)
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    proc = subprocess.Popen([*SHENGJI, *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=secondary)
    os.close(secondary)
    drawn = b""
    while True:
        ready, _, _ = select.select([primary], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the child closed its side
            break
        if not chunk:
            break
        drawn += chunk
    proc.wait(timeout=120)
    os.close(primary)
    assert proc.returncode == 0
    return drawn.decode("utf-8", "replace")


def test_a_terminal_gets_the_bar_unless_no_progress():
    assert "40/40" in _on_a_terminal("simulate", "--deals", "40")
    assert _on_a_terminal("simulate", "--deals", "40", "--no-progress") == ""
    assert "deals/s" in _on_a_terminal("arena", "heuristic", "random", "--deals", "2",
                                       "--variant", "one-deck-40")


def test_conformance_counts_checks_only_when_asked(tmp_path):
    case_dir = str(ROOT / "tests" / "cases" / "constant-two")
    quiet = subprocess.run([*SHENGJI, "conformance", case_dir], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    forced = subprocess.run([*SHENGJI, "conformance", case_dir, "--progress"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert quiet.returncode == forced.returncode == 0
    assert quiet.stderr == ""
    assert "checks" in forced.stderr
    assert forced.stdout == quiet.stdout  # the bar never reaches stdout


def test_wanted_follows_the_stream_unless_told():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert wanted(None, Tty()) and not wanted(None, io.StringIO())
    assert wanted(True, io.StringIO()) and not wanted(False, Tty())
    closed = io.StringIO()
    closed.close()
    assert not wanted(None, closed)


def test_a_disabled_bar_writes_lines_plainly():
    out, err = io.StringIO(), io.StringIO()
    with Progress(10, "deals", enabled=None, stream=err) as bar:
        bar.update(5)
        bar.write("a failure", file=out)
    assert out.getvalue() == "a failure\n" and err.getvalue() == ""
    with Progress(10, "deals", enabled=True, stream=err) as bar:
        bar.update(10)
    assert "10/10" in err.getvalue()
