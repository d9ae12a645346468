"""The complete state of a Card Stock Market game: plain lists and integers, copied cheaply.

The state is mutable; :meth:`CardStockMarketFields.clone` copies it field by field. The
rules that change it live in :mod:`closingbell.games.card_stock_market.rules`, what a seat
may see in :mod:`closingbell.games.card_stock_market.views`; this module knows neither, and
:mod:`closingbell.games.card_stock_market.game` binds them into the public state class.

Cards are kinds (see :mod:`.cards`); two copies of each kind exist, and both jokers are
:data:`~.cards.JOKER`. Hands and certificates are kept sorted.

Bookkeeping of public knowledge
-------------------------------
Before the draw pile first runs out, every hidden card (in a hand or in the draw pile) is
as likely to be anywhere as any other, so nothing more is needed. The reshuffle changes
that: the new draw pile is made of cards everyone saw (the market piles' lower cards, the
discard pile and the two jokers), while the hands keep cards from before. So the state
records, at the reshuffle, the new pile (``re_pile``) and each hand (``re_hands``), and
from then on the cards each seat draws (``re_drawn``) and each seat's public record
(``re_events``: a card kind for every card that left the hand face up, ``-k`` for ``k``
cards drawn). A seat sees the pile, the sizes of the hands, its own hand and draws, and
every record; that is enough to deal the unseen cards again in a way that could have
happened (see ``views.sample_state``).
"""

from __future__ import annotations

from typing import Self, TypeVar

from closingbell.core import serial
from closingbell.core.checks import MAX_INT
from closingbell.core.events import Entry
from closingbell.core.game import State
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.ruleset import CardStockMarketRuleset

# Decision kinds.
START = 0
TRADE = 1
MARKET = 2
DISCARD = 3
OVER = 4
PHASE_NAMES: tuple[str, ...] = ("turn", "trading", "market", "discarding", "game_over")
"""The name of each decision kind: the turn's first choice, more trading, more market
changes, more discards, and the end of the game."""

EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("dealer", "turned", "tops"),
    "deal": ("seat", "count", "cards"),
    "turn": ("seat", "number"),
    "buy": ("seat", "card", "price", "cost"),
    "sell": ("seat", "card", "price", "paid"),
    "levy": ("paid", "owed"),
    "repay": ("seat", "amount"),
    "market": ("seat", "card", "price"),
    "bankrupt": ("seat", "card", "lost"),
    "discard": ("seat", "card"),
    "end_turn": ("seat",),
    "draw": ("seat", "count", "cards"),
    "reshuffle": ("cards",),
    "joker": ("seat",),
    "final_sale": ("seat", "card", "price", "paid"),
    "game_over": ("scores", "winners"),
}
"""The field names of each event kind in the log (see ``visible_events``).

``deal`` and ``draw`` are private: every reader gets the ``count`` of cards; their owner
also gets the ``cards`` (a deal sorted, a draw in the order drawn), everyone else ``null``.
``levy`` lists what each seat paid and what each seat newly owes; ``bankrupt`` lists the
shares each seat lost; ``setup`` lists every card the banker turned up, in order, and the
four that started the market piles (the others went back into the deck).
"""

_SEAT = serial.SEAT
_KIND = serial.ints(0, C.NUM_KINDS - 1)
_PRICE = serial.ints(0, C.MAX_PRICE)
_MONEY = serial.ints(0, MAX_INT)
EVENT_VALUES: dict[str, tuple[serial.ValueCheck, ...]] = {
    "setup": (
        _SEAT,
        serial.tuple_of(_KIND, C.NUM_SUITS, C.DECK_SIZE),
        serial.tuple_of(_KIND, C.NUM_SUITS, C.NUM_SUITS),
    ),
    "deal": (
        _SEAT,
        serial.one_of(C.HAND_SIZE),
        serial.optional(serial.tuple_of(_KIND, C.HAND_SIZE, C.HAND_SIZE)),
    ),
    "turn": (_SEAT, serial.ints(1, MAX_INT)),
    "buy": (_SEAT, _KIND, _PRICE, _MONEY),
    "sell": (_SEAT, _KIND, _PRICE, _MONEY),
    "levy": (serial.tuple_of(_MONEY, per_seat=True), serial.tuple_of(_MONEY, per_seat=True)),
    "repay": (_SEAT, _MONEY),
    "market": (_SEAT, _KIND, _PRICE),
    "bankrupt": (_SEAT, _KIND, serial.tuple_of(serial.ints(0, C.MAX_SHARES), per_seat=True)),
    "discard": (_SEAT, _KIND),
    "end_turn": (_SEAT,),
    "draw": (
        _SEAT,
        serial.ints(1, C.HAND_SIZE),
        serial.optional(serial.tuple_of(_KIND, 1, C.HAND_SIZE)),
    ),
    "reshuffle": (serial.ints(1, C.DECK_SIZE + C.COPIES),),
    "joker": (_SEAT,),
    "final_sale": (_SEAT, _KIND, _PRICE, _MONEY),
    "game_over": (serial.tuple_of(serial.NUMBER, per_seat=True), serial.tuple_of(_SEAT, 1)),
}
"""The type of each field of each event kind, checked when a state is read back."""


FORMAT = "closingbell.card_stock_market.state"
"""The format name written into every serialized Card Stock Market state."""

SHAPES: dict[str, str] = {
    **dict.fromkeys(
        (
            "dealer",
            "turn",
            "turns",
            "phase",
            "bank",
            "levies",
            "jokers_out",
            "joker_by",
            "trades",
            "sales",
            "changes",
            "discards",
            "bought",
            "sold",
        ),
        "int",
    ),
    "seed": "seed",
    "cur": "int or null",
    "reshuffled": "bool",
    **dict.fromkeys(
        ("prices", "cash", "debt", "draw", "discard", "re_pile", "history"), "list of int"
    ),
    "busted": "list of bool",
    **dict.fromkeys(
        ("piles", "hands", "certs", "held", "re_hands", "re_drawn", "re_events"),
        "list of list of int",
    ),
    "log": "list",
}
"""The JSON shape of every field of a serialized Card Stock Market state."""


class CardStockMarketFields(State):
    """The fields of a Card Stock Market position, and its copy.

    The rules, views and positions read and write these fields; the class that users get,
    :class:`~closingbell.games.card_stock_market.CardStockMarketState`, adds the methods
    of the ``State`` protocol on top (in :mod:`.game`).
    """

    __slots__ = (
        "bank",
        "bought",
        "busted",
        "cash",
        "certs",
        "changes",
        "dealer",
        "debt",
        "discard",
        "discards",
        "draw",
        "hands",
        "held",
        "joker_by",
        "jokers_out",
        "levies",
        "piles",
        "prices",
        "re_drawn",
        "re_events",
        "re_hands",
        "re_pile",
        "reshuffled",
        "sales",
        "sold",
        "trades",
        "turn",
        "turns",
    )

    FORMAT = FORMAT
    SHAPES = SHAPES
    PHASE_NAMES = PHASE_NAMES
    EVENT_FIELDS = EVENT_FIELDS
    EVENT_VALUES = EVENT_VALUES

    game: CardStockMarketRuleset
    n: int
    seed: int
    dealer: int
    turn: int
    turns: int
    cur: int | None
    phase: int
    piles: list[list[int]]
    busted: list[bool]
    prices: list[int]
    hands: list[list[int]]
    certs: list[list[int]]
    held: list[list[int]]
    cash: list[int]
    debt: list[int]
    bank: int
    levies: int
    draw: list[int]
    discard: list[int]
    jokers_out: int
    joker_by: int
    reshuffled: bool
    re_pile: list[int]
    re_hands: list[list[int]]
    re_drawn: list[list[int]]
    re_events: list[list[int]]
    trades: int
    sales: int
    changes: int
    discards: int
    bought: int
    sold: int
    history: list[int]
    log: list[Entry]
    _legal: list[int] | None

    def clone(self) -> Self:
        """An independent copy (field by field; no deepcopy)."""
        # object.__new__ skips State.__new__'s default: every field is copied below.
        new = object.__new__(type(self))
        new.game = self.game
        new.n = self.n
        new.seed = self.seed
        new.from_deal = self.from_deal
        new.dealer = self.dealer
        new.turn = self.turn
        new.turns = self.turns
        new.cur = self.cur
        new.phase = self.phase
        new.piles = [p[:] for p in self.piles]
        new.busted = self.busted[:]
        new.prices = self.prices[:]
        new.hands = [h[:] for h in self.hands]
        new.certs = [c[:] for c in self.certs]
        new.held = [h[:] for h in self.held]
        new.cash = self.cash[:]
        new.debt = self.debt[:]
        new.bank = self.bank
        new.levies = self.levies
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.jokers_out = self.jokers_out
        new.joker_by = self.joker_by
        new.reshuffled = self.reshuffled
        new.re_pile = self.re_pile  # never changed after the reshuffle: shared safely
        new.re_hands = self.re_hands  # likewise
        new.re_drawn = [d[:] for d in self.re_drawn]
        new.re_events = [e[:] for e in self.re_events]
        new.trades = self.trades
        new.sales = self.sales
        new.changes = self.changes
        new.discards = self.discards
        new.bought = self.bought
        new.sold = self.sold
        new.history = self.history[:]
        new.log = self.log[:]
        new._legal = self._legal
        return new


AnyState = TypeVar("AnyState", bound=CardStockMarketFields)
"""A class of Card Stock Market states, as the functions that make one are handed it."""
