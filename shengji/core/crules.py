"""The C rules struct of a (PlayRules, level, trump): ``PlayRules``' policy strings and
numbers as the core's fields, prepared once by ``sj_prepare``; and the parsing of a
level and a trump suit.
"""

from __future__ import annotations

from ..cards import (
    NO_TRUMP_LEVEL,
    NUM_KINDS,
    parse_level,
    parse_suit,
)
from ..errors import RulesError
from ..rules import (
    PlayRules,
    pattern_str,
    shape_str,
)
from .clib import ffi, lib

#: the PlayRules policies as the core's codes, by name (the header's SJ_* #defines;
#: tests/test_c_boundary.py holds every map to rules.py's choices and to the header)
RUFF_COMPARE_CODES = {
    "strongest": lib.SJ_RUFF_STRONGEST,
    "all_components": lib.SJ_RUFF_ALL_COMPONENTS,
    "highest_card": lib.SJ_RUFF_HIGHEST_CARD,
    "unit_length": lib.SJ_RUFF_UNIT_LENGTH,
    "all": lib.SJ_RUFF_ALL,
    "cover_winner": lib.SJ_RUFF_COVER_WINNER,
}
FAILED_THROW_CODES = {
    "smallest": lib.SJ_THROW_SMALLEST,
    "next_player_chooses": lib.SJ_THROW_NEXT_PLAYER_CHOOSES,
    "first_blocker": lib.SJ_THROW_FIRST_BLOCKER,
    "fewest_cards": lib.SJ_THROW_FEWEST_CARDS,
}
FOLLOW_PROTECTION_CODES = {
    "none": lib.SJ_PROTECT_NONE,
    "longer_tuples": lib.SJ_PROTECT_LONGER_TUPLES,
    "tractor_on_tractor": lib.SJ_PROTECT_TRACTORS,
    "both": lib.SJ_PROTECT_BOTH,
    "suit_only": lib.SJ_PROTECT_NO_SHAPE,
}
BOMBS_CODES = {
    "none": lib.SJ_BOMBS_NONE,
    "any_suit": lib.SJ_BOMBS_ANY_SUIT,
    "follow_suit": lib.SJ_BOMBS_FOLLOW_SUIT,
    "follow_suit_or_trump": lib.SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP,
}
DECOMPOSITION_CODES = {
    "seeds": lib.SJ_DECOMP_SEEDS,
    "shengji_io": lib.SJ_DECOMP_SHENGJI_IO,
}
FOLLOW_REQUIREMENTS_CODES = {
    "seeds": lib.SJ_FOLLOWREQ_SEEDS,
    "shengji_io": lib.SJ_FOLLOWREQ_SHENGJI_IO,
}
THROW_FOLLOWING_CODES = {
    "as_led": lib.SJ_THROWFOLLOW_AS_LED,
    "tuples": lib.SJ_THROWFOLLOW_TUPLES,
}
KITTY_THROW_CODES = {
    "largest": lib.SJ_KITTYTHROW_LARGEST,
    "whole": lib.SJ_KITTYTHROW_WHOLE,
}
KITTY_CODES = {
    "exponential": lib.SJ_KITTY_EXPONENTIAL,
    "power": lib.SJ_KITTY_POWER,
    "table": lib.SJ_KITTY_TABLE,
    "twice_size": lib.SJ_KITTY_TWICE_SIZE,
}
#: sj_err.a of a rules error -> the PlayRules field it names (the header's SJ_RF_*)
_RULE_FIELDS = {
    **{getattr(lib, "SJ_RF_" + name.upper()): name for name in (
        "decks", "level", "trump", "max_tuple", "tractors", "tractor_min_width",
        "tractor_min_length", "tractor_bridges_level_gap", "follow_protection",
        "constant_ranks", "ruff_compare", "failed_throw", "kitty", "kitty_cap",
        "kitty_table", "shorter_tractors", "bombs", "rainbow_min", "copies",
        "genuine_tuples", "tractors_first", "decomposition", "follow_requirements",
        "throw_following", "kitty_throw", "trump_throws")},
    lib.SJ_RF_N_LADDERS: "following",  # the ladders' count, and their contents
    lib.SJ_RF_LADDERS: "following",
}


def _hold_only(rules: PlayRules, k: int) -> str:
    """'2 deck(s) hold only 2', or what the packs hold of kind k when that differs."""
    assert rules.copies is not None  # PlayRules fills it in
    c = rules.copies[k] if 0 <= k < NUM_KINDS else rules.decks
    if c == rules.decks:
        return f"{rules.decks} deck(s) hold only {rules.decks}"
    return f"the packs hold only {c} (the variant's deck composition)"


def _parse_level(level) -> int:
    """A rank index 0..12, or 13 / "NT": the no-trump level above A, which has no level
    cards (only the jokers and constant ranks are trumps besides a trump suit)."""
    if isinstance(level, bool):
        raise RulesError(f"level: {level!r} is not a rank")
    if isinstance(level, int):
        if not 0 <= level <= NO_TRUMP_LEVEL:
            raise RulesError(f"level: rank index {level} out of range 0..12 ('2'..'A'), "
                             f"or {NO_TRUMP_LEVEL} (NT)")
        return level
    return parse_level(level)


def _parse_trump(trump) -> int | None:
    if trump is None:
        return None
    if isinstance(trump, bool):
        raise RulesError(f"trump: {trump!r} is not a suit")
    if isinstance(trump, int):
        if not 0 <= trump <= 3:
            raise RulesError(f"trump: suit index {trump} out of range 0..3 (S H C D)")
        return trump
    if str(trump).strip().lower() in ("none", "nt", "no trump", "notrump", ""):
        return None
    return parse_suit(trump)


def _fill_shape(dst, shape) -> None:
    dst.w, dst.len = shape


def _build_rules(rules: PlayRules, level: int, trump: int | None):
    r = ffi.new("sj_rules *")
    r.decks = rules.decks
    r.level = level
    r.trump = -1 if trump is None else trump
    r.max_tuple = rules.max_tuple
    r.tractors = int(bool(rules.tractors))
    r.tractor_min_width = rules.tractor_min_width
    r.tractor_min_length = rules.tractor_min_length
    r.bridge = int(bool(rules.tractor_bridges_level_gap))
    assert rules.follow_protection is not None  # PlayRules.__post_init__ always sets it
    r.protection = FOLLOW_PROTECTION_CODES[rules.follow_protection]
    r.shorter_tractors = int(rules.shorter_tractors)
    r.genuine_tuples = int(rules.genuine_tuples)
    r.tractors_first = int(rules.tractors_first)
    r.decomposition = DECOMPOSITION_CODES[rules.decomposition]
    r.follow_requirements = FOLLOW_REQUIREMENTS_CODES[rules.follow_requirements]
    r.throw_following = THROW_FOLLOWING_CODES[rules.throw_following]
    r.kitty_throw = KITTY_THROW_CODES[rules.kitty_throw]
    r.no_trump_throws = int(not rules.trump_throws)
    r.bombs = BOMBS_CODES[rules.bombs]
    r.rainbow_min = rules.rainbow_min
    assert rules.copies is not None  # PlayRules fills it in
    r.copies = list(rules.copies)
    r.constant_mask = sum(1 << c for c in rules.constant_ranks)
    r.ruff_compare = RUFF_COMPARE_CODES[rules.ruff_compare]
    r.failed_throw = FAILED_THROW_CODES[rules.failed_throw]
    r.kitty = KITTY_CODES[rules.kitty]
    r.kitty_cap = min(rules.kitty_cap, 2**31 - 1)
    r.kitty_table = [min(int(v), 2**31 - 1) for v in rules.kitty_table]
    if len(rules.following) > lib.SJ_MAX_LADDERS:
        raise RulesError(
            f"following: {len(rules.following)} ladders, "
            f"the core takes at most {lib.SJ_MAX_LADDERS}"
        )
    r.n_ladders = len(rules.following)
    for i, (lead, ladder) in enumerate(rules.following):
        if len(ladder) > lib.SJ_LADDER_PATS:
            raise RulesError(
                f"following: ladder for {shape_str(lead)} has {len(ladder)} patterns, "
                f"the core takes at most {lib.SJ_LADDER_PATS}"
            )
        ld = r.ladders[i]
        _fill_shape(ld.lead, lead)
        ld.n_patterns = len(ladder)
        for p, pattern in enumerate(ladder):
            if len(pattern) > lib.SJ_PAT_SHAPES:
                raise RulesError(f"following: pattern {pattern_str(pattern)} is too long")
            ld.patterns[p].n_shapes = len(pattern)
            for j, shape in enumerate(pattern):
                _fill_shape(ld.patterns[p].shapes[j], shape)
    err = ffi.new("sj_err *")
    rc = lib.sj_prepare(r, err)
    if rc != lib.SJ_OK:
        field = _RULE_FIELDS.get(err.a, "rules")
        raise RulesError(f"{field}: value rejected by the rules core (out of range)")
    return r
