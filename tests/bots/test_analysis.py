"""The decision analysis: every legal action valued from the seat's view, never its luck."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import closingbell
from closingbell.bots.analysis import Analyst
from closingbell.core.records import GameRecord
from tests.conformance.hidden import perturber_for

GAMES = [("take_stock", 2), ("take_stock", 3), ("card_stock_market", 2), ("card_stock_market", 4)]


def _position(name: str, players: int, seed: int, steps: int) -> closingbell.State:
    game = closingbell.load_game(name, players=players)
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_legal_action_is_valued_best_first(name: str, players: int) -> None:
    state = _position(name, players, seed=5, steps=7)
    seat = state.current_player
    assert seat is not None
    found = Analyst(state.game, worlds=8, seed=2).analyze(state.view(seat))
    assert found.seat == seat and found.worlds == 8
    assert sorted(v.action for v in found.actions) == sorted(state.legal_actions())
    means = [v.margin.mean for v in found.actions]
    assert means == sorted(means, reverse=True)
    best = found.actions[0]
    assert found.best == best.action and best.behind.mean == 0 and best.behind.half_width == 0
    for value in found.actions:
        assert 0.0 <= value.win.mean <= 1.0
        assert value.behind.mean <= 0
        assert value.margin.low <= value.margin.mean <= value.margin.high
        assert found.is_mistake(value.action) == (value.behind.high < 0)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_the_hidden_cards_never_change_the_analysis(name: str, players: int) -> None:
    """The same view gives the same figures, wherever the cards it cannot see lie."""
    rng = random.Random(11)
    for steps in (3, 20):
        state = _position(name, players, seed=8, steps=steps)
        seat = state.current_player
        assert seat is not None
        other = perturber_for(name)(state, seat, rng)
        assert other.view(seat) == state.view(seat) and other.to_json() != state.to_json()
        one = Analyst(state.game, worlds=6, seed=4).analyze(state.view(seat))
        two = Analyst(state.game, worlds=6, seed=4).analyze(other.view(seat))
        assert one == two
        # The lead of an action taken, measured again over fresh worlds, as well.
        taken = one.actions[-1].action
        again = Analyst(state.game, worlds=6, seed=4).analyze(state.view(seat), taken)
        assert again.checked is not None and again.checked[0] == taken
        assert again == Analyst(state.game, worlds=6, seed=4).analyze(other.view(seat), taken)


def test_an_analysis_is_the_same_for_the_same_seed_on_either_engine() -> None:
    state = _position("take_stock", 2, seed=3, steps=5)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    first = Analyst(state.game, worlds=6, seed=9).analyze(view)
    assert Analyst(state.game, worlds=6, seed=9).analyze(view) == first
    assert Analyst(state.game, worlds=6, seed=9, engine="reference").analyze(view) == first
    assert Analyst(state.game, worlds=6, seed=10).analyze(view) != first


def test_a_mistake_the_fresh_worlds_confirm_is_marked_in_a_real_game() -> None:
    record = GameRecord.read(Path(__file__).parents[1] / "golden" / "take_stock_2p.cbrec")
    state = record.start()
    analyst = Analyst(state.game, worlds=16, seed=3)
    confirmed = 0
    for recorded in record.actions:
        action = state.string_to_action(recorded.text)
        if state.current_player == 0 and len(state.legal_actions()) > 1:
            found = analyst.analyze(state.view(0), action)
            confirmed += found.is_mistake(action)
        state.apply(action)
    assert confirmed > 0


def test_a_clearly_worse_action_is_marked_and_the_best_never_is() -> None:
    # A first decision with thirteen choices, some of them much worse than others.
    state = _position("take_stock", 2, seed=7, steps=5)
    seat = state.current_player
    assert seat is not None
    found = Analyst(state.game, worlds=200, seed=1).analyze(state.view(seat))
    assert not found.is_mistake(found.best)
    marked = [v for v in found.actions if found.is_mistake(v.action)]
    assert marked and all(v.behind.high < 0 for v in marked)
    # The worst is marked, and so is every action whose interval lies below the best's.
    assert found.is_mistake(found.actions[-1].action)


def test_bad_requests_are_refused() -> None:
    game = closingbell.load_game("take_stock", players=2)
    with pytest.raises(ValueError, match="at least one world"):
        Analyst(game, worlds=0)
    state = game.new_game(1)
    with pytest.raises(ValueError, match="spectator"):
        Analyst(game, worlds=2).analyze(state.view(None))
    waiting = 1 - (state.current_player or 0)
    with pytest.raises(ValueError, match="no decision"):
        Analyst(game, worlds=2).analyze(state.view(waiting))
    with pytest.raises(KeyError):
        Analyst(game, worlds=2).analyze(state.view(state.current_player)).value_of(-1)


def test_an_action_taken_is_a_mistake_only_when_fresh_worlds_confirm_it() -> None:
    # A first decision whose thirteen actions look far apart over the first worlds; over
    # fresh ones even the worst comes out level with the best (only luck set them apart).
    state = _position("take_stock", 2, seed=7, steps=5)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    plain = Analyst(state.game, worlds=60, seed=1).analyze(view)
    assert plain.checked is None
    # The best action taken is measured no further, and is never a mistake.
    best = Analyst(state.game, worlds=60, seed=1).analyze(view, plain.best)
    assert best.checked is None and not best.is_mistake(best.best)
    for value in (*plain.actions[1:3], plain.actions[-1]):
        found = Analyst(state.game, worlds=60, seed=1).analyze(view, value.action)
        # The first worlds are the same: only the second measure is added.
        assert found.actions == plain.actions and found.checked is not None
        action, lead = found.checked
        assert action == value.action and lead.half_width > 0
        assert found.is_mistake(action) == (value.behind.high < 0 and lead.high < 0)
    with pytest.raises(ValueError, match="not legal"):
        Analyst(state.game, worlds=4, seed=1).analyze(view, -1)


def _last_round(players: int, seed: int) -> closingbell.State:
    """A Take Stock state in the game's last round with a choice to make."""
    game = closingbell.load_game("take_stock", players=players)
    state = game.new_game(seed)
    rng = random.Random(seed)
    last = game.options.rounds  # type: ignore[attr-defined]
    while not (state.round == last and len(state.legal_actions()) > 1):  # type: ignore[attr-defined]
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_round_horizon_stops_the_play_outs_at_the_round_s_end() -> None:
    state = _position("take_stock", 3, seed=5, steps=4)
    seat = state.current_player
    assert seat is not None and state.round == 1  # type: ignore[attr-defined]
    view = state.view(seat)
    game_end = Analyst(state.game, worlds=24, seed=3).analyze(view)
    round_end = Analyst(state.game, worlds=24, seed=3, horizon="round").analyze(view)
    assert (game_end.horizon, round_end.horizon) == ("game", "round")
    assert sorted(v.action for v in round_end.actions) == sorted(state.legal_actions())
    # Three rounds fewer to play out: the differences between actions are far surer.
    spread = [v.behind.half_width for v in round_end.actions[1:]]
    blur = [v.behind.half_width for v in game_end.actions[1:]]
    assert sum(spread) < 0.8 * sum(blur)
    again = Analyst(state.game, worlds=24, seed=3, horizon="round", engine="reference")
    assert again.analyze(view) == round_end
    assert Analyst(state.game, worlds=2, horizon="round").describe()["horizon"] == "round"
    # In the last round the round's end is the game's end: the same figures.
    last = _last_round(3, seed=6)
    seat = last.current_player
    assert seat is not None
    final = Analyst(last.game, worlds=6, seed=1).analyze(last.view(seat))
    at_round = Analyst(last.game, worlds=6, seed=1, horizon="round").analyze(last.view(seat))
    assert at_round.actions == final.actions


def test_a_horizon_the_game_has_not_got_is_refused() -> None:
    market = closingbell.load_game("card_stock_market", players=3)
    with pytest.raises(ValueError, match="no rounds"):
        Analyst(market, horizon="round")
    with pytest.raises(ValueError, match="horizon is one of game, round, not 'turn'"):
        Analyst(closingbell.load_game("take_stock", players=2), horizon="turn")
