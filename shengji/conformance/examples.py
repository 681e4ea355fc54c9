"""What a setting does, shown by a rule case: for each house case file (a variant that
``extends`` a base and changes a few keys), the cases that the base judges differently.
Each becomes one example per key the variant sets: the position, the house verdict
(which the case file expects) and the base's.

    python -m shengji.conformance.examples tests/cases/house > shengji/schema/rule_examples.json

The page shows them under the setting's field (static/houserules.js, through
``GET /api/rules/schema``); tests/test_rule_examples.py keeps the file in step with the
case files and the core.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import ShengjiError
from .casefile import find_case_files, load_case_file
from .kinds import JUDGES
from .runner import VariantCache, _variant_key, run_case

#: case kinds that judge plays and bids (a position, two verdicts)
KINDS = ("follow", "winner", "throw", "compare", "tractor", "decompose", "kitty_multiplier",
         "declare", "bidding", "score", "advance", "back_to_start", "friend_call",
         "no_bid", "first_dealer", "next_dealer", "bury", "redeal", "start_levels")


def _leaves(data, prefix=""):
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and key not in ("deck", "by_players", "following"):
            yield from _leaves(value, dotted)
        else:
            yield dotted, value


def _plain(value):
    """A verdict as JSON data (tuples and sets as lists, cards as text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def examples(paths) -> dict:
    """{dotted key: [example, ...]} from the case files under ``paths``."""
    import yaml

    from ..variants import load_variant

    out: dict = {}
    cache = VariantCache()
    for path in find_case_files(paths):
        cf = load_case_file(path)
        for case in cf.cases:
            if case.kind not in KINDS or case.variant is None or case.problem:
                continue
            vfile = Path(_variant_key(case.variant, case.file))
            if not vfile.is_file():
                continue
            data = yaml.safe_load(vfile.read_text(encoding="utf-8")) or {}
            base_ref = data.get("extends")
            keys = list(_leaves({k: v for k, v in data.items()
                                 if k not in ("extends", "name", "description")}))
            if len(keys) != 1:
                continue  # a file of several settings does not say which one decided
            if not isinstance(base_ref, str) or base_ref.endswith((".yaml", ".yml")):
                continue
            if not run_case(case, cache).passed:
                continue
            try:
                house = cache.get(case.variant, case.file, case.players)
                base = load_variant(base_ref, players=case.players)
                got_house = _plain(JUDGES[case.kind](house, case))
                got_base = _plain(JUDGES[case.kind](base, case))
            except ShengjiError:
                continue  # a position the base cannot even hold: no comparison
            if got_house == got_base:
                continue
            for key, value in keys:
                if len(out.get(key, [])) >= 2:
                    continue
                out.setdefault(key, []).append({
                    "value": value, "base": base_ref, "case": case.id,
                    "file": f"tests/cases/{path.parent.name}/{path.name}",
                    "kind": case.kind, "position": _plain(case.value),
                    "level": case.level, "trump": case.trump,
                    "house_verdict": got_house, "base_verdict": got_base,
                    "source": case.source})
    return dict(sorted(out.items()))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print(json.dumps(examples(argv or ["tests/cases/house"]), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
