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
