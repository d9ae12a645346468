"""The search's worlds in compiled code: dealt and played out as the reference does it.

``_card_stock_market.sample_state`` must deal the world the reference sampler deals, field
for field, drawing the same numbers from the same generator, and refuse what it refuses
with the same error. The compiled bot must read a compiled state for a seat as it reads
that seat's view, and ``_card_stock_market_bot.playout`` must leave a world as the search's
Python loop of views and ``choose`` leaves it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from closingbell import native
from closingbell.bots.card_stock_market import CardStockMarketHeuristic
from closingbell.core.game import State
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.native import _card_stock_market as engine
from closingbell.native import _card_stock_market_bot as bot_module
from closingbell.native.differential import OPTION_SETS, compare_states
from tests.games.card_stock_market.craft import make_game

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference

PLAYERS = range(2, 7)
CSM_OPTIONS = OPTION_SETS["card_stock_market"]


def _states(game: CardStockMarket, seed: int, share: float) -> Iterator[State]:
    """States of a random game (about ``share`` of them, on either engine), and its end."""
    rng = random.Random(f"states/{seed}")
    state = game.new_game(seed) if seed % 2 else native.new_game(game, seed, "native")
    while not state.is_terminal():
        if rng.random() < share:
            yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


def _seats(state: State) -> list[int | None]:
    return [*range(state.game.players), None]


def _outcome(sample: Callable[[], State], rng: random.Random) -> tuple[object, object]:
    """What a sampler gives (a state, or its error's type and message) and where ``rng`` ends."""
    try:
        result: object = native.from_state(sample())
    except Exception as exc:  # any refusal, which must be the reference's
        result = (type(exc), str(exc))
    return result, rng.getstate()


def assert_sampled_alike(game: CardStockMarket, view: CardStockMarketView, salt: object) -> bool:
    """Both samplers deal the same world from ``view`` (or refuse it alike); whether they dealt."""
    ref_rng = random.Random(f"sample/{salt}")
    nat_rng = random.Random(f"sample/{salt}")
    expected, ref_end = _outcome(lambda: game.sample_state(view, ref_rng), ref_rng)
    got, nat_end = _outcome(lambda: engine.sample_state(game, view, nat_rng), nat_rng)
    assert nat_end == ref_end, f"the generators part ways at {salt}"
    if isinstance(expected, State):
        assert isinstance(got, engine.State)
        compare_states(expected, got, f"the world sampled at {salt}")
        return True
    assert got == expected
    return False


# ---------------------------------------------------------------------- sampling


@pytest.mark.parametrize("options", CSM_OPTIONS[::3], ids=repr)
@pytest.mark.parametrize("players", PLAYERS)
def test_worlds_sampled_from_every_seat_are_the_references(
    players: int, options: dict[str, Any]
) -> None:
    game = make_game(players, **options)
    dealt = reshuffled = 0
    for seed in (players, 50 + players, 90 + players):
        for i, state in enumerate(_states(game, seed, 0.2)):
            for seat in _seats(state):
                if assert_sampled_alike(game, state.view(seat), (seed, i, seat)):
                    dealt += 1
                    reshuffled += state.reshuffled
    assert dealt > 150 and reshuffled > 20, (dealt, reshuffled)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_worlds_sampled_from_positions_and_from_worlds_are_the_references(players: int) -> None:
    # A position read back knows no hands at the reshuffle (each seat drew all it holds);
    # a sampled world is a state like any other, and a search may sample from its views.
    game = make_game(players, bank_money=10, starting_money=60, levy=30)
    rng = random.Random(players)
    dealt = 0
    for i, state in enumerate(_states(game, players, 0.05)):
        built = game.state_from_position(state.to_position())
        world = engine.sample_state(game, state.view(0), rng)
        for source in (built, world):
            for seat in _seats(source):
                dealt += assert_sampled_alike(game, source.view(seat), (i, seat))
    assert dealt > 40


def _bump(values: tuple[Any, ...], i: int, by: Any) -> tuple[Any, ...]:
    changed = list(values)
    changed[i] += by
    return tuple(changed)


def _mutants(view: CardStockMarketView, rng: random.Random) -> list[CardStockMarketView]:
    """Views no state gives, each wrong in one way: some refused by the checks of the view,
    some while dealing, some only by the dealt state's invariants, and some not at all."""
    n = view.players
    q = rng.randrange(n)
    card = rng.randrange(52)
    change = dataclasses.replace
    records = view.records or ((),) * n
    suit = q % 4
    return [
        change(view, cash=_bump(view.cash, q, rng.choice([-1, 5]))),
        change(view, cash=tuple(float(c) for c in view.cash)),
        change(view, debts=_bump(view.debts, q, 10)),
        change(view, bank=None if view.bank is not None else 5),
        change(view, levies=view.levies + 1),
        change(view, hand_sizes=_bump(view.hand_sizes, q, rng.choice([-1, 1]))),
        change(view, hand=tuple(reversed(view.hand))),
        change(view, draw_pile=view.draw_pile + rng.choice([-1, 1])),
        change(view, discard_pile=tuple(sorted((*view.discard_pile, card)))),
        change(view, certificates=_bump(view.certificates, q, (card,))),
        change(view, shares=(*view.shares[:q], (1, 0, 0, 0), *view.shares[q + 1 :])),
        change(view, dealer=rng.choice([n, -1, q])),
        change(view, turn_player=q),
        change(view, turn_number=rng.choice([0, 2**53])),
        change(view, current_player=rng.choice([None, q])),
        change(view, decision=rng.choice(["turn", "trading", "market", "discarding", "over"])),
        change(view, trades=rng.randrange(3), sales=0),
        change(view, changes=rng.randrange(3)),
        change(view, discards=rng.randrange(4)),
        change(view, bought_suits=(suit,)),
        change(view, players=n + 1),
        change(view, jokers_held_out=2 - view.jokers_held_out),
        change(view, joker_drawn_by=q),
        change(view, reshuffled=not view.reshuffled),
        change(view, reshuffle_pile=view.reshuffle_pile[1:]),
        change(view, reshuffle_hidden=tuple(sorted((*view.reshuffle_hidden, card)))),
        change(view, own_reshuffle_hand=tuple(sorted((*view.own_reshuffle_hand, card)))),
        change(view, own_drawn=tuple(sorted((*view.own_drawn, card)))),
        change(view, reshuffle_hand_sizes=_bump(view.reshuffle_hand_sizes or (0,) * n, q, -1)),
        change(view, records=_bump(records, q, (card,))),
        change(view, records=_bump(records, q, (-1,))),
        change(
            view,
            suits=tuple(
                dataclasses.replace(m, price=(m.price + 1) % 14, bankrupt=not m.bankrupt)
                if s == suit
                else m
                for s, m in enumerate(view.suits)
            ),
        ),
    ]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_views_no_state_gives_are_refused_or_dealt_as_the_reference_does(players: int) -> None:
    game = make_game(players)
    rng = random.Random(players)
    dealt = refused = 0
    for seed in range(3):
        for i, state in enumerate(_states(game, seed, 0.12)):
            view = state.view(rng.choice(_seats(state)))
            for j, mutant in enumerate(_mutants(view, rng)):
                if assert_sampled_alike(game, mutant, (seed, i, j)):
                    dealt += 1
                else:
                    refused += 1
    assert dealt > 100 and refused > 500


def test_other_generators_and_foreign_views_are_the_references_to_deal() -> None:
    class Counting(random.Random):
        """A generator of its own kind, which the compiled sampler must not reach into."""

        calls = 0

        def getrandbits(self, k: int) -> int:
            type(self).calls += 1
            return super().getrandbits(k) ^ 1

    game = make_game(4)
    state = next(s for s in _states(game, 8, 0.02) if s.reshuffled)
    view = state.view(2)
    expected = game.sample_state(view, Counting(3))
    calls = Counting.calls
    got = engine.sample_state(game, view, Counting(3))
    assert Counting.calls == 2 * calls
    compare_states(expected, got, "sampled with a generator of its own kind")
    with pytest.raises(TypeError, match="needs a Card Stock Market view"):
        engine.sample_state(game, object(), random.Random(1))


# ---------------------------------------------------------------------- the bot's reading


@pytest.mark.parametrize("options", CSM_OPTIONS[1::3], ids=repr)
@pytest.mark.parametrize("players", PLAYERS)
def test_the_bot_reads_a_state_for_a_seat_as_it_reads_the_seat_s_view(
    players: int, options: dict[str, Any]
) -> None:
    game = make_game(players, **options)
    rng = random.Random(players)
    read = 0
    for seed in (players, 9, 20):
        for state in _states(game, seed, 0.4):
            compiled = native.from_state(state, "native")
            worlds = [compiled, engine.sample_state(game, state.view(0), rng)]
            for world in worlds:
                for seat in range(players):
                    assert bot_module.reading(world, seat) == bot_module.reading(world.view(seat))
                    read += 1
    assert read > 500, read


def test_a_seat_out_of_the_game_is_refused() -> None:
    state = native.new_game(make_game(3), 1, "native")
    for seat in (-1, 3):
        with pytest.raises(IndexError, match="is not at a table of 3"):
            bot_module.reading(state, seat)
    with pytest.raises(TypeError):
        bot_module.reading(state.to_reference(), 0)


# ---------------------------------------------------------------------- play-outs


class _Cautious(CardStockMarketHeuristic):
    """Weights away from the defaults: a bot that fears bankruptcies and plans less."""

    HAZARD = 0.15
    DRIFT = 0.8
    BEAM = 2
    LEADER_WEIGHT = 0.8


def _python_playout(world: State, bots: list[CardStockMarketHeuristic], max_steps: int) -> int:
    """The search's own play-out loop (no horizon in Card Stock Market)."""
    steps = 0
    while not world.is_terminal() and steps < max_steps:
        mover = world.current_player
        assert mover is not None
        world.apply(bots[mover].choose(world.view(mover)))
        steps += 1
    return steps


def _bots(game: CardStockMarket, kind: str, engine_name: str) -> list[CardStockMarketHeuristic]:
    n = game.options.players
    if kind == "cautious":
        return [_Cautious(game, q, engine=engine_name) for q in range(n)]
    bots = [CardStockMarketHeuristic(game, q, engine=engine_name) for q in range(n)]
    if kind == "tuned":
        for bot in bots:
            bot.SPARE = 0.3
            bot.PROGRESS = 1.5
    return bots


def assert_played_out_alike(
    world: State, bots: list[CardStockMarketHeuristic], max_steps: int, where: str
) -> int:
    """``playout`` leaves a copy of ``world`` as the Python loop leaves another; the steps."""
    expected = world.clone()
    steps = _python_playout(expected, bots, max_steps)
    got = world.clone()
    procedure = bots[0].compiled_procedure()
    assert bot_module.playout(procedure, got, max_steps, -1) == steps
    compare_states(expected, got, where)
    return steps


@pytest.mark.parametrize("kind", ["defaults", "cautious", "tuned"])
@pytest.mark.parametrize("players", PLAYERS)
def test_play_outs_leave_the_world_as_the_search_s_loop_does(players: int, kind: str) -> None:
    options = CSM_OPTIONS[(players * 5 + len(kind)) % len(CSM_OPTIONS)]
    game = make_game(players, **options)
    bots = _bots(game, kind, "native")
    rng = random.Random(f"{players}/{kind}")
    played = ended = 0
    for seed in (players, 30 + players, 60 + players):
        for i, state in enumerate(_states(game, seed, 0.15)):
            seat = state.current_player if state.current_player is not None else 0
            worlds = [
                native.from_state(state, "native"),
                engine.sample_state(game, state.view(seat), rng),
            ]
            for world in worlds:
                max_steps = rng.choice([0, 1, 7, 30, 500])
                steps = assert_played_out_alike(world, bots, max_steps, f"world {seed}/{i}")
                played += steps
                ended += steps < max_steps
    assert played > 300 and ended > 0, (played, ended)


def test_play_outs_choose_as_the_python_bot_does() -> None:
    # The search's loop with the Python reference bot itself, on fewer worlds.
    game = make_game(3, **CSM_OPTIONS[4])
    rng = random.Random(3)
    for kind in ("defaults", "cautious"):
        reference = _bots(game, kind, "reference")
        compiled = _bots(game, kind, "native")
        for i, state in enumerate(_states(game, 11, 0.04)):
            world = engine.sample_state(game, state.view(0), rng)
            expected = world.clone()
            steps = _python_playout(expected, reference, 30)
            got = world.clone()
            assert bot_module.playout(compiled[0].compiled_procedure(), got, 30, -1) == steps
            compare_states(expected, got, f"{kind} world {i}")


def test_a_play_out_needs_the_compiled_planner_and_state() -> None:
    game = make_game(3)
    procedure = CardStockMarketHeuristic(game).compiled_procedure()
    world = native.new_game(game, 4, "native")
    with pytest.raises(TypeError, match="compiled Card Stock Market planner"):
        bot_module.playout(object(), world, 5, -1)
    with pytest.raises(TypeError, match="compiled Card Stock Market engine"):
        bot_module.playout(procedure, world.to_reference(), 5, -1)
    # A horizon stops nothing in a game without rounds, as the search's own test.
    assert bot_module.playout(procedure, world.clone(), 9, 0) == 9
