# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Card Stock Market's rules compiled: the same game as the reference, state for state.

The reference is :mod:`closingbell.games.card_stock_market.rules` (read it first: every
function here follows one of it, in the same order, and says which). A :class:`State`
holds the whole position in C arrays (layout in ``_card_stock_market.pxd``); the log is
kept as compact records and turned into the reference's tuples only when it is read, and
the history likewise. Slow, rare paths (the reasons of refusals, invariants, positions,
``to_dict``) ask the equal reference state (:meth:`State.to_reference`), so they agree by
construction. ``closingbell.native.differential`` proves the rest equal step by step.

:func:`sample_state` is ``views.sample_state`` compiled: the worlds a search deals from a
view, with the same numbers drawn from the same generator.
"""

from cpython.long cimport PyLong_FromLongLong
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcpy, memset

from closingbell.native._random cimport (
    cb_derive, cb_derive_many, cb_random, cb_randbelow, cb_shuffle_int
)

import random as _random

from closingbell.core import checks as _checks
from closingbell.core.game import State as _BaseState
from closingbell.core.rng import check_seed
from closingbell.core.rng import fresh_seed as _fresh_seed
from closingbell.games.card_stock_market import cards as _C
from closingbell.games.card_stock_market import views as _views
from closingbell.games.card_stock_market.game import CardStockMarket as _Game
from closingbell.games.card_stock_market.game import CardStockMarketState as _RefState
from closingbell.games.card_stock_market.views import CardStockMarketView as _View
from closingbell.games.card_stock_market.views import SuitMarket as _SuitMarket

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object obj, int *overflow) except? -1
    long long PyLong_AsLongLongAndOverflow(object obj, int *overflow) except? -1
    void PyObject_GC_UnTrack(object obj)

# Decision kinds (CSM_PH_*), action ids (CSM_A_*) and the cards' numbers: the generated
# _card_stock_market_ids.pxi (see the .pxd).

# Log record kinds, in the order of state.EVENT_FIELDS.
cdef enum:
    EV_SETUP = 0
    EV_DEAL
    EV_TURN
    EV_BUY
    EV_SELL
    EV_LEVY
    EV_REPAY
    EV_MARKET
    EV_BANKRUPT
    EV_DISCARD
    EV_END_TURN
    EV_DRAW
    EV_RESHUFFLE
    EV_JOKER
    EV_FINAL_SALE
    EV_GAME_OVER

cdef tuple _EVENT_NAMES = tuple(_RefState.EVENT_FIELDS)
cdef tuple _PHASE_NAMES = tuple(_RefState.PHASE_NAMES)
cdef tuple _SUIT_NAMES = tuple(_C.SUITS)
cdef object _HAND_SIZE = CSM_HAND

# Per kind: its suit, its rank (1 to 13) and the shares its certificate counts.
cdef signed char SUIT_OF[CSM_KINDS]
cdef signed char RANK_OF[CSM_KINDS]
cdef signed char SHARES[CSM_KINDS]
for _k in range(CSM_KINDS):
    SUIT_OF[_k] = _k // CSM_RANKS
    RANK_OF[_k] = _k % CSM_RANKS + 1
    SHARES[_k] = _C.SHARES[_k]


# ---------------------------------------------------------------------- small helpers


cdef inline int _remove(signed char *arr, int *length, int card) except -1:
    """``list.remove``: drop the first ``card``."""
    cdef int i, k = length[0]
    for i in range(k):
        if arr[i] == card:
            if i + 1 < k:
                memcpy(arr + i, arr + i + 1, k - i - 1)
            length[0] = k - 1
            return 0
    raise ValueError("list.remove(x): x not in list")


cdef inline int _push(signed char *arr, int *length, int cap, int card) except -1:
    """``list.append``, refusing to pass the array's capacity."""
    if length[0] >= cap:
        raise ValueError("a Card Stock Market list outgrew its compiled capacity")
    arr[length[0]] = <signed char>card
    length[0] += 1
    return 0


cdef inline int _insort(signed char *arr, int *length, int cap, int card) except -1:
    """``bisect.insort``: insert ``card`` after the cards not greater than it."""
    cdef int i = length[0]
    if i >= cap:
        raise ValueError("a Card Stock Market list outgrew its compiled capacity")
    while i > 0 and arr[i - 1] > card:
        arr[i] = arr[i - 1]
        i -= 1
    arr[i] = <signed char>card
    length[0] += 1
    return 0


ctypedef fused cell:
    signed char
    unsigned char
    int64_t


cdef inline tuple _tuple_of(const cell *arr, Py_ssize_t k):
    """A tuple of Python ints of the ``k`` numbers of ``arr``."""
    cdef tuple t = PyTuple_New(k)
    cdef Py_ssize_t i
    cdef object v
    for i in range(k):
        v = PyLong_FromLongLong(arr[i])
        Py_INCREF(v)
        PyTuple_SET_ITEM(t, i, v)
    # A tuple of ints is in no reference cycle: untracked now, as the collector would
    # untrack it at its first pass, so that views kept alive cost the collector nothing.
    PyObject_GC_UnTrack(t)
    return t


cdef tuple _ACTION_INTS = tuple(range(CSM_NUM_ACTIONS))
"""Every action id as the one Python int that legal_actions hands out."""
cdef PyObject *_ACT[CSM_NUM_ACTIONS]
for _i in range(CSM_NUM_ACTIONS):
    _ACT[_i] = <PyObject *>_ACTION_INTS[_i]


cdef inline list _actions_of(const unsigned char *ids, Py_ssize_t k):
    """A list of the ``k`` action ids of ``ids``, as the shared ints of ``_ACTION_INTS``."""
    cdef list out = PyList_New(k)
    cdef Py_ssize_t i
    cdef PyObject *item
    for i in range(k):
        item = _ACT[ids[i]]
        Py_INCREF(<object>item)
        PyList_SET_ITEM(out, i, <object>item)
    return out


cdef inline list _list_of(const cell *arr, Py_ssize_t k):
    """A list of Python ints of the ``k`` numbers of ``arr``."""
    cdef list out = PyList_New(k)
    cdef Py_ssize_t i
    cdef object v
    for i in range(k):
        v = PyLong_FromLongLong(arr[i])
        Py_INCREF(v)
        PyList_SET_ITEM(out, i, v)
    return out


cdef inline tuple _sorted_tuple(const signed char *arr, int k):
    """The cards of ``arr`` sorted (a counting sort over the 53 kinds)."""
    cdef int counts[CSM_KINDS + 1]
    cdef signed char out[CSM_DECK_CAP * CSM_MAX_SEATS]
    cdef int i, c, m = 0
    memset(counts, 0, sizeof(counts))
    for i in range(k):
        counts[arr[i]] += 1
    for c in range(CSM_KINDS + 1):
        for i in range(counts[c]):
            out[m] = <signed char>c
            m += 1
    return _tuple_of(out, m)


cdef int _read_cards(signed char *dst, int cap, object src, str name) except -1:
    """Copy a reference list of cards into ``dst``; its length."""
    cdef int k = len(src)
    cdef int i
    if k > cap:
        raise ValueError(f"'{name}' holds {k} entries; the compiled engine holds {cap}")
    for i in range(k):
        dst[i] = <signed char>src[i]
    return k


cdef int _read_lists(signed char *dst, int stride, int *lengths, int cap, object src,
                     str name) except -1:
    """Copy a reference list of card lists (one per seat); how many lists."""
    cdef int k = len(src)
    cdef int i
    if k > CSM_MAX_SEATS:
        raise ValueError(f"'{name}' holds {k} lists; the compiled engine holds {CSM_MAX_SEATS}")
    for i in range(k):
        lengths[i] = _read_cards(dst + i * stride, cap, src[i], name)
    return k


# ---------------------------------------------------------------------- the tapes


cdef class _Tape:
    """An append-only buffer of 64-bit words, shared by a state and its clones."""

    def __dealloc__(self):
        free(self.data)


cdef _Tape _new_tape(Py_ssize_t cap):
    cdef _Tape t = _Tape.__new__(_Tape)
    if cap < 16:
        cap = 16
    t.data = <int64_t *>malloc(cap * sizeof(int64_t))
    if t.data == NULL:
        raise MemoryError()
    t.cap = cap
    t.fill = 0
    return t


cdef _Tape _writable_slow(_Tape t, Py_ssize_t used, Py_ssize_t need):
    """A tape holding ``t``'s first ``used`` words with room for ``need``."""
    cdef Py_ssize_t cap = t.cap
    cdef int64_t *data
    while cap < need:
        cap *= 2
    if t.fill == used:
        # Nobody wrote past ``used``: grow in place (sharers read through t.data).
        data = <int64_t *>realloc(t.data, cap * sizeof(int64_t))
        if data == NULL:
            raise MemoryError()
        t.data = data
        t.cap = cap
        return t
    # Another state wrote past ``used``: copy what is ours.
    cdef _Tape mine = _new_tape(cap)
    memcpy(mine.data, t.data, used * sizeof(int64_t))
    mine.fill = used
    return mine


cdef inline _Tape _writable(_Tape t, Py_ssize_t used, Py_ssize_t need):
    if t.fill == used and need <= t.cap:
        return t
    return _writable_slow(t, used, need)


# ---------------------------------------------------------------------- rules of a game


cdef int _read_rules(csm_rules *r, object game) except -1:
    opts = game.options
    cdef int s
    r.n = opts.players
    if not 2 <= r.n <= CSM_MAX_SEATS:
        raise ValueError(f"Card Stock Market has 2 to {CSM_MAX_SEATS} seats, not {r.n}")
    for s in range(CSM_SUITS):
        r.rise[s] = game.rise[s]
        r.fall[s] = game.fall[s]
    r.bank_limited = game.bank_limited
    r.immediate_repay = game.immediate_repay
    r.bankrupt_free = game.bankrupt_free
    r.same_suit_trades = game.same_suit_trades
    r.face_raise_limited = game.face_raise_limited
    r.trade_first = game.trade_first
    r.same_price_change = game.same_price_change
    r.ace_at_setup = opts.ace_at_setup
    r.first_dealer = -1 if opts.first_dealer is None else opts.first_dealer
    r.levy = opts.levy
    r.starting_money = opts.starting_money
    r.bank_money = 0 if opts.bank_money is None else opts.bank_money
    return 0


# The rules of the game last read: a loop of new games reads them once.
cdef object _rules_game = None
cdef csm_rules _rules_cache


cdef State blank_state(object game):
    global _rules_game, _rules_cache
    cdef State st = State.__new__(State)
    cdef csm_rules fresh
    if game is not _rules_game:
        _read_rules(&fresh, game)
        _rules_cache = fresh
        _rules_game = game
    st.rules = _rules_cache
    memset(&st.f, 0, sizeof(csm_fields))
    st.game = game
    st.deal = False
    st.log_tape = _new_tape(512)
    st.log_len = 0
    st.hist_tape = _new_tape(256)
    st.hist_len = 0
    st.log_prefix = ()
    st.log_cache = None
    st.log_cache_pos = 0
    return st


# ---------------------------------------------------------------------- the state


cdef list _log_copy(State st):
    """``st``'s log as a new list of the reference's entries."""
    cdef list entries = _entries(st)
    if st.log_prefix:
        return list(st.log_prefix) + entries
    return entries[:]


# The fields, read as attributes (``hands``, ``cash``...): the base class _StateFields,
# generated at build time (setup.py) from the table of the compiled state's fields.
include "_card_stock_market_fields.pxi"


cdef class State(_StateFields):
    """One position of a Card Stock Market game, compiled; the reference's equal.

    It answers the whole public API of
    :class:`~closingbell.games.card_stock_market.CardStockMarketState` with the same
    results and errors. Its fields (``hands``, ``cash``, ``log``, ``history`` ...) are
    read as attributes, each a fresh Python value equal to the reference's: changing one
    changes nothing in the state.
    """

    FORMAT = _RefState.FORMAT
    SHAPES = _RefState.SHAPES
    PHASE_NAMES = _RefState.PHASE_NAMES
    EVENT_FIELDS = _RefState.EVENT_FIELDS
    EVENT_VALUES = _RefState.EVENT_VALUES
    SECRET_DECISIONS = _RefState.SECRET_DECISIONS

    def __init__(self, *args, **kwargs):
        raise TypeError("make native states with new_game(game, seed) or from_state(state)")

    # ------------------------------------------------------------- C-level API

    cdef void invalidate(self):
        self.f.legal_valid = 0
        self.log_cache = None
        self.log_cache_pos = 0

    cdef bint log_is(self, list entries) except -1:
        """Whether the log equals ``entries``, its records decoded and compared one at a time.

        Nothing is kept: comparing a long log makes no list of it for the collector to scan.
        """
        cdef const int64_t *data = self.log_tape.data
        cdef Py_ssize_t i, at = 0, size = len(entries), start = len(self.log_prefix)
        cdef int64_t head
        if size < start:
            return False
        for i in range(start):
            if self.log_prefix[i] != entries[i]:
                return False
        i = start
        while at < self.log_len:
            head = data[at]
            if i == size or _entry(self, data + at + 1, <int>(head & 255), head >> 8) != entries[i]:
                return False
            at += 1 + (head >> 8)
            i += 1
        return i == size

    cdef State copy(self):
        cdef State new = State.__new__(State)
        new.rules = self.rules
        new.f = self.f
        new.game = self.game
        new.deal = self.deal
        new.log_tape = self.log_tape
        new.log_len = self.log_len
        new.hist_tape = self.hist_tape
        new.hist_len = self.hist_len
        new.log_prefix = self.log_prefix
        new.log_cache = None
        new.log_cache_pos = 0
        return new

    cdef int compute_legal(self) except -1:
        """rules.legal_actions, into f.legal and f.legal_bits."""
        cdef csm_fields *f = &self.f
        cdef csm_rules *r = &self.rules
        if f.legal_valid:
            return 0
        cdef int p = f.cur
        cdef int m = 0
        cdef int phase = f.phase
        cdef signed char kinds[CSM_HAND]
        cdef signed char faces[CSM_HAND]
        cdef int nk = 0, nf = 0, i, c, s, sh, rank, price, blocked, q, last = -1
        cdef int64_t cash
        cdef unsigned char *out = f.legal
        if p >= 0:
            for i in range(f.hand_len[p]):
                c = f.hands[p][i]
                if c != last:
                    kinds[nk] = <signed char>c
                    nk += 1
                    last = c
            if phase == CSM_PH_DISCARD:
                if f.discards < CSM_MAX_DISCARDS:
                    for i in range(nk):
                        out[m] = CSM_A_DISCARD + kinds[i]
                        m += 1
                out[m] = CSM_A_DONE
                m += 1
            else:
                if f.trades < 2 and (phase != CSM_PH_MARKET or (f.trades == 0 and not r.trade_first)):
                    cash = f.cash[p]
                    blocked = 0 if r.same_suit_trades else f.sold
                    for i in range(nk):
                        c = kinds[i]
                        s = SUIT_OF[c]
                        sh = SHARES[c]
                        if f.held[p][s] + sh > CSM_MAX_SHARES:
                            continue
                        price = f.prices[s]
                        if (<int64_t>(sh * price) > cash or (price == 0 and not r.bankrupt_free)
                                or (blocked >> s) & 1):
                            continue
                        out[m] = <unsigned char>c
                        m += 1
                    blocked = 0 if r.same_suit_trades else f.bought
                    last = -1
                    for i in range(f.cert_len[p]):
                        c = f.certs[p][i]
                        if c != last:
                            last = c
                            if not (blocked >> SUIT_OF[c]) & 1:
                                out[m] = CSM_A_SELL + c
                                m += 1
                if f.changes < 2 and (phase != CSM_PH_TRADE or f.changes == 0):
                    for i in range(nk):
                        c = kinds[i]
                        s = SUIT_OF[c]
                        rank = RANK_OF[c]
                        price = f.prices[s]
                        if rank <= 10:
                            if RANK_OF[f.piles[s][f.pile_len[s] - 1]] > 10 or (
                                -r.fall[s] <= rank - price <= r.rise[s]
                                and (rank != price or r.same_price_change)
                            ):
                                out[m] = CSM_A_MARKET + c
                                m += 1
                        else:
                            if price or r.same_price_change or _anyone_holds(self, s):
                                faces[nf] = <signed char>(CSM_A_BANKRUPT + s * 3 + rank - 11)
                                nf += 1
                            if rank > price and (
                                not r.face_raise_limited or rank - price <= r.rise[s]
                            ):
                                out[m] = CSM_A_MARKET + c
                                m += 1
                    for i in range(nf):
                        out[m] = <unsigned char>faces[i]
                        m += 1
                if phase == CSM_PH_START:
                    for i in range(nk):
                        out[m] = CSM_A_DISCARD + kinds[i]
                        m += 1
                out[m] = CSM_A_DONE
                m += 1
        f.legal_len = m
        f.legal_valid = 1
        return 0

    cdef int apply_unchecked(self, int a) except -1:
        """Record ``a`` in the history and play it (no check: it must be legal)."""
        self.hist_tape = _writable(self.hist_tape, self.hist_len, self.hist_len + 1)
        self.hist_tape.data[self.hist_len] = a
        self.hist_len += 1
        self.hist_tape.fill = self.hist_len
        return _play(self, a)

    # ------------------------------------------------------------- the reference's hooks

    def _compute_legal(self):
        """The sorted legal action ids of the pending decision (the reference's hook)."""
        return self.legal_actions()

    def _apply_legal(self, int action):
        """Apply ``action``, already known to be legal, without recording it (the hook)."""
        _play(self, action)

    def _explain_illegal(self, action):
        """Why ``action`` is not legal now (asks the equal reference state)."""
        return self.to_reference()._explain_illegal(action)
    # ------------------------------------------------------------- the public API

    def legal_actions(self):
        """The sorted action ids legal for the pending decision (a new list each call)."""
        if not self.f.legal_valid:
            self.compute_legal()
        return _actions_of(self.f.legal, self.f.legal_len)

    def apply(self, action):
        """Apply a legal action; an illegal one raises ``IllegalActionError``, changing nothing."""
        cdef int overflow = 0
        cdef long a
        if type(action) is not int:
            action = self.coerce_action(action)
        a = PyLong_AsLongAndOverflow(action, &overflow)
        if not self.f.legal_valid:
            self.compute_legal()
        if overflow or a < 0 or a >= CSM_NUM_ACTIONS or memchr(
            self.f.legal, <int>a, self.f.legal_len
        ) == NULL:
            ref = self.to_reference()
            raise ref.refuse(action, ref._explain_illegal(action))
        self.apply_unchecked(<int>a)

    def is_terminal(self):
        """Whether the game is over."""
        return self.f.cur < 0

    @property
    def current_player(self):
        """The seat that must decide now; ``None`` once the game is over."""
        return None if self.f.cur < 0 else self.f.cur

    @property
    def decision(self):
        """The name of the pending decision."""
        return _PHASE_NAMES[self.f.phase]

    def choice_is_secret(self):
        """Whether the answer to the pending decision is hidden from every other seat."""
        return _BaseState.choice_is_secret(self)

    def clone(self):
        """An independent copy (C structs copied; the log and history shared until written)."""
        return self.copy()

    def scores(self):
        """Each seat's money less its debt (final once the game is over)."""
        cdef int64_t out[CSM_MAX_SEATS]
        cdef int q
        for q in range(self.rules.n):
            out[q] = self.f.cash[q] - self.f.debt[q]
        return _list_of(out, self.rules.n)

    def winners(self):
        """The seats with the most money (several share a tie)."""
        scores = self.scores()
        best = max(scores)
        return [p for p in range(self.rules.n) if scores[p] == best]

    def net_worth(self):
        """Each seat's money less debt plus its shares at the current prices."""
        cdef int64_t out[CSM_MAX_SEATS]
        cdef int q, s
        for q in range(self.rules.n):
            out[q] = self.f.cash[q] - self.f.debt[q]
            for s in range(CSM_SUITS):
                out[q] += self.f.held[q][s] * self.f.prices[s]
        return _list_of(out, self.rules.n)

    def view(self, player):
        """What ``player`` may see; ``None`` gives a spectator's view."""
        return _view(self, player)

    def visible_events(self, player, start=0):
        """The log of what happened from entry ``start`` on, as ``player`` may read it."""
        return _BaseState.visible_events(self, player, start)

    def check_seat(self, player):
        """Raise ``ValueError`` unless ``player`` is a seat of this game or ``None``."""
        _BaseState.check_seat(self, player)

    def check_invariants(self):
        """Raise ``AssertionError`` if cards, money or bookkeeping are inconsistent."""
        self.to_reference().check_invariants()

    def to_position(self):
        """The position's text (see ``docs/positions.md``): every field, in order, one line."""
        return self.to_reference().to_position()

    def to_dict(self):
        """The complete state as JSON-ready data."""
        return _BaseState.to_dict(self)

    def to_json(self):
        """The complete state as JSON text; ``Game.state_from_json`` reads it back."""
        return _BaseState.to_json(self)

    def action_to_string(self, action):
        """The text form of ``action``."""
        return self.game.action_to_string(action)

    def string_to_action(self, text):
        """The action id named by ``text``."""
        return self.game.string_to_action(text)

    def apply_string(self, text):
        """Parse ``text``, apply that action and return its id."""
        return _BaseState.apply_string(self, text)

    def coerce_action(self, action):
        """Return ``action`` as a plain ``int`` (numpy integers included), or refuse it."""
        return _BaseState.coerce_action(self, action)

    def refuse(self, action, reason):
        """Build the error for an illegal ``action``, naming it when it is a valid id."""
        return _BaseState.refuse(self, action, reason)

    def __eq__(self, other):
        return _BaseState.__eq__(self, other)

    __hash__ = None

    def __reduce__(self):
        return (from_state, (self.to_reference(),))

    def to_reference(self):
        """The equal reference state (a ``CardStockMarketState``)."""
        st = _RefState.__new__(_RefState)
        st.game = self.game
        st.n = self.rules.n
        st.from_deal = self.deal
        for name in _RefState.SHAPES:
            setattr(st, name, getattr(self, name))
        st._legal = None
        return st


_BaseState.register(State)


# ---------------------------------------------------------------------- the rules (private)


cdef inline int64_t *_log(State st, int kind, Py_ssize_t k) except NULL:
    """Room for one log record of ``k`` values, its header written."""
    cdef Py_ssize_t need = st.log_len + 1 + k
    cdef int64_t *r
    st.log_tape = _writable(st.log_tape, st.log_len, need)
    r = st.log_tape.data + st.log_len
    st.log_len = need
    st.log_tape.fill = need
    r[0] = kind | (k << 8)
    return r + 1


cdef inline bint _anyone_holds(State st, int s):
    cdef int q
    for q in range(st.rules.n):
        if st.f.held[q][s]:
            return True
    return False


cdef int _play(State st, int a) except -1:
    """rules.apply_action: play legal action ``a`` for the current player."""
    cdef csm_fields *f = &st.f
    cdef int p = f.cur
    cdef int card
    cdef int64_t *rec
    f.legal_valid = 0
    if a == CSM_A_DONE:
        return _end_turn(st)
    if a < CSM_A_MARKET:
        if a < CSM_A_SELL:
            _buy(st, p, a)
        else:
            _sell(st, p, a - CSM_A_SELL)
        f.trades += 1
        f.phase = CSM_PH_TRADE
        if f.trades == 2 and f.changes:
            _end_turn(st)
        return 0
    if a < CSM_A_DISCARD:
        if a < CSM_A_BANKRUPT:
            _change(st, p, a - CSM_A_MARKET)
        else:
            card = ((a - CSM_A_BANKRUPT) // 3) * CSM_RANKS + (a - CSM_A_BANKRUPT) % 3 + 10
            _bankrupt(st, p, card)
        f.changes += 1
        f.phase = CSM_PH_MARKET
        if f.changes == 2 and (f.trades or st.rules.trade_first):
            _end_turn(st)
        return 0
    card = a - CSM_A_DISCARD
    _remove(f.hands[p], &f.hand_len[p], card)
    _push(f.discard, &f.discard_len, CSM_DECK_CAP, card)
    if f.reshuffled:
        _push(f.re_events[p], &f.re_events_len[p], CSM_EVENTS_CAP, card)
    rec = _log(st, EV_DISCARD, 2)
    rec[0] = p
    rec[1] = card
    f.discards += 1
    f.phase = CSM_PH_DISCARD
    if f.discards == CSM_MAX_DISCARDS:
        _end_turn(st)
    return 0

cdef int _buy(State st, int p, int card) except -1:
    cdef csm_fields *f = &st.f
    cdef int s = SUIT_OF[card]
    cdef int sh = SHARES[card]
    cdef int price = f.prices[s]
    cdef int64_t cost = sh * price
    cdef int64_t *rec
    _remove(f.hands[p], &f.hand_len[p], card)
    _insort(f.certs[p], &f.cert_len[p], CSM_CERT_CAP, card)
    f.held[p][s] += sh
    f.cash[p] -= cost
    f.bank += cost
    f.bought |= 1 << s
    if f.reshuffled:
        _push(f.re_events[p], &f.re_events_len[p], CSM_EVENTS_CAP, card)
    rec = _log(st, EV_BUY, 4)
    rec[0] = p
    rec[1] = card
    rec[2] = price
    rec[3] = cost
    return 0


cdef int _sell(State st, int p, int card) except -1:
    cdef csm_fields *f = &st.f
    cdef int s = SUIT_OF[card]
    cdef int sh = SHARES[card]
    cdef int price = f.prices[s]
    cdef int64_t *rec
    _remove(f.certs[p], &f.cert_len[p], card)
    f.held[p][s] -= sh
    _push(f.discard, &f.discard_len, CSM_DECK_CAP, card)
    f.sold |= 1 << s
    f.sales += 1
    rec = _log(st, EV_SELL, 4)
    rec[0] = p
    rec[1] = card
    rec[2] = price
    rec[3] = sh * price
    return _pay(st, p, sh * price)


cdef int _change(State st, int p, int card) except -1:
    cdef csm_fields *f = &st.f
    cdef int s = SUIT_OF[card]
    cdef int64_t *rec
    _remove(f.hands[p], &f.hand_len[p], card)
    _push(f.piles[s], &f.pile_len[s], CSM_PILE_CAP, card)
    f.busted[s] = 0
    f.prices[s] = RANK_OF[card]
    if f.reshuffled:
        _push(f.re_events[p], &f.re_events_len[p], CSM_EVENTS_CAP, card)
    rec = _log(st, EV_MARKET, 3)
    rec[0] = p
    rec[1] = card
    rec[2] = f.prices[s]
    return 0


cdef int _bankrupt(State st, int p, int card) except -1:
    cdef csm_fields *f = &st.f
    cdef int s = SUIT_OF[card]
    cdef int n = st.rules.n
    cdef int q, i, c, kept
    cdef int64_t *rec
    _remove(f.hands[p], &f.hand_len[p], card)
    _push(f.piles[s], &f.pile_len[s], CSM_PILE_CAP, card)
    f.busted[s] = 1
    f.prices[s] = 0
    if f.reshuffled:
        _push(f.re_events[p], &f.re_events_len[p], CSM_EVENTS_CAP, card)
    rec = _log(st, EV_BANKRUPT, 2 + n)
    rec[0] = p
    rec[1] = card
    for q in range(n):
        rec[2 + q] = f.held[q][s]
        if f.held[q][s]:
            kept = 0
            for i in range(f.cert_len[q]):
                c = f.certs[q][i]
                if SUIT_OF[c] == s:
                    _push(f.discard, &f.discard_len, CSM_DECK_CAP, c)
                else:
                    f.certs[q][kept] = <signed char>c
                    kept += 1
            f.cert_len[q] = kept
            f.held[q][s] = 0
    return 0


# ---------------------------------------------------------------------- money


cdef int _pay(State st, int q, int64_t amount) except -1:
    """rules._pay: the bank pays ``amount`` to seat ``q``, after levies if short."""
    cdef csm_fields *f = &st.f
    cdef int64_t debt, back
    cdef int64_t *rec
    if st.rules.bank_limited:
        while f.bank < amount:
            _levy(st)
    f.bank -= amount
    debt = f.debt[q]
    if debt and st.rules.immediate_repay:
        back = debt if debt < amount else amount
        f.debt[q] = debt - back
        f.bank += back
        amount -= back
        rec = _log(st, EV_REPAY, 2)
        rec[0] = q
        rec[1] = back
    f.cash[q] += amount
    return 0


cdef int _levy(State st) except -1:
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef int64_t levy = st.rules.levy
    cdef int64_t pay
    cdef int q
    cdef int64_t *rec = _log(st, EV_LEVY, 2 * n)
    for q in range(n):
        pay = f.cash[q] if f.cash[q] < levy else levy
        f.cash[q] -= pay
        f.bank += pay
        f.debt[q] += levy - pay
        rec[q] = pay
        rec[n + q] = levy - pay
    f.levies += 1
    return 0


cdef int _settle(State st, int q) except -1:
    cdef csm_fields *f = &st.f
    cdef int64_t back = f.cash[q] if f.cash[q] < f.debt[q] else f.debt[q]
    cdef int64_t *rec
    if back:
        f.cash[q] -= back
        f.debt[q] -= back
        f.bank += back
        rec = _log(st, EV_REPAY, 2)
        rec[0] = q
        rec[1] = back
    return 0


# ---------------------------------------------------------------------- turns


cdef int _begin_turn(State st, int p) except -1:
    cdef csm_fields *f = &st.f
    cdef int64_t *rec
    f.turn = p
    f.cur = p
    f.phase = CSM_PH_START
    f.trades = f.sales = f.changes = f.discards = f.bought = f.sold = 0
    f.turns += 1
    f.legal_valid = 0
    rec = _log(st, EV_TURN, 2)
    rec[0] = p
    rec[1] = f.turns
    return 0


cdef int _end_turn(State st) except -1:
    """rules._end_turn: draw back up to eight cards, then pass the turn."""
    cdef csm_fields *f = &st.f
    cdef int p = f.turn
    cdef signed char batch[CSM_HAND]
    cdef int nb = 0, card
    cdef int64_t *rec = _log(st, EV_END_TURN, 1)
    rec[0] = p
    if not st.rules.immediate_repay and f.debt[p]:
        _settle(st, p)
    while f.hand_len[p] < CSM_HAND:
        if f.draw_len == 0:
            raise IndexError("pop from empty list")
        f.draw_len -= 1
        card = f.draw[f.draw_len]
        if card == CSM_JOKER:
            _log_draw(st, p, batch, nb)
            return _joker(st, p)
        _insort(f.hands[p], &f.hand_len[p], CSM_HAND, card)
        batch[nb] = <signed char>card
        nb += 1
        if f.reshuffled:
            _push(f.re_drawn[p], &f.re_drawn_len[p], CSM_DECK_CAP, card)
        if f.draw_len == 0:
            _log_draw(st, p, batch, nb)
            nb = 0
            _reshuffle(st)
    _log_draw(st, p, batch, nb)
    return _begin_turn(st, (p + 1) % st.rules.n)


cdef int _log_draw(State st, int p, const signed char *batch, int nb) except -1:
    cdef int i
    cdef int64_t *rec
    if nb:
        rec = _log(st, EV_DRAW, 2 + nb)
        rec[0] = p
        rec[1] = nb
        for i in range(nb):
            rec[2 + i] = batch[i]
        if st.f.reshuffled:
            _push(st.f.re_events[p], &st.f.re_events_len[p], CSM_EVENTS_CAP, -nb)
    return 0


cdef int _reshuffle(State st) except -1:
    """rules._reshuffle: the piles' lower cards, the discards and the jokers."""
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef int cards[CSM_DECK_CAP]
    cdef int m = 0, s, i, q
    cdef cb_random rng
    cdef int64_t *rec
    if f.reshuffled:
        raise AssertionError("both jokers are in the pile after the reshuffle")
    total = f.discard_len + f.jokers_out
    for s in range(CSM_SUITS):
        total += f.pile_len[s] - 1
    if total > CSM_DECK_CAP:
        raise ValueError("a Card Stock Market list outgrew its compiled capacity")
    for s in range(CSM_SUITS):
        for i in range(f.pile_len[s] - 1):
            cards[m] = f.piles[s][i]
            m += 1
        if f.pile_len[s] > 1:
            f.piles[s][0] = f.piles[s][f.pile_len[s] - 1]
            f.pile_len[s] = 1
    for i in range(f.discard_len):
        cards[m] = f.discard[i]
        m += 1
    for i in range(f.jokers_out):
        cards[m] = CSM_JOKER
        m += 1
    f.discard_len = 0
    f.jokers_out = 0
    cb_derive(&rng, f.seed, b"reshuffle")
    cb_shuffle_int(&rng, cards, m)
    for i in range(m):
        f.draw[i] = <signed char>cards[i]
    f.draw_len = m
    f.reshuffled = 1
    f.re_pile_len = m
    for i in range(m):
        f.re_pile[i] = <signed char>cards[i]
    _sort_cards(f.re_pile, m)
    f.re_hands_n = f.re_drawn_n = f.re_events_n = n
    for q in range(n):
        memcpy(f.re_hands[q], f.hands[q], f.hand_len[q])
        f.re_hand_len[q] = f.hand_len[q]
        f.re_drawn_len[q] = 0
        f.re_events_len[q] = 0
    rec = _log(st, EV_RESHUFFLE, 1)
    rec[0] = m
    return 0


cdef int _joker(State st, int p) except -1:
    """rules._joker: everyone sells all stock, and the game is over."""
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef int i, q, j, card, s, k
    cdef int64_t price, paid, best
    cdef int64_t *rec
    f.joker_by = p
    rec = _log(st, EV_JOKER, 1)
    rec[0] = p
    for i in range(n):
        q = (p + i) % n
        for j in range(f.cert_len[q]):
            card = f.certs[q][j]
            s = SUIT_OF[card]
            price = f.prices[s]
            _push(f.discard, &f.discard_len, CSM_DECK_CAP, card)
            f.held[q][s] -= SHARES[card]
            paid = SHARES[card] * price
            rec = _log(st, EV_FINAL_SALE, 4)
            rec[0] = q
            rec[1] = card
            rec[2] = price
            rec[3] = paid
            _pay(st, q, paid)
        f.cert_len[q] = 0
    for q in range(n):
        _settle(st, q)
    f.phase = CSM_PH_OVER
    f.cur = -1
    best = f.cash[0] - f.debt[0]
    k = 0
    for q in range(n):
        if f.cash[q] - f.debt[q] > best:
            best = f.cash[q] - f.debt[q]
    for q in range(n):
        if f.cash[q] - f.debt[q] == best:
            k += 1
    rec = _log(st, EV_GAME_OVER, n + 1 + k)
    for q in range(n):
        rec[q] = f.cash[q] - f.debt[q]
    rec[n] = k
    k = 0
    for q in range(n):
        if f.cash[q] - f.debt[q] == best:
            rec[n + 1 + k] = q
            k += 1
    return 0


# ---------------------------------------------------------------------- the log and views


cdef tuple _entry(State st, const int64_t *r, int kind, Py_ssize_t k):
    """The reference's log entry of one record."""
    cdef str name = _EVENT_NAMES[kind]
    cdef Py_ssize_t t, half
    if kind == EV_SETUP:
        t = r[1]
        return (None, (name, r[0], _tuple_of(r + 2, t), _tuple_of(r + 2 + t, k - 2 - t)), None)
    if kind == EV_DEAL:
        return (r[0], (name, r[0], _HAND_SIZE, _tuple_of(r + 1, k - 1)),
                (name, r[0], _HAND_SIZE, None))
    if kind == EV_DRAW:
        return (r[0], (name, r[0], r[1], _tuple_of(r + 2, k - 2)), (name, r[0], r[1], None))
    if kind == EV_LEVY:
        half = k // 2
        return (None, (name, _tuple_of(r, half), _tuple_of(r + half, half)), None)
    if kind == EV_BANKRUPT:
        return (None, (name, r[0], r[1], _tuple_of(r + 2, k - 2)), None)
    if kind == EV_GAME_OVER:
        t = st.rules.n
        return (None, (name, _tuple_of(r, t), _tuple_of(r + t + 1, r[t])), None)
    cdef tuple values = _tuple_of(r, k)
    return (None, (name,) + values, None)


cdef list _entries(State st):
    """The records turned into entries, converting only the new ones."""
    cdef list cache = st.log_cache
    cdef Py_ssize_t i = st.log_cache_pos
    cdef const int64_t *data = st.log_tape.data
    cdef int64_t head
    if cache is None:
        cache = st.log_cache = []
        i = 0
    while i < st.log_len:
        head = data[i]
        cache.append(_entry(st, data + i + 1, <int>(head & 255), head >> 8))
        i += 1 + (head >> 8)
    st.log_cache_pos = i
    return cache


cdef object _view(State st, object seat):
    cdef csm_fields *f = &st.f
    cdef csm_rules *r = &st.rules
    cdef int n = r.n
    cdef int q, s, me = -1, m
    cdef int64_t nums[CSM_MAX_SEATS]
    cdef signed char hidden[CSM_MAX_SEATS * CSM_HAND]
    if seat is not None:
        if type(seat) is bool or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(
                f"a view is for a seat from 0 to {n - 1}, or None for a spectator"
            )
        me = seat
    suits = PyTuple_New(CSM_SUITS)
    for s in range(CSM_SUITS):
        market = _SuitMarket.__new__(_SuitMarket)
        market.__dict__.update({
            "name": _SUIT_NAMES[s],
            "pile": _tuple_of(f.piles[s], f.pile_len[s]),
            "price": f.prices[s],
            "bankrupt": f.busted[s] != 0,
            "max_rise": r.rise[s],
            "max_fall": r.fall[s],
        })
        Py_INCREF(market)
        PyTuple_SET_ITEM(suits, s, market)
    certificates = PyTuple_New(n)
    shares = PyTuple_New(n)
    sizes = PyTuple_New(n)
    records = PyTuple_New(f.re_events_n)
    for q in range(n):
        item = _tuple_of(f.certs[q], f.cert_len[q])
        Py_INCREF(item)
        PyTuple_SET_ITEM(certificates, q, item)
        item = (f.held[q][0], f.held[q][1], f.held[q][2], f.held[q][3])
        Py_INCREF(item)
        PyTuple_SET_ITEM(shares, q, item)
        item = f.hand_len[q]
        Py_INCREF(item)
        PyTuple_SET_ITEM(sizes, q, item)
        nums[q] = f.cash[q] - f.debt[q]
    for q in range(f.re_events_n):
        item = _tuple_of(f.re_events[q], f.re_events_len[q])
        Py_INCREF(item)
        PyTuple_SET_ITEM(records, q, item)
    re_sizes = PyTuple_New(f.re_hands_n)
    m = 0
    for q in range(f.re_hands_n):
        item = f.re_hand_len[q]
        Py_INCREF(item)
        PyTuple_SET_ITEM(re_sizes, q, item)
        memcpy(hidden + m, f.re_hands[q], f.re_hand_len[q])
        m += f.re_hand_len[q]
    mine = me >= 0
    own_re = mine and f.reshuffled
    if mine and f.cur == me:
        if not f.legal_valid:
            st.compute_legal()
        legal = _tuple_of(f.legal, f.legal_len)
    else:
        legal = ()
    view = _View.__new__(_View)
    view.__dict__.update({
        "game": "card_stock_market",
        "seat": seat,
        "players": n,
        "dealer": f.dealer,
        "turn_player": f.turn,
        "turn_number": f.turns,
        "current_player": None if f.cur < 0 else f.cur,
        "decision": _PHASE_NAMES[f.phase],
        "suits": suits,
        "hand": _tuple_of(f.hands[me], f.hand_len[me]) if mine else (),
        "hand_sizes": sizes,
        "certificates": certificates,
        "shares": shares,
        "cash": _tuple_of(f.cash, n),
        "debts": _tuple_of(f.debt, n),
        "bank": f.bank if r.bank_limited else None,
        "levies": f.levies,
        "scores": _tuple_of(nums, n),
        "discard_pile": _sorted_tuple(f.discard, f.discard_len),
        "draw_pile": f.draw_len,
        "jokers_held_out": f.jokers_out,
        "joker_drawn_by": f.joker_by if f.joker_by >= 0 else None,
        "reshuffled": f.reshuffled != 0,
        "reshuffle_pile": _tuple_of(f.re_pile, f.re_pile_len),
        "reshuffle_hand_sizes": re_sizes,
        "reshuffle_hidden": _sorted_tuple(hidden, m),
        "own_reshuffle_hand": (
            _tuple_of(f.re_hands[me], f.re_hand_len[me]) if own_re else ()
        ),
        "own_drawn": (
            _sorted_tuple(f.re_drawn[me], f.re_drawn_len[me]) if own_re else ()
        ),
        "records": records,
        "trades": f.trades,
        "sales": f.sales,
        "changes": f.changes,
        "discards": f.discards,
        "bought_suits": _suits_of(f.bought),
        "sold_suits": _suits_of(f.sold),
        "legal_actions": legal,
    })
    return view


cdef tuple _SUIT_SETS = tuple(
    tuple(s for s in range(CSM_SUITS) if (mask >> s) & 1) for mask in range(1 << CSM_SUITS)
)


cdef inline tuple _suits_of(int mask):
    return _SUIT_SETS[mask & 15]


cdef void _sort_cards(signed char *arr, int k):
    cdef int i, j
    cdef signed char v
    for i in range(1, k):
        v = arr[i]
        j = i
        while j > 0 and arr[j - 1] > v:
            arr[j] = arr[j - 1]
            j -= 1
        arr[j] = v


# ---------------------------------------------------------------------- making states


def new_game(game, seed):
    """Set up a new game of ``game`` as ``game.new_game(seed)`` does (rules.new_state)."""
    cdef uint64_t s64 = check_seed(seed)
    cdef State st = blank_state(game)
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef cb_random rng, after, dealer
    cdef cb_random *gens[3]
    cdef const char *labels[3]
    cdef int deck[CSM_DECK_CAP]
    cdef int turned[CSM_DECK_CAP]
    cdef int unused[CSM_DECK_CAP]
    cdef int nd, nt = 0, nu = 0, started = 0, lowest, card, s, i, j, q, b
    cdef int64_t *rec
    st.deal = True
    f.seed = s64
    # The deal's generators, seeded side by side: the deck's, the deck's after the
    # setup, and the first dealer's unless the options name one.
    gens[0] = &rng
    labels[0] = b"deck"
    gens[1] = &after
    labels[1] = b"deck/after-setup"
    gens[2] = &dealer
    labels[2] = b"dealer"
    cb_derive_many(gens, s64, labels, 2 if st.rules.first_dealer >= 0 else 3)
    if st.rules.first_dealer >= 0:
        f.dealer = st.rules.first_dealer
    else:
        f.dealer = cb_randbelow(&dealer, n)
    nd = 0
    for card in range(CSM_KINDS):
        deck[nd] = card
        deck[nd + 1] = card
        nd += 2
    cb_shuffle_int(&rng, deck, nd)
    lowest = 1 if st.rules.ace_at_setup else 2
    while started < CSM_SUITS:
        nd -= 1
        card = deck[nd]
        turned[nt] = card
        nt += 1
        s = SUIT_OF[card]
        if f.pile_len[s] == 0 and lowest <= RANK_OF[card] <= 10:
            f.piles[s][0] = <signed char>card
            f.pile_len[s] = 1
            started += 1
        else:
            unused[nu] = card
            nu += 1
    for i in range(nu):
        deck[nd] = unused[i]
        nd += 1
    cb_shuffle_int(&after, deck, nd)
    for b in range(CSM_HAND // CSM_DEAL_BATCH):
        for i in range(n):
            q = (f.dealer + 1 + i) % n
            for j in range(CSM_DEAL_BATCH):
                nd -= 1
                _insort(f.hands[q], &f.hand_len[q], CSM_HAND, deck[nd])
    for s in range(CSM_SUITS):
        f.prices[s] = RANK_OF[f.piles[s][0]]
    for q in range(n):
        f.cash[q] = st.rules.starting_money
    f.bank = st.rules.bank_money
    for i in range(nd):
        f.draw[i] = <signed char>deck[i]
    f.draw_len = nd
    f.jokers_out = 2
    f.joker_by = -1
    rec = _log(st, EV_SETUP, 2 + nt + CSM_SUITS)
    rec[0] = f.dealer
    rec[1] = nt
    for i in range(nt):
        rec[2 + i] = turned[i]
    for s in range(CSM_SUITS):
        rec[2 + nt + s] = f.piles[s][0]
    for q in range(n):
        rec = _log(st, EV_DEAL, 1 + CSM_HAND)
        rec[0] = q
        for i in range(CSM_HAND):
            rec[1 + i] = f.hands[q][i]
    _begin_turn(st, (f.dealer + 1) % n)
    return st


def from_state(state):
    """A native state equal to the reference ``state`` (history, log and from_deal too)."""
    if isinstance(state, State):
        return (<State>state).copy()
    cdef State st = blank_state(state.game)
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef int s, q
    if state.n != n:
        raise ValueError(f"the state has {state.n} seats and its game {n}")
    st.deal = state.from_deal
    f.seed = state.seed
    f.dealer = state.dealer
    f.turn = state.turn
    f.turns = state.turns
    f.cur = -1 if state.cur is None else state.cur
    f.phase = state.phase
    piles = state.piles
    if len(piles) != CSM_SUITS:
        raise ValueError(f"'piles' holds {len(piles)} piles, not {CSM_SUITS}")
    for s in range(CSM_SUITS):
        f.pile_len[s] = _read_cards(f.piles[s], CSM_PILE_CAP, piles[s], "piles")
        f.busted[s] = state.busted[s]
        f.prices[s] = state.prices[s]
    if _read_lists(&f.hands[0][0], CSM_HAND, f.hand_len, CSM_HAND, state.hands, "hands") != n:
        raise ValueError("'hands' must hold a hand per seat")
    if _read_lists(&f.certs[0][0], CSM_CERT_CAP, f.cert_len, CSM_CERT_CAP, state.certs,
                   "certs") != n:
        raise ValueError("'certs' must hold a list per seat")
    for q in range(n):
        for s in range(CSM_SUITS):
            f.held[q][s] = state.held[q][s]
        f.cash[q] = state.cash[q]
        f.debt[q] = state.debt[q]
    f.bank = state.bank
    f.levies = state.levies
    f.draw_len = _read_cards(f.draw, CSM_DECK_CAP, state.draw, "draw")
    f.discard_len = _read_cards(f.discard, CSM_DECK_CAP, state.discard, "discard")
    f.jokers_out = state.jokers_out
    f.joker_by = state.joker_by
    f.reshuffled = state.reshuffled
    f.re_pile_len = _read_cards(f.re_pile, CSM_DECK_CAP, state.re_pile, "re_pile")
    f.re_hands_n = _read_lists(&f.re_hands[0][0], CSM_HAND, f.re_hand_len, CSM_HAND,
                               state.re_hands, "re_hands")
    f.re_drawn_n = _read_lists(&f.re_drawn[0][0], CSM_DECK_CAP, f.re_drawn_len, CSM_DECK_CAP,
                               state.re_drawn, "re_drawn")
    f.re_events_n = _read_lists(&f.re_events[0][0], CSM_EVENTS_CAP, f.re_events_len,
                                CSM_EVENTS_CAP, state.re_events, "re_events")
    f.trades = state.trades
    f.sales = state.sales
    f.changes = state.changes
    f.discards = state.discards
    f.bought = state.bought
    f.sold = state.sold
    history = state.history
    st.hist_tape = _writable(st.hist_tape, 0, len(history))
    for action in history:
        st.hist_tape.data[st.hist_len] = action
        st.hist_len += 1
    st.hist_tape.fill = st.hist_len
    st.log_prefix = tuple(state.log)
    return st


# ---------------------------------------------------------------------- sampling a world
#
# views.sample_state compiled. The reference is followed step by step, drawing the same
# numbers from the same generator with the same calls (getrandbits and random, through the
# generator's own methods), so that the generator ends where the reference leaves it. A view
# is first read into C; one holding anything a state of this game cannot hold (a value of
# the wrong type or out of range, lists too long for the compiled arrays) is handed to the
# reference before any number is drawn, so that its result or refusal is the reference's by
# construction. The refusals met while dealing are the reference's, with its messages;
# the last check of the dealt state is done in C and, when it fails, by the reference.

cdef enum:
    _PLAYS_CAP = CSM_EVENTS_CAP * (CSM_MAX_SEATS - 1)   # plays of the other seats
    _HIDDEN_CAP = CSM_MAX_SEATS * CSM_HAND              # cards in the hands at the reshuffle
    _MAX_DRAW = 8                                       # the most cards one draw takes

cdef int64_t _MAX_INT = _checks.MAX_INT
cdef int64_t _MAX_BANK = 2 ** 62                        # far from overflowing any sum
cdef int _SEARCH_LIMIT = _views._SEARCH_LIMIT
cdef object _fail = _views._fail
cdef object _Random = _random.Random


ctypedef struct _Seen:
    # What the sampler reads of a view besides the fields it copies into the state.
    int seat                    # -1: a spectator
    int draw_pile
    int hand_sizes[CSM_MAX_SEATS]
    int re_sizes[CSM_MAX_SEATS]
    signed char hidden[_HIDDEN_CAP]
    int hidden_len
    signed char own_re_hand[CSM_HAND]
    int own_re_hand_len
    signed char own_drawn[CSM_DECK_CAP]
    int own_drawn_len


ctypedef struct _Plays:
    # The other seats' plays since the reshuffle, in the reference's order, and the
    # explanation being searched for (views._explain).
    int count
    signed char seat[_PLAYS_CAP]
    signed char card[_PLAYS_CAP]
    int drawn[_PLAYS_CAP]               # cards the seat had drawn before the play
    signed char source[_PLAYS_CAP]      # 1: held at the reshuffle, 0: drawn since
    signed char choices[_PLAYS_CAP][2]  # the sources still to try, the next one last
    signed char n_choices[_PLAYS_CAP]


ctypedef struct _Pools:
    # views._Pools: what each pool has left and what each seat may still take.
    int old[CSM_KINDS + 1]
    int new[CSM_KINDS + 1]
    int old_left[CSM_MAX_SEATS]
    int new_used[CSM_MAX_SEATS]


cdef inline bint _int_in(object x, int64_t low, int64_t high, int64_t *out) noexcept:
    """Whether ``x`` is a plain ``int`` from ``low`` to ``high`` (then written to ``out``)."""
    cdef int overflow = 0
    cdef long long v
    if type(x) is not int:
        return False
    v = PyLong_AsLongLongAndOverflow(x, &overflow)
    if overflow or v < low or v > high:
        return False
    out[0] = v
    return True


cdef inline bint _seat_or_none(object x, int n, int *out) noexcept:
    """Whether ``x`` is a seat of ``n`` or ``None`` (then written to ``out`` as -1)."""
    cdef int64_t v
    if x is None:
        out[0] = -1
        return True
    if not _int_in(x, 0, n - 1, &v):
        return False
    out[0] = <int>v
    return True


cdef int _small_ints(object t, signed char *dst, int cap, int low, int high) noexcept:
    """The length of ``t``, a tuple of at most ``cap`` ints from ``low`` to ``high``,
    copied into ``dst``; -1 if it is not one."""
    cdef tuple items
    cdef Py_ssize_t i, k
    cdef int64_t v
    if type(t) is not tuple:
        return -1
    items = <tuple>t
    k = len(items)
    if k > cap:
        return -1
    for i in range(k):
        if not _int_in(items[i], low, high, &v):
            return -1
        dst[i] = <signed char>v
    return <int>k


cdef int _ints_per_seat(object t, int n, int64_t low, int64_t high, int64_t *dst) noexcept:
    """Whether ``t`` is a tuple of ``n`` ints from ``low`` to ``high`` (copied into ``dst``)."""
    cdef tuple items
    cdef int q
    if type(t) is not tuple or len(<tuple>t) != n:
        return False
    items = <tuple>t
    for q in range(n):
        if not _int_in(items[q], low, high, &dst[q]):
            return False
    return True


cdef int _suit_set(object t) noexcept:
    """The suits of ``t`` (a tuple of suits in increasing order) a bit each; -1 if not one."""
    cdef int mask = 0, last = -1
    cdef int64_t s
    if type(t) is not tuple:
        return -1
    for x in <tuple>t:
        if not _int_in(x, last + 1, CSM_SUITS - 1, &s):
            return -1
        last = <int>s
        mask |= 1 << last
    return mask


cdef int _read_view(State st, _Seen *sv, object view) except -1:
    """Copy ``view`` into the fields of the blank ``st`` and into ``sv``, as the reference
    sampler reads it; 0 if the view holds anything the compiled sampler leaves to it."""
    cdef csm_fields *f = &st.f
    cdef csm_rules *r = &st.rules
    cdef int n = r.n
    cdef int q, s, i, k, size, plays = 0
    cdef int64_t v, total = 0
    cdef int64_t wide[CSM_MAX_SEATS]
    cdef int64_t rows[CSM_SUITS]
    cdef int drawn[CSM_MAX_SEATS]
    cdef int played[CSM_MAX_SEATS]
    cdef signed char sizes[CSM_MAX_SEATS]
    if view.game != "card_stock_market" or not _int_in(view.players, n, n, &v):
        return 0
    if not _seat_or_none(view.seat, n, &sv.seat):
        return 0
    if not _int_in(view.dealer, 0, n - 1, &v):
        return 0
    f.dealer = <int>v
    if not _int_in(view.turn_player, 0, n - 1, &v):
        return 0
    f.turn = <int>v
    if not _int_in(view.turn_number, 1, _MAX_INT, &f.turns):
        return 0
    if not _seat_or_none(view.current_player, n, &f.cur):
        return 0
    decision = view.decision
    f.phase = -1
    for i in range(CSM_PH_OVER + 1):
        if type(decision) is str and decision == _PHASE_NAMES[i]:
            f.phase = i
    if f.phase < 0:
        return 0
    suits = view.suits
    if type(suits) is not tuple or len(<tuple>suits) != CSM_SUITS:
        return 0
    for s in range(CSM_SUITS):
        market = (<tuple>suits)[s]
        if type(market) is not _SuitMarket:
            return 0
        k = _small_ints(market.pile, f.piles[s], CSM_PILE_CAP, s * CSM_RANKS, s * CSM_RANKS + CSM_RANKS - 1)
        if k < 1:
            return 0
        f.pile_len[s] = k
        bankrupt = market.bankrupt
        if type(bankrupt) is not bool or not _int_in(market.price, 0, _C.MAX_PRICE, &v):
            return 0
        f.busted[s] = bankrupt
        f.prices[s] = <int>v
    certificates = view.certificates
    shares = view.shares
    if (type(certificates) is not tuple or len(<tuple>certificates) != n
            or type(shares) is not tuple or len(<tuple>shares) != n):
        return 0
    for q in range(n):
        k = _small_ints((<tuple>certificates)[q], f.certs[q], CSM_CERT_CAP, 0, CSM_KINDS - 1)
        if k < 0 or not _ints_per_seat((<tuple>shares)[q], CSM_SUITS, 0, CSM_MAX_SHARES, rows):
            return 0
        f.cert_len[q] = k
        for s in range(CSM_SUITS):
            f.held[q][s] = <int>rows[s]
    if not _ints_per_seat(view.cash, n, 0, _MAX_INT, f.cash):
        return 0
    if not _ints_per_seat(view.debts, n, 0, _MAX_INT, f.debt):
        return 0
    bank = view.bank
    if bank is None:
        total = r.bank_money + n * r.starting_money
        for q in range(n):
            total -= f.cash[q]
        f.bank = total
    elif not _int_in(bank, -_MAX_BANK, _MAX_BANK, &f.bank):
        return 0
    if not _int_in(view.levies, 0, _MAX_INT, &f.levies):
        return 0
    f.discard_len = _small_ints(view.discard_pile, f.discard, CSM_DECK_CAP, 0, CSM_KINDS - 1)
    if f.discard_len < 0 or not _int_in(view.draw_pile, 0, CSM_DECK_CAP, &v):
        return 0
    sv.draw_pile = <int>v
    if not _int_in(view.jokers_held_out, 0, _C.COPIES, &v) or v == 1:
        return 0
    f.jokers_out = <int>v
    if not _seat_or_none(view.joker_drawn_by, n, &f.joker_by):
        return 0
    reshuffled = view.reshuffled
    if type(reshuffled) is not bool:
        return 0
    f.reshuffled = reshuffled
    if not _int_in(view.trades, 0, CSM_MAX_TRADES, &v):
        return 0
    f.trades = <int>v
    if not _int_in(view.sales, 0, f.trades, &v):
        return 0
    f.sales = <int>v
    if not _int_in(view.changes, 0, CSM_MAX_CHANGES, &v):
        return 0
    f.changes = <int>v
    if not _int_in(view.discards, 0, CSM_MAX_DISCARDS, &v):
        return 0
    f.discards = <int>v
    f.bought = _suit_set(view.bought_suits)
    f.sold = _suit_set(view.sold_suits)
    if f.bought < 0 or f.sold < 0:
        return 0
    hand = view.hand
    if sv.seat >= 0:
        k = _small_ints(hand, f.hands[sv.seat], CSM_HAND, 0, CSM_KINDS - 1)
        if k < 0:
            return 0
        f.hand_len[sv.seat] = k
    elif hand != ():
        return 0
    for q in range(n):
        wide[q] = 0
    if not _ints_per_seat(view.hand_sizes, n, 0, CSM_HAND, wide):
        return 0
    for q in range(n):
        sv.hand_sizes[q] = <int>wide[q]
    # The lists kept since the reshuffle.
    f.re_pile_len = _small_ints(view.reshuffle_pile, f.re_pile, CSM_DECK_CAP, 0, CSM_JOKER)
    sv.hidden_len = _small_ints(view.reshuffle_hidden, sv.hidden, _HIDDEN_CAP, 0, CSM_KINDS - 1)
    sv.own_re_hand_len = _small_ints(
        view.own_reshuffle_hand, sv.own_re_hand, CSM_HAND, 0, CSM_KINDS - 1
    )
    sv.own_drawn_len = _small_ints(view.own_drawn, sv.own_drawn, CSM_DECK_CAP, 0, CSM_KINDS - 1)
    if min(f.re_pile_len, sv.hidden_len, sv.own_re_hand_len, sv.own_drawn_len) < 0:
        return 0
    if sv.seat < 0 and sv.own_re_hand_len + sv.own_drawn_len:
        return 0
    records = view.records
    re_sizes = view.reshuffle_hand_sizes
    if not f.reshuffled:
        # Nothing is kept before the reshuffle (what a view shows otherwise is refused
        # by the reference's checks).
        if (f.re_pile_len + sv.hidden_len + sv.own_re_hand_len + sv.own_drawn_len
                or records != () or re_sizes != ()):
            return 0
        return 1
    if (type(records) is not tuple or len(<tuple>records) != n
            or _small_ints(re_sizes, sizes, CSM_MAX_SEATS, 0, CSM_HAND) != n):
        return 0
    f.re_hands_n = f.re_drawn_n = f.re_events_n = n
    for q in range(n):
        sv.re_sizes[q] = sizes[q]
        k = _small_ints((<tuple>records)[q], f.re_events[q], CSM_EVENTS_CAP, -_MAX_DRAW,
                        CSM_KINDS - 1)
        if k < 0:
            return 0
        f.re_events_len[q] = k
        drawn[q] = played[q] = 0
        for i in range(k):
            if f.re_events[q][i] < 0:
                drawn[q] -= f.re_events[q][i]
            else:
                played[q] += 1
        if q != sv.seat:
            # The hand the deal would give this seat must fit a hand.
            size = sizes[q] + drawn[q] - played[q]
            if size < 0 or size > CSM_HAND or drawn[q] > CSM_DECK_CAP:
                return 0
            plays += played[q]
    return 1 if plays <= _PLAYS_CAP else 0


cdef inline int _randbelow(object bits, int n) except -1:
    """``Random._randbelow(n)`` for 0 < n < 2**31: ``getrandbits`` until below ``n``."""
    cdef int k = 0, m = n, v
    while m:
        k += 1
        m >>= 1
    v = bits(k)
    while v >= n:
        v = bits(k)
    return v


cdef int _shuffle(object bits, signed char *x, int length) except -1:
    """``Random.shuffle``: ``x[i]`` swapped with ``x[_randbelow(i + 1)]``, last to first."""
    cdef int i, j
    cdef signed char t
    for i in range(length - 1, 0, -1):
        j = _randbelow(bits, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t
    return 0


cdef int _elements(const int *counts, signed char *out) noexcept:
    """``sorted(Counter.elements())`` of the 53 kinds' counts: how many cards were written."""
    cdef int c, i, m = 0
    for c in range(CSM_KINDS + 1):
        for i in range(counts[c]):
            out[m] = <signed char>c
            m += 1
    return m


cdef int _deal_before(State st, _Seen *sv, object bits) except -1:
    """views._deal_before_reshuffle: one pool for every card no one can see."""
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef int unseen[CSM_KINDS + 1]
    cdef signed char cards[CSM_DECK_CAP]
    cdef int c, i, q, s, m, at = 0, take
    for c in range(CSM_KINDS):
        unseen[c] = _C.COPIES
    unseen[CSM_JOKER] = 0
    for i in range(f.discard_len):
        unseen[f.discard[i]] -= 1
    if sv.seat >= 0:
        for i in range(f.hand_len[sv.seat]):
            unseen[f.hands[sv.seat][i]] -= 1
    for s in range(CSM_SUITS):
        for i in range(f.pile_len[s]):
            unseen[f.piles[s][i]] -= 1
    for q in range(n):
        for i in range(f.cert_len[q]):
            unseen[f.certs[q][i]] -= 1
    for c in range(CSM_KINDS):
        if unseen[c] < 0:
            raise _fail("more copies of a card are seen than the deck holds")
    m = _elements(unseen, cards)
    _shuffle(bits, cards, m)
    for q in range(n):
        if q == sv.seat:
            continue
        take = min(sv.hand_sizes[q], m - at) if at < m else 0
        memcpy(f.hands[q], cards + at, take)
        _sort_cards(f.hands[q], take)
        f.hand_len[q] = take
        at += sv.hand_sizes[q]
    f.draw_len = m - at if at < m else 0
    memcpy(f.draw, cards + at, f.draw_len)
    if f.draw_len != sv.draw_pile:
        raise _fail(f"{m} unseen cards for {at} in hands and {sv.draw_pile} to draw")
    return 0


cdef inline void _take(_Pools *pools, bint from_old, int q, int card, int sign) noexcept:
    """_Pools.take: take (``sign`` -1) or give back (+1) the card of one play of ``q``."""
    if from_old:
        pools.old_left[q] += sign
        pools.old[card] += sign
    else:
        pools.new_used[q] -= sign
        pools.new[card] += sign


cdef bint _can_finish(const _Pools *pools, const _Plays *plays, int start) noexcept:
    """_Pools.can_finish of the plays from ``start`` on."""
    cdef int need[CSM_KINDS + 1]
    cdef int seat = -1, flexible = 0, used = 0, olds = 0
    cdef int j, q, card, c
    cdef bint can_old
    memset(need, 0, sizeof(need))
    for j in range(start, plays.count):
        q = plays.seat[j]
        card = plays.card[j]
        if q != seat:
            if seat >= 0 and olds > pools.old_left[seat]:
                return False
            seat = q
            flexible = olds = 0
            used = pools.new_used[q]
        need[card] += 1
        can_old = pools.old[card] > 0
        if pools.new[card] > 0:
            used += 1
            if can_old:
                flexible += 1
            if used > plays.drawn[j]:
                if not flexible:
                    return False
                flexible -= 1
                used -= 1
                olds += 1
        elif can_old:
            olds += 1
        else:
            return False
    if seat >= 0 and olds > pools.old_left[seat]:
        return False
    for c in range(CSM_KINDS + 1):
        if need[c] > pools.old[c] + pools.new[c]:
            return False
    return True


cdef int _explain(_Pools *pools, _Plays *plays, object rand) except -1:
    """views._explain: the source of every play, found by the same depth-first search."""
    cdef int steps = 0, i = 0, options = 0, q, card, nc
    cdef signed char from_old
    cdef bint found
    while i < plays.count:
        steps += 1
        if steps > _SEARCH_LIMIT:
            raise _fail("no explanation found for the plays since the reshuffle")
        q = plays.seat[i]
        card = plays.card[i]
        if options == i:
            nc = 0
            if pools.old_left[q] > 0 and pools.old[card] > 0:
                plays.choices[i][nc] = 1
                nc += 1
            if pools.new_used[q] < plays.drawn[i] and pools.new[card] > 0:
                plays.choices[i][nc] = 0
                nc += 1
            if nc == 2 and rand() < 0.5:
                plays.choices[i][0] = 0
                plays.choices[i][1] = 1
            plays.n_choices[i] = <signed char>nc
            options += 1
        found = False
        while plays.n_choices[i]:
            plays.n_choices[i] -= 1
            from_old = plays.choices[i][plays.n_choices[i]]
            _take(pools, from_old, q, card, -1)
            if _can_finish(pools, plays, i + 1):
                plays.source[i] = from_old
                i += 1
                found = True
                break
            _take(pools, from_old, q, card, 1)
        if not found:
            # A dead end: forget this play's options and undo the previous choice.
            options -= 1
            i -= 1
            if i < 0:
                raise _fail("the plays since the reshuffle cannot be explained")
            _take(pools, plays.source[i], plays.seat[i], plays.card[i], 1)
    return 0


cdef int _deal_after(State st, _Seen *sv, object bits, object rand) except -1:
    """views._deal_after_reshuffle: the hands at the reshuffle and the new draw pile."""
    cdef csm_fields *f = &st.f
    cdef int n = st.rules.n
    cdef _Pools pools
    cdef _Plays plays
    cdef int drawn_count[CSM_MAX_SEATS]
    cdef int have[CSM_KINDS + 1]
    cdef signed char old_rest[_HIDDEN_CAP]
    cdef signed char new_rest[CSM_DECK_CAP]
    cdef int c, e, i, j, q, jokers, m_old, m_new, po = 0, pn = 0, take, drawn
    memset(&pools, 0, sizeof(_Pools))
    for i in range(sv.hidden_len):
        pools.old[sv.hidden[i]] += 1
    for i in range(sv.own_re_hand_len):
        pools.old[sv.own_re_hand[i]] -= 1
    for i in range(f.re_pile_len):
        pools.new[f.re_pile[i]] += 1
    for i in range(sv.own_drawn_len):
        pools.new[sv.own_drawn[i]] -= 1
    if f.joker_by >= 0:
        pools.new[CSM_JOKER] -= 1
    for c in range(CSM_KINDS + 1):
        if pools.old[c] < 0 or pools.new[c] < 0:
            raise _fail("this seat's own cards are not among those of the reshuffle")
    jokers = pools.new[CSM_JOKER]
    pools.new[CSM_JOKER] = 0
    # Each other seat's plays since the reshuffle, with the draws made before each.
    plays.count = 0
    for q in range(n):
        drawn_count[q] = 0
        if q == sv.seat:
            continue
        drawn = 0
        for i in range(f.re_events_len[q]):
            e = f.re_events[q][i]
            if e < 0:
                drawn -= e
            else:
                plays.seat[plays.count] = <signed char>q
                plays.card[plays.count] = <signed char>e
                plays.drawn[plays.count] = drawn
                plays.count += 1
        drawn_count[q] = drawn
    for q in range(n):
        pools.old_left[q] = sv.re_sizes[q]
    _explain(&pools, &plays, rand)
    # Each seat's hand at the reshuffle and its draws hold the cards its plays needed,
    # the rest dealt at random from what is left of each pool.
    for q in range(n):
        f.re_hand_len[q] = 0
        f.re_drawn_len[q] = 0
    for i in range(plays.count):
        q = plays.seat[i]
        if plays.source[i]:
            _push(f.re_hands[q], &f.re_hand_len[q], CSM_HAND, plays.card[i])
        else:
            _push(f.re_drawn[q], &f.re_drawn_len[q], CSM_DECK_CAP, plays.card[i])
    m_old = _elements(pools.old, old_rest)
    m_new = _elements(pools.new, new_rest)
    _shuffle(bits, old_rest, m_old)
    _shuffle(bits, new_rest, m_new)
    for q in range(n):
        if q == sv.seat:
            continue
        take = min(sv.re_sizes[q] - f.re_hand_len[q], m_old - po)
        memcpy(f.re_hands[q] + f.re_hand_len[q], old_rest + po, take)
        f.re_hand_len[q] += take
        po += take
        take = min(drawn_count[q] - f.re_drawn_len[q], m_new - pn)
        memcpy(f.re_drawn[q] + f.re_drawn_len[q], new_rest + pn, take)
        f.re_drawn_len[q] += take
        pn += take
        if f.re_drawn_len[q] != drawn_count[q] or f.re_hand_len[q] != sv.re_sizes[q]:
            raise _fail(f"too few unseen cards for seat {q}")
    if po < m_old:
        raise _fail(f"{m_old - po} cards of the hands at the reshuffle have no place")
    f.draw_len = m_new - pn + jokers
    memcpy(f.draw, new_rest + pn, m_new - pn)
    for i in range(m_new - pn, f.draw_len):
        f.draw[i] = CSM_JOKER
    _shuffle(bits, f.draw, f.draw_len)
    if f.draw_len != sv.draw_pile:
        raise _fail(f"{f.draw_len} cards left for a draw pile of {sv.draw_pile}")
    for q in range(n):
        if q == sv.seat:
            memcpy(f.re_hands[q], sv.own_re_hand, sv.own_re_hand_len)
            f.re_hand_len[q] = sv.own_re_hand_len
            memcpy(f.re_drawn[q], sv.own_drawn, sv.own_drawn_len)
            f.re_drawn_len[q] = sv.own_drawn_len
            continue
        memset(have, 0, sizeof(have))
        for i in range(f.re_hand_len[q]):
            have[f.re_hands[q][i]] += 1
        for i in range(f.re_drawn_len[q]):
            have[f.re_drawn[q][i]] += 1
        for i in range(f.re_events_len[q]):
            if f.re_events[q][i] >= 0:
                have[f.re_events[q][i]] -= 1
        take = 0
        for c in range(CSM_KINDS + 1):
            if have[c] < 0:
                have[c] = 0
            take += have[c]
        if take > CSM_HAND:
            raise ValueError("a Card Stock Market list outgrew its compiled capacity")
        f.hand_len[q] = _elements(have, f.hands[q])
    for q in range(n):
        _sort_cards(f.re_hands[q], f.re_hand_len[q])
    return 0


cdef inline int _bits_set(int mask) noexcept:
    cdef int k = 0
    while mask:
        k += mask & 1
        mask >>= 1
    return k


cdef bint _sampled_ok(State st) noexcept:
    """Whether the reference's ``check_invariants`` passes on the dealt ``st``.

    It is exact where a sample's fields can go wrong; the ranges of the fields copied from
    the view are not checked again (``_read_view`` let only those ranges through), nor the
    lists the dealing makes whole by construction. False says only "ask the reference".
    """
    cdef csm_fields *f = &st.f
    cdef csm_rules *r = &st.rules
    cdef int n = r.n
    cdef int counts[CSM_KINDS + 1]
    cdef int have[CSM_KINDS + 1]
    cdef int shares[CSM_SUITS]
    cdef int q, s, i, c, top, used, draws
    cdef int64_t total
    memset(counts, 0, sizeof(counts))
    # _check_cards
    for s in range(CSM_SUITS):
        top = f.piles[s][f.pile_len[s] - 1]
        if RANK_OF[top] <= 10 and f.busted[s]:
            return False
        if f.prices[s] != (0 if f.busted[s] else RANK_OF[top]):
            return False
        for i in range(f.pile_len[s]):
            counts[f.piles[s][i]] += 1
    for q in range(n):
        if f.hand_len[q] > CSM_HAND:
            return False
        for i in range(f.hand_len[q]):
            if i and f.hands[q][i - 1] > f.hands[q][i]:
                return False
            counts[f.hands[q][i]] += 1
        memset(shares, 0, sizeof(shares))
        for i in range(f.cert_len[q]):
            c = f.certs[q][i]
            if i and f.certs[q][i - 1] > c:
                return False
            shares[SUIT_OF[c]] += SHARES[c]
            counts[c] += 1
        for s in range(CSM_SUITS):
            if shares[s] != f.held[q][s]:
                return False
    for i in range(f.draw_len):
        counts[f.draw[i]] += 1
    for i in range(f.discard_len):
        counts[f.discard[i]] += 1
    counts[CSM_JOKER] += f.jokers_out + (1 if f.joker_by >= 0 else 0)
    for c in range(CSM_KINDS + 1):
        if counts[c] != _C.COPIES:
            return False
    # _check_money
    total = r.bank_money + n * r.starting_money - f.bank
    for q in range(n):
        total -= f.cash[q]
    if total != 0:
        return False
    if (f.bank < 0) if r.bank_limited else (f.levies != 0):
        return False
    for q in range(n):
        # debt <= levies * levy, without the product (which may not fit 64 bits).
        if f.debt[q] and (r.levy <= 0 or (f.debt[q] + r.levy - 1) // r.levy > f.levies):
            return False
        if f.debt[q] and f.cash[q] and (r.immediate_repay or f.phase == CSM_PH_OVER or q != f.turn):
            return False
    # _check_turn
    if _bits_set(f.bought) > f.trades - f.sales or _bits_set(f.sold) > f.sales:
        return False
    if f.phase == CSM_PH_OVER:
        if f.cur != -1 or f.joker_by < 0:
            return False
        for q in range(n):
            if f.cert_len[q]:
                return False
    else:
        if f.cur != f.turn or f.joker_by != -1 or f.discards >= CSM_MAX_DISCARDS:
            return False
        if f.phase == CSM_PH_START:
            if f.trades or f.changes or f.discards:
                return False
        elif f.phase == CSM_PH_DISCARD:
            if f.trades or f.changes or not f.discards:
                return False
        elif f.phase == CSM_PH_TRADE:
            if (not f.trades or f.discards or (f.changes and r.trade_first)
                    or (f.trades == CSM_MAX_TRADES and f.changes)):
                return False
        elif (not f.changes or f.discards
                or (f.changes == CSM_MAX_CHANGES and (f.trades or r.trade_first))):
            return False
        used = f.trades - f.sales + f.changes + f.discards
        for q in range(n):
            if f.hand_len[q] != (CSM_HAND - used if q == f.turn else CSM_HAND):
                return False
        if not f.draw_len:
            return False
    # _check_reshuffle
    if not f.reshuffled:
        return (f.jokers_out == _C.COPIES and not f.re_pile_len and not f.re_hands_n
                and not f.re_drawn_n and not f.re_events_n)
    if f.jokers_out or f.re_hands_n != n or f.re_drawn_n != n or f.re_events_n != n:
        return False
    memset(counts, 0, sizeof(counts))
    for i in range(f.draw_len):
        counts[f.draw[i]] += 1
    if f.joker_by >= 0:
        counts[CSM_JOKER] += 1
    for q in range(n):
        memset(have, 0, sizeof(have))
        for i in range(f.re_drawn_len[q]):
            counts[f.re_drawn[q][i]] += 1
            have[f.re_drawn[q][i]] += 1
        for i in range(f.re_hand_len[q]):
            have[f.re_hands[q][i]] += 1
        draws = 0
        for i in range(f.re_events_len[q]):
            c = f.re_events[q][i]
            if c < 0:
                draws -= c
            else:
                have[c] -= 1
        if draws != f.re_drawn_len[q]:
            return False
        for i in range(f.hand_len[q]):
            have[f.hands[q][i]] -= 1
        for c in range(CSM_KINDS + 1):
            if have[c]:
                return False
    for i in range(f.re_pile_len):
        counts[f.re_pile[i]] -= 1
    for c in range(CSM_KINDS + 1):
        if counts[c]:
            return False
    return True


def sample_state(game, view, rng):
    """A world dealt from ``view`` as ``game.sample_state(view, rng)`` deals it, compiled.

    Equal in every field to ``from_state(game.sample_state(view, rng))``, with the same
    numbers drawn from ``rng`` by the same calls (so ``rng`` ends in the reference's state)
    and the reference's refusals. A generator other than a ``random.Random`` itself, or a
    view this module does not read, is left to the reference.
    """
    cdef State st
    cdef _Seen sv
    if type(rng) is not _Random or type(view) is not _View or not isinstance(game, _Game):
        return from_state(game.sample_state(view, rng, engine="reference"))
    st = blank_state(game)
    if not _read_view(st, &sv, view):
        return from_state(game.sample_state(view, rng, engine="reference"))
    st.f.seed = _fresh_seed(rng)
    bits = rng.getrandbits
    if st.f.reshuffled:
        _deal_after(st, &sv, bits, rng.random)
    else:
        _deal_before(st, &sv, bits)
    if not _sampled_ok(st):
        try:
            st.to_reference().check_invariants()
        except (AssertionError, IndexError, KeyError, TypeError, ValueError) as exc:
            raise _fail(str(exc)) from None
    return st
