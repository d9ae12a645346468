"""Take Stock's flow of turns and rounds: dealing, drawing, ending a round and scoring it.

The rules (:mod:`closingbell.games.take_stock.rules`) and the events
(:mod:`closingbell.games.take_stock.events`) call these to move the game on; every function
changes the state in place and trusts its caller.
"""

from __future__ import annotations

from bisect import insort

from closingbell.core.rng import derive_rng
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import scoring
from closingbell.games.take_stock.state import (
    ACTION,
    DOWNTURN,
    EXERCISE,
    OVER,
    TakeStockFields,
)

NUM_STOCKS = C.NUM_STOCKS
STOCK_RANGE = range(NUM_STOCKS)


def _reset_event_pile(st: TakeStockFields) -> None:
    """Gather all 40 event cards and build the pile with Market Closed 11th from the bottom."""
    deck = [k for k in C.EVENT_CARDS if k != C.MARKET_CLOSED]
    derive_rng(st.seed, "events", st.round).shuffle(deck)
    st.ev_below = deck[: C.CARDS_BELOW_CLOSED]
    st.ev_below_mask = [0] * C.CARDS_BELOW_CLOSED
    st.ev_above = deck[C.CARDS_BELOW_CLOSED :]
    st.ev_discard = []
    st.ev_discard_mask = []
    st.saved = [[] for _ in range(st.n)]


def _gather_under_pile(st: TakeStockFields) -> None:
    """Put the market's splits and freezes and the event discard pile under the pile.

    They go under Market Closed, which ends the round as soon as it is drawn and makes the
    whole pile anew, so these cards are never drawn and their order cannot matter.
    """
    public = (1 << (st.n + 1)) - 1  # every seat and the spectator saw them
    gathered: list[int] = []
    masks: list[int] = []
    for s in STOCK_RANGE:
        gathered += [C.SPLIT + s] * st.splits[s]
        masks += [public] * st.splits[s]
        if st.frozen[s]:
            gathered.append(C.FREEZE)
            masks.append(public)
    gathered += st.ev_discard
    masks += st.ev_discard_mask
    if not st.game.options.keep_saved_events:
        for p in range(st.n):
            gathered += st.saved[p]
            masks += [1 << p] * len(st.saved[p])
            st.saved[p] = []
    st.ev_below = gathered + st.ev_below
    st.ev_below_mask = masks + st.ev_below_mask
    st.ev_discard = []
    st.ev_discard_mask = []


def _start_round(st: TakeStockFields, first_dealer: int | None = None) -> None:
    """Prepare the next round's events and market, deal, and start the first turn."""
    n = st.n
    if st.round == 0 or st.end_reason == "market_closed":
        st.round += 1
        _reset_event_pile(st)
    else:
        _gather_under_pile(st)
        st.round += 1
    st.rows = [[1] for _ in STOCK_RANGE]
    st.splits = [0] * NUM_STOCKS
    st.frozen = [False] * NUM_STOCKS
    st.end_reason = None
    deck = list(C.SHARE_CARDS)
    derive_rng(st.seed, "shares", st.round).shuffle(deck)
    size = C.HAND_SIZES[n]
    st.hands = [sorted(deck[p * size : (p + 1) * size]) for p in range(n)]
    st.draw = deck[n * size :]
    st.discard = []
    st.certs = [[] for _ in range(n)]
    st.pool_of = [-1] * C.NUM_SHARE_CARDS
    for c in C.SHARE_CARDS:
        st.pool_of[c] = 0
    st.hand_pool = [[size] for _ in range(n)]
    st.known = [[] for _ in range(n)]
    st.hidden = [[] for _ in range(n)]
    st.reshuffles = 0
    st.dealer = first_dealer if first_dealer is not None else _next_dealer(st)
    st.log.append((None, ("round_start", st.round, st.dealer), None))
    _begin_turn(st, (st.dealer + 1) % n)


def _next_dealer(st: TakeStockFields) -> int:
    """The seat with the lowest total deals; ties follow the ``dealer_tie`` option."""
    low = min(st.totals)
    n = st.n
    order = [(st.dealer + 1 + i) % n for i in range(n)]
    tied = [p for p in order if st.totals[p] == low]
    if len(tied) > 1 and st.game.options.dealer_tie == "random":
        return tied[derive_rng(st.seed, "dealer-tie", st.round).randrange(len(tied))]
    return tied[0]


def _begin_turn(st: TakeStockFields, p: int) -> None:
    st.turn = p
    if _draw_share(st, p):
        st.phase = ACTION
        st.cur = p


def _end_turn(st: TakeStockFields) -> None:
    _begin_turn(st, (st.turn + 1) % st.n)


def _reshuffle(st: TakeStockFields) -> None:
    """The discard pile, seen by all, becomes the new draw pile and a new pool."""
    k = len(st.hand_pool[0])
    pool_of = st.pool_of
    for c in st.discard:
        pool_of[c] = k
    for counts in st.hand_pool:
        counts.append(0)
    pile = st.discard
    st.reshuffles += 1
    derive_rng(st.seed, "reshuffle", st.round, st.reshuffles).shuffle(pile)
    st.draw = pile
    st.discard = []
    st.log.append((None, ("reshuffle", len(pile)), None))


def _draw_share(st: TakeStockFields, p: int) -> bool:
    """Seat ``p`` draws a share card; returns False if the round ended instead."""
    last_card = st.game.last_card_rule
    if not st.draw:
        # Only under the 'next_draw' option: the pile waits empty until a card is needed.
        if not st.discard:
            _end_round(st, "no_cards")
            return False
        _reshuffle(st)
    card = st.draw.pop()
    insort(st.hands[p], card)
    st.hand_pool[p][-1] += 1
    st.log.append((p, ("draw", p, card), ("draw", p, None)))
    if last_card and not st.draw:
        if not st.discard:
            _end_round(st, "no_cards")
            return False
        _reshuffle(st)
    return True


def _release(st: TakeStockFields, p: int, card: int) -> None:
    """Public bookkeeping for a card of seat ``p``'s that is now face up."""
    k = st.pool_of[card]
    if k >= 0:
        st.hand_pool[p][k] -= 1
        st.pool_of[card] = -1
    else:
        st.known[p].remove(card)


def _discard_from_hand(st: TakeStockFields, p: int, card: int) -> None:
    st.hands[p].remove(card)
    _release(st, p, card)
    st.discard.append(card)
    st.log.append((None, ("discard", p, card), None))


def _to_event_discard(st: TakeStockFields, kind: int, mask: int) -> None:
    st.ev_discard.append(kind)
    st.ev_discard_mask.append(mask)


def _next_in_queue(st: TakeStockFields) -> None:
    """Pass a decision that all seats take in turn order to the next seat, or reveal."""
    queue = st.queue
    queue.pop(0)
    if st.phase == EXERCISE:
        while queue and not (st.hands[queue[0]] and st.tokens[queue[0]]):
            queue.pop(0)
    if queue:
        st.cur = queue[0]
        return
    if st.phase == DOWNTURN:
        _reveal_downturn(st)
    else:
        _reveal_exercise(st)


def _reveal_downturn(st: TakeStockFields) -> None:
    shown = []
    for q in range(st.n):
        for card in st.hidden[q]:
            _release(st, q, card)
            st.discard.append(card)
            shown.append(card)
        st.hidden[q] = []
    st.log.append((None, ("downturn_reveal", tuple(shown)), None))
    if any(not h for h in st.hands):
        _end_round(st, "empty_hand")
    else:
        _end_turn(st)


def _end_round(st: TakeStockFields, reason: str) -> None:
    """The round is over: ask each seat that can about options, then score."""
    st.end_reason = reason
    st.log.append((None, ("round_end", st.round, reason), None))
    n = st.n
    st.pair = []
    queue = [q for q in ((st.turn + i) % n for i in range(n)) if st.hands[q] and st.tokens[q] > 0]
    if queue:
        st.queue = queue
        st.phase = EXERCISE
        st.cur = queue[0]
    else:
        _finish_round(st)


def _reveal_exercise(st: TakeStockFields) -> None:
    shown = []
    for q in range(st.n):
        used = st.hidden[q]
        for card in used:
            _release(st, q, card)
            st.certs[q].append(card)
        st.tokens[q] -= len(used)
        st.supply += len(used)
        shown.append(tuple(used))
        st.hidden[q] = []
    st.log.append((None, ("exercise_reveal", tuple(shown)), None))
    _finish_round(st)


def _finish_round(st: TakeStockFields) -> None:
    for q in range(st.n):
        for card in st.hands[q]:
            _release(st, q, card)
            st.discard.append(card)
        st.hands[q] = []
    points = scoring.score_round(st)
    for q in range(st.n):
        st.totals[q] += points[q]
    st.round_scores.append(points)
    assert st.end_reason is not None
    st.round_reasons.append(st.end_reason)
    # The breakdown lets a front end show each seat's points stock by stock.
    held = tuple(tuple(h) for h in scoring.shares_held(st))
    prices = tuple(scoring.scoring_prices(st))
    st.log.append((None, ("round_score", st.round, tuple(points), held, prices), None))
    st.queue = []
    if st.round >= st.game.options.rounds:
        st.phase = OVER
        st.cur = None
        st.log.append((None, ("game_over", tuple(st.totals), tuple(st.winners())), None))
        return
    _start_round(st)
