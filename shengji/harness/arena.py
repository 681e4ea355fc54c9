"""Bots against bots, measured honestly: duplicate deals, seat rotation, intervals, ratings.

Every pair of bots in the list plays ``boards`` boards. A board is one shuffle (one game
seed) played once per *seating*: with a variant of T teams, seating t gives the first
bot of the pair the seats of team t and the second bot every other seat. With two teams
that is the deal played twice with the sides swapped (duplicate deals), so the luck of
the cards cancels; with finding friends (every seat its own team) each seat takes the
first bot in turn. A deal's levels count per seat (a side's levels are its seats'
average rise) and a side wins a deal when a larger share of its seats rose. A board is
one deal (``matches=False``: the first deal of a match, both sides at the start level)
or a whole match.

The work is three steps, kept apart so that another executor can run the middle one
(processes here; a cluster elsewhere):

    specs = board_specs(...)            # what to play: a list of picklable DealSpec
    results = mapper(play_spec, specs)  # play them (any map: builtin, a Pool, Ray, ...)
    summary = reduce_results(results, ...)   # one reduce step: tables, intervals, ratings

``arena(...)`` does all three with ``--jobs`` processes. Seeds depend only on (seed,
board, seating, seat), never on the executor, so results are reproducible from the seed
whenever the bots are (a bot with a time budget is not).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..engine.events import DealScored, DealStarted, MatchOver
from ..errors import ShengjiError
from .simulation import MATCH_DEAL_CAP, Progress, _load, wilson

#: bootstrap resamples of the boards for the rating intervals
BOOTSTRAP = 200
Z95 = 1.96


@dataclass(frozen=True)
class DealSpec:
    """One game to play: a board of a pair in one seating."""

    variant: str | tuple   # a variant name or path, or (name, seats) for --seats
    seed: str              # the game seed (the board's shuffle)
    pair: tuple            # indexes of the two bots in the arena's list
    board: int
    seating: int
    seats: tuple           # bot spec per seat
    sides: tuple           # per seat: 0 = the pair's first bot, 1 = the second
    matches: bool          # a whole match (else one deal)
    log: bool


@dataclass
class GameResult:
    """What one game gives the reduce step."""

    pair: tuple
    board: int
    seating: int
    #: per scored deal: (levels gained per seat by side 0, by side 1, the side with the
    #: larger share of its seats rising, or None on equal shares)
    deals: list = field(default_factory=list)
    match_winner: int | None = None   # side, in matches mode
    capped: bool = False
    #: per side: CPU seconds of each lead/follow decision
    times: tuple = ((), ())
    log: str | None = None
    #: per scored deal: (attackers' points, the attacking side) — for --plot
    points: list = field(default_factory=list)


def seatings(teams: tuple) -> list[tuple]:
    """Per seating, the side (0 or 1) of every seat: side 0 takes one team's seats."""
    team_ids = list(dict.fromkeys(teams))
    if len(team_ids) < 2:
        raise ShengjiError("arena: the variant needs at least two teams")
    return [tuple(0 if t == tid else 1 for t in teams) for tid in team_ids]


def board_specs(variant_ref, bots: list[str], *, boards: int, seed=0, matches: bool = False,
                log: bool = False) -> list[DealSpec]:
    """Every pair of ``bots`` (by index, i < j) × ``boards`` boards × every seating."""
    variant = _load(variant_ref)
    rotations = seatings(tuple(variant.teams))
    specs = []
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            for b in range(boards):
                for r, sides in enumerate(rotations):
                    seats = tuple(bots[i] if s == 0 else bots[j] for s in sides)
                    specs.append(DealSpec(_ref(variant_ref), f"{seed}/{b}", (i, j), b, r, seats,
                                          sides, matches, log))
    return specs


def _ref(variant_ref):
    """What a worker loads: a name or path as text, ``(name, seats)`` kept as a tuple."""
    if isinstance(variant_ref, tuple):
        return (str(variant_ref[0]), variant_ref[1])
    return str(variant_ref)


class _Timed:
    """A bot whose lead/follow decisions are timed."""

    __slots__ = ("bot", "times")

    def __init__(self, bot, times: list):
        self.bot, self.times = bot, times

    def act(self, view, legal):
        if legal.kind in ("lead", "follow"):
            # CPU time of this process: on a shared machine wall time measures the load
            t = time.process_time()
            a = self.bot.act(view, legal)
            self.times.append(time.process_time() - t)
            return a
        return self.bot.act(view, legal)


def play_spec(spec: DealSpec) -> GameResult:
    """Play one game of the arena (runs in any worker: everything comes from ``spec``)."""
    from ..bots import make_bot
    from ..engine.game import Game
    from ..engine.runner import play

    variant = _load(spec.variant)
    game = Game(variant, spec.seed, max_deals=MATCH_DEAL_CAP if spec.matches else 1)
    times: tuple = ([], [])
    bots = [_Timed(make_bot(name, variant, f"{spec.seed}/{spec.seating}/{s}"),
                   times[spec.sides[s]]) for s, name in enumerate(spec.seats)]
    play(game, bots)
    side_of_team = {}
    for s, t in enumerate(game.teams):
        side_of_team[t] = spec.sides[s]
    n_side = [spec.sides.count(0), spec.sides.count(1)]
    res = GameResult(spec.pair, spec.board, spec.seating, times=(tuple(times[0]),
                                                                 tuple(times[1])))
    events = []
    start = 0
    for i, ev in enumerate(game.events):
        if isinstance(ev, DealStarted) and ev.attempt == 0:
            start = i
        elif isinstance(ev, DealScored):
            # each arena side: the share of its seats among those that rose, and the
            # levels its seats gained on average (with fixed teams of equal size: the
            # rising side's rise, and 0)
            shares = [0.0, 0.0]
            for st in set(ev.rising):
                shares[spec.sides[st]] += 1 / n_side[spec.sides[st]]
            won = 0 if shares[0] > shares[1] else 1 if shares[1] > shares[0] else None
            res.deals.append((_level(ev.rise * shares[0]), _level(ev.rise * shares[1]), won))
            res.points.append((ev.attacker_points, 1 - side_of_team[game.teams[ev.dealer]]))
            if spec.log:
                events.append({"deal": ev.deal,
                               "events": [e.to_dict() for e in game.events[start:i + 1]]})
        elif isinstance(ev, MatchOver):
            res.match_winner = side_of_team[ev.winner]
    res.capped = spec.matches and game.winner is None
    if spec.log:
        # one line per deal, as `shengji simulate --log` writes them (shengji replay
        # reads both); the game's last line also holds its record (Game.from_dict)
        lines = []
        for n, d in enumerate(events):
            line = {"seed": spec.seed, "deal": d["deal"], "pair": list(spec.pair),
                    "board": spec.board, "seating": spec.seating, "players": list(spec.seats),
                    "events": d["events"]}
            if n == len(events) - 1:
                line["game"] = game.to_dict()
            lines.append(json.dumps(line, ensure_ascii=False))
        res.log = "\n".join(lines)
    return res


def _level(x: float):
    """Levels as an int when whole (fixed teams), else rounded (a side's seat average)."""
    return int(x) if x == int(x) else round(x, 4)


# ------------------------------------------------------------------ running


def local_mapper(jobs: int) -> Callable:
    """``map`` for one job, else a process pool's ordered ``imap`` (the pool lives as
    long as the iteration)."""
    if jobs <= 1:
        return map

    def pool_map(fn, items):
        import multiprocessing as mp

        with mp.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(fn, items, chunksize=1)
    return pool_map


def arena(variant_ref, bots: list[str], *, boards: int = 100, seed=0, matches: bool = False,
          jobs: int = 1, log=None, progress: bool | None = None,
          mapper: Callable | None = None) -> dict:
    """Play the arena and return its summary (``reduce_results``). ``log`` (a text file)
    receives one JSON line per deal, as ``shengji simulate --log`` writes them (``seed``,
    ``deal``, ``events``; ``shengji replay`` tells them) with the board, seating and seat
    list; a game's last line also holds its serial form (``game``, which
    ``Game.from_dict`` replays). ``mapper(fn, specs)`` runs
    the games (default: ``local_mapper(jobs)``)."""
    from ..bots import describe, parse_spec

    variant = _load(variant_ref)
    if len(bots) < 2:
        raise ShengjiError("arena: name at least two bots (e.g. mc,heuristic)")
    for spec in bots:
        parse_spec(spec)  # unknown names and options fail here, before any process starts
    if boards < 1:
        raise ShengjiError(f"arena: {boards} boards; needs at least 1")
    specs = board_specs(variant_ref, bots, boards=boards, seed=seed, matches=matches,
                        log=log is not None)
    bar = Progress(len(specs), "matches" if matches else "deals", enabled=progress)
    t0 = time.perf_counter()
    results = []
    for res in (mapper or local_mapper(jobs))(play_spec, specs):
        results.append(res)
        if log is not None and res.log is not None:
            log.write(res.log + "\n")
        bar.update(1)
    bar.close()
    summary = reduce_results(results, bots, variant=variant.name, seed=seed, matches=matches)
    summary["seats"] = variant.players
    summary["bot_options"] = [describe(b) for b in bots]
    summary["seconds"] = time.perf_counter() - t0
    summary["jobs"] = getattr(mapper, "workers", jobs)
    summary["backend"] = getattr(mapper, "backend", "local")
    return summary


# ------------------------------------------------------------------ the reduce step


def _mean_interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(xs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    half = Z95 * statistics.stdev(xs) / math.sqrt(n)
    return mean, mean - half, mean + half


def reduce_results(results: Iterable[GameResult], bots: list[str], *, variant: str = "",
                   seed=0, matches: bool = False) -> dict:
    """Tables per pair and ratings from the games' results (order does not matter)."""
    by_pair: dict = {}
    times: dict = {i: [] for i in range(len(bots))}
    # for --plot: attackers' points by the attacking bot, levels gained per deal by bot
    points_hist: dict = {i: {} for i in range(len(bots))}
    rise_hist: dict = {i: {} for i in range(len(bots))}
    for r in results:
        by_pair.setdefault(tuple(r.pair), []).append(r)
        times[r.pair[0]].extend(r.times[0])
        times[r.pair[1]].extend(r.times[1])
        for pts, side in r.points:
            h = points_hist[r.pair[side]]
            h[pts] = h.get(pts, 0) + 1
        for gains in r.deals:
            for side in (0, 1):
                h = rise_hist[r.pair[side]]
                h[gains[side]] = h.get(gains[side], 0) + 1
    pairs = []
    wins_matrix: dict = {}
    for (i, j), rs in sorted(by_pair.items()):
        boards: dict = {}
        for r in rs:
            boards.setdefault(r.board, []).append(r)
        board_diff = []  # per board: mean over its deals of (side 0 levels - side 1 levels)
        board_wins = []  # per board: (deals won by side 0, deals)
        deals = won = 0
        levels = [0, 0]
        m_played = m_won = capped = 0
        for b in sorted(boards):
            d_sum = d_n = w = 0
            for r in boards[b]:
                for g0, g1, side in r.deals:
                    d_sum += g0 - g1
                    d_n += 1
                    w += side == 0
                    levels[0] += g0
                    levels[1] += g1
                if r.match_winner is not None:
                    m_played += 1
                    m_won += r.match_winner == 0
                capped += r.capped
            if d_n:
                board_diff.append(d_sum / d_n)
                board_wins.append((w, d_n))
            deals += d_n
            won += w
        mean, lo, hi = _mean_interval(board_diff)
        wlo, whi = wilson(won, deals)
        entry = {
            "bots": [bots[i], bots[j]],
            "boards": len(boards),
            "games": len(rs),
            "deals": deals,
            "levels_per_deal": [levels[0] / max(deals, 1), levels[1] / max(deals, 1)],
            "level_difference_per_deal": mean,
            "level_difference_95": [lo, hi],
            "deal_win_rate": won / max(deals, 1),
            "deal_win_rate_95": list((wlo, whi)),
        }
        if matches:
            mlo, mhi = wilson(m_won, m_played)
            entry.update({"matches": m_played, "matches_capped": capped,
                          "match_win_rate": m_won / max(m_played, 1),
                          "match_win_rate_95": [mlo, mhi]})
        pairs.append(entry)
        wins_matrix[(i, j)] = board_wins
    ratings = bradley_terry(len(bots), wins_matrix)
    per_bot = []
    for i, spec in enumerate(bots):
        ts = times[i]
        per_bot.append({"bot": spec, "elo": ratings[i][0], "elo_95": list(ratings[i][1:]),
                        "decisions": len(ts),
                        "median_decision_ms": 1000 * statistics.median(ts) if ts else None,
                        "mean_decision_ms": 1000 * sum(ts) / len(ts) if ts else None})
    return {"variant": variant, "seed": seed, "bots": list(bots),
            "mode": "matches" if matches else "deals", "pairs": pairs, "ratings": per_bot,
            "attacker_points_histogram": [
                {str(k): n for k, n in sorted(points_hist[i].items())} for i in range(len(bots))],
            "levels_histogram": [
                {str(k): n for k, n in sorted(rise_hist[i].items())} for i in range(len(bots))]}


def _bt_fit(n: int, wins: dict) -> list[float]:
    """Bradley-Terry strengths by the MM algorithm (Hunter 2004) on win counts
    ``wins[(i, j)] = (i's wins over j, games)``; returned as Elo (mean 0), within ±800."""
    # a prior of one drawn game (half a win each way) per pair that met keeps all-win
    # records finite
    wn = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (i, j), (a, g) in wins.items():
        wn[i][j] += a + 0.5
        wn[j][i] += g - a + 0.5
        games[i][j] += g + 1
        games[j][i] += g + 1
    p = [1.0] * n
    for _ in range(500):
        new = []
        for i in range(n):
            num = sum(wn[i])
            den = sum(games[i][j] / (p[i] + p[j]) for j in range(n) if j != i and games[i][j])
            new.append(num / den if den else p[i])
        g = math.exp(sum(math.log(max(x, 1e-300)) for x in new) / n)
        new = [x / g for x in new]
        if max(abs(a - b) for a, b in zip(new, p, strict=True)) < 1e-10:
            p = new
            break
        p = new
    elo = [400 * math.log10(max(x, 1e-300)) for x in p]
    mean = sum(elo) / n
    return [max(min(e - mean, 800.0), -800.0) for e in elo]


def bradley_terry(n: int, boards: dict) -> list[tuple[float, float, float]]:
    """Elo-scale Bradley-Terry ratings from deal wins, with 95% bootstrap intervals
    (boards resampled within each pair; a fixed seed, so the same results give the same
    intervals). ``boards[(i, j)]``: per board, (deals won by i, deals)."""
    def totals(bs):
        return (sum(a for a, _ in bs), sum(g for _, g in bs))

    point = _bt_fit(n, {k: totals(v) for k, v in boards.items() if v})
    rng = random.Random(0)
    samples = []
    for _ in range(BOOTSTRAP):
        resampled = {}
        for k, bs in boards.items():
            if bs:
                resampled[k] = totals([bs[rng.randrange(len(bs))] for _ in bs])
        samples.append(_bt_fit(n, resampled))
    out = []
    for i in range(n):
        xs = sorted(s[i] for s in samples)
        lo = xs[int(0.025 * (len(xs) - 1))]
        hi = xs[int(math.ceil(0.975 * (len(xs) - 1)))]
        out.append((point[i], lo, hi))
    return out


# ------------------------------------------------------------------ the table


def format_summary(s: dict) -> str:
    seats = f" ({s['seats']} seats)" if "seats" in s else ""
    lines = [f"arena · {s['variant']}{seats} · seed {s['seed']} · {s['mode']}"]
    head: tuple[str, ...] = ("pair", "boards", "deals", "levels/deal (95%)", "deal win (95%)")
    if s["mode"] == "matches":
        head += ("match win (95%)",)
    rows = [head]
    for p in s["pairs"]:
        a, b = p["bots"]
        lo, hi = p["level_difference_95"]
        wlo, whi = p["deal_win_rate_95"]
        row: tuple[str, ...] = (f"{a} vs {b}", str(p["boards"]), str(p["deals"]),
               f"{p['level_difference_per_deal']:+.3f} ({lo:+.3f}, {hi:+.3f})",
               f"{p['deal_win_rate']:.3f} ({wlo:.3f}, {whi:.3f})")
        if s["mode"] == "matches":
            mlo, mhi = p["match_win_rate_95"]
            row += (f"{p['match_win_rate']:.3f} ({mlo:.3f}, {mhi:.3f}) of {p['matches']}",)
        rows.append(row)
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    for r in rows:
        lines.append("  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip())
    lines.append("")
    rrows: list[tuple[str, ...]] = [("bot", "Elo (95%)", "decisions", "median CPU ms")]
    for r in s["ratings"]:
        lo, hi = r["elo_95"]
        med = r["median_decision_ms"]
        rrows.append((r["bot"], f"{r['elo']:+.0f} ({lo:+.0f}, {hi:+.0f})", str(r["decisions"]),
                      "—" if med is None else f"{med:.2f}"))
    widths = [max(len(r[c]) for r in rrows) for c in range(4)]
    for r in rrows:
        lines.append("  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip())
    if "seconds" in s:
        where = (f"{s['jobs']} Ray worker(s)" if s.get("backend") == "ray"
                 else f"{s['jobs']} job(s)")
        lines.append(f"\n{s['seconds']:.1f} s with {where}")
    lines.append("levels/deal: the first bot's levels minus the second's, per deal (duplicate "
                 "boards); deal win: deals where the first bot's side rose or kept/took the "
                 "deal")
    return "\n".join(lines)
