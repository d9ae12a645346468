# The rule-based Take Stock bot in C, for other compiled modules:
#     from closingbell.native._take_stock_bot cimport ts_params, ts_view, ts_pick, ts_evaluate
# A module that holds a compiled game state fills a ts_view for one seat itself (what that
# seat's view would hold; ts_fill_from_state does it for the compiled engine's states) and
# calls ts_pick / ts_evaluate, skipping the view object.

# The engine's names share the TS_ prefix with this file's: they are reached as eng.NAME.
cimport closingbell.native._take_stock as eng

# The game's numbers (TS_STOCKS, TS_CARDS, action ids TS_A_*, event kinds TS_K_*...),
# generated at build time from closingbell.games.take_stock's data modules (setup.py).
include "_take_stock_ids.pxi"

cdef enum:
    TS_ROW = 12            # a row holds each value at most once
    TS_LIST = 64           # room for any list of share cards

# The pending decision, as the bot groups them.
cdef enum:
    TS_OTHER = 0
    TS_ACTION
    TS_DISCARD             # discard, insider_discard, downturn_discard
    TS_CHOOSE_EVENT
    TS_AUDIT_STOCK
    TS_AUDIT_WHAT
    TS_FREEZE_STOCK
    TS_RETRIEVE
    TS_EXERCISE

# What went wrong, where the reference would raise (only on views no valid state gives).
cdef enum:
    TS_OK = 0
    TS_ZERO_DIVISION       # ZeroDivisionError: float division by zero
    TS_INDEX               # IndexError: list index out of range
    TS_NO_STOCK            # AssertionError: an audit_what decision without its stock
    TS_BAD_ACTION          # an action of another decision (never from the view's legal ones)

ctypedef struct ts_weights:
    # Every number of TakeStockWeights, as doubles.
    double growth
    double cap
    double upside
    double downside
    double frozen_downside
    double full_round_events
    double alpha_high
    double alpha_low
    double raise_option
    double limit_bonus
    double token_value
    double saved_event
    double hold
    double end_bias
    double end_lead
    double lead_scale
    double leader_weight

ctypedef struct ts_params:
    # The bot's settings: its weights and the game's options it reads.
    ts_weights w
    int shares[13]         # shares per card value (indices 0 and 1 unused)
    int groups             # distinct share counts among values 2 to 12
    int group_of[13]       # each value's index among them
    int group_shares[11]   # the share count of each
    bint zero_frozen       # frozen_scoring == "zero"
    bint limit_counts_freeze
    bint take_first        # insider_order == "take_first"
    bint crash_counts_one

ctypedef struct ts_view:
    # Everything the bot reads of one seat's view (TakeStockView's fields of the same names).
    int seat
    int players
    int round
    int rounds
    int event_pile
    int decision           # a TS_ decision code
    int event_stock        # -1: none
    int rows[TS_STOCKS][TS_ROW]
    int row_len[TS_STOCKS]
    int splits[TS_STOCKS]
    bint frozen[TS_STOCKS]
    int price[TS_STOCKS]
    int hand[TS_LIST]
    int hand_len
    int own_hidden[TS_LIST]
    int own_hidden_len
    int discard[TS_LIST]   # discard_pile, sorted
    int discard_len
    int retrieved[TS_LIST]
    int retrieved_len
    int certs[TS_SEATS][TS_LIST]
    int certs_len[TS_SEATS]
    long long scores[TS_SEATS]
    int tokens[TS_SEATS]
    int hand_sizes[TS_SEATS]
    # Event cards of each kind this seat knows are out of the event pile: those known in
    # the event discard and under Market Closed, its saved events, the two drawn ones and
    # the pending event.
    int events_seen[TS_KINDS]

cdef int ts_fill_view(ts_view *out, object view) except -1
cdef void ts_fill_from_state(ts_view *out, const eng.ts_core *c, int seat) noexcept nogil
cdef int ts_pick(const ts_params *params, const ts_view *view, const int *legal, int nlegal,
                 int *error) noexcept nogil
cdef double ts_evaluate(const ts_params *params, const ts_view *view, int *error) noexcept nogil

cdef class TakeStockBot:
    cdef ts_params params
