"""``shengji variants``: list the variants, show one's resolved rules, check files.

    shengji variants [--house]        # names, decks and descriptions (--house: and the
                                      # house-rule examples; same as `variants list`)
    shengji variants show NAME|PATH   # the resolved rules (after extends and plugins)
    shengji variants check PATH...    # validate files or folders; exit 1 on any error
                                      # (and play a short seeded test match; --no-play
                                      # checks the files only)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from ..cards import RANKS
from ..conformance.suite import SuiteConfig, run_check
from ..errors import ShengjiError
from ..rules import KITTY_TABLE_KEYS, pattern_str, shape_str
from ..variants import load_variant
from ..variants.files import display_path, plugin_origin
from ..variants.house import deck_warnings
from ..variants.loading import where_set
from ..variants.registry import all_sources
from . import add_seats_argument


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "variants",
        help="list, show and check variants",
        description="List the variants, show one's resolved rules, or validate variant files.",
    )
    p.set_defaults(func=run, action="list")
    house_help = "also list the house-rule examples"
    # `shengji variants --house` (what the listing suggests) and `variants list --house`
    p.add_argument("--house", action="store_true", help=house_help)
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    ls = sub.add_parser("list", help="list the variants (the default)")
    # SUPPRESS: the subcommand's default must not overwrite `variants --house list`
    ls.add_argument("--house", action="store_true", default=argparse.SUPPRESS, help=house_help)
    show = sub.add_parser("show", help="show a variant's resolved rules as YAML")
    show.add_argument("variant", metavar="NAME|PATH")
    add_seats_argument(show)
    check = sub.add_parser("check", help="validate variant files; exit 1 on any error")
    check.add_argument("paths", nargs="+", metavar="PATH", help="YAML files or folders")
    check.add_argument("--no-play", action="store_true",
                       help="skip the short test match (check the files and hooks only)")


def run(args) -> int:
    if args.action == "show":
        return _show(args.variant, args.seats)
    if args.action == "check":
        return _check(args.paths, play=not args.no_play)
    return _list(getattr(args, "house", False))


def _list(house: bool) -> int:
    rows = []
    for src in all_sources():
        if src.kind == "house" and not house:
            continue
        ref = src.path or src.mapping
        assert ref is not None  # a Source holds a path or a mapping
        try:
            v = load_variant(ref, name=src.name)
            rows.append((src.name, f"{v.decks}", v.settings["description"]))
        except ShengjiError as e:
            rows.append((src.name, "?", f"BROKEN: {str(e).splitlines()[0]}"))
    width = max(len(r[0]) for r in rows) if rows else 0
    print(f"{'NAME':<{width}}  DECKS  DESCRIPTION")
    for name, decks, desc in rows:
        print(f"{name:<{width}}  {decks:>5}  {desc}")
    if not house:
        print("\n(--house also lists the house-rule examples; `variants show NAME` for details)")
    return 0


def resolved_rules(v) -> dict:
    """The resolved rules of a variant as plain data (what `show` prints)."""
    s = dict(v.settings)
    pr = v.play_rules
    play = {
        "max_tuple": pr.max_tuple,
        "tractors": pr.tractors,
        "throws": pr.throws,
        "tractor_min_width": pr.tractor_min_width,
        "tractor_min_length": pr.tractor_min_length,
        "tractor_bridges_level_gap": pr.tractor_bridges_level_gap,
        "constant_ranks": [RANKS[r] for r in pr.constant_ranks],
        "follow_protection": pr.follow_protection,
        "shorter_tractors": pr.shorter_tractors,
        "bombs": pr.bombs,
        "rainbow_min": pr.rainbow_min,
        "following": {
            shape_str(shape): [pattern_str(p) for p in pr.ladder_for(shape)]
            for shape in _shown_shapes(pr)
        },
        "ruff_compare": pr.ruff_compare,
        "failed_throw": pr.failed_throw,
        "kitty": pr.kitty,
    }
    if pr.kitty == "exponential":
        play["kitty_cap"] = pr.kitty_cap
    if pr.kitty == "table":
        play["kitty_table"] = dict(zip(KITTY_TABLE_KEYS, pr.kitty_table, strict=True))
    from ..builtin_rules import scoring_table

    step, table = scoring_table(s, v.decks)
    out = {
        "name": v.name,
        "description": s["description"],
        "files": [display_path(p) for p in v.files],
        "plugins": s["plugins"],
        "decks": v.decks,
        "deck": {**v.composition.to_dict(), "cards": v.composition.total,
                 "points": v.composition.points},
        "players": v.players,
        "teams": list(v.teams),
        "game_mode": s.get("game_mode", "fixed_teams"),
        "hand_size": v.hand_size,
        "kitty_size": v.kitty_size,
        # one level, or (start_level per team or seat) each seat's
        "start_level": (RANKS[levels[0]] if len(set(levels := v.start_levels())) == 1
                        else [RANKS[lv] for lv in levels]),
        "play": play,
        "declare": s["declare"],
        "penalties": s["penalties"],
        "scoring": {"step": step, "table": table},
        "next_dealer": s["next_dealer"],
        "match_end": s["match_end"],
        "advancement": s["advancement"],
        "bury": s["bury"],
    }
    if v.friend_rules is not None:  # finding friends: the resolved knobs at this table
        from dataclasses import asdict

        out["friends"] = asdict(v.friend_rules)
        if s.get("by_players"):
            out["seats"] = sorted(s["by_players"])
    return out


def _shown_shapes(pr) -> list:
    """Led shapes whose ladder is worth printing: the explicit ones, and the tuples
    and tractors this variant has."""
    shapes = [s for s, _ in pr.following]
    for w in range(2, pr.max_tuple + 1):
        for shape in [(w, 1)] + ([(w, 2)] if pr.tractors and w >= pr.tractor_min_width else []):
            if shape not in shapes:
                shapes.append(shape)
    return shapes


class _Dumper(yaml.SafeDumper):
    """Short lists and table rows on one line, so the output reads like the YAML files."""


def _represent_list(dumper, data):
    flow = all(isinstance(x, (str, int, float, bool)) for x in data) and len(data) <= 8
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_dict(dumper, data):
    flow = all(isinstance(x, (str, int, float, bool)) for x in data.values()) and len(data) <= 3
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(dict, _represent_dict)


def _show(ref: str, seats: int | None = None) -> int:
    v = load_variant(ref, players=seats)
    text = yaml.dump(
        resolved_rules(v), Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100
    )
    sys.stdout.write(text)
    if v.plugins:
        print("# plugins may override any rule above; their hooks decide at play time")
    return 0


def _plugin_code(v) -> str:
    """The plugins ``v`` imported and ran, each with its file: checking a variant with
    plugins runs their code, and ``check`` says so."""
    named = v.settings.get("plugins") or []
    return ", ".join(f"{name} ({plugin_origin(obj)})" for name, obj in zip(named, v.plugins,
                                                                          strict=False))


def _files(paths: list[str]) -> list[Path]:
    out = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.yaml")) + sorted(p.rglob("*.yml")) if p.is_dir() else [p]
    return out


#: the test match of `check`: the all-variants suite's checks (docs/conformance.md) on a
#: small budget — hook answers, random follows, and one seeded two-deal match with random
#: legal actions (about half a second per variant)
PLAY_CONFIG = SuiteConfig(seed=0, deals=1, match_deals=2, follow_hands=20, max_actions=3000)
PLAY_CHECKS = ("settings", "scoring", "next-dealer", "follows", "deal-0")


def cannot_play(v) -> str | None:
    """Why a loaded variant cannot be played, in one line, or None: ``check`` must refuse
    what a run would fail on (a hook that raises on the variant's own settings, a
    ladder no hand can satisfy, a deal that gets stuck)."""
    for name in PLAY_CHECKS:
        result = run_check(v, name, PLAY_CONFIG)
        if not result.passed:
            return f"{name}: {' '.join(result.message.split())}"
    return None


def _check(paths: list[str], play: bool = True) -> int:
    """Load each file fully (extends, plugins, play rules, a few hook calls), then play
    a short seeded test match."""
    failed = 0
    files = _files(paths)
    for f in files:
        try:
            v = load_variant(f)
            resolved_rules(v)  # builds PlayRules and asks start_level
            for points in range(0, v.composition.points + 1, 5):
                v.score_deal(points)
            why = cannot_play(v) if play else None
        except ShengjiError as e:
            failed += 1
            print(str(e), file=sys.stderr)
            continue
        if why:
            failed += 1
            print(f"{display_path(f)}: loads, but a test match fails: {why}", file=sys.stderr)
        else:
            ran = _plugin_code(v)
            ran = f"; ran plugin code: {ran}" if ran else ""
            print(f"{display_path(f)}: ok ({v.name}){ran}")
            for w in deck_warnings(v):  # loads, but cannot take effect with this deck
                print(f"{where_set(v._vfiles, tuple(w['key'].split('.')))}: warning: "
                      f"{w['message']}", file=sys.stderr)
    print(f"{len(files) - failed} ok, {failed} with errors")
    return 1 if failed else 0
