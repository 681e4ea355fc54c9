"""Other engines for the play kinds: ``shengji conformance --engine wasm | cmd:PROGRAM``.

An engine is a program that speaks the JSON-lines protocol of docs/conformance.md: one
request per line on its stdin (kind, rules as JSON, level, trump, cards in the case-file
notation), one answer per line on its stdout, in order. ``wasm`` is our own such program,
``shengji/wasm/engine.mjs`` (core.wasm run by Node). A program that crashes, hangs past
the time limit or answers garbage fails that case with a one-line reason; it is started
again for the next case, so the runner never hangs.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from pathlib import Path

from ..errors import ShengjiError

#: the kinds an engine is asked (the rest run on the Python core, reported as such)
ENGINE_KINDS = ("compare", "tractor", "decompose", "follow", "winner", "throw",
                "kitty_multiplier")
#: a kind whose answer a variant's plugin may change: asked of the engine only when no
#: plugin of the variant implements the hook
_HOOKS = {"throw": "shengji_failed_throw", "kitty_multiplier": "shengji_kitty_multiplier"}


class EngineError(ShengjiError):
    """The engine program failed on a request (crash, time limit, garbage)."""


class CmdEngine:
    """A conformance engine program, started on first use (``argv``: its command line)."""

    def __init__(self, argv: list[str], name: str, timeout: float = 10.0):
        if not argv:
            raise ShengjiError("--engine cmd: needs a program")
        self.argv = argv
        self.name = name
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue = queue.Queue()
        self._n = 0

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        except OSError as e:
            raise EngineError(f"engine {self.name}: cannot start {self.argv[0]!r}: {e}") from None
        lines: queue.Queue = queue.Queue()
        self._lines = lines
        proc = self._proc

        def read():  # one thread per program: readline blocks, the queue has a timeout
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin and proc.stdout and proc.stderr  # started with three pipes
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for f in (proc.stdout, proc.stderr):
            try:
                f.close()
            except OSError:
                pass

    def _fail(self, why: str) -> EngineError:
        """Stop the program (it is started again for the next request) and say why."""
        proc = self._proc
        err = ""
        if proc is not None:
            proc.kill()
            proc.wait()
            assert proc.stderr is not None  # started with three pipes
            try:
                last = (proc.stderr.read() or "").strip().splitlines()[-1:]
                err = f"; stderr: {last[0][:200]}" if last else ""
            except (OSError, ValueError):
                err = ""
            self._proc = None
        return EngineError(f"engine {self.name}: {why}{err}")

    def ask(self, request: dict) -> dict:
        return self.ask_many([request])[0]

    def ask_many(self, requests: list[dict]) -> list[dict]:
        """Answers to ``requests`` (written all at once, read in order): each answer is a
        dict with ``answer``, ``error`` or ``unsupported``. EngineError when the program
        fails; the answers before the failure are lost with it."""
        return self.collect(self.send(requests))

    def send(self, requests: list[dict]) -> list[str]:
        """Write ``requests`` (from a thread: a program that does not read cannot block
        us); their ids, for ``collect``. Sending the next batch before collecting this
        one lets the program work while the caller prepares it."""
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        ids = []
        text = []
        for r in requests:
            self._n += 1
            ids.append(str(self._n))
            text.append(json.dumps({"id": ids[-1], **r}, ensure_ascii=False))
        proc = self._proc
        payload = "\n".join(text) + "\n"

        def write():
            try:
                proc.stdin.write(payload)
                proc.stdin.flush()
            except (OSError, ValueError):
                pass

        threading.Thread(target=write, daemon=True).start()
        return ids

    def collect(self, ids: list[str]) -> list[dict]:
        """The answers to the requests ``send`` gave these ids, in order."""
        proc = self._proc
        out = []
        for rid in ids:
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise self._fail(f"no answer within {self.timeout:g} s (time limit)") from None
            if line is None:
                code = proc.wait() if proc is not None else "?"
                raise self._fail(f"the program exited (status {code}) without answering")
            try:
                got = json.loads(line)
            except ValueError:
                raise self._fail(f"garbage answer (not JSON): {line.strip()[:80]!r}") from None
            if not isinstance(got, dict) or got.get("id") != rid or not (
                    "answer" in got or "error" in got or "unsupported" in got):
                raise self._fail(f"garbage answer (expected id {rid} with answer, error or "
                                 f"unsupported): {line.strip()[:80]!r}")
            out.append(got)
        return out


def make_engine(spec: str, timeout: float = 10.0) -> CmdEngine | None:
    """``python`` (None: the built-in judges), ``wasm``, or ``cmd:PROGRAM ARGS``."""
    if spec in ("", "python"):
        return None
    if spec == "wasm":
        from ..wasm import ENGINE, WASM, node

        exe = node()
        if exe is None:
            raise ShengjiError("--engine wasm runs core.wasm with Node.js: no `node` on the "
                               "PATH (apt-get install nodejs)")
        if not WASM.is_file():
            raise ShengjiError(f"--engine wasm: {WASM} is missing (python core_c/build_wasm.py)")
        return CmdEngine([exe, str(ENGINE)], "wasm", timeout)
    if spec.startswith("cmd:"):
        argv = shlex.split(spec[4:])
        if argv and Path(argv[0]).suffix in (".mjs", ".js") and Path(argv[0]).is_file():
            from ..wasm import node

            argv = [node() or "node", *argv]
        return CmdEngine(argv, spec, timeout)
    raise ShengjiError(f"--engine {spec}: expected python, wasm or cmd:PROGRAM")


def covers(case, variant) -> bool:
    """Is this case asked of the engine (a play kind, no plugin changing its answer)?"""
    if case.kind not in ENGINE_KINDS:
        return False
    if case.kind == "throw" and isinstance(case.expect, dict) and "penalty" in case.expect:
        return False  # the penalty is the variant's (penalties:), not the rules as data
    hook = _HOOKS.get(case.kind)
    return hook is None or variant._plugin_hook((hook,)) is None


def request(case, variant) -> dict:
    """The protocol request of a case: kind, the variant's name and table size, rules,
    level, trump and its cards (docs/conformance.md, "The requests")."""
    from ..cards import SUITS, level_name
    from ..wasm import rules_json

    return {"kind": case.kind, "variant": variant.name, "players": variant.players,
            "rules": rules_json(variant.play_rules),
            "level": None if case.level is None else level_name(case.level),
            "trump": "none" if case.trump is None else SUITS[case.trump],
            "cards": case.value}
