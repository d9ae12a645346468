# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Card Stock Market's states read from JSON and written to it in C, as the reference does.

The same design as ``_take_stock_serial`` (read its docstring): :class:`Codec` reads the
JSON text in one pass into the compiled engine's C layout (``csm_fields``), checks every
field's shape and range, the log with the game's own checks and every invariant of
``rules.check_invariants`` over the C arrays, builds the reference state, and compares a
state dealt from its seed with its replay inside the compiled engine; whatever fails, or
is written in a way it does not take, is handed back to the Python code, which decides
and words the refusal. :func:`replay` is the whole-history replay for
:mod:`closingbell.core.replay`.
"""

from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memchr, memset

from closingbell.native._card_stock_market cimport (
    CSM_CERT_CAP,
    CSM_COPIES,
    CSM_DECK_CAP,
    CSM_EVENTS_CAP,
    CSM_HAND,
    CSM_JOKER,
    CSM_KINDS,
    CSM_MAX_CHANGES,
    CSM_MAX_DISCARDS,
    CSM_MAX_PRICE,
    CSM_MAX_SEATS,
    CSM_MAX_SHARES,
    CSM_MAX_TRADES,
    CSM_NUM_ACTIONS,
    CSM_PH_DISCARD,
    CSM_PH_MARKET,
    CSM_PH_OVER,
    CSM_PH_START,
    CSM_PH_TRADE,
    CSM_PILE_CAP,
    CSM_RANKS,
    CSM_SUITS,
    State,
    csm_fields,
)
from closingbell.native._serial cimport (
    GameCodec,
    LogReader,
    cb_lists,
    cb_read_head,
    cb_replay,
    cb_begin,
    cb_bool,
    cb_bools8,
    cb_field,
    cb_ids,
    cb_ids_list,
    cb_index_names,
    cb_int,
    cb_int_in,
    cb_ints8,
    cb_ints,
    cb_list8,
    cb_list,
    cb_lists8,
    cb_literal,
    cb_log_facts,
    cb_more,
    cb_null,
    cb_same_chars,
    cb_skip,
    cb_str,
    cb_take,
    cb_text,
)

from closingbell.core.checks import MAX_INT
from closingbell.games.card_stock_market import cards as _C
from closingbell.games.card_stock_market import state as _S
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState
from closingbell.native import _card_stock_market

cdef extern from "Python.h":
    object PyList_New(Py_ssize_t size)
    void PyList_SET_ITEM(object lst, Py_ssize_t i, PyObject *o)
    long PyLong_AsLongAndOverflow(object value, int *overflow) except? -1
    void Py_INCREF(PyObject *o)


# ---------------------------------------------------------------------- the keys

# K_NAME, K_COUNT and _KEYS: generated at build time (setup.py) from the state's SHAPES
# and the header's keys. The decision kinds (CSM_PH_*) and the cards' numbers are the
# engine's, generated from the data modules.
include "_card_stock_market_keys.pxi"

cdef bytes _KEY_BYTES = b"\0".join(k.encode("ascii") for k in _KEYS) + b"\0"
cdef const char *_KEY_NAMES[K_COUNT]
cb_index_names(_KEY_BYTES, _KEY_NAMES, K_COUNT)
cdef bytes _FORMAT = _S.FORMAT.encode("ascii")
cdef int64_t _MAX_INT = MAX_INT
cdef object _new = object.__new__

cdef int8_t SUIT_OF[CSM_KINDS]
cdef int8_t RANK_OF[CSM_KINDS]
cdef int8_t SHARES[CSM_KINDS]
for _k in range(CSM_KINDS):
    SUIT_OF[_k] = _C.SUIT_OF[_k]
    RANK_OF[_k] = _C.RANK_OF[_k]
    SHARES[_k] = _C.SHARES[_k]


# ---------------------------------------------------------------------- what is read

cdef struct csm_read:
    # A state as read: the engine's layout, and what that layout does not keep.
    cb_read_head head
    csm_fields f
    int n
    bint from_deal
    int busted_len                  # what the engine's arrays hold a fixed number of
    int prices_len
    int held_len[CSM_MAX_SEATS]


cdef class _Game:
    """What reading needs of one game, made once per game object."""

    cdef object game
    cdef int n
    cdef long version
    cdef bytes options
    cdef bint bank_limited
    cdef bint immediate_repay
    cdef bint trade_first
    cdef int64_t total           # every dollar of the game
    cdef int64_t levy

    def __init__(self, game):
        opts = game.options
        self.game = game
        self.n = opts.players
        version = game.info.version
        self.version = version if type(version) is int else -1
        self.options = game.options_json.encode("ascii")
        self.bank_limited = game.bank_limited
        self.immediate_repay = game.immediate_repay
        self.trade_first = game.trade_first
        self.total = (opts.bank_money or 0) + self.n * opts.starting_money
        self.levy = opts.levy


cdef int _scalar(cb_text *t, int *out, int64_t low, int64_t high) noexcept nogil:
    cdef int64_t v = 0
    if not cb_int_in(t, &v, low, high):
        return 0
    out[0] = <int>v
    return 1


cdef list _read_fields(cb_text *t, csm_read *r, _Game g, LogReader log_reader,
                       cb_log_facts *facts):
    """Read the JSON object of a state into ``r``: its log, or ``None`` if not taken."""
    cdef csm_fields *f = &r.f
    cdef int n = r.n
    cdef int expect = 0, key, k, q, j
    cdef uint64_t seen = 0
    cdef int64_t v = 0
    cdef bint more = True
    cdef const char *s
    cdef Py_ssize_t length
    cdef int8_t held[CSM_MAX_SEATS][CSM_SUITS]
    cdef list log = None
    if not cb_take(t, c'{'):
        return None
    while more:
        key = cb_field(t, _KEY_NAMES, K_COUNT, expect)
        if key < 0 or seen & (<uint64_t>1 << key):
            return None
        seen |= <uint64_t>1 << key
        expect = key + 1
        if key == K_BANK:
            k = cb_int_in(t, &f.bank, -_MAX_INT, _MAX_INT)
        elif key == K_BOUGHT:
            k = _scalar(t, &f.bought, 0, 15)
        elif key == K_BUSTED:
            r.busted_len = cb_bools8(t, f.busted, CSM_SUITS)
            k = r.busted_len == CSM_SUITS
        elif key == K_CASH:
            k = cb_ints(t, f.cash, 8, CSM_MAX_SEATS, 0, _MAX_INT) == n
        elif key == K_CERTS:
            k = cb_lists8(t, &f.certs[0][0], CSM_CERT_CAP, f.cert_len, CSM_MAX_SEATS,
                          CSM_CERT_CAP, 0, CSM_KINDS - 1) == n
        elif key == K_CHANGES:
            k = _scalar(t, &f.changes, 0, CSM_MAX_CHANGES)
        elif key == K_CUR:
            if cb_null(t):
                f.cur = -1
                k = 1
            else:
                k = _scalar(t, &f.cur, 0, n - 1)
        elif key == K_DEALER:
            k = _scalar(t, &f.dealer, 0, n - 1)
        elif key == K_DEBT:
            k = cb_ints(t, f.debt, 8, CSM_MAX_SEATS, 0, _MAX_INT) == n
        elif key == K_DISCARD:
            f.discard_len = cb_ints8(t, f.discard, CSM_DECK_CAP, 0, CSM_KINDS - 1)
            k = f.discard_len >= 0
        elif key == K_DISCARDS:
            k = _scalar(t, &f.discards, 0, CSM_MAX_DISCARDS)
        elif key == K_DRAW:
            f.draw_len = cb_ints8(t, f.draw, CSM_DECK_CAP, 0, CSM_JOKER)
            k = f.draw_len >= 0
        elif key == K_FORMAT:
            k = cb_str(t, &s, &length) and length == len(_FORMAT) and cb_same_chars(s, _FORMAT,
                                                                                   length)
        elif key == K_FROM_DEAL:
            k = cb_bool(t)
            r.from_deal = k == 1
            k = k >= 0
        elif key == K_HANDS:
            k = cb_lists8(t, &f.hands[0][0], CSM_HAND, f.hand_len, CSM_MAX_SEATS, CSM_HAND, 0,
                          CSM_KINDS - 1) == n
        elif key == K_HELD:
            k = cb_lists8(t, &held[0][0], CSM_SUITS, r.held_len, CSM_MAX_SEATS, CSM_SUITS, 0,
                          CSM_MAX_SHARES) == n
            for q in range(n):
                if r.held_len[q] != CSM_SUITS:
                    k = 0
                for j in range(CSM_SUITS):
                    f.held[q][j] = held[q][j]
        elif key == K_HISTORY:
            k = cb_ids(t, CSM_NUM_ACTIONS, &r.head.history, &r.head.history_len)
        elif key == K_JOKER_BY:
            k = _scalar(t, &f.joker_by, -1, n - 1)
        elif key == K_JOKERS_OUT:
            k = _scalar(t, &f.jokers_out, 0, CSM_COPIES) and f.jokers_out != 1
        elif key == K_LEVIES:
            k = cb_int_in(t, &f.levies, 0, _MAX_INT)
        elif key == K_LOG:
            log = log_reader.read(t, n, facts)
            k = log is not None
        elif key == K_OPTIONS:
            # The options as this game writes them; any other spelling is left to the
            # plain code (which compares them as values).
            k = cb_literal(t, g.options, len(g.options))
        elif key == K_PHASE:
            k = _scalar(t, &f.phase, 0, CSM_PH_OVER)
        elif key == K_PILES:
            k = cb_lists8(t, &f.piles[0][0], CSM_PILE_CAP, f.pile_len, CSM_SUITS, CSM_PILE_CAP,
                          0, CSM_KINDS - 1) == CSM_SUITS
        elif key == K_PRICES:
            k = _prices(t, r)
        elif key == K_RE_DRAWN:
            f.re_drawn_n = cb_lists8(t, &f.re_drawn[0][0], CSM_DECK_CAP, f.re_drawn_len,
                                     CSM_MAX_SEATS, CSM_DECK_CAP, 0, CSM_KINDS - 1)
            k = f.re_drawn_n >= 0
        elif key == K_RE_EVENTS:
            f.re_events_n = cb_lists8(t, &f.re_events[0][0], CSM_EVENTS_CAP, f.re_events_len,
                                      CSM_MAX_SEATS, CSM_EVENTS_CAP, -CSM_HAND, CSM_KINDS - 1)
            k = f.re_events_n >= 0
        elif key == K_RE_HANDS:
            f.re_hands_n = cb_lists8(t, &f.re_hands[0][0], CSM_HAND, f.re_hand_len,
                                     CSM_MAX_SEATS, CSM_HAND, 0, CSM_KINDS - 1)
            k = f.re_hands_n >= 0
        elif key == K_RE_PILE:
            f.re_pile_len = cb_ints8(t, f.re_pile, CSM_DECK_CAP, 0, CSM_JOKER)
            k = f.re_pile_len >= 0
        elif key == K_RESHUFFLED:
            k = cb_bool(t)
            f.reshuffled = <signed char>k
            k = k >= 0
        elif key == K_SALES:
            k = _scalar(t, &f.sales, 0, CSM_MAX_TRADES)
        elif key == K_SEED:
            k = cb_int_in(t, &v, 0, 0x7FFFFFFFFFFFFFFF)
            f.seed = <uint64_t>v
        elif key == K_SOLD:
            k = _scalar(t, &f.sold, 0, 15)
        elif key == K_TRADES:
            k = _scalar(t, &f.trades, 0, CSM_MAX_TRADES)
        elif key == K_TURN:
            k = _scalar(t, &f.turn, 0, n - 1)
        elif key == K_TURNS:
            k = cb_int_in(t, &f.turns, 1, _MAX_INT)
        else:  # K_VERSION
            k = cb_int(t, &v) and v == g.version
        if not k or not cb_more(t, c'}', &more):
            return None
    if seen != (<uint64_t>1 << K_COUNT) - 1 or cb_skip(t.at) != t.end:
        return None
    return log


cdef int _prices(cb_text *t, csm_read *r) noexcept nogil:
    """Read ``prices``: four numbers from 0 to the highest price."""
    cdef int8_t prices[CSM_SUITS]
    cdef int s
    if cb_ints8(t, prices, CSM_SUITS, 0, CSM_MAX_PRICE) != CSM_SUITS:
        return 0
    for s in range(CSM_SUITS):
        r.f.prices[s] = prices[s]
    return 1


# ---------------------------------------------------------------------- the invariants
# rules.check_invariants over the C arrays, one function per _check_* of the reference;
# each is true only where every check of its reference holds.

cdef inline bint _sorted(const signed char *cards, int length) noexcept nogil:
    cdef int i
    for i in range(1, length):
        if cards[i - 1] > cards[i]:
            return False
    return True


cdef inline void _count(int *counts, const signed char *cards, int length, int sign) noexcept nogil:
    cdef int i
    for i in range(length):
        counts[cards[i]] += sign


cdef bint _fields_hold(const csm_read *r) noexcept nogil:
    """rules._check_fields beyond what the reading checked (ranges set by other fields)."""
    return r.f.sales <= r.f.trades


cdef bint _cards_hold(const csm_read *r) noexcept nogil:
    """rules._check_cards: 2 of each kind and 2 jokers; piles set the prices."""
    cdef const csm_fields *f = &r.f
    cdef int counts[CSM_KINDS + 1]
    cdef int shares[CSM_SUITS]
    cdef int s, i, q, top, expected
    memset(counts, 0, sizeof(counts))
    _count(counts, f.draw, f.draw_len, 1)
    _count(counts, f.discard, f.discard_len, 1)
    for s in range(CSM_SUITS):
        if f.pile_len[s] == 0:
            return False
        for i in range(f.pile_len[s]):
            if SUIT_OF[f.piles[s][i]] != s:
                return False
        top = f.piles[s][f.pile_len[s] - 1]
        if RANK_OF[top] <= 10 and f.busted[s]:
            return False
        expected = 0 if f.busted[s] else RANK_OF[top]
        if f.prices[s] != expected:
            return False
        _count(counts, f.piles[s], f.pile_len[s], 1)
    for q in range(r.n):
        if not _sorted(f.hands[q], f.hand_len[q]) or f.hand_len[q] > CSM_HAND:
            return False
        if not _sorted(f.certs[q], f.cert_len[q]):
            return False
        _count(counts, f.hands[q], f.hand_len[q], 1)
        _count(counts, f.certs[q], f.cert_len[q], 1)
        memset(shares, 0, sizeof(shares))
        for i in range(f.cert_len[q]):
            shares[SUIT_OF[f.certs[q][i]]] += SHARES[f.certs[q][i]]
        for s in range(CSM_SUITS):
            if shares[s] != f.held[q][s]:
                return False
    counts[CSM_JOKER] += f.jokers_out + (1 if f.joker_by >= 0 else 0)
    for i in range(CSM_KINDS + 1):
        if counts[i] != CSM_COPIES:
            return False
    return True


cdef bint _money_holds(const csm_read *r, _Game g) noexcept:
    """rules._check_money: chips are only moved; debts come from levies and wait for cash."""
    cdef const csm_fields *f = &r.f
    cdef int64_t total = f.bank
    cdef int q
    for q in range(r.n):
        total += f.cash[q]  # at most 7 numbers of 2**53: no overflow
    if total != g.total:
        return False
    if g.bank_limited:
        if f.bank < 0:
            return False
    elif f.levies != 0:
        return False
    for q in range(r.n):
        # debt <= levies * levy, the product in Python's unbounded integers: levy >= 1
        if (f.debt[q] + g.levy - 1) // g.levy > f.levies:
            return False
        if f.debt[q] and f.cash[q]:
            if g.immediate_repay or f.phase == CSM_PH_OVER or q != f.turn:
                return False
    return True


cdef inline int _bits(int mask) noexcept nogil:
    cdef int k = 0
    while mask:
        k += mask & 1
        mask >>= 1
    return k


cdef bint _turn_holds(const csm_read *r, _Game g) noexcept:
    """rules._check_turn: the pending decision and the turn's counters agree."""
    cdef const csm_fields *f = &r.f
    cdef int q, used, want
    if _bits(f.bought) > f.trades - f.sales or _bits(f.sold) > f.sales:
        return False
    if f.phase == CSM_PH_OVER:
        if f.cur >= 0 or f.joker_by < 0:
            return False
        for q in range(r.n):
            if f.cert_len[q]:
                return False
        return True
    if f.cur != f.turn or f.joker_by != -1 or f.discards >= CSM_MAX_DISCARDS:
        return False
    if f.phase == CSM_PH_START:
        if not (f.trades == 0 and f.changes == 0 and f.discards == 0):
            return False
    elif f.phase == CSM_PH_DISCARD:
        if not (f.trades == 0 and f.changes == 0 and f.discards > 0):
            return False
    elif f.phase == CSM_PH_TRADE:
        if not (f.trades > 0 and f.discards == 0):
            return False
        if f.changes and g.trade_first:
            return False
        if f.trades == 2 and f.changes:
            return False
    else:
        if not (f.changes > 0 and f.discards == 0):
            return False
        if f.changes == 2 and (f.trades or g.trade_first):
            return False
    used = f.trades - f.sales + f.changes + f.discards
    for q in range(r.n):
        want = CSM_HAND - used if q == f.turn else CSM_HAND
        if f.hand_len[q] != want:
            return False
    return f.draw_len > 0


cdef bint _reshuffle_holds(const csm_read *r) noexcept nogil:
    """rules._check_reshuffle: the record kept since the reshuffle explains every hand."""
    cdef const csm_fields *f = &r.f
    cdef int counts[CSM_KINDS + 1]
    cdef int q, i, e, draws
    if not f.reshuffled:
        return (f.jokers_out == CSM_COPIES and f.re_pile_len == 0 and f.re_hands_n == 0
                and f.re_drawn_n == 0 and f.re_events_n == 0)
    if f.jokers_out != 0:
        return False
    if f.re_hands_n != r.n or f.re_drawn_n != r.n or f.re_events_n != r.n:
        return False
    for q in range(r.n):
        # What the seat held at the reshuffle and drew since is what it holds and played.
        memset(counts, 0, sizeof(counts))
        draws = 0
        for i in range(f.re_events_len[q]):
            e = f.re_events[q][i]
            if e >= 0:
                counts[e] -= 1
            else:
                draws -= e
        if draws != f.re_drawn_len[q]:
            return False
        _count(counts, f.re_hands[q], f.re_hand_len[q], 1)
        _count(counts, f.re_drawn[q], f.re_drawn_len[q], 1)
        _count(counts, f.hands[q], f.hand_len[q], -1)
        for i in range(CSM_KINDS + 1):
            if counts[i]:
                return False
    # The new draw pile came from the reshuffle: what is in it now and what was drawn.
    memset(counts, 0, sizeof(counts))
    _count(counts, f.draw, f.draw_len, 1)
    if f.joker_by >= 0:
        counts[CSM_JOKER] += 1
    for q in range(r.n):
        _count(counts, f.re_drawn[q], f.re_drawn_len[q], 1)
    _count(counts, f.re_pile, f.re_pile_len, -1)
    for i in range(CSM_KINDS + 1):
        if counts[i]:
            return False
    return True


cdef bint _holds(const csm_read *r, _Game g) noexcept:
    """Whether every invariant of ``rules.check_invariants`` holds."""
    return (_fields_hold(r) and _cards_hold(r) and _money_holds(r, g) and _turn_holds(r, g)
            and _reshuffle_holds(r))


# ---------------------------------------------------------------------- the state

cdef inline list _lists(const signed char *first, int stride, const int *lengths, int count):
    return cb_lists(first, 1, stride, lengths, sizeof(int), count)


cdef object _build(const csm_read *r, object game, list log):
    """The reference state of what was read."""
    cdef const csm_fields *f = &r.f
    cdef int n = r.n, q, s
    cdef list held
    st = _new(CardStockMarketState)
    st.game = game
    st.n = n
    st.seed = f.seed
    st.from_deal = r.from_deal
    st.dealer = f.dealer
    st.turn = f.turn
    st.turns = f.turns
    st.cur = None if f.cur < 0 else f.cur
    st.phase = f.phase
    st.piles = _lists(&f.piles[0][0], CSM_PILE_CAP, f.pile_len, CSM_SUITS)
    st.busted = [f.busted[s] != 0 for s in range(CSM_SUITS)]
    st.prices = [f.prices[s] for s in range(CSM_SUITS)]
    st.hands = _lists(&f.hands[0][0], CSM_HAND, f.hand_len, n)
    st.certs = _lists(&f.certs[0][0], CSM_CERT_CAP, f.cert_len, n)
    held = PyList_New(n)
    for q in range(n):
        item = [f.held[q][s] for s in range(CSM_SUITS)]
        Py_INCREF(<PyObject *>item)
        PyList_SET_ITEM(held, q, <PyObject *>item)
    st.held = held
    st.cash = cb_list(f.cash, 8, n)
    st.debt = cb_list(f.debt, 8, n)
    st.bank = f.bank
    st.levies = f.levies
    st.draw = cb_list8(f.draw, f.draw_len)
    st.discard = cb_list8(f.discard, f.discard_len)
    st.jokers_out = f.jokers_out
    st.joker_by = f.joker_by
    st.reshuffled = f.reshuffled != 0
    st.re_pile = cb_list8(f.re_pile, f.re_pile_len)
    st.re_hands = _lists(&f.re_hands[0][0], CSM_HAND, f.re_hand_len, f.re_hands_n)
    st.re_drawn = _lists(&f.re_drawn[0][0], CSM_DECK_CAP, f.re_drawn_len, f.re_drawn_n)
    st.re_events = _lists(&f.re_events[0][0], CSM_EVENTS_CAP, f.re_events_len, f.re_events_n)
    st.trades = f.trades
    st.sales = f.sales
    st.changes = f.changes
    st.discards = f.discards
    st.bought = f.bought
    st.sold = f.sold
    st.history = cb_ids_list(r.head.history, r.head.history_len)
    st.log = log
    st._legal = None
    st._after_read()
    return st


# ---------------------------------------------------------------------- replaying

cdef bint _same_cards(const signed char *a, const signed char *b, int length) noexcept nogil:
    cdef int i
    for i in range(length):
        if a[i] != b[i]:
            return False
    return True


cdef bint _same_lists(const signed char *a, const signed char *b, int stride, const int *a_len,
                      const int *b_len, int count) noexcept nogil:
    cdef int q
    for q in range(count):
        if a_len[q] != b_len[q] or not _same_cards(a + q * stride, b + q * stride, a_len[q]):
            return False
    return True


cdef bint _same_fields(const csm_read *r, const csm_fields *b) noexcept nogil:
    """Whether the engine's ``b`` holds every field read into ``r`` (the log aside).

    The history is not compared: ``b`` is what replaying it made.
    """
    cdef const csm_fields *a = &r.f
    cdef int n = r.n, q, s
    if (a.seed != b.seed or a.dealer != b.dealer or a.turn != b.turn or a.turns != b.turns
            or a.cur != b.cur or a.phase != b.phase or a.bank != b.bank
            or a.levies != b.levies or a.jokers_out != b.jokers_out
            or a.joker_by != b.joker_by or (a.reshuffled != 0) != (b.reshuffled != 0)
            or a.trades != b.trades or a.sales != b.sales or a.changes != b.changes
            or a.discards != b.discards or a.bought != b.bought or a.sold != b.sold
            or a.draw_len != b.draw_len or a.discard_len != b.discard_len
            or a.re_pile_len != b.re_pile_len or a.re_hands_n != b.re_hands_n
            or a.re_drawn_n != b.re_drawn_n or a.re_events_n != b.re_events_n):
        return False
    for s in range(CSM_SUITS):
        if a.prices[s] != b.prices[s] or (a.busted[s] != 0) != (b.busted[s] != 0):
            return False
    for q in range(n):
        if a.cash[q] != b.cash[q] or a.debt[q] != b.debt[q]:
            return False
        for s in range(CSM_SUITS):
            if a.held[q][s] != b.held[q][s]:
                return False
    return (_same_lists(&a.piles[0][0], &b.piles[0][0], CSM_PILE_CAP, a.pile_len, b.pile_len,
                        CSM_SUITS)
            and _same_lists(&a.hands[0][0], &b.hands[0][0], CSM_HAND, a.hand_len, b.hand_len, n)
            and _same_lists(&a.certs[0][0], &b.certs[0][0], CSM_CERT_CAP, a.cert_len,
                            b.cert_len, n)
            and _same_cards(a.draw, b.draw, a.draw_len)
            and _same_cards(a.discard, b.discard, a.discard_len)
            and _same_cards(a.re_pile, b.re_pile, a.re_pile_len)
            and _same_lists(&a.re_hands[0][0], &b.re_hands[0][0], CSM_HAND, a.re_hand_len,
                            b.re_hand_len, a.re_hands_n)
            and _same_lists(&a.re_drawn[0][0], &b.re_drawn[0][0], CSM_DECK_CAP,
                            a.re_drawn_len, b.re_drawn_len, a.re_drawn_n)
            and _same_lists(&a.re_events[0][0], &b.re_events[0][0], CSM_EVENTS_CAP,
                            a.re_events_len, b.re_events_len, a.re_events_n))


cdef int _step(object state, long action, bint usable) except -2:
    """One step of a replay on the engine (see ``cb_step``)."""
    cdef State st = <State>state
    if st.f.cur < 0:
        return 1
    if not usable or not 0 <= action < CSM_NUM_ACTIONS:
        return -1
    if not st.f.legal_valid:
        st.compute_legal()
    if memchr(st.f.legal, <int>action, st.f.legal_len) == NULL:
        return -1
    st.apply_unchecked(<int>action)
    return 0


replay = cb_replay(_card_stock_market, _step)
"""The replay of a dealt game's whole history on the compiled engine, for
:mod:`closingbell.core.replay`: the reference's results and refusals."""


# ---------------------------------------------------------------------- the codec

cdef object _read(cb_text *t, void *read, object prepared, LogReader log_reader,
                  cb_log_facts *facts):
    """Read a state's JSON object (see ``cb_read``): the reference state, or ``None``."""
    cdef csm_read *r = <csm_read *>read
    cdef _Game g = <_Game>prepared
    r.n = g.n
    log = _read_fields(t, r, g, log_reader, facts)
    if log is None or not _holds(r, g):
        return None
    return _build(r, g.game, log)


cdef bint _same(const void *read, object fresh, list log) except -1:
    return _same_fields(<const csm_read *>read, &(<State>fresh).f) and (<State>fresh).log_is(log)


cdef class Codec(GameCodec):
    """The compiled writer and reader of the game's states (see the module docstring)."""

    def __init__(self, own_replay):
        GameCodec.__init__(self, CardStockMarket, CardStockMarketState, _Game, own_replay)
        self.read_state = _read
        self.same_fields = _same
        self.read_size = sizeof(csm_read)
