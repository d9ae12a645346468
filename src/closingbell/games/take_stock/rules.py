"""Take Stock's rules: setting up, the legal actions of each decision, and applying them.

Every function takes the state and changes it in place. ``apply_action`` trusts its caller
(:meth:`TakeStockState.apply` checks legality first); it is the engine's hot path, so it
is kept flat and works on plain lists. The flow of turns and rounds is in
:mod:`~closingbell.games.take_stock.rounds`, the event cards in
:mod:`~closingbell.games.take_stock.events`, and the formulas they share with bots and
front ends (the Limit, prices, crashes) in :mod:`~closingbell.games.take_stock.queries`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from closingbell.core.rng import derive_rng
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import events, queries, rounds
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
    PHASE_NAMES,
    RETRIEVE,
    AnyState,
    TakeStockFields,
)

if TYPE_CHECKING:
    from closingbell.games.take_stock.ruleset import TakeStockRuleset

VALUES = C.VALUES
NUM_STOCKS = C.NUM_STOCKS
STOCK_RANGE = range(NUM_STOCKS)


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
    rounds._start_round(st, first_dealer=st.dealer)
    return st


def limit(st: TakeStockFields) -> int:
    """The Limit rule's bound now (:func:`closingbell.games.take_stock.queries.limit`)."""
    return queries.limit(st.rows, st.splits, st.frozen, st.game.options)


def legal_actions(st: TakeStockFields) -> list[int]:
    """The sorted legal action ids of the pending decision."""
    phase = st.phase
    p = st.cur
    if p is None:
        return []
    hand = st.hands[p]
    if phase == ACTION:
        out = queries.raisable(hand, st.rows, st.frozen)
        if len(st.certs[p]) < queries.limit(st.rows, st.splits, st.frozen, st.game.options):
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
        return [*(A.RETRIEVE + c for c in sorted(events._retrievable(st))), A.RETRIEVE_DONE]
    if phase == EXERCISE:
        return [*(A.EXERCISE + c for c in hand), A.EXERCISE_DONE]
    return []


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
            rounds._release(st, p, card)
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
        rounds._discard_from_hand(st, p, a - A.DISCARD)
        follow = st.follow
        st.follow = FOLLOW_NONE
        if follow == FOLLOW_SAVE:
            if st.hands[p]:
                rounds._end_turn(st)
            else:
                rounds._end_round(st, "empty_hand")
        elif follow == FOLLOW_PLAY:
            kind = st.ev_active
            st.ev_active = -1
            events._resolve(st, p, kind)
        elif follow == FOLLOW_MARKET_A:
            events._market_a(st, p)
        else:
            events._market_b(st, p)
        return
    if phase == CHOOSE:
        kind = a - A.CHOOSE
        pair = st.pair
        pair.remove(kind)
        other = pair[0]
        st.pair = []
        rounds._to_event_discard(st, other, 1 << p)
        st.log.append((p, ("event_discard", p, other), ("event_discard", p, None)))
        st.log.append((None, ("choose", p, kind), None))
        events._resolve(st, p, kind)
        return
    if phase == AUDIT_STOCK:
        events._audit(st, p, a - A.AUDIT_STOCK)
        return
    if phase == AUDIT_WHAT:
        s = st.ev_stock
        st.ev_stock = -1
        if a == A.AUDIT_CARD:
            events._audit_card(st, p, s)
        else:
            events._audit_split(st, p, s)
        rounds._end_turn(st)
        return
    if phase == FREEZE:
        events._freeze(st, p, a - A.FREEZE_STOCK)
        return
    if phase == RETRIEVE:
        if a == A.RETRIEVE_DONE:
            events._retrieval_done(st, p)
            return
        card = a - A.RETRIEVE
        st.discard.remove(card)
        st.retrieved.append(card)
        st.log.append((None, ("retrieve", p, card), None))
        if not events._retrievable(st):
            events._retrieval_done(st, p)
        return
    if phase == INSIDER_DISCARD:
        rounds._discard_from_hand(st, p, a - A.DISCARD)
        st.owed -= 1
        if st.owed == 0:
            events._insider_finish(st, p)
        return
    if phase == DOWNTURN:
        card = a - A.DISCARD
        st.hands[p].remove(card)
        st.hidden[p].append(card)
        st.log.append((p, ("downturn_discard", p, card), ("downturn_discard", p, None)))
        rounds._next_in_queue(st)
        return
    if phase == EXERCISE:
        if a == A.EXERCISE_DONE:
            rounds._next_in_queue(st)
            return
        card = a - A.EXERCISE
        st.hands[p].remove(card)
        st.hidden[p].append(card)
        st.log.append((p, ("exercise", p, card), ("exercise", p, None)))
        if len(st.hidden[p]) >= st.tokens[p] or not st.hands[p]:
            rounds._next_in_queue(st)
        return
    raise AssertionError(f"no decision pending in phase {phase}")


def _raise_price(st: TakeStockFields, p: int, card: int) -> None:
    st.hands[p].remove(card)
    rounds._release(st, p, card)
    s = card // VALUES
    v = card % VALUES + 1
    st.rows[s].append(v)
    st.log.append((None, ("raise", p, card), None))
    if v in C.CLOSING_VALUES:
        rounds._end_round(st, "high_card")
    else:
        rounds._end_turn(st)
