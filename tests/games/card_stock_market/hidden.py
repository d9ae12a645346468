"""Perturbations of what one seat of Card Stock Market cannot see, for no-leak properties.

:func:`perturb_card_stock_market` has the shape of the conformance kit's perturbers
(``tests/conformance/hidden.py``): it takes a state, a seat (``None``: a spectator) and a
``random.Random`` and returns a changed *clone* that still passes ``check_invariants``, in
which only things hidden from that seat differ.
"""

from __future__ import annotations

import random
from collections import Counter

from closingbell import State, native
from closingbell.core.rng import SEED_BITS
from closingbell.games.card_stock_market.cards import JOKER


def perturb_card_stock_market(state: State, seat: int | None, rng: random.Random) -> State:
    """Deal every card ``seat`` cannot see again among the places it cannot see.

    Before the reshuffle, the other seats' hands and the draw pile are one pool. After it,
    each other seat's hand is split into cards held since the reshuffle and cards drawn
    since (taking as many drawn ones as possible, which keeps every play since explained);
    the first kind is dealt again among the other seats, the second together with the draw
    pile's cards; the jokers stay in the pile, whose order is shuffled. Half the time the
    seed, which governs the reshuffle to come, changes too. The log and the history are
    left alone: they are not part of a view.
    """
    from closingbell.games.card_stock_market.game import CardStockMarketState

    # The changes are made on a reference copy, whose fields may be changed; the clone is
    # given back on the engine of ``state``.
    new = native.to_reference(state).clone()
    assert isinstance(new, CardStockMarketState)
    new._legal = None
    others = [q for q in range(new.n) if q != seat]
    if not new.reshuffled:
        pool = [c for q in others for c in new.hands[q]] + new.draw
        rng.shuffle(pool)
        at = 0
        for q in others:
            size = len(new.hands[q])
            new.hands[q] = sorted(pool[at : at + size])
            at += size
        new.draw = pool[at:]
    else:
        new.re_hands = [h[:] for h in new.re_hands]  # shared between clones: copy first
        kept: dict[int, list[int]] = {}
        drawn: dict[int, list[int]] = {}
        for q in others:
            in_hand = Counter(new.hands[q])
            since = Counter(new.re_drawn[q])
            drawn[q] = [c for c in sorted(in_hand) for _ in range(min(in_hand[c], since[c]))]
            kept[q] = list((in_hand - Counter(drawn[q])).elements())
        old_pool = [c for q in others for c in kept[q]]
        new_pool = [c for q in others for c in drawn[q]] + [c for c in new.draw if c != JOKER]
        rng.shuffle(old_pool)
        rng.shuffle(new_pool)
        for q in others:
            k = len(kept[q])
            old_cards, old_pool = old_pool[:k], old_pool[k:]
            d = len(drawn[q])
            new_cards, new_pool = new_pool[:d], new_pool[d:]
            re_hand = Counter(new.re_hands[q])
            re_hand.subtract(kept[q])
            re_hand.update(old_cards)
            new.re_hands[q] = sorted(re_hand.elements())
            since = Counter(new.re_drawn[q])
            since.subtract(drawn[q])
            since.update(new_cards)
            new.re_drawn[q] = sorted(since.elements())
            new.hands[q] = sorted(old_cards + new_cards)
        new.draw = new_pool + [JOKER] * new.draw.count(JOKER)
        rng.shuffle(new.draw)
    if rng.random() < 0.5:
        new.seed = rng.getrandbits(SEED_BITS)
    new.check_invariants()
    return native.from_state(new, native.engine_of(state))
