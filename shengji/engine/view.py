"""Per-seat views: what one seat may know, and nothing more.

A ``SeatView`` holds the seat's own hand and public facts (declarations, the trump, the
cards played face up, trick history, points, levels). It never holds another seat's
cards, nor the buried kitty — except the kitty cards the seat burying holds (then
``kitty`` is the kitty it took: the dealer, or with kitty theft the seat that stole it).
It is what bots and frontends receive: a fresh copy each time, read-only by convention
(not frozen: one is built before every decision, and frozen dataclasses are slower to
build).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..cards import format_counts
from ..friends import calls_text
from .actions import cards_text

if TYPE_CHECKING:
    from ..friends import Call
    from ..model import Bid
    from .events import Event
    from .phase import Phase

#: a play of a trick: (seat, card ids)
TrickPlay = tuple[int, tuple[int, ...]]


@dataclass(slots=True)
class SeatView:
    seat: int
    players: int
    teams: tuple[int, ...]
    phase: str
    to_act: int | None
    deal_number: int
    dealer: int | None
    level: int
    levels: tuple[int, ...]  # level of each seat (a team's seats share theirs)
    trump: int | None        # None: no trump yet (dealing) or no-trump deal
    trump_set: bool          # False while dealing
    to_deal: int             # cards still to be dealt (0 in the last declaration round)
    bids: tuple[Bid, ...]    # accepted declarations (shengji.model.Bid), in order
    hand: tuple[int, ...]    # 54 counts
    hand_sizes: tuple[int, ...]  # cards held by each seat
    kitty: tuple[int, ...] | None  # the kitty, only for the dealer while burying
    kitty_size: int
    leader: int | None
    trick_number: int
    trick: tuple[TrickPlay, ...]  # ((seat, cards), ...) of the current trick
    tricks: tuple[tuple[TrickPlay, ...], ...]  # completed tricks of this deal
    played: tuple[int, ...]  # 54 counts: every card played face up this deal
    trick_points: int        # attackers' points from tricks so far
    #: after a failed throw, the options the chooser picks from
    forced_options: tuple[tuple[int, ...], ...]
    side: tuple[int, ...] = ()  # seats known to be on the dealer's side (dealer first)
    sides_known: bool = True  # every seat's side is public (fixed teams; all friends found)
    calls: tuple[Call, ...] = ()  # finding friends: the dealer's calls ((ordinal, card), ...)
    joined: tuple[tuple[int, int], ...] = ()  # the calls fulfilled so far ((seat, call index), ...)
    can_take_back: bool = False  # table.play_takeback: this seat may take back its play now

    @property
    def team(self) -> int:
        return self.teams[self.seat]

    def same_side(self, a: int, b: int) -> bool | None:
        """Do seats ``a`` and ``b`` play on the same side this deal, as far as this seat
        may know? None while it is not public (a friend not found yet)."""
        if a == b:
            return True
        if self.sides_known:
            if not self.side:  # no dealer yet: the fixed teams
                return self.teams[a] == self.teams[b]
            return (a in self.side) == (b in self.side)
        if a in self.side and b in self.side:
            return True
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "players": self.players, "teams": list(self.teams),
            "phase": self.phase, "to_act": self.to_act, "deal": self.deal_number,
            "dealer": self.dealer, "level": self.level,
            "levels": list(self.levels), "trump": self.trump,
            "trump_set": self.trump_set, "to_deal": self.to_deal,
            "bids": [{"seat": b.seat, "cards": cards_text(b.cards), "trump": b.trump}
                     for b in self.bids],
            "hand": format_counts(self.hand), "hand_sizes": list(self.hand_sizes),
            "kitty": cards_text(self.kitty) if self.kitty is not None else None,
            "kitty_size": self.kitty_size, "leader": self.leader,
            "trick_number": self.trick_number,
            "trick": [[s, cards_text(c)] for s, c in self.trick],
            "tricks": [[[s, cards_text(c)] for s, c in t] for t in self.tricks],
            "played": format_counts(self.played), "trick_points": self.trick_points,
            "forced_options": [cards_text(o) for o in self.forced_options],
            "side": list(self.side), "sides_known": self.sides_known,
            "calls": calls_text(self.calls), "joined": [list(j) for j in self.joined],
            "can_take_back": self.can_take_back,
        }


def view_of(game: Phase, seat: int) -> SeatView:
    if not 0 <= seat < game.players:
        from .errors import IllegalAction
        raise IllegalAction(f"no seat {seat}: seats are 0..{game.players - 1}", "no_such_seat")
    dealing = game.phase == "deal"
    kitty = None
    if game.phase == "bury" and seat == game.to_act:  # the dealer, or a seat that stole
        kitty = tuple(sorted(game.kitty, reverse=True))
    tricks, played = game._tricks, tuple(game.played)
    keep = shown_tricks(game.table_rules, len(tricks))
    if len(keep) < len(tricks):
        tricks = tuple(tricks[i] for i in keep)
        counts = [0] * len(played)
        for trick in (*tricks, game._trick):
            for _, cards in trick:
                for c in cards:
                    counts[c] += 1
        played = tuple(counts)
    return SeatView(
        seat=seat, players=game.players, teams=game.teams, phase=game.phase,
        to_act=game.to_act, deal_number=game.deal_number, dealer=game.dealer,
        level=game.level, levels=game._levels_tuple(),
        trump=None if dealing else game.trump, trump_set=not dealing,
        to_deal=game._n_deal - game._dealt if dealing else 0,
        bids=tuple(game._bids), hand=tuple(game.hands[seat]),
        hand_sizes=tuple(game.hand_len), kitty=kitty, kitty_size=game.kitty_size,
        leader=game.leader, trick_number=game.trick_number, trick=tuple(game._trick),
        tricks=tricks, played=played, trick_points=game.trick_points,
        forced_options=game._choice[1] if game._choice else (),
        **public_sides(game, seat),
        can_take_back=game._undo is not None and game._undo[0] == seat,
    )


def public_sides(game: Phase, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know of the sides: the dealer's side as the plays have revealed
    it (the dealer, then each friend once a called copy is played), the calls, and the
    calls fulfilled. Never who holds a called card: every view, protocol message and
    web page takes the sides from here (tests/test_friends.py switches it to a leaky
    version and watches the privacy tests fail)."""
    return {"side": game.side, "sides_known": game.sides_known, "calls": game.calls,
            "joined": game.joined}
def shown_tricks(table: Mapping[str, Any], completed: int) -> range:
    """Which completed tricks of the deal (0-based) a seat still sees: all of them, or
    with ``table.hide_played_cards`` only the last (the current trick is always shown)."""
    return range(max(0, completed - 1) if table["hide_played_cards"] else 0, completed)


def points_shown(table: Mapping[str, Any], dealers_won: bool) -> bool:
    """Are the points of a trick shown? Not when the dealers' side won it and
    ``table.hide_dealer_points`` (shengji.io: hide the defending team's points)."""
    return not (dealers_won and table["hide_dealer_points"])


def kitty_hidden(table: Mapping[str, Any], seat: int | None, burier: int | None) -> bool:
    """Is the kitty of a DealScored hidden from ``seat``? With ``table.reveal_kitty_at_end``
    false, from every seat but ``burier`` (the seat that buried last, which knows it) and
    from spectators (``seat`` None)."""
    return not table["reveal_kitty_at_end"] and (seat is None or seat != burier)


def throw_note(table: Mapping[str, Any], note: dict[str, Any]) -> dict[str, Any]:
    """The table's note on a failed throw (protocol.throws: ``blocker``, ``beaten``,
    ``beaten_by``) as every seat receives it: with ``table.hide_throw_halting_player``
    only the part beaten, nothing that names or shows the seat that stopped it."""
    if table["hide_throw_halting_player"]:
        return {k: v for k, v in note.items() if k == "beaten"}
    return note


def _dealers_won(game: Phase, deal: int | None, dealer: int, seat: int) -> bool:
    """Was ``seat`` on the dealer's side? This deal: the side as public now (a friend
    found since shows as a dealer); an earlier deal: the dealer's team."""
    if deal == game.deal_number and game.side:
        return seat in game.side
    return game.teams[seat] == game.teams[dealer]


def events_seen(game: Phase, seat: int | None, since: int = 0) -> list[Event]:
    """The events from index ``since`` on as ``seat`` may see them now: others' private
    cards hidden; with ``table.hide_played_cards`` the cards of tricks older than the last
    completed one hidden (of an earlier deal: all but its last trick, which a seat saw on
    the table when the deal was scored); with ``table.hide_dealer_points`` the points of
    tricks the dealer's side won hidden."""
    from .events import Buried, DealScored, DealStarted, Played, TrickWon, TrumpSet

    events = game.events
    since = max(since, 0)
    hide_cards = game.table_rules["hide_played_cards"]
    hide_points = game.table_rules["hide_dealer_points"]
    hide_kitty = not game.table_rules["reveal_kitty_at_end"]
    burier: int | None = None  # the seat that buried last in the deal at ``since``
    if hide_kitty:
        for e in reversed(events[:since]):
            if isinstance(e, Buried):
                burier = e.seat
                break
            if isinstance(e, DealStarted):
                break
    # the deal and dealer in force at ``since``: look back to its DealStarted
    deal, dealer = None, None
    if hide_cards or hide_points:
        for e in reversed(events[:since]):
            if dealer is None and isinstance(e, TrumpSet):
                dealer = e.dealer
            if isinstance(e, DealStarted):
                deal = e.deal
                break
    completed = len(game._tricks)
    shown = {(game.deal_number, t) for t in shown_tricks(game.table_rules, completed)}
    shown.add((game.deal_number, completed))  # the trick being played
    if hide_cards:  # an earlier deal's last trick (sent with its DealScored)
        last: dict[int | None, int] = {}
        at = deal
        for e in events[since:]:
            if isinstance(e, DealStarted):
                at = e.deal
            elif isinstance(e, Played) and at != game.deal_number:
                last[at] = max(last.get(at, 0), e.trick)
        shown.update((d, t) for d, t in last.items() if d is not None)
    out = []
    for e in events[since:]:
        if hide_kitty:
            if isinstance(e, Buried):
                burier = e.seat
            elif isinstance(e, DealScored) and kitty_hidden(game.table_rules, seat, burier):
                e = replace(e, kitty=None)  # type: ignore[arg-type]  # (null: face down)
        if e.private_to is not None and e.private_to != seat:
            e = e.redacted()
        elif isinstance(e, DealStarted):
            deal, dealer = e.deal, None
        elif isinstance(e, TrumpSet):
            dealer = e.dealer
        elif hide_cards and isinstance(e, Played) and (deal, e.trick) not in shown:
            e = replace(e, cards=None)
        elif (hide_points and isinstance(e, TrickWon) and dealer is not None
              and not points_shown(game.table_rules, _dealers_won(game, deal, dealer, e.seat))):
            e = replace(e, points=None)
        out.append(e)
    return out
