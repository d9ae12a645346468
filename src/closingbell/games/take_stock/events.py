"""Take Stock's event cards: drawing them from the market and carrying them out.

Called by :func:`closingbell.games.take_stock.rules.apply_action`; every function changes
the state in place and trusts its caller.
"""

from __future__ import annotations

from bisect import insort

from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import queries
from closingbell.games.take_stock.rounds import (
    _draw_share,
    _end_round,
    _end_turn,
    _to_event_discard,
)
from closingbell.games.take_stock.state import (
    AUDIT_STOCK,
    AUDIT_WHAT,
    CHOOSE,
    DOWNTURN,
    FREEZE,
    INSIDER_DISCARD,
    RETRIEVE,
    TakeStockFields,
)

VALUES = C.VALUES
NUM_STOCKS = C.NUM_STOCKS
STOCK_RANGE = range(NUM_STOCKS)


def _draw_event(st: TakeStockFields) -> int:
    """Draw the top event card; Market Closed comes when nothing is left above it."""
    if st.ev_above:
        return st.ev_above.pop()
    return C.MARKET_CLOSED


def _market_closed(st: TakeStockFields, p: int) -> None:
    """Market Closed was drawn: it is shown to everyone and the round ends."""
    _to_event_discard(st, C.MARKET_CLOSED, (1 << (st.n + 1)) - 1)
    st.log.append((None, ("market_closed", p), None))
    _end_round(st, "market_closed")


def _retrievable(st: TakeStockFields) -> list[int]:
    """Cards Insider Trading may still take, or none once its limit is reached."""
    got = len(st.retrieved)
    if got >= C.MAX_RETRIEVE:
        return []
    if st.game.options.insider_order == "discard_first" and got >= len(st.hands[st.turn]):
        return []
    s = st.ev_stock
    return [c for c in st.discard if c // VALUES == s]


def _market_a(st: TakeStockFields, p: int) -> None:
    first = _draw_event(st)
    if first == C.MARKET_CLOSED:
        _market_closed(st, p)
        return
    second = _draw_event(st)
    if second == C.MARKET_CLOSED:
        # The first card has no effect; it is set aside face down with the discards.
        _to_event_discard(st, first, 1 << p)
        _log_drew_events(st, p, (first,))
        _market_closed(st, p)
        return
    st.pair = [first, second]
    _log_drew_events(st, p, (first, second))
    st.phase = CHOOSE


def _market_b(st: TakeStockFields, p: int) -> None:
    kind = _draw_event(st)
    if kind == C.MARKET_CLOSED:
        _market_closed(st, p)
        return
    st.saved[p].append(kind)
    _log_drew_events(st, p, (kind,))
    _end_turn(st)


def _log_drew_events(st: TakeStockFields, p: int, kinds: tuple[int, ...]) -> None:
    """Log the event cards seat ``p`` drew: their kinds for ``p``, their number for all."""
    st.log.append((p, ("drew_events", p, len(kinds), kinds), ("drew_events", p, len(kinds), None)))


def _resolve(st: TakeStockFields, p: int, kind: int) -> None:
    """Carry out event ``kind`` played by seat ``p``, then end the turn or ask a question."""
    public = (1 << (st.n + 1)) - 1
    if kind < C.CRASH:
        s = kind - C.SPLIT
        if st.frozen[s]:
            _to_event_discard(st, kind, public)
            st.log.append((None, ("split", s, None, True), None))
        else:
            st.splits[s] += 1
            row = st.rows[s]
            removed = None
            if len(row) > 1:
                removed = C.card_id(s, row.pop())
                st.discard.append(removed)
            st.log.append((None, ("split", s, removed, False), None))
        _end_turn(st)
    elif kind < C.INSIDER:
        _to_event_discard(st, kind, public)
        _crash(st, kind - C.CRASH)
        _end_turn(st)
    elif kind < C.AUDIT:
        _to_event_discard(st, kind, public)
        st.ev_stock = kind - C.INSIDER
        st.retrieved = []
        if _retrievable(st):
            st.phase = RETRIEVE
            st.cur = p
        else:
            st.ev_stock = -1
            _end_turn(st)
    elif kind == C.AUDIT:
        _to_event_discard(st, kind, public)
        st.phase = AUDIT_STOCK
        st.cur = p
    elif kind == C.FREEZE:
        st.ev_active = C.FREEZE
        st.phase = FREEZE
        st.cur = p
    elif kind == C.MARKET_CRASH:
        _to_event_discard(st, kind, public)
        for s in STOCK_RANGE:
            _crash(st, s)
        _end_turn(st)
    elif kind == C.UPTURN:
        _to_event_discard(st, kind, public)
        for i in range(st.n):
            if not _draw_share(st, (p + i) % st.n):
                return
        _end_turn(st)
    elif kind == C.DOWNTURN:
        _to_event_discard(st, kind, public)
        st.queue = [(p + i) % st.n for i in range(st.n)]
        st.phase = DOWNTURN
        st.cur = st.queue[0]
    elif kind == C.OPTION_GAINED:
        _to_event_discard(st, kind, public)
        n = st.n
        if st.supply >= n or st.game.options.option_shortage == "turn_order":
            for i in range(n):
                q = (p + i) % n
                if st.supply > 0:
                    st.supply -= 1
                    st.tokens[q] += 1
                    st.log.append((None, ("tokens", q, 1), None))
        _end_turn(st)
    elif kind == C.OPTION_LOST:
        _to_event_discard(st, kind, public)
        for q in range(st.n):
            if st.tokens[q] > 0:
                st.tokens[q] -= 1
                st.supply += 1
                st.log.append((None, ("tokens", q, -1), None))
        _end_turn(st)
    elif kind == C.NO_CHANGE:
        _to_event_discard(st, kind, public)
        _end_turn(st)
    else:
        raise AssertionError(f"event kind {kind} cannot be resolved")


def _crash(st: TakeStockFields, s: int) -> None:
    """One stock crashes: its freeze goes, one split goes, the top half of its row goes."""
    public = (1 << (st.n + 1)) - 1
    freeze_removed = st.frozen[s]
    if freeze_removed:
        st.frozen[s] = False
        _to_event_discard(st, C.FREEZE, public)
    row = st.rows[s]
    removed = []
    for _ in range(len(row) - queries.crash_keeps(len(row), st.game.options)):
        card = C.card_id(s, row.pop())
        st.discard.append(card)
        removed.append(card)
    split_removed = st.splits[s] > 0
    if split_removed:
        st.splits[s] -= 1
        _to_event_discard(st, C.SPLIT + s, public)
    st.log.append((None, ("crash", s, tuple(removed), split_removed, freeze_removed), None))


def _audit(st: TakeStockFields, p: int, s: int) -> None:
    can_card = len(st.rows[s]) > 1
    can_split = st.splits[s] > 0
    if can_card and can_split:
        st.ev_stock = s
        st.phase = AUDIT_WHAT
        return
    if can_card:
        _audit_card(st, p, s)
    elif can_split:
        _audit_split(st, p, s)
    else:
        st.log.append((None, ("audit", p, s, "nothing"), None))
    _end_turn(st)


def _audit_card(st: TakeStockFields, p: int, s: int) -> None:
    card = C.card_id(s, st.rows[s].pop())
    st.discard.append(card)
    st.log.append((None, ("audit", p, s, C.card_name(card)), None))


def _audit_split(st: TakeStockFields, p: int, s: int) -> None:
    st.splits[s] -= 1
    _to_event_discard(st, C.SPLIT + s, (1 << (st.n + 1)) - 1)
    st.log.append((None, ("audit", p, s, "split"), None))


def _freeze(st: TakeStockFields, p: int, s: int) -> None:
    public = (1 << (st.n + 1)) - 1
    st.ev_active = -1
    if st.frozen[s]:
        st.frozen[s] = False
        _to_event_discard(st, C.FREEZE, public)
        _to_event_discard(st, C.FREEZE, public)
    else:
        st.frozen[s] = True
    st.log.append((None, ("freeze", p, s, st.frozen[s]), None))
    _end_turn(st)


def _retrieval_done(st: TakeStockFields, p: int) -> None:
    st.owed = len(st.retrieved)
    if st.owed == 0:
        st.ev_stock = -1
        _end_turn(st)
        return
    if st.game.options.insider_order == "take_first":
        _take_retrieved(st, p)
    st.phase = INSIDER_DISCARD


def _take_retrieved(st: TakeStockFields, p: int) -> None:
    for card in st.retrieved:
        insort(st.hands[p], card)
        st.known[p].append(card)
    st.retrieved = []


def _insider_finish(st: TakeStockFields, p: int) -> None:
    if st.retrieved:
        _take_retrieved(st, p)
    st.ev_stock = -1
    _end_turn(st)
