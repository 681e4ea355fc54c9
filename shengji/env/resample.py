"""Resampling an OpenSpiel state (``ShengjiState.resample_from_infostate``): the cards a
player cannot see dealt again at random among their holders, keeping what is public —
cards declared and not yet played stay with their seat, and a seat that failed to follow
a suit gets none of it. What information-set MCTS needs."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..cards import NUM_KINDS
from ..engine.actions import cards_text

if TYPE_CHECKING:
    from ..engine.game import Game
    from .cobserve import CTracker

_S = TypeVar("_S", bound="Resampled")


class _InfoText(Protocol):
    parts: list[list[str]]  # each seat's information-state text


class Resampled(Protocol):
    """What resampling reads and sets of an OpenSpiel state (a ``ShengjiState``:
    openspiel.py imports this module)."""

    tracker: CTracker
    _skip: bool  # the game's skip_forced

    @property
    def game(self) -> Game | None: ...

    @property
    def log(self) -> _InfoText: ...

    def clone(self: _S) -> _S: ...

    def _next(self) -> None: ...

    def _take_forced(self) -> None: ...


def cards_of(counts) -> list[int]:
    """The cards of 54 counts, kind ids descending."""
    return [k for k in range(NUM_KINDS - 1, -1, -1) for _ in range(counts[k])]


def resample(state: _S, player: int, rng: random.Random) -> _S:
    new = state.clone()
    g = new.game
    if g is None or g.over:
        return new
    p = g.players
    dealing = g.phase == "deal"
    # holders of hidden cards: the other seats' hands, the unseen kitty (after the burial,
    # for all but the dealer), and the undealt rest of the deck while dealing
    caps: dict[int | str, int] = {s: g.hand_len[s] for s in range(p) if s != player}
    # the buried kitty is hidden from all but the seat that buried it (the dealer, or a
    # seat that stole it)
    burier = new.tracker.buried_by
    kitty_hidden = burier is not None and burier != player and g.phase != "bury"
    if kitty_hidden:
        caps["kitty"] = g.kitty_size
    if dealing:
        caps["deck"] = len(g._deck) - g._dealt
    pool = _hidden_pool(g, caps, kitty_hidden, dealing)
    voids = _voids(g) if g.phase in ("play", "choose") else {}
    # None until trump is settled (then no voids yet)
    eff: list[int] | None = getattr(g, "_eff", None)
    # what is public: cards a seat showed declaring and has not played since stay with it
    # (the dealer's may be in the kitty: they go there only when its hand cannot take them)
    known = {h: [0] * NUM_KINDS for h in caps}
    shown: dict = {}
    for bid in g._bids:
        c = shown.setdefault(bid.seat, [0] * NUM_KINDS)
        for k in set(bid.cards):
            c[k] = max(c[k], bid.cards.count(k))
    played = new.tracker.played
    for s, c in shown.items():
        if s not in caps:
            continue
        for k, n in enumerate(c):
            for _ in range(max(0, n - int(played[s][k]))):
                if not pool[k]:
                    break
                h = s
                # (a hidden kitty was buried: the trump, and so eff, is settled)
                if kitty_hidden and s == burier and (
                        sum(known[s]) >= caps[s] or (eff is not None
                                                     and eff[k] in voids.get(s, ()))):
                    h = "kitty"
                known[h][k] += 1
                pool[k] -= 1
    deal = _deal(pool, caps, known, voids, eff, rng)
    for h, counts in deal.items():
        if h == "kitty":
            g.buried = counts
        elif h == "deck":
            cards = cards_of(counts)
            rng.shuffle(cards)
            g._deck[g._dealt:] = cards
        else:
            g.hands[h] = counts
            g._seat_hands[h] = None
            new.log.parts[h].append(f"Resampled(hand={cards_text(cards_of(counts))})\n")
    if g.phase == "bury" and g.dealer != player:
        # the kitty the dealer took (its view only): any kitty-sized part of its hand
        assert g.dealer is not None  # (burying: the dealer is known)
        g.kitty = tuple(rng.sample(cards_of(g.hands[g.dealer]), g.kitty_size))
    if g.to_act != player:
        new._next()  # another seat's decision: its half-built cards were hidden too
        if new._skip:  # (on the new hands it may have one legal action)
            new._take_forced()
    return new


def _hidden_pool(g, caps, kitty_hidden, dealing) -> list:
    pool = [0] * NUM_KINDS
    for h in caps:
        if isinstance(h, int):
            for k, n in enumerate(g.hands[h]):
                pool[k] += n
    if kitty_hidden:
        for k, n in enumerate(g.buried):
            pool[k] += n
    if dealing:
        for k in g._deck[g._dealt:]:
            pool[k] += 1
    return pool


def _voids(g) -> dict:
    """Seat → effective suits it has shown it no longer holds (it followed a lead of that
    suit with another suit's card)."""
    eff = g._eff
    out: dict = {}
    for trick in (*g.tricks, g.trick):
        if not trick:
            continue
        suit = eff[trick[0][1][0]]
        for seat, cards in trick[1:]:
            if any(eff[c] != suit for c in cards):
                out.setdefault(seat, set()).add(suit)
    return out


def _deal(pool, caps, known, voids, eff, rng, tries: int = 50) -> dict:
    """Hidden cards to their holders: each holder keeps its pinned cards and gets random
    others up to its size, never a card of a suit it is void in (retried; the void rule
    is dropped if the tries run out, which only weakens the sample)."""
    cards = cards_of(pool)
    for attempt in range(tries + 1):
        respect = attempt < tries
        rng.shuffle(cards)
        out = {h: list(known[h]) for h in caps}
        room = {h: caps[h] - sum(known[h]) for h in caps}
        ok = True
        # the most constrained cards first: those few holders may take
        respect = respect and bool(voids)
        order = sorted(cards, key=lambda c: -sum(
            1 for h in caps if eff[c] in voids.get(h, ()))) if respect else cards
        for c in order:
            options = [h for h in caps if room[h] > 0
                       and not (respect and eff[c] in voids.get(h, ()))]
            if not options:
                ok = False
                break
            weights = [room[h] for h in options]
            h = rng.choices(options, weights)[0]
            out[h][c] += 1
            room[h] -= 1
        if ok:
            return out
    raise AssertionError("unreachable: without voids every card has a holder")
