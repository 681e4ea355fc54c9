"""Card notation (docs/conformance.md): parsing, formatting and the card encoding.

A card *kind* is an integer 0..53: ``suit * 13 + rank`` for the 52 suited cards
(suits S, H, C, D = 0..3; ranks 2..A = 0..12), 52 for the little joker ``LJ`` and 53 for
the big joker ``BJ``. With N decks each kind exists N times; copies are interchangeable,
so a group of cards is a multiset: a tuple of 54 counts.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import CardError

SUITS = "SHCD"
SUIT_SYMBOLS = "♠♥♣♦"
#: how players see the jokers, on the page and in the terminal alike: "★big joker"
JOKER_SYMBOLS = {"BJ": "★", "LJ": "☆"}
JOKER_NAMES = {"BJ": "big joker", "LJ": "little joker"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LITTLE_JOKER = 52
BIG_JOKER = 53
NUM_KINDS = 54
MAX_DECKS = 10  # copies of a card the rules core plays (shengji.io: any number of packs;
#                a table of tractor_private plays up to ten)

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_RANK_OF_TEXT = {r: i for i, r in enumerate(RANKS)} | {"T": 8}
_JOKERS = {"BJ": BIG_JOKER, "LJ": LITTLE_JOKER}


def _index(value: Any, what: str, low: int, high: int,
           error: type[CardError] = CardError) -> int:
    """``value`` as an int in low..high, else ``error`` naming ``what``. The slow path of
    the entry points below: their fast path is one ``type(x) is int`` test and a range
    test, so well-typed calls pay nothing more."""
    if not isinstance(value, bool):
        try:
            number = operator.index(value)  # int subclasses, numpy integers
        except TypeError:
            pass
        else:
            if low <= number <= high:
                return number
            raise error(f"{what}: {number!r} out of range {low}..{high}")
    raise error(f"{what}: expected an integer {low}..{high}, got {type(value).__name__} {value!r}")


def card_id(card: int) -> int:
    """``card`` checked to be a kind id 0..53 (CardError otherwise)."""
    if type(card) is int and 0 <= card < NUM_KINDS:
        return card
    return _index(card, "card id", 0, NUM_KINDS - 1)


def kind(suit: int, rank: int) -> int:
    """The kind id of the suited card (suit 0..3, rank 0..12)."""
    if type(suit) is not int or not 0 <= suit < 4:
        suit = _index(suit, "suit index", 0, 3)
    if type(rank) is not int or not 0 <= rank < 13:
        rank = _index(rank, "rank index", 0, 12)
    return suit * 13 + rank


def suit_of(card: int) -> int | None:
    """Suit index 0..3 of a suited card, None for a joker."""
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        card = _index(card, "card id", 0, NUM_KINDS - 1)
    return None if card >= LITTLE_JOKER else card // 13


def rank_of(card: int) -> int | None:
    """Rank index 0..12 (0 = '2', 12 = 'A') of a suited card, None for a joker."""
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        card = _index(card, "card id", 0, NUM_KINDS - 1)
    return None if card >= LITTLE_JOKER else card % 13


def parse_suit(text: str) -> int:
    """'S'/'♠' → 0 ... 'D'/'♦' → 3."""
    if not isinstance(text, str):
        raise CardError(f"unknown suit {text!r}: a suit is a string, one of S H C D")
    t = text.strip()
    if len(t) == 1 and (t in _SUIT_OF_CHAR or t.upper() in _SUIT_OF_CHAR):
        return _SUIT_OF_CHAR[t] if t in _SUIT_OF_CHAR else _SUIT_OF_CHAR[t.upper()]
    raise CardError(f"unknown suit {text!r}: expected one of S H C D (or ♠ ♥ ♣ ♦)")


def parse_rank(text: str | int) -> int:
    """'2'..'10', 'T', 'J', 'Q', 'K', 'A' (an int is read as its printed rank) → 0..12."""
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise CardError(f"unknown rank {text!r}: a rank is a string such as '10' or 'K'")
    t = str(text).strip().upper()
    if t in _RANK_OF_TEXT:
        return _RANK_OF_TEXT[t]
    raise CardError(f"unknown rank {text!r}: expected one of {' '.join(RANKS)} (or T for 10)")


#: the level "NT" above A (shengji.io MaxRank::NoTrump): a deal with no level cards
NO_TRUMP_LEVEL = 13


def parse_level(text: str | int) -> int:
    """A level: a rank ('2'..'A' → 0..12) or ``NT``, the no-trump level above A (13)."""
    if isinstance(text, int) and not isinstance(text, bool) and text == NO_TRUMP_LEVEL:
        return NO_TRUMP_LEVEL
    if isinstance(text, str) and text.strip().upper() == "NT":
        return NO_TRUMP_LEVEL
    return parse_rank(text)


def level_name(level: int) -> str:
    """0..12 → '2'..'A'; 13 → 'NT'."""
    return "NT" if level == NO_TRUMP_LEVEL else RANKS[level]


def parse_card(token: str) -> int:
    """One token such as ``HA``, ``♥10``, ``ST``, ``BJ`` → kind id."""
    if not isinstance(token, str):
        raise CardError(f"a card must be a string token, got {type(token).__name__} {token!r}")
    t = token.strip()
    up = t.upper()
    if up in _JOKERS:
        return _JOKERS[up]
    if len(t) < 2:
        raise CardError(
            f"malformed card {token!r}: a card is a suit letter and a rank, e.g. HA, S10, BJ"
        )
    suit_char, rank_text = t[0], t[1:]
    if suit_char.upper() not in _SUIT_OF_CHAR and suit_char not in _SUIT_OF_CHAR:
        raise CardError(
            f"malformed card {token!r}: unknown suit {suit_char!r} (expected S H C D or ♠ ♥ ♣ ♦)"
        )
    up_suit = suit_char.upper()
    suit = _SUIT_OF_CHAR[up_suit] if up_suit in _SUIT_OF_CHAR else _SUIT_OF_CHAR[suit_char]
    if rank_text.upper() not in _RANK_OF_TEXT:
        raise CardError(
            f"malformed card {token!r}: unknown rank {rank_text!r} "
            f"(expected one of {' '.join(RANKS)}, or T for 10)"
        )
    return kind(suit, _RANK_OF_TEXT[rank_text.upper()])


def card_str(card: int, unicode: bool = False) -> str:
    """Canonical token of a kind id: ``H10``, ``SA``, ``BJ`` (``♥10`` with unicode=True)."""
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_KINDS:
            raise CardError(f"not a card id: {card!r} (expected 0..53)")
        card = int(card)
    if card == BIG_JOKER:
        return "BJ"
    if card == LITTLE_JOKER:
        return "LJ"
    suits = SUIT_SYMBOLS if unicode else SUITS
    return suits[card // 13] + RANKS[card % 13]


def _token_table() -> dict[str, int]:
    """Every spelling ``parse_card`` accepts (without surrounding spaces) → kind id: the
    fast path of ``parse_cards`` is one dict lookup per token."""
    table = {}
    for s in range(4):
        for suit in {SUITS[s], SUITS[s].lower(), SUIT_SYMBOLS[s]}:
            for text, r in _RANK_OF_TEXT.items():
                for rank in {text, text.lower()}:
                    table[suit + rank] = kind(s, r)
    for name, k in _JOKERS.items():
        for a in {name[0], name[0].lower()}:
            for b in {name[1], name[1].lower()}:
                table[a + b] = k
    return table


_TOKEN_IDS = _token_table()
#: parsed group texts (bounded: cleared when full); values are tuples of kind ids
_TEXT_IDS: dict[str, tuple[int, ...]] = {}
_TEXT_CACHE = 4096


def parse_cards(text: str | Iterable[str] | Iterable[int]) -> list[int]:
    """A group ``"HA HA HK"`` (or a list of tokens, or of kind ids) → list of kind ids."""
    if type(text) is str:
        ids = _TEXT_IDS.get(text)
        if ids is None:
            ids = _parse_tokens(text.replace(",", " ").split())
            if len(_TEXT_IDS) >= _TEXT_CACHE:
                _TEXT_IDS.clear()
            _TEXT_IDS[text] = ids
        return list(ids)
    if isinstance(text, str):
        tokens: Iterable[str | int] = text.replace(",", " ").split()
    elif isinstance(text, (bytes, bytearray, Mapping)) or not isinstance(text, Iterable):
        raise CardError(
            f"cards: expected a string such as 'HA HA HK' or a list of card tokens or ids, "
            f"got {type(text).__name__} {_short(text)}"
        )
    else:
        tokens = text
    return list(_parse_tokens(tokens))


def _parse_tokens(tokens: Iterable[Any]) -> tuple[int, ...]:
    # Any: the items are unchecked (tokens, ids, anything); ``type(tok) is`` keeps the
    # hot path fast, and mypy does not narrow through it
    out: list[int] = []
    get = _TOKEN_IDS.get
    for tok in tokens:
        t = type(tok)
        if t is int and 0 <= tok < NUM_KINDS:
            out.append(tok)
            continue
        if t is str:
            k = get(tok)
            if k is not None:
                out.append(k)
                continue
        if isinstance(tok, bool):
            raise CardError(f"not a card: {tok!r}")
        if isinstance(tok, int):
            card_str(tok)  # validates the id
            out.append(tok)
        else:
            out.append(parse_card(tok))
    return tuple(out)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_decks(decks: object, what: str = "decks") -> int:
    """``decks`` checked to be a deck count 1..MAX_DECKS (CardError otherwise)."""
    if type(decks) is int and 1 <= decks <= MAX_DECKS:
        return decks
    return _index(decks, what, 1, MAX_DECKS)


def counts_of(
    cards: Iterable[int], decks: int | None = None, what: str = "cards"
) -> tuple[int, ...]:
    """Kind ids → 54 counts. With ``decks`` given, more copies than the decks hold is an error."""
    if isinstance(cards, (str, bytes, bytearray, Mapping)) or not isinstance(cards, Iterable):
        raise CardError(f"{what}: expected a list of card ids 0..53, got {_short(cards)}")
    if decks is not None:
        check_decks(decks)
    counts = [0] * NUM_KINDS
    for c in cards:
        if type(c) is not int or not 0 <= c < NUM_KINDS:
            c = _index(c, f"{what}: card id", 0, NUM_KINDS - 1)
        counts[c] += 1
    if decks is not None:
        for k, n in enumerate(counts):
            if n > decks:
                raise CardError(
                    f"{what}: {n} copies of {card_str(k)} but {decks} deck(s) hold only {decks}"
                )
    return tuple(counts)


def format_counts(counts: Iterable[int], unicode: bool = False) -> str:
    """54 counts → ``"BJ H10 H10 SA"``, highest kinds first (jokers, then S H C D, A..2)."""
    counts = _counts54(counts)
    tokens = []
    # one precomputed (id, token) per kind in display order: this runs for every view a
    # server sends (hand and played cards), so no per-card function call
    for k, tok in _DISPLAY_ORDER[unicode]:
        n = counts[k]
        if n:
            tokens += [tok] * n
    return " ".join(tokens)


_DISPLAY_ORDER = {
    u: tuple((k, card_str(k, u)) for k in (BIG_JOKER, LITTLE_JOKER, *(
        kind(s, r) for s in range(4) for r in reversed(range(13)))))
    for u in (False, True)
}
#: token of each kind id (card_str without the checks, for ids already known good)
CARD_TOKENS = tuple(card_str(k) for k in range(NUM_KINDS))


def _counts54(counts: object) -> list[int]:
    """``counts`` checked to be 54 non-negative integers (CardError otherwise)."""
    if isinstance(counts, (str, Mapping)) or not isinstance(counts, Iterable):
        raise CardError(f"counts: expected {NUM_KINDS} card counts, got {_short(counts)}")
    counts = list(counts)
    if len(counts) != NUM_KINDS:
        raise CardError(f"counts: {len(counts)} values, expected {NUM_KINDS} (one per card kind)")
    for k, n in enumerate(counts):
        if type(n) is not int or n < 0:
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise CardError(f"counts: {_short(n)} for {card_str(k)} is not a card count")
    return counts


#: points per kind id: 5 → 5, 10 → 10, K → 10
_POINTS = tuple(
    0 if k >= LITTLE_JOKER else {3: 5, 8: 10, 11: 10}.get(k % 13, 0) for k in range(NUM_KINDS)
)


def point_value(card: int) -> int:
    """Points of one card: 5 → 5, 10 → 10, K → 10, others 0."""
    if type(card) is int and 0 <= card < NUM_KINDS:
        return _POINTS[card]
    return _POINTS[_index(card, "card id", 0, NUM_KINDS - 1)]


def full_deck_counts(decks: int) -> tuple[int, ...]:
    """The counts of ``decks`` whole decks (54 kinds, ``decks`` copies each)."""
    return (check_decks(decks),) * NUM_KINDS
