"""One module per ``shengji`` subcommand; shared argument helpers live here."""

from __future__ import annotations


def add_seats_argument(p) -> None:
    """``--seats N`` (also ``--players-count N``): play the variant at N seats; its
    ``by_players`` table gives the packs, hands and kitty (finding-friends: 5..12)."""
    p.add_argument("--seats", "--players-count", dest="seats", type=int, default=None,
                   metavar="N", help="play the variant at N seats (its by_players table "
                                     "gives packs, hand and kitty; finding-friends: 5..12)")


def add_color_arguments(p) -> None:
    """``--color`` / ``--no-color``: coloured suits forced on or off (default: only on a
    terminal)."""
    colour = p.add_mutually_exclusive_group()
    colour.add_argument("--color", dest="color", action="store_true", default=None,
                        help="coloured suits even when not on a terminal")
    colour.add_argument("--no-color", dest="color", action="store_false")


def parse_seed(text: str) -> int | str:
    """A seed as given on the command line: digits are an integer seed, anything else a
    text seed (both reproducible)."""
    return int(text) if text.lstrip("-").isdigit() else text


def open_log(path: str | None):
    """The ``--log`` file opened for writing, or None; a one-line error if it can't be."""
    if not path:
        return None
    from ..errors import ShengjiError

    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise ShengjiError(f"--log {path}: cannot write ({e.strerror})") from None
