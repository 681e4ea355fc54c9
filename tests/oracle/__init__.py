"""Pure-Python oracle of the rules core (docs/semantics.md §2–§8), for differential tests.

``OracleContext(rules, level, trump)`` mirrors ``shengji.core.Context`` on 54-count tuples
(card strings are accepted too): ``effective_suit``, ``strength``, ``compare``,
``is_trump``, ``decompose`` → [(width, length, counts)] best first, ``is_tractor``,
``check_follow`` → (ok, reason), ``legal_follows`` → set of counts, ``check_throw`` →
(valid, forced counts | None, [option counts], blocker), ``trick_winner``,
``kitty_multiplier``. Strength numbers start at 0 per effective suit: only their order and
adjacency are part of the contract.

Brute force throughout, one module per section: ``order`` (§2), ``structures`` (§3),
``follow`` (§4–§5), ``throw`` (§6), ``trick`` (§7), ``kitty`` (§8).
"""

from .context import OracleContext, as_counts

__all__ = ["OracleContext", "as_counts"]
