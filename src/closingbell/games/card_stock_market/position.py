"""Card Stock Market's position notation: a whole game written as a few ``name: value`` fields.

:func:`write_position` writes every field of a state, in a fixed order, on one line;
:func:`read_position` reads such a text back, or a short one that leaves fields out, and
refuses an impossible position with a :class:`~closingbell.core.errors.PositionError`
naming the field and the reason. The fields, their defaults and the errors are described
in ``docs/positions.md`` (section "Card Stock Market").

Cards are written as in the action notation (``7S``, ``10H``, ``QS``, ``AC``, ``Joker``).
Market piles are written bottom first (each suit's price is set by its last card), the
draw and discard piles top first (the next card drawn, the latest card discarded). A list
that ends with ``...`` is open: the reader fills it with the cards no field names, dealt
from a shuffle derived from the position's seed.

The bookkeeping of public knowledge after the reshuffle (``re_pile``, ``re_hands``,
``re_drawn``, ``re_events``) is derived, never written: a position assumes the table knows
no more than it sees, as if every card now in a hand had been drawn since the reshuffle.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise
from typing import Generic

from closingbell.core.checks import MAX_INT
from closingbell.core.errors import PositionError
from closingbell.core.position import (
    EMPTY,
    integer,
    items,
    per_seat,
    read_fields,
    read_seed,
    write_fields,
    write_items,
    write_per_seat,
)
from closingbell.core.rng import derive_rng
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.ruleset import CardStockMarketRuleset
from closingbell.games.card_stock_market.state import (
    DISCARD,
    OVER,
    PHASE_NAMES,
    START,
    TRADE,
    AnyState,
    CardStockMarketFields,
)

FIELDS: tuple[str, ...] = (
    "seed",
    "turn_number",
    "dealer",
    "turn",
    "decide",
    "bought",
    "sold",
    "changed",
    "discarded",
    "market",
    "bankrupt",
    "prices",
    "hands",
    "certs",
    "cash",
    "debts",
    "bank",
    "levies",
    "draw",
    "discard",
    "jokers",
)
"""Every field of a Card Stock Market position, in the order :func:`write_position` writes them."""

OPEN = "..."
"""Ends a list that the reader fills with the cards no field names."""
UNNAMED = "?"
"""One card of a list that the reader chooses among the cards no field names."""

UNLIMITED = "unlimited"
"""The ``bank`` of a game whose bank never runs short (option ``bank_money`` null)."""

JOKERS_ASIDE = "aside"
"""``jokers``: both jokers wait outside the game; the draw pile has not run out yet."""
JOKERS_DRAW = "draw"
"""``jokers``: the draw pile has been made anew, both jokers in it."""
JOKERS_DRAWN = "drawn"
"""``jokers``: the seat of ``turn`` drew a joker, which ended the game; the other is in the
draw pile."""


# The state's fields, as check_invariants names them, and the notation's field at fault.
_STATE_FIELD_TO_FIELD = {
    "piles": "market",
    "busted": "bankrupt",
    "prices": "prices",
    "hands": "hands",
    "certs": "certs",
    "held": "certs",
    "cash": "cash",
    "debt": "debts",
    "bank": "bank",
    "levies": "levies",
    "draw": "draw",
    "discard": "discard",
    "jokers_out": "jokers",
    "joker_by": "jokers",
    "reshuffled": "jokers",
    "dealer": "dealer",
    "turn": "turn",
    "cur": "decide",
    "phase": "decide",
    "turns": "turn_number",
    "trades": "bought",
    "sales": "sold",
    "bought": "bought",
    "sold": "sold",
    "changes": "changed",
    "discards": "discarded",
}


# ---------------------------------------------------------------------- writing


def _names(cards: list[int]) -> list[str]:
    return [C.card_name(c) for c in cards]


def _suit_letters(mask: int, count: int) -> str:
    """The suits of ``count`` transactions whose suits form ``mask`` (one letter each)."""
    letters = [C.SUIT_LETTERS[s] for s in range(C.NUM_SUITS) if (mask >> s) & 1]
    if count and not letters:
        raise ValueError("the state counts transactions this turn but names no suit for them")
    # Two transactions of one kind and one suit: the suit twice.
    letters += letters[:1] * (count - len(letters))
    return write_items(letters)


def write_position(state: CardStockMarketFields) -> str:
    """The canonical one-line position of ``state``: every field, in the order of ``FIELDS``."""
    st = state
    n = st.n
    jokers = JOKERS_ASIDE
    if st.reshuffled:
        jokers = JOKERS_DRAWN if st.joker_by >= 0 else JOKERS_DRAW
    decide = PHASE_NAMES[OVER] if st.cur is None else f"{st.cur} {PHASE_NAMES[st.phase]}"
    fields = [
        ("seed", str(st.seed)),
        ("turn_number", str(st.turns)),
        ("dealer", str(st.dealer)),
        ("turn", str(st.turn)),
        ("decide", decide),
        ("bought", _suit_letters(st.bought, st.trades - st.sales)),
        ("sold", _suit_letters(st.sold, st.sales)),
        ("changed", str(st.changes)),
        ("discarded", str(st.discards)),
        ("market", write_items(_names([c for pile in st.piles for c in pile]))),
        ("bankrupt", write_items(C.SUIT_LETTERS[s] for s in range(C.NUM_SUITS) if st.busted[s])),
        ("prices", " ".join(str(p) for p in st.prices)),
        ("hands", write_per_seat(write_items(_names(h)) for h in st.hands)),
        ("certs", write_per_seat(write_items(_names(c)) for c in st.certs)),
        ("cash", write_per_seat(str(c) for c in st.cash)),
        ("debts", write_per_seat(str(d) for d in st.debt)),
        ("bank", str(st.bank) if st.game.bank_limited else UNLIMITED),
        ("levies", str(st.levies)),
        ("draw", write_items(_names(st.draw[::-1]))),
        ("discard", write_items(_names(st.discard[::-1]))),
        ("jokers", jokers),
    ]
    assert len(fields) == len(FIELDS) and n == len(st.hands)
    return write_fields(fields)


# ---------------------------------------------------------------------- reading


def read_position(cls: type[AnyState], game: CardStockMarketRuleset, text: str) -> AnyState:
    """The state (a ``cls``) ``text`` describes, for ``game``; ``PositionError`` if impossible.

    Fields may come in any order, and every field but ``decide`` (when the game is over)
    may be left out; see ``docs/positions.md`` for the defaults. The state has
    ``from_deal`` false, an empty history and an empty log, and passes ``check_invariants``.
    """
    return _Reader(cls, game, read_fields(text, FIELDS)).state()


def _card(field: str, token: str) -> int:
    kind = C.parse_card(token)
    if kind is None:
        raise PositionError(
            field, f"{token!r} is not a card (cards are written like 7S, 10H, QS, AC or Joker)"
        )
    return kind


_HOLE = -1
"""Where a list has ``?``: one card the reader chooses among the unnamed ones."""


def _card_list(
    field: str, value: str, *, can_open: bool, holes: bool = True
) -> tuple[list[int], bool]:
    """The cards of a list (``_HOLE`` for each ``?``), and whether it ends with ``...``."""
    tokens = items(value)
    opened = bool(tokens) and tokens[-1] == OPEN
    if opened:
        if not can_open:
            raise PositionError(field, f"{OPEN!r} may not end this list")
        tokens = tokens[:-1]
    out = []
    for token in tokens:
        if token in (OPEN, EMPTY):
            raise PositionError(field, f"{token!r} may only stand alone or end a list")
        if token == UNNAMED:
            if not holes:
                raise PositionError(field, f"{UNNAMED!r} may not stand for a card of this list")
            out.append(_HOLE)
        else:
            out.append(_card(field, token))
    return out, opened


def _suits(field: str, value: str) -> list[int]:
    out = []
    for token in items(value):
        s = C.SUIT_LETTERS.find(token.upper()) if len(token) == 1 else -1
        if s < 0:
            raise PositionError(field, f"{token!r} is not a suit letter (C, D, H or S)")
        out.append(s)
    return out


def _money(amount: int) -> str:
    return f"${amount:,}"


class _Reader(Generic[AnyState]):
    """Reads the fields of one position, in an order where each needs only those before it."""

    def __init__(
        self, cls: type[AnyState], game: CardStockMarketRuleset, fields: dict[str, str]
    ) -> None:
        self.game = game
        self.opts = game.options
        self.n = game.options.players
        self.fields = fields
        st = cls.__new__(cls)
        st.game = game
        st.n = self.n
        st.history = []
        st.log = []
        st._legal = None
        self.st = st
        self.jokers: str | None = None
        self.used = 0
        self.counts: Counter[int] = Counter()
        self.defaults_for_market: list[int] = []

    def get(self, name: str) -> str | None:
        return self.fields.get(name)

    def get_or(self, name: str, default: str) -> str:
        value = self.fields.get(name)
        return default if value is None else value

    def number(self, name: str, default: int, low: int, high: int) -> int:
        value = self.get(name)
        return default if value is None else integer(name, value, low, high)

    def per_seat_numbers(self, name: str, default: int) -> list[int]:
        value = self.get(name)
        if value is None:
            return [default] * self.n
        return [integer(name, part, 0, MAX_INT) for part in per_seat(name, value, self.n)]

    # ------------------------------------------------------------------ the whole reading

    def state(self) -> AnyState:
        st = self.st
        st.seed = self.seed()
        self.turn_and_decision()
        self.this_turn()
        self.market()
        self.cards()
        self.money()
        self.bookkeeping()
        try:
            st.check_invariants()
        except AssertionError as exc:
            message = str(exc)
            found = re.search(r"'([a-z_]+)'", message)
            name = found.group(1) if found else ""
            raise PositionError(_STATE_FIELD_TO_FIELD.get(name), message) from None
        return st

    def seed(self) -> int:
        value = self.get("seed")
        return 0 if value is None else read_seed("seed", value)

    # ------------------------------------------------------------------ whose turn

    def turn_and_decision(self) -> None:
        st = self.st
        n = self.n
        st.turns = self.number("turn_number", 1, 1, MAX_INT)
        dealer_text = self.get("dealer")
        dealer = None if dealer_text is None else integer("dealer", dealer_text, 0, n - 1)
        turn_text = self.get("turn")
        turn = None if turn_text is None else integer("turn", turn_text, 0, n - 1)
        if dealer is None and turn is None and self.get("decide") is None:
            dealer = self.opts.first_dealer  # the option's dealer, when it names one
        jokers = self.get("jokers")
        if jokers is not None:
            if jokers not in (JOKERS_ASIDE, JOKERS_DRAW, JOKERS_DRAWN):
                raise PositionError(
                    "jokers",
                    f"{jokers!r} is not {JOKERS_ASIDE!r} (before the reshuffle), {JOKERS_DRAW!r} "
                    f"(after it) or {JOKERS_DRAWN!r} (the game is over)",
                )
            self.jokers = jokers
        decide = self.get("decide")
        if decide is None:
            seat = 0 if dealer is None else (dealer + st.turns) % n
            if turn is not None:
                seat = turn
            phase = START
        else:
            words = decide.split()
            if words == [PHASE_NAMES[OVER]]:
                if turn is None:
                    raise PositionError(
                        "turn", "the game is over: say whose turn ended it (who drew the joker)"
                    )
                seat, phase = turn, OVER
            elif len(words) == 2 and words[1] in PHASE_NAMES[:OVER]:
                seat = integer("decide", words[0], 0, n - 1)
                phase = PHASE_NAMES.index(words[1])
            else:
                names = ", ".join(repr(p) for p in PHASE_NAMES[:OVER])
                raise PositionError(
                    "decide",
                    f"{decide!r} is neither a seat and a decision ({names}) nor 'game_over'",
                )
        if turn is not None and turn != seat:
            raise PositionError(
                "turn", f"seat {seat} must decide, so it is seat {seat}'s turn, not seat {turn}'s"
            )
        if phase == OVER:
            if self.jokers is None:
                self.jokers = JOKERS_DRAWN
            elif self.jokers != JOKERS_DRAWN:
                raise PositionError(
                    "jokers",
                    f"a joker ends the game: once it is over the jokers are {JOKERS_DRAWN!r}",
                )
        elif self.jokers == JOKERS_DRAWN:
            raise PositionError(
                "jokers", "a drawn joker ends the game at once: the decision must be 'game_over'"
            )
        if dealer is None:
            dealer = (seat - st.turns) % n
        elif (dealer + st.turns) % n != seat:
            raise PositionError(
                "dealer",
                f"with seat {dealer} dealing, turn number {st.turns} is seat "
                f"{(dealer + st.turns) % n}'s, not seat {seat}'s",
            )
        st.dealer = dealer
        st.turn = seat
        st.cur = None if phase == OVER else seat
        st.phase = phase
        st.joker_by = seat if phase == OVER else -1

    def this_turn(self) -> None:
        """What the turn player has done this turn (the last turn, once the game is over)."""
        st = self.st
        bought = _suits("bought", self.get("bought") or EMPTY)
        sold = _suits("sold", self.get("sold") or EMPTY)
        trades = len(bought) + len(sold)
        if trades > C.MAX_TRADES:
            raise PositionError(
                "sold" if sold else "bought",
                f"{trades} transactions: a turn has at most {C.MAX_TRADES}",
            )
        over = st.phase == OVER
        changes = self.number("changed", 0, 0, C.MAX_CHANGES)
        discards = self.number("discarded", 0, 0, C.MAX_DISCARDS)
        if not self.game.same_suit_trades:
            both = sorted(set(bought) & set(sold))
            if both:
                raise PositionError(
                    "sold",
                    f"{C.SUITS[both[0]]} was both bought and sold this turn, which option "
                    "same_suit_trades forbids",
                )
        if discards and (trades or changes):
            raise PositionError(
                "discarded",
                "a player who discards neither trades nor changes the market that turn",
            )
        used = len(bought) + changes + discards
        if over:
            if not used:
                raise PositionError(
                    "decide",
                    "a joker is drawn only while drawing back up to eight, so the last turn "
                    "played a card ('bought', 'changed' or 'discarded')",
                )
        elif st.phase == START:
            for name, done in (
                ("bought", bought),
                ("sold", sold),
                ("changed", changes),
                ("discarded", discards),
            ):
                if done:
                    raise PositionError(
                        name, "the decision 'turn' opens a turn: nothing is done yet"
                    )
        elif st.phase == DISCARD:
            if not discards:
                raise PositionError("discarded", "the decision 'discarding' follows a discard")
            if discards == C.MAX_DISCARDS:
                raise PositionError(
                    "discarded", f"discard number {C.MAX_DISCARDS} ends the turn at once"
                )
        elif st.phase == TRADE:
            if not trades:
                raise PositionError(
                    "bought",
                    "the decision 'trading' follows a purchase or a sale ('bought', 'sold')",
                )
            if trades == C.MAX_TRADES and changes:
                raise PositionError(
                    "changed",
                    "two transactions and a market change made before them end the turn at once",
                )
            if changes and self.game.trade_first:
                raise PositionError(
                    "changed",
                    "with phase_order 'trade_first' no transaction follows a market change",
                )
        else:
            if not changes:
                raise PositionError("changed", "the decision 'market' follows a market change")
            if changes == C.MAX_CHANGES and trades:
                raise PositionError(
                    "changed",
                    "two market changes and a transaction made before them end the turn at once",
                )
            if changes == C.MAX_CHANGES and self.game.trade_first:
                raise PositionError(
                    "changed",
                    "with phase_order 'trade_first' two market changes end the turn at once",
                )
        st.trades = trades
        st.sales = len(sold)
        st.changes = changes
        st.discards = discards
        st.bought = sum({1 << s for s in bought})
        st.sold = sum({1 << s for s in sold})
        self.used = used

    # ------------------------------------------------------------------ the market

    def market(self) -> None:
        st = self.st
        named, _ = _card_list("market", self.get("market") or EMPTY, can_open=False, holes=False)
        piles: list[list[int]] = [[] for _ in range(C.NUM_SUITS)]
        for c in named:
            if c == C.JOKER:
                raise PositionError("market", "a joker is never played to the market")
            self.count("market", c)
            piles[C.SUIT_OF[c]].append(c)
        for s in range(C.NUM_SUITS):
            if not piles[s]:
                five = C.kind(s, 5)
                piles[s] = [five]
                self.defaults_for_market.append(five)
        busted = [False] * C.NUM_SUITS
        for s in _suits("bankrupt", self.get("bankrupt") or EMPTY):
            top = piles[s][-1]
            if not C.is_face(top):
                raise PositionError(
                    "bankrupt",
                    f"{C.SUITS[s]}'s top card is {C.card_name(top)}; only a face card on top "
                    "bankrupts a suit",
                )
            busted[s] = True
        prices = [0 if busted[s] else C.RANK_OF[piles[s][-1]] for s in range(C.NUM_SUITS)]
        st.piles = piles
        st.busted = busted
        st.prices = prices
        given = self.get("prices")
        if given is not None:
            tokens = given.split()
            if len(tokens) != C.NUM_SUITS:
                raise PositionError(
                    "prices", f"four prices (clubs, diamonds, hearts, spades), not {len(tokens)}"
                )
            for s, token in enumerate(tokens):
                price = integer("prices", token, 0, C.MAX_PRICE)
                if price != prices[s]:
                    top_name = C.card_name(piles[s][-1])
                    why = "bankrupt" if busted[s] else f"its top card is {top_name}"
                    raise PositionError(
                        "prices",
                        f"{C.SUITS[s]} stands at ${prices[s]} ({why}), not ${price}",
                    )

    def check_piles(self) -> None:
        """Every pile could have been built by the setup and legal market changes."""
        st = self.st
        game = self.game
        for s in range(C.NUM_SUITS):
            pile = st.piles[s]
            suit = C.SUITS[s]
            bottom = pile[0]
            if not st.reshuffled:
                lowest = 1 if self.opts.ace_at_setup else 2
                if not lowest <= C.RANK_OF[bottom] <= 10:
                    what = "a number card" if lowest == 1 else "a number card from 2 to 10"
                    raise PositionError(
                        "market",
                        f"the {suit} pile starts with {C.card_name(bottom)}, but before the "
                        f"reshuffle every pile starts with the setup's card, {what}",
                    )
            # The prices each card could have left: a face card may have raised or bankrupted.
            possible = {C.RANK_OF[bottom]} if not C.is_face(bottom) else {0, C.RANK_OF[bottom]}
            for below, card in pairwise(pile):
                r = C.RANK_OF[card]
                if not C.is_face(card):
                    if not C.is_face(below):
                        price = C.RANK_OF[below]
                        if not -game.fall[s] <= r - price <= game.rise[s]:
                            raise PositionError(
                                "market",
                                f"{suit} may rise by at most ${game.rise[s]} and fall by at most "
                                f"${game.fall[s]} a card, so {C.card_name(card)} cannot follow "
                                f"{C.card_name(below)} in its pile",
                            )
                    possible = {r}
                    continue
                raised = any(
                    r > p and (not game.face_raise_limited or r - p <= game.rise[s])
                    for p in possible
                )
                possible = {0, r} if raised else {0}
            if not st.busted[s] and st.prices[s] not in possible:
                raise PositionError(
                    "bankrupt",
                    f"{C.card_name(pile[-1])} on top of {suit} cannot be a raise there, so it "
                    f"bankrupted {suit}: add {C.SUIT_LETTERS[s]} to 'bankrupt'",
                )

    # ------------------------------------------------------------------ the cards

    def count(self, field: str, card: int) -> None:
        self.counts[card] += 1
        if self.counts[card] > C.COPIES:
            raise PositionError(
                field,
                f"a third {C.card_name(card)}: the two decks hold two of each card and two jokers",
            )

    def hand_size(self, q: int) -> int:
        """The number of cards seat ``q`` holds in this position."""
        st = self.st
        if q != st.turn:
            return C.HAND_SIZE
        if st.phase == OVER:
            return C.HAND_SIZE - 1  # an open hand of the seat that drew the joker
        return C.HAND_SIZE - self.used

    def cards(self) -> None:
        st = self.st
        n = self.n
        hands_value = self.get("hands")
        hand_parts = per_seat("hands", hands_value, n) if hands_value is not None else [OPEN] * n
        hands: list[list[int]] = []
        open_hands: list[bool] = []
        for part in hand_parts:
            cards, opened = _card_list("hands", part, can_open=True)
            hands.append(cards)
            open_hands.append(opened)
        certs_value = self.get("certs")
        cert_parts = per_seat("certs", certs_value, n) if certs_value is not None else [EMPTY] * n
        certs = [_card_list("certs", part, can_open=False, holes=False)[0] for part in cert_parts]
        draw, draw_open = _card_list("draw", self.get_or("draw", OPEN), can_open=True)
        discard, discard_open = _card_list("discard", self.get_or("discard", OPEN), can_open=True)
        for name, lists in (("hands", hands), ("certs", certs), ("discard", [discard])):
            for cards in lists:
                for c in cards:
                    if c == _HOLE:
                        continue
                    if c == C.JOKER:
                        raise PositionError(
                            name,
                            "a joker is set aside until the reshuffle, then in the draw pile "
                            "until it is drawn",
                        )
                    self.count(name, c)
        for c in draw:
            if c != _HOLE:
                self.count("draw", c)
        for five in self.defaults_for_market:
            self.counts[five] += 1
            if self.counts[five] > C.COPIES:
                raise PositionError(
                    "market",
                    f"{C.SUITS[C.SUIT_OF[five]]} has no pile named, and both {C.card_name(five)} "
                    "(the card it would start with) are elsewhere: name its pile",
                )
        # The jokers.
        named_jokers = draw.count(C.JOKER)
        jokers = self.jokers
        if jokers is None:
            jokers = JOKERS_DRAW if named_jokers else JOKERS_ASIDE
        want_jokers = {JOKERS_ASIDE: 0, JOKERS_DRAW: C.COPIES, JOKERS_DRAWN: C.COPIES - 1}[jokers]
        if named_jokers > want_jokers or (named_jokers < want_jokers and not draw_open):
            where = {
                JOKERS_ASIDE: "both wait outside the game",
                JOKERS_DRAW: "both are in the draw pile",
                JOKERS_DRAWN: "one was drawn and the other is in the draw pile",
            }[jokers]
            raise PositionError(
                "draw",
                f"it names {named_jokers} of the jokers, but with 'jokers: {jokers}' {where}",
            )
        st.reshuffled = jokers != JOKERS_ASIDE
        st.jokers_out = 0 if st.reshuffled else C.COPIES
        # Unnamed cards, in a shuffle derived from the seed: the hands' ``?`` and open ends
        # first, then the ``?`` of the draw and discard piles, then what is left goes to the
        # draw pile if it is open, else to the discard pile if it is open.
        unnamed = [c for c in range(C.NUM_KINDS) for _ in range(C.COPIES - self.counts[c])]
        derive_rng(st.seed, "position").shuffle(unnamed)
        unnamed.reverse()  # taken from the end

        def fill(field: str, cards: list[int], size: int) -> list[int]:
            """``cards`` with every ``?`` chosen, then filled up to ``size`` cards."""
            out = []
            for c in [*cards, *[_HOLE] * (size - len(cards))]:
                if c == _HOLE:
                    if not unnamed:
                        raise PositionError(
                            field, "every card is named elsewhere: none is left for a '?' or '...'"
                        )
                    c = unnamed.pop()
                out.append(c)
            return out

        for q in range(n):
            size = self.hand_size(q)
            if open_hands[q] and len(hands[q]) > size:
                raise PositionError(
                    "hands", f"seat {q} must hold {size} cards, and {len(hands[q])} are named"
                )
            hands[q] = fill("hands", hands[q], size if open_hands[q] else 0)
            self.check_hand_size(q, len(hands[q]))
        draw = fill("draw", draw, 0)
        discard = fill("discard", discard, 0)
        unnamed.reverse()
        if draw_open:
            draw += unnamed
            draw += [C.JOKER] * (want_jokers - named_jokers)
        elif discard_open:
            discard += unnamed
        elif unnamed:
            shown = " ".join(_names(sorted(unnamed)[:8]))
            more = " ..." if len(unnamed) > 8 else ""
            raise PositionError(
                "discard",
                f"{len(unnamed)} cards are not placed ({shown}{more}); every card exists twice: "
                f"name them, or end the draw or discard pile with {OPEN!r}",
            )
        if not draw and st.phase != OVER:
            raise PositionError(
                "draw", "the draw pile is empty, but it is made anew as soon as it runs out"
            )
        st.hands = [sorted(h) for h in hands]
        st.certs = [sorted(c) for c in certs]
        st.draw = draw[::-1]
        st.discard = discard[::-1]
        if st.phase != OVER and len(discard) < st.discards + st.sales:
            raise PositionError(
                "discard",
                f"{st.discards + st.sales} cards went to the discard pile this turn, but it holds "
                f"{len(discard)}",
            )
        self.check_piles()
        self.check_certs()

    def check_hand_size(self, q: int, size: int) -> None:
        st = self.st
        if q != st.turn:
            if size != C.HAND_SIZE:
                raise PositionError(
                    "hands",
                    f"seat {q} must hold {C.HAND_SIZE} cards (every turn ends by drawing back "
                    f"up to {C.HAND_SIZE}), not {size}",
                )
            return
        low = C.HAND_SIZE - self.used
        if st.phase == OVER:
            if not low <= size < C.HAND_SIZE:
                raise PositionError(
                    "hands",
                    f"seat {q} drew the joker while drawing back up to {C.HAND_SIZE}: it holds "
                    f"from {low} to {C.HAND_SIZE - 1} cards, not {size}",
                )
        elif size != low:
            why = (
                f"{C.HAND_SIZE} less the {self.used} played from its hand this turn"
                if self.used
                else "its turn has just begun"
            )
            raise PositionError("hands", f"seat {q} must hold {low} cards ({why}), not {size}")

    def check_certs(self) -> None:
        st = self.st
        st.held = []
        for q in range(self.n):
            held = [0] * C.NUM_SUITS
            for c in st.certs[q]:
                held[C.SUIT_OF[c]] += C.SHARES[c]
            for s in range(C.NUM_SUITS):
                if held[s] > C.MAX_SHARES:
                    raise PositionError(
                        "certs",
                        f"seat {q} holds {held[s]} shares of {C.SUITS[s]}; nobody may hold more "
                        f"than {C.MAX_SHARES}",
                    )
                if held[s] and st.busted[s] and not self.game.bankrupt_free:
                    raise PositionError(
                        "certs",
                        f"seat {q} holds {C.SUITS[s]}, which is bankrupt and cannot be bought "
                        "(option bankrupt_buying is 'forbidden')",
                    )
            st.held.append(held)
        if st.phase == OVER and any(st.certs):
            raise PositionError("certs", "at the end of the game all stock has been sold")

    # ------------------------------------------------------------------ money

    def money(self) -> None:
        st = self.st
        opts = self.opts
        n = self.n
        st.cash = self.per_seat_numbers("cash", opts.starting_money)
        st.debt = self.per_seat_numbers("debts", 0)
        bank = self.get("bank")
        levy = opts.levy
        if opts.bank_money is None:
            if bank is not None and bank != UNLIMITED:
                raise PositionError(
                    "bank", f"this game's bank is {UNLIMITED} (option bank_money is null)"
                )
            st.bank = n * opts.starting_money - sum(st.cash)
            if any(st.debt):
                raise PositionError(
                    "debts", "debts come from levies, and an unlimited bank never levies"
                )
            st.levies = self.number("levies", 0, 0, MAX_INT)
            if st.levies:
                raise PositionError("levies", "an unlimited bank never levies")
            return
        total = opts.bank_money + n * opts.starting_money
        held = sum(st.cash)
        game_money = (
            f"the game's {_money(total)} ({_money(opts.bank_money)} in the bank and "
            f"{_money(opts.starting_money)} for each of {n} seats)"
        )
        if bank is None:
            if held > total:
                raise PositionError(
                    "cash", f"the seats hold {_money(held)}, more than {game_money}"
                )
            st.bank = total - held
        else:
            if bank == UNLIMITED:
                raise PositionError(
                    "bank",
                    f"this game's bank holds money (option bank_money is {opts.bank_money})",
                )
            st.bank = integer("bank", bank, 0, MAX_INT)
            if held + st.bank != total:
                raise PositionError(
                    "bank",
                    f"cash {_money(held)} and the bank's {_money(st.bank)} make "
                    f"{_money(held + st.bank)}, not {game_money}",
                )
        fewest = -(-max(st.debt) // levy)
        st.levies = self.number("levies", fewest, 0, MAX_INT)
        immediate = self.game.immediate_repay
        for q in range(n):
            debt = st.debt[q]
            if debt > st.levies * levy:
                raise PositionError(
                    "debts",
                    f"seat {q} owes {_money(debt)}, more than {st.levies} levies of "
                    f"{_money(levy)} could leave unpaid ('levies')",
                )
            if debt and st.cash[q]:
                if immediate:
                    raise PositionError(
                        "debts",
                        f"seat {q} owes {_money(debt)} and holds {_money(st.cash[q])}: money "
                        "received repays a debt first (option debt_repayment is 'immediate')",
                    )
                if st.phase == OVER or q != st.turn:
                    raise PositionError(
                        "debts",
                        f"seat {q} owes {_money(debt)} and holds {_money(st.cash[q])}: a debtor "
                        "repays from its cash when its turn ends, so only the seat whose turn it "
                        "is can hold both",
                    )

    # ------------------------------------------------------------------ bookkeeping

    def bookkeeping(self) -> None:
        """The record of public knowledge since the reshuffle, derived from the position.

        The table is assumed to know no more than it sees: as if every card now in a hand
        had been drawn from the new pile since the reshuffle. The new pile then held the
        draw pile's cards, the hands' cards and the joker drawn, if any.
        """
        st = self.st
        if not st.reshuffled:
            st.re_pile = []
            st.re_hands = []
            st.re_drawn = []
            st.re_events = []
            return
        pile = list(st.draw)
        for hand in st.hands:
            pile += hand
        if st.joker_by >= 0:
            pile.append(C.JOKER)
        st.re_pile = sorted(pile)
        st.re_hands = [[] for _ in range(self.n)]
        st.re_drawn = [h[:] for h in st.hands]
        st.re_events = [[-len(h)] if h else [] for h in st.hands]
