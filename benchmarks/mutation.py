"""Mutation check of the C rules core: does some test or rule case notice each rule bug?

    python benchmarks/mutation.py                  # every mutant, staged tests
    python benchmarks/mutation.py --list           # the mutants, one a line
    python benchmarks/mutation.py shapes-86 trick-ruff-all   # only these
    python benchmarks/mutation.py --full           # survivors also face the whole suite
    python benchmarks/mutation.py --stages 1       # the rule cases only (quick)

Each mutant is one small edit of core_c/ (an operator flipped, a bound moved), written as
(file, text that must occur exactly once, replacement). For each, a private copy of the
project (a temporary directory: the checkout's extension is never replaced) gets the
edit, is built (``setup.py build_ext --inplace``, -O1) and faces the tests in stages,
cheapest first; the first stage that fails kills the mutant:

1. the rule cases (tests/cases, every *.cases.yaml);
2. the core's own tests (test_core_api, test_core_errors, test_oracle);
3. the differential tests against the oracle (test_differential, _sio_follow, _house).

A mutant that compiles and passes every stage survives: either a rule no test checks (add
a case) or an equivalent mutant (argue it in docs/semantics.md, "Mutation check"). The
score is killed / (mutants that build). Not collected by pytest; a few minutes a mutant on
a loaded machine (the stages stop at the first failure, so killed mutants are quick).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: id -> (file in core_c, text occurring exactly once, replacement, what it breaks)
MUTANTS: dict[str, tuple[str, str, str, str]] = {
    # the four survivors of issue 28's hand-made run
    "shapes-86": ("shapes.c", "if (run > 0 && run >= lmax) {", "if (run > 0 && run > lmax) {",
                  "of two equally long tractors the lower comes first"),
    "rainbow-43": ("rainbow.c", "t[q] < r->rainbow_min || nsuits < 4",
                   "t[q] < r->rainbow_min || nsuits < 3", "three suits make a rainbow"),
    "rainbow-76": ("rainbow.c", "? prev_rank : 0;", "? prev_rank + 1 : 0;",
                   "two rainbow units of one size may not share a rank"),
    "rainbow-112": ("rainbow.c", "for (int p = q + 1; p < 13; p++)",
                    "for (int p = q; p < 13; p++)", "the same rank beats a rainbow unit"),
    # structures and decomposition (shapes.c)
    "shapes-width": ("shapes.c", "return r->tractors && w >= 2 && w >= r->tractor_min_width;",
                     "return r->tractors && w >= 1 && w >= r->tractor_min_width;",
                     "singles form tractors"),
    "shapes-maxtop": ("shapes.c", "        if (run >= len)\n            best = t;",
                      "        if (run > len)\n            best = t;",
                      "a held structure of exactly the length is missed"),
    "shapes-key": ("shapes.c", "(tr == btr && w > bw)", "(tr == btr && w < bw)",
                   "at equal cards the narrower structure is taken first"),
    "shapes-minlen": ("shapes.c", "return tractor_width_ok(r, w) && len >= r->tractor_min_length;",
                      "return tractor_width_ok(r, w) && len > r->tractor_min_length;",
                      "the shortest tractors do not exist"),
    # order (order.c)
    "order-compare": ("order.c", "return ta > tb ? SJ_HIGHER : ta < tb ? SJ_LOWER : SJ_EQUAL;",
                      "return ta >= tb ? SJ_HIGHER : ta < tb ? SJ_LOWER : SJ_EQUAL;",
                      "equal cards compare higher"),
    "order-copies": ("order.c", "if (src[k] > r->copies[k])", "if (src[k] > r->copies[k] + 1)",
                     "one copy too many is accepted"),
    # following (follow.c)
    "follow-bombs-suit": ("follow.c",
                          "r->bombs == SJ_BOMBS_ANY_SUIT || r->esuit[k] == esuit ||",
                          "r->bombs == SJ_BOMBS_ANY_SUIT || r->esuit[k] != esuit ||",
                          "follow_suit bombs of the wrong suit"),
    "follow-suit-count": ("follow.c", "if (h >= n ? pe != n : pe != h) {",
                          "if (h > n ? pe != n : pe != h) {",
                          "all of the led suit held, exactly the lead's size"),
    "follow-strict": ("follow.c",
                      "if (jb->strict ? v != sh.w : v < sh.w)\n                continue;",
                      "if (jb->strict ? v < sh.w : v < sh.w)\n                continue;",
                      "protected longer tuples are broken"),
    "follow-no-shape": ("follow.c", "if (r->protection == SJ_PROTECT_NO_SHAPE)\n        return 0;",
                        "if (r->protection == SJ_PROTECT_BOTH)\n        return 0;",
                        "the wrong protection skips the shape"),
    # throws, trick winner, kitty (trick.c)
    "trick-blocker": ("trick.c", "if (sj__max_top(r, s, H[j], ci->w, ci->len) <= ci->top)",
                      "if (sj__max_top(r, s, H[j], ci->w, ci->len) < ci->top)",
                      "first_blocker: an equal holding blocks"),
    "trick-beaten": ("trick.c", "beaten = sj__max_top(r, s, H[j], ci->w, ci->len) > ci->top;",
                     "beaten = sj__max_top(r, s, H[j], ci->w, ci->len) >= ci->top;",
                     "an equal holding beats a thrown component"),
    "trick-lowest": ("trick.c", "} else if (ci->top <= lead->comps[cand[slot]].top) {",
                     "} else if (ci->top >= lead->comps[cand[slot]].top) {",
                     "the highest beaten component is forced"),
    "trick-ruff-all": ("trick.c", "            if (v[i] <= cur[i])\n                return 0;",
                       "            if (v[i] < cur[i])\n                return 0;",
                       "all_components: an equal component overruffs"),
    "trick-ruff-strongest": ("trick.c", "        return v[0] > cur[0];",
                             "        return v[0] >= cur[0];", "an equal ruff overruffs"),
    "trick-follow-win": ("trick.c", "if (F->ncomp == 1 && !win_ruff && v[0] > cur[0]) {",
                         "if (F->ncomp == 1 && !win_ruff && v[0] >= cur[0]) {",
                         "an equal follow takes the trick"),
    "trick-throw-follow": ("trick.c", "if (F->ncomp == 1 && !win_ruff && v[0] > cur[0]) {",
                           "if (!win_ruff && v[0] > cur[0]) {",
                           "a follow of a throw can win it"),
    "trick-bomb-suit": ("trick.c", "        return sa == SJ_TRUMP;",
                        "        return sb == SJ_TRUMP;",
                        "a plain bomb beats a trump bomb"),
    "trick-single-ruff": ("trick.c", "(!win_ruff || st > best)) {", "(!win_ruff || st >= best)) {",
                          "an equal single ruff overruffs"),
    "kitty-power": ("trick.c", "for (int i = 0; i < len && v < INT_MAX; i++)\n            v *= w;",
                    "for (int i = 0; i < len && v < INT_MAX; i++)\n            v *= w + 1;",
                    "Power kitty multiplier"),
    "kitty-exp": ("trick.c", "((1LL << cards) < r->kitty_cap ?",
                  "((1LL << cards) <= r->kitty_cap - 1 ?",
                  "exponential at the cap (equivalent when the cap is reached exactly: 1<<c < cap "
                  "and 1<<c <= cap-1 agree on integers)"),
    "kitty-largest": ("trick.c", "        if (v > best)\n            best = v;",
                      "        if (v < best || best == 1)\n            best = v;",
                      "the multiplier of the last component, not the largest"),
    # issue 35's play knobs (trick.c, follow.c, rainbow.c)
    "trick-cover-rank": ("trick.c", "rc = own_rank(&L[1]) > own_rank(&L[0]);",
                         "rc = own_rank(&L[1]) >= own_rank(&L[0]);",
                         "cover_winner: an equal largest structure overruffs"),
    "trick-cover-shape": ("trick.c", "rc = match(r, &L[0], SJ_TRUMP, p, val);", "rc = 1;",
                          "cover_winner: a ruff need not hold the winner's shapes"),
    "trick-fewest": ("trick.c", "return ((cards * 64 + c->top) * 16 + c->w) * 64 + kind;",
                     "return ((c->top * 64 + cards) * 16 + c->w) * 64 + kind;",
                     "fewest_cards: the lowest beaten part, not the fewest cards"),
    "kitty-whole-power": ("trick.c", "            v *= c->w;", "            v *= c->w + 1;",
                          "kitty_throw whole: power over the whole lead"),
    "kitty-whole-twice": ("trick.c", "        return 2 * cards;", "        return 2 * cards - 2;",
                          "kitty_throw whole: twice the lead's cards"),
    "follow-throw-tuples": ("follow.c", "int tuples_only = fs->lead->ncomp > 1 &&",
                            "int tuples_only = fs->lead->ncomp > 0 &&",
                            "throw_following tuples: a lone tractor led asks no tractor"),
    "follow-throw-grouping": ("follow.c", "if (adjacency && !tuples_only && r->tractors",
                              "if (adjacency && r->tractors",
                              "throw_following tuples: a throw's tractor asks shorter tractors"),
    "rainbow-fewest": ("rainbow.c", "int kx = fewest ? x->w * 16 + x->top : x->top * 64 + x->w;",
                       "int kx = fewest ? x->top * 64 + x->w : x->top * 64 + x->w;",
                       "fewest_cards on a rainbow throw: the lowest rank first"),
    # rainbows (rainbow.c)
    "rainbow-jokers": ("rainbow.c", "if (r->rainbow_min <= 0 || c[52] || c[53])",
                       "if (r->rainbow_min <= 0 || c[52])", "a little joker joins a rainbow"),
    "rainbow-winner": ("rainbow.c", "cmp = v[i] > cur[i] ? 1 : v[i] < cur[i] ? -1 : 0;",
                       "cmp = v[i] >= cur[i] ? 1 : v[i] < cur[i] ? -1 : 0;",
                       "an equal rainbow follow wins"),
    # decomposition: shengji_io (shapes.c, sio_*)
    "sio-last": ("shapes.c", "for (int i = m - 1; i >= 0 && pick < 0; i--) {",
                 "for (int i = 0; i < m && pick < 0; i++) {",
                 "shengji_io keeps the first split listed with the largest unit, not the last"),
    "sio-consumed": ("shapes.c", "    st->rep = !consumed;", "    st->rep = 1;",
                     "shengji_io lists the lowest card's tuple after tractors that use it up"),
    "sio-tractor-key": ("shapes.c", "*key = w * st->len[end] * 2 + 1;",
                        "*key = w * st->len[end] * 2;",
                        "shengji_io ranks a tractor as a tuple of as many cards"),
    "sio-suit-order": ("shapes.c", "static const int rank[4] = {0, 1, 3, 2};",
                       "static const int rank[4] = {0, 1, 2, 3};",
                       "shengji_io orders equal cards ♠ ♥ ♣ ♦ (ours), not ♠ ♥ ♦ ♣"),
    # follow_requirements: shengji_io (sio_follow.c)
    "siof-guard": ("sio_follow.c", "if (slots[w] > covered && spare >= slots[w] - covered)",
                   "if (slots[w] > covered && spare > slots[w] - covered)",
                   "the genuine-tuple guard needs one spare tuple more than the slots left"),
    "siof-protect": ("sio_follow.c", "return M->protect ? M->c0[k] == w && M->c[k] == M->c0[k]",
                     "return M->protect ? M->c0[k] >= w && M->c[k] == M->c0[k]",
                     "a protected longer tuple is broken for a shorter one"),
    "siof-adjacency": ("sio_follow.c", "S->can[i] = (uint8_t)(S->include_new || u->len > 1);",
                       "S->can[i] = (uint8_t)1;",
                       "tractor_on_tractor: a led tuple asks for runs"),
    "siof-play-protected": ("sio_follow.c", "rc = sio_supplies(S, j, P, 0, NULL, NULL);",
                            "rc = sio_supplies(S, j, P, S->protect, NULL, NULL);",
                            "the play is read under the protection, as the hand is"),
    "siof-merge-stable": ("sio_follow.c",
                          "if (S->end[y] - S->pos[y] <= S->end[x] - S->pos[x])",
                          "if (S->end[y] - S->pos[y] < S->end[x] - S->pos[x])",
                          "of units with as many readings left, the later is coarsened first"),
    "siof-setparts": ("sio_follow.c", "key[c] = (long)(m - big) * (m + 1) + rawnb[c];",
                      "key[c] = (long)big * (m + 1) + rawnb[c];",
                      "set partitions listed smallest largest block first: two pairs apart "
                      "before two pairs side by side"),
}

STAGES = [
    ("rule cases", ["tests/cases"]),
    ("core tests", ["tests/test_core_api.py", "tests/test_core_errors.py", "tests/test_oracle.py",
                    "tests/test_follow_requirements_knob.py"]),
    ("differential", ["tests/test_differential.py", "tests/test_differential_sio_follow.py",
                      "tests/test_differential_house.py"]),
]
FULL = ("whole suite", ["tests"])


def copy_tree(dst: Path) -> None:
    for name in ("core_c", "shengji", "tests", "variants"):
        shutil.copytree(ROOT / name, dst / name, symlinks=True,
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", ".hypothesis"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dst / name)


def build(dst: Path) -> bool:
    env = dict(os.environ, SHENGJI_CFLAGS="-O1")
    rc = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=dst,
                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return rc.returncode == 0


def run_stage(dst: Path, paths: list[str], timeout: float) -> str:
    """"pass" when the tests pass (the mutant lives through this stage), "fail" when one
    fails, "timeout" when the stage runs past ``timeout`` seconds. A timeout counts as a
    kill (a hang or a search gone wild), but is reported as one: on a loaded machine the
    unmutated stage can be that slow too, so rerun such a mutant with a larger --timeout."""
    # the differential tests at the size the mutants were first judged at (80 examples;
    # the default run draws fewer: tests/tiers.py)
    env = dict(os.environ, PYTHONPATH=str(dst), SHENGJI_FUZZ_SECONDS="0",
               SHENGJI_DIFF_EXAMPLES=os.environ.get("SHENGJI_DIFF_EXAMPLES", "80"))
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
           "-p", "no:randomly", *paths]
    try:
        rc = subprocess.run(cmd, cwd=dst, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return "timeout"
    return "pass" if rc == 0 else "fail"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ids", nargs="*", help="mutant ids (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--full", action="store_true", help="survivors face the whole suite too")
    ap.add_argument("--stages", type=int, default=len(STAGES),
                    help=f"run only the first N stages (1..{len(STAGES)}; a mutant that "
                    "passes them is reported as a survivor of those stages)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="seconds a stage may run before it counts as failing (900)")
    args = ap.parse_args(argv)
    if args.list:
        for mid, (f, _, _, what) in MUTANTS.items():
            print(f"{mid:22} {f:10} {what}")
        return 0
    unknown = [m for m in args.ids if m not in MUTANTS]
    if unknown:
        ap.error(f"unknown mutant(s): {', '.join(unknown)} (see --list)")
    ids = args.ids or list(MUTANTS)
    if not 1 <= args.stages <= len(STAGES):
        ap.error(f"--stages: 1..{len(STAGES)}")
    stages = STAGES[:args.stages] + ([FULL] if args.full else [])
    killed, survived, broken = [], [], []
    with tempfile.TemporaryDirectory(prefix="sj-mutants-") as tmp:
        dst = Path(tmp)
        copy_tree(dst)
        for mid in ids:
            fname, old, new, what = MUTANTS[mid]
            path = dst / "core_c" / fname
            text = path.read_text(encoding="utf-8")  # the snapshot, not the live checkout
            if text.count(old) != 1:
                print(f"{mid}: the text to mutate occurs {text.count(old)} times in {fname}; "
                      "update MUTANTS", file=sys.stderr)
                return 2
            t0 = time.monotonic()
            path.write_text(text.replace(old, new), encoding="utf-8")
            try:
                if not build(dst):
                    broken.append(mid)
                    print(f"{mid:22} does not build", flush=True)
                    continue
                by = None
                for name, paths in stages:
                    outcome = run_stage(dst, paths, args.timeout)
                    if outcome != "pass":
                        by = name if outcome == "fail" else f"{name} (timed out)"
                        break
            finally:
                path.write_text(text, encoding="utf-8")
            dt = time.monotonic() - t0
            if by:
                killed.append(mid)
                print(f"{mid:22} killed by {by} ({dt:.0f} s)", flush=True)
            else:
                survived.append(mid)
                print(f"{mid:22} SURVIVED: {what} ({dt:.0f} s)", flush=True)
    built = len(killed) + len(survived)
    score = 100.0 * len(killed) / built if built else 0.0
    print(f"{len(killed)}/{built} mutants killed ({score:.0f}%); survivors: "
          f"{', '.join(survived) or 'none'}; not building: {', '.join(broken) or 'none'}")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
