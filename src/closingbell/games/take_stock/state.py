"""The complete state of a Take Stock game: plain lists and integers, copied cheaply.

The state is mutable; :meth:`TakeStockFields.clone` copies it field by field. The rules
that change it live in :mod:`closingbell.games.take_stock.rules`, what a seat may see
in :mod:`closingbell.games.take_stock.views`; this module knows neither, and
:mod:`closingbell.games.take_stock.game` binds them into the public state class.

Bookkeeping of public knowledge
-------------------------------
To let a seat's view say exactly what that seat could know, the state also keeps what
the table knows publicly about hidden share cards. After the deal every card in a hand
or in the draw pile belongs to *pool* 0; each reshuffle of the discard pile starts a new
pool made of the (publicly seen) discard pile. ``pool_of[card]`` is that pool while the
card is hidden and ``-1`` once it is face up. ``hand_pool[p][k]`` counts the cards of pool
``k`` in seat ``p``'s hand. Cards taken from the discard pile by Insider Trading are shown
to everyone, so they sit in ``known[p]`` instead. ``ev_below_mask`` and
``ev_discard_mask`` say who knows each face-down event card (bit ``p`` for seat ``p``,
bit ``players`` for everyone).
"""

from __future__ import annotations

from typing import Self, TypeVar

from closingbell.core import serial
from closingbell.core.events import Entry
from closingbell.core.game import State
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.ruleset import TakeStockRuleset

# Decision kinds, in the order they appear in a turn.
ACTION = 0
DISCARD = 1
CHOOSE = 2
AUDIT_STOCK = 3
AUDIT_WHAT = 4
FREEZE = 5
RETRIEVE = 6
INSIDER_DISCARD = 7
DOWNTURN = 8
EXERCISE = 9
OVER = 10
PHASE_NAMES: tuple[str, ...] = (
    "action",
    "discard",
    "choose_event",
    "audit_stock",
    "audit_what",
    "freeze_stock",
    "retrieve",
    "insider_discard",
    "downturn_discard",
    "exercise",
    "game_over",
)
"""The name of each decision kind, as views and documents call it."""

SECRET_DECISIONS = frozenset({PHASE_NAMES[DOWNTURN], PHASE_NAMES[EXERCISE]})
"""Decisions every eligible seat answers in secret, revealed together once all have chosen:
which card goes in a Market Downturn, which cards are exercised at the end of a round."""

# What the discard after a turn action is for.
FOLLOW_NONE = 0
FOLLOW_SAVE = 1
FOLLOW_MARKET_A = 2
FOLLOW_MARKET_B = 3
FOLLOW_PLAY = 4

FORMAT = "closingbell.take_stock.state"
"""The format name written into every serialized Take Stock state."""

ROUND_END_REASONS = ("market_closed", "high_card", "empty_hand", "no_cards")
"""Why a round ended: Market Closed drawn, an 11 or 12 placed, a hand emptied, or no
share card left to draw."""

EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "round_start": ("round", "dealer"),
    "draw": ("seat", "card"),
    "reshuffle": ("cards",),
    "raise": ("seat", "card"),
    "save": ("seat", "card"),
    "discard": ("seat", "card"),
    "market": ("seat", "option"),
    "drew_events": ("seat", "count", "events"),
    "market_closed": ("seat",),
    "play": ("seat", "event"),
    "choose": ("seat", "event"),
    "event_discard": ("seat", "event"),
    "split": ("stock", "removed", "discarded"),
    "crash": ("stock", "removed", "split_removed", "freeze_removed"),
    "retrieve": ("seat", "card"),
    "audit": ("seat", "stock", "removed"),
    "freeze": ("seat", "stock", "frozen"),
    "tokens": ("seat", "change"),
    "downturn_discard": ("seat", "card"),
    "downturn_reveal": ("cards",),
    "exercise": ("seat", "card"),
    "exercise_reveal": ("cards",),
    "round_end": ("round", "reason"),
    "round_score": ("round", "scores", "shares", "prices"),
    "game_over": ("scores", "winners"),
}
"""The field names of each event kind in the log (see ``visible_events``).

``draw``, ``drew_events``, ``event_discard``, ``downturn_discard`` and ``exercise`` are
private: their owner reads every value, everyone else reads ``null`` for the card or the
event kinds (``drew_events`` gives every reader the ``count`` of event cards drawn).
"""

_SEAT = serial.SEAT
_CARD = serial.ints(0, C.NUM_SHARE_CARDS - 1)
_EVENT = serial.ints(0, C.NUM_EVENT_KINDS - 1)
_STOCK = serial.ints(0, C.NUM_STOCKS - 1)
_ROUND = serial.ints(1, C.MAX_ROUNDS)
_POINTS = serial.ints(0, C.MAX_ROUND_POINTS)
EVENT_VALUES: dict[str, tuple[serial.ValueCheck, ...]] = {
    "round_start": (_ROUND, _SEAT),
    "draw": (_SEAT, serial.optional(_CARD)),
    "reshuffle": (serial.ints(1, C.NUM_SHARE_CARDS),),
    "raise": (_SEAT, _CARD),
    "save": (_SEAT, _CARD),
    "discard": (_SEAT, _CARD),
    "market": (_SEAT, serial.one_of("A", "B")),
    "drew_events": (_SEAT, serial.ints(1, 2), serial.optional(serial.tuple_of(_EVENT, 1, 2))),
    "market_closed": (_SEAT,),
    "play": (_SEAT, _EVENT),
    "choose": (_SEAT, _EVENT),
    "event_discard": (_SEAT, serial.optional(_EVENT)),
    "split": (_STOCK, serial.optional(_CARD), serial.BOOL),
    "crash": (_STOCK, serial.tuple_of(_CARD, 0, C.VALUES), serial.BOOL, serial.BOOL),
    "retrieve": (_SEAT, _CARD),
    "audit": (
        _SEAT,
        _STOCK,
        serial.one_of("nothing", "split", *(C.card_name(c) for c in range(C.NUM_SHARE_CARDS))),
    ),
    "freeze": (_SEAT, _STOCK, serial.BOOL),
    "tokens": (_SEAT, serial.one_of(1, -1)),
    "downturn_discard": (_SEAT, serial.optional(_CARD)),
    "downturn_reveal": (serial.tuple_of(_CARD, 0, C.NUM_SHARE_CARDS),),
    "exercise": (_SEAT, serial.optional(_CARD)),
    "exercise_reveal": (serial.tuple_of(serial.tuple_of(_CARD), per_seat=True),),
    "round_end": (_ROUND, serial.one_of(*ROUND_END_REASONS)),
    "round_score": (
        _ROUND,
        serial.tuple_of(_POINTS, per_seat=True),
        serial.tuple_of(
            serial.tuple_of(
                serial.ints(0, C.NUM_SHARE_CARDS * C.MAX_CARD_SHARES), C.NUM_STOCKS, C.NUM_STOCKS
            ),
            per_seat=True,
        ),
        serial.tuple_of(serial.ints(0, C.MAX_PRICE), C.NUM_STOCKS, C.NUM_STOCKS),
    ),
    "game_over": (
        serial.tuple_of(serial.ints(0, C.MAX_ROUNDS * C.MAX_ROUND_POINTS), per_seat=True),
        serial.tuple_of(_SEAT, 1),
    ),
}
"""The type of each field of each event kind, checked when a state is read back."""


SHAPES: dict[str, str] = {
    **dict.fromkeys(
        (
            "round",
            "dealer",
            "turn",
            "phase",
            "supply",
            "ev_active",
            "follow",
            "ev_stock",
            "owed",
            "reshuffles",
        ),
        "int",
    ),
    "seed": "seed",
    "cur": "int or null",
    "end_reason": "str or null",
    **dict.fromkeys(
        (
            "splits",
            "tokens",
            "draw",
            "discard",
            "ev_above",
            "ev_below",
            "ev_below_mask",
            "ev_discard",
            "ev_discard_mask",
            "totals",
            "pool_of",
            "pair",
            "retrieved",
            "queue",
            "history",
        ),
        "list of int",
    ),
    "frozen": "list of bool",
    "round_reasons": "list of str",
    **dict.fromkeys(
        ("rows", "hands", "certs", "saved", "round_scores", "hand_pool", "known", "hidden"),
        "list of list of int",
    ),
    "log": "list",
}
"""The JSON shape of every field of a serialized Take Stock state."""


class TakeStockFields(State):
    """The fields of a Take Stock position, and its copy.

    The rules, views and positions read and write these fields; the class that users get,
    :class:`~closingbell.games.take_stock.TakeStockState`, adds the methods of the
    ``State`` protocol on top (in :mod:`.game`).
    """

    __slots__ = (
        "certs",
        "dealer",
        "discard",
        "draw",
        "end_reason",
        "ev_above",
        "ev_active",
        "ev_below",
        "ev_below_mask",
        "ev_discard",
        "ev_discard_mask",
        "ev_stock",
        "follow",
        "frozen",
        "hand_pool",
        "hands",
        "hidden",
        "known",
        "owed",
        "pair",
        "pool_of",
        "queue",
        "reshuffles",
        "retrieved",
        "round",
        "round_reasons",
        "round_scores",
        "rows",
        "saved",
        "shares",
        "splits",
        "supply",
        "tokens",
        "totals",
        "turn",
    )

    FORMAT = FORMAT
    SHAPES = SHAPES
    PHASE_NAMES = PHASE_NAMES
    EVENT_FIELDS = EVENT_FIELDS
    SECRET_DECISIONS = SECRET_DECISIONS
    EVENT_VALUES = EVENT_VALUES

    game: TakeStockRuleset
    n: int
    shares: tuple[int, ...]
    seed: int
    round: int
    dealer: int
    turn: int
    cur: int | None
    phase: int
    rows: list[list[int]]
    splits: list[int]
    frozen: list[bool]
    hands: list[list[int]]
    certs: list[list[int]]
    tokens: list[int]
    supply: int
    draw: list[int]
    discard: list[int]
    ev_above: list[int]
    ev_below: list[int]
    ev_below_mask: list[int]
    ev_discard: list[int]
    ev_discard_mask: list[int]
    ev_active: int
    saved: list[list[int]]
    totals: list[int]
    round_scores: list[list[int]]
    round_reasons: list[str]
    end_reason: str | None
    pool_of: list[int]
    hand_pool: list[list[int]]
    known: list[list[int]]
    follow: int
    pair: list[int]
    ev_stock: int
    retrieved: list[int]
    owed: int
    queue: list[int]
    hidden: list[list[int]]
    reshuffles: int
    history: list[int]
    log: list[Entry]
    _legal: list[int] | None

    def _after_read(self) -> None:
        self.shares = self.game.shares

    def clone(self) -> Self:
        """An independent copy (field by field; no deepcopy)."""
        # object.__new__ skips State.__new__'s default: every field is copied below.
        new = object.__new__(type(self))
        new.game = self.game
        new.n = self.n
        new.shares = self.shares
        new.seed = self.seed
        new.from_deal = self.from_deal
        new.round = self.round
        new.dealer = self.dealer
        new.turn = self.turn
        new.cur = self.cur
        new.phase = self.phase
        new.rows = [r[:] for r in self.rows]
        new.splits = self.splits[:]
        new.frozen = self.frozen[:]
        new.hands = [h[:] for h in self.hands]
        new.certs = [c[:] for c in self.certs]
        new.tokens = self.tokens[:]
        new.supply = self.supply
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.ev_above = self.ev_above[:]
        new.ev_below = self.ev_below[:]
        new.ev_below_mask = self.ev_below_mask[:]
        new.ev_discard = self.ev_discard[:]
        new.ev_discard_mask = self.ev_discard_mask[:]
        new.ev_active = self.ev_active
        new.saved = [s[:] for s in self.saved]
        new.totals = self.totals[:]
        new.round_scores = [r[:] for r in self.round_scores]
        new.round_reasons = self.round_reasons[:]
        new.end_reason = self.end_reason
        new.pool_of = self.pool_of[:]
        new.hand_pool = [h[:] for h in self.hand_pool]
        new.known = [k[:] for k in self.known]
        new.follow = self.follow
        new.pair = self.pair[:]
        new.ev_stock = self.ev_stock
        new.retrieved = self.retrieved[:]
        new.owed = self.owed
        new.queue = self.queue[:]
        new.hidden = [h[:] for h in self.hidden]
        new.reshuffles = self.reshuffles
        new.history = self.history[:]
        new.log = self.log[:]
        new._legal = self._legal
        return new


AnyState = TypeVar("AnyState", bound=TakeStockFields)
"""A class of Take Stock states, as the functions that make one are handed it."""
