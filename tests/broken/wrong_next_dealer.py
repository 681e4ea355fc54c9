"""A next-dealer rule that keeps the deal on the dealer's side even when the attackers
take over (docs/rules.md §8: the player after the dealer deals next)."""

from shengji.hookspecs import hookimpl


@hookimpl
def shengji_next_dealer(variant, dealer, outcome, players):
    return (dealer + 2) % players
