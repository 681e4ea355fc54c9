"""Speed of the C core against the pure-Python oracle (tests/oracle), side by side.

    python benchmarks/bench_core.py [--n 200] [--seed 1] [--json]

Both run on the same random two- and three-deck inputs (deals of 25 and 39 cards, leads
of one to six cards of one suit taken from the leader's hand). Prints, per operation,
the C time per call (through shengji.core, prepared Hands), the oracle's, and their
ratio; then the time of one follow check on a 25-card hand (timeit). Not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shengji.core import Context, Hand  # noqa: E402
from shengji.rules import PlayRules  # noqa: E402
from tests.oracle import OracleContext  # noqa: E402


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


def time_per_call(fn, items, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        best = min(best, time.perf_counter() - t0)
    return best / len(items) * 1e6


def run(n: int, seed: int, slow_n: int | None = None) -> dict:
    """Rows per (operation, decks). ``slow_n`` times legal_follows on only the first
    ``slow_n`` inputs (C and oracle alike: the oracle enumerates by brute force and takes
    up to seconds per three-deck call)."""
    rng = random.Random(seed)
    rows = []
    for decks in (2, 3):
        items = make_inputs(rng, decks, n)
        for it in items:
            it["oracle"] = OracleContext(it["rules"], it["level"], it["trump"])
            for key in ("lead", "hand", "play", "suit"):
                it["H" + key] = Hand.from_counts(it[key])
            it["Hplays"] = [Hand.from_counts(p) for p in it["plays"]]
            it["ctx"].check_follow(it["Hlead"], it["Hhand"], it["Hplay"])  # warm lead cache
        ops = {
            "decompose": (
                # drop the Hand's cached decomposition so the C call is timed every time
                lambda it: (setattr(it["Hsuit"], "_lead", None), it["ctx"].decompose(it["Hsuit"])),
                lambda it: it["oracle"].decompose(it["suit"]),
            ),
            "check_follow": (
                lambda it: it["ctx"].check_follow(it["Hlead"], it["Hhand"], it["Hplay"]),
                lambda it: it["oracle"].check_follow(it["lead"], it["hand"], it["play"]),
            ),
            "legal_follows": (
                lambda it: it["ctx"].legal_follows(it["Hlead"], it["Hhand"]),
                lambda it: it["oracle"].legal_follows(it["lead"], it["hand"]),
            ),
            "trick_winner": (
                lambda it: it["ctx"].trick_winner(it["Hplays"]),
                lambda it: it["oracle"].trick_winner(it["plays"]),
            ),
        }
        for name, (c_fn, o_fn) in ops.items():
            some = items[:slow_n] if slow_n and name == "legal_follows" else items
            c_us = time_per_call(c_fn, some, repeat=3)
            o_us = time_per_call(o_fn, some)
            rows.append(
                dict(operation=name, decks=decks, n=len(some), c_us=round(c_us, 3),
                     oracle_us=round(o_us, 1), ratio=round(o_us / c_us, 1))
            )  # fmt: skip
    # one follow check on a 25-card hand, prepared Hands (the engine's hot path)
    ctx = Context(PlayRules(decks=2), "10", "S")
    hand = Hand("HA HA HK HQ HQ HJ H9 H9 H7 H5 H4 H3 C9 C8 C8 C2 D6 D6 D5 D2 S10 S3 S3 BJ LJ")
    lead, play = Hand("H8 H8 H6 H6"), Hand("HQ HQ H9 H9")
    assert len(hand) == 25 and ctx.check_follow(lead, hand, play).ok
    number = 200_000
    follow25 = (
        min(timeit.repeat(lambda: ctx.check_follow(lead, hand, play), number=number, repeat=5))
        / number
        * 1e6
    )
    return {"n": n, "seed": seed, "rows": rows, "follow_check_25_cards_us": round(follow25, 3)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="random inputs per deck count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    res = run(args.n, args.seed)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"{'operation':<14} {'decks':>5} {'C µs/op':>10} {'oracle µs/op':>13} {'ratio':>8}")
    for r in res["rows"]:
        print(f"{r['operation']:<14} {r['decks']:>5} {r['c_us']:>10.2f} {r['oracle_us']:>13.1f} "
              f"{r['ratio']:>7.1f}x")  # fmt: skip
    print(f"follow check, 25-card hand, prepared Hands: {res['follow_check_25_cards_us']:.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
