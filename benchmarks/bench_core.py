"""Speed of the rules core: C alone, the same calls from Python, and the pure-Python
oracle (tests/oracle), side by side on the same positions, in one run.

    python benchmarks/bench_core.py [--n 200] [--seed 1] [--slow-n 20] [--json]
                                    [--no-oracle] [--quiet]

Positions: random two- and three-deck deals (hands of 25 and 39 cards), a lead of one
to six cards of one suit from the leader's hand, each follower's play of as many cards.
Per operation and deck count a row gives

- ``c_us``: the C entry point alone, in a C driver with no Python in the process
  (``core_only.c``, built by ``core_only.py`` from ``core_c/``), on the very calls below;
- ``python_us``: the same call through ``shengji.core`` with prepared ``Hand``s (what a
  bot or an environment pays), and ``python_over_c`` = python_us / c_us;
- ``oracle_us``: the oracle on the same inputs, and ``oracle_over_python`` (against the
  Python time on those inputs: for legal follows, the first ``--slow-n``).

Times are CPU time per call (``time.process_time`` / ``CLOCK_PROCESS_CPUTIME_ID``), the
median of 7 repeats, each repeat running every call as often as fits in about 20 ms
(the oracle: one pass). ``legal_follows`` runs the oracle on only ``--slow-n`` inputs
(it enumerates by brute force: seconds per three-deck call). Rows:

- ``decompose``: the leader's whole holding of the led suit (``len`` of the result is
  known without reading it); ``decompose_read`` also builds every ``Component``;
- ``check_follow``: the first follower's play against the prepared lead;
- ``legal_follows``: every legal follow of the first follower (Python: as ``Hand``s);
- ``trick_winner``: the four plays of the trick;
- ``check_follows`` (batch): the legal follows (up to 64) of the first follower checked in one
  call, per play; ``trick_winners`` (batch): 25 tricks of one context in one call, per
  trick (the C column: the single-call entry point on each).

Progress goes to stderr. Not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
# the oracle lives in the source tree's tests/ (imported as ``oracle``); appended, so
# that ``shengji`` is the installed package (plain or editable install alike)
sys.path.append(str(HERE.parent / "tests"))

import core_only  # noqa: E402

from shengji.core import Context, Hand  # noqa: E402
from shengji.rules import PlayRules  # noqa: E402

REPEAT = 7
TARGET_S = 0.02  # CPU seconds per repeat


def _log(quiet: bool, msg: str) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


def deal(rng: random.Random, decks: int, hand_size: int, players: int = 4):
    deck = [k for k in range(54) for _ in range(decks)]
    rng.shuffle(deck)
    return [deck[i * hand_size : (i + 1) * hand_size] for i in range(players)]


def counts(cards) -> tuple[int, ...]:
    c = [0] * 54
    for k in cards:
        c[k] += 1
    return tuple(c)


def random_lead(rng, ctx: Context, hand: list[int]) -> list[int]:
    """Up to six cards of one effective suit of the hand, favouring pairs and tractors."""
    suits: dict[int, list[int]] = {}
    for k in hand:
        suits.setdefault(ctx.effective_suit(k), []).append(k)
    cards = sorted(rng.choice(list(suits.values())))
    if rng.random() < 0.5:
        comps = ctx.decompose(Hand.from_counts(counts(cards)))
        best = comps[0].cards.cards()
        if len(best) <= 6:
            return best
    n = min(len(cards), rng.randint(1, 6))
    return rng.sample(cards, n)


def follow_play(rng, ctx, lead, hand) -> list[int]:
    """A play of as many cards: the led suit first, as a follower would mostly do."""
    suit = ctx.effective_suit(lead[0])
    same = [k for k in hand if ctx.effective_suit(k) == suit]
    rest = [k for k in hand if ctx.effective_suit(k) != suit]
    rng.shuffle(same)
    rng.shuffle(rest)
    return (same + rest)[: len(lead)]


def make_inputs(rng, decks: int, n: int):
    hand_size = {2: 25, 3: 39}[decks]
    rules = PlayRules(decks=decks)
    out = []
    for _ in range(n):
        level, trump = rng.randrange(13), rng.choice([None, 0, 1, 2, 3])
        ctx = Context(rules, level, trump)
        hands = deal(rng, decks, hand_size)
        lead = random_lead(rng, ctx, hands[0])
        plays = [lead] + [follow_play(rng, ctx, lead, h) for h in hands[1:]]
        suit_cards = [k for k in hands[0] if ctx.effective_suit(k) == ctx.effective_suit(lead[0])]
        out.append(
            dict(rules=rules, level=level, trump=trump, ctx=ctx, lead=counts(lead),
                 hand=counts(hands[1]), play=counts(plays[1]),
                 plays=[counts(p) for p in plays], suit=counts(suit_cards))
        )  # fmt: skip
    return out


def trick_batches(rng, decks: int, n_ctx: int, per: int):
    """``n_ctx`` contexts with ``per`` random tricks each (fresh deals)."""
    rules = PlayRules(decks=decks)
    hand_size = {2: 25, 3: 39}[decks]
    out = []
    for _ in range(n_ctx):
        ctx = Context(rules, rng.randrange(13), rng.choice([None, 0, 1, 2, 3]))
        tricks = []
        for _ in range(per):
            hands = deal(rng, decks, hand_size)
            lead = random_lead(rng, ctx, hands[0])
            tricks.append([counts(lead)] + [counts(follow_play(rng, ctx, lead, h))
                                            for h in hands[1:]])
        out.append((ctx, tricks))
    return out


def cpu_per_call(loop, calls, per_pass: int, repeat: int = REPEAT) -> tuple[float, float]:
    """(median, best) µs per call of ``loop(calls)``, which makes ``per_pass`` calls."""
    t0 = time.process_time()
    loop(calls)
    once = time.process_time() - t0
    inner = max(1, int(TARGET_S / once)) if once > 0 else 1000
    per = []
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(inner):
            loop(calls)
        per.append((time.process_time() - t0) / (inner * per_pass) * 1e6)
    return statistics.median(per), min(per)


def oracle_per_call(fn, items) -> float:
    t0 = time.process_time()
    for it in items:
        fn(it)
    return (time.process_time() - t0) / len(items) * 1e6


# the Python loops: one call per position, as a caller would write it


def _decompose(calls):
    for ctx, h in calls:
        h._lctx = None  # forget the cached decomposition: time the C call every time
        ctx.decompose(h)


def _decompose_read(calls):
    for ctx, h in calls:
        h._lctx = None
        list(ctx.decompose(h))


def _check_follow(calls):
    for ctx, lead, hand, play in calls:
        ctx.check_follow(lead, hand, play)


def _legal_follows(calls):
    for ctx, lead, hand in calls:
        ctx.legal_follows(lead, hand)


def _trick_winner(calls):
    for ctx, plays in calls:
        ctx.trick_winner(plays)


def _check_follows(calls):
    for ctx, lead, hand, plays in calls:
        ctx.check_follows(lead, hand, plays)


def _trick_winners(calls):
    for ctx, tricks in calls:
        ctx.trick_winners(tricks)


def run(n: int, seed: int, slow_n: int | None = 20, oracle: bool = True,
        quiet: bool = False) -> dict:
    """Rows per (operation, decks), plus the 25-card follow check of the README."""
    if oracle:
        from oracle import OracleContext
    rng = random.Random(seed)
    jobs = core_only.Jobs()
    pending = []  # (row, python loop, calls, calls per pass, oracle fn, oracle items)
    for decks in (2, 3):
        items = make_inputs(rng, decks, n)
        for it in items:
            for key in ("lead", "hand", "play", "suit"):
                it["H" + key] = Hand.from_counts(it[key])
            it["Hplays"] = [Hand.from_counts(p) for p in it["plays"]]
            it["ctx"].check_follow(it["Hlead"], it["Hhand"], it["Hplay"])  # prepare the lead
            if oracle:
                it["oracle"] = OracleContext(it["rules"], it["level"], it["trump"])
        slow = items[:slow_n] if slow_n else items
        follows = [(it, it["ctx"].legal_follows(it["Hlead"], it["Hhand"], limit=64).plays)
                   for it in items]
        batches = trick_batches(rng, decks, 8, 25)
        H = Hand.from_counts
        specs = [
            ("decompose", "decompose", [(it["ctx"], [it["suit"]]) for it in items],
             _decompose, [(it["ctx"], it["Hsuit"]) for it in items], n,
             lambda it: it["oracle"].decompose(it["suit"]), items),
            ("decompose_read", "decompose", [(it["ctx"], [it["suit"]]) for it in items],
             _decompose_read, [(it["ctx"], it["Hsuit"]) for it in items], n, None, None),
            ("check_follow", "check_follow",
             [(it["ctx"], [it["lead"], it["hand"], it["play"]]) for it in items],
             _check_follow, [(it["ctx"], it["Hlead"], it["Hhand"], it["Hplay"])
                             for it in items], n,
             lambda it: it["oracle"].check_follow(it["lead"], it["hand"], it["play"]), items),
            ("legal_follows", "legal_follows",
             [(it["ctx"], [it["lead"], it["hand"]]) for it in items],
             _legal_follows, [(it["ctx"], it["Hlead"], it["Hhand"]) for it in items], n,
             lambda it: it["oracle"].legal_follows(it["lead"], it["hand"]), slow),
            ("trick_winner", "trick_winner", [(it["ctx"], it["plays"]) for it in items],
             _trick_winner, [(it["ctx"], it["Hplays"]) for it in items], n,
             lambda it: it["oracle"].trick_winner(it["plays"]), items),
            ("check_follows", "check_follow",
             [(it["ctx"], [it["lead"], it["hand"], p.counts]) for it, ps in follows
              for p in ps],
             _check_follows, [(it["ctx"], it["Hlead"], it["Hhand"], ps) for it, ps in follows],
             sum(len(ps) for _, ps in follows), None, None),
            ("trick_winners", "trick_winner",
             [(ctx, t) for ctx, tricks in batches for t in tricks],
             _trick_winners, [(ctx, [[H(p) for p in t] for t in tricks])
                              for ctx, tricks in batches],
             sum(len(t) for _, t in batches), None, None),
        ]
        for name, op, c_calls, loop, calls, per_pass, o_fn, o_items in specs:
            key = f"{name}/{decks}"
            jobs.add(key, op, c_calls, repeat=REPEAT, arg=10_000)
            pending.append((dict(operation=name, decks=decks, n=per_pass), key, loop, calls,
                            per_pass, o_fn, o_items))
    _log(quiet, "bench_core: building and running the C-only driver ...")
    try:
        c_only = core_only.run(jobs)
    except core_only.Unavailable as exc:
        _log(quiet, f"bench_core: no C-only column ({exc})")
        c_only = {}
    rows = []
    for row, key, loop, calls, per_pass, o_fn, o_items in pending:
        py, py_best = cpu_per_call(loop, calls, per_pass)
        c = c_only.get(key)
        row.update(c_us=round(c["median_us"], 3) if c else None, python_us=round(py, 3),
                   python_over_c=round(py / c["median_us"], 2) if c else None)
        msg = (f"bench_core: {row['decks']} decks {row['operation']:<15} "
               f"C {row['c_us'] if c else '-':>7} µs  Python {py:7.3f} µs")
        if c:
            msg += f"  ({row['python_over_c']:.2f}x)"
        if oracle and o_fn is not None:
            py_same = py
            if len(o_items) < per_pass:  # the oracle on a subset: Python on it too
                _log(quiet, f"bench_core: oracle {row['operation']} on {len(o_items)} inputs "
                            "(brute force, slow) ...")
                sub = calls[: len(o_items)]
                py_same, _ = cpu_per_call(loop, sub, len(sub))
            o_us = oracle_per_call(o_fn, o_items)
            row.update(oracle_n=len(o_items), oracle_us=round(o_us, 1),
                       oracle_over_python=round(o_us / py_same, 1))
            msg += f"  oracle {o_us:,.1f} µs"
        _log(quiet, msg)
        rows.append(row)
    # one follow check on a 25-card hand, prepared Hands (the engine's hot path)
    ctx = Context(PlayRules(decks=2), "10", "S")
    hand = Hand("HA HA HK HQ HQ HJ H9 H9 H7 H5 H4 H3 C9 C8 C8 C2 D6 D6 D5 D2 S10 S3 S3 BJ LJ")
    lead, play = Hand("H8 H8 H6 H6"), Hand("HQ HQ H9 H9")
    assert len(hand) == 25 and ctx.check_follow(lead, hand, play).ok
    calls = [(ctx, lead, hand, play)] * 100
    py25, _ = cpu_per_call(_check_follow, calls, len(calls))
    j25 = core_only.Jobs()
    j25.add("f25", "check_follow", [(ctx, [lead.counts, hand.counts, play.counts])] * 100)
    try:
        c25 = core_only.run(j25)["f25"]["median_us"]
    except core_only.Unavailable:
        c25 = None
    return {"n": n, "seed": seed, "repeat": REPEAT, "rows": rows,
            "follow_check_25_cards": {"c_us": c25, "python_us": round(py25, 3)}}


def print_table(res: dict) -> None:
    print("Rules core, µs per call (CPU time, median of 7), same positions in every column")
    print(f"{'operation':<15} {'decks':>5} {'n':>5} {'C only':>8} {'Python':>8} {'Py/C':>6} "
          f"{'oracle':>12} {'oracle/Py':>10}")
    for r in res["rows"]:
        c = f"{r['c_us']:8.3f}" if r["c_us"] is not None else f"{'-':>8}"
        ratio = f"{r['python_over_c']:5.2f}x" if r["python_over_c"] is not None else f"{'-':>6}"
        o = (f"{r['oracle_us']:12,.1f} {r['oracle_over_python']:9,.1f}x" if "oracle_us" in r
             else f"{'':>12} {'':>10}")
        print(f"{r['operation']:<15} {r['decks']:>5} {r['n']:>5} {c} {r['python_us']:8.3f} "
              f"{ratio} {o}")
    f = res["follow_check_25_cards"]
    c = f"{f['c_us']:.3f} µs C only, " if f["c_us"] is not None else ""
    print(f"follow check, 25-card hand, prepared Hands: {c}{f['python_us']:.3f} µs from Python")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="random positions per deck count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slow-n", type=int, default=20,
                    help="positions for the oracle's legal_follows (brute force)")
    ap.add_argument("--no-oracle", action="store_true", help="skip the oracle column")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    res = run(args.n, args.seed, args.slow_n, oracle=not args.no_oracle, quiet=args.quiet)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_table(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
