"""Take Stock's invariants: every card, token and piece of bookkeeping where it should be.

Checked after every action in tests and on every state read back from JSON.
"""

from __future__ import annotations

from itertools import pairwise

from closingbell.core.checks import int_in, ints_in, lists_in, need, per_seat
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.state import (
    ACTION,
    AUDIT_WHAT,
    CHOOSE,
    DISCARD,
    DOWNTURN,
    EXERCISE,
    FOLLOW_NONE,
    FOLLOW_PLAY,
    FREEZE,
    INSIDER_DISCARD,
    OVER,
    RETRIEVE,
    ROUND_END_REASONS,
    TakeStockFields,
)

VALUES = C.VALUES
NUM_STOCKS = C.NUM_STOCKS
STOCK_RANGE = range(NUM_STOCKS)

_IN_ROUND = frozenset(range(ACTION, EXERCISE))
"""The decisions taken while a round runs (before its end and its option exercises)."""


def check_invariants(st: TakeStockFields) -> None:
    """Raise ``AssertionError`` when any card, token or piece of bookkeeping is off.

    The checks are plain code rather than ``assert`` statements: they also guard states
    read back from JSON, and each message names the field at fault.
    """
    _check_fields(st)
    _check_decision(st)
    _check_hands(st)
    _check_share_cards(st)
    _check_event_cards(st)
    _check_knowledge(st)
    _check_scores(st)


def _check_fields(st: TakeStockFields) -> None:
    """Every field has the right length and every number lies in its range."""
    n = st.n
    card = C.NUM_SHARE_CARDS - 1
    event = C.MARKET_CLOSED - 1  # Market Closed itself is never held, saved or pending
    int_in("round", st.round, 1, st.game.options.rounds)
    int_in("dealer", st.dealer, 0, n - 1)
    int_in("turn", st.turn, 0, n - 1)
    int_in("supply", st.supply, 0, C.TOTAL_TOKENS)
    ints_in("tokens", st.tokens, 0, C.TOTAL_TOKENS, n)
    int_in("follow", st.follow, FOLLOW_NONE, FOLLOW_PLAY)
    int_in("ev_active", st.ev_active, -1, event)
    int_in("ev_stock", st.ev_stock, -1, NUM_STOCKS - 1)
    int_in("owed", st.owed, 0, C.MAX_RETRIEVE)
    lists_in("rows", st.rows, 1, VALUES, length=NUM_STOCKS)
    ints_in("splits", st.splits, 0, C.MAX_SPLITS, NUM_STOCKS)
    need(len(st.frozen) == NUM_STOCKS, f"'frozen' must hold {NUM_STOCKS} flags, one per stock")
    for name, lists in (
        ("hands", st.hands),
        ("certs", st.certs),
        ("hidden", st.hidden),
        ("known", st.known),
    ):
        lists_in(name, lists, 0, card, length=n)
    ints_in("draw", st.draw, 0, card)
    ints_in("discard", st.discard, 0, card)
    ints_in("retrieved", st.retrieved, 0, card)
    ints_in("ev_above", st.ev_above, 0, event)
    ints_in("ev_below", st.ev_below, 0, event)
    ints_in("ev_discard", st.ev_discard, 0, C.MARKET_CLOSED)
    ints_in("pair", st.pair, 0, event)
    lists_in("saved", st.saved, 0, event, length=n)
    need(
        len(st.ev_below) >= C.CARDS_BELOW_CLOSED,
        f"'ev_below' must hold at least {C.CARDS_BELOW_CLOSED} event cards under Market Closed",
    )
    everyone = (1 << (n + 1)) - 1
    ints_in("ev_below_mask", st.ev_below_mask, 0, everyone, len(st.ev_below))
    ints_in("ev_discard_mask", st.ev_discard_mask, 0, everyone, len(st.ev_discard))
    per_seat("hand_pool", st.hand_pool, n)
    pools = len(st.hand_pool[0])
    need(pools >= 1, "'hand_pool' must count the cards of at least one pool")
    lists_in("hand_pool", st.hand_pool, 0, C.NUM_SHARE_CARDS, length=n, size=pools)
    ints_in("pool_of", st.pool_of, -1, pools - 1, C.NUM_SHARE_CARDS)
    # A sampled state restarts the count; a dealt game has made one pool per reshuffle.
    int_in("reshuffles", st.reshuffles, 0, pools - 1)
    ints_in("queue", st.queue, 0, n - 1)
    need(len(set(st.queue)) == len(st.queue), "'queue' names each seat at most once")
    per_seat("totals", st.totals, n)
    lists_in("round_scores", st.round_scores, 0, C.MAX_ROUND_POINTS, size=n)
    need(
        st.end_reason is None or st.end_reason in ROUND_END_REASONS,
        f"'end_reason' must be null or one of {', '.join(ROUND_END_REASONS)}",
    )
    need(
        all(r in ROUND_END_REASONS for r in st.round_reasons),
        f"'round_reasons' must each be one of {', '.join(ROUND_END_REASONS)}",
    )


def _check_decision(st: TakeStockFields) -> None:
    """The pending decision and its working fields must agree with each other."""
    phase = st.phase
    int_in("phase", phase, ACTION, OVER)
    need(
        (st.cur is None) == (phase == OVER),
        "'cur' must be null exactly when the game is over ('phase')",
    )
    need(
        (st.follow != FOLLOW_NONE) == (phase == DISCARD),
        "'follow': a discard pays for a turn action, and only then",
    )
    need(
        (len(st.pair) == 2) == (phase == CHOOSE) and len(st.pair) in (0, 2),
        "'pair' holds the two events of option A while one is chosen, and only then",
    )
    if phase == FREEZE:
        need(st.ev_active == C.FREEZE, "'ev_active' must be the freeze being played")
    elif phase == DISCARD and st.follow == FOLLOW_PLAY:
        need(st.ev_active >= 0, "'ev_active' must be the event played before this discard")
    else:
        need(st.ev_active == -1, "'ev_active' must be -1: no event is being played")
    if phase in (AUDIT_WHAT, RETRIEVE, INSIDER_DISCARD):
        need(st.ev_stock >= 0, "'ev_stock' must name the stock of the event in play")
        if phase == AUDIT_WHAT:
            need(
                len(st.rows[st.ev_stock]) > 1 and st.splits[st.ev_stock] > 0,
                "'ev_stock': an audit asks what to remove only from a stock with a card "
                "and a split to remove",
            )
    else:
        need(st.ev_stock == -1, "'ev_stock' must be -1: no event stock is pending")
    need(
        (st.owed > 0) == (phase == INSIDER_DISCARD),
        "'owed': discards are owed for Insider Trading, and only then",
    )
    need(
        not st.retrieved or phase in (RETRIEVE, INSIDER_DISCARD),
        "'retrieved' holds cards only while Insider Trading retrieves them",
    )
    need(
        all(c // VALUES == st.ev_stock for c in st.retrieved),
        "'retrieved' holds cards of the Insider Trading stock only",
    )
    if phase == RETRIEVE:
        need(len(st.retrieved) < C.MAX_RETRIEVE, "'retrieved': at most three cards")
    if phase in (DOWNTURN, EXERCISE):
        need(bool(st.queue) and st.cur == st.queue[0], "'cur' must be the first seat of 'queue'")
    else:
        need(not st.queue, "'queue' is empty outside decisions that all seats take")
        need(not any(st.hidden), "'hidden' is empty outside decisions that all seats take")
    need(
        (phase == EXERCISE) == (st.end_reason is not None and phase != OVER),
        "'end_reason' is set once the round has ended ('phase')",
    )
    if phase not in (DOWNTURN, EXERCISE, OVER):
        need(st.cur == st.turn, "'cur' must be the active player ('turn')")
    if phase in _IN_ROUND:
        need(
            all(v < min(C.CLOSING_VALUES) for row in st.rows for v in row),
            "'rows': an 11 or a 12 ends the round",
        )
        if st.game.last_card_rule:
            need(bool(st.draw), "'draw' is never empty while a round runs under 'last_card'")
    else:
        high = [row for row in st.rows if row[-1] in C.CLOSING_VALUES]
        need(
            len(high) == (st.end_reason == "high_card"),
            "'rows': one row ends with an 11 or a 12 exactly when that ended the round",
        )
        need(
            all(v not in C.CLOSING_VALUES for row in st.rows for v in row[:-1]),
            "'rows': an 11 or a 12 can only be the top card",
        )


def _check_hands(st: TakeStockFields) -> None:
    """Each seat holds the cards its decision needs: no empty hand while a round runs."""
    n = st.n
    phase = st.phase
    hands = st.hands
    for q in range(n):
        need(hands[q] == sorted(hands[q]), f"'hands'[{q}] must be sorted")
    if phase == OVER:
        need(not any(hands), "'hands' are empty once the game is over")
        return
    cur = st.cur
    assert cur is not None  # checked by _check_decision; for the type checker
    if phase == DOWNTURN:
        count = len(st.queue)
        order = [(st.turn + i) % n for i in range(n)]
        need(st.queue == order[n - count :], "'queue': the seats yet to discard, in turn order")
        for q in range(n):
            waits = q in st.queue
            need(
                len(st.hidden[q]) == (0 if waits else 1),
                f"'hidden'[{q}]: one card for each seat that has discarded for the downturn",
            )
            need(not waits or bool(hands[q]), f"'hands'[{q}] must hold a card to discard")
        return
    if phase == EXERCISE:
        place = [(q - st.turn) % n for q in st.queue]
        need(place == sorted(set(place)), "'queue': seats in turn order from 'turn'")
        for q in range(n):
            need(
                len(st.hidden[q]) <= st.tokens[q],
                f"'hidden'[{q}]: a seat exercises at most one card per token",
            )
        for q in st.queue[1:]:
            need(not st.hidden[q], f"'hidden'[{q}]: seat {q} has not exercised yet")
        for q in st.queue:
            need(
                bool(hands[q]) and st.tokens[q] > len(st.hidden[q]),
                f"'hands'[{q}] and 'tokens'[{q}]: a queued seat can still exercise",
            )
        return
    for q in range(n):
        need(bool(hands[q]), f"'hands'[{q}] is empty in the middle of a round")
    if phase == ACTION:
        need(len(hands[cur]) >= 2, f"'hands'[{cur}]: the active player has drawn a card")
    if phase == INSIDER_DISCARD:
        need(len(hands[cur]) >= st.owed, f"'hands'[{cur}] must hold the cards owed ('owed')")
        if st.game.options.insider_order == "discard_first":
            need(st.owed <= len(st.retrieved), "'owed': one discard per card retrieved")
        else:
            need(not st.retrieved, "'retrieved' cards are already in the hand")


def _check_share_cards(st: TakeStockFields) -> None:
    """All 60 share cards, each exactly once; rows rise from their 1."""
    places: list[int] = []
    for s in STOCK_RANGE:
        row = st.rows[s]
        need(bool(row) and row[0] == 1, f"'rows'[{s}] ({C.STOCKS[s]}) must start with its 1")
        need(all(a < b for a, b in pairwise(row)), f"'rows'[{s}] ({C.STOCKS[s]}) must rise")
        places += [C.card_id(s, v) for v in row]
    for q in range(st.n):
        places += st.hands[q] + st.certs[q] + st.hidden[q]
    places += st.draw + st.discard + st.retrieved
    need(
        sorted(places) == list(range(C.NUM_SHARE_CARDS)),
        "'rows', 'hands', 'certs', 'hidden', 'draw', 'discard' and 'retrieved' must hold "
        "all 60 share cards, once each",
    )


def _check_event_cards(st: TakeStockFields) -> None:
    """The deck's 40 event cards, by kind, each exactly once."""
    events = st.ev_above + st.ev_below + st.ev_discard + st.pair
    for q in range(st.n):
        events += st.saved[q]
    for s in STOCK_RANGE:
        events += [C.SPLIT + s] * st.splits[s]
        if st.frozen[s]:
            events.append(C.FREEZE)
    if st.ev_active >= 0:
        events.append(st.ev_active)
    in_play = st.phase != OVER and st.end_reason is None
    if in_play:
        events.append(C.MARKET_CLOSED)
    counts = [0] * C.NUM_EVENT_KINDS
    for k in events:
        counts[k] += 1
    if not in_play and st.end_reason != "market_closed":
        counts[C.MARKET_CLOSED] += 1
    need(
        tuple(counts) == C.EVENT_DECK,
        "'ev_above', 'ev_below', 'ev_discard', 'pair', 'saved', 'splits', 'frozen' and "
        "'ev_active' must hold all 40 event cards, once each",
    )


def _check_knowledge(st: TakeStockFields) -> None:
    """What the table knows of hidden share cards agrees with where they are."""
    pools = len(st.hand_pool[0])
    pool_of = st.pool_of
    for q in range(st.n):
        counts = [0] * pools
        known = st.known[q]
        need(len(set(known)) == len(known), f"'known'[{q}] names each card once")
        for card in st.hands[q] + st.hidden[q]:
            k = pool_of[card]
            if k >= 0:
                counts[k] += 1
                need(card not in known, f"'known'[{q}]: a known card belongs to no pool")
            else:
                need(card in known, f"'known'[{q}]: a face-up card in a hand must be known")
        need(counts == st.hand_pool[q], f"'hand_pool'[{q}] must count seat {q}'s hidden cards")
        need(
            all(c in st.hands[q] or c in st.hidden[q] for c in known),
            f"'known'[{q}] names only cards that seat {q} holds",
        )
    for card in st.draw:
        need(pool_of[card] == pools - 1, "'pool_of': the draw pile is the newest pool")
    face_up = [C.card_id(s, v) for s in STOCK_RANGE for v in st.rows[s]]
    face_up += st.discard + st.retrieved
    for certs in st.certs:
        face_up += certs
    need(all(pool_of[c] == -1 for c in face_up), "'pool_of': a face-up card is in no pool")


def _check_scores(st: TakeStockFields) -> None:
    """Tokens add up to 30; scores add up round by round."""
    need(
        st.supply + sum(st.tokens) == C.TOTAL_TOKENS,
        "'supply' and 'tokens' must hold all 30 option tokens",
    )
    scored = len(st.round_scores)
    need(len(st.round_reasons) == scored, "'round_reasons': one per round in 'round_scores'")
    if st.phase == OVER:
        need(
            st.round == scored == st.game.options.rounds,
            "'round_scores': every round is scored once the game is over",
        )
        need(st.end_reason == st.round_reasons[-1], "'end_reason' must be the last round's")
    else:
        need(scored == st.round - 1, "'round_scores': one per round before 'round'")
    sums = [sum(points[q] for points in st.round_scores) for q in range(st.n)]
    need(st.totals == sums, "'totals' must be the sums of 'round_scores'")
