"""The rule-case runner, the `shengji conformance` command and the pytest plugin
(../shared/CONFORMANCE.md): cases that pass, cases that must fail, malformed files."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from shengji.cli import main
from shengji.conformance import CaseFileError, iter_results, load_case_file
from shengji.conformance.runner import summary

CASES = Path(__file__).parent / "cases"
ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str, name: str = "t.cases.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def results(path):
    return list(iter_results([path]))


# --- cases judged right and wrong ---------------------------------------------------------


def test_right_answer_passes_wrong_answer_fails_with_expected_and_got(tmp_path):
    p = write(
        tmp_path,
        """\
        variant: two-deck-80
        defaults: {level: "10", trump: S}
        cases:
          - id: right
            source: "seed 000, 拖拉機的構成"
            tractor: "HJ HJ H9 H9"
            expect: true
          - id: wrong
            source: "seed 000, 拖拉機的構成"
            tractor: "HJ HJ H9 H9"
            expect: false
        """,
    )
    right, wrong = results(p)
    assert right.passed and right.status == "passed"
    assert not wrong.passed
    line = wrong.line()
    assert str(p) in line and "::wrong" in line
    assert "expected false" in line and "got true" in line
    assert "seed 000" in line


@pytest.mark.parametrize(
    "kind, value, right, wrong",
    [
        ("compare", '["H10", "S10"]', "lower", "higher"),
        ("decompose", '"H9 H8 H8 H4 H4"', '["H4 H4", "H9", "H8 H8"]', '["H9 H8 H8", "H4 H4"]'),
        ("follow", '{lead: "H3 H3", hand: "H9 H9 H6 H5", play: "H6 H5"}', "illegal", "legal"),
        ("winner", '{plays: ["H3", "HA", "S2", "H4"]}', "2", "1"),
        (
            "throw",
            '{lead: "H9 H8 H8 H4 H4", others: ["HJ", "C3", "D4"]}',
            '{valid: false, forced: "H9"}',
            "{valid: true}",
        ),
        ("kitty_multiplier", '{play: "H5 H5 H4 H4"}', "16", "4"),
        (
            "score",
            "{attacker_points: 120}",
            "{next: attackers, rise: 1}",
            "{next: dealers, rise: 1}",
        ),
        (
            "declare",
            '{steps: [{seat: 0, cards: "H10"}, {seat: 1, cards: "S10 S10"}]}',
            "{accepted: [true, true], trump: S, declarer: 1}",
            "{accepted: [true, false], trump: H, declarer: 0}",
        ),
    ],
)
def test_every_kind_can_pass_and_fail(tmp_path, kind, value, right, wrong):
    p = write(
        tmp_path,
        f"""\
        variant: two-deck-80
        defaults: {{level: "10", trump: S}}
        cases:
          - {{id: right, {kind}: {value}, expect: {right}}}
          - {{id: wrong, {kind}: {value}, expect: {wrong}}}
        """,
    )
    r, w = results(p)
    assert r.passed, r.line()
    assert not w.passed


def test_expect_error_passes_only_on_an_input_error(tmp_path):
    p = write(
        tmp_path,
        """\
        variant: two-deck-80
        defaults: {level: "10", trump: S}
        cases:
          - {id: bad-token, compare: [HX, S2], expect: error}
          - {id: too-many-copies, tractor: "HA HA HA", expect: error}
          - {id: not-in-hand, follow: {lead: "H3", hand: "H5", play: "H6"}, expect: error}
          - {id: fine-input, compare: [HA, S2], expect: error}
          - {id: unexpected-error, compare: [HX, S2], expect: higher}
        """,
    )
    out = {r.case.id: r for r in results(p)}
    assert out["bad-token"].passed
    assert out["too-many-copies"].passed
    assert out["not-in-hand"].passed
    assert not out["fine-input"].passed
    assert "expected error, got lower" in out["fine-input"].line()
    bad = out["unexpected-error"].line()
    assert "CardError" in bad and "HX" in bad


def test_variant_path_relative_to_the_case_file(tmp_path):
    (tmp_path / "rules").mkdir()
    write(tmp_path / "rules", "extends: two-deck-80\nplay: {kitty: power}\n", "house.yaml")
    sub = tmp_path / "cases"
    sub.mkdir()
    p = write(
        sub,
        """\
        variant: ../rules/house.yaml
        defaults: {level: "10", trump: S}
        cases:
          - {id: power, kitty_multiplier: {play: "H5 H5 H4 H4"}, expect: 8}
          - id: builtin-override
            variant: two-deck-80
            kitty_multiplier: {play: "H5 H5 H4 H4"}
            expect: 16
        """,
    )
    assert all(r.passed for r in results(p)), [r.line() for r in results(p)]


def test_registered_name_with_a_slash(tmp_path):
    # issue 10 / CONFORMANCE.md: a registered house name is a name, not a path
    p = write(
        tmp_path,
        """\
        variant: house/forty-point-steps
        cases:
          - {id: eighty, score: {attacker_points: 80}, expect: {next: attackers, rise: 1}}
          - id: unknown
            variant: house/no-such-house
            score: {attacker_points: 80}
            expect: {next: attackers, rise: 1}
        """,
    )
    ok, unknown = results(p)
    assert ok.passed, ok.line()
    assert not unknown.passed
    assert "no variant named 'house/no-such-house'" in unknown.line()
    assert "house/forty-point-steps" in unknown.line()


def test_a_file_beside_the_case_file_wins_over_a_name(tmp_path):
    (tmp_path / "house").mkdir()
    write(tmp_path / "house", "extends: two-deck-80\nplay: {kitty: power}\n", "turn-kitty")
    p = write(
        tmp_path,
        """\
        variant: house/turn-kitty
        defaults: {level: "10", trump: S}
        cases:
          - {id: power, kitty_multiplier: {play: "H5 H5 H4 H4"}, expect: 8}
        """,
    )
    assert all(r.passed for r in results(p)), [r.line() for r in results(p)]


def test_house_cases_fail_against_the_builtin_they_extend(tmp_path):
    # the knob cases really depend on the house file: run them against the base variant
    src = (CASES / "house" / "scoring-seed003.cases.yaml").read_text(encoding="utf-8")
    p = write(tmp_path, src.replace("variant: scoring-seed003.yaml", "variant: two-deck-80"))
    failed = [r for r in results(p) if not r.passed]
    assert {r.case.id for r in failed} >= {"eighty", "one-twenty", "one-sixty"}


HOUSE_CASES = sorted((CASES / "house").glob("*.cases.yaml"))


@pytest.mark.parametrize("path", HOUSE_CASES, ids=lambda p: p.name)
def test_every_house_case_file_passes_on_its_house_and_fails_on_the_base(path, tmp_path):
    # the pattern of docs/conformance.md: a house knob is shown by cases that hold on the
    # house file and not on the variant it extends
    import yaml

    assert all(r.passed for r in results(path)), [r.line() for r in results(path)]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    house = yaml.safe_load((path.parent / data["variant"]).read_text(encoding="utf-8"))
    base = house["extends"]
    assert not base.endswith(".yaml"), f"{path.name}: extend a registered variant"
    data["variant"] = base
    p = write(tmp_path, yaml.safe_dump(data, allow_unicode=True))
    assert any(not r.passed for r in results(p)), f"{path.name} passes on {base} too"


SHIPPED_HOUSE = sorted(p for p in (CASES / "shipped").glob("*.cases.yaml")
                       if "variant: house/" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SHIPPED_HOUSE, ids=lambda p: p.name)
def test_every_shipped_house_case_file_fails_on_its_base(path, tmp_path):
    # issue 35: a shipped house file's cases name its source and show what it changes:
    # some fail on the variant the house file extends (at the house file's table size)
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = data["variant"].split("/", 1)[1]
    house = yaml.safe_load((ROOT / "variants" / "house" / f"{name}.yaml").read_text("utf-8"))
    data["variant"] = house["extends"]
    if "players" in house:
        data.setdefault("defaults", {})["players"] = house["players"]
    data["cases"] = [c for c in data["cases"] if "xfail" not in c]
    p = write(tmp_path, yaml.safe_dump(data, allow_unicode=True))
    assert any(not r.passed for r in results(p)), f"{path.name} passes on {house['extends']} too"


def test_xfail_note(tmp_path):
    p = write(
        tmp_path,
        """\
        variant: two-deck-80
        defaults: {level: "10", trump: S}
        cases:
          - {id: still-wrong, compare: [HA, S2], expect: higher, xfail: "known: ..."}
          - {id: fixed-now, compare: [HA, S2], expect: lower, xfail: "known: ..."}
        """,
    )
    still, fixed = results(p)
    assert still.status == "xfailed" and still.passed
    assert fixed.status == "xpassed" and not fixed.passed
    assert "remove the note" in fixed.line()


# --- malformed files: a clear message naming file, case and key ------------------------


@pytest.mark.parametrize(
    "case, words",
    [
        ('{id: a, tractor: "HA HA", expect: maybe}', ["::a", "expect", "maybe"]),
        ("{id: a, expect: true}", ["::a", "case kind"]),
        (
            '{id: a, tractor: "HA HA", compare: [HA, HK], expect: true}',
            ["::a", "got compare, tractor"],
        ),
        ('{id: a, tractor: "HA HA"}', ["::a", "expect: missing"]),
        ('{id: a, tractor: "HA HA", expect: true, colour: red}', ["::a", "colour"]),
        ('{id: a, tractor: "HA HA", expect: true, level: "11"}', ["::a", "level", "11"]),
        ('{id: a, tractor: "HA HA", expect: true, trump: X}', ["::a", "trump"]),
        ("{id: a, follow: {lead: H3, hand: H5}, expect: legal}", ["::a", "follow", "play"]),
        (
            "{id: a, score: {attacker_points: lots}, expect: {next: dealers, rise: 1}}",
            ["::a", "attacker_points"],
        ),
        (
            "{id: a, score: {attacker_points: 5}, expect: {next: nobody, rise: 1}}",
            ["::a", "expect.next", "nobody"],
        ),
        ('{tractor: "HA HA", expect: true}', ["#1", "id"]),
    ],
)
def test_malformed_case_names_file_id_and_key(tmp_path, case, words):
    p = write(
        tmp_path,
        f"""\
        variant: two-deck-80
        defaults: {{level: "10", trump: S}}
        cases:
          - {case}
        """,
    )
    (r,) = results(p)
    assert not r.passed and r.problem
    line = r.line()
    assert str(p) in line
    for w in words:
        assert w in line, line


def test_duplicate_ids(tmp_path):
    p = write(
        tmp_path,
        """\
        variant: two-deck-80
        defaults: {level: "10", trump: S}
        cases:
          - {id: a, tractor: "HA HA", expect: false}
          - {id: a, tractor: "HA HA", expect: false}
        """,
    )
    first, second = results(p)
    assert first.passed and not second.passed and "used twice" in second.line()


def test_unknown_variant_is_a_failing_case_not_a_crash(tmp_path):
    p = write(
        tmp_path,
        """\
        variant: no-such-variant
        cases:
          - {id: a, score: {attacker_points: 0}, expect: {next: dealers, rise: 3}}
        """,
    )
    (r,) = results(p)
    assert not r.passed and "no-such-variant" in r.line()


@pytest.mark.parametrize(
    "text, words",
    [
        ("variant: [unclosed\n", ["not valid YAML", ".cases.yaml:2:"]),
        ("- just a list\n", ["expected a mapping"]),
        ("variant: two-deck-80\ncases: []\n", ["cases"]),
        ("variant: two-deck-80\ncase: []\n", ["unknown key", "case"]),
        ("variant: two-deck-80\ndefaults: {levl: 2}\ncases: [{id: a}]\n", ["defaults", "levl"]),
    ],
)
def test_malformed_file(tmp_path, text, words):
    p = write(tmp_path, text)
    with pytest.raises(CaseFileError) as e:
        load_case_file(p)
    assert str(p) in str(e.value)
    for w in words:
        assert w in str(e.value)


# --- the command ------------------------------------------------------------------------


def test_command_prints_failures_and_summary(tmp_path, capsys):
    p = write(
        tmp_path,
        """\
        variant: two-deck-80
        defaults: {level: "10", trump: S}
        cases:
          - {id: ok, tractor: "HK HK HQ HQ", expect: true}
          - {id: bad, tractor: "HK HK HQ HQ", expect: false}
        """,
    )
    write(tmp_path, "variant: [\n", "broken.cases.yaml")
    code = main(["conformance", str(tmp_path)])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 1
    assert out[-1] == summary(1, 2) == "1 passed, 2 failed"
    assert any("::bad: expected false, got true" in line for line in out)
    assert any("broken.cases.yaml" in line and "not valid YAML" in line for line in out)
    assert str(p) in "\n".join(out)


def test_command_exit_zero_when_all_pass(tmp_path, capsys):
    write(
        tmp_path,
        """\
        variant: one-deck-40
        cases:
          - {id: zero, score: {attacker_points: 0}, expect: {next: dealers, rise: 3}}
        """,
    )
    assert main(["conformance", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().endswith("1 passed, 0 failed")


def test_command_missing_path_is_a_clear_error(tmp_path, capsys):
    assert main(["conformance", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "Traceback" not in err


# --- the pytest plugin ------------------------------------------------------------------


def _plugin_args() -> list[str]:
    installed = any(ep.name == "shengji" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "shengji.conformance.pytest_plugin"]


def test_pytest_plugin_one_item_per_case_and_plain_failure(tmp_path):
    write(
        tmp_path,
        """\
        variant: two-deck-80
        defaults: {level: "10", trump: S}
        cases:
          - {id: good, compare: [HA, HK], expect: higher, source: "seed 000"}
          - {id: bad, compare: [HA, HK], expect: lower}
          - {id: broken, compare: [HA, HK], expect: sideways}
        """,
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *_plugin_args(),
            "--rootdir",
            str(tmp_path),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "shengji rule cases: 1 passed, 2 failed" in out
    assert "t.cases.yaml::bad: expected lower, got higher" in out
    assert "sideways" in out
    assert "Traceback" not in out and "def runtest" not in out


def test_repo_cases_are_collected_by_pytest(request):
    # the repo's own run (testpaths = tests) collects tests/cases through the plugin
    items = [i for i in request.session.items if i.path.name.endswith(".cases.yaml")]
    if not items:
        pytest.skip("this run did not collect tests/cases (a narrower path was given)")
    assert len({i.path for i in items}) >= 20
