"""The built-in rules: every hook of ``shengji.hookspecs`` implemented from the variant's
settings (its YAML data), registered ``trylast`` so any variant plugin overrides it.

There is no second code path: the engine always asks the hooks, and these are simply the
last answers. Each implementation reads the data sections documented in docs/variants.md
(``declare``, ``scoring``, ``penalties``, ``next_dealer``, ``match_end``, ``play``);
``DEFAULTS`` fills what a variant file leaves out.
"""

from __future__ import annotations

import random

from .cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    NO_TRUMP_LEVEL,
    SUITS,
    parse_level,
    parse_rank,
    parse_suit,
    rank_of,
    suit_of,
)
from .hookspecs import hookimpl
from .model import FailedThrow, NoBidOutcome, ScoreOutcome
from .rules import PlayRules

#: Settings every variant has unless its files say otherwise (seed 000's two-deck rules;
#: ``scoring`` without a table gets seed 000's pattern with ``step`` = 20 points per deck).
DEFAULTS: dict = {
    "players": 4,
    "game_mode": "fixed_teams",
    "start_level": "2",
    "plugins": [],
    "play": {},
    "declare": {
        "min_level_cards": 1,
        "jokers": {"allowed": True, "min": 2, "min_big": None, "big_beats_little": True},
        "equal_count": "jokers",
        "suit_order": ["D", "C", "H", "S"],
        "overturn": True,
        "overturn_same_suit": False,
        "reinforce": True,
        "self_overturn": True,
        "reinforce_to_match": False,
        "takeback": False,
        "when_nobody": "no_trump",
        "first_deal_redeal": False,
        "redeal_limit": 10,
        "nobody_first_dealer": "dealt_first",
        "first_dealer": "first_declarer",
        "kitty_theft": False,
        "theft_burier_bids": False,
        "takeback_while_standing": False,
        # --- issue 35 (house rules of real tables) ---
        "theft": {},
        "own_level": False,
        "weak_hand_redeal": {"points": None, "trumps": None, "limit": 3, "dealer": "kept"},
    },
    "penalties": {"failed_throw": 0, "failed_throw_per_card": 0},
    "table": {"hide_played_cards": False, "hide_dealer_points": False,
              "play_takeback": False, "hide_throw_halting_player": False,
              "reveal_kitty_at_end": True},
    "scoring": {"below_zero": False},
    "next_dealer": {"hold": "partner"},
    "match_end": {"last_level": "A", "as_dealer": False, "cycle": False},
    "advancement": {"must_defend": [], "jack_rule": False, "ladder": []},
    "bury": {"points": True, "trumps": True, "called_cards": True},
}


def standard_table(step: int) -> list[dict]:
    """Seed 000's scoring pattern for a step of ``step`` points (two decks: 40):
    0 → dealers +3; < 1 step +2; < 2 steps +1; < 3 steps attackers take over;
    then attackers +1, +2 per further step (and +1 per step beyond, see ``score``)."""
    return [
        {"below": 1, "next": "dealers", "rise": 3},
        {"below": step, "next": "dealers", "rise": 2},
        {"below": 2 * step, "next": "dealers", "rise": 1},
        {"below": 3 * step, "next": "attackers", "rise": 0},
        {"below": 4 * step, "next": "attackers", "rise": 1},
        {"below": 5 * step, "next": "attackers", "rise": 2},
    ]


def below_zero(settings: dict) -> bool:
    """Are attackers' totals below zero scored as they are (``scoring.below_zero``)?"""
    return bool((settings.get("scoring") or {}).get("below_zero", False))


def scoring_table(settings: dict, decks: int) -> tuple[int, list[dict]]:
    """(step, rows) of a variant: its own table, or the standard one for its step."""
    scoring = settings.get("scoring") or {}
    step = scoring.get("step", 20 * decks)
    return step, list(scoring.get("table") or standard_table(step))


def score(table: list[dict], step: int, points: int, below_zero: bool = False) -> ScoreOutcome:
    """Look ``points`` up in a table of ``{below, next, rise}`` rows (ascending
    ``below``). Past the last row, its side rises one more level per further ``step``
    points (seed 000: "以後以 40 分為一個等級"). With ``below_zero`` the first row reaches
    down to its ``below`` - ``step``, and its side rises one more level per further
    ``step`` below that (shengji.io scoring.rs: -40 → dealers +4, -80 → +5 on two decks)."""
    first = table[0]
    if below_zero and points < first["below"]:
        return ScoreOutcome(next=first["next"],
                            rise=first["rise"] + (first["below"] - 1 - points) // step)
    for row in table:
        if points < row["below"]:
            return ScoreOutcome(next=row["next"], rise=row["rise"])
    last = table[-1]
    return ScoreOutcome(next=last["next"], rise=last["rise"] + 1 + (points - last["below"]) // step)


# --- play rules ----------------------------------------------------------------------


@hookimpl(trylast=True)
def shengji_following_priorities(variant):
    return dict(variant.settings["play"].get("following") or {})


@hookimpl(trylast=True)
def shengji_play_rules(variant):
    play = dict(variant.settings["play"])
    play["following"] = variant.hook.shengji_following_priorities(variant=variant) or {}
    play["decks"] = variant.composition.max_copies
    play["copies"] = variant.composition.counts
    return PlayRules.from_mapping(play)


# --- declarations ------------------------------------------------------------------------


def joker_min(value, decks: int) -> int:
    """A joker minimum of ``declare.jokers``: a count, ``decks`` or ``decks-1`` (never
    below one card)."""
    if value == "decks":
        return decks
    if value == "decks-1":
        return max(1, decks - 1)
    return int(value)


@hookimpl(trylast=True)
def shengji_declaration_strength(variant, cards, level):
    """(n, class[, suit]): n identical cards; class 0 level cards, 1 little jokers, 2 big
    jokers (jokers share class 1 when the big joker does not beat the little one).
    ``equal_count`` says what beats a bid of as many cards: ``jokers`` (the class),
    ``nothing`` (only n counts), ``jokers_or_higher_suit`` (then a pair or more of a
    higher suit in ``suit_order``)."""
    rules = variant.settings["declare"]
    if not cards or len(set(cards)) != 1:
        return ()
    card, n = cards[0], len(cards)
    if card in (LITTLE_JOKER, BIG_JOKER):
        jokers = rules["jokers"]
        big = card == BIG_JOKER
        least = jokers["min_big"] if big and jokers["min_big"] is not None else jokers["min"]
        if not jokers["allowed"] or n < joker_min(least, variant.decks):
            return ()
        cls, suit = (2 if big and jokers["big_beats_little"] else 1), 0
    else:
        if rank_of(card) != level or n < rules["min_level_cards"]:
            return ()
        cls, suit = 0, 0
        if n >= 2:  # shengji.io JokerOrHigherSuit: a single never outranks by suit
            suit = 1 + [parse_suit(x) for x in rules["suit_order"]].index(suit_of(card))
    equal = rules["equal_count"]
    if equal == "nothing":
        return (n,)
    if equal == "jokers_or_higher_suit":
        return (n, cls, suit)
    return (n, cls)


def _own_last(bids, seat):
    return next((b for b in reversed(bids) if b.seat == seat), None)


@hookimpl(trylast=True)
def shengji_may_overturn(variant, current, new, bids, phase):
    """Accept a strictly stronger bid; by the same seat only as reinforcement (same
    card: 自保) or self-overturn (自反), by another seat only as an overturn (反主), of
    another suit unless ``overturn_same_suit``. ``reinforce_to_match``: a seat that was
    overturned may add cards to its own last bid up to the standing bid's count (not
    against jokers). In a theft round (phase ``steal``) the switches ``declare.theft``
    sets replace the dealing ones (Ran's 炒地皮: nobody cooks his own declaration)."""
    rules = variant.settings["declare"]
    if phase == "steal" and rules.get("theft"):
        rules = {**rules, **rules["theft"]}
    if not new.strength:
        return False
    if current is None:
        return True
    same_card = new.cards[0] == current.cards[0]
    if new.seat != current.seat and rules["reinforce_to_match"]:
        own = _own_last(bids, new.seat)
        if (own is not None and own.cards[0] == new.cards[0] and len(own.cards) < len(new.cards)
                and len(new.cards) == len(current.cards) and current.trump is not None
                and not same_card):
            return True
    if new.strength <= current.strength:
        return False
    if new.seat == current.seat:
        if same_card:
            return rules["reinforce"]
        own = rules["self_overturn"]
        # same_trump (ejfn/Tractor): the declarer strengthens only what it names: its
        # little-joker pair by a big-joker pair, never another suit
        return new.trump == current.trump if own == "same_trump" else own
    return rules["overturn"] and (not same_card or rules["overturn_same_suit"])


#: the ``when_nobody`` rules that turn the kitty up to a level card
TURN_TO_LEVEL = ("turn_kitty_level", "turn_kitty_level_suit_first", "turn_kitty_level_skip_jokers")


@hookimpl(trylast=True)
def shengji_no_declaration(variant, deal_number, kitty, level, redeals):
    rules = variant.settings["declare"]
    if level == NO_TRUMP_LEVEL:
        return NoBidOutcome(trump=None)  # the NT level is played without trump
    if deal_number == 0 and rules["first_deal_redeal"] and redeals < rules["redeal_limit"]:
        return NoBidOutcome(trump=None, redeal=True)
    if rules["when_nobody"] == "turn_kitty" and kitty:
        # seed 002: the kitty's first card names the suit; a joker leaves no trump
        card = kitty[0]
        return NoBidOutcome(trump=suit_of(card), turned_card=card)
    when = rules["when_nobody"]
    if when in TURN_TO_LEVEL and kitty:
        # shengji.io FirstCardOfLevelOrHighest: turn until a level card or a joker; with
        # none, the highest card names the suit: by rank (ties: the first turned), or as
        # shengji.io sorts the kitty, by its no-trump order, suit first (♣ < ♦ < ♠ < ♥).
        # Ran's table (turn_kitty_level_skip_jokers) turns past the jokers.
        skip = when == "turn_kitty_level_skip_jokers"
        card = next((c for c in kitty if (c >= LITTLE_JOKER and not skip)
                     or (c < LITTLE_JOKER and rank_of(c) == level)), None)
        suited = [c for c in kitty if c < LITTLE_JOKER] if skip else kitty
        if card is None and not suited:
            return NoBidOutcome(trump=None, turned_card=kitty[-1])  # jokers only: no trump
        if card is None and when != "turn_kitty_level_suit_first":
            card = max(suited, key=lambda c: (rank_of(c), -kitty.index(c)))
        elif card is None:
            card = max(kitty, key=lambda c: ("CDSH".index(SUITS[suit_of(c)]), rank_of(c),
                                             -kitty.index(c)))
        return NoBidOutcome(trump=suit_of(card), turned_card=card)
    return NoBidOutcome(trump=None)


def drawn_seat(seed: str, players: int) -> int:
    """A seat drawn from ``seed`` (the first dealer of a rule that draws)."""
    return random.Random(f"{seed}:first-dealer").randrange(players)


@hookimpl(trylast=True)
def shengji_first_dealer(variant, bids, players, seed):
    rules = variant.settings["declare"]
    if rules["first_dealer"] == "random":
        # 80-fen-shengji firstDealer=random: a cut before the deal, whatever is declared
        return drawn_seat(seed, players)
    if not bids:
        # nobody declared (or the redeals ran out): a stated rule, never a silent seat
        if rules["nobody_first_dealer"] == "random":
            return drawn_seat(seed, players)
        return 0  # dealt_first: the seat dealt the first card of a first deal
    rule = rules["first_dealer"]
    return (bids[0] if rule == "first_declarer" else bids[-1]).seat


# --- playing -------------------------------------------------------------------------------


def _card_ids(hand) -> tuple[int, ...]:
    return tuple(hand.cards()) if hasattr(hand, "cards") else tuple(hand)


@hookimpl(trylast=True)
def shengji_failed_throw(variant, result, leader, players):
    options = list(result.forced_options or []) or [result.forced]
    penalties = variant.settings["penalties"]
    return FailedThrow(
        options=tuple(_card_ids(h) for h in options),
        # seed 002: with several beaten components the next player picks the forced one
        chooser=(leader + 1) % players if len(options) > 1 else None,
        penalty=penalties["failed_throw"],
        # pagat's rule, as 80分 docs/RULES.md §K reports it: per card taken back
        penalty_per_card=penalties["failed_throw_per_card"],
    )


@hookimpl(trylast=True)
def shengji_kitty_multiplier(variant, context, play, lead):
    # the policy is PlayRules data, so the core computes it
    return context.kitty_multiplier(play, lead)


# --- after the deal, the match ---------------------------------------------------------------


@hookimpl(trylast=True)
def shengji_score_deal(variant, attacker_points, short_handed):
    step, table = scoring_table(variant.settings, variant.decks)
    out = score(table, step, attacker_points, below_zero(variant.settings))
    rules = variant.friend_rules
    if (short_handed and out.next == "dealers" and rules is not None
            and rules.bonus_level == "smaller_side"):
        # shengji.io scoring.rs: BonusLevelForSmallerLandlordTeam, only when the side holds
        return ScoreOutcome(next=out.next, rise=out.rise + 1)
    return out


def _next_seat_where(start: int, players: int, want) -> int:
    for i in range(1, players + 1):
        seat = (start + i) % players
        if want(seat):
            return seat
    return start


@hookimpl(trylast=True)
def shengji_next_dealer(variant, dealer, outcome, players, side):
    ours = set(side) if side else {s for s in range(players)
                                   if variant.teams[s] == variant.teams[dealer]}
    if outcome.next == "dealers":
        if variant.settings["next_dealer"]["hold"] == "dealer":
            return dealer
        return _next_seat_where(dealer, players, lambda s: s in ours)  # the partner
    return _next_seat_where(dealer, players, lambda s: s not in ours)  # the seat after


@hookimpl(trylast=True)
def shengji_start_level(variant):
    start = variant.settings["start_level"]
    if not isinstance(start, list):
        return parse_rank(start)
    levels = [parse_rank(r) for r in start]
    if len(levels) == variant.players:
        return tuple(levels)
    # one per team, in the order of the team ids (checked when the variant loads)
    ids = sorted(set(variant.teams))
    return tuple(levels[ids.index(t)] for t in variant.teams)


@hookimpl(trylast=True)
def shengji_match_winner(variant, levels, outcome, dealer_team, side):
    # a level past the last one can only be reached as shengji_advance allows (with
    # match_end.as_dealer: by holding the deal as dealers at the last level)
    last = parse_level(variant.settings["match_end"]["last_level"])
    passed = [t for t, lv in levels.items() if lv > last]
    return max(passed, key=lambda t: levels[t]) if passed else None


def must_defend(variant) -> frozenset:
    """Levels a seat rises past only by holding the deal as dealers at that level:
    ``advancement.must_defend``, and the last level with ``match_end.as_dealer``."""
    ranks = {parse_level(r) for r in variant.settings["advancement"]["must_defend"]}
    end = variant.settings["match_end"]
    if end["as_dealer"]:
        ranks.add(parse_level(end["last_level"]))
    return frozenset(ranks)


@hookimpl(trylast=True)
def shengji_advance(variant, level, rise, defending, deal_level):
    """One level at a time (shengji.io AdvancementPolicy): a must-defend level is passed
    only by the dealers' side, on the first level of its rise; any other rise stops on
    it; NT is passed only when the deal itself was played at NT (shengji.io
    play_phase.rs: "to advance past NoTrump, the landlord must also be defending
    NoTrump"), so a teammate at NT under a dealer at K stays. Past the last level the
    seat has won (the levels beyond count on for ties)."""
    # the rise stops on the first must-defend level it meets (the dealers pass the one
    # they start on), else goes the whole way: worked out without stepping (a hostile
    # rise of 10**30 took forever one level at a time)
    top = variant.top_level
    target = level + rise
    ladder = [parse_level(r) for r in variant.settings["advancement"]["ladder"]]
    if ladder:  # 80fen speed mode: one rung per deal risen in, whatever the rise
        target = next((r for r in ladder if r > level), top + 1)
    cycle = variant.settings["match_end"]["cycle"]
    met = []
    for s in must_defend(variant):
        # with match_end.cycle the levels go round: the next time the rise meets it
        at = level + (s - level) % (top + 1) if cycle else s
        if level <= at < target and not (
                defending and at == level and (s != NO_TRUMP_LEVEL or deal_level == s)):
            met.append(at)
    return min(met) if met else target


@hookimpl(trylast=True)
def shengji_dealers_back_to_start(variant, deal_level, last_play, attackers_won):
    """The jack rule (shengji.io BackToTwoSetting::SingleJack): playing J, the attackers
    win the last trick with a single jack: the dealers' side goes back to the start
    level before this deal's rise."""
    return bool(variant.settings["advancement"]["jack_rule"] and attackers_won
                and deal_level == parse_rank("J") and len(last_play) == 1
                and rank_of(last_play[0]) == deal_level)
