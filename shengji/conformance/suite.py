"""The all-variants suite: the same checks for every variant (OpenSpiel's games_sim_test
is the model), so a built-in, a plugin or a user's house-rule file is held to one bar.

    from shengji.conformance.suite import run_suite
    for check in run_suite("my-house-rules.yaml"):
        if not check.passed:
            print(check.line())

Checks (each returns one ``Check`` whose message says what broke):

- ``settings``: the variant's start level, declaration strengths and dealer hooks give
  well-formed answers;
- ``scoring``: ``score_deal`` over the whole range of points gives a side in
  {dealers, attackers}, a rise ≥ 0, and never rewards the attackers less for more points;
- ``next-dealer``: the next dealer is a seat of the side that deals next;
- ``follows``: random hands heavy in the led suit always have a legal follow, and every
  follow the core lists passes the core's own check;
- ``deal-N``: a random match from seed N played with random legal actions: some action
  is offered whenever a seat must act, until the end; cards are conserved; every play is
  legal by the core; points stay in bounds; the state survives a JSON round trip; and
  replaying (variant, seed, actions) gives the same state and events.
"""

from __future__ import annotations

import json
import random
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import BIG_JOKER, LITTLE_JOKER, NUM_KINDS, format_counts, kind, parse_cards
from ..deck import deal_error
from ..errors import ShengjiError
from ..rules import shape_str

SIDES = ("dealers", "attackers")


@dataclass(frozen=True)
class SuiteConfig:
    seed: int = 0
    #: random matches played (seeds seed .. seed+deals-1)
    deals: int = 3
    #: deals per random match: the second one exercises next dealer and levels
    match_deals: int = 2
    #: random hands tried per led shape in the ``follows`` check
    follow_hands: int = 40
    #: a deal that has not ended after this many actions is reported as stuck
    max_actions: int = 5000
    #: JSON round trip every this many actions (and at every phase change and the end)
    roundtrip_every: int = 40
    #: another engine (shengji.conformance.engines, --engine): the ``follows`` check also
    #: asks it to decompose each lead and judge each follow, and compares with the core
    engine: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class Check:
    variant: str
    name: str
    passed: bool
    message: str = ""

    @property
    def where(self) -> str:
        return f"{self.variant}::{self.name}"

    def line(self) -> str:
        return f"{self.where}: {self.message}" if self.message else self.where


class Broken(Exception):
    """A check found the variant (or the engine running it) broken; the message says how."""


# --- running ---------------------------------------------------------------------------


def check_names(config: SuiteConfig = SuiteConfig()) -> list[str]:
    """The names of the checks ``run_suite`` runs, in order (for parametrised tests)."""
    fixed = [name for name, _ in _FIXED]
    return fixed + [f"deal-{config.seed + i}" for i in range(config.deals)]


def run_check(variant, name: str, config: SuiteConfig = SuiteConfig()) -> Check:
    """Run one named check on a loaded Variant; never raises."""
    label = _label(variant)
    try:
        if name.startswith("deal-"):
            _random_match(variant, int(name[5:]), config)
        else:
            dict(_FIXED)[name](variant, config)
    except Broken as e:
        return Check(label, name, False, str(e))
    except Exception as e:  # noqa: BLE001 - a crash in a hook or the engine is a finding
        return Check(label, name, False, _crash(e))
    return Check(label, name, True)


def run_suite(ref, config: SuiteConfig = SuiteConfig(),
              players: int | None = None) -> Iterator[Check]:
    """Every check on one variant (a name, a YAML path or a Variant), at its own table
    size or at ``players`` seats."""
    from ..variants import load_variant

    try:
        variant = load_variant(ref, players=players)
    except ShengjiError as e:
        yield Check(str(ref), "load", False, str(e))
        return
    except Exception as e:  # noqa: BLE001 - e.g. a plugin that fails to import
        yield Check(str(ref), "load", False, _crash(e))
        return
    for name in check_names(config):
        yield run_check(variant, name, config)


def _label(variant) -> str:
    return getattr(variant, "name", None) or str(getattr(variant, "path", "variant"))


def _crash(e: BaseException) -> str:
    if isinstance(e, ShengjiError):  # raised on purpose: its message says what and where
        return f"{type(e).__name__}: {e}"
    frames = traceback.extract_tb(e.__traceback__)
    at = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"crashed with {type(e).__name__}{at}: {e}"


# --- checks on the variant's hooks -------------------------------------------------------


def _check_settings(v, config: SuiteConfig) -> None:
    start = v.start_level()
    if not (isinstance(start, int) and 0 <= start <= 12):
        raise Broken(f"start_level() returned {start!r}: a level is a rank index 0..12")
    problem = deal_error(v.players, v.hand_size, v.kitty_size, v.composition)
    if problem:
        raise Broken(problem)
    for level in range(13):
        for k in [kind(s, level) for s in range(4)] + [LITTLE_JOKER, BIG_JOKER]:
            for n in range(1, v.composition.counts[k] + 1):  # as many as the deck holds
                cards = (k,) * n
                got = v.declaration_strength(cards, level)
                if (
                    got is None
                    or not isinstance(got, tuple)
                    or not all(isinstance(x, int) for x in got)
                ):
                    raise Broken(
                        f"declaration_strength({format_counts(_counts(cards))}, level "
                        f"{level}) returned {got!r}: expected a tuple of ints (() = cannot "
                        "declare)"
                    )


def _outcome_rank(out) -> int:
    # a single scale from the dealers' best result to the attackers' best
    return -out.rise if out.next == "dealers" else 1 + out.rise


def _check_scoring(v, config: SuiteConfig) -> None:
    top = v.composition.points * 2  # beyond every point of the deck: kitty bonuses
    prev = None
    for points in range(0, top + 1, 5):
        # the raw hook, not v.score_deal (which refuses bad results): say what broke
        out = v.hook.shengji_score_deal(variant=v, attacker_points=points, short_handed=False)
        nxt, rise = getattr(out, "next", None), getattr(out, "rise", None)
        if nxt not in SIDES:
            raise Broken(
                f"score_deal({points}) returned next={nxt!r}: the side that deals next must "
                "be dealers or attackers (docs/rules.md §9)"
            )
        if not isinstance(rise, int) or isinstance(rise, bool) or rise < 0:
            raise Broken(
                f"score_deal({points}) returned rise={rise!r}: levels only rise, so the rise "
                "must be a whole number ≥ 0 (docs/rules.md §8)"
            )
        if prev is not None and _outcome_rank(out) < _outcome_rank(prev[1]):
            raise Broken(
                f"score_deal is not monotone: {prev[0]} points give {prev[1].next} +"
                f"{prev[1].rise} but {points} points give {nxt} +{rise} (more points for the "
                "attackers can never be better for the dealers)"
            )
        prev = (points, out)


def _check_next_dealer(v, config: SuiteConfig) -> None:
    from ..model import ScoreOutcome

    teams = tuple(v.teams)
    for dealer in range(v.players):
        side = tuple(s for s in range(v.players) if teams[s] == teams[dealer])
        for out in (ScoreOutcome("dealers", 1), ScoreOutcome("attackers", 0)):
            nxt = v.hook.shengji_next_dealer(
                variant=v, dealer=dealer, outcome=out, players=v.players, side=side
            )
            if not (isinstance(nxt, int) and 0 <= nxt < v.players):
                raise Broken(
                    f"next_dealer({dealer}, {out.next}) returned {nxt!r}: not a seat "
                    f"0..{v.players - 1}"
                )
            same = nxt in side
            if same != (out.next == "dealers"):
                raise Broken(
                    f"next_dealer({dealer}, {out.next} +{out.rise}) returned seat {nxt}, "
                    f"of the {'dealer' if same else 'attacking'} side: the deal must pass to "
                    f"the {out.next} (docs/rules.md §8)"
                )


def _led_shapes(rules) -> list[tuple[int, int]]:
    shapes = {(w, 1) for w in range(1, rules.max_tuple + 1)}
    if rules.tractors:
        for w in range(rules.tractor_min_width, rules.max_tuple + 1):
            for length in (rules.tractor_min_length, rules.tractor_min_length + 1):
                shapes.add((w, length))
    shapes.update(s for s, _ in rules.following)
    return sorted(shapes)


def _check_follows(v, config: SuiteConfig) -> None:
    from ..core import Hand

    rng = random.Random(f"follows:{config.seed}")
    rules = v.play_rules
    for shape in _led_shapes(rules):
        for _ in range(config.follow_hands):
            level = rng.randrange(13)
            trump = rng.choice([0, 1, 2, 3, None])
            ctx = v.context(level, trump)
            made = _random_lead(ctx, v.composition.counts, shape, rng)
            if made is None:
                continue
            lead, suit_cards, rest = made
            hand = _random_hand(v, shape, suit_cards, rest, rng)
            res = ctx.legal_follows(Hand.from_counts(lead), Hand.from_counts(hand), limit=50)
            where = (
                f"lead {format_counts(lead)} ({shape_str(shape)}), hand {format_counts(hand)}, "
                f"level {level}, trump {'none' if trump is None else 'SHCD'[trump]}"
            )
            if not res.plays:
                raise Broken(
                    f"no legal follow: {where}; the following ladder for a "
                    f"{shape_str(shape)} leaves the follower nothing to play"
                )
            for play in res.plays:
                r = ctx.check_follow(Hand.from_counts(lead), Hand.from_counts(hand), play)
                if not r.ok:
                    raise Broken(
                        f"the core lists {play} as a legal follow but its own check says "
                        f"{r.reason} ({r.detail}): {where}"
                    )
            if config.engine is not None:
                _engine_agrees(config.engine, v, ctx, lead, hand, list(res.plays), rng, where)


def _engine_agrees(engine, v, ctx, lead, hand, plays, rng, where: str) -> None:
    """The engine decomposes the lead and judges the listed follows and a few random plays
    of the hand as the core does (--engine)."""
    from ..core import Hand
    from ..wasm import rules_json
    from .engines import EngineError

    n = sum(lead)
    pool = [k for k in range(NUM_KINDS) for _ in range(hand[k])]
    plays = [str(p) for p in plays[:10]]
    plays += [format_counts(_counts(rng.sample(pool, n))) for _ in range(5) if len(pool) >= n]
    level = "23456789TJQKA"[ctx.level] if ctx.level < 13 else "NT"
    trump = "none" if ctx.trump is None else "SHCD"[ctx.trump]
    base = {"rules": rules_json(v.play_rules), "level": level, "trump": trump}
    reqs = [{"kind": "decompose", "cards": format_counts(lead), **base}]
    reqs += [{"kind": "follow", **base, "cards": {"lead": format_counts(lead),
              "hand": format_counts(hand), "play": p}} for p in plays]
    try:
        got = engine.ask_many(reqs)
    except EngineError as e:
        raise Broken(f"{e}: {where}") from None
    comps = sorted(str(c.cards) for c in ctx.decompose(Hand.from_counts(lead)))
    answer = got[0].get("answer")
    if not isinstance(answer, list) or sorted(
            format_counts(_counts(parse_cards(c))) for c in answer) != comps:
        raise Broken(f"engine {engine.name} decomposes the lead as {answer!r:.200}, the core "
                     f"as {comps}: {where}")
    for p, g in zip(plays, got[1:], strict=True):
        want = "legal" if ctx.check_follow(Hand.from_counts(lead), Hand.from_counts(hand),
                                           Hand(p)).ok else "illegal"
        if g.get("answer") != want:
            raise Broken(f"engine {engine.name} judges the follow {p} {g!r:.200}, the core "
                         f"{want}: {where}")


def _random_lead(ctx, copies, shape, rng):
    """A lead of exactly ``shape`` in a random effective suit, or None when the suit has
    no such run. Returns (lead counts, that suit's kinds, the remaining deck counts).
    ``copies``: the deck's copies of each kind (a short pack, a joker left out)."""
    w, length = shape
    suit = rng.randrange(5)
    kinds = [k for k in range(NUM_KINDS) if ctx.effective_suit(k) == suit and copies[k]]
    if not kinds:
        return None
    by_strength: dict[int, list[int]] = {}
    for k in kinds:
        if copies[k] >= w:
            by_strength.setdefault(ctx.strength(k), []).append(k)
    starts = [s for s in by_strength if all(s + i in by_strength for i in range(length))]
    if not starts:
        return None
    s0 = rng.choice(starts)
    lead = [0] * NUM_KINDS
    for i in range(length):
        lead[rng.choice(by_strength[s0 + i])] += w
    try:
        comps = ctx.decompose(format_counts(lead))
    except ShengjiError:
        return None
    if len(comps) != 1 or (comps[0].width, comps[0].length) != tuple(shape):
        return None  # e.g. a run the variant does not count as a tractor
    rest = [n - c for n, c in zip(copies, lead, strict=True)]
    return lead, kinds, rest


def _random_hand(v, shape, suit_kinds, rest, rng) -> list[int]:
    """A hand heavy in the led suit (where the ladder matters), topped up with others."""
    n = shape[0] * shape[1]
    pool = [k for k in suit_kinds for _ in range(rest[k])]
    rng.shuffle(pool)
    size = min(len(pool), rng.randint(n, max(n, 3 * n + 2)))
    hand = [0] * NUM_KINDS
    for k in pool[:size]:
        hand[k] += 1
    others = [k for k in range(NUM_KINDS) if k not in suit_kinds for _ in range(rest[k])]
    # at least as many cards as the lead (issue 35: a lead of 7 pairs left a hand of 10
    # cards, and then "no legal follow" blamed the ladder)
    more = max(rng.randint(0, n), n - sum(hand))
    for k in rng.sample(others, min(len(others), more)):
        hand[k] += 1
    return hand


_FIXED: list[tuple[str, Callable]] = [
    ("settings", _check_settings),
    ("scoring", _check_scoring),
    ("next-dealer", _check_next_dealer),
    ("follows", _check_follows),
]


# --- random matches ------------------------------------------------------------------------


def _counts(cards) -> list[int]:
    out = [0] * NUM_KINDS
    for c in cards:
        out[c] += 1
    return out


def _random_action(game, legal, rng):
    from ..engine import Bury

    if legal.kind == "bury":
        hand = [k for k, n in enumerate(game.hands[legal.seat]) for _ in range(n)]
        if legal.limit is not None:  # the variant's bury settings
            rng.shuffle(hand)
            return Bury(legal.seat, legal.burial(hand))
        return Bury(legal.seat, tuple(rng.sample(hand, legal.count)))
    if legal.kind == "declare" and len(legal) > 1 and rng.random() < 0.6:
        return legal[0]  # mostly pass, so that later overturns get a chance too
    if legal.kind == "call":  # finding friends: ``count`` distinct single calls at once
        from ..engine import CallFriends

        picks = sorted(rng.sample(range(len(legal)), legal.count))
        return CallFriends(legal.seat, tuple(legal[i].calls[0] for i in picks))
    return legal[rng.randrange(len(legal))]


def _random_match(v, seed: int, config: SuiteConfig) -> None:
    from ..engine import Game, IllegalAction, Play
    from ..engine.events import DealScored

    rng = random.Random(f"suite:{seed}")
    game = Game(v, seed, max_deals=config.match_deals)
    phase = game.phase
    for step in range(config.max_actions * config.match_deals):
        if game.over:
            break
        seat = game.to_act
        at = f"seed {seed}, deal {game.deal_number}, {game.phase} phase, seat {seat}"
        legal = game.legal_actions(seat)
        _check_offer(game, legal, at)
        action = _random_action(game, legal, rng)
        if isinstance(action, Play) and game.trick:
            _check_follow_by_core(game, action, at)
        try:
            events = game.apply(action)
        except IllegalAction as e:
            raise Broken(
                f"{at}: the engine offered {action} as legal, then refused it: {e}"
            ) from None
        for ev in events:
            if isinstance(ev, DealScored):
                _check_scored(v, ev, f"seed {seed}, deal {ev.deal}")
        _check_invariants(game, at)
        if game.phase != phase or step % config.roundtrip_every == 0:
            _check_roundtrip(v, game, at)
            phase = game.phase
    else:
        raise Broken(
            f"seed {seed}: the match had not ended after {step + 1} actions "
            f"({game.phase} phase, deal {game.deal_number})"
        )
    _check_roundtrip(v, game, f"seed {seed}, end")
    _check_replay(v, game, seed, config)


def _check_offer(game, legal, at: str) -> None:
    if legal.kind == "none":
        raise Broken(f"{at}: the seat to act is offered no action at all")
    if legal.kind == "bury":
        held = sum(game.hands[legal.seat])
        if legal.count <= 0 or held < legal.count:
            raise Broken(f"{at}: must bury {legal.count} cards but holds {held}")
    elif legal.kind == "call" and len(set(legal)) < legal.count:
        raise Broken(f"{at}: {legal.count} calls to make but only {len(legal)} allowed")
    elif len(legal) == 0:
        hand = format_counts(game.hands[legal.seat])
        lead = f", lead {format_counts(_counts(game.trick[0][1]))}" if game.trick else ""
        raise Broken(f"{at}: no legal {legal.kind} (hand {hand}{lead}): the seat is stuck")


def _check_follow_by_core(game, action, at: str) -> None:
    from ..core import Hand

    lead = Hand(list(game.trick[0][1]))
    res = game.ctx.check_follow(
        lead, Hand.from_counts(game.hands[action.seat]), Hand(list(action.cards))
    )
    if not res.ok:
        raise Broken(
            f"{at}: the engine offers the follow {format_counts(_counts(action.cards))} to "
            f"{format_counts(_counts(game.trick[0][1]))}, but the core says {res.reason} "
            f"({res.detail})"
        )


def _check_sides(game, at: str) -> None:
    """The dealer's side: the dealer first, then the seats that fulfilled a call, each
    once, in the order they joined; with fixed teams, the dealer's team."""
    side = game.side
    if not side:
        return
    if side[0] != game.dealer or len(set(side)) != len(side):
        raise Broken(f"{at}: dealer's side {list(side)} (dealer {game.dealer})")
    if game.friend_rules is None:
        team = [s for s in range(game.players) if game.teams[s] == game.teams[game.dealer]]
        if sorted(side) != team:
            raise Broken(f"{at}: dealer's side {list(side)} is not the dealer's team {team}")
        return
    joiners = list(dict.fromkeys(s for s, _ in game.joined if s != game.dealer))
    if list(side[1:]) != joiners:
        raise Broken(f"{at}: dealer's side {list(side)} does not match the calls fulfilled "
                     f"{list(game.joined)}")
    if len(game.joined) > len(game.calls) or len({i for _, i in game.joined}) != len(game.joined):
        raise Broken(f"{at}: calls fulfilled {list(game.joined)} for {len(game.calls)} call(s)")
    if len(side) > game.players - 1:
        raise Broken(f"{at}: dealer's side {list(side)} leaves no attackers")


def _check_invariants(game, at: str) -> None:
    _check_sides(game, at)
    copies, players = game.composition.counts, game.players
    points = game.composition.points
    hands = game.hands
    for seat in range(players):
        if sum(hands[seat]) != game.hand_len[seat]:
            raise Broken(
                f"{at}: seat {seat} holds {sum(hands[seat])} cards but its count "
                f"says {game.hand_len[seat]}"
            )
        if any(n < 0 for n in hands[seat]):
            raise Broken(f"{at}: seat {seat} holds a negative number of some card")
    # (while dealing, and while a weak hand may ask for a redeal, the kitty is still set
    # aside: it is in no hand yet)
    if game.phase not in ("deal", "redeal", "over"):
        for k in range(NUM_KINDS):
            total = sum(h[k] for h in hands) + game.played[k] + game.buried[k]
            if total != copies[k]:
                raise Broken(
                    f"{at}: {total} copies of {format_counts(_counts([k]))} in hands, tricks "
                    f"and kitty, but the deck ({game.composition.describe()}) holds "
                    f"{copies[k]}: cards are not conserved"
                )
        if not game.trick and game.phase == "play":
            sizes = {game.hand_len[s] for s in range(players)}
            if len(sizes) != 1:
                raise Broken(
                    f"{at}: between tricks the hands differ in size: {list(game.hand_len)}"
                )
    if not 0 <= game.trick_points <= points or game.trick_points % 5:
        raise Broken(
            f"{at}: attackers' trick points {game.trick_points} are impossible "
            f"(0..{points} in steps of 5)"
        )


def _check_scored(v, ev, at: str) -> None:
    if ev.next_side not in SIDES:
        raise Broken(
            f"{at}: the deal was scored with next side {ev.next_side!r} "
            "(must be dealers or attackers)"
        )
    if not isinstance(ev.rise, int) or ev.rise < 0:
        raise Broken(f"{at}: the deal was scored with rise {ev.rise!r} (must be ≥ 0)")
    if not 0 <= ev.trick_points <= v.composition.points:
        raise Broken(f"{at}: attackers' trick points {ev.trick_points} out of "
                     f"0..{v.composition.points}")
    if ev.kitty_points < 0 or ev.kitty_bonus < 0 or ev.multiplier < 0:
        raise Broken(
            f"{at}: negative kitty points, bonus or multiplier: {ev.kitty_points}, "
            f"{ev.kitty_bonus}, {ev.multiplier}"
        )
    if ev.multiplier and ev.kitty_bonus != ev.kitty_points * ev.multiplier:
        raise Broken(
            f"{at}: kitty bonus {ev.kitty_bonus} is not {ev.kitty_points} points × {ev.multiplier}"
        )
    if ev.attacker_points < 0:
        raise Broken(f"{at}: the scoring table saw {ev.attacker_points} points (< 0)")


def _canonical(data):
    """A game record with every card string in canonical order: the order of a group of
    cards never matters (docs/conformance.md), so it is not a difference."""
    if isinstance(data, dict):
        return {k: _canonical(x) for k, x in data.items()}
    if isinstance(data, list):
        return [_canonical(x) for x in data]
    if isinstance(data, str) and data and all(_is_token(t) for t in data.split()):
        return " ".join(sorted(data.split()))
    return data


def _is_token(t: str) -> bool:
    from ..cards import parse_card

    try:
        parse_card(t)
    except ShengjiError:
        return False
    return True


def _same_record(a: dict, b: dict) -> str | None:
    """None when two game records agree, else the first key that differs."""
    a, b = _canonical(a), _canonical(b)
    if a == b:
        return None
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            if isinstance(a.get(key), dict) and isinstance(b.get(key), dict):
                sub = [
                    k for k in sorted(set(a[key]) | set(b[key])) if a[key].get(k) != b[key].get(k)
                ]
                return f"{key}.{sub[0]}" if sub else key
            return key
    return "?"


def _check_roundtrip(v, game, at: str) -> None:
    from ..engine import Game

    data = game.to_dict()
    text = json.dumps(data, sort_keys=True)
    try:
        again = Game.from_dict(json.loads(text), variant=v)
    except ShengjiError as e:
        raise Broken(f"{at}: the game's own JSON record does not load back: {e}") from None
    diff = _same_record(data, again.to_dict())
    if diff:
        raise Broken(
            f"{at}: the state changed in a JSON round trip (to_dict → from_dict → "
            f"to_dict differ in {diff})"
        )
    for seat in range(game.players):
        diff = _same_record(game.view(seat).to_dict(), again.view(seat).to_dict())
        if diff:
            raise Broken(f"{at}: seat {seat}'s view changed in a JSON round trip ({diff})")


def _check_replay(v, game, seed: int, config: SuiteConfig) -> None:
    from ..engine import Game

    again = Game.replay(v, seed, list(game.actions), max_deals=config.match_deals)
    diff = _same_record(game.to_dict(), again.to_dict())
    if diff:
        raise Broken(
            f"seed {seed}: replaying (variant, seed, actions) gave another state "
            f"(differs in {diff})"
        )
    mine = [_canonical(e.to_dict()) for e in game.events]
    theirs = [_canonical(e.to_dict()) for e in again.events]
    if mine != theirs:
        first = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
            min(len(mine), len(theirs)),
        )
        raise Broken(f"seed {seed}: replaying gave other events from event {first} on")
