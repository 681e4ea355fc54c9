"""Play many deals or matches with bots, in parallel processes, and summarise them.

Work is cut into *units* whose seeds depend only on (seed, unit index), never on the
number of processes, so ``--jobs`` changes the speed and nothing else. A deals-run unit
plays ``UNIT_DEALS`` consecutive deals of matches (a new match starts when one ends); a
matches-run unit plays one whole match.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

# absolute: this module may move within the package; arena imports Progress from here
from shengji.progress import Progress

from ..engine.events import DealScored, DealStarted, MatchOver, ThrowFailed
from ..errors import ArgumentError, ShengjiError

UNIT_DEALS = 20
#: a match that has not ended after this many deals is abandoned (counted, reported)
MATCH_DEAL_CAP = 2000


@dataclass
class Stats:
    """Sums over scored deals; ``summary()`` turns them into rates."""

    deals: int = 0
    holds: int = 0
    attacker_points: int = 0
    kitty_bonus_deals: int = 0
    kitty_bonus_points: int = 0
    failed_throws: int = 0
    rise_dealers: int = 0
    rise_attackers: int = 0
    takeovers: int = 0
    matches: int = 0
    matches_capped: int = 0
    actions: int = 0
    #: per team label ("heuristic", "random", ...): levels gained, deals won, match wins
    team_levels: dict = field(default_factory=dict)
    team_deals_won: dict = field(default_factory=dict)
    team_deals: dict = field(default_factory=dict)
    team_match_wins: dict = field(default_factory=dict)
    #: per-deal level difference (first label minus the others) for intervals
    diff_sum: float = 0.0
    diff_sq: float = 0.0
    #: deals by attackers' points; deals by "dealers:RISE" / "attackers:RISE" (the plots)
    points_hist: dict = field(default_factory=dict)
    rise_hist: dict = field(default_factory=dict)

    def add(self, other: Stats) -> None:
        for name, value in vars(other).items():
            if isinstance(value, dict):
                mine = getattr(self, name)
                for k, n in value.items():
                    mine[k] = mine.get(k, 0) + n
            else:
                setattr(self, name, getattr(self, name) + value)


def team_labels(players: list[str], teams: tuple) -> dict:
    """team id → (label made of its seats' bot names ("heuristic", "random+heuristic"),
    its seats). In finding friends every seat is its own team."""
    labels: dict = {}
    seats: dict = {}
    for seat, team in enumerate(teams):
        labels.setdefault(team, [])
        seats.setdefault(team, []).append(seat)
        if players[seat] not in labels[team]:
            labels[team].append(players[seat])
    return {t: ("+".join(names), tuple(seats[t])) for t, names in labels.items()}


def _record(stats: Stats, ev: DealScored, labels: dict) -> None:
    stats.deals += 1
    held = ev.next_side == "dealers"
    stats.holds += held
    stats.attacker_points += ev.attacker_points
    stats.points_hist[ev.attacker_points] = stats.points_hist.get(ev.attacker_points, 0) + 1
    side = f"{'dealers' if held else 'attackers'}:{ev.rise}"
    stats.rise_hist[side] = stats.rise_hist.get(side, 0) + 1
    if ev.multiplier:
        stats.kitty_bonus_deals += 1
        stats.kitty_bonus_points += ev.kitty_bonus
    if held:
        stats.rise_dealers += ev.rise
    else:
        stats.rise_attackers += ev.rise
        stats.takeovers += 1
    rising = set(ev.rising)
    gains: dict = {}
    for label, seats in labels.values():
        won = any(seat in rising for seat in seats)
        gained = ev.rise if won else 0
        gains.setdefault(label, []).append(gained)
        stats.team_deals[label] = stats.team_deals.get(label, 0) + 1
        stats.team_levels[label] = stats.team_levels.get(label, 0) + gained
        stats.team_deals_won[label] = stats.team_deals_won.get(label, 0) + won
    if len(gains) == 2:
        # the mean gain of the alphabetically first label's teams minus the other's (with
        # two fixed teams: +rise or -rise; with finding friends: per seat)
        first, second = sorted(gains)
        d = sum(gains[first]) / len(gains[first]) - sum(gains[second]) / len(gains[second])
        stats.diff_sum += d
        stats.diff_sq += d * d


def run_unit(task: tuple):
    """One unit of work (runs in a worker process). Returns (stats, log lines, deals)."""
    variant_ref, players, seed, unit, n_deals, matches, want_log = task
    from ..bots import make_bot
    from ..engine.game import Game
    from ..engine.runner import play

    variant = _load(variant_ref)
    stats = Stats()
    lines: list[str] = []
    match = 0
    labels = team_labels(players, tuple(variant.teams))
    while (matches and match < 1) or (not matches and stats.deals < n_deals):
        game_seed = f"{seed}/{unit}/{match}"
        max_deals = MATCH_DEAL_CAP if matches else n_deals - stats.deals
        game = Game(variant, game_seed, max_deals=max_deals)
        bots = [make_bot(name, variant, f"{game_seed}/{s}") for s, name in enumerate(players)]
        play(game, bots)
        stats.actions += len(game.actions)
        start = 0
        events = game.events
        # only these few of a deal's ~250 events count: found by type in one C-level pass
        # (the engine makes exactly these classes)
        for i in compress(range(len(events)), map(_COUNTED.__contains__, map(type, events))):
            ev: Any = events[i]  # dispatched on type(ev), which mypy does not narrow
            t = type(ev)
            if t is ThrowFailed:
                stats.failed_throws += 1
            elif t is DealStarted:
                if ev.attempt == 0:
                    start = i
            elif t is DealScored:
                _record(stats, ev, labels)
                if want_log:
                    lines.append(json.dumps({
                        "seed": game_seed, "deal": ev.deal,
                        "events": [e.to_dict() for e in events[start:i + 1]],
                    }, ensure_ascii=False))
            else:  # MatchOver
                stats.matches += 1
                label = labels[ev.winner][0]
                stats.team_match_wins[label] = stats.team_match_wins.get(label, 0) + 1
        if matches and game.winner is None:
            stats.matches_capped += 1
        match += 1
    return stats, lines


_COUNTED = frozenset({DealStarted, DealScored, MatchOver, ThrowFailed})
_VARIANTS: dict = {}


def _load(ref):
    """A variant by name or path, or by ``(name, seats)`` to play it at another table
    size (what ``--seats`` sends to the workers). Loaded once per process."""
    from ..variants import load_variant

    if ref not in _VARIANTS:
        if isinstance(ref, tuple):
            _VARIANTS[ref] = load_variant(ref[0], players=ref[1])
        else:
            _VARIANTS[ref] = load_variant(ref)
    return _VARIANTS[ref]


def simulate(variant_ref, players: list[str], *, deals: int = 0, matches: int = 0,
             seed=0, jobs: int = 1, log=None, progress: bool | None = None,
             mapper=None) -> dict:
    """Run the simulation and return the summary (see ``summary``). ``mapper`` says where
    the units run (``shengji.distributed``: local processes by default, ``--jobs``; a
    Ray cluster); results do not depend on it. ``progress``: a bar on stderr (None: only
    when stderr is a terminal; ``shengji.progress``)."""
    # loaded afresh for each run (a relative path, an edited file, the plugins allowed
    # now), then shared with the units of this run (forked workers inherit it)
    for what, n in (("deals", deals), ("matches", matches), ("jobs", jobs)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ArgumentError(f"{what}: expected a number 0, 1, ..., got "
                                f"{type(n).__name__} {n!r:.40}")
    if isinstance(players, (str, bytes)) or not isinstance(players, (list, tuple)):
        raise ArgumentError(f"players: expected a list of bot names, one per seat, got "
                            f"{type(players).__name__} {players!r:.40}")
    _VARIANTS.pop(variant_ref, None)
    variant = _load(variant_ref)
    from ..bots import make_bot

    # unknown names fail here, before any process starts, and before the count: a
    # mistyped name ("--players mcts") is the mistake to name
    for name in dict.fromkeys(players):
        make_bot(name, variant)
    if len(players) != variant.players:
        raise ShengjiError(f"--players names {len(players)} bots but variant {variant.name} "
                           f"has {variant.players} seats")
    if (deals > 0) == (matches > 0):
        raise ShengjiError("give either a number of deals or a number of matches (> 0)")
    if matches:
        tasks = [(variant_ref, players, seed, u, 0, True, log is not None)
                 for u in range(matches)]
        total, what = matches, "matches"
    else:
        n_units = math.ceil(deals / UNIT_DEALS)
        tasks = [(variant_ref, players, seed, u, min(UNIT_DEALS, deals - u * UNIT_DEALS),
                  False, log is not None) for u in range(n_units)]
        total, what = deals, "deals"
    if mapper is None:
        from ..distributed import local_mapper

        mapper = local_mapper(jobs)
    bar = Progress(total, what, enabled=progress)
    stats = Stats()
    t0 = time.perf_counter()
    _collect(mapper(run_unit, tasks), stats, bar, log, matches)
    bar.close()
    seconds = time.perf_counter() - t0
    out = summary(stats, variant, players, seed, seconds, mapper.workers)
    out["backend"] = mapper.backend
    return out


def _collect(results, stats, bar, log, matches) -> None:
    for unit_stats, lines in results:
        stats.add(unit_stats)
        if log is not None:
            for line in lines:
                log.write(line + "\n")
        bar.update(unit_stats.matches + unit_stats.matches_capped if matches else unit_stats.deals)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def summary(stats: Stats, variant, players, seed, seconds: float, jobs: int) -> dict:
    n = max(stats.deals, 1)
    teams = {}
    for label in sorted(stats.team_deals):
        dn = stats.team_deals[label]
        won = stats.team_deals_won.get(label, 0)
        lo, hi = wilson(won, dn)
        teams[label] = {
            "levels_gained": stats.team_levels.get(label, 0),
            "levels_per_deal": stats.team_levels.get(label, 0) / max(dn, 1),
            "deals_won": won,
            "deal_win_rate": won / max(dn, 1),
            "deal_win_rate_95": [lo, hi],
            "matches_won": stats.team_match_wins.get(label, 0),
        }
    out = {
        "variant": variant.name,
        "seats": variant.players,
        "players": list(players),
        "bot_options": _options(players),
        "seed": seed,
        "deals": stats.deals,
        "matches": stats.matches,
        "matches_capped": stats.matches_capped,
        "dealer_hold_rate": stats.holds / n,
        "dealer_hold_rate_95": list(wilson(stats.holds, stats.deals)),
        "attacker_mean_points": stats.attacker_points / n,
        "kitty_bonus_rate": stats.kitty_bonus_deals / n,
        "kitty_bonus_mean_points": stats.kitty_bonus_points / max(stats.kitty_bonus_deals, 1),
        "failed_throws_per_deal": stats.failed_throws / n,
        "levels": {
            "dealers_gained": stats.rise_dealers,
            "attackers_gained": stats.rise_attackers,
            "dealers_per_deal": stats.rise_dealers / n,
            "attackers_per_deal": stats.rise_attackers / n,
            "takeovers": stats.takeovers,
        },
        "teams": teams,
        # deals by attackers' points, and by the side that rose and its rise
        "attacker_points_histogram": {str(p): n for p, n in sorted(stats.points_hist.items())},
        "rise_histogram": _rises(stats.rise_hist),
        "seconds": seconds,
        "jobs": jobs,
        "deals_per_second": stats.deals / max(seconds, 1e-9),
        "actions": stats.actions,
    }
    if len(teams) == 2 and stats.deals:
        mean = stats.diff_sum / stats.deals
        var = max(stats.diff_sq / stats.deals - mean * mean, 0.0)
        half = 1.96 * math.sqrt(var / stats.deals)
        first = min(teams)
        out["level_difference"] = {"side": first, "per_deal": mean,
                                   "per_deal_95": [mean - half, mean + half]}
    return out


def _rises(hist: dict) -> dict:
    """{"dealers": {rise: deals}, "attackers": {...}} from "side:rise" counts."""
    out: dict = {"dealers": {}, "attackers": {}}
    for key, n in sorted(hist.items(), key=lambda kv: int(kv[0].split(":")[1])):
        side, rise = key.split(":")
        out[side][rise] = n
    return out


def _options(players) -> list:
    """Every seat's bot with all its options, defaults included (a search budget)."""
    from ..bots import describe

    return [describe(p) for p in players]


def format_summary(s: dict) -> str:
    """The summary as a plain table."""
    rows = [
        ("variant", f"{s['variant']} ({s['seats']} seats)"),
        ("players", ",".join(s["players"])),
        ("seed", str(s["seed"])),
        ("deals", f"{s['deals']}"),
    ]
    if s["matches"] or s["matches_capped"]:
        rows.append(("matches", f"{s['matches']} finished, {s['matches_capped']} capped"))
    lo, hi = s["dealer_hold_rate_95"]
    lv = s["levels"]
    rows += [
        ("dealer-side hold rate", f"{s['dealer_hold_rate']:.3f}  (95% {lo:.3f}–{hi:.3f})"),
        ("attackers' mean points", f"{s['attacker_mean_points']:.1f}"),
        ("kitty-bonus rate", f"{s['kitty_bonus_rate']:.3f}  (mean bonus "
                             f"{s['kitty_bonus_mean_points']:.1f} points)"),
        ("failed throws per deal", f"{s['failed_throws_per_deal']:.3f}"),
        ("levels gained, dealers", f"{lv['dealers_gained']}  ({lv['dealers_per_deal']:.3f}/deal)"),
        ("levels gained, attackers",
         f"{lv['attackers_gained']}  ({lv['attackers_per_deal']:.3f}/deal, "
         f"{lv['takeovers']} takeovers)"),
    ]
    for label, t in s["teams"].items():
        lo, hi = t["deal_win_rate_95"]
        rows.append((f"side {label}",
                     f"{t['levels_per_deal']:.3f} levels/deal, deals won {t['deal_win_rate']:.3f}"
                     f" (95% {lo:.3f}–{hi:.3f}), matches won {t['matches_won']}"))
    if "level_difference" in s:
        d = s["level_difference"]
        rows.append((f"level difference ({d['side']})",
                     f"{d['per_deal']:+.3f}/deal (95% {d['per_deal_95'][0]:+.3f}–"
                     f"{d['per_deal_95'][1]:+.3f})"))
    where = (f"{s['jobs']} Ray worker(s)" if s.get("backend") == "ray"
             else f"{s['jobs']} job(s)")
    rows.append(("deals per second", f"{s['deals_per_second']:.1f}  ({where}, "
                                     f"{s['seconds']:.2f} s)"))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
