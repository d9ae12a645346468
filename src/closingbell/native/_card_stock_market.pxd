# The compiled Card Stock Market state, for Cython modules that cimport it
# (cimport closingbell.native._card_stock_market): bots, encoders and samplers read and
# build states here in C. The layout mirrors the reference fields
# (closingbell/games/card_stock_market/state.py), one C array per list, each with its
# length beside it; cards are kinds (suit * 13 + rank - 1, 52 a joker), seats 0 to n - 1.
from libc.stdint cimport int64_t, uint64_t

# The game's numbers, generated at build time from closingbell.games.card_stock_market's
# data modules (setup.py): card counts and limits (CSM_SUITS, CSM_KINDS, CSM_HAND...),
# action ids (CSM_A_*, CSM_NUM_ACTIONS) and decision kinds (``phase``, CSM_PH_*).
include "_card_stock_market_ids.pxi"

cdef enum:
    CSM_MAX_SEATS = 6
    CSM_PILE_CAP = 26       # a market pile holds cards of its suit only: 2 x 13 at most
    CSM_CERT_CAP = 32       # 12 shares of each suit take at most 6 certificates
    CSM_DECK_CAP = 106      # 104 suit cards and 2 jokers
    CSM_EVENTS_CAP = 224    # a seat's record since the reshuffle: 8 + 106 plays, 106 draws
    CSM_LEGAL_CAP = 64      # at most 8 buys, 24 sells, 8 + 8 market changes, 8 discards, done

ctypedef struct csm_rules:
    # The game's options, as the engine reads them (copied from the game object).
    int n                       # seats
    int rise[CSM_SUITS]         # the strip's largest rise per card, by suit
    int fall[CSM_SUITS]         # the strip's largest fall per card, by suit
    bint bank_limited           # the bank can run short (levies happen)
    bint immediate_repay        # money received goes to a debt first
    bint bankrupt_free          # a bankrupt suit may be bought at $0
    bint same_suit_trades       # one turn may buy and sell the same suit
    bint face_raise_limited     # a face card's raise respects the strip
    bint trade_first            # no trading once the market has changed in a turn
    bint same_price_change      # a market change may leave the market as it was
    bint ace_at_setup           # an ace may start a market pile
    int first_dealer            # the first dealer, -1: drawn from the seed
    int64_t levy                # what each seat pays at a levy
    int64_t starting_money
    int64_t bank_money          # 0 when the bank is unlimited

ctypedef struct csm_fields:
    # Every field of the reference state but the log, the history and from_deal.
    uint64_t seed
    int dealer
    int turn
    int64_t turns
    int cur                     # -1: None (the game is over)
    int phase                   # CSM_PH_*
    signed char piles[CSM_SUITS][CSM_PILE_CAP]   # bottom first
    int pile_len[CSM_SUITS]
    signed char busted[CSM_SUITS]
    int prices[CSM_SUITS]
    signed char hands[CSM_MAX_SEATS][CSM_HAND]   # sorted
    int hand_len[CSM_MAX_SEATS]
    signed char certs[CSM_MAX_SEATS][CSM_CERT_CAP]   # sorted
    int cert_len[CSM_MAX_SEATS]
    int held[CSM_MAX_SEATS][CSM_SUITS]
    int64_t cash[CSM_MAX_SEATS]
    int64_t debt[CSM_MAX_SEATS]
    int64_t bank
    int64_t levies
    signed char draw[CSM_DECK_CAP]   # the top card last
    int draw_len
    signed char discard[CSM_DECK_CAP]   # in the order discarded
    int discard_len
    int jokers_out
    int joker_by
    signed char reshuffled
    signed char re_pile[CSM_DECK_CAP]   # sorted
    int re_pile_len
    int re_hands_n              # the number of lists in re_hands (0 before the reshuffle)
    signed char re_hands[CSM_MAX_SEATS][CSM_HAND]
    int re_hand_len[CSM_MAX_SEATS]
    int re_drawn_n
    signed char re_drawn[CSM_MAX_SEATS][CSM_DECK_CAP]
    int re_drawn_len[CSM_MAX_SEATS]
    int re_events_n
    signed char re_events[CSM_MAX_SEATS][CSM_EVENTS_CAP]
    int re_events_len[CSM_MAX_SEATS]
    int trades
    int sales
    int changes
    int discards
    int bought                  # a bit per suit
    int sold
    # The legal actions of the pending decision, valid while legal_valid is set.
    signed char legal_valid
    int legal_len
    unsigned char legal[CSM_LEGAL_CAP]


cdef class _Tape:
    # An append-only buffer shared by clones: a state may write past its own length only
    # while nobody has written past it (fill == its length); otherwise it copies first.
    cdef int64_t *data
    cdef Py_ssize_t fill
    cdef Py_ssize_t cap


# The fields as Python reads them: a base class generated at build time (setup.py).
cdef class _StateFields:
    pass


cdef class State(_StateFields):
    cdef csm_rules rules
    cdef csm_fields f
    cdef readonly object game
    cdef bint deal                  # from_deal
    cdef _Tape log_tape             # the log as records: a header (kind | length << 8), values
    cdef Py_ssize_t log_len
    cdef _Tape hist_tape            # the history, one action a word
    cdef Py_ssize_t hist_len
    cdef tuple log_prefix           # entries read from a reference state, before the records
    cdef list log_cache             # the records turned into entries so far (or None)
    cdef Py_ssize_t log_cache_pos   # where in log_tape log_cache stops

    # Fill f.legal for the pending decision unless it is already valid.
    cdef int compute_legal(self) except -1
    # Apply ``action`` WITHOUT ANY CHECK (for search): it must be legal now. Records it in
    # the history and invalidates the legal actions, as apply does.
    cdef int apply_unchecked(self, int action) except -1
    # An independent copy (the structs copied, the log and history shared until written).
    cdef State copy(self)
    # Forget the cached legal actions and log entries after writing fields directly.
    cdef void invalidate(self)
    # Whether the log equals ``entries``, its records decoded and compared one at a time.
    cdef bint log_is(self, list entries) except -1


# A state of ``game`` with every field zero or empty (cur 0, phase 0, no history, no log),
# to be filled field by field in C; call invalidate() after writing to a live state.
cdef State blank_state(object game)
