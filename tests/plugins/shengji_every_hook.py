"""A plugin overriding every hook with a recognisable answer, so the tests can check that
each convenience method of Variant really asks its hook (and that plugins beat the
built-ins registered trylast)."""

from shengji.hookspecs import hookimpl
from shengji.model import FailedThrow, NoBidOutcome, ScoreOutcome
from shengji.rules import PlayRules


@hookimpl
def shengji_play_rules(variant):
    return PlayRules(decks=variant.decks, throws=False)


@hookimpl
def shengji_following_priorities(variant):
    return {"pair": ["singles"]}


@hookimpl
def shengji_declaration_strength(variant, cards, level):
    return (len(cards), 99)


@hookimpl
def shengji_may_overturn(variant, current, new):
    return current is None or new.seat == 3


@hookimpl
def shengji_no_declaration(variant, deal_number, kitty, level, redeals):
    return NoBidOutcome(trump=2)


@hookimpl
def shengji_failed_throw(variant, result, leader, players):
    return FailedThrow(options=((1,),), chooser=leader, penalty=77)


@hookimpl
def shengji_kitty_multiplier(variant, context, play, lead):
    return 5


@hookimpl
def shengji_score_deal(variant, attacker_points):
    return ScoreOutcome(next="attackers", rise=7)


@hookimpl
def shengji_next_dealer(variant, dealer, outcome, players):
    return (dealer + 3) % players


@hookimpl
def shengji_first_dealer(variant, bids, players, seed):
    return players - 1


@hookimpl
def shengji_start_level(variant):
    return 5


@hookimpl
def shengji_advance(variant, level, rise, defending):
    return level + 1


@hookimpl
def shengji_dealers_back_to_start(variant, deal_level, last_play, attackers_won):
    return True


@hookimpl
def shengji_match_winner(variant, levels, outcome, dealer_team):
    return 1
