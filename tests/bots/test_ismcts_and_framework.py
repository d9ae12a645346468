"""The bot framework and the ISMCTS bot: legal choices, determinism, budgets, no cheating."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import closingbell
from closingbell.bots import available_bots, make_bot
from closingbell.bots.ismcts import (
    STRONG,
    ISMCTSBot,
    all_reward_of,
    all_rewards,
    best_rewards,
    rewards,
)
from tests.conformance.hidden import perturber_for


def _position(name: str, players: int, seed: int, steps: int) -> closingbell.State:
    game = closingbell.load_game(name, players=players)
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _deciding(name: str, players: int, seed: int) -> closingbell.State:
    """A position a few moves in where the deciding seat has a real choice."""
    for steps in range(7, 400, 13):
        state = _position(name, players, seed, steps)
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            return state
    raise AssertionError("no position with a choice")


def test_make_bot_knows_every_kind_and_level() -> None:
    game = closingbell.load_game("take_stock", players=2)
    assert set(available_bots()) >= {
        "random",
        "heuristic",
        "ismcts",
        "easy",
        "medium",
        "hard",
        "expert",
    }
    assert make_bot("hard", game).epsilon == 0.0  # type: ignore[attr-defined]
    expert = make_bot("expert", game)
    assert isinstance(expert, ISMCTSBot) and expert.name == "expert"
    assert expert.seconds == 1.0 and expert.candidates == 3 and expert.depth == 1
    assert make_bot("expert", game, seconds=0.05).seconds == 0.05
    # Take Stock's expert plays out to the round's end; Card Stock Market's keeps STRONG's.
    assert expert.max_playout == 120
    assert make_bot("expert", game, max_playout=30).max_playout == 30
    market = make_bot("expert", closingbell.load_game("card_stock_market", players=2))
    assert isinstance(market, ISMCTSBot) and market.max_playout == STRONG["max_playout"] == 30
    # From four players the Card Stock Market expert compares eight candidates, not three.
    six = make_bot("expert", closingbell.load_game("card_stock_market", players=6))
    assert isinstance(six, ISMCTSBot) and (six.candidates, market.candidates) == (8, 3)
    assert (
        make_bot(
            "expert", closingbell.load_game("card_stock_market", players=6), candidates=4
        ).candidates
        == 4
    )  # type: ignore[attr-defined]
    assert make_bot("easy", game).epsilon > make_bot("medium", game).epsilon > 0  # type: ignore[attr-defined]
    assert make_bot("ismcts", game, seconds=0.1).seconds == 0.1  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        make_bot("wizard", game)
    with pytest.raises(ValueError, match="bad settings for bot 'ismcts'"):
        make_bot("ismcts", game, temperature=3)
    with pytest.raises(ValueError, match="iterations must be a positive integer"):
        make_bot("ismcts", game, iterations=0)


def test_a_bot_refuses_a_view_without_a_decision() -> None:
    game = closingbell.load_game("take_stock", players=3)
    state = game.new_game(1)
    waiting = (state.current_player + 1) % 3
    for name in ("random", "ismcts"):
        with pytest.raises(ValueError, match="no decision"):
            make_bot(name, game, iterations=5).choose(
                state.view(waiting)
            ) if name == "ismcts" else (make_bot(name, game).choose(state.view(waiting)))


@pytest.mark.parametrize("name", closingbell.available_games())
@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_plays_legal_moves_to_the_end(name: str, players: int) -> None:
    game = closingbell.load_game(name, players=players)
    bots = [make_bot("ismcts", game, seed=q, iterations=8) for q in range(players)]
    state = game.new_game(5)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        state.apply(action)
    state.check_invariants()


@pytest.mark.parametrize("name", closingbell.available_games())
def test_same_seed_and_iterations_give_the_same_choice(name: str) -> None:
    view = (state := _deciding(name, 3, 11)).view(state.current_player)
    first = ISMCTSBot(state.game, seed=4, iterations=60)
    second = ISMCTSBot(state.game, seed=4, iterations=60)
    assert first.choose(view) == second.choose(view)
    assert first.last_stats == second.last_stats
    assert first.last_iterations == 60


@pytest.mark.parametrize("name", closingbell.available_games())
def test_the_choice_depends_only_on_the_view(name: str) -> None:
    # A bot gets a view and nothing else, so hiding different cards behind the same view
    # cannot change what it does: it has no way to read them.
    rng = random.Random(3)
    for seed in range(4):
        state = _deciding(name, 3, seed)
        seat = state.current_player
        assert seat is not None
        other = perturber_for(name)(state, seat, rng)
        assert other.view(seat) == state.view(seat)
        assert other.to_json() != state.to_json()
        paired = {**STRONG, "iterations": 6}
        for kind, params in [
            ("ismcts", {"iterations": 40}),
            ("ismcts", paired),
            ("heuristic", {}),
            ("random", {}),
        ]:
            one = make_bot(kind, state.game, seed=9, **params).choose(state.view(seat))
            two = make_bot(kind, state.game, seed=9, **params).choose(other.view(seat))
            assert one == two, (kind, params)


def test_the_time_budget_is_kept() -> None:
    state = _deciding("take_stock", 2, 2)
    bot = ISMCTSBot(state.game, seed=1, seconds=0.2)
    start = time.perf_counter()
    bot.choose(state.view(state.current_player))
    elapsed = time.perf_counter() - start
    assert bot.last_iterations > 10
    assert elapsed < 1.0  # a generous bound: the search checks the clock every iteration


def test_a_single_legal_action_needs_no_search() -> None:
    from tests.games.take_stock.craft import craft

    game = closingbell.load_game("take_stock", players=2)
    state = craft(game, current=0, event_top=["No Change", "No Change"])
    state.apply_string("market A")
    state.apply(state.legal_actions()[0])  # the discard that pays for it
    assert state.legal_actions() == [state.string_to_action("choose No Change")]
    bot = ISMCTSBot(game, seed=0, iterations=500)
    assert bot.choose(state.view(0)) == state.legal_actions()[0]
    assert bot.last_iterations == 0


def test_the_search_prefers_a_clearly_winning_move() -> None:
    # Take Stock, last round: raising a stock to 11 ends the round at once. With many
    # certificates in that stock already saved, closing at once is worth the most.
    from tests.games.take_stock.craft import craft

    game = closingbell.load_game("take_stock", players=2, rounds=1)
    state = craft(
        game,
        seed=1,
        current=0,
        rows={"Oil": [1, 4, 7]},
        hands={0: ["Oil 11", "Corn 2", "Gem 3"], 1: ["Tech 12", "Movie 9", "Gem 9"]},
        certs={0: ["Oil 10", "Oil 12", "Oil 9"], 1: ["Corn 12", "Gem 12", "Tech 11"]},
    )
    bot = ISMCTSBot(game, seed=0, iterations=400)
    action = bot.choose(state.view(0))
    assert state.action_to_string(action) == "raise Oil 11"


def test_rewards_grow_with_the_margin_and_share_ties() -> None:
    assert rewards([2.0, 2.0]) == [0.5, 0.5]
    near, far = rewards([10.0, 0.0]), rewards([200.0, 0.0])
    assert 0.5 < near[0] < far[0] < 1.0
    assert far[1] < near[1] < 0.5
    assert abs(sum(near) - 1.0) < 1e-9  # two seats: one's chance is the other's loss
    tied = rewards([5.0, 5.0, 1.0])
    assert tied[0] == tied[1] > tied[2]
    assert all(0.0 <= r <= 1.0 for r in rewards([3.0, 9.0, 1.0, 9.0], scale=1.0))


def test_the_best_opponents_reward_counts_only_the_leader() -> None:
    # Two seats: the same as against each opponent.
    assert best_rewards([10.0, 0.0]) == pytest.approx(rewards([10.0, 0.0]))
    # Seat 3 gains 20 points: seat 0 is still 10 behind the leader, and the leader feels it.
    before, after = best_rewards([20.0, 30.0, 0.0, 5.0]), best_rewards([20.0, 30.0, 0.0, 25.0])
    assert before[0] == after[0] < 0.5 and before[1] > after[1] > 0.5  # the leader is closer
    assert rewards([20.0, 30.0, 0.0, 5.0])[0] > rewards([20.0, 30.0, 0.0, 25.0])[0]
    assert best_rewards([5.0, 5.0, 1.0]) == [0.5, 0.5, best_rewards([5.0, 5.0, 1.0])[2]]
    assert all(0.0 <= r <= 1.0 for r in best_rewards([3.0, 900.0, 1.0, 9.0], scale=1.0))
    game = closingbell.load_game("take_stock", players=4)
    bot = make_bot("ismcts", game, seed=1, iterations=8, reward="best")
    state = game.new_game(3)
    assert bot.describe()["reward"] == "best"
    assert bot.choose(state.view(state.current_player)) in state.legal_actions()
    with pytest.raises(ValueError, match="reward must be one of each, best, all, not 'most'"):
        make_bot("ismcts", game, reward="most")


def test_the_reward_against_all_opponents_is_the_chance_of_beating_each_at_once() -> None:
    # Two seats: the same as against each opponent.
    assert all_rewards([10.0, 0.0]) == pytest.approx(rewards([10.0, 0.0]))
    # Level with everyone: a half against each, an eighth against three at once.
    assert all_rewards([5.0, 5.0, 5.0, 5.0]) == pytest.approx([0.125] * 4)
    # Gaining 20 points on the seat far behind is worth less than gaining them on the leader.
    on_last = all_reward_of([20.0, 30.0, -20.0], 0, 40.0)
    on_leader = all_reward_of([20.0, 10.0, 0.0], 0, 40.0)
    base = all_reward_of([20.0, 30.0, 0.0], 0, 40.0)
    assert base < on_last < on_leader
    assert all(0.0 <= r <= 1.0 for r in all_rewards([3.0, 900.0, 1.0, 9.0], scale=1.0))
    game = closingbell.load_game("card_stock_market", players=3)
    bot = make_bot("ismcts", game, seed=1, iterations=8, candidates=3, reward="all")
    state = game.new_game(3)
    assert bot.describe()["reward"] == "all"
    assert bot.choose(state.view(state.current_player)) in state.legal_actions()


def test_the_rewards_scale_is_a_setting() -> None:
    game = closingbell.load_game("card_stock_market", players=4)
    state = game.new_game(5)
    view = state.view(state.current_player)
    settings: dict[str, Any] = {"iterations": 12, "candidates": 3, "playout": "heuristic"}
    usual = ISMCTSBot(game, seed=1, **settings)
    assert usual.describe()["scale"] == 100.0  # the game's own, from SCALES
    usual.choose(view)
    flat = ISMCTSBot(game, seed=1, scale=1e9, **settings)
    flat.choose(view)
    assert usual.paired is not None and flat.paired is not None
    spread = [abs(r - 0.5) for column in usual.paired.results for r in column]
    assert max(spread) > 0.05  # margins of tens of dollars move the usual reward
    assert all(abs(r - 0.5) < 1e-6 for column in flat.paired.results for r in column)
    for bad in (0, -5.0, True):
        with pytest.raises(ValueError, match="scale must be positive"):
            ISMCTSBot(game, scale=bad)


@pytest.mark.parametrize("name", closingbell.available_games())
def test_heuristic_playouts_and_root_widening_play_legal_moves(name: str) -> None:
    game = closingbell.load_game(name, players=3)
    bot = make_bot(
        "ismcts", game, seed=2, iterations=12, playout="heuristic", max_playout=15, widening=0.5
    )
    state = game.new_game(8)
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bot.choose(view)
        assert action in view.legal_actions
        state.apply(action)


def test_root_widening_searches_the_heuristics_choice_first() -> None:
    # With one iteration and widening, the only root child is the heuristic's own pick.
    state = _deciding("take_stock", 2, 6)
    view = state.view(state.current_player)
    heuristic = make_bot("heuristic", state.game, seed=0)
    bot = ISMCTSBot(state.game, seed=0, iterations=1, widening=0.5)
    assert bot.choose(view) == heuristic.choose(view)
    assert list(bot.last_stats) == [heuristic.choose(view)]


def test_bad_search_settings_are_refused() -> None:
    game = closingbell.load_game("take_stock", players=2)
    with pytest.raises(ValueError, match="playout must be"):
        ISMCTSBot(game, playout="greedy")
    with pytest.raises(ValueError, match="widening must be positive"):
        ISMCTSBot(game, widening=0)
    with pytest.raises(ValueError, match="seconds must be positive"):
        ISMCTSBot(game, seconds=0)


def test_leaves_scored_by_the_rule_based_model_play_legal_moves() -> None:
    game = closingbell.load_game("take_stock", players=3)
    bot = make_bot("ismcts", game, seed=1, iterations=15, evaluation="heuristic")
    assert bot.max_playout == 0  # type: ignore[attr-defined]
    state = game.new_game(4)
    rng = random.Random(4)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bot.choose(view) if seat == 0 else rng.choice(view.legal_actions)
        assert action in view.legal_actions
        state.apply(action)


def test_model_evaluation_needs_a_bot_that_judges_positions() -> None:
    game = closingbell.load_game("card_stock_market", players=2)
    with pytest.raises(ValueError, match="judges positions"):
        ISMCTSBot(game, evaluation="heuristic")
    with pytest.raises(ValueError, match="evaluation must be"):
        ISMCTSBot(game, evaluation="oracle")


def test_the_take_stock_model_prefers_the_seat_ahead() -> None:
    from tests.games.take_stock.craft import craft

    game = closingbell.load_game("take_stock", players=2)
    state = craft(
        game,
        current=0,
        rows={"Oil": [1, 5, 9]},
        certs={0: ["Oil 10", "Oil 12"], 1: ["Corn 2"]},
    )
    judge = make_bot("heuristic", game)
    assert judge.evaluate(state.view(0)) > 0 > judge.evaluate(state.view(1))  # type: ignore[attr-defined]


@pytest.mark.reference  # crafts a state by changing its fields
def test_take_stock_play_outs_value_tokens_and_saved_events_until_the_game_ends() -> None:
    from closingbell.bots.ismcts import EVALUATORS

    evaluate = EVALUATORS["take_stock"]
    game = closingbell.load_game("take_stock", players=3)
    state = game.new_game(4)
    base = evaluate(state)
    richer = state.clone()
    richer.tokens[1] += 1
    richer.supply -= 1
    richer.saved[2].append(0)
    values = evaluate(richer)
    assert values[0] == base[0]
    assert values[1] > base[1] and values[2] > base[2]

    # Tokens beyond one for each round left are worth less than the first ones.
    def second_token(round_: int) -> float:
        probe = state.clone()
        probe.round = round_
        probe.tokens[1] = 1
        before = evaluate(probe)[1]
        probe.tokens[1] = 2
        return evaluate(probe)[1] - before

    assert 0 < second_token(game.options.rounds) < second_token(1)
    # When the game is over only the scores count.
    finished = state.clone()
    while not finished.is_terminal():
        finished.apply(finished.legal_actions()[0])
    assert evaluate(finished) == [float(s) for s in finished.scores()]


PAIRED = {"candidates": 3, "playout": "heuristic", "playout_epsilon": 0.0, "depth": 1}


@pytest.mark.parametrize(("name", "players"), [("take_stock", 2), ("card_stock_market", 4)])
def test_paired_search_compares_the_heuristics_best_on_the_same_worlds(
    name: str, players: int
) -> None:
    state = _deciding(name, players, 4)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    bot = ISMCTSBot(state.game, seed=3, iterations=5, confidence=1.0, **PAIRED)
    action = bot.choose(view)
    paired = bot.paired
    assert paired is not None
    ranked = paired.actions
    assert 1 < len(ranked) <= 3 and action in ranked
    assert ranked[0] == make_bot("heuristic", state.game).choose(view)
    # Every candidate was searched once in each of the five worlds, and only they were.
    assert set(bot.last_stats) == set(ranked)
    assert all(visits == 5 for visits, _ in bot.last_stats.values())
    assert all(len(column) == 5 for column in paired.results)
    # depth=1: the tree is the root and its candidates, play-outs do the rest.
    root = bot.search(view)
    assert all(not child.children for child in root.children.values())


def test_paired_choice_keeps_the_rule_based_choice_unless_another_is_clearly_better() -> None:
    from closingbell.bots.ismcts import _Paired

    paired = _Paired([10, 20, 30])
    for first, second, third in [
        (0.5, 0.6, 0.4),
        (0.5, 0.7, 0.5),
        (0.4, 0.5, 0.45),
        (0.6, 0.6, 0.6),
    ]:
        paired.add([first, second, third])
    mean, se = paired.lead(1)
    assert mean == pytest.approx(0.1) and se == pytest.approx(0.0408, abs=1e-4)
    assert paired.choice(None) == 20  # the best mean
    assert paired.choice(1.0) == 20  # ahead by 2.4 standard errors
    assert paired.choice(5.0) == 10  # not that clear: the rule-based choice stays
    behind = _Paired([1, 2])
    for first, second in [(0.6, 0.5), (0.7, 0.6)]:
        behind.add([first, second])
    assert behind.choice(None) == 1 and behind.choice(0.0) == 1


def test_paired_search_is_reproducible_from_the_seed() -> None:
    state = _deciding("take_stock", 3, 9)
    view = state.view(state.current_player)
    bots = [
        ISMCTSBot(state.game, seed=11, iterations=4, confidence=1.5, **PAIRED) for _ in range(2)
    ]
    first, second = (bot.choose(view) for bot in bots)
    assert first == second
    assert bots[0].paired is not None and bots[1].paired is not None
    assert bots[0].paired.results == bots[1].paired.results


def test_bad_paired_settings_are_refused() -> None:
    game = closingbell.load_game("take_stock", players=2)
    with pytest.raises(ValueError, match="candidates must be a positive integer"):
        ISMCTSBot(game, candidates=0)
    with pytest.raises(ValueError, match="give one"):
        ISMCTSBot(game, candidates=2, widening=0.5)
    with pytest.raises(ValueError, match="confidence needs candidates"):
        ISMCTSBot(game, confidence=1.0)
    with pytest.raises(ValueError, match="confidence must be non-negative"):
        ISMCTSBot(game, candidates=2, confidence=-1.0)
    with pytest.raises(ValueError, match="depth must be a positive integer"):
        ISMCTSBot(game, depth=0)


def test_a_settled_paired_search_stops_before_its_budget() -> None:
    from closingbell.bots.ismcts import SETTLE_AFTER, _Paired

    same = _Paired([1, 2])
    for _ in range(3):
        same.add([0.5, 0.5])
    assert same.settled(2.0)  # no difference in any world
    unsure = _Paired([1, 2])
    for first, second in [(0.5, 0.6), (0.5, 0.4), (0.5, 0.55)]:
        unsure.add([first, second])
    assert not unsure.settled(2.0)
    # A real search: with a large budget and an easy settling rule it stops at the minimum.
    state = _deciding("take_stock", 2, 4)
    view = state.view(state.current_player)
    bot = ISMCTSBot(state.game, seed=3, iterations=500, settle=1e-9, **PAIRED)
    bot.choose(view)
    assert SETTLE_AFTER <= bot.last_iterations < 500
    with pytest.raises(ValueError, match="settle needs candidates"):
        ISMCTSBot(state.game, settle=2.0)
