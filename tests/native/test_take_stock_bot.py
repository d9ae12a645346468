"""The compiled rule-based Take Stock bot makes the reference's choices, bit for bit.

Every check compares the compiled ``pick`` and ``evaluate`` with the Python reference
(``engine="reference"``) on the same view: the action must be the same and the evaluation
the same float to the last bit (``float.hex`` tells -0.0 from 0.0 too).
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from closingbell import native
from closingbell.bots import make_bot
from closingbell.bots.base import RandomBot
from closingbell.bots.take_stock import TakeStockHeuristic, TakeStockWeights, _Board, _turn_action
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.state import OVER, PHASE_NAMES
from closingbell.games.take_stock.views import TakeStockView
from closingbell.native import _take_stock_bot as compiled
from tests.games.take_stock.craft import craft, make_game, play

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"frozen_scoring": "zero", "insider_order": "take_first", "crash_counts_one": False},
    {"limit_counts_freeze": True, "shares_table": [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2], "rounds": 2},
    {"shares_table": [3] * 11, "rounds": 1, "insider_order": "take_first"},
    {"frozen_scoring": "zero", "limit_counts_freeze": True, "keep_saved_events": False},
]
"""Rules options, the ones the bot reads among them changed from their defaults."""

WEIGHT_SETS: list[TakeStockWeights] = [
    TakeStockWeights(),
    TakeStockWeights(
        growth=2.0,
        cap=9.0,
        upside=0.2,
        downside=0.3,
        frozen_downside=0.1,
        full_round_events=15.0,
        alpha_high=0.7,
        alpha_low=0.1,
        raise_option=0.8,
        limit_bonus=3.0,
        token_value=12.0,
        saved_event=0.9,
        hold=0.4,
        end_bias=-1.5,
        end_lead=35.0,
        lead_scale=10.0,
        leader_weight=0.6,
    ),
    # Whole numbers, as a person might write them: the reference then mixes ints in.
    TakeStockWeights(cap=9, token_value=15, end_lead=0, alpha_low=0, limit_bonus=1),
]

Policy = Callable[[TakeStockState, TakeStockView], int]


def bots(game: TakeStock, weights: TakeStockWeights) -> tuple[TakeStockHeuristic, ...]:
    """The reference bot and the compiled one, with the same settings."""
    ref = TakeStockHeuristic(game, weights=weights, engine="reference")
    fast = TakeStockHeuristic(game, weights=weights, engine="native")
    assert (ref.engine, fast.engine) == ("reference", "native")
    return ref, fast


def same(a: float, b: float) -> bool:
    """Whether two floats are the same to the last bit."""
    return a.hex() == b.hex()


def reference_scores(bot: TakeStockHeuristic, view: TakeStockView) -> list[float]:
    """The reference's score of each legal action, where ``pick`` takes the best one."""
    board = _Board(bot, view)
    score: Callable[[int], float] | None = {
        "action": lambda a: _turn_action(board, a),
        "discard": lambda a: -board.held(a - A.DISCARD),
        "insider_discard": lambda a: -board.held(a - A.DISCARD),
        "downturn_discard": lambda a: -board.held(a - A.DISCARD),
        "choose_event": lambda a: board.event_gain(a - A.CHOOSE),
        "audit_stock": lambda a: board.audit_choice(a - A.AUDIT_STOCK),
        "freeze_stock": lambda a: board.freeze_option(a - A.FREEZE_STOCK),
    }.get(view.decision)
    return [] if score is None else [score(a) for a in view.legal_actions]


def check_view(ref: TakeStockHeuristic, fast: TakeStockHeuristic, view: TakeStockView) -> int:
    """Compare both bots on ``view``; the number of picks compared."""
    expected = ref.evaluate(view)
    got = fast.evaluate(view)
    assert same(got, expected), (view.decision, got, expected)
    legal = view.legal_actions
    if not legal:
        return 0
    # Every action's score, not only the best: a difference in the last bit would change a
    # choice only on a near tie, which few games meet, but it would be there all the same.
    wanted = reference_scores(ref, view)
    scored = fast._compiled.scores(view, legal) if fast._compiled is not None else []
    assert [x.hex() for x in scored] == [x.hex() for x in wanted], view.decision
    assert fast.pick(view, legal) == ref.pick(view, legal), view.decision
    if len(legal) > 2:
        # The paired search's ranker asks again without the actions it has taken.
        rest = legal[1:]
        assert fast.pick(view, rest) == ref.pick(view, rest), view.decision
    return 1


def check_state(ref: TakeStockHeuristic, fast: TakeStockHeuristic, state: TakeStockState) -> int:
    """Compare both bots on every seat's view of ``state``."""
    return sum(check_view(ref, fast, state.view(q)) for q in range(state.game.options.players))


def play_and_check(
    game: TakeStock, weights: TakeStockWeights, seed: int, policy: str, sample_every: int = 0
) -> tuple[int, set[str]]:
    """Play one game, comparing the bots at every decision; picks compared and decisions."""
    ref, fast = bots(game, weights)
    state = game.new_game(seed)
    randomly = RandomBot(game, seed)
    rng = random.Random(seed)
    picks = 0
    decisions: set[str] = set()
    step = 0
    while not state.is_terminal():
        picks += check_state(ref, fast, state)
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        decisions.add(view.decision)
        if sample_every and step % sample_every == 0:
            world = game.sample_state(view, rng)
            picks += check_state(ref, fast, world)
        if policy == "random" or (policy == "mixed" and seat % 2):
            action = randomly.choose(view)
        else:
            action = ref.choose(view)
        state.apply(action)
        step += 1
    picks += check_state(ref, fast, state)  # the final views: evaluations only
    return picks, decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_decision_of_whole_games_is_the_references(players: int) -> None:
    picks = 0
    seen: set[str] = set()
    for i, policy in enumerate(("self", "random", "mixed") * 2):
        k = players + i
        game = make_game(players, **OPTION_SETS[k % len(OPTION_SETS)])
        weights = WEIGHT_SETS[k % len(WEIGHT_SETS)]
        got, decisions = play_and_check(game, weights, 10 * players + i, policy, sample_every=9)
        picks += got
        seen |= decisions
    assert picks > 300
    assert {"action", "discard", "exercise"} <= seen


def test_the_rarer_decisions_come_up_and_agree() -> None:
    seen: set[str] = set()
    for seed in range(8):
        players = 2 + seed % 3
        game = make_game(players, **OPTION_SETS[seed % len(OPTION_SETS)])
        _, decisions = play_and_check(game, WEIGHT_SETS[seed % 2], 500 + seed, "self")
        seen |= decisions
    assert seen >= {
        "choose_event",
        "audit_stock",
        "retrieve",
        "insider_discard",
        "downturn_discard",
        "freeze_stock",
    }


# ---------------------------------------------------------------------- crafted positions

JUNK = ["Corn 9", "Tech 10", "Movie 8"]


def _audit(state: TakeStockState) -> TakeStockState:
    play(state, "play Audit", "discard Corn 9")
    return state


def _audit_what(state: TakeStockState) -> TakeStockState:
    play(state, "play Audit", "discard Corn 9", "audit Gem")
    assert state.decision == "audit_what"
    return state


def _insider(state: TakeStockState) -> TakeStockState:
    play(state, "play Insider Oil", "discard Corn 2")
    assert state.decision == "retrieve"
    return state


def _as_is(state: TakeStockState) -> TakeStockState:
    return state


def _positions() -> Iterator[tuple[str, TakeStockState]]:
    """Positions for the rare decisions, each with the moves that reach them."""
    for splits, row in ((2, [1, 3, 4]), (1, [1, 2, 8]), (3, [1, 5])):
        yield (
            f"audit_what with {splits} splits",
            _audit_what(
                craft(
                    make_game(2),
                    rows={"Gem": row, "Oil": [1, 3, 5]},
                    splits={"Gem": splits},
                    certs={0: ["Oil 10"], 1: ["Gem 10", "Gem 12"]},
                    saved={0: ["Audit"]},
                    hands={0: JUNK},
                )
            ),
        )
    yield (
        "audit_stock with a frozen stock",
        _audit(
            craft(
                make_game(3),
                rows={"Gem": [1, 3, 4], "Oil": [1, 2, 6]},
                splits={"Oil": 1},
                frozen=["Gem"],
                certs={0: ["Oil 10"], 1: ["Gem 10"], 2: ["Oil 12"]},
                saved={0: ["Audit"]},
                hands={0: JUNK},
            )
        ),
    )
    for order in ("discard_first", "take_first"):
        yield (
            f"retrieve, {order}",
            _insider(
                craft(
                    make_game(2, insider_order=order),
                    rows={"Oil": [1, 3, 5]},
                    certs={0: ["Oil 10"]},
                    saved={0: ["Insider Oil"]},
                    discard=["Oil 12", "Oil 2", "Oil 7", "Oil 9"],
                    hands={0: ["Corn 2", "Gem 12", "Tech 11", "Movie 10"]},
                )
            ),
        )
    for last in (1, 4):
        yield (
            f"a closing raise in round {last}",
            craft(
                make_game(3),
                round=last,
                scores=None if last == 1 else [60, 80, 70],
                rows={"Oil": [1, 5, 8], "Gem": [1, 4, 6]},
                hands={0: ["Oil 11", "Gem 12", "Oil 12", "Corn 2", "Tech 3"]},
                certs={0: ["Oil 10"], 1: ["Oil 9", "Gem 7"], 2: ["Tech 5"]},
                tokens=[3, 1, 0],
            ),
        )
        state = craft(
            make_game(2),
            round=last,
            scores=None if last == 1 else [50, 50],
            rows={"Oil": [1, 5, 8], "Gem": [1, 4, 6]},
            hands={0: ["Oil 11", "Gem 12", "Corn 2", "Tech 3"]},
            certs={0: ["Oil 10"], 1: ["Oil 9"]},
            tokens=[4, 1],
        )
        play(state, "raise Oil 11")
        assert state.decision == "exercise"
        yield f"exercise in round {last}", state
    for above in (0, 1, 2):
        yield (
            f"market with {above} events above Market Closed",
            craft(
                make_game(2),
                round=4,
                scores=[120, 130],
                rows={"Oil": [1, 3, 7]},
                certs={0: ["Oil 10", "Oil 12"], 1: ["Gem 10"]},
                hands={0: JUNK},
                events_above=above,
            ),
        )
    yield (
        "saves that empty the hand",
        craft(
            make_game(2),
            rows={"Oil": [1, 4]},
            hands={0: ["Oil 9", "Gem 3"]},
            certs={1: ["Oil 12"]},
        ),
    )
    for kind in ("Downturn", "Option Lost", "Market Crash", "Freeze", "Split Oil", "Crash Gem"):
        yield (
            f"a saved {kind}",
            craft(
                make_game(3, frozen_scoring="zero"),
                round=3,
                scores=[40, 55, 30],
                rows={"Oil": [1, 3, 5], "Gem": [1, 2, 6, 9]},
                splits={"Gem": 1},
                frozen=["Oil"],
                certs={0: ["Oil 10", "Gem 4"], 1: ["Gem 10", "Gem 11"], 2: ["Tech 6"]},
                saved={0: [kind]},
                hands={0: ["Corn 12", "Oil 6", "Gem 12", "Movie 2"], 1: ["Tech 2"]},
                tokens=[2, 0, 3],
            ),
        )
    for opponent in (["Tech 2"], ["Tech 2", "Tech 4", "Gem 2"]):
        state = craft(
            make_game(2),
            rows={"Oil": [1, 3], "Movie": [1, 3]},
            certs={0: ["Oil 10", "Oil 12"]},
            saved={0: ["Downturn"]},
            hands={0: ["Corn 12", "Oil 6", "Gem 12", "Movie 2"], 1: opponent},
        )
        yield f"a Downturn against {len(opponent)} cards", state.clone()
        play(state, "play Downturn", "discard Corn 12")
        assert state.decision == "downturn_discard"
        yield f"downturn_discard against {len(opponent)} cards", state
    yield (
        "the Limit rule with a freeze counted",
        craft(
            make_game(2, limit_counts_freeze=True),
            rows={"Oil": [1, 3, 5, 7], "Gem": [1, 4]},
            frozen=["Gem"],
            certs={0: ["Oil 10", "Gem 5", "Tech 3", "Movie 4", "Corn 5"], 1: ["Oil 12"]},
            hands={0: ["Oil 9", "Oil 11", "Gem 8", "Corn 4"]},
        ),
    )


def test_crafted_positions_and_the_moves_after_them_agree() -> None:
    names = []
    seen: set[str] = set()
    for name, state in _positions():
        seen |= _check_from(name, state)
        names.append(name)
    assert len(names) == len(set(names)) > 20
    assert seen == set(PHASE_NAMES) - {PHASE_NAMES[OVER]}  # every kind of decision


def _check_from(name: str, state: TakeStockState) -> set[str]:
    """Compare the bots on ``state`` and the next few positions; the decisions met."""
    seen: set[str] = set()
    for weights in WEIGHT_SETS[:2]:
        ref, fast = bots(state.game, weights)
        world = state.clone()
        picks = 0
        for _ in range(12):  # this decision and the next few
            if world.is_terminal():
                break
            picks += check_state(ref, fast, world)
            seat = world.current_player
            assert seat is not None
            seen.add(world.decision)
            world.apply(ref.choose(world.view(seat)))
        assert picks >= 1, name
    return seen


def test_ties_between_hand_cards_are_broken_in_the_references_order() -> None:
    # Corn 9 and Gem 8 stand equal in the bot's ranking of the hand (two shares each at the
    # same expected price), and with no tokens only the first ranked card counts as likely
    # to be saved. Which one that is moves the evaluation: a likely Corn 9 leaves less of
    # Corn's stake to the raise Corn 3 could make. The hand's order settles the tie.
    state = craft(make_game(2), hands={0: ["Corn 3", "Corn 9", "Gem 8"]}, tokens=[0, 4])
    view = state.view(0)
    swapped = dataclasses.replace(view, hand=(view.hand[0], view.hand[2], view.hand[1]))
    ref, fast = bots(state.game, TakeStockWeights())
    assert not same(ref.evaluate(view), ref.evaluate(swapped))
    for v in (view, swapped):
        assert same(fast.evaluate(v), ref.evaluate(v))
        assert fast.pick(v, v.legal_actions) == ref.pick(v, v.legal_actions)


def test_equal_scores_choose_the_first_legal_action() -> None:
    # A fresh market and a hand of fives of five stocks nobody owns: every discard is worth
    # the same to the model, so the first discard offered is taken, by either engine.
    state = craft(
        make_game(2),
        hands={0: ["Corn 5", "Gem 5", "Oil 5", "Tech 5", "Movie 5", "Corn 2"]},
    )
    play(state, "market B")
    assert state.decision == "discard"
    view = state.view(0)
    ref, fast = bots(state.game, TakeStockWeights())
    board = _Board(ref, view)
    fives = [a for a in view.legal_actions if (a - A.DISCARD) % 12 == 4]
    assert len({board.held(a - A.DISCARD) for a in fives}) == 1
    for legal in (tuple(fives), tuple(reversed(fives)), view.legal_actions):
        assert fast.pick(view, legal) == ref.pick(view, legal)
    assert fast.pick(view, tuple(fives)) == fives[0]
    assert fast.pick(view, tuple(reversed(fives))) == fives[-1]


# ---------------------------------------------------------------------- the engine keyword


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_same_seeded_bot_plays_the_same_games_with_either_engine(players: int) -> None:
    game = make_game(players, **OPTION_SETS[players % len(OPTION_SETS)])

    def history(engine: str) -> list[int]:
        seats = [
            make_bot("medium" if q % 2 else "heuristic", game, seed=7 * q + 1, engine=engine)
            for q in range(players)
        ]
        state = game.new_game(players)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(seats[seat].choose(state.view(seat)))
        return list(state.history)

    assert history("native") == history("reference")


def test_the_engine_keyword() -> None:
    game = make_game(3)
    assert TakeStockHeuristic(game).engine == "native"  # built, so auto compiles
    assert make_bot("hard", game, engine="reference").engine == "reference"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="engine must be one of auto, native, reference"):
        TakeStockHeuristic(game, engine="fast")


def test_without_the_compiled_module_auto_falls_back_and_native_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(native, "module", lambda name: None)
    game = make_game(3)
    assert TakeStockHeuristic(game).engine == "reference"
    with pytest.raises(RuntimeError, match="compiled Take Stock bot is not built"):
        TakeStockHeuristic(game, engine="native")


@pytest.mark.parametrize(
    ("weights", "reason"),
    [
        (TakeStockWeights(growth=math.nan), "growth"),
        (TakeStockWeights(cap=math.inf), "cap"),
        (TakeStockWeights(token_value=1e12), "token_value"),
        (TakeStockWeights(lead_scale=0.0), "lead_scale is zero"),
    ],
)
def test_weights_the_compiled_bot_cannot_reproduce_are_left_to_the_reference(
    weights: TakeStockWeights, reason: str
) -> None:
    game = make_game(3)
    assert TakeStockHeuristic(game, weights=weights).engine == "reference"
    with pytest.raises(ValueError, match=reason):
        TakeStockHeuristic(game, weights=weights, engine="native")


def test_a_pickled_bot_plays_on_as_before() -> None:
    # The web server sends search bots, and their play-out bots, to helper processes.
    game = make_game(4, frozen_scoring="zero", crash_counts_one=False)
    bot = TakeStockHeuristic(game, 5, epsilon=0.3, weights=WEIGHT_SETS[1], engine="native")
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.engine == "native"
    state = game.new_game(3)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        assert same(copy.evaluate(view), bot.evaluate(view))
        action = bot.choose(view)
        assert copy.choose(view) == action
        state.apply(action)


# ---------------------------------------------------------------------- building blocks


def test_floats_are_summed_as_this_python_sums_them() -> None:
    assert compiled.SUM_AGREES
    rng = random.Random(4)
    for _ in range(3000):
        values = [
            rng.choice(
                [0.0, -0.0, 1e16, -1e16, 1.0, rng.uniform(-1, 1) * 10 ** rng.randint(-9, 18)]
            )
            for _ in range(rng.randint(0, 9))
        ]
        assert same(compiled.python_sum(values), float(sum(values))), values


def test_where_the_reference_raises_the_compiled_bot_raises_too() -> None:
    # A view past the last round makes the reference divide by zero in its end-of-round
    # score; no real game gives one, but the compiled bot still answers as the reference.
    state = craft(
        make_game(2),
        round=4,
        rows={"Oil": [1, 5, 8]},
        hands={0: ["Oil 11", *JUNK]},
    )
    view = dataclasses.replace(state.view(0), round=5)
    ref, fast = bots(state.game, TakeStockWeights())
    for bot in (ref, fast):
        with pytest.raises(ZeroDivisionError):
            bot.pick(view, view.legal_actions)
