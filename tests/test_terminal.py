"""The terminal frontend driven by scripted input: a whole deal typing the first hint, an
illegal play refused with its rule (nothing lost), bad tokens, quitting, the CLI."""

from __future__ import annotations

import io
import re

import pytest

from shengji.cards import card_str
from shengji.cli import main
from shengji.frontends.terminal import Terminal, play
from shengji.protocol import Table


def shown_hints(out: io.StringIO) -> list[str]:
    """The hints of the last prompt, as typed (without their "#N " numbers)."""
    hints = [ln for ln in out.getvalue().splitlines() if ln.startswith("hints: ")]
    return [re.sub(r"^#\d+ ", "", h) for h in hints[-1].split("hints: ", 1)[1].split(" | ")]


class FirstHint:
    """Types the first hint of the last prompt (as a person copying it would)."""

    def __init__(self, out: io.StringIO):
        self.out = out
        self.lines = 0

    def readline(self) -> str:
        self.lines += 1
        return shown_hints(self.out)[0] + "\n"


def test_a_whole_deal_typing_the_first_hint():
    out = io.StringIO()
    reader = FirstHint(out)
    assert play("two-deck-80", 0, 3, deals=1, inp=reader, out=out, color=False) == 0
    text = out.getvalue()
    assert "--- Deal 1 result ---" in text
    assert "attackers' points:" in text
    assert "the game is over" in text
    assert "refused" not in text
    tricks = [ln for ln in text.splitlines() if ln.startswith("  trick ")]
    assert len(tricks) >= 10 and all(" you " in ln for ln in tricks)  # we played in each
    assert reader.lines >= len(tricks)
    assert "\033[" not in text  # no colour codes when asked for none


class Declares(FirstHint):
    """Declares whenever it may (the second hint, after "pass"), else the first hint."""

    def readline(self) -> str:
        options = shown_hints(self.out)
        return (options[1] if options[0] == "pass" and len(options) > 1 else options[0]) + "\n"


def test_declaration_window_and_burial_are_shown():
    for seed in range(12):
        out = io.StringIO()
        play("two-deck-80", 0, seed, deals=1, inp=Declares(out), out=out)
        text = out.getvalue()
        if "declaration window:" in text and "your turn to bury" in text:
            break
    else:
        raise AssertionError("no seed of 0..11 let seat 0 declare and bury")
    # the advice leads the hints; passing is always among them while dealing
    assert any(ln.startswith("hints: ") and re.search(r"#\d+ pass\b", ln)
               for ln in text.splitlines())
    assert "  you declare " in text
    assert "kitty you took:" in text
    assert "--- Deal 1 result ---" in text


class Scripted:
    """Types an illegal card once (off the led suit when holding it), then first hints."""

    def __init__(self, table: Table, out: io.StringIO):
        self.table, self.out = table, out
        self.tried = None
        self.hand_before = None

    def readline(self) -> str:
        g = self.table.game
        legal = g.legal_actions(0)
        if self.tried is None and legal.kind == "follow" and legal.count == 1:
            ok = {a.cards for a in legal}
            bad = next((k for k, n in enumerate(g.hands[0]) if n and (k,) not in ok), None)
            if bad is not None:
                self.tried = card_str(bad)
                self.hand_before = list(g.hands[0])
                return self.tried + "\n"
        return shown_hints(self.out)[0] + "\n"


@pytest.mark.parametrize("explain", [False, True])
def test_illegal_play_is_refused_in_words_and_nothing_is_lost(explain):
    """A refusal in plain words; the engine's sentence and the rule behind it only with
    --explain (issue 21)."""
    table = Table("two-deck-80", 4, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"},
                  max_deals=1)
    out = io.StringIO()
    script = Scripted(table, out)
    Terminal(table, 0, script, out, explain=explain).run()
    text = out.getvalue()
    assert script.tried is not None
    refusal = text.split("refused: ", 1)[1]
    first = refusal.splitlines()[0]
    assert first.startswith("You tried ") and "You must follow " in first, first
    assert "must_follow_suit" not in first and "seat 0" not in first and "docs/" not in first
    # the rule in the words of the page's rules page (refusals.RULES), its section after
    assert ("why: Following suit and shape: Play as many cards" in refusal) is explain
    assert ("(docs/rules.md §5)" in refusal) is explain and "seed 0" not in refusal
    assert ("must_follow_suit" in refusal) is explain  # the engine's own sentence
    assert ("--explain shows the rule" in refusal) is not explain
    assert "nothing was played" in refusal
    # the prompt comes back with the same hand
    after = refusal.split("your turn to follow", 1)[0]
    assert "all hints" not in after
    assert "--- Deal 1 result ---" in text


def test_p_while_following_says_what_is_asked_not_an_unrelated_rule():
    """Issue 38: `p` at a follow was sent, refused "not possible at this point" and cited
    the play-order rule (with --explain, docs/rules.md §4). Nothing to pass is said as such,
    and nothing is sent."""
    table = Table("two-deck-80", 3, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    out = io.StringIO()
    assert Terminal(table, 0, io.StringIO("p\nq\n"), out, explain=True).run() == 0
    text = out.getvalue()
    assert "your turn to follow with 5 cards > p" in text
    assert "there is nothing to pass now: your turn to follow (type the cards" in text
    assert "refused" not in text and "docs/rules.md" not in text and "§4" not in text
    assert all(a.seat != 0 for a in table.game.actions)  # nothing was sent for seat 0


def test_the_jokers_are_shown_as_the_page_shows_them_and_typed_back():
    """Issue 38: the terminal showed BJ where the page shows ★big joker. Seed 3: seat 1 leads
    the big joker; seat 0 holds one. Typed as shown (a hint copied), it is played."""
    table = Table("two-deck-80", 3, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    out = io.StringIO()
    inp = io.StringIO("★big joker ♦K ♦K ♦3 ♦3\nq\n")
    assert Terminal(table, 0, inp, out).run() == 0
    text = out.getvalue()
    assert "trick 1: seat 1 (opponent) ★big joker ♦2 ♦2 ♠2 ♠2" in text
    assert "your hand (25): trumps: ★big joker ♣2" in text
    assert not re.search(r"\bBJ\b", text.split("q = quit", 1)[1])  # past the intro line
    assert "refused" not in text
    played = [a for a in table.game.actions if a.seat == 0 and type(a).__name__ == "Play"]
    assert played and card_str(53) in [card_str(k) for k in played[0].cards]


def test_bad_tokens_hints_and_quit():
    table = Table("two-deck-80", 1, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    out = io.StringIO()
    inp = io.StringIO("h\nHX\nq\n")
    assert Terminal(table, 0, inp, out).run() == 0
    text = out.getvalue()
    assert "all hints: #0 " in text  # numbered for "#N"
    assert "refused: malformed card 'HX'" in text
    assert text.rstrip().endswith("bye")
    assert len(table.game.actions) == sum(1 for a in table.game.actions if a.seat != 0)


def test_end_of_input_stops_cleanly():
    out = io.StringIO()
    assert play("one-deck-40", 2, 0, inp=io.StringIO(""), out=out) == 0
    assert "bye" in out.getvalue()


def test_cli_refuses_a_bad_seat_without_traceback(capsys):
    assert main(["play", "--seat", "7", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "seats are 0..3" in err and "Traceback" not in err


def test_cli_refuses_a_bad_variant(capsys):
    assert main(["play", "--variant", "no-such-variant"]) == 2
    assert "no-such-variant" in capsys.readouterr().err


class CallingScript:
    """Types ``#0`` everywhere, except at the first call prompt a refused call, then
    ``#0`` (the suggested calls)."""

    def __init__(self, out: io.StringIO):
        self.out = out
        self.tried = False

    def readline(self) -> str:
        if self.out.getvalue().rstrip().endswith("suggestion) >") and not self.tried:
            self.tried = True
            return "1 BJ, 3 HA\n"
        return "#0\n"


def test_finding_friends_at_six_seats():
    """Issue 11: the terminal at six seats: every seat on one line, the calls, the
    dealer (you) calling friends; a bad call is refused naming the call."""
    from shengji.variants import load_variant

    out = io.StringIO()
    script = CallingScript(out)
    v = load_variant("finding-friends", players=6)
    assert play(v, 4, 0, deals=2, inp=script, out=out, color=False) == 0
    text = out.getvalue()
    assert script.tried
    assert "seats: s0 " in text and "you* " in text and "(* dealer, + dealer's side" in text
    # the cards of the engine's sentence shown as the page shows them
    assert "refused: You cannot call those: call 1 ★big joker: ★big joker is a trump" in text
    assert "you call friends: 1st " in text
    assert "--- Deal 2 result ---" in text
    assert "side unknown" in text  # before the friends show themselves
    assert "Traceback" not in text


class AsksRedeal(FirstHint):
    """Asks for a redeal whenever asked (issue 35, declare.weak_hand_redeal), else types the
    first hint."""

    def readline(self) -> str:
        self.lines += 1
        prompts = [ln for ln in self.out.getvalue().splitlines() if "your turn to" in ln]
        return "r\n" if "ask for a redeal" in prompts[-1] else shown_hints(self.out)[0] + "\n"


def test_a_weak_hand_asks_for_a_redeal(tmp_path):
    # ChannonTian/80fen docs/RULES.md §F: a weak hand of the dealer's opponents may ask
    from shengji.builtin_rules import drawn_seat

    house = tmp_path / "weak.yaml"
    house.write_text("extends: two-deck-80\ndeclare: {first_dealer: random, weak_hand_redeal: "
                     "{points: 200, trumps: null, limit: 1, dealer: kept}}\n", encoding="utf-8")
    seed = next(s for s in range(20) if drawn_seat(f"{s}:0:0", 4) % 2 == 0)  # seat 3 attacks
    out = io.StringIO()
    assert play(str(house), 3, seed, deals=1, inp=AsksRedeal(out), out=out, color=False) == 0
    text = out.getvalue()
    assert "you ask for a redeal (a weak hand): the cards are dealt again" in text
    assert text.count("ask for a redeal, your hand being weak (r)") == 1  # the limit: once
