"""Bad variant files: each gives a precise VariantError (file, line, key path, what is
allowed), and the CLI prints it without a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shengji.cli import main
from shengji.errors import VariantError
from shengji.variants import load_variant

PLUGINS = Path(__file__).resolve().parent / "plugins"


#: the plugin names these tests give; plugins run code, so they are allowed explicitly
#: (docs/variants.md "Trust"); test_untrusted_plugin_is_refused checks the default
TEST_PLUGINS = ("shengji_misspelt", "shengji_unmarked_misspelt", "shengji_bad_args",
                "no_such_plugin_xyz", "my_rules_not_on_path")


@pytest.fixture(autouse=True)
def _plugins_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setenv("SHENGJI_ALLOW_PLUGINS", ",".join(TEST_PLUGINS))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path) -> str:
    with pytest.raises(VariantError) as info:
        load_variant(path)
    return str(info.value)


BASE = "extends: two-deck-80\n"


@pytest.mark.parametrize(
    "body, expected",
    [
        # unknown key, with its line, the key meant when it is close, and the keys
        # allowed there
        (BASE + "play:\n  ruf_compare: strongest\n",
         ":3: play.ruf_compare: unknown key: did you mean ruff_compare? (allowed here: "
         "max_tuple, tractors,"),
        (BASE + "scorring: {step: 40}\n",
         ":2: scorring: unknown key: did you mean scoring? (allowed here: name,"),
        (BASE + "play:\n  kity: table\n", ":3: play.kity: unknown key: did you mean kitty? ("),
        (BASE + "colour: red\n", ":2: colour: unknown key (allowed here: name,"),
        # wrong value of a choice: the allowed values
        (BASE + "play:\n  ruff_compare: biggest\n",
         ":3: play.ruff_compare: 'biggest' is not one of strongest, all_components, highest_card"),
        (BASE + "declare:\n  when_nobody: shuffle\n",
         ":3: declare.when_nobody: 'shuffle' is not one of no_trump, turn_kitty"),
        # wrong type
        (BASE + "decks: two\n", ":2: decks: 'two' is not an integer"),
        (BASE + "play:\n  tractors: 3\n", ":3: play.tractors: 3 is not true or false"),
        # out of range
        (BASE + "decks: 11\n", ":2: decks: 11 is out of range (allowed 1..10)"),
        # a bad rank (a card value)
        (BASE + "start_level: 1\n",
         ":2: start_level: 1 is not one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J"),
        (BASE + "play:\n  constant_ranks: [Z]\n",
         ":3: play.constant_ranks[0]: 'Z' is not one of 2,"),
        # a bad shape or pattern in a ladder
        (BASE + "play:\n  following:\n    titanic: [titanic, triple + tripel]\n",
         ":4: play.following.titanic[1]: bad pattern: unknown shape 'tripel'"),
        (BASE + "play:\n  following:\n    sextet: [pair]\n",
         ":4: play.following.sextet: bad led shape: unknown shape 'sextet'"),
        # scoring rows out of order; a row without a side
        (BASE + "scoring:\n  table:\n    - {below: 40, next: dealers, rise: 1}\n"
                "    - {below: 20, next: attackers, rise: 0}\n",
         ":5: scoring.table[1].below: 20 must be greater than the row before it (40)"),
        (BASE + "scoring:\n  table:\n    - {below: 40, rise: 1}\n",
         ":4: scoring.table[0]: missing key 'next'"),
        # YAML problems
        (BASE + "play: [\n", ": not valid YAML"),
        (BASE + "decks: 2\ndecks: 3\n", ":3: decks: duplicate key (first given on line 2)"),
        ("- a list\n", ":1: a variant file must be a mapping"),
        # a root file must say how many cards
        ("decks: 2\n", ": missing key(s) hand_size, kitty_size"),
        ("decks: 2\nhand_size: 20\nkitty_size: 8\n",
         "4 players × 20 cards + 8 kitty = 88 cards, but the deck (2 full packs) has 108"),
        (BASE + "players: 3\n", "teams: 4 entries for 3 players"),
        # extends a variant that does not exist
        ("extends: five-deck\n", ":1: extends: no variant named 'five-deck' (known: one-deck-40,"),
        ("extends: nowhere.yaml\n", ":1: extends: no such variant file"),
        # plugins: missing, misspelt hook, wrong arguments
        (BASE + "plugins: [no_such_plugin_xyz]\n",
         ":2: plugins[0]: plugin 'no_such_plugin_xyz' not found: no module of that name and no "
         "entry point of that name in group shengji.plugins"),
        (BASE + "plugins: [shengji_misspelt]\n",
         "plugin 'shengji_misspelt': shengji_scor_deal is not a shengji hook (did you mean "
         "shengji_score_deal?)"),
        (BASE + "plugins: [shengji_unmarked_misspelt]\n",
         "shengji_next_dealr is not a shengji hook (did you mean shengji_next_dealer?)"),
        (BASE + "plugins: [shengji_bad_args]\n",
         "plugin 'shengji_bad_args': hook shengji_score_deal takes argument(s) points that the "
         "hookspec does not define (allowed: variant, attacker_points, short_handed)"),
        # a PlayRules value the schema allows but the deck count does not
        ("extends: one-deck-40\nplay: {max_tuple: 2}\n", "max_tuple: 2 is impossible with 1 deck"),
    ],
)
def test_bad_file_gives_precise_error(tmp_path, body, expected):
    path = write(tmp_path, "bad.yaml", body)
    message = error_of(path)
    assert expected in message
    assert "bad.yaml" in message  # every message names the file


def test_every_schema_problem_is_listed_by_line(tmp_path):
    path = write(tmp_path, "many.yaml", BASE + "decks: 11\nplay:\n  kitty: double\nfoo: 1\n")
    lines = error_of(path).splitlines()
    assert [ln.split(": ", 1)[0].rsplit(":", 1)[1] for ln in lines] == ["2", "4", "5"]


def test_extends_cycle(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "# b\nextends: a.yaml\n")
    message = error_of(tmp_path / "a.yaml")
    assert "extends cycle: " in message and "a.yaml → " in message and "b.yaml → " in message
    assert ":2: extends:" in message  # reported where the cycle closes


def test_self_extends_is_a_cycle(tmp_path):
    path = write(tmp_path, "me.yaml", "extends: me.yaml\n")
    assert "extends cycle" in error_of(path)


def test_error_in_parent_names_the_parent(tmp_path):
    write(tmp_path, "parent.yaml", BASE + "\n\nplay: {kitty: doubled}\n")
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\n")
    message = error_of(child)
    assert "parent.yaml:4: play.kitty: 'doubled' is not one of" in message


def test_plugin_crash_and_bad_answer_are_variant_errors():
    class Crashes:
        def shengji_score_deal(self, variant, attacker_points):
            return 1 / 0

    class Nonsense:
        def shengji_start_level(self, variant):
            return "two"

    v = load_variant("two-deck-80", plugins=[Crashes()])
    with pytest.raises(VariantError, match="hook shengji_score_deal raised ZeroDivisionError"):
        v.score_deal(10)
    v = load_variant("two-deck-80", plugins=[Nonsense()])
    with pytest.raises(VariantError, match="shengji_start_level returned 'two'; expected int"):
        v.start_level()


def test_unknown_variant_name():
    with pytest.raises(VariantError, match="no variant named 'nope'"):
        load_variant("nope")


# --- the CLI --------------------------------------------------------------------------------


def test_cli_check_reports_and_fails(tmp_path, capsys):
    good = write(tmp_path, "good.yaml", BASE + "start_level: 3\n")
    bad = write(tmp_path, "bad.yaml", BASE + "play:\n  ruff_compare: biggest\n")
    assert main(["variants", "check", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert "good.yaml: ok (good)" in out and "1 ok, 1 with errors" in out
    assert "bad.yaml:3: play.ruff_compare: 'biggest' is not one of" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("play", [
    # the test match of every built-in and house file is the all-variants suite's deal-0
    # and follows checks (tests/test_conformance_suite.py): here the command's own path,
    # and the whole command once more with --long
    False, pytest.param(True, marks=pytest.mark.long)])
def test_cli_check_builtins_ok(capsys, play):
    from shengji.variants import builtin_dir

    assert main(["variants", "check", str(builtin_dir()), *([] if play else ["--no-play"])]) == 0
    assert "0 with errors" in capsys.readouterr().out


def test_cli_show_unknown_is_one_clean_line(capsys):
    assert main(["variants", "show", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shengji variants: error: no variant named 'nope'")
    assert "Traceback" not in err


def test_cli_list_and_show(capsys):
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for name in ("one-deck-40", "two-deck-80", "three-deck-titanic", "four-deck", "constant-two"):
        assert name in out
    assert main(["variants", "show", "constant-two"]) == 0
    out = capsys.readouterr().out
    assert "constant_ranks: ['2']" in out and "start_level: '3'" in out


@pytest.mark.parametrize("body", ["decks: [\n", BASE + "plugins: [no_such_plugin_xyz]\n",
                                  "extends: loop.yaml\n"])
def test_no_traceback_from_the_installed_command(tmp_path, body):
    path = write(tmp_path, "loop.yaml", body)
    proc = subprocess.run(
        [sys.executable, "-m", "shengji.cli", "variants", "check", str(path)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "loop.yaml" in proc.stderr


@pytest.mark.parametrize("argv", [["variants", "--house"], ["variants", "list", "--house"],
                                  ["variants", "--house", "list"]])
def test_cli_list_house_examples(capsys, argv):
    """The listing says "--house also lists the house-rule examples": both spellings work."""
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "house/turn-kitty" in out and "two-deck-80" in out
    assert main(["variants"]) == 0
    assert "house/turn-kitty" not in capsys.readouterr().out


def test_missing_plugin_says_how_to_make_it_importable(tmp_path):
    path = write(tmp_path, "p.yaml", BASE + "plugins: [my_rules_not_on_path]\n")
    with pytest.raises(VariantError, match="put its folder on PYTHONPATH"):
        load_variant(path)


def test_output_piped_into_head_is_no_traceback():
    """`shengji conformance -v tests/cases | head -1`: the reader leaves early."""
    cases = Path(__file__).parent / "cases"
    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji.cli", "conformance", "-v", str(cases)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline().startswith(b"ok ")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_a_variant_that_can_never_declare_is_refused_at_load():
    """issue 10: turn-kitty style redeals never end when no bid can be accepted; such a
    variant is refused when it is loaded, naming `declare`."""
    never = {"extends": "two-deck-80",
             "declare": {"min_level_cards": 3, "jokers": {"allowed": False}}}
    with pytest.raises(VariantError, match="declare: no declaration is ever accepted"):
        load_variant(never)
    load_variant({**never, "decks": 3, "hand_size": 39, "kitty_size": 6})  # three copies


@pytest.mark.parametrize("declare, words", [
    ("{jokers: {min: lots}}",
     ["declare.jokers.min", "'lots' is not an integer 1..10, decks or decks-1"]),
    ("{jokers: {min_big: 0}}",
     ["declare.jokers.min_big", "0 is not an integer 1..10, decks, decks-1 or null"]),
    ("{suit_order: [S, S, H, D]}", ["declare.suit_order", "lists a value twice"]),
    ("{equal_count: suits}", ["declare.equal_count", "jokers, nothing, jokers_or_higher_suit"]),
    ("{when_nobody: turn}", ["declare.when_nobody", "turn_kitty_level"]),
])
def test_bidding_keys_name_their_choices(tmp_path, declare, words):
    p = tmp_path / "h.yaml"
    p.write_text(f"extends: two-deck-80\ndeclare: {declare}\n", encoding="utf-8")
    with pytest.raises(VariantError) as e:
        load_variant(p)
    assert all(w in str(e.value) for w in words), str(e.value)
