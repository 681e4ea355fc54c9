"""``shengji arena``: duplicate boards, reproducible results, the pluggable map, the log,
the statistics and bad input."""

from __future__ import annotations

import json

import pytest

from shengji.cli import main
from shengji.engine import Game
from shengji.harness.arena import (
    GameResult,
    arena,
    board_specs,
    bradley_terry,
    play_spec,
    reduce_results,
    seatings,
)


def run(capsys, *args):
    code = main(["arena", "--no-progress", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_seatings_swap_the_sides():
    assert seatings((0, 1, 0, 1)) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seatings(("a", "b", "c")) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_every_board_is_played_once_per_seating_with_the_seats_swapped():
    specs = board_specs("two-deck-80", ["heuristic", "random", "mc"], boards=3, seed=4)
    assert len(specs) == 3 * 3 * 2  # pairs x boards x seatings
    by_board: dict = {}
    for s in specs:
        by_board.setdefault((s.pair, s.board), []).append(s)
    for (pair, _), games in by_board.items():
        a, b = games
        assert a.seed == b.seed  # the same shuffle
        names = ["heuristic", "random", "mc"]
        assert set(a.seats) == {names[pair[0]], names[pair[1]]}
        for s in range(4):
            assert a.seats[s] != b.seats[s]  # every seat changes side


def test_duplicate_games_deal_the_same_cards(tmp_path, capsys):
    log = tmp_path / "arena.jsonl"
    with open(log, "w", encoding="utf-8") as f:
        arena("two-deck-80", ["heuristic", "random"], boards=2, seed=8, log=f, progress=False)
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4  # one deal per game
    for board in (0, 1):
        a, b = [ln for ln in lines if ln["board"] == board]
        assert a["game"]["seed"] == b["game"]["seed"] == a["seed"]
        assert [s for s in a["players"]] == ["heuristic", "random"] * 2
        assert [s for s in b["players"]] == ["random", "heuristic"] * 2

        def dealt(line):
            return [(e["seat"], e["card"]) for e in line["events"] if e["type"] == "CardDealt"]
        assert dealt(a) == dealt(b) and len(dealt(a)) == 100
        # the record replays: the serial form rebuilds the very game
        g = Game.from_dict(a["game"])
        assert g.deals_played == 1 and [e.to_dict() for e in g.events][-1] == a["events"][-1]
    # and `shengji replay` tells the arena's log as it tells simulate's
    assert main(["replay", str(log), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "trick" in out.lower()


def _strip(summary):
    summary = dict(summary)
    summary.pop("seconds")
    summary.pop("jobs")
    for r in summary["ratings"]:
        r.pop("median_decision_ms")
        r.pop("mean_decision_ms")
    return summary


def test_results_are_reproducible_from_the_seed():
    bots = ["mc:budget=60", "heuristic"]
    a = arena("one-deck-40", bots, boards=2, seed=3, progress=False)
    b = arena("one-deck-40", bots, boards=2, seed=3, progress=False, jobs=2)
    assert _strip(a) == _strip(b)
    assert a["pairs"][0]["deals"] == 4 and a["bot_options"][0]["budget"] == "60"


def test_a_custom_mapper_runs_the_games():
    """The map step is pluggable: anything with map's signature (a cluster executor)."""
    seen = []

    def mapper(fn, specs):
        for s in specs:
            seen.append(s)
            yield fn(s)

    s = arena("two-deck-80", ["heuristic", "random"], boards=2, seed=1, progress=False,
              mapper=mapper)
    assert len(seen) == 4 and s["pairs"][0]["games"] == 4


def test_reduce_statistics_on_known_results():
    # board 0: side 0 gains 2 then 1 (both seatings); board 1: side 0 loses 1 level once
    results = [
        GameResult((0, 1), 0, 0, deals=[(2, 0, 0)]),
        GameResult((0, 1), 0, 1, deals=[(1, 0, 0)]),
        GameResult((0, 1), 1, 0, deals=[(0, 1, 1)]),
        GameResult((0, 1), 1, 1, deals=[(3, 0, 0)]),
    ]
    s = reduce_results(results, ["a", "b"])
    p = s["pairs"][0]
    assert p["deals"] == 4 and p["boards"] == 2
    assert p["level_difference_per_deal"] == pytest.approx((1.5 + 1.0) / 2)
    assert p["deal_win_rate"] == 0.75
    lo, hi = p["deal_win_rate_95"]
    assert lo < 0.75 < hi
    assert s["ratings"][0]["elo"] > 0 > s["ratings"][1]["elo"]


def test_bradley_terry_orders_three_bots():
    boards = {(0, 1): [(8, 10)] * 10, (0, 2): [(9, 10)] * 10, (1, 2): [(7, 10)] * 10}
    r = bradley_terry(3, boards)
    assert r[0][0] > r[1][0] > r[2][0]
    assert abs(sum(x[0] for x in r)) < 1e-6
    for elo, lo, hi in r:
        assert lo <= elo <= hi


def test_play_spec_one_deal():
    spec = board_specs("two-deck-80", ["heuristic", "random"], boards=1, seed=2)[0]
    res = play_spec(spec)
    assert len(res.deals) == 1 and res.match_winner is None
    g0, g1, side = res.deals[0]
    assert side in (0, 1) and (g0 if side == 0 else g1) >= 0


def test_cli_table_and_json(capsys):
    code, out, err = run(capsys, "heuristic", "random", "--deals", "3", "--seed", "2")
    assert code == 0, err
    assert "heuristic vs random" in out and "Elo" in out and "levels/deal" in out
    code, out, _ = run(capsys, "--bots", "heuristic,random", "--deals", "2", "--json")
    s = json.loads(out)
    assert code == 0 and s["pairs"][0]["deals"] == 4 and len(s["ratings"]) == 2


def test_cli_whole_matches(capsys):
    code, out, err = run(capsys, "heuristic", "random", "--matches", "1", "--seed", "1",
                         "--json")
    assert code == 0, err
    p = json.loads(out)["pairs"][0]
    assert p["matches"] + p["matches_capped"] == 2 and "match_win_rate_95" in p


@pytest.mark.parametrize("args,message", [
    (["mcts", "random"], "unknown bot 'mcts'; bots: "),
    (["mc:budgt=1", "random"], "unknown option 'budgt' for bot 'mc'"),
    (["heuristic"], "at least two bots"),
    (["heuristic", "random", "--deals", "0"], "--deals 0"),
    (["heuristic", "random", "--jobs", "0"], "--jobs"),
])
def test_bad_input_is_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_finding_friends_rotates_one_seat_against_the_rest():
    """Every seat its own team: each board is played once per seat, that seat taking
    the first bot; levels count per seat."""
    specs = board_specs("finding-friends", ["heuristic", "random"], boards=1, seed=1)
    assert [s.sides for s in specs] == [tuple(0 if i == r else 1 for i in range(5))
                                        for r in range(5)]
    s = arena("finding-friends", ["heuristic", "random"], boards=4, seed=2, progress=False)
    p = s["pairs"][0]
    assert p["deals"] == 20 and p["games"] == 20
    assert -4 <= p["level_difference_per_deal"] <= 4 and 0 <= p["deal_win_rate"] <= 1


def test_seats_plays_the_variant_at_another_table(tmp_path, capsys):
    """``--seats N`` means what it means in ``simulate``: the variant's by_players entry
    for N seats; the workers load (name, seats), the log's records replay at N seats."""
    log = tmp_path / "ff7.jsonl"
    code, out, err = run(capsys, "heuristic", "random", "--variant", "finding-friends",
                         "--seats", "7", "--deals", "1", "--seed", "3", "--json",
                         "--log", str(log), "--jobs", "2")
    assert code == 0, err
    s = json.loads(out)
    assert s["seats"] == 7 and s["variant"] == "finding-friends"
    assert s["pairs"][0]["games"] == 7  # one seating per seat (every seat its own team)
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 7 and all(len(ln["players"]) == 7 for ln in lines)
    dealt = [e for e in lines[0]["events"] if e["type"] == "CardDealt"]
    assert len(dealt) == 7 * 14  # pagat's seven-player row: 14 cards each
    g = Game.from_dict(lines[0]["game"])
    assert g.players == 7 and g.deals_played == 1
    code, out, err = run(capsys, "heuristic", "random", "--variant", "finding-friends",
                         "--players-count", "6", "--deals", "1")
    assert code == 0, err
    assert "finding-friends (6 seats)" in out.splitlines()[0]
    specs = board_specs(("finding-friends", 9), ["heuristic", "random"], boards=1)
    assert len(specs) == 9 and specs[0].variant == ("finding-friends", 9)


@pytest.mark.parametrize("args,message", [
    (["--variant", "finding-friends", "--seats", "13"],
     "players: 13 is not a table size (2..12 seats)"),
    (["--variant", "finding-friends", "--seats", "4"],
     "players: 4: this variant seats 5, 6, 7, 8, 9, 10, 11, 12"),
    (["--seats", "6"], "teams: 4 entries for 6 players"),
])
def test_seats_the_variant_cannot_seat_is_one_line(capsys, args, message):
    """The same validation as ``simulate --seats``: one line naming the count."""
    code, out, err = run(capsys, "heuristic", "random", "--deals", "1", *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    code, out, err2 = capsys_simulate(capsys, *args)
    assert code == 2 and message in err2


def capsys_simulate(capsys, *args):
    code = main(["simulate", "--no-progress", "--deals", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err
