"""core.wasm from JavaScript against the C-only column, side by side in one run.

The calls of ``bench_core.py`` (random deals of two and three decks: decompose a suit of a
hand, check a follow against a lead decomposed beforehand, a trick's winner) are timed
twice: by ``core_only.c`` (the core compiled natively, no other language in the
process) and by ``bench_wasm.mjs`` (the same calls through ``shengji/wasm/core.mjs`` in
Node, cards passed as 54-count Uint8Arrays). Both read process CPU time; each row is the
median of 7 repeats, and of 3 rounds (C, JS, C, JS, ...). Also the in-page feedback on a
selection (``Context.feedback``, what the page runs on every click: playable cards, the
lead's shape, the verdict; and the hand in trump order) on 33-card hands: per call, and
per position (CPU time, the median, 99th percentile and slowest of 200 positions).

    python benchmarks/bench_wasm.py [--n 300] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import bench_core  # noqa: E402
import core_only  # noqa: E402

from shengji.core import Context, Hand  # noqa: E402
from shengji.rules import PlayRules  # noqa: E402
from shengji.wasm import WASM, node, rules_json  # noqa: E402


def feedback_positions(rng: random.Random, n: int) -> list[dict]:
    """Follows from a 33-card hand (three decks, four seats: 39 cards less a few tricks)."""
    rules = PlayRules(decks=3)
    out = []
    while len(out) < n:
        level, trump = rng.randrange(13), rng.choice([None, 0, 1, 2, 3])
        ctx = Context(rules, level, trump)
        hands = bench_core.deal(rng, 3, 33)
        lead = bench_core.random_lead(rng, ctx, hands[0])
        hand = hands[1]
        sel = bench_core.follow_play(rng, ctx, lead, hand)
        out.append({"rules": rules_json(rules), "level": level, "trump": trump,
                    "lead": str(Hand(lead)), "hand": str(Hand(hand)),
                    "selection": str(Hand(sel))})
    return out


def _median_rows(runs: list[dict]) -> dict:
    out = {}
    for key, row in runs[0].items():
        out[key] = {k: (statistics.median(r[key][k] for r in runs) if isinstance(v, float)
                        else v) for k, v in row.items()}
    return out


def run(n: int, seed: int, rounds: int = 3) -> dict:
    rng = random.Random(seed)
    jobs = core_only.Jobs()
    items = []
    for decks in (2, 3):
        for it in bench_core.make_inputs(rng, decks, n):
            items.append(it)
        sub = items[-n:]
        jobs.add(f"decompose/{decks}", "decompose", [(it["ctx"], [it["suit"]]) for it in sub])
        jobs.add(f"check_follow/{decks}", "check_follow",
                 [(it["ctx"], [it["lead"], it["hand"], it["play"]]) for it in sub])
        jobs.add(f"trick_winner/{decks}", "trick_winner", [(it["ctx"], it["plays"]) for it in sub])
    js_jobs = {"repeat": 7, "items": [
        {"rules": rules_json(it["rules"]), "level": it["level"], "trump": it["trump"],
         "lead": list(it["lead"]), "hand": list(it["hand"]), "play": list(it["play"]),
         "suit": list(it["suit"]), "plays": [list(p) for p in it["plays"]]} for it in items],
        "feedback": feedback_positions(rng, 200)}
    # C, JS, C, JS, ...: on a shared machine the load drifts; each row is the median of
    # its rounds, and the two columns of a round were measured a few seconds apart
    c_runs, js_runs = [], []
    with tempfile.TemporaryDirectory(prefix="shengji-wasm-bench-") as tmp:
        path = Path(tmp) / "jobs.json"
        path.write_text(json.dumps(js_jobs))
        for _ in range(rounds):
            c_runs.append(core_only.run(jobs))
            res = subprocess.run([node(), str(HERE / "bench_wasm.mjs"), str(path)],
                                 capture_output=True, text=True, check=True)
            js_runs.append(json.loads(res.stdout))
    c_only, js = _median_rows(c_runs), _median_rows(js_runs)
    return {"c_only": c_only, "js": js, "wasm_bytes": WASM.stat().st_size}


def print_table(res: dict) -> None:
    c, js = res["c_only"], res["js"]
    print(f"core.wasm: {res['wasm_bytes']:,} bytes (goal <= 200 KB)")
    print(f"{'operation':<22}{'C only us':>11}{'JS+wasm us':>12}{'ratio':>8}   goal <= 3x")
    for op in ("decompose", "check_follow", "trick_winner"):
        for decks in (2, 3):
            key = f"{op}/{decks}"
            print(f"{key:<22}{c[key]['median_us']:>11.3f}{js[key]['median_us']:>12.3f}"
                  f"{js[key]['median_us'] / c[key]['median_us']:>8.2f}")
    for key in ("decompose_count/2", "decompose_count/3", "check_follow_text/2",
                "check_follow_text/3", "check_follow_raw/2", "check_follow_raw/3",
                "check_follow_u8/2", "check_follow_u8/3", "decompose_raw/2", "decompose_raw/3"):
        print(f"{key:<22}{'':>11}{js[key]['median_us']:>12.3f}   (JS only)")
    fb, each = js.get("feedback33"), js.get("feedback33_each")
    if fb and each:
        print(f"page feedback, 33-card hand (Context.feedback + sortHand): "
              f"{fb['median_us'] / 1000:.3f} ms per selection; per position median "
              f"{each['median_us'] / 1000:.3f} ms, 99th percentile {each['p99_us'] / 1000:.3f} ms, "
              f"slowest {each['worst_us'] / 1000:.3f} ms of {each['n']} (goal <= 16 ms)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=300, help="calls per operation and deck count")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3, help="C/JS rounds (medians)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if node() is None:
        print("bench_wasm: Node.js is needed", file=sys.stderr)
        return 2
    res = run(args.n, args.seed, args.rounds)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print_table(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
