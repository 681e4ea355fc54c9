"""Helpers shared by the engine tests: play a game with bots and check the invariants of
the issue after every action. (No tests here.)

Invariants (issue 4, "Must show"):
- every play is legal by the core: a lead is one effective suit, a throw that stood was
  valid against the other hands (``check_throw``), a follow passes ``check_follow``;
- cards are conserved: hands + undealt + kitty/buried + played = the deck's composition;
- points never exceed the decks' total plus the kitty bonus (plus penalties gained);
- every deal ends: a bounded number of actions, every seat plays its whole hand.
"""

from __future__ import annotations

from shengji.cards import NUM_KINDS, point_value
from shengji.core import Hand
from shengji.engine import (
    DealScored,
    DealStarted,
    ForcedChosen,
    Game,
    Played,
    ThrowFailed,
    TrickWon,
)


class InvariantError(AssertionError):
    pass


def _require(cond, msg):
    if not cond:
        raise InvariantError(msg)


def check_conservation(game: Game) -> None:
    full = list(game.composition.counts)
    total = [sum(h[k] for h in game.hands) for k in range(NUM_KINDS)]
    if game.phase == "deal":
        for c in game._deck[game._dealt:]:
            total[c] += 1
    elif game.phase == "bury":
        pass  # the kitty is in the dealer's hand
    elif game.phase == "redeal":  # a weak hand may ask for a redeal: the kitty set aside
        for c in game._redeal_kitty:
            total[c] += 1
    else:
        total = [t + b + p for t, b, p in zip(total, game.buried, game.played, strict=True)]
    _require(total == full, f"cards not conserved in phase {game.phase}: "
                            f"{sum(total)} cards instead of {sum(full)}")
    for seat in range(game.players):
        _require(sum(game.hands[seat]) == game.hand_len[seat], f"hand_len of seat {seat} is off")
    if game.phase == "play" and not game.trick:
        _require(len(set(game.hand_len)) == 1, f"unequal hands at a trick start: {game.hand_len}")


def check_events(game: Game, before: dict, events: list) -> None:
    """Check what one action caused, against the state just before it."""
    ctx = before["ctx"]
    hands = before["hands"]
    trick = list(before["trick"])
    max_points = game.composition.points
    throw_options = before["options"]
    chosen = None
    for ev in events:
        if isinstance(ev, ThrowFailed):
            others = [hands[(ev.seat + i) % game.players] for i in range(1, game.players)]
            res = ctx.check_throw(ev.attempted, [Hand.from_counts(h) for h in others])
            _require(not res.valid, f"throw {ev.attempted} was refused but the core says valid")
            throw_options = ev.options
        elif isinstance(ev, ForcedChosen):
            chosen = throw_options[ev.option]
        elif isinstance(ev, Played):
            hand = hands[ev.seat]
            for c in ev.cards:
                _require(hand[c] > 0, f"seat {ev.seat} played {c} it did not hold")
            if ev.lead:
                comps = ctx.decompose(ev.cards)  # raises on several suits
                if chosen is not None:
                    _require(ev.cards == chosen, "the chosen forced play was not played")
                elif throw_options is not None:
                    _require(ev.cards in throw_options, "a failed throw played a non-option")
                elif len(comps) > 1:
                    others = [Hand.from_counts(hands[(ev.seat + i) % game.players])
                              for i in range(1, game.players)]
                    _require(ctx.check_throw(ev.cards, others).valid,
                             f"throw {ev.cards} stood though the core finds it beaten")
                trick = [ev.cards]
                throw_options = None
            else:
                res = ctx.check_follow(trick[0], Hand.from_counts(hand), ev.cards)
                _require(res.ok, f"illegal follow by seat {ev.seat}: {res.reason} {res.detail}")
                trick.append(ev.cards)
            for c in ev.cards:
                hand[c] -= 1
        elif isinstance(ev, TrickWon):
            _require(0 <= ev.attacker_points <= max_points,
                     f"attackers' trick points {ev.attacker_points} out of range")
            _require(ev.points == sum(point_value(c) for p in trick for c in p),
                     "trick points do not match the cards")
        elif isinstance(ev, DealScored):
            _require(ev.kitty_points <= max_points and ev.trick_points <= max_points,
                     "points above the decks' total")
            _require(ev.kitty_bonus == ev.kitty_points * ev.multiplier, "kitty bonus wrong")
            raw = ev.trick_points + ev.kitty_bonus + ev.penalty
            below = (game.variant.settings.get("scoring") or {}).get("below_zero")
            _require(ev.attacker_points == (raw if below else max(0, raw)),
                     "attacker points do not add up")
            _require(ev.attacker_points <= max_points + ev.kitty_bonus + max(ev.penalty, 0),
                     f"attacker points {ev.attacker_points} above decks + kitty bonus")
            _require(len(ev.kitty) == game.kitty_size, "kitty size changed")
        elif isinstance(ev, DealStarted):
            hands = [[0] * NUM_KINDS for _ in range(game.players)]


def snapshot_before(game: Game) -> dict:
    return {
        "ctx": game.ctx,
        "hands": [list(h) for h in game.hands],
        "trick": [c for _, c in game.trick],
        "options": game._choice[1] if game._choice else None,
    }


def run_checked(game: Game, bots, *, deal_action_cap: int | None = None) -> int:
    """Play to the end with invariants after every action; return the number of actions."""
    cap = deal_action_cap or 4 * game.players * game.hand_size + 200
    actions_this_deal = 0
    n = 0
    deals = game.deals_played
    check_conservation(game)
    while not game.over:
        seat = game.to_act
        legal = game.legal_actions(seat)
        _require(legal.kind != "none", "no legal action for the seat to act")
        action = bots[seat].act(game.view(seat), legal)
        before = snapshot_before(game)
        events = game.apply(action)
        n += 1
        check_events(game, before, events)
        check_conservation(game)
        if game.deals_played != deals:
            deals = game.deals_played
            actions_this_deal = 0
        else:
            actions_this_deal += 1
            _require(actions_this_deal <= cap, f"a deal did not end within {cap} actions")
    return n
