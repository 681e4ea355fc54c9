"""OracleContext: the slow, obvious Python reading of docs/semantics.md §2–§8.

Written from the document alone (not from the C core) so that differential tests compare
two independent implementations. Every input group is a tuple of 54 counts; card strings
("HA HA HK") are accepted too for hand-written tests.
"""

from __future__ import annotations

from shengji.cards import NUM_KINDS, counts_of, parse_cards, parse_rank, parse_suit
from shengji.errors import HandError

from . import follow, kitty, rainbow, throw, trick
from .order import TRUMP, build_order
from .sio_decompose import sio_partition
from .structures import best_partition, is_structure, key, structure_counts, total


def as_counts(cards, decks: int | None = None):
    if (
        isinstance(cards, tuple)
        and len(cards) == NUM_KINDS
        and all(isinstance(c, int) for c in cards)
    ):
        return cards
    return counts_of(parse_cards(cards), decks)


class OracleContext:
    def __init__(self, rules, level, trump):
        self.rules = rules
        self.level = level if isinstance(level, int) else parse_rank(level)
        if isinstance(trump, str):
            trump = None if trump.lower() == "none" else parse_suit(trump)
        self.trump = trump
        self.suit, self.strengths = build_order(rules, self.level, self.trump)
        self._memo: dict = {}

    # §2 -------------------------------------------------------------------------
    def strength(self, card: int) -> int:
        return self.strengths[card]

    def effective_suit(self, card: int) -> int:
        return self.suit[card]

    def is_trump(self, card: int) -> bool:
        return self.suit[card] == TRUMP

    def pos(self, card: int):
        return (self.strengths[card], card)

    def counts(self, cards):
        return as_counts(cards, self.rules.decks)

    @staticmethod
    def hand_error(msg: str):
        raise HandError(msg)

    # §3 -------------------------------------------------------------------------
    def _partition(self, counts):
        if self.rules.decomposition == "shengji_io":
            # shengji.io's choice of split, listed best first by the §3 key like ours
            return sorted(sio_partition(self, counts), key=lambda st: key(self, st),
                          reverse=True)
        return best_partition(self, counts, self._memo)[1]

    def lead_components(self, lead):
        """(effective suit, structures best first) of a lead; HandError if it is empty
        or spans several effective suits."""
        lead = self.counts(lead)
        suits = {self.suit[k] for k, c in enumerate(lead) if c}
        if not suits:
            raise HandError("empty lead: a lead needs at least one card")
        if len(suits) > 1:
            raise HandError("a lead must be of one effective suit (all trumps count as one)")
        return suits.pop(), self._partition(lead)

    def decompose(self, counts):
        rb = rainbow.groups(self, self.counts(counts))
        if rb is not None:
            return [(n, 1, c) for _, n, c in rb]
        _, comps = self.lead_components(counts)
        return [(w, ln, structure_counts((w, ln, kinds))) for w, ln, kinds in comps]

    def is_tractor(self, counts) -> bool:
        counts = self.counts(counts)
        return total(counts) > 0 and is_structure(self, counts, min_length=2) is not None

    # §4–§8 ----------------------------------------------------------------------
    def check_follow(self, lead, hand, play):
        return follow.check_follow(self, self.counts(lead), self.counts(hand), self.counts(play))

    def is_rainbow(self, lead) -> bool:
        return rainbow.groups(self, self.counts(lead)) is not None

    def legal_follows(self, lead, hand):
        return follow.legal_follows(self, self.counts(lead), self.counts(hand))

    def check_throw(self, lead, others):
        lead, others = self.counts(lead), [self.counts(h) for h in others]
        if self.is_rainbow(lead):
            return rainbow.check_throw(self, lead, others)
        return throw.check_throw(self, lead, others)

    def trick_winner(self, plays) -> int:
        plays = [self.counts(p) for p in plays]
        if self.is_rainbow(plays[0]):
            n = total(plays[0])
            for p in plays[1:]:
                if total(p) != n:
                    self.hand_error(f"plays of different sizes: {total(p)} against {n}")
            return rainbow.trick_winner(self, plays)
        return trick.trick_winner(self, plays)

    def kitty_multiplier(self, play, lead=None) -> int:
        return kitty.kitty_multiplier(
            self, self.counts(play), None if lead is None else self.counts(lead)
        )

    def compare(self, a: int, b: int) -> str:
        """a led first, then b: higher / lower / equal / unrelated."""
        sa, sb = self.suit[a], self.suit[b]
        if sa != sb:
            if sa == TRUMP:
                return "higher"
            if sb == TRUMP:
                return "lower"
            return "unrelated"
        d = self.strengths[a] - self.strengths[b]
        return "higher" if d > 0 else "lower" if d < 0 else "equal"
