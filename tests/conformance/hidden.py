"""Per-game perturbations of what one seat cannot see, for the no-leak properties.

A perturber takes a state, a seat (``None``: a spectator) and a ``random.Random``, and
returns a *clone* (on the same engine) in which only things hidden from that seat have
changed, still passing ``check_invariants``. The no-leak tests then check that the seat's
view did not move.

A new game joins the kit by adding one entry to :data:`PERTURBERS`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from closingbell import State, native
from closingbell.core.rng import SEED_BITS
from tests.games.card_stock_market.hidden import perturb_card_stock_market

Perturber = Callable[[State, int | None, random.Random], State]
"""``perturber(state, seat, rng)`` returns a changed clone that ``seat`` cannot tell apart."""


def _reassign(slots: list[tuple[list[Any], int]], rng: random.Random) -> None:
    """Shuffle the values held in ``slots`` (``(list, index)`` pairs) among those slots."""
    values = [container[i] for container, i in slots]
    rng.shuffle(values)
    for (container, i), value in zip(slots, values, strict=True):
        container[i] = value


def perturb_take_stock(state: State, seat: int | None, rng: random.Random) -> State:
    """Reshuffle every Take Stock card ``seat`` cannot see among the places it cannot see.

    Share cards move only within their pool (see the module docstring of
    ``closingbell.games.take_stock.state``) between other seats' hands, their face-down
    set-aside cards and the draw pile, which is thereby permuted as well; cards everyone
    saw taken from the discard pile stay put. Event cards move among the drawable pile,
    the face-down cards under Market Closed and in the event discard pile that ``seat``
    does not know, other seats' saved events and an undecided pair drawn by another seat.
    Half the time the seed, which governs later shuffles, changes too. The log and the
    history are left alone: they are not part of a view.
    """
    from closingbell.games.take_stock.game import TakeStockState
    from closingbell.games.take_stock.state import CHOOSE

    # The changes are made on a reference copy, whose fields may be changed; the clone is
    # given back on the engine of ``state``.
    new = native.to_reference(state).clone()
    assert isinstance(new, TakeStockState)
    new._legal = None  # another seat's hand may change, and with it its legal actions
    n = new.n
    others = [q for q in range(n) if q != seat]

    by_pool: dict[int, list[tuple[list[Any], int]]] = {}
    for q in others:
        for pile in (new.hands[q], new.hidden[q]):
            for i, card in enumerate(pile):
                if new.pool_of[card] >= 0:
                    by_pool.setdefault(new.pool_of[card], []).append((pile, i))
    for i, card in enumerate(new.draw):
        by_pool.setdefault(new.pool_of[card], []).append((new.draw, i))
    for slots in by_pool.values():
        _reassign(slots, rng)
    for q in others:
        new.hands[q].sort()

    bit = 1 << (n if seat is None else seat)
    events: list[tuple[list[Any], int]] = [(new.ev_above, i) for i in range(len(new.ev_above))]
    for pile, masks in ((new.ev_below, new.ev_below_mask), (new.ev_discard, new.ev_discard_mask)):
        events += [(pile, i) for i, mask in enumerate(masks) if not mask & bit]
    for q in others:
        events += [(new.saved[q], i) for i in range(len(new.saved[q]))]
    if new.phase == CHOOSE and new.cur != seat:
        events += [(new.pair, i) for i in range(len(new.pair))]
    _reassign(events, rng)

    if rng.random() < 0.5:
        new.seed = rng.getrandbits(SEED_BITS)
    new.check_invariants()
    return native.from_state(new, native.engine_of(state))


PERTURBERS: dict[str, Perturber] = {
    "take_stock": perturb_take_stock,
    "card_stock_market": perturb_card_stock_market,
}
"""The perturber of each registered game; the kit fails for a game missing here."""


def perturber_for(name: str) -> Perturber:
    """The perturber of the game ``name``; fails with a pointer to this module if none."""
    if name not in PERTURBERS:
        raise AssertionError(f"no perturber for {name!r}: add one to tests/conformance/hidden.py")
    return PERTURBERS[name]
