"""What each case kind asks the engine, and how an answer is compared with ``expect``.

Each judge takes the case's variant and the case and returns the engine's answer as plain
data in the notation of the case files, so that expected and got print the same way.
The meaning of every kind is fixed by the conformance contract (docs/conformance.md);
the play kinds ask the deal's core context (``variant.context``), ``kitty_multiplier``,
``score`` and ``declare`` go through the variant's hooks so a plugin's rule is what gets
tested.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import SUITS as SUIT_LETTERS
from ..cards import (
    counts_of,
    format_counts,
    level_name,
    parse_cards,
    parse_level,
    parse_suit,
    suit_of,
)
from ..errors import CardError, HandError, ShengjiError
from .casefile import Case

INPUT_ERRORS = (CardError, HandError)


def canonical(cards) -> str:
    """A card string in canonical order (order never matters in a group of cards)."""
    return format_counts(counts_of(parse_cards(cards)))


def _ctx(variant, case: Case):
    return variant.context(case.level, case.trump)


def _hand(variant, cards):
    from ..core import Hand

    hand = Hand(cards, decks=variant.decks)
    variant.composition.check(hand.cards())  # a card the deck leaves out is an input error
    return hand


# --- judges: (variant, case) -> answer in case-file notation ---------------------------


def judge_compare(variant, case: Case):
    a, b = case.value
    ctx = _ctx(variant, case)
    # each side must be exactly one card; anything else is the engine's input error
    ca, cb = (_single(variant, x) for x in (a, b))
    return ctx.compare(ca, cb)


def _single(variant, text: str) -> int:
    cards = _hand(variant, text).cards()
    if len(cards) != 1:
        raise CardError(f"compare: {text!r} is not one card")
    return cards[0]


def judge_tractor(variant, case: Case):
    return bool(_ctx(variant, case).is_tractor(_hand(variant, case.value)))


def judge_decompose(variant, case: Case):
    comps = _ctx(variant, case).decompose(_hand(variant, case.value))
    return [str(c.cards) for c in comps]


def judge_follow(variant, case: Case):
    v = case.value
    lead, hand, play = (_hand(variant, v[k]) for k in ("lead", "hand", "play"))
    hand - play  # a play not in the hand is an input error (HandError), not "illegal"
    result = _ctx(variant, case).check_follow(lead, hand, play)
    return "legal" if result.ok else "illegal"


def _seats(variant, n: int, what: str) -> None:
    if n != variant.players:
        raise HandError(f"{what}: {n} given, but variant {variant.name} seats "
                        f"{variant.players} players (one per seat)")


def judge_winner(variant, case: Case):
    _seats(variant, len(case.value["plays"]), "winner.plays")
    plays = [_hand(variant, p) for p in case.value["plays"]]
    return int(_ctx(variant, case).trick_winner(plays))


def refused_throw(ctx, lead, others) -> bool:
    """Is the throw refused before it is made (play.trump_throws: false, play.throw_check:
    unseen; docs/semantics.md §6)? Under unseen a case's other holdings are all the cards
    its thrower cannot see (no kitty, nothing played)."""
    rules = ctx.rules
    if len(ctx.decompose(lead)) < 2:
        return False
    if not rules.trump_throws and all(ctx.is_trump(k) for k in lead.cards()):
        return True
    if rules.throw_check != "unseen":
        return False
    unseen = others[0]
    for h in others[1:]:
        unseen = unseen + h
    return not ctx.check_throw(lead, [unseen]).valid


def judge_throw(variant, case: Case):
    ctx = _ctx(variant, case)
    lead = _hand(variant, case.value["lead"])
    _seats(variant, len(case.value["others"]) + 1, "throw: the leader and others")
    others = [_hand(variant, h) for h in case.value["others"]]
    if refused_throw(ctx, lead, others):
        return {"valid": False, "refused": True}
    result = ctx.check_throw(lead, others)
    if result.valid:
        return {"valid": True}
    # the variant decides how a failed throw resolves (hook shengji_failed_throw)
    options = [str(o) for o in (result.forced_options or [])]
    penalty = 0
    if hasattr(variant, "failed_throw"):
        ft = variant.failed_throw(result, 0, lead)
        options = [format_counts(counts_of(list(o))) for o in ft.options]
        # the points the other side gains once the forced play (options[0]) is made
        penalty = ft.penalty + ft.penalty_per_card * (len(lead) - len(ft.options[0]))
    forced = options[0] if options else (str(result.forced) if result.forced is not None else None)
    return {"valid": False, "forced": forced, "forced_options": options, "penalty": penalty}


def judge_kitty(variant, case: Case):
    ctx = _ctx(variant, case)
    play = _hand(variant, case.value["play"])
    lead = _hand(variant, case.value["lead"]) if "lead" in case.value else None
    return int(variant.kitty_multiplier(ctx, play, lead))


def judge_score(variant, case: Case):
    out = variant.score_deal(case.value["attacker_points"],
                             short_handed=case.value.get("short_handed", False))
    return {"next": out.next, "rise": out.rise}


def judge_next_dealer(variant, case: Case):
    v = case.value
    _seat(variant, v["dealer"], "next_dealer.dealer")
    return int(variant.next_dealer(v["dealer"], variant.score_deal(v["attacker_points"])))


def _seat(variant, seat: int, key: str) -> None:
    if not 0 <= seat < variant.players:
        raise ShengjiError(f"{key}: no seat {seat} (seats are 0..{variant.players - 1})")


def judge_first_dealer(variant, case: Case):
    _, bids = _steps(variant, case)
    return int(variant.first_dealer(bids, seed=str(case.value.get("seed", ""))))


def judge_no_bid(variant, case: Case):
    v = case.value
    _hand(variant, v["kitty"])  # checked like a hand; the written order is the kitty's
    kitty = tuple(parse_cards(v["kitty"]))
    out = variant.no_declaration(v["deal"], kitty, case.level, v.get("redeals", 0))
    return {
        "redeal": bool(out.redeal),
        "trump": "none" if out.trump is None else SUIT_LETTERS[out.trump],
        "turned": None if out.turned_card is None else canonical([out.turned_card]),
    }


def judge_advance(variant, case: Case):
    v = case.value
    deal = v.get("deal_level")
    new = variant.advance(parse_level(v["from"]), v["rise"], v["dealers"],
                          None if deal is None else parse_level(deal))
    return level_name(new) if new <= variant.top_level else "past"


def judge_back_to_start(variant, case: Case):
    play = tuple(_hand(variant, case.value["last_play"]).cards())
    return bool(variant.dealers_back_to_start(case.level, play, case.value["attackers_won"]))


def judge_visibility(variant, case: Case):
    from ..engine.view import kitty_hidden, points_shown, shown_tricks, throw_note

    table = variant.settings["table"]
    note = throw_note(table, {"blocker": 1, "beaten": "", "beaten_by": ""})
    return {
        "tricks_shown": list(shown_tricks(table, case.value["completed_tricks"])),
        "dealer_points": points_shown(table, True),
        "attacker_points": points_shown(table, False),
        # a failed throw names the seat that stopped it; another seat (here 2, the
        # last burier being 0) sees the kitty once the deal is over
        "throw_blocker_shown": "blocker" in note or "beaten_by" in note,
        "kitty_shown": not kitty_hidden(table, 2, 0),
    }


def _steps(variant, case: Case) -> tuple[list[bool], list]:
    """Judge declaration steps in order: (accepted per step, the accepted bids)."""
    bids: list = []
    accepted = [_try_bid(variant, case, step, bids) is not None for step in case.value["steps"]]
    return accepted, bids


def _try_bid(variant, case: Case, step, bids: list, phase: str = "deal", level=None):
    """The Bid of one ``{seat, cards}`` step if the variant accepts it now (appended to
    ``bids``), else None. ``phase``: ``deal`` or ``steal`` (a kitty-theft round);
    ``level``: the level the seat declares at (default the case's)."""
    from ..model import Bid

    cards = tuple(_hand(variant, step["cards"]).cards())
    trump = _named_suit(cards)
    if trump is _MIXED:
        return None
    strength = tuple(variant.declaration_strength(
        cards, case.level if level is None else level) or ())
    if not strength:
        return None
    bid = Bid(seat=step["seat"], cards=cards, trump=trump, strength=strength)
    if not variant.may_overturn(bids[-1] if bids else None, bid, bids, phase):
        return None
    bids.append(bid)
    return bid


def judge_bidding(variant, case: Case):
    """A deal's bidding as the engine runs it: declarations while dealing (a take-back
    right after one's own accepted declaration, once per deal, with declare.takeback),
    the dealer (given, or the first deal's rule), then kitty theft after the burial
    (declare.kitty_theft: any seat but the kitty's holder, only after a declared trump;
    the holder too with declare.theft_burier_bids), judged as a theft round (phase
    ``steal``: declare.theft). ``levels``, one per seat: with declare.own_level and no
    dealer yet, each seat declares at its own, and the deal is played at its dealer's."""
    rules = variant.settings["declare"]
    v = case.value
    own = v.get("levels") if rules["own_level"] and v.get("dealer") is None else None
    if own is not None:
        _seats(variant, len(own), "bidding.levels")
    bids: list = []
    accepted: list[bool] = []
    took_back: set = set()
    just_declared = None  # seat whose declaration the previous step made
    for step in v["steps"]:
        seat = step["seat"]
        _seat(variant, seat, "bidding.steps.seat")
        if "take_back" in step:
            # declare.takeback: right after one's own declaration; with
            # takeback_while_standing whenever one's declaration stands
            ok = seat not in took_back and (
                (rules["takeback"] and just_declared == seat)
                or (rules["takeback_while_standing"] and bool(bids) and bids[-1].seat == seat))
            if ok:
                bids.pop()
                took_back.add(seat)
            just_declared = None
        else:
            level = None if own is None else parse_level(own[seat])
            ok = _try_bid(variant, case, step, bids, level=level) is not None
            just_declared = seat if ok else None
        accepted.append(ok)
    dealer = v.get("dealer")
    if dealer is None:
        dealer = variant.first_dealer(bids)
    _seat(variant, dealer, "bidding.dealer")
    levels = v.get("levels")
    assert case.level is not None  # casefile: a bidding case needs its level
    deal_level = level_name(case.level if levels is None else parse_level(levels[dealer]))
    holder, declared = dealer, bool(bids)
    for step in v.get("steal", []):
        seat = step["seat"]
        _seat(variant, seat, "bidding.steal.seat")
        # declare.theft_burier_bids: the holder may declare too; keeping the trump it
        # stays the holder, another trump takes the kitty back (it holds it either way)
        ok = (rules["kitty_theft"] and declared
              and (seat != holder or rules["theft_burier_bids"])
              and _try_bid(variant, case, step, bids, "steal",
                           parse_level(deal_level)) is not None)
        if ok:
            holder = seat
        accepted.append(ok)
    standing = bids[-1] if bids else None
    out = {
        "accepted": accepted,
        "trump": "none" if standing is None or standing.trump is None
        else SUIT_LETTERS[standing.trump],
        "declarer": None if standing is None else standing.seat,
        "dealer": dealer,
        "kitty": holder,
    }
    if levels is not None:  # the deal's level, asked when the seats' levels are given
        out["level"] = deal_level
    return out


def _eff(variant, case: Case) -> list[int]:
    ctx = _ctx(variant, case)
    return [ctx.effective_suit(k) for k in range(54)]


def judge_bury(variant, case: Case):
    """A burial under the variant's ``bury`` settings: ``hand`` (all the cards held,
    the kitty taken), ``bury`` (as many cards as the kitty), ``called`` (the cards
    called, when the seat burying is a thief, not the dealer)."""
    from ..engine.exchange import bury_limit

    v = case.value
    hand, bury = _hand(variant, v["hand"]), _hand(variant, v["bury"])
    hand - bury  # a burial not in the hand is an input error
    called = tuple(_hand(variant, v["called"]).cards()) if "called" in v else ()
    limit = bury_limit(variant.settings["bury"], _eff(variant, case), hand.counts,
                       len(bury.cards()), called)
    if limit is None:
        return "legal"
    return "legal" if sum(c in limit[0] for c in bury.cards()) <= limit[1] else "illegal"


def judge_redeal(variant, case: Case):
    """May a hand of the dealer's opponents ask for a redeal (declare.weak_hand_redeal)?"""
    from ..engine.redeal import weak_hand

    hand = _hand(variant, case.value["hand"])
    return weak_hand(variant.settings["declare"]["weak_hand_redeal"], _eff(variant, case),
                     hand.counts)


def judge_start_levels(variant, case: Case):
    return [level_name(lv) for lv in variant.start_levels()]


def judge_declare(variant, case: Case):
    accepted, bids = _steps(variant, case)
    standing = bids[-1] if bids else None
    return {
        "accepted": accepted,
        "trump": "none"
        if standing is None or standing.trump is None
        else SUIT_LETTERS[standing.trump],
        "declarer": None if standing is None else standing.seat,
    }


_MIXED = object()


def _named_suit(cards: tuple[int, ...]):
    """The suit a declaration names: None for jokers only, the suit of its suited cards,
    or _MIXED when it shows several suits (or jokers with suited cards): such a step
    names no single trump and is rejected."""
    suits = {suit_of(c) for c in cards}
    if not cards:
        return _MIXED
    if suits == {None}:
        return None
    if len(suits) == 1:
        return suits.pop()
    return _MIXED


def _friend_rules(variant):
    """The variant's finding-friends rules; fixed teams call nobody (0 calls)."""
    from ..friends import FriendRules

    return variant.friend_rules or FriendRules(calls=0)


def judge_friend_call(variant, case: Case):
    from ..friends import calls_problem, parse_calls

    calls = parse_calls(case.value["calls"])  # a malformed call is an input error
    # the dealer's hand, when given (the other copy asks for all copies but one held)
    hand = _hand(variant, case.value["hand"]).counts if "hand" in case.value else None
    assert case.level is not None  # a context kind: read_cases made its level a problem
    problem = calls_problem(calls, _friend_rules(variant), _ctx(variant, case),
                            variant.composition.counts, case.level, hand)
    return "invalid" if problem else "valid"


def judge_friends(variant, case: Case):
    from ..friends import FriendTracker, parse_calls

    v = case.value
    _seat(variant, v["dealer"], "friends.dealer")
    tracker = FriendTracker(parse_calls(v["calls"]), v["dealer"], _friend_rules(variant))
    for seat, cards in v["plays"]:
        _seat(variant, seat, "friends.plays")
        tracker.play(seat, sorted(_hand(variant, cards).cards(), reverse=True))
    return {"side": list(tracker.side), "joined": [list(j) for j in tracker.joined]}


JUDGES: dict[str, Callable[[Any, Case], Any]] = {
    "compare": judge_compare,
    "tractor": judge_tractor,
    "decompose": judge_decompose,
    "follow": judge_follow,
    "winner": judge_winner,
    "throw": judge_throw,
    "kitty_multiplier": judge_kitty,
    "score": judge_score,
    "declare": judge_declare,
    "friend_call": judge_friend_call,
    "friends": judge_friends,
    "next_dealer": judge_next_dealer,
    "first_dealer": judge_first_dealer,
    "no_bid": judge_no_bid,
    "bidding": judge_bidding,
    "visibility": judge_visibility,
    "advance": judge_advance,
    "back_to_start": judge_back_to_start,
    "bury": judge_bury,
    "redeal": judge_redeal,
    "start_levels": judge_start_levels,
}


# --- expected values in comparable form -------------------------------------------------


def expected_form(case: Case):
    """``expect`` as the judges answer it (card strings canonical, trump letters upper)."""
    e = case.expect
    if case.kind == "decompose":
        return [canonical(c) for c in e]
    if case.kind == "throw":
        out = dict(e)
        if "forced" in out:
            out["forced"] = canonical(out["forced"])
        if "forced_options" in out:
            out["forced_options"] = [canonical(c) for c in out["forced_options"]]
        return out
    if case.kind in ("declare", "bidding", "no_bid"):
        out = dict(e)
        if "trump" in out:
            out["trump"] = _trump_letter(out["trump"])
        if out.get("turned") is not None:
            out["turned"] = canonical(out["turned"])
        if "level" in out:
            out["level"] = level_name(parse_level(out["level"]))
        return out
    return e


def _trump_letter(t) -> str:
    none = t in (None, False) or str(t).strip().lower() in ("none", "no", "nt")
    return "none" if none else SUIT_LETTERS[parse_suit(t)]


def matches(case: Case, expected, got) -> bool:
    kind = case.kind
    if kind == "decompose":
        # a multiset of multisets: component order does not matter
        return sorted(expected) == sorted(got)
    if kind == "throw":
        if expected["valid"] != got["valid"]:
            return False
        if "forced" in expected and expected["forced"] != got.get("forced"):
            return False
        if "forced_options" in expected and sorted(expected["forced_options"]) != sorted(
            got.get("forced_options") or []
        ):
            return False
        if "penalty" in expected and expected["penalty"] != got.get("penalty"):
            return False
        return expected.get("refused", False) == bool(got.get("refused"))
    if kind in ("declare", "no_bid", "bidding", "visibility", "friends"):
        return all(expected[k] == got[k] for k in expected)
    if kind == "tractor":
        return expected is got or expected == got
    if kind == "advance" and expected != "past":
        return got != "past" and parse_level(expected) == parse_level(got)
    if kind == "start_levels":
        return [parse_level(x) for x in expected] == [parse_level(x) for x in got]
    return expected == got


def shown(case: Case, expected, got) -> tuple[Any, Any]:
    """Trim ``got`` to the keys the case asked about, for a readable failure line."""
    if case.kind == "throw" and isinstance(got, dict) and isinstance(expected, dict):
        if not got.get("valid"):
            keys = [k for k in ("valid", "forced", "forced_options", "refused", "penalty")
                    if k in expected] or ["valid"]
            if got.get("refused") and "refused" not in keys:
                keys.append("refused")
            elif "forced" not in keys and "forced_options" not in keys:
                keys.append("forced")
            return expected, {k: got.get(k) for k in keys}
    return expected, got
