"""The PettingZoo environment (shengji.env): PettingZoo's own API and seed tests, random
masked agents to the end of deals on every variant, rewards, the structured view."""

import random
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # the 'rl' extra, part of the test extra

from shengji.engine import IllegalAction
from shengji.engine.events import DealScored
from shengji.env import env, raw_env
from shengji.env.building import DONE, N_ACTIONS
from shengji.errors import ShengjiError
from shengji.variants import list_variants

VARIANTS = [v for v in list_variants() if not v.startswith("house/")]
HOUSE = [v for v in list_variants(include_house=True) if v.startswith("house/")]
CASE_HOUSE = sorted(str(p) for p in (Path(__file__).parent / "cases" / "house").glob("*.yaml")
                    if not p.name.endswith(".cases.yaml"))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("variant", ["two-deck-80", "one-deck-40", "four-deck"])
def test_pettingzoo_api_test(variant):
    api_test(env(variant), num_cycles=400)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("variant", ["two-deck-80", "three-deck-titanic"])
def test_pettingzoo_seed_test(variant):
    seed_test(lambda: env(variant), num_cycles=300)


def play_out(e, seed, rng):
    """Random agents choosing only from the masks until every agent is done; returns the
    steps and each agent's summed reward."""
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter(200_000):
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (N_ACTIONS,)
        legal = np.flatnonzero(mask)
        assert len(legal), "a seat to act always has an allowed action"
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    assert not e.agents, "every agent reached the end"
    return steps, total


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_masked_agents_finish_deals(variant):
    e = env(variant, deals=2)
    rng = random.Random(variant)
    steps, total = play_out(e, 7, rng)
    game = e.unwrapped.game
    assert game.over and game.deals_played == 2
    scored = [ev for ev in game.events if isinstance(ev, DealScored)]
    assert len(scored) == 2
    # levels reward: +rise for the rising side, -rise for the others, per deal
    for seat, agent in enumerate(e.possible_agents):
        want = sum(ev.rise if seat in ev.rising else -ev.rise for ev in scored)
        assert total[agent] == want
    assert steps > sum(len(a.cards) if hasattr(a, "cards") else 0 for a in game.actions)


@pytest.mark.parametrize("variant", HOUSE + CASE_HOUSE,
                         ids=lambda v: v.split("/")[-1].removesuffix(".yaml"))
def test_random_masked_agents_finish_a_deal_of_every_house_variant(variant):
    """Every knob's decisions (kitty theft, take-backs, redeals, ...) through masks only;
    the throws a lead built card by card cannot tell apart are refused up front."""
    from shengji.errors import VariantError
    from shengji.variants import load_variant

    rules = load_variant(variant).play_rules
    if rules.throws and (not rules.trump_throws or rules.throw_check != "holdings"):
        with pytest.raises(VariantError, match=r"play\.(trump_throws|throw_check)"):
            raw_env(variant)
        return
    e = raw_env(variant)
    for seed in range(2):
        play_out(e, seed, random.Random(seed))
        assert e.game.over and e.game.deals_played == 1


def test_take_back_and_kitty_theft_are_reachable():
    from shengji.engine.actions import TakeBack
    from shengji.env.building import TAKE_BACK

    e = raw_env(str(Path(__file__).parent / "cases" / "house" / "kitty-theft.yaml"))
    rng = random.Random(0)
    seen = set()
    for seed in range(12):
        e.reset(seed=seed)
        while not e.game.over:
            mask = e.observe(e.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            if mask[TAKE_BACK]:
                seen.add("offered")
                a = TAKE_BACK if rng.random() < 0.5 else DONE
            elif e.game.phase == "steal" and len(legal) > 1:
                a = int(legal[0])  # start a declaration that steals the kitty
            else:
                a = int(legal[rng.randrange(len(legal))])
            e.step(a)
        kinds = {type(x).__name__ for x in e.game.actions}
        seen |= kinds & {"TakeBack"}
        seen |= {"stolen"} if sum(type(x).__name__ == "Bury" for x in e.game.actions) > 1 \
            else set()
    assert {"offered", "TakeBack", "stolen"} <= seen, seen
    assert TakeBack


def test_redeal_requests_and_bury_limits_through_masks(tmp_path):
    """issue 35: a weak hand's redeal request is the TAKE_BACK action (keep: DONE), and the
    burial masks keep to the variant's bury settings (the observation keeps its size)."""
    from shengji.engine.actions import RequestRedeal
    from shengji.env.building import TAKE_BACK

    house = tmp_path / "weak.yaml"
    house.write_text("extends: two-deck-80\ndeclare: {weak_hand_redeal: {points: 200, "
                     "trumps: null, limit: 1}}\nbury: {points: false, trumps: false}\n",
                     encoding="utf-8")
    e = raw_env(str(house))
    for seed in range(3):
        e.reset(seed=seed)
        rng = random.Random(seed)
        while not e.game.over:
            mask = e.observe(e.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            if e.game.phase == "redeal":
                assert list(legal) == [DONE, TAKE_BACK]
                e.step(TAKE_BACK)
                continue
            e.step(int(legal[rng.randrange(len(legal))]))
        actions = e.game.actions
        assert sum(type(a) is RequestRedeal for a in actions) == 1  # limit: 1
        bury = next(a for a in actions if type(a).__name__ == "Bury")
        assert e.game.deals_played == 1 and bury is not None


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    from research_tables import write_tables

    return write_tables(tmp_path_factory.mktemp("tables") / "tables.yaml")


@pytest.mark.parametrize("players", [5, 6, 8, 12])
def test_any_seat_count_the_variant_allows(tables, players):
    e = env(tables, players=players)
    assert len(e.possible_agents) == players
    steps, total = play_out(e, players, random.Random(players))
    game = e.unwrapped.game
    assert game.players == players and game.over
    (ev,) = [x for x in game.events if isinstance(x, DealScored)]
    assert [total[a] for a in e.possible_agents] == [
        ev.rise if s in ev.rising else -ev.rise for s in range(players)]
    parts = e.unwrapped.layout.split(e.unwrapped.observe("player_0")["observation"])
    assert parts["played"].shape == (players, 54)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_at_six_seats(tables):
    api_test(env(tables, players=6), num_cycles=300)


def test_points_reward_sums_to_the_attackers_total():
    e = env("two-deck-80", reward="points")
    steps, total = play_out(e, 3, random.Random(1))
    game = e.unwrapped.game
    (ev,) = [x for x in game.events if isinstance(x, DealScored)]
    for seat, agent in enumerate(e.possible_agents):
        sign = -1 if game.teams[seat] == game.teams[ev.dealer] else 1
        assert total[agent] == sign * ev.attacker_points


def test_same_seed_same_episode_and_different_seeds_differ():
    def actions(seed):
        e = raw_env("one-deck-40")
        play_out(e, seed, random.Random(0))
        return [a.to_dict() for a in e.game.actions]

    assert actions(5) == actions(5)
    assert actions(5) != actions(6)


def test_observation_pieces_and_relative_seats():
    e = raw_env("two-deck-80")
    e.reset(seed=2)
    lay = e.layout
    agent = e.agent_selection
    seat = int(agent.split("_")[1])
    obs = e.observe(agent)
    assert e.observation_space(agent).contains(obs)
    parts = lay.split(obs["observation"])
    assert list(parts["hand"]) == e.game.hands[seat]
    assert parts["decision"][0] == 1  # declaring while the cards are dealt
    assert parts["partners"][0] == 1 and parts["partners"].sum() == 2
    other = e.possible_agents[(seat + 1) % 4]
    assert not e.observe(other)["action_mask"].any()
    # play to the first trick and check the played pieces
    rng = random.Random(0)
    while e.game.phase != "play" or not e.game.trick:
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    leader, cards = e.game.trick[0]
    me = e.game.to_act
    parts = lay.split(e.observe(e.agent_selection)["observation"])
    rel = (leader - me) % 4
    assert parts["trick"][rel].sum() == len(cards)
    assert parts["played"][rel].sum() == len(cards)
    assert parts["decision"][3] == 1  # follow


def test_masked_action_is_refused_with_a_clear_error():
    e = raw_env("two-deck-80")
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction, match="not allowed now"):
        e.step(bad)


def test_before_reset_and_a_none_step_are_clear_errors():
    """Found by mypy (``game``/``decision`` may be None): before the first ``reset``
    the env raised AttributeError, and ``step(None)`` for a live agent a TypeError."""
    e = raw_env("two-deck-80")
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.view("player_0")):
        with pytest.raises(ShengjiError, match=r"call reset\(\) first"):
            call()
    e.reset(seed=0)
    with pytest.raises(IllegalAction, match="needs an action number"):
        e.step(None)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))  # still live


def test_view_in_info_and_view():
    e = raw_env("two-deck-80", view_in_info=True)
    e.reset(seed=4)
    agent = e.agent_selection
    view = e.infos[agent]["view"]
    assert view.seat == int(agent.split("_")[1]) and view.hand == tuple(e.game.hands[view.seat])
    assert e.view("player_3").seat == 3


def test_declaring_is_reachable_and_pass_is_done():
    e = raw_env("two-deck-80")
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    assert mask[DONE] == 1  # DONE with nothing built: pass
    cards = [a for a in np.flatnonzero(mask) if a != DONE]
    assert cards, "the first seat asked has a declaration to make"
    e.step(int(cards[0]))
    mask = e.observe(e.agent_selection)["action_mask"]
    n = len(e.game.actions)
    if mask[DONE]:
        e.step(DONE)
        assert type(e.game.actions[n]).__name__ == "Declare"


def test_render_ansi():
    e = raw_env("one-deck-40", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "player_0" in text and "phase deal" in text
