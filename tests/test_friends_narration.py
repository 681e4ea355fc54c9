"""Finding friends told in the terminal: ``watch`` prints the calls and each join right
after the play that fulfils it; ``replay`` prints each join after the trick that shows its
card; ``play`` (the terminal) tells a join after its trick, with that trick's seats
labelled by their side as it now is. Transcripts are written to $SHENGJI_ARTIFACTS when
set (docs/friends-transcripts.md shows them)."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

from shengji.frontends.replay import replay, watch
from shengji.frontends.terminal import Terminal
from shengji.protocol import Table

SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def glyph(tok: str) -> str:
    return tok if tok in ("BJ", "LJ") else SYMBOL[tok[0]] + tok[1:]


def finished(variant: str, seed) -> Table:
    t = Table(variant, seed, max_deals=1)
    for s in range(t.players):
        t.set_bot(s, "heuristic")
    while t.step_bot():
        pass
    return t


def keep(name: str, text: str) -> None:
    d = os.environ.get("SHENGJI_ARTIFACTS")
    if d:
        Path(d).mkdir(parents=True, exist_ok=True)
        (Path(d) / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("seed", [1, 2])
def test_watch_prints_the_calls_and_each_join_after_its_play(seed):
    out = io.StringIO()
    assert watch("finding-friends", seed, delay=0, out=out) == 0
    text = out.getvalue()
    keep(f"watch-finding-friends-seed{seed}.txt", text)
    lines = text.splitlines()
    called = [i for i, ln in enumerate(lines) if " calls friends: " in ln]
    joins = [i for i, ln in enumerate(lines) if "★" in ln]
    first_play = next(i for i, ln in enumerate(lines) if " leads " in ln)
    assert len(called) == 1 and called[0] < first_play
    assert joins, "no friend joined in this deal"
    for i in joins:
        m = re.search(r"★ (seat \d+) plays the called \d+(?:st|nd|rd|th) (\S+):", lines[i])
        assert m, lines[i]
        # the line before is that seat's play, which shows the called card
        assert re.search(rf"{m.group(1)} (leads|plays) .*{re.escape(m.group(2))}", lines[i - 1]), \
            (lines[i - 1], lines[i])
        assert "dealer's side" in lines[i + 1]


def test_replay_prints_each_join_after_the_trick_that_shows_it(tmp_path):
    t = finished("finding-friends", 2)
    log = tmp_path / "deal.jsonl"
    log.write_text(json.dumps({"seed": 2, "deal": 0, "events": t.all_events(0)}) + "\n",
                   encoding="utf-8")
    out = io.StringIO()
    assert replay(log, out=out) == 0
    text = out.getvalue()
    keep("replay-finding-friends-seed2.txt", text)
    lines = text.splitlines()
    calls = [i for i, ln in enumerate(lines) if " calls friends: " in ln]
    tricks = [i for i, ln in enumerate(lines) if re.match(r"  trick \d+:", ln)]
    joins = [i for i, ln in enumerate(lines) if "★" in ln]
    assert calls and joins and calls[0] < tricks[0]
    for i in joins:
        seat, card = re.search(r"★ (seat \d+) plays the called \S+ (\S+):", lines[i]).groups()
        trick = max(j for j in tricks if j < i)
        # the trick just told shows that seat playing that card; its result line follows
        assert re.search(rf"{seat} [^|]*{re.escape(card)}", lines[trick]), (lines[trick], lines[i])
        assert all(j in (trick + 1,) or "★" in lines[j] or "dealer's side" in lines[j]
                   for j in range(trick + 1, i)), lines[trick:i + 1]


def test_the_terminal_tells_a_join_after_its_trick_with_sides_updated():
    t = finished("finding-friends", 2)
    events = t.all_events(0)
    join = next(e for e in events if e["type"] == "FriendJoined" and not e["already"])
    me = next(s for s in range(t.players) if s not in (join["seat"], t.game.dealer)
              and s not in t.state(0)["view"]["side"])  # an attacker watching it happen
    out = io.StringIO()
    term = Terminal(t, me, io.StringIO(), out)
    term.narrate(events, t.state(me)["view"])
    lines = out.getvalue().splitlines()
    star = next(i for i, ln in enumerate(lines) if "★" in ln and f"seat {join['seat']}" in ln)
    trick = max(i for i in range(star) if re.match(r"  trick \d+:", lines[i]))
    card = glyph(join["card"])
    assert card in lines[trick], (lines[trick], lines[star])
    # that trick already labels the friend by its side, as the join made it public
    assert f"seat {join['seat']} (opponent)" in lines[trick], lines[trick]
    assert "side unknown" not in lines[trick]
    # and a trick before it still had the friend's side unknown
    before = [ln for ln in lines[:trick] if re.match(r"  trick \d+:", ln)]
    assert any(f"seat {join['seat']} (side unknown)" in ln for ln in before)
