"""Take Stock's cards as data: the five stocks, the 60 share cards and the 40 event cards.

A share card's id is ``stock * 12 + value - 1``. Event cards that look alike are
interchangeable, so an event card is known by its kind; :data:`EVENT_DECK` lists how many
cards of each kind the deck holds.
"""

from __future__ import annotations

STOCKS: tuple[str, ...] = ("Corn", "Gem", "Oil", "Tech", "Movie")
"""The five companies, in the order the market rows are laid out."""
NUM_STOCKS = len(STOCKS)
VALUES = 12
"""Each stock has share cards of values 1 to 12."""
NUM_SHARE_CARDS = NUM_STOCKS * VALUES
MAX_RAISE = 4
"""A raise may add at most this much to the top value of a row."""
CLOSING_VALUES = frozenset({11, 12})
"""Placing one of these values on a row closes the market."""
HAND_SIZES: dict[int, int] = {2: 7, 3: 6, 4: 5, 5: 4, 6: 4}
"""Cards dealt to each player, by number of players."""
START_TOKENS = 4
"""Option tokens each player receives at the start of the game."""
TOTAL_TOKENS = 30
"""Option tokens in the box."""
CARDS_BELOW_CLOSED = 10
"""Event cards put under Market Closed when the event pile is made anew."""
MAX_RETRIEVE = 3
"""Insider Trading retrieves at most this many cards."""
MAX_ROUNDS = 12
"""The most rounds the ``rounds`` option allows."""
MAX_CARD_SHARES = 3
"""The most shares the ``shares_table`` option may print on one card."""

DEFAULT_SHARES: tuple[int, ...] = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3)
"""Shares printed on the cards of values 2 to 12 (the same for every stock).

No published source gives this table: it is the project's assumption, described in
``docs/rules/take-stock.md``, and the ``shares_table`` option replaces it.
"""


def card_id(stock: int, value: int) -> int:
    """The id of the share card of ``stock`` with ``value``."""
    return stock * VALUES + value - 1


def card_stock(card: int) -> int:
    """The stock of a share card."""
    return card // VALUES


def card_value(card: int) -> int:
    """The value of a share card."""
    return card % VALUES + 1


def card_name(card: int) -> str:
    """The text form of a share card, such as ``Oil 7``."""
    return f"{STOCKS[card // VALUES]} {card % VALUES + 1}"


ONES: tuple[int, ...] = tuple(card_id(s, 1) for s in range(NUM_STOCKS))
"""The five starter cards, which never leave the market."""
SHARE_CARDS: tuple[int, ...] = tuple(c for c in range(NUM_SHARE_CARDS) if c % VALUES != 0)
"""The 55 share cards of values 2 to 12, which are shuffled and dealt."""

# Event kinds. Per-stock kinds occupy a block of five ids in stock order.
SPLIT = 0
CRASH = 5
INSIDER = 10
AUDIT = 15
FREEZE = 16
NO_CHANGE = 17
UPTURN = 18
DOWNTURN = 19
OPTION_GAINED = 20
OPTION_LOST = 21
MARKET_CRASH = 22
MARKET_CLOSED = 23
NUM_EVENT_KINDS = 24

EVENT_NAMES: tuple[str, ...] = (
    *(f"Split {s}" for s in STOCKS),
    *(f"Crash {s}" for s in STOCKS),
    *(f"Insider {s}" for s in STOCKS),
    "Audit",
    "Freeze",
    "No Change",
    "Upturn",
    "Downturn",
    "Option Gained",
    "Option Lost",
    "Market Crash",
    "Market Closed",
)
"""The text form of each event kind."""

EVENT_DECK: tuple[int, ...] = (
    *(3,) * NUM_STOCKS,  # stock splits
    *(1,) * NUM_STOCKS,  # stock crashes
    *(1,) * NUM_STOCKS,  # insider trading
    4,  # audit
    3,  # freeze
    2,  # no market change
    1,  # upturn
    1,  # downturn
    1,  # option gained
    1,  # option lost
    1,  # market crash
    1,  # market closed
)
"""How many cards of each event kind the deck holds (40 in all)."""
NUM_EVENT_CARDS = sum(EVENT_DECK)
MAX_SPLITS = EVENT_DECK[SPLIT]
"""The most splits a stock can carry: one per split card of its own."""
MAX_PRICE = VALUES * (MAX_SPLITS + 1)
"""The highest price a stock can reach: a 12 under three splits."""
MAX_ROUND_POINTS = NUM_STOCKS * (VALUES - 1) * MAX_CARD_SHARES * MAX_PRICE
"""More points than one seat can score in a round (every card at the highest price)."""
EVENT_CARDS: tuple[int, ...] = tuple(k for k, n in enumerate(EVENT_DECK) for _ in range(n))
"""The 40 event cards, as kinds, in kind order."""


def event_stock(kind: int) -> int | None:
    """The stock a split, crash or insider card names, else ``None``."""
    return kind % NUM_STOCKS if kind < AUDIT else None
