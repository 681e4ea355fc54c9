"""``shengji conformance --engine wasm | cmd:PROGRAM`` (docs/conformance.md, issue 24).

Every public rule case passes with the wasm core run by Node, both as ``--engine wasm``
and as ``--engine cmd:`` naming the same program (the protocol tested by our own use);
the all-variants suite's engine comparison passes; a program that crashes, hangs or
answers garbage fails each case it was asked, with a reason, within the time limit.
"""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shengji.cli import main
from shengji.conformance.engines import CmdEngine, EngineError
from shengji.wasm import ENGINE, node

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"
needs_node = pytest.mark.skipif(node() is None, reason="Node.js is not installed")


def conformance(capsys, *args) -> tuple[int, str]:
    code = main(["conformance", *map(str, args)])
    return code, capsys.readouterr().out


@needs_node
def test_every_rule_case_passes_with_the_wasm_engine(capsys):
    code, out = conformance(capsys, CASES, "--engine", "wasm")
    assert code == 0, out
    judged = out.splitlines()[-2]
    assert judged.startswith("engine wasm: ") and "cases judged by it, 0 declined" in judged
    n = int(judged.split(": ")[1].split()[0])
    assert n > 250  # the play kinds of the case files
    assert out.splitlines()[-1].endswith(" passed, 0 failed")


@needs_node
def test_cmd_engine_runs_the_node_program(capsys):
    code, out = conformance(capsys, CASES / "two-deck-80", "--engine", f"cmd:{ENGINE}")
    assert code == 0, out
    assert out.splitlines()[-2].startswith(f"engine cmd:{ENGINE}: ")


@needs_node
def test_suite_compares_the_engine(capsys):
    code, out = conformance(capsys, "--variant", "two-deck-80", "--variant", "four-deck",
                            "--deals", "0", "--engine", "wasm", "-v")
    assert code == 0, out
    assert "ok   two-deck-80::follows" in out


THREE_CASES = """variant: two-deck-80
defaults: {level: "10", trump: S}
cases:
  - {id: a, winner: {plays: ["H5", "H6", "H7", "H8"]}, expect: 3}
  - {id: b, decompose: "HA HA HK", expect: ["HA HA", "HK"]}
  - {id: c, follow: {lead: "H5 H5", hand: "H7 H7 H3", play: "H7 H3"}, expect: illegal}
"""


def _program(tmp_path, body: str) -> str:
    p = tmp_path / "engine.py"
    p.write_text("import sys, json, time\n" + body)
    return f"cmd:{sys.executable} {p}"


@pytest.mark.parametrize("body, why", [
    ("sys.exit(3)\n", "exited (status 3) without answering"),
    ("time.sleep(30)\n", "no answer within 0.3 s (time limit)"),
    ("for line in sys.stdin:\n    print('hello', flush=True)\n", "garbage answer (not JSON)"),
    ("for line in sys.stdin:\n    print(json.dumps({'id': 'x', 'answer': 1}), flush=True)\n",
     "garbage answer (expected id"),
    ("for line in sys.stdin:\n    print(json.dumps({'id': json.loads(line)['id'],"
     " 'answer': {'odd': 1}}), flush=True)\n", "odd"),
])
def test_a_broken_program_fails_each_case_with_a_reason(tmp_path, capsys, body, why):
    cases = tmp_path / "w.cases.yaml"
    cases.write_text(THREE_CASES)
    t0 = time.monotonic()
    # the time limit is short only for the program that hangs (it never answers, however
    # fast the machine): a program that answers at once may still take seconds to start
    # on a loaded machine (tests never fail on timing)
    limit = "0.3" if "time limit" in why else "60"
    code, out = conformance(capsys, cases, "--engine", _program(tmp_path, body),
                            "--engine-timeout", limit)
    assert code == 1
    lines = out.splitlines()
    failures = [x for x in lines if "::" in x]
    assert failures and all(why in x for x in failures), out
    n_cases = int(lines[-1].split(" passed")[0]) + int(lines[-1].split(", ")[1].split()[0])
    assert len(failures) == n_cases == 3  # every case was asked and failed on its own
    if "time limit" in why:
        # a hang is cut (30 s of sleep a case would be 90 s), however slow the machine
        assert time.monotonic() - t0 < 80


REPORTED = THREE_CASES + (
    "  - {id: d, score: {attacker_points: 40}, expect: {next: dealers, rise: 1}}\n")
# judges follow (always "legal"), declines the rest naming the request's variant and seats
HALF_ENGINE = (
    "for line in sys.stdin:\n"
    "    r = json.loads(line)\n"
    "    out = ({'answer': 'legal'} if r['kind'] == 'follow' else\n"
    "           {'unsupported': f\"{r['kind']}: no ({r['variant']}, {r['players']} seats)\"})\n"
    "    print(json.dumps({'id': r['id'], **out}), flush=True)\n")


def test_the_report_says_per_file_what_the_engine_judged_declined_and_never_got(
        tmp_path, capsys):
    """docs/conformance.md "The runner's report": per case file, judged / declined (with
    the engine's reasons) / never sent, and --json says the same."""
    cases = tmp_path / "w.cases.yaml"
    cases.write_text(REPORTED)
    engine = _program(tmp_path, HALF_ENGINE)
    code, out = conformance(capsys, cases, "--engine", engine, "--engine-timeout", "60")
    assert code == 1  # the follow case expects illegal
    assert f"  {cases}: 1 judged, 2 declined, 1 never sent (score 1)" in out
    assert "    declined 1: winner: no (two-deck-80, 4 seats)" in out
    assert "    declined 1: decompose: no (two-deck-80, 4 seats)" in out
    assert out.splitlines()[-2].startswith(f"engine {engine}: 1 cases judged by it, 2 declined")
    code, out = conformance(capsys, cases, "--engine", engine, "--engine-timeout", "60",
                            "--json")
    report = json.loads(out)
    assert code == 1 and (report["passed"], report["failed"]) == (3, 1)
    [f] = report["files"]
    assert (f["judged"], f["never_sent"]) == (1, {"score": 1})
    assert sorted((d["reason"], d["cases"]) for d in f["declined"]) == [
        ("decompose: no (two-deck-80, 4 seats)", ["b"]),
        ("winner: no (two-deck-80, 4 seats)", ["a"])]
    [failure] = report["failures"]
    assert (failure["case"], failure["expected"], failure["got"]) == ("c", "illegal", "legal")


def test_a_missing_program_is_one_clear_failure_per_case(tmp_path, capsys):
    cases = tmp_path / "w.cases.yaml"
    cases.write_text(THREE_CASES)
    code, out = conformance(capsys, cases, "--engine", "cmd:/nonexistent/engine")
    assert code == 1
    assert "cannot start '/nonexistent/engine'" in out


def test_an_unknown_engine_is_a_usage_error(capsys):
    assert main(["conformance", str(CASES), "--engine", "perl"]) == 2
    assert "expected python, wasm or cmd:PROGRAM" in capsys.readouterr().err


@needs_node
def test_engine_restarts_after_a_failure(tmp_path):
    """A request the program dies on fails; the next one starts it again."""
    script = tmp_path / "flaky.py"
    script.write_text(
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['kind'] == 'die':\n"
        "        sys.exit(1)\n"
        "    print(json.dumps({'id': r['id'], 'answer': r['kind']}), flush=True)\n")
    e = CmdEngine([sys.executable, str(script)], "flaky", timeout=5)
    try:
        assert e.ask({"kind": "a"})["answer"] == "a"
        with pytest.raises(EngineError, match="exited"):
            e.ask({"kind": "die"})
        assert e.ask({"kind": "b"})["answer"] == "b"
    finally:
        e.close()


def test_no_process_is_left_behind(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text("import time\ntime.sleep(60)\n")
    e = CmdEngine([sys.executable, str(script)], "slow", timeout=0.5)
    with pytest.raises(EngineError, match="time limit"):
        e.ask({"kind": "x"})
    assert e._proc is None
    e.close()
    out = subprocess.run(["pgrep", "-f", str(script)], capture_output=True, text=True)
    assert out.stdout.strip() == ""
