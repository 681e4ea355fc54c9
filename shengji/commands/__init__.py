"""One module per ``shengji`` subcommand; shared argument helpers live here."""

from __future__ import annotations


def add_seats_argument(p) -> None:
    """``--seats N`` (also ``--players-count N``): play the variant at N seats; its
    ``by_players`` table gives the packs, hands and kitty (finding-friends: 5..12)."""
    p.add_argument("--seats", "--players-count", dest="seats", type=int, default=None,
                   metavar="N", help="play the variant at N seats (its by_players table "
                                     "gives packs, hand and kitty; finding-friends: 5..12)")
