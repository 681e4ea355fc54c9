"""Reading rule-case files (``*.cases.yaml``, format in docs/conformance.md).

This module only checks the *form* of a file: the keys, the case kinds and the shape of
each ``expect``. Whether the cards are well formed is the engine's business (a malformed
token is an input error the engine must report, and ``expect: error`` tests exactly that),
so card strings pass through untouched. Every form error is a ``CaseFileError`` naming the
file, the case id and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import parse_level, parse_suit
from ..errors import ShengjiError
from ..safeload import MAX_CASE_BYTES, load_yaml, read_text

SUFFIX = ".cases.yaml"

#: every case kind and what its value must look like (see docs/conformance.md "Rule-case files")
KINDS = (
    "compare",
    "tractor",
    "decompose",
    "follow",
    "winner",
    "throw",
    "kitty_multiplier",
    "score",
    "declare",
    "friend_call",
    "friends",
    # our additions (docs/conformance.md "Kinds we add")
    "next_dealer",
    "first_dealer",
    "no_bid",
    "bidding",
    "visibility",
    "advance",
    "back_to_start",
    # house rules of real tables (issue 35)
    "bury",
    "redeal",
    "start_levels",
)
#: kinds that are judged in a deal's context and so need ``level`` and ``trump``
CONTEXT_KINDS = ("compare", "tractor", "decompose", "follow", "winner", "throw", "kitty_multiplier",
                 "friend_call", "bury", "redeal")
FILE_KEYS = ("variant", "defaults", "cases")
#: ``players`` (our addition): the table size to load the variant at (its by_players)
DEFAULT_KEYS = ("variant", "level", "trump", "players")
CASE_KEYS = ("id", "source", "expect", "xfail", "variant", "level", "trump", "players", *KINDS)
ERROR = "error"


class CaseFileError(ShengjiError):
    """A case file is malformed. The message names the file, the case and the key."""


@dataclass(frozen=True)
class Case:
    """One rule case, with the file defaults already merged in."""

    file: Path
    index: int
    id: str
    kind: str
    value: Any
    expect: Any
    variant: str | None
    level: int | None
    #: trump suit 0..3, None for no trump; ``has_trump`` tells whether it was given
    trump: int | None
    has_trump: bool
    source: str = ""
    #: why this case is known to fail (an extension of the format: the runner reports it
    #: as xfailed while it fails, and as a failure once it passes, so the note is removed)
    xfail: str | None = None
    #: a form error found while reading this case; the runner reports it as the result
    problem: str | None = field(default=None, compare=False)
    #: the table size to load the variant at (None: the variant's own)
    players: int | None = None

    @property
    def where(self) -> str:
        return f"{self.file}::{self.id}"


@dataclass
class CaseFile:
    path: Path
    cases: list[Case]


def is_case_file(path: Path) -> bool:
    return path.name.endswith(SUFFIX)


def find_case_files(paths) -> list[Path]:
    """Files given directly (any name) and every ``*.cases.yaml`` under given folders."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob(f"*{SUFFIX}") if q.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise CaseFileError(f"{p}: no such file or folder")
    return out


def load_case_file(path) -> CaseFile:
    """Read one case file. File-level problems raise CaseFileError; a malformed case
    becomes a Case whose ``problem`` says what is wrong, so the other cases still run."""
    path = Path(path)
    text = read_text(path, str(path), CaseFileError, limit=MAX_CASE_BYTES, what="case file")
    data, _ = load_yaml(text, str(path), CaseFileError)
    if not isinstance(data, Mapping):
        raise CaseFileError(f"{path}: expected a mapping with keys {', '.join(FILE_KEYS)}")
    unknown = sorted(set(map(str, data)) - set(FILE_KEYS))
    if unknown:
        raise CaseFileError(
            f"{path}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(FILE_KEYS)})"
        )
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, Mapping):
        raise CaseFileError(f"{path}: defaults: expected a mapping of {', '.join(DEFAULT_KEYS)}")
    unknown = sorted(set(map(str, defaults)) - set(DEFAULT_KEYS))
    if unknown:
        raise CaseFileError(
            f"{path}: defaults: unknown key(s) {', '.join(unknown)} "
            f"(allowed: {', '.join(DEFAULT_KEYS)})"
        )
    base = {k: defaults[k] for k in DEFAULT_KEYS if k in defaults}
    if "variant" in data:
        base.setdefault("variant", data["variant"])
    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise CaseFileError(f"{path}: cases: expected a non-empty list of cases")
    cases: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cases):
        case = _read_case(path, i, raw, base)
        if case.id in seen:
            case = _with_problem(case, f"id: {case.id!r} is used twice in this file")
        seen.add(case.id)
        cases.append(case)
    return CaseFile(path, cases)


def _with_problem(case: Case, problem: str) -> Case:
    return Case(**{**case.__dict__, "problem": problem})


def _read_case(path: Path, index: int, raw: Any, base: Mapping) -> Case:
    cid = f"#{index + 1}"
    if isinstance(raw, Mapping) and isinstance(raw.get("id"), (str, int)):
        cid = str(raw["id"])
    blank = Case(path, index, cid, "", None, None, None, None, None, False)
    if not isinstance(raw, Mapping):
        return _with_problem(blank, "a case must be a mapping with id, a case kind and expect")
    try:
        return _parse_case(path, index, cid, raw, base)
    except _Problem as p:
        return _with_problem(blank, str(p))


class _Problem(Exception):
    pass


def _parse_case(path: Path, index: int, cid: str, raw: Mapping, base: Mapping) -> Case:
    if "id" not in raw:
        raise _Problem("id: missing (every case needs an id unique within the file)")
    unknown = sorted(set(map(str, raw)) - set(CASE_KEYS))
    if unknown:
        raise _Problem(
            f"unknown key(s) {', '.join(unknown)} (a case has id, source, expect, variant, "
            f"level, trump and one of: {', '.join(KINDS)})"
        )
    kinds = [k for k in KINDS if k in raw]
    if len(kinds) != 1:
        got = ", ".join(kinds) if kinds else "none"
        raise _Problem(f"exactly one case kind is needed (one of {', '.join(KINDS)}); got {got}")
    kind = kinds[0]
    if "expect" not in raw:
        raise _Problem("expect: missing")
    merged = {**base, **{k: raw[k] for k in DEFAULT_KEYS if k in raw}}
    variant = merged.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise _Problem(f"variant: {variant!r} is not a variant name or a path")
    level = _level(merged.get("level"))
    players = merged.get("players")
    if players is not None and not (_is_int(players) and 2 <= players <= 12):
        raise _Problem(f"players: {players!r} is not a table size 2..12")
    has_trump = "trump" in merged
    trump = _trump(merged.get("trump")) if has_trump else None
    if variant is None:
        raise _Problem("variant: missing (give it at the top of the file or in the case)")
    if kind in CONTEXT_KINDS and (level is None or not has_trump):
        missing = " and ".join(
            k for k, ok in (("level", level is not None), ("trump", has_trump)) if not ok
        )
        raise _Problem(f"{missing}: needed by a {kind} case (give it in defaults or the case)")
    if kind in ("declare", "first_dealer", "no_bid", "bidding", "back_to_start") and level is None:
        raise _Problem(f"level: needed by a {kind} case (give it in defaults or the case)")
    value = raw[kind]
    _check_value(kind, value)
    expect = raw["expect"]
    if expect != ERROR:
        _check_expect(kind, expect)
    source = raw.get("source", "")
    xfail = raw.get("xfail")
    if xfail is not None and not (isinstance(xfail, str) and xfail.strip()):
        raise _Problem("xfail: expected the reason the case is known to fail, as text")
    return Case(
        path,
        index,
        cid,
        kind,
        value,
        expect,
        variant,
        level,
        trump,
        has_trump,
        source="" if source is None else str(source),
        xfail=xfail,
        players=players,
    )


def _level(value) -> int | None:
    if value is None:
        return None
    return _level_value(value, "level")


def _level_value(value, key: str) -> int:
    """A level: a rank, or NT (the no-trump level above A)."""
    try:
        return parse_level(value)
    except ShengjiError as e:
        raise _Problem(f"{key}: {e} (or NT)") from None


def _trump(value) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "no", "nt")):
        return None
    if value is False:  # YAML 1.1 reads a bare `no` as false
        return None
    try:
        return parse_suit(value)
    except ShengjiError as e:
        raise _Problem(f"trump: {e} (or none for no trump)") from None


# --- the form of each kind's value and expect ------------------------------------------


def _cards_like(x) -> bool:
    return isinstance(x, str) or (isinstance(x, list) and all(isinstance(t, str) for t in x))


def _card_strings(x) -> bool:
    """A non-empty list of card groups (holdings, forced options)."""
    return isinstance(x, list) and bool(x) and all(map(_cards_like, x))


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _need(cond: object, msg: str) -> None:
    if not cond:
        raise _Problem(msg)


def _check_value(kind: str, v) -> None:
    if kind == "compare":
        _need(
            isinstance(v, list) and len(v) == 2 and all(isinstance(c, str) for c in v),
            "compare: expected a list of two single cards, e.g. [HA, S2]",
        )
    elif kind in ("tractor", "decompose"):
        _need(_cards_like(v), f'{kind}: expected a card string such as "HA HA HK"')
    elif kind == "follow":
        _need(
            isinstance(v, Mapping) and set(v) == {"lead", "hand", "play"},
            "follow: expected a mapping with exactly lead, hand and play",
        )
        for k in ("lead", "hand", "play"):
            _need(_cards_like(v[k]), f"follow.{k}: expected a card string")
    elif kind == "winner":
        _need(isinstance(v, Mapping) and set(v) == {"plays"}, "winner: expected {plays: [...]}")
        plays = v["plays"]
        _need(
            isinstance(plays, list) and len(plays) >= 2 and all(map(_cards_like, plays)),
            "winner.plays: expected a list of at least two card strings, lead first",
        )
    elif kind == "throw":
        _need(
            isinstance(v, Mapping) and set(v) == {"lead", "others"},
            "throw: expected a mapping with exactly lead and others",
        )
        _need(_cards_like(v["lead"]), "throw.lead: expected a card string")
        others = v["others"]
        _need(
            _card_strings(others),
            "throw.others: expected a list of card strings (the other players' holdings)",
        )
    elif kind == "kitty_multiplier":
        _need(
            isinstance(v, Mapping) and "play" in v and set(v) <= {"play", "lead"},
            "kitty_multiplier: expected {play: CARDS} or {play: CARDS, lead: CARDS}",
        )
        for k in v:
            _need(_cards_like(v[k]), f"kitty_multiplier.{k}: expected a card string")
    elif kind == "score":
        _need(
            isinstance(v, Mapping) and "attacker_points" in v
            and set(v) <= {"attacker_points", "short_handed"},
            "score: expected {attacker_points: P} (and optionally short_handed: true)",
        )
        p = v["attacker_points"]
        _need(
            isinstance(p, int) and not isinstance(p, bool),
            "score.attacker_points: expected an integer",
        )
        _need(isinstance(v.get("short_handed", False), bool),
              "score.short_handed: expected true or false")
    elif kind == "friend_call":
        _need(
            isinstance(v, Mapping) and "calls" in v and set(v) <= {"calls", "hand"},
            "friend_call: expected {calls: [CALL, ...]} (and optionally hand: CARDS)",
        )
        _need(_calls_like(v["calls"]), 'friend_call.calls: expected a list of calls like "1 HA"')
        if "hand" in v:
            _need(_cards_like(v["hand"]), "friend_call.hand: expected a card string")
    elif kind == "friends":
        _need(
            isinstance(v, Mapping) and set(v) == {"dealer", "calls", "plays"},
            "friends: expected {dealer: SEAT, calls: [CALL, ...], plays: [[SEAT, CARDS], ...]}",
        )
        _need(_is_int(v["dealer"]), "friends.dealer: expected a seat number")
        _need(_calls_like(v["calls"]), 'friends.calls: expected a list of calls like "1 HA"')
        plays = v["plays"]
        _need(isinstance(plays, list), "friends.plays: expected a list of [SEAT, CARDS]")
        for i, p in enumerate(plays):
            _need(isinstance(p, list) and len(p) == 2 and _is_int(p[0]) and _cards_like(p[1]),
                  f"friends.plays[{i}]: expected [SEAT, CARDS]")
    elif kind == "next_dealer":
        _need(
            isinstance(v, Mapping) and set(v) == {"dealer", "attacker_points"},
            "next_dealer: expected {dealer: SEAT, attacker_points: P}",
        )
        for k in ("dealer", "attacker_points"):
            _need(_is_int(v[k]), f"next_dealer.{k}: expected an integer")
    elif kind == "declare":
        _need(isinstance(v, Mapping) and set(v) == {"steps"}, "declare: expected {steps: [...]}")
        _check_steps(kind, v["steps"])
    elif kind == "first_dealer":
        _need(
            isinstance(v, Mapping) and "steps" in v and set(v) <= {"steps", "seed"},
            "first_dealer: expected {steps: [...]} or {steps: [...], seed: TEXT}",
        )
        _check_steps(kind, v["steps"])
        _need(isinstance(v.get("seed", ""), (str, int)), "first_dealer.seed: expected text")
    elif kind == "bidding":
        _need(
            isinstance(v, Mapping) and "steps" in v
            and set(v) <= {"steps", "steal", "dealer", "levels"},
            "bidding: expected {steps: [...]} with optional steal: [...], dealer: SEAT and "
            "levels: [LEVEL per seat]",
        )
        if "levels" in v:
            _need(isinstance(v["levels"], list), "bidding.levels: expected one level per seat")
            for i, lv in enumerate(v["levels"]):
                _level_value(lv, f"bidding.levels[{i}]")
        _need(v.get("dealer") is None or _is_int(v["dealer"]),
              "bidding.dealer: expected a seat number (or null: the first deal)")
        for key in ("steps", "steal"):
            steps = v.get(key, [])
            _need(isinstance(steps, list), f"bidding.{key}: expected a list of steps")
            for i, st in enumerate(steps):
                where = f"bidding.{key}[{i}]"
                back = (key == "steps" and isinstance(st, Mapping)
                        and set(st) == {"seat", "take_back"})
                _need(isinstance(st, Mapping) and (set(st) == {"seat", "cards"} or back),
                      f"{where}: expected {{seat, cards}}"
                      + (" or {seat, take_back: true}" if key == "steps" else ""))
                _need(_is_int(st["seat"]), f"{where}.seat: expected a seat number")
                if back:
                    _need(st["take_back"] is True, f"{where}.take_back: expected true")
                else:
                    _need(_cards_like(st["cards"]), f"{where}.cards: expected a card string")
    elif kind == "advance":
        _need(isinstance(v, Mapping) and {"from", "rise", "dealers"} <= set(v)
              <= {"from", "rise", "dealers", "deal_level"},
              "advance: expected {from: LEVEL, rise: N, dealers: true|false} "
              "(and optionally deal_level: LEVEL)")
        _level_value(v["from"], "advance.from")
        if "deal_level" in v:
            _level_value(v["deal_level"], "advance.deal_level")
        _need(_is_int(v["rise"]) and v["rise"] >= 0, "advance.rise: expected a number >= 0")
        _need(isinstance(v["dealers"], bool), "advance.dealers: expected true or false")
    elif kind == "back_to_start":
        _need(isinstance(v, Mapping) and set(v) == {"last_play", "attackers_won"},
              "back_to_start: expected {last_play: CARDS, attackers_won: true|false}")
        _need(_cards_like(v["last_play"]), "back_to_start.last_play: expected a card string")
        _need(isinstance(v["attackers_won"], bool),
              "back_to_start.attackers_won: expected true or false")
    elif kind == "visibility":
        _need(isinstance(v, Mapping) and set(v) == {"completed_tricks"},
              "visibility: expected {completed_tricks: N}")
        _need(_is_int(v["completed_tricks"]) and v["completed_tricks"] >= 0,
              "visibility.completed_tricks: expected a number >= 0")
    elif kind == "bury":
        _need(isinstance(v, Mapping) and {"hand", "bury"} <= set(v) <= {"hand", "bury", "called"},
              "bury: expected {hand: CARDS, bury: CARDS} (and optionally called: CARDS)")
        for k in ("hand", "bury", "called"):
            if k in v:
                _need(_cards_like(v[k]), f"bury.{k}: expected a card string")
    elif kind == "redeal":
        _need(isinstance(v, Mapping) and set(v) == {"hand"}, "redeal: expected {hand: CARDS}")
        _need(_cards_like(v["hand"]), "redeal.hand: expected a card string")
    elif kind == "start_levels":
        _need(isinstance(v, Mapping) and not v, "start_levels: expected {} (nothing to give)")
    elif kind == "no_bid":
        _need(
            isinstance(v, Mapping) and {"deal", "kitty"} <= set(v) <= {"deal", "kitty", "redeals"},
            "no_bid: expected {deal: N, kitty: CARDS} (and optionally redeals: N)",
        )
        _need(_is_int(v["deal"]) and v["deal"] >= 0, "no_bid.deal: expected a deal number >= 0")
        _need(_is_int(v.get("redeals", 0)) and v.get("redeals", 0) >= 0,
              "no_bid.redeals: expected a number >= 0")
        _need(_cards_like(v["kitty"]), "no_bid.kitty: expected a card string")


def _calls_like(v) -> bool:
    return isinstance(v, list) and all(isinstance(c, str) for c in v)


def _check_steps(kind: str, steps) -> None:
    _need(isinstance(steps, list), f"{kind}.steps: expected a list of {{seat, cards}}")
    for i, s in enumerate(steps):
        _need(
            isinstance(s, Mapping) and set(s) == {"seat", "cards"},
            f"{kind}.steps[{i}]: expected a mapping with exactly seat and cards",
        )
        _need(_is_int(s["seat"]), f"{kind}.steps[{i}].seat: expected a seat number")
        _need(_cards_like(s["cards"]), f"{kind}.steps[{i}].cards: expected a card string")


def _check_expect(kind: str, e) -> None:
    if kind == "compare":
        _need(
            e in ("higher", "lower", "equal", "unrelated"),
            f"expect: {e!r} is not one of higher, lower, equal, unrelated, error",
        )
    elif kind == "tractor":
        _need(isinstance(e, bool), f"expect: {e!r} is not true, false or error")
    elif kind == "decompose":
        _need(
            _card_strings(e),
            'expect: expected a list of components, each a card string, e.g. ["HA HA", "HK"]',
        )
    elif kind in ("follow", "bury"):
        _need(e in ("legal", "illegal"), f"expect: {e!r} is not legal, illegal or error")
    elif kind == "redeal":
        _need(isinstance(e, bool), f"expect: {e!r} is not true, false or error")
    elif kind == "start_levels":
        _need(isinstance(e, list) and e, "expect: expected a list of levels, one per seat")
        for i, lv in enumerate(e):
            _level_value(lv, f"expect[{i}]")
    elif kind == "friend_call":
        _need(e in ("valid", "invalid"), f"expect: {e!r} is not valid, invalid or error")
    elif kind == "friends":
        _need(isinstance(e, Mapping) and e and set(e) <= {"side", "joined"},
              "expect: expected {side: [SEAT, ...], joined: [[SEAT, CALL INDEX], ...]}")
        if "side" in e:
            _need(isinstance(e["side"], list) and all(map(_is_int, e["side"])),
                  "expect.side: expected a list of seats, the dealer first")
        if "joined" in e:
            _need(isinstance(e["joined"], list) and all(
                isinstance(j, list) and len(j) == 2 and all(map(_is_int, j))
                for j in e["joined"]), "expect.joined: expected [[SEAT, CALL INDEX], ...]")
    elif kind in ("winner", "kitty_multiplier", "next_dealer", "first_dealer"):
        _need(isinstance(e, int) and not isinstance(e, bool), f"expect: {e!r} is not an integer")
    elif kind == "throw":
        _need(
            isinstance(e, Mapping) and isinstance(e.get("valid"), bool),
            "expect: expected {valid: true}, {valid: false, forced: CARDS} or "
            "{valid: false, refused: true}",
        )
        allowed = {"valid"} if e["valid"] else {"valid", "forced", "forced_options", "refused",
                                                "penalty"}
        extra = sorted(set(e) - allowed)
        _need(not extra, f"expect: unexpected key(s) {', '.join(extra)} for valid: {e['valid']}")
        if "penalty" in e:
            _need(_is_int(e["penalty"]) and "refused" not in e,
                  "expect.penalty: the points a failed throw's forced play costs (an integer)")
        if "refused" in e:
            _need(e["refused"] is True and not {"forced", "forced_options"} & set(e),
                  "expect.refused: true (a refused throw plays no forced part)")
        if "forced" in e:
            _need(_cards_like(e["forced"]), "expect.forced: expected a card string")
        if "forced_options" in e:
            fo = e["forced_options"]
            _need(
                _card_strings(fo),
                "expect.forced_options: expected a list of card strings",
            )
    elif kind == "score":
        _need(
            isinstance(e, Mapping) and set(e) == {"next", "rise"},
            "expect: expected {next: dealers|attackers, rise: N}",
        )
        _need(
            e["next"] in ("dealers", "attackers"),
            f"expect.next: {e['next']!r} is not dealers or attackers",
        )
        _need(
            isinstance(e["rise"], int) and not isinstance(e["rise"], bool),
            f"expect.rise: {e['rise']!r} is not an integer",
        )
    elif kind == "bidding":
        keys = {"accepted", "trump", "declarer", "dealer", "kitty", "level"}
        _need(isinstance(e, Mapping) and e and set(e) <= keys,
              "expect: expected a mapping of accepted, trump, declarer, dealer, kitty and level")
        if "level" in e:
            _level_value(e["level"], "expect.level")
        if "accepted" in e:
            acc = e["accepted"]
            _need(isinstance(acc, list) and all(isinstance(a, bool) for a in acc),
                  "expect.accepted: expected a list of true/false, one per step")
        if "trump" in e:
            _trump(e["trump"])
        for k in ("declarer", "dealer", "kitty"):
            if k in e:
                _need(e[k] is None or _is_int(e[k]), f"expect.{k}: {e[k]!r} is not a seat")
    elif kind == "advance":
        if e != "past":
            _level_value(e, "expect")
    elif kind == "back_to_start":
        _need(isinstance(e, bool), f"expect: {e!r} is not true, false or error")
    elif kind == "visibility":
        keys = {"tricks_shown", "dealer_points", "attacker_points", "throw_blocker_shown",
                "kitty_shown"}
        _need(isinstance(e, Mapping) and e and set(e) <= keys,
              "expect: expected a mapping of tricks_shown, dealer_points, attacker_points, "
              "throw_blocker_shown and kitty_shown")
        if "tricks_shown" in e:
            _need(isinstance(e["tricks_shown"], list) and all(map(_is_int, e["tricks_shown"])),
                  "expect.tricks_shown: expected a list of trick numbers")
        for k in ("dealer_points", "attacker_points", "throw_blocker_shown", "kitty_shown"):
            if k in e:
                _need(isinstance(e[k], bool), f"expect.{k}: expected true or false")
    elif kind == "no_bid":
        _need(
            isinstance(e, Mapping) and e and set(e) <= {"redeal", "trump", "turned"},
            "expect: expected a mapping of redeal, trump and turned",
        )
        if "redeal" in e:
            _need(isinstance(e["redeal"], bool), "expect.redeal: expected true or false")
        if "trump" in e:
            _trump(e["trump"])
        if "turned" in e:
            _need(e["turned"] is None or _cards_like(e["turned"]),
                  "expect.turned: expected a card or null")
    elif kind == "declare":
        _need(
            isinstance(e, Mapping) and e and set(e) <= {"accepted", "trump", "declarer"},
            "expect: expected a mapping of accepted, trump and declarer",
        )
        if "accepted" in e:
            acc = e["accepted"]
            _need(
                isinstance(acc, list) and all(isinstance(a, bool) for a in acc),
                "expect.accepted: expected a list of true/false, one per step",
            )
        if "trump" in e:
            _trump(e["trump"])
        if "declarer" in e:
            d = e["declarer"]
            _need(
                d is None or (isinstance(d, int) and not isinstance(d, bool)),
                f"expect.declarer: {d!r} is not a seat number or null",
            )
