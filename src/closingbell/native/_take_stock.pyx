# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Take Stock's rules compiled with Cython: the reference's game, decision for decision.

The readable rules in :mod:`closingbell.games.take_stock.rules` are the specification; this
module repeats them over C arrays (the layout is documented in ``_take_stock.pxd``) and
deals the same cards from the same seeds (``pyrandom.h``). :class:`State` answers the whole
public state API with the reference's results and errors, and
:mod:`closingbell.native.differential` proves it action by action. The log is kept as
compact records and turned into the reference's entries only when it is read.
"""

from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdio cimport snprintf
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memmove, memset

from closingbell.native._random cimport (
    cb_derive,
    cb_derive_many,
    cb_getrandbits64,
    cb_randbelow,
    cb_random,
    cb_random_load,
    cb_random_store,
    cb_shuffle_schar,
)

import numbers
import random

from closingbell.core.game import State as _BaseState
from closingbell.core.rng import check_seed
from closingbell.games.take_stock import cards as _C
from closingbell.games.take_stock import invariants as _invariants
from closingbell.games.take_stock import rules as _rules
from closingbell.games.take_stock import state as _S
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.games.take_stock.views import FOLLOW_NAMES, StockRow, TakeStockView
from closingbell.native._random import in_place_agrees

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object value, int *overflow) except? -1
    int PyObject_GenericSetDict(object o, object value, void *context) except -1
    object PyList_New(Py_ssize_t size)
    object PyTuple_New(Py_ssize_t size)
    void Py_INCREF(PyObject *o)
    void PyList_SET_ITEM(object lst, Py_ssize_t i, PyObject *o)
    void PyTuple_SET_ITEM(object tup, Py_ssize_t i, PyObject *o)
    PyObject *PyLong_FromLong(long value) except NULL


# ---------------------------------------------------------------------- tables

cdef int8_t _EVENT_DECK[TS_KINDS]      # cards of each kind in the deck
cdef int8_t _HAND_SIZES[TS_SEATS + 1]  # cards dealt, by player count
cdef int _START_TOKENS = _C.START_TOKENS
cdef int _TOTAL_TOKENS = _C.TOTAL_TOKENS
cdef int _BELOW_CLOSED = _C.CARDS_BELOW_CLOSED
cdef int _MAX_RETRIEVE = _C.MAX_RETRIEVE
cdef int _MAX_RAISE = _C.MAX_RAISE




cdef void _fill_tables():
    """Copy the event deck and the hand sizes from the data module."""
    cdef int k
    for k in range(TS_KINDS):
        _EVENT_DECK[k] = _C.EVENT_DECK[k]
    for k in range(TS_SEATS + 1):
        _HAND_SIZES[k] = _C.HAND_SIZES.get(k, 0)


_fill_tables()

# Python objects the engine hands out, made once.
cdef tuple _ACTION_INTS = tuple(range(TS_ACTIONS))
cdef PyObject *_ACT[TS_ACTIONS]
for _i in range(TS_ACTIONS):
    _ACT[_i] = <PyObject *>_ACTION_INTS[_i]
cdef tuple _PHASE_NAMES = tuple(_S.PHASE_NAMES)
cdef tuple _REASONS = tuple(_S.ROUND_END_REASONS)
cdef tuple _STOCK_NAMES = tuple(_C.STOCKS)
cdef tuple _CARD_NAMES = tuple(_C.card_name(c) for c in range(TS_CARDS))
cdef tuple _FOLLOW_NAMES = tuple(FOLLOW_NAMES[f] for f in range(TS_F_PLAY + 1))
cdef object _new_object = object.__new__
cdef object _TakeStockView = TakeStockView
cdef object _StockRow = StockRow
cdef object _coerce = _BaseState.coerce_action
cdef object _refuse = _BaseState.refuse
cdef dict _REASON_CODES = {name: i for i, name in enumerate(_S.ROUND_END_REASONS)}


# ---------------------------------------------------------------------- buffers


cdef inline int32_t *_bdata(ts_buf *b) noexcept nogil:
    return <int32_t *>(<char *>b + sizeof(ts_buf))


cdef ts_buf *_buf_new(Py_ssize_t cap) except NULL:
    cdef ts_buf *b = <ts_buf *>malloc(sizeof(ts_buf) + <size_t>cap * sizeof(int32_t))
    if b == NULL:
        raise MemoryError()
    b.refs = 1
    b.used = 0
    b.cap = cap
    return b


cdef inline void _buf_release(ts_buf *b) noexcept:
    if b != NULL:
        b.refs -= 1
        if b.refs == 0:
            free(b)


cdef int32_t *_buf_grow(ts_buf **slot, Py_ssize_t length, Py_ssize_t count) except NULL:
    """Room for ``count`` more values after ``length``, where this state alone may write."""
    cdef ts_buf *b = slot[0]
    cdef ts_buf *fresh
    cdef Py_ssize_t cap
    cdef bint mine = b.refs == 1 or b.used == length
    if mine and length + count <= b.cap:
        return _bdata(b) + length
    if b.refs == 1:
        cap = max(2 * b.cap, length + count, 64)
        fresh = <ts_buf *>realloc(b, sizeof(ts_buf) + <size_t>cap * sizeof(int32_t))
        if fresh == NULL:
            raise MemoryError()
        fresh.cap = cap
    else:
        # Sized by this state's own part, not the shared buffer: a state that parts from
        # its clone again and again would otherwise double its room every time.
        cap = max(2 * (length + count), 64)
        fresh = _buf_new(cap)
        memcpy(_bdata(fresh), _bdata(b), <size_t>length * sizeof(int32_t))
        b.refs -= 1
    slot[0] = fresh
    return _bdata(fresh) + length


cdef inline int32_t *_log_add(State st, Py_ssize_t count) except NULL:
    """Room for one log record of ``count`` values (its header included)."""
    cdef ts_buf *b = st.log_buf
    cdef Py_ssize_t at = st.log_len
    cdef int32_t *out
    if (b.used == at or b.refs == 1) and at + count <= b.cap:
        out = _bdata(b) + at
    else:
        out = _buf_grow(&st.log_buf, at, count)
    st.log_len = at + count
    st.log_buf.used = at + count
    return out


cdef inline int _hist_add(State st, int action) except -1:
    cdef ts_buf *b = st.hist_buf
    cdef Py_ssize_t at = st.hist_len
    cdef int32_t *out
    if (b.used == at or b.refs == 1) and at < b.cap:
        out = _bdata(b) + at
    else:
        out = _buf_grow(&st.hist_buf, at, 1)
    out[0] = action
    st.hist_len = at + 1
    st.hist_buf.used = at + 1
    return 0


# ---------------------------------------------------------------------- the log's records
# A record is a header (kind | values << 8) and its values; the reference's entry for it
# is made by _decode when the log is read.

cdef enum:
    L_ROUND_START = 0      # round, dealer
    L_DRAW                 # seat, card (private)
    L_RESHUFFLE            # cards
    L_RAISE                # seat, card
    L_SAVE                 # seat, card
    L_DISCARD              # seat, card
    L_MARKET               # seat, 0 for A / 1 for B
    L_DREW                 # seat, count, kinds... (private)
    L_MARKET_CLOSED        # seat
    L_PLAY                 # seat, kind
    L_CHOOSE               # seat, kind
    L_EVENT_DISCARD        # seat, kind (private)
    L_SPLIT                # stock, removed card or -1, frozen
    L_CRASH                # stock, split removed, freeze removed, cards...
    L_RETRIEVE             # seat, card
    L_AUDIT                # seat, stock, card or -1 (split) or -2 (nothing)
    L_FREEZE               # seat, stock, frozen
    L_TOKENS               # seat, change
    L_DOWNTURN_DISCARD     # seat, card (private)
    L_DOWNTURN_REVEAL      # cards...
    L_EXERCISE             # seat, card (private)
    L_EXERCISE_REVEAL      # for each seat: count, cards...
    L_ROUND_END            # round, reason
    L_ROUND_SCORE          # round, points per seat, shares per seat and stock, prices
    L_GAME_OVER            # totals per seat, winners...


cdef inline int _log2(State st, int kind, int a, int b) except -1:
    cdef int32_t *r = _log_add(st, 3)
    r[0] = kind | (2 << 8)
    r[1] = a
    r[2] = b
    return 0


cdef inline int _log1(State st, int kind, int a) except -1:
    cdef int32_t *r = _log_add(st, 2)
    r[0] = kind | (1 << 8)
    r[1] = a
    return 0


cdef inline int _log3(State st, int kind, int a, int b, int c) except -1:
    cdef int32_t *r = _log_add(st, 4)
    r[0] = kind | (3 << 8)
    r[1] = a
    r[2] = b
    r[3] = c
    return 0


cdef inline tuple _ints_tuple(const int32_t *values, Py_ssize_t count):
    cdef tuple out = PyTuple_New(count)
    cdef Py_ssize_t i
    for i in range(count):
        PyTuple_SET_ITEM(out, i, PyLong_FromLong(values[i]))
    return out


cdef object _decode(const int32_t *r, int n):
    """The reference's log entry for the record at ``r``."""
    cdef int kind = r[0] & 0xFF
    cdef int count = r[0] >> 8
    cdef const int32_t *a = r + 1
    cdef int q, m, at
    cdef list parts
    if kind == L_DRAW:
        return (a[0], ("draw", a[0], a[1]), ("draw", a[0], None))
    if kind == L_DISCARD:
        return (None, ("discard", a[0], a[1]), None)
    if kind == L_RAISE:
        return (None, ("raise", a[0], a[1]), None)
    if kind == L_SAVE:
        return (None, ("save", a[0], a[1]), None)
    if kind == L_MARKET:
        return (None, ("market", a[0], "B" if a[1] else "A"), None)
    if kind == L_DREW:
        return (
            a[0],
            ("drew_events", a[0], a[1], _ints_tuple(a + 2, count - 2)),
            ("drew_events", a[0], a[1], None),
        )
    if kind == L_EVENT_DISCARD:
        return (a[0], ("event_discard", a[0], a[1]), ("event_discard", a[0], None))
    if kind == L_CHOOSE:
        return (None, ("choose", a[0], a[1]), None)
    if kind == L_PLAY:
        return (None, ("play", a[0], a[1]), None)
    if kind == L_SPLIT:
        return (None, ("split", a[0], None if a[1] < 0 else a[1], a[2] != 0), None)
    if kind == L_CRASH:
        return (
            None,
            ("crash", a[0], _ints_tuple(a + 3, count - 3), a[1] != 0, a[2] != 0),
            None,
        )
    if kind == L_RETRIEVE:
        return (None, ("retrieve", a[0], a[1]), None)
    if kind == L_AUDIT:
        what = "nothing" if a[2] == -2 else "split" if a[2] == -1 else _CARD_NAMES[a[2]]
        return (None, ("audit", a[0], a[1], what), None)
    if kind == L_FREEZE:
        return (None, ("freeze", a[0], a[1], a[2] != 0), None)
    if kind == L_TOKENS:
        return (None, ("tokens", a[0], a[1]), None)
    if kind == L_DOWNTURN_DISCARD:
        return (a[0], ("downturn_discard", a[0], a[1]), ("downturn_discard", a[0], None))
    if kind == L_DOWNTURN_REVEAL:
        return (None, ("downturn_reveal", _ints_tuple(a, count)), None)
    if kind == L_EXERCISE:
        return (a[0], ("exercise", a[0], a[1]), ("exercise", a[0], None))
    if kind == L_EXERCISE_REVEAL:
        parts = []
        at = 0
        for q in range(n):
            m = a[at]
            parts.append(_ints_tuple(a + at + 1, m))
            at += m + 1
        return (None, ("exercise_reveal", tuple(parts)), None)
    if kind == L_RESHUFFLE:
        return (None, ("reshuffle", a[0]), None)
    if kind == L_MARKET_CLOSED:
        return (None, ("market_closed", a[0]), None)
    if kind == L_ROUND_START:
        return (None, ("round_start", a[0], a[1]), None)
    if kind == L_ROUND_END:
        return (None, ("round_end", a[0], _REASONS[a[1]]), None)
    if kind == L_ROUND_SCORE:
        parts = [_ints_tuple(a + 1 + n + q * TS_STOCKS, TS_STOCKS) for q in range(n)]
        return (
            None,
            (
                "round_score",
                a[0],
                _ints_tuple(a + 1, n),
                tuple(parts),
                _ints_tuple(a + 1 + n + n * TS_STOCKS, TS_STOCKS),
            ),
            None,
        )
    if kind == L_GAME_OVER:
        return (None, ("game_over", _ints_tuple(a, n), _ints_tuple(a + n, count - n)), None)
    raise AssertionError(f"unknown log record {kind}")


# ---------------------------------------------------------------------- small helpers


cdef inline void _remove8(int8_t *items, int8_t *length, int value) noexcept nogil:
    """``list.remove(value)`` on a C list: the first occurrence goes (it is known to be there)."""
    cdef int i, size = length[0]
    for i in range(size):
        if items[i] == value:
            memmove(items + i, items + i + 1, size - i - 1)
            length[0] = size - 1
            return


cdef inline void _insort8(int8_t *items, int8_t *length, int value) noexcept nogil:
    """``bisect.insort`` on a sorted C list."""
    cdef int i = length[0]
    while i > 0 and items[i - 1] > value:
        items[i] = items[i - 1]
        i -= 1
    items[i] = value
    length[0] += 1


cdef inline void _sort8(int8_t *items, int size) noexcept nogil:
    cdef int i, j, v
    for i in range(1, size):
        v = items[i]
        j = i
        while j > 0 and items[j - 1] > v:
            items[j] = items[j - 1]
            j -= 1
        items[j] = v


cdef inline int _public(ts_core *c) noexcept nogil:
    return (1 << (c.r.n + 1)) - 1


cdef inline void _derive(cb_random *rng, ts_core *c, const char *labels) noexcept:
    cb_derive(rng, c.seed, labels)


cdef inline void _to_event_discard(ts_core *c, int kind, int mask) noexcept nogil:
    c.ev_discard[c.ev_discard_len] = kind
    c.ev_discard_mask[c.ev_discard_len] = mask
    c.ev_discard_len += 1


cdef inline void _release(ts_core *c, int p, int card) noexcept nogil:
    """Public bookkeeping for a card of seat ``p``'s that is now face up."""
    if c.pool_of[card] >= 0:
        c.pool_of[card] = -1
    else:
        _remove8(c.known[p], &c.known_len[p], card)


cdef inline int _limit(ts_core *c) noexcept nogil:
    """The Limit rule's bound: the most any stock row counts (``ts_row_count``)."""
    cdef int s, count, best = 0
    for s in range(TS_STOCKS):
        count = ts_row_count(c.row_len[s], c.splits[s], c.frozen[s], c.r.limit_freeze)
        if count > best:
            best = count
    return best


cdef inline int _price(ts_core *c, int s) noexcept nogil:
    return c.rows[s][c.row_len[s] - 1] * (c.splits[s] + 1)


cdef inline int _scoring_price(ts_core *c, int s) noexcept nogil:
    return ts_scoring_price(_price(c, s), c.frozen[s], c.r.frozen_zero)


cdef int _worth(ts_core *c, int q) noexcept nogil:
    """What seat ``q``'s certificates score at the scoring prices now."""
    cdef int i, card, points = 0
    for i in range(c.cert_len[q]):
        card = c.certs[q][i]
        points += c.r.shares[card % TS_VALUES + 1] * _scoring_price(c, card // TS_VALUES)
    return points


cdef int _retrievable(ts_core *c, int8_t *out) noexcept nogil:
    """Cards Insider Trading may still take, sorted, into ``out``; returns how many."""
    cdef int got = c.retrieved_len
    cdef int i, card, k = 0, mask = 0
    if got >= _MAX_RETRIEVE:
        return 0
    if not c.r.take_first and got >= c.hand_len[c.turn]:
        return 0
    for i in range(c.discard_len):
        card = c.discard[i]
        if card // TS_VALUES == c.ev_stock:
            mask |= 1 << (card % TS_VALUES)
    for i in range(TS_VALUES):
        if mask & (1 << i):
            if out != NULL:
                out[k] = c.ev_stock * TS_VALUES + i
            k += 1
    return k


cdef int _winners(ts_core *c, int8_t *out) noexcept nogil:
    """The seats in first place under the ``final_tie`` option, into ``out``; how many."""
    cdef int n = c.r.n
    cdef int q, k = 0, best = c.totals[0], most = -1
    for q in range(1, n):
        if c.totals[q] > best:
            best = c.totals[q]
    for q in range(n):
        if c.totals[q] == best:
            out[k] = q
            k += 1
    if k > 1 and c.r.final_tokens:
        for q in range(k):
            if c.tokens[out[q]] > most:
                most = c.tokens[out[q]]
        n = k
        k = 0
        for q in range(n):
            if c.tokens[out[q]] == most:
                out[k] = out[q]
                k += 1
    return k


# ---------------------------------------------------------------------- legal actions


cdef void ts_compute_legal(ts_core *c) noexcept nogil:
    """Fill ``c.legal`` with the sorted legal action ids of the pending decision."""
    cdef int16_t *out = c.legal
    cdef int k = 0
    cdef int p = c.cur
    cdef int phase = c.phase
    cdef int i, card, s, v, top, mask, hl
    cdef int8_t *hand
    cdef int8_t found[TS_VALUES]
    c.legal_ok = 1
    if p < 0:
        c.legal_len = 0
        return
    hand = c.hands[p]
    hl = c.hand_len[p]
    if phase == TS_PH_ACTION:
        for i in range(hl):
            card = hand[i]
            s = card // TS_VALUES
            if not c.frozen[s]:
                top = c.rows[s][c.row_len[s] - 1]
                v = card % TS_VALUES + 1
                if top < v <= top + _MAX_RAISE:
                    out[k] = TS_A_RAISE + card
                    k += 1
        if c.cert_len[p] < _limit(c):
            for i in range(hl):
                out[k] = TS_A_SAVE + hand[i]
                k += 1
        out[k] = TS_A_MARKET_A
        out[k + 1] = TS_A_MARKET_B
        k += 2
        if c.saved_len[p]:
            mask = 0
            for i in range(c.saved_len[p]):
                mask |= 1 << c.saved[p][i]
            for i in range(TS_KINDS):
                if mask & (1 << i):
                    out[k] = TS_A_PLAY + i
                    k += 1
    elif phase == TS_PH_DISCARD or phase == TS_PH_INSIDER_DISCARD or phase == TS_PH_DOWNTURN:
        for i in range(hl):
            out[i] = TS_A_DISCARD + hand[i]
        k = hl
    elif phase == TS_PH_CHOOSE:
        if c.pair_len == 2 and c.pair[0] != c.pair[1]:
            out[0] = TS_A_CHOOSE + min(c.pair[0], c.pair[1])
            out[1] = TS_A_CHOOSE + max(c.pair[0], c.pair[1])
            k = 2
        elif c.pair_len > 0:
            out[0] = TS_A_CHOOSE + c.pair[0]
            k = 1
    elif phase == TS_PH_AUDIT_STOCK:
        for s in range(TS_STOCKS):
            if not c.frozen[s]:
                out[k] = TS_A_AUDIT_STOCK + s
                k += 1
    elif phase == TS_PH_AUDIT_WHAT:
        out[0] = TS_A_AUDIT_CARD
        out[1] = TS_A_AUDIT_SPLIT
        k = 2
    elif phase == TS_PH_FREEZE:
        for s in range(TS_STOCKS):
            out[s] = TS_A_FREEZE_STOCK + s
        k = TS_STOCKS
    elif phase == TS_PH_RETRIEVE:
        k = _retrievable(c, found)
        for i in range(k):
            out[i] = TS_A_RETRIEVE + found[i]
        out[k] = TS_A_RETRIEVE_DONE
        k += 1
    elif phase == TS_PH_EXERCISE:
        for i in range(hl):
            out[i] = TS_A_EXERCISE + hand[i]
        out[hl] = TS_A_EXERCISE_DONE
        k = hl + 1
    c.legal_len = k


cdef bint ts_is_legal(ts_core *c, int action) noexcept nogil:
    """Whether ``action`` is legal now (the cache is filled if needed)."""
    cdef int i
    cdef int16_t *legal = c.legal
    if not c.legal_ok:
        ts_compute_legal(c)
    for i in range(c.legal_len):
        if legal[i] == action:
            return True
    return False


# ---------------------------------------------------------------------- setting up


cdef int _reset_event_pile(State st, cb_random *rng) except -1:
    """Gather all 40 event cards and build the pile with Market Closed 11th from the bottom.

    ``rng`` is the round's ``events`` generator.
    """
    cdef ts_core *c = &st.c
    cdef int8_t deck[TS_EVENT_CARDS]
    cdef int k, j, size = 0
    for k in range(TS_KINDS):
        if k != TS_K_MARKET_CLOSED:
            for j in range(_EVENT_DECK[k]):
                deck[size] = k
                size += 1
    cb_shuffle_schar(rng, <signed char *>deck, size)
    memcpy(c.ev_below, deck, _BELOW_CLOSED)
    memset(c.ev_below_mask, 0, _BELOW_CLOSED)
    c.ev_below_len = _BELOW_CLOSED
    memcpy(c.ev_above, deck + _BELOW_CLOSED, size - _BELOW_CLOSED)
    c.ev_above_len = size - _BELOW_CLOSED
    c.ev_discard_len = 0
    memset(c.saved_len, 0, sizeof(c.saved_len))
    return 0


cdef int _gather_under_pile(State st) except -1:
    """Put the market's splits and freezes and the event discard pile under the pile."""
    cdef ts_core *c = &st.c
    cdef int8_t kinds[TS_EVENT_CARDS]
    cdef uint8_t masks[TS_EVENT_CARDS]
    cdef int public = _public(c)
    cdef int s, i, p, k = 0
    for s in range(TS_STOCKS):
        for i in range(c.splits[s]):
            kinds[k] = TS_K_SPLIT + s
            masks[k] = public
            k += 1
        if c.frozen[s]:
            kinds[k] = TS_K_FREEZE
            masks[k] = public
            k += 1
    memcpy(kinds + k, c.ev_discard, c.ev_discard_len)
    memcpy(masks + k, c.ev_discard_mask, c.ev_discard_len)
    k += c.ev_discard_len
    if not c.r.keep_saved:
        for p in range(c.r.n):
            for i in range(c.saved_len[p]):
                kinds[k] = c.saved[p][i]
                masks[k] = 1 << p
                k += 1
            c.saved_len[p] = 0
    # Cards are conserved (checked when a state is read), so the pile has room for all.
    memmove(c.ev_below + k, c.ev_below, c.ev_below_len)
    memmove(c.ev_below_mask + k, c.ev_below_mask, c.ev_below_len)
    memcpy(c.ev_below, kinds, k)
    memcpy(c.ev_below_mask, masks, k)
    c.ev_below_len += k
    c.ev_discard_len = 0
    return 0


cdef int _start_round(State st, int first_dealer, cb_random *seeded) except -1:
    """Prepare the next round's events and market, deal, and start the first turn.

    ``seeded`` is NULL, or the round's ``shares`` and ``events`` generators already seeded
    (as ``new_game`` seeds them with the first dealer's).
    """
    cdef ts_core *c = &st.c
    cdef int n = c.r.n
    cdef int size = c.r.hand_size
    cdef int s, p, card, total = 0
    cdef int8_t deck[TS_CARDS]
    cdef cb_random made[2]
    cdef cb_random *rng = seeded
    cdef bint new_events = c.round == 0 or c.end_reason == TS_R_MARKET_CLOSED
    if rng == NULL:
        rng = made
        _seed_round(c, rng, c.round + 1, new_events)
    if new_events:
        c.round += 1
        _reset_event_pile(st, rng + 1)
    else:
        _gather_under_pile(st)
        c.round += 1
    for s in range(TS_STOCKS):
        c.rows[s][0] = 1
        c.row_len[s] = 1
        c.splits[s] = 0
        c.frozen[s] = 0
    c.market += 1
    c.end_reason = TS_R_NONE
    for card in range(TS_CARDS):
        if card % TS_VALUES:
            deck[total] = card
            total += 1
            c.pool_of[card] = 0
        else:
            c.pool_of[card] = -1
    cb_shuffle_schar(rng, <signed char *>deck, total)
    for p in range(n):
        memcpy(c.hands[p], deck + p * size, size)
        _sort8(c.hands[p], size)
        c.hand_len[p] = size
        c.cert_len[p] = 0
        c.known_len[p] = 0
        c.hidden_len[p] = 0
    memcpy(c.draw, deck + n * size, total - n * size)
    c.draw_len = total - n * size
    c.discard_len = 0
    c.npools = 1
    c.reshuffles = 0
    c.dealer = first_dealer if first_dealer >= 0 else _next_dealer(c)
    _log2(st, L_ROUND_START, c.round, c.dealer)
    _begin_turn(st, (c.dealer + 1) % n)
    return 0


cdef void _seed_round(ts_core *c, cb_random *rng, int round, bint events) noexcept:
    """Seed ``rng[0]`` as ``shares/round`` and, if ``events``, ``rng[1]`` as ``events/round``
    (together: seeding is most of a deal's cost, and two cost about what one does)."""
    cdef char shares_label[32]
    cdef char events_label[32]
    cdef cb_random *both[2]
    cdef const char *labels[2]
    snprintf(shares_label, sizeof(shares_label), "shares/%d", round)
    snprintf(events_label, sizeof(events_label), "events/%d", round)
    both[0] = rng
    both[1] = rng + 1
    labels[0] = shares_label
    labels[1] = events_label
    cb_derive_many(both, c.seed, labels, 2 if events else 1)


cdef int _next_dealer(ts_core *c) noexcept:
    """The seat with the lowest total deals; ties follow the ``dealer_tie`` option."""
    cdef int n = c.r.n
    cdef int i, p, k = 0, low = c.totals[0]
    cdef int tied[TS_SEATS]
    cdef char labels[48]
    cdef cb_random rng
    for p in range(1, n):
        if c.totals[p] < low:
            low = c.totals[p]
    for i in range(n):
        p = (c.dealer + 1 + i) % n
        if c.totals[p] == low:
            tied[k] = p
            k += 1
    if k > 1 and c.r.tie_random:
        snprintf(labels, sizeof(labels), "dealer-tie/%d", c.round)
        _derive(&rng, c, labels)
        return tied[cb_randbelow(&rng, k)]
    return tied[0]


# ---------------------------------------------------------------------- turns


cdef inline int _begin_turn(State st, int p) except -1:
    st.c.turn = p
    if _draw_share(st, p):
        st.c.phase = TS_PH_ACTION
        st.c.cur = p
    return 0


cdef inline int _end_turn(State st) except -1:
    return _begin_turn(st, (st.c.turn + 1) % st.c.r.n)


cdef int _reshuffle(State st) except -1:
    """The discard pile, seen by all, becomes the new draw pile and a new pool."""
    cdef ts_core *c = &st.c
    cdef int i, k = c.npools
    cdef char labels[48]
    cdef cb_random rng
    for i in range(c.discard_len):
        c.pool_of[c.discard[i]] = k
    c.npools += 1
    c.reshuffles += 1
    snprintf(labels, sizeof(labels), "reshuffle/%d/%d", c.round, c.reshuffles)
    _derive(&rng, c, labels)
    cb_shuffle_schar(&rng, <signed char *>c.discard, c.discard_len)
    memcpy(c.draw, c.discard, c.discard_len)
    c.draw_len = c.discard_len
    c.discard_len = 0
    _log1(st, L_RESHUFFLE, c.draw_len)
    return 0


cdef int _draw_share(State st, int p) except -1:
    """Seat ``p`` draws a share card; returns 0 if the round ended instead."""
    cdef ts_core *c = &st.c
    cdef int card
    if c.draw_len == 0:
        # Only under the 'next_draw' option: the pile waits empty until a card is needed.
        if c.discard_len == 0:
            _end_round(st, TS_R_NO_CARDS)
            return 0
        _reshuffle(st)
    c.draw_len -= 1
    card = c.draw[c.draw_len]
    _insort8(c.hands[p], &c.hand_len[p], card)
    _log2(st, L_DRAW, p, card)
    if c.r.last_card and c.draw_len == 0:
        if c.discard_len == 0:
            _end_round(st, TS_R_NO_CARDS)
            return 0
        _reshuffle(st)
    return 1


cdef int _discard_from_hand(State st, int p, int card) except -1:
    cdef ts_core *c = &st.c
    _remove8(c.hands[p], &c.hand_len[p], card)
    _release(c, p, card)
    c.discard[c.discard_len] = card
    c.discard_len += 1
    _log2(st, L_DISCARD, p, card)
    return 0


cdef inline int _draw_event(ts_core *c) noexcept nogil:
    """Draw the top event card; Market Closed comes when nothing is left above it."""
    if c.ev_above_len:
        c.ev_above_len -= 1
        return c.ev_above[c.ev_above_len]
    return TS_K_MARKET_CLOSED


cdef int _market_closed(State st, int p) except -1:
    """Market Closed was drawn: it is shown to everyone and the round ends."""
    _to_event_discard(&st.c, TS_K_MARKET_CLOSED, _public(&st.c))
    _log1(st, L_MARKET_CLOSED, p)
    _end_round(st, TS_R_MARKET_CLOSED)
    return 0


cdef int _log_drew(State st, int p, int first, int second) except -1:
    """Log the event cards seat ``p`` drew (``second`` -1 for one card)."""
    cdef int32_t *r
    if second < 0:
        r = _log_add(st, 4)
        r[0] = L_DREW | (3 << 8)
        r[1] = p
        r[2] = 1
        r[3] = first
    else:
        r = _log_add(st, 5)
        r[0] = L_DREW | (4 << 8)
        r[1] = p
        r[2] = 2
        r[3] = first
        r[4] = second
    return 0


# ---------------------------------------------------------------------- applying


cdef int _apply(State st, int a) except -1:
    """Apply legal action ``a`` for the current player (unchecked)."""
    cdef ts_core *c = &st.c
    cdef int p = c.cur
    cdef int phase = c.phase
    cdef int card, kind, follow, other, s
    if phase == TS_PH_ACTION:
        if a < TS_A_SAVE:
            _raise_price(st, p, a - TS_A_RAISE)
        elif a < TS_A_DISCARD:
            card = a - TS_A_SAVE
            _remove8(c.hands[p], &c.hand_len[p], card)
            _release(c, p, card)
            c.certs[p][c.cert_len[p]] = card
            c.cert_len[p] += 1
            _log2(st, L_SAVE, p, card)
            c.follow = TS_F_SAVE
            c.phase = TS_PH_DISCARD
        elif a == TS_A_MARKET_A or a == TS_A_MARKET_B:
            c.follow = TS_F_MARKET_A if a == TS_A_MARKET_A else TS_F_MARKET_B
            _log2(st, L_MARKET, p, a - TS_A_MARKET_A)
            c.phase = TS_PH_DISCARD
        else:
            kind = a - TS_A_PLAY
            _remove8(c.saved[p], &c.saved_len[p], kind)
            c.ev_active = kind
            c.follow = TS_F_PLAY
            _log2(st, L_PLAY, p, kind)
            c.phase = TS_PH_DISCARD
        return 0
    if phase == TS_PH_DISCARD:
        _discard_from_hand(st, p, a - TS_A_DISCARD)
        follow = c.follow
        c.follow = TS_F_NONE
        if follow == TS_F_SAVE:
            if c.hand_len[p]:
                _end_turn(st)
            else:
                _end_round(st, TS_R_EMPTY_HAND)
        elif follow == TS_F_PLAY:
            kind = c.ev_active
            c.ev_active = -1
            _resolve(st, p, kind)
        elif follow == TS_F_MARKET_A:
            _market_a(st, p)
        else:
            _market_b(st, p)
        return 0
    if phase == TS_PH_CHOOSE:
        kind = a - TS_A_CHOOSE
        other = c.pair[1] if c.pair[0] == kind else c.pair[0]
        c.pair_len = 0
        _to_event_discard(c, other, 1 << p)
        _log2(st, L_EVENT_DISCARD, p, other)
        _log2(st, L_CHOOSE, p, kind)
        _resolve(st, p, kind)
        return 0
    if phase == TS_PH_AUDIT_STOCK:
        _audit(st, p, a - TS_A_AUDIT_STOCK)
        return 0
    if phase == TS_PH_AUDIT_WHAT:
        s = c.ev_stock
        c.ev_stock = -1
        if a == TS_A_AUDIT_CARD:
            _audit_card(st, p, s)
        else:
            _audit_split(st, p, s)
        _end_turn(st)
        return 0
    if phase == TS_PH_FREEZE:
        _freeze(st, p, a - TS_A_FREEZE_STOCK)
        return 0
    if phase == TS_PH_RETRIEVE:
        if a == TS_A_RETRIEVE_DONE:
            _retrieval_done(st, p)
            return 0
        card = a - TS_A_RETRIEVE
        _remove8(c.discard, &c.discard_len, card)
        c.retrieved[c.retrieved_len] = card
        c.retrieved_len += 1
        _log2(st, L_RETRIEVE, p, card)
        if not _retrievable(c, NULL):
            _retrieval_done(st, p)
        return 0
    if phase == TS_PH_INSIDER_DISCARD:
        _discard_from_hand(st, p, a - TS_A_DISCARD)
        c.owed -= 1
        if c.owed == 0:
            _insider_finish(st, p)
        return 0
    if phase == TS_PH_DOWNTURN:
        card = a - TS_A_DISCARD
        _remove8(c.hands[p], &c.hand_len[p], card)
        c.hidden[p][c.hidden_len[p]] = card
        c.hidden_len[p] += 1
        _log2(st, L_DOWNTURN_DISCARD, p, card)
        _next_in_queue(st)
        return 0
    if phase == TS_PH_EXERCISE:
        if a == TS_A_EXERCISE_DONE:
            _next_in_queue(st)
            return 0
        card = a - TS_A_EXERCISE
        _remove8(c.hands[p], &c.hand_len[p], card)
        c.hidden[p][c.hidden_len[p]] = card
        c.hidden_len[p] += 1
        _log2(st, L_EXERCISE, p, card)
        if c.hidden_len[p] >= c.tokens[p] or not c.hand_len[p]:
            _next_in_queue(st)
        return 0
    raise AssertionError(f"no decision pending in phase {phase}")


cdef int _raise_price(State st, int p, int card) except -1:
    cdef ts_core *c = &st.c
    cdef int s = card // TS_VALUES
    cdef int v = card % TS_VALUES + 1
    _remove8(c.hands[p], &c.hand_len[p], card)
    _release(c, p, card)
    c.rows[s][c.row_len[s]] = v
    c.row_len[s] += 1
    c.market += 1
    _log2(st, L_RAISE, p, card)
    if v >= TS_CLOSING_VALUE:
        _end_round(st, TS_R_HIGH_CARD)
    else:
        _end_turn(st)
    return 0


cdef int _market_a(State st, int p) except -1:
    cdef ts_core *c = &st.c
    cdef int first = _draw_event(c)
    cdef int second
    if first == TS_K_MARKET_CLOSED:
        _market_closed(st, p)
        return 0
    second = _draw_event(c)
    if second == TS_K_MARKET_CLOSED:
        # The first card has no effect; it is set aside face down with the discards.
        _to_event_discard(c, first, 1 << p)
        _log_drew(st, p, first, -1)
        _market_closed(st, p)
        return 0
    c.pair[0] = first
    c.pair[1] = second
    c.pair_len = 2
    _log_drew(st, p, first, second)
    c.phase = TS_PH_CHOOSE
    return 0


cdef int _market_b(State st, int p) except -1:
    cdef ts_core *c = &st.c
    cdef int kind = _draw_event(c)
    if kind == TS_K_MARKET_CLOSED:
        _market_closed(st, p)
        return 0
    c.saved[p][c.saved_len[p]] = kind
    c.saved_len[p] += 1
    _log_drew(st, p, kind, -1)
    _end_turn(st)
    return 0


cdef int _resolve(State st, int p, int kind) except -1:
    """Carry out event ``kind`` played by seat ``p``, then end the turn or ask a question."""
    cdef ts_core *c = &st.c
    cdef int public = _public(c)
    cdef int n = c.r.n
    cdef int s, i, q, removed
    if kind < TS_K_CRASH:
        s = kind - TS_K_SPLIT
        if c.frozen[s]:
            _to_event_discard(c, kind, public)
            _log3(st, L_SPLIT, s, -1, 1)
        else:
            c.splits[s] += 1
            c.market += 1
            removed = -1
            if c.row_len[s] > 1:
                c.row_len[s] -= 1
                removed = s * TS_VALUES + c.rows[s][c.row_len[s]] - 1
                c.discard[c.discard_len] = removed
                c.discard_len += 1
            _log3(st, L_SPLIT, s, removed, 0)
        _end_turn(st)
    elif kind < TS_K_INSIDER:
        _to_event_discard(c, kind, public)
        _crash(st, kind - TS_K_CRASH)
        _end_turn(st)
    elif kind < TS_K_AUDIT:
        _to_event_discard(c, kind, public)
        c.ev_stock = kind - TS_K_INSIDER
        c.retrieved_len = 0
        if _retrievable(c, NULL):
            c.phase = TS_PH_RETRIEVE
            c.cur = p
        else:
            c.ev_stock = -1
            _end_turn(st)
    elif kind == TS_K_AUDIT:
        _to_event_discard(c, kind, public)
        c.phase = TS_PH_AUDIT_STOCK
        c.cur = p
    elif kind == TS_K_FREEZE:
        c.ev_active = TS_K_FREEZE
        c.phase = TS_PH_FREEZE
        c.cur = p
    elif kind == TS_K_MARKET_CRASH:
        _to_event_discard(c, kind, public)
        for s in range(TS_STOCKS):
            _crash(st, s)
        _end_turn(st)
    elif kind == TS_K_UPTURN:
        _to_event_discard(c, kind, public)
        for i in range(n):
            if not _draw_share(st, (p + i) % n):
                return 0
        _end_turn(st)
    elif kind == TS_K_DOWNTURN:
        _to_event_discard(c, kind, public)
        for i in range(n):
            c.queue[i] = (p + i) % n
        c.queue_len = n
        c.phase = TS_PH_DOWNTURN
        c.cur = c.queue[0]
    elif kind == TS_K_OPTION_GAINED:
        _to_event_discard(c, kind, public)
        if c.supply >= n or not c.r.shortage_nobody:
            for i in range(n):
                q = (p + i) % n
                if c.supply > 0:
                    c.supply -= 1
                    c.tokens[q] += 1
                    _log2(st, L_TOKENS, q, 1)
        _end_turn(st)
    elif kind == TS_K_OPTION_LOST:
        _to_event_discard(c, kind, public)
        for q in range(n):
            if c.tokens[q] > 0:
                c.tokens[q] -= 1
                c.supply += 1
                _log2(st, L_TOKENS, q, -1)
        _end_turn(st)
    elif kind == TS_K_NO_CHANGE:
        _to_event_discard(c, kind, public)
        _end_turn(st)
    else:
        raise AssertionError(f"event kind {kind} cannot be resolved")
    return 0


cdef int _crash(State st, int s) except -1:
    """One stock crashes: its freeze goes, one split goes, the top half of its row goes."""
    cdef ts_core *c = &st.c
    cdef int public = _public(c)
    cdef int freeze_removed = c.frozen[s]
    cdef int split_removed
    cdef int i, card, count
    cdef int8_t removed[TS_VALUES]
    cdef int32_t *r
    c.market += 1
    if freeze_removed:
        c.frozen[s] = 0
        _to_event_discard(c, TS_K_FREEZE, public)
    count = c.row_len[s] - ts_crash_keeps(c.row_len[s], c.r.crash_one)
    for i in range(count):
        c.row_len[s] -= 1
        card = s * TS_VALUES + c.rows[s][c.row_len[s]] - 1
        c.discard[c.discard_len] = card
        c.discard_len += 1
        removed[i] = card
    split_removed = c.splits[s] > 0
    if split_removed:
        c.splits[s] -= 1
        _to_event_discard(c, TS_K_SPLIT + s, public)
    r = _log_add(st, 4 + count)
    r[0] = L_CRASH | ((3 + count) << 8)
    r[1] = s
    r[2] = split_removed
    r[3] = freeze_removed
    for i in range(count):
        r[4 + i] = removed[i]
    return 0


cdef int _audit(State st, int p, int s) except -1:
    cdef ts_core *c = &st.c
    cdef bint can_card = c.row_len[s] > 1
    cdef bint can_split = c.splits[s] > 0
    if can_card and can_split:
        c.ev_stock = s
        c.phase = TS_PH_AUDIT_WHAT
        return 0
    if can_card:
        _audit_card(st, p, s)
    elif can_split:
        _audit_split(st, p, s)
    else:
        _log3(st, L_AUDIT, p, s, -2)
    _end_turn(st)
    return 0


cdef int _audit_card(State st, int p, int s) except -1:
    cdef ts_core *c = &st.c
    cdef int card
    c.row_len[s] -= 1
    c.market += 1
    card = s * TS_VALUES + c.rows[s][c.row_len[s]] - 1
    c.discard[c.discard_len] = card
    c.discard_len += 1
    _log3(st, L_AUDIT, p, s, card)
    return 0


cdef int _audit_split(State st, int p, int s) except -1:
    st.c.splits[s] -= 1
    st.c.market += 1
    _to_event_discard(&st.c, TS_K_SPLIT + s, _public(&st.c))
    _log3(st, L_AUDIT, p, s, -1)
    return 0


cdef int _freeze(State st, int p, int s) except -1:
    cdef ts_core *c = &st.c
    cdef int public = _public(c)
    c.ev_active = -1
    c.market += 1
    if c.frozen[s]:
        c.frozen[s] = 0
        _to_event_discard(c, TS_K_FREEZE, public)
        _to_event_discard(c, TS_K_FREEZE, public)
    else:
        c.frozen[s] = 1
    _log3(st, L_FREEZE, p, s, c.frozen[s])
    _end_turn(st)
    return 0


cdef int _retrieval_done(State st, int p) except -1:
    cdef ts_core *c = &st.c
    c.owed = c.retrieved_len
    if c.owed == 0:
        c.ev_stock = -1
        _end_turn(st)
        return 0
    if c.r.take_first:
        _take_retrieved(c, p)
    c.phase = TS_PH_INSIDER_DISCARD
    return 0


cdef void _take_retrieved(ts_core *c, int p) noexcept nogil:
    cdef int i, card
    for i in range(c.retrieved_len):
        card = c.retrieved[i]
        _insort8(c.hands[p], &c.hand_len[p], card)
        c.known[p][c.known_len[p]] = card
        c.known_len[p] += 1
    c.retrieved_len = 0


cdef int _insider_finish(State st, int p) except -1:
    if st.c.retrieved_len:
        _take_retrieved(&st.c, p)
    st.c.ev_stock = -1
    _end_turn(st)
    return 0


cdef int _next_in_queue(State st) except -1:
    """Pass a decision that all seats take in turn order to the next seat, or reveal."""
    cdef ts_core *c = &st.c
    cdef int skip = 1
    cdef int q
    if c.phase == TS_PH_EXERCISE:
        while skip < c.queue_len:
            q = c.queue[skip]
            if c.hand_len[q] and c.tokens[q]:
                break
            skip += 1
    memmove(c.queue, c.queue + skip, c.queue_len - skip)
    c.queue_len -= skip
    if c.queue_len:
        c.cur = c.queue[0]
        return 0
    if c.phase == TS_PH_DOWNTURN:
        _reveal_downturn(st)
    else:
        _reveal_exercise(st)
    return 0


cdef int _reveal_downturn(State st) except -1:
    cdef ts_core *c = &st.c
    cdef int n = c.r.n
    cdef int q, i, card, k = 0
    cdef int8_t shown[TS_CARDS]
    cdef int32_t *r
    cdef bint empty = False
    for q in range(n):
        for i in range(c.hidden_len[q]):
            card = c.hidden[q][i]
            _release(c, q, card)
            c.discard[c.discard_len] = card
            c.discard_len += 1
            shown[k] = card
            k += 1
        c.hidden_len[q] = 0
    r = _log_add(st, 1 + k)
    r[0] = L_DOWNTURN_REVEAL | (k << 8)
    for i in range(k):
        r[1 + i] = shown[i]
    for q in range(n):
        if not c.hand_len[q]:
            empty = True
    if empty:
        _end_round(st, TS_R_EMPTY_HAND)
    else:
        _end_turn(st)
    return 0


# ---------------------------------------------------------------------- end of round


cdef int _end_round(State st, int reason) except -1:
    """The round is over: ask each seat that can about options, then score."""
    cdef ts_core *c = &st.c
    cdef int n = c.r.n
    cdef int i, q
    c.end_reason = reason
    _log2(st, L_ROUND_END, c.round, reason)
    c.pair_len = 0
    c.queue_len = 0
    for i in range(n):
        q = (c.turn + i) % n
        if c.hand_len[q] and c.tokens[q] > 0:
            c.queue[c.queue_len] = q
            c.queue_len += 1
    if c.queue_len:
        c.phase = TS_PH_EXERCISE
        c.cur = c.queue[0]
    else:
        _finish_round(st)
    return 0


cdef int _reveal_exercise(State st) except -1:
    cdef ts_core *c = &st.c
    cdef int n = c.r.n
    cdef int q, i, card, used, total = 0
    cdef int32_t *r
    for q in range(n):
        total += c.hidden_len[q]
    r = _log_add(st, 1 + n + total)
    r[0] = L_EXERCISE_REVEAL | ((n + total) << 8)
    r += 1
    for q in range(n):
        used = c.hidden_len[q]
        r[0] = used
        for i in range(used):
            card = c.hidden[q][i]
            r[1 + i] = card
            _release(c, q, card)
            c.certs[q][c.cert_len[q]] = card
            c.cert_len[q] += 1
        r += used + 1
        c.tokens[q] -= used
        c.supply += used
        c.hidden_len[q] = 0
    _finish_round(st)
    return 0


cdef int _finish_round(State st) except -1:
    cdef ts_core *c = &st.c
    cdef int n = c.r.n
    cdef int q, i, s, card, points
    cdef int32_t *r
    cdef int8_t top[TS_SEATS]
    cdef int count
    for q in range(n):
        for i in range(c.hand_len[q]):
            card = c.hands[q][i]
            _release(c, q, card)
            c.discard[c.discard_len] = card
            c.discard_len += 1
        c.hand_len[q] = 0
    # The record: round, points per seat, shares per seat and stock, scoring prices.
    r = _log_add(st, 2 + n + n * TS_STOCKS + TS_STOCKS)
    r[0] = L_ROUND_SCORE | ((1 + n + n * TS_STOCKS + TS_STOCKS) << 8)
    r[1] = c.round
    memset(r + 2 + n, 0, n * TS_STOCKS * sizeof(int32_t))
    for s in range(TS_STOCKS):
        r[2 + n + n * TS_STOCKS + s] = _scoring_price(c, s)
    for q in range(n):
        points = _worth(c, q)
        for i in range(c.cert_len[q]):
            card = c.certs[q][i]
            r[2 + n + q * TS_STOCKS + card // TS_VALUES] += c.r.shares[card % TS_VALUES + 1]
        r[2 + q] = points
        c.totals[q] += points
        c.round_scores[c.scored][q] = points
    c.round_reasons[c.scored] = c.end_reason
    c.scored += 1
    c.queue_len = 0
    if c.round >= c.r.rounds:
        c.phase = TS_PH_OVER
        c.cur = -1
        count = _winners(c, top)
        r = _log_add(st, 1 + n + count)
        r[0] = L_GAME_OVER | ((n + count) << 8)
        for q in range(n):
            r[1 + q] = c.totals[q]
        for i in range(count):
            r[1 + n + i] = top[i]
        return 0
    _start_round(st, -1, NULL)
    return 0


# ---------------------------------------------------------------------- Python values


cdef inline list _list8(const int8_t *items, Py_ssize_t count):
    cdef list out = PyList_New(count)
    cdef Py_ssize_t i
    for i in range(count):
        PyList_SET_ITEM(out, i, PyLong_FromLong(items[i]))
    return out


cdef inline tuple _tuple8(const int8_t *items, Py_ssize_t count):
    cdef tuple out = PyTuple_New(count)
    cdef Py_ssize_t i
    for i in range(count):
        PyTuple_SET_ITEM(out, i, PyLong_FromLong(items[i]))
    return out


cdef inline tuple _sorted_tuple8(const int8_t *items, Py_ssize_t count):
    cdef int8_t copy[TS_CARDS]
    memcpy(copy, items, count)
    _sort8(copy, <int>count)
    return _tuple8(copy, count)


cdef inline list _list32(const int32_t *items, Py_ssize_t count):
    cdef list out = PyList_New(count)
    cdef Py_ssize_t i
    for i in range(count):
        PyList_SET_ITEM(out, i, PyLong_FromLong(items[i]))
    return out


cdef tuple _known_kinds(const int8_t *kinds, const uint8_t *masks, int count, int bits):
    """The kinds whose knowledge mask holds all of ``bits``, sorted."""
    cdef int8_t out[TS_EVENT_CARDS]
    cdef int i, k = 0
    for i in range(count):
        if masks[i] & bits == bits:
            out[k] = kinds[i]
            k += 1
    _sort8(out, k)
    return _tuple8(out, k)


cdef int _pool_count(ts_core *c, int q, int pool) noexcept nogil:
    """How many cards of ``pool`` seat ``q`` holds (the reference's ``hand_pool[q][pool]``)."""
    cdef int i, k = 0
    for i in range(c.hand_len[q]):
        if c.pool_of[c.hands[q][i]] == pool:
            k += 1
    for i in range(c.hidden_len[q]):
        if c.pool_of[c.hidden[q][i]] == pool:
            k += 1
    return k


cdef object _make_frozen(object cls, dict fields):
    """A frozen dataclass instance with ``fields``, without the cost of its ``__init__``."""
    obj = _new_object(cls)
    PyObject_GenericSetDict(obj, fields, NULL)
    return obj


cdef ts_buf _EMPTY
_EMPTY.refs = 1 << 60  # never freed: every blank state shares it until it writes
_EMPTY.used = 0
_EMPTY.cap = 0


# ---------------------------------------------------------------------- the state


cdef list _history(State st):
    """The actions of ``st``'s history, as a list of the shared ints."""
    cdef const int32_t *data = _bdata(st.hist_buf)
    cdef Py_ssize_t i
    cdef PyObject *item
    out = PyList_New(st.hist_len)
    for i in range(st.hist_len):
        item = _ACT[data[i]]
        Py_INCREF(item)
        PyList_SET_ITEM(out, i, item)
    return out


# The fields, read as attributes (``rows``, ``hands``...): the base class _StateFields,
# generated at build time (setup.py) from the table of the compiled state's fields.
include "_take_stock_fields.pxi"


cdef class State(_StateFields):
    """One position of a Take Stock game, held in C; the reference's API and results.

    Fields read as attributes (``rows``, ``hands``, ``log``, ``history``...) are fresh
    Python values equal to the reference state's: changing them changes nothing, and
    they cannot be assigned. Make states with :func:`new_game` or :func:`from_state`.
    """

    FORMAT = _S.FORMAT
    SHAPES = _S.SHAPES
    PHASE_NAMES = _S.PHASE_NAMES
    EVENT_FIELDS = _S.EVENT_FIELDS
    SECRET_DECISIONS = _S.SECRET_DECISIONS
    EVENT_VALUES = _S.EVENT_VALUES

    def __cinit__(self):
        # A blank state is over (cur -1) and shares the empty buffers, so nothing can
        # write through a null pointer or divide by its zero seats.
        self.c.cur = -1
        _EMPTY.refs += 2
        self.log_buf = &_EMPTY
        self.hist_buf = &_EMPTY
        self.log_cache = []

    def __init__(self, *args, **kwargs):
        raise TypeError("Take Stock states are made by new_game(game, seed) or from_state(state)")

    def __dealloc__(self):
        _buf_release(self.log_buf)
        _buf_release(self.hist_buf)

    # ------------------------------------------------------------ C-level API

    cdef int apply_unchecked(self, int action) except -1:
        """Apply ``action`` without checking it (for search): it must be legal now."""
        self.c.legal_ok = 0
        _hist_add(self, action)
        _apply(self, action)
        return 0

    cdef State copy(self):
        """An independent copy: the struct is copied, the buffers shared until written."""
        cdef State new = State.__new__(State)
        memcpy(&new.c, &self.c, sizeof(ts_core))
        new.game = self.game
        _EMPTY.refs -= 2
        new.log_buf = self.log_buf
        new.hist_buf = self.hist_buf
        self.log_buf.refs += 1
        self.hist_buf.refs += 1
        new.log_len = self.log_len
        new.hist_len = self.hist_len
        new.log_cache = self.log_cache
        new.cache_entries = self.cache_entries
        new.cache_offset = self.cache_offset
        new.stock_rows = self.stock_rows
        new.stock_rows_at = self.stock_rows_at
        return new

    cdef list _entries(self):
        """The log as the reference's entries (this state's own list, extended as needed)."""
        cdef list cache = self.log_cache
        cdef const int32_t *data = _bdata(self.log_buf)
        cdef Py_ssize_t at = self.cache_offset
        cdef int n = self.c.r.n
        if at == self.log_len and len(cache) == self.cache_entries:
            return cache
        if len(cache) != self.cache_entries:
            # A clone extended the shared list past this state's entries: take a copy.
            cache = cache[: self.cache_entries]
            self.log_cache = cache
        while at < self.log_len:
            cache.append(_decode(data + at, n))
            at += 1 + (data[at] >> 8)
        self.cache_offset = at
        self.cache_entries = len(cache)
        return cache

    cdef bint log_is(self, list entries) except -1:
        """Whether the log equals ``entries``, its records decoded and compared one at a time.

        Nothing is kept: comparing a long log makes no list of it for the collector to scan.
        """
        cdef const int32_t *data = _bdata(self.log_buf)
        cdef Py_ssize_t i, at = self.cache_offset, size = len(entries)
        if size < self.cache_entries:
            return False
        for i in range(self.cache_entries):
            if self.log_cache[i] != entries[i]:
                return False
        i = self.cache_entries
        while at < self.log_len:
            if i == size or _decode(data + at, self.c.r.n) != entries[i]:
                return False
            at += 1 + (data[at] >> 8)
            i += 1
        return i == size

    cdef object _illegal(self, object action):
        """The reference's error for ``action`` (a rare path: asks a reference copy why)."""
        return _refuse(self, action, _rules.explain_illegal(self.to_reference(), action))

    # ------------------------------------------------------------ the State API

    @property
    def current_player(self):
        """The seat that must decide now; ``None`` once the game is over."""
        return None if self.c.cur < 0 else self.c.cur

    @property
    def decision(self):
        """The name of the pending decision."""
        return _PHASE_NAMES[self.c.phase]

    def choice_is_secret(self):
        """Whether the answer to the pending decision is hidden from every other seat."""
        return self.c.phase == TS_PH_DOWNTURN or self.c.phase == TS_PH_EXERCISE

    def legal_actions(self):
        """The sorted action ids legal for the pending decision (a new list each call)."""
        cdef ts_core *c = &self.c
        cdef Py_ssize_t i
        cdef PyObject *item
        if not c.legal_ok:
            ts_compute_legal(c)
        out = PyList_New(c.legal_len)
        for i in range(c.legal_len):
            item = _ACT[c.legal[i]]
            Py_INCREF(item)
            PyList_SET_ITEM(out, i, item)
        return out

    def apply(self, action):
        """Apply a legal action; an illegal one raises ``IllegalActionError``, changing nothing."""
        cdef long a
        cdef int overflow = 0
        if type(action) is not int:
            action = _coerce(self, action)
        a = PyLong_AsLongAndOverflow(action, &overflow)
        if overflow or a < 0 or a >= TS_ACTIONS or not ts_is_legal(&self.c, <int>a):
            raise self._illegal(action)
        self.c.legal_ok = 0
        _hist_add(self, <int>a)
        _apply(self, <int>a)

    def is_terminal(self):
        """Whether the game is over."""
        return self.c.cur < 0

    visible_events = _BaseState.visible_events
    check_seat = _BaseState.check_seat
    to_dict = _BaseState.to_dict
    to_json = _BaseState.to_json
    action_to_string = _BaseState.action_to_string
    string_to_action = _BaseState.string_to_action
    apply_string = _BaseState.apply_string
    coerce_action = _BaseState.coerce_action
    refuse = _BaseState.refuse

    def __eq__(self, other):
        return _BaseState.__eq__(self, other)

    def scores(self):
        """Each seat's total over the rounds scored so far."""
        return _list32(self.c.totals, self.c.r.n)

    def winners(self):
        """The seats in first place under the ``final_tie`` option."""
        cdef int8_t top[TS_SEATS]
        return _list8(top, _winners(&self.c, top))

    def round_results(self):
        """Each scored round's points per seat, in round order."""
        return [_list32(self.c.round_scores[i], self.c.r.n) for i in range(self.c.scored)]

    def round_end_reasons(self):
        """Why each scored round ended (see ``ROUND_END_REASONS``)."""
        return [_REASONS[self.c.round_reasons[i]] for i in range(self.c.scored)]

    def prices(self):
        """The current price of each stock (top card times the split multiplier)."""
        return [_price(&self.c, s) for s in range(TS_STOCKS)]

    def clone(self):
        """An independent copy (the C struct copied; log and history shared until written)."""
        return self.copy()

    def view(self, player):
        """What ``player`` may see; ``None`` gives a spectator's view."""
        cdef ts_core *c = &self.c
        cdef int n = c.r.n
        cdef int seat, bit, public, s, q, k
        cdef bint mine
        if player is not None and (
            isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n
        ):
            raise ValueError(f"a view is for a seat from 0 to {n - 1}, or None for a spectator")
        mine = player is not None
        seat = player if mine else n
        bit = 1 << seat
        public = _public(c)
        stocks = self.stock_rows
        if stocks is None or self.stock_rows_at != c.market:
            # Frozen and made of immutable values, the rows are shared by views until the
            # market changes.
            stocks = PyTuple_New(TS_STOCKS)
            for s in range(TS_STOCKS):
                row = _make_frozen(_StockRow, {
                    "name": _STOCK_NAMES[s],
                    "cards": _tuple8(c.rows[s], c.row_len[s]),
                    "splits": c.splits[s],
                    "frozen": c.frozen[s] != 0,
                    "price": _price(c, s),
                })
                Py_INCREF(<PyObject *>row)
                PyTuple_SET_ITEM(stocks, s, <PyObject *>row)
            self.stock_rows = stocks
            self.stock_rows_at = c.market
        pools = PyTuple_New(c.npools)
        for k in range(c.npools):
            members = tuple([card for card in range(TS_CARDS) if c.pool_of[card] == k])
            Py_INCREF(<PyObject *>members)
            PyTuple_SET_ITEM(pools, k, <PyObject *>members)
        deciding = mine and c.cur == seat
        if deciding and not c.legal_ok:
            ts_compute_legal(c)
        return _make_frozen(_TakeStockView, {
            "game": "take_stock",
            "seat": player,
            "players": n,
            "round": c.round,
            "rounds": c.r.rounds,
            "dealer": c.dealer,
            "turn_player": c.turn,
            "current_player": None if c.cur < 0 else c.cur,
            "decision": _PHASE_NAMES[c.phase],
            "stocks": stocks,
            "limit": _limit(c),
            "scoring_prices": tuple([_scoring_price(c, s) for s in range(TS_STOCKS)]),
            "worth": tuple([_worth(c, q) for q in range(n)]),
            "hand": _tuple8(c.hands[seat], c.hand_len[seat]) if mine else (),
            "saved_events": _sorted_tuple8(c.saved[seat], c.saved_len[seat]) if mine else (),
            "hand_sizes": tuple([c.hand_len[q] + c.hidden_len[q] for q in range(n)]),
            "saved_counts": _tuple8(c.saved_len, n),
            "certificates": tuple([_tuple8(c.certs[q], c.cert_len[q]) for q in range(n)]),
            "tokens": tuple(_list32(c.tokens, n)),
            "option_supply": c.supply,
            "scores": tuple(_list32(c.totals, n)),
            "round_scores": tuple([tuple(_list32(c.round_scores[k], n)) for k in range(c.scored)]),
            "round_end_reasons": tuple([_REASONS[c.round_reasons[k]] for k in range(c.scored)]),
            "round_end_reason": (
                _REASONS[c.end_reason] if c.end_reason >= 0 and c.phase != TS_PH_OVER else None
            ),
            "draw_pile": c.draw_len,
            "discard_pile": _sorted_tuple8(c.discard, c.discard_len),
            "event_pile": c.ev_above_len,
            "event_below": c.ev_below_len,
            "event_below_known": _known_kinds(c.ev_below, c.ev_below_mask, c.ev_below_len, bit),
            "event_below_public": _known_kinds(
                c.ev_below, c.ev_below_mask, c.ev_below_len, public
            ),
            "event_discard": c.ev_discard_len,
            "event_discard_known": _known_kinds(
                c.ev_discard, c.ev_discard_mask, c.ev_discard_len, bit
            ),
            "event_discard_public": _known_kinds(
                c.ev_discard, c.ev_discard_mask, c.ev_discard_len, public
            ),
            "pools": pools,
            "hand_pools": tuple([
                tuple([_pool_count(c, q, k) for k in range(c.npools)]) for q in range(n)
            ]),
            "known_in_hands": tuple([_sorted_tuple8(c.known[q], c.known_len[q]) for q in range(n)]),
            "pending_discard_for": _FOLLOW_NAMES[c.follow],
            "pending_event": c.ev_active if c.ev_active >= 0 else None,
            "drawn_events": (
                _tuple8(c.pair, c.pair_len) if deciding and c.phase == TS_PH_CHOOSE else ()
            ),
            "event_stock": c.ev_stock if c.ev_stock >= 0 else None,
            "retrieved": _tuple8(c.retrieved, c.retrieved_len),
            "owed_discards": c.owed,
            "waiting": _tuple8(c.queue, c.queue_len),
            "own_hidden": _tuple8(c.hidden[seat], c.hidden_len[seat]) if mine else (),
            "hidden_counts": _tuple8(c.hidden_len, n),
            "legal_actions": (
                tuple([_ACTION_INTS[c.legal[k]] for k in range(c.legal_len)]) if deciding else ()
            ),
        })

    def check_invariants(self):
        """Raise ``AssertionError`` if cards, tokens or bookkeeping are inconsistent."""
        _invariants.check_invariants(self.to_reference())

    def to_position(self):
        """The canonical one-line position of this state (``docs/positions.md``)."""
        return self.to_reference().to_position()

    def to_reference(self):
        """The equal reference state (a :class:`TakeStockState`), sharing nothing with this one."""
        ref = TakeStockState.__new__(TakeStockState)
        ref.game = self.game
        ref.n = self.c.r.n
        ref.shares = self.game.shares
        ref.from_deal = self.from_deal
        for name in _S.SHAPES:
            setattr(ref, name, getattr(self, name))
        ref._legal = None
        return ref

    def __reduce__(self):
        fields = {name: getattr(self, name) for name in _S.SHAPES}
        fields["from_deal"] = self.from_deal
        fields["n"] = self.c.r.n
        return (_restore, (self.game, fields))


_BaseState.register(State)


# ---------------------------------------------------------------------- making states


cdef State ts_blank(object game, uint64_t seed):
    """A state of ``game`` with its rules read in and an empty position, to be filled in
    field by field (then checked by :func:`ts_seal`)."""
    cdef State st = State.__new__(State)
    cdef ts_rules *r = &st.c.r
    cdef int v
    opts = game.options
    st.game = game
    r.n = opts.players
    r.rounds = opts.rounds
    r.hand_size = _HAND_SIZES[r.n]
    r.first_dealer = -1 if opts.first_dealer is None else opts.first_dealer
    for v in range(13):
        r.shares[v] = game.shares[v]
    r.limit_freeze = opts.limit_counts_freeze
    r.frozen_zero = opts.frozen_scoring == "zero"
    r.shortage_nobody = opts.option_shortage == "nobody"
    r.take_first = opts.insider_order == "take_first"
    r.last_card = game.last_card_rule
    r.crash_one = opts.crash_counts_one
    r.keep_saved = opts.keep_saved_events
    r.tie_random = opts.dealer_tie == "random"
    r.final_tokens = opts.final_tie == "most_tokens"
    st.c.seed = seed
    st.c.cur = -1
    st.c.ev_active = -1
    st.c.ev_stock = -1
    st.c.end_reason = TS_R_NONE
    st.c.npools = 1
    for v in range(TS_STOCKS):
        st.c.rows[v][0] = 1
        st.c.row_len[v] = 1
    _EMPTY.refs -= 2
    st.log_buf = _buf_new(1024)
    st.hist_buf = _buf_new(512)
    return st


cdef int _count8(const int8_t *items, int length, int value) noexcept nogil:
    cdef int i, k = 0
    for i in range(length):
        if items[i] == value:
            k += 1
    return k


cdef inline void _tally(int *counts, const int8_t *items, int length) noexcept nogil:
    cdef int i
    for i in range(length):
        counts[items[i]] += 1


cdef void _count_share_cards(const ts_core *c, int *seen) noexcept nogil:
    """How many times each share card lies in a row, a hand, a certificate, a set-aside
    card, the draw or discard pile or the retrieved cards, into ``seen`` (60 counts)."""
    cdef int s, i, q
    memset(seen, 0, TS_CARDS * sizeof(int))
    for s in range(TS_STOCKS):
        for i in range(c.row_len[s]):
            seen[s * TS_VALUES + c.rows[s][i] - 1] += 1
    for q in range(c.r.n):
        _tally(seen, c.hands[q], c.hand_len[q])
        _tally(seen, c.certs[q], c.cert_len[q])
        _tally(seen, c.hidden[q], c.hidden_len[q])
    _tally(seen, c.draw, c.draw_len)
    _tally(seen, c.discard, c.discard_len)
    _tally(seen, c.retrieved, c.retrieved_len)


cdef void _count_event_cards(const ts_core *c, int *counts) noexcept nogil:
    """How many event cards of each kind the state holds, into ``counts`` (24). Market
    Closed, never in a list, counts unless it ended the round by being drawn: until then
    it lies unseen in the pile."""
    cdef int q, s
    memset(counts, 0, TS_KINDS * sizeof(int))
    _tally(counts, c.ev_above, c.ev_above_len)
    _tally(counts, c.ev_below, c.ev_below_len)
    _tally(counts, c.ev_discard, c.ev_discard_len)
    _tally(counts, c.pair, c.pair_len)
    for q in range(c.r.n):
        _tally(counts, c.saved[q], c.saved_len[q])
    for s in range(TS_STOCKS):
        counts[TS_K_SPLIT + s] += c.splits[s]
        if c.frozen[s]:
            counts[TS_K_FREEZE] += 1
    if c.ev_active >= 0:
        counts[c.ev_active] += 1
    if c.end_reason != TS_R_MARKET_CLOSED:
        counts[TS_K_MARKET_CLOSED] += 1


cdef inline int _need(bint ok, str message) except -1:
    if not ok:
        raise ValueError(f"not a consistent Take Stock state: {message}")
    return 0


cdef int ts_seal(State st) except -1:
    """Check a state filled in field by field: every index in range, every card once.

    Raises ``ValueError`` naming what is wrong. The rules keep these properties, so a state
    that passes can be played on safely (and the rules never write past an array).
    """
    cdef ts_core *c = &st.c
    cdef int n = c.r.n
    cdef int q, i, s, card, k
    _need(-1 <= c.cur < n and 0 <= c.turn < n and 0 <= c.dealer < n, "'cur', 'turn', 'dealer'")
    _need(TS_PH_ACTION <= c.phase <= TS_PH_OVER and (c.cur < 0) == (c.phase == TS_PH_OVER),
          "'phase' and 'cur'")
    _need(TS_F_NONE <= c.follow <= TS_F_PLAY, "'follow'")
    _need(-1 <= c.ev_active < TS_K_MARKET_CLOSED and -1 <= c.ev_stock < TS_STOCKS, "'ev_active', 'ev_stock'")
    _need(TS_R_NONE <= c.end_reason <= TS_R_NO_CARDS, "'end_reason'")
    _need(1 <= c.round <= c.r.rounds and 0 <= c.scored <= c.round, "'round' and 'round_scores'")
    _need(c.phase == TS_PH_OVER or c.scored < c.round, "'round_scores' of a round not over")
    for k in range(c.scored):
        _need(0 <= c.round_reasons[k] <= TS_R_NO_CARDS, "'round_reasons'")
    _need(c.npools >= 1, "'hand_pool'")
    for card in range(TS_CARDS):
        _need(-1 <= c.pool_of[card] < c.npools, "'pool_of'")
    _need(c.queue_len <= n, "'queue'")
    for i in range(c.queue_len):
        _need(0 <= c.queue[i] < n, "'queue'")
    for q in range(n):
        _need(0 <= c.tokens[q] <= _TOTAL_TOKENS, "'tokens'")
    _need(0 <= c.supply <= _TOTAL_TOKENS and 0 <= c.owed <= _MAX_RETRIEVE, "'supply', 'owed'")
    _need(c.reshuffles >= 0 and c.pair_len <= 2 and c.retrieved_len <= TS_RETRIEVED,
          "'reshuffles', 'pair', 'retrieved'")
    _need(c.phase not in (TS_PH_AUDIT_WHAT, TS_PH_RETRIEVE, TS_PH_INSIDER_DISCARD)
          or c.ev_stock >= 0, "'ev_stock'")
    for i in range(c.ev_below_len):
        _need(c.ev_below_mask[i] <= _public(c), "'ev_below_mask'")
    for i in range(c.ev_discard_len):
        _need(c.ev_discard_mask[i] <= _public(c), "'ev_discard_mask'")
    # Every share card once.
    for s in range(TS_STOCKS):
        _need(1 <= c.row_len[s] <= TS_VALUES and 0 <= c.splits[s] <= 3, "'rows', 'splits'")
        for i in range(c.row_len[s]):
            _need(1 <= c.rows[s][i] <= TS_VALUES, "'rows'")
    for q in range(n):
        for i in range(c.known_len[q]):
            # Known cards are held, once each (Insider Trading adds to the list).
            card = c.known[q][i]
            _need(0 <= card < TS_CARDS and c.pool_of[card] < 0, "'known'")
            _need(_count8(c.known[q], c.known_len[q], card) == 1, "'known'")
            _need(_count8(c.hands[q], c.hand_len[q], card)
                  + _count8(c.hidden[q], c.hidden_len[q], card) == 1, "'known'")
    _need(ts_share_cards_complete(c), "the share cards must be all 60, once each")
    _need(ts_event_cards_complete(c), "the event cards must be all 40, once each")
    c.legal_ok = 0
    return 0


cdef bint ts_share_cards_complete(const ts_core *c) noexcept nogil:
    """Whether every share card is somewhere once: in the rows, the hands, the certificates,
    the cards set aside, the piles or the cards retrieved (each a card id in range)."""
    cdef int seen[TS_CARDS]
    cdef int i
    _count_share_cards(c, seen)
    for i in range(TS_CARDS):
        if seen[i] != 1:
            return False
    return True


cdef bint ts_event_cards_complete(const ts_core *c) noexcept nogil:
    """Whether every event card is somewhere once (by kind: the deck's 40).

    Market Closed is in play, unseen, while the round runs; kinds must be in range.
    """
    cdef int counts[TS_KINDS]
    cdef int i
    _count_event_cards(c, counts)
    for i in range(TS_KINDS):
        if counts[i] != _EVENT_DECK[i]:
            return False
    return True


def new_game(game, seed):
    """Deal ``game`` from ``seed``: the same game as ``game.new_game(seed)``, in C."""
    cdef State st
    cdef ts_core *c
    cdef cb_random rng[3]
    cdef cb_random *all3[3]
    cdef const char *labels[3]
    cdef int q
    seed = check_seed(seed)
    _check_game(game)
    st = ts_blank(game, seed)
    c = &st.c
    c.from_deal = 1
    c.round = 0
    if c.r.first_dealer >= 0:
        _seed_round(c, rng, 1, True)
        c.dealer = c.r.first_dealer
    else:
        # The three generators of the deal, seeded together.
        for q in range(3):
            all3[q] = &rng[q]
        labels[0] = b"shares/1"
        labels[1] = b"events/1"
        labels[2] = b"first-dealer"
        cb_derive_many(all3, c.seed, labels, 3)
        c.dealer = cb_randbelow(&rng[2], c.r.n)
    c.turn = c.dealer
    c.phase = TS_PH_ACTION
    for q in range(c.r.n):
        c.tokens[q] = _START_TOKENS
    c.supply = _TOTAL_TOKENS - _START_TOKENS * c.r.n
    _start_round(st, c.dealer, rng)
    return st


cdef _check_game(object game):
    if getattr(getattr(game, "info", None), "name", None) != "take_stock":
        raise TypeError("the compiled Take Stock engine plays Take Stock games only")


def from_state(reference):
    """A native state equal to ``reference`` (a Take Stock reference state), log included."""
    if not isinstance(reference, TakeStockState):
        raise TypeError(f"from_state needs a Take Stock state, not {type(reference).__name__}")
    return _read(reference.game, lambda name: getattr(reference, name))


def _restore(game, fields):
    """Rebuild a pickled state."""
    return _read(game, fields.__getitem__)


cdef int _int(object value, str name, long low, long high) except? -1:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"cannot carry over the Take Stock field {name!r}: {value!r}")
    return value


cdef int _fill8(int8_t *out, object value, str name, long low, long high, int room) except -1:
    """Copy a list of ints into a C array; returns its length."""
    cdef int i
    if type(value) is not list or len(value) > room:
        raise ValueError(f"cannot carry over the Take Stock field {name!r}: {value!r}")
    for i in range(len(value)):
        out[i] = _int(value[i], name, low, high)
    return len(value)


cdef list _per_seat(object value, str name, int n):
    if type(value) is not list or len(value) != n:
        raise ValueError(f"cannot carry over the Take Stock field {name!r}: {value!r}")
    return value


_SCALARS = ("round", "dealer", "turn", "phase", "supply", "ev_active", "follow", "ev_stock",
            "owed", "reshuffles")


cdef State _read(object game, object get):
    """A native state with the fields ``get(name)`` gives (a reference state's, checked)."""
    cdef State st
    cdef ts_core *c
    cdef int n, q, k, s
    cdef int mask_max
    cdef int32_t *scalars[10]
    cdef int8_t *lists_at[4]
    cdef int8_t *lengths_at[4]
    _check_game(game)
    seed = get("seed")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise ValueError(f"cannot carry over the Take Stock field 'seed': {seed!r}")
    st = ts_blank(game, seed)
    c = &st.c
    n = c.r.n
    if get("n") != n or type(get("from_deal")) is not bool:
        raise ValueError("the state belongs to a game with another number of seats")
    c.from_deal = get("from_deal")
    cur = get("cur")
    c.cur = -1 if cur is None else _int(cur, "cur", 0, n - 1)
    # The ranges are checked by ts_seal, once the fields that bound them are read too.
    scalars[0] = &c.round
    scalars[1] = &c.dealer
    scalars[2] = &c.turn
    scalars[3] = &c.phase
    scalars[4] = &c.supply
    scalars[5] = &c.ev_active
    scalars[6] = &c.follow
    scalars[7] = &c.ev_stock
    scalars[8] = &c.owed
    scalars[9] = &c.reshuffles
    for k, name in enumerate(_SCALARS):
        scalars[k][0] = _int(get(name), name, -1, 1_000_000)
    reason = get("end_reason")
    if reason is not None and (type(reason) is not str or reason not in _REASON_CODES):
        raise ValueError(f"cannot carry over the Take Stock field 'end_reason': {reason!r}")
    c.end_reason = TS_R_NONE if reason is None else _REASON_CODES[reason]
    rows = get("rows")
    if type(rows) is not list or len(rows) != TS_STOCKS:
        raise ValueError(f"cannot carry over the Take Stock field 'rows': {rows!r}")
    for s in range(TS_STOCKS):
        c.row_len[s] = _fill8(c.rows[s], rows[s], "rows", 1, TS_VALUES, TS_VALUES)
    if _fill8(c.splits, get("splits"), "splits", 0, 3, TS_STOCKS) != TS_STOCKS:
        raise ValueError("cannot carry over the Take Stock field 'splits'")
    frozen = get("frozen")
    if type(frozen) is not list or len(frozen) != TS_STOCKS or any(
        type(f) is not bool for f in frozen
    ):
        raise ValueError(f"cannot carry over the Take Stock field 'frozen': {frozen!r}")
    for s in range(TS_STOCKS):
        c.frozen[s] = frozen[s]
    lists_at[0] = &c.hands[0][0]
    lists_at[1] = &c.certs[0][0]
    lists_at[2] = &c.known[0][0]
    lists_at[3] = &c.hidden[0][0]
    lengths_at[0] = c.hand_len
    lengths_at[1] = c.cert_len
    lengths_at[2] = c.known_len
    lengths_at[3] = c.hidden_len
    for k, name in enumerate(("hands", "certs", "known", "hidden")):
        lists = _per_seat(get(name), name, n)
        for q in range(n):
            lengths_at[k][q] = _fill8(
                lists_at[k] + q * TS_CARDS, lists[q], name, 0, TS_CARDS - 1, TS_CARDS
            )
    lists = _per_seat(get("saved"), "saved", n)
    for q in range(n):
        c.saved_len[q] = _fill8(
            c.saved[q], lists[q], "saved", 0, TS_K_MARKET_CLOSED - 1, TS_EVENT_CARDS
        )
    tokens = _per_seat(get("tokens"), "tokens", n)
    totals = _per_seat(get("totals"), "totals", n)
    for q in range(n):
        c.tokens[q] = _int(tokens[q], "tokens", 0, _TOTAL_TOKENS)
        c.totals[q] = _int(totals[q], "totals", 0, 1 << 30)
    c.draw_len = _fill8(c.draw, get("draw"), "draw", 0, TS_CARDS - 1, TS_CARDS)
    c.discard_len = _fill8(c.discard, get("discard"), "discard", 0, TS_CARDS - 1, TS_CARDS)
    c.ev_above_len = _fill8(
        c.ev_above, get("ev_above"), "ev_above", 0, TS_K_MARKET_CLOSED - 1, TS_EVENT_CARDS
    )
    mask_max = _public(c)
    for name in ("ev_below", "ev_discard"):
        kinds = get(name)
        masks = get(name + "_mask")
        if type(masks) is not list or type(kinds) is not list or len(masks) != len(kinds):
            raise ValueError(f"cannot carry over the Take Stock field {name + '_mask'!r}")
        if name == "ev_below":
            c.ev_below_len = _fill8(
                c.ev_below, kinds, name, 0, TS_K_MARKET_CLOSED - 1, TS_EVENT_CARDS
            )
            for k in range(c.ev_below_len):
                c.ev_below_mask[k] = _int(masks[k], name + "_mask", 0, mask_max)
        else:
            c.ev_discard_len = _fill8(
                c.ev_discard, kinds, name, 0, TS_K_MARKET_CLOSED, TS_EVENT_CARDS
            )
            for k in range(c.ev_discard_len):
                c.ev_discard_mask[k] = _int(masks[k], name + "_mask", 0, mask_max)
    c.pair_len = _fill8(c.pair, get("pair"), "pair", 0, TS_K_MARKET_CLOSED - 1, 2)
    c.retrieved_len = _fill8(
        c.retrieved, get("retrieved"), "retrieved", 0, TS_CARDS - 1, TS_RETRIEVED
    )
    c.queue_len = _fill8(c.queue, get("queue"), "queue", 0, n - 1, n)
    scores = get("round_scores")
    reasons = get("round_reasons")
    if (type(scores) is not list or type(reasons) is not list or len(scores) != len(reasons)
            or len(scores) > TS_ROUNDS):
        raise ValueError("cannot carry over the Take Stock fields 'round_scores', 'round_reasons'")
    c.scored = len(scores)
    for k in range(c.scored):
        points = _per_seat(scores[k], "round_scores", n)
        for q in range(n):
            c.round_scores[k][q] = _int(points[q], "round_scores", 0, 1 << 30)
        if type(reasons[k]) is not str or reasons[k] not in _REASON_CODES:
            raise ValueError(f"cannot carry over the Take Stock field 'round_reasons'")
        c.round_reasons[k] = _REASON_CODES[reasons[k]]
    hand_pool = _per_seat(get("hand_pool"), "hand_pool", n)
    if type(hand_pool[0]) is not list or not hand_pool[0]:
        raise ValueError("cannot carry over the Take Stock field 'hand_pool'")
    c.npools = len(hand_pool[0])
    pool_of = get("pool_of")
    if type(pool_of) is not list or len(pool_of) != TS_CARDS:
        raise ValueError("cannot carry over the Take Stock field 'pool_of'")
    for k in range(TS_CARDS):
        c.pool_of[k] = _int(pool_of[k], "pool_of", -1, c.npools - 1)
    ts_seal(st)
    if hand_pool != st.hand_pool:
        # The engine derives hand_pool from pool_of, as the reference's invariant says.
        raise ValueError("not a consistent Take Stock state: 'hand_pool' must count 'pool_of'")
    history = get("history")
    if type(history) is not list:
        raise ValueError("cannot carry over the Take Stock field 'history'")
    for action in history:
        _hist_add(st, _int(action, "history", 0, TS_ACTIONS - 1))
    log = get("log")
    if type(log) is not list:
        raise ValueError("cannot carry over the Take Stock field 'log'")
    st.log_cache = list(log)
    st.cache_entries = len(log)
    return st


# ---------------------------------------------------------------------- sampling worlds
# A search deals thousands of possible worlds from one view. sample_state deals them in C,
# drawing from the search's own random.Random exactly the numbers the reference sampler
# (closingbell.games.take_stock.views.sample_state) draws, in the same order. It reads the
# view strictly (exact types, every number in its range) and checks the dealt state as the
# reference's check_invariants does; a view it cannot read so, or one the reference would
# refuse, goes to the reference itself, which decides and says why.

cdef enum:
    _MAX_POOLS = 64  # pools of hidden share cards a view may name (one per reshuffle)

cdef dict _PHASE_CODES = {name: i for i, name in enumerate(_S.PHASE_NAMES)}
cdef dict _FOLLOW_CODES = {name: code for code, name in FOLLOW_NAMES.items()}
cdef int _MAX_ROUND_POINTS = _C.MAX_ROUND_POINTS
cdef object _Random = random.Random
cdef object _TakeStock = TakeStock
cdef bint _IN_PLACE = in_place_agrees()


cdef bint _as_int(object x, long low, long high, long *out):
    """Whether ``x`` is an ``int`` (not a bool) from ``low`` to ``high``; its value in ``out``."""
    cdef int overflow = 0
    cdef long v
    if type(x) is not int:
        return False
    v = PyLong_AsLongAndOverflow(x, &overflow)
    if overflow or v < low or v > high:
        return False
    out[0] = v
    return True


cdef bint _as_int_or_none(object x, long low, long high, long *out):
    """``_as_int``, with ``None`` read as -1."""
    if x is None:
        out[0] = -1
        return True
    return _as_int(x, low, high, out)


cdef int _read8(object items, int8_t *out, int room, long low, long high):
    """Copy a tuple of ints from ``low`` to ``high`` into ``out``; its length, or -1 if
    ``items`` is anything else or longer than ``room``."""
    cdef tuple t
    cdef Py_ssize_t i, size
    cdef long v
    if type(items) is not tuple:
        return -1
    t = <tuple>items
    size = len(t)
    if size > room:
        return -1
    for i in range(size):
        if not _as_int(t[i], low, high, &v):
            return -1
        out[i] = <int8_t>v
    return <int>size


cdef bint _read_seats(object items, int32_t *out, int n, long low, long high):
    """Copy a tuple of ``n`` ints from ``low`` to ``high`` into ``out``."""
    cdef tuple t
    cdef Py_ssize_t i
    cdef long v
    if type(items) is not tuple or len(<tuple>items) != n:
        return False
    t = <tuple>items
    for i in range(n):
        if not _as_int(t[i], low, high, &v):
            return False
        out[i] = <int32_t>v
    return True


cdef bint _read_seat_cards(object items, int8_t *lists, int8_t *lengths, int n):
    """Copy a tuple of ``n`` tuples of share cards into the per-seat lists at ``lists``
    (``TS_CARDS`` apart) and their ``lengths``."""
    cdef Py_ssize_t q
    cdef int size
    if type(items) is not tuple or len(<tuple>items) != n:
        return False
    for q in range(n):
        size = _read8((<tuple>items)[q], lists + q * TS_CARDS, TS_CARDS, 0, TS_CARDS - 1)
        if size < 0:
            return False
        lengths[q] = <int8_t>size
    return True


cdef inline bint _take_kinds(int *remaining, const int8_t *kinds, int count) noexcept nogil:
    """Count ``kinds`` as seen; False if more of a kind are seen than the deck holds."""
    cdef int i
    for i in range(count):
        remaining[kinds[i]] -= 1
        if remaining[kinds[i]] < 0:
            return False
    return True


cdef bint _with_masks(int8_t *kinds, uint8_t *masks, int8_t *length, const int8_t *known,
                      int known_len, const int8_t *public, int public_len,
                      const int8_t *unknown, int unknown_len, int bit, int everyone) noexcept nogil:
    """The reference's ``_with_masks``: face-down cards, the public ones known to all, the rest
    of the known ones to the seat only, then the unknown ones; False if a public card is
    missing from the known ones."""
    cdef int8_t rest[TS_EVENT_CARDS]
    cdef int i, j, k = 0, rest_len = known_len
    memcpy(rest, known, known_len)
    for i in range(public_len):
        j = 0
        while j < rest_len and rest[j] != public[i]:
            j += 1
        if j == rest_len:
            return False
        memmove(rest + j, rest + j + 1, rest_len - j - 1)
        rest_len -= 1
    for i in range(public_len):
        kinds[k] = public[i]
        masks[k] = everyone
        k += 1
    for i in range(rest_len):
        kinds[k] = rest[i]
        masks[k] = bit
        k += 1
    for i in range(unknown_len):
        kinds[k] = unknown[i]
        masks[k] = 0
        k += 1
    length[0] = k
    return True


cdef State _deal_from_view(object game, object view, cb_random *rng):
    """The reference's ``sample_state(game, view, rng)`` as a compiled state, drawing from
    ``rng``; ``None`` for a view this code does not read (the caller asks the reference).

    The draws follow the reference's: the seed, a shuffle of each pool's unseen cards, a
    shuffle of each opponent's cards where some are set aside, one of the unseen events.
    """
    cdef State st
    cdef ts_core *c
    cdef int n, seat, bit, everyone, q, k, s, i, at, take, count, npools, m, total
    cdef long x
    cdef int8_t own_cards[TS_CARDS]
    cdef int8_t own_hidden[TS_CARDS]
    cdef int own_len, own_hidden_len
    cdef bint own[TS_CARDS]
    cdef int8_t cands[TS_CARDS]
    cdef int8_t members[TS_CARDS]
    cdef int8_t holding[TS_SEATS][2 * TS_CARDS]
    cdef int hold_len[TS_SEATS]
    cdef int16_t hp[TS_SEATS * _MAX_POOLS]
    cdef int32_t hand_sizes[TS_SEATS]
    cdef int32_t hidden_counts[TS_SEATS]
    cdef int32_t saved_counts[TS_SEATS]
    cdef int remaining[TS_KINDS]
    cdef int8_t unseen[TS_EVENT_CARDS]
    cdef int8_t below_known[TS_EVENT_CARDS]
    cdef int8_t below_public[TS_EVENT_CARDS]
    cdef int8_t discard_known[TS_EVENT_CARDS]
    cdef int8_t discard_public[TS_EVENT_CARDS]
    cdef int8_t own_saved[TS_EVENT_CARDS]
    cdef int8_t drawn[TS_EVENT_CARDS]
    cdef int below_known_len, below_public_len, discard_known_len, discard_public_len
    cdef int own_saved_len, drawn_len, draw_pile, event_pile, event_below, event_discard
    cdef bint closed_seen
    cdef tuple rows, lists, pool_counts
    name = view.game
    if type(name) is not str or name != "take_stock":
        return None
    st = ts_blank(game, cb_getrandbits64(rng, 63))
    c = &st.c
    n = c.r.n
    if not _as_int(view.players, n, n, &x):
        return None
    if not _as_int_or_none(view.seat, 0, n - 1, &x):
        return None
    seat = <int>x
    bit = 1 << (n if seat < 0 else seat)
    everyone = (1 << (n + 1)) - 1
    # ------------------------------------------------ what everyone sees
    if not _as_int(view.round, 1, c.r.rounds, &x):
        return None
    c.round = <int32_t>x
    if not _as_int(view.dealer, 0, n - 1, &x):
        return None
    c.dealer = <int32_t>x
    if not _as_int(view.turn_player, 0, n - 1, &x):
        return None
    c.turn = <int32_t>x
    if not _as_int_or_none(view.current_player, 0, n - 1, &x):
        return None
    c.cur = <int32_t>x
    decision = view.decision
    if type(decision) is not str or decision not in _PHASE_CODES:
        return None
    c.phase = _PHASE_CODES[decision]
    stocks = view.stocks
    if type(stocks) is not tuple or len(<tuple>stocks) != TS_STOCKS:
        return None
    rows = <tuple>stocks
    for s in range(TS_STOCKS):
        row = rows[s]
        if type(row) is not _StockRow:
            return None
        c.row_len[s] = _read8(row.cards, c.rows[s], TS_VALUES, 1, TS_VALUES)
        if c.row_len[s] < 1 or not _as_int(row.splits, 0, 3, &x):
            return None
        c.splits[s] = <int8_t>x
        frozen = row.frozen
        if type(frozen) is not bool:
            return None
        c.frozen[s] = frozen is True
    if not _read_seat_cards(view.certificates, &c.certs[0][0], c.cert_len, n):
        return None
    if not _read_seats(view.tokens, c.tokens, n, 0, _TOTAL_TOKENS):
        return None
    if not _as_int(view.option_supply, 0, _TOTAL_TOKENS, &x):
        return None
    c.supply = <int32_t>x
    c.discard_len = _read8(view.discard_pile, c.discard, TS_CARDS, 0, TS_CARDS - 1)
    if c.discard_len < 0 or not _read_seats(view.scores, c.totals, n, 0, 1 << 30):
        return None
    lists = view.round_scores if type(view.round_scores) is tuple else None
    if lists is None or len(lists) > TS_ROUNDS:
        return None
    c.scored = len(lists)
    for k in range(c.scored):
        if not _read_seats(lists[k], c.round_scores[k], n, 0, _MAX_ROUND_POINTS):
            return None
    lists = view.round_end_reasons if type(view.round_end_reasons) is tuple else None
    if lists is None or len(lists) != c.scored:
        return None
    for k in range(c.scored):
        reason = lists[k]
        if type(reason) is not str or reason not in _REASON_CODES:
            return None
        c.round_reasons[k] = _REASON_CODES[reason]
    reason = view.round_end_reason
    if reason is None:
        c.end_reason = TS_R_NONE
    elif type(reason) is str and reason in _REASON_CODES:
        c.end_reason = _REASON_CODES[reason]
    else:
        return None
    if c.phase == TS_PH_OVER and c.scored:
        c.end_reason = c.round_reasons[c.scored - 1]
    follow = view.pending_discard_for
    if not (follow is None or type(follow) is str) or follow not in _FOLLOW_CODES:
        return None
    c.follow = _FOLLOW_CODES[follow]
    if not _as_int_or_none(view.pending_event, 0, TS_K_MARKET_CLOSED - 1, &x):
        return None
    c.ev_active = <int32_t>x
    if not _as_int_or_none(view.event_stock, 0, TS_STOCKS - 1, &x):
        return None
    c.ev_stock = <int32_t>x
    c.retrieved_len = _read8(view.retrieved, c.retrieved, TS_RETRIEVED, 0, TS_CARDS - 1)
    if c.retrieved_len < 0 or not _as_int(view.owed_discards, 0, _MAX_RETRIEVE, &x):
        return None
    c.owed = <int32_t>x
    c.queue_len = _read8(view.waiting, c.queue, n, 0, n - 1)
    if c.queue_len < 0:
        return None
    c.reshuffles = 0
    # ------------------------------------------------ share cards
    own_len = _read8(view.hand, own_cards, TS_CARDS, 0, TS_CARDS - 1)
    own_hidden_len = _read8(view.own_hidden, own_hidden, TS_CARDS, 0, TS_CARDS - 1)
    if own_len < 0 or own_hidden_len < 0:
        return None
    memset(own, 0, sizeof(own))
    for i in range(own_len):
        own[own_cards[i]] = True
    for i in range(own_hidden_len):
        own[own_hidden[i]] = True
    if not (_read_seats(view.hand_sizes, hand_sizes, n, 0, TS_CARDS)
            and _read_seats(view.hidden_counts, hidden_counts, n, 0, TS_CARDS)
            and _read_seats(view.saved_counts, saved_counts, n, 0, TS_EVENT_CARDS)
            and _as_int(view.draw_pile, 0, TS_CARDS, &x)):
        return None
    draw_pile = <int>x
    pools = view.pools
    if type(pools) is not tuple or not 1 <= len(<tuple>pools) <= _MAX_POOLS:
        return None
    npools = len(<tuple>pools)
    c.npools = npools
    pool_counts = view.hand_pools if type(view.hand_pools) is tuple else None
    if pool_counts is None or len(pool_counts) != n:
        return None
    for q in range(n):
        counts = pool_counts[q]
        if type(counts) is not tuple or len(<tuple>counts) != npools:
            return None
        for k in range(npools):
            if not _as_int((<tuple>counts)[k], 0, TS_CARDS, &x):
                return None
            hp[q * _MAX_POOLS + k] = <int16_t>x
    if not _read_seat_cards(view.known_in_hands, &c.known[0][0], c.known_len, n):
        return None
    for q in range(n):
        memcpy(holding[q], c.known[q], c.known_len[q])
        hold_len[q] = c.known_len[q]
    for i in range(TS_CARDS):
        c.pool_of[i] = -1
    for k in range(npools):
        # A card named twice (in one pool or two) is left to the reference.
        m = _read8((<tuple>pools)[k], members, TS_CARDS, 0, TS_CARDS - 1)
        if m < 0:
            return None
        for i in range(m):
            if c.pool_of[members[i]] >= 0:
                return None
            c.pool_of[members[i]] = k
    c.draw_len = 0
    for k in range(npools):
        m = _read8((<tuple>pools)[k], members, TS_CARDS, 0, TS_CARDS - 1)
        total = 0
        for i in range(m):
            if not own[members[i]]:
                cands[total] = members[i]
                total += 1
        cb_shuffle_schar(rng, <signed char *>cands, total)
        at = 0
        for q in range(n):
            if q == seat:
                continue
            take = hp[q * _MAX_POOLS + k]
            if at + take > total or hold_len[q] + take > 2 * TS_CARDS:
                return None
            memcpy(holding[q] + hold_len[q], cands + at, take)
            hold_len[q] += take
            at += take
        if k == npools - 1:
            if at + draw_pile > total:
                return None
            memcpy(c.draw, cands + at, draw_pile)
            c.draw_len = draw_pile
            at += draw_pile
        if at != total:
            return None
    for q in range(n):
        if q == seat:
            if own_hidden_len != hidden_counts[q]:
                return None
            memcpy(c.hands[q], own_cards, own_len)
            c.hand_len[q] = own_len
            memcpy(c.hidden[q], own_hidden, own_hidden_len)
            c.hidden_len[q] = own_hidden_len
            continue
        if hold_len[q] != hand_sizes[q]:
            return None
        count = hidden_counts[q]
        if count:
            cb_shuffle_schar(rng, <signed char *>holding[q], hold_len[q])
            if count > hold_len[q]:
                return None
        memcpy(c.hidden[q], holding[q], count)
        c.hidden_len[q] = count
        memcpy(c.hands[q], holding[q] + count, hold_len[q] - count)
        c.hand_len[q] = hold_len[q] - count
        _sort8(c.hands[q], c.hand_len[q])
    # ------------------------------------------------ event cards
    for k in range(TS_KINDS):
        remaining[k] = _EVENT_DECK[k]
    for s in range(TS_STOCKS):
        remaining[TS_K_SPLIT + s] -= c.splits[s]
        if c.frozen[s]:
            remaining[TS_K_FREEZE] -= 1
    if c.ev_active >= 0:
        remaining[c.ev_active] -= 1
    below_known_len = _read8(view.event_below_known, below_known, TS_EVENT_CARDS, 0, TS_KINDS - 1)
    below_public_len = _read8(
        view.event_below_public, below_public, TS_EVENT_CARDS, 0, TS_KINDS - 1
    )
    discard_known_len = _read8(
        view.event_discard_known, discard_known, TS_EVENT_CARDS, 0, TS_KINDS - 1
    )
    discard_public_len = _read8(
        view.event_discard_public, discard_public, TS_EVENT_CARDS, 0, TS_KINDS - 1
    )
    drawn_len = _read8(view.drawn_events, drawn, 2, 0, TS_KINDS - 1)
    own_saved_len = 0
    if seat >= 0:
        own_saved_len = _read8(view.saved_events, own_saved, TS_EVENT_CARDS, 0, TS_KINDS - 1)
    if min(below_known_len, below_public_len, discard_known_len, discard_public_len,
           drawn_len, own_saved_len) < 0:
        return None
    closed_seen = False
    for i in range(discard_known_len):
        if discard_known[i] == TS_K_MARKET_CLOSED:
            closed_seen = True
    if not closed_seen:
        remaining[TS_K_MARKET_CLOSED] -= 1
    for k in range(TS_KINDS):
        if remaining[k] < 0:
            return None
    if not (_take_kinds(remaining, below_known, below_known_len)
            and _take_kinds(remaining, discard_known, discard_known_len)
            and _take_kinds(remaining, own_saved, own_saved_len)
            and _take_kinds(remaining, drawn, drawn_len)):
        return None
    total = 0
    for k in range(TS_KINDS):
        for i in range(remaining[k]):
            unseen[total] = k
            total += 1
    cb_shuffle_schar(rng, <signed char *>unseen, total)
    if not (_as_int(view.event_pile, 0, TS_EVENT_CARDS, &x)):
        return None
    event_pile = <int>x
    if not (_as_int(view.event_below, 0, TS_EVENT_CARDS, &x)):
        return None
    event_below = <int>x - below_known_len
    if not (_as_int(view.event_discard, 0, TS_EVENT_CARDS, &x)):
        return None
    event_discard = <int>x - discard_known_len
    # The unseen events, dealt in the reference's order.
    if event_pile > total:
        return None
    memcpy(c.ev_above, unseen, event_pile)
    c.ev_above_len = event_pile
    at = event_pile
    if event_below < 0 or at + event_below > total or not _with_masks(
        c.ev_below, c.ev_below_mask, &c.ev_below_len, below_known, below_known_len,
        below_public, below_public_len, unseen + at, event_below, bit, everyone
    ):
        return None
    at += event_below
    if event_discard < 0 or at + event_discard > total or not _with_masks(
        c.ev_discard, c.ev_discard_mask, &c.ev_discard_len, discard_known, discard_known_len,
        discard_public, discard_public_len, unseen + at, event_discard, bit, everyone
    ):
        return None
    at += event_discard
    for q in range(n):
        if q == seat:
            memcpy(c.saved[q], own_saved, own_saved_len)
            c.saved_len[q] = own_saved_len
            continue
        if at + saved_counts[q] > total:
            return None
        memcpy(c.saved[q], unseen + at, saved_counts[q])
        c.saved_len[q] = saved_counts[q]
        at += saved_counts[q]
    c.pair_len = 0
    if c.phase == TS_PH_CHOOSE:
        if c.cur == seat:
            memcpy(c.pair, drawn, drawn_len)
            c.pair_len = drawn_len
        else:
            if at + 2 > total:
                return None
            memcpy(c.pair, unseen + at, 2)
            c.pair_len = 2
            at += 2
    if at != total or not _sampled_holds(c, hp):
        return None
    try:
        ts_seal(st)
    except ValueError:
        return None
    return st


# The reference's check_invariants (closingbell.games.take_stock.invariants), check for check, on
# a state dealt from a view: reading the view has already held every number to the range
# _check_fields gives it and every per-seat list to one entry per seat; ``hp`` is the view's
# hand_pool, _MAX_POOLS entries a seat.

cdef bint _fields_hold(ts_core *c) noexcept nogil:
    cdef int i, j, q
    if c.ev_below_len < _BELOW_CLOSED:
        return False
    for i in range(c.ev_above_len):
        if c.ev_above[i] >= TS_K_MARKET_CLOSED:
            return False
    for i in range(c.ev_below_len):
        if c.ev_below[i] >= TS_K_MARKET_CLOSED:
            return False
    for i in range(c.pair_len):
        if c.pair[i] >= TS_K_MARKET_CLOSED:
            return False
    for q in range(c.r.n):
        for i in range(c.saved_len[q]):
            if c.saved[q][i] >= TS_K_MARKET_CLOSED:
                return False
    for i in range(c.queue_len):
        for j in range(i):
            if c.queue[i] == c.queue[j]:
                return False
    return True


cdef bint _decision_holds(ts_core *c) noexcept nogil:
    cdef int phase = c.phase
    cdef int s, i, high
    if (c.cur < 0) != (phase == TS_PH_OVER):
        return False
    if (c.follow != TS_F_NONE) != (phase == TS_PH_DISCARD):
        return False
    if (c.pair_len == 2) != (phase == TS_PH_CHOOSE) or not (c.pair_len == 0 or c.pair_len == 2):
        return False
    if phase == TS_PH_FREEZE:
        if c.ev_active != TS_K_FREEZE:
            return False
    elif phase == TS_PH_DISCARD and c.follow == TS_F_PLAY:
        if c.ev_active < 0:
            return False
    elif c.ev_active != -1:
        return False
    if phase == TS_PH_AUDIT_WHAT or phase == TS_PH_RETRIEVE or phase == TS_PH_INSIDER_DISCARD:
        if c.ev_stock < 0:
            return False
        if phase == TS_PH_AUDIT_WHAT and not (
            c.row_len[c.ev_stock] > 1 and c.splits[c.ev_stock] > 0
        ):
            return False
    elif c.ev_stock != -1:
        return False
    if (c.owed > 0) != (phase == TS_PH_INSIDER_DISCARD):
        return False
    if c.retrieved_len and not (phase == TS_PH_RETRIEVE or phase == TS_PH_INSIDER_DISCARD):
        return False
    for i in range(c.retrieved_len):
        if c.retrieved[i] // TS_VALUES != c.ev_stock:
            return False
    if phase == TS_PH_RETRIEVE and c.retrieved_len >= _MAX_RETRIEVE:
        return False
    if phase == TS_PH_DOWNTURN or phase == TS_PH_EXERCISE:
        if not (c.queue_len and c.cur == c.queue[0]):
            return False
    else:
        if c.queue_len:
            return False
        for i in range(c.r.n):
            if c.hidden_len[i]:
                return False
    if (phase == TS_PH_EXERCISE) != (c.end_reason != TS_R_NONE and phase != TS_PH_OVER):
        return False
    if phase != TS_PH_DOWNTURN and phase != TS_PH_EXERCISE and phase != TS_PH_OVER:
        if c.cur != c.turn:
            return False
    if phase < TS_PH_EXERCISE:
        for s in range(TS_STOCKS):
            for i in range(c.row_len[s]):
                if c.rows[s][i] >= TS_CLOSING_VALUE:
                    return False
        if c.r.last_card and not c.draw_len:
            return False
    else:
        high = 0
        for s in range(TS_STOCKS):
            if c.rows[s][c.row_len[s] - 1] >= TS_CLOSING_VALUE:
                high += 1
            for i in range(c.row_len[s] - 1):
                if c.rows[s][i] >= TS_CLOSING_VALUE:
                    return False
        if high != (1 if c.end_reason == TS_R_HIGH_CARD else 0):
            return False
    return True


cdef inline bint _queued(ts_core *c, int q) noexcept nogil:
    cdef int i
    for i in range(c.queue_len):
        if c.queue[i] == q:
            return True
    return False


cdef bint _hands_hold(ts_core *c) noexcept nogil:
    cdef int n = c.r.n
    cdef int phase = c.phase
    cdef int q, i, place, last
    cdef bint waits
    for q in range(n):
        for i in range(1, c.hand_len[q]):
            if c.hands[q][i] < c.hands[q][i - 1]:
                return False
    if phase == TS_PH_OVER:
        for q in range(n):
            if c.hand_len[q]:
                return False
        return True
    if phase == TS_PH_DOWNTURN:
        for i in range(c.queue_len):
            if c.queue[i] != (c.turn + n - c.queue_len + i) % n:
                return False
        for q in range(n):
            waits = _queued(c, q)
            if c.hidden_len[q] != (0 if waits else 1) or (waits and not c.hand_len[q]):
                return False
        return True
    if phase == TS_PH_EXERCISE:
        last = -1
        for i in range(c.queue_len):
            place = (c.queue[i] - c.turn + n) % n
            if place <= last:
                return False
            last = place
        for q in range(n):
            if c.hidden_len[q] > c.tokens[q]:
                return False
        for i in range(1, c.queue_len):
            if c.hidden_len[c.queue[i]]:
                return False
        for i in range(c.queue_len):
            q = c.queue[i]
            if not (c.hand_len[q] and c.tokens[q] > c.hidden_len[q]):
                return False
        return True
    for q in range(n):
        if not c.hand_len[q]:
            return False
    if phase == TS_PH_ACTION and c.hand_len[c.cur] < 2:
        return False
    if phase == TS_PH_INSIDER_DISCARD:
        if c.hand_len[c.cur] < c.owed:
            return False
        if not c.r.take_first and c.owed > c.retrieved_len:
            return False
        if c.r.take_first and c.retrieved_len:
            return False
    return True


cdef bint _share_cards_hold(ts_core *c) noexcept nogil:
    cdef int s, i
    for s in range(TS_STOCKS):
        if c.rows[s][0] != 1:
            return False
        for i in range(1, c.row_len[s]):
            if c.rows[s][i] <= c.rows[s][i - 1]:
                return False
    return ts_share_cards_complete(c)


cdef bint _knowledge_holds(ts_core *c, const int16_t *hp) noexcept nogil:
    cdef int counts[_MAX_POOLS]
    cdef int q, i, k, card
    cdef int npools = c.npools
    cdef int8_t *known
    for q in range(c.r.n):
        known = c.known[q]
        for i in range(c.known_len[q]):
            if _count8(known, c.known_len[q], known[i]) != 1:
                return False
            if (_count8(c.hands[q], c.hand_len[q], known[i])
                    + _count8(c.hidden[q], c.hidden_len[q], known[i])) == 0:
                return False
        memset(counts, 0, sizeof(counts))
        for i in range(c.hand_len[q] + c.hidden_len[q]):
            card = c.hands[q][i] if i < c.hand_len[q] else c.hidden[q][i - c.hand_len[q]]
            k = c.pool_of[card]
            if (k >= 0) == (_count8(known, c.known_len[q], card) > 0):
                return False
            if k >= 0:
                counts[k] += 1
        for k in range(npools):
            if counts[k] != hp[q * _MAX_POOLS + k]:
                return False
    return ts_pools_outside_hands_hold(c, npools - 1)


cdef bint ts_pools_outside_hands_hold(const ts_core *c, int draw_pool) noexcept nogil:
    """The cards outside the hands are where the pools say: the draw pile's in ``draw_pool``,
    those face up (the market's rows, discards, retrieved cards, certificates) in none."""
    cdef int q, i, s
    for i in range(c.draw_len):
        if c.pool_of[c.draw[i]] != draw_pool:
            return False
    for s in range(TS_STOCKS):
        for i in range(c.row_len[s]):
            if c.pool_of[s * TS_VALUES + c.rows[s][i] - 1] != -1:
                return False
    for i in range(c.discard_len):
        if c.pool_of[c.discard[i]] != -1:
            return False
    for i in range(c.retrieved_len):
        if c.pool_of[c.retrieved[i]] != -1:
            return False
    for q in range(c.r.n):
        for i in range(c.cert_len[q]):
            if c.pool_of[c.certs[q][i]] != -1:
                return False
    return True


cdef bint _scores_hold(ts_core *c) noexcept nogil:
    cdef int q, k, tokens = c.supply
    cdef long sums
    for q in range(c.r.n):
        tokens += c.tokens[q]
    if tokens != _TOTAL_TOKENS:
        return False
    if c.phase == TS_PH_OVER:
        if not (c.round == c.scored == c.r.rounds):
            return False
        if c.end_reason != c.round_reasons[c.scored - 1]:
            return False
    elif c.scored != c.round - 1:
        return False
    for q in range(c.r.n):
        sums = 0
        for k in range(c.scored):
            sums += c.round_scores[k][q]
        if sums != c.totals[q]:
            return False
    return True


cdef bint _sampled_holds(ts_core *c, const int16_t *hp) noexcept nogil:
    """Whether the reference's ``check_invariants`` passes on the state ``c`` dealt from a view."""
    return (_fields_hold(c) and _decision_holds(c) and _hands_hold(c)
            and _share_cards_hold(c) and ts_event_cards_complete(c) and _knowledge_holds(c, hp)
            and _scores_hold(c))


def sample_state(game, view, rng):
    """A world dealt from ``view`` with ``rng``, as a compiled state.

    It equals ``from_state(game.sample_state(view, rng))`` in every field, ``rng`` draws the
    same numbers (its state afterwards is the same), and what the reference refuses is
    refused with the same error. The world is dealt in C, drawing from the generator's
    state in place, when ``rng`` is a plain ``random.Random``, ``game`` a ``TakeStock`` and
    ``view`` a view that a Take Stock state gives; anything else is dealt by the reference.
    """
    cdef cb_random r
    cdef State st
    if (_IN_PLACE and type(rng) is _Random and type(game) is _TakeStock
            and type(view) is _TakeStockView):
        cb_random_load(rng, &r)
        st = _deal_from_view(game, view, &r)
        if st is not None:
            cb_random_store(rng, &r)
            return st
    return from_state(game.sample_state(view, rng, engine="reference"))
