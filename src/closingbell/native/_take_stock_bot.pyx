# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rule-based Take Stock bot (:mod:`closingbell.bots.take_stock`) compiled.

It makes the reference's choice on every view and gives its evaluation bit for bit: every
float is computed with the same operations in the same order (Python's floats are C
doubles, ``x ** n`` and ``math.tanh`` are the C library's ``pow`` and ``tanh``, ``sum`` is
reproduced as the running Python adds floats), and every sort is stable like Python's.

Two layers: :c:func:`ts_fill_view` copies what the bot reads of a view into a
``ts_view`` (:c:func:`ts_fill_from_state` fills the same struct from a compiled state);
:c:func:`ts_pick` and :c:func:`ts_evaluate` decide from that struct alone, without Python
objects. :func:`playout` plays the bot for every seat of a compiled state that way, as a
search's play-outs do, with no view made.
"""

import math
import random
import sys

from libc.math cimport INFINITY, ceil, pow, tanh
from libc.stdlib cimport malloc
from libc.string cimport memset

from closingbell.games.take_stock import cards as _cards
from closingbell.games.take_stock import state as _state

# ---------------------------------------------------------------------- the rules' numbers

# Action ids (TS_A_*), event kinds (TS_K_*) and the rules' numbers come from the generated
# _take_stock_ids.pxi (see the .pxd).
cdef enum:
    # Counts cached by best_unseen's table: hands larger than this are computed each time.
    MAX_CACHED_HAND = 16

cdef int EVENT_DECK[TS_KINDS]


cdef void _fill_event_deck():
    """Copy the event deck from the data module."""
    cdef int k
    for k in range(TS_KINDS):
        EVENT_DECK[k] = _cards.EVENT_DECK[k]


_fill_event_deck()

# ---------------------------------------------------------------------- sum() as Python adds

# From Python 3.12, sum() of floats compensates its rounding errors (Neumaier's method).
cdef bint COMPENSATED = sys.version_info >= (3, 12)


cdef extern from "pysum.h":
    double cb_py_sum(const double *xs, long n, int compensated) noexcept nogil


cdef inline double py_sum(const double *xs, int n) noexcept nogil:
    """``sum(xs)`` of ``n`` floats, exactly as the running Python computes it."""
    return cb_py_sum(xs, n, COMPENSATED)


def python_sum(values):
    """``sum(values)`` of floats as the compiled bot computes it (for tests)."""
    cdef double xs[TS_LIST]
    cdef int n = len(values)
    cdef int i
    if n > TS_LIST:
        raise ValueError(f"at most {TS_LIST} values")
    for i in range(n):
        xs[i] = values[i]
    return py_sum(xs, n)


def _sum_agrees():
    """Whether this Python's sum() of floats is the one py_sum reproduces."""
    rng = random.Random("take-stock-bot/sum")
    for _ in range(500):
        xs = [rng.uniform(-1.0, 1.0) * 10.0 ** rng.randint(-8, 17) for _ in range(rng.randint(1, 9))]
        if math.copysign(1.0, sum(xs)) != math.copysign(1.0, python_sum(xs)):
            return False
        if sum(xs) != python_sum(xs):
            return False
    return sum([-0.0, -0.0]) == python_sum([-0.0, -0.0])


SUM_AGREES = _sum_agrees()
"""Whether the compiled bot adds floats as this Python's ``sum`` does (else it refuses)."""

# ---------------------------------------------------------------------- best_unseen's counts

# counts(total, i, h, k) depends on those four integers only, so it is computed once per
# process. Rows are indexed by [h][k][total] and hold one entry per i (-1: not yet known).
cdef double *COUNT_ROWS[MAX_CACHED_HAND + 1][MAX_CACHED_HAND + 1][TS_CARDS + 1]


cdef double count_at(int total, int i, int h, int k) noexcept nogil:
    """The expected number of the ``k`` best of ``h`` draws at or above the ``i``-th lowest.

    As the reference's loop: ``sum(min(j, k) * comb(h, j) * p**j * q**(h - j))``.
    """
    cdef double p = <double>(total - i) / <double>total
    cdef double q = 1.0 - p
    cdef double count = 0.0
    cdef long long binom = 1
    cdef long long m
    cdef int j
    for j in range(1, h + 1):
        binom = binom * (h - j + 1) // j  # comb(h, j), exact
        m = j if not k < j else k
        count += (<double>(m * binom) * pow(p, <double>j)) * pow(q, <double>(h - j))
    return count


cdef double counts(int total, int i, int h, int k) noexcept nogil:
    """``count_at``, remembered."""
    cdef double *row
    cdef int x
    if h > MAX_CACHED_HAND:
        return count_at(total, i, h, k)
    row = COUNT_ROWS[h][k][total]
    if row == NULL:
        row = <double *>malloc(total * sizeof(double))
        if row == NULL:
            return count_at(total, i, h, k)
        for x in range(total):
            row[x] = -1.0
        COUNT_ROWS[h][k][total] = row
    if row[i] < 0.0:
        row[i] = count_at(total, i, h, k)
    return row[i]

# ---------------------------------------------------------------------- stable sorts (as Python's)


cdef void sort_keyed(double *keys, int *items, int n) noexcept nogil:
    """Sort ``items`` by ``keys``, rising; equal keys keep their order (``sorted(key=)``)."""
    cdef int i, j, item
    cdef double key
    for i in range(1, n):
        key = keys[i]
        item = items[i]
        j = i
        while j > 0 and key < keys[j - 1]:
            keys[j] = keys[j - 1]
            items[j] = items[j - 1]
            j -= 1
        keys[j] = key
        items[j] = item


ctypedef fused number:
    int
    double


cdef void sort_values(number *xs, int n, bint falling) noexcept nogil:
    """``xs.sort(reverse=falling)``: equal values keep their order either way."""
    cdef int i, j
    cdef number x
    for i in range(1, n):
        x = xs[i]
        j = i
        while j > 0 and ((x > xs[j - 1]) if falling else (x < xs[j - 1])):
            xs[j] = xs[j - 1]
            j -= 1
        xs[j] = x


cdef void sort_pairs(double *gs, double *ps, int n) noexcept nogil:
    """Pairs ``(g, p)`` rising as Python orders tuples: by ``g``, then by ``p``."""
    cdef int i, j
    cdef double g, p
    for i in range(1, n):
        g = gs[i]
        p = ps[i]
        j = i
        while j > 0 and (g < gs[j - 1] or (g == gs[j - 1] and p < ps[j - 1])):
            gs[j] = gs[j - 1]
            ps[j] = ps[j - 1]
            j -= 1
        gs[j] = g
        ps[j] = p

# ---------------------------------------------------------------------- the board (_Board)


cdef struct Board:
    const ts_params *P
    const ts_view *V
    int me
    int n
    int tops[TS_STOCKS]
    int limit
    double tau
    double rise
    double fac
    double ffac
    double est[TS_STOCKS]
    int later
    double opp_w[TS_SEATS]
    long long lead
    double mine[TS_STOCKS]
    double opp[TS_STOCKS]
    int tokens
    double alpha[TS_CARDS]      # a hand card's alpha; alpha_low for every other card
    bint top_k[TS_CARDS]
    double next_in
    int by_stock[TS_STOCKS][TS_LIST]
    int by_len[TS_STOCKS]
    double stake[TS_STOCKS]
    double values[TS_STOCKS]
    # Caches of pure functions of the board, as the reference's.
    double held[TS_CARDS]
    bint held_ok[TS_CARDS]
    double events[2][TS_KINDS]
    bint events_ok[2][TS_KINDS]
    bint absolute_ok
    double absolute
    bint unseen_ok
    int unseen_total
    int unseen_count[TS_STOCKS][11]  # unseen cards by stock and share group
    int error


cdef inline double fmax_py(double a, double b) noexcept nogil:
    """``max(a, b)``: ``b`` only if it is greater."""
    return b if b > a else a


cdef inline double fmin_py(double a, double b) noexcept nogil:
    """``min(a, b)``: ``b`` only if it is smaller."""
    return b if b < a else a


cdef inline int shares_of(const Board *b, int c) noexcept nogil:
    """The shares printed on share card ``c``."""
    return b.P.shares[c % TS_VALUES + 1]


cdef double expect(const Board *b, int top, int mult, bint frozen) noexcept nogil:
    """``_Board.expect``."""
    cdef double room, m
    if frozen:
        return <double>eng.ts_scoring_price(top * mult, True, b.P.zero_frozen) * b.ffac
    room = b.P.w.cap - top
    if room <= 0:
        return <double>(mult * top) * b.fac
    m = fmin_py(room, b.rise)
    return (<double>mult * (top + m)) * b.fac


cdef int planned(const Board *b, int tokens) noexcept nogil:
    """``_Board.planned``."""
    if b.later <= 0:
        return tokens
    return <int>ceil(<double>tokens / <double>(b.later + 1))


cdef double stock_value(const Board *b, int top, int mult, bint frozen, double stake,
                        const int *cards, int ncards) noexcept nogil:
    """``_Board.stock_value``."""
    cdef double e = expect(b, top, mult, frozen)
    cdef double value = e * stake
    cdef int reach, steps, i, c, v
    cdef double rest, gain
    if not frozen and ncards > 0:
        reach = top
        rest = stake
        steps = 0
        for i in range(ncards):
            c = cards[i]
            v = c % TS_VALUES + 1
            if reach < v <= reach + TS_MAX_RAISE:
                reach = v
                rest -= b.alpha[c] * b.P.shares[v]
                steps += 1
        if steps and rest > 0:
            gain = expect(b, reach, mult, False) - e
            value += ((b.P.w.raise_option * rest) * gain) * (1.1 - 0.1 * steps)
    return value


cdef int without(const int *cards, int n, int c, int *out) noexcept nogil:
    """``[x for x in cards if x != c]`` into ``out``; returns its length."""
    cdef int i, m = 0
    for i in range(n):
        if cards[i] != c:
            out[m] = cards[i]
            m += 1
    return m


cdef void init_board(Board *b, const ts_params *P, const ts_view *V) noexcept nogil:
    """``_Board.__init__``."""
    cdef const ts_weights *w = &P.w
    cdef int s, q, i, c, me, n, k, top_high, nk, end, idx, leader, x
    cdef long long value, best_score
    cdef double tau, best, base
    cdef double keys[TS_LIST]
    cdef int ranked[TS_LIST]
    b.P = P
    b.V = V
    b.error = TS_OK
    me = V.seat
    n = V.players
    b.me = me
    b.n = n
    for s in range(TS_STOCKS):
        b.tops[s] = V.rows[s][V.row_len[s] - 1]
    b.limit = 0
    for s in range(TS_STOCKS):
        x = eng.ts_row_count(V.row_len[s], V.splits[s], V.frozen[s], P.limit_counts_freeze)
        if s == 0 or x > b.limit:
            b.limit = x
    tau = fmin_py(1.0, V.event_pile / w.full_round_events)
    top_high = b.tops[0]
    for s in range(1, TS_STOCKS):
        if b.tops[s] > top_high:
            top_high = b.tops[s]
    if top_high > 5:
        tau *= fmax_py(0.4, 1.0 - 0.08 * (top_high - 5))
    b.tau = tau
    b.rise = tau * w.growth
    b.fac = 1.0 + tau * (w.upside - w.downside)
    b.ffac = 1.0 - tau * w.frozen_downside
    for s in range(TS_STOCKS):
        b.est[s] = expect(b, b.tops[s], V.splits[s] + 1, V.frozen[s])
    b.later = V.rounds - V.round
    # Opponents: weights and certificate shares.
    for q in range(n):
        b.opp_w[q] = 0.0
    if n == 2:
        b.opp_w[1 - me] = 1.0
    else:
        leader = -1
        best = -1.0
        for q in range(n):
            if q == me:
                continue
            value = V.scores[q]
            for i in range(V.certs_len[q]):
                c = V.certs[q][i]
                value += shares_of(b, c) * V.price[c // TS_VALUES]
            if value > best:
                best = <double>value
                leader = q
        base = (1.0 - w.leader_weight) / (n - 1)
        for q in range(n):
            if q != me:
                b.opp_w[q] = base + (w.leader_weight if q == leader else 0.0)
    best_score = V.scores[1 if me == 0 else 0]
    for q in range(n):
        if q != me and V.scores[q] > best_score:
            best_score = V.scores[q]
    b.lead = V.scores[me] - best_score
    for s in range(TS_STOCKS):
        b.mine[s] = 0.0
        b.opp[s] = 0.0
    for q in range(n):
        if q == me:
            for i in range(V.certs_len[q]):
                c = V.certs[q][i]
                b.mine[c // TS_VALUES] += shares_of(b, c)
        elif b.opp_w[q] != 0.0:
            for i in range(V.certs_len[q]):
                c = V.certs[q][i]
                b.opp[c // TS_VALUES] += b.opp_w[q] * shares_of(b, c)
    # The hand: the best cards (by certificate value) are likelier to become certificates.
    nk = V.hand_len
    for i in range(nk):
        c = V.hand[i]
        ranked[i] = c
        keys[i] = <double>(-shares_of(b, c)) * b.est[c // TS_VALUES]
    sort_keyed(keys, ranked, nk)
    b.tokens = V.tokens[me] - V.own_hidden_len
    k = planned(b, b.tokens) + 1
    for c in range(TS_CARDS):
        b.alpha[c] = w.alpha_low
        b.top_k[c] = False
    for i in range(nk):
        b.alpha[ranked[i]] = w.alpha_high if i < k else w.alpha_low
    # ranked[:k] and ranked[k], with Python's meaning of a negative k.
    end = k if k >= 0 else (k + nk if k + nk > 0 else 0)
    if end > nk:
        end = nk
    for i in range(end):
        b.top_k[ranked[i]] = True
    b.next_in = 0.0
    if k < nk:
        idx = k if k >= 0 else k + nk
        if idx < 0:
            b.error = TS_INDEX
            return
        c = ranked[idx]
        b.next_in = ((w.alpha_high - w.alpha_low) * shares_of(b, c)) * b.est[c // TS_VALUES]
    for s in range(TS_STOCKS):
        b.by_len[s] = 0
        b.stake[s] = b.mine[s] - b.opp[s]
    for i in range(nk):
        c = V.hand[i]
        s = c // TS_VALUES
        b.by_stock[s][b.by_len[s]] = c
        b.by_len[s] += 1
        b.stake[s] += b.alpha[c] * shares_of(b, c)
    for s in range(TS_STOCKS):
        b.values[s] = stock_value(
            b, b.tops[s], V.splits[s] + 1, V.frozen[s], b.stake[s], b.by_stock[s], b.by_len[s]
        )
    memset(b.held_ok, 0, sizeof(b.held_ok))
    memset(b.events_ok, 0, sizeof(b.events_ok))
    b.absolute_ok = False
    b.unseen_ok = False

# ---------------------------------------------------------------------- the model


cdef double held(Board *b, int c) noexcept nogil:
    """``_Board.held``: what card ``c`` is worth in hand."""
    cdef int s, n
    cdef int cards[TS_LIST]
    cdef double stake, after, value
    if b.held_ok[c]:
        return b.held[c]
    s = c // TS_VALUES
    n = without(b.by_stock[s], b.by_len[s], c, cards)
    stake = b.stake[s] - b.alpha[c] * shares_of(b, c)
    after = stock_value(b, b.tops[s], b.V.splits[s] + 1, b.V.frozen[s], stake, cards, n)
    value = b.values[s] - after
    if b.top_k[c]:
        value -= b.next_in
    b.held[c] = value
    b.held_ok[c] = True
    return value


cdef double worst(Board *b, int exclude, int *card) noexcept nogil:
    """``_Board.worst``: the worth of the card least worth keeping (its id in ``card``)."""
    cdef int best_c = -1
    cdef double best_v = INFINITY, v
    cdef int i, c
    for i in range(b.V.hand_len):
        c = b.V.hand[i]
        if c != exclude:
            v = held(b, c)
            if v < best_v:
                best_c = c
                best_v = v
    card[0] = best_c
    return 0.0 if best_c < 0 else best_v


cdef void ensure_unseen(Board *b) noexcept nogil:
    """``_Board.unseen``, as counts by stock and share group."""
    cdef const ts_view *V = b.V
    cdef char seen[TS_CARDS]
    cdef int i, q, s, c
    if b.unseen_ok:
        return
    memset(seen, 0, sizeof(seen))
    for i in range(V.hand_len):
        seen[V.hand[i]] = 1
    for i in range(V.own_hidden_len):
        seen[V.own_hidden[i]] = 1
    for i in range(V.discard_len):
        seen[V.discard[i]] = 1
    for i in range(V.retrieved_len):
        seen[V.retrieved[i]] = 1
    for q in range(V.players):
        for i in range(V.certs_len[q]):
            seen[V.certs[q][i]] = 1
    for s in range(TS_STOCKS):
        for i in range(V.row_len[s]):
            seen[s * TS_VALUES + V.rows[s][i] - 1] = 1
    memset(b.unseen_count, 0, sizeof(b.unseen_count))
    b.unseen_total = 0
    for c in range(TS_CARDS):
        if c % TS_VALUES != 0 and not seen[c]:  # the 1s are not share cards
            b.unseen_total += 1
            b.unseen_count[c // TS_VALUES][b.P.group_of[c % TS_VALUES + 1]] += 1
    b.unseen_ok = True


cdef double best_unseen(Board *b, const double *prices, int h, int k) noexcept nogil:
    """``_Board.best_unseen``: the expected worth of the ``k`` best of ``h`` unseen cards.

    The reference sorts the unseen cards' worths and walks the distinct ones; the cards of
    one stock and one share count have the same worth, so those groups are sorted instead.
    """
    cdef double worths[TS_STOCKS * 11]
    cdef int sizes[TS_STOCKS * 11]
    cdef int m = 0, s, g, j, i, at, total
    cdef double value, below, x
    if h <= 0 or k <= 0:
        return 0.0
    ensure_unseen(b)
    total = b.unseen_total
    if total == 0:
        return 0.0
    if h < k:
        k = h
    for s in range(TS_STOCKS):
        for g in range(b.P.groups):
            if b.unseen_count[s][g]:
                worths[m] = b.P.group_shares[g] * prices[s]
                sizes[m] = b.unseen_count[s][g]
                m += 1
    sort_keyed(worths, sizes, m)
    value = 0.0
    below = 0.0
    i = 0
    j = 0
    while j < m:
        x = worths[j]
        at = 0
        while j < m and worths[j] == x:
            at += sizes[j]
            j += 1
        value += (x - below) * counts(total, i, h, k)
        below = x
        i += at
    return value


cdef double absolute(Board *b) noexcept nogil:
    """``_Board.absolute``: the evaluation as the position stands."""
    cdef const ts_weights *w = &b.P.w
    cdef double others = 0.0, wq, best, rest
    cdef int q, h, k
    if b.absolute_ok:
        return b.absolute
    for q in range(b.n):
        wq = b.opp_w[q]
        if wq != 0.0:
            h = b.V.hand_sizes[q]
            k = planned(b, b.V.tokens[q]) + 1
            if h < k:
                k = h
            best = best_unseen(b, b.est, h, k)
            rest = h * best_unseen(b, b.est, 1, 1) - best
            others += wq * (w.alpha_high * best + w.alpha_low * rest)
    b.absolute = py_sum(b.values, TS_STOCKS) - others
    b.absolute_ok = True
    return b.absolute


cdef double keep_value(const Board *b, int tokens) noexcept nogil:
    """``_Board.keep_value``."""
    if b.later <= 0 or tokens <= 0:
        return 0.0
    return b.P.w.token_value * fmin_py(1.0, (b.later + 0.5) / tokens)


cdef double final(Board *b, const int *prices_in, int add_cert, const int *hand, int nhand,
                  const int *hand_sizes) noexcept nogil:
    """``_Board.final``: the evaluation if the round ended now (``hand_sizes`` may be NULL)."""
    cdef const ts_weights *w = &b.P.w
    cdef const ts_view *V = b.V
    cdef int prices[TS_STOCKS]
    cdef double fprices[TS_STOCKS]
    cdef int worths[TS_LIST]
    cdef int s, i, q, h, tokens, lim, c, t
    cdef double value = 0.0, wq, margin, banked
    for s in range(TS_STOCKS):
        prices[s] = eng.ts_scoring_price(prices_in[s], V.frozen[s], b.P.zero_frozen)
        fprices[s] = prices[s]
    for s in range(TS_STOCKS):
        value += prices[s] * (b.mine[s] - b.opp[s])
    if add_cert >= 0:
        value += prices[add_cert // TS_VALUES] * shares_of(b, add_cert)
    # My options, exercised as the bot would.
    for i in range(nhand):
        c = hand[i]
        worths[i] = shares_of(b, c) * prices[c // TS_VALUES]
    sort_values(worths, nhand, False)
    tokens = b.tokens
    lim = tokens if tokens >= 0 else tokens + nhand  # worths[:tokens]
    if lim > nhand:
        lim = nhand
    for i in range(lim):
        t = worths[nhand - 1 - i]  # falling order
        if t <= keep_value(b, tokens - i):
            break
        value += t
    # The opponents' options: the best of their cards, which the bot cannot see.
    for q in range(b.n):
        wq = b.opp_w[q]
        if wq != 0.0:
            h = V.hand_sizes[q] if hand_sizes == NULL else hand_sizes[q]
            value -= wq * best_unseen(b, fprices, h, planned(b, V.tokens[q]))
    margin = b.lead + value
    if 1 + b.later == 0:
        b.error = TS_ZERO_DIVISION
        return 0.0
    banked = (w.end_lead * tanh(margin / w.lead_scale)) / (1 + b.later)
    return (value + banked) + w.end_bias


cdef double token_worth(Board *b) noexcept nogil:
    """``_Board.token_worth``."""
    cdef double worths[TS_LIST]
    cdef int i, c, k, n = b.V.hand_len
    if b.later > 0 or b.tokens <= 0:
        return keep_value(b, b.tokens)
    for i in range(n):
        c = b.V.hand[i]
        worths[i] = shares_of(b, c) * b.est[c // TS_VALUES]
    sort_values(worths, n, True)
    k = b.tokens if b.tokens < n else n
    return worths[k - 1] if k else 0.0


cdef double with_stock(Board *b, int s, int top, int splits, bint frozen) noexcept nogil:
    """``_Board.with_stock``."""
    cdef double after = stock_value(
        b, top, splits + 1, frozen, b.stake[s], b.by_stock[s], b.by_len[s]
    )
    return after - b.values[s]


cdef void audit_options(Board *b, int s, double *card, double *split) noexcept nogil:
    """``_Board.audit_options``."""
    cdef const ts_view *V = b.V
    card[0] = -INFINITY
    split[0] = -INFINITY
    if V.row_len[s] > 1:
        card[0] = with_stock(b, s, V.rows[s][V.row_len[s] - 2], V.splits[s], False)
    if V.splits[s] > 0:
        split[0] = with_stock(b, s, V.rows[s][V.row_len[s] - 1], V.splits[s] - 1, False)


cdef double audit_choice(Board *b, int s) noexcept nogil:
    """``_Board.audit_choice``."""
    cdef double card, split, gain
    audit_options(b, s, &card, &split)
    gain = fmax_py(card, split)
    return 0.0 if gain == -INFINITY else gain


cdef double split_gain(Board *b, int s) noexcept nogil:
    """``_Board.split_gain``."""
    cdef const ts_view *V = b.V
    cdef int n = V.row_len[s]
    if V.frozen[s] or V.splits[s] >= 3:
        return 0.0
    return with_stock(b, s, V.rows[s][n - 2] if n > 1 else V.rows[s][n - 1], V.splits[s] + 1, False)


cdef double crash_gain(Board *b, int s) noexcept nogil:
    """``_Board.crash_gain``."""
    cdef const ts_view *V = b.V
    cdef int n = V.row_len[s]
    cdef int keep = eng.ts_crash_keeps(n, b.P.crash_counts_one)
    return with_stock(b, s, V.rows[s][keep - 1], V.splits[s] - 1 if V.splits[s] > 1 else 0, False)


cdef double audit_gain(Board *b) noexcept nogil:
    """``_Board.audit_gain``."""
    cdef double best = 0.0, gain
    cdef bint any_ = False
    cdef int s
    for s in range(TS_STOCKS):
        if not b.V.frozen[s]:
            gain = audit_choice(b, s)
            if not any_ or gain > best:
                best = gain
                any_ = True
    return best


cdef double freeze_option(Board *b, int s) noexcept nogil:
    """``_Board.freeze_option``."""
    return with_stock(b, s, b.tops[s], b.V.splits[s], not b.V.frozen[s])


cdef double worth_in_hand(Board *b, int c) noexcept nogil:
    """``_Board.worth_in_hand``: what card ``c`` would be worth joining the hand."""
    cdef int s = c // TS_VALUES
    cdef int cards[TS_LIST + 1]
    cdef int i, n = b.by_len[s]
    cdef double stake, after
    for i in range(n):
        cards[i] = b.by_stock[s][i]
    cards[n] = c
    sort_values(cards, n + 1, False)
    stake = b.stake[s] + b.P.w.alpha_low * shares_of(b, c)
    after = stock_value(b, b.tops[s], b.V.splits[s] + 1, b.V.frozen[s], stake, cards, n + 1)
    return after - b.values[s]


cdef double insider_gain(Board *b, int s, bint paid) noexcept nogil:
    """``_Board.insider_gain``."""
    cdef const ts_view *V = b.V
    cdef double gains[TS_LIST]
    cdef double costs[TS_LIST]
    cdef int ng = 0, nc = 0, i, start, c
    cdef double total = 0.0, take, give
    for i in range(V.discard_len):
        c = V.discard[i]
        if c // TS_VALUES == s:
            gains[ng] = worth_in_hand(b, c)
            ng += 1
    if ng == 0:
        return 0.0
    sort_values(gains, ng, True)
    for i in range(V.hand_len):
        costs[i] = held(b, V.hand[i])
    nc = V.hand_len
    sort_values(costs, nc, False)
    start = 1 if paid and nc > 0 else 0
    if ng > TS_MAX_RETRIEVE:
        ng = TS_MAX_RETRIEVE
    for i in range(ng):
        if start + i >= nc:
            break
        take = gains[i]
        give = costs[start + i]
        if take <= give:
            break
        total += take - give
    return total


cdef double downturn_gain(Board *b, bint paid) noexcept nogil:
    """``_Board.downturn_gain``: everyone discards; it ends the round if a hand empties."""
    cdef const ts_view *V = b.V
    cdef double keys[TS_LIST]
    cdef int ranked[TS_LIST]
    cdef int sizes[TS_SEATS]
    cdef int n = V.hand_len, i, q, start
    cdef bint ends
    for i in range(n):
        ranked[i] = V.hand[i]
        keys[i] = held(b, V.hand[i])
    sort_keyed(keys, ranked, n)
    start = 1 if paid and n > 0 else 0  # ranked = ranked[1:]
    ends = n - start <= 1
    for q in range(b.n):
        if q != b.me and V.hand_sizes[q] <= 1:
            ends = True
    if ends:
        for q in range(b.n):
            sizes[q] = V.hand_sizes[q] - 1 if V.hand_sizes[q] > 1 else 0
        i = start + 1 if start + 1 < n else n  # ranked[1:]
        return final(b, V.price, -1, ranked + i, n - i, sizes) - absolute(b)
    return -0.5 * held(b, ranked[start])


cdef double event_gain(Board *b, int kind, bint paid) noexcept nogil:
    """``_Board.event_gain``: the change in the evaluation if the bot played ``kind`` now."""
    cdef double gain, tv, x
    cdef double terms[TS_SEATS]
    cdef int s, q, m
    if b.events_ok[paid][kind]:
        return b.events[paid][kind]
    if kind < TS_K_CRASH:
        gain = split_gain(b, kind - TS_K_SPLIT)
    elif kind < TS_K_INSIDER:
        gain = crash_gain(b, kind - TS_K_CRASH)
    elif kind < TS_K_AUDIT:
        gain = insider_gain(b, kind - TS_K_INSIDER, paid)
    elif kind == TS_K_AUDIT:
        gain = audit_gain(b)
    elif kind == TS_K_FREEZE:
        gain = freeze_option(b, 0)
        for s in range(1, TS_STOCKS):
            x = freeze_option(b, s)
            if x > gain:
                gain = x
    elif kind == TS_K_MARKET_CRASH:
        for s in range(TS_STOCKS):
            terms[s] = crash_gain(b, s)
        gain = py_sum(terms, TS_STOCKS)
    elif kind == TS_K_DOWNTURN:
        gain = downturn_gain(b, paid)
    elif kind == TS_K_OPTION_LOST:
        tv = token_worth(b)
        gain = -tv if b.tokens > 0 else 0.0
        m = 0
        for q in range(b.n):
            if b.V.tokens[q] > 0:
                terms[m] = tv * b.opp_w[q]
                m += 1
        gain += py_sum(terms, m)
    else:  # No Change, Upturn, Option Gained: no clear gain for anyone.
        gain = 0.0
    b.events[paid][kind] = gain
    b.events_ok[paid][kind] = True
    return gain


cdef int unseen_events(const Board *b, double *probs, int *kinds) noexcept nogil:
    """``_Board.unseen_events``: kinds that may still be drawn (returns how many)."""
    cdef const ts_view *V = b.V
    cdef int left[TS_KINDS]
    cdef int k, s, total = 0, m = 0
    for k in range(TS_KINDS):
        left[k] = EVENT_DECK[k] - V.events_seen[k]
    left[TS_K_MARKET_CLOSED] = -V.events_seen[TS_K_MARKET_CLOSED]
    for s in range(TS_STOCKS):
        left[TS_K_SPLIT + s] -= V.splits[s]
        if V.frozen[s]:
            left[TS_K_FREEZE] -= 1
    for k in range(TS_KINDS):
        if left[k] > 0:
            total += left[k]
    if total <= 0:
        return 0
    for k in range(TS_KINDS):
        if left[k] > 0:
            kinds[m] = k
            probs[m] = <double>left[k] / <double>total
            m += 1
    return m

# ---------------------------------------------------------------------- choosing


cdef double turn_action(Board *b, int a) noexcept nogil:
    """``_turn_action``: the change in the evaluation turn action ``a`` brings."""
    cdef const ts_view *V = b.V
    cdef const ts_weights *w = &b.P.w
    cdef int c, s, v, n, worst_c, m, k, pile
    cdef int cards[TS_LIST]
    cdef int prices[TS_STOCKS]
    cdef double stake, after, gain, cost, expected, below, at, g
    cdef double gs[TS_KINDS]
    cdef double ps[TS_KINDS]
    cdef double terms[TS_KINDS]
    cdef int kinds[TS_KINDS]
    if a < TS_A_SAVE:
        c = a - TS_A_RAISE
        s = c // TS_VALUES
        v = c % TS_VALUES + 1
        if v >= TS_CLOSING_VALUE:
            for k in range(TS_STOCKS):
                prices[k] = V.price[k]
            prices[s] = v * (V.splits[s] + 1)
            n = without(V.hand, V.hand_len, c, cards)
            return final(b, prices, -1, cards, n, NULL) - absolute(b)
        n = without(b.by_stock[s], b.by_len[s], c, cards)
        stake = b.stake[s] - b.alpha[c] * b.P.shares[v]
        after = stock_value(b, v, V.splits[s] + 1, False, stake, cards, n)
        gain = after - b.values[s]
        if b.top_k[c]:
            gain += b.next_in
        if V.row_len[s] + V.splits[s] + 1 > b.limit and V.certs_len[b.me] >= b.limit:
            gain += w.limit_bonus
        return gain
    if a < TS_A_DISCARD:
        c = a - TS_A_SAVE
        s = c // TS_VALUES
        v = c % TS_VALUES + 1
        if V.hand_len <= 2:
            return final(b, V.price, c, cards, 0, NULL) - absolute(b)
        n = without(b.by_stock[s], b.by_len[s], c, cards)
        stake = b.stake[s] + (1.0 - b.alpha[c]) * b.P.shares[v]
        after = stock_value(b, b.tops[s], V.splits[s] + 1, V.frozen[s], stake, cards, n)
        gain = after - b.values[s]
        if b.top_k[c]:
            gain += b.next_in
        return gain - worst(b, c, &worst_c)
    cost = worst(b, -1, &worst_c)
    if a == TS_A_MARKET_A or a == TS_A_MARKET_B:
        pile = V.event_pile
        if pile <= (1 if a == TS_A_MARKET_A else 0):
            n = without(V.hand, V.hand_len, worst_c, cards)
            return final(b, V.price, -1, cards, n, NULL) - absolute(b)
        m = unseen_events(b, ps, kinds)
        if m == 0:
            return -cost
        for k in range(m):
            gs[k] = event_gain(b, kinds[k], False)
        sort_pairs(gs, ps, m)
        if a == TS_A_MARKET_B:
            for k in range(m):
                terms[k] = ps[k] * fmax_py(0.0, gs[k])
            return w.saved_event * py_sum(terms, m) - cost
        # Way A: the better of two cards drawn (as if with replacement).
        expected = 0.0
        below = 0.0
        for k in range(m):
            g = gs[k]
            at = below + ps[k]
            expected += g * (at * at - below * below)
            below = at
        return expected - cost
    gain = event_gain(b, a - TS_A_PLAY, True)
    # Kept, the card could do as much later; the less of the round is left, the less so.
    return (gain - (w.hold * b.tau) * fmax_py(0.0, gain)) - cost


cdef double score(Board *b, int decision, int a) noexcept nogil:
    """The score ``pick`` gives action ``a`` in a decision that takes the best one."""
    if decision == TS_ACTION:
        return turn_action(b, a)
    if decision == TS_DISCARD:
        return -held(b, a - TS_A_DISCARD)
    if decision == TS_CHOOSE_EVENT:
        return event_gain(b, a - TS_A_CHOOSE, False)
    if decision == TS_AUDIT_STOCK:
        return audit_choice(b, a - TS_A_AUDIT_STOCK)
    return freeze_option(b, a - TS_A_FREEZE_STOCK)


cdef bint fits(int decision, int a) noexcept nogil:
    """Whether ``a`` is an action of the kind ``decision`` offers."""
    if decision == TS_ACTION:
        return TS_A_RAISE <= a < TS_A_DISCARD or TS_A_MARKET_A <= a < TS_A_CHOOSE
    if decision == TS_DISCARD:
        return TS_A_DISCARD <= a < TS_A_MARKET_A
    if decision == TS_CHOOSE_EVENT:
        return TS_A_CHOOSE <= a < TS_A_AUDIT_STOCK
    if decision == TS_AUDIT_STOCK:
        return TS_A_AUDIT_STOCK <= a < TS_A_AUDIT_CARD
    if decision == TS_FREEZE_STOCK:
        return TS_A_FREEZE_STOCK <= a < TS_A_RETRIEVE
    if decision == TS_RETRIEVE:
        return TS_A_RETRIEVE <= a <= TS_A_RETRIEVE_DONE
    if decision == TS_EXERCISE:
        return TS_A_EXERCISE <= a <= TS_A_EXERCISE_DONE
    return True


cdef int best_of(Board *b, int decision, const int *legal, int nlegal) noexcept nogil:
    """``_best``: the legal action with the highest score (the first one on ties)."""
    cdef int best, i
    cdef double best_v = -INFINITY, v
    if nlegal <= 0:
        b.error = TS_INDEX
        return -1
    best = legal[0]
    for i in range(nlegal):
        v = score(b, decision, legal[i])
        if b.error:
            return -1
        if v > best_v:
            best = legal[i]
            best_v = v
    return best


cdef int retrieve(Board *b, const int *legal, int nlegal) noexcept nogil:
    """``_retrieve``: take the best card of the stock while it beats the card it will cost."""
    cdef const ts_view *V = b.V
    cdef double costs[2 * TS_LIST]
    cdef int n = 0, i, a, best_a = TS_A_RETRIEVE_DONE, owed
    cdef double best_v = 0.0, give, gain
    for i in range(V.hand_len):
        costs[n] = held(b, V.hand[i])
        n += 1
    if b.P.take_first:
        # The cards taken join the hand before the discards, so they may pay too.
        for i in range(V.retrieved_len):
            costs[n] = worth_in_hand(b, V.retrieved[i])
            n += 1
    sort_values(costs, n, False)
    owed = V.retrieved_len
    give = costs[owed] if owed < n else INFINITY
    for i in range(nlegal):
        a = legal[i]
        if a == TS_A_RETRIEVE_DONE:
            continue
        gain = worth_in_hand(b, a - TS_A_RETRIEVE) - give
        if gain > best_v:
            best_a = a
            best_v = gain
    return best_a


cdef int exercise(Board *b, const int *legal, int nlegal) noexcept nogil:
    """``_exercise``: spend a token on the best card, unless keeping it is worth more."""
    cdef const ts_view *V = b.V
    cdef int prices[TS_STOCKS]
    cdef int s, i, a, c, worth, best_a = TS_A_EXERCISE_DONE
    cdef double best_v = keep_value(b, b.tokens)
    for s in range(TS_STOCKS):
        prices[s] = eng.ts_scoring_price(V.price[s], V.frozen[s], b.P.zero_frozen)
    for i in range(nlegal):
        a = legal[i]
        if a == TS_A_EXERCISE_DONE:
            continue
        c = a - TS_A_EXERCISE
        worth = shares_of(b, c) * prices[c // TS_VALUES]
        if worth > best_v:
            best_a = a
            best_v = worth
    return best_a


cdef int ts_pick(const ts_params *params, const ts_view *view, const int *legal, int nlegal,
                 int *error) noexcept nogil:
    """``TakeStockHeuristic.pick``: the best of the ``nlegal`` actions ``legal`` for ``view``.

    Sets ``error`` (a TS_ error code, else TS_OK) where the reference would raise.
    """
    cdef Board b
    cdef int decision = view.decision, choice, i
    cdef double card, split
    for i in range(nlegal):
        if not fits(decision, legal[i]):
            error[0] = TS_BAD_ACTION
            return -1
    init_board(&b, params, view)
    if b.error:
        error[0] = b.error
        return -1
    if decision == TS_AUDIT_WHAT:
        if view.event_stock < 0:
            error[0] = TS_NO_STOCK
            return -1
        audit_options(&b, view.event_stock, &card, &split)
        choice = TS_A_AUDIT_CARD if card >= split else TS_A_AUDIT_SPLIT
    elif decision == TS_RETRIEVE:
        choice = retrieve(&b, legal, nlegal)
    elif decision == TS_EXERCISE:
        choice = exercise(&b, legal, nlegal)
    elif decision == TS_OTHER:
        if nlegal <= 0:
            b.error = TS_INDEX
        choice = legal[0] if nlegal > 0 else -1
    else:
        choice = best_of(&b, decision, legal, nlegal)
    error[0] = b.error
    return -1 if b.error else choice


cdef double ts_evaluate(const ts_params *params, const ts_view *view, int *error) noexcept nogil:
    """``TakeStockHeuristic.evaluate``: the seat's expected standing, by the model."""
    cdef Board b
    cdef double value
    init_board(&b, params, view)
    if b.error:
        error[0] = b.error
        return 0.0
    value = absolute(&b)
    error[0] = b.error
    return value

# ---------------------------------------------------------------------- reading a view

cdef dict DECISIONS = {
    "action": TS_ACTION,
    "discard": TS_DISCARD,
    "insider_discard": TS_DISCARD,
    "downturn_discard": TS_DISCARD,
    "choose_event": TS_CHOOSE_EVENT,
    "audit_stock": TS_AUDIT_STOCK,
    "audit_what": TS_AUDIT_WHAT,
    "freeze_stock": TS_FREEZE_STOCK,
    "retrieve": TS_RETRIEVE,
    "exercise": TS_EXERCISE,
}


cdef int read_ints(object items, int *out, int cap, int low, int high, str what) except -1:
    """Copy a sequence of integers from ``low`` to ``high - 1`` into ``out``; its length."""
    cdef tuple t = items if type(items) is tuple else tuple(items)
    cdef Py_ssize_t n = len(t), i
    cdef long x
    if n > cap:
        raise ValueError(f"a Take Stock view's {what} holds {n} items, more than {cap}")
    for i in range(n):
        x = t[i]
        if not low <= x < high:
            raise ValueError(f"a Take Stock view's {what} holds {x}, not from {low} to {high - 1}")
        out[i] = x
    return n


cdef int read_seats(object items, int n, int *out, int low, int high, str what) except -1:
    """Copy one integer per seat into ``out``."""
    if read_ints(items, out, TS_SEATS, low, high, what) != n:
        raise ValueError(f"a Take Stock view's {what} has not one entry per seat")
    return 0


cdef int count_kinds(object kinds, int *seen, str what) except -1:
    """Add one to ``seen`` for each event kind in ``kinds``."""
    cdef int buf[TS_LIST]
    cdef int n = read_ints(kinds, buf, TS_LIST, 0, TS_KINDS, what), i
    for i in range(n):
        seen[buf[i]] += 1
    return 0


cdef int ts_fill_view(ts_view *v, object view) except -1:
    """Copy what the bot reads of ``view`` (a seat's TakeStockView) into ``v``."""
    cdef int s, q, n, seat
    cdef tuple stocks, certs
    cdef long long big = 1LL << 62
    n = view.players
    if not 2 <= n <= TS_SEATS:
        raise ValueError(f"a Take Stock view has 2 to {TS_SEATS} seats, not {n}")
    seat = view.seat
    if not 0 <= seat < n:
        raise ValueError(f"a Take Stock view's seat is from 0 to {n - 1}, not {seat}")
    v.players = n
    v.seat = seat
    v.round = view.round
    v.rounds = view.rounds
    v.event_pile = view.event_pile
    v.decision = DECISIONS.get(view.decision, TS_OTHER)
    stock = view.event_stock
    v.event_stock = -1 if stock is None else stock
    if not -1 <= v.event_stock < TS_STOCKS:
        raise ValueError(f"a Take Stock view's event stock is {v.event_stock}")
    stocks = tuple(view.stocks)
    if len(stocks) != TS_STOCKS:
        raise ValueError(f"a Take Stock view has {TS_STOCKS} stocks, not {len(stocks)}")
    for s in range(TS_STOCKS):
        row = stocks[s]
        v.row_len[s] = read_ints(row.cards, v.rows[s], TS_ROW, 1, TS_VALUES + 1, "row")
        if v.row_len[s] == 0:
            raise ValueError("a Take Stock view has an empty row")
        v.splits[s] = row.splits
        v.frozen[s] = row.frozen
        v.price[s] = row.price
        if not (0 <= v.splits[s] <= 1000 and 0 <= v.price[s] <= 1000000):
            raise ValueError("a Take Stock view's stock has a split count or a price out of range")
    v.hand_len = read_ints(view.hand, v.hand, TS_LIST, 0, TS_CARDS, "hand")
    v.own_hidden_len = read_ints(view.own_hidden, v.own_hidden, TS_LIST, 0, TS_CARDS, "own_hidden")
    v.discard_len = read_ints(view.discard_pile, v.discard, TS_LIST, 0, TS_CARDS, "discard_pile")
    v.retrieved_len = read_ints(view.retrieved, v.retrieved, TS_LIST, 0, TS_CARDS, "retrieved")
    certs = tuple(view.certificates)
    if len(certs) != n:
        raise ValueError("a Take Stock view's certificates have not one entry per seat")
    for q in range(n):
        v.certs_len[q] = read_ints(certs[q], v.certs[q], TS_LIST, 0, TS_CARDS, "certificates")
    scores = view.scores
    if len(scores) != n:
        raise ValueError("a Take Stock view's scores have not one entry per seat")
    for q in range(n):
        v.scores[q] = scores[q]
        if not -big < v.scores[q] < big:
            raise ValueError("a Take Stock view's score is out of range")
    read_seats(view.tokens, n, v.tokens, 0, 1 << 20, "tokens")
    read_seats(view.hand_sizes, n, v.hand_sizes, 0, TS_CARDS + 1, "hand_sizes")
    memset(v.events_seen, 0, sizeof(v.events_seen))
    count_kinds(view.event_discard_known, v.events_seen, "event_discard_known")
    count_kinds(view.event_below_known, v.events_seen, "event_below_known")
    count_kinds(view.saved_events, v.events_seen, "saved_events")
    count_kinds(view.drawn_events, v.events_seen, "drawn_events")
    pending = view.pending_event
    if pending is not None:
        count_kinds((pending,), v.events_seen, "pending_event")
    return 0

# ---------------------------------------------------------------------- reading a compiled state

# The bot's decision code of each of the engine's decision kinds (phases).
cdef int PHASE_DECISIONS[eng.TS_PH_OVER + 1]
for _phase, _name in enumerate(_state.PHASE_NAMES):
    PHASE_DECISIONS[_phase] = DECISIONS.get(_name, TS_OTHER)


cdef void ts_fill_from_state(ts_view *v, const eng.ts_core *c, int seat) noexcept nogil:
    """What :c:func:`ts_fill_view` reads of ``seat``'s view of the compiled state ``c``,
    read from the state itself (``seat`` is a seat of ``c``)."""
    cdef int n = c.r.n
    cdef int bit = 1 << seat
    cdef int s, q, i, top
    v.players = n
    v.seat = seat
    v.round = c.round
    v.rounds = c.r.rounds
    v.event_pile = c.ev_above_len
    v.decision = PHASE_DECISIONS[c.phase]
    v.event_stock = c.ev_stock
    for s in range(TS_STOCKS):
        v.row_len[s] = c.row_len[s]
        for i in range(c.row_len[s]):
            v.rows[s][i] = c.rows[s][i]
        v.splits[s] = c.splits[s]
        v.frozen[s] = c.frozen[s] != 0
        top = c.rows[s][c.row_len[s] - 1]
        v.price[s] = top * (c.splits[s] + 1)
    v.hand_len = c.hand_len[seat]
    for i in range(v.hand_len):
        v.hand[i] = c.hands[seat][i]
    v.own_hidden_len = c.hidden_len[seat]
    for i in range(v.own_hidden_len):
        v.own_hidden[i] = c.hidden[seat][i]
    # The view's discard pile is sorted.
    v.discard_len = c.discard_len
    for i in range(v.discard_len):
        v.discard[i] = c.discard[i]
    sort_values(v.discard, v.discard_len, False)
    v.retrieved_len = c.retrieved_len
    for i in range(v.retrieved_len):
        v.retrieved[i] = c.retrieved[i]
    for q in range(n):
        v.certs_len[q] = c.cert_len[q]
        for i in range(c.cert_len[q]):
            v.certs[q][i] = c.certs[q][i]
        v.scores[q] = c.totals[q]
        v.tokens[q] = c.tokens[q]
        v.hand_sizes[q] = c.hand_len[q] + c.hidden_len[q]
    # The event cards this seat knows are out of the pile, as the view names them.
    memset(v.events_seen, 0, sizeof(v.events_seen))
    for i in range(c.ev_discard_len):
        if c.ev_discard_mask[i] & bit:
            v.events_seen[c.ev_discard[i]] += 1
    for i in range(c.ev_below_len):
        if c.ev_below_mask[i] & bit:
            v.events_seen[c.ev_below[i]] += 1
    for i in range(c.saved_len[seat]):
        v.events_seen[c.saved[seat][i]] += 1
    if c.cur == seat and c.phase == eng.TS_PH_CHOOSE:
        for i in range(c.pair_len):
            v.events_seen[c.pair[i]] += 1
    if c.ev_active >= 0:
        v.events_seen[c.ev_active] += 1


def view_record(view):
    """The bytes of the struct the bot fills from ``view``, zeroed first (for tests)."""
    cdef ts_view v
    memset(&v, 0, sizeof(v))
    ts_fill_view(&v, view)
    return (<char *>&v)[:sizeof(v)]


def state_record(eng.State state not None, int seat):
    """The bytes of the struct the bot fills from ``state`` for ``seat``, zeroed first: those
    of ``view_record(state.view(seat))`` (for tests)."""
    cdef ts_view v
    if not 0 <= seat < state.c.r.n:
        raise ValueError(f"seat {seat} is not a seat of this game")
    memset(&v, 0, sizeof(v))
    ts_fill_from_state(&v, &state.c, seat)
    return (<char *>&v)[:sizeof(v)]

# ---------------------------------------------------------------------- play-outs


def playout(procedure, world, int max_steps, int horizon_round):
    """Play the rule-based bot for every seat of ``world`` (a compiled state), in place.

    ``procedure`` is the compiled bot (:class:`TakeStockBot`, what the rule-based bot's
    ``compiled_procedure()`` gives). The play stops when the game ends, when the round is
    no longer ``horizon_round`` (-1: never) or after ``max_steps`` decisions, and the steps
    played are returned. Every decision is the one ``choose(world.view(mover))`` of a
    rule-based bot with no random moves would take (the only legal action, else ``pick``),
    made without a view.
    """
    cdef TakeStockBot bot
    cdef eng.State st
    cdef eng.ts_core *c
    cdef ts_view v
    cdef int legal[TS_ACTIONS]
    cdef int steps = 0, action, count, i, error
    if not isinstance(procedure, TakeStockBot):
        raise TypeError(f"playout needs the compiled Take Stock bot, not {type(procedure).__name__}")
    if not isinstance(world, eng.State):
        raise TypeError(f"playout needs a compiled Take Stock state, not {type(world).__name__}")
    bot = <TakeStockBot>procedure
    st = <eng.State>world
    c = &st.c
    while c.cur >= 0 and (horizon_round < 0 or c.round == horizon_round) and steps < max_steps:
        if not c.legal_ok:
            eng.ts_compute_legal(c)
        count = c.legal_len
        if count == 1:
            action = c.legal[0]
        elif count == 0:
            # No sealed state has such a decision; the bot would refuse its view so.
            from closingbell.bots.base import legal_of

            legal_of(world.view(c.cur))
            action = -1
        else:
            ts_fill_from_state(&v, c, c.cur)
            for i in range(count):
                legal[i] = c.legal[i]
            error = TS_OK
            action = ts_pick(&bot.params, &v, legal, count, &error)
            if error:
                fail(error)
        if eng.ts_is_legal(c, action):
            st.apply_unchecked(action)
        else:
            world.apply(action)  # refused as the Python loop would refuse it
        steps += 1
    return steps

def leaf_values(eng.State world not None, double token_value, double saved_value):
    """Each seat's standing in ``world`` as the search scores a play-out's end, in C.

    The numbers of ``closingbell.bots.ismcts._take_stock_values`` with ``TOKEN_VALUE`` and
    ``SAVED_EVENT_VALUE`` given: at the game's end the totals; before it, each seat's total,
    its certificates at today's scoring prices, ``token_value`` for each option token it may
    still use in a round to come (half for the tokens beyond one a round) and
    ``saved_value`` for each saved event. The arithmetic is the same, in the same order.
    """
    cdef eng.ts_core *c = &world.c
    cdef int n = c.r.n
    cdef int q, s, i, card, worth, t, left
    cdef int prices[TS_STOCKS]
    cdef double carried
    if c.cur < 0:
        return [<double>c.totals[q] for q in range(n)]
    for s in range(TS_STOCKS):
        prices[s] = eng.ts_scoring_price(
            c.rows[s][c.row_len[s] - 1] * (c.splits[s] + 1), c.frozen[s], c.r.frozen_zero
        )
    left = c.r.rounds - c.round + 1
    out = []
    for q in range(n):
        worth = 0
        for i in range(c.cert_len[q]):
            card = c.certs[q][i]
            worth += c.r.shares[card % TS_VALUES + 1] * prices[card // TS_VALUES]
        t = c.tokens[q]
        carried = 0.0
        if left > 0:
            carried = token_value * (min(t, left) + 0.5 * max(0, t - left))
        carried = carried + saved_value * c.saved_len[q]
        out.append(<double>(c.totals[q] + worth) + carried)
    return out

# ---------------------------------------------------------------------- the Python class

WEIGHTS = (
    "growth", "cap", "upside", "downside", "frozen_downside", "full_round_events",
    "alpha_high", "alpha_low", "raise_option", "limit_bonus", "token_value", "saved_event",
    "hold", "end_bias", "end_lead", "lead_scale", "leader_weight",
)
"""The names of the numbers of ``TakeStockWeights``, in the order the C struct holds them."""

WEIGHT_LIMIT = 1e9
"""The largest size of a weight the compiled bot takes (beyond it, products may overflow)."""


def unsupported(weights):
    """Why the compiled bot cannot reproduce the reference with ``weights``, or ``None``.

    ``weights`` maps every name of :data:`WEIGHTS` to its number. The compiled bot takes
    plain ints and floats, finite and at most :data:`WEIGHT_LIMIT` in size, and no zero
    where the reference divides (it would raise); it also needs this Python's ``sum``.
    """
    names = set(weights)
    if names != set(WEIGHTS):
        odd = sorted(names ^ set(WEIGHTS))
        return f"the weights are not the ones the compiled bot knows ({', '.join(odd)})"
    for name in WEIGHTS:
        x = weights[name]
        if type(x) not in (int, float, bool):
            return f"the weight {name} is a {type(x).__name__}, not an int or a float"
        if not (math.isfinite(x) and abs(x) <= WEIGHT_LIMIT):
            return f"the weight {name} is {x!r}, not a finite number of at most {WEIGHT_LIMIT:g}"
    for name in ("full_round_events", "lead_scale"):
        if weights[name] == 0:
            return f"the weight {name} is zero, and the bot divides by it"
    if not SUM_AGREES:
        return "this Python adds floats in sum() in a way the compiled bot does not reproduce"
    return None


cdef dict ERRORS = {
    TS_ZERO_DIVISION: (ZeroDivisionError, "float division by zero"),
    TS_INDEX: (IndexError, "list index out of range"),
    TS_NO_STOCK: (AssertionError, "an audit_what decision without its stock"),
    TS_BAD_ACTION: (ValueError, "an action the view's decision does not offer"),
}


cdef object fail(int error):
    """Raise what the reference raises for ``error``."""
    kind, message = ERRORS[error]
    raise kind(message)


cdef class TakeStockBot:
    """The rule-based Take Stock bot's ``pick`` and ``evaluate``, compiled.

    ``shares`` is the game's shares per card value (``TakeStock.shares``, 13 numbers);
    ``weights`` maps each name of :data:`WEIGHTS` to its number; the flags are the rules
    options the bot reads.
    """

    def __init__(self, shares, weights, *, bint zero_frozen=False,
                 bint limit_counts_freeze=False, bint take_first=False,
                 bint crash_counts_one=True):
        cdef int v, g
        reason = unsupported(weights)
        if reason is not None:
            raise ValueError(reason)
        shares = tuple(shares)
        if len(shares) != 13 or any(not 0 <= x <= 1000 for x in shares[2:]):
            raise ValueError("shares holds 13 numbers, those of values 2 to 12 from 0 to 1000")
        p = &self.params
        p.w.growth = weights["growth"]
        p.w.cap = weights["cap"]
        p.w.upside = weights["upside"]
        p.w.downside = weights["downside"]
        p.w.frozen_downside = weights["frozen_downside"]
        p.w.full_round_events = weights["full_round_events"]
        p.w.alpha_high = weights["alpha_high"]
        p.w.alpha_low = weights["alpha_low"]
        p.w.raise_option = weights["raise_option"]
        p.w.limit_bonus = weights["limit_bonus"]
        p.w.token_value = weights["token_value"]
        p.w.saved_event = weights["saved_event"]
        p.w.hold = weights["hold"]
        p.w.end_bias = weights["end_bias"]
        p.w.end_lead = weights["end_lead"]
        p.w.lead_scale = weights["lead_scale"]
        p.w.leader_weight = weights["leader_weight"]
        p.groups = 0
        for v in range(13):
            p.shares[v] = shares[v]
            p.group_of[v] = 0
        for v in range(2, 13):
            for g in range(p.groups):
                if p.group_shares[g] == p.shares[v]:
                    break
            else:
                g = p.groups
                p.group_shares[g] = p.shares[v]
                p.groups += 1
            p.group_of[v] = g
        p.zero_frozen = zero_frozen
        p.limit_counts_freeze = limit_counts_freeze
        p.take_first = take_first
        p.crash_counts_one = crash_counts_one

    def __reduce__(self):
        p = &self.params
        weights = {
            "growth": p.w.growth, "cap": p.w.cap, "upside": p.w.upside,
            "downside": p.w.downside, "frozen_downside": p.w.frozen_downside,
            "full_round_events": p.w.full_round_events, "alpha_high": p.w.alpha_high,
            "alpha_low": p.w.alpha_low, "raise_option": p.w.raise_option,
            "limit_bonus": p.w.limit_bonus, "token_value": p.w.token_value,
            "saved_event": p.w.saved_event, "hold": p.w.hold, "end_bias": p.w.end_bias,
            "end_lead": p.w.end_lead, "lead_scale": p.w.lead_scale,
            "leader_weight": p.w.leader_weight,
        }
        shares = tuple(p.shares[v] for v in range(13))
        flags = (p.zero_frozen, p.limit_counts_freeze, p.take_first, p.crash_counts_one)
        return (_rebuild, (shares, weights, *flags))

    def pick(self, view, legal):
        """The best of the actions ``legal`` for the seat of ``view``, as the reference's."""
        cdef ts_view v
        cdef int acts[TS_ACTIONS]
        cdef int n, error = TS_OK, choice
        ts_fill_view(&v, view)
        n = read_ints(legal, acts, TS_ACTIONS, 0, TS_ACTIONS, "legal actions")
        choice = ts_pick(&self.params, &v, acts, n, &error)
        if error:
            fail(error)
        return choice

    def scores(self, view, legal):
        """The score of each action of ``legal`` where ``pick`` takes the best-scored one.

        For tests: empty for the decisions ``pick`` settles otherwise (``audit_what``,
        ``retrieve``, ``exercise``).
        """
        cdef ts_view v
        cdef int acts[TS_ACTIONS]
        cdef double out[TS_ACTIONS]
        cdef Board b
        cdef int n, i
        ts_fill_view(&v, view)
        n = read_ints(legal, acts, TS_ACTIONS, 0, TS_ACTIONS, "legal actions")
        if v.decision in (TS_AUDIT_WHAT, TS_RETRIEVE, TS_EXERCISE, TS_OTHER):
            return []
        for i in range(n):
            if not fits(v.decision, acts[i]):
                fail(TS_BAD_ACTION)
        init_board(&b, &self.params, &v)
        for i in range(n):
            if not b.error:
                out[i] = score(&b, v.decision, acts[i])
        if b.error:
            fail(b.error)
        return [out[i] for i in range(n)]

    def evaluate(self, view):
        """The seat's expected end-of-round standing against its opponents, by the model."""
        cdef ts_view v
        cdef int error = TS_OK
        cdef double value
        ts_fill_view(&v, view)
        value = ts_evaluate(&self.params, &v, &error)
        if error:
            fail(error)
        return value


def _rebuild(shares, weights, zero_frozen, limit_counts_freeze, take_first, crash_counts_one):
    """A pickled :class:`TakeStockBot` made again."""
    return TakeStockBot(
        shares,
        weights,
        zero_frozen=zero_frozen,
        limit_counts_freeze=limit_counts_freeze,
        take_first=take_first,
        crash_counts_one=crash_counts_one,
    )


def read_view(view):
    """Read ``view`` as ``pick`` does, and nothing more (for benchmarks: the cost of reading)."""
    cdef ts_view v
    ts_fill_view(&v, view)
