"""Finding friends (找朋友, issue 11): the calling phase, joining, scoring with a side of
any size, privacy of the friends until they play, and invariants at every table size.

Sources: pagat "Zhao Pengyou" (tables 5..12); shengji.io core/src/settings.rs
(FriendSelectionPolicy, MultipleJoinPolicy), game_state/exchange_phase.rs (valid calls),
play_phase.rs (joining, the next landlord, BonusLevelPolicy).
"""

from __future__ import annotations

import json
import os

import pytest
from engine_helpers import run_checked

from shengji.bots import make_bot
from shengji.cards import parse_card
from shengji.engine import (
    CallFriends,
    DealScored,
    DealStarted,
    FriendJoined,
    FriendsCalled,
    Game,
    IllegalAction,
    Played,
    TrickWon,
)
from shengji.engine import view as view_module
from shengji.errors import VariantError
from shengji.friends import FriendRules, FriendTracker, parse_call
from shengji.protocol import Table
from shengji.protocol.messages import encode_view
from shengji.variants import load_variant

SIZES = range(5, 13)
LONG_DEALS = int(os.environ.get("SHENGJI_FRIENDS_DEALS", "2000"))


def friends(players: int):
    return load_variant("finding-friends", players=players)


def to_calling(game: Game, tag: str = "call") -> Game:
    """Random bots until the dealer is to call (the start of a deal's play)."""
    bots = [make_bot("random", game.variant, f"{tag}/{s}") for s in range(game.players)]
    while game.phase != "call":
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    return game


# ---------------------------------------------------------------------- the calling phase

def test_the_dealer_calls_after_burying():
    game = to_calling(Game(friends(6), "calls"))
    dealer = game.dealer
    assert game.to_act == dealer and game.side == (dealer,) and not game.sides_known
    legal = game.legal_actions(dealer)
    assert legal.kind == "call" and legal.count == 2  # six players: two friends
    singles = [a.calls[0] for a in legal]
    assert len(set(singles)) == len(singles)
    for ordinal, card in singles:  # two packs: ordinals 1 and 2; never a trump
        assert 1 <= ordinal <= 2 and game.ctx.effective_suit(card) != 4
    assert game.legal_actions((dealer + 1) % 6).kind == "none"
    calls = tuple(singles[:2])
    events = game.apply(CallFriends(dealer, calls))
    assert [type(e) for e in events] == [FriendsCalled]
    assert events[0].calls == calls and game.calls == calls
    assert game.phase == "play" and game.to_act == dealer
    assert game.view((dealer + 3) % 6).calls == calls


@pytest.mark.parametrize("calls, words", [
    (("1 HA",), "1 call(s) given; this table calls 2 (friends.calls)"),
    (("1 HA", "1 HA"), "the same call twice"),
    (("3 HA", "1 CA"), "call 3 HA: the deck holds 2 copies of HA"),
    (("1 BJ", "1 CA"), "call 1 BJ: BJ is a trump"),
])
def test_bad_calls_are_refused_naming_the_call(calls, words):
    game = to_calling(Game(friends(6), "bad-calls"))
    trump_free = [c for c in ("HA", "CA", "DA", "SA")
                  if game.ctx.effective_suit(parse_card(c)) != 4]
    calls = tuple(c.replace("HA", trump_free[0]).replace("CA", trump_free[1]) for c in calls)
    words = words.replace("HA", trump_free[0]).replace("CA", trump_free[1])
    with pytest.raises(IllegalAction) as e:
        game.apply(CallFriends(game.dealer, calls))
    assert words in str(e.value) and "\n" not in str(e.value)
    assert e.value.reason == "bad_call" and game.phase == "call"


def test_a_card_not_in_the_deck_cannot_be_called():
    """pagat: eight players use three packs and two red jokers, no black ones."""
    game = to_calling(Game(friends(8), "lj"))
    plain = [c for c in ("HA", "CA", "DA", "SA") if game.ctx.effective_suit(parse_card(c)) != 4]
    for call, words in (("1 LJ", "the deck holds 0 copies of LJ (it is not in this deck)"),
                        ("4 " + plain[0], f"holds 3 copies of {plain[0]}")):
        rules = FriendRules(3, may_call="trumps_included")
        from shengji.friends import call_problem

        assert words in call_problem(parse_call(call), rules, game.ctx,
                                     game.composition.counts, game.level)


@pytest.mark.parametrize("players", [4, 13, 3])
def test_a_table_the_variant_cannot_seat_is_one_line(players):
    with pytest.raises(VariantError) as e:
        friends(players)
    msg = str(e.value)
    assert "players" in msg and str(players) in msg and "\n" not in msg


def test_too_many_calls_for_the_table_is_one_line():
    with pytest.raises(VariantError) as e:
        load_variant({"extends": "finding-friends", "friends": {"calls": 4}})
    assert "friends.calls: 4 with 5 players" in str(e.value)


def test_cli_names_the_bad_table(capsys):
    from shengji.cli import main

    assert main(["simulate", "--variant", "finding-friends", "--seats", "13", "--deals", "1",
                 "--no-progress"]) != 0
    err = capsys.readouterr().err
    assert "players: 13" in err and "Traceback" not in err


# ---------------------------------------------------------------------- joining, scoring

def _deal_records(game: Game):
    """Per scored deal: (DealStarted, FriendsCalled or None, [(seat, cards) played],
    [FriendJoined], points won per seat, DealScored)."""
    out, cur = [], None
    for e in game.events:
        if isinstance(e, DealStarted):
            cur = {"start": e, "called": None, "plays": [], "joined": [],
                   "won": [0] * game.players}
        elif isinstance(e, FriendsCalled):
            cur["called"] = e
        elif isinstance(e, Played):
            cur["plays"].append((e.seat, e.cards))
        elif isinstance(e, FriendJoined):
            cur["joined"].append(e)
        elif isinstance(e, TrickWon):
            cur["won"][e.seat] += e.points
        elif isinstance(e, DealScored):
            out.append((cur["start"], cur["called"], cur["plays"], cur["joined"], cur["won"],
                        e))
    return out


def check_friends_deals(game: Game) -> int:
    """Teams consistent with the calls, levels per seat consistent; returns the number
    of deals checked."""
    v = game.variant
    rules = v.friend_rules
    levels = None
    n = 0
    for start, called, plays, joined, won, scored in _deal_records(game):
        if levels is not None:
            assert start.levels == levels, "levels carried from one deal to the next"
        dealer = scored.dealer
        assert start.level == min(start.levels[dealer], 12), "the dealer's level is the deal's"
        calls = called.calls if called else ()
        assert len(calls) == rules.calls
        tracker = FriendTracker(calls, dealer, rules)
        for seat, cards in plays:
            tracker.play(seat, cards)
        assert tuple(tracker.side) == scored.side, "the side is who played a called copy"
        assert [(j.seat, j.call) for j in joined] == tracker.joined
        assert scored.side[0] == dealer and len(scored.side) < game.players
        # the points a friend won before joining count for the dealer's side at the end
        assert scored.trick_points == sum(p for s, p in enumerate(won) if s not in scored.side)
        short = rules.short_handed(scored.side)
        base = v.score_deal(scored.attacker_points)
        bonus = int(short and base.next == "dealers" and rules.bonus_level == "smaller_side")
        assert (scored.next_side, scored.rise) == (base.next, base.rise + bonus)
        winners = set(scored.side) if scored.next_side == "dealers" else \
            set(range(game.players)) - set(scored.side)
        assert set(scored.rising) == winners
        for s in range(game.players):  # each seat rises on its own
            gained = scored.levels[s] - start.levels[s]
            assert gained == (scored.rise if s in winners else 0)
        nxt = scored.next_dealer
        assert (nxt in scored.side) == (scored.next_side == "dealers")
        levels = scored.levels
        n += 1
    return n


def play_friends(players: int, deals: int, lineup=("random",), tag: str = "ff") -> int:
    v = friends(players)
    played = seed = 0
    while played < deals:
        game = Game(v, f"{tag}/{players}/{seed}", max_deals=min(8, deals - played))
        bots = [make_bot(lineup[s % len(lineup)], v, f"{tag}/{seed}/{s}")
                for s in range(players)]
        run_checked(game, bots)  # every play legal, cards conserved, every deal ends
        assert check_friends_deals(game) == game.deals_played
        played += game.deals_played
        seed += 1
    return played


@pytest.mark.parametrize("players", SIZES)
def test_random_deals_at_every_table_size(players):
    assert play_friends(players, 6) == 6


@pytest.mark.parametrize("players", [5, 6, 9, 12])
def test_heuristic_and_random_at_every_table_size(players):
    play_friends(players, 3, ("heuristic", "random"), "ffh")


@pytest.mark.long
@pytest.mark.parametrize("players", SIZES)
def test_thousands_of_deals_at_every_table_size(players):
    """Issue 11, must show: a few thousand random deals per table size."""
    assert play_friends(players, LONG_DEALS, tag="ff-long") == LONG_DEALS


@pytest.mark.parametrize("players", [5, 8, 12])
def test_a_match_ends_when_seats_pass_the_last_level(players):
    """Levels per seat: the match ends after the deal in which a seat rises past A (the
    side that wins a deal rises together, so several seats may pass at once: the highest
    level wins, then the lowest seat). Starting at Q keeps the matches short."""
    from shengji.engine import MatchOver

    v = load_variant({"extends": "finding-friends", "start_level": "Q"}, players=players)
    for seed in range(3):
        game = Game(v, f"end/{players}/{seed}", max_deals=60)
        run_checked(game, [make_bot("random", v, f"end/{seed}/{s}") for s in range(players)])
        assert check_friends_deals(game) == game.deals_played
        over = [e for e in game.events if isinstance(e, MatchOver)]
        assert len(over) == 1 and game.winner == over[0].winner
        levels = over[0].levels
        scored = [e for e in game.events if isinstance(e, DealScored)]
        assert all(max(e.levels) <= 12 for e in scored[:-1])  # nobody passed A before
        best = max(levels)
        assert best > 12 and over[0].winner == game.teams[levels.index(best)]


def test_a_game_with_friends_replays_and_round_trips():
    game = Game(friends(7), "record", max_deals=2)
    run_checked(game, [make_bot("random", game.variant, s) for s in range(7)])
    data = json.loads(json.dumps(game.to_dict()))
    assert data["players"] == 7
    again = Game.from_dict(data)
    assert again.snapshot() == game.snapshot()
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    import pickle

    assert pickle.loads(pickle.dumps(game)).snapshot() == game.snapshot()
    copy = game.copy()
    assert copy.snapshot() == game.snapshot()


def test_copies_do_not_share_the_friend_tracker():
    game = to_calling(Game(friends(5), "copy"))
    legal = game.legal_actions()
    game.apply(CallFriends(game.dealer, (legal[0].calls[0],)))
    twin = game.copy()
    assert twin._friends is not game._friends
    assert twin._friends.seen == game._friends.seen


# ---------------------------------------------------------------------- privacy

def _called_swap(game: Game, viewer: int):
    """A twin of ``game`` in which one copy of an unfulfilled call's card moves from one
    seat (not the viewer) to another (not the viewer), which gives back a card of its
    own: the same public facts, another friend. None when no such swap exists."""
    open_cards = {card for i, (_, card) in enumerate(game.calls)
                  if i not in {c for _, c in game.joined}}
    seats = [s for s in range(game.players) if s != viewer]
    for card in open_cards:
        for a in seats:
            if not game.hands[a][card]:
                continue
            for b in seats:
                if b == a or game.hands[b][card]:
                    continue
                back = next((k for k in range(54) if game.hands[b][k] and not game.hands[a][k]
                             and k not in open_cards), None)
                if back is None:
                    continue
                twin = game.copy()
                twin.hands[a][card] -= 1
                twin.hands[a][back] += 1
                twin.hands[b][back] -= 1
                twin.hands[b][card] += 1
                twin._seat_hands = [None] * twin.players
                return twin
    return None


_TABLES: dict = {}


def _seen_by(game: Game, seat: int) -> str:
    """Everything ``seat`` is told: its view, its protocol state (what the web page
    gets) and its log, as JSON text."""
    key = (game.variant.name, game.players)
    if key not in _TABLES:
        _TABLES[key] = Table(game.variant, "privacy")
    table = _TABLES[key]
    table.game = game  # the protocol table around this very game
    state = table.state(seat, since=0)
    return json.dumps([encode_view(game.view(seat), game.variant), state,
                       [e.to_dict() for e in game.events_for(seat)]], sort_keys=True)


def privacy_findings(players: int = 6, seed: str = "private") -> list[str]:
    """Until a called card is played, no seat's view, protocol state or log changes when
    the called copies sit in other hands (who the friend is stays hidden)."""
    game = to_calling(Game(friends(players), seed), seed)
    legal = game.legal_actions()
    bots = [make_bot("random", game.variant, f"{seed}/{s}") for s in range(players)]
    game.apply(bots[game.dealer].act(game.view(game.dealer), legal))
    findings = []
    checks = step = 0
    while game.phase == "play" and not game.sides_known:
        step += 1
        for viewer in range(players) if step % 3 == 1 else ():
            twin = _called_swap(game, viewer)
            if twin is None:
                continue
            checks += 1
            if _seen_by(twin, viewer) != _seen_by(game, viewer):
                findings.append(f"seat {viewer} sees a difference after trick "
                                f"{game.trick_number}")
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    assert checks > 10
    return findings


@pytest.mark.parametrize("players, seed", [
    (6, "private"), pytest.param(9, "private9", marks=pytest.mark.long)])
def test_no_seat_learns_a_friend_before_the_card_is_played(players, seed):
    assert privacy_findings(players, seed) == []


def _leaky_sides(game, seat):
    """A broken engine: announces as friends the seats holding a called card."""
    honest = dict(game.side and {"side": game.side} or {"side": ()})
    holders = [s for s in range(game.players)
               for _, card in game.calls if game.hands[s][card] and s not in honest["side"]]
    return {"side": tuple(honest["side"]) + tuple(dict.fromkeys(holders)),
            "sides_known": game.sides_known, "calls": game.calls, "joined": game.joined}


def test_the_privacy_test_catches_a_leak(monkeypatch):
    """Switch the hiding off (views take the sides from a leaky function): the same
    checks must fail, or they prove nothing."""
    monkeypatch.setattr(view_module, "public_sides", _leaky_sides)
    assert privacy_findings() != []


def test_views_only_show_friends_that_played():
    """Every seat's view of the sides names the dealer and the seats that played a
    called copy, nobody else, until every call is fulfilled."""
    game = to_calling(Game(friends(8), "views"))
    bots = [make_bot("heuristic", game.variant, s) for s in range(8)]
    revealed = [game.dealer]
    scored = False
    while not scored:
        seat = game.to_act
        for e in game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat))):
            if isinstance(e, FriendJoined) and e.seat not in revealed:
                revealed.append(e.seat)
            scored = scored or isinstance(e, DealScored)
        if not scored:
            for viewer in range(8):
                assert game.view(viewer).side == tuple(revealed)


def test_same_side_is_unknown_until_revealed():
    game = to_calling(Game(friends(6), "same"))
    game.apply(CallFriends(game.dealer, tuple(a.calls[0] for a in game.legal_actions()[:2])))
    v = game.view((game.dealer + 1) % 6)
    other = (game.dealer + 2) % 6
    assert v.same_side(game.dealer, game.dealer) is True
    assert v.same_side(v.seat, other) is None
    assert v.same_side(v.seat, game.dealer) is None  # the viewer may still be a friend


def test_web_messages_name_a_friend_only_after_the_card_is_played():
    """The web page gets the protocol state of its seat: its dealer's side grows only
    with the FriendJoined events the same seat has received."""
    pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient
    from webtools import BASE, WS, join, new_room, send, some_action, until

    from shengji.frontends.web.app import create_app

    app = create_app(bot_delay=0, default_variant="finding-friends", seats=6)
    with TestClient(app, base_url=BASE) as client:
        code = new_room(client, variant="finding-friends", seed=3)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code, seat=0, name="ann")
            send(ws, type="start", token=me["token"])
            revealed: list = []
            states = 0
            while True:
                msg = until(ws, "state")
                for e in msg["events"]:
                    if e["type"] == "TrumpSet":
                        revealed = [e["dealer"]]
                    elif e["type"] == "FriendJoined" and e["seat"] not in revealed:
                        revealed.append(e["seat"])
                view = msg["view"]
                assert view["players"] == 6
                if view["phase"] in ("play", "call"):
                    assert view["side"] == revealed, (view["side"], revealed)
                    states += 1
                if msg["over"]:
                    break
                if msg["legal"]:
                    send(ws, type="action", token=me["token"], action=some_action(msg))
            assert states > 10


# ---------------------------------------------------------------- enough cards to call

@pytest.mark.parametrize("settings", [
    {"extends": "finding-friends"},
    {"extends": "finding-friends", "players": 6, "friends": {"may_call": "highest_not_allowed"}},
    {"extends": "finding-friends", "friends": {"may_call": "point_cards_not_allowed"},
     "play": {"constant_ranks": ["2", "3", "J"]}},
    {"extends": "finding-friends", "deck": {"packs": 2, "lowest_rank": ["9", "5"],
                                            "big_jokers": 2, "little_jokers": 2},
     "hand_size": 13, "kitty_size": 3,
     "friends": {"may_call": "highest_not_allowed"}},
], ids=["plain", "highest", "points-constants", "short-packs"])
def test_fewest_calls_is_what_the_core_allows_at_its_worst(settings):
    """issue 34: fewest_calls works the worst deal out from the cards alone; the core's
    contexts (every level and trump) agree with it."""
    from shengji.friends import allowed_calls, fewest_calls

    v = load_variant(settings)
    rules, copies = v.friend_rules, v.composition.counts
    core = min((len(allowed_calls(rules, v.context(level, trump), copies, level)), level, trump)
               for level in range(14) for trump in (0, 1, 2, 3, None))
    got = fewest_calls(rules, copies, v.play_rules.constant_ranks)
    assert got[0] == core[0]
    level, trump = got[1], got[2]
    assert len(allowed_calls(rules, v.context(level, trump), copies, level)) == got[0]


def test_a_dealer_is_never_left_with_nothing_to_call():
    """issue 34: every rank constant made every card a trump; the dealer had to call five
    cards and the call phase listed none (a room stuck for ever)."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    with pytest.raises(VariantError, match=r"friends.calls: 5 calls, and a deal at level .* "
                                           r"leaves 0 cards that may be called"):
        load_variant({"extends": "finding-friends", "players": 12,
                      "play": {"constant_ranks": ranks}})
    # twelve of them: only the deal at the thirteenth rank's level has nothing to call
    with pytest.raises(VariantError, match="at level A with trump"):
        load_variant({"extends": "finding-friends", "players": 12,
                      "play": {"constant_ranks": ranks[:-1]}})
    # calls that may be trumps never run out
    load_variant({"extends": "finding-friends", "players": 12,
                  "friends": {"may_call": "trumps_included"}, "play": {"constant_ranks": ranks}})
