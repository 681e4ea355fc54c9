"""Differential test: core.wasm (through engine.mjs in Node) against the cffi build.

Random positions for each deck count 1..10 over a sample of knob settings: the lead's
decomposition, the verdict of a follow with its reason and sentence (a listed legal
follow or random cards of the hand), the winner of a trick, the kitty multiplier, and for
some positions the legal follows and a throw. Every answer, errors included, must be the
same. The default run asks a few hundred positions per deck count; ``pytest --long``
asks 100,000 per deck count (the issue's count).
"""

import json
import random

import pytest

from shengji.cards import CARD_TOKENS, NUM_KINDS
from shengji.conformance.engines import CmdEngine
from shengji.core import Context
from shengji.errors import ShengjiError
from shengji.rules import PlayRules
from shengji.wasm import ENGINE, node, rules_json

pytestmark = pytest.mark.skipif(node() is None, reason="Node.js is not installed")

POSITIONS = 300
BATCH = 500


def knob_sample(decks: int, rng: random.Random) -> PlayRules:
    """Random play-rule settings valid for this deck count."""
    kw = dict(decks=decks)
    if decks > 1:
        kw["max_tuple"] = rng.randint(2, decks) if rng.random() < 0.8 else 1
        kw["tractors"] = rng.random() < 0.85
        kw["tractor_min_length"] = rng.choice([2, 2, 3])
        kw["tractor_bridges_level_gap"] = rng.random() < 0.7
        kw["follow_protection"] = rng.choice(
            ["none", "none", "longer_tuples", "tractor_on_tractor", "both", "suit_only"])
        kw["shorter_tractors"] = rng.random() < 0.7
    if decks >= 2 and kw.get("max_tuple", 1) >= 2 and rng.random() < 0.3:
        kw["tractor_min_width"] = rng.randint(2, kw["max_tuple"])
    kw["constant_ranks"] = rng.choice([(), (), (0,), (0, 3)])
    kw["ruff_compare"] = rng.choice(["strongest", "all_components", "highest_card", "all",
                                     "cover_winner"])
    kw["failed_throw"] = rng.choice(["smallest", "next_player_chooses", "first_blocker",
                                     "fewest_cards"])
    kw["kitty"] = rng.choice(["exponential", "power", "table", "twice_size"])
    if kw["kitty"] != "table" and rng.random() < 0.4:
        kw["kitty_throw"] = "whole"
    if rng.random() < 0.3:
        kw["throw_following"] = "tuples"
    kw["bombs"] = rng.choice(["none", "none", "any_suit", "follow_suit"])
    kw["rainbow_min"] = rng.choice([0, 0, 0, 4, 5])
    if rng.random() < 0.2:  # a short pack: no little jokers, one fewer copy of the 2s
        copies = [decks] * NUM_KINDS
        copies[52] = 0
        for s in range(4):
            copies[s * 13] = decks - 1
        kw["copies"] = tuple(copies)
    kw["genuine_tuples"] = rng.random() < 0.3
    kw["tractors_first"] = rng.random() < 0.3
    if kw.get("max_tuple", decks) == decks and rng.random() < 0.3:
        kw["decomposition"] = "shengji_io"
    if rng.random() < 0.3:
        kw["follow_requirements"] = "shengji_io"
    return PlayRules(**kw)


_ORDER = (53, 52, *(s * 13 + r for s in range(4) for r in reversed(range(13))))


def format_counts(c) -> str:
    """shengji.cards.format_counts without its checks (the counts are ours)."""
    return " ".join([CARD_TOKENS[k] for k in _ORDER for _ in range(c[k])])


def _cards(counts) -> list[int]:
    return [k for k in range(NUM_KINDS) for _ in range(counts[k])]


def _sample(pool: list[int], n: int, rng) -> list[int]:
    c = [0] * NUM_KINDS
    for k in rng.sample(pool, n):
        c[k] += 1
    return c


def make_position(ctx: Context, rules: PlayRules, rng: random.Random) -> dict:
    """A lead of one effective suit (often a structure), a hand heavy in that suit, a play,
    the other plays of a trick; as card strings."""
    copies = list(rules.copies)
    suit = rng.randrange(5)
    kinds = [k for k in range(NUM_KINDS) if copies[k] and ctx.effective_suit(k) == suit]
    if not kinds:
        kinds = [k for k in range(NUM_KINDS) if copies[k]]
    lead = [0] * NUM_KINDS
    by_str: dict = {}
    for k in kinds:
        by_str.setdefault(ctx.strength(k), []).append(k)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):  # a few structures
        w = rng.randint(1, max(1, rules.max_tuple))
        length = rng.choice([1, 1, 2, 2, 3])
        s0 = rng.choice(sorted(by_str))
        for i in range(length):
            ks = [k for k in by_str.get(s0 + i, []) if copies[k] - lead[k] >= w]
            if ks:
                lead[rng.choice(ks)] += w
    if not any(lead) or rng.random() < 0.1:  # or random cards (maybe of several suits)
        pool = [k for k in kinds for _ in range(copies[k])]
        lead = _sample(pool, rng.randint(1, min(6, len(pool))), rng)
    if rng.random() < 0.03:
        lead[rng.randrange(NUM_KINDS)] += 1  # sometimes too many copies: an error both ways
    rest = [max(0, c - x) for c, x in zip(copies, lead, strict=True)]
    n = sum(lead)
    suit_pool = [k for k in kinds for _ in range(rest[k])]
    other_pool = [k for k in range(NUM_KINDS) if k not in kinds for _ in range(rest[k])]
    hand = [0] * NUM_KINDS
    for k in rng.sample(suit_pool, min(len(suit_pool), rng.randint(0, n + 4))):
        hand[k] += 1
    for k in rng.sample(other_pool, min(len(other_pool), rng.randint(0, n + 6))):
        hand[k] += 1
    held = _cards(hand)
    play = _sample(held, n, rng) if len(held) >= n else hand
    others = []
    left = [r - h for r, h in zip(rest, hand, strict=True)]
    pool = _cards(left)
    for _ in range(3):
        if len(pool) < n:
            break
        o = _sample(pool, min(len(pool), n + rng.randint(0, 3)), rng)
        others.append(o)
    trick = [lead, play] + [_sample(_cards(o), n, rng) for o in others if sum(o) >= n]
    return {"lead": format_counts(lead), "hand": format_counts(hand),
            "play": format_counts(play), "others": [format_counts(o) for o in others],
            "trick": [format_counts(t) for t in trick]}


def python_answers(ctx: Context, pos: dict, legal_play: str | None, full: bool) -> list:
    def call(fn, *args):
        try:
            return ["ok", fn(*args)]
        except ShengjiError as e:
            return ["error", str(e)]

    out = [call(lambda: [str(c.cards) for c in ctx.decompose(pos["lead"])])]
    for play in [pos["play"]] + ([legal_play] if legal_play else []):
        out.append(call(lambda p=play: list(ctx.check_follow(pos["lead"], pos["hand"], p))))
    out.append(call(lambda: ctx.trick_winner(pos["trick"])))
    out.append(call(lambda: ctx.kitty_multiplier(pos["play"], pos["lead"])))
    if full:
        def legal():
            r = ctx.legal_follows(pos["lead"], pos["hand"], limit=200)
            return [[str(p) for p in r.plays], r.total, r.exact]

        out.append(call(legal))

        def throw():
            t = ctx.check_throw(pos["lead"], pos["others"])
            return [t.valid, [str(o) for o in t.forced_options], t.blocker]

        out.append(call(throw))
    return out


def wasm_requests(base: dict, pos: dict, legal_play: str | None, full: bool) -> list:
    reqs = [{"kind": "decompose", "cards": pos["lead"], **base}]
    for play in [pos["play"]] + ([legal_play] if legal_play else []):
        reqs.append({"kind": "follow", **base,
                     "cards": {"lead": pos["lead"], "hand": pos["hand"], "play": play}})
    reqs.append({"kind": "winner", "cards": {"plays": pos["trick"]}, **base})
    reqs.append({"kind": "kitty_multiplier", "cards": {"play": pos["play"], "lead": pos["lead"]},
                 **base})
    if full:
        reqs.append({"kind": "legal_follows", "cards": {"lead": pos["lead"], "hand": pos["hand"],
                                                        "limit": 200}, **base})
        reqs.append({"kind": "throw", "cards": {"lead": pos["lead"], "others": pos["others"]},
                     **base})
    return reqs


def wasm_form(req: dict, got: dict):
    """An engine answer in the form of python_answers."""
    if "error" in got:
        return ["error", got["error"]]
    a = got["answer"]
    kind = req["kind"]
    if kind == "follow":
        return ["ok", [a == "legal", got.get("reason", "ok"), got.get("detail", "")]]
    if kind == "legal_follows":
        return ["ok", [a["plays"], a["total"], a["exact"]]]
    if kind == "throw":
        return ["ok", [a["valid"], a.get("forced_options", []), a.get("blocker")]]
    return ["ok", a]


def run_differential(decks: int, n: int, seed: int) -> dict:
    rng = random.Random(f"wasm-diff:{decks}:{seed}")
    engine = CmdEngine([node(), str(ENGINE)], "wasm", timeout=120)
    tally = {"positions": 0, "questions": 0, "errors": 0}
    pending = None  # the batch the engine works on while the next one is prepared

    def check(batch) -> None:
        ids, reqs, want, where = batch
        for req, g, w, at in zip(reqs, engine.collect(ids), want, where, strict=True):
            assert wasm_form(req, g) == json.loads(json.dumps(w)), (
                f"{req['kind']} differs at {at}: wasm {g}, cffi {w}")
            tally["errors"] += w[0] == "error"
        tally["questions"] += len(reqs)

    try:
        done = 0
        while done < n:
            rules = knob_sample(decks, rng)
            rj = rules_json(rules)
            reqs, want, where = [], [], []
            for _ in range(min(BATCH, n - done)):
                level = rng.choice(list(range(13)) + [13])
                trump = rng.choice([0, 1, 2, 3, None])
                ctx = Context(rules, level, trump)
                pos = make_position(ctx, rules, rng)
                legal_play = None
                try:
                    listed = ctx.legal_follows(pos["lead"], pos["hand"], limit=20).plays
                    legal_play = str(rng.choice(listed)) if listed else None
                except ShengjiError:
                    pass
                full = rng.random() < 0.2
                base = {"rules": rj, "level": "23456789TJQKA"[level] if level < 13 else "NT",
                        "trump": "none" if trump is None else "SHCD"[trump]}
                r = wasm_requests(base, pos, legal_play, full)
                w = python_answers(ctx, pos, legal_play, full)
                assert len(r) == len(w)
                reqs += r
                want += w
                where += [(rules, level, trump, pos)] * len(r)
                done += 1
            batch = (engine.send(reqs), reqs, want, where)
            if pending is not None:
                check(pending)
            pending = batch
        check(pending)
        tally["positions"] = done
    finally:
        engine.close()
    return tally


@pytest.mark.parametrize("decks", [1, 2, 3, 4, 6, 8, 10])
def test_wasm_agrees_with_cffi(decks):
    tally = run_differential(decks, POSITIONS, seed=0)
    assert tally["positions"] == POSITIONS
    # the generator reaches both answers and input errors
    assert 0 < tally["errors"] < tally["questions"]


@pytest.mark.long
@pytest.mark.parametrize("decks", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_wasm_agrees_with_cffi_long(decks):
    tally = run_differential(decks, 100_000, seed=1)
    print(f"decks {decks}: {tally}")
    assert tally["positions"] == 100_000
