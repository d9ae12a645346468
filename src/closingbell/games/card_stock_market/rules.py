"""Card Stock Market's rules: the setup, the legal actions of each decision, and applying them.

Every function takes the state and changes it in place. ``apply_action`` trusts its caller
(:meth:`CardStockMarketState.apply` checks legality first); with ``legal_actions`` it is
the engine's hot path, so both are kept flat and work on plain lists.

A turn is a sequence of decisions. The first (``turn``) offers everything: a buy or sell
starts the trading phase, a market change the market phase, a discard the discarding
that replaces both, and ``done`` passes. Trading offers a second transaction and, if the
market has not been changed yet, the market; the market phase likewise. A phase is over
once the other one has started (with ``phase_order="trade_first"`` trading is also over
as soon as the market phase starts); the turn ends by itself when nothing is left to do.
Unless ``same_price_change`` is set, a market change must change something: a number
card must move the price, and a bankruptcy of a suit already at $0 must wipe out shares.
"""

from __future__ import annotations

from bisect import insort

from closingbell.core.checks import MAX_INT, int_in, ints_in, lists_in, need, per_seat
from closingbell.core.rng import derive_rng
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market import queries
from closingbell.games.card_stock_market.ruleset import CardStockMarketRuleset
from closingbell.games.card_stock_market.state import (
    DISCARD,
    MARKET,
    OVER,
    PHASE_NAMES,
    START,
    TRADE,
    AnyState,
    CardStockMarketFields,
)

SUIT_OF = C.SUIT_OF
RANK_OF = C.RANK_OF
SHARES = C.SHARES
JOKER = C.JOKER
SUIT_RANGE = range(C.NUM_SUITS)
MAX_SHARES = C.MAX_SHARES
HAND_SIZE = C.HAND_SIZE
BUY = A.BUY
SELL = A.SELL
MARKET_A = A.MARKET
BANKRUPT = A.BANKRUPT
DISCARD_A = A.DISCARD
DONE = A.DONE
# The bankrupt action of each kind (only face cards use theirs).
_BANKRUPT_OF: tuple[int, ...] = tuple(
    A.bankrupt_action(c) if C.is_face(c) else -1 for c in range(C.NUM_KINDS)
)


# ---------------------------------------------------------------------- setting up


def new_state(cls: type[AnyState], game: CardStockMarketRuleset, seed: int) -> AnyState:
    """Set up a new game, a ``cls``: start the four market piles, deal, and start the first turn."""
    opts = game.options
    n = opts.players
    st = cls.__new__(cls)
    st.game = game
    st.n = n
    st.seed = seed
    st.from_deal = True
    if opts.first_dealer is not None:
        st.dealer = opts.first_dealer
    else:
        st.dealer = derive_rng(seed, "dealer").randrange(n)
    deck = [c for c in range(C.NUM_KINDS) for _ in range(C.COPIES)]
    derive_rng(seed, "deck").shuffle(deck)
    # The banker turns cards up until every suit has its first number card.
    lowest = 1 if opts.ace_at_setup else 2
    piles: list[list[int]] = [[] for _ in SUIT_RANGE]
    turned: list[int] = []
    started = 0
    unused: list[int] = []
    while started < C.NUM_SUITS:
        card = deck.pop()
        turned.append(card)
        s = SUIT_OF[card]
        if not piles[s] and lowest <= RANK_OF[card] <= 10:
            piles[s].append(card)
            started += 1
        else:
            unused.append(card)
    deck += unused
    derive_rng(seed, "deck", "after-setup").shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(HAND_SIZE // C.DEAL_BATCH):
        for i in range(n):
            q = (st.dealer + 1 + i) % n
            for _ in range(C.DEAL_BATCH):
                hands[q].append(deck.pop())
    st.piles = piles
    st.busted = [False] * C.NUM_SUITS
    st.prices = [RANK_OF[p[-1]] for p in piles]
    st.hands = [sorted(h) for h in hands]
    st.certs = [[] for _ in range(n)]
    st.held = [[0] * C.NUM_SUITS for _ in range(n)]
    st.cash = [opts.starting_money] * n
    st.debt = [0] * n
    st.bank = opts.bank_money if opts.bank_money is not None else 0
    st.levies = 0
    st.draw = deck
    st.discard = []
    st.jokers_out = C.COPIES
    st.joker_by = -1
    st.reshuffled = False
    st.re_pile = []
    st.re_hands = []
    st.re_drawn = []
    st.re_events = []
    st.turns = 0
    st.history = []
    st.log = [(None, ("setup", st.dealer, tuple(turned), tuple(p[0] for p in piles)), None)]
    for q in range(n):
        st.log.append((q, ("deal", q, HAND_SIZE, tuple(st.hands[q])), ("deal", q, HAND_SIZE, None)))
    _begin_turn(st, (st.dealer + 1) % n)
    return st


def _begin_turn(st: CardStockMarketFields, p: int) -> None:
    st.turn = p
    st.cur = p
    st.phase = START
    st.trades = 0
    st.sales = 0
    st.changes = 0
    st.discards = 0
    st.bought = 0
    st.sold = 0
    st.turns += 1
    st._legal = None
    st.log.append((None, ("turn", p, st.turns), None))


# ---------------------------------------------------------------------- legal actions


def legal_actions(st: CardStockMarketFields) -> list[int]:
    """The sorted legal action ids of the pending decision."""
    p = st.cur
    if p is None:
        return []
    phase = st.phase
    kinds = list(dict.fromkeys(st.hands[p]))  # the hand is sorted: distinct kinds, in order
    if phase == DISCARD:
        if st.discards < C.MAX_DISCARDS:
            out = [DISCARD_A + c for c in kinds]
            out.append(DONE)
            return out
        return [DONE]
    out = []
    append = out.append
    game = st.game
    prices = st.prices
    trades, changes, _ = queries.turn_left(
        phase, st.trades, st.changes, st.discards, game.trade_first
    )
    if trades:
        held = st.held[p]
        cash = st.cash[p]
        free = game.bankrupt_free
        blocked = 0 if game.same_suit_trades else st.sold
        for c in kinds:
            s = SUIT_OF[c]
            sh = SHARES[c]
            if held[s] + sh > MAX_SHARES:
                continue
            price = prices[s]
            if sh * price > cash or (price == 0 and not free) or (blocked >> s) & 1:
                continue
            append(c)
        if st.certs[p]:
            blocked = 0 if game.same_suit_trades else st.bought
            for c in dict.fromkeys(st.certs[p]):
                if not (blocked >> SUIT_OF[c]) & 1:
                    append(SELL + c)
    if changes:
        piles = st.piles
        rise = game.rise
        fall = game.fall
        limited = game.face_raise_limited
        same = game.same_price_change
        faces: list[int] = []
        for c in kinds:
            s = SUIT_OF[c]
            r = RANK_OF[c]
            price = prices[s]
            if r <= 10:
                if RANK_OF[piles[s][-1]] > 10 or (
                    -fall[s] <= r - price <= rise[s] and (r != price or same)
                ):
                    append(MARKET_A + c)
            else:
                if price or same or _anyone_holds(st, s):
                    faces.append(_BANKRUPT_OF[c])
                if r > price and (not limited or r - price <= rise[s]):
                    append(MARKET_A + c)
        out += faces
    if phase == START:
        out += [DISCARD_A + c for c in kinds]
    append(DONE)
    return out


def _anyone_holds(st: CardStockMarketFields, s: int) -> bool:
    """Whether any seat holds shares of suit ``s``."""
    return any(h[s] for h in st.held)


def explain_illegal(st: CardStockMarketFields, action: object) -> str:
    """Say why ``action`` is not legal now (used only to build error messages)."""
    if isinstance(action, bool) or not isinstance(action, int):
        return f"an action must be an integer id, not {type(action).__name__}"
    if not 0 <= action < A.NUM_ACTIONS:
        return f"action ids run from 0 to {A.NUM_ACTIONS - 1}"
    p = st.cur
    if p is None:
        return "the game is over"
    game = st.game
    phase = st.phase
    hand = st.hands[p]
    trades_left, changes_left, _ = queries.turn_left(
        phase, st.trades, st.changes, st.discards, game.trade_first
    )
    trading_over = not trades_left
    market_over = not changes_left
    if action < MARKET_A:
        if phase == DISCARD:
            return "a player who discards neither buys nor sells that turn"
        if trading_over:
            if st.trades >= 2:
                return "two transactions have been made this turn"
            if st.trades == 0:
                return (
                    "with phase_order 'trade_first' the transactions come before the market "
                    "changes: once the market has changed, there is no buying or selling "
                    "this turn"
                )
            return "the transactions must be made together, before the market changes"
        card = action - (SELL if action >= SELL else BUY)
        s = SUIT_OF[card]
        name = C.card_name(card)
        suit = C.SUITS[s]
        if action >= SELL:
            if card not in st.certs[p]:
                return f"seat {p} holds no {name} certificate"
            return f"seat {p} bought {suit} this turn and may not also sell it"
        if card not in hand:
            return f"{name} is not in seat {p}'s hand"
        sh = SHARES[card]
        if st.held[p][s] + sh > MAX_SHARES:
            return (
                f"seat {p} holds {st.held[p][s]} shares of {suit}; {sh} more would pass "
                f"the limit of {MAX_SHARES}"
            )
        price = st.prices[s]
        if sh * price > st.cash[p]:
            return f"{name} costs ${sh * price} and seat {p} has only ${st.cash[p]}"
        if price == 0:
            return f"{suit} is bankrupt and cannot be bought until a number card covers it"
        return f"seat {p} sold {suit} this turn and may not also buy it"
    if action < DISCARD_A:
        if phase == DISCARD:
            return "a player who discards does not change the market that turn"
        if market_over:
            if st.changes >= 2:
                return "two market changes have been made this turn"
            return "the market changes must be made together, before the transactions"
        if action >= BANKRUPT:
            card = A.bankrupt_card(action)
            if card in hand:
                return (
                    f"{C.SUITS[SUIT_OF[card]]} is already bankrupt at $0 and nobody holds its "
                    "shares: bankrupting it again would change nothing (a market change must "
                    "change the market unless option same_price_change is set)"
                )
            return f"{C.card_name(card)} is not in seat {p}'s hand"
        card = action - MARKET_A
        name = C.card_name(card)
        if card not in hand:
            return f"{name} is not in seat {p}'s hand"
        s = SUIT_OF[card]
        r = RANK_OF[card]
        price = st.prices[s]
        suit = C.SUITS[s]
        if r > 10:
            if r <= price:
                return f"{suit} stands at ${price}; {name} as a raise must raise it"
            return (
                f"{suit} may rise by at most ${game.rise[s]} a card, and {name} would "
                f"raise it from ${price} to ${r}"
            )
        if r > price:
            return (
                f"{suit} may rise by at most ${game.rise[s]} a card; {name} would raise "
                f"it from ${price} to ${r}"
            )
        if r == price:
            return (
                f"{suit} stands at ${price} already: {name} would not change its value, and "
                "a market change must change it unless option same_price_change is set"
            )
        return (
            f"{suit} may fall by at most ${game.fall[s]} a card; {name} would lower it "
            f"from ${price} to ${r}"
        )
    if action < DONE:
        card = action - DISCARD_A
        if phase in (TRADE, MARKET):
            return "a player who trades or changes the market does not discard that turn"
        if phase == DISCARD and st.discards >= C.MAX_DISCARDS:
            return f"at most {C.MAX_DISCARDS} cards may be discarded"
        return f"{C.card_name(card)} is not in seat {p}'s hand"
    return f"the pending decision is {PHASE_NAMES[phase]!r} for seat {p}"


# ---------------------------------------------------------------------- applying


def apply_action(st: CardStockMarketFields, a: int) -> None:
    """Apply legal action ``a`` for the current player."""
    p = st.cur
    assert p is not None
    if a == DONE:
        _end_turn(st)
        return
    if a < MARKET_A:
        if a < SELL:
            _buy(st, p, a)
        else:
            _sell(st, p, a - SELL)
        st.trades += 1
        st.phase = TRADE
        if queries.turn_over(TRADE, st.trades, st.changes, 0, st.game.trade_first):
            _end_turn(st)
        return
    if a < DISCARD_A:
        if a < BANKRUPT:
            _change(st, p, a - MARKET_A)
        else:
            _bankrupt(st, p, A.bankrupt_card(a))
        st.changes += 1
        st.phase = MARKET
        if queries.turn_over(MARKET, st.trades, st.changes, 0, st.game.trade_first):
            _end_turn(st)
        return
    card = a - DISCARD_A
    st.hands[p].remove(card)
    st.discard.append(card)
    if st.reshuffled:
        st.re_events[p].append(card)
    st.log.append((None, ("discard", p, card), None))
    st.discards += 1
    st.phase = DISCARD
    if queries.turn_over(DISCARD, 0, 0, st.discards, st.game.trade_first):
        _end_turn(st)


def _buy(st: CardStockMarketFields, p: int, card: int) -> None:
    s = SUIT_OF[card]
    sh = SHARES[card]
    price = st.prices[s]
    cost = sh * price
    st.hands[p].remove(card)
    insort(st.certs[p], card)
    st.held[p][s] += sh
    st.cash[p] -= cost
    st.bank += cost
    st.bought |= 1 << s
    if st.reshuffled:
        st.re_events[p].append(card)
    st.log.append((None, ("buy", p, card, price, cost), None))


def _sell(st: CardStockMarketFields, p: int, card: int) -> None:
    s = SUIT_OF[card]
    sh = SHARES[card]
    price = st.prices[s]
    st.certs[p].remove(card)
    st.held[p][s] -= sh
    st.discard.append(card)
    st.sold |= 1 << s
    st.sales += 1
    st.log.append((None, ("sell", p, card, price, sh * price), None))
    _pay(st, p, sh * price)


def _change(st: CardStockMarketFields, p: int, card: int) -> None:
    s = SUIT_OF[card]
    st.hands[p].remove(card)
    st.piles[s].append(card)
    st.busted[s] = False
    st.prices[s] = queries.market_price(card)
    if st.reshuffled:
        st.re_events[p].append(card)
    st.log.append((None, ("market", p, card, st.prices[s]), None))


def _bankrupt(st: CardStockMarketFields, p: int, card: int) -> None:
    s = SUIT_OF[card]
    st.hands[p].remove(card)
    st.piles[s].append(card)
    st.busted[s] = True
    st.prices[s] = 0
    if st.reshuffled:
        st.re_events[p].append(card)
    lost = []
    for q in range(st.n):
        lost.append(st.held[q][s])
        if st.held[q][s]:
            certs = st.certs[q]
            st.discard += [c for c in certs if SUIT_OF[c] == s]
            st.certs[q] = [c for c in certs if SUIT_OF[c] != s]
            st.held[q][s] = 0
    st.log.append((None, ("bankrupt", p, card, tuple(lost)), None))


# ---------------------------------------------------------------------- money


def _pay(st: CardStockMarketFields, q: int, amount: int) -> None:
    """The bank pays ``amount`` to seat ``q``, after levies if it is short."""
    if st.game.bank_limited:
        while st.bank < amount:
            _levy(st)
    st.bank -= amount
    debt = st.debt[q]
    if debt and st.game.immediate_repay:
        back = min(debt, amount)
        st.debt[q] = debt - back
        st.bank += back
        amount -= back
        st.log.append((None, ("repay", q, back), None))
    st.cash[q] += amount


def _levy(st: CardStockMarketFields) -> None:
    """Every seat pays the levy into the bank; what a seat cannot pay it owes."""
    levy = st.game.options.levy
    paid = []
    owed = []
    for q in range(st.n):
        pay = min(st.cash[q], levy)
        st.cash[q] -= pay
        st.bank += pay
        st.debt[q] += levy - pay
        paid.append(pay)
        owed.append(levy - pay)
    st.levies += 1
    st.log.append((None, ("levy", tuple(paid), tuple(owed)), None))


def _settle(st: CardStockMarketFields, q: int) -> None:
    """Seat ``q`` repays as much of its debt as its cash allows."""
    back = min(st.cash[q], st.debt[q])
    if back:
        st.cash[q] -= back
        st.debt[q] -= back
        st.bank += back
        st.log.append((None, ("repay", q, back), None))


# ---------------------------------------------------------------------- end of turn


def _end_turn(st: CardStockMarketFields) -> None:
    """Draw back up to eight cards, then pass the turn (or end the game on a joker)."""
    p = st.turn
    st.log.append((None, ("end_turn", p), None))
    if not st.game.immediate_repay and st.debt[p]:
        _settle(st, p)
    hand = st.hands[p]
    draw = st.draw
    batch: list[int] = []
    while len(hand) < HAND_SIZE:
        card = draw.pop()
        if card == JOKER:
            _log_draw(st, p, batch)
            _joker(st, p)
            return
        insort(hand, card)
        batch.append(card)
        if st.reshuffled:
            st.re_drawn[p].append(card)
        if not draw:
            _log_draw(st, p, batch)
            batch = []
            _reshuffle(st)
            draw = st.draw
    _log_draw(st, p, batch)
    _begin_turn(st, (p + 1) % st.n)


def _log_draw(st: CardStockMarketFields, p: int, batch: list[int]) -> None:
    if batch:
        count = len(batch)
        st.log.append((p, ("draw", p, count, tuple(batch)), ("draw", p, count, None)))
        if st.reshuffled:
            st.re_events[p].append(-count)


def _reshuffle(st: CardStockMarketFields) -> None:
    """Make a new draw pile of the market piles' lower cards, the discards and the jokers."""
    assert not st.reshuffled, "both jokers are in the pile after the reshuffle"
    cards: list[int] = []
    for pile in st.piles:
        cards += pile[:-1]
        del pile[:-1]
    cards += st.discard
    cards += [JOKER] * st.jokers_out
    st.discard = []
    st.jokers_out = 0
    derive_rng(st.seed, "reshuffle").shuffle(cards)
    st.draw = cards
    st.reshuffled = True
    st.re_pile = sorted(cards)
    st.re_hands = [h[:] for h in st.hands]
    st.re_drawn = [[] for _ in range(st.n)]
    st.re_events = [[] for _ in range(st.n)]
    st.log.append((None, ("reshuffle", len(cards)), None))


def _joker(st: CardStockMarketFields, p: int) -> None:
    """Seat ``p`` drew a joker: everyone sells all stock, and the game is over."""
    st.joker_by = p
    st.log.append((None, ("joker", p), None))
    n = st.n
    for i in range(n):
        q = (p + i) % n
        for card in st.certs[q]:
            s = SUIT_OF[card]
            price = st.prices[s]
            st.discard.append(card)
            st.held[q][s] -= SHARES[card]
            st.log.append((None, ("final_sale", q, card, price, SHARES[card] * price), None))
            _pay(st, q, SHARES[card] * price)
        st.certs[q] = []
    for q in range(n):
        _settle(st, q)
    st.phase = OVER
    st.cur = None
    st.log.append((None, ("game_over", tuple(st.scores()), tuple(st.winners())), None))


# ---------------------------------------------------------------------- invariants


def check_invariants(st: CardStockMarketFields) -> None:
    """Raise ``AssertionError`` when any card, dollar or piece of bookkeeping is off.

    The checks are plain code rather than ``assert`` statements: they also guard states
    read back from JSON, and each message names the field at fault.
    """
    _check_fields(st)
    _check_cards(st)
    _check_money(st)
    _check_turn(st)
    _check_reshuffle(st)


def _check_fields(st: CardStockMarketFields) -> None:
    """Every field has the right length and every number lies in its range."""
    n = st.n
    kind = C.NUM_KINDS - 1
    int_in("dealer", st.dealer, 0, n - 1)
    int_in("turn", st.turn, 0, n - 1)
    int_in("turns", st.turns, 1, MAX_INT)
    int_in("phase", st.phase, START, OVER)
    lists_in("piles", st.piles, 0, kind, length=C.NUM_SUITS)
    need(len(st.busted) == C.NUM_SUITS, f"'busted' must hold {C.NUM_SUITS} flags, one per suit")
    ints_in("prices", st.prices, 0, C.MAX_PRICE, C.NUM_SUITS)
    lists_in("hands", st.hands, 0, kind, length=n)
    lists_in("certs", st.certs, 0, kind, length=n)
    lists_in("held", st.held, 0, MAX_SHARES, length=n, size=C.NUM_SUITS)
    ints_in("cash", st.cash, 0, MAX_INT, n)
    ints_in("debt", st.debt, 0, MAX_INT, n)
    int_in("levies", st.levies, 0, MAX_INT)
    ints_in("draw", st.draw, 0, JOKER)
    ints_in("discard", st.discard, 0, kind)
    int_in("joker_by", st.joker_by, -1, n - 1)
    need(st.jokers_out in (0, C.COPIES), f"'jokers_out' must be 0 or {C.COPIES}")
    int_in("trades", st.trades, 0, C.MAX_TRADES)
    int_in("sales", st.sales, 0, st.trades)
    int_in("changes", st.changes, 0, C.MAX_CHANGES)
    int_in("discards", st.discards, 0, C.MAX_DISCARDS)
    every_suit = (1 << C.NUM_SUITS) - 1
    int_in("bought", st.bought, 0, every_suit)
    int_in("sold", st.sold, 0, every_suit)
    ints_in("re_pile", st.re_pile, 0, JOKER)
    for name, lists in (("re_hands", st.re_hands), ("re_drawn", st.re_drawn)):
        lists_in(name, lists, 0, kind)
    # A record entry is a card kind played face up, or minus the number of cards drawn.
    lists_in("re_events", st.re_events, -HAND_SIZE, kind)


def _check_cards(st: CardStockMarketFields) -> None:
    """Two of each of the 52 kinds and two jokers, each somewhere; piles set the prices."""
    counts = [0] * (C.NUM_KINDS + 1)
    places: list[int] = [*st.draw, *st.discard]
    for s in SUIT_RANGE:
        pile = st.piles[s]
        suit = C.SUITS[s]
        need(bool(pile), f"'piles'[{s}]: {suit} has a market pile")
        need(all(SUIT_OF[c] == s for c in pile), f"'piles'[{s}] holds only {suit}")
        top = pile[-1]
        if RANK_OF[top] <= 10:
            need(not st.busted[s], f"'busted'[{s}]: only a face card bankrupts {suit}")
        expected = 0 if st.busted[s] else RANK_OF[top]
        need(st.prices[s] == expected, f"'prices'[{s}]: {suit}'s price follows its top card")
        places += pile
    for q in range(st.n):
        hand = st.hands[q]
        need(hand == sorted(hand), f"'hands'[{q}] must be sorted")
        need(len(hand) <= HAND_SIZE, f"'hands'[{q}] holds at most {HAND_SIZE} cards")
        need(st.certs[q] == sorted(st.certs[q]), f"'certs'[{q}] must be sorted")
        places += hand
        places += st.certs[q]
        shares = [0] * C.NUM_SUITS
        for c in st.certs[q]:
            shares[SUIT_OF[c]] += SHARES[c]
        need(shares == st.held[q], f"'held'[{q}] must count seat {q}'s shares ('certs')")
    for c in places:
        counts[c] += 1
    counts[JOKER] += st.jokers_out + (1 if st.joker_by >= 0 else 0)
    need(
        all(k == C.COPIES for k in counts),
        "'draw', 'discard', 'piles', 'hands', 'certs', 'jokers_out' and 'joker_by' must hold "
        "all 104 cards and 2 jokers, once each",
    )


def _check_money(st: CardStockMarketFields) -> None:
    """Chips are only moved, never made; debts come from levies and wait for cash."""
    n = st.n
    game = st.game
    opts = game.options
    total = (opts.bank_money or 0) + n * opts.starting_money
    need(sum(st.cash) + st.bank == total, "'cash' and 'bank' must hold every dollar of the game")
    if game.bank_limited:
        need(st.bank >= 0, "'bank' cannot pay out money it does not have")
    else:
        need(st.levies == 0, "'levies' happen only when the bank is limited")
    for q in range(n):
        need(
            st.debt[q] <= st.levies * opts.levy,
            f"'debt'[{q}]: a debt comes from levies ('levies')",
        )
        if st.debt[q] and st.cash[q]:
            need(
                not game.immediate_repay and st.phase != OVER and q == st.turn,
                f"'debt'[{q}]: seat {q} must repay its debt from its cash",
            )


def _check_turn(st: CardStockMarketFields) -> None:
    """The pending decision and the turn's counters agree; hands hold what they should."""
    need(
        bin(st.bought).count("1") <= st.trades - st.sales and bin(st.sold).count("1") <= st.sales,
        "'bought' and 'sold' name the suits traded this turn",
    )
    if st.phase == OVER:
        need(st.cur is None, "'cur' is null once the game is over")
        need(st.joker_by >= 0, "'joker_by': a joker ended the game")
        need(not any(st.certs), "'certs': all stock is sold at the end")
        return
    need(st.cur == st.turn, "'cur' must be the turn player ('turn')")
    need(st.joker_by == -1, "'joker_by' is -1 while the game goes on")
    need(st.discards < C.MAX_DISCARDS, "'discards': the fourth discard ends the turn")
    if st.phase == START:
        need(st.trades == st.changes == st.discards == 0, "'phase': nothing done yet this turn")
    elif st.phase == DISCARD:
        need(
            st.trades == st.changes == 0 < st.discards,
            "'discards': discarding replaces trading and changing the market",
        )
    elif st.phase == TRADE:
        need(st.trades > 0 and st.discards == 0, "'trades': the turn is trading")
        need(
            not (st.changes and st.game.trade_first),
            "'trades': with phase_order 'trade_first' no transaction follows a market change",
        )
        need(not (st.trades == 2 and st.changes), "'trades': a finished turn has ended")
    else:
        need(st.changes > 0 and st.discards == 0, "'changes': the turn changes the market")
        need(
            not (st.changes == 2 and (st.trades or st.game.trade_first)),
            "'changes': a finished turn has ended",
        )
    used = st.trades - st.sales + st.changes + st.discards
    for q in range(st.n):
        want = HAND_SIZE - used if q == st.turn else HAND_SIZE
        need(len(st.hands[q]) == want, f"'hands'[{q}] must hold {want} cards")
    need(bool(st.draw), "'draw' is never empty between turns")


def _check_reshuffle(st: CardStockMarketFields) -> None:
    """The record kept since the reshuffle explains every hand."""
    n = st.n
    if not st.reshuffled:
        need(st.jokers_out == C.COPIES, "'jokers_out': the jokers wait until the reshuffle")
        need(
            not (st.re_pile or st.re_hands or st.re_drawn or st.re_events),
            "'re_pile', 're_hands', 're_drawn' and 're_events' are empty before the reshuffle",
        )
        return
    need(st.jokers_out == 0, "'jokers_out': both jokers went into the new draw pile")
    for name, lists in (
        ("re_hands", st.re_hands),
        ("re_drawn", st.re_drawn),
        ("re_events", st.re_events),
    ):
        per_seat(name, lists, n)
    # Cards are compared as multisets, sorted (cheaper than counting them).
    drawn = [*st.draw, JOKER] if st.joker_by >= 0 else st.draw[:]
    for q in range(n):
        drawn += st.re_drawn[q]
        played = [e for e in st.re_events[q] if e >= 0]
        draws = -sum(e for e in st.re_events[q] if e < 0)
        need(draws == len(st.re_drawn[q]), f"'re_events'[{q}] counts seat {q}'s draws")
        # What the seat held at the reshuffle and drew since is what it holds and played.
        need(
            sorted(st.re_hands[q] + st.re_drawn[q]) == sorted(st.hands[q] + played),
            f"'hands'[{q}] must follow from 're_hands', 're_drawn' and 're_events'",
        )
    need(
        sorted(drawn) == sorted(st.re_pile), "'re_pile': the new draw pile came from the reshuffle"
    )
