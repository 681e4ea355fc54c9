"""A variant file with tables of 4..12 seats (pagat "Zhao Pengyou": packs, jokers and
cards each per player count), for the research environments' seat-count tests."""

import yaml

#: players → (packs, red jokers, black jokers, cards each, teams)
TABLES = {4: (2, 2, 2, 25, [0, 1] * 2), 5: (2, 2, 2, 20, [0, 1, 2, 3, 4]),
          6: (2, 2, 2, 17, [0, 1] * 3), 8: (3, 2, 0, 19, [0, 1] * 4),
          12: (4, 2, 0, 17, [0, 1] * 6)}


def write_tables(path) -> str:
    table = {"name": "research-tables", "players": 4,
             "by_players": {p: {"deck": {"packs": packs, "big_jokers": red,
                                         "little_jokers": black},
                                "hand_size": each,
                                "kitty_size": 52 * packs + red + black - p * each,
                                "teams": teams}
                            for p, (packs, red, black, each, teams) in TABLES.items()}}
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(table, f)
    return str(path)
