"""Card notation (docs/conformance.md): parsing, formatting and the card encoding.

A card *kind* is an integer 0..53: ``suit * 13 + rank`` for the 52 suited cards
(suits S, H, C, D = 0..3; ranks 2..A = 0..12), 52 for the little joker ``LJ`` and 53 for
the big joker ``BJ``. With N decks each kind exists N times; copies are interchangeable,
so a group of cards is a multiset: a tuple of 54 counts.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import CardError

SUITS = "SHCD"
SUIT_SYMBOLS = "♠♥♣♦"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LITTLE_JOKER = 52
BIG_JOKER = 53
NUM_KINDS = 54
MAX_DECKS = 4

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_RANK_OF_TEXT = {r: i for i, r in enumerate(RANKS)} | {"T": 8}
_JOKERS = {"BJ": BIG_JOKER, "LJ": LITTLE_JOKER}


def kind(suit: int, rank: int) -> int:
    """The kind id of the suited card (suit 0..3, rank 0..12)."""
    return suit * 13 + rank


def suit_of(card: int) -> int | None:
    """Suit index 0..3 of a suited card, None for a joker."""
    return None if card >= LITTLE_JOKER else card // 13


def rank_of(card: int) -> int | None:
    """Rank index 0..12 (0 = '2', 12 = 'A') of a suited card, None for a joker."""
    return None if card >= LITTLE_JOKER else card % 13


def parse_suit(text: str) -> int:
    """'S'/'♠' → 0 ... 'D'/'♦' → 3."""
    t = str(text).strip()
    if len(t) == 1 and (t in _SUIT_OF_CHAR or t.upper() in _SUIT_OF_CHAR):
        return _SUIT_OF_CHAR.get(t, _SUIT_OF_CHAR.get(t.upper()))
    raise CardError(f"unknown suit {text!r}: expected one of S H C D (or ♠ ♥ ♣ ♦)")


def parse_rank(text: str | int) -> int:
    """'2'..'10', 'T', 'J', 'Q', 'K', 'A' (an int is read as its printed rank) → 0..12."""
    t = str(text).strip().upper()
    if t in _RANK_OF_TEXT:
        return _RANK_OF_TEXT[t]
    raise CardError(f"unknown rank {text!r}: expected one of {' '.join(RANKS)} (or T for 10)")


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
    suit = _SUIT_OF_CHAR.get(suit_char.upper(), _SUIT_OF_CHAR.get(suit_char))
    if rank_text.upper() not in _RANK_OF_TEXT:
        raise CardError(
            f"malformed card {token!r}: unknown rank {rank_text!r} "
            f"(expected one of {' '.join(RANKS)}, or T for 10)"
        )
    return kind(suit, _RANK_OF_TEXT[rank_text.upper()])


def card_str(card: int, unicode: bool = False) -> str:
    """Canonical token of a kind id: ``H10``, ``SA``, ``BJ`` (``♥10`` with unicode=True)."""
    if not isinstance(card, int) or not 0 <= card < NUM_KINDS:
        raise CardError(f"not a card id: {card!r} (expected 0..53)")
    if card == BIG_JOKER:
        return "BJ"
    if card == LITTLE_JOKER:
        return "LJ"
    suits = SUIT_SYMBOLS if unicode else SUITS
    return suits[card // 13] + RANKS[card % 13]


def parse_cards(text: str | Iterable[str] | Iterable[int]) -> list[int]:
    """A group ``"HA HA HK"`` (or a list of tokens, or of kind ids) → list of kind ids."""
    if isinstance(text, str):
        tokens: Iterable = text.replace(",", " ").split()
    else:
        tokens = text
    out = []
    for tok in tokens:
        if isinstance(tok, bool):
            raise CardError(f"not a card: {tok!r}")
        if isinstance(tok, int):
            card_str(tok)  # validates the id
            out.append(tok)
        else:
            out.append(parse_card(tok))
    return out


def counts_of(
    cards: Iterable[int], decks: int | None = None, what: str = "cards"
) -> tuple[int, ...]:
    """Kind ids → 54 counts. With ``decks`` given, more copies than the decks hold is an error."""
    counts = [0] * NUM_KINDS
    for c in cards:
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
    counts = list(counts)
    tokens = []
    for k in (BIG_JOKER, LITTLE_JOKER):
        tokens += [card_str(k, unicode)] * counts[k]
    for s in range(4):
        for r in reversed(range(13)):
            tokens += [card_str(kind(s, r), unicode)] * counts[kind(s, r)]
    return " ".join(tokens)


def point_value(card: int) -> int:
    """Points of one card: 5 → 5, 10 → 10, K → 10, others 0."""
    r = rank_of(card)
    return {3: 5, 8: 10, 11: 10}.get(r, 0) if r is not None else 0


def full_deck_counts(decks: int) -> tuple[int, ...]:
    """The counts of ``decks`` whole decks (54 kinds, ``decks`` copies each)."""
    return (decks,) * NUM_KINDS
