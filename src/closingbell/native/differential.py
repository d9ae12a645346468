"""Differential play: a compiled engine against the reference rules, step by step.

:func:`play_pair` deals the same game on both engines and plays random actions on both.
Before every action it compares the two states field by field (every field the reference
serializes, the log, the history and the pending decision), the legal actions, scores and
winners, and, at the intervals given, every seat's view, the errors of illegal actions,
clones, and round trips through :func:`closingbell.native.from_state` and
``to_reference``. The first difference raises :class:`Mismatch` naming the game, the step
and the field. The tests run a share of this; ``benchmarks/bench_differential.py`` runs
millions of actions.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from closingbell import native
from closingbell.core.errors import IllegalActionError
from closingbell.core.game import Game, State
from closingbell.core.registry import game_class, load_game

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "take_stock": [
        {},
        {"rounds": 1},
        {"rounds": 12},
        {"shares_table": (3,) * 11},
        {"shares_table": (1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2)},
        {"limit_counts_freeze": True},
        {"frozen_scoring": "zero"},
        {"option_shortage": "nobody"},
        {"insider_order": "take_first"},
        {"empty_draw": "next_draw"},
        {"crash_counts_one": False},
        {"keep_saved_events": False},
        {"first_dealer": 0},
        {"first_dealer": 1},
        {"dealer_tie": "random"},
        {"final_tie": "most_tokens"},
        # The Chinese edition's readings together.
        {"insider_order": "take_first", "empty_draw": "next_draw", "crash_counts_one": True},
        # Every option away from its default at once.
        {
            "rounds": 6,
            "shares_table": (2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1),
            "limit_counts_freeze": True,
            "frozen_scoring": "zero",
            "option_shortage": "nobody",
            "insider_order": "take_first",
            "empty_draw": "next_draw",
            "crash_counts_one": False,
            "keep_saved_events": False,
            "first_dealer": 1,
            "dealer_tie": "random",
            "final_tie": "most_tokens",
        },
        {"dealer_tie": "random", "final_tie": "most_tokens", "rounds": 2, "first_dealer": 0},
    ],
    "card_stock_market": [
        {},
        {"strip": "graded"},
        {"strip": (0, 13, 13, 0, 1, 1, 13, 13)},
        {"starting_money": 1000},
        {"starting_money": 0},
        {"bank_money": None},
        {"bank_money": 0},
        {"levy": 1},
        {"levy": 1000},
        {"same_suit_trades": False},
        {"face_raise_limited": True},
        {"phase_order": "trade_first"},
        {"same_price_change": True},
        {"bankrupt_buying": "forbidden"},
        {"ace_at_setup": False},
        {"debt_repayment": "end_of_turn"},
        {"first_dealer": 0},
        {"first_dealer": 1},
        # Levies and debts in nearly every game, repaid either way.
        {"bank_money": 10, "starting_money": 60, "levy": 30},
        {"bank_money": 10, "starting_money": 60, "levy": 45, "debt_repayment": "end_of_turn"},
        {
            "phase_order": "trade_first",
            "same_price_change": True,
            "face_raise_limited": True,
            "strip": "graded",
        },
        {
            "same_suit_trades": False,
            "bankrupt_buying": "forbidden",
            "ace_at_setup": False,
            "first_dealer": 1,
            "strip": (1, 1, 0, 0, 13, 13, 2, 5),
        },
        {"bank_money": None, "starting_money": 0, "same_price_change": True},
    ],
}
"""Rules options each game's engines are compared under (besides every player count):
the defaults first, then non-default values of every option, alone and combined."""

ODD_ACTIONS: tuple[object, ...] = (-1, True, False, None, "3", 3.0, 2**70, [1], b"1")
"""Values that are not action ids at all, refused by both engines with the same error."""


class Mismatch(AssertionError):
    """The compiled engine and the reference disagree."""


@dataclass
class Tally:
    """What one differential run compared."""

    games: int = 0
    """Games played to the end (or to the step limit)."""
    actions: int = 0
    """Actions applied on both engines."""
    states: int = 0
    """States compared field by field."""
    views: int = 0
    """Views compared (one per seat and the spectator, at each state where views were)."""
    illegal: int = 0
    """Illegal actions refused by both with the same message."""
    clones: int = 0
    """Clones compared and checked to be independent."""
    round_trips: int = 0
    """States carried over from the reference with ``from_state`` and back."""
    seconds: float = 0.0
    """Time spent."""
    cases: list[str] = field(default_factory=list)
    """The games and options played, one line each."""

    def add(self, other: Tally) -> None:
        """Add another run's counts to this one."""
        for name in ("games", "actions", "states", "views", "illegal", "clones", "round_trips"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        self.cases += other.cases


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:300] + "..."


def compare_states(ref: State, nat: State, where: str, *, log_from: int = 0) -> None:
    """Raise :class:`Mismatch` unless the two states are equal in every field.

    Fields are compared by ``repr``, so that ``1`` and ``True`` or a list and a tuple
    differ. The log is compared from entry ``log_from`` on (and in length).
    """
    shapes = type(ref).SHAPES
    for name in shapes:
        if name == "log":
            continue
        a = getattr(ref, name)
        b = getattr(nat, name)
        if repr(a) != repr(b):
            raise Mismatch(f"{where}: field {name!r}: reference {_shown(a)}, native {_shown(b)}")
    for name in ("cur", "phase", "seed", "from_deal", "n"):
        a = getattr(ref, name)
        b = getattr(nat, name)
        if repr(a) != repr(b):
            raise Mismatch(f"{where}: field {name!r}: reference {a!r}, native {b!r}")
    if nat.game is not ref.game:
        raise Mismatch(f"{where}: the native state belongs to another game object")
    ref_log = ref.log
    nat_log = nat.log
    if len(ref_log) != len(nat_log):
        raise Mismatch(f"{where}: log of {len(ref_log)} entries, native {len(nat_log)}")
    for i in range(log_from, len(ref_log)):
        if repr(ref_log[i]) != repr(nat_log[i]):
            raise Mismatch(
                f"{where}: log entry {i}: reference {_shown(ref_log[i])}, "
                f"native {_shown(nat_log[i])}"
            )
    checks: list[tuple[str, Any, Any]] = [
        ("legal_actions()", ref.legal_actions(), nat.legal_actions()),
        ("current_player", ref.current_player, nat.current_player),
        ("decision", ref.decision, nat.decision),
        ("is_terminal()", ref.is_terminal(), nat.is_terminal()),
        ("choice_is_secret()", ref.choice_is_secret(), nat.choice_is_secret()),
        ("scores()", ref.scores(), nat.scores()),
    ]
    if ref.is_terminal():
        checks.append(("winners()", ref.winners(), nat.winners()))
    for what, a, b in checks:
        if repr(a) != repr(b):
            raise Mismatch(f"{where}: {what}: reference {_shown(a)}, native {_shown(b)}")


def compare_views(ref: State, nat: State, where: str) -> int:
    """Raise :class:`Mismatch` unless every seat's and the spectator's views are equal."""
    seats: list[int | None] = [*range(ref.n), None]
    for seat in seats:
        a = ref.view(seat)
        b = nat.view(seat)
        if type(a) is not type(b) or a != b or repr(a) != repr(b):
            raise Mismatch(f"{where}: view of seat {seat}: reference {a!r}, native {b!r}")
        ea = ref.visible_events(seat)
        eb = nat.visible_events(seat)
        if repr(ea) != repr(eb):
            raise Mismatch(f"{where}: visible_events({seat}) differ")
    return len(seats)


def _refusal(state: State, action: object) -> str | None:
    """The message of the error ``apply(action)`` raises, or ``None`` if it is accepted."""
    try:
        state.apply(action)  # type: ignore[arg-type]
    except IllegalActionError as exc:
        return f"IllegalActionError: {exc}"
    return None


def compare_illegal(ref: State, nat: State, rng: random.Random, where: str) -> int:
    """Refuse a few illegal actions on both engines; the messages and states must agree."""
    legal = set(ref.legal_actions())
    count = ref.game.info.num_distinct_actions
    tries: list[object] = [rng.randrange(-2, count + 2) for _ in range(4)]
    tries.append(rng.choice(ODD_ACTIONS))
    checked = 0
    for action in tries:
        if type(action) is int and action in legal:  # [1] and b"1" are unhashable
            continue
        a = _refusal(ref, action)
        b = _refusal(nat, action)
        if a is None or b is None or a != b:
            raise Mismatch(f"{where}: apply({action!r}): reference {a!r}, native {b!r}")
        checked += 1
    compare_states(ref, nat, where + " after refusals")
    return checked


def compare_clone(ref: State, nat: State, rng: random.Random, where: str) -> None:
    """A clone of each engine's state equals the original and goes its own way."""
    ref_copy = ref.clone()
    nat_copy = nat.clone()
    compare_states(ref_copy, nat_copy, where + " (clones)")
    compare_states(ref, nat_copy, where + " (native clone)")
    if not ref_copy.is_terminal():
        action = rng.choice(ref_copy.legal_actions())
        ref_copy.apply(action)
        nat_copy.apply(action)
        compare_states(ref_copy, nat_copy, where + " (clones after one action)")
    compare_states(ref, nat, where + " (originals after their clones moved)")


def run(
    name: str,
    actions: int,
    *,
    seed: int = 0,
    views_every: int = 0,
    illegal_every: int = 0,
    clone_every: int = 0,
    round_trip_every: int = 0,
    doors: bool = False,
) -> Tally:
    """Play games of ``name`` on both engines until ``actions`` actions have been compared.

    Games cycle through every player count and every entry of ``OPTION_SETS``; their seeds
    and moves follow from ``seed``. With ``doors``, their first states are made through
    each of the game's doors in turn (:data:`DOORS`, see :func:`door_pair`); otherwise all
    are dealt. Raises ``RuntimeError`` if the game has no compiled engine built, and
    :class:`Mismatch` at the first difference.
    """
    compiled = native.engine_module(name)
    if compiled is None:
        raise RuntimeError(f"{name} has no compiled engine built")
    info = game_class(name).info
    cases = [
        (players, options)
        for options in OPTION_SETS.get(name, [{}])
        for players in range(info.min_players, info.max_players + 1)
    ]
    rng = random.Random(f"differential/{name}/{seed}")
    total = Tally()
    index = 0
    while total.actions < actions:
        players, options = cases[index % len(cases)]
        game = load_game(name, players=players, **options)
        door = DOORS[index % len(DOORS)] if doors else "new_game"
        game_seed = seed * 1_000_003 + index
        ref, nat = door_pair(game, door, game_seed, rng)
        total.add(
            play_states(
                ref,
                nat,
                compiled,
                rng,
                f"{game!r} seed={game_seed} via {door}",
                views_every=views_every,
                illegal_every=illegal_every,
                clone_every=clone_every,
                round_trip_every=round_trip_every,
            )
        )
        index += 1
    return total


DOORS = ("new_game", "state_from_json", "state_from_position", "sample_state")
"""The doors of a game that make states, each with an ``engine`` keyword."""


def door_pair(game: Game, door: str, seed: int, rng: random.Random) -> tuple[State, State]:
    """Two states made through ``door`` of ``game``, on the reference and on the compiled engine.

    ``new_game`` deals ``seed``. The other doors read a game dealt from ``seed`` and played
    at random for up to 60 actions on the reference: written as JSON, as a position's text,
    or seen by one seat and sampled by two generators of the same seed. Raises
    :class:`Mismatch` when the compiled door's state is not a compiled engine's, or when the
    two samplers leave their generators in different states.
    """
    if door == "new_game":
        ref, nat = game.new_game(seed, engine="reference"), game.new_game(seed, engine="native")
    else:
        played = game.new_game(seed, engine="reference")
        for _ in range(rng.randrange(61)):
            if played.is_terminal():
                break
            played.apply(rng.choice(played.legal_actions()))
        if door == "state_from_json":
            text = played.to_json()
            ref = game.state_from_json(text, engine="reference")
            nat = game.state_from_json(text, engine="native")
        elif door == "state_from_position":
            text = played.to_position()
            ref = game.state_from_position(text, engine="reference")
            nat = game.state_from_position(text, engine="native")
        elif door == "sample_state":
            view = played.view(rng.randrange(game.players))
            draws = rng.getrandbits(64)
            ref_rng, nat_rng = random.Random(draws), random.Random(draws)
            ref = game.sample_state(view, ref_rng, engine="reference")
            nat = game.sample_state(view, nat_rng, engine="native")
            if ref_rng.getstate() != nat_rng.getstate():
                raise Mismatch(f"{game!r} seed={seed}: the samplers drew differently")
        else:
            raise ValueError(f"door must be one of {', '.join(DOORS)}, not {door!r}")
    if native.engine_of(ref) != "reference" or native.engine_of(nat) != "native":
        raise Mismatch(f"{game!r} seed={seed}: {door} did not make one state of each engine")
    return ref, nat


def play_pair(
    game: Game,
    compiled: Any,
    seed: int,
    rng: random.Random,
    *,
    max_steps: int | None = None,
    views_every: int = 0,
    illegal_every: int = 0,
    clone_every: int = 0,
    round_trip_every: int = 0,
) -> Tally:
    """Play one random game on the reference and on ``compiled``, comparing every state.

    ``compiled`` is a game's compiled module (``new_game``, ``from_state``). The checks
    beyond the fields run every so many steps (0: never). Returns what was compared.
    """
    return play_states(
        game.new_game(seed, engine="reference"),
        compiled.new_game(game, seed),
        compiled,
        rng,
        f"{game!r} seed={seed}",
        max_steps=max_steps,
        views_every=views_every,
        illegal_every=illegal_every,
        clone_every=clone_every,
        round_trip_every=round_trip_every,
    )


def play_states(
    ref: State,
    nat: Any,
    compiled: Any,
    rng: random.Random,
    label: str,
    *,
    max_steps: int | None = None,
    views_every: int = 0,
    illegal_every: int = 0,
    clone_every: int = 0,
    round_trip_every: int = 0,
) -> Tally:
    """Play random actions on two equal states, one of each engine, comparing every state.

    The states may come from anywhere (a deal, a position, a sample, JSON); ``label``
    names the game in a :class:`Mismatch`. Play goes on to the end of the game or
    ``max_steps``; both states are changed. Returns what was compared.
    """
    start = time.perf_counter()
    tally = Tally(cases=[label])
    step = 0
    seen_log = 0
    while True:
        where = f"{label} step {step}"
        compare_states(ref, nat, where, log_from=seen_log)
        seen_log = len(ref.log)
        tally.states += 1
        if views_every and step % views_every == 0:
            tally.views += compare_views(ref, nat, where)
        if ref.is_terminal() or (max_steps is not None and step >= max_steps):
            break
        if illegal_every and step % illegal_every == 0:
            tally.illegal += compare_illegal(ref, nat, rng, where)
        if clone_every and step % clone_every == 0:
            compare_clone(ref, nat, rng, where)
            tally.clones += 1
        if round_trip_every and step % round_trip_every == 0:
            back = nat.to_reference()
            compare_states(ref, back, where + " (to_reference)")
            if type(back) is not type(ref):
                raise Mismatch(f"{where}: to_reference() made a {type(back).__name__}")
            nat = compiled.from_state(ref)
            compare_states(ref, nat, where + " (from_state)")
            tally.round_trips += 1
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        nat.apply(action)
        tally.actions += 1
        step += 1
    compare_states(ref, nat, f"{label} at the end")
    if ref.to_json() != nat.to_json():
        raise Mismatch(f"{label}: to_json() differs at the end")
    tally.games = 1
    tally.seconds = time.perf_counter() - start
    return tally
