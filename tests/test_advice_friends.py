"""The advisor and the bots know the friend calls (finding friends): the dealer does not
lead its own called card (which would use the call up, finding no friend) when another
lead is as good, and no advice speaks of a partner before one is known."""

from __future__ import annotations

from shengji.bots import make_bot
from shengji.cards import card_str, parse_cards
from shengji.engine import Game
from shengji.engine.actions import CallFriends


def to_call_phase(seed):
    g = Game("finding-friends", seed, max_deals=1)
    bots = [make_bot("heuristic", g.variant, s) for s in range(g.players)]
    while g.phase != "call":
        s = g.to_act
        g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    return g


def first_lead_advice(g, calls):
    g = g.copy()
    dealer = g.to_act
    g.apply(CallFriends(dealer, tuple(calls)))
    assert g.to_act == dealer and g.legal_actions(dealer).kind == "lead"
    bot = make_bot("heuristic", g.variant, 7)
    return bot.advise(g.view(dealer), g.legal_actions(dealer))


def plain_aces(g, seat):
    view = g.view(seat)
    ctx = g.variant.context(view.level, view.trump)
    return [k for k in parse_cards("SA HA CA DA") if view.hand[k] and not ctx.is_trump(k)]


def test_the_dealer_keeps_its_own_called_card_when_another_lead_is_as_good():
    checked = 0
    for seed in range(60):
        g = to_call_phase(seed)
        dealer, legal = g.to_act, g.legal_actions(g.to_act)
        hand = g.view(dealer).hand
        aces = plain_aces(g, dealer)
        if legal.count != 1 or len(aces) < 2:
            continue
        # a call of a card the dealer does not hold: its lead is its own choice
        free = next(a.calls for a in legal if not hand[a.calls[0][1]])
        action, reason = first_lead_advice(g, free)
        led = action.cards
        if not (len(led) == 1 and led[0] in aces and reason == "nobody can beat this lead"):
            continue
        # now the dealer calls that very card ("the first ♠A played"): leading it would
        # fulfil the call by the dealer itself, so the call would find nobody
        k = led[0]
        action, reason = first_lead_advice(g, [(1, k)])
        assert k not in action.cards, (seed, card_str(k), action, reason)
        assert reason == "nobody can beat this lead", reason  # another ace, as good
        checked += 1
        if checked == 3:
            break
    assert checked, "no deal where the dealer leads an ace and holds another"


def test_no_partner_in_advice_before_a_partner_is_known():
    spoke = 0
    for seed in range(3):
        g = Game("finding-friends", f"partner-{seed}", max_deals=1)
        bots = [make_bot("heuristic", g.variant, s) for s in range(g.players)]
        while not g.over:
            s = g.to_act
            view, legal = g.view(s), g.legal_actions(s)
            _, reason = bots[s].advise(view, legal)
            if "partner" in reason:
                assert any(view.same_side(o, s) for o in range(g.players) if o != s), (
                    seed, s, reason, view.side)
            if legal.kind in ("lead", "follow") and reason.startswith(("the dealer", "partner")):
                spoke += 1
            g.apply(bots[s].act(view, legal))
    assert spoke  # the rule was exercised: advice about a winning ally was given
