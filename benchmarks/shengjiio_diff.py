"""Differential run against shengji.io's own rules crate: per class, how often do we agree?

    python benchmarks/shengjiio_diff.py          # 300 positions per class and deck count
    python benchmarks/shengjiio_diff.py --positions 2000 --examples 5 --seed 7
    python benchmarks/shengjiio_diff.py --decks 4 --classes follows,winners
    python benchmarks/shengjiio_diff.py --unset decomposition   # a knob's before/after
    python benchmarks/shengjiio_diff.py --classes follows --ours oracle   # tests/oracle

The other side is shengji.io's `shengji-mechanics` crate (rbtying/shengji, the commit in
SHENGJI_IO_COMMIT) behind a driver: a program reading one JSON request a line on stdin and
writing one answer a line on stdout (`--driver PROGRAM`, or SHENGJI_IO_DRIVER). Every
request has "op", "level" ("2".."A"), "trump" ("S" "H" "C" "D", or null for no trump) and
shengji.io's settings by its own names: "draw" (TrickDrawPolicy), "throw_eval"
(ThrowEvaluationPolicy), "bombs" (BombPolicy), "rainbows" (null or n:
CompoundFormats.rainbows), "tractor" ([min_count, min_length]: TractorRequirements).
Cards are lists of tokens in our notation ("SA", "H10", "LJ", "BJ"):

    {"op": "decompose", "cards": [...]}            -> {"units": [[...], ...], "rainbow": bool}
    {"op": "follow", "lead": [...], "hand": [...], "play": [...]}   -> {"legal": bool}
    {"op": "throw", "lead": [...], "others": [[...], ...]}
                                                   -> {"valid": bool, "forced": [...]}
    {"op": "winner", "hands": [[...], ...], "plays": [[...], ...]} -> {"winner": i}

decompose is TrickFormat::from_cards, follow TrickFormat::is_legal_play, throw and
winner the plays made through Trick::play_cards (and Trick::complete) as shengji.io's
play phase makes them; anything wrong is {"error": "..."}. The driver and the crate are
kept out of this repository on purpose (a workplace rule: no code fetched from another
repository, no binary built from it, no script or recipe that would build it); the
crate builds offline with Debian's Rust (`apt-get install cargo rustc` and the
`librust-*-dev` crates it depends on). docs/semantics.md §11 has the figures.

Each position draws a deck count (1-4 full packs with jokers, as shengji.io deals), a
level, a trump suit or no trump, and shengji.io's play settings (TrickDrawPolicy,
ThrowEvaluationPolicy, BombPolicy, CompoundFormats.rainbows, TractorRequirements); our
knobs are set from them by the mapping of docs/variants.md ("shengji.io equivalent",
the schema's x-shengji-io), checked against the schema when the script starts. The
rules are built by loading a variant mapping, so every printed example names a variant
that reproduces the position. Classes:

- decomposition: the units of a lead (`TrickFormat::from_cards`) against `decompose`;
- follows: `TrickFormat::is_legal_play` against `check_follow`, on plays drawn half
  from our legal follows and half at random from the hand;
- throws: a lead of several components played through `Trick::play_cards` against the
  other holdings, against `check_throw` (validity; forced cards when both refuse);
- winners: a trick of four plays (our legal follows, ruffs by void seats, bombs)
  played through `Trick::play_cards` and `complete`, against `trick_winner`. A trick
  shengji.io refuses to play (a follow it finds illegal) is counted apart.

Output: agreement per class and deck count, then up to --examples disagreements per
class, shrunk greedily (cards dropped while the disagreement stays), in rule-case
notation (docs/conformance.md) with the variant mapping to save beside them; `expect` is
shengji.io's answer. `--ours oracle` judges the follows with the pure-Python oracle
(tests/oracle) in place of the C core, on the same positions (the C core still draws
them), so the oracle's reading of a knob is checked against the crate on its own.
Not collected by pytest; needs no network.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shengji.cards import NUM_KINDS, RANKS, SUITS, card_str  # noqa: E402
from shengji.core import Context, Hand  # noqa: E402
from shengji.errors import ShengjiError  # noqa: E402
from shengji.variants import load_variant  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from oracle import OracleContext  # noqa: E402

SHENGJI_IO_COMMIT = "71f8d43"
DEFAULT_DRIVER = "sjio-driver"  # on the PATH, unless --driver or SHENGJI_IO_DRIVER says
CLASSES = ("decomposition", "follows", "throws", "winners")
#: cards each and kitty of four seats, per deck count (the variant files need them)
TABLE = {1: (12, 6), 2: (25, 8), 3: (39, 6), 4: (52, 8)}

# our knob value -> shengji.io's setting (docs/variants.md; checked against x-shengji-io)
DRAW = {
    "none": "NoProtections",
    "longer_tuples": "LongerTuplesProtected",
    "tractor_on_tractor": "OnlyDrawTractorOnTractor",
    "both": "LongerTuplesProtectedAndOnlyDrawTractorOnTractor",
    "suit_only": "NoFormatBasedDraw",
}
# `all` is shengji.io's All (any split that beats); `all_components` our strongest split
EVAL = {"all": "All", "highest_card": "Highest", "unit_length": "TrickUnitLength"}
BOMBS = {"none": "NoBombs", "any_suit": "AllowBombs",
         "follow_suit_or_trump": "AllowBombsSuitFollowing"}
MAPPED = {"follow_protection": DRAW, "ruff_compare": EVAL, "bombs": BOMBS}
#: play knobs whose shengji.io value is fixed (its only behaviour). A knob added to
#: reproduce shengji.io belongs here: it is set only when the schema has the key, so
#: the script runs before and after the knob is merged.
FIXED_PLAY: dict[str, Any] = {
    "failed_throw": "first_blocker",
    "shorter_tractors": True,
    "tractors": True,
    "throws": True,
    "tractor_bridges_level_gap": True,
    "genuine_tuples": True,     # PR #512: a triple cut from a longer tuple is no pair
    "tractors_first": True,     # TrickFormat::from_cards: a tractor before a wider tuple
    "decomposition": "shengji_io",  # from_cards' split: ties by find_plays' listing order
    "follow_requirements": "shengji_io",  # is_legal_play's requirement walk
}


def schema_play_keys() -> dict[str, Any]:
    schema = json.loads((ROOT / "shengji/schema/variant.schema.json").read_text("utf-8"))
    props: dict[str, Any] = schema["properties"]["play"]["properties"]
    return props


def check_mapping(props: dict[str, Any]) -> None:
    """Every shengji.io name sent for a knob is named by that knob's x-shengji-io."""
    for key, table in MAPPED.items():
        sio = props.get(key, {}).get("x-shengji-io", "")
        missing = [v for v in table.values() if v not in sio]
        if missing:
            sys.exit(f"play.{key}: x-shengji-io does not name {', '.join(missing)}: "
                     "update the mapping of this script or the schema")


# -- the driver --------------------------------------------------------------------------


class Driver:
    """shengji.io's crate behind a driver program (one JSON line each way)."""

    def __init__(self, path: str) -> None:
        found = shutil.which(path)
        if found is None:
            sys.exit(f"{path}: no driver program there; pass --driver (the protocol is in "
                     "this script's docstring)")
        path = found
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.calls = 0

    def ask(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit("the driver stopped answering")
        self.calls += 1
        out: dict[str, Any] = json.loads(line)
        return out

    def close(self) -> None:
        if self.p.stdin:
            self.p.stdin.close()
        self.p.wait(timeout=10)


# -- settings and positions ----------------------------------------------------------------


class Setting:
    """One table: deck count, level, trump, shengji.io's settings and our rules."""

    _variants: dict[str, Any] = {}

    def __init__(self, rng: random.Random, decks: int, keys: dict[str, Any],
                 draws: list[str] | None = None, oracle: bool = False) -> None:
        self.decks = decks
        self.level = rng.choice(RANKS)
        self.trump = None if rng.random() < 0.2 else rng.choice(SUITS)
        self.draw = rng.choice(draws or list(DRAW))
        self.ruff = rng.choice(list(EVAL))
        # bombs are four or more identical cards: only four packs hold them
        self.bombs = rng.choice(list(BOMBS)) if decks >= 4 else "none"
        self.rainbow = rng.choice([0, 0, 0, 4, 5, 8])
        widths = [(2, 2)] * 5 + [(2, 3)] + ([(3, 2)] if decks >= 3 else [])
        self.tractor = rng.choice(widths)
        hand, kitty = TABLE[decks]
        play = {"follow_protection": self.draw, "ruff_compare": self.ruff,
                "bombs": self.bombs, "rainbow_min": self.rainbow,
                "tractor_min_width": self.tractor[0], "tractor_min_length": self.tractor[1]}
        play.update({k: v for k, v in FIXED_PLAY.items() if k in keys})
        self.variant = {"name": "shengji-io", "decks": decks, "hand_size": hand,
                        "kitty_size": kitty, "play": play}
        vkey = json.dumps(self.variant, sort_keys=True)
        if vkey not in Setting._variants:
            Setting._variants[vkey] = load_variant(self.variant).play_rules
        self.rules = Setting._variants[vkey]
        self.ctx = Context(self.rules, self.level, self.trump)
        self.oracle = OracleContext(self.rules, self.level, self.trump) if oracle else None
        self.copies = list(self.rules.copies)

    def request(self, op: str, **kw: Any) -> dict[str, Any]:
        return {"op": op, "level": self.level, "trump": self.trump,
                "draw": DRAW[self.draw], "throw_eval": EVAL[self.ruff],
                "bombs": BOMBS[self.bombs], "rainbows": self.rainbow or None,
                "tractor": list(self.tractor), **kw}

    def describe(self) -> str:
        sio = (f"{DRAW[self.draw]}, {EVAL[self.ruff]}, {BOMBS[self.bombs]}, rainbows "
               f"{self.rainbow or 'None'}, TractorRequirements{self.tractor}")
        return f"{self.decks} deck(s), level {self.level}, trump {self.trump or 'none'}; {sio}"


def cards_of(counts: list[int]) -> list[str]:
    return [card_str(k) for k in range(NUM_KINDS) for _ in range(counts[k])]


def text(counts: list[int]) -> str:
    return " ".join(cards_of(counts))


def take(avail: list[int], counts: list[int]) -> None:
    for k in range(NUM_KINDS):
        avail[k] -= counts[k]
        assert avail[k] >= 0


def suit_kinds(s: Setting, esuit: int, avail: list[int]) -> list[int]:
    ks = [k for k in range(NUM_KINDS) if avail[k] and s.ctx.effective_suit(k) == esuit]
    ks.sort(key=s.ctx.strength)
    return ks


def structured(rng: random.Random, s: Setting, avail: list[int], esuit: int,
               most: int) -> list[int]:
    """A group of one effective suit built from runs of tuples (tractors, tuples, and
    near misses), at most ``most`` cards."""
    out = [0] * NUM_KINDS
    ks = suit_kinds(s, esuit, avail)
    if not ks or most <= 0:
        return out
    for _ in range(rng.randint(1, 3)):
        start = rng.randrange(len(ks))
        width = rng.randint(1, s.decks)
        for k in ks[start:start + rng.choice([1, 1, 2, 2, 3, 4])]:
            n = min(width - (rng.random() < 0.15), avail[k] - out[k], most - sum(out))
            if n > 0:
                out[k] += n
    return out


def scatter(rng: random.Random, avail: list[int], n: int, bias: list[int] | None = None
            ) -> list[int]:
    """``n`` cards drawn at random from what is left (from ``bias`` kinds first)."""
    out = [0] * NUM_KINDS
    pool = [k for k in range(NUM_KINDS) for _ in range(avail[k])]
    rng.shuffle(pool)
    if bias:
        pool.sort(key=lambda k: k not in bias)
    for k in pool[:n]:
        out[k] += 1
    return out


def rainbow_lead(rng: random.Random, s: Setting, avail: list[int]) -> list[int] | None:
    out = [0] * NUM_KINDS
    level = RANKS.index(s.level)
    for rank in rng.sample([r for r in range(13) if r != level], rng.choice([1, 1, 2])):
        for suit in range(4):
            k = suit * 13 + rank
            n = min(rng.randint(1, s.decks), avail[k])
            out[k] += n
    return out if sum(out) >= s.rainbow else None


def draw_lead(rng: random.Random, s: Setting, avail: list[int]) -> list[int]:
    if s.rainbow and rng.random() < 0.25:
        lead = rainbow_lead(rng, s, avail)
        if lead:
            return lead
    while True:
        esuit = rng.choice([0, 1, 2, 3, 4, 4])
        lead = structured(rng, s, avail, esuit, 4 + 3 * s.decks)
        if sum(lead):
            return lead


def lead_suit(s: Setting, lead: list[int]) -> int:
    return next(s.ctx.effective_suit(k) for k in range(NUM_KINDS) if lead[k])


def draw_holding(rng: random.Random, s: Setting, avail: list[int], esuit: int,
                 size: int, void: bool = False) -> list[int]:
    """A holding of ``size`` cards: a structured part in the led suit (none when
    ``void``), then trumps and others at random."""
    part = [0] * NUM_KINDS
    if not void:
        part = structured(rng, s, avail, esuit, rng.randint(0, size))
    rest = [a - p for a, p in zip(avail, part, strict=True)]
    if void:
        rest = [0 if s.ctx.effective_suit(k) == esuit else rest[k] for k in range(NUM_KINDS)]
    trumps = [k for k in range(NUM_KINDS) if s.ctx.effective_suit(k) == 4]
    more = scatter(rng, rest, size - sum(part), trumps if rng.random() < 0.4 else None)
    return [a + b for a, b in zip(part, more, strict=True)]


# -- classes ---------------------------------------------------------------------------------


def components(s: Setting, lead: list[int]) -> list[list[str]] | None:
    try:
        return [str(c.cards).split() for c in s.ctx.decompose(Hand.from_counts(lead))]
    except ShengjiError:
        return None


def strengths(s: Setting, cards: list[str]) -> tuple[tuple[int, int], ...]:
    """Cards as (effective suit, strength): equal-strength cards (the level cards of two
    plain suits) are the same card for every rule but which copy is shown."""
    return tuple(sorted((s.ctx.effective_suit(c), s.ctx.strength(c))
                        for c in Hand(" ".join(cards)).cards()))


def decomp_case(s: Setting, drv: Driver, lead: list[int]
                ) -> tuple[bool, bool, str, str] | None:
    """(same up to equal-strength cards, same cards, ours, shengji.io's)."""
    ours = components(s, lead)
    if ours is None:
        return None
    theirs = drv.ask(s.request("decompose", cards=cards_of(lead)))
    if "error" in theirs:
        return None
    a = sorted(" ".join(u) for u in ours)
    b = sorted(" ".join(str(Hand(" ".join(u))).split()) for u in theirs["units"])
    same = sorted(strengths(s, u.split()) for u in a) == sorted(
        strengths(s, u.split()) for u in b)
    return same, a == b, " | ".join(a), " | ".join(b)


def follow_verdict(s: Setting, drv: Driver, lead: list[int], hand: list[int],
                   play: list[int]) -> tuple[bool, bool] | None:
    try:
        if s.oracle is not None:
            ours = s.oracle.check_follow(tuple(lead), tuple(hand), tuple(play))[0]
        else:
            ours = s.ctx.check_follow(Hand.from_counts(lead), Hand.from_counts(hand),
                                      Hand.from_counts(play)).ok
    except ShengjiError:
        return None
    theirs = drv.ask(s.request("follow", lead=cards_of(lead), hand=cards_of(hand),
                               play=cards_of(play)))
    if "error" in theirs:
        return None
    return ours, theirs["legal"]


def throw_verdict(s: Setting, drv: Driver, lead: list[int], others: list[list[int]]
                  ) -> tuple[tuple[bool, str], tuple[bool, str]] | None:
    try:
        res = s.ctx.check_throw(Hand.from_counts(lead), [Hand.from_counts(o) for o in others])
    except ShengjiError:
        return None
    theirs = drv.ask(s.request("throw", lead=cards_of(lead),
                               others=[cards_of(o) for o in others]))
    if "error" in theirs:
        return None
    ours = (res.valid, "" if res.valid else str(res.forced))
    sio_forced = "" if theirs["valid"] else str(Hand(" ".join(theirs["forced"])))
    return ours, (theirs["valid"], sio_forced)


def same_cards(s: Setting, a: str, b: str) -> bool:
    return strengths(s, a.split()) == strengths(s, b.split())


def pick_follow(rng: random.Random, s: Setting, lead: list[int], hand: list[int],
                legal_first: bool) -> list[int]:
    n = sum(lead)
    if legal_first:
        try:
            lf = s.ctx.legal_follows(Hand.from_counts(lead), Hand.from_counts(hand), limit=300)
            if len(lf.plays):
                return list(rng.choice(list(lf.plays)).counts)
        except ShengjiError:
            pass
    if s.bombs != "none" and n >= 4 and rng.random() < 0.3:
        big = [k for k in range(NUM_KINDS) if hand[k] >= n]
        if big:
            out = [0] * NUM_KINDS
            out[rng.choice(big)] = n
            return out
    esuit = lead_suit(s, lead)
    suit = [k for k in range(NUM_KINDS) for _ in range(hand[k])
            if s.ctx.effective_suit(k) == esuit]
    rest = [k for k in range(NUM_KINDS) for _ in range(hand[k])
            if s.ctx.effective_suit(k) != esuit]
    rng.shuffle(suit)
    rng.shuffle(rest)
    if rng.random() < 0.5:  # keep tuples together: a near miss rather than noise
        suit.sort(key=lambda k: (-hand[k], s.ctx.strength(k)))
    if not suit and rng.random() < 0.7:  # void: ruff with the strongest trumps
        rest.sort(key=lambda k: (s.ctx.effective_suit(k) != 4, -hand[k], -s.ctx.strength(k)))
    out = [0] * NUM_KINDS
    for k in (suit + rest)[:n]:
        out[k] += 1
    return out


# -- the run -------------------------------------------------------------------------------


class Tally:
    def __init__(self, examples: int) -> None:
        self.counts: Counter[tuple[str, int, str]] = Counter()
        self.examples: dict[str, list[str]] = {c: [] for c in (*CLASSES, "forced")}
        self.keep = examples

    def add(self, cls: str, decks: int, ok: bool, example: Callable[[], str],
            lead_differs: Callable[[], bool] | None = None) -> None:
        """Count one position. A disagreement whose lead shengji.io decomposes otherwise
        (``lead_differs``) is counted as such and gives no example: the decomposition
        class shows those."""
        self.counts[(cls, decks, "ok" if ok else "bad")] += 1
        if ok:
            return
        if lead_differs is not None and lead_differs():
            self.counts[(cls, decks, "bad-decomp")] += 1
            return
        if len(self.examples[cls]) < self.keep:
            self.examples[cls].append(example())


def differs_on(s: Setting, drv: Driver, lead: list[int]) -> Callable[[], bool]:
    def check() -> bool:
        r = decomp_case(s, drv, lead)
        return r is not None and not r[0]
    return check


def case_text(cls: str, n: int, s: Setting, kind: str, body: str, expect: str,
              note: str, seed: int) -> str:
    variant = json.dumps(s.variant, separators=(", ", ": "))
    trump = s.trump or "none"
    return (f"# {cls} #{n}: {s.describe()}\n# {note}\n"
            f"# variant file shengji-io-{s.decks}.yaml: {variant}\n"
            f"- id: shengji-io-{cls}-{s.decks}d-{n}\n"
            f"  source: \"shengji.io {SHENGJI_IO_COMMIT} mechanics (benchmarks/"
            f"shengjiio_diff.py --seed {seed})\"\n"
            f"  variant: shengji-io-{s.decks}.yaml\n"
            f"  level: \"{s.level}\"\n  trump: {trump}\n"
            f"  {kind}: {body}\n  expect: {expect}\n")


def shrink(groups: list[list[int]], still: Callable[[list[list[int]]], bool],
           fixed: tuple[int, ...] = ()) -> list[list[int]]:
    """Drop one card at a time from the groups not in ``fixed`` while ``still`` holds."""
    changed = True
    while changed:
        changed = False
        for gi, g in enumerate(groups):
            if gi in fixed:
                continue
            for k in range(NUM_KINDS):
                if not g[k]:
                    continue
                trial = [list(x) for x in groups]
                trial[gi][k] -= 1
                if still(trial):
                    groups, changed = trial, True
                    break
    return groups


def run_decomposition(rng: random.Random, s: Setting, drv: Driver, tally: Tally,
                      seed: int) -> None:
    lead = draw_lead(rng, s, list(s.copies))
    got = decomp_case(s, drv, lead)
    if got is None:
        return

    def example() -> str:
        def differs(g: list[list[int]]) -> bool:
            r = decomp_case(s, drv, g[0]) if sum(g[0]) else None
            return r is not None and not r[0]
        (small,) = shrink([lead], differs)
        _, _, ours, theirs = decomp_case(s, drv, small) or (False, False, "?", "?")
        n = len(tally.examples["decomposition"]) + 1
        expect = json.dumps(theirs.split(" | "), ensure_ascii=False)
        return case_text("decomposition", n, s, "decompose", f"\"{text(small)}\"", expect,
                         f"ours: {ours}", seed)

    tally.add("decomposition", s.decks, got[0], example)
    if got[0]:
        tally.counts[("decomposition", s.decks, "exact" if got[1] else "tie")] += 1


def run_follows(rng: random.Random, s: Setting, drv: Driver, tally: Tally, seed: int) -> None:
    avail = list(s.copies)
    lead = draw_lead(rng, s, avail)
    take(avail, lead)
    esuit = lead_suit(s, lead)
    size = sum(lead) + rng.randint(0, 10)
    hand = draw_holding(rng, s, avail, esuit, size, void=rng.random() < 0.1)
    if sum(hand) < sum(lead):
        return
    play = pick_follow(rng, s, lead, hand, legal_first=rng.random() < 0.5)
    got = follow_verdict(s, drv, lead, hand, play)
    if got is None:
        return

    def example() -> str:
        def differs(g: list[list[int]]) -> bool:
            h = [a + b for a, b in zip(g[0], play, strict=True)]
            r = follow_verdict(s, drv, lead, h, play)
            return r is not None and r[0] != r[1]
        rest = [a - b for a, b in zip(hand, play, strict=True)]
        (rest,) = shrink([rest], differs)
        h = [a + b for a, b in zip(rest, play, strict=True)]
        ours, theirs = follow_verdict(s, drv, lead, h, play) or got
        n = len(tally.examples["follows"]) + 1
        body = f"{{lead: \"{text(lead)}\", hand: \"{text(h)}\", play: \"{text(play)}\"}}"
        word = {True: "legal", False: "illegal"}
        return case_text("follows", n, s, "follow", body, word[theirs],
                         f"ours: {word[ours]}", seed)

    tally.add("follows", s.decks, got[0] == got[1], example, differs_on(s, drv, lead))


def run_throws(rng: random.Random, s: Setting, drv: Driver, tally: Tally, seed: int) -> None:
    avail = list(s.copies)
    for _ in range(20):
        lead = draw_lead(rng, s, avail)
        comps = components(s, lead)
        if comps is not None and len(comps) >= 2:
            break
    else:
        return
    take(avail, lead)
    esuit = lead_suit(s, lead)
    others = []
    for _ in range(3):
        o = draw_holding(rng, s, avail, esuit, rng.randint(3, 6 + 4 * s.decks),
                         void=rng.random() < 0.2)
        take(avail, o)
        others.append(o)
    got = throw_verdict(s, drv, lead, others)
    if got is None:
        return
    (ov, of), (tv, tf) = got

    def example() -> str:
        def differs(g: list[list[int]]) -> bool:
            r = throw_verdict(s, drv, lead, g)
            return r is not None and r[0] != r[1]
        small = shrink([list(o) for o in others], differs)
        (ov2, of2), (tv2, tf2) = throw_verdict(s, drv, lead, small) or got
        n = len(tally.examples["throws"]) + 1
        holdings = ", ".join(f"\"{text(o)}\"" for o in small)
        expect = "{valid: true}" if tv2 else f"{{valid: false, forced: \"{tf2}\"}}"
        ours = "valid" if ov2 else f"fails, forced {of2}"
        return case_text("throws", n, s, "throw", f"{{lead: \"{text(lead)}\", others: "
                         f"[{holdings}]}}", expect, f"ours: {ours}", seed)

    tally.add("throws", s.decks, ov == tv, example, differs_on(s, drv, lead))
    if ov == tv and not ov:
        same = same_cards(s, of, tf)
        tally.counts[("throws", s.decks, "forced-ok" if same else "forced-bad")] += 1
        if not same and not differs_on(s, drv, lead)():
            tally.counts[("throws", s.decks, "forced-bad-alike")] += 1
            if len(tally.examples["forced"]) < tally.keep:
                n = len(tally.examples["forced"]) + 1
                holdings = ", ".join(f"\"{text(o)}\"" for o in others)
                tally.examples["forced"].append(case_text(
                    "forced", n, s, "throw", f"{{lead: \"{text(lead)}\", others: "
                    f"[{holdings}]}}", f"{{valid: false, forced: \"{tf}\"}}",
                    f"ours: forced {of}", seed))
        if of != tf and same_cards(s, of, tf):
            tally.counts[("throws", s.decks, "forced-tie")] += 1


def run_winners(rng: random.Random, s: Setting, drv: Driver, tally: Tally, seed: int) -> None:
    avail = list(s.copies)
    lead = draw_lead(rng, s, avail)
    take(avail, lead)
    esuit = lead_suit(s, lead)
    n = sum(lead)
    hands = [[a for a in lead]]
    for _ in range(3):
        h = draw_holding(rng, s, avail, esuit, n + rng.randint(0, 8), void=rng.random() < 0.35)
        take(avail, h)
        if sum(h) < n:
            return
        hands.append(h)
    try:
        t = s.ctx.check_throw(Hand.from_counts(lead), [Hand.from_counts(h) for h in hands[1:]])
    except ShengjiError:
        return
    if not t.valid:  # play the forced part, as the engine does
        assert t.forced is not None
        lead = list(t.forced.counts)
        n = sum(lead)
        hands[0] = lead
    plays = [lead] + [pick_follow(rng, s, lead, h, legal_first=True) for h in hands[1:]]
    try:
        ours = s.ctx.trick_winner([Hand.from_counts(p) for p in plays])
    except ShengjiError:
        return
    theirs = drv.ask(s.request("winner", hands=[cards_of(h) for h in hands],
                               plays=[cards_of(p) for p in plays]))
    if "error" in theirs:
        tally.counts[("winners", s.decks, "refused")] += 1
        return

    def example() -> str:
        k = len(tally.examples["winners"]) + 1
        body = "{plays: [" + ", ".join(f"\"{text(p)}\"" for p in plays) + "]}"
        return case_text("winners", k, s, "winner", body, str(theirs["winner"]),
                         f"ours: {ours}", seed)

    tally.add("winners", s.decks, ours == theirs["winner"], example, differs_on(s, drv, lead))


RUNNERS = {"decomposition": run_decomposition, "follows": run_follows,
           "throws": run_throws, "winners": run_winners}


def report(tally: Tally, classes: list[str], decks: list[int]) -> None:
    print(f"{'class':14} {'decks':>5} {'agree':>7} {'of':>7} {'%':>8}  notes")
    for cls in classes:
        for d in decks:
            ok, bad = tally.counts[(cls, d, "ok")], tally.counts[(cls, d, "bad")]
            tot = ok + bad
            pct = f"{100 * ok / tot:.2f}" if tot else "-"
            note = ""
            if tally.counts[(cls, d, "bad-decomp")]:
                note = (f"{tally.counts[(cls, d, 'bad-decomp')]} of the {bad} disagreements "
                        "lead a lead shengji.io decomposes otherwise; ")
            if cls == "decomposition" and tally.counts[(cls, d, "tie")]:
                note += (f"{tally.counts[(cls, d, 'tie')]} agree only up to equal-strength "
                        "cards (which level card of a plain suit)")
            if cls == "throws":
                fo, fb = tally.counts[(cls, d, "forced-ok")], tally.counts[(cls, d, "forced-bad")]
                if fo + fb:
                    note += f"both refuse: same forced cards {fo}/{fo + fb}"
                    alike = tally.counts[(cls, d, "forced-bad-alike")]
                    if fb:
                        note += f" (the {fb} others: {alike} on leads decomposed alike)"
                    if tally.counts[(cls, d, "forced-tie")]:
                        note += (f" ({tally.counts[(cls, d, 'forced-tie')]} up to "
                                 "equal-strength cards)")
            if cls == "winners" and tally.counts[(cls, d, "refused")]:
                note += f"{tally.counts[(cls, d, 'refused')]} tricks shengji.io refused to play"
            print(f"{cls:14} {d:>5} {ok:>7} {tot:>7} {pct:>8}  {note}")
    for cls in [*classes, "forced"]:
        if tally.examples[cls]:
            alike = "" if cls == "decomposition" else "; leads both decompose alike"
            what = "forced cards when both refuse a throw" if cls == "forced" else cls
            print(f"\n## {what}: example disagreements (expect = shengji.io{alike})\n")
            print("\n".join(tally.examples[cls]))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=300,
                    help="positions per class and deck count (300)")
    ap.add_argument("--decks", default="1,2,3,4", help="deck counts (1,2,3,4)")
    ap.add_argument("--classes", default=",".join(CLASSES), help=",".join(CLASSES))
    ap.add_argument("--examples", type=int, default=3,
                    help="example disagreements printed per class (3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draw", default="",
                    help="only these follow_protection values (e.g. none,tractor_on_tractor)")
    ap.add_argument("--unset", default="",
                    help="FIXED_PLAY knobs left at our default (e.g. decomposition), to "
                         "measure a knob's effect at the same seed")
    ap.add_argument("--ours", choices=("core", "oracle"), default="core",
                    help="our side of the follows class: the C core, or the oracle")
    ap.add_argument("--driver", default=os.environ.get("SHENGJI_IO_DRIVER", DEFAULT_DRIVER))
    args = ap.parse_args(argv)
    classes = [c for c in args.classes.split(",") if c]
    bad = [c for c in classes if c not in CLASSES]
    if bad:
        ap.error(f"unknown class(es) {', '.join(bad)} (known: {', '.join(CLASSES)})")
    decks = [int(d) for d in args.decks.split(",")]
    draws = [d for d in args.draw.split(",") if d]
    if any(d not in DRAW for d in draws):
        ap.error(f"--draw: one of {', '.join(DRAW)}")
    if any(d not in TABLE for d in decks):
        ap.error("--decks: 1..4")
    keys = schema_play_keys()
    check_mapping(keys)
    unset = [k for k in args.unset.split(",") if k]
    if any(k not in FIXED_PLAY for k in unset):
        ap.error(f"--unset: one of {', '.join(FIXED_PLAY)}")
    keys = {k: v for k, v in keys.items() if k not in unset}
    drv = Driver(args.driver)
    tally = Tally(args.examples)
    jobs = [(c, d) for c in classes for d in decks]
    total = len(jobs) * args.positions
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=total, unit="pos", file=sys.stderr)
    t0 = time.monotonic()
    for cls, d in jobs:
        rng = random.Random(f"{args.seed}-{cls}-{d}")
        for _ in range(args.positions):
            s = Setting(rng, d, keys, draws, oracle=args.ours == "oracle")
            RUNNERS[cls](rng, s, drv, tally, args.seed)
            if bar:
                bar.update()
    if bar:
        bar.close()
    drv.close()
    ours = "the oracle (follows)" if args.ours == "oracle" else "shengji"
    print(f"shengji.io {SHENGJI_IO_COMMIT} mechanics vs {ours} {time.monotonic() - t0:.0f} s, "
          f"{drv.calls} driver calls, seed {args.seed}\n")
    report(tally, classes, decks)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
