# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Batches of compiled games stepped together, observed straight from their C fields.

This is the core of :mod:`closingbell.envs.vector`. A :class:`Batch` holds N compiled
states of one game (Take Stock or Card Stock Market) and steps them all from an array of
actions: the learner's action, then the other seats' bots up to the learner's next
decision (``step_learner``), or one action per game whatever its seat (``step_selfplay``).
Observations and action masks are written into preallocated rows by ``ts_encode`` and
``csm_encode``, which read only what the observing seat's view holds and give, element
for element, what ``closingbell.envs.encoding`` makes of that view
(``docs/observations.md``); the tests compare the two on every step of random games.

No Python object is made per step: a ``random`` bot draws from its own Mersenne Twister
in C, seeded as :class:`closingbell.bots.base.RandomBot` seeds its generator, so it makes
the same choices, and the rule-based bot's compiled procedure (``_take_stock_bot``,
``_card_stock_market_bot``) reads the struct it decides from straight from the state, as
it would read it from the seat's view. Other bots are Python objects, called with their
seat's view. A learner's episode is dealt by :meth:`Batch.start` from its number (the
draws of ``closingbell.envs.gymnasium.draw_episode``, in C), and a self-play game that
ends is dealt anew within the step from the game's own generator (``fresh_seed``, in C);
the engine's ``new_game`` makes the state, the one Python object a game. The final
rewards are left to the caller.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdio cimport snprintf
from libc.string cimport memset

from closingbell.native._card_stock_market cimport State as CsmState
from closingbell.native._card_stock_market cimport CSM_NUM_ACTIONS, csm_fields, csm_rules
from closingbell.native._card_stock_market cimport CSM_KINDS as CSM_SUIT_KINDS
from closingbell.native._card_stock_market cimport CSM_PHASES, CSM_RANKS, CSM_SUITS
from closingbell.native._card_stock_market_bot cimport CsmView, Planner, csm_pick
from closingbell.native._card_stock_market_bot cimport CSM_DECISION_TURN as BOT_CSM_TURN
from closingbell.native._card_stock_market_bot cimport CSM_DECISION_TRADING as BOT_CSM_TRADING
from closingbell.native._card_stock_market_bot cimport CSM_DECISION_MARKET as BOT_CSM_MARKET
from closingbell.native._card_stock_market_bot cimport (
    CSM_DECISION_DISCARDING as BOT_CSM_DISCARDING,
)
from closingbell.native._card_stock_market_bot cimport CSM_DECISION_OTHER as BOT_CSM_OTHER
from closingbell.native._random cimport (
    cb_genrand_uint32,
    cb_random,
    cb_randbelow,
    cb_seed_text,
)

cdef extern from "pyrandom.h":
    void cb_init_by_array(cb_random *r, const uint32_t *key, size_t key_length)
from closingbell.native._take_stock cimport State as TsState
from closingbell.native._take_stock cimport TS_MAX_LEGAL, ts_compute_legal, ts_core, ts_is_legal
from closingbell.native._take_stock cimport (
    TS_CARDS,
    TS_KINDS,
    TS_PH_CHOOSE,
    TS_PH_OVER,
    TS_PHASES,
    TS_STOCKS,
    TS_VALUES,
)
from closingbell.native._take_stock_bot cimport TakeStockBot, ts_pick, ts_view
from closingbell.native._take_stock_bot cimport TS_OTHER as BOT_TS_OTHER
from closingbell.native._take_stock_bot cimport TS_ACTION as BOT_TS_ACTION
from closingbell.native._take_stock_bot cimport TS_DISCARD as BOT_TS_DISCARD
from closingbell.native._take_stock_bot cimport TS_CHOOSE_EVENT as BOT_TS_CHOOSE_EVENT
from closingbell.native._take_stock_bot cimport TS_AUDIT_STOCK as BOT_TS_AUDIT_STOCK
from closingbell.native._take_stock_bot cimport TS_AUDIT_WHAT as BOT_TS_AUDIT_WHAT
from closingbell.native._take_stock_bot cimport TS_FREEZE_STOCK as BOT_TS_FREEZE_STOCK
from closingbell.native._take_stock_bot cimport TS_RETRIEVE as BOT_TS_RETRIEVE
from closingbell.native._take_stock_bot cimport TS_EXERCISE as BOT_TS_EXERCISE

from closingbell.games.card_stock_market import cards as _CC
from closingbell.games.card_stock_market import state as _CS
from closingbell.games.take_stock import cards as _TC
from closingbell.games.take_stock import state as _TS
from closingbell.games.take_stock.views import FOLLOW_NAMES as _FOLLOW_NAMES
from closingbell.native._card_stock_market import State as _CsmState
from closingbell.native._take_stock import State as _TsState

# ---------------------------------------------------------------------- the games' numbers

cdef enum:
    GAME_TS = 0
    GAME_CSM = 1
    SEATS = 6
    SEAT_LEARNER = 0          # who plays a seat: the learner (or nobody)
    SEAT_RANDOM = 1           # a random bot, in C
    SEAT_HEURISTIC = 2        # the rule-based bot's compiled procedure, in C
    SEAT_PYTHON = 3           # a bot object, called with the seat's view

    # Take Stock: the encoding channels of docs/observations.md (its card ids and decision
    # codes are the engine's, generated from the data modules).
    TS_CH_HAND = 0
    TS_CH_OWN_HIDDEN = 1
    TS_CH_MARKET = 2
    TS_CH_DISCARD = 3
    TS_CH_RETRIEVED = 4
    TS_CH_UNSEEN = 5
    TS_CH_SEATS = 6           # certificates of relative seat 0 ..., then known hands
    TS_EV_SAVED = 0
    TS_EV_DRAWN = 1
    TS_EV_PENDING = 2
    TS_EV_BELOW_KNOWN = 3
    TS_EV_BELOW_PUBLIC = 4
    TS_EV_DISCARD_KNOWN = 5
    TS_EV_DISCARD_PUBLIC = 6

    # Card Stock Market (its suits and ranks are the engine's, generated from the data).
    CSM_KINDS = CSM_SUIT_KINDS + 1   # 52 suit cards and the joker
    CSM_FACE_RANK = 10        # rank index (rank - 1) of the jack and above
    CSM_CH_HAND = 0
    CSM_CH_PILES = 1
    CSM_CH_TOPS = 2
    CSM_CH_DISCARD = 3
    CSM_CH_RESHUFFLE = 4
    CSM_CH_RESHUFFLE_HIDDEN = 5
    CSM_CH_OWN_RESHUFFLE = 6
    CSM_CH_OWN_DRAWN = 7
    CSM_CH_SEATS = 8          # certificates of relative seat 0 ..., then plays since


# The scales of docs/observations.md, read from the rules' tables.
cdef double TS_TOP_SCALE = _TC.VALUES
cdef double TS_DRAW_SCALE = len(_TC.SHARE_CARDS)
cdef double TS_TOKENS_SCALE = _TC.TOTAL_TOKENS
cdef double TS_EVENTS_SCALE = _TC.NUM_EVENT_CARDS
cdef double TS_BELOW_SCALE = _TC.CARDS_BELOW_CLOSED
cdef double TS_RETRIEVE_SCALE = _TC.MAX_RETRIEVE
cdef float TS_EVENT_SHARE[TS_KINDS]   # one card of a kind / the deck's copies of it
cdef double CSM_PRICE_SCALE = _CC.MAX_PRICE
cdef double CSM_HAND_SCALE = _CC.HAND_SIZE
cdef double CSM_DRAWN_SCALE = _CC.NUM_KINDS
cdef double CSM_DRAW_SCALE = _CC.DECK_SIZE + _CC.COPIES
cdef double CSM_JOKER_SCALE = _CC.COPIES
cdef double CSM_TRADES_SCALE = _CC.MAX_TRADES
cdef double CSM_CHANGES_SCALE = _CC.MAX_CHANGES
cdef double CSM_DISCARDS_SCALE = _CC.MAX_DISCARDS


# The rule-based bots' decision codes of each engine's decision (phase).
cdef int TS_BOT_DECISION[TS_PHASES]
cdef int CSM_BOT_DECISION[CSM_PHASES]


def _check_tables():
    """Refuse to load if the rules' tables are not those this module was written for."""
    # The face rank is a rule that cards.py writes in is_face, not a number it names.
    if not _CC.is_face(CSM_FACE_RANK) or _CC.is_face(CSM_FACE_RANK - 1):
        raise ImportError("closingbell.native._vector was built for other face cards")
    # pending_discard_for is one-hot in the order save, market A, market B, play: the
    # engine's follow codes 1 to 4.
    if [_FOLLOW_NAMES[code] for code in range(1, 5)] != ["save", "market A", "market B", "play"]:
        raise ImportError("closingbell.native._vector was built for other discard codes")
    for kind in range(TS_KINDS):
        TS_EVENT_SHARE[kind] = <float>(1.0 / _TC.EVENT_DECK[kind])
    ts_codes = {
        "action": BOT_TS_ACTION,
        "discard": BOT_TS_DISCARD,
        "insider_discard": BOT_TS_DISCARD,
        "downturn_discard": BOT_TS_DISCARD,
        "choose_event": BOT_TS_CHOOSE_EVENT,
        "audit_stock": BOT_TS_AUDIT_STOCK,
        "audit_what": BOT_TS_AUDIT_WHAT,
        "freeze_stock": BOT_TS_FREEZE_STOCK,
        "retrieve": BOT_TS_RETRIEVE,
        "exercise": BOT_TS_EXERCISE,
    }
    for phase, name in enumerate(_TS.PHASE_NAMES):
        TS_BOT_DECISION[phase] = ts_codes.get(name, BOT_TS_OTHER)
    csm_codes = {
        "turn": BOT_CSM_TURN,
        "trading": BOT_CSM_TRADING,
        "market": BOT_CSM_MARKET,
        "discarding": BOT_CSM_DISCARDING,
    }
    for phase, name in enumerate(_CS.PHASE_NAMES):
        CSM_BOT_DECISION[phase] = csm_codes.get(name, BOT_CSM_OTHER)


_check_tables()


# ---------------------------------------------------------------------- layouts

ctypedef struct ts_layout:
    # Offsets of the Take Stock fields (Encoder.fields), and the vector's size.
    int size
    int to_move
    int dealer
    int turn_player
    int round
    int decision
    int top
    int splits
    int frozen
    int price
    int share_cards
    int event_kinds
    int hand_sizes
    int saved_counts
    int tokens
    int scores
    int last_round_scores
    int waiting
    int hidden_counts
    int option_supply
    int draw_pile
    int event_pile
    int event_below
    int event_discard
    int owed_discards
    int event_stock
    int pending_discard_for
    int round_end_reason

ctypedef struct csm_layout:
    # Offsets of the Card Stock Market fields, the vector's size and its money scale.
    int size
    double money
    int to_move
    int dealer
    int turn_player
    int turn_number
    int decision
    int price
    int bankrupt
    int top_is_face
    int pile_size
    int max_rise
    int max_fall
    int card_kinds
    int hand_sizes
    int shares
    int cash
    int debts
    int reshuffle_hand_sizes
    int drawn_since_reshuffle
    int joker_drawn_by
    int bank
    int bank_unlimited
    int levies
    int draw_pile
    int jokers_held_out
    int reshuffled
    int turn_counts
    int bought_suits
    int sold_suits


cdef inline uint64_t _getrandbits63(cb_random *r) noexcept:
    """``Random.getrandbits(63)`` (a fresh seed, closingbell.core.rng.fresh_seed)."""
    cdef uint64_t low = cb_genrand_uint32(r)
    cdef uint64_t high = cb_genrand_uint32(r) >> 1
    return low | (high << 32)


cdef inline int _rel(int seat, int q, int n) noexcept nogil:
    """The relative position of seat ``q`` for an observer at ``seat``."""
    return (q - seat + n) % n


# The encoder clips every entry to [0, 1] once the vector is filled. Every entry here is
# clipped as it is written instead, which is the same: the counts only ever grow, so a sum
# clipped at each step reaches 1 exactly when the whole sum does.

cdef inline void _put(float *out, int i, double value) noexcept nogil:
    """Write ``value`` (as a float32, as the encoder stores it) clipped to [0, 1]."""
    cdef float v = <float>value
    if v > 1.0:
        v = 1.0
    elif v < 0.0:
        v = 0.0
    out[i] = v


cdef inline void _add(float *cell, float amount) noexcept nogil:
    """Add ``amount`` (positive) to a count in float32 arithmetic, clipped at 1."""
    cdef float v = cell[0] + amount
    cell[0] = v if v < 1.0 else 1.0


# ---------------------------------------------------------------------- Take Stock's encoding


cdef void ts_encode(ts_core *c, int seat, const ts_layout *L, float *out, int8_t *mask,
                    int num_actions) noexcept nogil:
    """Write seat ``seat``'s observation and action mask of ``c`` (its view's, field by field)."""
    cdef int n = c.r.n
    cdef int q, s, k, r, v, card, bit, public
    cdef bint deciding = c.cur == seat
    cdef float *cards = out + L.share_cards
    cdef float *events = out + L.event_kinds
    cdef float *channel
    cdef uint8_t own[TS_CARDS]
    memset(out, 0, L.size * sizeof(float))
    memset(mask, 0, num_actions)
    if c.cur < 0:
        out[L.to_move + n] = 1.0
    else:
        out[L.to_move + _rel(seat, c.cur, n)] = 1.0
    out[L.dealer + _rel(seat, c.dealer, n)] = 1.0
    out[L.turn_player + _rel(seat, c.turn, n)] = 1.0
    _put(out, L.round, <double>c.round / c.r.rounds)
    out[L.decision + c.phase] = 1.0
    for s in range(TS_STOCKS):
        _put(out, L.top + s, c.rows[s][c.row_len[s] - 1] / TS_TOP_SCALE)
        _put(out, L.splits + s, c.splits[s] / 3.0)
        out[L.frozen + s] = 1.0 if c.frozen[s] else 0.0
        _put(out, L.price + s, c.rows[s][c.row_len[s] - 1] * (c.splits[s] + 1) / 48.0)
    # share cards: where each card is, as far as the seat knows
    memset(own, 0, TS_CARDS)
    channel = cards + TS_CH_HAND * TS_CARDS
    for k in range(c.hand_len[seat]):
        channel[c.hands[seat][k]] = 1.0
        own[c.hands[seat][k]] = 1
    channel = cards + TS_CH_OWN_HIDDEN * TS_CARDS
    for k in range(c.hidden_len[seat]):
        channel[c.hidden[seat][k]] = 1.0
        own[c.hidden[seat][k]] = 1
    channel = cards + TS_CH_MARKET * TS_CARDS
    for s in range(TS_STOCKS):
        for k in range(c.row_len[s]):
            channel[s * TS_VALUES + c.rows[s][k] - 1] = 1.0
    channel = cards + TS_CH_DISCARD * TS_CARDS
    for k in range(c.discard_len):
        channel[c.discard[k]] = 1.0
    channel = cards + TS_CH_RETRIEVED * TS_CARDS
    for k in range(c.retrieved_len):
        channel[c.retrieved[k]] = 1.0
    channel = cards + TS_CH_UNSEEN * TS_CARDS
    for card in range(TS_CARDS):
        # the view's pools: the hidden cards of the deal and of each reshuffle
        if 0 <= c.pool_of[card] < c.npools and not own[card]:
            channel[card] = 1.0
    for q in range(n):
        r = _rel(seat, q, n)
        channel = cards + (TS_CH_SEATS + r) * TS_CARDS
        for k in range(c.cert_len[q]):
            channel[c.certs[q][k]] = 1.0
        if r > 0:
            channel = cards + (TS_CH_SEATS + n + r - 1) * TS_CARDS
            for k in range(c.known_len[q]):
                channel[c.known[q][k]] = 1.0
    # event kinds: counts / the deck's copies
    channel = events + TS_EV_SAVED * TS_KINDS
    for k in range(c.saved_len[seat]):
        _add(&channel[c.saved[seat][k]], TS_EVENT_SHARE[c.saved[seat][k]])
    if deciding and c.phase == TS_PH_CHOOSE:
        channel = events + TS_EV_DRAWN * TS_KINDS
        for k in range(c.pair_len):
            _add(&channel[c.pair[k]], TS_EVENT_SHARE[c.pair[k]])
    if c.ev_active >= 0:
        _add(&events[TS_EV_PENDING * TS_KINDS + c.ev_active], TS_EVENT_SHARE[c.ev_active])
    bit = 1 << seat
    public = (1 << (n + 1)) - 1
    for k in range(c.ev_below_len):
        v = c.ev_below[k]
        if c.ev_below_mask[k] & bit == bit:
            _add(&events[TS_EV_BELOW_KNOWN * TS_KINDS + v], TS_EVENT_SHARE[v])
        if c.ev_below_mask[k] & public == public:
            _add(&events[TS_EV_BELOW_PUBLIC * TS_KINDS + v], TS_EVENT_SHARE[v])
    for k in range(c.ev_discard_len):
        v = c.ev_discard[k]
        if c.ev_discard_mask[k] & bit == bit:
            _add(&events[TS_EV_DISCARD_KNOWN * TS_KINDS + v], TS_EVENT_SHARE[v])
        if c.ev_discard_mask[k] & public == public:
            _add(&events[TS_EV_DISCARD_PUBLIC * TS_KINDS + v], TS_EVENT_SHARE[v])
    # per seat, rotated
    for q in range(n):
        r = _rel(seat, q, n)
        _put(out, L.hand_sizes + r, (c.hand_len[q] + c.hidden_len[q]) / 10.0)
        _put(out, L.saved_counts + r, c.saved_len[q] / 10.0)
        _put(out, L.tokens + r, c.tokens[q] / 10.0)
        _put(out, L.scores + r, max(0, c.totals[q]) / 1000.0)
        if c.scored:
            _put(out, L.last_round_scores + r, max(0, c.round_scores[c.scored - 1][q]) / 400.0)
        _put(out, L.hidden_counts + r, c.hidden_len[q] / 10.0)
    for k in range(c.queue_len):
        out[L.waiting + _rel(seat, c.queue[k], n)] = 1.0
    _put(out, L.option_supply, c.supply / TS_TOKENS_SCALE)
    _put(out, L.draw_pile, c.draw_len / TS_DRAW_SCALE)
    _put(out, L.event_pile, c.ev_above_len / TS_EVENTS_SCALE)
    _put(out, L.event_below, c.ev_below_len / TS_BELOW_SCALE)
    _put(out, L.event_discard, c.ev_discard_len / TS_EVENTS_SCALE)
    _put(out, L.owed_discards, c.owed / TS_RETRIEVE_SCALE)
    if c.ev_stock >= 0:
        out[L.event_stock + c.ev_stock] = 1.0
    if c.follow > 0:
        out[L.pending_discard_for + c.follow - 1] = 1.0
    if c.end_reason >= 0 and c.phase != TS_PH_OVER:
        out[L.round_end_reason + c.end_reason] = 1.0
    if deciding:
        if not c.legal_ok:
            ts_compute_legal(c)
        for k in range(c.legal_len):
            mask[c.legal[k]] = 1


# ---------------------------------------------------------------------- Card Stock Market's


cdef int csm_encode(CsmState st, int seat, const csm_layout *L, float *out, int8_t *mask,
                    int num_actions) except -1:
    """Write seat ``seat``'s observation and action mask of ``st`` (its view's, field by field)."""
    cdef csm_fields *f = &st.f
    cdef csm_rules *rules = &st.rules
    cdef int n = rules.n
    cdef int q, s, k, r, top, entry
    cdef double money = L.money
    cdef float *kinds = out + L.card_kinds
    cdef float *channel
    cdef int64_t drawn[SEATS]
    memset(out, 0, L.size * sizeof(float))
    memset(mask, 0, num_actions)
    if f.cur < 0:
        out[L.to_move + n] = 1.0
    else:
        out[L.to_move + _rel(seat, f.cur, n)] = 1.0
    out[L.dealer + _rel(seat, f.dealer, n)] = 1.0
    out[L.turn_player + _rel(seat, f.turn, n)] = 1.0
    _put(out, L.turn_number, f.turns / 200.0)
    out[L.decision + f.phase] = 1.0
    for s in range(CSM_SUITS):
        top = f.piles[s][f.pile_len[s] - 1]
        _put(out, L.price + s, f.prices[s] / CSM_PRICE_SCALE)
        out[L.bankrupt + s] = 1.0 if f.busted[s] else 0.0
        out[L.top_is_face + s] = 1.0 if top % CSM_RANKS >= CSM_FACE_RANK else 0.0
        _put(out, L.pile_size + s, f.pile_len[s] / 40.0)
        _put(out, L.max_rise + s, rules.rise[s] / CSM_PRICE_SCALE)
        _put(out, L.max_fall + s, rules.fall[s] / CSM_PRICE_SCALE)
        for k in range(f.pile_len[s]):
            _add(&kinds[CSM_CH_PILES * CSM_KINDS + f.piles[s][k]], 0.5)
        _add(&kinds[CSM_CH_TOPS * CSM_KINDS + top], 0.5)
    channel = kinds + CSM_CH_HAND * CSM_KINDS
    for k in range(f.hand_len[seat]):
        _add(&channel[f.hands[seat][k]], 0.5)
    channel = kinds + CSM_CH_DISCARD * CSM_KINDS
    for k in range(f.discard_len):
        _add(&channel[f.discard[k]], 0.5)
    channel = kinds + CSM_CH_RESHUFFLE * CSM_KINDS
    for k in range(f.re_pile_len):
        _add(&channel[f.re_pile[k]], 0.5)
    channel = kinds + CSM_CH_RESHUFFLE_HIDDEN * CSM_KINDS
    for q in range(f.re_hands_n):
        for k in range(f.re_hand_len[q]):
            _add(&channel[f.re_hands[q][k]], 0.5)
    if f.reshuffled:
        channel = kinds + CSM_CH_OWN_RESHUFFLE * CSM_KINDS
        for k in range(f.re_hand_len[seat]):
            _add(&channel[f.re_hands[seat][k]], 0.5)
        channel = kinds + CSM_CH_OWN_DRAWN * CSM_KINDS
        for k in range(f.re_drawn_len[seat]):
            _add(&channel[f.re_drawn[seat][k]], 0.5)
    for q in range(n):
        r = _rel(seat, q, n)
        drawn[q] = 0
        channel = kinds + (CSM_CH_SEATS + r) * CSM_KINDS
        for k in range(f.cert_len[q]):
            _add(&channel[f.certs[q][k]], 0.5)
        if q < f.re_events_n:
            channel = kinds + (CSM_CH_SEATS + n + r) * CSM_KINDS
            for k in range(f.re_events_len[q]):
                entry = f.re_events[q][k]
                if entry >= 0:
                    _add(&channel[entry], 0.5)
                else:
                    drawn[q] -= entry
    for q in range(n):
        r = _rel(seat, q, n)
        _put(out, L.hand_sizes + r, f.hand_len[q] / CSM_HAND_SCALE)
        for s in range(CSM_SUITS):
            # the encoder divides a float32 vector of shares by 12, in float32
            _put(out, L.shares + r * CSM_SUITS + s, (<float>f.held[q][s]) / <float>12.0)
        _put(out, L.cash + r, f.cash[q] / money)
        _put(out, L.debts + r, f.debt[q] / money)
        if f.re_hands_n:
            _put(out, L.reshuffle_hand_sizes + r, f.re_hand_len[q] / 8.0)
        _put(out, L.drawn_since_reshuffle + r, drawn[q] / CSM_DRAWN_SCALE)
    if f.joker_by >= 0:
        out[L.joker_drawn_by + _rel(seat, f.joker_by, n)] = 1.0
    if rules.bank_limited:
        _put(out, L.bank, f.bank / money)
    else:
        out[L.bank_unlimited] = 1.0
    _put(out, L.levies, f.levies / 10.0)
    _put(out, L.draw_pile, f.draw_len / CSM_DRAW_SCALE)
    _put(out, L.jokers_held_out, f.jokers_out / CSM_JOKER_SCALE)
    out[L.reshuffled] = 1.0 if f.reshuffled else 0.0
    _put(out, L.turn_counts, f.trades / CSM_TRADES_SCALE)
    _put(out, L.turn_counts + 1, f.sales / CSM_TRADES_SCALE)
    _put(out, L.turn_counts + 2, f.changes / CSM_CHANGES_SCALE)
    _put(out, L.turn_counts + 3, f.discards / CSM_DISCARDS_SCALE)
    for s in range(CSM_SUITS):
        if f.bought & (1 << s):
            out[L.bought_suits + s] = 1.0
        if f.sold & (1 << s):
            out[L.sold_suits + s] = 1.0
    if f.cur == seat:
        if not f.legal_valid:
            st.compute_legal()
        for k in range(f.legal_len):
            mask[f.legal[k]] = 1
    return 0



# ---------------------------------------------------------------------- the rule-based bots


cdef void ts_bot_view(ts_core *c, int seat, ts_view *v) noexcept nogil:
    """What the rule-based Take Stock bot reads of ``seat``'s view, from the state."""
    cdef int n = c.r.n
    cdef int s, q, k, j, card, bit = 1 << seat
    v.seat = seat
    v.players = n
    v.round = c.round
    v.rounds = c.r.rounds
    v.event_pile = c.ev_above_len
    v.decision = TS_BOT_DECISION[c.phase]
    v.event_stock = c.ev_stock
    for s in range(TS_STOCKS):
        v.row_len[s] = c.row_len[s]
        for k in range(c.row_len[s]):
            v.rows[s][k] = c.rows[s][k]
        v.splits[s] = c.splits[s]
        v.frozen[s] = c.frozen[s] != 0
        v.price[s] = c.rows[s][c.row_len[s] - 1] * (c.splits[s] + 1)
    v.hand_len = c.hand_len[seat]
    for k in range(v.hand_len):
        v.hand[k] = c.hands[seat][k]
    v.own_hidden_len = c.hidden_len[seat]
    for k in range(v.own_hidden_len):
        v.own_hidden[k] = c.hidden[seat][k]
    v.discard_len = c.discard_len
    for k in range(c.discard_len):
        # the view's discard pile is sorted
        card = c.discard[k]
        j = k
        while j > 0 and v.discard[j - 1] > card:
            v.discard[j] = v.discard[j - 1]
            j -= 1
        v.discard[j] = card
    v.retrieved_len = c.retrieved_len
    for k in range(c.retrieved_len):
        v.retrieved[k] = c.retrieved[k]
    for q in range(n):
        v.certs_len[q] = c.cert_len[q]
        for k in range(c.cert_len[q]):
            v.certs[q][k] = c.certs[q][k]
        v.scores[q] = c.totals[q]
        v.tokens[q] = c.tokens[q]
        v.hand_sizes[q] = c.hand_len[q] + c.hidden_len[q]
    memset(v.events_seen, 0, sizeof(v.events_seen))
    for k in range(c.ev_discard_len):
        if c.ev_discard_mask[k] & bit == bit:
            v.events_seen[c.ev_discard[k]] += 1
    for k in range(c.ev_below_len):
        if c.ev_below_mask[k] & bit == bit:
            v.events_seen[c.ev_below[k]] += 1
    for k in range(c.saved_len[seat]):
        v.events_seen[c.saved[seat][k]] += 1
    if c.cur == seat and c.phase == TS_PH_CHOOSE:
        for k in range(c.pair_len):
            v.events_seen[c.pair[k]] += 1
    if c.ev_active >= 0:
        v.events_seen[c.ev_active] += 1


cdef void csm_bot_view(CsmState st, int seat, CsmView *v) noexcept:
    """What the rule-based Card Stock Market bot reads of ``seat``'s view, from the state."""
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef int s, q, k, card
    memset(v, 0, sizeof(CsmView))
    v.players = n
    v.seat = seat
    v.decision = CSM_BOT_DECISION[f.phase]
    v.turn_number = <int>f.turns
    v.draw_pile = f.draw_len
    v.reshuffled = f.reshuffled != 0
    for s in range(CSM_SUITS):
        v.price[s] = f.prices[s]
        v.pile_len[s] = f.pile_len[s]
        for k in range(f.pile_len[s]):
            v.seen[f.piles[s][k]] += 1
        v.face[s] = f.piles[s][f.pile_len[s] - 1] % CSM_RANKS >= CSM_FACE_RANK
    v.discards = f.discard_len
    for k in range(f.discard_len):
        v.seen[f.discard[k]] += 1
    v.hand_len = f.hand_len[seat]
    for k in range(f.hand_len[seat]):
        card = f.hands[seat][k]
        v.seen[card] += 1
        v.hand[k] = <signed char>card
    for q in range(n):
        for k in range(f.cert_len[q]):
            card = f.certs[q][k]
            v.seen[card] += 1
            if q == seat:
                v.certs[card // CSM_RANKS][card % CSM_RANKS + 1] += 1
        for s in range(CSM_SUITS):
            v.shares[q][s] = f.held[q][s]
        v.cash[q] = f.cash[q]
        v.debts[q] = f.debt[q]
    v.bank = f.bank if st.rules.bank_limited else -1
    v.trades = f.trades
    v.changes = f.changes
    v.bought = f.bought
    v.sold = f.sold


# ---------------------------------------------------------------------- the batch


cdef class Batch:
    """N compiled games of one game and options, observed for one seat each, stepped as one.

    ``offsets`` maps each field of the game's encoding (``Encoder.fields``) to its offset,
    and ``size`` is the vector's length; ``money`` is Card Stock Market's money scale
    (``Encoder.money``). ``max_steps`` (or -1) truncates a game after that many actions of
    all seats; ``deal(game, seed)`` is the engine's ``new_game``. Games are set with
    :meth:`set_game`, or dealt by :meth:`start` (a learner's episode) and
    :meth:`restart` (self-play).
    """

    cdef int kind
    cdef object game
    cdef readonly int num_envs
    cdef readonly int players
    cdef readonly int size
    cdef readonly int num_actions
    cdef int64_t max_steps
    cdef ts_layout ts
    cdef csm_layout csm
    cdef list states
    cdef list bots
    cdef int *seat                # per game: the learner's seat (-1 in self-play)
    cdef int64_t *steps           # per game: actions of all seats so far
    cdef uint8_t *who             # per game and seat: who plays it (SEAT_*)
    cdef cb_random *rng           # per game and seat: a random bot's generator
    cdef cb_random *game_rng      # per game: where its next game's seed comes from (self-play)
    cdef list finished            # per game: the game a self-play step ended, if any
    # How the batch deals a learner's episodes itself (see ``learners``).
    cdef object deal
    cdef int fixed_seat
    cdef uint8_t opponent_kind[SEATS]
    cdef list opponent_entry
    cdef bytes random_prefix

    def __cinit__(self, object game, int num_envs, dict offsets, int size, double money,
                  long max_steps, object deal):
        self.game = game
        self.deal = deal
        if num_envs < 1:
            raise ValueError("a batch holds at least one game")
        name = game.info.name
        if name == "take_stock":
            self.kind = GAME_TS
            self.ts = dict(offsets, size=size)
        elif name == "card_stock_market":
            self.kind = GAME_CSM
            self.csm = dict(offsets, size=size, money=money)
        else:
            raise ValueError(f"no compiled batch for game {name!r}")
        self.num_envs = num_envs
        self.players = game.players
        self.size = size
        self.num_actions = game.info.num_distinct_actions
        self.max_steps = max_steps
        self.states = [None] * num_envs
        self.bots = [[None] * self.players for _ in range(num_envs)]
        self.seat = <int *>PyMem_Malloc(num_envs * sizeof(int))
        self.steps = <int64_t *>PyMem_Malloc(num_envs * sizeof(int64_t))
        self.who = <uint8_t *>PyMem_Malloc(num_envs * SEATS)
        self.rng = <cb_random *>PyMem_Malloc(num_envs * SEATS * sizeof(cb_random))
        self.game_rng = <cb_random *>PyMem_Malloc(num_envs * sizeof(cb_random))
        self.finished = [None] * num_envs
        if (
            self.seat == NULL or self.steps == NULL or self.who == NULL or self.rng == NULL
            or self.game_rng == NULL
        ):
            raise MemoryError()
        memset(self.seat, 0, num_envs * sizeof(int))
        memset(self.steps, 0, num_envs * sizeof(int64_t))
        memset(self.who, SEAT_LEARNER, num_envs * SEATS)

    def __dealloc__(self):
        PyMem_Free(self.seat)
        PyMem_Free(self.steps)
        PyMem_Free(self.who)
        PyMem_Free(self.rng)
        PyMem_Free(self.game_rng)

    def set_game(self, int i, object state, int seat, list bots):
        """Game ``i`` is now ``state`` (a compiled state), observed by ``seat`` (-1: the seat
        to move); ``bots`` has one entry per seat: ``None`` for a learner's seat, the
        seed text of a random bot's generator (``random.Random(text)``, as bytes: played in
        C), the compiled procedure of a rule-based bot of the game (played in C, as that
        bot plays with no random moves), or a bot object (called with the seat's view)."""
        cdef int q
        if not 0 <= i < self.num_envs or len(bots) != self.players:
            raise ValueError("no such game, or not one bot entry per seat")
        expected = _TsState if self.kind == GAME_TS else _CsmState
        if type(state) is not expected:
            raise TypeError(f"a batch of this game steps {expected.__name__} states")
        self.states[i] = state
        self.seat[i] = seat
        self.steps[i] = 0
        for q in range(self.players):
            entry = bots[q]
            self.who[i * SEATS + q] = SEAT_LEARNER
            self.bots[i][q] = entry
            if entry is None:
                continue
            if isinstance(entry, bytes):
                if cb_seed_text(&self.rng[i * SEATS + q], entry, len(entry)) != 0:
                    raise ValueError("a seed text has 1 to 512 UTF-8 bytes")
                self.who[i * SEATS + q] = SEAT_RANDOM
            elif isinstance(entry, TakeStockBot if self.kind == GAME_TS else Planner):
                self.who[i * SEATS + q] = SEAT_HEURISTIC
            else:
                self.who[i * SEATS + q] = SEAT_PYTHON

    def learners(self, int seat, list kinds, list entries, bytes random_prefix):
        """Let :meth:`start` deal episodes: ``seat`` is the learner's (-1: drawn), and each
        other seat, in order, is played by
        ``kinds[k]`` (1 a random bot, 2 the compiled procedure ``entries[k]``, 3 the bot
        object ``entries[k]``); a random bot's seed text is ``random_prefix`` and its seed."""
        cdef int k
        if len(kinds) != self.players - 1 or len(entries) != self.players - 1:
            raise ValueError("one kind and one entry per other seat are needed")
        if not -1 <= seat < self.players:
            raise ValueError("no such seat")
        for k in range(self.players - 1):
            if kinds[k] not in (SEAT_RANDOM, SEAT_HEURISTIC, SEAT_PYTHON):
                raise ValueError(f"no such kind of seat: {kinds[k]!r}")
            self.opponent_kind[k] = kinds[k]
        self.fixed_seat = seat
        self.opponent_entry = list(entries)
        self.random_prefix = random_prefix

    def start(self, int i, uint64_t episode, float[:, ::1] obs, signed char[:, ::1] mask):
        """Deal game ``i``'s episode number ``episode`` as ``ClosingbellEnv.reset`` does from
        it (``draw_episode``), let the bots play up to the learner, observe it and return
        the learner's seat."""
        cdef cb_random r
        cdef uint32_t key[2]
        cdef uint64_t seeds[SEATS]
        cdef uint64_t game_seed
        cdef int n = self.players
        cdef int k, q, seat, kind, length
        cdef char text[96]
        if self.opponent_entry is None:
            raise RuntimeError("learners() first")
        self._check_rows(obs, mask)
        if not 0 <= i < self.num_envs:
            raise ValueError("no such game")
        # random.Random(episode): the number's 32-bit words, the least significant first
        key[0] = <uint32_t>(episode & 0xFFFFFFFFu)
        key[1] = <uint32_t>(episode >> 32)
        cb_init_by_array(&r, key, 2 if key[1] else 1)
        seat = self.fixed_seat if self.fixed_seat >= 0 else cb_randbelow(&r, n)
        for k in range(n - 1):
            if self.opponent_kind[k] != SEAT_PYTHON:   # a named bot: a seed is drawn for it
                seeds[k] = _getrandbits63(&r)
        game_seed = _getrandbits63(&r)
        state = self.deal(self.game, game_seed)
        self.states[i] = state
        self.seat[i] = seat
        self.steps[i] = 0
        self.who[i * SEATS + seat] = SEAT_LEARNER
        self.bots[i][seat] = None
        k = 0
        for q in range(n):
            if q == seat:
                continue
            kind = self.opponent_kind[k]
            self.who[i * SEATS + q] = kind
            self.bots[i][q] = self.opponent_entry[k]
            if kind == SEAT_RANDOM:
                length = snprintf(text, sizeof(text), b"%s%llu", <char *>self.random_prefix,
                                  <unsigned long long>seeds[k])
                if cb_seed_text(&self.rng[i * SEATS + q], text, length) != 0:
                    raise ValueError("a seed text has 1 to 512 UTF-8 bytes")
            k += 1
        self._play_bots(i)
        self._encode(i, seat, &obs[i, 0], <int8_t *>&mask[i, 0])
        return seat

    def seed_games(self, int i, tuple words):
        """Game ``i``'s next games take their seeds (``fresh_seed``) from the generator
        whose state is ``words`` (``random.Random().getstate()[1]``)."""
        cdef int w
        if not 0 <= i < self.num_envs or len(words) != 625:
            raise ValueError("no such game, or not a generator's state")
        for w in range(624):
            self.game_rng[i].mt[w] = words[w]
        self.game_rng[i].index = words[624]

    cdef int _deal_next(self, int i) except -1:
        """Deal game ``i``'s next game from its generator (every seat a learner)."""
        cdef int q
        state = self.deal(self.game, _getrandbits63(&self.game_rng[i]))
        self.states[i] = state
        self.seat[i] = -1
        self.steps[i] = 0
        for q in range(self.players):
            self.who[i * SEATS + q] = SEAT_LEARNER
            self.bots[i][q] = None
        return 0

    def restart(self, int i, float[:, ::1] obs, signed char[:, ::1] mask):
        """Deal game ``i``'s next game (see :meth:`seed_games`), observe the seat to move
        and return it."""
        cdef int cur
        self._check_rows(obs, mask)
        if not 0 <= i < self.num_envs:
            raise ValueError("no such game")
        self._deal_next(i)
        cur = self._cur(self.states[i])
        self._encode(i, cur, &obs[i, 0], <int8_t *>&mask[i, 0])
        return cur

    def finished_game(self, int i):
        """The game the last self-play step ended in game ``i``'s place (or ``None``)."""
        return self.finished[i]

    def state(self, int i):
        """Game ``i``'s state (the batch's own: do not change it)."""
        return self.states[i]

    cdef inline int _cur(self, object st) noexcept:
        if self.kind == GAME_TS:
            return (<TsState>st).c.cur
        return (<CsmState>st).f.cur

    cdef bint _is_legal(self, object st, int64_t action) except -1:
        cdef csm_fields *f
        cdef int k
        if action < 0 or action >= self.num_actions:
            return False
        if self.kind == GAME_TS:
            return ts_is_legal(&(<TsState>st).c, <int>action)
        f = &(<CsmState>st).f
        if not f.legal_valid:
            (<CsmState>st).compute_legal()
        for k in range(f.legal_len):
            if f.legal[k] == action:
                return True
        return False

    cdef int _play_random(self, object st, cb_random *rng) except -1:
        """Play the move a random bot with generator ``rng`` chooses."""
        cdef ts_core *c
        cdef csm_fields *f
        if self.kind == GAME_TS:
            c = &(<TsState>st).c
            if not c.legal_ok:
                ts_compute_legal(c)
            if c.legal_len == 0:
                raise RuntimeError("a game waits on a seat with no legal action")
            return (<TsState>st).apply_unchecked(c.legal[cb_randbelow(rng, c.legal_len)])
        f = &(<CsmState>st).f
        if not f.legal_valid:
            (<CsmState>st).compute_legal()
        if f.legal_len == 0:
            raise RuntimeError("a game waits on a seat with no legal action")
        return (<CsmState>st).apply_unchecked(f.legal[cb_randbelow(rng, f.legal_len)])

    cdef int _play_heuristic(self, object st, int seat, object procedure) except -1:
        """Play the move of the rule-based bot whose compiled procedure is ``procedure``."""
        cdef ts_core *c
        cdef csm_fields *f
        cdef ts_view tv
        cdef CsmView cv
        cdef int legal[TS_MAX_LEGAL]
        cdef uint8_t allowed[CSM_NUM_ACTIONS]
        cdef int k, action, error = 0
        if self.kind == GAME_TS:
            c = &(<TsState>st).c
            if not c.legal_ok:
                ts_compute_legal(c)
            if c.legal_len == 1:
                return (<TsState>st).apply_unchecked(c.legal[0])
            for k in range(c.legal_len):
                legal[k] = c.legal[k]
            ts_bot_view(c, seat, &tv)
            action = ts_pick(&(<TakeStockBot>procedure).params, &tv, legal, c.legal_len, &error)
            if error or not ts_is_legal(c, action):
                raise RuntimeError(f"the compiled Take Stock bot failed (error {error})")
            return (<TsState>st).apply_unchecked(action)
        f = &(<CsmState>st).f
        if not f.legal_valid:
            (<CsmState>st).compute_legal()
        if f.legal_len == 1:
            return (<CsmState>st).apply_unchecked(f.legal[0])
        memset(allowed, 0, CSM_NUM_ACTIONS)
        for k in range(f.legal_len):
            allowed[f.legal[k]] = 1
        csm_bot_view(<CsmState>st, seat, &cv)
        action = csm_pick(&(<Planner>procedure).params, &cv, allowed)
        if action < 0:
            action = f.legal[0]
        if not allowed[action]:
            raise RuntimeError("the compiled Card Stock Market bot chose an illegal action")
        return (<CsmState>st).apply_unchecked(action)

    cdef int _apply(self, object st, int action) except -1:
        if self.kind == GAME_TS:
            return (<TsState>st).apply_unchecked(action)
        return (<CsmState>st).apply_unchecked(action)

    cdef int _encode(self, int i, int seat, float *out, int8_t *mask) except -1:
        st = self.states[i]
        if self.kind == GAME_TS:
            ts_encode(&(<TsState>st).c, seat, &self.ts, out, mask, self.num_actions)
            return 0
        return csm_encode(<CsmState>st, seat, &self.csm, out, mask, self.num_actions)

    cdef int _play_bots(self, int i) except -1:
        """Let the other seats' bots play up to the learner's decision (or the game's end)."""
        cdef int cur, who
        st = self.states[i]
        while True:
            cur = self._cur(st)
            if cur < 0 or cur == self.seat[i]:
                return 0
            if self.max_steps >= 0 and self.steps[i] >= self.max_steps:
                return 0
            who = self.who[i * SEATS + cur]
            if who == SEAT_RANDOM:
                self._play_random(st, &self.rng[i * SEATS + cur])
            elif who == SEAT_HEURISTIC:
                self._play_heuristic(st, cur, self.bots[i][cur])
            elif who == SEAT_PYTHON:
                st.apply(self.bots[i][cur].choose(st.view(cur)))
            else:
                raise RuntimeError(f"seat {cur} of game {i} has no bot")
            self.steps[i] += 1

    def play_bots(self, int i):
        """Let game ``i``'s bots play up to its learner's decision, as a reset does."""
        self._play_bots(i)

    def encode(self, int i, int seat, float[:, ::1] obs, signed char[:, ::1] mask):
        """Write ``seat``'s observation and mask of game ``i`` into row ``i`` of the arrays."""
        self._check_rows(obs, mask)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}")
        self._encode(i, seat, &obs[i, 0], <int8_t *>&mask[i, 0])

    cdef int _check_rows(self, float[:, ::1] obs, signed char[:, ::1] mask) except -1:
        if (
            obs.shape[0] != self.num_envs or obs.shape[1] != self.size
            or mask.shape[0] != self.num_envs or mask.shape[1] != self.num_actions
        ):
            raise ValueError("the observation or mask array has the wrong shape")
        return 0

    def first_illegal(self, const long long[::1] actions, const unsigned char[::1] skip):
        """The first game (not skipped) whose action is not legal now, or -1."""
        cdef int i
        for i in range(self.num_envs):
            if not skip[i] and not self._is_legal(self.states[i], actions[i]):
                return i
        return -1

    def step_learner(self, const long long[::1] actions, const unsigned char[::1] skip,
                     float[:, ::1] obs, signed char[:, ::1] mask, unsigned char[::1] status):
        """Play each game's learner action and its bots' moves, and observe the learner.

        Games with ``skip`` set are left alone. ``status`` is set per game: 0 the game goes
        on, 1 it is over, 2 it is cut short (``max_steps``), 3 the action was illegal (the
        game is unchanged); every game's row of ``obs`` and ``mask`` is written anew.
        """
        cdef int i, cur
        cdef int64_t a
        self._check_rows(obs, mask)
        for i in range(self.num_envs):
            if skip[i]:
                continue
            st = self.states[i]
            a = actions[i]
            if not self._is_legal(st, a):
                status[i] = 3
            else:
                self._apply(st, <int>a)
                self.steps[i] += 1
                self._play_bots(i)
                if self._cur(st) < 0:
                    status[i] = 1
                elif self.max_steps >= 0 and self.steps[i] >= self.max_steps:
                    status[i] = 2
                else:
                    status[i] = 0
            self._encode(i, self.seat[i], &obs[i, 0], <int8_t *>&mask[i, 0])

    def step_selfplay(self, const long long[::1] actions, float[:, ::1] obs,
                      signed char[:, ::1] mask, long long[::1] seats,
                      unsigned char[::1] status):
        """Play one action in each game (legal, as :meth:`first_illegal` checked) and observe
        the seat to move next. ``status`` is 0 while a game goes on, 1 once it is over, 2
        when it is cut short: then the game is kept (:meth:`finished_game`) and the next
        one dealt in its place (:meth:`restart`)."""
        cdef int i, cur
        self._check_rows(obs, mask)
        for i in range(self.num_envs):
            st = self.states[i]
            self._apply(st, <int>actions[i])
            self.steps[i] += 1
            cur = self._cur(st)
            if cur < 0:
                status[i] = 1
            elif self.max_steps >= 0 and self.steps[i] >= self.max_steps:
                status[i] = 2
            else:
                status[i] = 0
            self.finished[i] = None
            if status[i]:
                self.finished[i] = st
                self._deal_next(i)
                cur = self._cur(self.states[i])
            seats[i] = cur
            self._encode(i, cur, &obs[i, 0], <int8_t *>&mask[i, 0])


def encode(object state, int seat, dict offsets, int size, double money,
           float[::1] obs, signed char[::1] mask):
    """Write ``seat``'s observation and mask of a compiled ``state`` into ``obs`` and ``mask``
    (``offsets``, ``size`` and ``money`` as for :class:`Batch`): for tests and tools."""
    cdef ts_layout ts
    cdef csm_layout csm
    cdef int n = state.game.players
    cdef int num_actions = state.game.info.num_distinct_actions
    if obs.shape[0] != size or mask.shape[0] != num_actions:
        raise ValueError("the observation or mask array has the wrong length")
    if not 0 <= seat < n:
        raise ValueError(f"seat must be from 0 to {n - 1}")
    if type(state) is _TsState:
        ts = dict(offsets, size=size)
        ts_encode(&(<TsState>state).c, seat, &ts, &obs[0], <int8_t *>&mask[0], num_actions)
    elif type(state) is _CsmState:
        csm = dict(offsets, size=size, money=money)
        csm_encode(<CsmState>state, seat, &csm, &obs[0], <int8_t *>&mask[0], num_actions)
    else:
        raise TypeError("encode takes a compiled Take Stock or Card Stock Market state")
