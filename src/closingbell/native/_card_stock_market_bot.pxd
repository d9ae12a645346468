# The rule-based Card Stock Market bot in C (cimport closingbell.native._card_stock_market_bot).
#
# Two layers: CsmView holds everything the bot reads of one seat's view, and the csm_*
# functions decide from it with no Python object in sight. csm_fill_view fills a CsmView
# from a CardStockMarketView; csm_fill_state fills the same bytes straight from a state of
# the compiled engine for one seat, so that csm_pick chooses alike without a view.
from closingbell.native._card_stock_market cimport State

# The game's numbers (CSM_SUITS, CSM_RANKS, CSM_KINDS, action ids CSM_A_*...), generated
# at build time from closingbell.games.card_stock_market's data modules (setup.py).
include "_card_stock_market_ids.pxi"

cdef enum:
    CSM_PRICES = CSM_MAX_PRICE + 1   # prices 0 to 13
    CSM_MAX_PLAYERS = 6
    CSM_MAX_SUIT_HAND = 26      # cards of one suit in a hand: both copies of each rank
    CSM_MAX_MOVES = 176         # per suit: 13 buys, 13 sales, 13 changes, 3 bankruptcies
    CSM_DECISION_TURN = 0
    CSM_DECISION_TRADING = 1
    CSM_DECISION_MARKET = 2
    CSM_DECISION_DISCARDING = 3
    CSM_DECISION_OTHER = 4

ctypedef struct CsmParams:
    # The rules options the plans follow.
    int rise[4]
    int fall[4]
    bint limited            # face_raise_limited
    bint free               # bankrupt_buying == "free"
    bint same_suit          # same_suit_trades
    long long levy
    bint immediate          # debt_repayment == "immediate"
    bint trade_first        # phase_order == "trade_first"
    bint same_price         # same_price_change
    # The bot's weights (CardStockMarketHeuristic.MEAN_PRICE ... RATE).
    double mean_price
    double drift
    double face_drift
    double hazard
    double hand_weight
    double spare
    double leader_weight
    double debt_penalty
    double progress
    long long beam
    double rate

ctypedef struct CsmView:
    # What the bot reads of one seat's view.
    int players
    int seat
    int decision                    # CSM_DECISION_*
    int turn_number
    int draw_pile                   # cards in the draw pile
    bint reshuffled
    int discards                    # cards in the discard pile
    int price[4]
    bint face[4]                    # a face card tops the market pile
    int pile_len[4]
    long long cash[6]
    long long debts[6]
    int shares[6][4]
    long long bank                  # -1: an unlimited bank
    int trades
    int changes
    int bought                      # the suits bought this turn, as sum(1 << suit)
    int sold                        # ... and sold
    int hand_len
    signed char hand[104]           # the seat's hand (kinds), in the view's order
    int certs[4][14]                # the seat's certificates: count by suit and rank
    int seen[52]                    # copies of each kind in hand, discards, certificates, piles

ctypedef struct CsmMove:
    double value
    int kind
    int suit
    int rank

ctypedef struct CsmDiscard:
    double gain
    int card

ctypedef struct CsmNode:
    # One point in a planned turn (the reference's _Node).
    int price[4]
    bint face[4]
    int hme[4]
    double hopp[4]
    signed char hand[4][26]         # ranks, in the order the reference keeps them
    int hand_len[4]
    int certs[4][14]
    double sv[4]
    long long cash
    long long debt
    long long bank
    long long ocash[5]
    int n_opp
    int levies
    int trades
    int changes
    int phase
    int bought
    int sold
    int used
    int first                       # the plan's first action, -1 at the root
    double value

ctypedef struct CsmPlanner:
    # Everything one decision needs (the reference's _Planner).
    const CsmParams *params
    double table[4][2][14]          # expected sale price by suit, face on top, price now
    double opp_weight
    double baseline
    CsmNode root

cdef int csm_fill_view(CsmView *out, object view) except -1
cdef int csm_fill_state(CsmView *out, State state, int seat) except -1
cdef void csm_plan(CsmPlanner *planner, const CsmParams *params, const CsmView *view) noexcept nogil
cdef int csm_moves(const CsmPlanner *planner, const CsmNode *node, CsmMove *out) noexcept nogil
cdef void csm_play(const CsmPlanner *planner, const CsmNode *node, const CsmMove *move, CsmNode *child) noexcept nogil
cdef int csm_discard_order(const CsmPlanner *planner, CsmDiscard *out) noexcept nogil
cdef int csm_pick(const CsmParams *params, const CsmView *view, const unsigned char *allowed) noexcept nogil

cdef class Planner:
    # The bot's settings, read by csm_pick (a module holding a compiled state passes them).
    cdef CsmParams params
    cdef dict settings
