"""Words for players (issue 21): a fixed-size variant asked for at another size is refused
naming its size, not with a file error; `watch` takes --seats and `simulate --players`
takes one bot for every seat, as `watch` does; the lobby's variant list carries each
variant's description in plain words."""

from __future__ import annotations

import pytest

from shengji.cli import main
from shengji.errors import ArgumentError
from shengji.variants import list_variants, load_variant


def test_a_fixed_size_variant_at_another_size_is_a_plain_error(capsys):
    with pytest.raises(ArgumentError, match=r"^two-deck-80 is played at 4 seats, not 6$"):
        load_variant("two-deck-80", players=6)
    assert main(["simulate", "--seats", "6", "--deals", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "two-deck-80 is played at 4 seats, not 6" in err
    assert "teams:" not in err and ".yaml" not in err


def test_watch_takes_seats_and_simulate_takes_one_bot_for_all(capsys):
    assert main(["watch", "--variant", "finding-friends", "--seats", "6", "--delay", "0",
                 "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "seat 5" in out and "seat 6" not in out
    assert main(["simulate", "--players", "heuristic", "--deals", "2", "--no-progress",
                 "--json"]) == 0


def test_variant_descriptions_speak_to_players():
    for name in list_variants():
        text = load_variant(name).settings["description"]
        assert "seed 0" not in text and "pagat" not in text, (name, text)


def test_the_lobby_lists_each_variants_description():
    from starlette.testclient import TestClient

    from shengji.frontends.web.app import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1")
    data = client.get("/api/variants").json()
    assert set(data["descriptions"]) == set(data["variants"])
    assert "tractors" in data["descriptions"]["two-deck-80"]


def test_house_rules_and_settings_name_the_rule_not_its_source(capsys):
    """Issue 38: "seed 000/002/003" (our sources' names) in the panel's descriptions (the
    schema's) and in `shengji variants --house`: the rule itself is named instead."""
    import json
    import re
    from pathlib import Path

    import shengji

    source = re.compile(r"\bseeds? ?\d{3}|\bseed\d{3}|pagat", re.I)
    assert main(["variants", "--house"]) == 0
    listed = capsys.readouterr().out
    assert "house/turn-kitty" in listed and not source.search(listed), listed
    schema = (Path(shengji.__file__).parent / "schema" / "variant.schema.json").read_text()
    said = [d for d in re.findall(r'"description": "([^"]*)"', schema) if source.search(d)]
    assert said == [], said
    assert json.loads(schema)  # (still one JSON document)

