# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Take Stock's states read from JSON and written to it in C, as the reference does.

:class:`Codec` is what ``closingbell.native`` registers with
:func:`closingbell.core.serial.register_codec`. Its reader takes the JSON text in one
pass into the compiled engine's C layout (``ts_core``), checking every field's shape and
range as ``State.from_dict`` does, the log with the game's own checks
(:class:`~closingbell.native._serial.LogReader`), and then every invariant of
``rules.check_invariants`` over the C arrays; it builds the reference state from them, and
a state dealt from its seed is replayed inside the compiled engine and compared field by
field. Whatever fails any of this, or is written in a way the reader does not take (a
float, spaces in the options, a key twice), it hands back to the Python code, which
decides and words the refusal: so the reader accepts exactly what the reference accepts,
and a refusal's message is always the reference's.

:func:`replay` is the replay of a dealt game's whole history on the compiled engine, for
:mod:`closingbell.core.replay`.
"""

from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memset

from closingbell.native._serial cimport (
    GameCodec,
    LogReader,
    cb_lists,
    cb_read_head,
    cb_replay,
    cb_begin,
    cb_field,
    cb_first,
    cb_ids,
    cb_ids_list,
    cb_index_names,
    cb_lists8,
    cb_literal,
    cb_same_chars,
    cb_bool,
    cb_bools8,
    cb_int,
    cb_int_in,
    cb_ints8,
    cb_ints,
    cb_key,
    cb_list8,
    cb_list,
    cb_log_facts,
    cb_more,
    cb_name_or_null,
    cb_names,
    cb_null,
    cb_skip,
    cb_str,
    cb_take,
    cb_text,
)
from closingbell.native._take_stock cimport (
    State,
    TS_A_EXERCISE_DONE,
    TS_ACTIONS,
    TS_BELOW_CLOSED,
    TS_CARDS,
    TS_CLOSING_VALUE,
    TS_EVENT_CARDS,
    TS_F_PLAY,
    TS_K_FREEZE,
    TS_K_MARKET_CLOSED,
    TS_K_SPLIT,
    TS_KINDS,
    TS_MAX_RETRIEVE,
    TS_MAX_SPLITS,
    TS_PH_ACTION,
    TS_PH_AUDIT_WHAT,
    TS_PH_CHOOSE,
    TS_PH_DISCARD,
    TS_PH_DOWNTURN,
    TS_PH_EXERCISE,
    TS_PH_FREEZE,
    TS_PH_INSIDER_DISCARD,
    TS_PH_OVER,
    TS_PH_RETRIEVE,
    TS_R_COUNT,
    TS_R_HIGH_CARD,
    TS_R_MARKET_CLOSED,
    TS_R_NONE,
    TS_RETRIEVED,
    TS_ROUNDS,
    TS_SEATS,
    TS_STOCKS,
    TS_TOTAL_TOKENS,
    TS_VALUES,
    ts_core,
    ts_event_cards_complete,
    ts_is_legal,
    ts_pools_outside_hands_hold,
    ts_share_cards_complete,
)

from closingbell.games.take_stock import cards as _C
from closingbell.games.take_stock import state as _S
from closingbell.games.take_stock.game import TakeStock, TakeStockState
from closingbell.native import _take_stock

cdef extern from "Python.h":
    object PyList_New(Py_ssize_t size)
    void PyList_SET_ITEM(object lst, Py_ssize_t i, PyObject *o)
    long PyLong_AsLongAndOverflow(object value, int *overflow) except? -1
    void Py_INCREF(PyObject *o)


# ---------------------------------------------------------------------- the keys

# K_NAME, K_COUNT and _KEYS: generated at build time (setup.py) from the state's SHAPES
# and the header's keys.
include "_take_stock_keys.pxi"

cdef enum:
    MAX_POOLS = 64              # more pools than this are left to the plain code
    MAX_INT_32 = 2147483647

cdef bytes _KEY_BYTES = b"\0".join(k.encode("ascii") for k in _KEYS) + b"\0"
cdef const char *_KEY_NAMES[K_COUNT]
cdef bytes _REASON_BYTES = b"\0".join(r.encode("ascii") for r in _S.ROUND_END_REASONS) + b"\0"
cdef const char *_REASON_NAMES[4]
cdef bytes _FORMAT = _S.FORMAT.encode("ascii")
cdef tuple _REASONS = tuple(_S.ROUND_END_REASONS)
cdef int _MAX_POINTS = _C.MAX_ROUND_POINTS
cdef object _new = object.__new__


cb_index_names(_KEY_BYTES, _KEY_NAMES, K_COUNT)
cb_index_names(_REASON_BYTES, _REASON_NAMES, TS_R_COUNT)

# ---------------------------------------------------------------------- what is read

cdef struct ts_read:
    # A state as read: the engine's layout, and what that layout does not keep.
    cb_read_head head
    ts_core c
    int n
    bint from_deal
    int16_t hand_pool[TS_SEATS][MAX_POOLS]
    int pools                       # len(hand_pool[0])
    int8_t below_mask_len           # len(ev_below_mask), len(ev_discard_mask)
    int8_t discard_mask_len
    int8_t reasons_len              # len(round_reasons)


cdef int _lists(cb_text *t, int8_t *first, int stride, int8_t *lengths, int count, int room,
                int low, int high) noexcept nogil:
    """Read a list of exactly ``count`` lists of integers (see ``cb_lists8``): 1, or 0."""
    cdef int got[TS_STOCKS + TS_SEATS]
    cdef int q
    if cb_lists8(t, first, stride, got, count, room, low, high) != count:
        return 0
    for q in range(count):
        lengths[q] = <int8_t>got[q]
    return 1


cdef bint _ints8(cb_text *t, int8_t *out, int8_t *length, int room, int low,
                 int high) noexcept nogil:
    """Read a list of integers into ``out``, its length into ``length``: 1, or 0."""
    cdef int k = cb_ints8(t, out, room, low, high)
    length[0] = <int8_t>k
    return k >= 0


cdef int _read_scores(cb_text *t, ts_core *c, int n) noexcept nogil:
    """Read ``round_scores`` (lists of one number per seat): how many, or -1."""
    cdef int k = 0, got
    cdef bint more
    if not cb_first(t, &more):
        return -1
    while more:
        if k == TS_ROUNDS:
            return -1
        got = cb_ints(t, c.round_scores[k], 4, TS_SEATS, 0, _MAX_POINTS)
        if got != n or not cb_more(t, c']', &more):
            return -1
        k += 1
    return k


cdef int _read_hand_pool(cb_text *t, ts_read *r) noexcept nogil:
    """Read ``hand_pool``: one list per seat, all of one length (at least 1)."""
    cdef int q, k
    cdef bint more = True
    if not cb_take(t, c'['):
        return 0
    for q in range(r.n):
        k = cb_ints(t, r.hand_pool[q], 2, MAX_POOLS, 0, TS_CARDS)
        if k < 1 or (q and k != r.pools) or not cb_more(t, c']', &more) or more != (q < r.n - 1):
            return 0
        r.pools = k
    return 1


cdef int _scalar(cb_text *t, int32_t *out, int64_t low, int64_t high) noexcept nogil:
    cdef int64_t v = 0
    if not cb_int_in(t, &v, low, high):
        return 0
    out[0] = <int32_t>v
    return 1


cdef class _Game:
    """What reading needs of one game, made once per game object."""

    cdef object game
    cdef int n
    cdef int rounds
    cdef bint last_card
    cdef bint take_first
    cdef long version
    cdef bytes options

    def __init__(self, game):
        opts = game.options
        self.game = game
        self.n = opts.players
        self.rounds = opts.rounds
        self.last_card = game.last_card_rule
        self.take_first = opts.insider_order == "take_first"
        version = game.info.version
        self.version = version if type(version) is int else -1
        self.options = game.options_json.encode("ascii")


cdef list _read_fields(cb_text *t, ts_read *r, _Game g, LogReader log_reader,
                       cb_log_facts *facts):
    """Read the JSON object of a state into ``r``: its log, or ``None`` if not taken."""
    cdef ts_core *c = &r.c
    cdef int n = r.n
    cdef int expect = 0, key, k, everyone = (1 << (n + 1)) - 1
    cdef uint64_t seen = 0
    cdef int64_t v = 0
    cdef bint more = True
    cdef const char *s
    cdef Py_ssize_t length
    cdef list log = None
    if not cb_take(t, c'{'):
        return None
    while more:
        key = cb_field(t, _KEY_NAMES, K_COUNT, expect)
        if key < 0 or seen & (<uint64_t>1 << key):
            return None
        seen |= <uint64_t>1 << key
        expect = key + 1
        if key == K_CERTS:
            k = _lists(t, &c.certs[0][0], TS_CARDS, c.cert_len, n, TS_CARDS, 0, TS_CARDS - 1)
        elif key == K_CUR:
            if cb_null(t):
                c.cur = -1
                k = 1
            else:
                k = _scalar(t, &c.cur, 0, n - 1)
        elif key == K_DEALER:
            k = _scalar(t, &c.dealer, 0, n - 1)
        elif key == K_DISCARD:
            k = _ints8(t, c.discard, &c.discard_len, TS_CARDS, 0, TS_CARDS - 1)
        elif key == K_DRAW:
            k = _ints8(t, c.draw, &c.draw_len, TS_CARDS, 0, TS_CARDS - 1)
        elif key == K_END_REASON:
            k = cb_name_or_null(t, _REASON_NAMES, TS_R_COUNT)
            c.end_reason = TS_R_NONE if k == TS_R_COUNT else <int8_t>k
            k = k >= 0
        elif key == K_EV_ABOVE:
            k = _ints8(t, c.ev_above, &c.ev_above_len, TS_EVENT_CARDS, 0, TS_K_MARKET_CLOSED - 1)
        elif key == K_EV_ACTIVE:
            k = _scalar(t, &c.ev_active, -1, TS_K_MARKET_CLOSED - 1)
        elif key == K_EV_BELOW:
            k = _ints8(t, c.ev_below, &c.ev_below_len, TS_EVENT_CARDS, 0, TS_K_MARKET_CLOSED - 1)
        elif key == K_EV_BELOW_MASK:
            k = _ints8(t, <int8_t *>c.ev_below_mask, &r.below_mask_len, TS_EVENT_CARDS, 0,
                       everyone)
        elif key == K_EV_DISCARD:
            k = _ints8(t, c.ev_discard, &c.ev_discard_len, TS_EVENT_CARDS, 0, TS_K_MARKET_CLOSED)
        elif key == K_EV_DISCARD_MASK:
            k = _ints8(t, <int8_t *>c.ev_discard_mask, &r.discard_mask_len, TS_EVENT_CARDS, 0,
                       everyone)
        elif key == K_EV_STOCK:
            k = _scalar(t, &c.ev_stock, -1, TS_STOCKS - 1)
        elif key == K_FOLLOW:
            k = _scalar(t, &c.follow, 0, TS_F_PLAY)
        elif key == K_FORMAT:
            k = cb_str(t, &s, &length) and length == len(_FORMAT) and cb_same_chars(s, _FORMAT,
                                                                                   length)
        elif key == K_FROM_DEAL:
            k = cb_bool(t)
            r.from_deal = k == 1
            k = k >= 0
        elif key == K_FROZEN:
            k = cb_bools8(t, c.frozen, TS_STOCKS) == TS_STOCKS
        elif key == K_HAND_POOL:
            k = _read_hand_pool(t, r)
        elif key == K_HANDS:
            k = _lists(t, &c.hands[0][0], TS_CARDS, c.hand_len, n, TS_CARDS, 0, TS_CARDS - 1)
        elif key == K_HIDDEN:
            k = _lists(t, &c.hidden[0][0], TS_CARDS, c.hidden_len, n, TS_CARDS, 0,
                             TS_CARDS - 1)
        elif key == K_HISTORY:
            k = cb_ids(t, TS_ACTIONS, &r.head.history, &r.head.history_len)
        elif key == K_KNOWN:
            k = _lists(t, &c.known[0][0], TS_CARDS, c.known_len, n, TS_CARDS, 0, TS_CARDS - 1)
        elif key == K_LOG:
            log = log_reader.read(t, n, facts)
            k = log is not None
        elif key == K_OPTIONS:
            # The options as this game writes them; any other spelling is left to the
            # plain code (which compares them as values).
            k = cb_literal(t, g.options, len(g.options))
        elif key == K_OWED:
            k = _scalar(t, &c.owed, 0, TS_MAX_RETRIEVE)
        elif key == K_PAIR:
            k = _ints8(t, c.pair, &c.pair_len, 2, 0, TS_K_MARKET_CLOSED - 1)
        elif key == K_PHASE:
            k = _scalar(t, &c.phase, 0, TS_PH_OVER)
        elif key == K_POOL_OF:
            k = cb_ints(t, c.pool_of, 2, TS_CARDS, -1, MAX_POOLS) == TS_CARDS
        elif key == K_QUEUE:
            k = _ints8(t, c.queue, &c.queue_len, n, 0, n - 1)
        elif key == K_RESHUFFLES:
            k = _scalar(t, &c.reshuffles, 0, MAX_POOLS)
        elif key == K_RETRIEVED:
            k = _ints8(t, c.retrieved, &c.retrieved_len, TS_RETRIEVED, 0, TS_CARDS - 1)
        elif key == K_ROUND:
            k = _scalar(t, &c.round, 1, g.rounds)
        elif key == K_ROUND_REASONS:
            k = cb_names(t, c.round_reasons, TS_ROUNDS, _REASON_NAMES, TS_R_COUNT)
            r.reasons_len = <int8_t>k
            k = k >= 0
        elif key == K_ROUND_SCORES:
            k = _read_scores(t, c, n)
            c.scored = <int8_t>k
            k = k >= 0
        elif key == K_ROWS:
            k = _lists(t, &c.rows[0][0], TS_VALUES, c.row_len, TS_STOCKS, TS_VALUES, 1,
                             TS_VALUES)
        elif key == K_SAVED:
            k = _lists(t, &c.saved[0][0], TS_EVENT_CARDS, c.saved_len, n, TS_EVENT_CARDS,
                             0, TS_K_MARKET_CLOSED - 1)
        elif key == K_SEED:
            k = cb_int_in(t, &v, 0, 0x7FFFFFFFFFFFFFFF)
            c.seed = <uint64_t>v
        elif key == K_SPLITS:
            k = cb_ints8(t, c.splits, TS_STOCKS, 0, TS_MAX_SPLITS) == TS_STOCKS
        elif key == K_SUPPLY:
            k = _scalar(t, &c.supply, 0, TS_TOTAL_TOKENS)
        elif key == K_TOKENS:
            k = cb_ints(t, c.tokens, 4, TS_SEATS, 0, TS_TOTAL_TOKENS) == n
        elif key == K_TOTALS:
            k = cb_ints(t, c.totals, 4, TS_SEATS, 0, MAX_INT_32) == n
        elif key == K_TURN:
            k = _scalar(t, &c.turn, 0, n - 1)
        else:  # K_VERSION
            k = cb_int(t, &v) and v == g.version
        if not k or not cb_more(t, c'}', &more):
            return None
    if seen != (<uint64_t>1 << K_COUNT) - 1 or cb_skip(t.at) != t.end:
        return None
    return log


# ---------------------------------------------------------------------- the invariants
# rules.check_invariants over the C arrays, one function per _check_* of the reference;
# each is true only where every check of its reference holds.

cdef inline int _count8(const int8_t *items, int length, int value) noexcept nogil:
    cdef int i, k = 0
    for i in range(length):
        if items[i] == value:
            k += 1
    return k


cdef bint _fields_hold(const ts_read *r) noexcept nogil:
    """rules._check_fields beyond what the reading checked (ranges set by other fields)."""
    cdef const ts_core *c = &r.c
    cdef int i
    if c.ev_below_len < TS_BELOW_CLOSED or r.below_mask_len != c.ev_below_len:
        return False
    if r.discard_mask_len != c.ev_discard_len:
        return False
    for i in range(TS_CARDS):
        if c.pool_of[i] > r.pools - 1:
            return False
    if c.reshuffles > r.pools - 1:
        return False
    for i in range(c.queue_len):
        if _count8(c.queue, c.queue_len, c.queue[i]) != 1:
            return False
    return True


cdef bint _decision_holds(const ts_read *r) noexcept nogil:
    """rules._check_decision."""
    cdef const ts_core *c = &r.c
    cdef int phase = c.phase, s, i, q, high
    if (c.cur < 0) != (phase == TS_PH_OVER):
        return False
    if (c.follow != 0) != (phase == TS_PH_DISCARD):
        return False
    if (c.pair_len == 2) != (phase == TS_PH_CHOOSE) or c.pair_len == 1:
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
        if phase == TS_PH_AUDIT_WHAT and not (c.row_len[c.ev_stock] > 1
                                              and c.splits[c.ev_stock] > 0):
            return False
    elif c.ev_stock != -1:
        return False
    if (c.owed > 0) != (phase == TS_PH_INSIDER_DISCARD):
        return False
    if c.retrieved_len and phase != TS_PH_RETRIEVE and phase != TS_PH_INSIDER_DISCARD:
        return False
    for i in range(c.retrieved_len):
        if c.retrieved[i] // TS_VALUES != c.ev_stock:
            return False
    if phase == TS_PH_RETRIEVE and c.retrieved_len >= TS_MAX_RETRIEVE:
        return False
    if phase == TS_PH_DOWNTURN or phase == TS_PH_EXERCISE:
        if c.queue_len == 0 or c.cur != c.queue[0]:
            return False
    else:
        if c.queue_len:
            return False
        for q in range(r.n):
            if c.hidden_len[q]:
                return False
    if (phase == TS_PH_EXERCISE) != (c.end_reason != TS_R_NONE and phase != TS_PH_OVER):
        return False
    if phase != TS_PH_DOWNTURN and phase != TS_PH_EXERCISE and phase != TS_PH_OVER:
        if c.cur != c.turn:
            return False
    if phase < TS_PH_EXERCISE:  # the round runs
        for s in range(TS_STOCKS):
            for i in range(c.row_len[s]):
                if c.rows[s][i] >= TS_CLOSING_VALUE:
                    return False
        if r.c.r.last_card and c.draw_len == 0:
            return False
    else:
        high = 0
        for s in range(TS_STOCKS):
            if c.row_len[s] == 0:
                return False  # the reference would fail on row[-1]
            if c.rows[s][c.row_len[s] - 1] >= TS_CLOSING_VALUE:
                high += 1
            for i in range(c.row_len[s] - 1):
                if c.rows[s][i] >= TS_CLOSING_VALUE:
                    return False
        if high != (c.end_reason == TS_R_HIGH_CARD):
            return False
    return True


cdef bint _hands_hold(const ts_read *r) noexcept nogil:
    """rules._check_hands."""
    cdef const ts_core *c = &r.c
    cdef int n = r.n, phase = c.phase, q, i, count, previous, place
    cdef bint waits
    for q in range(n):
        for i in range(1, c.hand_len[q]):
            if c.hands[q][i - 1] > c.hands[q][i]:
                return False
    if phase == TS_PH_OVER:
        for q in range(n):
            if c.hand_len[q]:
                return False
        return True
    if phase == TS_PH_DOWNTURN:
        count = c.queue_len
        for i in range(count):
            if c.queue[i] != (c.turn + n - count + i) % n:
                return False
        for q in range(n):
            waits = _count8(c.queue, c.queue_len, q) > 0
            if c.hidden_len[q] != (0 if waits else 1):
                return False
            if waits and c.hand_len[q] == 0:
                return False
        return True
    if phase == TS_PH_EXERCISE:
        previous = -1
        for i in range(c.queue_len):
            place = ((c.queue[i] - c.turn) % n + n) % n
            if place <= previous:
                return False
            previous = place
        for q in range(n):
            if c.hidden_len[q] > c.tokens[q]:
                return False
        for i in range(1, c.queue_len):
            if c.hidden_len[c.queue[i]]:
                return False
        for i in range(c.queue_len):
            q = c.queue[i]
            if c.hand_len[q] == 0 or c.tokens[q] <= c.hidden_len[q]:
                return False
        return True
    for q in range(n):
        if c.hand_len[q] == 0:
            return False
    if phase == TS_PH_ACTION and c.hand_len[c.cur] < 2:
        return False
    if phase == TS_PH_INSIDER_DISCARD:
        if c.hand_len[c.cur] < c.owed:
            return False
        if not r.c.r.take_first:
            if c.owed > c.retrieved_len:
                return False
        elif c.retrieved_len:
            return False
    return True


cdef bint _share_cards_hold(const ts_read *r) noexcept nogil:
    """rules._check_share_cards: rows rise from their 1; all 60 cards, once each."""
    cdef const ts_core *c = &r.c
    cdef int s, i
    for s in range(TS_STOCKS):
        if c.row_len[s] == 0 or c.rows[s][0] != 1:
            return False
        for i in range(1, c.row_len[s]):
            if c.rows[s][i - 1] >= c.rows[s][i]:
                return False
    return ts_share_cards_complete(c)


cdef bint _knowledge_holds(const ts_read *r) noexcept nogil:
    """rules._check_knowledge: what the table knows of hidden cards agrees with them."""
    cdef const ts_core *c = &r.c
    cdef int counts[MAX_POOLS]
    cdef int q, i, k, card
    cdef int pools = r.pools
    for q in range(r.n):
        memset(counts, 0, sizeof(counts))
        for i in range(c.known_len[q]):
            if _count8(c.known[q], c.known_len[q], c.known[q][i]) != 1:
                return False
        for i in range(c.hand_len[q] + c.hidden_len[q]):
            card = c.hands[q][i] if i < c.hand_len[q] else c.hidden[q][i - c.hand_len[q]]
            k = c.pool_of[card]
            if k >= 0:
                counts[k] += 1
                if _count8(c.known[q], c.known_len[q], card):
                    return False
            elif not _count8(c.known[q], c.known_len[q], card):
                return False
        for k in range(pools):
            if counts[k] != r.hand_pool[q][k]:
                return False
        for i in range(c.known_len[q]):
            card = c.known[q][i]
            if not (_count8(c.hands[q], c.hand_len[q], card)
                    or _count8(c.hidden[q], c.hidden_len[q], card)):
                return False
    return ts_pools_outside_hands_hold(c, pools - 1)


cdef bint _scores_hold(const ts_read *r) noexcept nogil:
    """rules._check_scores: tokens add up to 30, scores round by round."""
    cdef const ts_core *c = &r.c
    cdef int q, k, total = c.supply
    cdef int64_t sums
    for q in range(r.n):
        total += c.tokens[q]
    if total != TS_TOTAL_TOKENS or r.reasons_len != c.scored:
        return False
    if c.phase == TS_PH_OVER:
        if not (c.round == c.scored == r.c.r.rounds):
            return False
        if c.end_reason == TS_R_NONE or c.end_reason != c.round_reasons[c.scored - 1]:
            return False
    elif c.scored != c.round - 1:
        return False
    for q in range(r.n):
        sums = 0
        for k in range(c.scored):
            sums += c.round_scores[k][q]
        if sums != c.totals[q]:
            return False
    return True


cdef bint _holds(const ts_read *r) noexcept nogil:
    """Whether every invariant of ``rules.check_invariants`` holds."""
    return (_fields_hold(r) and _decision_holds(r) and _hands_hold(r) and _share_cards_hold(r)
            and ts_event_cards_complete(&r.c) and _knowledge_holds(r) and _scores_hold(r))


# ---------------------------------------------------------------------- the state

cdef inline list _lists8(const int8_t *first, int stride, const int8_t *lengths, int count):
    return cb_lists(first, 1, stride, lengths, 1, count)


cdef object _build(const ts_read *r, object game, list log):
    """The reference state of what was read."""
    cdef const ts_core *c = &r.c
    cdef int n = r.n, q, s
    cdef list rows, hand_pool, scores
    st = _new(TakeStockState)
    st.game = game
    st.n = n
    st.seed = c.seed
    st.from_deal = r.from_deal
    st.round = c.round
    st.dealer = c.dealer
    st.turn = c.turn
    st.cur = None if c.cur < 0 else c.cur
    st.phase = c.phase
    rows = PyList_New(TS_STOCKS)
    for s in range(TS_STOCKS):
        item = cb_list8(c.rows[s], c.row_len[s])
        Py_INCREF(<PyObject *>item)
        PyList_SET_ITEM(rows, s, <PyObject *>item)
    st.rows = rows
    st.splits = cb_list8(c.splits, TS_STOCKS)
    st.frozen = [c.frozen[s] != 0 for s in range(TS_STOCKS)]
    st.hands = _lists8(&c.hands[0][0], TS_CARDS, c.hand_len, n)
    st.certs = _lists8(&c.certs[0][0], TS_CARDS, c.cert_len, n)
    st.tokens = cb_list(c.tokens, 4, n)
    st.supply = c.supply
    st.draw = cb_list8(c.draw, c.draw_len)
    st.discard = cb_list8(c.discard, c.discard_len)
    st.ev_above = cb_list8(c.ev_above, c.ev_above_len)
    st.ev_below = cb_list8(c.ev_below, c.ev_below_len)
    st.ev_below_mask = cb_list8(<const int8_t *>c.ev_below_mask, c.ev_below_len)
    st.ev_discard = cb_list8(c.ev_discard, c.ev_discard_len)
    st.ev_discard_mask = cb_list8(<const int8_t *>c.ev_discard_mask, c.ev_discard_len)
    st.ev_active = c.ev_active
    st.saved = _lists8(&c.saved[0][0], TS_EVENT_CARDS, c.saved_len, n)
    st.totals = cb_list(c.totals, 4, n)
    scores = PyList_New(c.scored)
    for q in range(c.scored):
        item = cb_list(c.round_scores[q], 4, n)
        Py_INCREF(<PyObject *>item)
        PyList_SET_ITEM(scores, q, <PyObject *>item)
    st.round_scores = scores
    st.round_reasons = [_REASONS[c.round_reasons[q]] for q in range(c.scored)]
    st.end_reason = None if c.end_reason == TS_R_NONE else _REASONS[c.end_reason]
    st.pool_of = cb_list(c.pool_of, 2, TS_CARDS)
    hand_pool = PyList_New(n)
    for q in range(n):
        item = cb_list(r.hand_pool[q], 2, r.pools)
        Py_INCREF(<PyObject *>item)
        PyList_SET_ITEM(hand_pool, q, <PyObject *>item)
    st.hand_pool = hand_pool
    st.known = _lists8(&c.known[0][0], TS_CARDS, c.known_len, n)
    st.follow = c.follow
    st.pair = cb_list8(c.pair, c.pair_len)
    st.ev_stock = c.ev_stock
    st.retrieved = cb_list8(c.retrieved, c.retrieved_len)
    st.owed = c.owed
    st.queue = cb_list8(c.queue, c.queue_len)
    st.hidden = _lists8(&c.hidden[0][0], TS_CARDS, c.hidden_len, n)
    st.reshuffles = c.reshuffles
    st.history = cb_ids_list(r.head.history, r.head.history_len)
    st.log = log
    st._legal = None
    st._after_read()
    return st


# ---------------------------------------------------------------------- replaying

cdef bint _same_lists8(const int8_t *a, const int8_t *b, int stride, const int8_t *a_len,
                       const int8_t *b_len, int count) noexcept nogil:
    cdef int q, i
    for q in range(count):
        if a_len[q] != b_len[q]:
            return False
        for i in range(a_len[q]):
            if a[q * stride + i] != b[q * stride + i]:
                return False
    return True


cdef bint _same_ints8(const int8_t *a, const int8_t *b, int count) noexcept nogil:
    cdef int i
    for i in range(count):
        if a[i] != b[i]:
            return False
    return True


cdef bint _same_fields(const ts_read *r, const ts_core *b) noexcept nogil:
    """Whether the engine's ``b`` holds every field read into ``r`` (the log aside).

    The history is not compared: ``b`` is what replaying it made.
    """
    cdef const ts_core *a = &r.c
    cdef int n = r.n, k, q
    if (a.seed != b.seed or a.round != b.round or a.dealer != b.dealer or a.turn != b.turn
            or a.cur != b.cur or a.phase != b.phase or a.supply != b.supply
            or a.ev_active != b.ev_active or a.follow != b.follow or a.ev_stock != b.ev_stock
            or a.owed != b.owed or a.reshuffles != b.reshuffles or r.pools != b.npools
            or a.end_reason != b.end_reason or a.draw_len != b.draw_len
            or a.discard_len != b.discard_len or a.ev_above_len != b.ev_above_len
            or a.ev_below_len != b.ev_below_len or a.ev_discard_len != b.ev_discard_len
            or a.pair_len != b.pair_len or a.retrieved_len != b.retrieved_len
            or a.queue_len != b.queue_len or a.scored != b.scored):
        return False
    if not (_same_lists8(&a.rows[0][0], &b.rows[0][0], TS_VALUES, a.row_len, b.row_len,
                         TS_STOCKS)
            and _same_ints8(a.splits, b.splits, TS_STOCKS)
            and _same_ints8(a.frozen, b.frozen, TS_STOCKS)
            and _same_lists8(&a.hands[0][0], &b.hands[0][0], TS_CARDS, a.hand_len, b.hand_len, n)
            and _same_lists8(&a.certs[0][0], &b.certs[0][0], TS_CARDS, a.cert_len, b.cert_len, n)
            and _same_lists8(&a.known[0][0], &b.known[0][0], TS_CARDS, a.known_len,
                             b.known_len, n)
            and _same_lists8(&a.hidden[0][0], &b.hidden[0][0], TS_CARDS, a.hidden_len,
                             b.hidden_len, n)
            and _same_lists8(&a.saved[0][0], &b.saved[0][0], TS_EVENT_CARDS, a.saved_len,
                             b.saved_len, n)
            and _same_ints8(a.draw, b.draw, a.draw_len)
            and _same_ints8(a.discard, b.discard, a.discard_len)
            and _same_ints8(a.ev_above, b.ev_above, a.ev_above_len)
            and _same_ints8(a.ev_below, b.ev_below, a.ev_below_len)
            and _same_ints8(<const int8_t *>a.ev_below_mask, <const int8_t *>b.ev_below_mask,
                            a.ev_below_len)
            and _same_ints8(a.ev_discard, b.ev_discard, a.ev_discard_len)
            and _same_ints8(<const int8_t *>a.ev_discard_mask,
                            <const int8_t *>b.ev_discard_mask, a.ev_discard_len)
            and _same_ints8(a.pair, b.pair, a.pair_len)
            and _same_ints8(a.retrieved, b.retrieved, a.retrieved_len)
            and _same_ints8(a.queue, b.queue, a.queue_len)
            and _same_ints8(a.round_reasons, b.round_reasons, a.scored)):
        return False
    for q in range(n):
        if a.tokens[q] != b.tokens[q] or a.totals[q] != b.totals[q]:
            return False
    for k in range(a.scored):
        for q in range(n):
            if a.round_scores[k][q] != b.round_scores[k][q]:
                return False
    for k in range(TS_CARDS):
        if a.pool_of[k] != b.pool_of[k]:
            return False
    # hand_pool: the engine counts pool_of, which the invariants held the read one to.
    return True


cdef int _step(object state, long action, bint usable) except -2:
    """One step of a replay on the engine (see ``cb_step``)."""
    cdef State st = <State>state
    if st.c.cur < 0:
        return 1
    if usable and 0 <= action < TS_ACTIONS and ts_is_legal(&st.c, <int>action):
        st.apply_unchecked(<int>action)
        return 0
    return -1


replay = cb_replay(_take_stock, _step)
"""The replay of a dealt game's whole history on the compiled engine, for
:mod:`closingbell.core.replay`: the reference's results and refusals."""


# ---------------------------------------------------------------------- the codec

cdef object _read(cb_text *t, void *read, object prepared, LogReader log_reader,
                  cb_log_facts *facts):
    """Read a state's JSON object (see ``cb_read``): the reference state, or ``None``."""
    cdef ts_read *r = <ts_read *>read
    cdef _Game g = <_Game>prepared
    r.n = g.n
    r.c.r.n = g.n
    r.c.r.rounds = g.rounds
    r.c.r.last_card = g.last_card
    r.c.r.take_first = g.take_first
    log = _read_fields(t, r, g, log_reader, facts)
    if log is None or not _holds(r):
        return None
    return _build(r, g.game, log)


cdef bint _same(const void *read, object fresh, list log) except -1:
    return _same_fields(<const ts_read *>read, &(<State>fresh).c) and (<State>fresh).log_is(log)


cdef class Codec(GameCodec):
    """The compiled writer and reader of the game's states (see the module docstring)."""

    def __init__(self, own_replay):
        GameCodec.__init__(self, TakeStock, TakeStockState, _Game, own_replay)
        self.read_state = _read
        self.same_fields = _same
        self.read_size = sizeof(ts_read)
