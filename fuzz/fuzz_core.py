"""Fuzz target: arbitrary bytes through card parsing and every core operation.

Only the project's typed errors (``ShengjiError`` subclasses) may come out; anything
else (another exception, a crash, a sanitizer report) is a finding.

    python fuzz/fuzz_core.py -max_total_time=600 fuzz/corpus   # atheris (libFuzzer)
    python fuzz/fuzz_core.py --random 20000 --seed 1           # no atheris: random bytes

Each input drives three layers: text (card tokens, rule values) through the public
Python API; raw count buffers and sizes straight into the C entry points (through
``shengji.core``'s ``ffi, lib``), including a decomposed lead whose bytes were then
mutated; and play-phase positions through the C playout.
"""

from __future__ import annotations

import argparse
import random
import sys

from shengji import core
from shengji.cards import card_str
from shengji.core import Context, Hand
from shengji.errors import ShengjiError
from shengji.playout import FriendsState, Position, playout, playouts
from shengji.rules import PlayRules

NK = 54
_KNOBS = ("ruff_compare", "failed_throw", "kitty", "follow_protection", "bombs", "decomposition",
          "follow_requirements")
_CHOICES = {
    "ruff_compare": ("strongest", "all_components", "highest_card", "bogus"),
    "failed_throw": ("smallest", "next_player_chooses", "first_blocker", "x"),
    "kitty": ("exponential", "power", "table", "twice_size", ""),
    "follow_protection": ("none", "longer_tuples", "tractor_on_tractor", "both", "suit_only",
                          "some"),
    "bombs": ("none", "any_suit", "follow_suit", 4),
    "decomposition": ("seeds", "shengji_io", "greedy"),
    "follow_requirements": ("seeds", "shengji_io", "shengji_io", "ladders"),
}
_FOLLOWING = ({}, {"pair": ["pair", "singles"]},
              {"titanic": ["titanic", "triple + triple", "tractor", "triple + pair", "singles"],
               "triple": ["triple", "pair", "singles"]},
              {"quad": ["quad", "triple", "pair + pair", "pair", "singles"],
               "3x5": ["2x2", "pair"]},
              {"bogus": ["pair"]})  # fmt: skip


class Data:
    """A small FuzzedDataProvider that works with or without atheris."""

    def __init__(self, data: bytes):
        self.b = data
        self.i = 0

    def byte(self) -> int:
        if self.i >= len(self.b):
            return 0
        self.i += 1
        return self.b[self.i - 1]

    def int_in(self, lo: int, hi: int) -> int:
        return lo + (self.byte() | self.byte() << 8) % (hi - lo + 1)

    def pick(self, seq):
        return seq[self.byte() % len(seq)]

    def raw(self, n: int) -> bytes:
        out = self.b[self.i : self.i + n]
        self.i += len(out)
        return out.ljust(n, b"\0")

    def text(self, n: int) -> str:
        return self.raw(self.int_in(0, n)).decode("utf-8", "replace")

    def counts(self, decks: int, spread: int) -> list[int]:
        """54 counts: mostly valid (<= decks) with an occasional out-of-range value."""
        out = [0] * NK
        for _ in range(self.int_in(0, spread)):
            k = self.byte() % NK
            out[k] = min(out[k] + 1, decks + (self.byte() == 255))
        return out

    def tokens(self, decks: int, spread: int) -> str:
        """Card text: valid tokens, sometimes mangled bytes."""
        if self.byte() < 20:
            return self.text(40)
        c = self.counts(decks, spread)
        return " ".join(card_str(k) for k, n in enumerate(c) for _ in range(min(n, 4)))


def make_context(d: Data) -> Context:
    """Rules, level and trump: valid values mostly, out-of-range ones one time in 16."""
    bad = d.byte() < 16
    decks = d.int_in(0, 9) if bad else d.int_in(1, 8)  # the core plays 1..8 packs
    kw = dict(decks=decks, tractors=d.byte() % 4 != 0, throws=d.byte() % 4 != 0,
              tractor_min_width=d.pick((2, 3, 1, 9)) if bad else d.pick((2, 2, 3)),
              tractor_min_length=d.pick((2, 3, 1)) if bad else d.pick((2, 2, 3)),
              max_tuple=d.pick((None, 1, 9)) if bad else d.pick((None, d.int_in(1, decks))),
              tractor_bridges_level_gap=d.byte() % 2 == 0, shorter_tractors=d.byte() % 3 != 0,
              kitty_cap=d.pick((64, 2, 1, 0, 2**40)) if bad else d.pick((64, 2, 2**40)),
              rainbow_min=d.pick((0, 4, 5, 3, 17)) if bad else d.pick((0, 0, 4, 5, 8)),
              following=d.pick(_FOLLOWING))
    for knob in _KNOBS:
        choices = _CHOICES[knob]
        kw[knob] = d.pick(choices) if bad else d.pick(choices[:-1])
    if d.byte() % 4 == 0:  # a deck composition: short packs, packs without jokers
        low = d.int_in(0, 6)
        kw["copies"] = [0 if k < 52 and k % 13 < low else decks for k in range(NK)]
        kw["copies"][52 + d.byte() % 2] = d.int_in(0, decks + bad)
    if d.byte() % 5 == 0:  # the older alias, sometimes contradicting
        kw["must_break_tuples"] = d.byte() % 2 == 0
    if d.byte() % 2:
        # the path of variant files (YAML mappings): ranks by name
        kw["constant_ranks"] = [d.pick(("2", "3", "A", "10"))][: d.byte() % 2]
        if not bad and kw["following"] and decks < 3:
            kw["following"] = {}
        rules = PlayRules.from_mapping(kw)
    else:
        kw.pop("following")  # the dataclass takes parsed ladders, not a mapping
        kw["constant_ranks"] = tuple(sorted({d.byte() % (14 if bad else 13)
                                             for _ in range(d.int_in(0, 2))}))
        rules = PlayRules(**kw)
    if bad:
        level = d.pick((d.int_in(-1, 13), "10", "1", d.text(3)))
        trump = d.pick((None, 4, "none", d.text(2)))
    else:
        level = d.pick((d.int_in(0, 12), "10", "A"))
        trump = d.pick((None, 0, 1, 2, 3, "S", "none"))
    return Context(rules, level, trump)


def rainbow_text(d: Data, decks: int) -> str:
    """One or two ranks from all four suits (a rainbow lead when the rules have them)."""
    out = []
    for _ in range(d.int_in(1, 2)):
        rank = d.int_in(0, 12)
        out += [card_str(s * 13 + rank) for s in range(4) for _ in range(d.int_in(1, decks))]
    return " ".join(out)


def api_layer(d: Data, ctx: Context) -> None:
    decks = ctx.rules.decks
    lead = Hand(rainbow_text(d, decks) if d.byte() % 4 == 0 else d.tokens(decks, 8))
    hand = Hand(d.tokens(decks, 40))
    play = Hand(d.tokens(decks, 8)) if d.byte() % 3 == 0 else Hand.from_counts(
        [min(a, b) for a, b in zip(hand.counts, d.counts(decks, 60), strict=True)])
    ops = [
        lambda: ctx.decompose(lead),
        lambda: ctx.is_tractor(lead),
        lambda: ctx.is_rainbow(lead),
        lambda: ctx.check_follow(lead, hand, play),
        lambda: ctx.legal_follows(lead, hand, limit=d.int_in(0, 50)),
        lambda: ctx.check_throw(lead, [hand, play, Hand(d.tokens(decks, 20))]),
        lambda: ctx.trick_winner([lead, play, Hand(d.tokens(decks, 8))]),
        lambda: ctx.check_follows(lead, hand, [play, lead, Hand(d.tokens(decks, 8))][
            : d.int_in(0, 3)]),
        lambda: ctx.trick_winners([[lead, play], [play, hand, lead]][: d.int_in(0, 2)]),
        lambda: ctx.kitty_multiplier(play, lead if d.byte() % 2 else None),
        lambda: ctx.compare(d.pick((0, 53, 54, -1, "HA", "BJ", "X")), d.byte() % 60),
        lambda: (ctx.strength(d.byte() % 60), ctx.effective_suit(d.text(3))),
        lambda: (lead + hand, hand - play, play in hand, str(hand), hand.cards()),
    ]
    for _ in range(d.int_in(1, 6)):
        try:
            d.pick(ops)()
        except ShengjiError:
            pass


def raw_layer(d: Data, ctx: Context) -> None:
    """The C entry points with arbitrary buffers, lengths and a mutated lead."""
    ffi, lib = core.ffi, core.lib
    r = ctx._r
    n = d.pick((NK, NK, NK, 0, 53, 55, -1, 2**31 - 1))
    buf = ffi.new("uint8_t[]", d.raw(NK + 2))
    # lengths other than 54 are refused before any read (the buffer holds 56 bytes)
    err = ffi.new("sj_err *")
    lead = ffi.new("sj_lead *")
    rc = lib.sj_decompose(r, buf, n, lead, err)
    if rc == 0 and d.byte() % 2:
        # flip bytes of the decomposed lead (not its stamp): the core must still stay
        # inside its buffers
        raw = ffi.buffer(lead)
        for _ in range(d.int_in(1, 8)):
            pos = 8 + d.int_in(0, len(raw) - 9)
            raw[pos] = bytes([d.byte()])
    hand = ffi.new("uint8_t[]", d.raw(NK))
    play = ffi.new("uint8_t[]", d.raw(NK))
    m = d.int_in(0, 5)
    others = ffi.new("uint8_t[]", d.raw(NK * max(m, 1)))
    out = ffi.new("uint8_t[]", NK * 4)
    nout, total, exact = ffi.new("int32_t *"), ffi.new("uint64_t *"), ffi.new("int32_t *")
    info = ffi.new("sj_follow_info *")
    thr = ffi.new("sj_throw_result *")
    lib.sj_check_follow(r, lead, hand, NK, play, NK, info, err)
    lib.sj_legal_follows(r, lead, hand, NK, out, NK * d.int_in(0, 4), nout, total,
                         exact if d.byte() % 2 else ffi.NULL, err)
    lib.sj_check_throw(r, lead, others, NK * m, m, thr, err)
    lib.sj_trick_winner(r, others, NK * m, m, err)
    # the batch entry points (batch.c): m plays / one trick of m plays, codes out
    codes, at = ffi.new("uint8_t[]", max(m, 1)), ffi.new("int32_t *")
    lib.sj_check_follows(r, lead, hand, others, m, codes, at)
    lib.sj_trick_winners(r, others, ffi.new("int32_t[]", [m]), 1, codes, at)
    lib.sj_follow_code(r, lead, hand, play)
    lib.sj_winner_code(r, others, m)
    lib.sj_ncomp(r, buf)
    lib.sj_lead_list(r, hand, d.byte() % 2, out, d.int_in(0, 4))  # the engine's leads
    lib.sj_kitty_multiplier(r, play, NK, lead if d.byte() % 2 else ffi.NULL, err)
    lib.sj_is_tractor(r, buf, n, err)
    lib.sj_compare(r, d.int_in(-2, 60), d.int_in(-2, 60))


def playout_layer(d: Data, ctx: Context) -> None:
    """Dealt positions (a trick in progress sometimes), one field broken now and then."""
    rng = random.Random(d.raw(8))
    players = d.pick((4, 4, 4, 2, 3, 5, 6, 8, 10, 12))
    deck = [k for k in range(NK) for _ in range(ctx.rules.copies[k])]
    rng.shuffle(deck)
    size = d.int_in(1, len(deck) // players)
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    leader = d.int_in(0, players - 1)
    trick = []
    n_trick = d.int_in(0, players - 1) if d.byte() % 2 else 0
    if n_trick:
        lead_hand = hands[leader]
        suit = ctx.effective_suit(lead_hand[0])
        same = [k for k in lead_hand if ctx.effective_suit(k) == suit]
        n = min(len(same), d.int_in(1, 3))
        for i in range(n_trick):
            seat_hand = hands[(leader + i) % players]
            play = same[:n] if i == 0 else seat_hand[:n]
            for k in play:
                seat_hand.remove(k)
            trick.append(play)
    teams = [s % 2 for s in range(players)]
    kw = dict(leader=leader, dealer_team=d.int_in(0, 1), teams=teams, trick=trick,
              kitty_points=d.int_in(0, 300), throw_penalty=d.int_in(0, 30),
              trick_points=d.int_in(0, 200), penalty=d.int_in(0, 60) - 30,
              throws=d.byte() % 2 == 0)
    if d.byte() < 24:  # break the position: the core must refuse it cleanly
        what = d.byte() % 4
        if what == 0:
            hands[d.int_in(0, players - 1)].append(d.byte() % NK)
        elif what == 1 and trick:
            trick[0] = [d.byte() % NK, d.byte() % NK]
        elif what == 2:
            hands.append([])
        else:
            kw["leader"] = d.int_in(0, 9)
    if d.byte() % 3 == 0:  # finding friends: calls still open, a friend perhaps found
        dealer = d.int_in(0, players - 1)
        calls = tuple((d.int_in(1, 3), d.byte() % NK) for _ in range(d.int_in(0, 4)))
        kw["friends"] = FriendsState(
            dealer, calls, tuple(d.int_in(0, o - 1) for o, _ in calls),
            tuple(d.byte() % 4 == 0 for _ in calls),
            (dealer,) + ((d.int_in(0, players - 1),) if d.byte() % 2 else ()),
            d.byte() % 2 == 0, d.byte() % 2 == 0)
        kw["captured"] = [d.int_in(0, 60) for _ in range(players)]
        kw["penalties"] = [d.int_in(0, 20) * (d.byte() < 40) for _ in range(players)]
    pos = Position(ctx, [Hand(h) for h in hands], **kw)
    if d.byte() % 2:
        playout(pos, d.int_in(0, 2**16))
    else:
        playouts(pos, d.int_in(0, 3), d.int_in(0, 2**16))


def test_one_input(data: bytes) -> None:
    d = Data(data)
    try:
        ctx = make_context(d)
    except ShengjiError:
        return
    layer = d.byte() % 3
    try:
        (api_layer, raw_layer, playout_layer)[layer](d, ctx)
    except ShengjiError:
        pass


def run_random(n: int, seed: int) -> int:
    """Random inputs without atheris (also what the test suite runs)."""
    rng = random.Random(seed)
    for _ in range(n):
        test_one_input(rng.randbytes(rng.randrange(1, 400)))
    return n


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    args, rest = ap.parse_known_args(argv[1:])
    if args.random:
        run_random(args.random, args.seed)
        print(f"{args.random} random inputs, no finding")
        return
    import atheris

    atheris.instrument_all()  # Python coverage of shengji (the C core is not instrumented)
    atheris.Setup([argv[0], *rest], test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
