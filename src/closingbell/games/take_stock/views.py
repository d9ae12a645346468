"""What one seat may see of a Take Stock game, and full states sampled from it.

:func:`build_view` is the only way information leaves a state for a front end, a bot or
a learning agent. :func:`sample_state` goes the other way: it deals the cards a seat
cannot see at random, keeping to everything the seat knows, so that search bots can play
out possible worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from closingbell.core.errors import StateFormatError
from closingbell.core.rng import fresh_seed
from closingbell.core.view import View, build
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import queries, scoring
from closingbell.games.take_stock.state import (
    CHOOSE,
    FOLLOW_MARKET_A,
    FOLLOW_MARKET_B,
    FOLLOW_NONE,
    FOLLOW_PLAY,
    FOLLOW_SAVE,
    OVER,
    PHASE_NAMES,
    AnyState,
    TakeStockFields,
)

if TYPE_CHECKING:
    from closingbell.games.take_stock.ruleset import TakeStockRuleset

FOLLOW_NAMES = {
    FOLLOW_NONE: None,
    FOLLOW_SAVE: "save",
    FOLLOW_MARKET_A: "market A",
    FOLLOW_MARKET_B: "market B",
    FOLLOW_PLAY: "play",
}
"""What the pending discard is for, by name."""
_FOLLOW_CODES = {name: code for code, name in FOLLOW_NAMES.items()}


@dataclass(frozen=True)
class StockRow:
    """One stock of the market, as everyone sees it."""

    name: str
    """The stock's name."""
    cards: tuple[int, ...]
    """The values laid in its row, from the 1 up to the top card."""
    splits: int
    """Split cards above the row (the multiplier is this plus one)."""
    frozen: bool
    """Whether a freeze card lies at the end of the row."""
    price: int
    """Top value times the multiplier."""


@dataclass(frozen=True)
class TakeStockView(View):
    """Everything one seat of a Take Stock game may see or remember, and nothing more.

    Share cards are ids (``stock * 12 + value - 1``), event cards are kinds (see
    :mod:`closingbell.games.take_stock.cards`). Per-seat tuples are indexed by seat.
    """

    players: int
    """Seats at the table."""
    round: int
    """The round being played (1-based)."""
    rounds: int
    """Rounds in the game."""
    dealer: int
    """This round's dealer."""
    turn_player: int
    """Whose turn it is (or was, when the round ended)."""
    current_player: int | None
    """The seat that must decide now; ``None`` once the game is over."""
    decision: str
    """The pending decision's name (see ``PHASE_NAMES``)."""
    stocks: tuple[StockRow, ...]
    """The five market rows."""
    limit: int
    """The Limit rule's bound now: the most cards any row counts, its splits included (and
    its freeze under ``limit_counts_freeze``); a seat may save a certificate on its turn only
    while it has fewer. Public: it follows from the market alone."""
    scoring_prices: tuple[int, ...]
    """What one share of each stock would score if the round ended now: its price, or
    nothing for a frozen stock under ``frozen_scoring="zero"``. Public, like the market."""
    worth: tuple[int, ...]
    """What each seat's certificates would score if the round ended now (their shares
    times ``scoring_prices``). Public: it counts the certificates on the table only, never
    a card in a hand or set aside to exercise, not even this seat's own."""
    hand: tuple[int, ...]
    """This seat's hand, sorted (empty for a spectator)."""
    saved_events: tuple[int, ...]
    """This seat's saved event cards, sorted."""
    hand_sizes: tuple[int, ...]
    """Cards each seat holds, counting cards set aside in a choice not yet revealed."""
    saved_counts: tuple[int, ...]
    """Saved event cards each seat holds face down."""
    certificates: tuple[tuple[int, ...], ...]
    """Each seat's certificates on the table, in the order saved."""
    tokens: tuple[int, ...]
    """Each seat's unused option tokens."""
    option_supply: int
    """Option tokens left in the box."""
    scores: tuple[int, ...]
    """Each seat's total over the rounds scored so far."""
    round_scores: tuple[tuple[int, ...], ...]
    """Points per seat in each scored round."""
    round_end_reasons: tuple[str, ...]
    """Why each scored round ended."""
    round_end_reason: str | None
    """Why the current round ended, while options are being exercised."""
    draw_pile: int
    """Share cards in the draw pile."""
    discard_pile: tuple[int, ...]
    """The share cards in the discard pile (all went there face up), sorted."""
    event_pile: int
    """Event cards above Market Closed: the ones that can still be drawn this round."""
    event_below: int
    """Event cards under Market Closed."""
    event_below_known: tuple[int, ...]
    """The cards under Market Closed that this seat knows, sorted."""
    event_below_public: tuple[int, ...]
    """The cards under Market Closed that everyone knows (part of ``event_below_known``)."""
    event_discard: int
    """Event cards in the (face-down) event discard pile."""
    event_discard_known: tuple[int, ...]
    """The cards of the event discard pile that this seat knows, sorted."""
    event_discard_public: tuple[int, ...]
    """The cards of the event discard pile that everyone knows (part of the known ones)."""
    pools: tuple[tuple[int, ...], ...]
    """Hidden share cards by pool: pool 0 was dealt, each later pool was a reshuffle."""
    hand_pools: tuple[tuple[int, ...], ...]
    """For each seat, how many cards of each pool it holds."""
    known_in_hands: tuple[tuple[int, ...], ...]
    """Cards everyone knows a seat holds (shown when retrieved by Insider Trading)."""
    pending_discard_for: str | None
    """What the pending discard pays for: ``save``, ``market A``, ``market B`` or ``play``."""
    pending_event: int | None
    """The event being played, when it waits for a discard or a stock to freeze."""
    drawn_events: tuple[int, ...]
    """The two events this seat drew with option A and must choose between."""
    event_stock: int | None
    """The stock an audit or an Insider Trading card concerns, while it is resolved."""
    retrieved: tuple[int, ...]
    """Cards retrieved so far by the Insider Trading being resolved."""
    owed_discards: int
    """Discards still owed for retrieved cards."""
    waiting: tuple[int, ...]
    """Seats yet to choose in a decision that all take before anything is revealed."""
    own_hidden: tuple[int, ...]
    """Cards this seat has set aside in such a decision (a discard or exercised options)."""
    hidden_counts: tuple[int, ...]
    """How many cards each seat has set aside face down in such a decision: everyone sees
    how many (as at a real table), only their owner which ones."""
    legal_actions: tuple[int, ...]
    """The legal actions, when this seat must decide; empty otherwise."""


def build_view(st: TakeStockFields, seat: int | None) -> TakeStockView:
    """Return what ``seat`` (``None``: a spectator) may see of ``st``."""
    n = st.n
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise ValueError(f"a view is for a seat from 0 to {n - 1}, or None for a spectator")
    bit = 1 << (n if seat is None else seat)
    public = (1 << (n + 1)) - 1
    now = scoring.prices(st)
    stocks = tuple(
        [
            build(
                StockRow,
                name=C.STOCKS[s],
                cards=tuple(st.rows[s]),
                splits=st.splits[s],
                frozen=st.frozen[s],
                price=now[s],
            )
            for s in range(C.NUM_STOCKS)
        ]
    )
    npools = len(st.hand_pool[0])
    if npools == 1:  # before the first reshuffle, as most views are: one pass, no appends
        pools = [[card for card, k in enumerate(st.pool_of) if k == 0]]
    else:
        pools = [[] for _ in range(npools)]
        for card, k in enumerate(st.pool_of):
            if k >= 0:
                pools[k].append(card)
    mine = seat is not None
    legal = tuple(st.legal_actions()) if mine and st.cur == seat else ()
    prices = queries.scoring_prices(now, st.frozen, st.game.options)
    below_known, below_public = _known(st.ev_below, st.ev_below_mask, bit, public)
    discard_known, discard_public = _known(st.ev_discard, st.ev_discard_mask, bit, public)
    return build(
        TakeStockView,
        game="take_stock",
        seat=seat,
        players=n,
        round=st.round,
        rounds=st.game.options.rounds,
        dealer=st.dealer,
        turn_player=st.turn,
        current_player=st.cur,
        decision=PHASE_NAMES[st.phase],
        stocks=stocks,
        limit=queries.limit(st.rows, st.splits, st.frozen, st.game.options),
        scoring_prices=tuple(prices),
        worth=tuple([queries.worth(certs, prices, st.shares) for certs in st.certs]),
        hand=tuple(st.hands[seat]) if seat is not None else (),
        saved_events=tuple(sorted(st.saved[seat])) if seat is not None else (),
        hand_sizes=tuple([len(h) + len(d) for h, d in zip(st.hands, st.hidden, strict=True)]),
        saved_counts=tuple(map(len, st.saved)),
        certificates=tuple(map(tuple, st.certs)),
        tokens=tuple(st.tokens),
        option_supply=st.supply,
        scores=tuple(st.totals),
        round_scores=tuple(map(tuple, st.round_scores)),
        round_end_reasons=tuple(st.round_reasons),
        round_end_reason=st.end_reason if st.phase != OVER else None,
        draw_pile=len(st.draw),
        discard_pile=tuple(sorted(st.discard)),
        event_pile=len(st.ev_above),
        event_below=len(st.ev_below),
        event_below_known=below_known,
        event_below_public=below_public,
        event_discard=len(st.ev_discard),
        event_discard_known=discard_known,
        event_discard_public=discard_public,
        pools=tuple(map(tuple, pools)),
        hand_pools=tuple(map(tuple, st.hand_pool)),
        known_in_hands=tuple([tuple(sorted(k)) for k in st.known]),
        pending_discard_for=FOLLOW_NAMES[st.follow],
        pending_event=st.ev_active if st.ev_active >= 0 else None,
        drawn_events=tuple(st.pair) if mine and st.cur == seat and st.phase == CHOOSE else (),
        event_stock=st.ev_stock if st.ev_stock >= 0 else None,
        retrieved=tuple(st.retrieved),
        owed_discards=st.owed,
        waiting=tuple(st.queue),
        own_hidden=tuple(st.hidden[seat]) if seat is not None else (),
        hidden_counts=tuple(map(len, st.hidden)),
        legal_actions=legal,
    )


def _known(
    kinds: list[int], masks: list[int], bit: int, public: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kinds whose mask holds ``bit``, and those whose mask holds all of ``public``, sorted.

    A card everyone knows is known to each seat, so the second is part of the first.
    """
    if not kinds:
        return (), ()
    seen = sorted([(k, m) for k, m in zip(kinds, masks, strict=True) if m & bit])
    return tuple([k for k, _ in seen]), tuple([k for k, m in seen if m & public == public])


def _fail(message: str) -> StateFormatError:
    return StateFormatError(f"view cannot be sampled: {message}")


def sample_state(
    cls: type[AnyState], game: TakeStockRuleset, view: TakeStockView, rng: random.Random
) -> AnyState:
    """Deal a full state, a ``cls``, that gives ``view`` to its seat, hidden cards drawn by ``rng``.

    The sampled state has a fresh seed (so later shuffles are unknown too), an empty
    history and an empty log: it is a possible present, not a replayable game.
    """
    n = game.options.players
    if view.players != n or view.game != "take_stock":
        raise _fail("the view is of another game or player count")
    seat = view.seat
    public_bit = 1 << n
    bit = public_bit if seat is None else 1 << seat
    st = cls.__new__(cls)
    st.game = game
    st.n = n
    st.shares = game.shares
    st.seed = fresh_seed(rng)
    st.round = view.round
    st.dealer = view.dealer
    st.turn = view.turn_player
    st.cur = view.current_player
    st.phase = PHASE_NAMES.index(view.decision)
    st.rows = [list(r.cards) for r in view.stocks]
    st.splits = [r.splits for r in view.stocks]
    st.frozen = [r.frozen for r in view.stocks]
    st.certs = [list(c) for c in view.certificates]
    st.tokens = list(view.tokens)
    st.supply = view.option_supply
    st.discard = list(view.discard_pile)
    st.totals = list(view.scores)
    st.round_scores = [list(r) for r in view.round_scores]
    st.round_reasons = list(view.round_end_reasons)
    st.end_reason = view.round_end_reason
    if st.phase == OVER and view.round_end_reasons:
        st.end_reason = view.round_end_reasons[-1]
    st.follow = _FOLLOW_CODES[view.pending_discard_for]
    st.ev_active = -1 if view.pending_event is None else view.pending_event
    st.ev_stock = -1 if view.event_stock is None else view.event_stock
    st.retrieved = list(view.retrieved)
    st.owed = view.owed_discards
    st.queue = list(view.waiting)
    st.reshuffles = 0
    st.history = []
    st.log = []
    st._legal = None
    _sample_shares(st, view, seat, rng)
    _sample_events(st, view, seat, bit, rng)
    try:
        st.check_invariants()
    except AssertionError as exc:
        raise _fail(str(exc)) from None
    return st


def _sample_shares(
    st: TakeStockFields, view: TakeStockView, seat: int | None, rng: random.Random
) -> None:
    n = st.n
    npools = len(view.pools)
    own = set(view.hand) | set(view.own_hidden)
    st.pool_of = [-1] * C.NUM_SHARE_CARDS
    for k, members in enumerate(view.pools):
        for card in members:
            st.pool_of[card] = k
    st.hand_pool = [list(h) for h in view.hand_pools]
    st.known = [list(k) for k in view.known_in_hands]
    holding: list[list[int]] = [list(view.known_in_hands[q]) for q in range(n)]
    st.draw = []
    for k, members in enumerate(view.pools):
        cands = [c for c in members if c not in own]
        rng.shuffle(cands)
        at = 0
        for q in range(n):
            if q == seat:
                continue
            take = view.hand_pools[q][k]
            holding[q] += cands[at : at + take]
            at += take
        if k == npools - 1:
            st.draw = cands[at : at + view.draw_pile]
            at += view.draw_pile
        if at != len(cands):
            raise _fail(f"pool {k} holds {len(cands)} unseen cards for {at} places")
    st.hands = [[] for _ in range(n)]
    st.hidden = [[] for _ in range(n)]
    for q in range(n):
        if q == seat:
            if len(view.own_hidden) != view.hidden_counts[q]:
                raise _fail(
                    f"seat {q} set aside {view.hidden_counts[q]} cards, not {len(view.own_hidden)}"
                )
            st.hands[q] = list(view.hand)
            st.hidden[q] = list(view.own_hidden)
            continue
        cards = holding[q]
        if len(cards) != view.hand_sizes[q]:
            raise _fail(f"seat {q} holds {view.hand_sizes[q]} cards, {len(cards)} placed")
        count = view.hidden_counts[q]
        if count:
            rng.shuffle(cards)
            st.hidden[q] = cards[:count]
            cards = cards[count:]
        st.hands[q] = sorted(cards)


def _sample_events(
    st: TakeStockFields, view: TakeStockView, seat: int | None, bit: int, rng: random.Random
) -> None:
    n = st.n
    remaining = list(C.EVENT_DECK)

    def take(kind: int) -> None:
        remaining[kind] -= 1
        if remaining[kind] < 0:
            raise _fail(f"more {C.EVENT_NAMES[kind]} cards seen than the deck holds")

    for s, row in enumerate(view.stocks):
        for _ in range(row.splits):
            take(C.SPLIT + s)
        if row.frozen:
            take(C.FREEZE)
    if view.pending_event is not None:
        take(view.pending_event)
    for kind in (*view.event_below_known, *view.event_discard_known):
        take(kind)
    if C.MARKET_CLOSED not in view.event_discard_known:
        take(C.MARKET_CLOSED)
    own_saved = list(view.saved_events) if seat is not None else []
    for kind in (*own_saved, *view.drawn_events):
        take(kind)
    unseen = [k for k, count in enumerate(remaining) for _ in range(count)]
    rng.shuffle(unseen)
    at = 0

    def deal(count: int) -> list[int]:
        nonlocal at
        out = unseen[at : at + count]
        if len(out) != count:
            raise _fail("fewer unseen event cards than hidden places")
        at += count
        return out

    st.ev_above = deal(view.event_pile)
    everyone = (1 << (n + 1)) - 1
    below_unknown = deal(view.event_below - len(view.event_below_known))
    st.ev_below, st.ev_below_mask = _with_masks(
        view.event_below_known, view.event_below_public, below_unknown, bit, everyone
    )
    discard_unknown = deal(view.event_discard - len(view.event_discard_known))
    st.ev_discard, st.ev_discard_mask = _with_masks(
        view.event_discard_known, view.event_discard_public, discard_unknown, bit, everyone
    )
    st.saved = []
    for q in range(n):
        st.saved.append(own_saved if q == seat else deal(view.saved_counts[q]))
    st.pair = []
    if st.phase == CHOOSE:
        st.pair = list(view.drawn_events) if st.cur == seat else deal(2)
    if at != len(unseen):
        raise _fail(f"{len(unseen) - at} unseen event cards have no place")


def _with_masks(
    known: tuple[int, ...], public: tuple[int, ...], unknown: list[int], bit: int, everyone: int
) -> tuple[list[int], list[int]]:
    """Face-down cards with who knows them: public ones to all, the rest to the seat only."""
    rest = list(known)
    for kind in public:
        if kind not in rest:
            raise _fail("a publicly known event card is missing from the known ones")
        rest.remove(kind)
    kinds = [*public, *rest, *unknown]
    masks = [everyone] * len(public) + [bit] * len(rest) + [0] * len(unknown)
    return kinds, masks
