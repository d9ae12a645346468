"""Print how much a Card Stock Market seat can read of its opponents' hands from their plays.

Usage::

    python benchmarks/hand_reading.py [--players 6] [--games 10] [--seed 1000] \\
        [--worlds 300] [--epsilon 0.1]

``benchmarks/told_hands.py`` found that at six players most of what keeps the search bot
from winning more is the hidden hands. This measures what an opponent's plays tell about
its hand, read as well as the project can read them: every seat is the rule-based bot
without randomness (``hard``), so the model of the opponents is exactly how they play.

Seat 0 watches. At the start of each of its turns, for each opponent whose last whole turn
it saw, it deals ``--worlds`` worlds from its view, as the search does. In each world it
rebuilds the hand that opponent held when its last turn began (the cards it played, and
its hand in the world less as many cards, taken at random, as it drew since) and weighs the
world by how likely that turn's plays were with that hand: a play the model would have
made counts ``1 - epsilon``, any other ``epsilon`` shared among the other legal choices,
and a play the hand could not make rules the world out. The figures are the cards of the
opponent's true hand that a world's hand holds: over the worlds as dealt, over the worlds
as weighed, and the difference, with its standard error over the readings; and the
effective number of worlds the weights leave. Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import closingbell
from closingbell import native
from closingbell.bots import HeuristicBot, make_bot
from closingbell.core.game import Game, State
from closingbell.core.view import View
from closingbell.games.card_stock_market.actions import hand_card
from closingbell.games.card_stock_market.state import PHASE_NAMES

TURN = PHASE_NAMES[0]
"""The decision that begins a turn."""


@dataclass
class Reading:
    """One opponent's hand read at one of the watching seat's turns."""

    dealt: float
    """Cards of the true hand that a world's hand holds, over the worlds as dealt."""
    weighed: float
    """The same over the worlds as weighed by the opponent's last turn."""
    effective: float
    """The effective number of worlds the weights leave (all of them when all are equal)."""
    kept: int
    """The worlds in which the rebuilt hand could have been held then (the others are left
    out of both figures)."""
    size: int
    """The cards of the true hand."""


def with_hand(state: State, seat: int, hand: Counter[int], keep: int) -> State | None:
    """``state`` with ``seat`` holding ``hand``, the cards swapped with the draw pile or the
    other hands (never ``keep``'s); ``None`` when a card is nowhere it could come from."""
    world: Any = state.clone()
    hands: list[list[int]] = world.hands
    held = Counter(hands[seat])
    if sum(held.values()) != sum(hand.values()):
        return None
    spare = list((held - hand).elements())
    for card, out in zip((hand - held).elements(), spare, strict=True):
        if card in world.draw:
            world.draw[world.draw.index(card)] = out
        else:
            other = next(
                (q for q in range(len(hands)) if q not in (seat, keep) and card in hands[q]), None
            )
            if other is None:
                return None
            hands[other].remove(card)
            hands[other].append(out)
            hands[other].sort()
        hands[seat].remove(out)
        hands[seat].append(card)
    hands[seat].sort()
    world._legal = None
    return world  # type: ignore[no-any-return]


def likelihood(
    start: State, seat: int, actions: Sequence[int], model: HeuristicBot, epsilon: float
) -> float:
    """How likely ``seat`` was to play ``actions`` from ``start`` under ``model``.

    Each play the model would have made counts ``1 - epsilon``, another legal one
    ``epsilon`` shared among the other choices, and one the state does not allow 0.
    """
    state = start.clone()
    chance = 1.0
    for action in actions:
        legal = tuple(state.legal_actions())
        if action not in legal:
            return 0.0
        if len(legal) > 1:
            picked = model.pick(state.view(seat), legal)
            chance *= (1 - epsilon) if picked == action else epsilon / (len(legal) - 1)
        state.apply(action)
    return chance


def start_hands(world: State, seat: int, played: list[int], rng: random.Random) -> Counter[int]:
    """``seat``'s hand in ``world`` as it was when its last turn began: the cards it played,
    and its hand now less as many cards, at random, as it drew since."""
    hand: list[int] = list(getattr(world, "hands")[seat])  # noqa: B009
    drawn = set(rng.sample(range(len(hand)), min(len(played), len(hand))))
    return Counter([c for i, c in enumerate(hand) if i not in drawn] + played)


def last_turns(
    seen: list[tuple[View, int, int]], watcher: int
) -> dict[int, list[tuple[View, int]]]:
    """Each opponent's last whole turn that ``watcher`` saw, begun at a turn's first decision
    and with no reshuffle pending: its plays, each with the watcher's view before it."""
    turns: dict[int, list[tuple[View, int]]] = {}
    i = len(seen) - 1
    while i >= 0:
        seat = seen[i][1]
        if seat == watcher or seat in turns:
            i -= 1
            continue
        run = []
        while i >= 0 and seen[i][1] == seat:
            run.append((seen[i][0], seen[i][2]))
            i -= 1
        run.reverse()
        turns[seat] = run
    return {
        q: run
        for q, run in turns.items()
        if getattr(run[0][0], "decision") == TURN  # noqa: B009
        and not any(getattr(v, "reshuffled") for v, _ in run)  # noqa: B009
    }


def read(
    game: Game,
    state: State,
    seen: list[tuple[View, int, int]],
    args: argparse.Namespace,
    *,
    model: HeuristicBot,
    rng: random.Random,
) -> list[Reading]:
    """Seat 0's readings of its opponents' hands at ``state``."""
    view = state.view(0)
    worlds = [game.sample_state(view, rng, engine="reference") for _ in range(args.worlds)]
    out = []
    for seat, run in last_turns(seen, 0).items():
        truth = Counter(getattr(state, "hands")[seat])  # noqa: B009
        played = [c for _, a in run if (c := hand_card(a)) is not None]
        before = game.sample_state(run[0][0], rng, engine="reference")
        actions = [a for _, a in run]
        held, weights = [], []
        for world in worlds:
            start = with_hand(before, seat, start_hands(world, seat, played, rng), 0)
            if start is None:
                continue  # the hand cannot have been held then: left out of both figures
            hand = Counter(getattr(world, "hands")[seat])  # noqa: B009
            held.append(sum((hand & truth).values()))
            weights.append(likelihood(start, seat, actions, model, args.epsilon))
        total = sum(weights)
        if not held or total == 0:
            continue
        out.append(
            Reading(
                dealt=statistics.fmean(held),
                weighed=sum(w * h for w, h in zip(weights, held, strict=True)) / total,
                effective=total * total / sum(w * w for w in weights),
                kept=len(held),
                size=sum(truth.values()),
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000, help="the first game's deal")
    parser.add_argument("--worlds", type=int, default=300, help="worlds dealt a reading")
    parser.add_argument("--epsilon", type=float, default=0.1, help="the model's doubt")
    args = parser.parse_args()
    if args.games < 1 or args.worlds < 2 or not 0 < args.epsilon < 1:
        parser.error("--games must be 1 or more, --worlds 2 or more, --epsilon in (0, 1)")
    game = closingbell.load_game("card_stock_market", players=args.players)
    model = make_bot("hard", game, seed=0, engine="reference")
    assert isinstance(model, HeuristicBot)
    rng = random.Random(f"hand-reading/{args.seed}")
    readings: list[Reading] = []
    for g in range(args.games):
        seed = args.seed + g
        bots = [make_bot("hard", game, seed=seed * 10 + q) for q in range(args.players)]
        state = native.new_game(game, seed, "reference")
        seen: list[tuple[View, int, int]] = []
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            watched = state.view(0)
            begins = getattr(watched, "decision") == TURN  # noqa: B009
            if seat == 0 and begins and not getattr(watched, "reshuffled"):  # noqa: B009
                readings += read(game, state, seen, args, model=model, rng=rng)
            action = bots[seat].choose(state.view(seat))
            seen.append((watched, seat, action))
            state.apply(action)
        if readings:
            print(f"game {g + 1}: {len(readings)} readings so far", flush=True)
    if len(readings) < 2:
        raise SystemExit("too few readings: play more games")
    gain = [r.weighed - r.dealt for r in readings]
    dealt = statistics.fmean(r.dealt for r in readings)
    weighed = statistics.fmean(r.weighed for r in readings)
    error = statistics.stdev(gain) / len(gain) ** 0.5
    effective = statistics.fmean(r.effective for r in readings)
    kept = statistics.fmean(r.kept for r in readings)
    size = statistics.fmean(r.size for r in readings)
    print(
        f"{len(readings)} readings of an opponent's hand ({args.players} players, "
        f"{args.worlds} worlds, epsilon {args.epsilon}):\n"
        f"  cards of the true hand held, worlds as dealt:  {dealt:.2f}\n"
        f"  cards of the true hand held, worlds as weighed: {weighed:.2f}\n"
        f"  difference: {statistics.fmean(gain):+.3f} ± {error:.3f} (s.e.)\n"
        f"  effective worlds: {effective:.1f} of {kept:.1f} kept ({args.worlds} dealt)\n"
        f"  cards in the true hand: {size:.2f}"
    )


if __name__ == "__main__":
    main()
