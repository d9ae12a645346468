"""Take Stock's rules: setting up, the legal actions of each decision, and applying them.

Every function takes the state and changes it in place. ``apply_action`` trusts its caller
(:meth:`TakeStockState.apply` checks legality first); it is the engine's hot path, so it
is kept flat and works on plain lists.
"""

from __future__ import annotations

from bisect import insort
from itertools import pairwise
from typing import TYPE_CHECKING

from closingbell.core.checks import int_in, ints_in, lists_in, need, per_seat
from closingbell.core.rng import derive_rng
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.state import (
    ACTION,
    AUDIT_STOCK,
    AUDIT_WHAT,
    CHOOSE,
    DISCARD,
    DOWNTURN,
    EXERCISE,
    FOLLOW_MARKET_A,
    FOLLOW_MARKET_B,
    FOLLOW_NONE,
    FOLLOW_PLAY,
    FOLLOW_SAVE,
    FREEZE,
    INSIDER_DISCARD,
    OVER,
    PHASE_NAMES,
    RETRIEVE,
    ROUND_END_REASONS,
    AnyState,
    TakeStockFields,
)

if TYPE_CHECKING:
    from closingbell.games.take_stock.ruleset import TakeStockRuleset

VALUES = C.VALUES
NUM_STOCKS = C.NUM_STOCKS
STOCK_RANGE = range(NUM_STOCKS)


# ---------------------------------------------------------------------- setting up


def new_state(cls: type[AnyState], game: TakeStockRuleset, seed: int) -> AnyState:
    """Deal a new game, a ``cls``: seat the players, give out tokens and set up round one."""
    opts = game.options
    n = opts.players
    st = cls.__new__(cls)
    st.game = game
    st.n = n
    st.shares = game.shares
    st.seed = seed
    st.from_deal = True
    st.round = 0
    if opts.first_dealer is not None:
        st.dealer = opts.first_dealer
    else:
        st.dealer = derive_rng(seed, "first-dealer").randrange(n)
    st.turn = st.dealer
    st.cur = None
    st.phase = ACTION
    st.rows = [[1] for _ in STOCK_RANGE]
    st.splits = [0] * NUM_STOCKS
    st.frozen = [False] * NUM_STOCKS
    st.hands = [[] for _ in range(n)]
    st.certs = [[] for _ in range(n)]
    st.tokens = [C.START_TOKENS] * n
    st.supply = C.TOTAL_TOKENS - C.START_TOKENS * n
    st.draw = []
    st.discard = []
    st.ev_above = []
    st.ev_below = []
    st.ev_below_mask = []
    st.ev_discard = []
    st.ev_discard_mask = []
    st.ev_active = -1
    st.saved = [[] for _ in range(n)]
    st.totals = [0] * n
    st.round_scores = []
    st.round_reasons = []
    st.end_reason = None
    st.pool_of = [-1] * C.NUM_SHARE_CARDS
    st.hand_pool = [[] for _ in range(n)]
    st.known = [[] for _ in range(n)]
    st.follow = FOLLOW_NONE
    st.pair = []
    st.ev_stock = -1
    st.retrieved = []
    st.owed = 0
    st.queue = []
    st.hidden = [[] for _ in range(n)]
    st.reshuffles = 0
    st.history = []
    st.log = []
    st._legal = None
    _start_round(st, first_dealer=st.dealer)
    return st


def _reset_event_pile(st: TakeStockFields) -> None:
    """Gather all 40 event cards and build the pile with Market Closed 11th from the bottom."""
    deck = [k for k in C.EVENT_CARDS if k != C.MARKET_CLOSED]
    derive_rng(st.seed, "events", st.round).shuffle(deck)
    st.ev_below = deck[: C.CARDS_BELOW_CLOSED]
    st.ev_below_mask = [0] * C.CARDS_BELOW_CLOSED
    st.ev_above = deck[C.CARDS_BELOW_CLOSED :]
    st.ev_discard = []
    st.ev_discard_mask = []
    st.saved = [[] for _ in range(st.n)]


def _gather_under_pile(st: TakeStockFields) -> None:
    """Put the market's splits and freezes and the event discard pile under the pile.

    They go under Market Closed, which ends the round as soon as it is drawn and makes the
    whole pile anew, so these cards are never drawn and their order cannot matter.
    """
    public = (1 << (st.n + 1)) - 1  # every seat and the spectator saw them
    gathered: list[int] = []
    masks: list[int] = []
    for s in STOCK_RANGE:
        gathered += [C.SPLIT + s] * st.splits[s]
        masks += [public] * st.splits[s]
        if st.frozen[s]:
            gathered.append(C.FREEZE)
            masks.append(public)
    gathered += st.ev_discard
    masks += st.ev_discard_mask
    if not st.game.options.keep_saved_events:
        for p in range(st.n):
            gathered += st.saved[p]
            masks += [1 << p] * len(st.saved[p])
            st.saved[p] = []
    st.ev_below = gathered + st.ev_below
    st.ev_below_mask = masks + st.ev_below_mask
    st.ev_discard = []
    st.ev_discard_mask = []


def _start_round(st: TakeStockFields, first_dealer: int | None = None) -> None:
    """Prepare the next round's events and market, deal, and start the first turn."""
    n = st.n
    if st.round == 0 or st.end_reason == "market_closed":
        st.round += 1
        _reset_event_pile(st)
    else:
        _gather_under_pile(st)
        st.round += 1
    st.rows = [[1] for _ in STOCK_RANGE]
    st.splits = [0] * NUM_STOCKS
    st.frozen = [False] * NUM_STOCKS
    st.end_reason = None
    deck = list(C.SHARE_CARDS)
    derive_rng(st.seed, "shares", st.round).shuffle(deck)
    size = C.HAND_SIZES[n]
    st.hands = [sorted(deck[p * size : (p + 1) * size]) for p in range(n)]
    st.draw = deck[n * size :]
    st.discard = []
    st.certs = [[] for _ in range(n)]
    st.pool_of = [-1] * C.NUM_SHARE_CARDS
    for c in C.SHARE_CARDS:
        st.pool_of[c] = 0
    st.hand_pool = [[size] for _ in range(n)]
    st.known = [[] for _ in range(n)]
    st.hidden = [[] for _ in range(n)]
    st.reshuffles = 0
    st.dealer = first_dealer if first_dealer is not None else _next_dealer(st)
    st.log.append((None, ("round_start", st.round, st.dealer), None))
    _begin_turn(st, (st.dealer + 1) % n)


def _next_dealer(st: TakeStockFields) -> int:
    """The seat with the lowest total deals; ties follow the ``dealer_tie`` option."""
    low = min(st.totals)
    n = st.n
    order = [(st.dealer + 1 + i) % n for i in range(n)]
    tied = [p for p in order if st.totals[p] == low]
    if len(tied) > 1 and st.game.options.dealer_tie == "random":
        return tied[derive_rng(st.seed, "dealer-tie", st.round).randrange(len(tied))]
    return tied[0]


# ---------------------------------------------------------------------- small helpers


def _begin_turn(st: TakeStockFields, p: int) -> None:
    st.turn = p
    if _draw_share(st, p):
        st.phase = ACTION
        st.cur = p


def _end_turn(st: TakeStockFields) -> None:
    _begin_turn(st, (st.turn + 1) % st.n)


def _reshuffle(st: TakeStockFields) -> None:
    """The discard pile, seen by all, becomes the new draw pile and a new pool."""
    k = len(st.hand_pool[0])
    pool_of = st.pool_of
    for c in st.discard:
        pool_of[c] = k
    for counts in st.hand_pool:
        counts.append(0)
    pile = st.discard
    st.reshuffles += 1
    derive_rng(st.seed, "reshuffle", st.round, st.reshuffles).shuffle(pile)
    st.draw = pile
    st.discard = []
    st.log.append((None, ("reshuffle", len(pile)), None))


def _draw_share(st: TakeStockFields, p: int) -> bool:
    """Seat ``p`` draws a share card; returns False if the round ended instead."""
    last_card = st.game.last_card_rule
    if not st.draw:
        # Only under the 'next_draw' option: the pile waits empty until a card is needed.
        if not st.discard:
            _end_round(st, "no_cards")
            return False
        _reshuffle(st)
    card = st.draw.pop()
    insort(st.hands[p], card)
    st.hand_pool[p][-1] += 1
    st.log.append((p, ("draw", p, card), ("draw", p, None)))
    if last_card and not st.draw:
        if not st.discard:
            _end_round(st, "no_cards")
            return False
        _reshuffle(st)
    return True


def _release(st: TakeStockFields, p: int, card: int) -> None:
    """Public bookkeeping for a card of seat ``p``'s that is now face up."""
    k = st.pool_of[card]
    if k >= 0:
        st.hand_pool[p][k] -= 1
        st.pool_of[card] = -1
    else:
        st.known[p].remove(card)


def _discard_from_hand(st: TakeStockFields, p: int, card: int) -> None:
    st.hands[p].remove(card)
    _release(st, p, card)
    st.discard.append(card)
    st.log.append((None, ("discard", p, card), None))


def _to_event_discard(st: TakeStockFields, kind: int, mask: int) -> None:
    st.ev_discard.append(kind)
    st.ev_discard_mask.append(mask)


def _draw_event(st: TakeStockFields) -> int:
    """Draw the top event card; Market Closed comes when nothing is left above it."""
    if st.ev_above:
        return st.ev_above.pop()
    return C.MARKET_CLOSED


def _market_closed(st: TakeStockFields, p: int) -> None:
    """Market Closed was drawn: it is shown to everyone and the round ends."""
    _to_event_discard(st, C.MARKET_CLOSED, (1 << (st.n + 1)) - 1)
    st.log.append((None, ("market_closed", p), None))
    _end_round(st, "market_closed")


def price(st: TakeStockFields, s: int) -> int:
    """The current price of stock ``s``."""
    return st.rows[s][-1] * (st.splits[s] + 1)


def limit(st: TakeStockFields) -> int:
    """The Limit rule's bound: the most cards (splits included) in any stock row."""
    with_freeze = st.game.options.limit_counts_freeze
    best = 0
    for s in STOCK_RANGE:
        count = len(st.rows[s]) + st.splits[s] + (1 if with_freeze and st.frozen[s] else 0)
        best = max(best, count)
    return best


# ---------------------------------------------------------------------- legal actions


def legal_actions(st: TakeStockFields) -> list[int]:
    """The sorted legal action ids of the pending decision."""
    phase = st.phase
    p = st.cur
    if p is None:
        return []
    hand = st.hands[p]
    if phase == ACTION:
        rows = st.rows
        frozen = st.frozen
        out = []
        for c in hand:
            s = c // VALUES
            if not frozen[s]:
                top = rows[s][-1]
                v = c % VALUES + 1
                if top < v <= top + C.MAX_RAISE:
                    out.append(c)
        if len(st.certs[p]) < limit(st):
            out += [A.SAVE + c for c in hand]
        out.append(A.MARKET_A)
        out.append(A.MARKET_B)
        if st.saved[p]:
            out += [A.PLAY + k for k in sorted(set(st.saved[p]))]
        return out
    if phase in (DISCARD, INSIDER_DISCARD, DOWNTURN):
        return [A.DISCARD + c for c in hand]
    if phase == CHOOSE:
        return [A.CHOOSE + k for k in sorted(set(st.pair))]
    if phase == AUDIT_STOCK:
        return [A.AUDIT_STOCK + s for s in STOCK_RANGE if not st.frozen[s]]
    if phase == AUDIT_WHAT:
        return [A.AUDIT_CARD, A.AUDIT_SPLIT]
    if phase == FREEZE:
        return [A.FREEZE_STOCK + s for s in STOCK_RANGE]
    if phase == RETRIEVE:
        return [*(A.RETRIEVE + c for c in sorted(_retrievable(st))), A.RETRIEVE_DONE]
    if phase == EXERCISE:
        return [*(A.EXERCISE + c for c in hand), A.EXERCISE_DONE]
    return []


def _retrievable(st: TakeStockFields) -> list[int]:
    """Cards Insider Trading may still take, or none once its limit is reached."""
    got = len(st.retrieved)
    if got >= C.MAX_RETRIEVE:
        return []
    if st.game.options.insider_order == "discard_first" and got >= len(st.hands[st.turn]):
        return []
    s = st.ev_stock
    return [c for c in st.discard if c // VALUES == s]


def explain_illegal(st: TakeStockFields, action: object) -> str:
    """Say why ``action`` is not legal now (used only to build error messages)."""
    if isinstance(action, bool) or not isinstance(action, int):
        return f"an action must be an integer id, not {type(action).__name__}"
    if not 0 <= action < A.NUM_ACTIONS:
        return f"action ids run from 0 to {A.NUM_ACTIONS - 1}"
    if st.cur is None:
        return "the game is over"
    phase = st.phase
    wanted = PHASE_NAMES[phase]
    p = st.cur
    hand = st.hands[p]
    if A.RAISE <= action < A.SAVE and phase == ACTION:
        c = action - A.RAISE
        s, v = c // VALUES, c % VALUES + 1
        if c not in hand:
            return f"{C.card_name(c)} is not in seat {p}'s hand"
        if st.frozen[s]:
            return f"{C.STOCKS[s]} is frozen and its price cannot be raised"
        top = st.rows[s][-1]
        if v <= top:
            return f"{C.STOCKS[s]} stands at {top}; a raise must be higher"
        return f"{C.STOCKS[s]} stands at {top}; a raise may add at most {C.MAX_RAISE}"
    if A.SAVE <= action < A.DISCARD and phase == ACTION:
        c = action - A.SAVE
        if c not in hand:
            return f"{C.card_name(c)} is not in seat {p}'s hand"
        return (
            f"the Limit rule: seat {p} has {len(st.certs[p])} certificates and the longest "
            f"row has {limit(st)} cards"
        )
    if A.PLAY <= action < A.CHOOSE and phase == ACTION:
        k = action - A.PLAY
        if k == C.MARKET_CLOSED:
            return "Market Closed can never be saved or played"
        return f"seat {p} has no saved {C.EVENT_NAMES[k]} card"
    if A.DISCARD <= action < A.MARKET_A and phase in (DISCARD, INSIDER_DISCARD, DOWNTURN):
        return f"{C.card_name(action - A.DISCARD)} is not in seat {p}'s hand"
    if A.CHOOSE <= action < A.AUDIT_STOCK and phase == CHOOSE:
        return "that event is not one of the two cards drawn"
    if A.AUDIT_STOCK <= action < A.AUDIT_CARD and phase == AUDIT_STOCK:
        return "a frozen stock cannot be audited"
    if A.RETRIEVE <= action < A.RETRIEVE_DONE and phase == RETRIEVE:
        c = action - A.RETRIEVE
        if c // VALUES != st.ev_stock:
            return f"Insider Trading in {C.STOCKS[st.ev_stock]} retrieves only that stock"
        if c not in st.discard:
            return f"{C.card_name(c)} is not in the shares discard pile"
        return "no more cards may be retrieved"
    if A.EXERCISE <= action < A.EXERCISE_DONE and phase == EXERCISE:
        return f"{C.card_name(action - A.EXERCISE)} is not in seat {p}'s hand"
    return f"the pending decision is {wanted!r} for seat {p}, which this action does not answer"


# ---------------------------------------------------------------------- applying


def apply_action(st: TakeStockFields, a: int) -> None:
    """Apply legal action ``a`` for the current player."""
    p = st.cur
    assert p is not None
    phase = st.phase
    if phase == ACTION:
        if a < A.SAVE:
            _raise_price(st, p, a)
        elif a < A.DISCARD:
            card = a - A.SAVE
            st.hands[p].remove(card)
            _release(st, p, card)
            st.certs[p].append(card)
            st.log.append((None, ("save", p, card), None))
            st.follow = FOLLOW_SAVE
            st.phase = DISCARD
        elif a in (A.MARKET_A, A.MARKET_B):
            st.follow = FOLLOW_MARKET_A if a == A.MARKET_A else FOLLOW_MARKET_B
            st.log.append((None, ("market", p, "A" if a == A.MARKET_A else "B"), None))
            st.phase = DISCARD
        else:
            kind = a - A.PLAY
            st.saved[p].remove(kind)
            st.ev_active = kind
            st.follow = FOLLOW_PLAY
            st.log.append((None, ("play", p, kind), None))
            st.phase = DISCARD
        return
    if phase == DISCARD:
        _discard_from_hand(st, p, a - A.DISCARD)
        follow = st.follow
        st.follow = FOLLOW_NONE
        if follow == FOLLOW_SAVE:
            if st.hands[p]:
                _end_turn(st)
            else:
                _end_round(st, "empty_hand")
        elif follow == FOLLOW_PLAY:
            kind = st.ev_active
            st.ev_active = -1
            _resolve(st, p, kind)
        elif follow == FOLLOW_MARKET_A:
            _market_a(st, p)
        else:
            _market_b(st, p)
        return
    if phase == CHOOSE:
        kind = a - A.CHOOSE
        pair = st.pair
        pair.remove(kind)
        other = pair[0]
        st.pair = []
        _to_event_discard(st, other, 1 << p)
        st.log.append((p, ("event_discard", p, other), ("event_discard", p, None)))
        st.log.append((None, ("choose", p, kind), None))
        _resolve(st, p, kind)
        return
    if phase == AUDIT_STOCK:
        _audit(st, p, a - A.AUDIT_STOCK)
        return
    if phase == AUDIT_WHAT:
        s = st.ev_stock
        st.ev_stock = -1
        if a == A.AUDIT_CARD:
            _audit_card(st, p, s)
        else:
            _audit_split(st, p, s)
        _end_turn(st)
        return
    if phase == FREEZE:
        _freeze(st, p, a - A.FREEZE_STOCK)
        return
    if phase == RETRIEVE:
        if a == A.RETRIEVE_DONE:
            _retrieval_done(st, p)
            return
        card = a - A.RETRIEVE
        st.discard.remove(card)
        st.retrieved.append(card)
        st.log.append((None, ("retrieve", p, card), None))
        if not _retrievable(st):
            _retrieval_done(st, p)
        return
    if phase == INSIDER_DISCARD:
        _discard_from_hand(st, p, a - A.DISCARD)
        st.owed -= 1
        if st.owed == 0:
            _insider_finish(st, p)
        return
    if phase == DOWNTURN:
        card = a - A.DISCARD
        st.hands[p].remove(card)
        st.hidden[p].append(card)
        st.log.append((p, ("downturn_discard", p, card), ("downturn_discard", p, None)))
        _next_in_queue(st)
        return
    if phase == EXERCISE:
        if a == A.EXERCISE_DONE:
            _next_in_queue(st)
            return
        card = a - A.EXERCISE
        st.hands[p].remove(card)
        st.hidden[p].append(card)
        st.log.append((p, ("exercise", p, card), ("exercise", p, None)))
        if len(st.hidden[p]) >= st.tokens[p] or not st.hands[p]:
            _next_in_queue(st)
        return
    raise AssertionError(f"no decision pending in phase {phase}")


def _raise_price(st: TakeStockFields, p: int, card: int) -> None:
    st.hands[p].remove(card)
    _release(st, p, card)
    s = card // VALUES
    v = card % VALUES + 1
    st.rows[s].append(v)
    st.log.append((None, ("raise", p, card), None))
    if v in C.CLOSING_VALUES:
        _end_round(st, "high_card")
    else:
        _end_turn(st)


def _market_a(st: TakeStockFields, p: int) -> None:
    first = _draw_event(st)
    if first == C.MARKET_CLOSED:
        _market_closed(st, p)
        return
    second = _draw_event(st)
    if second == C.MARKET_CLOSED:
        # The first card has no effect; it is set aside face down with the discards.
        _to_event_discard(st, first, 1 << p)
        _log_drew_events(st, p, (first,))
        _market_closed(st, p)
        return
    st.pair = [first, second]
    _log_drew_events(st, p, (first, second))
    st.phase = CHOOSE


def _market_b(st: TakeStockFields, p: int) -> None:
    kind = _draw_event(st)
    if kind == C.MARKET_CLOSED:
        _market_closed(st, p)
        return
    st.saved[p].append(kind)
    _log_drew_events(st, p, (kind,))
    _end_turn(st)


def _log_drew_events(st: TakeStockFields, p: int, kinds: tuple[int, ...]) -> None:
    """Log the event cards seat ``p`` drew: their kinds for ``p``, their number for all."""
    st.log.append((p, ("drew_events", p, len(kinds), kinds), ("drew_events", p, len(kinds), None)))


def _resolve(st: TakeStockFields, p: int, kind: int) -> None:
    """Carry out event ``kind`` played by seat ``p``, then end the turn or ask a question."""
    public = (1 << (st.n + 1)) - 1
    if kind < C.CRASH:
        s = kind - C.SPLIT
        if st.frozen[s]:
            _to_event_discard(st, kind, public)
            st.log.append((None, ("split", s, None, True), None))
        else:
            st.splits[s] += 1
            row = st.rows[s]
            removed = None
            if len(row) > 1:
                removed = C.card_id(s, row.pop())
                st.discard.append(removed)
            st.log.append((None, ("split", s, removed, False), None))
        _end_turn(st)
    elif kind < C.INSIDER:
        _to_event_discard(st, kind, public)
        _crash(st, kind - C.CRASH)
        _end_turn(st)
    elif kind < C.AUDIT:
        _to_event_discard(st, kind, public)
        st.ev_stock = kind - C.INSIDER
        st.retrieved = []
        if _retrievable(st):
            st.phase = RETRIEVE
            st.cur = p
        else:
            st.ev_stock = -1
            _end_turn(st)
    elif kind == C.AUDIT:
        _to_event_discard(st, kind, public)
        st.phase = AUDIT_STOCK
        st.cur = p
    elif kind == C.FREEZE:
        st.ev_active = C.FREEZE
        st.phase = FREEZE
        st.cur = p
    elif kind == C.MARKET_CRASH:
        _to_event_discard(st, kind, public)
        for s in STOCK_RANGE:
            _crash(st, s)
        _end_turn(st)
    elif kind == C.UPTURN:
        _to_event_discard(st, kind, public)
        for i in range(st.n):
            if not _draw_share(st, (p + i) % st.n):
                return
        _end_turn(st)
    elif kind == C.DOWNTURN:
        _to_event_discard(st, kind, public)
        st.queue = [(p + i) % st.n for i in range(st.n)]
        st.phase = DOWNTURN
        st.cur = st.queue[0]
    elif kind == C.OPTION_GAINED:
        _to_event_discard(st, kind, public)
        n = st.n
        if st.supply >= n or st.game.options.option_shortage == "turn_order":
            for i in range(n):
                q = (p + i) % n
                if st.supply > 0:
                    st.supply -= 1
                    st.tokens[q] += 1
                    st.log.append((None, ("tokens", q, 1), None))
        _end_turn(st)
    elif kind == C.OPTION_LOST:
        _to_event_discard(st, kind, public)
        for q in range(st.n):
            if st.tokens[q] > 0:
                st.tokens[q] -= 1
                st.supply += 1
                st.log.append((None, ("tokens", q, -1), None))
        _end_turn(st)
    elif kind == C.NO_CHANGE:
        _to_event_discard(st, kind, public)
        _end_turn(st)
    else:
        raise AssertionError(f"event kind {kind} cannot be resolved")


def _crash(st: TakeStockFields, s: int) -> None:
    """One stock crashes: its freeze goes, one split goes, the top half of its row goes."""
    public = (1 << (st.n + 1)) - 1
    freeze_removed = st.frozen[s]
    if freeze_removed:
        st.frozen[s] = False
        _to_event_discard(st, C.FREEZE, public)
    row = st.rows[s]
    removed = []
    # Half the row, rounded down: the 1 counts but is never removed (crash_counts_one),
    # or half of the cards above the 1.
    counted = len(row) if st.game.options.crash_counts_one else len(row) - 1
    for _ in range(counted // 2):
        card = C.card_id(s, row.pop())
        st.discard.append(card)
        removed.append(card)
    split_removed = st.splits[s] > 0
    if split_removed:
        st.splits[s] -= 1
        _to_event_discard(st, C.SPLIT + s, public)
    st.log.append((None, ("crash", s, tuple(removed), split_removed, freeze_removed), None))


def _audit(st: TakeStockFields, p: int, s: int) -> None:
    can_card = len(st.rows[s]) > 1
    can_split = st.splits[s] > 0
    if can_card and can_split:
        st.ev_stock = s
        st.phase = AUDIT_WHAT
        return
    if can_card:
        _audit_card(st, p, s)
    elif can_split:
        _audit_split(st, p, s)
    else:
        st.log.append((None, ("audit", p, s, "nothing"), None))
    _end_turn(st)


def _audit_card(st: TakeStockFields, p: int, s: int) -> None:
    card = C.card_id(s, st.rows[s].pop())
    st.discard.append(card)
    st.log.append((None, ("audit", p, s, C.card_name(card)), None))


def _audit_split(st: TakeStockFields, p: int, s: int) -> None:
    st.splits[s] -= 1
    _to_event_discard(st, C.SPLIT + s, (1 << (st.n + 1)) - 1)
    st.log.append((None, ("audit", p, s, "split"), None))


def _freeze(st: TakeStockFields, p: int, s: int) -> None:
    public = (1 << (st.n + 1)) - 1
    st.ev_active = -1
    if st.frozen[s]:
        st.frozen[s] = False
        _to_event_discard(st, C.FREEZE, public)
        _to_event_discard(st, C.FREEZE, public)
    else:
        st.frozen[s] = True
    st.log.append((None, ("freeze", p, s, st.frozen[s]), None))
    _end_turn(st)


def _retrieval_done(st: TakeStockFields, p: int) -> None:
    st.owed = len(st.retrieved)
    if st.owed == 0:
        st.ev_stock = -1
        _end_turn(st)
        return
    if st.game.options.insider_order == "take_first":
        _take_retrieved(st, p)
    st.phase = INSIDER_DISCARD


def _take_retrieved(st: TakeStockFields, p: int) -> None:
    for card in st.retrieved:
        insort(st.hands[p], card)
        st.known[p].append(card)
    st.retrieved = []


def _insider_finish(st: TakeStockFields, p: int) -> None:
    if st.retrieved:
        _take_retrieved(st, p)
    st.ev_stock = -1
    _end_turn(st)


def _next_in_queue(st: TakeStockFields) -> None:
    """Pass a decision that all seats take in turn order to the next seat, or reveal."""
    queue = st.queue
    queue.pop(0)
    if st.phase == EXERCISE:
        while queue and not (st.hands[queue[0]] and st.tokens[queue[0]]):
            queue.pop(0)
    if queue:
        st.cur = queue[0]
        return
    if st.phase == DOWNTURN:
        _reveal_downturn(st)
    else:
        _reveal_exercise(st)


def _reveal_downturn(st: TakeStockFields) -> None:
    shown = []
    for q in range(st.n):
        for card in st.hidden[q]:
            _release(st, q, card)
            st.discard.append(card)
            shown.append(card)
        st.hidden[q] = []
    st.log.append((None, ("downturn_reveal", tuple(shown)), None))
    if any(not h for h in st.hands):
        _end_round(st, "empty_hand")
    else:
        _end_turn(st)


# ---------------------------------------------------------------------- end of round


def _end_round(st: TakeStockFields, reason: str) -> None:
    """The round is over: ask each seat that can about options, then score."""
    st.end_reason = reason
    st.log.append((None, ("round_end", st.round, reason), None))
    n = st.n
    st.pair = []
    queue = [q for q in ((st.turn + i) % n for i in range(n)) if st.hands[q] and st.tokens[q] > 0]
    if queue:
        st.queue = queue
        st.phase = EXERCISE
        st.cur = queue[0]
    else:
        _finish_round(st)


def _reveal_exercise(st: TakeStockFields) -> None:
    shown = []
    for q in range(st.n):
        used = st.hidden[q]
        for card in used:
            _release(st, q, card)
            st.certs[q].append(card)
        st.tokens[q] -= len(used)
        st.supply += len(used)
        shown.append(tuple(used))
        st.hidden[q] = []
    st.log.append((None, ("exercise_reveal", tuple(shown)), None))
    _finish_round(st)


def scoring_prices(st: TakeStockFields) -> list[int]:
    """What one share of each stock is worth at scoring (a frozen stock may count 0)."""
    zero_frozen = st.game.options.frozen_scoring == "zero"
    return [0 if zero_frozen and st.frozen[s] else price(st, s) for s in STOCK_RANGE]


def shares_held(st: TakeStockFields) -> list[list[int]]:
    """Each seat's shares of each stock in its certificates."""
    table = st.shares
    held = [[0] * C.NUM_STOCKS for _ in range(st.n)]
    for q, certs in enumerate(st.certs):
        for c in certs:
            held[q][c // VALUES] += table[c % VALUES + 1]
    return held


def score_round(st: TakeStockFields) -> list[int]:
    """Each seat's points for the certificates in front of it at the current prices."""
    prices = scoring_prices(st)
    table = st.shares
    return [sum(table[c % VALUES + 1] * prices[c // VALUES] for c in certs) for certs in st.certs]


def _finish_round(st: TakeStockFields) -> None:
    for q in range(st.n):
        for card in st.hands[q]:
            _release(st, q, card)
            st.discard.append(card)
        st.hands[q] = []
    points = score_round(st)
    for q in range(st.n):
        st.totals[q] += points[q]
    st.round_scores.append(points)
    assert st.end_reason is not None
    st.round_reasons.append(st.end_reason)
    # The breakdown lets a front end show each seat's points stock by stock.
    held = tuple(tuple(h) for h in shares_held(st))
    prices = tuple(scoring_prices(st))
    st.log.append((None, ("round_score", st.round, tuple(points), held, prices), None))
    st.queue = []
    if st.round >= st.game.options.rounds:
        st.phase = OVER
        st.cur = None
        st.log.append((None, ("game_over", tuple(st.totals), tuple(st.winners())), None))
        return
    _start_round(st)


# ---------------------------------------------------------------------- invariants

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
