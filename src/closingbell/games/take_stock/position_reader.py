"""Reading a Take Stock position back into a state the engine can play on.

:func:`read_position` reads the fields of a full or a short position
(:mod:`~closingbell.games.take_stock.position` reads each field's words), deals the cards
a short position leaves unnamed in a seeded order, checks that the position could happen,
and derives what the table knows publicly, as ``docs/positions.md`` describes.
"""

from __future__ import annotations

import re
from itertools import pairwise

from closingbell.core.errors import PositionError
from closingbell.core.position import (
    integer,
    items,
    per_seat,
    read_fields,
    read_seed,
)
from closingbell.core.rng import derive_rng
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.events import _retrievable
from closingbell.games.take_stock.position import (
    FIELDS,
    FREEZE_WORD,
    MAX_RESHUFFLES,
    SPLIT_WORD,
    STOCK_FIELDS,
    CardList,
    Decision,
    event_token,
    named_only,
    read_decide,
    read_list,
    read_share,
    share_token,
)
from closingbell.games.take_stock.ruleset import TakeStockRuleset
from closingbell.games.take_stock.state import (
    ACTION,
    DISCARD,
    DOWNTURN,
    EXERCISE,
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

_IN_TURN = frozenset(range(ACTION, DOWNTURN))
"""The decisions that belong to the player whose turn it is."""

_INTERNAL_FIELDS: dict[str, str] = {
    "hands": "hands",
    "certs": "certs",
    "hidden": "aside",
    "known": "shown",
    "hand_pool": "shown",
    "pool_of": "shown",
    "draw": "draw",
    "discard": "discard",
    "saved": "saved",
    "tokens": "tokens",
    "supply": "supply",
    "round": "round",
    "dealer": "dealer",
    "turn": "turn",
    "reshuffles": "reshuffles",
    "end_reason": "ended",
    "round_reasons": "ended",
    "round_scores": "scores",
    "totals": "scores",
    "ev_above": "events",
    "ev_below": "events",
    "ev_below_mask": "events",
    "ev_discard": "events_discard",
    "ev_discard_mask": "events_discard",
}
"""The position field that holds each state field (those not listed belong to ``decide``)."""

_INTERNAL_WORDS: dict[str, str] = {
    "'hidden'": "'aside'",
    "'known'": "'shown'",
    "'queue'": "the waiting seats ('decide')",
    "'cur'": "the seat deciding ('decide')",
    "'retrieved'": "the cards taken ('decide')",
    "'owed'": "the discards owed ('decide')",
    "'pair'": "the events drawn ('decide')",
    "'ev_stock'": "the stock ('decide')",
    "'end_reason'": "'ended'",
    "'phase'": "'decide'",
}


# ---------------------------------------------------------------------- reading: the deck


class _Deck:
    """Places named cards (each at most once) and deals the unnamed ones in a seeded order."""

    def __init__(self, what: str, counts: dict[int, int], order: list[int]) -> None:
        self.what = what
        self.left = dict(counts)
        self.order = order
        self.where: dict[int, str] = {}

    def name(self, card: int, field_name: str, place: str) -> None:
        """Take ``card`` out of the deck for ``place``; refuse it once there are none left."""
        left = self.left.get(card, 0)
        if left <= 0:
            if self.what == "share":
                before = self.where.get(card)
                why = f"it is also {before}" if before else "it never leaves the market"
                raise PositionError(field_name, f"{share_token(card)} is named twice: {why}")
            count = C.EVENT_DECK[card]
            many = "one" if count == 1 else f"only {count}"
            plural = "" if count == 1 else "s"
            raise PositionError(
                field_name,
                f"the deck has {many} {event_token(card)} card{plural}, and more are named",
            )
        self.left[card] = left - 1
        self.where[card] = place
        self.order.remove(card)

    def take(self, card: int) -> None:
        """Take the unnamed ``card`` out of the order (to give it where it was dealt)."""
        self.order.remove(card)
        self.left[card] -= 1

    def deal(self, field_name: str) -> int:
        """The next unnamed card."""
        if not self.order:
            raise PositionError(field_name, f"no unnamed {self.what} card is left for it")
        card = self.order.pop(0)
        self.left[card] -= 1
        return card


def _fill(lst: CardList, deck: _Deck) -> list[int]:
    return [deck.deal(lst.field) if c is None else c for c in lst.cards]


def _give_rest(lists: list[CardList], deck: _Deck, what: str) -> None:
    """Put every unnamed card left at the end of the one list that takes the rest.

    That is the list ending with ``...``, else the first two lists (a pile and its discard
    pile) when left out, in that order.
    """
    explicit = [lst for lst in lists if lst.rest and lst.given]
    if len(explicit) > 1:
        names = ", ".join(lst.field for lst in explicit)
        raise PositionError(
            explicit[1].field, f"only one list may end with '...' to take the cards left ({names})"
        )
    takers = explicit or [lst for lst in lists[:2] if not lst.given]
    if takers:
        taker = takers[0]
        while deck.order:
            taker.cards.append(deck.deal(taker.field))
    elif deck.order:
        names = " ".join(
            (share_token if what == "share" else event_token)(c) for c in deck.order[:6]
        )
        more = " ..." if len(deck.order) > 6 else ""
        raise PositionError(
            lists[0].field,
            f"{len(deck.order)} {what} card{'s are' if len(deck.order) > 1 else ' is'} not "
            f"placed ({names}{more}); name them or end "
            "a list with '...'",
        )


# ---------------------------------------------------------------------- reading


class _Reader:
    """Reads one position into a state; each step raises ``PositionError`` naming its field."""

    def __init__(self, game: TakeStockRuleset, text: str) -> None:
        self.game = game
        self.opts = game.options
        self.n = game.options.players
        self.fields = read_fields(text, FIELDS)

    def has(self, name: str) -> bool:
        return name in self.fields

    def seats(self, name: str) -> list[str]:
        return per_seat(name, self.fields[name], self.n)

    def read(self, cls: type[AnyState]) -> AnyState:
        n = self.n
        f = self.fields
        st = cls.__new__(cls)
        st.game = self.game
        st.n = n
        st.shares = self.game.shares
        st.seed = read_seed("seed", f["seed"]) if self.has("seed") else 0
        st.history = []
        st.log = []
        st._legal = None
        dec = read_decide(f["decide"], n) if self.has("decide") else Decision(None, ACTION)
        self.dec = dec
        st.phase = dec.phase
        self._read_rounds(st)
        self._read_seats(st)
        self._read_market(st)
        self._read_ended(st)
        self._read_tokens(st)
        self._read_shares(st)
        self._read_decision(st)
        self._read_events(st)
        self._derive_knowledge(st)
        try:
            st.check_invariants()
        except AssertionError as exc:
            raise _position_error(str(exc)) from None
        return st

    # -------------------------------------------------------------- rounds and seats

    def _read_rounds(self, st: TakeStockFields) -> None:
        n, rounds = self.n, self.opts.rounds
        over = st.phase == OVER
        scores: list[list[int]] | None = None
        if self.has("scores"):
            parts = [items(p) for p in self.seats("scores")]
            counts = {len(p) for p in parts}
            if len(counts) != 1:
                raise PositionError("scores", "every seat lists one number per round scored")
            scores = [[integer("scores", t, 0, C.MAX_ROUND_POINTS) for t in part] for part in parts]
        if self.has("round"):
            st.round = integer("round", self.fields["round"], 1, rounds)
        elif scores is not None:
            st.round = len(scores[0]) + (0 if over else 1)
            if not 1 <= st.round <= rounds:
                raise PositionError(
                    "scores",
                    f"{len(scores[0])} rounds scored and the game plays {rounds}: "
                    "write 'decide: game_over' for a game that is over",
                )
        else:
            st.round = rounds if over else 1
        if over and st.round != rounds:
            raise PositionError("round", f"the game is over only after round {rounds}")
        scored = st.round if over else st.round - 1
        if scores is None:
            scores = [[0] * scored for _ in range(n)]
        elif len(scores[0]) != scored:
            raise PositionError(
                "scores",
                f"round {st.round} comes after {scored} scored rounds, not {len(scores[0])}"
                + (" (the game is over: every round is scored)" if over else ""),
            )
        st.round_scores = [[scores[q][r] for q in range(n)] for r in range(scored)]
        st.totals = [sum(scores[q]) for q in range(n)]

    def _read_seats(self, st: TakeStockFields) -> None:
        n = self.n
        dec = self.dec
        turn = integer("turn", self.fields["turn"], 0, n - 1) if self.has("turn") else None
        dealer = integer("dealer", self.fields["dealer"], 0, n - 1) if self.has("dealer") else None
        if turn is None:
            if dec.seat is not None:
                turn = dec.seat
            elif dec.waiting:
                turn = dec.waiting[0]
        if turn is None and dealer is None and self.opts.first_dealer is not None:
            dealer = self.opts.first_dealer
        if turn is None:
            turn = 0 if dealer is None else (dealer + 1) % n
        if dealer is None:
            dealer = (turn - 1) % n
        st.dealer = dealer
        st.turn = turn
        if dec.phase in _IN_TURN and dec.seat is not None and dec.seat != turn:
            raise PositionError(
                "decide",
                f"seat {dec.seat} cannot decide {PHASE_NAMES[dec.phase]!r} on seat {turn}'s "
                "turn: only a Downturn discard and exercising options are asked of others",
            )

    # -------------------------------------------------------------- the market

    def _read_market(self, st: TakeStockFields) -> None:
        st.rows = [[1] for _ in range(C.NUM_STOCKS)]
        st.splits = [0] * C.NUM_STOCKS
        st.frozen = [False] * C.NUM_STOCKS
        for s, name in enumerate(STOCK_FIELDS):
            if not self.has(name):
                continue
            values: list[int] = []
            for word in items(self.fields[name]):
                low = word.lower()
                if low == SPLIT_WORD:
                    st.splits[s] += 1
                elif low == FREEZE_WORD:
                    if st.frozen[s]:
                        raise PositionError(name, "a stock holds one freeze card at most")
                    st.frozen[s] = True
                else:
                    values.append(integer(name, word, 1, C.VALUES))
            if st.splits[s] > C.MAX_SPLITS:
                raise PositionError(
                    name, f"{st.splits[s]} splits: a stock carries {C.MAX_SPLITS} at most"
                )
            if not values or values[0] != 1:
                values.insert(0, 1)
            if any(a >= b for a, b in pairwise(values)):
                raise PositionError(name, "a row's values rise from its 1 (bottom first)")
            if any(v in C.CLOSING_VALUES for v in values[:-1]):
                raise PositionError(name, "an 11 or a 12 ends the round: it can only be on top")
            st.rows[s] = values
        high = [C.STOCKS[s] for s in range(C.NUM_STOCKS) if st.rows[s][-1] in C.CLOSING_VALUES]
        if len(high) > 1:
            raise PositionError(
                STOCK_FIELDS[C.STOCKS.index(high[1])],
                "the first 11 or 12 placed ended the round: only one row can have one",
            )
        if high and st.phase not in (EXERCISE, OVER):
            raise PositionError(
                STOCK_FIELDS[C.STOCKS.index(high[0])],
                f"{high[0]} stands at {st.rows[C.STOCKS.index(high[0])][-1]}, so the round has "
                f"ended: {PHASE_NAMES[st.phase]!r} cannot be pending",
            )

    def _read_tokens(self, st: TakeStockFields) -> None:
        n = self.n
        if self.has("tokens"):
            st.tokens = [integer("tokens", t, 0, C.TOTAL_TOKENS) for t in self.seats("tokens")]
        else:
            st.tokens = [C.START_TOKENS] * n
        held = sum(st.tokens)
        if held > C.TOTAL_TOKENS:
            raise PositionError("tokens", f"{held} tokens held: the box has {C.TOTAL_TOKENS}")
        if self.has("supply"):
            st.supply = integer("supply", self.fields["supply"], 0, C.TOTAL_TOKENS)
            if st.supply + held != C.TOTAL_TOKENS:
                raise PositionError(
                    "supply",
                    f"{st.supply} in the supply and {held} held make {st.supply + held}, "
                    f"not the {C.TOTAL_TOKENS} tokens of the box",
                )
        else:
            st.supply = C.TOTAL_TOKENS - held

    # -------------------------------------------------------------- share cards

    def _list(self, name: str, *, events: bool = False) -> CardList:
        if self.has(name):
            return read_list(name, self.fields[name], events=events)
        return CardList(name, [], rest=True, given=False)

    def _per_seat_lists(self, name: str, *, events: bool = False) -> list[CardList]:
        if not self.has(name):
            return [CardList(name, [], rest=False, given=False) for _ in range(self.n)]
        return [read_list(name, part, events=events) for part in self.seats(name)]

    def _read_shares(self, st: TakeStockFields) -> None:
        """Every share card's place: named ones where named, the others dealt."""
        n = self.n
        size = C.HAND_SIZES[n]
        # The unnamed cards come in the order of a seeded deal of this round: a hand keeps
        # what that deal gave its seat, topped up from the top of that deal's draw pile.
        dealt = list(C.SHARE_CARDS)
        derive_rng(st.seed, "shares", st.round).shuffle(dealt)
        slices = [dealt[q * size : (q + 1) * size] for q in range(n)]
        pile = dealt[n * size :][::-1]  # top first
        deck = _Deck("share", dict.fromkeys(C.SHARE_CARDS, 1), pile + dealt[: n * size])

        hands = self._per_seat_lists("hands")
        if not self.has("hands"):
            for lst in hands:
                lst.rest = st.phase != OVER
        certs = self._per_seat_lists("certs")
        draw = self._list("draw")
        discard = self._list("discard")
        st.hidden = [named_only(lst, "cards set aside") for lst in self._per_seat_lists("aside")]
        named: list[tuple[list[int | None], str, str]] = []
        for s in range(C.NUM_STOCKS):
            row: list[int | None] = [C.card_id(s, v) for v in st.rows[s][1:]]
            named.append((row, STOCK_FIELDS[s], f"in the {C.STOCKS[s]} row"))
        for q in range(n):
            named.append((hands[q].cards, "hands", f"in seat {q}'s hand"))
            named.append((list(st.hidden[q]), "aside", f"set aside by seat {q}"))
            named.append((certs[q].cards, "certs", f"a certificate of seat {q}"))
        named.append((list(self.dec.took), "decide", "taken by Insider Trading"))
        named.append((draw.cards, "draw", "in the draw pile"))
        named.append((discard.cards, "discard", "in the discard pile"))
        for cards, field_name, place in named:
            for c in cards:
                if c is not None and c % C.VALUES == 0:
                    raise PositionError(
                        field_name,
                        f"{share_token(c)} is a starter card: it never leaves the market",
                    )
                if c is not None:
                    deck.name(c, field_name, place)

        st.hands = self._deal_hands(st, hands, slices, deck)
        for lst in [*certs, draw, discard]:
            filled: list[int | None] = list(_fill(lst, deck))
            lst.cards = filled
        _give_rest([draw, discard, *certs], deck, "share")
        st.certs = [[c for c in lst.cards if c is not None] for lst in certs]
        st.draw = [c for c in draw.cards if c is not None][::-1]
        st.discard = [c for c in discard.cards if c is not None][::-1]
        st.retrieved = []
        self._check_hands(st)
        st.known = self._read_shown(st)
        st.reshuffles = (
            integer("reshuffles", self.fields["reshuffles"], 0, MAX_RESHUFFLES)
            if self.has("reshuffles")
            else 0
        )

    def _deal_hands(
        self, st: TakeStockFields, hands: list[CardList], slices: list[list[int]], deck: _Deck
    ) -> list[list[int]]:
        """Each hand: its named cards, and unnamed ones for its ``?`` and up to its ``...``."""
        n = self.n
        need = [0] * n
        for q, lst in enumerate(hands):
            need[q] = lst.cards.count(None)
            if lst.rest:
                usual = C.HAND_SIZES[n] - len(st.hidden[q])
                if q == st.turn and st.phase in _IN_TURN:
                    usual += 1  # the player whose turn it is has drawn
                named = len(lst.cards) - need[q]
                need[q] = max(need[q], usual - named)
        got: list[list[int]] = []
        for q in range(n):
            own = [c for c in slices[q] if c in deck.order][: need[q]]
            for c in own:
                deck.take(c)
            got.append(own)
        out = []
        for q, lst in enumerate(hands):
            while len(got[q]) < need[q]:
                got[q].append(deck.deal("hands"))
            out.append(sorted([c for c in lst.cards if c is not None] + got[q]))
        return out

    def _check_hands(self, st: TakeStockFields) -> None:
        """Hands and cards set aside as the pending decision needs them."""
        phase = st.phase
        if phase == OVER and any(st.hands):
            raise PositionError("hands", "the hands are empty once the game is over")
        if any(st.hidden) and phase not in (DOWNTURN, EXERCISE):
            raise PositionError(
                "aside",
                "cards are set aside only while the seats answer a Downturn or exercise "
                "options in secret",
            )
        if phase in _IN_TURN:
            for q in range(self.n):
                if not st.hands[q]:
                    raise PositionError(
                        "hands",
                        f"seat {q}'s hand is empty in the middle of a round (an empty hand "
                        "ends it)",
                    )
        if phase == ACTION and len(st.hands[st.turn]) < 2:
            raise PositionError(
                "hands",
                f"seat {st.turn} holds one card: the player choosing a turn action has just "
                "drawn, so holds two or more",
            )
        if phase == DOWNTURN:
            for q in range(self.n):
                if len(st.hidden[q]) > 1:
                    raise PositionError(
                        "aside",
                        f"seat {q} sets aside {len(st.hidden[q])} cards: a Downturn takes one "
                        "from each seat",
                    )

    def _read_shown(self, st: TakeStockFields) -> list[list[int]]:
        """The cards of each hand that everyone has seen, in the order given."""
        if not self.has("shown"):
            return [[] for _ in range(self.n)]
        known = []
        for q, part in enumerate(self.seats("shown")):
            seen = [read_share("shown", t) for t in items(part)]
            for c in seen:
                if c not in st.hands[q] and c not in st.hidden[q]:
                    raise PositionError("shown", f"{share_token(c)} is not in seat {q}'s hand")
            if len(set(seen)) != len(seen):
                raise PositionError("shown", f"seat {q}'s part names a card twice")
            known.append(seen)
        return known

    # -------------------------------------------------------------- the decision

    def _read_decision(self, st: TakeStockFields) -> None:
        dec = self.dec
        phase = st.phase
        st.follow = dec.follow
        st.ev_active = dec.played if dec.follow == FOLLOW_PLAY else -1
        if phase == FREEZE:
            st.ev_active = C.FREEZE
        st.pair = list(dec.pair)
        st.ev_stock = dec.stock
        st.retrieved = []
        st.owed = 0
        st.queue = []
        if phase in (RETRIEVE, INSIDER_DISCARD):
            for c in dec.took:
                if c // C.VALUES != dec.stock:
                    raise PositionError(
                        "decide",
                        f"{share_token(c)} is not {C.STOCKS[dec.stock]}: Insider Trading takes "
                        "cards of its own stock",
                    )
            take_first = self.opts.insider_order == "take_first"
            if phase == INSIDER_DISCARD and take_first and dec.took:
                raise PositionError(
                    "decide",
                    "with insider_order 'take_first' the cards taken are already in the hand "
                    "(name them in 'hands' and 'shown')",
                )
            st.retrieved = list(dec.took)
            if phase == INSIDER_DISCARD:
                if dec.owed is None:
                    if not dec.took:
                        raise PositionError("decide", "say how many discards are owed: 'owe 2'")
                    dec.owed = len(dec.took)
                st.owed = dec.owed
        elif dec.took:
            raise PositionError("decide", "cards are taken only by Insider Trading")
        if phase == OVER:
            st.cur = None
        elif phase in (DOWNTURN, EXERCISE):
            st.queue = self._waiting(st)
            if dec.seat is not None and dec.seat != st.queue[0]:
                raise PositionError(
                    "decide",
                    f"seat {dec.seat} decides, but the first seat waiting is {st.queue[0]}",
                )
            st.cur = st.queue[0]
            if phase == EXERCISE:
                for q in st.queue:
                    if not st.hands[q] or st.tokens[q] <= len(st.hidden[q]):
                        raise PositionError(
                            "decide",
                            f"seat {q} waits to exercise options but has no card left to "
                            "exercise or no token left to spend",
                        )
        else:
            st.cur = st.turn
        if phase == DISCARD and dec.follow == FOLLOW_SAVE and not st.certs[st.turn]:
            raise PositionError(
                "decide",
                f"a discard for save follows a certificate just saved, and seat {st.turn} "
                "has none ('certs')",
            )
        if phase == RETRIEVE and not _retrievable(st):
            raise PositionError(
                "decide",
                f"Insider Trading in {C.STOCKS[dec.stock]} has nothing more to take (no card of "
                "the stock in the discard pile, or its limit reached): 'retrieve' is not pending",
            )

    def _waiting(self, st: TakeStockFields) -> list[int]:
        n = self.n
        dec = self.dec
        order = [(st.turn + i) % n for i in range(n)]
        if dec.waiting is not None:
            return list(dec.waiting)
        if st.phase == DOWNTURN:
            queue = [q for q in order if not st.hidden[q]]
        else:
            first = dec.seat
            able = [q for q in order if st.hands[q] and st.tokens[q] > len(st.hidden[q])]
            if first is None:
                first = able[0] if able else st.turn
            start = order.index(first)
            queue = [first] + [q for q in order[start + 1 :] if q in able and not st.hidden[q]]
        if not queue:
            raise PositionError("decide", "no seat is left to choose")
        return queue

    # -------------------------------------------------------------- event cards

    def _read_events(self, st: TakeStockFields) -> None:
        n = self.n
        deck_order = [k for k in C.EVENT_CARDS if k != C.MARKET_CLOSED]
        derive_rng(st.seed, "events", st.round).shuffle(deck_order)
        counts = {k: C.EVENT_DECK[k] for k in range(C.NUM_EVENT_KINDS)}
        deck = _Deck("event", counts, [*deck_order[::-1], C.MARKET_CLOSED])
        for s in range(C.NUM_STOCKS):
            for _ in range(st.splits[s]):
                deck.name(C.SPLIT + s, STOCK_FIELDS[s], "a split in the market")
            if st.frozen[s]:
                deck.name(C.FREEZE, STOCK_FIELDS[s], "a freeze in the market")
        saved = self._per_seat_lists("saved", events=True)
        for lst in saved:
            if lst.rest:
                raise PositionError("saved", "saved events are named, or '?' for each")
        events = self._list("events", events=True)
        discard = self._list("events_discard", events=True)
        named: list[tuple[list[int | None], str, str]] = [
            (list(lst.cards), "saved", "saved") for lst in saved
        ]
        if st.ev_active >= 0:
            named.append(([st.ev_active], "decide", "in play"))
        named.append((list(st.pair), "decide", "drawn"))
        named.append((list(events.cards), "events", "in the event pile"))
        named.append((list(discard.cards), "events_discard", "in the events discard pile"))
        for cards, field_name, place in named:
            for k in cards:
                if k is None:
                    continue
                if k == C.MARKET_CLOSED and field_name not in ("events", "events_discard"):
                    raise PositionError(
                        field_name,
                        "Market Closed ends the round when drawn: it is never saved or kept",
                    )
                deck.name(k, field_name, place)
        closed_named = C.MARKET_CLOSED not in deck.order
        if not closed_named:
            deck.order.remove(C.MARKET_CLOSED)
            deck.left[C.MARKET_CLOSED] = 0
        st.saved = [[deck.deal("saved") if k is None else k for k in lst.cards] for lst in saved]
        events.cards = list(_fill(events, deck))
        discard.cards = list(_fill(discard, deck))
        _give_rest([events, discard], deck, "event")
        pile = [k for k in events.cards if k is not None]
        dropped = [k for k in discard.cards if k is not None]
        ended_by_closed = st.end_reason == "market_closed"
        if not closed_named:
            if ended_by_closed:
                dropped.insert(0, C.MARKET_CLOSED)
            else:
                if len(pile) < C.CARDS_BELOW_CLOSED:
                    raise PositionError(
                        "events",
                        f"Market Closed lies on {C.CARDS_BELOW_CLOSED} cards or more, and the "
                        f"pile holds {len(pile)}",
                    )
                pile.insert(len(pile) - C.CARDS_BELOW_CLOSED, C.MARKET_CLOSED)
        if C.MARKET_CLOSED in pile:
            at = pile.index(C.MARKET_CLOSED)
            under = len(pile) - at - 1
            if under < C.CARDS_BELOW_CLOSED:
                raise PositionError(
                    "events",
                    f"Market Closed has {under} cards under it: it starts with "
                    f"{C.CARDS_BELOW_CLOSED} under it and only rises",
                )
            if ended_by_closed:
                raise PositionError(
                    "events",
                    "the round ended with Market Closed drawn ('ended'): it belongs on top of "
                    "'events_discard'",
                )
            above, below = pile[:at], pile[at + 1 :]
        else:
            if dropped[0] != C.MARKET_CLOSED:
                raise PositionError(
                    "events_discard",
                    "Market Closed ends the round as soon as it is drawn: it can only be the top "
                    "card",
                )
            if not ended_by_closed:
                raise PositionError(
                    "events_discard",
                    "Market Closed was drawn, so the round has ended with 'market_closed' "
                    "('ended', 'decide')",
                )
            if len(pile) < C.CARDS_BELOW_CLOSED:
                raise PositionError(
                    "events",
                    f"the {C.CARDS_BELOW_CLOSED} cards or more that lay under Market Closed "
                    f"stay in the pile, which holds {len(pile)}",
                )
            above, below = [], pile
        st.ev_above = above[::-1]
        st.ev_below = below[::-1]
        st.ev_discard = dropped[::-1]
        everyone = (1 << (n + 1)) - 1
        st.ev_below_mask = [0] * len(st.ev_below)
        st.ev_discard_mask = [everyone] * len(st.ev_discard)

    # -------------------------------------------------------------- why rounds ended

    def _read_ended(self, st: TakeStockFields) -> None:
        """Why each round ended: those scored, and the current one once it is over."""
        scored = len(st.round_scores)
        ended = st.phase in (EXERCISE, OVER)
        expected = scored + (1 if st.phase == EXERCISE else 0)
        if self.has("ended"):
            reasons = items(self.fields["ended"])
            for r in reasons:
                if r not in ROUND_END_REASONS:
                    raise PositionError(
                        "ended", f"{r!r} is not a reason ({', '.join(ROUND_END_REASONS)})"
                    )
            if len(reasons) != expected:
                current = " and the current one, which has ended" if st.phase == EXERCISE else ""
                raise PositionError(
                    "ended",
                    f"give one reason per round scored ('scores'){current}: {expected}, "
                    f"not {len(reasons)}",
                )
        else:
            reasons = ["market_closed"] * expected
            if ended:
                reasons[-1] = self._guess_end_reason(st)
        if ended:
            st.end_reason = reasons[-1]
            high = any(row[-1] in C.CLOSING_VALUES for row in st.rows)
            if high and st.end_reason != "high_card":
                raise PositionError(
                    "ended",
                    f"a row ends with an 11 or a 12, so placing it ended the round "
                    f"('high_card'), not {st.end_reason!r}",
                )
            if not high and st.end_reason == "high_card":
                raise PositionError(
                    "ended", "'high_card' leaves an 11 or a 12 on top of a row, and no row has one"
                )
        else:
            st.end_reason = None
        st.round_reasons = reasons[:scored]

    def _guess_end_reason(self, st: TakeStockFields) -> str:
        if any(row[-1] in C.CLOSING_VALUES for row in st.rows):
            return "high_card"
        if "marketclosed" in self.fields.get("events", "").lower():
            raise PositionError(
                "ended", "say why the round ended: Market Closed is still in the event pile"
            )
        return "market_closed"

    # -------------------------------------------------------------- public knowledge

    def _derive_knowledge(self, st: TakeStockFields) -> None:
        """One group of hidden cards, as after a deal; earlier groups (one per reshuffle) empty."""
        newest = st.reshuffles
        st.pool_of = [-1] * C.NUM_SHARE_CARDS
        st.hand_pool = []
        for q in range(self.n):
            count = 0
            for c in st.hands[q] + st.hidden[q]:
                if c not in st.known[q]:
                    st.pool_of[c] = newest
                    count += 1
            st.hand_pool.append([0] * newest + [count])
        for c in st.draw:
            st.pool_of[c] = newest


def _position_error(message: str) -> PositionError:
    """The engine's own check, failed, as a ``PositionError`` naming a position field."""
    found = re.search(r"'([a-z_]+)'(?:\[(\d)\])?", message)
    name = found.group(1) if found else ""
    if name in ("rows", "splits", "frozen"):
        index = found.group(2) if found else None
        field_name = STOCK_FIELDS[int(index)] if index is not None else STOCK_FIELDS[0]
    else:
        field_name = _INTERNAL_FIELDS.get(name, "decide")
    reason = message
    for internal, words in _INTERNAL_WORDS.items():
        reason = reason.replace(internal, words)
    return PositionError(field_name, reason)


def read_position(cls: type[AnyState], game: TakeStockRuleset, text: str) -> AnyState:
    """A state (a ``cls``) of ``game`` from a position; ``PositionError`` names the field at fault.

    Fields left out take their defaults (``docs/positions.md``); the state has an empty
    history and log, ``from_deal`` false, and the public knowledge of a fresh deal.
    """
    return _Reader(game, text).read(cls)
