"""``--plot FILE.png``: figures of a simulation or an arena run (matplotlib, the ``plot``
extra). Figures are drawn on matplotlib's ``Figure`` directly (no pyplot, no display),
from the JSON summary the command prints, so a saved ``--json`` can be drawn again."""

from __future__ import annotations

import os

from .errors import ShengjiError


def _matplotlib():
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise ShengjiError("--plot needs matplotlib, which is not installed: "
                           "pip install 'shengji[plot]'") from None
    return matplotlib, Figure


def check_target(path: str) -> None:
    """Fail before any work when the figure could not be written: no matplotlib, a
    format matplotlib cannot write, or a folder that does not exist."""
    _, Figure = _matplotlib()
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    formats = Figure().canvas.get_supported_filetypes()
    if ext not in formats:
        raise ShengjiError(f"--plot {path}: cannot write a .{ext or '(no extension)'} file; "
                           f"use one of {', '.join('.' + f for f in sorted(formats))}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ShengjiError(f"--plot {path}: folder {folder} does not exist")


def _save(fig, path: str) -> None:
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise ShengjiError(f"--plot {path}: cannot write ({e.strerror or e})") from None


def _thresholds(variant) -> list[int]:
    """Attackers' totals where the scoring table changes (the x axis marks)."""
    table = (variant.settings.get("scoring") or {}).get("table") or []
    return [row["below"] for row in table if isinstance(row, dict) and "below" in row]


def _points_panel(ax, summary: dict, variant=None) -> None:
    hist = {int(p): n for p, n in summary["attacker_points_histogram"].items()}
    if hist:
        ax.bar(list(hist), list(hist.values()), width=4, color="#4C72B0")
    steps = _thresholds(variant) if variant is not None else []
    for x in steps:
        ax.axvline(x - 0.5, color="#999999", lw=0.8, ls="--")
    if steps:
        ax.plot([], [], color="#999999", lw=0.8, ls="--", label="scoring table steps")
    mean = summary["attacker_mean_points"]
    ax.axvline(mean, color="#C44E52", lw=1.5, label=f"mean {mean:.1f}")
    ax.set_xlabel("attackers' points (scored total, kitty and penalties included)")
    ax.set_ylabel("deals")
    ax.set_title("Attackers' points per deal")
    ax.legend(loc="upper right", fontsize=8)


def _levels_panel(ax, summary: dict) -> None:
    rises = summary["rise_histogram"]
    values = sorted({int(r) for side in rises.values() for r in side})
    width = 0.4
    for i, (side, colour) in enumerate((("dealers", "#55A868"), ("attackers", "#8172B2"))):
        counts = [rises[side].get(str(r), 0) for r in values]
        ax.bar([v + (i - 0.5) * width for v in values], counts, width=width, color=colour,
               label=f"{side} rose ({sum(counts)} deals)" if side == "dealers"
               else f"attackers took over ({sum(counts)} deals)")
    ax.set_xticks(values)
    ax.set_xlabel("levels gained in the deal")
    ax.set_ylabel("deals")
    ax.set_title("Level changes per side")
    ax.legend(loc="upper right", fontsize=8)


def simulation_figure(summary: dict, path: str, variant=None) -> None:
    """Two panels: the distribution of attackers' points (dashed lines where the scoring
    table changes), and the deals by levels gained for the dealers' side and the
    attackers' side."""
    _, Figure = _matplotlib()
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    a, b = fig.subplots(1, 2)
    _points_panel(a, summary, variant)
    _levels_panel(b, summary)
    fig.suptitle(f"{summary['variant']}: {summary['deals']} deals, "
                 f"{','.join(summary['players'])}, seed {summary['seed']}", fontsize=10)
    _save(fig, path)


_COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B2", "#937860", "#DA8BC3")


def _ratings_panel(ax, summary: dict) -> None:
    rows = sorted(summary["ratings"], key=lambda r: r["elo"])
    ys = list(range(len(rows)))
    elo = [r["elo"] for r in rows]
    lo = [r["elo"] - r["elo_95"][0] for r in rows]
    hi = [r["elo_95"][1] - r["elo"] for r in rows]
    ax.errorbar(elo, ys, xerr=[lo, hi], fmt="o", color="#4C72B0", ecolor="#4C72B0",
                capsize=4)
    ax.axvline(0, color="#999999", lw=0.8, ls="--")
    ax.set_yticks(ys, [r["bot"] for r in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("Elo (Bradley-Terry on deals won), 95% interval")
    ax.set_title("Ratings")


def _arena_points_panel(ax, summary: dict) -> None:
    for i, bot in enumerate(summary["bots"]):
        raw = {int(p): n for p, n in summary["attacker_points_histogram"][i].items()}
        if not raw:
            continue
        total = sum(raw.values())
        mean = sum(p * n for p, n in raw.items()) / total
        hist: dict = {}  # 10-point bins
        for p, n in raw.items():
            hist[p // 10 * 10] = hist.get(p // 10 * 10, 0) + n
        xs = sorted(hist)
        ax.step(xs, [hist[x] / total for x in xs], where="mid", color=_COLOURS[i % 7],
                label=f"{bot} attacking (mean {mean:.0f})")
    ax.set_xlabel("attackers' points (10-point bins)")
    ax.set_ylabel("share of deals")
    ax.set_title("Attackers' points by attacking bot")
    ax.legend(loc="upper right", fontsize=8)


def _arena_levels_panel(ax, summary: dict) -> None:
    bots = summary["bots"]
    hists = [{float(r): n for r, n in h.items()} for h in summary["levels_histogram"]]
    values = sorted({r for h in hists for r in h})
    width = 0.8 / max(len(bots), 1)
    for i, (bot, h) in enumerate(zip(bots, hists, strict=True)):
        total = sum(h.values()) or 1
        ax.bar([v + (i - (len(bots) - 1) / 2) * width for v in values],
               [h.get(v, 0) / total for v in values], width=width, color=_COLOURS[i % 7],
               label=bot)
    ax.set_xticks(values)
    ax.set_xlabel("levels gained by the bot's side in a deal")
    ax.set_ylabel("share of deals")
    ax.set_title("Level changes per side")
    ax.legend(loc="upper right", fontsize=8)


def arena_figure(summary: dict, path: str) -> None:
    """Three panels: the bots' ratings with 95% intervals, the attackers' points when
    each bot attacks, and the levels each bot's side gained per deal."""
    _, Figure = _matplotlib()
    fig = Figure(figsize=(15, 4.4), layout="constrained")
    a, b, c = fig.subplots(1, 3)
    _ratings_panel(a, summary)
    _arena_points_panel(b, summary)
    _arena_levels_panel(c, summary)
    deals = sum(p["deals"] for p in summary["pairs"])
    fig.suptitle(f"arena on {summary['variant']}: {', '.join(summary['bots'])}; "
                 f"{deals} deals, seed {summary['seed']}", fontsize=10)
    _save(fig, path)
