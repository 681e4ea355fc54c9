"""A table: one game and its seats, spoken to only through protocol messages.

Every frontend uses this class: the terminal drives one seat of a local table, the web
server one table per room, and bot seats play through ``ProtocolBot`` — they receive the
same ``state`` message a client would and answer with an action object. The table never
lets a seat see more than its ``SeatView`` and its own share of the events.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..bots import make_bot
from ..engine import DealScored, DealStarted, Game, IllegalAction
from ..engine.actions import cards_text
from ..engine.events import CardDealt, Played, ThrowFailed
from ..errors import ArgumentError, ShengjiError
from .client import ProtocolBot
from .messages import (
    PROTOCOL_VERSION,
    ProtocolError,
    decode_action,
    encode_event,
    encode_legal,
    encode_view,
)
from .throws import explain_failed_throw


def public_view(game, variant) -> dict:
    """The ``view`` a spectator receives: a seat's view without any hand or kitty, and
    with ``seat`` and ``team`` null."""
    from dataclasses import replace

    view = replace(game.view(0), hand=(0,) * len(game.hands[0]), kitty=None)
    d = encode_view(view, variant)
    d.update(seat=None, team=None)
    return d


class Table:
    """``Table(variant, seed, bots={1: "heuristic", ...}, max_deals=None)``.

    Seats listed in ``bots`` are played by those bots; the others wait for ``act``."""

    def __init__(self, variant, seed: int | str = 0, *, bots: Mapping[int, str] | None = None,
                 max_deals: int | None = None, actions=None, start_levels=None,
                 first_dealer: int | None = None):
        self.game = Game(variant, seed, max_deals=max_deals, start_levels=start_levels,
                         first_dealer=first_dealer)
        self._notes: dict[int, dict] = {}  # event index -> keys added to that event
        # (the game's completed-tricks tuple, its encoding)
        self._tricks: tuple[tuple, list] | None = None
        # with ``actions`` (engine Actions), the game is replayed up to them (a restore)
        for a in actions or ():
            first = len(self.game.events)
            self.game.apply(a)
            self._annotate(first)
        self.variant = self.game.variant
        self.seed = seed
        self.bots: dict[int, ProtocolBot] = {}
        self._advisors: dict = {}  # (seat, bot spec) -> ProtocolBot giving advice
        for seat, name in (bots or {}).items():
            self.set_bot(seat, name)

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def over(self) -> bool:
        return self.game.over

    def set_bot(self, seat: int, name: str = "heuristic") -> None:
        self._check_seat(seat)
        bot = make_bot(name, self.variant, seed=f"{self.seed}:{seat}")
        self.bots[seat] = ProtocolBot(bot, seat)

    def remove_bot(self, seat: int) -> None:
        """The seat is played by its client again."""
        self.bots.pop(seat, None)

    def _check_seat(self, seat) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ProtocolError("no_such_seat",
                                f"no seat {seat!r}: seats are 0..{self.players - 1}")

    # ----------------------------------------------------------------- messages out

    def state(self, seat: int | None, since: int | None = None) -> dict:
        """The ``state`` message for ``seat``: its view, its legal actions (when it is to
        act) and, with ``since``, the events from that index on as this seat may see them.
        ``event_index`` is the cursor for the next call. ``seat`` None: a spectator's
        state — public facts only (no hand, every private event redacted)."""
        game = self.game
        if seat is None:
            view = public_view(game, self.variant)
        else:
            self._check_seat(seat)
            view = self._encode_view(game.view(seat))
        msg = {
            "type": "state", "protocol": PROTOCOL_VERSION, "seat": seat,
            "variant": game.variant_ref, "over": game.over, "winner": game.winner,
            "view": view,
            "legal": (encode_legal(game.legal_actions(seat))
                      if seat is not None and game.to_act == seat else None),
            "event_index": len(game.events),
        }
        if since is not None:
            msg["events"] = self.events(seat, since)
        return msg

    def _encode_view(self, view) -> dict:
        """encode_view, with the completed tricks of the deal encoded once per trick
        rather than for every message (they are most of a view's cards)."""
        tricks = view.tricks
        cached = self._tricks
        if cached is None or cached[0] is not tricks:
            cached = self._tricks = (tricks, [[[s, cards_text(c)] for s, c in t]
                                              for t in tricks])
        view.tricks = ()  # a fresh SeatView each time: ours to change
        d = encode_view(view, self.variant)
        d["tricks"] = cached[1]
        return d

    def events(self, seat: int | None, since: int = 0) -> list[dict]:
        """Events from index ``since`` on, as ``seat`` sees them (others' cards hidden, and
        what the variant's table options hide)."""
        if type(since) is not int:
            raise ArgumentError(f"since: expected an event index, got {since!r:.40}")
        since = max(since, 0)
        return [self._encode(since + i, e)
                for i, e in enumerate(self.game.events_for(seat, since))]

    def all_events(self, since: int = 0) -> list[dict]:
        """Every event from ``since`` on with nothing hidden (logs; bots watched by a
        person who sits at no seat)."""
        if type(since) is not int:
            raise ArgumentError(f"since: expected an event index, got {since!r:.40}")
        since = max(since, 0)
        return [self._encode(since + i, e) for i, e in enumerate(self.game.events[since:])]

    def _encode(self, index: int, event) -> dict:
        d = encode_event(event)
        note = self._notes.get(index)
        if note:
            d.update(note)
        return d

    def _annotate(self, first: int) -> None:
        """Explain the failed throws among the events from ``first`` on, now, while the
        other hands are as they were when the throw failed (protocol.throws)."""
        events = self.game.events
        for i in range(first, len(events)):
            if type(events[i]) is ThrowFailed:
                self._notes[i] = explain_failed_throw(self.game, events[i])

    def deal_start_index(self) -> int:
        """Index of the current deal's first event (a reconnecting client starts here)."""
        events = self.game.events
        for i in range(len(events) - 1, -1, -1):
            if isinstance(events[i], DealStarted):
                return i
        return 0

    def replay(self, seat: int | None, deal: int) -> dict:
        """The ``replay`` message of a finished deal: its events as ``seat`` saw them
        (without the card-by-card dealing) and each seat's cards played in it, which are
        public once the deal is over. ``seat`` None: as a spectator saw it."""
        if seat is not None:
            self._check_seat(seat)
        events = self.game.events
        start = end = None
        for i, e in enumerate(events):
            if isinstance(e, DealStarted) and e.deal == deal:
                start = i  # the last shuffle of that deal (after any redeal)
            elif isinstance(e, DealScored) and e.deal == deal:
                end = i
        if start is None or end is None:
            raise ProtocolError("not_finished", f"deal {deal} has not been scored yet: only a "
                                                "finished deal can be replayed")
        shown = [self._encode(i, e if e.private_to in (None, seat) else e.redacted())
                 for i, e in enumerate(events[start:end + 1], start)
                 if not isinstance(e, CardDealt)]
        hands: list[list[int]] = [[] for _ in range(self.players)]
        for e in events[start:end + 1]:
            if isinstance(e, Played):
                assert e.cards is not None  # the game's own record hides no cards
                hands[e.seat].extend(e.cards)
        return {"type": "replay", "protocol": PROTOCOL_VERSION, "deal": deal, "events": shown,
                "played": [cards_text(sorted(h, reverse=True)) for h in hands]}

    # ----------------------------------------------------------------- actions in

    def act(self, seat: int, action: dict) -> int:
        """Apply an action object for ``seat``. Refusals raise ProtocolError (code
        ``illegal`` with the engine's reason and rule); a refused action changes nothing.
        Returns the index of the first event it caused."""
        self._check_seat(seat)
        if self.game.over:
            raise ProtocolError("game_over", "the game is over")
        a = decode_action(action, seat)
        first = len(self.game.events)
        try:
            self.game.apply(a)
        except IllegalAction as e:
            raise ProtocolError("illegal", str(e), e.reason, e.rule) from None
        except ShengjiError as e:
            raise ProtocolError("bad_cards", str(e)) from None
        self._annotate(first)
        return first

    def advice(self, seat: int, advisor: str = "heuristic") -> dict:
        """The ``advice`` message for ``seat`` (to act now): the action the ``advisor`` bot
        would take in its place, seeing exactly the seat's ``state`` message, and why."""
        self._check_seat(seat)
        if self.game.over:
            raise ProtocolError("game_over", "the game is over")
        if self.game.to_act != seat:
            raise ProtocolError("not_your_turn", f"advice is for the seat to act; seat "
                                                 f"{self.game.to_act} is to act")
        key = (seat, advisor)
        bot = self._advisors.get(key)
        if bot is None:
            bot = self._advisors[key] = ProtocolBot(
                make_bot(advisor, self.variant, seed=f"{self.seed}:advice:{seat}"), seat)
        action, reason = bot.advise(self.state(seat))
        return {"type": "advice", "protocol": PROTOCOL_VERSION, "seat": seat,
                "action": action, "reason": reason}

    def bot_to_act(self) -> int | None:
        seat = self.game.to_act
        return seat if seat is not None and seat in self.bots and not self.game.over else None

    def step_bot(self) -> bool:
        """Let the bot to act (if any) act once, through the protocol. True if one did."""
        seat = self.bot_to_act()
        if seat is None:
            return False
        self.act(seat, self.bots[seat].act(self.state(seat)))
        return True

    def run_bots(self, limit: int | None = None) -> int:
        """Let bots act until a client seat is to act or the game is over."""
        n = 0
        while (limit is None or n < limit) and self.step_bot():
            n += 1
        return n
