# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The rule-based Card Stock Market bot's decision procedure in C, choice for choice.

:class:`closingbell.bots.card_stock_market.CardStockMarketHeuristic` is the reference:
this module computes the same numbers with the same operations in the same order (Python
floats are C doubles; ``x ** y`` is C's ``pow``; a ``sum`` of floats is added up as the
Python running it adds it up, see ``_py_sum``), so it picks the same action on every view.

It works in two layers (see the ``.pxd``): ``csm_fill_view`` copies what the bot reads
of a view into a ``CsmView``, and ``csm_pick`` decides from that struct alone, without
the GIL. ``csm_fill_state`` fills a ``CsmView`` straight from a state of the compiled
engine for one seat, and :func:`playout` plays the bot for every seat of such a state, as a
search's play-out does, without a view or a Python call between the decisions.
"""

cimport cython
from libc.limits cimport INT_MAX, INT_MIN
from libc.math cimport fabs, isfinite, pow
from libc.string cimport memchr, memset

from closingbell.native._card_stock_market cimport State, csm_fields

from closingbell.games.card_stock_market import cards as _cards
from closingbell.games.card_stock_market.views import CardStockMarketView

cdef extern from "Python.h":
    int PY_VERSION_HEX

# The bot's own kinds of move; the game's numbers (decision kinds CSM_PH_*, action ids
# CSM_A_*, CSM_HAND, CSM_MAX_SHARES...) come from the generated _card_stock_market_ids.pxi.
cdef enum:
    _BUY = 0
    _SELL = 1
    _CHANGE = 2
    _BANKRUPT = 3

cdef int[CSM_RANKS + 1] _SHARES
"""Shares a certificate of each rank stands for (a face card counts 5)."""


cdef void _fill_shares():
    """Copy the shares of each rank from the data module (index 0 holds none)."""
    cdef int rank
    _SHARES[0] = 0
    for rank in range(1, CSM_RANKS + 1):
        _SHARES[rank] = _cards.SHARES[rank - 1]


_fill_shares()

cdef double _TOLERANCE = 1e-9


# ---------------------------------------------------------------------- Python's arithmetic


cdef inline double _py_sum(const double *xs, int n) noexcept nogil:
    """``sum(xs)`` of floats as this Python computes it (start 0).

    Python 3.12 sums floats with Neumaier's compensation; earlier versions add left to
    right. The first item is added to the integer 0, which turns -0.0 into 0.0.
    """
    cdef double total, c, t, x
    cdef int i
    if n == 0:
        return 0.0
    total = 0.0 + xs[0]
    if PY_VERSION_HEX >= 0x030C0000:
        c = 0.0
        for i in range(1, n):
            x = xs[i]
            t = total + x
            if fabs(total) >= fabs(x):
                c += (total - t) + x
            else:
                c += (x - t) + total
            total = t
        if c != 0.0 and isfinite(c):
            total += c
        return total
    for i in range(1, n):
        total += xs[i]
    return total


cdef inline double _py_max(double a, double b) noexcept nogil:
    """``max(a, b)``: ``a`` unless ``b`` is greater."""
    return b if b > a else a


cdef inline bint _move_gt(const CsmMove *a, const CsmMove *b) noexcept nogil:
    """``a > b`` for the reference's move tuples ``(value, kind, suit, rank)``."""
    if a.value != b.value:
        return a.value > b.value
    if a.kind != b.kind:
        return a.kind > b.kind
    if a.suit != b.suit:
        return a.suit > b.suit
    return a.rank > b.rank


cdef inline int _action(int kind, int s, int r) noexcept nogil:
    """The action id of a move."""
    cdef int card = s * CSM_RANKS + r - 1
    if kind == _BUY:
        return CSM_A_BUY + card
    if kind == _SELL:
        return CSM_A_SELL + card
    if kind == _CHANGE:
        return CSM_A_MARKET + card
    return CSM_A_BANKRUPT + s * 3 + r - 11


# ---------------------------------------------------------------------- reading a view


cdef inline int _see(CsmView *v, object card) except -1:
    cdef Py_ssize_t c = card
    if c < 0 or c >= CSM_KINDS:
        raise IndexError(f"the bot reads suit cards (kinds 0 to 51), not {card!r}")
    v.seen[c] += 1
    return <int>c


@cython.boundscheck(True)
@cython.wraparound(True)
cdef int csm_fill_view(CsmView *v, object view) except -1:
    """Copy what the bot reads of ``view`` (a seat's ``CardStockMarketView``) into ``v``."""
    cdef Py_ssize_t n, seat, q, s, i, price
    cdef Py_ssize_t c = 0
    cdef int per_suit[4]
    memset(v, 0, sizeof(CsmView))
    memset(per_suit, 0, sizeof(per_suit))
    n = view.players
    if not 2 <= n <= CSM_MAX_PLAYERS:
        raise ValueError(f"the bot plays 2 to {CSM_MAX_PLAYERS} seats, not {n}")
    seat = view.seat
    if not 0 <= seat < n:
        raise IndexError(f"seat {seat} is not at a table of {n}")
    v.players = <int>n
    v.seat = <int>seat
    decision = view.decision
    if decision == "turn":
        v.decision = CSM_DECISION_TURN
    elif decision == "trading":
        v.decision = CSM_DECISION_TRADING
    elif decision == "market":
        v.decision = CSM_DECISION_MARKET
    elif decision == "discarding":
        v.decision = CSM_DECISION_DISCARDING
    else:
        v.decision = CSM_DECISION_OTHER
    v.turn_number = view.turn_number
    v.draw_pile = view.draw_pile
    v.reshuffled = bool(view.reshuffled)
    suits = view.suits
    for s in range(CSM_SUITS):
        market = suits[s]
        price = market.price
        if not 0 <= price <= CSM_MAX_PRICE:
            raise IndexError(f"a price from 0 to {CSM_MAX_PRICE}, not {price}")
        v.price[s] = <int>price
        pile = market.pile
        v.pile_len[s] = <int>len(pile)
        for card in pile:
            c = _see(v, card)
        if not v.pile_len[s]:
            raise IndexError("every market pile holds a card")
        v.face[s] = c % CSM_RANKS >= 10
    discard = view.discard_pile
    v.discards = <int>len(discard)
    for card in discard:
        _see(v, card)
    i = 0
    for card in view.hand:
        c = _see(v, card)
        per_suit[c // CSM_RANKS] += 1
        if per_suit[c // CSM_RANKS] > CSM_MAX_SUIT_HAND:
            raise ValueError(f"a hand holds at most {CSM_MAX_SUIT_HAND} cards of a suit")
        v.hand[i] = <signed char>c
        i += 1
    v.hand_len = <int>i
    q = 0
    for group in view.certificates:
        for card in group:
            c = _see(v, card)
            if q == seat:
                v.certs[c // CSM_RANKS][c % CSM_RANKS + 1] += 1
        q += 1
    shares = view.shares
    cash = view.cash
    debts = view.debts
    for q in range(n):
        row = shares[q]
        for s in range(CSM_SUITS):
            v.shares[q][s] = row[s]
        v.cash[q] = cash[q]
        v.debts[q] = debts[q]
    bank = view.bank
    v.bank = -1 if bank is None else bank
    v.trades = view.trades
    v.changes = view.changes
    for s in view.bought_suits:
        v.bought += 1 << s
    for s in view.sold_suits:
        v.sold += 1 << s
    return 0


cdef inline int _see_kind(CsmView *v, int c) except -1:
    """``_see`` of a card held as a C number."""
    cdef unsigned int kind = <unsigned int>c  # one test for both ends of the range
    if kind >= CSM_KINDS:
        raise IndexError(f"the bot reads suit cards (kinds 0 to 51), not {c!r}")
    v.seen[kind] += 1
    return c


cdef int csm_fill_state(CsmView *v, State state, int seat) except -1:
    """Fill ``v`` as ``csm_fill_view`` fills it from ``state.view(seat)``, without the view.

    The same bytes, read from the compiled state's arrays (the view's fields are copies of
    them), with the same refusals of a state the bot cannot read.
    """
    cdef const csm_fields *f = &state.f
    cdef int n = state.rules.n
    cdef int q, s, i, c = 0, k, price
    cdef int per_suit[4]
    memset(v, 0, sizeof(CsmView))
    memset(per_suit, 0, sizeof(per_suit))
    if not 2 <= n <= CSM_MAX_PLAYERS:
        raise ValueError(f"the bot plays 2 to {CSM_MAX_PLAYERS} seats, not {n}")
    if not 0 <= seat < n:
        raise IndexError(f"seat {seat} is not at a table of {n}")
    v.players = n
    v.seat = seat
    # The decision kinds are the engine's phases in the same order, "game_over" last.
    v.decision = f.phase if 0 <= f.phase <= CSM_DECISION_OTHER else CSM_DECISION_OTHER
    if f.turns > INT_MAX or f.turns < INT_MIN:
        raise OverflowError("value too large to convert to int")
    v.turn_number = <int>f.turns
    v.draw_pile = f.draw_len
    v.reshuffled = f.reshuffled != 0
    for s in range(CSM_SUITS):
        price = f.prices[s]
        if not 0 <= price <= CSM_MAX_PRICE:
            raise IndexError(f"a price from 0 to {CSM_MAX_PRICE}, not {price}")
        v.price[s] = price
        k = f.pile_len[s]
        v.pile_len[s] = k
        for i in range(k):
            c = _see_kind(v, f.piles[s][i])
        if not k:
            raise IndexError("every market pile holds a card")
        v.face[s] = c % CSM_RANKS >= 10
    v.discards = f.discard_len
    for i in range(f.discard_len):
        _see_kind(v, f.discard[i])
    for i in range(f.hand_len[seat]):
        c = _see_kind(v, f.hands[seat][i])
        per_suit[c // CSM_RANKS] += 1
        if per_suit[c // CSM_RANKS] > CSM_MAX_SUIT_HAND:
            raise ValueError(f"a hand holds at most {CSM_MAX_SUIT_HAND} cards of a suit")
        v.hand[i] = <signed char>c
    v.hand_len = f.hand_len[seat]
    for q in range(n):
        for i in range(f.cert_len[q]):
            c = _see_kind(v, f.certs[q][i])
            if q == seat:
                v.certs[c // CSM_RANKS][c % CSM_RANKS + 1] += 1
    for q in range(n):
        for s in range(CSM_SUITS):
            v.shares[q][s] = f.held[q][s]
        v.cash[q] = f.cash[q]
        v.debts[q] = f.debt[q]
    v.bank = f.bank if state.rules.bank_limited else -1
    v.trades = f.trades
    v.changes = f.changes
    v.bought = f.bought & 15
    v.sold = f.sold & 15
    return 0


# ---------------------------------------------------------------------- end prices


cdef double _opponent_turns_left(const CsmView *v, double rate) noexcept nogil:
    """How many opponent turns the game is likely to last (the reference's function)."""
    cdef int n = v.players
    cdef long long drawn, turns, prior, lower
    cdef double cards, following
    cdef int s
    if v.reshuffled:
        cards = (v.draw_pile - CSM_COPIES) / 3.0
        if not cards > 0.0:
            cards = 0.0
    else:
        drawn = CSM_DECK - CSM_SUITS - CSM_HAND * n - v.draw_pile
        turns = v.turn_number - 1
        if not turns > 0:
            turns = 0
        prior = 2 * n
        rate = (<double>drawn + rate * <double>prior) / <double>(turns + prior)
        lower = 0
        for s in range(CSM_SUITS):
            lower += v.pile_len[s] - 1
        following = <double>(v.discards + lower) + 0.7 * <double>v.draw_pile
        cards = <double>v.draw_pile + following / 3.0
    return cards / _py_max(1.0, rate) * <double>(n - 1) / <double>n


cdef void _end_prices(CsmPlanner *P, const CsmView *v, double opp_turns) noexcept nogil:
    """Per suit, a share's expected sale price for each price now (number card, face card)."""
    cdef const CsmParams *par = P.params
    cdef int faces_seen[4]
    cdef int seen = 0
    cdef int unseen, faces, c, s, p, j
    cdef double h[2]
    cdef double plain[2][14]
    cdef double faced[2][14]
    cdef double keep, keep_face, m, hazard, a, b, soon
    memset(faces_seen, 0, sizeof(faces_seen))
    for c in range(CSM_KINDS):
        seen += v.seen[c]
        if c % CSM_RANKS >= 10:
            faces_seen[c // CSM_RANKS] += v.seen[c]
    unseen = CSM_DECK - seen
    if not unseen > 1:
        unseen = 1
    m = par.mean_price
    soon = v.players - 1.0
    if not soon < opp_turns:
        soon = opp_turns
    h[0] = soon
    h[1] = opp_turns
    for j in range(2):
        keep = pow(par.drift, h[j])
        keep_face = pow(par.face_drift, h[j])
        for p in range(CSM_PRICES):
            plain[j][p] = m + (p - m) * keep
            faced[j][p] = m + (p - m) * keep_face
    for s in range(CSM_SUITS):
        faces = 3 * CSM_COPIES - faces_seen[s]
        if not faces > 0:
            faces = 0
        hazard = par.hazard * faces * CSM_HAND / unseen
        if not hazard < 0.5:
            hazard = 0.5
        a = pow(1.0 - hazard, h[0])
        b = pow(1.0 - hazard, h[1])
        for p in range(CSM_PRICES):
            P.table[s][0][p] = _py_max(a * plain[0][p], b * plain[1][p])
            P.table[s][1][p] = _py_max(a * faced[0][p], b * faced[1][p])


# ---------------------------------------------------------------------- values


cdef inline void _use(
    const CsmPlanner *P, int s, int r, int p, bint f, double d, double ecur,
    double *use_out, double *tv_out,
) noexcept nogil:
    """What card ``r`` of suit ``s`` could do to the price (the reference's ``_use``)."""
    cdef const CsmParams *par = P.params
    cdef double tv = -1.0
    cdef double factor = 1.0
    cdef double use
    cdef int delta
    if r <= 10:
        delta = r - p
        if f or (-par.fall[s] <= delta and delta <= par.rise[s]):
            tv = P.table[s][0][r]
        elif -2 * par.fall[s] <= delta and delta <= 2 * par.rise[s]:
            tv = P.table[s][0][r]  # two steps away: needs another card first
            factor = 0.5
    elif r > p and (not par.limited or r - p <= par.rise[s]):
        tv = P.table[s][1][r]
    use = d * (tv - ecur) * factor if tv >= 0 else 0.0
    if r > 10 and -d * ecur > use:
        use = -d * ecur  # as a bankruptcy
    use_out[0] = use
    tv_out[0] = tv if tv > ecur else -1.0


cdef double _suit_value(
    const CsmPlanner *P, int s, int p, bint f, int hm, double hs,
    const signed char *ranks, int nr, int skip, long long cash,
) noexcept nogil:
    """The value of a suit (the reference's ``_value``); ``ranks`` less the one at ``skip``."""
    cdef const CsmParams *par = P.params
    cdef double ecur = P.table[s][1][p] if f else P.table[s][0][p]
    cdef double d = hm - hs
    cdef double total = d * ecur
    cdef int rk[CSM_MAX_SUIT_HAND]
    cdef double uses[CSM_MAX_SUIT_HAND]
    cdef double tvs[CSM_MAX_SUIT_HAND]
    cdef int count = 0
    cdef int i, r, k, best_i
    cdef double best, second, top, spare, use, reach, other
    cdef bint can_buy
    for i in range(nr):
        if i != skip:
            rk[count] = ranks[i]
            count += 1
    if count == 0:
        return total
    for i in range(count):
        _use(P, s, rk[i], p, f, d, ecur, &uses[i], &tvs[i])
    best = -1.0
    second = -1.0
    best_i = -1
    for i in range(count):
        if tvs[i] > best:
            second = best
            best = tvs[i]
            best_i = i
        elif tvs[i] > second:
            second = tvs[i]
    can_buy = p > 0 or par.free
    top = 0.0
    spare = 0.0
    for i in range(count):
        use = uses[i]
        r = rk[i]
        k = _SHARES[r]
        if can_buy and hm + k <= CSM_MAX_SHARES and <long long>k * p <= cash:
            reach = second if i == best_i else best
            use = _py_max(use, k * ((reach if reach > ecur else ecur) - p))
        if use > top:
            other = top
            top = use
            use = other
        if use > 0:
            spare += use
    # One card does most of the work; the others add a little as spares.
    total += par.hand_weight * (top + par.spare * spare)
    return total


cdef double _fresh_card_value(const CsmPlanner *P, const CsmView *v) noexcept nogil:
    """What a card drawn at random is worth on average in the root's hand."""
    cdef const CsmParams *par = P.params
    cdef const CsmNode *root = &P.root
    cdef double total = 0.0
    cdef long long cards = 0
    cdef double uses[14]
    cdef double tvs[14]
    cdef double worth[14]
    cdef int s, r, p, hm, k, i, nh, copies
    cdef bint f, can_buy
    cdef double ecur, d, best, reach, top, use
    for s in range(CSM_SUITS):
        p = root.price[s]
        f = root.face[s]
        hm = root.hme[s]
        ecur = P.table[s][1][p] if f else P.table[s][0][p]
        d = hm - root.hopp[s]
        # Each rank's use as a market change and the price it could raise to.
        for r in range(1, CSM_RANKS + 1):
            _use(P, s, r, p, f, d, ecur, &uses[r], &tvs[r])
        nh = root.hand_len[s]
        best = -1.0
        for i in range(nh):
            if i == 0 or tvs[root.hand[s][i]] > best:
                best = tvs[root.hand[s][i]]
        reach = (best if best > ecur else ecur) - p
        can_buy = p > 0 or par.free
        for r in range(1, CSM_RANKS + 1):
            use = uses[r]
            k = _SHARES[r]
            if can_buy and hm + k <= CSM_MAX_SHARES and <long long>k * p <= root.cash:
                use = _py_max(use, k * reach)
            worth[r] = use
        top = 0.0
        for i in range(nh):
            if i == 0 or worth[root.hand[s][i]] > top:
                top = worth[root.hand[s][i]]
        for r in range(1, CSM_RANKS + 1):
            copies = CSM_COPIES - v.seen[s * CSM_RANKS + r - 1]
            if copies > 0:
                cards += copies
                use = worth[r]
                use = use - top + par.spare * top if use > top else par.spare * use
                if use > 0:
                    total += copies * use
    total *= par.hand_weight
    return total / cards if cards else 0.0


cdef inline double _evaluate(const CsmPlanner *P, const CsmNode *node) noexcept nogil:
    """A plan's worth: money, shares and hand, relative to the opponents."""
    cdef const CsmParams *par = P.params
    return (
        node.cash
        - node.debt * (1.0 + par.debt_penalty)
        + _py_sum(node.sv, CSM_SUITS)
        + <double>(node.levies * par.levy) * P.opp_weight
        + node.used * P.baseline
    )


cdef inline double _node_suit_value(const CsmPlanner *P, const CsmNode *node, int s) noexcept nogil:
    return _suit_value(
        P, s, node.price[s], node.face[s], node.hme[s], node.hopp[s],
        node.hand[s], node.hand_len[s], -1, node.cash,
    )


cdef void csm_plan(CsmPlanner *P, const CsmParams *par, const CsmView *v) noexcept nogil:
    """Set up one decision from ``v``: end prices, the opponents' weights and the root."""
    cdef int n = v.players
    cdef int seat = v.seat
    cdef double worth[CSM_MAX_PLAYERS]
    cdef double weight[CSM_MAX_PLAYERS]
    cdef double terms[CSM_MAX_PLAYERS]
    cdef double w, lead
    cdef int q, s, c, i, leader, count
    cdef CsmNode *root = &P.root
    P.params = par
    memset(weight, 0, sizeof(weight))
    _end_prices(P, v, _opponent_turns_left(v, par.rate))
    for q in range(n):
        w = <double>(v.cash[q] - v.debts[q])
        for s in range(CSM_SUITS):
            w += v.shares[q][s] * P.table[s][v.face[s]][v.price[s]]
        worth[q] = w
    leader = -1
    for q in range(n):
        if q != seat and (leader < 0 or worth[q] > worth[leader]):
            leader = q
    lead = par.leader_weight if n > 2 else 1.0
    for q in range(n):
        if q != seat:
            weight[q] = (1.0 - lead) / (n - 1) + (lead if q == leader else 0.0)
    P.opp_weight = _py_sum(weight, n)
    memset(root, 0, sizeof(CsmNode))
    for s in range(CSM_SUITS):
        root.price[s] = v.price[s]
        root.face[s] = v.face[s]
        root.hme[s] = v.shares[seat][s]
        count = 0
        for q in range(n):
            if q != seat:
                terms[count] = weight[q] * v.shares[q][s]
                count += 1
        root.hopp[s] = _py_sum(terms, count)
        for i in range(CSM_PRICES):
            root.certs[s][i] = v.certs[s][i]
    for i in range(v.hand_len):
        c = v.hand[i]
        s = c // CSM_RANKS
        root.hand[s][root.hand_len[s]] = <signed char>(c % CSM_RANKS + 1)
        root.hand_len[s] += 1
    root.cash = v.cash[seat]
    root.debt = v.debts[seat]
    root.bank = v.bank
    for q in range(n):
        if q != seat:
            root.ocash[root.n_opp] = v.cash[q]
            root.n_opp += 1
    root.trades = v.trades
    root.changes = v.changes
    if v.decision == CSM_DECISION_TRADING:
        root.phase = CSM_PH_TRADE
    elif v.decision == CSM_DECISION_MARKET:
        root.phase = CSM_PH_MARKET
    else:
        root.phase = CSM_PH_START
    root.bought = v.bought
    root.sold = v.sold
    root.first = -1
    for s in range(CSM_SUITS):
        root.sv[s] = _node_suit_value(P, root, s)
    P.baseline = _fresh_card_value(P, v)
    root.value = _evaluate(P, root)


# ---------------------------------------------------------------------- moves


cdef inline int _index(const signed char *ranks, int nr, int r) noexcept nogil:
    """Where ``r`` first appears in ``ranks`` (-1: nowhere)."""
    cdef int i
    for i in range(nr):
        if ranks[i] == r:
            return i
    return -1


cdef inline int _distinct(const signed char *ranks, int nr, int *firsts) noexcept nogil:
    """Where each distinct rank first appears in ``ranks``, in order; returns how many."""
    cdef int seen = 0
    cdef int count = 0
    cdef int i
    for i in range(nr):
        if not seen & (1 << ranks[i]):
            seen |= 1 << ranks[i]
            firsts[count] = i
            count += 1
    return count


cdef inline void _remove(CsmNode *node, int s, int r) noexcept nogil:
    """Take one card of rank ``r`` of suit ``s`` out of the node's hand, keeping the order."""
    cdef int i = _index(node.hand[s], node.hand_len[s], r)
    cdef int j
    for j in range(i, node.hand_len[s] - 1):
        node.hand[s][j] = node.hand[s][j + 1]
    node.hand_len[s] -= 1


cdef inline void _add(CsmMove *out, int *count, double value, int kind, int s, int r) noexcept nogil:
    out[count[0]].value = value
    out[count[0]].kind = kind
    out[count[0]].suit = s
    out[count[0]].rank = r
    count[0] += 1


cdef int csm_moves(const CsmPlanner *P, const CsmNode *node, CsmMove *out) noexcept nogil:
    """Every legal trade or market change from ``node`` (discards apart), valued."""
    cdef const CsmParams *par = P.params
    cdef int count = 0
    cdef bint trades = node.trades < 2 and (
        node.phase != CSM_PH_MARKET or (node.trades == 0 and not par.trade_first)
    )
    cdef bint market = node.changes < 2 and (node.phase != CSM_PH_TRADE or node.changes == 0)
    cdef double value = node.value
    cdef double baseline = P.baseline
    cdef long long cash = node.cash
    cdef long long cost, paid, back
    cdef int s, i, j, r, k, p, hm, nr, nd, bit
    cdef int firsts[CSM_MAX_SUIT_HAND]
    cdef bint f
    cdef double hs, here, after, gain
    cdef const signed char *ranks
    cdef CsmNode child
    cdef CsmMove sale
    for s in range(CSM_SUITS):
        ranks = node.hand[s]
        nr = node.hand_len[s]
        p = node.price[s]
        f = node.face[s]
        hm = node.hme[s]
        hs = node.hopp[s]
        here = value - node.sv[s]
        bit = 1 << s
        nd = _distinct(ranks, nr, firsts)
        if trades:
            if (p > 0 or par.free) and (par.same_suit or not node.sold & bit):
                for j in range(nd):
                    i = firsts[j]
                    r = ranks[i]
                    k = _SHARES[r]
                    cost = <long long>k * p
                    if hm + k <= CSM_MAX_SHARES and cost <= cash:
                        after = _suit_value(P, s, p, f, hm + k, hs, ranks, nr, i, cash - cost)
                        _add(out, &count, here + after - cost + baseline, _BUY, s, r)
            if par.same_suit or not node.bought & bit:
                for r in range(1, CSM_RANKS + 1):
                    if node.certs[s][r] <= 0:
                        continue
                    k = _SHARES[r]
                    paid = <long long>k * p
                    if 0 <= node.bank < paid:
                        sale.value = 0.0
                        sale.kind = _SELL
                        sale.suit = s
                        sale.rank = r
                        csm_play(P, node, &sale, &child)
                        _add(out, &count, child.value, _SELL, s, r)
                        continue
                    back = (node.debt if node.debt < paid else paid) if par.immediate else 0
                    gain = (paid - back) + back * (1.0 + par.debt_penalty)
                    after = _suit_value(P, s, p, f, hm - k, hs, ranks, nr, -1, cash + paid - back)
                    _add(out, &count, here + after + gain, _SELL, s, r)
        if market:
            for j in range(nd):
                i = firsts[j]
                r = ranks[i]
                if r <= 10:
                    if f or (
                        -par.fall[s] <= r - p <= par.rise[s] and (r != p or par.same_price)
                    ):
                        after = _suit_value(P, s, r, False, hm, hs, ranks, nr, i, cash)
                        _add(out, &count, here + after + baseline, _CHANGE, s, r)
                else:
                    if r > p and (not par.limited or r - p <= par.rise[s]):
                        after = _suit_value(P, s, r, True, hm, hs, ranks, nr, i, cash)
                        _add(out, &count, here + after + baseline, _CHANGE, s, r)
                    # At $0 a bankruptcy must wipe out shares (the opponents' are weighted
                    # here, as in the reference).
                    if p or par.same_price or hm or hs != 0.0:
                        after = _suit_value(P, s, 0, True, 0, 0.0, ranks, nr, i, cash)
                        _add(out, &count, here + after + baseline, _BANKRUPT, s, r)
    return count


cdef inline bint _all_broke(const CsmNode *node) noexcept nogil:
    """Whether every opponent is out of cash in ``node``."""
    cdef int i
    for i in range(node.n_opp):
        if node.ocash[i] > 0:
            return False
    return True


cdef void _sell(const CsmPlanner *P, CsmNode *child, int s, int k) noexcept nogil:
    """Sell ``k`` shares of suit ``s`` in ``child``, levies and debts included."""
    cdef const CsmParams *par = P.params
    cdef long long paid = <long long>k * child.price[s]
    cdef long long levy = par.levy
    cdef long long pay, got, back
    cdef int i
    child.hme[s] -= k
    child.sold |= 1 << s
    child.trades += 1
    child.phase = CSM_PH_TRADE
    if child.bank >= 0:
        # A short bank levies every player, the bot included, until it can pay.
        while child.bank < paid:
            if child.cash <= 0 and _all_broke(child):
                break  # nobody has money for a levy (see the reference)
            child.levies += 1
            pay = levy if levy < child.cash else child.cash
            child.cash -= pay
            child.debt += levy - pay
            got = 0
            for i in range(child.n_opp):
                got += levy if levy < child.ocash[i] else child.ocash[i]
            child.bank += pay + got
            for i in range(child.n_opp):
                child.ocash[i] = child.ocash[i] - levy if child.ocash[i] - levy > 0 else 0
        child.bank -= paid
    if child.debt and par.immediate:
        back = paid if paid < child.debt else child.debt
        child.debt -= back
        paid -= back
    child.cash += paid


cdef void csm_play(
    const CsmPlanner *P, const CsmNode *node, const CsmMove *move, CsmNode *child
) noexcept nogil:
    """The node ``move`` leads to, written into ``child``."""
    cdef int kind = move.kind
    cdef int s = move.suit
    cdef int r = move.rank
    cdef int k = _SHARES[r]
    cdef long long cost
    cdef int i
    child[0] = node[0]
    if kind == _BUY:
        cost = <long long>k * node.price[s]
        _remove(child, s, r)
        child.certs[s][r] += 1
        child.hme[s] += k
        child.cash -= cost
        if child.bank >= 0:
            child.bank += cost
        child.bought |= 1 << s
        child.trades += 1
        child.phase = CSM_PH_TRADE
        child.used += 1
    elif kind == _SELL:
        _sell(P, child, s, k)
        child.certs[s][r] -= 1
    else:
        _remove(child, s, r)
        child.changes += 1
        child.phase = CSM_PH_MARKET
        child.used += 1
        child.face[s] = r > 10
        if kind == _BANKRUPT:
            child.price[s] = 0
            child.hme[s] = 0
            child.hopp[s] = 0.0
            for i in range(CSM_PRICES):
                child.certs[s][i] = 0
        else:
            child.price[s] = r
    if child.first < 0:
        child.first = _action(kind, s, r)
    child.sv[s] = _node_suit_value(P, child, s)
    child.value = _evaluate(P, child)


# ---------------------------------------------------------------------- search


cdef void _complete(const CsmPlanner *P, CsmNode *node) noexcept nogil:
    """Follow the best next move while it improves the plan (in place)."""
    cdef CsmMove moves[CSM_MAX_MOVES]
    cdef CsmNode after
    cdef int count, i, best
    while True:
        count = csm_moves(P, node, moves)
        if count == 0:
            return
        best = 0
        for i in range(1, count):
            if _move_gt(&moves[i], &moves[best]):
                best = i
        if moves[best].value <= node.value + _TOLERANCE:
            return
        csm_play(P, node, &moves[best], &after)
        node[0] = after


cdef int csm_discard_order(const CsmPlanner *P, CsmDiscard *out) noexcept nogil:
    """Each distinct card in hand with what discarding it gains, most first."""
    cdef const CsmNode *root = &P.root
    cdef const CsmParams *par = P.params
    cdef int count = 0
    cdef int s, r, i, j
    cdef double rest
    cdef CsmDiscard item
    for s in range(CSM_SUITS):
        for r in range(1, CSM_RANKS + 1):
            i = _index(root.hand[s], root.hand_len[s], r)
            if i < 0:
                continue
            rest = _suit_value(
                P, s, root.price[s], root.face[s], root.hme[s], root.hopp[s],
                root.hand[s], root.hand_len[s], i, root.cash,
            )
            out[count].gain = rest - root.sv[s] + P.baseline + par.progress
            out[count].card = s * CSM_RANKS + r - 1
            count += 1
    # Sorted by (-gain, card); the cards come in increasing order, so a stable sort on
    # the gain alone gives the same order.
    for i in range(1, count):
        item = out[i]
        j = i - 1
        while j >= 0 and item.gain > out[j].gain:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = item
    return count


cdef int _best(const CsmPlanner *P, const unsigned char *allowed) noexcept nogil:
    """The first action of the best plan for the rest of the turn (-1: ``legal[0]``)."""
    cdef const CsmParams *par = P.params
    cdef const CsmNode *root = &P.root
    cdef CsmMove moves[CSM_MAX_MOVES]
    cdef CsmDiscard order[CSM_KINDS]
    cdef double positive[CSM_MAX_DISCARDS]
    cdef CsmNode kid
    cdef CsmNode best_node
    cdef CsmMove item
    cdef int count, kept, i, j, first, discards, gains_n
    cdef long long beam
    cdef bint at_root = True
    cdef double gains
    count = csm_moves(P, root, moves)
    kept = 0
    for i in range(count):
        if allowed[_action(moves[i].kind, moves[i].suit, moves[i].rank)]:
            moves[kept] = moves[i]
            kept += 1
    # sorted(reverse=True): no two moves are equal (each kind, suit and rank appears once).
    for i in range(1, kept):
        item = moves[i]
        j = i - 1
        while j >= 0 and _move_gt(&item, &moves[j]):
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = item
    beam = par.beam
    if beam < 0:
        beam = kept + beam if kept + beam > 0 else 0
    first = <int>(beam if beam < kept else kept)
    for i in range(first):
        csm_play(P, root, &moves[i], &kid)
        _complete(P, &kid)
        if kid.value > (root.value if at_root else best_node.value) + _TOLERANCE:
            best_node = kid
            at_root = False
    if root.phase == CSM_PH_START:
        # Discarding replaces the whole turn; it is also what the bot does when nothing
        # else helps, so that the draw pile keeps moving.
        count = csm_discard_order(P, order)
        discards = 0
        for i in range(count):
            if allowed[CSM_A_DISCARD + order[i].card]:
                order[discards] = order[i]
                discards += 1
        if discards:
            gains_n = 0
            for i in range(discards if discards < CSM_MAX_DISCARDS else CSM_MAX_DISCARDS):
                if order[i].gain > 0:
                    positive[gains_n] = order[i].gain
                    gains_n += 1
            gains = _py_sum(positive, gains_n)
            if at_root or root.value + gains > best_node.value:
                return CSM_A_DISCARD + order[0].card
    if not at_root:
        return best_node.first
    return CSM_A_DONE if allowed[CSM_A_DONE] else -1


cdef int _next_discard(const CsmPlanner *P, const unsigned char *allowed) noexcept nogil:
    """Go on discarding while a card is worth less than a fresh draw (-1: ``legal[0]``)."""
    cdef CsmDiscard order[CSM_KINDS]
    cdef int count = csm_discard_order(P, order)
    cdef int i
    for i in range(count):
        if order[i].gain > 0 and allowed[CSM_A_DISCARD + order[i].card]:
            return CSM_A_DISCARD + order[i].card
    return CSM_A_DONE if allowed[CSM_A_DONE] else -1


cdef int csm_pick(
    const CsmParams *params, const CsmView *view, const unsigned char *allowed
) noexcept nogil:
    """The bot's action for ``view`` among the ``allowed`` ones; -1 stands for ``legal[0]``."""
    cdef CsmPlanner P
    csm_plan(&P, params, view)
    if view.decision == CSM_DECISION_DISCARDING:
        return _next_discard(&P, allowed)
    return _best(&P, allowed)


# ---------------------------------------------------------------------- Python's side


_SETTINGS = (
    "rise", "fall", "limited", "free", "same_suit", "levy", "immediate", "trade_first",
    "same_price", "mean_price", "drift", "face_drift", "hazard", "hand_weight", "spare",
    "leader_weight", "debt_penalty", "progress", "beam", "rate",
)


cdef int _allowed(unsigned char *allowed, object legal) except -1:
    cdef Py_ssize_t a
    memset(allowed, 0, CSM_NUM_ACTIONS)
    for action in legal:
        a = action
        if 0 <= a < CSM_NUM_ACTIONS:
            allowed[a] = 1
    return 0


cdef int _check(object view) except -1:
    if not isinstance(view, CardStockMarketView) or view.seat is None:
        raise TypeError("the Card Stock Market heuristic needs a seat's Card Stock Market view")
    return 0


cdef class Planner:
    """The rule-based bot's decisions with fixed rules options and weights.

    The keywords are the options the plans follow (the strip's ``rise`` and ``fall`` per
    suit, ``limited`` face raises, ``free`` buying of a bankrupt suit, ``same_suit``
    trades, the ``levy``, ``immediate`` debt repayment, ``trade_first`` and
    ``same_price`` changes) and the bot's weights, ``mean_price`` to ``rate``, named as
    the heuristic's ``MEAN_PRICE`` to ``RATE``.
    """

    def __init__(
        self, *, rise, fall, limited, free, same_suit, levy, immediate, trade_first,
        same_price, mean_price, drift, face_drift, hazard, hand_weight, spare,
        leader_weight, debt_penalty, progress, beam, rate,
    ):
        cdef int s
        if len(rise) != CSM_SUITS or len(fall) != CSM_SUITS:
            raise ValueError("rise and fall give one figure per suit")
        memset(&self.params, 0, sizeof(CsmParams))
        for s in range(CSM_SUITS):
            self.params.rise[s] = rise[s]
            self.params.fall[s] = fall[s]
        self.params.limited = bool(limited)
        self.params.free = bool(free)
        self.params.same_suit = bool(same_suit)
        self.params.levy = levy
        self.params.immediate = bool(immediate)
        self.params.trade_first = bool(trade_first)
        self.params.same_price = bool(same_price)
        self.params.mean_price = mean_price
        self.params.drift = drift
        self.params.face_drift = face_drift
        self.params.hazard = hazard
        self.params.hand_weight = hand_weight
        self.params.spare = spare
        self.params.leader_weight = leader_weight
        self.params.debt_penalty = debt_penalty
        self.params.progress = progress
        self.params.beam = beam
        self.params.rate = rate
        values = (
            tuple(rise), tuple(fall), limited, free, same_suit, levy, immediate,
            trade_first, same_price, mean_price, drift, face_drift, hazard, hand_weight,
            spare, leader_weight, debt_penalty, progress, beam, rate,
        )
        self.settings = dict(zip(_SETTINGS, values))

    def __reduce__(self):
        return (_rebuild, (self.settings,))

    def __repr__(self):
        return f"Planner({', '.join(f'{k}={v!r}' for k, v in self.settings.items())})"

    def pick(self, view, legal):
        """The reference's ``pick(view, legal)``: the next action of the best plan."""
        cdef CsmView v
        cdef unsigned char allowed[CSM_NUM_ACTIONS]
        cdef int action
        _check(view)
        csm_fill_view(&v, view)
        _allowed(allowed, legal)
        with nogil:
            action = csm_pick(&self.params, &v, allowed)
        return action if action >= 0 else legal[0]

    def read(self, view):
        """Only read ``view`` as ``pick`` does, deciding nothing: for timing the two apart."""
        cdef CsmView v
        _check(view)
        csm_fill_view(&v, view)

    def explain(self, view):
        """The numbers behind a decision, as the reference's planner holds them.

        A dict: ``table`` (per suit, the expected sale prices with a number card and
        with a face card on top), ``opp_weight``, ``baseline``, ``value`` (the root's),
        ``moves`` (the root's, best first, as ``(value, kind, suit, rank)``) and
        ``discards`` (``(gain, card)``, most first).
        """
        cdef CsmView v
        cdef CsmPlanner P
        cdef CsmMove moves[CSM_MAX_MOVES]
        cdef CsmDiscard order[CSM_KINDS]
        cdef int count, discards, s, p, i
        _check(view)
        csm_fill_view(&v, view)
        csm_plan(&P, &self.params, &v)
        count = csm_moves(&P, &P.root, moves)
        discards = csm_discard_order(&P, order)
        table = []
        for s in range(CSM_SUITS):
            plain = []
            faced = []
            for p in range(CSM_PRICES):
                plain.append(P.table[s][0][p])
                faced.append(P.table[s][1][p])
            table.append((plain, faced))
        found = []
        for i in range(count):
            found.append((moves[i].value, moves[i].kind, moves[i].suit, moves[i].rank))
        gains = []
        for i in range(discards):
            gains.append((order[i].gain, order[i].card))
        return {
            "table": table,
            "opp_weight": P.opp_weight,
            "baseline": P.baseline,
            "value": P.root.value,
            "moves": sorted(found, reverse=True),
            "discards": gains,
        }


def _rebuild(settings):
    return Planner(**settings)


# ---------------------------------------------------------------------- play-outs


def playout(procedure, world, max_steps, horizon_round):
    """Play the rule-based bot for every seat of ``world`` in place; the steps played.

    ``procedure`` is the compiled planner the bots hand their choices to (a
    :class:`Planner`), ``world`` a state of the compiled engine. Up to ``max_steps``
    decisions are played, or to the end of the game, each as the search's own loop plays
    it: ``world.apply(bot.choose(world.view(mover)))`` with a bot that never moves at
    random (the only legal action when there is one, else the planner's pick). Card Stock
    Market has no rounds, so ``horizon_round`` (the round whose end stops a play-out, -1
    for none) stops nothing here, as the search's own test stops nothing. No view is built
    and no Python code runs between the decisions.
    """
    cdef Planner planner
    cdef State st
    cdef CsmView v
    cdef unsigned char allowed[CSM_NUM_ACTIONS]
    cdef csm_fields *f
    cdef long long limit = max_steps
    cdef long long steps = 0
    cdef int a, i
    if not isinstance(procedure, Planner):
        raise TypeError("a play-out needs the compiled Card Stock Market planner")
    if not isinstance(world, State):
        raise TypeError("a play-out needs a state of the compiled Card Stock Market engine")
    if type(horizon_round) is not int:
        raise TypeError("horizon_round is a round number, or -1 for none")
    planner = <Planner>procedure
    st = <State>world
    f = &st.f
    while f.cur >= 0 and steps < limit:
        st.compute_legal()
        if f.legal_len == 1:
            a = f.legal[0]
        else:
            csm_fill_state(&v, st, f.cur)
            memset(allowed, 0, CSM_NUM_ACTIONS)
            for i in range(f.legal_len):
                allowed[f.legal[i]] = 1
            with nogil:
                a = csm_pick(&planner.params, &v, allowed)
            if a < 0:
                a = f.legal[0]
            elif memchr(f.legal, a, f.legal_len) == NULL:
                # Never met (the planner picks among the allowed actions); the checked
                # apply refuses it as the search's own loop would.
                st.apply(a)
        st.apply_unchecked(a)
        steps += 1
    return steps


def reading(source, seat=None):
    """The bytes of what the bot reads: of ``source``, a seat's view, or, with ``seat``,
    of ``source``, a compiled state, for that seat (the two agree for ``state.view(seat)``).
    """
    cdef CsmView v
    if seat is None:
        _check(source)
        csm_fill_view(&v, source)
    elif isinstance(source, State):
        csm_fill_state(&v, <State>source, seat)
    else:
        raise TypeError("a seat is read from a state of the compiled Card Stock Market engine")
    return (<char *>&v)[:sizeof(CsmView)]
