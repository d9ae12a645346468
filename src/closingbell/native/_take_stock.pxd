# The compiled Take Stock engine's C layout, for other Cython modules (cimport it).
#
# A State holds the whole position in one fixed-size struct (ts_core), so that a clone is a
# memcpy, plus two append-only buffers (the log's compact records and the history) shared
# between clones until one of them writes. The fields mirror the reference state's
# (closingbell.games.take_stock.state) one for one, with these differences:
#   - a list is an array and a length (``hands[p][:hand_len[p]]``), in the reference's order;
#   - ``None`` is -1 (``cur``, ``end_reason``), a bool is 0 or 1;
#   - ``end_reason`` and ``round_reasons`` are indices into ROUND_END_REASONS;
#   - ``hand_pool`` is not stored: the reference keeps it equal to the count, by pool, of the
#     cards of hands[q] and hidden[q] with ``pool_of[card] >= 0`` (its own invariant), so it
#     is derived from pool_of; ``npools`` is its length (one pool per reshuffle, and the deal);
#   - the legal actions of the pending decision are cached in ``legal`` while ``legal_ok``.
# Share cards are ids (stock * 12 + value - 1), event cards kinds, as in the reference.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t

# The game's numbers, generated at build time from closingbell.games.take_stock's data
# modules (setup.py): card and event counts, event kinds (TS_K_*), action ids (TS_A_*),
# decision kinds (``phase``, TS_PH_*), what the discard after a turn action pays for
# (``follow``, TS_F_*) and why a round ended (``end_reason``, TS_R_*).
include "_take_stock_ids.pxi"

cdef enum:
    TS_RETRIEVED = 12      # room for cards retrieved by Insider Trading (one stock's cards)
    TS_MAX_LEGAL = 160     # more than any decision offers (raises + saves + market + plays)


cdef struct ts_rules:
    # The game's options, as the rules read them.
    int8_t n                  # seats
    int8_t rounds
    int8_t hand_size          # cards dealt to each seat
    int8_t first_dealer       # -1: drawn from the seed
    int8_t shares[13]         # shares per card, by value (0 and 1 hold none)
    bint limit_freeze         # limit_counts_freeze
    bint frozen_zero          # frozen_scoring == "zero"
    bint shortage_nobody      # option_shortage == "nobody"
    bint take_first           # insider_order == "take_first"
    bint last_card            # empty_draw == "last_card"
    bint crash_one            # crash_counts_one
    bint keep_saved           # keep_saved_events
    bint tie_random           # dealer_tie == "random"
    bint final_tokens         # final_tie == "most_tokens"


cdef struct ts_core:
    ts_rules r
    uint64_t seed
    bint from_deal
    int32_t round
    int32_t dealer
    int32_t turn
    int32_t cur               # -1 once the game is over
    int32_t phase
    int32_t supply
    int32_t ev_active
    int32_t follow
    int32_t ev_stock
    int32_t owed
    int32_t reshuffles
    int32_t npools            # len(hand_pool[q]) in the reference
    int8_t end_reason
    int8_t rows[TS_STOCKS][TS_VALUES]    # values, bottom (the 1) first
    int8_t row_len[TS_STOCKS]
    int8_t splits[TS_STOCKS]
    int8_t frozen[TS_STOCKS]
    int8_t hands[TS_SEATS][TS_CARDS]     # sorted
    int8_t hand_len[TS_SEATS]
    int8_t certs[TS_SEATS][TS_CARDS]     # in the order saved
    int8_t cert_len[TS_SEATS]
    int8_t known[TS_SEATS][TS_CARDS]
    int8_t known_len[TS_SEATS]
    int8_t hidden[TS_SEATS][TS_CARDS]
    int8_t hidden_len[TS_SEATS]
    int8_t saved[TS_SEATS][TS_EVENT_CARDS]
    int8_t saved_len[TS_SEATS]
    int32_t tokens[TS_SEATS]
    int32_t totals[TS_SEATS]
    int8_t draw[TS_CARDS]                # the top card is the last
    int8_t draw_len
    int8_t discard[TS_CARDS]
    int8_t discard_len
    int8_t ev_above[TS_EVENT_CARDS]      # the top card is the last
    int8_t ev_above_len
    int8_t ev_below[TS_EVENT_CARDS]
    uint8_t ev_below_mask[TS_EVENT_CARDS]
    int8_t ev_below_len
    int8_t ev_discard[TS_EVENT_CARDS]
    uint8_t ev_discard_mask[TS_EVENT_CARDS]
    int8_t ev_discard_len
    int16_t pool_of[TS_CARDS]
    int8_t pair[2]
    int8_t pair_len
    int8_t retrieved[TS_RETRIEVED]
    int8_t retrieved_len
    int8_t queue[TS_SEATS]
    int8_t queue_len
    int32_t round_scores[TS_ROUNDS][TS_SEATS]
    int8_t round_reasons[TS_ROUNDS]
    int8_t scored                        # len(round_scores)
    int16_t legal[TS_MAX_LEGAL]
    int16_t legal_len
    bint legal_ok
    int64_t market            # counts changes of rows, splits and frozen (views cache by it)


cdef struct ts_buf:
    # An append-only buffer of int32 shared by clones: each state knows its own length, and
    # writes in place only where no other state has written (else it copies its part first).
    Py_ssize_t refs
    Py_ssize_t used
    Py_ssize_t cap


# The fields as Python reads them: a base class generated at build time (setup.py).
cdef class _StateFields:
    pass


cdef class State(_StateFields):
    cdef ts_core c
    cdef readonly object game
    cdef ts_buf *log_buf          # compact log records (after the entries of log_cache)
    cdef Py_ssize_t log_len
    cdef ts_buf *hist_buf         # the history, one action per int32
    cdef Py_ssize_t hist_len
    cdef list log_cache           # the log as Python entries, shared with clones
    cdef Py_ssize_t cache_entries  # how many entries of log_cache are this state's
    cdef Py_ssize_t cache_offset   # how much of log_buf they cover
    cdef tuple stock_rows          # the views' five StockRow, made when c.market was ...
    cdef int64_t stock_rows_at     # ... this

    cdef int apply_unchecked(self, int action) except -1
    cdef State copy(self)
    cdef list _entries(self)
    cdef object _illegal(self, object action)
    cdef bint log_is(self, list entries) except -1


# The rules the compiled bot shares with the engine, written once here (their reference is
# closingbell.games.take_stock.queries, of the same names less the prefix).

cdef inline int ts_row_count(int length, int splits, bint frozen, bint limit_freeze) noexcept nogil:
    """What a row counts for the Limit rule: cards and splits, and its freeze if counted."""
    return length + splits + (1 if frozen and limit_freeze else 0)


cdef inline int ts_scoring_price(int price, bint frozen, bint frozen_zero) noexcept nogil:
    """What one share of a stock at ``price`` scores: nothing if frozen under "zero"."""
    return 0 if frozen and frozen_zero else price


cdef inline int ts_crash_keeps(int length, bint crash_one) noexcept nogil:
    """How many of a row's ``length`` cards a crash leaves (half go, the 1 counted or not)."""
    return length - (length if crash_one else length - 1) // 2


cdef void ts_compute_legal(ts_core *c) noexcept nogil
cdef bint ts_is_legal(ts_core *c, int action) noexcept nogil
cdef State ts_blank(object game, uint64_t seed)
cdef int ts_seal(State st) except -1
cdef bint ts_share_cards_complete(const ts_core *c) noexcept nogil
cdef bint ts_event_cards_complete(const ts_core *c) noexcept nogil
cdef bint ts_pools_outside_hands_hold(const ts_core *c, int draw_pool) noexcept nogil
