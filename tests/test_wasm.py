"""core.wasm and its JavaScript module (shengji/wasm/, issue 24).

The shipped core.wasm must be built from the core_c/ sources as they are (the recorded
hash); it exports only the API and imports nothing; the JS module gives the answers and
the messages of shengji.core, and bad input is an error, never a trap or a leak. The
JS tests run the module in Node (skipped without it).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shengji.rules import PlayRules
from shengji.wasm import ENGINE, MODULE, SOURCES_STAMP, WASM, node, rules_json

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "core_c"))
import build_wasm  # noqa: E402

NODE = node()
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
REBUILD = "python core_c/build_wasm.py"


def test_shipped_wasm_is_built_from_these_sources():
    """Fails after a change of core_c/ until core.wasm is rebuilt (`REBUILD`)."""
    assert WASM.is_file(), f"{WASM} missing: run {REBUILD}"
    assert build_wasm.recorded_digest() == build_wasm.sources_digest(), (
        f"core_c/ changed since core.wasm was built: run {REBUILD} and commit "
        f"shengji/wasm/core.wasm and {SOURCES_STAMP.name}")


def test_every_core_source_is_hashed():
    """A new .c file of the cffi build is a source of core.wasm too."""
    text = (ROOT / "core_c" / "build_core.py").read_text()
    for name in [p.name for p in (ROOT / "core_c").glob("*.c")]:
        if f'"core_c/{name}"' in text:
            assert name in build_wasm.SOURCES, f"{name} is built by cffi but not into core.wasm"


def test_size_exports_and_no_imports():
    assert WASM.stat().st_size <= 200 * 1024
    if NODE is None:
        pytest.skip("Node.js is not installed")
    out = subprocess.run(
        [NODE, "-e",
         "const m = new WebAssembly.Module(require('fs').readFileSync(process.argv[1]));"
         "console.log(JSON.stringify([WebAssembly.Module.imports(m),"
         "WebAssembly.Module.exports(m).map(e => e.name)]))", str(WASM)],
        capture_output=True, text=True, check=True)
    imports, exports = json.loads(out.stdout)
    assert imports == []
    assert set(exports) == set(build_wasm.EXPORTS) | {"memory", "_initialize"}


def test_the_readme_says_the_size_of_the_shipped_core():
    """The README said 56 KB for an 83,818-byte core.wasm (issue 38): the figure is read
    from the file here, to the nearest KB."""
    import re

    said = re.search(r"`shengji/wasm/core.wasm`, (\d+) KB", (ROOT / "README.md").read_text())
    assert said, "README.md no longer gives core.wasm's size"
    assert int(said.group(1)) == round(WASM.stat().st_size / 1000), (
        f"README.md: core.wasm is {WASM.stat().st_size:,} bytes, not {said.group(1)} KB")


def test_package_data_lists_the_wasm_files():
    text = (ROOT / "pyproject.toml").read_text()
    for name in ("core.wasm", "*.mjs", "core.wasm.sources"):
        assert f'"{name}"' in text


def test_rules_json_round_trips():
    r = PlayRules(decks=3, following={"titanic": ["titanic", "tractor + pair"]},
                  constant_ranks=(0,), kitty="table", bombs="any_suit")
    data = json.loads(json.dumps(rules_json(r)))
    assert PlayRules(**data) == r


def run_js(code: str) -> str:
    """Run an ES module snippet with `core` loaded; its stdout."""
    src = f'import * as M from "{MODULE.as_uri()}";\nconst core = await M.loadCore();\n{code}'
    out = subprocess.run([NODE, "--input-type=module", "-e", src], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


@needs_node
def test_module_answers_as_the_core():
    from shengji.core import Context

    rules = PlayRules(decks=2)
    ctx = Context(rules, "10", "S")
    got = json.loads(run_js(f"""
const ctx = core.context({json.dumps(rules_json(rules))}, "10", "S");
console.log(JSON.stringify({{
  tractor: ctx.isTractor("HJ HJ H9 H9"),
  decompose: ctx.decompose("HA HA HK").map(c => c.cards),
  follow: ctx.checkFollow("H5 H5", "H7 H7 H3 S2", "H7 H3"),
  winner: ctx.trickWinner(["H5 H4 H4", "S9 S7 S7", "S8 S8 S4", "H2 H3 H6"]),
  legal: ctx.legalFollows("H5 H5", "H7 H7 H3 S2"),
  playable: Array.from(ctx.playable("H5 H5", "H7 H7 H3 S2")),
  kitty: ctx.kittyMultiplier("HA HA HK HK", "HA HA HK HK"),
  shape: ctx.leadShape("HA HA HK HK H3 H3 H2"),
  sorted: ctx.sortHand("BJ S10 H10 S2 HA D3 C4 H10"),
  throwing: ctx.checkThrow("HA HK H3", ["HQ H4 H2", "S2 S3 S4", "D2 D3 D4"]),
}}));
ctx.free();"""))
    assert got["tractor"] is True
    assert got["decompose"] == [str(c.cards) for c in ctx.decompose("HA HA HK")]
    want = ctx.check_follow("H5 H5", "H7 H7 H3 S2", "H7 H3")
    assert (got["follow"]["ok"], got["follow"]["reason"], got["follow"]["detail"]) == tuple(want)
    assert got["winner"] == ctx.trick_winner(["H5 H4 H4", "S9 S7 S7", "S8 S8 S4", "H2 H3 H6"]) == 2
    legal = ctx.legal_follows("H5 H5", "H7 H7 H3 S2")
    assert got["legal"] == {"plays": [str(p) for p in legal.plays], "total": legal.total,
                            "exact": legal.exact}
    assert [k for k, f in enumerate(got["playable"]) if f] == [13 + 5]  # H7 only
    assert got["kitty"] == ctx.kitty_multiplier("HA HA HK HK", "HA HA HK HK")
    assert got["shape"] == "tractor + pair + single"
    assert got["sorted"] == [{"suit": "trump", "cards": ["BJ", "S10", "H10", "H10", "S2"]},
                             {"suit": "H", "cards": ["HA"]}, {"suit": "C", "cards": ["C4"]},
                             {"suit": "D", "cards": ["D3"]}]
    t = ctx.check_throw("HA HK H3", ["HQ H4 H2", "S2 S3 S4", "D2 D3 D4"])
    assert got["throwing"]["valid"] == t.valid
    assert got["throwing"]["forcedOptions"] == [str(o) for o in t.forced_options]


@needs_node
def test_bad_input_is_an_error_never_a_trap_nor_a_leak():
    """Every bad input raises a ShengjiError with core.py's message; ten thousand of
    them (and as many good calls) leave the wasm memory where it was."""
    from shengji.core import Context
    from shengji.errors import ShengjiError

    bad = [("decompose", ["H5 S5"]), ("decompose", ["HA HA HA"]), ("decompose", [""]),
           ("decompose", ["HX"]), ("checkFollow", ["H5 H5", "H7 H7", "H7 H3"]),
           ("checkFollow", ["H5 H5", "H7 H7 H3", "H7 H7 H7"]), ("trickWinner", [["H5"]]),
           ("trickWinner", [["H5 H5", "H4"]]), ("checkThrow", ["HA HK", "HQ"]),
           ("kittyMultiplier", ["HA HA HA"]), ("legalFollows", ["", "H2"])]
    got = json.loads(run_js(f"""
const ctx = core.context({{decks: 2}}, "10", "S");
const bad = {json.dumps(bad)};
const out = [];
for (const [fn, args] of bad) {{
  try {{ ctx[fn](...args); out.push(["no error"]); }}
  catch (e) {{ out.push([e.kind ?? e.name, e.message]); }}
}}
ctx.legalFollows("H2 H2 H3 H3", "H4 H4 H5 H5 H6 H7 H8 H9 S3 S3");
const before = core.memoryBytes;
for (let i = 0; i < 10000; i++) {{
  for (const [fn, args] of bad) {{ try {{ ctx[fn](...args); }} catch (e) {{}} }}
  ctx.legalFollows("H2 H2 H3 H3", "H4 H4 H5 H5 H6 H7 H8 H9 S3 S3");
  const c2 = core.context({{decks: 1}}, 3, "H"); c2.decompose("SA"); c2.free();
}}
const rulesBad = [];
for (const r of [{{decks: 11}}, {{decks: 2, max_tuple: 3}}, {{bombs: "x"}}, {{copies: [1]}},
                 {{following: [[[2, 1], [[[3, 1]]]]]}}, {{unknown_key: 1}}, null]) {{
  try {{ core.context(r, "2", "S"); rulesBad.push("no error"); }}
  catch (e) {{ rulesBad.push(e.kind ?? e.name); }}
}}
console.log(JSON.stringify({{out, rulesBad, grew: core.memoryBytes - before}}));"""))
    ctx = Context(PlayRules(decks=2), "10", "S")
    for (fn, args), (kind, message) in zip(bad, got["out"], strict=True):
        assert kind in ("CardError", "HandError"), (fn, args, kind, message)
        if fn == "checkThrow":  # `others` not a list: the module's own check
            continue
        py = {"decompose": ctx.decompose, "checkFollow": ctx.check_follow,
              "trickWinner": ctx.trick_winner, "kittyMultiplier": ctx.kitty_multiplier,
              "legalFollows": ctx.legal_follows}[fn]
        with pytest.raises(ShengjiError) as exc:
            py(*args)
        assert type(exc.value).__name__ == kind
        if fn != "trickWinner":  # plays[i] vs play: the list-level wording differs
            assert str(exc.value) == message
    # a rules error is a RulesError (the wrong following shape fails in the core)
    assert all(k == "RulesError" for k in got["rulesBad"]), got["rulesBad"]
    assert got["grew"] == 0


@needs_node
def test_engine_program_speaks_the_protocol():
    reqs = [
        {"id": "1", "kind": "follow", "rules": {"decks": 2}, "level": "10", "trump": "S",
         "cards": {"lead": "H5 H5", "hand": "H7 H7 H3 S2", "play": "H7 H3"}},
        {"id": "2", "kind": "score", "rules": {}, "cards": {}},
        {"id": "3", "kind": "decompose", "rules": {"decks": 2}, "level": "NT", "trump": "none",
         "cards": "HA SA"},
    ]
    text = "\n".join(map(json.dumps, reqs)) + "\nnot json\n"
    out = subprocess.run([NODE, str(ENGINE)], input=text, capture_output=True, text=True,
                         timeout=60)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert lines[0]["answer"] == "illegal" and lines[0]["reason"] == "must_follow_shape"
    assert lines[1] == {"id": "2", "unsupported": "kind score"}
    assert lines[2]["type"] == "HandError" and "two suits" in lines[2]["error"]
    assert lines[3] == {"id": None, "error": "request is not JSON"}


@needs_node
def test_readme_javascript_example_runs(tmp_path):
    """The README's "The core in JavaScript" example, run as written (from the checkout
    root, where its import path points), with the answers its comments give."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The core in JavaScript", 1)[1]
    code = section.split("```js\n", 1)[1].split("```", 1)[0]
    script = ROOT / f".readme-example-{tmp_path.name}.mjs"
    script.write_text(code, encoding="utf-8")
    try:
        out = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=60,
                             cwd=ROOT)
    finally:
        script.unlink()
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "true"
    assert lines[1] == "[ 'HA HA', 'HK' ]"
    assert lines[2].startswith("must_follow_shape - must follow shape: ")
    assert lines[3] == "2"
    assert lines[4] == "[ 'H7 H7' ]"
    assert lines[5] == "tractor + pair + single"
    assert "trump" in "\n".join(lines[6:])


@needs_node
def test_a_huge_limit_allocates_only_what_the_follows_need():
    got = json.loads(run_js("""
const ctx = core.context({decks: 2}, "10", "S");
const r = ctx.legalFollows("H2 H3 H4", "H5 H6 H7 H8 H9 HJ HQ HK HA D2 D3", 1e9);
const r2 = ctx.legalFollows("H2 H3 H4 H5 H6", "D2 D3 D4 D5 D6 D7 D8 D9 DJ DQ DK DA C2 C3 C4", 300);
console.log(JSON.stringify([r.plays.length, r.total, r2.plays.length, r2.total, core.memoryBytes]));
"""))
    assert got[:4] == [84, 84, 300, 3003]
    assert got[4] <= 8 * 2**20  # not the 2 GB a limit of 1e9 follows would ask for


@needs_node
def test_the_module_knows_every_policy_of_play_rules():
    """core.mjs maps policy names to the core's ids in rules.py's order: a new policy
    there must be added to the module too."""
    from shengji import rules

    got = json.loads(run_js("console.log(JSON.stringify([M.RUFF_COMPARE, M.FAILED_THROW, "
                            "M.FOLLOW_PROTECTIONS, M.BOMBS, M.KITTY_POLICIES, "
                            "M.THROW_FOLLOWING, M.KITTY_THROW, M.THROW_CHECKS]));"))
    assert got == [list(rules.RUFF_COMPARE), list(rules.FAILED_THROW),
                   list(rules.FOLLOW_PROTECTIONS), list(rules.BOMBS), list(rules.KITTY_POLICIES),
                   list(rules.THROW_FOLLOWING), list(rules.KITTY_THROW),
                   list(rules.THROW_CHECKS)]
